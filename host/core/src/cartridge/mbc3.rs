//! MBC3 and MBC30 (Pan Docs, "MBC3"), with the optional real-time clock in [`super::rtc`].
//!
//! Registers:
//! - RAMG at 0x0000-0x1FFF: RAM *and* clock registers enabled when the low nibble is 0xA.
//!   Disabled, 0xA000-0xBFFF reads 0xFF and ignores writes; the clock keeps counting and the
//!   latch register still works.
//! - ROMB at 0x2000-0x3FFF: 7 bits (8 on an MBC30, a ROM over 2 MiB); 0 reads as 1.
//! - RAMB at 0x4000-0x5FFF: 0x00-0x07 select a RAM bank (wrapped to the RAM size), 0x08-0x0C
//!   a clock register (S, M, H, DL, DH) on a cartridge with a clock. Anything else, and
//!   0x08-0x0C without a clock, selects nothing: reads 0xFF, writes are ignored. Pan Docs
//!   lists only 0x00-0x0C; what a real MBC3 does with 0x0D-0xFF is not documented (SameBoy
//!   and Gambatte map a RAM bank there; this is a choice, not a measurement).
//! - The latch at 0x6000-0x7FFF, as Pan Docs describes the MBC3B: only bit 0 of the value
//!   matters. While it is 0 (at power-on, and after any even value) the clock registers read
//!   the running clock; writing an odd value when the last value written was even freezes a
//!   copy of the clock, which reads then return until the next even value. So 0x00 → 0x01
//!   latches, as do 0x02 → 0x03 and 0x04 → 0x03; 0x01 → 0x01 or 0x00 → 0x02 do not; and
//!   0x00, 0x05, 0x01 latches at the 0x05. Games write 0x00 then 0x01, which latches on every
//!   MBC3 revision. (The MBC3A differs, Pan Docs says: every write latches and it never shows
//!   a running clock; not emulated.)
//! - Writes to a clock register go to the counters. While latched, reads keep showing the
//!   frozen copy, so a written value reads back after the next latch (the
//!   `rtc3test` way: write, latch, read).

use super::error::CartridgeError;
use super::mapper_state::{MapperState, exact};
use super::mapping::{Mapping, RamMapping};
use super::rtc::{RTC_STATE_LEN, Rtc, RtcRegister};

/// MBC3 register state, and the clock if the cartridge has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mbc3 {
    ramg: bool,
    romb: u8,
    ramb: u8,
    /// Last value written to 0x6000-0x7FFF: bit 0 set = the clock registers read the copy
    /// frozen when it was set; clear = they read the running clock.
    latch_last: u8,
    /// 0x7F, or 0xFF for an MBC30 (ROM larger than 2 MiB).
    romb_mask: u8,
    pub(crate) rtc: Option<Rtc>,
}

impl Mbc3 {
    /// Power-on state for a ROM of `rom_size` bytes, with a clock if `has_rtc`.
    pub(crate) fn new(rom_size: usize, has_rtc: bool, now: u64) -> Mbc3 {
        Mbc3 {
            ramg: false,
            romb: 0,
            ramb: 0,
            // The MBC3B shows a running clock at power-on.
            latch_last: 0x00,
            romb_mask: if rom_size > 2 * 1024 * 1024 {
                0xFF
            } else {
                0x7F
            },
            rtc: has_rtc.then(|| Rtc::new(now)),
        }
    }

    /// A write to 0x0000-0x7FFF at emulated time `now`.
    pub(crate) fn write(&mut self, addr: u16, value: u8, now: u64) {
        match addr {
            0x0000..=0x1FFF => self.ramg = value & 0x0F == 0x0A,
            0x2000..=0x3FFF => self.romb = value & self.romb_mask,
            0x4000..=0x5FFF => self.ramb = value,
            0x6000..=0x7FFF => {
                if self.latch_last & 1 == 0
                    && value & 1 == 1
                    && let Some(rtc) = self.rtc.as_mut()
                {
                    rtc.latch(now);
                }
                self.latch_last = value;
            }
            _ => {}
        }
    }

    /// Whether the clock registers read the latched copy (else the running clock).
    pub(crate) fn latched(&self) -> bool {
        self.latch_last & 1 == 1
    }

    /// Read clock register `reg` at emulated time `now`: the latched copy, or the running
    /// clock when nothing is latched. 0xFF without a clock.
    pub(crate) fn read_clock(&self, reg: RtcRegister, now: u64) -> u8 {
        match &self.rtc {
            Some(rtc) if self.latched() => rtc.read(reg),
            Some(rtc) => rtc.read_live(reg, now),
            None => 0xFF,
        }
    }

    /// The banks the registers select.
    pub(crate) fn mapping(&self) -> Mapping {
        let ram = if !self.ramg {
            RamMapping::Disabled
        } else if self.ramb <= 0x07 {
            RamMapping::Bank(usize::from(self.ramb))
        } else {
            match (RtcRegister::from_select(self.ramb), self.rtc.is_some()) {
                (Some(reg), true) => RamMapping::Rtc(reg),
                _ => RamMapping::Disabled,
            }
        };
        Mapping {
            rom0: 0,
            rom1: usize::from(if self.romb == 0 { 1 } else { self.romb }),
            ram,
        }
    }

    /// The registers as bytes `[RAMG, ROMB, RAMB, latch]` (for save states).
    pub(crate) fn registers(&self) -> [u8; 4] {
        [u8::from(self.ramg), self.romb, self.ramb, self.latch_last]
    }

    /// Restores [`Mbc3::registers`], masking every value to its width.
    pub(crate) fn set_registers(&mut self, regs: [u8; 4]) {
        let [ramg, romb, ramb, latch] = regs;
        self.ramg = ramg & 1 != 0;
        self.romb = romb & self.romb_mask;
        self.ramb = ramb;
        self.latch_last = latch;
    }
}

/// The state image's MBC3 section: [`Mbc3::registers`], then on a cartridge with a clock the
/// clock ([`Rtc::to_state`], 24 bytes).
impl MapperState for Mbc3 {
    fn state_len(&self) -> usize {
        4 + self.rtc.as_ref().map_or(0, |_| RTC_STATE_LEN)
    }

    fn write_state(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.registers());
        if let Some(rtc) = &self.rtc {
            out.extend_from_slice(&rtc.to_state());
        }
    }

    fn read_state(&mut self, data: &[u8]) -> Result<(), CartridgeError> {
        let size_error = || CartridgeError::StateSize {
            part: "MBC3",
            actual: data.len(),
            expected: self.state_len(),
        };
        if data.len() != self.state_len() {
            return Err(size_error());
        }
        let (regs, clock) = data.split_first_chunk::<4>().ok_or_else(size_error)?;
        if let Some(rtc) = self.rtc.as_mut() {
            rtc.load_state(&exact(clock, "MBC3 clock")?);
        }
        self.set_registers(*regs);
        Ok(())
    }
}
