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
//! Tile rows are decoded 8 pixels at a time as byte lanes of a `u64` (as the DMG renderer
//! does); colours come from a table of the 32 palette colours taken once per line.

use super::render::spread;
use super::{Ppu, WIDTH};

/// Pixels of the line buffers left of the screen's first.
const LEAD: usize = 8;
/// The line buffers' length: the lead, the screen, and a tile's spill past its right edge.
const BUF: usize = LEAD + WIDTH + 16;

/// The colour index (0-3) of 8 pixels from a tile row's two bit planes, as bytes (leftmost
/// first).
#[inline]
fn indices(lo: u8, hi: u8) -> [u8; 8] {
    let lanes = (spread(lo) & 0x0101_0101_0101_0101) | (spread(hi) & 0x0202_0202_0202_0202);
    lanes.to_le_bytes()
}

impl Ppu {
    /// The two bit planes of the row `y` (0-7, before any flip) of the tile whose map entry
    /// is at `map_addr` (bank 0), and the entry's attributes (bank 1), flips applied.
    #[inline]
    fn cgb_tile_row(&self, map_addr: usize, y: u8) -> (u8, u8, u8) {
        let tile = self.vram[map_addr];
        let attr = self.vram[0x2000 + map_addr];
        let y = if attr & 0x40 != 0 { 7 - (y & 7) } else { y & 7 };
        let base = if self.lcdc & 0x10 != 0 {
            usize::from(tile) * 16
        } else {
            0x1000usize.wrapping_add_signed(isize::from(tile as i8) * 16)
        };
        let bank = usize::from(attr & 0x08) << 10;
        let addr = bank + ((base + usize::from(y) * 2) & 0x1FFE);
        let (mut lo, mut hi) = (self.vram[addr], self.vram[addr + 1]);
        if attr & 0x20 != 0 {
            lo = lo.reverse_bits();
            hi = hi.reverse_bits();
        }
        (lo, hi, attr)
    }

    /// Draw the current line in CGB mode from the registers as they are now (see the module
    /// docs).
    ///
    /// Tiles are written at their place in line buffers that start [`LEAD`] pixels before the
    /// screen's left edge (the fine scroll and a window left of x = 0 land there), colours
    /// looked up per tile from the palettes as they are at the line's start.
    pub(super) fn render_cgb_line(&mut self, row_start: usize) {
        let lcdc = self.lcdc;
        let pal = self.cram.bg_table();
        // Colour index, attributes and colour of each background/window pixel.
        let mut index = [0u8; BUF];
        let mut attrs = [0u8; BUF];
        let mut line = [0u16; BUF];
        let mut put = |at: usize, (lo, hi, attr): (u8, u8, u8)| {
            let px = indices(lo, hi);
            index[at..at + 8].copy_from_slice(&px);
            attrs[at..at + 8].fill(attr);
            let p = &pal[usize::from(attr & 7) * 4..][..4];
            for (c, &i) in line[at..at + 8].iter_mut().zip(&px) {
                *c = p[usize::from(i & 3)];
            }
        };
        let fine = usize::from(self.scx & 7);
        let window_visible = self.window_on_line();
        let start = if window_visible {
            usize::from(self.wx).saturating_sub(7)
        } else {
            WIDTH
        };
        let map = if lcdc & 0x08 != 0 { 0x1C00 } else { 0x1800 };
        let py = self.line.wrapping_add(self.scy);
        let first = self.scx / 8;
        let row = usize::from(py / 8) * 32;
        for t in 0..(start + fine).div_ceil(8) {
            let col = usize::from(first.wrapping_add(t as u8) & 31);
            put(LEAD - fine + t * 8, self.cgb_tile_row(map + row + col, py));
        }
        if window_visible {
            let map = if lcdc & 0x40 != 0 { 0x1C00 } else { 0x1800 };
            let wy = self.window_line;
            let row = usize::from(wy / 8) * 32;
            // WX < 7 puts the window's first pixels left of the screen (`start` is 0 then).
            let skip = 7usize.saturating_sub(usize::from(self.wx));
            for t in 0..(skip + WIDTH - start).div_ceil(8) {
                put(
                    LEAD + start - skip + t * 8,
                    self.cgb_tile_row(map + row + (t & 31), wy),
                );
            }
            self.window_drawn = true;
        }
        let screen = LEAD..LEAD + WIDTH;
        let mut colors = [0u16; WIDTH];
        colors.copy_from_slice(&line[screen.clone()]);
        if lcdc & 0x02 != 0 {
            self.cgb_objects(&index[screen.clone()], &attrs[screen], &mut colors);
        }
        self.framebuffer.pixels_mut()[row_start..row_start + WIDTH].copy_from_slice(&colors);
    }

    /// Draw the line's objects over `colors` (the background and window, whose colour indices
    /// and attributes are `index` and `attrs`).
    fn cgb_objects(&self, index: &[u8], attrs: &[u8], colors: &mut [u16; WIDTH]) {
        let height = if self.lcdc & 0x04 != 0 { 16 } else { 8 };
        let master = self.lcdc & 0x01 != 0;
        let n = self.line_objects().len();
        let mut order: [u8; 10] = self.line_sprites;
        let order = &mut order[..n];
        if self.opri & 1 != 0 {
            order.sort_by_key(|&i| (self.oam[usize::from(i) * 4 + 1], i));
        }
        let pal = self.cram.obj_table();
        let mut claimed = [false; WIDTH];
        for &i in order.iter() {
            let o = usize::from(i) * 4;
            let (sy, sx, mut tile, attr) = (
                self.oam[o],
                self.oam[o + 1],
                self.oam[o + 2],
                self.oam[o + 3],
            );
            let mut row = self.line.wrapping_add(16).wrapping_sub(sy);
            if attr & 0x40 != 0 {
                row = height - 1 - row;
            }
            if height == 16 {
                tile &= 0xFE;
            }
            let addr =
                usize::from(attr & 0x08) << 10 | (usize::from(tile) * 16 + usize::from(row) * 2);
            let (mut lo, mut hi) = (self.vram[addr], self.vram[addr + 1]);
            if attr & 0x20 != 0 {
                lo = lo.reverse_bits();
                hi = hi.reverse_bits();
            }
            let px = indices(lo, hi);
            let palette = &pal[usize::from(attr & 7) * 4..][..4];
            for (k, &idx) in px.iter().enumerate() {
                let x = i16::from(sx) - 8 + k as i16;
                if !(0..WIDTH as i16).contains(&x) || idx == 0 {
                    continue;
                }
                let x = x as usize;
                if claimed[x] {
                    continue;
                }
                claimed[x] = true;
                let bg_wins = master && index[x] != 0 && (attrs[x] & 0x80 != 0 || attr & 0x80 != 0);
                if !bg_wins {
                    colors[x] = palette[usize::from(idx & 3)];
                }
            }
        }
    }
}
