//! MBC2 (Pan Docs, "MBC2").
//!
//! One register range, 0x0000-0x3FFF, split by address bit 8: clear selects RAMG (RAM enabled
//! when the low nibble of the value is 0xA), set selects ROMB (4 bits; 0 reads as 1, judged on
//! the 4-bit value before it is masked to the ROM size). Writes to 0x4000-0x7FFF do nothing.
//! The 512 × 4-bit RAM is inside the mapper, at 0xA000-0xA1FF and echoed through 0xBFFF; the
//! upper nibble of a read is open and reads as 1s here.

use super::error::CartridgeError;
use super::mapper_state::{MapperState, exact};
use super::mapping::{Mapping, RamMapping};

/// MBC2 register state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mbc2 {
    ramg: bool,
    romb: u8,
}

impl Default for Mbc2 {
    fn default() -> Self {
        // "The ROM bank is set to 1 by default."
        Mbc2 {
            ramg: false,
            romb: 1,
        }
    }
}

impl Mbc2 {
    /// A write to 0x0000-0x7FFF.
    pub(crate) fn write(&mut self, addr: u16, value: u8) {
        if addr <= 0x3FFF {
            if addr & 0x0100 != 0 {
                self.romb = value & 0x0F;
            } else {
                self.ramg = value & 0x0F == 0x0A;
            }
        }
    }

    /// The banks the registers select.
    pub(crate) fn mapping(&self) -> Mapping {
        Mapping {
            rom0: 0,
            rom1: usize::from(if self.romb == 0 { 1 } else { self.romb }),
            ram: if self.ramg {
                RamMapping::Mbc2
            } else {
                RamMapping::Disabled
            },
        }
    }

    /// The registers as bytes `[RAMG, ROMB, 0, 0]` (for save states).
    pub(crate) fn registers(&self) -> [u8; 4] {
        [u8::from(self.ramg), self.romb, 0, 0]
    }

    /// Restores [`Mbc2::registers`], masking every value to its width.
    pub(crate) fn set_registers(&mut self, regs: [u8; 4]) {
        let [ramg, romb, _, _] = regs;
        self.ramg = ramg & 1 != 0;
        self.romb = romb & 0x0F;
    }
}

/// The state image's MBC2 section: RAMG, ROMB (its RAM is the cartridge's RAM section).
impl MapperState for Mbc2 {
    fn state_len(&self) -> usize {
        2
    }

    fn write_state(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&[u8::from(self.ramg), self.romb]);
    }

    fn read_state(&mut self, data: &[u8]) -> Result<(), CartridgeError> {
        let [ramg, romb] = exact(data, "MBC2")?;
        self.set_registers([ramg, romb, 0, 0]);
        Ok(())
    }
}
