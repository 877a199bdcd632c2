//! What the window's `egui_kittest` tests share: a harness on a cartridge with scripts, paused,
//! without audio; settling (the window sends, the emulation thread answers, the window draws
//! the answer); stepping frames through the REPL; opening a View-menu item.

use std::path::PathBuf;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use super::GbApp;
use crate::config::Config;
use crate::emu::{self, RomSource, Start};

/// The harness the tests drive.
pub(super) type H = Harness<'static, GbApp>;

/// The window on `rom` with `scripts`, paused, a rewind ring of `ring_bytes`, `size` pixels.
pub(super) fn harness(
    rom: RomSource,
    scripts: Vec<PathBuf>,
    ring_bytes: usize,
    size: [f32; 2],
) -> H {
    harness_linked(rom, None, scripts, ring_bytes, size)
}

/// [`harness`] with a second Game Boy on a link cable running `link`.
pub(super) fn harness_linked(
    rom: RomSource,
    link: Option<RomSource>,
    scripts: Vec<PathBuf>,
    ring_bytes: usize,
    size: [f32; 2],
) -> H {
    let emu = emu::spawn(Start {
        rom,
        scripts,
        scripts2: Vec::new(),
        paused: true,
        ring_bytes,
        audio: false,
        stop: None,
        power: Default::default(),
        correction: Default::default(),
        link,
    })
    .expect("the cartridge starts");
    let app = GbApp::new(emu, Config::default(), false);
    Harness::builder()
        .with_size(size)
        .build_ui_state(|ui, app: &mut GbApp| app.show(ui), app)
}

/// Let the window send what it must, the emulation thread answer, and the window draw it.
pub(super) fn settle(h: &mut H) {
    h.run_steps(2);
    h.state().emu().sync();
    h.run_steps(3);
}

/// Run `frames` frames (the REPL's `step`) and settle.
pub(super) fn step(h: &mut H, frames: u32) {
    h.state().emu().repl(&format!("step {frames}"));
    settle(h);
}

/// Click `item` of the View menu and close the menu again, then settle.
pub(super) fn open(h: &mut H, item: &str) {
    // A click on the menu's title closes it when it is open already.
    for _ in 0..2 {
        if h.query_by_label(item).is_none() {
            // By accessibility action: a tool window may lie over the menu bar.
            h.get_by_label("View").click_accesskit();
            h.run_steps(2);
        }
    }
    h.get_by_label(item).click_accesskit();
    h.run_steps(2);
    // Close the menu, which stays open after a tick and would cover the window.
    if h.query_by_label("Memory viewer").is_some() {
        h.get_by_label("View").click_accesskit();
        h.run_steps(2);
    }
    settle(h);
}
