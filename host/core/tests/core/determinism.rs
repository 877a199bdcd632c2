//! `Gb` is plain data: a clone taken at any instruction boundary continues exactly like the
//! original (what rewind and save states rely on).

use gb_core::{Buttons, Cartridge, Gb, asm};

/// A busy ROM: timer interrupts, the LCD on, serial transfers, joypad reads.
fn busy_rom() -> Vec<u8> {
    asm::rom(
        r#"
            ld a, $04
            ldh [$FF], a        ; IE = timer
            ld a, $05
            ldh [$07], a        ; TAC: 16 T-cycles per tick
            ei
        main:
            ldh a, [$00]
            ld [$C100], a
            ld a, [hl+]
            ldh [$01], a
            ld a, $81
            ldh [$02], a
            ldh a, [$44]
            add a, b
            ld b, a
            ld [$C000], a
            jr main
            org $50
            push af
            ldh a, [$06]
            inc a
            ldh [$06], a        ; TMA changes every interrupt
            pop af
            reti
        "#,
    )
    .expect("assemble")
}

fn state(gb: &Gb) -> (gb_core::Registers, u64, Vec<u8>, Vec<u8>, Vec<u8>) {
    let mem: Vec<u8> = (0..=0xFFFFu16).map(|a| gb.peek(a)).collect();
    (
        gb.regs(),
        gb.cycles(),
        gb.framebuffer().shades().collect::<Vec<u8>>(),
        gb.serial_output().to_vec(),
        mem,
    )
}

fn inputs(frame: u32) -> Buttons {
    Buttons(((frame * 37) % 256) as u8)
}

#[test]
fn a_clone_mid_run_continues_identically() {
    let mut gb = Gb::new(Cartridge::from_rom(busy_rom()).expect("cartridge"));
    for f in 0..50 {
        gb.set_buttons(inputs(f));
        gb.run_frame();
    }
    // Stop at an odd instruction boundary, not a frame end.
    for _ in 0..1234 {
        gb.step();
    }
    let mut copy = gb.clone();
    assert_eq!(state(&gb), state(&copy));
    for f in 50..150 {
        gb.set_buttons(inputs(f));
        copy.set_buttons(inputs(f));
        gb.run_frame();
        copy.run_frame();
    }
    assert_eq!(state(&gb), state(&copy), "diverged after the clone");
    assert!(gb.cycles() > 150 * 70_000, "it really ran");
    assert!(!gb.serial_output().is_empty(), "serial was exercised");
}

#[test]
fn same_inputs_same_run() {
    let run = || {
        let mut gb = Gb::new(Cartridge::from_rom(busy_rom()).expect("cartridge"));
        for f in 0..120 {
            gb.set_buttons(inputs(f));
            gb.run_frame();
        }
        state(&gb)
    };
    assert_eq!(run(), run());
}

/// FNV-1a, for telling states apart in messages.
fn fnv(bytes: &[u8]) -> u64 {
    gb_testkit::fnv1a(bytes.iter().copied())
}

#[test]
fn a_saved_image_loaded_into_a_fresh_machine_continues_identically() {
    let rom = busy_rom();
    let mut gb = Gb::new(Cartridge::from_rom(rom.clone()).expect("cartridge"));
    let mut image = Vec::new();
    gb.save_state(&mut image);
    let len = image.len();
    for f in 0..50 {
        gb.set_buttons(inputs(f));
        gb.run_frame();
        gb.save_state(&mut image);
        assert_eq!(image.len(), len, "the image has a fixed length");
    }
    for _ in 0..1234 {
        gb.step();
    }
    gb.save_state(&mut image);
    let mut loaded = Gb::new(Cartridge::from_rom(rom).expect("cartridge"));
    loaded.load_state(&image).expect("load");
    let mut again = Vec::new();
    loaded.save_state(&mut again);
    assert_eq!(fnv(&image), fnv(&again), "save(load(image)) == image");
    for f in 50..150 {
        gb.set_buttons(inputs(f));
        loaded.set_buttons(inputs(f));
        gb.run_frame();
        loaded.run_frame();
    }
    // The framebuffer is not in the image, but every frame after the first is drawn anew.
    assert_eq!(state(&gb).0, state(&loaded).0);
    assert_eq!(gb.framebuffer(), loaded.framebuffer());
    gb.save_state(&mut image);
    loaded.save_state(&mut again);
    assert_eq!(image, again, "diverged after the load");
}

#[test]
fn a_bad_image_is_refused_or_harmless_and_never_panics() {
    let rom = busy_rom();
    let mut gb = Gb::new(Cartridge::from_rom(rom).expect("cartridge"));
    for f in 0..20 {
        gb.set_buttons(inputs(f));
        gb.run_frame();
    }
    let mut image = Vec::new();
    gb.save_state(&mut image);
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut refused, mut accepted) = (0, 0);
    for round in 0..3000 {
        let mut bad = image.clone();
        match round % 3 {
            0 => bad.truncate((next() % image.len() as u64) as usize),
            1 => {
                let i = (next() % image.len() as u64) as usize;
                bad[i] ^= (next() % 255 + 1) as u8;
            }
            _ => {
                for _ in 0..8 {
                    let i = (next() % image.len() as u64) as usize;
                    bad[i] = next() as u8;
                }
            }
        }
        let mut target = gb.clone();
        target.save_state(&mut before);
        match target.load_state(&bad) {
            Err(_) => {
                target.save_state(&mut after);
                assert_eq!(before, after, "a refused image changed the machine");
                refused += 1;
            }
            Ok(()) => {
                accepted += 1;
                for _ in 0..3 {
                    target.run_frame();
                }
            }
        }
    }
    assert!(
        refused > 1000,
        "truncations and bad headers are refused ({refused})"
    );
    assert!(accepted > 100, "flipped RAM bytes load fine ({accepted})");
}

#[test]
fn every_register_and_timer_byte_of_an_image_can_be_corrupted_without_a_panic() {
    let mut gb = Gb::new(Cartridge::from_rom(busy_rom()).expect("cartridge"));
    for f in 0..20 {
        gb.set_buttons(inputs(f));
        gb.run_frame();
    }
    for _ in 0..777 {
        gb.step();
    }
    let mut image = Vec::new();
    gb.save_state(&mut image);
    // The header, CPU and clock come first; the PPU's registers and timeline, timer, serial,
    // joypad, APU, DMA, boot ROM flag and cartridge last (see `gb_core::state`). In between
    // lie work RAM and VRAM, where any byte is valid.
    let positions = (0..80).chain(image.len() - 800..image.len());
    for i in positions {
        for flip in [0xFF, 0x80, 0x01, 0x7F] {
            let mut bad = image.clone();
            bad[i] ^= flip;
            let mut target = gb.clone();
            if target.load_state(&bad).is_ok() {
                for _ in 0..3 {
                    target.run_frame();
                }
            }
        }
    }
}

/// A CGB-mode ROM for the CGB's images: double speed, a work RAM and a VRAM bank switched
/// every loop, colour palette writes, an HBlank DMA running, serial and timer as above.
fn cgb_busy_rom() -> Vec<u8> {
    let src = r#"
            ld sp, $CFF0
            xor a
            ldh [$FF], a
            ld a, $30
            ldh [$00], a
            ld a, $01
            ldh [$4D], a
            stop
            ld a, $40
            ldh [$51], a
            ld a, $08
            ldh [$53], a
            ld a, $C0
            ldh [$55], a        ; HBlank DMA, 65 blocks
            ld a, $04
            ldh [$FF], a
            ld a, $05
            ldh [$07], a
            ld a, $80
            ldh [$68], a
            ei
        main:
            inc c
            ld a, c
            and 7
            ldh [$70], a
            ld [$D010], a
            ldh [$69], a
            and 1
            ldh [$4F], a
            ldh a, [$44]
            ld [$9A00], a
            ld a, $81
            ldh [$02], a
            jr main
            org $50
            push af
            ldh a, [$06]
            inc a
            ldh [$06], a
            pop af
            reti
        "#;
    gb_core::asm::RomBuilder::new()
        .cgb_flag(0xC0)
        .program(src)
        .build()
        .expect("assemble")
}

fn cgb(rom: &[u8]) -> Gb {
    let boot = gb_core::Boot {
        model: gb_core::Model::Cgb,
        ..gb_core::Boot::default()
    };
    Gb::power_on(Cartridge::from_rom(rom.to_vec()).expect("cartridge"), boot).expect("power on")
}

#[test]
fn a_cgb_image_loaded_into_a_fresh_cgb_continues_identically() {
    let rom = cgb_busy_rom();
    let mut gb = cgb(&rom);
    for f in 0..30 {
        gb.set_buttons(inputs(f));
        gb.run_frame();
    }
    assert!(gb.double_speed());
    for _ in 0..999 {
        gb.step();
    }
    let mut image = Vec::new();
    gb.save_state(&mut image);
    let mut loaded = cgb(&rom);
    loaded.load_state(&image).expect("load");
    let mut again = Vec::new();
    loaded.save_state(&mut again);
    assert_eq!(fnv(&image), fnv(&again), "save(load(image)) == image");
    for f in 30..130 {
        gb.set_buttons(inputs(f));
        loaded.set_buttons(inputs(f));
        gb.run_frame();
        loaded.run_frame();
    }
    assert_eq!(gb.framebuffer(), loaded.framebuffer());
    gb.save_state(&mut image);
    loaded.save_state(&mut again);
    assert_eq!(image, again, "diverged after the load");
    // Every byte of the CGB's registers, timeline and the tail can be corrupted safely.
    let positions = (0..80).chain(image.len() - 1200..image.len());
    for i in positions.step_by(3) {
        for flip in [0xFF, 0x01] {
            let mut bad = image.clone();
            bad[i] ^= flip;
            let mut target = gb.clone();
            if target.load_state(&bad).is_ok() {
                target.run_frame();
            }
        }
    }
}

/// OAM DMA all the time, started at any point of a line (so the PPU's OAM scan meets it
/// half-done), from work RAM that changes every transfer, with a CPU read on the DMA's bus
/// mid-transfer (the conflict returns the byte the DMA just moved) logged to work RAM.
fn dma_rom() -> Vec<u8> {
    asm::rom(
        r#"
            ld sp, $DFF0
            ld hl, routine
            ld de, $FF80
            ld b, 18
        copy:
            ld a, [hl+]
            ld [de], a
            inc de
            dec b
            jr nz, copy
            ld a, $93
            ldh [$40], a        ; LCD on, objects on
            ld hl, $C100
        main:
            ld de, $C000
            ld b, 160
        fill:
            ld a, [de]
            add a, c
            ld [de], a
            inc de
            dec b
            jr nz, fill
            inc c
            ld a, $C0
            call $FF80
            ldh a, [$F0]
            ld [hl+], a
            res 1, h            ; keep HL in C100-C1FF
            ld a, c
            and 7
            ld b, a
        pause:
            dec b
            jr nz, pause
            jr main
        routine:
            db $E0, $46         ; ldh [$46], a
            db $06, $0A         ; ld b, 10
            db $05, $20, $FD    ; dec b / jr nz
            db $FA, $00, $C0    ; ld a, [$C000]: a conflict
            db $E0, $F0         ; ldh [$F0], a
            db $06, $20         ; ld b, 32
            db $05, $20, $FD    ; dec b / jr nz
            db $C9              ; ret
        "#,
    )
    .expect("assemble")
}

#[test]
fn oam_dma_copied_lazily_is_the_machine_stopped_at_every_few_cycles() {
    // The run loop copies OAM DMA bytes only when something can see them (and when it stops):
    // a run cut into pieces of a few cycles, which settles the transfer at every stop, must
    // be the same machine as whole frames.
    let rom = dma_rom();
    let mut whole = Gb::new(Cartridge::from_rom(rom.clone()).expect("cartridge"));
    let mut cut = Gb::new(Cartridge::from_rom(rom).expect("cartridge"));
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut piece = 1u64;
    for f in 0..30 {
        whole.run_frame();
        loop {
            piece = piece * 7 % 61;
            if cut.run_until_cycle(cut.cycles() + piece) {
                break;
            }
        }
        whole.save_state(&mut a);
        cut.save_state(&mut b);
        assert_eq!(fnv(&a), fnv(&b), "frame {f}: the images differ");
        assert_eq!(state(&whole), state(&cut), "frame {f}");
    }
    let log: Vec<u8> = (0xC100..0xC200u16).map(|a| whole.peek(a)).collect();
    assert!(
        log.iter().any(|&v| v != log[0]),
        "the conflict reads saw the transfer's bytes change"
    );
}
