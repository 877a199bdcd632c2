//! The cartridge header at 0x0100-0x014F (Pan Docs, "The Cartridge Header").
//!
//! [`Header::parse`] refuses only what nothing can run: a file too short to hold a header, and
//! a cartridge type code Pan Docs does not list on an image bigger than 32 KiB (no telling
//! which mapper it needs). Everything else a Game Boy runs through, and so does the parser:
//! unknown or mismatched size codes and bad checksums become [`HeaderWarning`]s
//! (see [`super::warning`]), and the checksums and logo are also plain booleans.

use std::fmt;

use super::error::CartridgeError;
use super::licensee::{new_licensee_name, old_licensee_name};
use super::warning::{HeaderWarning, ROM_ONLY_MAX};

/// Size of one switchable ROM bank (16 KiB).
pub const ROM_BANK_SIZE: usize = 0x4000;
/// Size of one switchable external RAM bank (8 KiB).
pub const RAM_BANK_SIZE: usize = 0x2000;
/// A file must hold at least this many bytes to contain the header (0x0000-0x014F).
pub const HEADER_END: usize = 0x150;

/// The Nintendo logo bitmap at 0x0104-0x0133 that the boot ROM checks.
pub const NINTENDO_LOGO: [u8; 48] = [
    0xCE, 0xED, 0x66, 0x66, 0xCC, 0x0D, 0x00, 0x0B, 0x03, 0x73, 0x00, 0x83, 0x00, 0x0C, 0x00, 0x0D,
    0x00, 0x08, 0x11, 0x1F, 0x88, 0x89, 0x00, 0x0E, 0xDC, 0xCC, 0x6E, 0xE6, 0xDD, 0xDD, 0xD9, 0x99,
    0xBB, 0xBB, 0x67, 0x63, 0x6E, 0x0E, 0xEC, 0xCC, 0xDD, 0xDC, 0x99, 0x9F, 0xBB, 0xB9, 0x33, 0x3E,
];

/// Offset of the Nintendo logo inside a bank.
pub const LOGO_OFFSET: usize = 0x0104;

const TITLE_START: usize = 0x0134;
const CGB_FLAG: usize = 0x0143;
const NEW_LICENSEE: usize = 0x0144;
const SGB_FLAG: usize = 0x0146;
const CARTRIDGE_TYPE: usize = 0x0147;
const ROM_SIZE: usize = 0x0148;
const RAM_SIZE: usize = 0x0149;
const DESTINATION: usize = 0x014A;
const OLD_LICENSEE: usize = 0x014B;
const VERSION: usize = 0x014C;
const HEADER_CHECKSUM: usize = 0x014D;
const GLOBAL_CHECKSUM: usize = 0x014E;

/// The memory bank controller family named by the cartridge type byte (0x0147).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MapperKind {
    /// No MBC: 32 KiB of ROM mapped directly, optionally up to 8 KiB of RAM.
    RomOnly,
    /// MBC1 (including the MBC1M multi-game wiring, detected from the ROM contents).
    Mbc1,
    /// MBC2, with 512 × 4 bits of built-in RAM.
    Mbc2,
    /// MMM01 (not emulated).
    Mmm01,
    /// MBC3, MBC30, with or without the real-time clock.
    Mbc3,
    /// MBC5, with or without the rumble motor.
    Mbc5,
    /// MBC6 (not emulated).
    Mbc6,
    /// MBC7 (not emulated).
    Mbc7,
    /// Game Boy Camera (not emulated).
    PocketCamera,
    /// Bandai TAMA5 (not emulated).
    Tama5,
    /// Hudson HuC3 (not emulated).
    HuC3,
    /// Hudson HuC1 (not emulated).
    HuC1,
}

impl MapperKind {
    /// Whether this crate emulates the mapper.
    pub fn is_supported(self) -> bool {
        matches!(
            self,
            Self::RomOnly | Self::Mbc1 | Self::Mbc2 | Self::Mbc3 | Self::Mbc5
        )
    }

    /// The emulated mapper [`Cartridge::from_rom_forced`](super::Cartridge::from_rom_forced)
    /// runs this one as: itself when it is emulated; MBC1 for HuC1 (whose ROM and RAM banking
    /// follow MBC1's registers, without the infrared port); MBC5 for the rest (MBC7, the
    /// Pocket Camera and HuC3 switch ROM banks through 0x2000-0x3FFF and RAM banks through
    /// 0x4000-0x5FFF as MBC5 does; their sensors, EEPROM, camera and clock are missing, and
    /// MBC6, MMM01 and TAMA5 bank otherwise, so they get little further than their first bank).
    pub fn stand_in(self) -> MapperKind {
        match self {
            k if k.is_supported() => k,
            Self::HuC1 => Self::Mbc1,
            _ => Self::Mbc5,
        }
    }

    /// A short name, as in Pan Docs' MBC chapters.
    pub fn name(self) -> &'static str {
        match self {
            Self::RomOnly => "no MBC",
            Self::Mbc1 => "MBC1",
            Self::Mbc2 => "MBC2",
            Self::Mmm01 => "MMM01",
            Self::Mbc3 => "MBC3",
            Self::Mbc5 => "MBC5",
            Self::Mbc6 => "MBC6",
            Self::Mbc7 => "MBC7",
            Self::PocketCamera => "Pocket Camera",
            Self::Tama5 => "TAMA5",
            Self::HuC3 => "HuC3",
            Self::HuC1 => "HuC1",
        }
    }
}

/// What the cartridge type byte (0x0147) says is on the cartridge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CartridgeType {
    /// The raw code.
    pub code: u8,
    /// Pan Docs' name for the code, e.g. `"MBC1+RAM+BATTERY"`.
    pub name: &'static str,
    /// The mapper family.
    pub mapper: MapperKind,
    /// The name includes RAM.
    pub ram: bool,
    /// The name includes BATTERY: RAM (and the clock) keep their contents while off.
    pub battery: bool,
    /// The name includes TIMER: an MBC3 real-time clock.
    pub rtc: bool,
    /// The name includes RUMBLE: an MBC5 rumble motor.
    pub rumble: bool,
}

impl CartridgeType {
    /// A code Pan Docs does not list, run as a cartridge without a mapper (named "unknown").
    pub fn unknown(code: u8) -> CartridgeType {
        CartridgeType {
            code,
            name: "unknown",
            mapper: MapperKind::RomOnly,
            ram: false,
            battery: false,
            rtc: false,
            rumble: false,
        }
    }

    /// Looks up a cartridge type code in Pan Docs' table; `None` for codes not in it.
    pub fn from_code(code: u8) -> Option<CartridgeType> {
        use MapperKind as K;
        // (name, mapper, ram, battery, rtc, rumble)
        let (name, mapper, ram, battery, rtc, rumble) = match code {
            0x00 => ("ROM ONLY", K::RomOnly, false, false, false, false),
            0x01 => ("MBC1", K::Mbc1, false, false, false, false),
            0x02 => ("MBC1+RAM", K::Mbc1, true, false, false, false),
            0x03 => ("MBC1+RAM+BATTERY", K::Mbc1, true, true, false, false),
            0x05 => ("MBC2", K::Mbc2, false, false, false, false),
            0x06 => ("MBC2+BATTERY", K::Mbc2, false, true, false, false),
            0x08 => ("ROM+RAM", K::RomOnly, true, false, false, false),
            0x09 => ("ROM+RAM+BATTERY", K::RomOnly, true, true, false, false),
            0x0B => ("MMM01", K::Mmm01, false, false, false, false),
            0x0C => ("MMM01+RAM", K::Mmm01, true, false, false, false),
            0x0D => ("MMM01+RAM+BATTERY", K::Mmm01, true, true, false, false),
            0x0F => ("MBC3+TIMER+BATTERY", K::Mbc3, false, true, true, false),
            0x10 => ("MBC3+TIMER+RAM+BATTERY", K::Mbc3, true, true, true, false),
            0x11 => ("MBC3", K::Mbc3, false, false, false, false),
            0x12 => ("MBC3+RAM", K::Mbc3, true, false, false, false),
            0x13 => ("MBC3+RAM+BATTERY", K::Mbc3, true, true, false, false),
            0x19 => ("MBC5", K::Mbc5, false, false, false, false),
            0x1A => ("MBC5+RAM", K::Mbc5, true, false, false, false),
            0x1B => ("MBC5+RAM+BATTERY", K::Mbc5, true, true, false, false),
            0x1C => ("MBC5+RUMBLE", K::Mbc5, false, false, false, true),
            0x1D => ("MBC5+RUMBLE+RAM", K::Mbc5, true, false, false, true),
            0x1E => ("MBC5+RUMBLE+RAM+BATTERY", K::Mbc5, true, true, false, true),
            0x20 => ("MBC6", K::Mbc6, false, false, false, false),
            0x22 => (
                "MBC7+SENSOR+RUMBLE+RAM+BATTERY",
                K::Mbc7,
                true,
                true,
                false,
                true,
            ),
            0xFC => ("POCKET CAMERA", K::PocketCamera, false, false, false, false),
            0xFD => ("BANDAI TAMA5", K::Tama5, false, false, false, false),
            0xFE => ("HuC3", K::HuC3, false, false, false, false),
            0xFF => ("HuC1+RAM+BATTERY", K::HuC1, true, true, false, false),
            _ => return None,
        };
        Some(CartridgeType {
            code,
            name,
            mapper,
            ram,
            battery,
            rtc,
            rumble,
        })
    }
}

/// The publisher code: the old one-byte code at 0x014B, or, when that byte is 0x33, the
/// two-character new code at 0x0144-0x0145.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Licensee {
    /// Old licensee code (0x014B), any value but 0x33.
    Old(u8),
    /// New licensee code (0x0144-0x0145), two ASCII characters.
    New([u8; 2]),
}

impl Licensee {
    /// The publisher's name from Pan Docs' tables, `None` when the code is not listed.
    pub fn name(self) -> Option<&'static str> {
        match self {
            Self::Old(code) => old_licensee_name(code),
            Self::New(code) => new_licensee_name(code),
        }
    }
}

impl fmt::Display for Licensee {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Old(code) => write!(f, "old code 0x{code:02X}")?,
            Self::New([a, b]) => {
                f.write_str("new code \"")?;
                for byte in [a, b] {
                    if byte.is_ascii_graphic() || byte == b' ' {
                        write!(f, "{}", char::from(byte))?;
                    } else {
                        write!(f, "\\x{byte:02X}")?;
                    }
                }
                f.write_str("\"")?;
            }
        }
        match self.name() {
            Some(name) => write!(f, " ({name})"),
            None => f.write_str(" (unknown)"),
        }
    }
}

/// The ROM size in bytes for a ROM size code (0x0148): `32 KiB << code` for 0x00-0x08.
///
/// `Err` carries a description for the codes Pan Docs lists only from unofficial sources
/// (0x52-0x54, non-power-of-two sizes no known cartridge uses); `Ok(None)` for any other
/// unknown code.
pub fn rom_size_for_code(code: u8) -> Result<Option<usize>, &'static str> {
    match code {
        0x00..=0x08 => Ok(Some((32 * 1024) << code)),
        0x52 => Err("1.1 MiB, 72 banks"),
        0x53 => Err("1.2 MiB, 80 banks"),
        0x54 => Err("1.5 MiB, 96 banks"),
        _ => Ok(None),
    }
}

/// The external RAM size in bytes for a RAM size code (0x0149), `None` for unknown codes.
///
/// Code 0x01 is "unused" in Pan Docs (listed as 2 KiB by unofficial docs, and set by mistake
/// in some public-domain ROMs); it is taken as 2 KiB so those ROMs still load.
pub fn ram_size_for_code(code: u8) -> Option<usize> {
    match code {
        0x00 => Some(0),
        0x01 => Some(2 * 1024),
        0x02 => Some(8 * 1024),
        0x03 => Some(32 * 1024),
        0x04 => Some(128 * 1024),
        0x05 => Some(64 * 1024),
        _ => None,
    }
}

/// The parsed cartridge header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Title (0x0134-0x0143, or 0x0134-0x0142 when the CGB flag has bit 7 set), up to the
    /// first NUL, non-printable bytes shown as '?', surrounding whitespace trimmed.
    pub title: String,
    /// CGB flag (0x0143): 0x80 = CGB enhanced, 0xC0 = CGB only; other values mean a
    /// monochrome game (or a title byte on old cartridges).
    pub cgb_flag: u8,
    /// SGB flag (0x0146): 0x03 = supports SGB functions.
    pub sgb_flag: u8,
    /// Cartridge type (0x0147), decoded. A code Pan Docs does not list is taken as a
    /// cartridge without a mapper named "unknown" on an image of at most 32 KiB, and rejected
    /// by [`Header::parse`] on a bigger one.
    pub cartridge_type: CartridgeType,
    /// ROM size code (0x0148).
    pub rom_size_code: u8,
    /// ROM size in bytes the ROM size code declares, or the file's length for a code Pan
    /// Docs does not list. The cartridge itself runs the file as it is, whatever this says.
    pub rom_size: usize,
    /// RAM size code (0x0149).
    pub ram_size_code: u8,
    /// External RAM size in bytes, from the RAM size code (32 KiB for an unknown code on a
    /// type with RAM, else none). 0 for MBC2, whose 512 × 4 bits of RAM are inside the mapper
    /// (see [`super::Cartridge::ram`]).
    pub ram_size: usize,
    /// Destination code (0x014A): 0x00 = Japan (and possibly overseas), 0x01 = overseas only.
    pub destination: u8,
    /// Publisher code (0x014B, or 0x0144-0x0145 when 0x014B is 0x33).
    pub licensee: Licensee,
    /// Mask ROM version number (0x014C).
    pub version: u8,
    /// The Nintendo logo (0x0104-0x0133) matches the one the boot ROM checks.
    pub logo_ok: bool,
    /// Header checksum byte (0x014D) as stored.
    pub header_checksum: u8,
    /// The header checksum computed over 0x0134-0x014C.
    pub computed_header_checksum: u8,
    /// The stored header checksum matches the one computed over 0x0134-0x014C.
    pub header_checksum_ok: bool,
    /// Global checksum (0x014E-0x014F, big-endian) as stored.
    pub global_checksum: u16,
    /// The sum of every byte of the ROM but the global checksum's own two.
    pub computed_global_checksum: u16,
    /// The stored global checksum matches the sum of every other byte of the ROM.
    pub global_checksum_ok: bool,
}

impl Header {
    /// Parses the header of a whole ROM image.
    ///
    /// Errors: the file is shorter than 0x150 bytes; the cartridge type code is not in Pan
    /// Docs' table and the image is bigger than 32 KiB. A supported mapper is *not* required
    /// here, so a host can show the header of a ROM it cannot run
    /// ([`super::Cartridge::from_rom`] checks that). Size oddities are accepted; see
    /// [`Header::parse_with_warnings`] for what they are.
    pub fn parse(rom: &[u8]) -> Result<Header, CartridgeError> {
        Header::parse_with_warnings(rom).map(|(header, _)| header)
    }

    /// [`Header::parse`], with the oddities it accepted: a ROM size code that is unknown or
    /// disagrees with the file's length, an unknown RAM size code, RAM declared on an MBC2,
    /// an unknown cartridge type on a small image, and a bad logo or checksums.
    pub fn parse_with_warnings(rom: &[u8]) -> Result<(Header, Vec<HeaderWarning>), CartridgeError> {
        let byte = |offset: usize| rom.get(offset).copied().unwrap_or(0);
        if rom.len() < HEADER_END {
            return Err(CartridgeError::Truncated { len: rom.len() });
        }
        let mut warnings = Vec::new();

        let type_code = byte(CARTRIDGE_TYPE);
        let cartridge_type = match CartridgeType::from_code(type_code) {
            Some(t) => t,
            None if rom.len() <= ROM_ONLY_MAX => {
                warnings.push(HeaderWarning::UnknownCartridgeType(type_code));
                CartridgeType::unknown(type_code)
            }
            None => return Err(CartridgeError::UnknownCartridgeType(type_code)),
        };

        let rom_size_code = byte(ROM_SIZE);
        let rom_size = match rom_size_for_code(rom_size_code) {
            Ok(Some(size)) => {
                if rom.len() != size {
                    warnings.push(HeaderWarning::RomSizeMismatch {
                        code: rom_size_code,
                        declared: size,
                        actual: rom.len(),
                    });
                }
                size
            }
            Ok(None) | Err(_) => {
                warnings.push(HeaderWarning::UnknownRomSize {
                    code: rom_size_code,
                    unofficial: rom_size_for_code(rom_size_code).err(),
                    actual: rom.len(),
                });
                rom.len()
            }
        };

        let ram_size_code = byte(RAM_SIZE);
        let mut ram_size = match ram_size_for_code(ram_size_code) {
            Some(size) => size,
            None => {
                let assumed = if cartridge_type.ram { 32 * 1024 } else { 0 };
                warnings.push(HeaderWarning::UnknownRamSize {
                    code: ram_size_code,
                    assumed,
                });
                assumed
            }
        };
        if cartridge_type.mapper == MapperKind::Mbc2 && ram_size_code != 0 {
            if ram_size_for_code(ram_size_code).is_some() {
                warnings.push(HeaderWarning::Mbc2RamSize(ram_size_code));
            }
            ram_size = 0;
        }

        let cgb_flag = byte(CGB_FLAG);
        let title_end = if cgb_flag & 0x80 != 0 {
            CGB_FLAG
        } else {
            CGB_FLAG + 1
        };
        let title = rom
            .get(TITLE_START..title_end)
            .unwrap_or_default()
            .iter()
            .take_while(|&&b| b != 0)
            .map(|&b| {
                if b.is_ascii_graphic() || b == b' ' {
                    char::from(b)
                } else {
                    '?'
                }
            })
            .collect::<String>()
            .trim()
            .to_owned();

        let old_licensee = byte(OLD_LICENSEE);
        let licensee = if old_licensee == 0x33 {
            Licensee::New([byte(NEW_LICENSEE), byte(NEW_LICENSEE + 1)])
        } else {
            Licensee::Old(old_licensee)
        };

        let header_checksum = byte(HEADER_CHECKSUM);
        let computed_header_checksum = rom
            .get(TITLE_START..HEADER_CHECKSUM)
            .unwrap_or_default()
            .iter()
            .fold(0u8, |acc, &b| acc.wrapping_sub(b).wrapping_sub(1));

        let global_checksum =
            u16::from_be_bytes([byte(GLOBAL_CHECKSUM), byte(GLOBAL_CHECKSUM + 1)]);
        let computed_global_checksum = rom
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != GLOBAL_CHECKSUM && i != GLOBAL_CHECKSUM + 1)
            .fold(0u16, |acc, (_, &b)| acc.wrapping_add(u16::from(b)));

        let header = Header {
            title,
            cgb_flag,
            sgb_flag: byte(SGB_FLAG),
            cartridge_type,
            rom_size_code,
            rom_size,
            ram_size_code,
            ram_size,
            destination: byte(DESTINATION),
            licensee,
            version: byte(VERSION),
            logo_ok: rom.get(LOGO_OFFSET..LOGO_OFFSET + NINTENDO_LOGO.len())
                == Some(&NINTENDO_LOGO[..]),
            header_checksum,
            computed_header_checksum,
            header_checksum_ok: header_checksum == computed_header_checksum,
            global_checksum,
            computed_global_checksum,
            global_checksum_ok: global_checksum == computed_global_checksum,
        };
        warnings.extend(integrity(&header));
        Ok((header, warnings))
    }

    /// Pan Docs' name of the cartridge type, e.g. `"MBC3+TIMER+RAM+BATTERY"`.
    pub fn cartridge_type_name(&self) -> &'static str {
        self.cartridge_type.name
    }

    /// The cartridge type code (0x0147).
    pub fn cartridge_type_code(&self) -> u8 {
        self.cartridge_type.code
    }

    /// The mapper family.
    pub fn mapper(&self) -> MapperKind {
        self.cartridge_type.mapper
    }

    /// Battery-backed: RAM (and the clock) should be saved.
    pub fn has_battery(&self) -> bool {
        self.cartridge_type.battery
    }

    /// Has an MBC3 real-time clock.
    pub fn has_rtc(&self) -> bool {
        self.cartridge_type.rtc
    }

    /// Has an MBC5 rumble motor.
    pub fn has_rumble(&self) -> bool {
        self.cartridge_type.rumble
    }

    /// Number of 16 KiB ROM banks.
    pub fn rom_banks(&self) -> usize {
        self.rom_size / ROM_BANK_SIZE
    }

    /// The CGB flag asks for CGB mode (bit 7 set; the hardware ignores bit 6).
    pub fn supports_cgb(&self) -> bool {
        self.cgb_flag & 0x80 != 0
    }

    /// The CGB flag is 0xC0: the game is meant for CGB only.
    pub fn cgb_only(&self) -> bool {
        self.cgb_flag == 0xC0
    }
}

/// The checksum and logo warnings for a parsed header (the size and type warnings come from
/// [`Header::parse`] itself).
fn integrity(header: &Header) -> Vec<HeaderWarning> {
    let mut out = Vec::new();
    if !header.logo_ok {
        out.push(HeaderWarning::BadLogo);
    }
    if !header.header_checksum_ok {
        out.push(HeaderWarning::BadHeaderChecksum {
            stored: header.header_checksum,
            computed: header.computed_header_checksum,
        });
    }
    if !header.global_checksum_ok {
        out.push(HeaderWarning::BadGlobalChecksum {
            stored: header.global_checksum,
            computed: header.computed_global_checksum,
        });
    }
    out
}

// The logo range lies inside the header.
const _: () = assert!(LOGO_OFFSET + NINTENDO_LOGO.len() <= HEADER_END);
