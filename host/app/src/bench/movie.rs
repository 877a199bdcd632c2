//! `gbhost bench ROM --movie FILE.gbm`: emulation speed on a recorded movie's gameplay.
//!
//! A title screen flatters a benchmark (a still picture costs nothing to draw), so the
//! workload here is a movie's input, frame by frame, from `--from FRAME` (where its gameplay
//! starts) on. The movie's start machine (power-on or its start state) is made by a session as
//! playback makes it; one untimed pass then plays the input on a copy of it, compares the
//! core's state with the movie's check at every chunk start (so the figures are those of the
//! recorded gameplay; a movie of another core version cannot be checked and is said to be
//! unverified) and keeps the machine at `--from`. Each timed round runs a fresh copy of that
//! machine and only sets each frame's buttons and runs the frame, as `gbhost bench` runs one:
//! nothing is checked while timed. A movie whose input a frame-by-frame replay would not carry
//! exactly (joypad changes in the middle of a frame, pokes, scripts) is refused.

use anyhow::{Context, Result, bail};
use gb_core::{Buttons, Gb};
use gb_session::SessionConfig;
use gb_session::movie::Movie;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Options of the movie bench.
pub struct Options<'a> {
    /// The ROM the movie was recorded on.
    pub rom: &'a Path,
    /// The movie.
    pub movie: &'a Path,
    /// Patches for the ROM (a movie belongs to the patched ROM's hash).
    pub patches: &'a [PathBuf],
    /// Run a cartridge type gbhost does not emulate with a stand-in mapper.
    pub force: bool,
    /// The movie's frame (counted from its start) the timed part starts at.
    pub from: u64,
    /// Frames per round from there: at most the rest of the movie (all of it when `None`).
    pub frames: Option<u64>,
    /// Timed rounds.
    pub rounds: usize,
    /// Generate audio samples (and drain them, as the app does).
    pub audio: bool,
    /// Draw the frames.
    pub render: bool,
}

/// One round's figures.
#[derive(Clone, Copy, Debug)]
pub struct Round {
    /// Frames per second.
    pub fps: f64,
    /// Emulated M-cycles per second, in millions.
    pub mcycles: f64,
    /// The share of lines the PPU kept from the frame before (0-1).
    pub kept: f64,
}

/// The movie's input, one set of buttons per frame from its start, and the session-made
/// machine at its start.
struct Input {
    start: Gb,
    buttons: Vec<Buttons>,
    /// Each joypad change: the frame (from the movie's start) and the cycle it was logged at.
    changes: Vec<(usize, u64)>,
}

/// Read the movie and make its start machine; refuse input a frame-by-frame replay drops.
fn input(o: &Options<'_>) -> Result<(Input, Movie)> {
    let rom = crate::game::rom::read(o.rom, o.force, o.patches)?;
    let movie = Movie::open(o.movie).with_context(|| format!("{}", o.movie.display()))?;
    let (buttons, dropped) = movie.frame_buttons()?;
    if dropped > 0 {
        bail!(
            "{} holds {dropped} events a frame-by-frame replay would drop (joypad changes in \
             the middle of a frame, pokes, scripts): the movie bench needs a movie of \
             frame-aligned joypad input only",
            o.movie.display()
        );
    }
    let config = SessionConfig {
        desync_check: false,
        ring_bytes: 1 << 20,
        force_unsupported: o.force,
        ..SessionConfig::default()
    };
    let mut changes = Vec::new();
    for i in 0..movie.chunks().len() {
        for e in movie.chunk(i)?.events {
            if let gb_session::EventKind::Joypad(_) = e.kind {
                let f = e.frame.saturating_sub(movie.header.start_frame);
                changes.push((usize::try_from(f).unwrap_or(usize::MAX), e.cycle));
            }
        }
    }
    let session = movie.session(rom, config)?;
    let start = session.gb().clone();
    Ok((
        Input {
            start,
            buttons,
            changes,
        },
        movie,
    ))
}

/// A machine set up as a round runs it.
fn prepared(gb: &Gb, o: &Options<'_>) -> Gb {
    let mut gb = gb.clone();
    gb.set_audio_enabled(o.audio);
    gb.set_rendering(o.render);
    gb
}

/// The untimed pass: play the input from the movie's start, check that every joypad change
/// was logged at its frame's first cycle and compare the core's state with the movie's check
/// at every chunk start, up to the end of the timed frames (neither when the movie is of
/// another core: its cycles are another core's), and return the machine at frame `o.from`
/// and the state checks made. The pass runs as the movie was recorded, with audio and
/// drawing on (the state image holds their state); the rounds switch them as asked.
fn verify(input: &Input, end: usize, movie: &Movie, o: &Options<'_>) -> Result<(Gb, u64)> {
    let from = usize::try_from(o.from).unwrap_or(usize::MAX);
    let first = movie.header.start_frame;
    let mut checks_at = Vec::new();
    if movie.other_core().is_none() {
        for (i, c) in movie.chunks().iter().enumerate() {
            let at =
                usize::try_from(c.meta.start_frame.saturating_sub(first)).unwrap_or(usize::MAX);
            if at <= end {
                checks_at.push((at, i));
            }
        }
    }
    // As the movie was recorded (audio and pixels on): both are in the state it checks.
    let mut gb = input.start.clone();
    let mut audio = vec![(0, 0); gb_core::apu::RING_CAPACITY];
    let mut image = Vec::new();
    let mut at_from = None;
    let mut checks = checks_at.iter().peekable();
    let verified = movie.other_core().is_none();
    let mut changes = input.changes.iter().peekable();
    let mut made = 0;
    for f in 0..=end {
        if f == from {
            at_from = Some(gb.clone());
        }
        while let Some(&(_, i)) = checks.next_if(|(at, _)| *at == f) {
            image.clear();
            gb.save_state(&mut image);
            let expected = movie.chunk(i)?.state_hash;
            let got = gb_session::fnv1a(&image);
            if got != expected {
                bail!(
                    "{} desyncs at frame {f} (state {got:016x}, the movie's {expected:016x}): \
                     its input does not replay frame by frame on this build",
                    o.movie.display()
                );
            }
            made += 1;
        }
        while let Some(&(_, cycle)) = changes.next_if(|(at, _)| *at == f) {
            if verified && cycle != gb.cycles() {
                bail!(
                    "{} changes the joypad inside frame {f} (at cycle {cycle}; the frame starts \
                     at {}): the movie bench needs a movie of frame-aligned joypad input only",
                    o.movie.display(),
                    gb.cycles()
                );
            }
        }
        if f < end {
            gb.set_buttons(input.buttons[f]);
            gb.run_frame();
            gb.drain_audio(&mut audio);
        }
    }
    let gb = at_from.context("the timed part's first frame was not reached")?;
    Ok((gb, made))
}

/// One timed round: `buttons` on a fresh copy of `start`.
fn round(start: &Gb, buttons: &[Buttons], o: &Options<'_>) -> Round {
    let mut gb = prepared(start, o);
    let mut audio = vec![(0, 0); gb_core::apu::RING_CAPACITY];
    let mut samples = 0usize;
    let start_cycles = gb.cycles();
    let start_kept = gb.lines_kept();
    let t = Instant::now();
    for &b in buttons {
        gb.set_buttons(b);
        gb.run_frame();
        samples += gb.drain_audio(&mut audio);
    }
    std::hint::black_box(samples);
    let secs = t.elapsed().as_secs_f64().max(1e-9);
    let frames = buttons.len() as f64;
    let mcycles = (gb.cycles() - start_cycles) as f64 / 4.0;
    Round {
        fps: frames / secs,
        mcycles: mcycles / secs / 1e6,
        kept: (gb.lines_kept() - start_kept) as f64 / (frames * 144.0).max(1.0),
    }
}

/// Run the movie bench: prints `movie: …` and each round on stderr, then `fps: X` and
/// `mcycles-per-sec: Y` (medians) on stdout, as `gbhost bench` does.
pub fn run(o: &Options<'_>) -> Result<()> {
    let (input, movie) = input(o)?;
    let total = input.buttons.len();
    let from = usize::try_from(o.from).unwrap_or(usize::MAX);
    if from >= total {
        bail!(
            "{} has {total} frames: --from {from} leaves none to time",
            o.movie.display()
        );
    }
    let mut end = total;
    if let Some(n) = o.frames {
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        if n > total - from {
            eprintln!(
                "the movie has {} frames from frame {from}: --frames {n} runs those",
                total - from
            );
        }
        end = from.saturating_add(n).min(total);
    }
    if end == from {
        bail!("no frames to time (--frames 0)");
    }
    let (start, checks) = verify(&input, end, &movie, o)?;
    let timed = &input.buttons[from..end];
    match movie.core_note() {
        Some(note) => eprintln!(
            "movie: frames {from}-{} of {total} timed, unverified: {note}",
            end - 1
        ),
        None => eprintln!(
            "movie: frames {from}-{} of {total} timed; {checks} state checks matched \
             (before the rounds, not timed)",
            end - 1
        ),
    }
    let rounds = o.rounds.max(1);
    let mut fps = Vec::with_capacity(rounds);
    let mut mcps = Vec::with_capacity(rounds);
    for n in 0..rounds {
        let r = round(&start, timed, o);
        eprintln!(
            "round {}: {:.0} fps, {:.1} M-cycles/s, {:.0} % of lines kept from the frame before",
            n + 1,
            r.fps,
            r.mcycles,
            r.kept * 100.0
        );
        fps.push(r.fps);
        mcps.push(r.mcycles);
    }
    println!("fps: {:.0}", super::stats::median(fps));
    println!("mcycles-per-sec: {:.1}", crate::bench::median(mcps));
    Ok(())
}
