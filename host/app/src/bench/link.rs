//! `gbhost bench ROM --link ROM2`: two Game Boys on a link cable against one, in the same run.
//!
//! Each round times one machine running ROM for N frames, then the linked pair (ROM as
//! player 1, ROM2 as player 2) for the same N of player 1's frames, both with audio and
//! pictures as a session runs them (each frame's picture taken when it ends; player 2's
//! audio off: the app plays player 1's).
//! Prints `fps: X` (the pair's frames per second, median), `single-fps: Y` (one machine's,
//! median) and `pair-ratio: Z %` (X / Y: 50 % would be two machines' cost with no coupling
//! cost at all), and `inexact: N`, the exchanges the pair could not make exact (0 expected).

use anyhow::Result;
use gb_core::link::Pair;
use std::path::Path;
use std::time::Instant;

/// What the link bench runs.
pub(crate) struct Options<'a> {
    /// Player 1's ROM (and the single machine's).
    pub(crate) rom: &'a Path,
    /// Player 2's ROM.
    pub(crate) second: &'a Path,
    /// How both power on.
    pub(crate) power: crate::game::rom::PowerArgs,
    /// Player 1's patches.
    pub(crate) patches: &'a [std::path::PathBuf],
    /// Frames per round.
    pub(crate) frames: u64,
    /// Rounds.
    pub(crate) rounds: usize,
}

/// Run the link bench.
pub(crate) fn run(o: &Options<'_>) -> Result<()> {
    let load = |path: &Path, patches: &[std::path::PathBuf]| {
        crate::game::rom::load(path, None, o.power, patches)
    };
    let mut audio = vec![(0, 0); gb_core::apu::RING_CAPACITY];
    let (mut single, mut pair_fps) = (Vec::new(), Vec::new());
    let mut inexact = 0;
    for round in 0..o.rounds.max(1) {
        let mut gb = load(o.rom, o.patches)?;
        // Each frame's picture taken as the session (and the pair) take it.
        let mut picture = gb_core::Frame::default();
        let t = Instant::now();
        for _ in 0..o.frames {
            gb.run_frame();
            gb.swap_frame(&mut picture);
            gb.drain_audio(&mut audio);
        }
        let one = o.frames as f64 / t.elapsed().as_secs_f64().max(1e-9);
        let mut second = load(o.second, &[])?;
        second.set_audio_enabled(false);
        let mut pair = Pair::new(load(o.rom, o.patches)?, second);
        let t = Instant::now();
        for _ in 0..o.frames {
            while !pair.run_until(None) {}
            pair.gb_mut(0).drain_audio(&mut audio);
        }
        let two = o.frames as f64 / t.elapsed().as_secs_f64().max(1e-9);
        let i = pair.inexact();
        inexact += i.mispredicted + i.late;
        eprintln!(
            "round {}: one machine {one:.0} fps, the pair {two:.0} fps ({:.0} %), {:.1} turns a frame",
            round + 1,
            two / one * 100.0,
            pair.turns() as f64 / o.frames as f64
        );
        single.push(one);
        pair_fps.push(two);
    }
    let (one, two) = (super::stats::median(single), super::stats::median(pair_fps));
    println!("fps: {two:.0}");
    println!("single-fps: {one:.0}");
    println!("pair-ratio: {:.0} %", two / one * 100.0);
    println!("inexact: {inexact}");
    Ok(())
}
