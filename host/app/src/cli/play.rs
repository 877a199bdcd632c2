//! `gbhost play`: run a ROM with sound and no window, at normal speed, paced by the audio
//! device's clock (the desktop app's audio path, usable before the app exists). With no audio
//! device it prints one line and runs silently, paced by the wall clock.
//!
//! Prints `frames: N` at the end, like `headless`.

use crate::audio::output::AudioOut;
use anyhow::Result;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Arguments of `gbhost play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The ROM file to run.
    rom: PathBuf,
    /// Frames to run (at 59.7 per second).
    #[arg(long, default_value_t = 600)]
    frames: u64,
    #[command(flatten)]
    power: crate::game::rom::PowerArgs,
    #[command(flatten)]
    patch: crate::game::rom_patches::PatchArgs,
}

/// One frame's duration: 70,224 T-cycles at 4,194,304 Hz.
const FRAME: Duration = Duration::from_nanos(16_742_706);

/// Run `gbhost play`.
pub fn run(args: &Args) -> Result<()> {
    let mut gb = crate::game::rom::load(&args.rom, None, args.power, &args.patch.patches)?;
    let mut out = AudioOut::open();
    if out.is_playing() {
        eprintln!("gbhost: playing at {} Hz", out.sample_rate());
    }
    let mut buf = vec![(0, 0); gb_core::apu::RING_CAPACITY];
    let start = Instant::now();
    let mut frames = 0u64;
    while frames < args.frames {
        if !out.is_playing() {
            // Silent: the wall clock paces.
            let due = start + FRAME * u32::try_from(frames).unwrap_or(u32::MAX);
            if let Some(wait) = due.checked_duration_since(Instant::now()) {
                std::thread::sleep(wait);
            }
        } else if !out.wants_frame() {
            // Playing: the device's consumption paces.
            std::thread::sleep(Duration::from_millis(2));
            continue;
        }
        gb.run_frame();
        let n = gb.drain_audio(&mut buf);
        out.push(&buf[..n]);
        frames += 1;
    }
    if out.is_playing() {
        // End on a fade rather than a cut: one more frame's audio while the gain falls to 0
        // (10 ms), then let the queue play out.
        out.set_muted(true);
        let mut tail = gb.clone();
        tail.run_frame();
        let n = tail.drain_audio(&mut buf);
        out.push(&buf[..n]);
        std::thread::sleep(Duration::from_secs_f64(out.queued_seconds() + 0.02));
        if out.dropped() > 0 {
            eprintln!("gbhost: audio: {} samples dropped", out.dropped());
        }
    }
    println!("frames: {frames}");
    Ok(())
}
