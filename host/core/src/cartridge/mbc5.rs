//! MBC5 (Pan Docs, "MBC5"), with the optional rumble motor.
//!
//! Registers: RAMG at 0x0000-0x1FFF (RAM enabled when the low nibble is 0xA, as Pan Docs says
//! real MBC5s do), ROMB0 at 0x2000-0x2FFF (bank bits 0-7), ROMB1 at 0x3000-0x3FFF (bank bit 8),
//! RAMB at 0x4000-0x5FFF (4 bits; on rumble cartridges bit 3 drives the motor and only bits
//! 0-2 select RAM). Bank 0 in 0x4000-0x7FFF really is bank 0.

use super::error::CartridgeError;
use super::mapper_state::{MapperState, exact};
use super::mapping::{Mapping, RamMapping};

/// MBC5 register state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mbc5 {
    ramg: bool,
    romb: u16,
    ramb: u8,
    rumble_cart: bool,
    motor: bool,
}

impl Mbc5 {
    /// Power-on state; `rumble_cart` wires RAMB bit 3 to the motor.
    pub(crate) fn new(rumble_cart: bool) -> Mbc5 {
        Mbc5 {
            ramg: false,
            // ROMB0 starts at 1 on hardware (gb-ctr); Pan Docs is silent.
            romb: 1,
            ramb: 0,
            rumble_cart,
            motor: false,
        }
    }

    /// A write to 0x0000-0x7FFF.
    pub(crate) fn write(&mut self, addr: u16, value: u8) {
        match addr {
            0x0000..=0x1FFF => self.ramg = value & 0x0F == 0x0A,
            0x2000..=0x2FFF => self.romb = (self.romb & 0x100) | u16::from(value),
            0x3000..=0x3FFF => self.romb = (self.romb & 0xFF) | (u16::from(value & 1) << 8),
            0x4000..=0x5FFF => {
                if self.rumble_cart {
                    self.motor = value & 0x08 != 0;
                    self.ramb = value & 0x07;
                } else {
                    self.ramb = value & 0x0F;
                }
            }
            _ => {}
        }
    }

    /// Whether the rumble motor is on.
    pub(crate) fn motor(&self) -> bool {
        self.motor
    }

    /// The banks the registers select.
    pub(crate) fn mapping(&self) -> Mapping {
        Mapping {
            rom0: 0,
            rom1: usize::from(self.romb),
            ram: if self.ramg {
                RamMapping::Bank(usize::from(self.ramb))
            } else {
                RamMapping::Disabled
            },
        }
    }

    /// The registers as bytes `[RAMG, ROMB0, ROMB1, RAMB | motor << 3]` (for save states).
    pub(crate) fn registers(&self) -> [u8; 4] {
        let [lo, hi] = self.romb.to_le_bytes();
        [
            u8::from(self.ramg),
            lo,
            hi,
            self.ramb | (u8::from(self.motor) << 3),
        ]
    }

    /// Restores [`Mbc5::registers`], masking every value to its width.
    pub(crate) fn set_registers(&mut self, regs: [u8; 4]) {
        let [ramg, lo, hi, ramb] = regs;
        self.ramg = ramg & 1 != 0;
        self.romb = u16::from_le_bytes([lo, hi & 1]);
        if self.rumble_cart {
            self.motor = ramb & 0x08 != 0;
            self.ramb = ramb & 0x07;
        } else {
            self.motor = false;
            self.ramb = ramb & 0x0F;
        }
    }
}

/// The state image's MBC5 section: [`Mbc5::registers`] (the motor rides in RAMB's bit 3).
impl MapperState for Mbc5 {
    fn state_len(&self) -> usize {
        4
    }

    fn write_state(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.registers());
    }

    fn read_state(&mut self, data: &[u8]) -> Result<(), CartridgeError> {
        self.set_registers(exact(data, "MBC5")?);
        Ok(())
    }
}
