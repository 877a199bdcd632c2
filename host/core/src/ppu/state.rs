//! The PPU in the state image (`save_state`/`load_state`, every field checked on load) and its
//! placement from a save state that keeps no dot (BESS's LY and STAT, `restore_position`).

use super::event::{Event, SRC_HBLANK, SRC_OAM, SRC_VBLANK};
use super::timeline::{COMPARE_DOT, MODE0_START, VRAM_BLOCK};
use super::{DOTS_PER_LINE, HEIGHT, MAX_LINE_WRITES, Ppu, WIDTH};

impl Ppu {
    /// Put the PPU where LY (0xFF44) and STAT's mode name in the frame, for a save state that
    /// keeps no dot (BESS, [`crate::bess`]). The registers, VRAM and OAM are set first; the
    /// framebuffer is kept. `stat` gives the interrupt enables, the LY=LYC flag and the mode.
    ///
    /// Each (LY, mode) pair is placed at the first dot where the CPU sees it, with the events
    /// from there on scheduled as usual: VBlank lines 145-153 at dot 0 (LY just changed, the
    /// LY=LYC comparison 2 dots ahead), line 144 at dot 0 with VBlank begun (where a frame
    /// ends: a CPU in HALT sees VBlank from there), mode 2 at dot 4, mode 3 at dot 84, mode 0
    /// right when it starts (dot 254 plus the line's penalty, the line already drawn), and LY 0
    /// in mode 1 at dot 4 of line 153. A mode that cannot go with LY (a mode 1 on a
    /// visible line, modes 0, 2 and 3 in VBlank) is taken from LY alone. The window line
    /// counter, which no register shows, is estimated from WY, WX and LCDC as they are now.
    /// `ly` must be at most 153.
    pub(crate) fn restore_position(&mut self, stat: u8, ly: u8, now: u64) {
        let mut fresh = Ppu::new();
        std::mem::swap(&mut fresh.vram, &mut self.vram);
        std::mem::swap(&mut fresh.framebuffer, &mut self.framebuffer);
        fresh.rows_drawn = self.rows_drawn;
        fresh.cgb = self.cgb;
        fresh.cgb_d = self.cgb_d;
        fresh.cgb_mode = self.cgb_mode;
        fresh.cram = self.cram.clone();
        fresh.vbk = self.vbk;
        fresh.opri = self.opri;
        fresh.oam = self.oam;
        fresh.lcdc = self.lcdc;
        fresh.scy = self.scy;
        fresh.scx = self.scx;
        fresh.lyc = self.lyc;
        fresh.bgp = self.bgp;
        fresh.obp0 = self.obp0;
        fresh.obp1 = self.obp1;
        fresh.wy = self.wy;
        fresh.wx = self.wx;
        *self = fresh;
        self.stat_enable = stat & 0x78;
        self.lyc_equal = stat & 0x04 != 0;
        if !self.lcd_on() {
            // As after the LCD is switched off: the flag keeps its value.
            self.stat_line = self.lyc_equal && self.stat_enable & 0x40 != 0;
            return;
        }
        let ly = ly.min(153);
        let visible = ly < HEIGHT as u8;
        let mode = match stat & 3 {
            1 if ly == 0 => 1,
            _ if !visible => 1,
            1 => 2,
            m => m,
        };
        self.ly = ly;
        self.line = ly;
        self.mode = mode;
        self.sources = match mode {
            0 => SRC_HBLANK,
            1 => SRC_VBLANK,
            _ => 0,
        };
        if visible {
            let window = self.lcdc & 0x21 == 0x21 && self.wx <= 166 && self.wy <= ly;
            self.wy_triggered = self.wy <= ly;
            self.window_line = if window { ly - self.wy } else { 0 };
        }
        let dot = match mode {
            1 if ly == 0 => {
                // Line 153 reads LY 0 from dot 4.
                self.line = 153;
                self.event = Event::Line153Blank;
                4
            }
            1 if ly == 144 => {
                // VBlank has started: where a frame ends.
                self.event = Event::LineStart;
                0
            }
            1 => {
                self.event = Event::Compare;
                0
            }
            2 => {
                self.oam_read_blocked = true;
                self.oam_write_blocked = true;
                self.event = Event::VramBlock;
                4
            }
            3 => {
                self.set_blocked(true);
                self.oam_scan(self.lcdc);
                self.line_regs = self.line_regs_now();
                self.event = Event::HBlank;
                self.mode3_start()
            }
            _ => {
                self.oam_scan(self.lcdc);
                let end = MODE0_START + self.mode3_penalty();
                if self.window_on_line() && self.lcdc & 0x01 != 0 {
                    self.window_line = self.window_line.wrapping_add(1);
                }
                self.event = Event::LineStart;
                end
            }
        };
        self.line_start = now - dot;
        let s = self.line_start;
        self.next = match self.event {
            Event::Line153Blank => s + COMPARE_DOT + 4,
            Event::Compare => s + COMPARE_DOT,
            Event::VramBlock => s + VRAM_BLOCK,
            Event::HBlank => s + MODE0_START + self.mode3_penalty(),
            _ => s + DOTS_PER_LINE,
        };
        self.stat_line = self.stat_sources();
    }
}

impl Ppu {
    /// Append the PPU's part of the state image (not the framebuffer: see [`crate::state`]);
    /// `now` is the machine's clock, `vram_len` the model's VRAM size.
    pub(crate) fn save_state(&self, w: &mut crate::state::Writer<'_>, now: u64, vram_len: usize) {
        w.bytes(&self.vram[..vram_len]);
        w.u8(self.vbk);
        w.bytes(&self.cram.bg);
        w.bytes(&self.cram.obj);
        w.bytes(&[self.cram.bcps, self.cram.ocps, self.opri]);
        w.bytes(&self.oam);
        w.bytes(&[
            self.lcdc,
            self.stat_enable,
            self.scy,
            self.scx,
            self.ly,
            self.line,
            self.lyc,
            self.bgp,
            self.obp0,
            self.obp1,
            self.wy,
            self.wx,
            self.mode,
            self.sources,
        ]);
        for flag in [
            self.lyc_equal,
            self.stat_line,
            self.first_line,
            self.oam_read_blocked,
            self.oam_write_blocked,
            self.vram_read_blocked,
            self.vram_write_blocked,
            self.wy_triggered,
            self.window_drawn,
            self.frame_ready,
            self.blank_frame,
        ] {
            w.bool(flag);
        }
        w.u64(self.line_start);
        w.u64(self.next);
        w.u8(self.event.id());
        w.u8(self.window_line);
        let lr = &self.line_regs;
        w.bytes(&[
            lr.lcdc,
            lr.scy,
            lr.scx,
            lr.bgp,
            lr.obp0,
            lr.obp1,
            lr.wx,
            lr.ly,
            lr.window_line,
        ]);
        w.bool(lr.wy_triggered);
        for lw in &self.line_writes {
            w.u16(lw.dot);
            w.u16(lw.addr);
            w.u8(lw.value);
        }
        w.u8(self.line_write_count);
        // Where the line's colour indices were kept (now the renderer's own): zeros, as the
        // image had them at every frame's end.
        w.bytes(&[0; WIDTH]);
        w.bytes(&self.line_sprites);
        w.u8(self.line_sprite_count);
        w.u64(self.size_change.0);
        w.u8(self.size_change.1);
        w.bool(self.window_carry);
        w.bool(self.line_regs.window_carry);
        w.u64(self.hblank_end);
        w.bool(self.window_latch);
        w.u8(self.window_latch_falls);
        // Both are compared with times a few dots after them: older than a line, they are
        // written as none (the image stays the same from frame to frame).
        let recent = |t: u64| {
            if t.saturating_add(DOTS_PER_LINE) > now {
                t
            } else {
                u64::MAX
            }
        };
        w.u64(recent(self.stat_fell));
        w.u64(recent(self.lyc_cleared));
        w.u8(self.lyc_pending.0);
        w.u64(self.lyc_pending.1);
        // Mode 0's start only while colour RAM is still held (zero otherwise: the image does
        // not depend on whether a lazy batch timed mode 0).
        w.u64(if self.cram_held_in_mode0(now) {
            self.hblank_at
        } else {
            0
        });
        w.u8(self.stat_held.0);
        w.u8(self.stat_held.1);
        w.u64(self.stat_held.2);
        w.u64(self.lyc_irq_at);
        w.u8(self.stat_pending.0);
        w.u64(self.stat_pending.1);
    }

    /// Read the PPU's part of the state image; `now` is the machine's clock, for the checks,
    /// `vram_len` the model's VRAM size.
    pub(crate) fn load_state(
        &mut self,
        r: &mut crate::state::Reader<'_>,
        now: u64,
        vram_len: usize,
    ) -> Result<(), crate::state::StateError> {
        use crate::state::StateError::Invalid;
        self.touch();
        r.bytes(&mut self.vram[..vram_len])?;
        self.vbk = r.below(2, "VBK")?;
        r.bytes(&mut self.cram.bg)?;
        r.bytes(&mut self.cram.obj)?;
        self.cram.bcps = r.u8()? & 0xBF;
        self.cram.ocps = r.u8()? & 0xBF;
        self.opri = r.below(2, "OPRI")?;
        r.bytes(&mut self.oam)?;
        let mut regs = [0; 14];
        r.bytes(&mut regs)?;
        [
            self.lcdc,
            self.stat_enable,
            self.scy,
            self.scx,
            self.ly,
            self.line,
            self.lyc,
            self.bgp,
            self.obp0,
            self.obp1,
            self.wy,
            self.wx,
            self.mode,
            self.sources,
        ] = regs;
        self.stat_enable &= 0x78;
        if self.ly > 153
            || self.line > 153
            || self.mode > 3
            || self.sources & !(SRC_HBLANK | SRC_VBLANK | SRC_OAM) != 0
        {
            return Err(Invalid("PPU line or mode"));
        }
        for flag in [
            &mut self.lyc_equal,
            &mut self.stat_line,
            &mut self.first_line,
            &mut self.oam_read_blocked,
            &mut self.oam_write_blocked,
            &mut self.vram_read_blocked,
            &mut self.vram_write_blocked,
            &mut self.wy_triggered,
            &mut self.window_drawn,
            &mut self.frame_ready,
            &mut self.blank_frame,
        ] {
            *flag = r.bool()?;
        }
        self.line_start = r.u64()?;
        self.next = r.u64()?;
        self.event = Event::from_id(r.u8()?).ok_or(Invalid("PPU event"))?;
        let on = self.event != Event::Off;
        // The timeline only ever looks a line and a bit ahead of and behind `now` (S may be
        // a dot ahead of it after `Ppu::delay`).
        if on
            && (self.line_start > now + 1
                || now.saturating_sub(self.line_start) > 2 * DOTS_PER_LINE)
        {
            return Err(Invalid("PPU line start"));
        }
        if on && (self.next < self.line_start || self.next - self.line_start > 2 * DOTS_PER_LINE) {
            return Err(Invalid("PPU event time"));
        }
        self.window_line = r.u8()?;
        let mut lr = [0; 9];
        r.bytes(&mut lr)?;
        let [lcdc, scy, scx, bgp, obp0, obp1, wx, ly, window_line] = lr;
        self.line_regs = super::fifo::LineRegs {
            lcdc,
            scy,
            scx,
            bgp,
            obp0,
            obp1,
            wx,
            ly: ly.min(143),
            window_line,
            wy_triggered: r.bool()?,
            window_carry: false,
        };
        for lw in &mut self.line_writes {
            lw.dot = r.u16()?;
            lw.addr = r.u16()?;
            lw.value = r.u8()?;
            if lw.addr != 0 && !(0xFF40..=0xFF4B).contains(&lw.addr) {
                return Err(Invalid("PPU line write register"));
            }
            if u64::from(lw.dot) >= DOTS_PER_LINE {
                return Err(Invalid("PPU line write dot"));
            }
        }
        self.line_write_count = r.below(MAX_LINE_WRITES as u8 + 1, "PPU line write count")?;
        r.bytes(&mut [0; WIDTH])?;
        r.bytes(&mut self.line_sprites)?;
        if self.line_sprites.iter().any(|&i| i >= 40) {
            return Err(Invalid("PPU object index"));
        }
        self.line_sprite_count = r.below(11, "PPU object count")?;
        self.size_change = (r.u64()?, r.u8()?);
        self.window_carry = r.bool()?;
        self.line_regs.window_carry = r.bool()?;
        self.hblank_end = r.u64()?;
        self.window_latch = r.bool()?;
        self.window_latch_falls = r.u8()?;
        if self.event == Event::HBlankIrqEarly
            && (self.hblank_end < self.next
                || self
                    .hblank_end
                    .checked_sub(self.line_start)
                    .is_none_or(|d| d > DOTS_PER_LINE))
        {
            return Err(Invalid("PPU mode 0 time"));
        }
        self.stat_fell = r.u64()?;
        self.lyc_cleared = r.u64()?;
        self.lyc_pending = (r.u8()?, r.u64()?);
        if self.lyc_pending.1 != u64::MAX && (!on || self.lyc_pending.1 > now + 8) {
            return Err(Invalid("PPU pending LYC write"));
        }
        self.hblank_at = r.u64()?;
        if self.hblank_at > now + DOTS_PER_LINE {
            return Err(Invalid("PPU mode 0 start"));
        }
        self.stat_held = (r.u8()? & 0x78, r.u8()? & 0x78, r.u64()?);
        if self.stat_held.2 != u64::MAX && (!on || self.stat_held.2 > now + 2) {
            return Err(Invalid("PPU STAT write hold"));
        }
        self.lyc_irq_at = r.u64()?;
        if self.lyc_irq_at != u64::MAX && (!on || self.lyc_irq_at > now + 8) {
            return Err(Invalid("PPU pending LYC interrupt"));
        }
        self.stat_pending = (r.u8()? & 0x78, r.u64()?);
        if self.stat_pending.1 != u64::MAX && (!on || self.stat_pending.1 > now + 8) {
            return Err(Invalid("PPU pending STAT write"));
        }
        Ok(())
    }
}
