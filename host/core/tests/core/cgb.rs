//! The CGB model on ROMs built in code: power-on state in both modes, the banked memories
//! (SVBK, VBK) and their flat domains, banked peeks, the CGB-only registers and what DMG
//! compatibility mode hides, the CGB boot ROM's overlay and KEY0, state images per model.

use gb_core::asm::RomBuilder;
use gb_core::watch::Access;
use gb_core::{
    Boot, Cartridge, CgbRevision, DmgPalette, Domain, Gb, GbError, Model, RamInit, StateError,
};

/// A cartridge with `src` and the CGB flag `flag` ($80: CGB mode on a CGB, $00: DMG
/// compatibility mode).
fn cart(flag: u8, src: &str) -> Cartridge {
    let rom = RomBuilder::new()
        .title("CGB TEST")
        .cgb_flag(flag)
        .program(src)
        .build()
        .expect("assemble");
    Cartridge::from_rom(rom).expect("cartridge")
}

fn cgb(flag: u8, src: &str) -> Gb {
    let boot = Boot {
        model: Model::Cgb,
        ram_init: RamInit::Zero,
        ..Boot::default()
    };
    Gb::power_on(cart(flag, src), boot).expect("power on")
}

/// [`cgb`] on a CGB of `revision`.
fn cgb_revision(flag: u8, src: &str, revision: CgbRevision) -> Gb {
    let boot = Boot {
        model: Model::Cgb,
        ram_init: RamInit::Zero,
        cgb_revision: revision,
        ..Boot::default()
    };
    Gb::power_on(cart(flag, src), boot).expect("power on")
}

fn run(gb: &mut Gb) {
    assert!(gb.run_until_ld_b_b(2_000_000), "the program reached LD B,B");
}

#[test]
fn post_boot_registers_in_both_modes() {
    let gb = cgb(0x80, "ld b, b");
    assert_eq!(gb.model(), Model::Cgb);
    assert!(gb.cgb_mode());
    let r = gb.regs();
    assert_eq!(
        [r.a, r.f, r.b, r.c, r.d, r.e, r.h, r.l],
        [0x11, 0x80, 0x00, 0x00, 0xFF, 0x56, 0x00, 0x0D]
    );
    assert_eq!((r.sp, r.pc), (0xFFFE, 0x0100));
    assert_eq!(gb.peek(0xFF4D), 0x7E, "KEY1: normal speed, nothing armed");
    assert_eq!(gb.peek(0xFF4F), 0xFE, "VBK: bank 0");
    assert_eq!(gb.peek(0xFF70), 0xF8, "SVBK: 0 (bank 1)");
    assert_eq!(gb.peek(0xFF56), 0x3E, "RP: no light");

    // A DMG game runs in compatibility mode (Mooneye misc/boot_regs-cgb, boot_hwio-C).
    let gb = cgb(0x00, "ld b, b");
    assert!(!gb.cgb_mode());
    let r = gb.regs();
    assert_eq!(
        [r.a, r.f, r.b, r.c, r.d, r.e, r.h, r.l],
        [0x11, 0x80, 0x00, 0x00, 0x00, 0x08, 0x00, 0x7C]
    );
    for (addr, v) in [
        (0xFF00, 0xFF),
        (0xFF02, 0x7E),
        (0xFF4C, 0xFF),
        (0xFF4D, 0xFF),
        (0xFF4F, 0xFE),
        (0xFF68, 0xC8),
        (0xFF69, 0xFF),
        (0xFF6A, 0xD0),
        (0xFF6B, 0xFF),
        (0xFF6C, 0xFF),
        (0xFF70, 0xFF),
        (0xFF72, 0x00),
        (0xFF74, 0xFF),
        (0xFF75, 0x8F),
        (0xFF76, 0x00),
        (0xFF77, 0x00),
    ] {
        assert_eq!(gb.peek(addr), v, "${addr:04X} in DMG compatibility mode");
    }
}

#[test]
fn a_cgb_boot_rom_of_the_wrong_size_is_refused() {
    let boot = Boot {
        model: Model::Cgb,
        boot_rom: Some(&[0; 0x100]),
        ..Boot::default()
    };
    let err = Gb::power_on(cart(0x80, "ld b, b"), boot).expect_err("a DMG-sized image");
    assert!(matches!(err, GbError::CgbBootRomSize(0x100)), "{err}");
    let boot = Boot {
        model: Model::Cgb,
        dmg_palette: DmgPalette::Combo(13),
        ..Boot::default()
    };
    assert!(Gb::power_on(cart(0, "ld b, b"), boot).is_err());
}

#[test]
fn svbk_maps_seven_banks_at_d000_and_the_domain_holds_all_eight() {
    // Write the bank number at $D000 of banks 0-7 (0 maps bank 1), and $C000.
    let mut gb = cgb(
        0x80,
        r#"
            ld a, $C0
            ld [$C000], a
            ld b, 0
        loop:
            ld a, b
            ldh [$70], a
            add a, $10
            ld [$D000], a
            ld a, [$F000]      ; echo RAM reaches the bank too
            ld [$D001], a
            inc b
            ld a, b
            cp 8
            jr nz, loop
            ld a, 3
            ldh [$70], a
            ld b, b
        "#,
    );
    run(&mut gb);
    let wram = gb.domain(Domain::Wram);
    assert_eq!(wram.len(), 0x8000);
    assert_eq!(wram[0], 0xC0);
    // Bank 1 got 0x10 then 0x11 (SVBK 0 and 1), banks 2-7 got 0x12-0x17.
    assert_eq!(wram[0x1000], 0x11);
    for bank in 2..8usize {
        assert_eq!(wram[bank * 0x1000], 0x10 + bank as u8, "bank {bank}");
        assert_eq!(
            wram[bank * 0x1000 + 1],
            0x10 + bank as u8,
            "echo of bank {bank}"
        );
    }
    assert_eq!(gb.peek(0xD000), 0x13, "bank 3 is mapped");
    assert_eq!(gb.bank_of(0xD000), Some(3));
    assert_eq!(gb.bank_of(0xC000), None);
    assert_eq!(gb.peek_bank(5, 0xD000), 0x15);
    assert_eq!(gb.peek_bank(8, 0xD000), 0xFF, "past the last bank");
    assert_eq!(gb.peek_bank(5, 0xC000), 0xC0, "bank 0 is not banked");
}

#[test]
fn vbk_banks_vram_and_compatibility_mode_locks_both_banks() {
    let src = r#"
            xor a
            ldh [$40], a       ; LCD off: VRAM is free
            ld a, $AA
            ld [$8000], a
            ld a, 1
            ldh [$4F], a
            ld a, $BB
            ld [$8000], a
            ld a, 2
            ldh [$70], a
            ld a, $CC
            ld [$D000], a
            ld b, b
        "#;
    let mut gb = cgb(0x80, src);
    run(&mut gb);
    let vram = gb.domain(Domain::Vram);
    assert_eq!(vram.len(), 0x4000);
    assert_eq!((vram[0], vram[0x2000]), (0xAA, 0xBB));
    assert_eq!(gb.peek(0xFF4F), 0xFF);
    assert_eq!(
        (gb.peek_bank(0, 0x8000), gb.peek_bank(1, 0x8000)),
        (0xAA, 0xBB)
    );
    assert_eq!(gb.domain(Domain::Wram)[0x2000], 0xCC);

    // The same program in DMG compatibility mode: VBK and SVBK take no writes.
    let mut gb = cgb(0x00, src);
    run(&mut gb);
    assert_eq!(gb.domain(Domain::Vram)[0], 0xBB);
    assert_eq!(gb.domain(Domain::Vram)[0x2000], 0x00);
    assert_eq!(gb.domain(Domain::Wram)[0x1000], 0xCC, "bank 1 stays mapped");
    assert_eq!(gb.bank_of(0xD000), Some(1));
}

#[test]
fn undocumented_registers_and_the_infrared_port() {
    let mut gb = cgb(
        0x80,
        r#"
            ld a, $FF
            ldh [$72], a
            ldh [$74], a
            ldh [$75], a
            ld a, $C1
            ldh [$56], a
            ld b, b
        "#,
    );
    run(&mut gb);
    assert_eq!(gb.peek(0xFF72), 0xFF);
    assert_eq!(gb.peek(0xFF74), 0xFF);
    assert_eq!(gb.peek(0xFF75), 0xFF);
    assert_eq!(
        gb.peek(0xFF56),
        0xFF,
        "read enabled, LED on, bit 1: no light received"
    );
}

#[test]
fn the_dmg_has_none_of_it() {
    let mut gb = Gb::new(cart(0x80, "ld b, b"));
    for addr in [
        0xFF4D, 0xFF4F, 0xFF56, 0xFF68, 0xFF70, 0xFF72, 0xFF75, 0xFF76,
    ] {
        assert_eq!(gb.peek(addr), 0xFF, "${addr:04X}");
    }
    assert_eq!(gb.domain(Domain::Wram).len(), 0x2000);
    assert_eq!(gb.domain(Domain::Vram).len(), 0x2000);
    assert_eq!(gb.bank_of(0xD000), None);
    assert_eq!(gb.bank_of(0x4000), Some(1));
    run(&mut gb);
}

/// A CGB boot ROM image: writes KEY0 = `key0`, marks WRAM, checks that $0100 shows the
/// cartridge and $0200 the boot ROM, and unmaps itself at $00FE.
fn cgb_boot_rom(key0: u8) -> Vec<u8> {
    let src = format!(
        r#"
            ld sp, $FFFE
            ld a, [$0100]       ; the cartridge's entry: nop
            ld [$C000], a
            ld a, [$0200]       ; the boot ROM's own byte
            ld [$C001], a
            ld a, {key0}
            ldh [$4C], a
            ld a, $11
            jp $00FE
            org $00FE
            ldh [$50], a
            org $0200
            db $5A
        "#
    );
    let mut image = gb_core::asm::assemble(&src, 0).expect("assemble boot ROM");
    image.resize(0x900, 0x00);
    image
}

#[test]
fn a_cgb_boot_rom_runs_around_the_header_and_key0_picks_the_mode() {
    for (key0, cgb_mode) in [(0x80, true), (0x04, false)] {
        let image = cgb_boot_rom(key0);
        let boot = Boot {
            model: Model::Cgb,
            boot_rom: Some(&image),
            ram_init: RamInit::Zero,
            ..Boot::default()
        };
        let mut gb = Gb::power_on(cart(0x80, "ld b, b"), boot).expect("power on");
        assert_eq!(gb.regs().pc, 0);
        run(&mut gb);
        assert_eq!(gb.peek(0xC000), 0x00, "$0100 is the cartridge's");
        assert_eq!(gb.peek(0xC001), 0x5A, "$0200 is the boot ROM's");
        assert_eq!(gb.cgb_mode(), cgb_mode, "KEY0 {key0:02X}");
        assert_eq!(gb.regs().a, 0x11);
    }
}

#[test]
fn state_images_carry_the_model() {
    let mut gb = cgb(
        0x80,
        r#"
            ld a, 5
            ldh [$70], a
            ld a, $5E
            ld [$D123], a
            ld b, b
        "#,
    );
    run(&mut gb);
    let mut image = Vec::new();
    gb.save_state(&mut image);
    let mut other = cgb(0x80, "ld b, b");
    other.load_state(&image).expect("same model");
    assert_eq!(other.peek(0xD123), 0x5E);
    assert_eq!(other.bank_of(0xD000), Some(5));

    let mut dmg = Gb::new(cart(0x80, "ld b, b"));
    let err = dmg.load_state(&image).expect_err("a CGB image on a DMG");
    assert_eq!(
        err,
        StateError::Model {
            saved: Model::Cgb,
            running: Model::Dmg
        }
    );
    let mut dmg_image = Vec::new();
    dmg.save_state(&mut dmg_image);
    assert!(matches!(
        other.load_state(&dmg_image),
        Err(StateError::Model { .. })
    ));
}

/// Each address of 0xFEA0-0xFEFF written with its low byte (LCD off), in increasing order,
/// then read back into 0xC000-0xC05F.
const EXTRA_OAM: &str = r#"
    xor a
    ldh [$40], a
    ld hl, $FEA0
fill:
    ld a, l
    ld [hl+], a
    ld a, l
    and a
    jr nz, fill
    ld hl, $FEA0
    ld de, $C000
copy:
    ld a, [hl+]
    ld [de], a
    inc de
    ld a, l
    and a
    jr nz, copy
    ld b, b
"#;

#[test]
fn the_ram_at_fea0_is_masked_as_each_revision_masks_it() {
    // What each address reads: the last address written among those that reach its byte.
    let c = |a: u8| (a & 0xE7) | 0x18; // address bits 3 and 4 ignored
    let d = |a: u8| if a >= 0xC0 { a | 0xF0 } else { a }; // 0xFEC0-0xFEFF on 0xFEF0-0xFEFF
    for (revision, reads) in [
        (CgbRevision::C, &c as &dyn Fn(u8) -> u8),
        (CgbRevision::D, &d),
    ] {
        let mut gb = cgb_revision(0x80, EXTRA_OAM, revision);
        assert_eq!(gb.cgb_revision(), revision);
        run(&mut gb);
        for a in 0xA0..=0xFFu8 {
            let got = gb.peek(0xC000 + u16::from(a - 0xA0));
            assert_eq!(got, reads(a), "{revision}: 0xFE{a:02X}");
        }
    }
}

#[test]
fn state_images_and_bess_files_carry_the_revision() {
    let c = cgb(0x80, "ld b, b");
    assert_eq!(c.cgb_revision(), CgbRevision::C, "the default");
    let mut d = cgb_revision(0x80, "ld b, b", CgbRevision::D);
    let mut image = Vec::new();
    c.save_state(&mut image);
    assert_eq!(
        d.load_state(&image),
        Err(StateError::Revision {
            saved: CgbRevision::C,
            running: CgbRevision::D
        })
    );
    let file = gb_core::bess::export(&d);
    assert!(file.windows(4).any(|w| w == b"CCD "), "BESS model CCD");
    gb_core::bess::import(&mut d, &file).expect("own file");
    assert_eq!(d.cgb_revision(), CgbRevision::D);
    // A CGB file of another revision is a CGB file: it loads, the machine keeps its revision.
    let mut c = c;
    gb_core::bess::import(&mut c, &file).expect("a CGB D file on a CGB C");
    assert_eq!(c.cgb_revision(), CgbRevision::C);
}

#[test]
fn watchpoint_hits_carry_the_bank() {
    let mut gb = cgb(
        0x80,
        r#"
            ld a, 6
            ldh [$70], a
            ld a, $77
            ld [$D010], a
            ld b, b
        "#,
    );
    gb.add_watch(Access::Write, 0xD010, 1);
    assert!(!gb.run_frame_watched(), "stopped at the write");
    let mut hits = Vec::new();
    gb.watch().take_hits(&mut hits);
    assert_eq!(hits.len(), 1);
    assert_eq!(
        (hits[0].addr, hits[0].value, hits[0].bank),
        (0xD010, 0x77, Some(6))
    );
}

/// A DMG game (flag $00) titled `title`, licensed by Nintendo when `nintendo`, that sets BGP
/// to shade 1 everywhere and loops.
fn dmg_game(title: &str, nintendo: bool) -> Cartridge {
    let rom = RomBuilder::new()
        .title(title)
        .licensee(if nintendo { 0x01 } else { 0x33 })
        .program("ld a, $55\n ldh [$47], a\n loop:\n jr loop")
        .build()
        .expect("assemble");
    Cartridge::from_rom(rom).expect("cartridge")
}

/// The colour of the screen's top-left pixel after two frames of `cart` on a CGB with
/// `palette`.
fn first_pixel(cart: Cartridge, palette: DmgPalette) -> u16 {
    let boot = Boot {
        model: Model::Cgb,
        dmg_palette: palette,
        ..Boot::default()
    };
    let mut gb = Gb::power_on(cart, boot).expect("power on");
    gb.run_frame();
    gb.run_frame();
    assert!(gb.framebuffer().is_color(), "the CGB draws colours");
    gb.framebuffer().pixels()[0]
}

#[test]
fn a_dmg_game_gets_the_boot_roms_compatibility_palette() {
    // BGP's shade 1 is colour 1 of background palette 0, which the boot ROM chose.
    // TETRIS (Nintendo, checksum $DB): palette 24 everywhere.
    assert_eq!(
        first_pixel(dmg_game("TETRIS", true), DmgPalette::Auto),
        0x03FF
    );
    // The same title from another licensee: the default (background palette 29).
    assert_eq!(
        first_pixel(dmg_game("TETRIS", false), DmgPalette::Auto),
        0x1BEF
    );
    // Up held during the logo (combination 3): palette 0.
    assert_eq!(
        first_pixel(dmg_game("TETRIS", true), DmgPalette::Combo(3)),
        0x32BF
    );
    // Down+B (combination 12): background palette 6.
    assert_eq!(
        first_pixel(dmg_game("TETRIS", false), DmgPalette::Combo(12)),
        0x03FF
    );
    // B holds the title checksum for Nintendo games (Pan Docs).
    let boot = Boot {
        model: Model::Cgb,
        ..Boot::default()
    };
    let gb = Gb::power_on(dmg_game("TETRIS", true), boot).expect("power on");
    assert_eq!(gb.regs().b, 0xDB);
    // On the DMG the shades stay shades.
    let mut dmg = Gb::new(dmg_game("TETRIS", true));
    dmg.run_frame();
    dmg.run_frame();
    assert!(!dmg.framebuffer().is_color());
    assert_eq!(dmg.framebuffer().pixels()[0], 1);
}

/// A shared ROM, or `None` (said loudly; a failure under `CI=true`) when it is missing.
fn shared(name: &str) -> Option<Cartridge> {
    let path = gb_testkit::rom_root().join(name);
    match std::fs::read(&path) {
        Ok(rom) => Some(Cartridge::from_rom(rom).expect("cartridge")),
        Err(_) => {
            assert!(
                !gb_testkit::ci(),
                "CI=true but {} is missing",
                path.display()
            );
            eprintln!("*** SKIPPED: {} not found ***", path.display());
            None
        }
    }
}

#[test]
fn tobu_tobu_girl_on_the_cgb_shows_its_compatibility_palette() {
    let Some(cart) = shared("homebrew/tobutobugirl/tobutobugirl.gb") else {
        return;
    };
    let boot = Boot {
        model: Model::Cgb,
        ..Boot::default()
    };
    let mut gb = Gb::power_on(cart, boot).expect("power on");
    assert!(!gb.cgb_mode(), "a DMG game runs in compatibility mode");
    for _ in 0..400 {
        gb.run_frame();
    }
    // Licensed by Nintendo, title checksum $3A: not in the boot ROM's table, so palette ID 0
    // (background palette 29: white, green, blue, black; objects palette 4).
    let bg = [0x7FFF, 0x1BEF, 0x6180, 0x0000];
    let obj = [0x7FFF, 0x421F, 0x1CF2, 0x0000];
    let mut seen = std::collections::BTreeSet::new();
    for &p in gb.framebuffer().pixels() {
        assert!(bg.contains(&p) || obj.contains(&p), "colour {p:04X}");
        seen.insert(p);
    }
    assert!(
        seen.len() >= 3,
        "the title screen uses the palette: {seen:04X?}"
    );
}

#[test]
fn ucity_shows_its_title_in_colour() {
    let Some(cart) = shared("homebrew/ucity/ucity.gbc") else {
        return;
    };
    let boot = Boot {
        model: Model::Cgb,
        ..Boot::default()
    };
    let mut gb = Gb::power_on(cart, boot).expect("power on");
    for _ in 0..600 {
        gb.run_frame();
    }
    assert!(gb.cgb_mode() && gb.double_speed());
    let colours: std::collections::BTreeSet<u16> =
        gb.framebuffer().pixels().iter().copied().collect();
    assert!(
        colours.len() >= 6,
        "the title screen's colours: {colours:04X?}"
    );
}

#[test]
fn hblank_dma_gets_a_block_when_the_lcd_goes_off_and_a_stop_sets_the_length() {
    // An HBlank DMA of 4 blocks started in VBlank copies nothing until the LCD is switched
    // off there (the PPU drops into mode 0: one block); a stop with $05 reads $85.
    let mut gb = cgb(
        0x80,
        r#"
        wait:
            ldh a, [$44]
            cp 150
            jr nz, wait
            xor a
            ldh [$51], a
            ldh [$52], a
            ldh [$54], a
            ld a, $80
            ldh [$53], a
            ld a, $83
            ldh [$55], a
            ldh a, [$55]
            ldh [$80], a
            xor a
            ldh [$40], a
            ldh a, [$55]
            ldh [$81], a
            ld a, $05
            ldh [$55], a
            ldh a, [$55]
            ldh [$82], a
            ld b, b
        "#,
    );
    run(&mut gb);
    assert_eq!(gb.peek(0xFF80), 0x03, "VBlank: no block yet");
    assert_eq!(gb.peek(0xFF81), 0x02, "LCD off: one block copied");
    assert_eq!(
        gb.peek(0xFF82),
        0x85,
        "stopped: bit 7 over the written length"
    );
}

/// Count STAT polls from LY 21's start to mode 0 with ten objects on line 21 (`$80`) and with
/// none (`$81`), LCDC.1 clear both times.
const MODE3_WITH_OBJECTS_HIDDEN: &str = r#"
        ld a, $91           ; LCD on, objects off
        ldh [$40], a
        ld c, $80
        ld e, 36            ; first pass: objects at Y 36 cover lines 20-27
    pass:
    vbl:
        ldh a, [$44]
        cp 144
        jr nz, vbl
        ld hl, $FE00
        ld d, 10
        ld a, 8
    fill:
        ld [hl], e
        inc l
        ld [hl+], a
        inc l
        inc l
        add a, 16
        dec d
        jr nz, fill
    line:
        ldh a, [$44]
        cp 21
        jr nz, line
        ld b, 0
    poll:
        ldh a, [$41]
        and 3
        jr z, done
        inc b
        jr poll
    done:
        ld a, b
        ld [c], a
        inc c
        ld e, 0             ; second pass: no object on screen
        ld a, c
        cp $82
        jr nz, pass
        ld b, b
"#;

#[test]
fn the_cgb_fetches_objects_with_lcdc1_clear() {
    let mut gb = cgb(0x80, MODE3_WITH_OBJECTS_HIDDEN);
    run(&mut gb);
    let (with, without) = (gb.peek(0xFF80), gb.peek(0xFF81));
    assert!(
        with > without,
        "mode 3 is longer with hidden objects: {with} vs {without} polls"
    );
    let boot = Boot {
        model: Model::Dmg,
        ram_init: RamInit::Zero,
        ..Boot::default()
    };
    let mut dmg = Gb::power_on(cart(0x00, MODE3_WITH_OBJECTS_HIDDEN), boot).expect("power on");
    run(&mut dmg);
    assert_eq!(dmg.peek(0xFF80), dmg.peek(0xFF81), "the DMG skips them");
}

/// STAT polls from LY 21's start to mode 0 with ten objects on line 21 (`$FFC0`), and again with
/// an OAM DMA of the same objects running over line 21's OAM scan (`$FFC1`); the measuring loop
/// runs from HRAM (`hram_code`), as code must during a DMA.
const SCAN_DURING_DMA: &str = r#"
        ld a, $93           ; LCD and objects on
        ldh [$40], a
    vbl:
        ldh a, [$44]
        cp 144
        jr nz, vbl
        ld hl, $C000        ; the objects at $C000 and in OAM: Y 37 (lines 21-28)
        ld de, $FE00
        ld b, 40
        ld c, 8
    fill:
        ld a, b
        cp 31
        ld a, 37
        jr nc, shown
        xor a
    shown:
        ld [hl+], a
        ld [de], a
        inc e
        ld a, c
        ld [hl+], a
        ld [de], a
        inc e
        add a, 16
        ld c, a
        xor a
        ld [hl+], a
        ld [de], a
        inc e
        ld [hl+], a
        ld [de], a
        inc e
        dec b
        jr nz, fill
        ld hl, hram_code    ; copy the measuring code to $FF80
        ld de, $FF80
        ld b, hram_end - hram_code
    copy:
        ld a, [hl+]
        ld [de], a
        inc e
        dec b
        jr nz, copy
        ld a, $FF           ; pass 1: DMA from $FF00 is not started (writes to $FF46 only
        ld e, a             ; when E is $C0)
        call wait20
        call $FF80
        ldh [$C0], a
        ld e, $C0           ; pass 2: the DMA starts in line 20's HBlank
        call wait20
        call $FF80
        ldh [$C1], a
        ld b, b
    wait20:
        ldh a, [$44]
        cp 20
        jr nz, wait20
    m3:
        ldh a, [$41]
        and 3
        cp 3
        jr nz, m3
    hb:
        ldh a, [$41]
        and 3
        jr nz, hb
        ret
    hram_code:
        db $7B              ; ld a, e
        db $FE, $C0         ; cp $C0
        db $20, $02         ; jr nz, +2
        db $E0, $46         ; ldh [$46], a
        db $06, $00         ; ld b, 0
        db $F0, $44         ; .line: ldh a, [$44]
        db $FE, $15         ; cp 21
        db $20, $FA         ; jr nz, .line
        db $F0, $41         ; .poll: ldh a, [$41]
        db $E6, $03         ; and 3
        db $28, $03         ; jr z, .done
        db $04              ; inc b
        db $18, $F7         ; jr .poll
        db $3E, $40         ; .done: ld a, 64
        db $3D              ; .wait: dec a
        db $20, $FD         ; jr nz, .wait
        db $78              ; ld a, b
        db $C9              ; ret
    hram_end:
"#;

#[test]
fn the_oam_scan_finds_no_object_while_an_oam_dma_runs() {
    for model in [Model::Cgb, Model::Dmg] {
        let boot = Boot {
            model,
            ram_init: RamInit::Zero,
            ..Boot::default()
        };
        let flag = if model == Model::Cgb { 0x80 } else { 0x00 };
        let mut gb = Gb::power_on(cart(flag, SCAN_DURING_DMA), boot).expect("power on");
        run(&mut gb);
        let (scanned, hidden) = (gb.peek(0xFFC0), gb.peek(0xFFC1));
        // Ten objects cost about 110 dots, 2.5 polls; the poll loop's phase moves one.
        assert!(
            hidden + 2 <= scanned,
            "{model:?}: mode 3 is shorter when the DMA hides the objects: {hidden} vs {scanned}"
        );
    }
}

#[test]
fn oam_dma_waits_while_the_cpu_halts() {
    // An OAM DMA from work RAM ($C000: 0, 1, 2 ...) started just before a HALT that lasts
    // about 64 M-cycles (the timer): after the wake-up the CPU, reading work RAM, sees the
    // byte the DMA moves now: a few bytes on, not 64.
    let mut gb = cgb(
        0x80,
        r#"
            ld hl, $C000
            xor a
        fill:
            ld [hl+], a
            inc a
            cp $A0
            jr nz, fill
            xor a
            ldh [$0F], a
            ld a, $04           ; IE: timer
            ldh [$FF], a
            ld a, $FC
            ldh [$05], a        ; TIMA: 4 ticks to overflow
            ld a, $06
            ldh [$07], a        ; TAC: on, 64 T-cycles a tick
            ldh [$04], a        ; DIV reset: the ticks start now
            ld a, $C0
            ldh [$46], a
            halt                ; IME 0: the timer request only wakes the CPU
            nop
            ld a, [$C000]
            ldh [$80], a
            ld b, 60
        wait:
            dec b
            jr nz, wait
            ld b, b
        "#,
    );
    run(&mut gb);
    let seen = gb.peek(0xFF80);
    assert!(seen < 12, "the DMA moved byte {seen} at the wake-up");
}
