//! Header warnings as a cartridge built from a ROM reports them (a file of its own: it names
//! the `cartridge` and `header` modules, which name `warning`).

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
