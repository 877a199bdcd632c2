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
mod tests {
    use super::*;
    use crate::asm::RomBuilder;
    use crate::cartridge::header::HEADER_END;
    use crate::cartridge::{Cartridge, CartridgeError, ROM_BANK_SIZE};

    /// A valid ROM built in code: `banks` × 16 KiB, the type and RAM size codes given, a
    /// program that loops at 0x0150.
    fn rom(cart_type: u8, banks: u32, ram_code: u8) -> Vec<u8> {
        RomBuilder::new()
            .cartridge_type(cart_type)
            .rom_banks(banks)
            .ram_size_code(ram_code)
            .program("jr @")
            .build()
            .expect("assembles")
    }

    fn load(rom: Vec<u8>) -> Cartridge {
        Cartridge::from_rom(rom).expect("loads with warnings")
    }

    fn lines(c: &Cartridge) -> Vec<String> {
        c.warnings().iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_clean_rom_has_no_warnings() {
        assert!(load(rom(0x01, 4, 0)).warnings().is_empty());
    }

    #[test]
    fn size_code_larger_than_the_file_runs_the_file() {
        let mut image = rom(0x01, 2, 0);
        image[0x148] = 0x03; // says 256 KiB; the file is 32 KiB
        let c = load(image);
        assert_eq!(
            c.warnings(),
            [
                HeaderWarning::RomSizeMismatch {
                    code: 3,
                    declared: 256 * 1024,
                    actual: 32 * 1024
                },
                // The edit broke the checksum too.
                HeaderWarning::BadHeaderChecksum {
                    stored: c.header().header_checksum,
                    computed: c.header().computed_header_checksum
                },
                HeaderWarning::BadGlobalChecksum {
                    stored: c.header().global_checksum,
                    computed: c.header().computed_global_checksum
                },
            ]
        );
        assert_eq!(
            lines(&c)[0],
            "ROM size code 0x03 says 256 KiB but the file holds 32 KiB; running the file as it is"
        );
        // Bank 3 wraps to bank 1 of the two the file has (the address lines decode it).
        let mut c = c;
        c.write_rom(0x2000, 3, 0);
        assert_eq!(c.rom_banks_mapped(), [0, 1]);
    }

    #[test]
    fn size_code_smaller_than_the_file_uses_every_bank() {
        let mut image = rom(0x19, 8, 0);
        let marker = 5 * ROM_BANK_SIZE + 0x123;
        image[marker] = 0x5A;
        image[0x148] = 0x00; // says 32 KiB; the file is 128 KiB
        let mut c = load(image);
        assert!(matches!(
            c.warnings()[0],
            HeaderWarning::RomSizeMismatch {
                declared: 0x8000,
                actual: 0x20000,
                ..
            }
        ));
        c.write_rom(0x2000, 5, 0);
        assert_eq!(c.read_rom(0x4123), 0x5A);
    }

    #[test]
    fn odd_file_lengths_load() {
        // Not a whole number of banks, and shorter than 32 KiB: the missing bytes read 0xFF.
        let mut image = rom(0x00, 2, 0);
        image.truncate(0x5000);
        let c = load(image);
        assert_eq!(c.read_rom(0x4FFF), 0xFF);
        assert_eq!(c.read_rom(0x0150), 0x18, "the program is there");
        // A file of three banks behaves as the four-bank chip it would sit on.
        let mut image = rom(0x01, 4, 0);
        image.truncate(3 * ROM_BANK_SIZE);
        let mut c = load(image);
        c.write_rom(0x2000, 3, 0);
        assert_eq!(c.read_rom(0x4000), 0xFF);
        c.write_rom(0x2000, 7, 0);
        assert_eq!(c.rom_banks_mapped(), [0, 3], "bank 7 wraps like bank 3");
        // Just the header.
        let mut image = rom(0x00, 2, 0);
        image.truncate(HEADER_END);
        assert!(Cartridge::from_rom(image).is_ok());
    }

    #[test]
    fn unknown_size_codes_warn() {
        let mut image = rom(0x01, 2, 0);
        image[0x148] = 0x52;
        assert_eq!(
            lines(&load(image))[0],
            "unknown ROM size code 0x52 (1.1 MiB, 72 banks in unofficial docs); running the file's 32 KiB as it is"
        );
        let mut image = rom(0x01, 2, 0);
        image[0x148] = 0x09;
        assert_eq!(
            lines(&load(image))[0],
            "unknown ROM size code 0x09; running the file's 32 KiB as it is"
        );
        let mut image = rom(0x03, 2, 0);
        image[0x149] = 0x06;
        let c = load(image);
        assert_eq!(
            lines(&c)[0],
            "unknown RAM size code 0x06; assuming 32 KiB of RAM"
        );
        assert_eq!(c.ram().len(), 32 * 1024);
        // Without RAM in the type, nothing is assumed.
        let mut image = rom(0x01, 2, 0);
        image[0x149] = 0x06;
        let c = load(image);
        assert_eq!(
            lines(&c)[0],
            "unknown RAM size code 0x06; assuming 0 bytes of RAM"
        );
        assert!(c.ram().is_empty());
    }

    #[test]
    fn mbc2_ram_code_is_ignored() {
        let c = load(rom(0x06, 2, 0x02));
        assert_eq!(c.warnings(), [HeaderWarning::Mbc2RamSize(2)]);
        assert_eq!(c.ram().len(), 512);
    }

    #[test]
    fn checksums_and_logo_warn() {
        let mut image = rom(0x00, 2, 0);
        image[0x14D] ^= 0x10;
        image[0x104] ^= 0x01;
        image[0x14F] ^= 0x01;
        let c = load(image);
        let lines = lines(&c);
        assert_eq!(
            lines[0],
            "the Nintendo logo at 0x0104 is wrong: a console's boot ROM would stop there"
        );
        assert!(lines[1].starts_with("header checksum 0x"), "{}", lines[1]);
        assert!(lines[1].ends_with("a console's boot ROM would stop there"));
        assert!(lines[2].starts_with("global checksum 0x"), "{}", lines[2]);
        assert!(lines[2].ends_with("(nothing on a console checks it)"));
        assert_eq!(lines.len(), 3);
    }

    #[test]
    fn unknown_type_runs_small_images_without_a_mapper() {
        let mut image = rom(0x00, 2, 0);
        image[0x147] = 0x04;
        let c = load(image);
        assert_eq!(c.warnings()[0], HeaderWarning::UnknownCartridgeType(4));
        assert_eq!(
            c.warnings()[0].to_string(),
            "unknown cartridge type 0x04; running the 32 KiB image without a mapper"
        );
        assert_eq!(c.header().cartridge_type_name(), "unknown");
        // A bigger image needs a mapper nobody can guess: still an error.
        let mut image = rom(0x01, 4, 0);
        image[0x147] = 0x04;
        assert!(matches!(
            Cartridge::from_rom(image),
            Err(CartridgeError::UnknownCartridgeType(4))
        ));
    }

    #[test]
    fn unusable_files_keep_their_errors() {
        assert!(matches!(
            Cartridge::from_rom(Vec::new()),
            Err(CartridgeError::Truncated { len: 0 })
        ));
        assert!(matches!(
            Cartridge::from_rom(vec![0; HEADER_END - 1]),
            Err(CartridgeError::Truncated { .. })
        ));
        let mut image = rom(0x00, 2, 0);
        image[0x147] = 0x22;
        assert_eq!(
            Cartridge::from_rom(image).unwrap_err().to_string(),
            "unsupported cartridge type 0x22 (MBC7)"
        );
    }
}
