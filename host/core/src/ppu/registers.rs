//! The LCD registers as the CPU reads and writes them: LCD on/off, the DMG STAT write glitch,
//! LYC, and the mode 3 writes the FIFO replay needs.

use super::event::{Event, SRC_HBLANK, SRC_VBLANK};
use super::timeline::FIRST_LINE_OAM_BLOCK;
use super::{HEIGHT, MAX_LINE_WRITES, Ppu};

impl Ppu {
    /// Read a PPU register (0xFF40-0xFF4B, except DMA at 0xFF46).
    pub fn read_register(&self, addr: u16) -> u8 {
        match addr {
            0xFF40 => self.lcdc,
            0xFF41 => {
                let mode = if self.lcd_on() { self.mode } else { 0 };
                0x80 | self.stat_enable | (u8::from(self.lyc_equal) << 2) | mode
            }
            0xFF42 => self.scy,
            0xFF43 => self.scx,
            0xFF44 => self.ly,
            0xFF45 if self.lyc_pending.1 != u64::MAX => self.lyc_pending.0,
            0xFF45 => self.lyc,
            0xFF47 => self.bgp,
            0xFF48 => self.obp0,
            0xFF49 => self.obp1,
            0xFF4A => self.wy,
            0xFF4B => self.wx,
            _ => 0xFF,
        }
    }

    /// Read a PPU register at `now` (as [`Ppu::read_register`], with the events up to `now`
    /// run). The CGB's STAT reads mode 2 and mode 3 a dot before the events that start them
    /// (S+1 for mode 2 on lines 0-143, S+81 for mode 3, at both speeds): reads on the CPU's
    /// grid cannot tell, reads with the LCD a dot or three off it can (Gambatte
    /// `lcd_offset/offset3_lyc99int_m2stat_count_2`, `offset1_lyc99int_m2stat_count_ds_2`:
    /// mode 2 read at S+1 of every line; `offset3_lyc99int_m3stat_count_2`,
    /// `offset1_lyc99int_m3stat_count_ds_2`: mode 3 at S+81; their `_1`, an M-cycle
    /// earlier, read mode 0 or 1 and mode 2). The rest of those modes' starts (the OAM
    /// source's end, VRAM and OAM blocking) stay where they are.
    pub fn read_register_at(&self, addr: u16, now: u64) -> u8 {
        let v = self.read_register(addr);
        if addr != 0xFF41 || !self.cgb || !self.lcd_on() || now + 1 != self.next {
            return v;
        }
        let early = match self.event {
            Event::Compare
                if self.line < HEIGHT as u8
                    && self.next == self.line_start + super::timeline::COMPARE_DOT =>
            {
                2
            }
            Event::Mode3 if !self.first_line => 3,
            _ => return v,
        };
        (v & !3) | early
    }

    /// Write a PPU register; returns the interrupt flags to request.
    pub fn write_register(&mut self, addr: u16, v: u8, now: u64) -> u8 {
        let drawn_from = self.drawn_registers();
        let mut irq = 0;
        if self.stat_held.2 <= now {
            irq = self.release_stat_held();
        }
        irq |= self.write_register_now(addr, v, now);
        if self.drawn_registers() != drawn_from {
            self.touch();
        }
        irq
    }

    /// The WY condition (Pan Docs "Window") checked at `now`, on a WY or LCDC write: LY
    /// equals WY while the LCD and the window are enabled (`lcdc` bits 7 and 5). Gambatte and SameBoy latch it only
    /// with LCDC.5 set (Gambatte `window/late_enable_afterVblank_2`, `_3`: the window enabled
    /// in line 0's last M-cycle with WY 0 shows on line 1 on the DMG, one M-cycle later
    /// not). The CGB's comparison sees the write 4 dots later than the DMG's: written in a
    /// line's last M-cycle, the write meets the next line's LY (Gambatte
    /// `window/arg/late_wy_FFto0_ly2_*`: WY 0 written at line 0, dot 448 shows the window on
    /// both models, at dot 452 on the DMG only; `late_enable_afterVblank_2`: LCDC.5 set there, no window on the CGB).
    /// At double speed a write up to dot 452 counts, on either dot phase (3 dots later:
    /// `late_wy_FFto0_ly2_ds_*`, `late_enable_afterVblank_ds_2` at even dots,
    /// `late_enable_afterVblank_ds_lcdoffset1_1`, `_2`: 451 counts, 453 not).
    fn wy_matches(&self, now: u64, lcdc: u8) -> bool {
        let seen = now
            + match (self.cgb, self.double_speed) {
                (false, _) => 0,
                (true, false) => 4,
                (true, true) => 3,
            };
        lcdc & 0xA0 == 0xA0
            && self.lcd_on()
            && self.line < HEIGHT as u8
            && self.wy == self.line
            && seen < self.line_start + super::DOTS_PER_LINE
    }

    /// The registers lines are drawn from (a write of the value a register holds changes
    /// no picture: games rewrite their scroll and palettes every frame).
    fn drawn_registers(&self) -> [u8; 8] {
        [
            self.lcdc, self.scy, self.scx, self.bgp, self.obp0, self.obp1, self.wy, self.wx,
        ]
    }

    /// The write itself ([`Ppu::write_register`] adds the still-line bookkeeping).
    fn write_register_now(&mut self, addr: u16, v: u8, now: u64) -> u8 {
        if addr == 0xFF40 && v & 0x20 != 0 && !self.wy_triggered && self.wy_matches(now, v) {
            // LCDC.5 set on a line WY equals: the WY condition is met from now on (it counts
            // only while the window is enabled, see `wy_matches`); a mode 3 under way sees
            // it at the write's landing through the FIFO replay (set before the write is
            // recorded, which retimes mode 0).
            self.wy_triggered = true;
            self.line_regs.wy_triggered = true;
        }
        if matches!(addr, 0xFF40 | 0xFF42 | 0xFF43 | 0xFF47..=0xFF4B) {
            self.record_write(addr, v, now);
        }
        match addr {
            0xFF40 => {
                if (self.lcdc ^ v) & 0x20 != 0 && self.mode != 3 {
                    // DMG, outside mode 3, WX 166's carry: LCDC.5 cleared drops the window's
                    // latch (the counter advances for it), set raises it while the carry
                    // waits (`Ppu::window_latch`; never on the CGB, which has no carry).
                    if v & 0x20 == 0 {
                        self.window_latch_falls = self
                            .window_latch_falls
                            .wrapping_add(u8::from(self.window_latch));
                        self.window_latch = false;
                    } else {
                        self.window_latch = self.window_carry;
                    }
                }
                if (self.lcdc ^ v) & 0x04 != 0 {
                    self.size_change = (now, self.lcdc);
                }
                let was_on = self.lcd_on();
                self.lcdc = v;
                if was_on && !self.lcd_on() {
                    if self.lyc_pending.1 != u64::MAX {
                        self.land_lyc();
                    }
                    if self.stat_pending.1 != u64::MAX {
                        self.land_stat();
                    }
                    self.lyc_irq_at = u64::MAX;
                    self.ly = 0;
                    self.line = 0;
                    self.mode = 0;
                    self.sources = 0;
                    self.set_blocked(false);
                    self.event = Event::Off;
                    self.next = u64::MAX;
                    // The LY=LYC flag keeps its value; only that source stays on the line.
                    self.stat_line = self.lyc_equal && self.stat_enable & 0x40 != 0;
                    if self.render {
                        let blank = self.blank_pixel();
                        self.framebuffer.pixels_mut().fill(blank);
                    }
                } else if !was_on && self.lcd_on() {
                    // Line 0 runs as if S was 4 dots ago, with no OAM scan.
                    self.blank_frame = true;
                    self.line = 0;
                    self.ly = 0;
                    self.line_start = now - 4;
                    self.first_line = true;
                    self.window_line = 0;
                    self.window_latch = false;
                    self.window_latch_falls = 0;
                    self.wy_triggered = self.window_enabled() && self.wy == 0;
                    // No OAM scan and no HBlank source until mode 3 (gbmicrotest
                    // `int_hblank_nops_scx0`): the line reads mode 0 but is not in HBlank.
                    self.mode = 0;
                    self.sources = 0;
                    self.schedule(Event::VramBlock, self.line_start + FIRST_LINE_OAM_BLOCK);
                    self.compare_lyc();
                    return self.update_stat(now);
                }
                0
            }
            0xFF41 => {
                // DMG quirk: a STAT write acts for one cycle as if every source were enabled
                // (the CGB does not have it: Pan Docs "Spurious STAT interrupts").
                let mut irq = 0;
                // On the DMG a STAT write that raises the line in the dot it fell (a source
                // ending at S, or the LY=LYC flag cleared there) makes no edge: the write
                // glitch's enables included (Gambatte `m2enable/late_enable_after_lycint_2`,
                // `m1/m1irq_m2enable_lyc_2`, `lycEnable/ff41_disable_2`). The CGB's write
                // reaches the line later in the dot than the fall: an edge (the same tests'
                // CGB results).
                let glitchless = !self.cgb;
                if !self.cgb {
                    self.stat_enable = 0x78;
                    irq = self.update_stat_write(now, glitchless);
                }
                if self.stat_pending.1 != u64::MAX {
                    irq |= self.land_stat();
                }
                // The CGB's write reaches the interrupt line 2 CPU clocks late (2 dots, 1 at
                // double speed) for the enables it clears of HBlank and of the sources that are
                // up; the rest act at once. So an HBlank source rising by then still makes its
                // edge, and a source disabled while up (LY=LYC, HBlank) holds the line over a
                // rise then; VBlank and OAM rising then are not seen once disabled (Gambatte
                // `m0enable/disable_scx*_2`, `lycdisable_ff41_*_2`, `m1/m1irq_m0disable_2`,
                // `m1irq_m2disable_lycdisable_2` against `m1/m1irq_disable_1`,
                // `m2enable/disable_ly0_1`: CPU CGB C and DMG-CPU B digits differ; Gambatte's
                // own model keeps the old enables 2 cycles on the CGB for HBlank's interrupt
                // and for what blocks the others). Before VBlank starts on line 144 (S to S+2)
                // the enables it sets are late too, after line 143's HBlank and the OAM pulse
                // end (`m1/ly143_late_m0enable_2`, `ly143_late_m2enable_2`: no interrupt for a
                // write at S; `_ds_1`, `_ds_lcdoffset1_2`: one at S at double speed, none at
                // S+1), and on the CPU CGB C before VBlank ends on line 0 the VBlank enable
                // (`m1/m1irq_late_enable_2`, `_ds_lcdoffset1_2`; gbc-hw-tests'
                // `mode1_disableint_*` CGB D dumps see VBlank there); on other lines a write at
                // S-1 still sees HBlank (`m0enable/late_enable_lcdoffset1_1`) and one at S the
                // OAM pulse (`m2enable/late_enable_ly0_1`, `late_enable_after_lycint_2`).
                let new = v & 0x78;
                let up = self.sources | if self.lyc_equal { 0x40 } else { 0 };
                let on = self.stat_enable & !new & (up | SRC_HBLANK);
                let off = match (self.line, self.event) {
                    (144, Event::Compare) => new & !self.stat_enable,
                    (0, Event::Compare) if !self.cgb_d => new & !self.stat_enable & SRC_VBLANK,
                    _ => 0,
                };
                if self.cgb && on | off != 0 && self.lcd_on() {
                    self.stat_held = (on, off, now + self.mcycle_dots() / 2);
                }
                irq |= self.stat_disable_before_compare(v, now);
                let old_enable = self.stat_enable;
                self.stat_enable = v & 0x78;
                // The CGB at normal speed: a write made 2 dots or less before the comparison
                // at S+2 (line 153: S+10) that would lower the line lowers it only after that
                // dot's events, so a source they raise makes no edge (Gambatte
                // `m2enable/late_enable_m1disable_ly0_2`: VBlank's source disabled and mode
                // 2's enabled at S of line 0, `late_m1disable_ly0_2`,
                // `lyc0_late_m2enable_lycdisable_2`, `m1/m1irq_m2disable_lycdisable_2`,
                // `lycEnable/lyc153_late_m1disable_2`: no interrupt on the CGB, one on the
                // DMG). A write that raises the line, or one made while it is low, acts at
                // once (`m2enable/late_enable_ly0_1`, `disable_ly0_1`).
                let soon = self.next > now && self.next - now <= 2;
                if self.cgb
                    && !self.double_speed
                    && self.lcd_on()
                    && soon
                    && matches!(self.event, Event::Compare | Event::Line153Compare)
                    && self.stat_line
                    && !self.stat_sources()
                {
                    self.stat_pending = (v & 0x78, self.next);
                    return irq;
                }
                // The CGB: the LY=LYC enable written a dot before the comparison at S+2 (the
                // LCD a dot or three off the CPU's grid) reaches the line after that dot's
                // events; the other enables act at once (Gambatte
                // `miscmstatirq/lycstatwirq_trigger_ly00_10_50_lcdoffset3_2`: STAT 0x50 over
                // 0x10 written at line 0's S+1, with LY=LYC up for LYC 0: VBlank's source falls
                // at S+2 with the LYC source still disabled, the written enable raises the line:
                // an interrupt; at S (`_1`, `_ds_1`) VBlank still holds the line, none; mode
                // 2's enable written at S+1 sees the OAM pulse, `m2enable/late_enable_lcdoffset3_1`).
                if self.cgb
                    && self.lcd_on()
                    && self.stat_enable & !old_enable & 0x40 != 0
                    && self.event == Event::Compare
                    && self.next == self.line_start + super::timeline::COMPARE_DOT
                    && now + 1 == self.next
                {
                    self.stat_pending = (self.stat_enable, self.next);
                    self.stat_enable &= !0x40;
                }
                let was_low = !self.stat_line;
                irq |= self.update_stat_write(now, glitchless);
                irq | self.late_oam_enable(old_enable, now, was_low)
            }
            0xFF42 => {
                self.scy = v;
                0
            }
            0xFF43 => {
                self.scx = v;
                0
            }
            0xFF45 => {
                // The CGB's comparison sees an LYC write an M-cycle late at normal speed, at
                // once at double speed (a 2-dot delay there fails the `_ds_1` variants) (Gambatte `lycEnable/ff45_disable_2`, `late_ff45_enable_2`,
                // `ff45_enable_weirdpoint_2`: the line's LY=LYC interrupt still sees the old
                // LYC when the write lands at S; DMG-CPU B: at once). STAT's flag follows it;
                // no read at normal speed falls in between.
                let mut irq = 0;
                if self.lyc_pending.1 != u64::MAX {
                    irq = self.land_lyc();
                }
                if self.cgb && self.lcd_on() && !self.double_speed {
                    // The PPU takes it at its own next M-cycle boundary (S + 4k), which the
                    // LCD's phase against the CPU moves (see `lyc_landing`).
                    self.lyc_pending = (v, self.lyc_landing(now));
                    return irq;
                }
                // At double speed a write in the M-cycle before S that clears the flag of
                // lines 0-143 reaches the interrupt line only after LY's change at S, so the
                // OAM source's rise there finds the line still high: no mode 2 interrupt
                // (Gambatte `m2enable/lyc1_m2irq_late_lyc255_ds_2`: LYC 1 set to 0xFF at line
                // 1's dot 454 with STAT 0x60, no interrupt; at dot 452, `_ds_1`, one;
                // Gambatte's model keeps the old LYC for mode 2's blocking when written 5
                // cycles, 2.5 dots, or less before it at double speed).
                let next_s = self.line_start + super::DOTS_PER_LINE;
                if self.cgb
                    && self.double_speed
                    && self.lcd_on()
                    && self.line < 144
                    && self.lyc_equal
                    && v != self.line
                    && now < next_s
                    && next_s - now <= self.mcycle_dots()
                {
                    self.lyc_pending = (v, next_s);
                    return irq;
                }
                self.lyc = v;
                if self.lcd_on() {
                    irq | self.lyc_write_compare(now)
                } else {
                    irq
                }
            }
            0xFF47 => {
                self.bgp = v;
                0
            }
            0xFF48 => {
                self.obp0 = v;
                0
            }
            0xFF49 => {
                self.obp1 = v;
                0
            }
            0xFF4A => {
                self.wy = v;
                // LY is compared with WY all through the line, not only at its start: WY
                // written with LY's value triggers the window from now on (the current
                // line's mode 3, if it is under way, sees it through the FIFO replay, WY
                // `fifo::WY_DELAY` dots late).
                // (When the comparison sees the write: `wy_matches`.)
                if self.wy_matches(now, self.lcdc) {
                    self.wy_triggered = true;
                }
                0
            }
            0xFF4B => {
                self.wx = v;
                0
            }
            _ => 0,
        }
    }

    /// The CGB at normal speed: a STAT write made 2 dots or less before an LY=LYC comparison
    /// does not reach it in time, so a comparison that raises the flag still requests the
    /// interrupt with the LYC source the write disabled (Gambatte `lycEnable/ff41_disable_2`,
    /// `lyc0_ff41_disable_2`: STAT 0 written at S, LYC matching the new line: an interrupt on
    /// the CGB, none on the DMG; Gambatte's own model keeps the old STAT for the LYC
    /// interrupt when written 2 cycles or less before it). The request is made at the write:
    /// no CPU access falls between.
    fn stat_disable_before_compare(&self, v: u8, now: u64) -> u8 {
        let compared = match self.event {
            Event::Compare => self.line,
            Event::Line153Compare => 0,
            _ => return 0,
        };
        let disabled = self.stat_enable & 0x40 != 0 && v & 0x40 == 0;
        let soon = self.next > now && self.next - now <= 2;
        if self.cgb
            && !self.double_speed
            && self.lcd_on()
            && disabled
            && soon
            && self.lyc == compared
            && !self.stat_line
        {
            super::IRQ_STAT
        } else {
            0
        }
    }

    /// Where the CGB's LYC write made at `now` (normal speed) lands: the PPU's first M-cycle
    /// boundary after it (S + 4k, after that dot's events), not a CPU M-cycle later. With
    /// the LCD on the CPU's grid that is the next M-cycle; with the LCD a dot or more off
    /// it (switched on at an odd dot, or moved by a speed switch) sooner (Gambatte
    /// `lycEnable/lycwirq_trigger_ly00_stat50_lcdoffset1_1`: LYC 0 written at line 153's dot
    /// 455 lands at line 0's S, while VBlank's source still holds the line: no interrupt;
    /// `_lcdoffset1_2`, written at S+3: one; `_1`, `_2` on the grid, S-4 and S).
    fn lyc_landing(&self, now: u64) -> u64 {
        let dot = now.saturating_sub(self.line_start);
        self.line_start + (dot / 4 + 1) * 4
    }

    /// The CGB at double speed: a STAT write at S+2 of lines 0-143 that enables mode 2's
    /// source (and not HBlank's) while the line is low still sees the OAM source's pulse,
    /// which ended there for STAT reads and for the other sources (mode 2 from S+2): the
    /// write requests the interrupt. A write at S+4 does not (Gambatte
    /// `m2enable/late_enable_m0disable_ds_1`, `late_enable_m1disable_ly0_ds_1`,
    /// `lyc1_late_m2enable_lycdisable_ds_3` against `late_enable_m0disable_ds_2`,
    /// `late_enable_m1disable_ly0_ds_2`; at normal speed the write at S sees the pulse and the
    /// next at S+4 does not, so the window is the same 2 dots past the pulse's end on the
    /// normal grid's S; Gambatte's model takes a write up to 1 dot before its LY change at
    /// double speed, 2 at normal speed).
    fn late_oam_enable(&self, old_enable: u8, now: u64, was_low: bool) -> u8 {
        let enabled = self.stat_enable & !old_enable & 0x20 != 0 && self.stat_enable & 0x08 == 0;
        if self.cgb
            && self.double_speed
            && self.lcd_on()
            && enabled
            && was_low
            && !self.stat_line
            && self.line < 144
            && now == self.line_start + self.mode2_start()
        {
            super::IRQ_STAT
        } else {
            0
        }
    }

    /// Remember a register write made during mode 3, for the FIFO replay of this line.
    fn record_write(&mut self, addr: u16, v: u8, now: u64) {
        let drawing = self.mode == 3 || self.event == Event::Draw;
        if !drawing || !self.lcd_on() || self.line >= HEIGHT as u8 {
            return;
        }
        if addr == 0xFF40 && v & 0x02 != 0 && self.line_regs.lcdc & 0x02 == 0 {
            // Objects switched on mid-line: the OAM scan skipped at mode 3 is done now.
            self.oam_scan(self.line_regs.lcdc | 0x02);
        }
        // The first line after the LCD is switched on runs its mode 3 2 dots late: the replay,
        // timed as other lines, sees its writes 2 dots earlier.
        let dot = now
            .saturating_sub(self.line_start + self.first_line_delay())
            .min(455) as u16;
        let n = usize::from(self.line_write_count);
        if n < MAX_LINE_WRITES {
            self.line_writes[n] = super::fifo::LineWrite {
                dot,
                addr,
                value: v,
            };
        }
        // Past the log's size the line falls back to whole-line drawing.
        self.line_write_count = self.line_write_count.saturating_add(1);
        if matches!(addr, 0xFF40 | 0xFF43 | 0xFF4A | 0xFF4B) {
            self.retime_mode0(now);
        }
    }
}
