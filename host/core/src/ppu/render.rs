//! The renderer: a line is drawn when its last pixel is out, 8 pixels at a time (tile rows as
//! byte lanes of a `u64`, palettes as lane masks), objects over it; a line with register writes
//! while it was drawn goes to the FIFO replay ([`super::fifo`]) instead. Rows the LCD did not
//! draw are blanked when a frame is handed out.

use super::{HEIGHT, MAX_LINE_WRITES, Ppu, WIDTH};

impl Ppu {
    /// VBlank starts: the last line's scratch data (its colour indices, objects and register
    /// writes) is dead until the next frame's first line writes it again. Clearing it changes
    /// nothing the machine does, and keeps frame-end snapshots free of leftovers that differ
    /// every frame (smaller rewind diffs).
    pub(super) fn clear_line_scratch(&mut self) {
        self.line_index = [0; WIDTH];
        self.line_sprites = [0; 10];
        self.line_sprite_count = 0;
        if self.line_write_count == 0 {
            for w in &mut self.line_writes {
                *w = super::fifo::LineWrite {
                    dot: 0,
                    addr: 0,
                    value: 0,
                };
            }
        }
    }

    /// A frame is handed out: rows the LCD did not draw since the last one (it was off, or
    /// switched on part-way) are blank, as on the screen, whatever the buffer held before.
    pub fn finish_frame(&mut self) {
        if !self.render {
            self.rows_drawn = [0; 3];
            return;
        }
        let blank = self.blank_pixel();
        for y in 0..HEIGHT {
            if self.rows_drawn[y / 64] & (1 << (y % 64)) == 0 {
                self.framebuffer.pixels_mut()[y * WIDTH..(y + 1) * WIDTH].fill(blank);
            }
        }
        self.rows_drawn = [0; 3];
    }

    /// Render the current line into the framebuffer from the registers as they are now.
    ///
    /// Background and window tiles are decoded 8 pixels at a time as byte lanes of a `u64`
    /// ([`spread`]), and BGP is applied with lane masks, so a line costs a few hundred
    /// operations rather than a few per pixel.
    pub(super) fn render_line(&mut self) {
        let y = usize::from(self.line);
        if y >= HEIGHT {
            return;
        }
        let row_start = y * WIDTH;
        if !self.render {
            self.line_unrendered();
            return;
        }
        self.rows_drawn[y / 64] |= 1 << (y % 64);
        if self.blank_frame {
            let blank = self.blank_pixel();
            self.framebuffer.pixels_mut()[row_start..row_start + WIDTH].fill(blank);
            return;
        }
        let whole = self.line_write_count == 0 || self.line_write_count as usize > MAX_LINE_WRITES;
        if whole && self.cgb_mode {
            self.render_cgb_line(row_start);
        } else if whole {
            self.render_whole_line(row_start);
            if self.lcdc & 0x02 != 0 {
                self.render_sprites(row_start);
            }
            if self.cgb {
                self.compat_colors(row_start);
            }
        } else {
            let mut pixels = [0u16; WIDTH];
            let writes = &self.line_writes[..usize::from(self.line_write_count)];
            let end = super::fifo::render(self.line_input(), self.line_regs, writes, &mut pixels);
            self.window_line = end.window_line;
            self.window_drawn = false;
            if !self.cgb {
                // Objects' shades come tagged with their palette, for compatibility mode.
                for p in &mut pixels {
                    *p &= 3;
                }
            }
            self.framebuffer.pixels_mut()[row_start..row_start + WIDTH].copy_from_slice(&pixels);
            if self.cgb && !self.cgb_mode {
                self.compat_colors(row_start);
            }
        }
        self.line_write_count = 0;
        if self.window_drawn {
            self.window_line = self.window_line.wrapping_add(1);
        }
    }

    /// What the FIFO replay of the current line reads.
    fn line_input(&self) -> super::fifo::LineInput<'_> {
        super::fifo::LineInput {
            vram: &self.vram,
            oam: &self.oam,
            objects: self.line_objects(),
            cgb: self.cgb_mode,
            dmg_order: self.opri & 1 != 0,
            cgb_hardware: self.cgb,
            cgb_d: self.cgb_d,
            bg_palettes: &self.cram.bg,
            obj_palettes: &self.cram.obj,
        }
    }

    /// [`Ppu::render_line`] without pixels: what drawing the line changes besides them (the
    /// window line counter, the line's register writes consumed), exactly as drawing does.
    fn line_unrendered(&mut self) {
        if self.blank_frame {
            return;
        }
        let whole = self.line_write_count == 0 || self.line_write_count as usize > MAX_LINE_WRITES;
        if whole {
            // As the renderers decide it: the DMG draws the window only with LCDC.0 on.
            self.window_drawn = self.window_on_line() && (self.cgb_mode || self.lcdc & 0x01 != 0);
        } else {
            // Registers changed mid-line: the replay knows where the window got to.
            let mut pixels = [0u16; WIDTH];
            let writes = &self.line_writes[..usize::from(self.line_write_count)];
            let end = super::fifo::render(self.line_input(), self.line_regs, writes, &mut pixels);
            self.window_line = end.window_line;
            self.window_drawn = false;
        }
        self.line_write_count = 0;
        if self.window_drawn {
            self.window_line = self.window_line.wrapping_add(1);
        }
    }

    /// Draw background and window for the whole line from the registers as they are now.
    pub(super) fn render_whole_line(&mut self, row_start: usize) {
        // Colour index per pixel (for sprite priority), and the shades.
        let mut opaque = [0u8; WIDTH + 16];
        let mut shades = [0u8; WIDTH + 16];
        let lcdc = self.lcdc;
        if lcdc & 0x01 != 0 {
            let pal = Palette::new(self.bgp);
            let fine = usize::from(self.scx & 7);
            // The window covers the line from screen x = WX - 7 (clipped at the left edge).
            let window_visible = self.window_on_line();
            let start = if window_visible {
                usize::from(self.wx).saturating_sub(7)
            } else {
                WIDTH
            };
            // Background tiles: only those showing left of the window.
            let bg_tiles = (start + fine).div_ceil(8);
            let map = if lcdc & 0x08 != 0 { 0x1C00 } else { 0x1800 };
            let py = self.line.wrapping_add(self.scy);
            let first = self.scx / 8;
            for t in 0..bg_tiles {
                let col = first.wrapping_add(t as u8) & 31;
                let (lo, hi) = self.tile_row(map, col, py);
                let at = t * 8;
                shades[at..at + 8].copy_from_slice(&pal.apply(lo, hi).to_le_bytes());
                opaque[at..at + 8].copy_from_slice(&(lo | hi).to_le_bytes());
            }
            if fine != 0 {
                shades.copy_within(fine..fine + WIDTH, 0);
                opaque.copy_within(fine..fine + WIDTH, 0);
            }
            if window_visible {
                let map = if lcdc & 0x40 != 0 { 0x1C00 } else { 0x1800 };
                let wy = self.window_line;
                let skip = (7usize).saturating_sub(usize::from(self.wx));
                let n = WIDTH - start;
                let mut wshades = [0u8; WIDTH + 16];
                let mut wopaque = [0u8; WIDTH + 16];
                for t in 0..(skip + n).div_ceil(8) {
                    let (lo, hi) = self.tile_row(map, t as u8, wy);
                    let at = t * 8;
                    wshades[at..at + 8].copy_from_slice(&pal.apply(lo, hi).to_le_bytes());
                    wopaque[at..at + 8].copy_from_slice(&(lo | hi).to_le_bytes());
                }
                shades[start..WIDTH].copy_from_slice(&wshades[skip..skip + n]);
                opaque[start..WIDTH].copy_from_slice(&wopaque[skip..skip + n]);
                self.window_drawn = true;
            }
        }
        put_shades(&mut self.framebuffer, row_start, &shades[..WIDTH]);
        self.line_index.copy_from_slice(&opaque[..WIDTH]);
    }

    /// The two bit planes of row `y % 8` of the tile at column `col`, row `y / 8` of tile map
    /// `map`, spread to byte lanes (leftmost pixel in the lowest byte).
    #[inline]
    fn tile_row(&self, map: usize, col: u8, y: u8) -> (u64, u64) {
        let tile = self.vram[map + usize::from(y / 8) * 32 + usize::from(col & 31)];
        let base = if self.lcdc & 0x10 != 0 {
            usize::from(tile) * 16
        } else {
            0x1000usize.wrapping_add_signed(isize::from(tile as i8) * 16)
        };
        let addr = (base + usize::from(y % 8) * 2) & 0x1FFE;
        (spread(self.vram[addr]), spread(self.vram[addr + 1]))
    }

    /// Draw the line's objects over the background and window already in the framebuffer,
    /// with the colour indices in `line_index` for the OBJ-to-BG priority bit.
    pub(super) fn render_sprites(&mut self, row_start: usize) {
        let height = if self.lcdc & 0x04 != 0 { 16 } else { 8 };
        let n = self.line_objects().len();
        // Lower X wins, then lower OAM index. The winner's pixel is the object pixel even when
        // the background hides it (priority bit): objects behind it never show there.
        let mut order: [u8; 10] = self.line_sprites;
        let order = &mut order[..n];
        order.sort_by_key(|&i| (self.oam[usize::from(i) * 4 + 1], i));
        let mut claimed = [false; WIDTH];
        for &i in order.iter() {
            let o = usize::from(i) * 4;
            let sy = self.oam[o];
            let sx = self.oam[o + 1];
            let mut tile = self.oam[o + 2];
            let attr = self.oam[o + 3];
            let mut row = self.line.wrapping_add(16).wrapping_sub(sy);
            if attr & 0x40 != 0 {
                row = height - 1 - row;
            }
            if height == 16 {
                tile &= 0xFE;
            }
            let addr = usize::from(tile) * 16 + usize::from(row) * 2;
            let lo = self.vram[addr];
            let hi = self.vram[addr + 1];
            let palette = if attr & 0x10 != 0 {
                self.obp1
            } else {
                self.obp0
            };
            // In the CGB's compatibility mode the object's palette goes with its shade, for
            // `compat_colors`.
            let tag = if self.cgb { 4 << ((attr >> 4) & 1) } else { 0 };
            for px in 0..8u8 {
                let x = i16::from(sx) - 8 + i16::from(px);
                if !(0..WIDTH as i16).contains(&x) {
                    continue;
                }
                let bit = if attr & 0x20 != 0 { px } else { 7 - px };
                let idx = ((lo >> bit) & 1) | (((hi >> bit) & 1) << 1);
                if idx == 0 {
                    continue;
                }
                let x = x as usize;
                if claimed[x] {
                    continue;
                }
                claimed[x] = true;
                if attr & 0x80 != 0 && self.line_index[x] != 0 {
                    continue;
                }
                self.framebuffer.pixels_mut()[row_start + x] =
                    u16::from((palette >> (idx * 2)) & 3) | tag;
            }
        }
    }
}

impl Ppu {
    /// What a pixel the LCD does not draw shows: the lightest shade, or white on the CGB.
    pub(super) fn blank_pixel(&self) -> u16 {
        if self.framebuffer.is_color() {
            0x7FFF
        } else {
            0
        }
    }

    /// The CGB's DMG compatibility mode: the row holds BGP/OBP shades (0-3), objects' tagged
    /// with their palette (4: OBP0, 8: OBP1); BGP's shades index background colour palette 0,
    /// OBP0's and OBP1's object palettes 0 and 1 (Pan Docs "Compatibility palettes").
    fn compat_colors(&mut self, row_start: usize) {
        let lut: [u16; 12] = std::array::from_fn(|i| match i / 4 {
            0 => self.cram.bg_color(0, i % 4),
            k => self.cram.obj_color(k - 1, i % 4),
        });
        for p in &mut self.framebuffer.pixels_mut()[row_start..row_start + WIDTH] {
            *p = lut[usize::from(*p).min(11)];
        }
    }
}

/// [`spread`] for every byte, built at compile time.
const SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut v = 0;
    while v < 256 {
        let mut lanes = 0u64;
        let mut i = 0;
        while i < 8 {
            if (v >> (7 - i)) & 1 != 0 {
                lanes |= 0xFF << (i * 8);
            }
            i += 1;
        }
        table[v] = lanes;
        v += 1;
    }
    table
};

/// Spread the 8 bits of a tile plane byte to 8 byte lanes of 0x00/0xFF, bit 7 (the leftmost
/// pixel) in the lowest lane.
#[inline]
pub(super) fn spread(bits: u8) -> u64 {
    SPREAD[usize::from(bits)]
}

/// A DMG palette register expanded to byte-lane masks, to map 8 colour indices at once.
pub(super) struct Palette {
    shades: [u64; 4],
}

impl Palette {
    pub(super) fn new(reg: u8) -> Palette {
        let lane = |i: u8| u64::from((reg >> (i * 2)) & 3) * 0x0101_0101_0101_0101;
        Palette {
            shades: [lane(0), lane(1), lane(2), lane(3)],
        }
    }

    /// Shades of 8 pixels from their spread bit planes.
    #[inline]
    pub(super) fn apply(&self, lo: u64, hi: u64) -> u64 {
        (self.shades[0] & !hi & !lo)
            | (self.shades[1] & !hi & lo)
            | (self.shades[2] & hi & !lo)
            | (self.shades[3] & hi & lo)
    }
}

/// Write a line of shades into the frame at `row_start`.
fn put_shades(frame: &mut crate::frame::Frame, row_start: usize, shades: &[u8]) {
    let row = &mut frame.pixels_mut()[row_start..row_start + shades.len()];
    for (dst, &s) in row.iter_mut().zip(shades) {
        *dst = u16::from(s);
    }
}
