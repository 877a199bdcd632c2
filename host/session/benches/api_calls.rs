//! What a script's API call costs: a script calling a memory read 1,000 times per frame
//! against the same loop without the calls, in one session each, medians of 7 rounds — the
//! native `memory.read_u8`, and the same read through each compatibility layer (BizHawk's
//! `mainmemory.read_u8`, `memory.read_u8` with a domain argument and after
//! `usememorydomain`, VBA-rr's `memory.readbyte`, mGBA's `emu:read8` and
//! `emu.memory.wram:read8`). `cargo bench -p gb-session --bench api_calls` prints
//! `read_u8-ns-per-call: X`, then `LAYER-ns-per-call: X` for each layer.

use gb_session::{Flavor, Session, SessionConfig};
use std::time::Instant;

fn rom() -> Vec<u8> {
    gb_core::asm::rom(
        "ld a, $01\n ldh [$FF], a\n ei\n main:\n halt\n nop\n jr main\n org $40\n reti\n",
    )
    .expect("assemble")
}

/// Seconds per frame of a session running `source` (written for `flavor`'s API).
fn per_frame(source: &str, flavor: Flavor, frames: u32) -> f64 {
    let config = SessionConfig {
        desync_check: false,
        ..SessionConfig::default()
    };
    let mut s = Session::new(rom(), None, config).expect("session");
    s.load_script_as("bench.lua", source, flavor);
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

/// Nanoseconds per call of the read `call` (an expression of `i`, the loop counter) in a
/// script for `flavor`, whose `setup` runs first and whose frames end with `advance`.
fn cost(flavor: Flavor, setup: &str, call: &str, advance: &str) -> f64 {
    const CALLS: f64 = 1000.0;
    let with = format!(
        "{setup} while true do local s = 0 for i = 0, 999 do s = s + {call} end {advance} end"
    );
    let without = format!(
        "{setup} while true do local s = 0 for i = 0, 999 do s = s + (0xC000 + (i & 0xFF)) end \
         {advance} end"
    );
    let mut diffs = Vec::new();
    for _ in 0..7 {
        let a = per_frame(&with, flavor, 300);
        let b = per_frame(&without, flavor, 300);
        diffs.push((a - b) / CALLS * 1e9);
    }
    median(diffs)
}

fn main() {
    let cases: [(&str, Flavor, &str, &str, &str); 7] = [
        (
            "read_u8",
            Flavor::Native,
            "local read = memory.read_u8",
            "read(0xC000 + (i & 0xFF))",
            "emu.frameadvance()",
        ),
        (
            "bizhawk-mainmemory.read_u8",
            Flavor::BizHawk,
            "local read = mainmemory.read_u8",
            "read(i & 0xFF)",
            "emu.frameadvance()",
        ),
        (
            "bizhawk-memory.read_u8-domain",
            Flavor::BizHawk,
            "local read = memory.read_u8",
            "read(i & 0xFF, 'WRAM')",
            "emu.frameadvance()",
        ),
        (
            "bizhawk-memory.read_u8-current-domain",
            Flavor::BizHawk,
            "memory.usememorydomain('WRAM') local read = memory.read_u8",
            "read(i & 0xFF)",
            "emu.frameadvance()",
        ),
        (
            "mgba-emu.memory.wram:read8",
            Flavor::Mgba,
            "local wram = emu.memory.wram",
            "wram:read8(i & 0xFF)",
            "coroutine.yield()",
        ),
        (
            "vba-memory.readbyte",
            Flavor::Vba,
            "local read = memory.readbyte",
            "read(0xC000 + (i & 0xFF))",
            "vba.frameadvance()",
        ),
        (
            "mgba-emu:read8",
            Flavor::Mgba,
            "local e = emu",
            "e:read8(0xC000 + (i & 0xFF))",
            "coroutine.yield()",
        ),
    ];
    for (name, flavor, setup, call, advance) in cases {
        println!(
            "{name}-ns-per-call: {:.0}",
            cost(flavor, setup, call, advance)
        );
    }
}
