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
        gb.framebuffer().to_vec(),
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
