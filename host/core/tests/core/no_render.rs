//! Frames run without the picture (`Gb::set_rendering(false)`, for bots) are the same frames:
//! the same timing and registers (the state image byte for byte), and the first frame drawn
//! afterwards is pixel for pixel the frame of a machine that always drew. On ROMs whose
//! pictures depend on the window line counter and mid-line register writes (the acid2 tests),
//! a game with both, and the CGB. Stopped anywhere mid-frame, a machine (not drawing, or
//! drawing with objects hidden) is the same whether it was stopped often or seldom before
//! (the lazy PPU's batches).

use gb_core::{Boot, Cartridge, Gb, Model, ModelChoice};

/// A machine for `rom` powered on as `model` resolves for it (shared with `still_lines`).
pub(crate) fn machine(rom: &[u8], model: ModelChoice) -> Gb {
    let cart = Cartridge::from_rom(rom.to_vec()).expect("cartridge");
    let model = model.resolve(&cart);
    Gb::power_on(
        cart,
        Boot {
            model,
            ..Boot::default()
        },
    )
    .expect("power on")
}

fn state(gb: &Gb) -> Vec<u8> {
    let mut v = Vec::new();
    gb.save_state(&mut v);
    v
}

fn check(relative: &str, model: ModelChoice, frames: u32) {
    let Some(rom) = gb_testkit::roms::shared_rom_bytes(relative) else {
        return;
    };
    let mut drawn = machine(&rom, model);
    let mut blind = machine(&rom, model);
    blind.set_rendering(false);
    let mut last = Vec::new();
    for f in 0..frames {
        drawn.run_frame();
        blind.run_frame();
        assert_eq!(
            state(&drawn),
            state(&blind),
            "{relative}: state at frame {f}"
        );
        if f == 3 {
            last = blind.framebuffer().pixels().to_vec();
        }
    }
    // Unrendered, the picture stood still.
    assert_eq!(
        blind.framebuffer().pixels(),
        &last[..],
        "{relative}: no pixel written"
    );
    // The next frame drawn is the always-drawing machine's.
    blind.set_rendering(true);
    drawn.run_frame();
    blind.run_frame();
    assert_eq!(
        drawn.framebuffer().pixels(),
        blind.framebuffer().pixels(),
        "{relative}: the first frame drawn again"
    );
    assert_ne!(
        drawn
            .framebuffer()
            .pixels()
            .iter()
            .collect::<std::collections::HashSet<_>>()
            .len(),
        1,
        "{relative}: a picture with something on it"
    );
}

#[test]
fn dmg_acid2_unrendered_frames_are_the_same_frames() {
    check("acid2/dmg-acid2.gb", ModelChoice::Fixed(Model::Dmg), 60);
}

#[test]
fn cgb_acid2_unrendered_frames_are_the_same_frames() {
    check("acid2/cgb-acid2.gbc", ModelChoice::Fixed(Model::Cgb), 60);
}

#[test]
fn a_game_unrendered_is_the_same_game() {
    check(
        "homebrew/tobutobugirl/tobutobugirl.gb",
        ModelChoice::Fixed(Model::Dmg),
        400,
    );
    check("homebrew/ucity/ucity.gbc", ModelChoice::Auto, 400);
}

/// Stopped anywhere in a frame (as a debugger, a script's watchpoint or a state save stops it),
/// a machine (drawing with `render`, or not) is the same however often it was stopped before: the
/// PPU's events that ran late in one batch, and the object scans and mode 3 lengths a batch
/// skips because nobody saw them (see `Ppu::wake_at`), leave nothing behind. One machine stops
/// every 1 to 150 cycles (no batch runs past a line's end), the other every 1 to 8,000 (a line
/// is 456), and they are compared at the second one's stops.
fn check_cut(relative: &str, rom: &[u8], model: ModelChoice, frames: u32, render: bool) {
    let mut fine = machine(rom, model);
    let mut coarse = machine(rom, model);
    fine.set_rendering(render);
    coarse.set_rendering(render);
    let mut seed = 0x2545_F491_u32;
    let mut next = |range: u64| {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        1 + u64::from(seed >> 8) % range
    };
    let mut compared = 0;
    for f in 0..frames {
        let mut ended = false;
        while !ended {
            let at = coarse.cycles() + next(8_000);
            ended = coarse.run_until_cycle(at);
            let mut fine_ended = false;
            while !fine_ended && fine.cycles() < at {
                fine_ended = fine.run_until_cycle(at.min(fine.cycles() + next(150)));
            }
            assert_eq!(fine_ended, ended, "{relative}: frame {f}");
            assert_eq!(fine.cycles(), coarse.cycles(), "{relative}: frame {f}");
            let (a, b) = (state(&fine), state(&coarse));
            // The first byte that differs, not two whole state images.
            let first = a.iter().zip(&b).position(|(x, y)| x != y);
            assert!(
                a.len() == b.len() && first.is_none(),
                "{relative}: state at cycle {} of frame {f} differs from byte {first:?}",
                coarse.cycles()
            );
            compared += 1;
        }
    }
    assert!(
        compared > frames as usize * 3,
        "{relative}: compared {compared} times"
    );
}

/// Objects on every line (8x16, four a line), STAT's interrupt sources off, and a CPU that
/// spins for up to ~9 lines between reads of STAT, logged to work RAM: so the lazy PPU's
/// batches run past whole lines while the machine is running, and a STAT read lands anywhere
/// in a line. `lcdc` is what the LCD is switched on with (LCDC.1: objects drawn or not).
fn spin_rom(lcdc: u8) -> Vec<u8> {
    gb_core::asm::rom(
        &r#"
            ld sp, $DFF0
        vblank:
            ldh a, [$44]
            cp 144
            jr nz, vblank
            xor a
            ldh [$40], a        ; LCD off: OAM is free
            ld hl, $FE00
            ld b, 40
            ld a, 16
        objects:
            ld [hl+], a         ; Y: 16 + 4i, so four objects cover each line
            ld c, a
            ld a, b
            add a, a
            ld [hl+], a         ; X
            xor a
            ld [hl+], a
            ld [hl+], a
            ld a, c
            add a, 4
            dec b
            jr nz, objects
            ld a, LCDC
            ldh [$40], a        ; LCD on, 8x16 objects, background on
            ld hl, $C000
            ld c, 1
        main:
            ld b, c
        spin:
            dec b
            jr nz, spin
            ldh a, [$41]
            ld [hl+], a
            res 4, h            ; keep HL in C000-CFFF
            ld a, c
            add a, 37
            ld c, a
            jr main
        "#
        .replace("LCDC", &format!("${lcdc:02X}")),
    )
    .expect("assemble")
}

#[test]
fn a_machine_stopped_anywhere_is_the_same_however_often_it_stopped() {
    for model in [Model::Dmg, Model::Cgb] {
        let model = ModelChoice::Fixed(model);
        check_cut("built: spinning CPU", &spin_rom(0x97), model, 60, false);
        // Drawn, objects hidden (the CGB still scans for them, the drawing does not look).
        check_cut("built: objects off", &spin_rom(0x95), model, 60, true);
    }
    for (relative, model) in [
        (
            "homebrew/tobutobugirl/tobutobugirl.gb",
            ModelChoice::Fixed(Model::Dmg),
        ),
        ("homebrew/ucity/ucity.gbc", ModelChoice::Auto),
    ] {
        if let Some(rom) = gb_testkit::roms::shared_rom_bytes(relative) {
            check_cut(relative, &rom, model, 60, false);
        }
    }
}
