//! The CGB's PCM12 read by a program at chosen M-cycles after a trigger (the APU-level
//! rules and their sources are in `host/core/src/apu/pcm_tests.rs` and docs/timing.md, "PCM12
//! and PCM34"): this pins the bus's part, that a read `k` M-cycles after the trigger's write
//! sees what the APU model shows there.

use gb_core::asm::RomBuilder;
use gb_core::{Boot, Cartridge, Gb, Model, RamInit};

/// A CGB powered on with `rom` (work RAM zeroed).
fn cgb(rom: Vec<u8>) -> Gb {
    let boot = Boot {
        model: Model::Cgb,
        ram_init: RamInit::Zero,
        ..Boot::default()
    };
    Gb::power_on(Cartridge::from_rom(rom).expect("cartridge"), boot).expect("boot")
}

/// PCM12 read `k` M-cycles after channel 1 is triggered from off (power cycled), at volume
/// 15, duty 3 (75 %), frequency 0x7C0 (a duty step every 64 M-cycles); `k` is at least 3
/// (`ldh a, [$76]` reads in its third M-cycle).
fn pcm12_after_trigger(k: usize) -> u8 {
    let pad = "nop\n".repeat(k - 3);
    let src = format!(
        r#"
            xor a
            ldh [$26], a
            ld a, $80
            ldh [$26], a
            ld a, $C0
            ldh [$11], a
            ld a, $F0
            ldh [$12], a
            ld a, $C0
            ldh [$13], a
            ld a, $87
            ldh [$14], a
            {pad}
            ldh a, [$76]
            ld [$C000], a
            ld b, b
        "#
    );
    let rom = RomBuilder::new()
        .title("PCM12")
        .cgb_flag(0x80)
        .program(&src)
        .build()
        .expect("assemble");
    let mut gb = cgb(rom);
    assert!(gb.run_until_ld_b_b(2_000_000), "the program reached LD B,B");
    gb.peek(0xC000)
}

#[test]
fn pcm12_is_0_after_a_trigger_until_the_first_duty_step() {
    // The first step a period and 5 dots after the trigger, its output latched 4 dots later
    // (`docs/timing.md`, "Square channels", from Gambatte's hardware-verified duty tests):
    // step 1 of duty 3 (high) at volume 15 is read first 67 M-cycles on. SameBoy's model, with
    // no latch, shows it at 66.
    assert_eq!(pcm12_after_trigger(3), 0x00, "right after the trigger");
    assert_eq!(
        pcm12_after_trigger(66),
        0x00,
        "an M-cycle before the first step's latch"
    );
    assert_eq!(pcm12_after_trigger(67), 0x0F, "the first step");
}

#[test]
fn a_state_saved_with_audio_off_loads_and_replays_as_with_audio_on() {
    // Audio off generates no samples but the generators keep their phases (PCM12/PCM34 see
    // them): the image saved then is one a load accepts, and the machine runs on the same.
    let rom = RomBuilder::new()
        .title("AUDIOOFF")
        .cgb_flag(0x80)
        .program(
            r#"
                ld a, $80
                ldh [$26], a
                ld a, $F0
                ldh [$12], a
                ld a, $87
                ldh [$14], a
            loop:
                ldh a, [$76]
                ld [$C000], a
                jr loop
            "#,
        )
        .build()
        .expect("assemble");
    let mut off = cgb(rom.clone());
    off.set_audio_enabled(false);
    let mut on = cgb(rom);
    for _ in 0..3 {
        off.run_frame();
        on.run_frame();
    }
    let mut image = Vec::new();
    off.save_state(&mut image);
    off.load_state(&image)
        .expect("an image saved with audio off loads");
    for _ in 0..3 {
        off.run_frame();
        on.run_frame();
    }
    assert_eq!(off.peek(0xC000), on.peek(0xC000));
}
