//! Objects and mode 3's length: the OAM scan (the line's first 10 objects), the window's WY
//! condition, and the dots mode 3 lasts beyond 172 (fine scroll, window, object fetches).

use super::Ppu;

impl Ppu {
    /// Dots mode 3 lasts beyond 172 on the current line: the SCX fine scroll, 6 when the window
    /// shows, plus each object's
    /// fetch (Pan Docs "Mode 3 length", the OBJ penalty algorithm): objects are fetched in X
    /// order; each costs 6 dots, and the first one whose leftmost pixel lies in a given
    /// background tile also waits for that tile's fetch, `max(0, 5 - offset in tile)` dots.
    /// Objects at X 0 follow the same rule (Mooneye `intr_2_mode0_timing_sprites`: ten of them
    /// cost 65 dots, not 110; one object at X=4 adds one M-cycle, at X=3 two; gbmicrotest
    /// `sprite4_*` with SCX 0-7).
    pub(super) fn mode3_penalty(&self) -> u64 {
        self.mode3_penalty_with(self.lcdc, self.scx, self.wx, self.wy_triggered)
    }

    /// [`Ppu::mode3_penalty`] with LCDC, SCX, WX and the WY condition as given (the line's registers as its
    /// mode 3 started, for [`Ppu::retime_mode0`]).
    pub(super) fn mode3_penalty_with(&self, lcdc: u8, scx: u8, wx: u8, wy_triggered: bool) -> u64 {
        let scx = u16::from(scx);
        // Switching the fetcher to the window costs 6 dots (Pan Docs "Mode 3 length"). In CGB
        // mode LCDC.0 does not hide the window.
        let window_shows = lcdc & 0x20 != 0 && wy_triggered && wx <= 166;
        let window = if (lcdc & 0x01 != 0 || self.cgb_mode) && window_shows {
            6
        } else {
            0
        };
        let fine = (scx & 7) as u64 + window;
        // The CGB fetches the line's objects with LCDC.1 clear too (the bit only hides their
        // pixels; SameBoy has it so): gbc-hw-tests `mode2_read_oam_spr_dis_*` (OAM stays blocked
        // 16 dots longer on a line with two objects) and `dma_timing_lcd_on` (OAM read back in
        // mode 3's tail).
        if lcdc & 0x02 == 0 && !self.cgb {
            return fine;
        }
        let mut dots = 0;
        let n = self.line_objects().len();
        let list = self.line_sprites;
        let mut xs = [0u8; 10];
        for (x, &i) in xs.iter_mut().zip(&list[..n]) {
            *x = self.oam[usize::from(i) * 4 + 1];
        }
        let xs = &mut xs[..n];
        xs.sort_unstable();
        // Tiles already waited for, by index in fetch order (X + fine scroll) / 8.
        let mut waited: u32 = 0;
        for &x in xs.iter() {
            let x = u16::from(x);
            if x >= 168 {
                // Never reached by the fetcher.
                continue;
            }
            let tile = (x + (scx & 7)) >> 3;
            if waited & (1 << tile) == 0 {
                waited |= 1 << tile;
                let offset = (x + scx) & 7;
                dots += u64::from(5u16.saturating_sub(offset));
            }
            dots += 6;
        }
        fine + dots
    }

    /// The objects the OAM scan found on this line (OAM indices, in OAM order).
    pub(super) fn line_objects(&self) -> &[u8] {
        let n = usize::from(self.line_sprite_count).min(self.line_sprites.len());
        &self.line_sprites[..n]
    }

    /// Whether mode 3 fetches an object on this line (LCDC.1 set, an object at X below 168).
    #[cfg(test)]
    pub(super) fn fetches_objects(&self) -> bool {
        self.lcdc & 0x02 != 0
            && self
                .line_objects()
                .iter()
                .any(|&i| self.oam[usize::from(i) * 4 + 1] < 168)
    }

    /// The OAM scan's result for this line: up to 10 objects, kept for mode 3 and drawing.
    /// With LCDC.1 clear the DMG skips it (no objects) until a write sets the bit during mode 3
    /// ([`Ppu::record_write`] scans then: OAM is locked, so the result is the same); the CGB
    /// scans anyway (see [`Ppu::mode3_penalty`]).
    pub(super) fn oam_scan(&mut self, lcdc: u8) {
        if lcdc & 0x02 == 0 && !self.cgb {
            self.line_sprite_count = 0;
            return;
        }
        let height = if lcdc & 0x04 != 0 { 16 } else { 8 };
        let (list, n) = self.sprites_on_line(height);
        self.line_sprites = list;
        self.line_sprite_count = n as u8;
    }

    /// The OAM indices of up to 10 sprites on the current line, in OAM order. `height` is
    /// the object size now; an entry read before the last write that changed LCDC.2 landed
    /// was checked with the size before it.
    fn sprites_on_line(&self, height: u8) -> ([u8; 10], usize) {
        let mut found = [0u8; 10];
        let mut n = 0;
        // An object covers the line when Y <= LY + 16 < Y + height; LY + 16 is at least 16,
        // so one wrapping subtraction tests both sides.
        let y = self.line.wrapping_add(16);
        // Entry i is read at dot 2i + 2. An OAM DMA hides it from its first byte to the M-cycle
        // after its last (`oam_dma_busy`); read before the first byte, it is OAM's old entry.
        // Without a DMA over the scan's 80 dots (the usual case) Y alone decides.
        let (from, until) = self.oam_dma_busy;
        let scan = self.line_start + 2..self.line_start + 82;
        let dma = until > scan.start && from < scan.end;
        // Each entry's Y is checked with LCDC.2 as it was when the entry was read: a write
        // changing the size after dot 2i + 2 came too late for entry i.
        let (changed_at, old_lcdc) = self.size_change;
        let old_height = if old_lcdc & 0x04 != 0 { 16 } else { 8 };
        let resized = changed_at > scan.start;
        for i in 0..40 {
            let at = scan.start + 2 * i as u64;
            let height = if resized && changed_at > at {
                old_height
            } else {
                height
            };
            let oam_y = if dma {
                if (from..until).contains(&at) {
                    continue;
                }
                if at < from {
                    self.oam_before_dma[i * 4]
                } else {
                    self.oam[i * 4]
                }
            } else {
                self.oam[i * 4]
            };
            if y.wrapping_sub(oam_y) < height {
                found[n] = i as u8;
                n += 1;
                if n == 10 {
                    break;
                }
            }
        }
        (found, n)
    }

    /// Whether the window shows on the current line: enabled, WY triggered this frame, WX on
    /// screen (0-166).
    pub(super) fn window_on_line(&self) -> bool {
        self.lcdc & 0x20 != 0 && self.wy_triggered && self.wx <= 166
    }
}
