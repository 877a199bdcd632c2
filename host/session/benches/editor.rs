//! The TAS editor's speed on a real game: a 10-minute greenzone of Tobu Tobu Girl
//! (`../shared/roms`, or `GBHOST_TEST_ROMS`) with the HUD script `examples/bench_hud.lua`,
//! recorded with generated input. Then:
//! - `editor-seek-ms`: seeking to a random frame of the greenzone (median of 200);
//! - `editor-edit-seek600-ms`: one frame's input changed at frame N, then a seek to N + 600
//!   (the session goes back to N and emulates 600 frames with the HUD; median of 15).
//!
//! `cargo bench -p gb-session --bench editor`. Skips (saying so) without the ROM.

use std::time::Instant;

use gb_core::Buttons;
use gb_session::movie::editor::Editor;
use gb_session::{Flavor, PowerOn, Session, SessionConfig};

/// 10 minutes at 59.73 frames a second.
const FRAMES: u64 = 36_000;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let Some(rom) = gb_testkit::shared_rom_bytes("homebrew/tobutobugirl/tobutobugirl.gb") else {
        println!("editor bench skipped: no Tobu Tobu Girl ROM");
        return;
    };
    let hud = include_str!("../../../examples/bench_hud.lua");
    let config = SessionConfig {
        desync_check: false,
        ..SessionConfig::default()
    };
    let mut s = Session::power_on(rom, PowerOn::default(), config).expect("session");
    s.load_script_as("bench_hud.lua", hud, Flavor::Native);
    let mut ed = Editor::new(&s, 0, Vec::new());
    // Generated input: a random set of buttons held for 1-30 frames at a time.
    let mut seed: u64 = 7;
    let mut rnd = move || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        seed >> 33
    };
    let t = Instant::now();
    let mut held = Buttons::default();
    let mut left = 0;
    for _ in 0..FRAMES {
        if left == 0 {
            held = Buttons((rnd() & 0xFF) as u8 & !0xC0 | if rnd() % 8 == 0 { 0x80 } else { 0 });
            left = 1 + rnd() % 30;
        }
        left -= 1;
        ed.run_frame(&mut s, held);
    }
    println!(
        "editor-record-fps: {:.0}",
        FRAMES as f64 / t.elapsed().as_secs_f64()
    );
    let green = (1..FRAMES).filter(|&f| ed.is_green(&s, f)).count();
    println!("editor-greenzone-frames: {green} of {FRAMES}");

    let mut seeks = Vec::new();
    for _ in 0..200 {
        let f = 1 + rnd() % (FRAMES - 1);
        let t = Instant::now();
        ed.seek(&mut s, f).expect("seek");
        seeks.push(t.elapsed().as_secs_f64() * 1e3);
        assert_eq!(s.frame(), f);
    }
    println!("editor-seek-ms: {:.2}", median(seeks));

    let mut edits = Vec::new();
    for k in 0..15 {
        // Descending, so each edit falls in the greenzone the previous one left.
        let n = FRAMES - 2_000 - k * 2_000;
        ed.seek_now(&mut s, n + 600).expect("prepare");
        let t = Instant::now();
        ed.set(&s, n, Buttons((rnd() & 0x3F) as u8));
        ed.seek_now(&mut s, n + 600).expect("seek");
        edits.push(t.elapsed().as_secs_f64() * 1e3);
        assert_eq!(s.frame(), n + 600);
    }
    println!("editor-edit-seek600-ms: {:.1}", median(edits));
}
