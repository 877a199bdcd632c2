//! `gbhost bench --rewind`: what the rewind history costs, on gameplay.
//!
//! Runs a session (every frame captured into the default 64 MiB ring, scripts loaded with
//! `--script`) for `--frames` frames of gameplay: Start pressed on the title screens, then a
//! fixed seeded input sequence. Prints, one per line:
//! `fps` (frames per second of the whole loop: emulation, scripts, capture),
//! `rewind-bytes-per-sec` (ring bytes per emulated second; also split into core and scripts),
//! `capture-us` (median capture time per frame), `capture-mean-us` (its mean: the frames that
//! seal a batch of diff records compress it, the others store their diffs as they are, so the
//! median alone hides that cost), `step-back-us` (median time to put core and
//! scripts one frame back), `step-back-shown-us` (the same plus re-running the frame for its
//! picture and overlays, what the app does), `seek-ms` (median time to show the oldest frames of
//! the history) and `history-seconds` (how much gameplay the default ring holds; extrapolated
//! from the bytes per frame when the run did not fill it). With `--link ROM2` the session is
//! two linked Game Boys (the second's input the same sequence three frames later).

use anyhow::{Context, Result};
use gb_core::Buttons;
use gb_session::{Method, Session, SessionConfig};
use std::path::PathBuf;
use std::time::Instant;

/// Emulated frames per second (4,194,304 / 70,224).
const FPS: f64 = 4_194_304.0 / 70_224.0;

/// Options of the rewind bench.
pub struct Options<'a> {
    /// The ROM.
    pub rom: &'a std::path::Path,
    /// How the machine powers on.
    pub power: crate::game::rom::PowerArgs,
    /// Patches for the ROM.
    pub patches: &'a [PathBuf],
    /// Scripts to load.
    pub scripts: &'a [PathBuf],
    /// Frames of gameplay.
    pub frames: u64,
    /// How core diffs are stored (`zstd`, `lz4`, `stored`).
    pub core_method: Option<&'a str>,
    /// How script diffs are stored.
    pub script_method: Option<&'a str>,
    /// A second Game Boy on a link cable running this ROM (its input: the same sequence,
    /// three frames later).
    pub link: Option<&'a std::path::Path>,
}

/// The gameplay input: Start on the title and menu, then a seeded sequence of moves.
pub fn gameplay_input(frame: u64) -> Buttons {
    match frame {
        0..=59 => Buttons(0),
        60..=64 | 120..=124 => Buttons::START,
        _ => {
            let mut x = (frame / 6).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            x ^= x >> 29;
            Buttons([0x01, 0x02, 0x11, 0x12, 0x00, 0x10][(x % 6) as usize])
        }
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn method(name: Option<&str>, default: Method) -> Result<Method> {
    match name {
        None => Ok(default),
        Some(n) => Method::parse(n)
            .with_context(|| format!("unknown storage method '{n}' (zstd, lz4 or stored)")),
    }
}

/// Run the rewind bench.
pub fn run(opts: &Options<'_>) -> Result<()> {
    let rom = crate::game::rom::read(opts.rom, opts.power.force, opts.patches)?;
    let defaults = SessionConfig::default();
    let config = SessionConfig {
        force_unsupported: opts.power.force,
        core_method: method(opts.core_method, defaults.core_method)?,
        script_method: method(opts.script_method, defaults.script_method)?,
        desync_check: false,
        ..defaults
    };
    let ring_capacity = config.ring_bytes;
    let mut s = match opts.link {
        Some(second) => {
            let rom2 = crate::game::rom::read(second, opts.power.force, &[])?;
            Session::power_on_linked(
                (rom, opts.power.power_on(None)),
                (rom2, opts.power.power_on(None)),
                config,
            )
            .context("cannot start the linked pair")?
        }
        None => Session::power_on(rom, opts.power.power_on(None), config)
            .context("cannot start a session")?,
    };
    crate::scripted::load_scripts(&mut s, opts.scripts, None)?;
    let mut capture = Vec::with_capacity(opts.frames as usize);
    let (mut total, mut core) = (0u64, 0u64);
    let t = Instant::now();
    for f in 0..opts.frames {
        s.set_buttons(gameplay_input(f));
        s.set_player_buttons(1, gameplay_input(f.saturating_sub(3)));
        s.run_frame();
        let st = s.stats();
        capture.push(st.capture_ns as f64 / 1000.0);
        total += st.record_bytes as u64;
        core += st.record_core_bytes as u64;
    }
    let secs = t.elapsed().as_secs_f64().max(1e-9);
    // The newest records, not yet sealed into a batch, reported nothing yet: count them as
    // they are stored now.
    let (open, open_core) = s.history().open_bytes();
    total += open as u64;
    core += open_core as u64;
    for line in s.take_console() {
        if line.text.starts_with("error") {
            eprintln!("script {}: {}", line.slot, line.text);
        }
    }
    let emulated = opts.frames as f64 / FPS;
    let (first, last) = s
        .history()
        .frames()
        .context("the rewind history is empty")?;
    let held = last - first;
    let per_frame = total as f64 / opts.frames.max(1) as f64;
    let history = if first > 0 {
        held as f64 / FPS
    } else {
        ring_capacity as f64 / per_frame.max(1.0) / FPS
    };
    // Step back: from the live end, one frame at a time.
    let mut back = Vec::new();
    let mut back_shown = Vec::new();
    let steps = 200.min(held.saturating_sub(1));
    for _ in 0..steps {
        let target = s.frame() - 1;
        let t = Instant::now();
        s.restore(target)?;
        back.push(t.elapsed().as_secs_f64() * 1e6);
    }
    for _ in 0..steps.min(100) {
        let t = Instant::now();
        s.step_back()?;
        back_shown.push(t.elapsed().as_secs_f64() * 1e6);
    }
    // Seek to the oldest frames (the worst case: farthest from the live end), from the end.
    let mut seek = Vec::new();
    for k in 0..7 {
        s.restore(last)?;
        let target = (first + 1 + k * 37).min(last);
        let t = Instant::now();
        s.seek(target)?;
        seek.push(t.elapsed().as_secs_f64() * 1e3);
    }
    for script in s.scripts() {
        let a = script.arena();
        eprintln!(
            "script {} ({}): arena {} KiB used, {} KiB up to the high-water mark",
            script.slot,
            script.name,
            a.used / 1024,
            a.high_water / 1024
        );
    }
    println!("fps: {:.0}", opts.frames as f64 / secs);
    println!("rewind-bytes-per-sec: {:.0}", total as f64 / emulated);
    println!("rewind-core-bytes-per-sec: {:.0}", core as f64 / emulated);
    println!(
        "rewind-script-bytes-per-sec: {:.0}",
        (total - core) as f64 / emulated
    );
    let capture_mean = capture.iter().sum::<f64>() / capture.len().max(1) as f64;
    println!("capture-us: {:.1}", median(capture));
    println!("capture-mean-us: {capture_mean:.1}");
    println!("step-back-us: {:.1}", median(back));
    println!("step-back-shown-us: {:.1}", median(back_shown));
    println!("seek-ms: {:.2}", median(seek));
    println!("history-seconds: {history:.0}");
    eprintln!(
        "ring: {} frames held ({:.1} s), {:.1} MiB of {:.0} MiB used, {} KiB of script base \
         images beside it; {}",
        held + 1,
        held as f64 / FPS,
        s.history().used_bytes() as f64 / (1 << 20) as f64,
        ring_capacity as f64 / (1 << 20) as f64,
        s.history().base_bytes() / 1024,
        if first > 0 {
            "the ring filled: history-seconds is what it held"
        } else {
            "the ring did not fill: history-seconds is extrapolated from the bytes per frame"
        }
    );
    Ok(())
}
