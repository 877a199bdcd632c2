//! Whole machines' images in each layout the loader reads (a file of its own: it names `gb`,
//! which names `state`).

use super::*;
use crate::asm::RomBuilder;
use crate::{Cartridge, Gb};

/// A machine on an MBC3+TIMER+RAM+BATTERY cartridge (32 KiB of RAM) that has run a few
/// frames with its registers, RAM and clock moved off power-on.
fn busy_mbc3() -> Gb {
    let rom = RomBuilder::new()
        .cartridge_type(0x10)
        .ram_size_code(3)
        .program("loop: jr loop")
        .build()
        .expect("ROM");
    let mut gb = Gb::new(Cartridge::from_rom(rom).expect("cartridge"));
    for _ in 0..3 {
        gb.run_frame();
    }
    let now = 1_000_000;
    let cart = gb.cartridge_mut();
    cart.write_rom(0x0000, 0x0A, now);
    cart.write_rom(0x2000, 0x03, now);
    cart.write_rom(0x4000, 0x09, now);
    cart.write_ram(0xA000, 42, now);
    cart.write_rom(0x6000, 0x00, now);
    cart.write_rom(0x6000, 0x01, now);
    cart.write_rom(0x4000, 0x02, now);
    cart.write_ram(0xA123, 0x5A, now);
    gb.run_frame();
    gb
}

fn image(gb: &Gb, version: u16) -> Vec<u8> {
    let mut out = Vec::new();
    gb.write_image(&mut out, version);
    out
}

/// A fresh machine on `gb`'s ROM.
fn fresh(gb: &Gb) -> Gb {
    Gb::new(Cartridge::from_rom(gb.cartridge().rom().clone()).expect("cartridge"))
}

#[test]
fn an_image_of_the_oldest_version_loads() {
    let gb = busy_mbc3();
    let old = image(&gb, OLDEST_VERSION);
    assert_eq!(old[4..6], OLDEST_VERSION.to_le_bytes());
    // Its cartridge part is the fixed layout: id, 4 registers, the clock, the RAM.
    let cart = gb.cartridge();
    let mut tail = vec![3, 1, 0x03, 0x02, 0x01];
    tail.extend_from_slice(&cart.rtc().expect("clock").to_state());
    tail.extend_from_slice(cart.ram());
    assert!(old.ends_with(&tail));

    let mut loaded = fresh(&gb);
    loaded.load_state(&old).expect("an old image loads");
    assert_eq!(image(&loaded, VERSION), image(&gb, VERSION));
    assert_eq!(loaded.cartridge().ram()[0x4123], 0x5A);
}

#[test]
fn an_image_with_mapper_sections_round_trips() {
    let gb = busy_mbc3();
    let newest = VERSION.max(MAPPER_SECTIONS_VERSION);
    let sections = image(&gb, MAPPER_SECTIONS_VERSION);
    let fixed = image(&gb, OLDEST_VERSION);
    // The same machine, the cartridge part 8 bytes longer (two section lengths), the APU
    // part 8 (the noise channel's last clock, from the same version on).
    assert_eq!(MAPPER_SECTIONS_VERSION, crate::state::NOISE_LAST_VERSION);
    assert_eq!(sections.len(), fixed.len() + 8 + 8);
    let mut loaded = fresh(&gb);
    loaded
        .read_image(&sections, newest)
        .expect("a sections image loads");
    assert_eq!(image(&loaded, MAPPER_SECTIONS_VERSION), sections);
    assert_eq!(image(&loaded, OLDEST_VERSION), fixed);
}

#[test]
fn a_bad_mapper_section_is_an_error_and_changes_nothing() {
    let gb = busy_mbc3();
    let newest = VERSION.max(MAPPER_SECTIONS_VERSION);
    let good = image(&gb, MAPPER_SECTIONS_VERSION);
    let ram_len = gb.cartridge().ram().len();
    // The mapper section's length field: before the mapper's 28 bytes, the RAM's length
    // and the RAM.
    let at = good.len() - ram_len - 4 - 28 - 4;
    assert_eq!(good[at..at + 4], 28u32.to_le_bytes());
    let target = fresh(&gb);
    for len in [0u32, 4, 27, 29, u32::MAX] {
        let mut bad = good.clone();
        bad[at..at + 4].copy_from_slice(&len.to_le_bytes());
        let mut t = target.clone();
        let err = t.read_image(&bad, newest).expect_err("refused");
        assert!(matches!(err, StateError::Cartridge(_)), "{err}");
        assert_eq!(image(&t, VERSION), image(&target, VERSION));
    }
    // The sections layout read as the fixed one, and a version from the future.
    let mut as_old = good.clone();
    as_old[4..6].copy_from_slice(&OLDEST_VERSION.to_le_bytes());
    assert!(fresh(&gb).load_state(&as_old).is_err());
    let mut future = good;
    future[4..6].copy_from_slice(&(newest + 1).to_le_bytes());
    assert_eq!(
        fresh(&gb).read_image(&future, newest),
        Err(StateError::Version(newest + 1))
    );
}
