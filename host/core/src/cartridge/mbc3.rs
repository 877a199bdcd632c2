//! MBC3 and MBC30 (Pan Docs, "MBC3"), with the optional real-time clock in [`super::rtc`].
//!
//! Registers: RAMG at 0x0000-0x1FFF (RAM and clock enabled when the low nibble is 0xA), ROMB at
//! 0x2000-0x3FFF (7 bits, 8 on an MBC30 with more than 2 MiB of ROM; 0 reads as 1), RAMB at
//! 0x4000-0x5FFF (0x00-0x07 select a RAM bank, 0x08-0x0C a clock register; anything else maps
//! nothing and reads 0xFF), and the latch at 0x6000-0x7FFF (writing 0x00 then 0x01 copies the
//! clock into the registers the game reads).

use super::rtc::{Rtc, RtcRegister};
use super::{Mapping, RamMapping};

/// MBC3 register state, and the clock if the cartridge has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mbc3 {
    ramg: bool,
    romb: u8,
    ramb: u8,
    /// Last value written to 0x6000-0x7FFF; a latch needs 0x00 then 0x01.
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
            // Not 0x00, so the first latch needs the full 0x00 → 0x01 sequence.
            latch_last: 0xFF,
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
                if self.latch_last == 0x00
                    && value == 0x01
                    && let Some(rtc) = self.rtc.as_mut()
                {
                    rtc.latch(now);
                }
                self.latch_last = value;
            }
            _ => {}
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
