//! What a script's API call costs: a script calling `memory.read_u8` 1,000 times per frame
//! against the same loop without the calls, in one session each, medians of 7 rounds.
//! `cargo bench -p gb-session --bench api_calls` prints `read_u8-ns-per-call: X`.

use gb_session::{Session, SessionConfig};
use std::time::Instant;

fn rom() -> Vec<u8> {
    gb_core::asm::rom(
        "ld a, $01\n ldh [$FF], a\n ei\n main:\n halt\n nop\n jr main\n org $40\n reti\n",
    )
    .expect("assemble")
}

/// Seconds per frame of a session running `source`.
fn per_frame(source: &str, frames: u32) -> f64 {
    let config = SessionConfig {
        desync_check: false,
        ..SessionConfig::default()
    };
    let mut s = Session::new(rom(), None, config).expect("session");
    s.load_script("bench.lua", source);
    for _ in 0..30 {
        s.run_frame();
    }
    let t = Instant::now();
    for _ in 0..frames {
        s.run_frame();
    }
    t.elapsed().as_secs_f64() / f64::from(frames)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    const CALLS: f64 = 1000.0;
    let with = "local read = memory.read_u8 while true do local s = 0 \
                for i = 0, 999 do s = s + read(0xC000 + (i & 0xFF)) end emu.frameadvance() end";
    let without = "while true do local s = 0 \
                   for i = 0, 999 do s = s + (0xC000 + (i & 0xFF)) end emu.frameadvance() end";
    let mut diffs = Vec::new();
    for _ in 0..7 {
        let a = per_frame(with, 300);
        let b = per_frame(without, 300);
        diffs.push((a - b) / CALLS * 1e9);
    }
    println!("read_u8-ns-per-call: {:.0}", median(diffs));
}
