//! Frames run without the picture (`Gb::set_rendering(false)`, for bots) are the same frames:
//! the same timing and registers (the state image byte for byte), and the first frame drawn
//! afterwards is pixel for pixel the frame of a machine that always drew. On ROMs whose
//! pictures depend on the window line counter and mid-line register writes (the acid2 tests),
//! a game with both, and the CGB.

use gb_core::{Boot, Cartridge, Gb, Model, ModelChoice};

fn machine(rom: &[u8], model: ModelChoice) -> Gb {
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
