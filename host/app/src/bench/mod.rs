//! `gbhost bench`: emulation speed, the median of several timed rounds.
//!
//! Each round loads the ROM afresh (not timed) and runs N frames headless, every frame fully
//! emulated and rendered, and its audio generated and drained as the app does (`--no-audio`
//! turns sample generation off, to measure what audio costs; `--no-render` emulates frames
//! without drawing them, as a bot does). Prints `fps: X` and
//! `mcycles-per-sec: Y` (M-cycles, 1,048,576 per emulated second), both medians; each
//! round's line on stderr also says how many lines the PPU kept rather than drew (a still
//! picture costs nothing to draw, so a ROM's title screen flatters its figure). `--movie
//! FILE.gbm` runs a recorded movie's gameplay instead of the ROM's first frames with no input
//! (`bench/movie.rs`); `--link ROM2` two linked Game Boys against one (`bench/link.rs`).

mod editor;
mod link;
mod movie;
mod paint;
mod rewind;
mod search;
mod stats;

use stats::median;

use anyhow::Result;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `gbhost bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The ROM file to run (none with --editor-paint or --search-list).
    #[arg(required_unless_present_any = ["editor_paint", "search_list"])]
    rom: Option<PathBuf>,
    /// Frames per round (default 3200; with --rewind, 36000: ten minutes of gameplay; with
    /// --movie, the whole movie).
    #[arg(long)]
    frames: Option<u64>,
    /// Timed rounds (the median is reported).
    #[arg(long, default_value_t = 5)]
    rounds: usize,
    /// Do not generate audio samples.
    #[arg(long)]
    no_audio: bool,
    /// Emulate frames without drawing them (a bot's mode: same timing, no pixels).
    #[arg(long)]
    no_render: bool,
    #[command(flatten)]
    power: crate::game::rom::PowerArgs,
    #[command(flatten)]
    patch: crate::game::rom_patches::PatchArgs,
    /// Run this movie's input, frame by frame, as the workload (recorded on ROM; its start
    /// replaces the power-on options). Its state checks are compared once, untimed, before
    /// the rounds.
    #[arg(long, value_name = "FILE.gbm", conflicts_with_all = ["rewind", "editor_paint", "search_list"])]
    movie: Option<PathBuf>,
    /// With --movie: time from this frame of the movie on (where its gameplay starts); the
    /// frames before run once, untimed.
    #[arg(long, value_name = "FRAME", requires = "movie", default_value_t = 0)]
    from: u64,
    /// Measure the rewind history instead: a session capturing every frame, on gameplay
    /// (see `bench/rewind.rs` for the figures printed).
    #[arg(long)]
    rewind: bool,
    /// With --rewind: load this Lua script (repeatable).
    #[arg(long, value_name = "FILE.lua", requires = "rewind")]
    script: Vec<PathBuf>,
    /// With --rewind: how core diffs are stored (zstd, lz4 or stored).
    #[arg(long, requires = "rewind")]
    core_method: Option<String>,
    /// With --rewind: how script arena diffs are stored (zstd, lz4 or stored).
    #[arg(long, requires = "rewind")]
    script_method: Option<String>,
    /// Measure the TAS editor's piano roll instead: the time to draw it over a movie of
    /// --frames frames (default 100,000), --rounds × 40 passes.
    #[arg(long, conflicts_with = "rewind")]
    editor_paint: bool,
    /// Measure the RAM Search window's candidate list instead: the time to draw it with
    /// --frames candidates (default 10,000), --rounds × 40 passes.
    #[arg(long, conflicts_with_all = ["rewind", "editor_paint"])]
    search_list: bool,
    /// Run ROM on a link cable with a second Game Boy running ROM2, against one machine
    /// in the same run (`pair-ratio`: the pair's fps over one machine's); with --rewind, the
    /// pair's rewind history.
    #[arg(long, value_name = "ROM2", conflicts_with_all = ["movie", "editor_paint", "search_list"])]
    link: Option<PathBuf>,
}

/// Run `gbhost bench`.
pub fn run(args: &Args) -> Result<()> {
    if args.editor_paint {
        let frames = usize::try_from(args.frames.unwrap_or(100_000)).unwrap_or(usize::MAX);
        return crate::bench::editor::run(frames.min(10_000_000), args.rounds.max(1) * 40);
    }
    if args.search_list {
        let n = usize::try_from(args.frames.unwrap_or(10_000)).unwrap_or(usize::MAX);
        return crate::bench::search::run(n.min(1_000_000), args.rounds.max(1) * 40);
    }
    let Some(rom) = &args.rom else {
        anyhow::bail!("which ROM? `gbhost bench ROM`");
    };
    if args.rewind {
        return crate::bench::rewind::run(&crate::bench::rewind::Options {
            rom,
            power: args.power,
            patches: &args.patch.patches,
            scripts: &args.script,
            frames: args.frames.unwrap_or(36_000),
            core_method: args.core_method.as_deref(),
            script_method: args.script_method.as_deref(),
            link: args.link.as_deref(),
        });
    }
    if let Some(second) = &args.link {
        return crate::bench::link::run(&crate::bench::link::Options {
            rom,
            second,
            power: args.power,
            patches: &args.patch.patches,
            frames: args.frames.unwrap_or(3200),
            rounds: args.rounds,
        });
    }
    if let Some(movie) = &args.movie {
        return crate::bench::movie::run(&crate::bench::movie::Options {
            rom,
            movie,
            patches: &args.patch.patches,
            force: args.power.force,
            from: args.from,
            frames: args.frames,
            rounds: args.rounds,
            audio: !args.no_audio,
            render: !args.no_render,
        });
    }
    let frames = args.frames.unwrap_or(3200);
    let rounds = args.rounds.max(1);
    let mut fps = Vec::with_capacity(rounds);
    let mut mcps = Vec::with_capacity(rounds);
    for round in 0..rounds {
        let mut gb = crate::game::rom::load(rom, None, args.power, &args.patch.patches)?;
        gb.set_audio_enabled(!args.no_audio);
        gb.set_rendering(!args.no_render);
        let mut audio = vec![(0, 0); gb_core::apu::RING_CAPACITY];
        let mut samples = 0usize;
        let start_cycles = gb.cycles();
        let t = Instant::now();
        for _ in 0..frames {
            gb.run_frame();
            samples += gb.drain_audio(&mut audio);
        }
        std::hint::black_box(samples);
        let secs = t.elapsed().as_secs_f64().max(1e-9);
        let mcycles = (gb.cycles() - start_cycles) as f64 / 4.0;
        let kept =
            gb.lines_kept() as f64 / (frames as f64 * gb_core::screen::GAME.height as f64).max(1.0);
        eprintln!(
            "round {}: {:.0} fps, {:.1} M-cycles/s, {:.0} % of lines kept from the frame before",
            round + 1,
            frames as f64 / secs,
            mcycles / secs / 1e6,
            kept * 100.0
        );
        fps.push(frames as f64 / secs);
        mcps.push(mcycles / secs / 1e6);
    }
    println!("fps: {:.0}", median(fps));
    println!("mcycles-per-sec: {:.1}", median(mcps));
    Ok(())
}
