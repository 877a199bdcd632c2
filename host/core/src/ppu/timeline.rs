//! The PPU's timeline: the events of a line (LY change, LY=LYC comparison, mode 2, VRAM block,
//! mode 3, mode 0, the line's drawing), the STAT interrupt sources and their edge detection.
//! Each edge's dot, with its hardware reference, is in `docs/timing.md`. With no STAT source
//! enabled the scheduler wakes the timeline only for VBlank ([`Ppu::wake_at`]) and the events
//! between run late, in one batch; a batch that runs past a line skips what nobody saw there
//! (mode 3's length, and the object scan when no objects are drawn).

use super::event::{Event, SRC_HBLANK, SRC_OAM, SRC_VBLANK};
use super::{DOTS_PER_LINE, IRQ_STAT, IRQ_VBLANK, Ppu};

/// Dot (from S) at which STAT reads mode 3 (see the module docs).
pub(super) const MODE3_START: u64 = 84;
/// Dot (from S) at which LY is compared with LYC; on line 144 VBlank starts there, on line 0
/// it ends (GateBoy: the VBlank signal is LY delayed by 2 dots).
pub(super) const COMPARE_DOT: u64 = 2;
/// Dot (from S) at which STAT reads mode 2 on lines 0-143.
pub(super) const MODE2_START: u64 = 4;
/// Dot (from S) at which VRAM is blocked.
pub(super) const VRAM_BLOCK: u64 = 80;
/// Dots from mode 0 to the line's last pixel in the FIFO replay's time (the line is drawn then,
/// and register writes until then still reach it): [`super::fifo::START`] plus 172 dots (12
/// before the first pixel, 160 pixels), minus [`MODE0_START`]. The replay's object stalls are
/// Pan Docs' penalties, as the timeline's are.
pub(super) const DRAW_DELAY: u64 = super::fifo::START as u64 + 172 - MODE0_START;
/// Dots from S to the end of mode 3 with no penalties, as STAT, VRAM and OAM see it. Mode 0
/// starts half a dot before dot 254 (GateBoy: the pixel counter reaches 167 in an odd phase):
/// a STAT read, which ANDs two half-dot samples, sees the falling mode bits from dot 253,
/// the interrupt logic, which samples IF once, sees the HBlank source from dot 254
/// ([`HBLANK_IRQ_DELAY`]). So with the fine scroll STAT reads mode 0 at S+256 for SCX 0-3 and
/// at S+260 for SCX 4-7 (gbmicrotest `ppu_sprite0_scx*`), while the interrupt groups SCX 0-2,
/// 3-6 and 7 (`hblank_int_scx*`). The first line after the LCD is switched on ends mode 3
/// [`FIRST_LINE_DELAY`] dots later.
pub(super) const MODE0_START: u64 = 253;
/// Dots from mode 0 (as STAT reads it) to the HBlank interrupt source.
const HBLANK_IRQ_DELAY: u64 = 1;
/// The first line after the LCD is switched on starts mode 3 2 dots later than other lines
/// (GateBoy: its OAM scan ends at dot 83, not 81), so mode 0 comes 2 dots later too: the
/// interrupt groups SCX 0, 1-4 and 5-7 there (gbmicrotest `int_hblank_nops_scx*`).
const FIRST_LINE_DELAY: u64 = 2;
/// Dot (from S) from which OAM writes are blocked on the first line after the LCD is switched
/// on, which has no mode 2: 2 dots before mode 3 (Gambatte
/// `enable_display/ly0_late_oamw_ds_1`, `_ds_2`: at double speed a write at S+80 lands, one at
/// S+82 is dropped; `ly0_late_oamw_1`, `_2` at normal speed: S+80 lands, S+84 not, both
/// models; Gambatte's own model blocks them 4 cycles, 5 at double speed, before its first
/// line's inactive period ends).
pub(super) const FIRST_LINE_OAM_BLOCK: u64 = 82;
/// The CGB's dot (from S) at which STAT reads mode 2 (see [`Ppu::mode2_start`]).
const CGB_MODE2_START: u64 = 2;
/// The CGB's dot (from S) at which STAT reads mode 3 (see [`Ppu::mode3_start`]).
const CGB_MODE3_START: u64 = 82;

impl Ppu {
    /// Dot (from S) of mode 2 on lines 0-143: [`MODE2_START`] on the DMG, [`CGB_MODE2_START`]
    /// on the CGB, where a read 2 dots into the line already sees mode 2 (at double speed,
    /// gbc-hw-tests `stat_timings_*_gbc_mode`; at normal speed reads fall on S and S+4 and
    /// cannot tell the two apart, unless a speed switch moved the CPU's M-cycles).
    #[inline]
    pub(super) fn mode2_start(&self) -> u64 {
        if self.cgb {
            CGB_MODE2_START
        } else {
            MODE2_START
        }
    }

    /// Dot (from S) of mode 3: [`MODE3_START`] on the DMG, [`CGB_MODE3_START`] on the CGB
    /// (gbc-hw-tests `stat_timings_*_gbc_mode`, `mode2_stat_timing_*_gbc_mode` at double
    /// speed).
    #[inline]
    pub(super) fn mode3_start(&self) -> u64 {
        if self.cgb {
            CGB_MODE3_START
        } else {
            MODE3_START
        }
    }

    /// When the PPU's timeline must run next if nothing touches the PPU before: its next event
    /// while a STAT interrupt source is enabled (any edge may request the interrupt), otherwise
    /// the next start of VBlank (line 144, dot 2: the VBlank interrupt and the frame's end).
    /// The events between change nothing outside the PPU, so they may run late, in one batch,
    /// when the CPU next reads or writes the PPU ([`crate::bus`]'s catch-up); the result is
    /// the same as running each on time.
    pub(crate) fn wake_at(&self) -> u64 {
        if self.stat_irq_enabled() || self.next == u64::MAX {
            return self.next_event();
        }
        // Lines are DOTS_PER_LINE apart from `line_start` on (the speed switch's delay moves
        // both), so line 144's compare dot is a product away.
        let lines = if self.line <= 144 {
            144 - self.line
        } else {
            154 - self.line + 144
        };
        let vblank = self.line_start + u64::from(lines) * DOTS_PER_LINE + COMPARE_DOT;
        if vblank >= self.next {
            vblank
        } else {
            // This frame's VBlank has started: the next frame's.
            vblank + 154 * DOTS_PER_LINE
        }
    }

    /// Whether the HBlank interrupt source rises at dot `at` as the PPU's next event (mode 0
    /// began on the M-cycle boundary before it; at double speed with mode 0 itself).
    pub(crate) fn hblank_source_at(&self, at: u64) -> bool {
        self.next == at
            && (self.event == Event::HBlankIrq
                || (self.event == Event::HBlank && self.double_speed))
    }

    /// Whether a STAT interrupt source is enabled (STAT bits 3-6): then any edge may request
    /// the interrupt, so the timeline runs on time.
    fn stat_irq_enabled(&self) -> bool {
        (self.stat_enable | self.stat_held.0) & 0x78 != 0
    }

    /// When VBlank started (line 144, dot 2), while the PPU is on line 144 in VBlank.
    pub(crate) fn vblank_started(&self) -> Option<u64> {
        (self.lcd_on() && self.line == 144 && self.mode == 1)
            .then_some(self.line_start + COMPARE_DOT)
    }

    /// The sources of the STAT interrupt line, ORed.
    pub(super) fn stat_sources(&self) -> bool {
        let e = (self.stat_enable | self.stat_held.0) & !self.stat_held.1;
        (self.lyc_equal && e & 0x40 != 0) || self.sources & e != 0
    }

    /// Re-evaluate the STAT line at dot `at`; a rising edge requests the interrupt. While the
    /// LCD is off the comparison clock is stopped: the LY=LYC flag keeps its value (Mooneye
    /// `stat_lyc_onoff`) and is the only source left, so a STAT write that enables it while
    /// it is set still makes an edge (Gambatte `lycEnable/lcdoff_lycirqen_*`; on the DMG the
    /// write glitch's enables do too).
    pub(super) fn update_stat(&mut self, at: u64) -> u8 {
        let line = self.stat_sources();
        let rising = line && !self.stat_line;
        if self.stat_line && !line {
            self.stat_fell = at;
        }
        self.stat_line = line;
        if rising { IRQ_STAT } else { 0 }
    }

    /// [`Ppu::update_stat`] for a register write at `at` that may raise the line in the dot it
    /// fell: with `glitchless` the line was never low for the edge detector, no request.
    pub(super) fn update_stat_write(&mut self, at: u64, glitchless: bool) -> u8 {
        let irq = self.update_stat(at);
        if glitchless && self.stat_fell == at {
            0
        } else {
            irq
        }
    }

    /// The CGB's pending STAT write lands (see `registers.rs`): the line follows its enables.
    pub(super) fn land_stat(&mut self) -> u8 {
        let (v, at) = self.stat_pending;
        self.stat_pending.1 = u64::MAX;
        self.stat_enable = v;
        self.update_stat(at)
    }

    /// The CGB's pending LYC write lands (see `registers.rs`): LYC is compared again. STAT's
    /// flag and the line follow at once; the interrupt it raises is requested a dot later,
    /// seen by the interrupt check an M-cycle after the landing (Gambatte
    /// `lycEnable/lyc_ff45_trigger_delay_2`: LYC written with the current LY; the handler runs
    /// an instruction later than on the DMG, where the write lands at once; Gambatte's own
    /// model requests it 5 cycles after the write at normal speed on the CGB).
    pub(super) fn land_lyc(&mut self) -> u8 {
        let (v, at) = self.lyc_pending;
        self.lyc_pending.1 = u64::MAX;
        self.lyc = v;
        let was_equal = self.lyc_equal;
        if was_equal && self.stat_line && self.stat_pending.1 == u64::MAX {
            self.compare_lyc_write(at);
            if !self.stat_sources() {
                // The flag's fall reaches the interrupt line 2 dots after the landing (after
                // that dot's events): a source rising by then makes no edge (Gambatte
                // `m0enable/lycdisable_ff45_2`, `lycdisable_ff45_scx3_2`: LYC moved off LY
                // 6 dots before HBlank's source rises, no interrupt on the CPU CGB C).
                self.stat_pending = (self.stat_enable, at + 2);
                return 0;
            }
            self.lyc_equal = was_equal;
        }
        if self.lyc_write_compare(at) != 0 {
            self.lyc_irq_at = at + 1;
        }
        0
    }

    /// LYC was written (or a CGB write landed) at `at`: compare again and update the line. An
    /// LYC that matches the line about to be compared, written while the flag is still set
    /// for the line before, keeps the flag: it never goes low, so the line makes no edge
    /// (Gambatte `lycEnable/ff45_enable_weirdpoint_*`, `lyc153_late_ff45_enable_*`; Gambatte's
    /// own model: "simultaneous ly/lyc inc. lyc flag never goes low -> no trigger"). That
    /// holds for a write landing up to [`Ppu::lyc_never_low_dots`] after LY's change cleared
    /// the flag, while the line stayed low. Another source that fell in that dot does not
    /// hide the LYC's rise (`miscmstatirq/lycwirq_trigger_m0_late_*`: HBlank ends as LYC is
    /// written with the new LY: an interrupt).
    pub(super) fn lyc_write_compare(&mut self, at: u64) -> u8 {
        self.compare_lyc_write(at);
        let cleared = self.lyc_cleared;
        let never_low = self.lyc_equal
            && at >= cleared
            && at - cleared < self.lyc_never_low_dots()
            && self.stat_fell == cleared;
        let irq = self.update_stat(at);
        if never_low { 0 } else { irq }
    }

    /// How long after LY's change cleared a set LY=LYC flag an LYC write that matches the
    /// new line still keeps it (the flag never went low): the dot itself on the DMG; on the
    /// CGB, whose write lands an M-cycle late, the M-cycle from it (Gambatte
    /// `lycEnable/ff45_enable_weirdpoint_lcdoffset1_2`: written a dot before S, landing at
    /// S+3 after the comparison at S+2: no edge).
    fn lyc_never_low_dots(&self) -> u64 {
        if self.cgb { 4 } else { 1 }
    }

    pub(super) fn compare_lyc(&mut self) {
        self.lyc_equal = self.ly == self.lyc;
    }

    /// Dots from an LYC write landing to the comparison it is measured against: the
    /// comparator sees LY that much later (Gambatte's model: the write reaches the LY=LYC
    /// comparison only when made more than 4 dots before it on the DMG, 6 on the CGB at normal
    /// speed (whose write lands 4 late: 2 more), 5 at double speed). On the CPU CGB D the
    /// comparison is as the write lands.
    fn lyc_write_ahead(&self) -> u64 {
        if !self.cgb {
            4
        } else if self.cgb_d {
            0
        } else if self.double_speed {
            5
        } else {
            2
        }
    }

    /// LY compared with LYC for an LYC write landing at `at`: the LY the comparison holds
    /// [`Ppu::lyc_write_ahead`] dots later, which need not be the LY the CPU reads. On lines
    /// 0-152 it holds the next line's LY from that line's S+2; on line 153 it holds 153 until
    /// S+10 and 0 from there (Gambatte `lycEnable/lyc153_late_ff45_enable_*`: LYC 153 written
    /// at S+4 on line 153 at double speed still raises the interrupt, at S+6 it does not; at
    /// normal speed on the CGB written at S+3 it does, at S+4 not; `ff45_enable_weirdpoint_ds_*`:
    /// at double speed LYC written with the next line's LY 2 dots before S keeps the flag).
    pub(super) fn compare_lyc_write(&mut self, at: u64) {
        let dot = at.saturating_sub(self.line_start);
        let seen = dot + self.lyc_write_ahead();
        self.lyc_equal = match self.line {
            153 if seen < COMPARE_DOT + 8 => self.lyc == 153,
            153 if dot < COMPARE_DOT + 8 => self.lyc_equal && self.lyc == 0,
            153 => self.lyc == 0,
            line if seen >= DOTS_PER_LINE + COMPARE_DOT => self.lyc_equal && self.lyc == line + 1,
            line => self.lyc == line,
        };
    }

    /// Process every event due at or before `now`; returns the interrupt flags to request.
    pub fn run_events(&mut self, now: u64) -> u8 {
        let mut irq = 0;
        if self.stat_held.2 <= now {
            irq = self.release_stat_held();
        }
        irq | self.run_events_due(now)
    }

    /// A CGB STAT write's value reaches the interrupt line (see `registers.rs`): the events up
    /// to then run with the enables as they were, then the line is updated with the written
    /// ones.
    #[cold]
    pub(super) fn release_stat_held(&mut self) -> u8 {
        let at = self.stat_held.2;
        let irq = self.run_events_due(at);
        self.stat_held = (0, 0, u64::MAX);
        // Like the DMG's write, the landing value raises the line in the dot it fell with
        // no edge (`m1/lyc143_late_m0enable_lycdisable_ds_1`: LY=LYC disabled and HBlank
        // enabled at S on line 144 at double speed, the flag falling at S+1: no interrupt).
        irq | self.update_stat_write(at, true)
    }

    /// [`Ppu::run_events`] without the STAT write's hold.
    fn run_events_due(&mut self, now: u64) -> u8 {
        // No event writes LYC, so without a write in flight the loop need not look for one.
        if self.lyc_pending.1 == u64::MAX
            && self.lyc_irq_at == u64::MAX
            && self.stat_pending.1 == u64::MAX
        {
            self.run_events_with::<false>(now)
        } else {
            self.run_events_with::<true>(now)
        }
    }

    /// [`Ppu::run_events`], looking for a pending LYC write (`LYC`) between events or not.
    fn run_events_with<const LYC: bool>(&mut self, now: u64) -> u8 {
        let mut irq = 0;
        loop {
            // A pending LYC write lands after the events of its own dot.
            if LYC && self.lyc_pending.1 <= now && self.lyc_pending.1 < self.next {
                irq |= self.land_lyc();
                continue;
            }
            if LYC && self.stat_pending.1 <= now && self.stat_pending.1 < self.next {
                irq |= self.land_stat();
                continue;
            }
            if LYC && self.lyc_irq_at <= now && self.lyc_irq_at < self.next {
                self.lyc_irq_at = u64::MAX;
                irq |= IRQ_STAT;
                continue;
            }
            if self.next > now {
                break;
            }
            let at = self.next;
            let s = self.line_start;
            match self.event {
                Event::Off => break,
                Event::LineStart => {
                    self.line_start = at;
                    self.line_write_count = 0;
                    self.window_drawn = false;
                    self.first_line = false;
                    self.line = if self.line >= 153 { 0 } else { self.line + 1 };
                    // DMG, WX 166's carry: the window's latch falls as the line starts (the
                    // counter advances for it) and rises again with LCDC.5 set, the carry
                    // pending (`docs/timing.md`, "WX 166").
                    let falls = self
                        .window_latch_falls
                        .wrapping_add(u8::from(self.window_latch));
                    self.window_line = self.window_line.wrapping_add(falls);
                    self.window_latch_falls = 0;
                    self.window_latch =
                        self.window_carry && self.lcdc & 0x20 != 0 && self.line < 144;
                    // The comparison is invalid for the M-cycle after LY changes; line 0
                    // keeps the LY 0 line 153 already shows (gbmicrotest `poweron_stat_006`).
                    // The CPU CGB D keeps the flag as it was (gbc-hw-tests
                    // `mode1_disable*`, `vbl_irq_delay_timer_*`: the flag still set an
                    // M-cycle into line 144; SameBoy has it so for CGB D and later).
                    // At double speed the CPU CGB C drops it a dot later, at S+1 (the
                    // `Compare` below).
                    let ds_late = self.double_speed && !self.cgb_d;
                    if self.ly != self.line && !self.cgb_d && !ds_late {
                        if self.lyc_equal {
                            self.lyc_cleared = at;
                        }
                        self.lyc_equal = false;
                    }
                    self.ly = self.line;
                    // Every line reads mode 0 for its first M-cycle, line 0 after VBlank too
                    // (gbmicrotest `poweron_stat_006`); the OAM source pulses on lines 0-144,
                    // from dot 2 on line 0 (VBlank masks it until then).
                    // The CPU CGB D's line 0 reads mode 1 until mode 2 (SameBoy; gbc-hw-tests
                    // `mode1_disablestat_end_*`, CGB D dumps), and so does the CPU CGB C's at
                    // double speed, where what changes at S it sees a dot late (as the LY=LYC
                    // flag); at normal speed the CPU CGB C's reads mode 0 at S as the DMG's
                    // (Gambatte `enable_display/frame1_m2stat_count_1`: STAT 0x84 at S of the
                    // second frame's line 0; `_ds_1`: 0x85 there at double speed, `_ds_2`:
                    // 0x86 at S+2; `ly0/lycint152_ly0stat_*`).
                    if self.line != 0 || !(self.cgb_d || ds_late) {
                        self.mode = 0;
                    }
                    // No mode 2 ends line 143's HBlank: its source lasts until VBlank starts
                    // (`Compare`), so with both enabled VBlank's rise makes no edge.
                    self.sources = match self.line {
                        0 => SRC_VBLANK,
                        144 => SRC_OAM | (self.sources & SRC_HBLANK),
                        1..=143 => SRC_OAM,
                        _ => SRC_VBLANK,
                    };
                    if self.line < 144 {
                        // The CGB compares WY with the new LY here, the DMG at `Compare`.
                        self.wy_triggered |=
                            self.cgb && !ds_late && self.window_enabled() && self.wy == self.line;
                        self.oam_read_blocked = true;
                        // The CGB blocks OAM writes from S as well (gbc-hw-tests
                        // `oam_echo_ram_lcd_on`: a write at S is dropped).
                        self.oam_write_blocked |= self.cgb;
                        if self.line == 0 {
                            self.window_line = 0;
                            self.wy_triggered = self.window_enabled() && self.wy == 0;
                        }
                    } else if self.line > 144 {
                        self.mode = 1;
                    }
                    let compare = if ds_late { at + 1 } else { at + COMPARE_DOT };
                    self.schedule(Event::Compare, compare);
                }
                Event::Compare if at < s + COMPARE_DOT => {
                    // S+1 at double speed on the CPU CGB C: the old line's LY=LYC flag drops
                    // (LY changed, but on line 0, which keeps line 153's LY 0). A STAT read
                    // or write at S still sees it, the interrupt line falls before S+2
                    // (Gambatte `enable_display/frame0_m2stat_count_ds_1`: LY=LYC read at S
                    // of line 1; `lycEnable/late_ff41_enable_ds_1`; `m1/lycint143_m1irq_ds_*`:
                    // the mode 1 interrupt at S+2 of line 144 still rises).
                    // A flag an LYC write set for the new line already stays (it never
                    // goes low: `lyc_write_compare`).
                    if self.line != 0 && self.lyc != self.line {
                        self.lyc_equal = false;
                    }
                    // At double speed the CGB compares WY with the new LY here.
                    if (1..144).contains(&self.line) {
                        self.wy_triggered |= self.window_enabled() && self.wy == self.line;
                    }
                    self.schedule(Event::Compare, s + COMPARE_DOT);
                }
                Event::Compare => {
                    // LY as the line started, compared with LYC in phase B of the M-cycle
                    // (GateBoy's ROPO latch): reads see it from S+4, a HALT wakes for its
                    // interrupt in the M-cycle that ends at S+4.
                    self.lyc_equal = self.line == self.lyc;
                    match self.line {
                        // VBlank ends, and line 0's OAM pulse starts. WY is compared with
                        // line 0 here too: a write in the line's first M-cycle still counts
                        // (Gambatte `window/arg/late_wy_1`, `_2`: WY 0xFF written at S leaves the frame
                        // without the window, at S+4 not; Gambatte's model compares it a dot
                        // or two into line 0).
                        0 => {
                            self.sources = SRC_OAM;
                            self.wy_triggered = self.window_enabled() && self.wy == 0;
                        }
                        144 => {
                            self.mode = 1;
                            self.sources = SRC_VBLANK;
                            irq |= IRQ_VBLANK;
                            self.frame_ready = true;
                            self.blank_frame = false;
                            self.clear_line_scratch();
                        }
                        // The DMG's LY reads 0 from here (an M-cycle before LYC sees it); the
                        // CGB's from Line153Blank.
                        153 if !self.cgb => self.ly = 0,
                        // The DMG compares WY with the new LY with LYC, 2 dots after the
                        // CGB: a WY write at S still counts there (Gambatte
                        // `window/arg/late_wy_1toFF_2`, `late_wy_2toFF_2`: WY 1 or 2 set
                        // to 0xFF at that line's S leaves it without the window on the DMG,
                        // not on the CGB, whose comparison sees the write 4 dots late).
                        1..=143 if !self.cgb => {
                            self.wy_triggered |= self.window_enabled() && self.wy == self.line;
                        }
                        _ => {}
                    }
                    if self.line < 144 {
                        self.schedule(Event::Mode2, s + self.mode2_start());
                    } else if self.line == 153 {
                        // The CPU CGB C's LY reads 0 from S+4, at double speed from S+5
                        // (Gambatte `lcd_offset/offset2_lyc98int_ly_count_*`: reads 2 dots
                        // off the normal grid after four switches see 153 at S+2;
                        // `enable_display/frame1_ly_count_ds_*`,
                        // `lcd_offset/offset1_lyc98int_ly_count_ds_*`); the CPU CGB D's from
                        // S+6, an M-cycle after the DMG's (gbc-hw-tests
                        // `ly_timings_*_dmg_mode`'s CGB dumps).
                        let first = if !self.cgb || self.cgb_d {
                            6
                        } else if self.double_speed {
                            5
                        } else {
                            4
                        };
                        self.schedule(Event::Line153Blank, s + first);
                    } else {
                        self.schedule_line_end(s);
                    }
                }
                Event::Mode2 => {
                    self.sources &= !SRC_OAM;
                    self.mode = 2;
                    self.oam_write_blocked = true;
                    self.schedule(Event::VramBlock, s + VRAM_BLOCK);
                }
                Event::VramBlock if self.first_line => {
                    // The first line after the LCD is switched on: OAM writes are blocked
                    // 2 dots before mode 3 (VRAM is not blocked for reads before it).
                    self.oam_write_blocked = true;
                    self.schedule(Event::Mode3, s + MODE3_START);
                }
                Event::VramBlock => {
                    // For one M-cycle the DMG's OAM takes writes again (Mooneye
                    // lcdon_write_timing-GS); the CGB's does not (Gambatte
                    // `oam_access/midwrite_2`: a write at S+80 is dropped on the CGB only).
                    // (The CGB blocks VRAM later: `Ppu::cgb_vram_open`.)
                    self.vram_read_blocked = !self.cgb;
                    self.oam_write_blocked = self.cgb;
                    self.schedule(Event::Mode3, s + self.mode3_start());
                }
                Event::Mode3 => {
                    self.mode = 3;
                    self.set_blocked(true);
                    // A lazy batch (see `wake_at`) that runs past the line's end: nobody saw
                    // when mode 3 ended, so its length is not worked out. When it also runs
                    // past the next line's mode 3, with no objects drawn (nothing drawn, or
                    // LCDC.1 clear, which the CGB still scans with), nobody sees this line's
                    // objects either (the next scan replaces them; after line 143, VBlank
                    // clears them).
                    let line_seen = self.stat_irq_enabled() || now < s + DOTS_PER_LINE - 1;
                    let objects_drawn = self.render && self.lcdc & 0x02 != 0;
                    if line_seen || objects_drawn || now < s + DOTS_PER_LINE + self.mode3_start() {
                        self.oam_scan(self.lcdc);
                    }
                    self.line_write_count = 0;
                    // The latch's falls since the line started count for this line's window;
                    // a latch still up is the line's carried window (counted by the line).
                    self.window_line = self.window_line.wrapping_add(self.window_latch_falls);
                    self.window_latch_falls = 0;
                    self.window_latch = false;
                    self.line_regs = self.line_regs_now();
                    let (end, late) = if line_seen {
                        let (penalty, late) = self.mode3_penalty_parts();
                        (s + self.mode0_dot(penalty), late)
                    } else {
                        (s + MODE0_START, 0)
                    };
                    if late > 0 && !self.first_line {
                        // The interrupt source rises as the pixel counter reaches 167; what
                        // happens there (objects at X 167, the CGB's window at WX 166)
                        // lengthens mode 3 for STAT, VRAM and OAM only.
                        self.hblank_end = end;
                        self.schedule(Event::HBlankIrqEarly, end - late + HBLANK_IRQ_DELAY);
                    } else {
                        self.schedule(Event::HBlank, end);
                    }
                }
                Event::HBlank => {
                    self.mode = 0;
                    // DMG: WX 166 (met at the last pixel, a dot before) with the WY condition
                    // carries the window to the next line drawn.
                    self.window_carry = !self.cgb && self.wx == 166 && self.wy_triggered;
                    self.set_blocked(false);
                    // HBlank DMA copies a block now (lines 0-143 only: this event).
                    self.hblank_started = self.cgb_mode;
                    // At double speed STAT's mode 0 is the interrupt's dot (254 + p, see
                    // `mode0_dot`): the source rises with it (Gambatte
                    // `vramw_m3end/vramw_m3end_ds_*`: an HBlank interrupt's handler writes
                    // VRAM an M-cycle sooner than one dot later would let it).
                    self.hblank_at = at;
                    if self.double_speed || at + HBLANK_IRQ_DELAY <= now {
                        // The source rises a dot after mode 0 (run late here): a CGB line
                        // update pending before that dot goes first (`land_lyc`).
                        if self.stat_pending.1 < at + HBLANK_IRQ_DELAY && !self.double_speed {
                            irq |= self.land_stat();
                        }
                        self.hblank_source(at);
                    } else {
                        // The source would be seen an M-cycle too early: it rises in the next.
                        self.schedule(Event::HBlankIrq, at + HBLANK_IRQ_DELAY);
                    }
                }
                Event::HBlankIrq => self.hblank_source(at - HBLANK_IRQ_DELAY),
                Event::HBlankIrqEarly => {
                    self.sources = SRC_HBLANK;
                    // (Zero while unused: the state image does not depend on when it ran.)
                    let end = std::mem::take(&mut self.hblank_end);
                    self.schedule(Event::HBlank, end);
                }
                Event::Draw => {
                    self.render_line();
                    self.schedule_line_end(s);
                }
                Event::LyGlitch => {
                    let next = if self.line >= 153 { 0 } else { self.line + 1 };
                    self.ly &= next;
                    self.schedule(Event::LineStart, s + DOTS_PER_LINE);
                }
                Event::Line153Blank => {
                    // (Already 0 but on the CPU CGB D.)
                    self.ly = 0;
                    // The CPU CGB D still compares LY 153 until LYC sees LY 0 (SameBoy;
                    // gbc-hw-tests `stat_timings_lyc_152_153_dmg_mode`). At double speed the
                    // CPU CGB C keeps LY=LYC for 153 up to S+8: this event runs again at S+9
                    // to clear it (Gambatte `ly0/lycint152_lyc153flag_ds_*`,
                    // `lycEnable/lyc153_late_ff41_enable_ds_*`).
                    // The CPU CGB C's LY turns 0 before the flag clears: this event runs
                    // again at the clear (S+8, at double speed S+9: at normal speed a STAT
                    // write enabling the LYC source at S+7 still sees the flag, Gambatte
                    // `lycEnable/lyc153_late_ff41_enable_lcdoffset1_1`, one at S+8 not,
                    // `lyc153_late_ff41_enable_2`; reads on the CPU's grid fall at S+4 and
                    // S+8 and cannot tell S+6 from S+8).
                    let clear = s + if self.double_speed { 9 } else { 8 };
                    if self.cgb && !self.cgb_d && at < clear {
                        self.schedule(Event::Line153Blank, clear);
                    } else {
                        // (A flag an LYC write set for LY 0 stays: `compare_lyc_write`.)
                        if !self.cgb_d && self.lyc != 0 {
                            self.lyc_equal = false;
                        }
                        self.schedule(Event::Line153Compare, s + COMPARE_DOT + 8);
                    }
                }
                Event::Line153Compare => {
                    self.compare_lyc();
                    self.schedule_line_end(s);
                }
            }
            irq |= self.update_stat(at);
        }
        irq
    }

    /// [`FIRST_LINE_DELAY`] on the first line after the LCD is switched on, else 0: how much
    /// later than on other lines that line's mode 3 runs.
    #[inline]
    pub(super) fn first_line_delay(&self) -> u64 {
        if self.first_line { FIRST_LINE_DELAY } else { 0 }
    }

    /// Dot (from S) at which STAT reads mode 0 with mode 3 `penalty` dots longer than 172.
    fn mode0_dot(&self, penalty: u64) -> u64 {
        let first = self.first_line_delay();
        // At double speed STAT's reads see mode 0 a dot later: a read at an even dot catches
        // it from dot 254 (+ p), not 253 (gbc-hw-tests
        // `mode3_stat_timing_spr_en_gbc_mode_8x16`, double-speed half).
        let late = u64::from(self.double_speed);
        MODE0_START + first + penalty + late
    }

    /// A write during mode 3 (LCDC, SCX, WX) may move mode 0: the FIFO replay runs the line
    /// with the writes so far and without any, and mode 0 moves by the difference of their
    /// last pixels (the window switched off before the fetcher reached it saves its 6 dots,
    /// WX moved onto or off a pixel still to come adds or saves them, objects switched on or
    /// off mid-line). A later write runs this again; a write after mode 0 changes nothing.
    pub(super) fn retime_mode0(&mut self, now: u64) {
        let n = usize::from(self.line_write_count);
        let early = self.event == Event::HBlankIrqEarly;
        if !(self.event == Event::HBlank || early) || self.mode != 3 || n > super::MAX_LINE_WRITES {
            return;
        }
        let regs = self.line_regs;
        let mut scratch = [0u16; crate::frame::WIDTH];
        let input = self.line_input();
        let plain = super::fifo::render(input, regs, &[], &mut scratch).dot;
        let writes = &self.line_writes[..n];
        let written = super::fifo::render(input, regs, writes, &mut scratch).dot;
        let penalty = self
            .mode3_penalty_with(
                regs.lcdc,
                regs.scx,
                regs.wx,
                regs.wy_triggered,
                regs.window_carry,
            )
            .0;
        let end = (self.line_start + self.mode0_dot(penalty))
            .saturating_add_signed(i64::from(written) - i64::from(plain));
        if early && self.next <= end {
            // The interrupt source still rises first.
            self.hblank_end = end.max(now);
        } else {
            self.hblank_end = 0;
            self.schedule(Event::HBlank, end.max(now));
        }
    }

    /// The HBlank interrupt source rises, for a mode 0 that started at `mode0`; the line is
    /// drawn now, or scheduled to be (the FIFO replay) when registers were written during it.
    fn hblank_source(&mut self, mode0: u64) {
        self.sources = SRC_HBLANK;
        if self.line_write_count == 0 {
            // Nothing written while drawing: the line is drawn now, so the fast path keeps one
            // event per mode. A write in the next DRAW_DELAY dots would have reached the
            // replay's last pixels; it is not seen.
            self.render_line();
            self.schedule_line_end(self.line_start);
        } else {
            self.schedule(Event::Draw, mode0 + DRAW_DELAY);
        }
    }

    /// The registers a line starts mode 3 with (the dot-level replay's starting point).
    pub(super) fn line_regs_now(&self) -> super::fifo::LineRegs {
        super::fifo::LineRegs {
            lcdc: self.lcdc,
            scy: self.scy,
            scx: self.scx,
            bgp: self.bgp,
            obp0: self.obp0,
            obp1: self.obp1,
            wx: self.wx,
            ly: self.line,
            window_line: self.window_line,
            wy_triggered: self.wy_triggered,
            window_carry: self.window_carry,
        }
    }

    pub(super) fn set_blocked(&mut self, blocked: bool) {
        self.oam_read_blocked = blocked;
        self.oam_write_blocked = blocked;
        self.vram_read_blocked = blocked;
        self.vram_write_blocked = blocked;
    }

    /// Schedule the end of the line that started at `s`: the next line's S, on the CGB
    /// after [`Event::LyGlitch`]: the 2 dots before at normal speed, the dot before at double
    /// speed (Gambatte `lcd_offset/offset2_lyc98int_ly_count_2`: after two switches back
    /// the reads fall 2 dots before S and see LY ANDed with the next line's; `_1`, `_3` an
    /// M-cycle either side see the old and the new LY; at double speed the reads on odd
    /// dots of `offset1_lyc98int_ly_count_ds_*` see the AND only in the dot before S).
    fn schedule_line_end(&mut self, s: u64) {
        if self.cgb {
            let glitch = if self.double_speed { 1 } else { 2 };
            self.schedule(Event::LyGlitch, s + DOTS_PER_LINE - glitch);
        } else {
            self.schedule(Event::LineStart, s + DOTS_PER_LINE);
        }
    }

    pub(super) fn schedule(&mut self, event: Event, at: u64) {
        self.event = event;
        self.next = at;
    }
}

impl Event {
    /// Stable id for the state image.
    pub(super) fn id(self) -> u8 {
        match self {
            Event::LineStart => 0,
            Event::Compare => 1,
            Event::VramBlock => 2,
            Event::Mode3 => 3,
            Event::Mode2 => 4,
            Event::HBlank => 5,
            Event::Line153Blank => 6,
            Event::Line153Compare => 7,
            Event::Off => 8,
            Event::Draw => 9,
            Event::HBlankIrq => 10,
            Event::LyGlitch => 11,
            Event::HBlankIrqEarly => 12,
        }
    }

    pub(super) fn from_id(id: u8) -> Option<Event> {
        Some(match id {
            0 => Event::LineStart,
            1 => Event::Compare,
            2 => Event::VramBlock,
            3 => Event::Mode3,
            4 => Event::Mode2,
            5 => Event::HBlank,
            6 => Event::Line153Blank,
            7 => Event::Line153Compare,
            8 => Event::Off,
            9 => Event::Draw,
            10 => Event::HBlankIrq,
            11 => Event::LyGlitch,
            12 => Event::HBlankIrqEarly,
            _ => return None,
        })
    }
}
