//! What the debugger costs on a real game (Tobu Tobu Girl from `../shared/roms`, or
//! `GBHOST_TEST_ROMS`; cpu_instrs when it is missing too, it says so and stops): frames per
//! second of a session running frames
//! - `plain`: `run_frame`, no breakpoint (what the app does without breakpoints);
//! - `debug-none`: `Session::debug(Continue)` with no breakpoint;
//! - `exec-1`: with one execute breakpoint (at an address the game never runs);
//! - `write-1`: with one write breakpoint (on a byte the game never writes, FF7F);
//! - `int`: with an interrupt breakpoint whose condition never holds (every dispatch stops the
//!   core to ask).
//!
//! - `trace-frame-ms`: `Session::trace` of one frame of Blargg's `cpu_instrs` (a CPU that never
//!   halts: every cycle is instructions) into memory (median of 9).
//!
//! Medians of 5 rounds of 1,200 frames each, all in one run. `cargo bench -p gb-session
//! --bench debugger` prints `NAME-fps: X`.

use std::time::Instant;

use gb_session::debug::{BreakOn, Resume, Stopped};
use gb_session::{Session, SessionConfig};

const FRAMES: u32 = 1_200;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn fps(rom: &[u8], setup: impl Fn(&mut Session), debug: bool) -> f64 {
    let mut rounds = Vec::new();
    for _ in 0..5 {
        let config = SessionConfig {
            desync_check: false,
            ..SessionConfig::default()
        };
        let mut s = Session::new(rom.to_vec(), None, config).expect("session");
        setup(&mut s);
        let t = Instant::now();
        for _ in 0..FRAMES {
            if debug {
                assert_eq!(s.debug(Resume::Continue), Stopped::FrameEnd);
            } else {
                s.run_frame();
            }
        }
        rounds.push(f64::from(FRAMES) / t.elapsed().as_secs_f64());
    }
    median(rounds)
}

fn main() {
    let Some(rom) = gb_testkit::roms::shared_rom_bytes("homebrew/tobutobugirl/tobutobugirl.gb")
    else {
        eprintln!("debugger bench: Tobu Tobu Girl not found, nothing measured");
        return;
    };
    println!("plain-fps: {:.0}", fps(&rom, |_| {}, false));
    println!("debug-none-fps: {:.0}", fps(&rom, |_| {}, true));
    let exec = |s: &mut Session| {
        s.add_breakpoint(BreakOn::Exec, 0x7FF0, 1, None, None, None)
            .unwrap();
    };
    println!("exec-1-fps: {:.0}", fps(&rom, exec, true));
    let write = |s: &mut Session| {
        s.add_breakpoint(BreakOn::Write, 0xFF7F, 1, None, None, None)
            .unwrap();
    };
    println!("write-1-fps: {:.0}", fps(&rom, write, true));
    let int = |s: &mut Session| {
        s.add_breakpoint(BreakOn::Interrupt, 0, 1, None, None, Some("a == 256"))
            .unwrap();
    };
    println!("int-fps: {:.0}", fps(&rom, int, true));
    // A trace of one whole frame to memory: of a busy CPU (Blargg's cpu_instrs, which never
    // halts), after 600 frames.
    let busy = gb_testkit::roms::shared_rom_bytes("blargg/cpu_instrs/cpu_instrs.gb").unwrap_or(rom);
    let mut times = Vec::new();
    let mut s = Session::new(busy, None, SessionConfig::default()).expect("session");
    for _ in 0..600 {
        s.run_frame();
    }
    let mut lines = 0;
    for _ in 0..9 {
        let mut out = Vec::with_capacity(8 << 20);
        let t = Instant::now();
        lines = s.trace(1, &mut out).expect("trace");
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    println!(
        "trace-frame-ms: {:.1} ({lines} instructions)",
        median(times)
    );
}
