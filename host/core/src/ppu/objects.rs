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
        self.mode3_penalty_parts().0
    }

    /// [`Ppu::mode3_penalty`], and the dots of it spent once the pixel counter has reached
    /// 167 (the last pixel): objects at X 167 and the CGB's window switch at WX 166. The
    /// HBlank interrupt source does not wait for those: it rises a dot after the counter
    /// reaches 167, while STAT, VRAM and OAM see mode 0 after the last pixel (Gambatte
    /// `sprites/10spritesPrLine_10xposA7_m0irq_*` against `_10xposA7_m3stat_*`: ten objects at
    /// X 167 hold STAT's mode 3 16 M-cycles longer but not the interrupt, where ten at X 166
    /// hold both; `window/m2int_wxA6_m0irq*`, `m2int_wxA6_spxA7_*`,
    /// `m0enable/enable_wxA6_2x_spxA7_*`).
    pub(super) fn mode3_penalty_parts(&self) -> (u64, u64) {
        let carry = self.line_regs.window_carry;
        self.mode3_penalty_with(self.lcdc, self.scx, self.wx, self.wy_triggered, carry)
    }

    /// [`Ppu::mode3_penalty_parts`] with LCDC, SCX, WX, the WY condition and the window carried
    /// from the line before ([`fifo::LineRegs::window_carry`](super::fifo::LineRegs)) as given
    /// (the line's registers as its mode 3 started, for [`Ppu::retime_mode0`]).
    pub(super) fn mode3_penalty_with(
        &self,
        lcdc: u8,
        scx: u8,
        wx: u8,
        wy_triggered: bool,
        carry: bool,
    ) -> (u64, u64) {
        let scx = u16::from(scx);
        // Switching the fetcher to the window costs 6 dots (Pan Docs "Mode 3 length"). In CGB
        // mode LCDC.0 does not hide the window. A line that starts in the window (WX 166 on
        // the DMG's line before) never switches.
        let carried = carry && lcdc & 0x20 != 0;
        let window_starts = self.window_starts_at(lcdc, wx, wy_triggered) && !carried;
        let switch = (lcdc & 0x01 != 0 || self.cgb_mode) && window_starts;
        let window = if switch { 6 } else { 0 };
        let fine = (scx & 7) as u64 + window;
        // The window's switch at WX 166 (the CGB's) comes at the last pixel.
        let mut late = if switch && wx == 166 { 6 } else { 0 };
        // The CGB fetches the line's objects with LCDC.1 clear too (the bit only hides their
        // pixels; SameBoy has it so): gbc-hw-tests `mode2_read_oam_spr_dis_*` (OAM stays blocked
        // 16 dots longer on a line with two objects) and `dma_timing_lcd_on` (OAM read back in
        // mode 3's tail).
        if lcdc & 0x02 == 0 && !self.cgb {
            return (fine, late);
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
        // From the window's first pixel on (the pixel counter at WX + 1) the tiles are the
        // window's, counted from there (Pan Docs "OBJ penalty algorithm": "background or
        // window").
        let window_x = if switch { u16::from(wx) + 1 } else { u16::MAX };
        // Tiles already waited for, by index in fetch order: the background's (X + fine
        // scroll) / 8, the window's 32 on.
        let mut waited: u64 = 0;
        for &x in xs.iter() {
            let x = u16::from(x);
            if x >= 168 {
                // Never reached by the fetcher.
                continue;
            }
            let (tile, offset) = if x >= window_x {
                (32 + ((x - window_x) >> 3), (x - window_x) & 7)
            } else {
                ((x + (scx & 7)) >> 3, (x + scx) & 7)
            };
            let mut cost = 6;
            if waited & (1 << tile) == 0 {
                waited |= 1 << tile;
                cost += u64::from(5u16.saturating_sub(offset));
            }
            dots += cost;
            if x == 167 {
                late += cost;
            }
        }
        (fine + dots, late)
    }

    /// The objects the OAM scan found on this line (OAM indices, in OAM order).
    pub(super) fn line_objects(&self) -> &[u8] {
        let n = usize::from(self.line_sprite_count).min(self.line_sprites.len());
        &self.line_sprites[..n]
    }

    /// The OAM scan's result for this line: up to 10 objects, kept for mode 3 and drawing.
    /// With LCDC.1 clear the DMG skips it (no objects) until a write sets the bit during mode 3
    /// ([`Ppu::record_write`] scans then: OAM is locked, so the result is the same); the CGB
    /// scans anyway (see [`Ppu::mode3_penalty`]). The first line after the LCD is switched on
    /// finds none (Gambatte `enable_display/enable_display_ly0_sprites_m0stat_*`: two objects
    /// on that line leave mode 0 where it is without them).
    pub(super) fn oam_scan(&mut self, lcdc: u8) {
        if self.first_line || (lcdc & 0x02 == 0 && !self.cgb) {
            self.line_sprite_count = 0;
            return;
        }
        let height = if lcdc & 0x04 != 0 { 16 } else { 8 };
        let (list, n) = self.sprites_on_line(height);
        self.line_sprites = list;
        self.line_sprite_count = n as u8;
    }

    /// The first 10 entries of OAM as it is whose Y puts them on the line (`y` is LY + 16),
    /// checked one by one with the object height `height`.
    fn direct_scan(&self, y: u8, height: u8) -> ([u8; 10], usize) {
        let mut found = [0u8; 10];
        let mut n = 0;
        for i in 0..40 {
            if y.wrapping_sub(self.oam[i * 4]) < height {
                found[n] = i as u8;
                n += 1;
                if n == 10 {
                    break;
                }
            }
        }
        (found, n)
    }

    /// The OAM indices of up to 10 sprites on the current line, in OAM order. `height` is
    /// the object size now; an entry read before the last write that changed LCDC.2 landed
    /// was checked with the size before it.
    fn sprites_on_line(&mut self, height: u8) -> ([u8; 10], usize) {
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
        // changing the size after dot 2i + 2 came too late for entry i. On the CGB at normal
        // speed the entry read on the write's dot is checked with 8x16 whichever way the size
        // changed (old and new ORed; Gambatte `sprites/late_sizechange_2`,
        // `late_sizechange_sp39_2`: 16 to 8 there still finds the object, where the DMG
        // already checks with 8; `late_sizechange2_*`: 8 to 16 there finds it on both; the
        // `_ds_` variants: at double speed the new size, as on the DMG).
        let (changed_at, old_lcdc) = self.size_change;
        let old_height = if old_lcdc & 0x04 != 0 { 16 } else { 8 };
        let or_glitch = self.cgb && !self.double_speed;
        let resized = changed_at > scan.start || (or_glitch && changed_at == scan.start);
        if !dma && !resized {
            // The usual case: every entry as OAM holds it, with the size now; from the
            // table while OAM and the size hold still.
            if let Some(cached) = self.scan_cache.objects(&self.oam, height, self.line) {
                debug_assert_eq!(
                    cached,
                    self.direct_scan(y, height),
                    "OAM scan table disagrees on line {}",
                    self.line
                );
                return cached;
            }
            return self.direct_scan(y, height);
        }
        for i in 0..40 {
            let at = scan.start + 2 * i as u64;
            let height = if resized && changed_at > at {
                old_height
            } else if or_glitch && changed_at == at {
                16
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

    /// Whether the window's line counter advances on the current line: the window starts
    /// where the pixel counter meets WX (enabled, WY triggered this frame, WX 0-166; on the
    /// DMG WX 166 starts nothing but counts), or the line started in it
    /// ([`Ppu::window_carried`]).
    pub(super) fn window_on_line(&self) -> bool {
        (self.lcdc & 0x20 != 0 && self.wy_triggered && self.wx <= 166) || self.window_carried()
    }

    /// Whether the window starts on the current line where the pixel counter meets WX, with
    /// `lcdc`, `wx` and the WY condition as given: WX 0-166 on the CGB, 0-165 on the DMG,
    /// whose WX 166 only carries the window to the next line ([`Ppu::window_carry`]).
    pub(super) fn window_starts_at(&self, lcdc: u8, wx: u8, wy_triggered: bool) -> bool {
        lcdc & 0x20 != 0 && wy_triggered && (wx < 166 || (wx == 166 && self.cgb))
    }

    /// DMG: the current line started in the window, from its first pixel (WX 166 at the
    /// line before's end, LCDC.5 set).
    pub(super) fn window_carried(&self) -> bool {
        self.line_regs.window_carry && self.lcdc & 0x20 != 0
    }
}
