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
//! does); colours are looked up once per pixel.

use super::render::spread;
use super::{Ppu, WIDTH};

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
    pub(super) fn render_cgb_line(&mut self, row_start: usize) {
        let lcdc = self.lcdc;
        // Colour index and attributes of each background/window pixel (16 spare for the fine
        // scroll and the window's clipped pixels).
        let mut index = [0u8; WIDTH + 16];
        let mut attrs = [0u8; WIDTH + 16];
        let fine = usize::from(self.scx & 7);
        let window_visible = self.window_on_line();
        let start = if window_visible {
            usize::from(self.wx).saturating_sub(7)
        } else {
            WIDTH
        };
        let bg_tiles = (start + fine).div_ceil(8);
        let map = if lcdc & 0x08 != 0 { 0x1C00 } else { 0x1800 };
        let py = self.line.wrapping_add(self.scy);
        let first = self.scx / 8;
        let row = usize::from(py / 8) * 32;
        for t in 0..bg_tiles {
            let col = usize::from(first.wrapping_add(t as u8) & 31);
            let (lo, hi, attr) = self.cgb_tile_row(map + row + col, py);
            let at = t * 8;
            index[at..at + 8].copy_from_slice(&indices(lo, hi));
            attrs[at..at + 8].fill(attr);
        }
        if fine != 0 {
            index.copy_within(fine..fine + WIDTH, 0);
            attrs.copy_within(fine..fine + WIDTH, 0);
        }
        if window_visible {
            let map = if lcdc & 0x40 != 0 { 0x1C00 } else { 0x1800 };
            let wy = self.window_line;
            let row = usize::from(wy / 8) * 32;
            let skip = 7usize.saturating_sub(usize::from(self.wx));
            let n = WIDTH - start;
            let mut windex = [0u8; WIDTH + 16];
            let mut wattrs = [0u8; WIDTH + 16];
            for t in 0..(skip + n).div_ceil(8) {
                let (lo, hi, attr) = self.cgb_tile_row(map + row + (t & 31), wy);
                let at = t * 8;
                windex[at..at + 8].copy_from_slice(&indices(lo, hi));
                wattrs[at..at + 8].fill(attr);
            }
            index[start..WIDTH].copy_from_slice(&windex[skip..skip + n]);
            attrs[start..WIDTH].copy_from_slice(&wattrs[skip..skip + n]);
            self.window_drawn = true;
        }
        let mut colors = [0u16; WIDTH];
        for (x, c) in colors.iter_mut().enumerate() {
            *c = self
                .cram
                .bg_color(usize::from(attrs[x] & 7), usize::from(index[x]));
        }
        if lcdc & 0x02 != 0 {
            self.cgb_objects(&index, &attrs, &mut colors);
        }
        self.framebuffer.pixels_mut()[row_start..row_start + WIDTH].copy_from_slice(&colors);
    }

    /// Draw the line's objects over `colors` (the background and window, whose colour indices
    /// and attributes are `index` and `attrs`).
    fn cgb_objects(
        &self,
        index: &[u8; WIDTH + 16],
        attrs: &[u8; WIDTH + 16],
        colors: &mut [u16; WIDTH],
    ) {
        let height = if self.lcdc & 0x04 != 0 { 16 } else { 8 };
        let master = self.lcdc & 0x01 != 0;
        let n = self.line_objects().len();
        let mut order: [u8; 10] = self.line_sprites;
        let order = &mut order[..n];
        if self.opri & 1 != 0 {
            order.sort_by_key(|&i| (self.oam[usize::from(i) * 4 + 1], i));
        }
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
            let palette = usize::from(attr & 7);
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
                    colors[x] = self.cram.obj_color(palette, usize::from(idx));
                }
            }
        }
    }
}
