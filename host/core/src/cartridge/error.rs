//! [`CartridgeError`]: why a ROM, a save or a state cannot be used.

use super::rtc::{RTC_FOOTER_LEN, RTC_FOOTER_LEN_SHORT};

/// Why a ROM, save or state cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum CartridgeError {
    /// The file is too short to hold a header.
    #[error("ROM is truncated: {len} bytes, a cartridge header needs at least 336 (0x150)")]
    Truncated {
        /// The file's length.
        len: usize,
    },
    /// A cartridge type Pan Docs lists but this emulator does not implement.
    #[error("unsupported cartridge type 0x{code:02X} ({name})")]
    Unsupported {
        /// The cartridge type code (0x0147).
        code: u8,
        /// The mapper's name, e.g. "MBC7".
        name: &'static str,
    },
    /// A cartridge type code Pan Docs does not list, on an image too big to run without a
    /// mapper (more than 32 KiB).
    #[error(
        "unknown cartridge type 0x{0:02X} on an image over 32 KiB: no telling which mapper it needs"
    )]
    UnknownCartridgeType(u8),
    /// Save data of the wrong size for [`Cartridge::load_ram`](super::Cartridge::load_ram).
    #[error("save data is {actual} bytes but this cartridge has {expected} bytes of RAM")]
    SaveSize {
        /// The save data's length.
        actual: usize,
        /// The cartridge's RAM size.
        expected: usize,
    },
    /// Save data of the wrong size for [`Cartridge::load_battery`](super::Cartridge::load_battery) on a cartridge with a clock.
    #[error(
        "save data is {actual} bytes but this cartridge has {ram} bytes of RAM, optionally followed by a {RTC_FOOTER_LEN}-byte (or {RTC_FOOTER_LEN_SHORT}-byte) RTC footer"
    )]
    BatterySize {
        /// The save data's length.
        actual: usize,
        /// The cartridge's RAM size.
        ram: usize,
    },
    /// A save state that does not belong to this cartridge.
    #[error("save state does not fit this cartridge: {0}")]
    State(&'static str),
    /// A sized part of a save state's cartridge section (a mapper's own state, the RAM) is
    /// not the size this cartridge's is.
    #[error(
        "save state does not fit this cartridge: its {part} part is {actual} bytes, this cartridge's is {expected}"
    )]
    StateSize {
        /// The part: a mapper's name ("MBC3"), or "RAM".
        part: &'static str,
        /// The part's length in the state.
        actual: usize,
        /// The length this cartridge's part has.
        expected: usize,
    },
}
