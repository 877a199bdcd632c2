//! What a mapper's registers select ([`Mapping`]): the ROM banks and what 0xA000-0xBFFF
//! shows; the cartridge turns it into offsets. Every mapper answers with one.

use super::rtc::RtcRegister;

/// What a mapper's registers select; the cartridge turns it into offsets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mapping {
    /// ROM bank at 0x0000-0x3FFF (before masking to the ROM size).
    pub(crate) rom0: usize,
    /// ROM bank at 0x4000-0x7FFF (before masking to the ROM size).
    pub(crate) rom1: usize,
    /// What 0xA000-0xBFFF shows.
    pub(crate) ram: RamMapping,
}

/// What a mapper puts at 0xA000-0xBFFF.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RamMapping {
    /// Nothing: reads 0xFF, writes are ignored.
    Disabled,
    /// An 8 KiB bank of cartridge RAM (before wrapping to the RAM size).
    Bank(usize),
    /// MBC2's 512 × 4-bit RAM, echoed.
    Mbc2,
    /// An MBC3 clock register.
    Rtc(RtcRegister),
}
