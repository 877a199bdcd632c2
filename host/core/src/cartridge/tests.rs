//! Unit tests for the cartridge module, on ROM images built in code.

use super::state::StateLayout;
use super::*;

const KIB: usize = 1024;
const SEC: u64 = CYCLES_PER_SECOND;

/// Recomputes the header and global checksums.
fn fix_checksums(rom: &mut [u8]) {
    let mut hc = 0u8;
    for &b in &rom[0x134..0x14D] {
        hc = hc.wrapping_sub(b).wrapping_sub(1);
    }
    rom[0x14D] = hc;
    rom[0x14E] = 0;
    rom[0x14F] = 0;
    let gc = rom
        .iter()
        .fold(0u16, |acc, &b| acc.wrapping_add(u16::from(b)));
    rom[0x14E..0x150].copy_from_slice(&gc.to_be_bytes());
}

/// A ROM of `32 KiB << rom_code` with a valid header. Every bank starts with its bank number
/// (u16 LE) and ends with the bank number's low byte inverted.
fn make_rom(cart_type: u8, rom_code: u8, ram_code: u8) -> Vec<u8> {
    let size = (32 * KIB) << rom_code;
    let mut rom = vec![0u8; size];
    for bank in 0..size / ROM_BANK_SIZE {
        let base = bank * ROM_BANK_SIZE;
        rom[base..base + 2].copy_from_slice(&(bank as u16).to_le_bytes());
        rom[base + ROM_BANK_SIZE - 1] = !(bank as u8);
    }
    rom[0x104..0x134].copy_from_slice(&NINTENDO_LOGO);
    rom[0x134..0x138].copy_from_slice(b"TEST");
    rom[0x147] = cart_type;
    rom[0x148] = rom_code;
    rom[0x149] = ram_code;
    fix_checksums(&mut rom);
    rom
}

fn cart(cart_type: u8, rom_code: u8, ram_code: u8) -> Cartridge {
    Cartridge::from_rom(make_rom(cart_type, rom_code, ram_code)).expect("valid test ROM")
}

/// The bank number visible at 0x4000-0x7FFF, checked at both ends of the bank.
fn bank1(c: &Cartridge) -> usize {
    let n = usize::from(u16::from_le_bytes([c.read_rom(0x4000), c.read_rom(0x4001)]));
    assert_eq!(c.read_rom(0x7FFF), !(n as u8), "end of bank {n}");
    n
}

/// The bank number visible at 0x0000-0x3FFF.
fn bank0(c: &Cartridge) -> usize {
    usize::from(u16::from_le_bytes([c.read_rom(0x0000), c.read_rom(0x0001)]))
}

fn err(rom: Vec<u8>) -> String {
    Cartridge::from_rom(rom)
        .expect_err("ROM must be rejected")
        .to_string()
}

// ---------------------------------------------------------------- header

#[test]
fn truncated_rom() {
    assert_eq!(
        err(vec![0; 312]),
        "ROM is truncated: 312 bytes, a cartridge header needs at least 336 (0x150)"
    );
    assert!(matches!(
        Cartridge::from_rom(Vec::new()),
        Err(CartridgeError::Truncated { len: 0 })
    ));
}

#[test]
fn unsupported_types_name_the_mapper() {
    for (code, name) in [
        (0x0B, "MMM01"),
        (0x0D, "MMM01"),
        (0x20, "MBC6"),
        (0x22, "MBC7"),
        (0xFC, "Pocket Camera"),
        (0xFD, "TAMA5"),
        (0xFE, "HuC3"),
        (0xFF, "HuC1"),
    ] {
        assert_eq!(
            err(make_rom(code, 0, 0)),
            format!("unsupported cartridge type 0x{code:02X} ({name})")
        );
    }
    assert_eq!(
        err(make_rom(0x22, 0, 0)),
        "unsupported cartridge type 0x22 (MBC7)"
    );
}

#[test]
fn forced_cartridges_run_with_a_stand_in_and_say_so() {
    // MBC7 (0x22) and the Pocket Camera (0xFC) bank ROM through 0x2000 as MBC5 does.
    for (code, name) in [(0x22, "MBC7"), (0xFC, "Pocket Camera")] {
        let mut c = Cartridge::from_rom_forced(make_rom(code, 3, 0)).expect("forced");
        assert_eq!(
            c.warnings()[0],
            HeaderWarning::StandIn {
                code,
                name,
                stand_in: "MBC5"
            }
        );
        assert_eq!(
            c.warnings()[0].to_string(),
            format!(
                "cartridge type 0x{code:02X} ({name}) is not emulated; forced to run as MBC5, so \
                 what only the {name} does (its extra hardware, its own banking) is missing"
            )
        );
        assert_eq!(bank1(&c), 1);
        c.write_rom(0x2000, 9, 0);
        assert_eq!(bank1(&c), 9);
        // The header keeps the real type.
        assert_eq!(c.header().mapper().name(), name);
    }
    // HuC1 banks as MBC1: bank 0 selects bank 1.
    let mut c = Cartridge::from_rom_forced(make_rom(0xFF, 2, 2)).expect("forced");
    assert!(
        c.warnings()[0]
            .to_string()
            .contains("forced to run as MBC1")
    );
    c.write_rom(0x2000, 0, 0);
    assert_eq!(bank1(&c), 1);
    c.write_rom(0x2000, 5, 0);
    assert_eq!(bank1(&c), 5);
    // Supported types are unchanged and carry no stand-in warning.
    let c = Cartridge::from_rom_forced(make_rom(0x19, 2, 0)).expect("MBC5");
    assert!(c.warnings().is_empty());
}

#[test]
fn unknown_type_and_size_codes() {
    // An unknown type on an image over 32 KiB is an error; size codes only warn (warning.rs).
    assert_eq!(
        err(make_rom(0x04, 1, 0)),
        "unknown cartridge type 0x04 on an image over 32 KiB: no telling which mapper it needs"
    );
    let mut rom = make_rom(0x01, 0, 0);
    rom[0x148] = 0x09;
    fix_checksums(&mut rom);
    let c = Cartridge::from_rom(rom).unwrap();
    assert_eq!(c.header().rom_size, 32 * KIB, "the file's length");
    assert!(matches!(
        c.warnings(),
        [HeaderWarning::UnknownRomSize { code: 0x09, .. }]
    ));
}

#[test]
fn rom_size_code_need_not_match_file() {
    for (rom_code, header_code) in [(1, 0x05), (2, 0x01), (0, 0x00)] {
        let mut rom = make_rom(0x01, rom_code, 0);
        rom[0x148] = header_code;
        fix_checksums(&mut rom);
        let len = rom.len();
        let c = Cartridge::from_rom(rom).unwrap();
        let mismatched = c
            .warnings()
            .iter()
            .any(|w| matches!(w, HeaderWarning::RomSizeMismatch { actual, .. } if *actual == len));
        assert_eq!(mismatched, rom_code != header_code, "code {header_code}");
    }
}

#[test]
fn mbc2_ram_code_is_a_warning() {
    let c = cart(0x06, 0, 0x02);
    assert_eq!(c.warnings(), [HeaderWarning::Mbc2RamSize(2)]);
    assert_eq!(c.ram().len(), 512);
    assert_eq!(cart(0x06, 0, 0).ram().len(), 512);
}

#[test]
fn header_fields() {
    let mut rom = make_rom(0x10, 2, 0x03);
    rom[0x134..0x144].copy_from_slice(b"  POKEMON GOLD\0\0");
    rom[0x14B] = 0x33;
    rom[0x144..0x146].copy_from_slice(b"01");
    rom[0x146] = 0x03;
    rom[0x14A] = 0x01;
    rom[0x14C] = 0x02;
    fix_checksums(&mut rom);
    let c = Cartridge::from_rom(rom).unwrap();
    let h = c.header();
    assert_eq!(h.title, "POKEMON GOLD");
    assert_eq!(h.cartridge_type_code(), 0x10);
    assert_eq!(h.cartridge_type_name(), "MBC3+TIMER+RAM+BATTERY");
    assert_eq!(h.mapper(), MapperKind::Mbc3);
    assert_eq!(h.rom_size, 128 * KIB);
    assert_eq!(h.rom_banks(), 8);
    assert_eq!(h.ram_size, 32 * KIB);
    assert!(h.has_battery() && h.has_rtc() && !h.has_rumble());
    assert_eq!(h.sgb_flag, 0x03);
    assert_eq!(h.destination, 0x01);
    assert_eq!(h.version, 0x02);
    assert_eq!(h.licensee, Licensee::New(*b"01"));
    assert_eq!(
        h.licensee.to_string(),
        "new code \"01\" (Nintendo Research & Development 1)"
    );
    assert!(h.logo_ok && h.header_checksum_ok && h.global_checksum_ok);
    assert!(c.has_battery() && c.has_rtc());
    assert_eq!(c.ram().len(), 32 * KIB);
}

#[test]
fn cgb_title_and_old_licensee() {
    let mut rom = make_rom(0x00, 0, 0);
    rom[0x134..0x144].copy_from_slice(b"ABCDEFGHIJKLMNO\x80");
    rom[0x14B] = 0x01;
    fix_checksums(&mut rom);
    let c = Cartridge::from_rom(rom).unwrap();
    assert_eq!(c.header().title, "ABCDEFGHIJKLMNO");
    assert!(c.header().supports_cgb() && !c.header().cgb_only());
    assert_eq!(c.header().licensee.name(), Some("Nintendo"));
    assert_eq!(Licensee::Old(0x02).to_string(), "old code 0x02 (unknown)");
    // Non-printable title bytes become '?'.
    let mut rom = make_rom(0x00, 0, 0);
    rom[0x134..0x138].copy_from_slice(b"A\x01B ");
    fix_checksums(&mut rom);
    assert_eq!(Cartridge::from_rom(rom).unwrap().header().title, "A?B");
}

#[test]
fn bad_checksums_and_logo_are_reported_not_fatal() {
    let mut rom = make_rom(0x01, 1, 0);
    rom[0x14D] ^= 1;
    rom[0x5000] ^= 0xFF;
    rom[0x104] = 0;
    let c = Cartridge::from_rom(rom).unwrap();
    assert!(!c.header().header_checksum_ok);
    assert!(!c.header().global_checksum_ok);
    assert!(!c.header().logo_ok);
}

#[test]
fn ram_size_codes() {
    for (code, size) in [
        (0, 0),
        (1, 2 * KIB),
        (2, 8 * KIB),
        (3, 32 * KIB),
        (4, 128 * KIB),
        (5, 64 * KIB),
    ] {
        assert_eq!(cart(0x1B, 0, code).ram().len(), size);
    }
}

#[test]
fn byte_size_display() {
    assert_eq!(ByteSize(32 * KIB).to_string(), "32 KiB");
    assert_eq!(ByteSize(8 * KIB * KIB).to_string(), "8 MiB");
    assert_eq!(ByteSize(1536).to_string(), "1536 bytes");
}

// ---------------------------------------------------------------- no MBC

#[test]
fn rom_only() {
    let mut c = cart(0x00, 0, 0);
    assert_eq!(bank0(&c), 0);
    assert_eq!(bank1(&c), 1);
    c.write_rom(0x2000, 0x05, 0);
    assert_eq!(bank1(&c), 1);
    assert_eq!(c.read_ram(0xA000, 0), 0xFF);
    c.write_ram(0xA000, 0x12, 0);
    assert_eq!(c.read_ram(0xA000, 0), 0xFF);
    assert!(c.ram().is_empty() && !c.has_battery());
}

#[test]
fn rom_with_ram_is_always_enabled() {
    let mut c = cart(0x09, 0, 0x02);
    assert!(c.has_battery());
    c.write_ram(0xA123, 0x5A, 0);
    c.write_ram(0xBFFF, 0x77, 0);
    assert_eq!(c.read_ram(0xA123, 0), 0x5A);
    assert_eq!(c.read_ram(0xBFFF, 0), 0x77);
    assert_eq!(c.ram()[0x123], 0x5A);
    // 2 KiB RAM (code 0x01) wraps every 2 KiB.
    let mut c = cart(0x09, 0, 0x01);
    c.write_ram(0xA005, 0x33, 0);
    assert_eq!(c.read_ram(0xA805, 0), 0x33);
    assert_eq!(c.read_ram(0xB805, 0), 0x33);
}

// ---------------------------------------------------------------- MBC1

#[test]
fn mbc1_bank1_zero_reads_as_one_and_upper_bits_ignored() {
    let mut c = cart(0x01, 4, 0); // 512 KiB, 32 banks
    assert_eq!(bank1(&c), 1);
    for (value, bank) in [
        (0x00, 1),
        (0x01, 1),
        (0x02, 2),
        (0x1F, 31),
        (0xE3, 3),
        (0x20, 1),
    ] {
        c.write_rom(0x2000, value, 0);
        assert_eq!(bank1(&c), bank, "BANK1 = {value:#04x}");
    }
    // Whole register range 0x2000-0x3FFF.
    c.write_rom(0x3FFF, 0x07, 0);
    assert_eq!(bank1(&c), 7);
    // 0x0000-0x3FFF stays bank 0 in both modes on a 512 KiB ROM.
    c.write_rom(0x4000, 0x03, 0);
    c.write_rom(0x6000, 0x01, 0);
    assert_eq!(bank0(&c), 0);
    assert_eq!(bank1(&c), 7);
}

#[test]
fn mbc1_small_rom_wraps_and_can_map_bank_0() {
    let mut c = cart(0x01, 3, 0); // 256 KiB, 16 banks
    c.write_rom(0x2000, 0x11, 0);
    assert_eq!(bank1(&c), 1);
    // 0x10: not 0 for the 0 → 1 check, but masked to bank 0.
    c.write_rom(0x2000, 0x10, 0);
    assert_eq!(bank1(&c), 0);
    let mut c = cart(0x01, 0, 0); // 32 KiB
    c.write_rom(0x2000, 0x03, 0);
    assert_eq!(bank1(&c), 1);
}

#[test]
fn mbc1_large_rom_bank2_and_mode() {
    let mut c = cart(0x01, 6, 0); // 2 MiB, 128 banks
    c.write_rom(0x2000, 0x05, 0);
    c.write_rom(0x4000, 0x02, 0);
    assert_eq!(bank1(&c), 0x45);
    assert_eq!(bank0(&c), 0);
    c.write_rom(0x6000, 0x01, 0);
    assert_eq!(bank0(&c), 0x40);
    assert_eq!(bank1(&c), 0x45);
    // Banks 0x20/0x40/0x60 read as 0x21/0x41/0x61 at 0x4000.
    for (b2, expect) in [(1, 0x21), (2, 0x41), (3, 0x61)] {
        c.write_rom(0x2000, 0x00, 0);
        c.write_rom(0x5FFF, b2, 0);
        assert_eq!(bank1(&c), expect);
        assert_eq!(bank0(&c), expect - 1);
    }
    c.write_rom(0x7FFF, 0xFE, 0); // mode 0 (bit 0 clear)
    assert_eq!(bank0(&c), 0);
    assert_eq!(c.rom_banks_mapped(), [0, 0x61]);
    // 1 MiB: bank2 bit 1 is masked away.
    let mut c = cart(0x01, 5, 0);
    c.write_rom(0x4000, 0x03, 0);
    c.write_rom(0x2000, 0x02, 0);
    assert_eq!(bank1(&c), 0x22);
    assert!(!c.is_mbc1_multicart());
}

/// Replays the Mooneye `mbc1/rom_*` harness: for every bank number 0-127, BANK1 gets the low
/// 5 bits with bits 5-7 set, BANK2 bits 5-6 with bits 2-7 set; expected values follow the
/// test's tables (written out here from Pan Docs' rules).
#[test]
fn mbc1_mooneye_rom_harness() {
    for rom_code in 1..=6u8 {
        let mut c = cart(0x01, rom_code, 0);
        let banks = c.header().rom_banks();
        for mode in [0u8, 1] {
            c.write_rom(0x6000, mode, 0);
            for bn in 0..128usize {
                c.write_rom(0x2000, (bn as u8) | 0xE0, 0);
                c.write_rom(0x4000, ((bn >> 5) as u8) | 0xFC, 0);
                let low = if bn & 0x1F == 0 { bn | 1 } else { bn };
                let expect0 = if mode == 1 { (bn & 0x60) % banks } else { 0 };
                assert_eq!(
                    bank0(&c),
                    expect0,
                    "rom_code {rom_code} mode {mode} bank {bn}"
                );
                assert_eq!(bank1(&c), low % banks, "rom_code {rom_code} bank {bn}");
            }
        }
    }
}

#[test]
fn mbc1_ram_enable_and_banking() {
    let mut c = cart(0x03, 0, 0x03); // 32 KiB RAM
    assert_eq!(c.read_ram(0xA000, 0), 0xFF);
    c.write_ram(0xA000, 0x11, 0);
    c.write_rom(0x0000, 0x0A, 0);
    assert_eq!(
        c.read_ram(0xA000, 0),
        0xFF,
        "write while disabled had no effect"
    );
    // Mode 0: bank 0 whatever BANK2 says.
    c.write_rom(0x4000, 0x02, 0);
    c.write_ram(0xA000, 0x22, 0);
    assert_eq!(c.ram()[0], 0x22);
    // Mode 1: BANK2 selects the RAM bank.
    c.write_rom(0x6000, 0x01, 0);
    c.write_ram(0xA000, 0x33, 0);
    assert_eq!(c.ram()[2 * RAM_BANK_SIZE], 0x33);
    assert_eq!(c.ram_bank_mapped(), Some(2));
    c.write_rom(0x4000, 0x03, 0);
    c.write_ram(0xBFFF, 0x44, 0);
    assert_eq!(c.ram()[4 * RAM_BANK_SIZE - 1], 0x44);
    // RAMG: any value with low nibble 0xA enables, anything else disables.
    for value in 0..=255u8 {
        c.write_rom(0x1FFF, value, 0);
        let enabled = c.read_ram(0xBFFF, 0) == 0x44;
        assert_eq!(enabled, value & 0x0F == 0x0A, "RAMG {value:#04x}");
    }
}

#[test]
fn mbc1_8kib_ram_ignores_bank2() {
    let mut c = cart(0x03, 1, 0x02);
    c.write_rom(0x0000, 0x0A, 0);
    c.write_rom(0x6000, 0x01, 0);
    c.write_rom(0x4000, 0x03, 0);
    c.write_ram(0xA010, 0x99, 0);
    assert_eq!(c.ram()[0x10], 0x99);
}

fn make_multicart() -> Vec<u8> {
    let mut rom = make_rom(0x01, 5, 0);
    let base = 0x10 * ROM_BANK_SIZE + LOGO_OFFSET;
    rom[base..base + NINTENDO_LOGO.len()].copy_from_slice(&NINTENDO_LOGO);
    rom
}

#[test]
fn mbc1_multicart() {
    let mut c = Cartridge::from_rom(make_multicart()).unwrap();
    assert!(c.is_mbc1_multicart());
    // Mooneye multicart_rom_8Mb tables.
    for mode in [0u8, 1] {
        c.write_rom(0x6000, mode, 0);
        for bn in 0..128usize {
            c.write_rom(0x2000, (bn as u8) | 0xE0, 0);
            c.write_rom(0x4000, ((bn >> 5) as u8) | 0xFC, 0);
            let high = (bn >> 5) << 4;
            let low = if bn & 0x1F == 0 { 1 } else { bn & 0x0F };
            let expect0 = if mode == 1 { high } else { 0 };
            assert_eq!(bank0(&c), expect0, "mode {mode} bank {bn}");
            assert_eq!(bank1(&c), high | low, "bank {bn}");
        }
    }
    // Specific cases from the Pan Docs text.
    c.write_rom(0x6000, 1, 0);
    c.write_rom(0x4000, 1, 0);
    c.write_rom(0x2000, 0x10, 0);
    assert_eq!(bank0(&c), 0x10);
    assert_eq!(bank1(&c), 0x10);
}

// ---------------------------------------------------------------- MBC2

#[test]
fn mbc2_register_select_by_address_bit_8() {
    let mut c = cart(0x06, 3, 0); // 256 KiB, 16 banks
    assert_eq!(bank1(&c), 1);
    c.write_rom(0x2100, 0x03, 0);
    assert_eq!(bank1(&c), 3);
    c.write_rom(0x0100, 0xF5, 0);
    assert_eq!(bank1(&c), 5);
    c.write_rom(0x3FFF, 0x00, 0);
    assert_eq!(bank1(&c), 1, "bank 0 reads as 1");
    // Bit 8 clear: RAMG, not ROMB.
    c.write_rom(0x2000, 0x07, 0);
    assert_eq!(bank1(&c), 1);
    c.write_rom(0x3E00, 0x0A, 0);
    c.write_ram(0xA000, 0x05, 0);
    assert_eq!(c.read_ram(0xA000, 0), 0xF5);
    // 0x4000-0x7FFF: nothing.
    for addr in [0x4000, 0x5000, 0x6000, 0x7FFF] {
        c.write_rom(addr, 0x00, 0);
        c.write_rom(addr, 0xFF, 0);
    }
    assert_eq!(bank1(&c), 1);
    assert_eq!(c.read_ram(0xA000, 0), 0xF5);
}

#[test]
fn mbc2_romb_zero_check_before_masking() {
    // Mooneye mbc2/rom_1Mb: bank numbers 0-15 | 0xF0 on an 8-bank ROM.
    let mut c = cart(0x05, 2, 0);
    let expect = [1, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7];
    for (bn, &e) in expect.iter().enumerate() {
        c.write_rom(0x2100, bn as u8 | 0xF0, 0);
        assert_eq!(bank1(&c), e, "bank {bn}");
        assert_eq!(bank0(&c), 0);
    }
}

#[test]
fn fresh_ram_reads_ff_until_a_save_is_loaded() {
    for (ty, ram_code) in [(0x03, 0x03), (0x13, 0x03), (0x1B, 0x02), (0x06, 0)] {
        let mut c = cart(ty, 0, ram_code);
        assert!(!c.ram().is_empty(), "type {ty:02X} has RAM");
        c.write_rom(0x0000, 0x0A, 0);
        assert_eq!(c.read_ram(0xA000, 0), 0xFF, "type {ty:02X}");
        assert_eq!(c.read_ram(0xA1FF, 0), 0xFF, "type {ty:02X}");
        let save = vec![0x05; c.ram().len()];
        c.load_ram(&save).unwrap();
        let expect = if ty == 0x06 { 0xF5 } else { 0x05 };
        assert_eq!(c.read_ram(0xA000, 0), expect, "type {ty:02X} after a save");
    }
}

#[test]
fn mbc2_ram_nibbles_and_echo() {
    let mut c = cart(0x06, 0, 0);
    assert_eq!(c.read_ram(0xA000, 0), 0xFF, "disabled at power-on");
    c.write_ram(0xA000, 0x0C, 0);
    c.write_rom(0x0000, 0x0A, 0);
    assert_eq!(c.read_ram(0xA000, 0), 0xFF, "write while disabled ignored");
    c.write_ram(0xA000, 0xAB, 0);
    assert_eq!(c.read_ram(0xA000, 0), 0xFB);
    assert_eq!(c.ram()[0], 0x0B);
    c.write_ram(0xA1FF, 0x34, 0);
    // Echoes every 512 bytes up to 0xBFFF.
    for echo in 0..16u16 {
        assert_eq!(c.read_ram(0xA000 + echo * 0x200, 0), 0xFB);
        assert_eq!(c.read_ram(0xA1FF + echo * 0x200, 0), 0xF4);
    }
    c.write_ram(0xBE01, 0x07, 0);
    assert_eq!(c.read_ram(0xA001, 0), 0xF7);
    // No RAM bank register.
    c.write_rom(0x4000, 0x01, 0);
    assert_eq!(c.read_ram(0xA001, 0), 0xF7);
    c.write_rom(0x0000, 0x00, 0);
    assert_eq!(c.read_ram(0xA001, 0), 0xFF);
}

// ---------------------------------------------------------------- MBC3

#[test]
fn mbc3_rom_banks() {
    let mut c = cart(0x11, 6, 0); // 2 MiB, 128 banks
    assert_eq!(bank1(&c), 1);
    for (value, bank) in [
        (0x00, 1),
        (0x20, 0x20),
        (0x40, 0x40),
        (0x7F, 0x7F),
        (0x80, 1),
        (0xC5, 0x45),
    ] {
        c.write_rom(0x2000, value, 0);
        assert_eq!(bank1(&c), bank, "ROMB {value:#04x}");
        assert_eq!(bank0(&c), 0);
    }
    // MBC30: 4 MiB uses 8 bits.
    let mut c = cart(0x13, 7, 0x05);
    c.write_rom(0x2000, 0xC5, 0);
    assert_eq!(bank1(&c), 0xC5);
    assert_eq!(c.ram().len(), 64 * KIB);
    // Small ROM wraps.
    let mut c = cart(0x11, 1, 0);
    c.write_rom(0x3FFF, 0x05, 0);
    assert_eq!(bank1(&c), 1);
}

#[test]
fn mbc3_ram_banks() {
    let mut c = cart(0x13, 1, 0x03);
    c.write_rom(0x0000, 0x0A, 0);
    for bank in 0..4u8 {
        c.write_rom(0x4000, bank, 0);
        c.write_ram(0xA000, 0x10 + bank, 0);
    }
    for bank in 0..4usize {
        assert_eq!(c.ram()[bank * RAM_BANK_SIZE], 0x10 + bank as u8);
    }
    // Banks 4-7 wrap on 32 KiB.
    c.write_rom(0x4000, 0x05, 0);
    assert_eq!(c.read_ram(0xA000, 0), 0x11);
    // RTC selects without a clock read open bus.
    c.write_rom(0x4000, 0x08, 0);
    assert_eq!(c.read_ram(0xA000, 0), 0xFF);
    c.write_rom(0x4000, 0x0D, 0);
    assert_eq!(c.read_ram(0xA000, 0), 0xFF);
    c.write_rom(0x0000, 0x00, 0);
    c.write_rom(0x4000, 0x00, 0);
    assert_eq!(c.read_ram(0xA000, 0), 0xFF);
}

/// Selects a clock register and writes it through the cartridge interface.
fn rtc_write(c: &mut Cartridge, reg: u8, value: u8, now: u64) {
    c.write_rom(0x4000, reg, now);
    c.write_ram(0xA000, value, now);
}

fn rtc_latch_read(c: &mut Cartridge, now: u64) -> [u8; 5] {
    c.write_rom(0x6000, 0x00, now);
    c.write_rom(0x6000, 0x01, now);
    rtc_read_all(c, now)
}

/// Reads the five clock registers as they show now (latched or running).
fn rtc_read_all(c: &mut Cartridge, now: u64) -> [u8; 5] {
    let mut out = [0; 5];
    for (i, slot) in out.iter_mut().enumerate() {
        c.write_rom(0x4000, 0x08 + i as u8, now);
        *slot = c.read_ram(0xA000, now);
    }
    out
}

/// An MBC3+TIMER+RAM cartridge with RAM and clock enabled.
fn rtc_cart() -> Cartridge {
    let mut c = cart(0x10, 0, 0x03);
    c.write_rom(0x0000, 0x0A, 0);
    c
}

#[test]
fn mbc3_rtc_through_the_bus() {
    let mut c = cart(0x10, 0, 0x02);
    // Disabled: registers read 0xFF.
    c.write_rom(0x4000, 0x08, 0);
    assert_eq!(c.read_ram(0xA000, 0), 0xFF);
    c.write_rom(0x0000, 0x0A, 0);
    assert_eq!(rtc_latch_read(&mut c, 0), [0, 0, 0, 0, 0]);
    // Counting over emulated time.
    assert_eq!(
        rtc_latch_read(&mut c, (2 * 86_400 + 3 * 3600 + 4 * 60 + 5) * SEC),
        [5, 4, 3, 2, 0]
    );
    // Halt, write a time, latch, resume.
    let now = 2 * 86_400 * SEC + 3 * 3600 * SEC + 10 * SEC;
    rtc_write(&mut c, 0x0C, 0x40, now);
    rtc_write(&mut c, 0x08, 30, now);
    rtc_write(&mut c, 0x09, 20, now);
    rtc_write(&mut c, 0x0A, 10, now);
    rtc_write(&mut c, 0x0B, 0xFF, now);
    rtc_write(&mut c, 0x0C, 0x41, now);
    assert_eq!(
        rtc_latch_read(&mut c, now + 100 * SEC),
        [30, 20, 10, 0xFF, 0x41]
    );
    rtc_write(&mut c, 0x0C, 0x01, now + 100 * SEC);
    assert_eq!(
        rtc_latch_read(&mut c, now + 100 * SEC + 86_400 * SEC),
        [30, 20, 10, 0x00, 0x80]
    );
    // Written values are masked to the real bits; unused bits read 0.
    let later = now + 200 * SEC;
    rtc_write(&mut c, 0x0C, 0x40, later);
    for (reg, mask) in [(0x08, 0x3F), (0x09, 0x3F), (0x0A, 0x1F), (0x0B, 0xFF)] {
        rtc_write(&mut c, reg, 0xFF, later);
        c.write_rom(0x6000, 0x00, later);
        c.write_rom(0x6000, 0x01, later);
        assert_eq!(c.read_ram(0xA000, later), mask, "register {reg:02X}");
    }
    rtc_write(&mut c, 0x0C, 0xFF, later);
    assert_eq!(rtc_latch_read(&mut c, later)[4], 0xC1);
    // RAM bank 0 still works next to the clock.
    c.write_rom(0x4000, 0x00, later);
    c.write_ram(0xA000, 0x42, later);
    assert_eq!(c.read_ram(0xA000, later), 0x42);
    assert!(c.rtc().is_some());
}

#[test]
fn mbc3_latch_follows_bit_0() {
    // Power-on: nothing latched, the registers show the running clock.
    let mut c = rtc_cart();
    c.write_rom(0x4000, 0x08, 0);
    assert_eq!(c.read_ram(0xA000, 5 * SEC), 5);
    assert_eq!(c.read_ram(0xA000, 7 * SEC), 7);
    // An odd value after an even one (here power-on) latches: 0x01, 0x03, 0xFF alike.
    for (i, odd) in [0x01u8, 0x03, 0xFF].into_iter().enumerate() {
        let t = (10 + 10 * i as u64) * SEC;
        c.write_rom(0x6000, odd & !1, t - SEC);
        c.write_rom(0x6000, odd, t);
        assert_eq!(
            c.read_ram(0xA000, t + 3 * SEC),
            (t / SEC) as u8,
            "{odd:02X}"
        );
    }
    // Another odd value while latched does nothing: 0x01 → 0x01, 0xFF → 0x03.
    c.write_rom(0x6000, 0x03, 40 * SEC);
    c.write_rom(0x6000, 0x01, 41 * SEC);
    assert_eq!(c.read_ram(0xA000, 42 * SEC), 30);
    // An even value unlatches: the running clock shows again (0x01 → 0x00, 0x04, 0x02…).
    c.write_rom(0x6000, 0x04, 43 * SEC);
    assert_eq!(c.read_ram(0xA000, 44 * SEC), 44);
    // 0x04 → 0x03 latches; 0x02 in between 0x00 and 0x01 does not break the sequence.
    c.write_rom(0x6000, 0x03, 45 * SEC);
    assert_eq!(c.read_ram(0xA000, 50 * SEC), 45);
    c.write_rom(0x6000, 0x00, 51 * SEC);
    c.write_rom(0x6000, 0x02, 52 * SEC);
    c.write_rom(0x6000, 0x01, 53 * SEC);
    assert_eq!(c.read_ram(0xA000, 59 * SEC), 53);
    // The latch works with RAM disabled too, and needs no clock register selected.
    c.write_rom(0x0000, 0x00, 60 * SEC);
    c.write_rom(0x4000, 0x00, 60 * SEC);
    c.write_rom(0x6000, 0x00, 60 * SEC);
    c.write_rom(0x6000, 0x01, 61 * SEC);
    c.write_rom(0x0000, 0x0A, 62 * SEC);
    c.write_rom(0x4000, 0x08, 62 * SEC);
    assert_eq!(c.read_ram(0xA000, 70 * SEC), 1, "61 s = 1 minute 1 second");
}

#[test]
fn mbc3_writes_count_but_the_latched_copy_stays() {
    let mut c = rtc_cart();
    rtc_write(&mut c, 0x0C, 0x40, 0); // halt
    assert_eq!(rtc_latch_read(&mut c, SEC), [0, 0, 0, 0, 0x40]);
    // Latched: a write does not show until the next latch.
    rtc_write(&mut c, 0x08, 42, 2 * SEC);
    assert_eq!(c.read_ram(0xA000, 2 * SEC), 0);
    assert_eq!(rtc_latch_read(&mut c, 3 * SEC), [42, 0, 0, 0, 0x40]);
    // Running (nothing latched): it shows at once.
    c.write_rom(0x6000, 0x00, 4 * SEC);
    rtc_write(&mut c, 0x09, 17, 4 * SEC);
    assert_eq!(rtc_read_all(&mut c, 4 * SEC), [42, 17, 0, 0, 0x40]);
}

#[test]
fn mbc3_rtc_halt_and_day_carry() {
    let mut c = rtc_cart();
    // Halted: nothing counts, however long; writes while halted are kept as written.
    rtc_write(&mut c, 0x0C, 0x40, SEC / 2);
    rtc_write(&mut c, 0x0B, 0xFF, SEC);
    rtc_write(&mut c, 0x0A, 23, SEC);
    rtc_write(&mut c, 0x09, 59, SEC);
    rtc_write(&mut c, 0x08, 59, SEC);
    assert_eq!(rtc_latch_read(&mut c, 1000 * SEC), [59, 59, 23, 0xFF, 0x40]);
    // Resume with day bit 8 set: one second later 512 days wrap to 0 and set the carry.
    rtc_write(&mut c, 0x0C, 0x01, 1000 * SEC);
    assert_eq!(rtc_latch_read(&mut c, 1001 * SEC), [0, 0, 0, 0, 0x80]);
    // The carry stays through more days and a DL write...
    rtc_write(&mut c, 0x0B, 0x10, 1001 * SEC);
    assert_eq!(
        rtc_latch_read(&mut c, 1001 * SEC + 86_400 * SEC),
        [0, 0, 0, 0x11, 0x80]
    );
    // ...until DH is written with bit 7 clear.
    rtc_write(&mut c, 0x0C, 0x00, 1002 * SEC + 86_400 * SEC);
    assert_eq!(rtc_latch_read(&mut c, 1002 * SEC + 86_400 * SEC)[4], 0x00);
    // Day counter bit 8: 255 days 23:59:59 + 1 s = 256 days (DL 0, DH bit 0).
    rtc_write(&mut c, 0x0C, 0x40, 0x1_0000 * SEC);
    rtc_write(&mut c, 0x0B, 0xFF, 0x1_0000 * SEC);
    rtc_write(&mut c, 0x0A, 23, 0x1_0000 * SEC);
    rtc_write(&mut c, 0x09, 59, 0x1_0000 * SEC);
    rtc_write(&mut c, 0x08, 59, 0x1_0000 * SEC);
    rtc_write(&mut c, 0x0C, 0x00, 0x1_0000 * SEC);
    assert_eq!(rtc_latch_read(&mut c, 0x1_0001 * SEC), [0, 0, 0, 0, 0x01]);
}

#[test]
fn mbc3_rtc_seconds_write_restarts_the_second() {
    let mut c = rtc_cart();
    // 0.75 s into a second, write S: the next tick comes a whole second later.
    rtc_write(&mut c, 0x08, 10, 3 * SEC / 4);
    assert_eq!(rtc_read_all(&mut c, 3 * SEC / 4 + SEC - 128)[0], 10);
    assert_eq!(rtc_read_all(&mut c, 3 * SEC / 4 + SEC)[0], 11);
    // Writing M does not: the tick still comes on the old second's boundary.
    let mut c = rtc_cart();
    rtc_write(&mut c, 0x09, 5, 3 * SEC / 4);
    assert_eq!(rtc_read_all(&mut c, SEC)[..2], [1, 5]);
}

#[test]
fn mbc3_register_selects_outside_the_clock() {
    let mut c = rtc_cart();
    c.write_rom(0x4000, 0x01, 0);
    c.write_ram(0xA000, 0x11, 0);
    // 0x0D-0x0F and 0x10 and up select nothing: 0xFF, writes ignored, RAM untouched.
    for sel in [0x0D, 0x0E, 0x0F, 0x10, 0x18, 0x80, 0xFF] {
        c.write_rom(0x4000, sel, 0);
        assert_eq!(c.ram_bank_mapped(), None);
        assert_eq!(c.read_ram(0xA000, 0), 0xFF, "{sel:02X}");
        c.write_ram(0xA000, 0x99, 0);
    }
    assert!(c.ram().iter().all(|&b| b == 0xFF || b == 0x11));
    c.write_rom(0x4000, 0x01, 0);
    assert_eq!(c.read_ram(0xA000, 0), 0x11);
    // Without a clock (MBC3+RAM), 0x08-0x0C select nothing either.
    let mut plain = cart(0x12, 0, 0x03);
    plain.write_rom(0x0000, 0x0A, 0);
    for sel in 0x08..=0x0C {
        plain.write_rom(0x4000, sel, 0);
        assert_eq!(plain.read_ram(0xA000, 0), 0xFF);
        plain.write_ram(0xA000, 0x55, 0);
    }
    assert!(plain.ram().iter().all(|&b| b == 0xFF));
}

#[test]
fn mbc3_ram_enable_gates_the_clock_registers() {
    let mut c = cart(0x10, 0, 0x03);
    c.write_rom(0x4000, 0x08, 0);
    for (ramg, on) in [
        (0x0A, true),
        (0x00, false),
        (0x1A, true),
        (0xFA, true),
        (0x0B, false),
    ] {
        c.write_rom(0x0000, ramg, 0);
        c.write_ram(0xA000, 33, 0);
        c.write_rom(0x6000, 0x00, 0);
        c.write_rom(0x6000, 0x01, 0);
        let read = c.read_ram(0xA000, 0);
        assert_eq!(read != 0xFF, on, "RAMG {ramg:02X}");
        if on {
            assert_eq!(read, 33);
        }
        rtc_write(&mut c, 0x08, 0, 0);
    }
    // Disabled, the clock keeps counting.
    c.write_rom(0x0000, 0x0A, 0);
    rtc_write(&mut c, 0x08, 0, 0);
    c.write_rom(0x0000, 0x00, 0);
    c.write_rom(0x0000, 0x0A, 3 * SEC);
    assert_eq!(rtc_latch_read(&mut c, 3 * SEC)[0], 3);
}

#[test]
fn rtc_advance_for_host() {
    let mut c = cart(0x0F, 0, 0);
    c.write_rom(0x0000, 0x0A, 0);
    c.rtc_advance(3 * 86_400 + 1, 0);
    assert_eq!(rtc_latch_read(&mut c, 0), [1, 0, 0, 3, 0]);
    let mut plain = cart(0x13, 0, 2);
    plain.rtc_advance(5, 0);
    assert!(plain.rtc().is_none());
}

// ---------------------------------------------------------------- MBC5

#[test]
fn mbc5_rom_banks() {
    let mut c = cart(0x19, 8, 0); // 8 MiB, 512 banks
    assert_eq!(bank1(&c), 1);
    c.write_rom(0x2000, 0x00, 0);
    assert_eq!(bank1(&c), 0, "bank 0 is really bank 0");
    c.write_rom(0x2FFF, 0x34, 0);
    c.write_rom(0x3000, 0x01, 0);
    assert_eq!(bank1(&c), 0x134);
    c.write_rom(0x3FFF, 0xFE, 0); // only bit 0 counts
    assert_eq!(bank1(&c), 0x034);
    c.write_rom(0x3000, 0xFF, 0);
    c.write_rom(0x2000, 0xFF, 0);
    assert_eq!(bank1(&c), 0x1FF);
    assert_eq!(bank0(&c), 0);
    // Small ROM wraps.
    let mut c = cart(0x19, 2, 0);
    c.write_rom(0x2000, 0x09, 0);
    c.write_rom(0x3000, 0x01, 0);
    assert_eq!(bank1(&c), 1);
}

/// Mooneye `mbc5/rom_*`: every bank 0-255 with ROMB1 bits 1-7 set.
#[test]
fn mbc5_mooneye_rom_harness() {
    for rom_code in 1..=8u8 {
        let mut c = cart(0x19, rom_code, 0);
        let banks = c.header().rom_banks();
        for bn in 0..256usize {
            c.write_rom(0x2000, bn as u8, 0);
            c.write_rom(0x3000, 0xFE, 0);
            assert_eq!(bank0(&c), 0);
            assert_eq!(bank1(&c), bn % banks);
        }
    }
}

#[test]
fn mbc5_ram_and_rumble() {
    let mut c = cart(0x1B, 0, 0x04); // 128 KiB RAM
    c.write_rom(0x0000, 0x0A, 0);
    for bank in 0..16u8 {
        c.write_rom(0x4000, bank | 0xF0, 0);
        c.write_ram(0xA000, bank, 0);
    }
    for bank in 0..16usize {
        assert_eq!(c.ram()[bank * RAM_BANK_SIZE], bank as u8);
    }
    assert!(!c.rumble());
    let mut c = cart(0x1E, 0, 0x03);
    assert!(c.header().has_rumble());
    c.write_rom(0x0000, 0x0A, 0);
    c.write_rom(0x4000, 0x09, 0);
    assert!(c.rumble());
    c.write_ram(0xA000, 0x55, 0);
    assert_eq!(c.ram()[RAM_BANK_SIZE], 0x55, "bit 3 is not a RAM bank bit");
    c.write_rom(0x4000, 0x01, 0);
    assert!(!c.rumble());
}

// ---------------------------------------------------------------- saves

#[test]
fn load_ram_requires_exact_size() {
    let mut c = cart(0x03, 0, 0x03);
    assert_eq!(
        c.load_ram(&[0; 8192]).unwrap_err().to_string(),
        "save data is 8192 bytes but this cartridge has 32768 bytes of RAM"
    );
    let data: Vec<u8> = (0..32 * KIB).map(|i| i as u8).collect();
    c.load_ram(&data).unwrap();
    assert_eq!(c.ram(), &data[..]);
    c.write_rom(0x0000, 0x0A, 0);
    assert_eq!(c.read_ram(0xA007, 0), 7);
    assert_eq!(c.battery_save(0), data);
    let mut c = cart(0x01, 0, 0);
    assert!(c.load_ram(&[]).is_ok());
    assert!(c.load_battery(&[0; 48], 0).is_err());
}

#[test]
fn battery_round_trip_with_rtc_footer() {
    let mut c = cart(0x10, 0, 0x02);
    c.write_rom(0x0000, 0x0A, 0);
    c.write_ram(0xA100, 0xAB, 0);
    rtc_write(&mut c, 0x0B, 0x10, 0);
    let now = (3600 + 2) * SEC;
    rtc_latch_read(&mut c, 60 * SEC);
    let save = c.battery_save(now);
    assert_eq!(save.len(), 8 * KIB + RTC_FOOTER_LEN);
    let footer = &save[8 * KIB..];
    let words: Vec<u32> = footer[..40]
        .chunks(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect();
    assert_eq!(words, [2, 0, 1, 0x10, 0, 0, 1, 0, 0x10, 0]);
    assert_eq!(u64::from_le_bytes(footer[40..].try_into().unwrap()), 3602);

    // Load into a fresh cartridge at a different emulated time: resumes from the registers.
    let mut d = cart(0x10, 0, 0x02);
    d.load_battery(&save, 0).unwrap();
    assert_eq!(d.ram()[0x100], 0xAB);
    assert_eq!(d.rtc().map(Rtc::latched), Some([0, 1, 0, 0x10, 0]));
    d.write_rom(0x0000, 0x0A, 0);
    d.write_rom(0x4000, 0x08, 0);
    // At power-on nothing is latched: reads show the running clock.
    assert_eq!(d.read_ram(0xA000, 0), 2);
    assert_eq!(rtc_latch_read(&mut d, 10 * SEC), [12, 0, 1, 0x10, 0]);

    // 44-byte variant.
    let mut short = save.clone();
    short.truncate(8 * KIB + RTC_FOOTER_LEN_SHORT);
    let mut e = cart(0x10, 0, 0x02);
    e.load_battery(&short, 0).unwrap();
    assert_eq!(e.rtc().unwrap().registers(), [2, 0, 1, 0x10, 0]);

    // RAM only: the clock is left alone.
    let mut f = cart(0x10, 0, 0x02);
    f.load_battery(&save[..8 * KIB], 0).unwrap();
    assert_eq!(f.rtc().unwrap().registers(), [0; 5]);

    // Wrong sizes.
    assert_eq!(
        f.load_battery(&save[..100], 0).unwrap_err().to_string(),
        "save data is 100 bytes but this cartridge has 8192 bytes of RAM, optionally followed by a 48-byte (or 44-byte) RTC footer"
    );
    assert!(f.load_battery(&[0; 8 * KIB + 47], 0).is_err());
}

#[test]
fn battery_footer_is_sanitized() {
    let mut save = vec![0u8; RTC_FOOTER_LEN];
    for w in save[..40].chunks_mut(4) {
        w.copy_from_slice(&u32::MAX.to_le_bytes());
    }
    let mut c = cart(0x0F, 0, 0);
    c.load_battery(&save, 0).unwrap();
    let rtc = c.rtc().unwrap();
    assert_eq!(rtc.registers(), [0x3F, 0x3F, 0x1F, 0xFF, 0xC1]);
    assert_eq!(rtc.latched(), [0x3F, 0x3F, 0x1F, 0xFF, 0xC1]);
    assert!(rtc.halted() && rtc.day_carry());
}

#[test]
fn battery_save_syncs_a_copy() {
    let c = cart(0x0F, 0, 0);
    let save = c.battery_save(90 * SEC);
    assert_eq!(save.len(), RTC_FOOTER_LEN);
    assert_eq!(save[0], 30);
    assert_eq!(save[4], 1);
    // `c` itself was not changed.
    assert_eq!(c.rtc().unwrap().registers(), [0; 5]);
}

#[test]
fn mbc2_battery_is_512_bytes() {
    let mut c = cart(0x06, 0, 0);
    assert!(c.has_battery());
    assert!(c.load_battery(&[0; 8192], 0).is_err());
    c.load_battery(&[0x0F; 512], 0).unwrap();
    c.write_rom(0x0000, 0x0A, 0);
    assert_eq!(c.read_ram(0xA1FF, 0), 0xFF);
    assert_eq!(c.battery_save(0).len(), 512);
}

#[test]
fn debug_output_is_short() {
    let c = cart(0x1B, 8, 0x04);
    let text = format!("{c:?}");
    assert!(text.len() < 600, "{text}");
    assert!(text.contains("MBC5+RAM+BATTERY"));
}

// ---------------------------------------------------------------- save states

/// An MBC3+TIMER+RAM+BATTERY cartridge with 32 KiB of RAM, its registers moved off
/// power-on, a RAM byte and a clock register written.
fn busy_mbc3() -> Cartridge {
    let mut c = cart(0x10, 2, 0x03);
    c.write_rom(0x0000, 0x0A, 0);
    c.write_rom(0x2000, 0x05, 0);
    c.write_rom(0x4000, 0x02, 0);
    c.write_ram(0xA000, 0x77, 0);
    rtc_write(&mut c, 0x09, 12, 5 * SEC + 1234);
    c.write_rom(0x4000, 0x02, 0);
    c
}

#[test]
fn state_round_trip() {
    for layout in [StateLayout::Fixed, StateLayout::Sections] {
        let c = busy_mbc3();
        let mut state = Vec::new();
        c.write_state_as(&mut state, layout);
        assert_eq!(state.len(), c.state_len_as(layout), "{layout:?}");

        let mut d = cart(0x10, 2, 0x03);
        d.read_state_as(&state, layout).unwrap();
        assert_eq!(d.read_ram(0xA000, 0), 0x77);
        assert_eq!(bank1(&d), 5);
        assert_eq!(d.rtc(), c.rtc());
        let mut again = Vec::new();
        d.write_state_as(&mut again, layout);
        assert_eq!(again, state, "{layout:?}");

        // Mismatches are refused and change nothing.
        assert!(d.read_state_as(&state[1..], layout).is_err());
        let mut smaller_ram = cart(0x10, 2, 0x02);
        let wrong_length = match layout {
            StateLayout::Fixed => "save state does not fit this cartridge: wrong length",
            StateLayout::Sections => {
                "save state does not fit this cartridge: its RAM part is 32768 bytes, this cartridge's is 8192"
            }
        };
        assert_eq!(
            smaller_ram
                .read_state_as(&state, layout)
                .unwrap_err()
                .to_string(),
            wrong_length
        );
        let mut mbc5 = cart(0x1B, 2, 0x03);
        assert_eq!(
            mbc5.read_state_as(&state, layout).unwrap_err().to_string(),
            "save state does not fit this cartridge: different mapper"
        );
        let mut bad_id = state.clone();
        bad_id[0] = 1;
        assert!(d.read_state_as(&bad_id, layout).is_err());
        assert_eq!(bank1(&d), 5);
    }
    // The current layout is one of them.
    let c = busy_mbc3();
    let mut state = Vec::new();
    c.write_state(&mut state);
    let mut expected = Vec::new();
    c.write_state_as(&mut expected, StateLayout::CURRENT);
    assert_eq!(state, expected);
    assert_eq!(state.len(), c.state_len());
}

/// The layout images before [`crate::state::MAPPER_SECTIONS_VERSION`] hold, built byte by byte
/// as that version's `write_state` wrote it: id, `[RAMG, ROMB, RAMB, latch]`, the clock, the RAM.
#[test]
fn a_fixed_layout_state_built_by_hand_loads() {
    let c = busy_mbc3();
    let mut image = vec![3, 1, 0x05, 0x02, 0x00];
    image.extend_from_slice(&c.rtc().unwrap().to_state());
    image.extend_from_slice(c.ram());
    let mut d = cart(0x10, 2, 0x03);
    d.read_state_as(&image, StateLayout::Fixed).unwrap();
    assert_eq!(d.read_ram(0xA000, 0), 0x77);
    assert_eq!(bank1(&d), 5);
    assert_eq!(d.ram_bank_mapped(), Some(2));
    assert_eq!(d.rtc(), c.rtc());
    let mut written = Vec::new();
    c.write_state_as(&mut written, StateLayout::Fixed);
    assert_eq!(written, image);
    // Loaded from either layout, the cartridge is the same.
    let mut sections = Vec::new();
    c.write_state_as(&mut sections, StateLayout::Sections);
    let mut e = cart(0x10, 2, 0x03);
    e.read_state_as(&sections, StateLayout::Sections).unwrap();
    let (mut from_fixed, mut from_sections) = (Vec::new(), Vec::new());
    d.write_state_as(&mut from_fixed, StateLayout::Sections);
    e.write_state_as(&mut from_sections, StateLayout::Sections);
    assert_eq!(from_fixed, from_sections);
}

/// The sections layout: the mapper id, then each sized part (u32 LE length, bytes), and
/// every mapper's section its own size.
#[test]
fn each_mapper_writes_a_section_of_its_own_size() {
    let cases = [
        (0x00, 0, 0, 0),
        (0x03, 0x1, 0x02, 4),
        (0x06, 0x1, 0, 2),
        (0x13, 0x1, 0x03, 4),
        (0x10, 0x1, 0x03, 4 + rtc::RTC_STATE_LEN),
        (0x0F, 0x1, 0, 4 + rtc::RTC_STATE_LEN),
        (0x1E, 0x1, 0x03, 4),
    ];
    for (ty, rom_code, ram_code, mapper_len) in cases {
        let c = cart(ty, rom_code, ram_code);
        let mut state = Vec::new();
        c.write_state_as(&mut state, StateLayout::Sections);
        let ram_len = c.ram().len();
        assert_eq!(state[0], c.mapper.id(), "type {ty:#04X}");
        let len_at = |at: usize| u32::from_le_bytes(state[at..at + 4].try_into().unwrap());
        assert_eq!(len_at(1) as usize, mapper_len, "type {ty:#04X}");
        assert_eq!(len_at(5 + mapper_len) as usize, ram_len, "type {ty:#04X}");
        assert_eq!(state.len(), 1 + 4 + mapper_len + 4 + ram_len);
        assert_eq!(state.len(), c.state_len_as(StateLayout::Sections));
        let mut d = cart(ty, rom_code, ram_code);
        d.read_state_as(&state, StateLayout::Sections).unwrap();
    }
}

#[test]
fn a_bad_sections_state_is_a_clear_error_and_changes_nothing() {
    let c = busy_mbc3();
    let mut state = Vec::new();
    c.write_state_as(&mut state, StateLayout::Sections);
    let mapper_len = 4 + rtc::RTC_STATE_LEN;
    let load = |bytes: &[u8]| {
        let mut d = cart(0x10, 2, 0x03);
        let mut before = Vec::new();
        d.write_state_as(&mut before, StateLayout::Sections);
        let err = d
            .read_state_as(bytes, StateLayout::Sections)
            .unwrap_err()
            .to_string();
        let mut after = Vec::new();
        d.write_state_as(&mut after, StateLayout::Sections);
        assert_eq!(before, after, "{err}");
        err
    };
    // The mapper's section one byte short (the clock cut), the RAM's length kept.
    let mut short = state.clone();
    short[1..5].copy_from_slice(&((mapper_len - 1) as u32).to_le_bytes());
    short.remove(5 + mapper_len - 1);
    assert_eq!(
        load(&short),
        "save state does not fit this cartridge: its MBC3 part is 27 bytes, this cartridge's is 28"
    );
    // A length past the end.
    let mut huge = state.clone();
    huge[1..5].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(
        load(&huge),
        "save state does not fit this cartridge: the cartridge part ends early"
    );
    // Bytes after the RAM.
    let mut long = state.clone();
    long.push(0);
    assert_eq!(
        load(&long),
        "save state does not fit this cartridge: bytes left over after the RAM"
    );
    assert_eq!(
        load(&[]),
        "save state does not fit this cartridge: the cartridge part ends early"
    );
}

// ---------------------------------------------------------------- never panic

/// xorshift64*: deterministic pseudo-random numbers without dependencies.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn byte(&mut self) -> u8 {
        self.next() as u8
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_images_and_accesses_never_panic() {
    const TYPES: [u8; 20] = [
        0x00, 0x01, 0x02, 0x03, 0x05, 0x06, 0x08, 0x09, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x19, 0x1A,
        0x1B, 0x1C, 0x1D, 0x1E, 0x22,
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut loaded = 0;
    for round in 0..3000 {
        let rom_code = rng.below(4) as u8;
        let mut rom = make_rom(TYPES[rng.below(TYPES.len())], rom_code, rng.below(6) as u8);
        // Mutate a few header bytes, sometimes the length.
        for _ in 0..rng.below(4) {
            let i = 0x100 + rng.below(0x50);
            rom[i] = rng.byte();
        }
        match rng.below(20) {
            0 => rom.truncate(rng.below(0x200)),
            1 => rom.truncate(rng.below(rom.len())),
            2 => rom.extend(std::iter::repeat_n(0xFF, rng.below(0x8000))),
            _ => {}
        }
        let Ok(mut c) = Cartridge::from_rom(rom) else {
            continue;
        };
        loaded += 1;
        let mut now = 0u64;
        for _ in 0..200 {
            now += rng.next() % (SEC * 3);
            let addr = rng.next() as u16;
            let value = rng.byte();
            match rng.below(5) {
                0 => c.write_rom(addr, value, now),
                1 => c.write_ram(addr, value, now),
                2 => {
                    let _ = c.read_rom(addr);
                }
                3 => {
                    let _ = c.read_ram(addr, now);
                }
                _ => {
                    let len = rng.below(c.ram().len() + 64);
                    let data: Vec<u8> = (0..len).map(|_| rng.byte()).collect();
                    let _ = c.load_battery(&data, now);
                    let _ = c.load_ram(&data);
                    let _ = c.read_state_as(&data, StateLayout::Fixed);
                    let _ = c.read_state_as(&data, StateLayout::Sections);
                }
            }
        }
        // Every ROM address reads something in every mapping reached.
        for addr in (0..=0x7FFFu16).step_by(0x3FF) {
            let _ = c.read_rom(addr);
        }
        let save = c.battery_save(now);
        c.load_battery(&save, now).unwrap();
        for layout in [StateLayout::Fixed, StateLayout::Sections] {
            let mut state = Vec::new();
            c.write_state_as(&mut state, layout);
            c.read_state_as(&state, layout).unwrap();
        }
        // Huge or backwards time.
        c.write_rom(0x6000, 0, u64::MAX);
        c.write_rom(0x6000, 1, u64::MAX);
        c.write_ram(0xA000, round as u8, 0);
        let _ = c.battery_save(u64::MAX);
    }
    assert!(loaded > 500, "only {loaded} random images loaded");
}

#[test]
fn random_rtc_states_never_panic() {
    let mut rng = Rng(42);
    for _ in 0..2000 {
        let mut footer = vec![0u8; RTC_FOOTER_LEN];
        for b in &mut footer {
            *b = rng.byte();
        }
        let mut c = cart(0x0F, 0, 0);
        c.load_battery(&footer, rng.next()).unwrap();
        c.write_rom(0x0000, 0x0A, 0);
        let mut state = Vec::new();
        c.write_state_as(&mut state, StateLayout::Fixed);
        for b in state.iter_mut().skip(1) {
            *b = rng.byte();
        }
        let _ = c.read_state_as(&state, StateLayout::Fixed);
        // The sections layout with the lengths kept and the mapper's bytes random.
        let mut state = Vec::new();
        c.write_state_as(&mut state, StateLayout::Sections);
        for b in state.iter_mut().skip(5).take(4 + rtc::RTC_STATE_LEN) {
            *b = rng.byte();
        }
        let _ = c.read_state_as(&state, StateLayout::Sections);
        let now = rng.next() >> rng.below(64);
        c.rtc_advance(rng.next() >> rng.below(64), now);
        let _ = rtc_latch_read(&mut c, now.saturating_add(rng.next() >> 20));
    }
}
