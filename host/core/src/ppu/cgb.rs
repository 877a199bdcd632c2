//! The PPU's CGB registers as the CPU reaches them: VBK (0xFF4F, the VRAM bank), the colour
//! palettes (BCPS/BCPD/OCPS/OCPD, 0xFF68-0xFF6B, see `cram.rs`) and OPRI (0xFF6C); and the
//! model the PPU draws for (DMG shades, or RGB555 colours in CGB mode and in DMG
//! compatibility mode).
//!
//! VBK reads 0xFE | bank on any CGB, and takes writes only in CGB mode (Mooneye
//! `misc/boot_hwio-C` reads 0xFE in DMG compatibility mode). OPRI reads 0xFE | bit 0 in CGB
//! mode and 0xFF otherwise.

use super::Ppu;

impl Ppu {
    /// Set the model the PPU belongs to: `cgb` for the CGB's hardware (colour output, no DMG
    /// STAT write glitch), `cgb_mode` for CGB mode (false in DMG compatibility mode).
    pub(crate) fn set_model(&mut self, cgb: bool, cgb_mode: bool) {
        self.cgb = cgb;
        self.cgb_mode = cgb && cgb_mode;
        if !self.cgb_mode {
            self.vbk = 0;
        }
        self.framebuffer.set_color(cgb);
        self.touch();
    }

    /// Set the CGB's revision: `d` for the CPU CGB D (see [`crate::CgbRevision`]).
    pub(crate) fn set_cgb_d(&mut self, d: bool) {
        self.cgb_d = d;
    }

    /// Tell the PPU whether the CPU runs at double speed.
    pub(crate) fn set_double_speed(&mut self, double: bool) {
        self.double_speed = double;
    }

    /// Hold the PPU for `dots` dots: every later edge of its timeline comes that much later
    /// (the speed switch, see [`crate::bus`]).
    pub(crate) fn delay(&mut self, dots: u64) {
        if self.lcd_on() && self.next != u64::MAX {
            self.line_start += dots;
            self.next += dots;
            if self.lyc_pending.1 != u64::MAX {
                self.lyc_pending.1 += dots;
            }
            if self.lyc_irq_at != u64::MAX {
                self.lyc_irq_at += dots;
            }
            if self.stat_pending.1 != u64::MAX {
                self.stat_pending.1 += dots;
            }
        }
    }

    /// Dots in a CPU M-cycle at the current speed.
    pub(super) fn mcycle_dots(&self) -> u64 {
        if self.double_speed { 2 } else { 4 }
    }

    /// Where the VRAM bank the CPU sees starts in [`Ppu::vram`].
    #[inline]
    pub(crate) fn vram_bank_offset(&self) -> usize {
        usize::from(self.vbk) << 13
    }

    /// The VRAM bank the CPU sees (VBK bit 0).
    pub(crate) fn vram_bank(&self) -> u8 {
        self.vbk
    }

    /// Whether the LCD is on (LCDC bit 7).
    pub(crate) fn lcd_is_on(&self) -> bool {
        self.lcd_on()
    }

    /// Whether the LCD is on and on a visible line (0-143).
    pub(crate) fn ly_visible(&self) -> bool {
        self.lcd_on() && usize::from(self.line) < super::HEIGHT
    }

    /// Whether the PPU is in a visible line's HBlank at `now`: mode 0 past the line's first
    /// M-cycle (which reads mode 0 too, before mode 2).
    pub(crate) fn in_hblank(&self, now: u64) -> bool {
        self.ly_visible() && self.mode == 0 && now >= self.line_start + 4
    }

    /// Whether the M-cycle of `len` dots from `now` lies in a visible line's HBlank, past the
    /// line's first M-cycle ([`Ppu::in_hblank`]) and ending by the line's end: where the HBlank
    /// DMA's request line is high for a CPU going to sleep or waking (Gambatte
    /// `dma/hdma_late_m0halt_*`, `hdma_late_m0unhalt_*`: a HALT or wake-up at dot 452 is in it
    /// at normal speed, one at 453 not; at double speed 454 is, 455 not).
    pub(crate) fn in_hblank_period(&self, now: u64, len: u64) -> bool {
        self.in_hblank(now) && now + len <= self.line_start + super::DOTS_PER_LINE
    }

    /// Whether the PPU holds colour RAM at `now`, so that the CPU cannot reach it: from a dot
    /// after VRAM is blocked (S+84, at double speed S+83; 2 dots later on the first line after
    /// the LCD is switched on) until an M-cycle after STAT reads mode 0 (see `docs/timing.md`).
    fn cram_locked(&self, now: u64) -> bool {
        if !self.lcd_on() {
            return false;
        }
        match self.mode {
            3 => {
                now >= self.line_start + super::CGB_CRAM_BLOCK + self.first_line_delay()
                    - u64::from(self.double_speed)
            }
            0 => self.cram_held_in_mode0(now),
            _ => false,
        }
    }

    /// Whether `now` falls in the M-cycle after mode 0 started, in which the PPU still holds
    /// colour RAM.
    pub(super) fn cram_held_in_mode0(&self, now: u64) -> bool {
        now < self.hblank_at + if self.double_speed { 2 } else { 4 }
    }

    /// Read the CGB registers 0xFF4F and 0xFF68-0xFF6C; `None` for other addresses.
    pub(crate) fn read_cgb_register(&self, addr: u16, now: u64) -> Option<u8> {
        if !self.cgb {
            return None;
        }
        Some(match addr {
            0xFF4F => 0xFE | self.vbk,
            0xFF68..=0xFF6B => self
                .cram
                .read(addr, self.cgb_mode && !self.cram_locked(now)),
            0xFF6C if self.cgb_mode => 0xFE | self.opri,
            0xFF6C => 0xFF,
            _ => return None,
        })
    }

    /// Write the CGB registers 0xFF4F and 0xFF68-0xFF6C; true if `addr` is one of them.
    /// `boot_mapped`: the boot ROM runs, which reaches them in either mode.
    pub(crate) fn write_cgb_register(
        &mut self,
        addr: u16,
        v: u8,
        boot_mapped: bool,
        now: u64,
    ) -> bool {
        if !self.cgb {
            return false;
        }
        let reachable = self.cgb_mode || boot_mapped;
        match addr {
            0xFF4F => {
                if reachable {
                    self.vbk = v & 1;
                }
            }
            0xFF68 | 0xFF6A => {
                self.cram.write(addr, v, true);
            }
            0xFF69 | 0xFF6B => {
                if reachable {
                    let ok = !self.cram_locked(now);
                    if self.cram.write(addr, v, ok) {
                        self.touch();
                    }
                }
            }
            0xFF6C => {
                if reachable && self.opri != v & 1 {
                    self.touch();
                    self.opri = v & 1;
                }
            }
            _ => return false,
        }
        true
    }

    /// The colour palettes (64 bytes of background, then 64 of object palettes).
    pub(crate) fn palettes(&self) -> ([u8; 64], [u8; 64]) {
        (self.cram.bg, self.cram.obj)
    }

    /// The bytes BCPD and OCPD point at, whatever the PPU reads now (0xFF in DMG compatibility
    /// mode, where the CPU cannot reach them).
    pub(crate) fn palette_data(&self) -> [u8; 2] {
        [0xFF69, 0xFF6B].map(|a| self.cram.read(a, self.cgb_mode))
    }

    /// OPRI bit 0.
    pub(crate) fn opri(&self) -> u8 {
        self.opri
    }

    /// Set VBK without the CPU (a save state load; only in CGB mode).
    pub(crate) fn set_vram_bank(&mut self, bank: u8) {
        if self.cgb_mode {
            self.vbk = bank & 1;
        }
    }

    /// Set the colour palettes (a save state load, the boot ROM's compatibility palettes).
    pub(crate) fn set_palettes(&mut self, bg: &[u8; 64], obj: &[u8; 64]) {
        self.touch();
        self.cram.bg = *bg;
        self.cram.obj = *obj;
    }

    /// BCPS and OCPS as written (a save state load, the boot ROM's final values).
    pub(crate) fn set_palette_specs(&mut self, bcps: u8, ocps: u8) {
        self.cram.bcps = bcps & 0xBF;
        self.cram.ocps = ocps & 0xBF;
    }

    /// OPRI bit 0 (a save state load, the boot ROM's value).
    pub(crate) fn set_opri(&mut self, v: u8) {
        self.touch();
        self.opri = v & 1;
    }
}
