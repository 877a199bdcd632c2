//! Header oddities a Game Boy runs through, reported as warnings instead of errors.
//!
//! The console never reads the ROM and RAM size codes: the cartridge decodes the address
//! lines it has, so a header that declares another size than the chip holds still runs (as in
//! other emulators). The DMG boot ROM checks the logo and the header checksum and stops on a
//! mismatch, but a core started past the boot ROM ([`crate::Gb::new`]) never runs that check;
//! nothing checks the global checksum. So [`super::Cartridge::from_rom`] loads such images
//! and lists what it noticed as [`HeaderWarning`]s ([`super::Cartridge::warnings`]), one line
//! each, for the host to print. What stays an error: a file too short to hold a header, a
//! cartridge type this core does not emulate, and a type code Pan Docs does not list on an
//! image too big to be a plain 32 KiB ROM (there is no telling which mapper it needs).

use std::fmt;

/// Size of the largest ROM that needs no mapper.
pub(crate) const ROM_ONLY_MAX: usize = 32 * 1024;

/// Something odd in a cartridge header that a Game Boy would run anyway.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderWarning {
    /// The ROM size code (0x0148) declares another size than the file's.
    RomSizeMismatch {
        /// The ROM size code.
        code: u8,
        /// The size it declares, in bytes.
        declared: usize,
        /// The file's length.
        actual: usize,
    },
    /// A ROM size code Pan Docs does not list (`unofficial` says what unofficial docs make of
    /// the codes 0x52-0x54).
    UnknownRomSize {
        /// The ROM size code.
        code: u8,
        /// What unofficial docs say it means, if anything.
        unofficial: Option<&'static str>,
        /// The file's length, used instead.
        actual: usize,
    },
    /// A RAM size code (0x0149) Pan Docs does not list.
    UnknownRamSize {
        /// The RAM size code.
        code: u8,
        /// The RAM emulated instead, in bytes.
        assumed: usize,
    },
    /// An MBC2 header that declares external RAM; MBC2's 512 × 4 bits are built in.
    Mbc2RamSize(u8),
    /// A cartridge type code (0x0147) Pan Docs does not list, on an image of at most 32 KiB:
    /// it runs as a cartridge without a mapper.
    UnknownCartridgeType(u8),
    /// A cartridge type this core does not emulate, run anyway with the emulated mapper whose
    /// banking is closest ([`Cartridge::from_rom_forced`](super::Cartridge::from_rom_forced)).
    StandIn {
        /// The cartridge type code (0x0147).
        code: u8,
        /// The mapper the header asks for, e.g. "MBC7".
        name: &'static str,
        /// The mapper that runs instead, e.g. "MBC5".
        stand_in: &'static str,
    },
    /// The Nintendo logo at 0x0104-0x0133 is not the one the boot ROM checks.
    BadLogo,
    /// The header checksum (0x014D) does not match the header.
    BadHeaderChecksum {
        /// The byte in the header.
        stored: u8,
        /// The checksum of 0x0134-0x014C.
        computed: u8,
    },
    /// The global checksum (0x014E-0x014F) does not match the ROM.
    BadGlobalChecksum {
        /// The value in the header.
        stored: u16,
        /// The sum of every other byte.
        computed: u16,
    },
}

impl fmt::Display for HeaderWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::RomSizeMismatch {
                code,
                declared,
                actual,
            } => write!(
                f,
                "ROM size code 0x{code:02X} says {} but the file holds {}; running the file as it is",
                ByteSize(declared),
                ByteSize(actual)
            ),
            Self::UnknownRomSize {
                code,
                unofficial,
                actual,
            } => {
                write!(f, "unknown ROM size code 0x{code:02X}")?;
                if let Some(what) = unofficial {
                    write!(f, " ({what} in unofficial docs)")?;
                }
                write!(f, "; running the file's {} as it is", ByteSize(actual))
            }
            Self::UnknownRamSize { code, assumed } => write!(
                f,
                "unknown RAM size code 0x{code:02X}; assuming {} of RAM",
                ByteSize(assumed)
            ),
            Self::Mbc2RamSize(code) => write!(
                f,
                "RAM size code 0x{code:02X} on an MBC2 cartridge, whose 512 × 4 bits of RAM are built in: ignored"
            ),
            Self::UnknownCartridgeType(code) => write!(
                f,
                "unknown cartridge type 0x{code:02X}; running the 32 KiB image without a mapper"
            ),
            Self::StandIn {
                code,
                name,
                stand_in,
            } => write!(
                f,
                "cartridge type 0x{code:02X} ({name}) is not emulated; forced to run as {stand_in}, \
                 so what only the {name} does (its extra hardware, its own banking) is missing"
            ),
            Self::BadLogo => f.write_str(
                "the Nintendo logo at 0x0104 is wrong: a console's boot ROM would stop there",
            ),
            Self::BadHeaderChecksum { stored, computed } => write!(
                f,
                "header checksum 0x{stored:02X} should be 0x{computed:02X}: a console's boot ROM would stop there"
            ),
            Self::BadGlobalChecksum { stored, computed } => write!(
                f,
                "global checksum 0x{stored:04X} should be 0x{computed:04X} (nothing on a console checks it)"
            ),
        }
    }
}

/// A byte count shown the way Pan Docs writes sizes: "32 KiB", "1 MiB", "512 bytes".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByteSize(pub usize);

impl fmt::Display for ByteSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const KIB: usize = 1024;
        const MIB: usize = 1024 * 1024;
        let n = self.0;
        if n >= MIB && n.is_multiple_of(MIB) {
            write!(f, "{} MiB", n / MIB)
        } else if n >= KIB && n.is_multiple_of(KIB) {
            write!(f, "{} KiB", n / KIB)
        } else {
            write!(f, "{n} bytes")
        }
    }
}

#[cfg(test)]
mod tests;
