//! The renderer: a line is drawn when its last pixel is out, 8 pixels at a time (tile rows as
//! byte lanes of a `u64`, palettes as lane masks), objects over it; a line with register writes
//! while it was drawn goes to the FIFO replay ([`super::fifo`]) instead. Rows the LCD did not
//! draw are blanked when a frame is handed out.
//!
//! Still pictures are not drawn again (lines drawn whole, either mode): each row of the frame
//! buffer is tagged with what it was drawn from ([`Ppu::line_tag`]: an id of VRAM, OAM, the
//! colour RAM and the registers, new after any write that changed one of them
//! ([`Ppu::touch`]), with the window's state on the line and the OAM scan's objects), and a
//! line whose tag is the row's keeps the row. The session swaps two buffers, so a row is
//! compared with the frame before last; a game whose registers change between lines every
//! frame (raster effects), or that writes new objects every frame, gets a new id every frame
//! and keeps nothing. Nothing the state image holds depends on whether a line was kept.

use std::sync::atomic::{AtomicU64, Ordering};

use super::lanes::{BUF, Claims, ColorLanes, LEAD, blend, flip, lanes_at, put_lanes, spread};
use super::{HEIGHT, MAX_LINE_WRITES, Ppu, WIDTH};
use crate::frame::RowTag;

/// The next [`Ppu::inputs_id`] handed out, in the whole process (so a frame drawn by one
/// machine never matches another's lines by chance).
static NEXT_INPUTS_ID: AtomicU64 = AtomicU64::new(1);

impl Ppu {
    /// VBlank starts: the last line's scratch data (its objects and register writes) is dead until the next frame's first line writes it again. Clearing it changes
    /// nothing the machine does, and keeps frame-end snapshots free of leftovers that differ
    /// every frame (smaller rewind diffs).
    pub(super) fn clear_line_scratch(&mut self) {
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
                self.framebuffer.row_mut(y).fill(blank);
            }
        }
        self.rows_drawn = [0; 3];
    }

    /// Render the current line into the framebuffer from the registers as they are now.
    ///
    /// Background and window tiles are decoded 8 pixels at a time as byte lanes of a `u64`
    /// ([`super::lanes::spread`]), and BGP is applied with lane masks, so a line costs a few hundred
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
            self.framebuffer.row_mut(y).fill(blank);
            return;
        }
        let whole = self.line_is_whole();
        if whole {
            let tag = self.line_tag();
            if self.framebuffer.row_tag(y) == tag {
                // The buffer's row was drawn from the same VRAM, OAM, colours and registers
                // (a still picture): it holds this line's pixels already.
                #[cfg(debug_assertions)]
                self.check_still_line(y, tag);
                self.lines_kept += 1;
                self.line_unrendered();
                return;
            }
            self.render_line_whole(y, tag);
        } else {
            let mut pixels = self.replay_line();
            if !self.cgb {
                // Objects' shades come tagged with their palette, for compatibility mode.
                for p in &mut pixels {
                    *p &= 3;
                }
            }
            self.framebuffer.row_mut(y).copy_from_slice(&pixels);
            if self.cgb && !self.cgb_mode {
                self.compat_colors(row_start);
            }
        }
        self.line_done();
    }

    /// What the current line is drawn from, as a row tag ([`crate::Frame`]): the id of VRAM,
    /// OAM, the colour RAM and the registers as they are (a new one if any changed), with
    /// what changes by itself: the window's state on this line (the WY condition, the window
    /// line counter) and the OAM scan's objects (the same OAM gives other objects when an
    /// OAM DMA runs during the scan). Lines drawn whole only.
    fn line_tag(&mut self) -> RowTag {
        if self.inputs_changed {
            self.inputs_changed = false;
            self.inputs_id = NEXT_INPUTS_ID.fetch_add(1, Ordering::Relaxed);
        }
        let id = (self.inputs_id << 10)
            | (u64::from(self.window_carried()) << 9)
            | (u64::from(self.window_on_line()) << 8)
            | u64::from(self.window_line);
        // Up to 10 OAM indices below 40 (6 bits each) and their count (4 bits): exactly.
        let objects = if self.lcdc & 0x02 != 0 {
            let list = self.line_objects();
            list.iter()
                .fold(list.len() as u64, |key, &i| (key << 6) | u64::from(i))
        } else {
            0
        };
        RowTag(id, objects)
    }

    /// Draw line `y` whole from the registers as they are now, tagging its row `tag`.
    fn render_line_whole(&mut self, y: usize, tag: RowTag) {
        let row_start = y * WIDTH;
        if self.cgb_mode {
            self.render_cgb_line(row_start);
        } else {
            let opaque = self.render_whole_line(row_start);
            if self.lcdc & 0x02 != 0 {
                self.render_sprites(row_start, &opaque);
            }
            if self.cgb {
                self.compat_colors(row_start);
            }
        }
        self.framebuffer.set_row_tag(y, tag);
    }

    /// Debug builds: a line taken as unchanged from the buffer is drawn again and must come
    /// out the same (every test that draws frames checks the tags this way).
    #[cfg(debug_assertions)]
    fn check_still_line(&mut self, y: usize, tag: RowTag) {
        let kept = self.framebuffer.pixels()[y * WIDTH..(y + 1) * WIDTH].to_vec();
        let window_drawn = self.window_drawn;
        self.render_line_whole(y, tag);
        self.window_drawn = window_drawn;
        assert_eq!(
            kept,
            &self.framebuffer.pixels()[y * WIDTH..(y + 1) * WIDTH],
            "line {y} kept from a buffer drawn from the same inputs differs from a new drawing"
        );
    }

    /// Whether the line is drawn whole from the registers as they are now: no writes while it
    /// was drawn, or more than the replay keeps.
    fn line_is_whole(&self) -> bool {
        self.line_write_count == 0 || self.line_write_count as usize > MAX_LINE_WRITES
    }

    /// The FIFO replay of a line whose registers changed while it was drawn: its pixels, and
    /// the window line counter where the replay left it.
    fn replay_line(&mut self) -> [u16; WIDTH] {
        let mut pixels = [0u16; WIDTH];
        let writes = &self.line_writes[..usize::from(self.line_write_count)];
        let end = super::fifo::render(self.line_input(), self.line_regs, writes, &mut pixels);
        self.window_line = end.window_line;
        self.window_drawn = false;
        pixels
    }

    /// A line is over: its register writes are consumed, and the window line counter moves
    /// on if the window showed.
    fn line_done(&mut self) {
        self.line_write_count = 0;
        if self.window_drawn {
            self.window_line = self.window_line.wrapping_add(1);
        }
    }

    /// What the FIFO replay of the current line reads.
    pub(super) fn line_input(&self) -> super::fifo::LineInput<'_> {
        super::fifo::LineInput {
            vram: &self.vram,
            oam: &self.oam,
            objects: self.line_objects(),
            cgb: self.cgb_mode,
            dmg_order: self.opri & 1 != 0,
            cgb_hardware: self.cgb,
            cgb_d: self.cgb_d,
            double_speed: self.double_speed,
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
        if self.line_is_whole() {
            // As the renderers decide it: the DMG draws the window only with LCDC.0 on.
            self.window_drawn = self.window_on_line() && (self.cgb_mode || self.lcdc & 0x01 != 0);
        } else {
            // Registers changed mid-line: the replay knows where the window got to.
            self.replay_line();
        }
        self.line_done();
    }

    /// Call `tile(at, map_addr, y)` for each background and window tile the current line
    /// shows, from the registers as they are now, in drawing order (the window's over the
    /// background's): `at` is where the tile's first pixel goes in a line buffer
    /// ([`LEAD`] pixels before the screen's left edge), `map_addr` its tile map entry's VRAM
    /// address, `y` the line's row in the map (its low 3 bits the row in the tile). Returns
    /// whether the window shows.
    #[inline]
    pub(super) fn for_each_tile(&self, mut tile: impl FnMut(usize, usize, u8)) -> bool {
        let fine = usize::from(self.scx & 7);
        // The window covers the line from screen x = WX - 7 (clipped at the left edge), or
        // all of it when the line started in it (DMG: WX 166 on the line before), from its
        // tile 1 scrolled by SCX's fine scroll as the background would be.
        let carried = self.window_carried();
        let shown = carried || self.window_starts_at(self.lcdc, self.wx, self.wy_triggered);
        // Where the window's tile 0 goes (screen x), and its first tile drawn.
        let (origin, first_tile) = if carried {
            (-8 - fine as isize, 1)
        } else {
            (isize::from(self.wx) - 7, 0)
        };
        let start = if shown { origin.max(0) as usize } else { WIDTH };
        // Background tiles: only those showing left of the window.
        let map = if self.lcdc & 0x08 != 0 {
            0x1C00
        } else {
            0x1800
        };
        let py = self.line.wrapping_add(self.scy);
        let row = map + usize::from(py / 8) * 32;
        let first = usize::from(self.scx / 8);
        for t in 0..(start + fine).div_ceil(8) {
            tile(LEAD - fine + t * 8, row + ((first + t) & 31), py);
        }
        if shown {
            let map = if self.lcdc & 0x40 != 0 {
                0x1C00
            } else {
                0x1800
            };
            let wy = self.window_line;
            let row = map + usize::from(wy / 8) * 32;
            // WX < 7 puts the window's first pixels left of the screen (`start` is 0 then).
            let tiles = ((WIDTH as isize - origin) as usize).div_ceil(8);
            for t in first_tile..tiles {
                let at = LEAD as isize + origin + 8 * t as isize;
                tile(at as usize, row + (t & 31), wy);
            }
        }
        self.window_on_line()
    }

    /// Draw background and window for the whole line from the registers as they are now;
    /// returns where their colour index is not 0 (0xFF, else 0x00) as a line buffer, for the
    /// objects' priority.
    pub(super) fn render_whole_line(&mut self, row_start: usize) -> [u8; BUF] {
        let mut shades = [0u8; BUF];
        let mut opaque = [0u8; BUF];
        if self.lcdc & 0x01 != 0 {
            let pal = Palette::new(self.bgp);
            let window = self.for_each_tile(|at, map_addr, y| {
                let addr = tile_addr(self.lcdc, self.vram[map_addr]) + usize::from(y & 7) * 2;
                let (lo, hi) = (spread(self.vram[addr]), spread(self.vram[addr + 1]));
                put_lanes(&mut shades, at, pal.apply(lo, hi));
                put_lanes(&mut opaque, at, lo | hi);
            });
            if window {
                self.window_drawn = true;
            }
        }
        let row = self.framebuffer.row_mut(row_start / WIDTH);
        for (dst, &s) in row.iter_mut().zip(&shades[LEAD..LEAD + WIDTH]) {
            *dst = u16::from(s);
        }
        opaque
    }

    /// The row of object `i` (OAM index) on the current line: its X in line buffers (OAM X:
    /// [`LEAD`] is 8), its two bit planes with the flips applied (bit 7 leftmost), its
    /// attributes. `banked`: attribute bit 3 picks the tile's VRAM bank (CGB mode). `None`
    /// when the object has no pixel on screen (X 0 or 168 and above).
    #[inline]
    pub(super) fn object_row(&self, i: u8, banked: bool) -> Option<(usize, u8, u8, u8)> {
        let o = usize::from(i) * 4;
        let [sy, sx, tile, attr] = [
            self.oam[o],
            self.oam[o + 1],
            self.oam[o + 2],
            self.oam[o + 3],
        ];
        if !(1..LEAD + WIDTH).contains(&usize::from(sx)) {
            return None;
        }
        let tall = self.lcdc & 0x04 != 0;
        let height = if tall { 16 } else { 8 };
        // The row within the object, 4 bits as the OAM scan stores it (OAM DMA or a size
        // change between the scan and now may have moved the object off this line), taken
        // modulo the height LCDC.2 gives now, as the FIFO replay does.
        let mut row = self.line.wrapping_add(16).wrapping_sub(sy) & (height - 1);
        if attr & 0x40 != 0 {
            row = height - 1 - row;
        }
        let tile = if tall { tile & 0xFE } else { tile };
        let bank = if banked {
            usize::from(attr & 0x08) << 10
        } else {
            0
        };
        let addr = bank | (usize::from(tile) * 16 + usize::from(row) * 2);
        let (mut lo, mut hi) = (self.vram[addr], self.vram[addr + 1]);
        if attr & 0x20 != 0 {
            lo = flip(lo);
            hi = flip(hi);
        }
        Some((usize::from(sx), lo, hi, attr))
    }

    /// Draw the line's objects over the background and window already in the framebuffer,
    /// with the background's non-zero colour indices `bg` (from [`Ppu::render_whole_line`]) for
    /// the OBJ-to-BG priority bit.
    pub(super) fn render_sprites(&mut self, row_start: usize, bg: &[u8; BUF]) {
        let n = self.line_objects().len();
        if n == 0 {
            return;
        }
        // Lower X wins, then lower OAM index. The winner's pixel is the object pixel even when
        // the background hides it (priority bit): objects behind it never show there.
        let mut order: [u8; 10] = self.line_sprites;
        let order = &mut order[..n];
        order.sort_by_key(|&i| (self.oam[usize::from(i) * 4 + 1], i));
        let mut line = [0u16; BUF];
        line[LEAD..LEAD + WIDTH]
            .copy_from_slice(&self.framebuffer.pixels()[row_start..row_start + WIDTH]);
        let mut claims = Claims::new();
        for &i in order.iter() {
            let Some((x, lo, hi, attr)) = self.object_row(i, false) else {
                continue;
            };
            let won = claims.claim(x, super::lanes::opaque(lo, hi));
            let shown = if attr & 0x80 != 0 {
                won & !lanes_at(bg, x)
            } else {
                won
            };
            if shown != 0 {
                let palette = if attr & 0x10 != 0 {
                    self.obp1
                } else {
                    self.obp0
                };
                // In the CGB's compatibility mode the object's palette goes with its shade,
                // for `compat_colors`.
                let tag = if self.cgb { 4 << ((attr >> 4) & 1) } else { 0 };
                let shades = std::array::from_fn(|c| u16::from((palette >> (c * 2)) & 3) | tag);
                blend(&mut line, x, ColorLanes::new(shades).tile(lo, hi), shown);
            }
        }
        self.framebuffer
            .row_mut(row_start / WIDTH)
            .copy_from_slice(&line[LEAD..LEAD + WIDTH]);
    }
}

/// Where the row 0 of tile `tile` starts in VRAM (bank 0), with the addressing mode of LCDC
/// bit 4: tiles 0-255 from 0x8000, or -128-127 around 0x9000 (0x8800-0x97FF), which is tiles
/// 128-255 then 0-127 from 0x8800.
#[inline]
pub(super) fn tile_addr(lcdc: u8, tile: u8) -> usize {
    if lcdc & 0x10 != 0 {
        usize::from(tile) * 16
    } else {
        0x0800 + usize::from(tile ^ 0x80) * 16
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
        for p in self.framebuffer.row_mut(row_start / WIDTH) {
            *p = lut[usize::from(*p).min(11)];
        }
    }
}

/// A DMG palette register expanded to byte-lane masks, to map 8 colour indices at once: each
/// pixel picks between shades 0 and 1 (low plane), 2 and 3 (low plane), then between those
/// two (high plane).
pub(super) struct Palette {
    /// Shade 0, shade 0 XOR shade 1, shade 2, shade 2 XOR shade 3, in every lane.
    lanes: [u64; 4],
}

impl Palette {
    pub(super) fn new(reg: u8) -> Palette {
        let lane = |i: u8| u64::from((reg >> (i * 2)) & 3) * 0x0101_0101_0101_0101;
        Palette {
            lanes: [lane(0), lane(0) ^ lane(1), lane(2), lane(2) ^ lane(3)],
        }
    }

    /// Shades of 8 pixels from their spread bit planes.
    #[inline]
    pub(super) fn apply(&self, lo: u64, hi: u64) -> u64 {
        let [s0, d01, s2, d23] = self.lanes;
        let low_pair = s0 ^ (d01 & lo);
        let high_pair = s2 ^ (d23 & lo);
        low_pair ^ ((low_pair ^ high_pair) & hi)
    }
}
