//! MBC1 (Pan Docs, "MBC1"), including the MBC1M multi-game wiring.
//!
//! Registers (all 0 at power-on): RAMG at 0x0000-0x1FFF (RAM enabled when the low nibble of
//! the value is 0xA), BANK1 at 0x2000-0x3FFF (5 bits; 0 reads as 1, judged on all 5 bits),
//! BANK2 at 0x4000-0x5FFF (2 bits), MODE at 0x6000-0x7FFF (1 bit).
//!
//! The ROM bank for 0x4000-0x7FFF is `BANK2 << 5 | BANK1`; in mode 1 the region 0x0000-0x3FFF
//! maps bank `BANK2 << 5` and RAM maps bank `BANK2`, in mode 0 both are bank 0. Bank numbers
//! beyond the cartridge wrap (the caller masks them to the ROM and RAM sizes). On an MBC1M
//! cartridge BANK1's top bit is not wired and BANK2 supplies bank bits 4-5 instead of 5-6.

use super::error::CartridgeError;
use super::mapper_state::{MapperState, exact};
use super::mapping::Mapping;

/// MBC1 register state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Mbc1 {
    ramg: bool,
    bank1: u8,
    bank2: u8,
    mode: bool,
    multicart: bool,
}

impl Mbc1 {
    /// Power-on state; `multicart` selects the MBC1M wiring.
    pub(crate) fn new(multicart: bool) -> Mbc1 {
        Mbc1 {
            multicart,
            ..Mbc1::default()
        }
    }

    /// Whether the MBC1M wiring is in use.
    pub(crate) fn multicart(&self) -> bool {
        self.multicart
    }

    /// A write to 0x0000-0x7FFF.
    pub(crate) fn write(&mut self, addr: u16, value: u8) {
        match addr {
            0x0000..=0x1FFF => self.ramg = value & 0x0F == 0x0A,
            0x2000..=0x3FFF => self.bank1 = value & 0x1F,
            0x4000..=0x5FFF => self.bank2 = value & 0x03,
            0x6000..=0x7FFF => self.mode = value & 0x01 != 0,
            _ => {}
        }
    }

    /// The banks the registers select.
    pub(crate) fn mapping(&self) -> Mapping {
        // The 0 → 1 translation looks at the whole 5-bit register.
        let bank1 = if self.bank1 == 0 { 1 } else { self.bank1 };
        let (bank1, shift) = if self.multicart {
            (bank1 & 0x0F, 4)
        } else {
            (bank1, 5)
        };
        let high = usize::from(self.bank2) << shift;
        Mapping {
            rom0: if self.mode { high } else { 0 },
            rom1: high | usize::from(bank1),
            ram: if self.ramg {
                super::mapping::RamMapping::Bank(if self.mode {
                    usize::from(self.bank2)
                } else {
                    0
                })
            } else {
                super::mapping::RamMapping::Disabled
            },
        }
    }

    /// The registers as bytes `[RAMG, BANK1, BANK2, MODE]` (for save states).
    pub(crate) fn registers(&self) -> [u8; 4] {
        [
            u8::from(self.ramg),
            self.bank1,
            self.bank2,
            u8::from(self.mode),
        ]
    }

    /// Restores [`Mbc1::registers`], masking every value to its width.
    pub(crate) fn set_registers(&mut self, regs: [u8; 4]) {
        let [ramg, bank1, bank2, mode] = regs;
        self.ramg = ramg & 1 != 0;
        self.bank1 = bank1 & 0x1F;
        self.bank2 = bank2 & 0x03;
        self.mode = mode & 1 != 0;
    }
}

/// The state image's MBC1 section: [`Mbc1::registers`] (the MBC1M wiring comes from the ROM).
impl MapperState for Mbc1 {
    fn state_len(&self) -> usize {
        4
    }

    fn write_state(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.registers());
    }

    fn read_state(&mut self, data: &[u8]) -> Result<(), CartridgeError> {
        self.set_registers(exact(data, "MBC1")?);
        Ok(())
    }
}
