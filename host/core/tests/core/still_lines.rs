//! A line drawn from the same VRAM, OAM, colour RAM, registers, window state and objects as
//! the buffer's row was is not drawn again (either mode; `Frame`'s row tags). Frames drawn over older ones, the way the
//! session swaps two buffers, are pixel for pixel the frames drawn into blank buffers, through
//! state loads, frames run without drawing, buttons and debugger writes to VRAM; and still
//! pictures do keep lines.
//! (Debug builds also draw every kept line again and compare, in every test.)

use gb_core::{Buttons, Domain, Frame, Model, ModelChoice};

use crate::no_render::machine;

/// Run `frames` frames of `relative` on two machines, one swapping two buffers and one given
/// a blank buffer every frame; every frame must be the same. Returns the lines kept.
fn check(relative: &str, model: ModelChoice, frames: u32) -> Option<u64> {
    let rom = gb_testkit::roms::shared_rom_bytes(relative)?;
    let mut kept = machine(&rom, model);
    let mut fresh = machine(&rom, model);
    let mut spare = Frame::new(true);
    let mut states: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    for f in 0..frames {
        // Buttons now and then (menus move on), a few frames not drawn, and a state load
        // (back 40 frames) every 150.
        let buttons = if f % 90 >= 80 {
            Buttons(if f % 180 >= 90 { 0x08 } else { 0x01 })
        } else {
            Buttons::default()
        };
        kept.set_buttons(buttons);
        fresh.set_buttons(buttons);
        let drawing = f % 70 < 65;
        kept.set_rendering(drawing);
        fresh.set_rendering(drawing);
        if f % 50 == 0 {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            kept.save_state(&mut a);
            fresh.save_state(&mut b);
            states.push((a, b));
        }
        if f % 100 == 60 {
            // A debugger's write to the tile map (a memory domain).
            for gb in [&mut kept, &mut fresh] {
                if let Some(vram) = gb.domain_mut(Domain::Vram) {
                    vram[0x1800 + (f as usize * 37) % 0x800] ^= 0x01;
                }
            }
        }
        if f % 150 == 149 && states.len() >= 2 {
            let (a, b) = &states[states.len() - 2];
            kept.load_state(a).expect("load");
            fresh.load_state(b).expect("load");
        }
        kept.run_frame();
        fresh.run_frame();
        if !drawing {
            continue;
        }
        kept.swap_frame(&mut spare);
        let mut blank = Frame::new(true);
        fresh.swap_frame(&mut blank);
        assert_eq!(
            spare.pixels(),
            blank.pixels(),
            "{relative}: frame {f} drawn over an older one"
        );
    }
    Some(kept.lines_kept())
}

#[test]
fn ucity_frames_drawn_over_older_ones_are_the_frames_drawn_afresh() {
    if let Some(kept) = check("homebrew/ucity/ucity.gbc", ModelChoice::Auto, 900) {
        // Title and menus stand still for a while (about 100,000 of the 129,600 lines here).
        assert!(kept > 50_000, "lines kept: {kept}");
    }
}

#[test]
fn cgb_acid2_frames_drawn_over_older_ones_are_the_frames_drawn_afresh() {
    // Registers change between lines every frame (LY=LYC interrupts): no line is kept, and
    // every frame must still come out right.
    check("acid2/cgb-acid2.gbc", ModelChoice::Fixed(Model::Cgb), 120);
}

#[test]
fn cgb_acid_hell_frames_drawn_over_older_ones_are_the_frames_drawn_afresh() {
    // Mid-line register writes on most lines: those lines are always drawn.
    check(
        "cgb-acid-hell/cgb-acid-hell.gbc",
        ModelChoice::Fixed(Model::Cgb),
        120,
    );
}

#[test]
fn cpu_instrs_frames_drawn_over_older_ones_are_the_frames_drawn_afresh() {
    // Text printed now and then on a still screen, at double speed (about 75,000 of the
    // 86,400 lines here).
    if let Some(kept) = check(
        "blargg/cpu_instrs/cpu_instrs.gb",
        ModelChoice::Fixed(Model::Cgb),
        600,
    ) {
        assert!(kept > 50_000, "lines kept: {kept}");
    }
}

#[test]
fn cpu_instrs_as_a_dmg_frames_drawn_over_older_ones_are_the_frames_drawn_afresh() {
    if let Some(kept) = check(
        "blargg/cpu_instrs/cpu_instrs.gb",
        ModelChoice::Fixed(Model::Dmg),
        600,
    ) {
        assert!(kept > 50_000, "lines kept: {kept}");
    }
}

#[test]
fn dmg_games_frames_drawn_over_older_ones_are_the_frames_drawn_afresh() {
    // Objects move in every frame of play (OAM DMA each frame: the scan's objects change
    // with the DMA's timing, not only with OAM).
    check(
        "homebrew/tobutobugirl/tobutobugirl.gb",
        ModelChoice::Fixed(Model::Dmg),
        900,
    );
    check(
        "homebrew/adjustris/adjustris.gb",
        ModelChoice::Fixed(Model::Dmg),
        900,
    );
    check("acid2/dmg-acid2.gb", ModelChoice::Fixed(Model::Dmg), 120);
}

#[test]
fn a_dmg_game_on_the_cgb_frames_drawn_over_older_ones_are_the_frames_drawn_afresh() {
    // Compatibility mode: shades coloured through the boot ROM's palettes.
    check(
        "homebrew/tobutobugirl/tobutobugirl.gb",
        ModelChoice::Fixed(Model::Cgb),
        600,
    );
}
