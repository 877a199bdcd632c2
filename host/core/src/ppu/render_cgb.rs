//! The CGB-mode line renderer (Pan Docs "BG Map Attributes (CGB Mode only)", "Object
//! Priority and Conflicts", "LCDC.0 — BG and Window enable/priority"): RGB555 colours straight
//! into the frame.
//!
//! - Background and window tiles take their attributes from VRAM bank 1 at the tile map
//!   entry's address: bits 0-2 the colour palette, bit 3 the tile data's bank, bit 5 a
//!   horizontal flip, bit 6 a vertical flip, bit 7 priority over objects.
//! - Objects: OAM attribute bits 0-2 are the colour palette, bit 3 the tile's bank. Among the
//!   line's objects (the OAM scan's 10), the first in OAM order wins a pixel (in X order, as
//!   on the DMG, when OPRI bit 0 is set); its pixel is the object pixel there even when the
//!   background hides it.
//! - LCDC.0 clear does not hide the background or the window: it takes their priority away,
//!   so objects always show over them (the "master priority"). With it set, a background
//!   pixel of colour 1-3 shows over the object when its tile's priority bit or the object's
//!   OBJ-to-BG bit is set.
//!
//! Tiles and objects are drawn whole into line buffers ([`super::lanes`]): colours 8 pixels
//! at a time from each background palette's 4 colours, whose lanes are kept from line to line
//! while the colour RAM is unchanged ([`super::lanes::PaletteCache`]). The background's
//! priority over objects is kept only on lines with objects to draw.

use super::lanes::{BUF, Claims, ColorLanes, LEAD, blend, flip, lanes_at, opaque, put_lanes};
use super::{Ppu, WIDTH};

/// Per pixel of the background and window, as byte lanes in line buffers: where it hides
/// objects (colour 1-3), and where it hides even objects without the OBJ-to-BG bit (colour 1-3
/// of a tile with the priority bit).
struct BgPriority {
    /// Colour index 1-3.
    opaque: [u8; BUF],
    /// Colour index 1-3 in a tile with the priority bit.
    priority: [u8; BUF],
}

impl BgPriority {
    /// Note a tile row's pixels at `at`.
    #[inline]
    fn put(&mut self, at: usize, lo: u8, hi: u8, attr: u8) {
        let opaque = opaque(lo, hi);
        put_lanes(&mut self.opaque, at, opaque);
        let priority = if attr & 0x80 != 0 { opaque } else { 0 };
        put_lanes(&mut self.priority, at, priority);
    }
}

impl Ppu {
    /// The two bit planes of the row `y` (0-7, before any flip) of the tile whose map entry
    /// is at `map_addr` (bank 0), and the entry's attributes (bank 1), flips applied.
    #[inline]
    fn cgb_tile_row(&self, map_addr: usize, y: u8) -> (u8, u8, u8) {
        let tile = self.vram[map_addr];
        let attr = self.vram[0x2000 + map_addr];
        let y = if attr & 0x40 != 0 { 7 - (y & 7) } else { y & 7 };
        let bank = usize::from(attr & 0x08) << 10;
        let addr = bank + super::render::tile_addr(self.lcdc, tile) + usize::from(y) * 2;
        let (mut lo, mut hi) = (self.vram[addr], self.vram[addr + 1]);
        if attr & 0x20 != 0 {
            lo = flip(lo);
            hi = flip(hi);
        }
        (lo, hi, attr)
    }

    /// Draw the current line in CGB mode from the registers as they are now (see the module
    /// docs), background and window colours taken from the palettes as they are at the line's
    /// start.
    pub(super) fn render_cgb_line(&mut self, row_start: usize) {
        let mut line = [0u16; BUF];
        if self.lcdc & 0x02 != 0 && !self.line_objects().is_empty() {
            let mut bg = BgPriority {
                opaque: [0; BUF],
                priority: [0; BUF],
            };
            self.cgb_background(&mut line, Some(&mut bg));
            self.cgb_objects(&bg, &mut line);
        } else {
            self.cgb_background(&mut line, None);
        }
        self.framebuffer
            .row_mut(row_start / WIDTH)
            .copy_from_slice(&line[LEAD..LEAD + WIDTH]);
    }

    /// Draw the background and window tiles into `line`, noting their priority in `bg` if
    /// given.
    fn cgb_background(&mut self, line: &mut [u16; BUF], mut bg: Option<&mut BgPriority>) {
        self.bg_lanes.refresh(&self.cram.bg);
        let palettes = self.bg_lanes.lanes();
        let window = self.for_each_tile(|at, map_addr, y| {
            let (lo, hi, attr) = self.cgb_tile_row(map_addr, y);
            let colors = palettes[usize::from(attr & 7)].tile(lo, hi);
            line[at..at + 8].copy_from_slice(&colors);
            if let Some(bg) = bg.as_deref_mut() {
                bg.put(at, lo, hi, attr);
            }
        });
        if window {
            self.window_drawn = true;
        }
    }

    /// Draw the line's objects over `line` (the background and window, whose priority is
    /// `bg`).
    fn cgb_objects(&self, bg: &BgPriority, line: &mut [u16; BUF]) {
        let master = self.lcdc & 0x01 != 0;
        let n = self.line_objects().len();
        let mut order: [u8; 10] = self.line_sprites;
        let order = &mut order[..n];
        if self.opri & 1 != 0 {
            order.sort_by_key(|&i| (self.oam[usize::from(i) * 4 + 1], i));
        }
        let table = self.cram.obj_table();
        let mut claims = Claims::new();
        for &i in order.iter() {
            let Some((x, lo, hi, attr)) = self.object_row(i, true) else {
                continue;
            };
            let won = claims.claim(x, opaque(lo, hi));
            let hidden = match (master, attr & 0x80 != 0) {
                (false, _) => 0,
                (true, true) => lanes_at(&bg.opaque, x),
                (true, false) => lanes_at(&bg.priority, x),
            };
            let shown = won & !hidden;
            if shown != 0 {
                let palette = usize::from(attr & 7) * 4;
                let colors = std::array::from_fn(|c| table[palette + c]);
                blend(line, x, ColorLanes::new(colors).tile(lo, hi), shown);
            }
        }
    }
}
