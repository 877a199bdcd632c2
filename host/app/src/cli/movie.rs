//! `gbhost movie record|play|info|compact|convert`: TAS movies from the command line.
//!
//! Output contract: `record` prints `recorded N` each time a chunk reaches the file (every
//! emulated second) and `movie: FILE, N frames` at the end; `play` prints `frame N/M` on
//! stderr every 600 frames, then `played: N frames, C checks` and `desync: none` or
//! `desync: frame F expected H got H` (exit 1); `info` prints `key: value` lines.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use gb_core::Buttons;
use gb_session::movie::{self, Movie, Recorder};
use gb_session::{Session, SessionConfig, StateFile};

/// Arguments of `gbhost movie`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(clap::Subcommand, Debug)]
enum Sub {
    /// Record a movie headless: scripts and (optionally) generated input, from power-on or
    /// from a state file.
    Record(RecordArgs),
    /// Play a movie to its end with the desync detector; exit 1 on a desync.
    Play(PlayArgs),
    /// Print a movie's header, length, chunks and sizes.
    Info {
        /// The movie file.
        movie: PathBuf,
    },
    /// Rewrite a movie (a finished or interrupted recording) as one compact file.
    Compact {
        /// The movie file.
        movie: PathBuf,
        /// Write here instead of replacing the movie.
        #[arg(long)]
        out: Option<PathBuf>,
        /// zstd level.
        #[arg(long, default_value_t = 19)]
        level: i32,
    },
    /// Convert between gbhost movies (.gbm) and BizHawk movies (.bk2), by extension.
    Convert {
        /// The movie to read.
        input: PathBuf,
        /// The movie to write.
        output: PathBuf,
        /// The ROM (both ways: a .bk2 names it by SHA-1 and holds the length found by
        /// playing the movie; a .gbm's state checks come from playing it).
        #[arg(long)]
        rom: Option<PathBuf>,
        /// Player 2's ROM, for a movie of two linked Game Boys (BizHawk's GambatteLink).
        #[arg(long, value_name = "ROM2")]
        link: Option<PathBuf>,
        /// The boot ROM the movie starts with (a .bk2 holds its SHA-1).
        #[arg(long, value_name = "FILE")]
        boot_rom: Option<PathBuf>,
        /// Replace an existing output file.
        #[arg(long)]
        overwrite: bool,
        /// Convert despite a ROM or boot ROM whose hash differs from the movie's, a start
        /// BizHawk would play differently, or Power presses gbhost cannot replay (each with a
        /// warning); and run a cartridge type gbhost does not emulate with a stand-in mapper.
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        patch: crate::game::rom_patches::PatchArgs,
    },
}

#[derive(clap::Args, Debug)]
struct RecordArgs {
    /// The ROM.
    rom: PathBuf,
    #[command(flatten)]
    power: crate::game::rom::PowerArgs,
    #[command(flatten)]
    patch: crate::game::rom_patches::PatchArgs,
    /// The movie file to write (replaced if it exists).
    #[arg(long)]
    out: PathBuf,
    /// Frames to record.
    #[arg(long, default_value_t = 600)]
    frames: u64,
    /// Scripts to load at the start (repeatable).
    #[arg(long, value_name = "FILE.lua")]
    script: Vec<PathBuf>,
    /// Scripts to load at the start on player 2's Game Boy (with --link; repeatable).
    #[arg(long, value_name = "FILE.lua", requires = "link")]
    script2: Vec<PathBuf>,
    /// Generate varied input (frame-aligned and sub-frame joypad changes) from this seed.
    #[arg(long, value_name = "SEED")]
    random_input: Option<u64>,
    /// With --random-input: only frame-aligned changes (what a .bk2 can hold).
    #[arg(long, requires = "random_input")]
    aligned: bool,
    /// Start from this state file instead of power-on.
    #[arg(long, value_name = "FILE.gbs")]
    from_state: Option<PathBuf>,
    /// Record two Game Boys on a link cable, the second running this ROM (the same power-on
    /// options): the movie holds both players' input (--random-input drives both).
    #[arg(long, value_name = "ROM2")]
    link: Option<PathBuf>,
    /// Author (repeatable).
    #[arg(long)]
    author: Vec<String>,
    /// What the movie is (free text, in its header's `description`).
    #[arg(long)]
    description: Option<String>,
    /// Run at most this many frames per second (default: as fast as possible).
    #[arg(long)]
    fps: Option<u32>,
    /// Compact the movie when done.
    #[arg(long)]
    compact: bool,
    /// Replace an existing movie file.
    #[arg(long)]
    overwrite: bool,
}

#[derive(clap::Args, Debug)]
struct PlayArgs {
    /// The ROM.
    rom: PathBuf,
    /// The movie file.
    movie: PathBuf,
    /// The second player's ROM, for a movie of two linked Game Boys.
    #[arg(long, value_name = "ROM2")]
    link: Option<PathBuf>,
    #[command(flatten)]
    patch: crate::game::rom_patches::PatchArgs,
    /// Stop at this frame (seeking there from the nearest keyframe when possible).
    #[arg(long)]
    to: Option<u64>,
    /// Write the last frame as a PNG.
    #[arg(long, value_name = "FILE.png")]
    screenshot: Option<PathBuf>,
    /// The model to play on (`auto`: the movie's; another than the movie's is refused).
    #[arg(long, value_name = "auto|dmg|cgb", default_value = "auto", value_parser = crate::game::rom::parse_model)]
    model: gb_core::ModelChoice,
    /// Run a cartridge type gbhost does not emulate with a stand-in mapper (a movie recorded
    /// with `--force` plays with it).
    #[arg(long)]
    force: bool,
    /// With --to: write one line per frame played (see `gbhost headless --trace`).
    #[arg(long, value_name = "FILE", requires = "to")]
    trace: Option<PathBuf>,
    /// The folder whose files the movie's scripts read and write (their `io` calls), as their
    /// own folder was when recording; without it they have no files.
    #[arg(long, value_name = "DIR")]
    script_dir: Option<PathBuf>,
}

/// Run `gbhost movie …`.
pub fn run(args: &Args) -> Result<()> {
    match &args.command {
        Sub::Record(a) => record(a),
        Sub::Play(a) => play(a),
        Sub::Info { movie } => info(movie),
        Sub::Compact { movie, out, level } => {
            let dst = out.as_deref().unwrap_or(movie);
            gb_session::movie::container::compact(movie, dst, *level)
                .with_context(|| format!("cannot compact {}", movie.display()))?;
            println!("compacted: {} bytes", std::fs::metadata(dst)?.len());
            Ok(())
        }
        Sub::Convert {
            input,
            output,
            rom,
            link,
            boot_rom,
            overwrite,
            force,
            patch,
        } => {
            if output.exists() {
                if !overwrite {
                    bail!(
                        "{} already exists (--overwrite replaces it)",
                        output.display()
                    );
                }
                remove_movie(output);
            }
            let options = crate::movie_convert::Options {
                rom: rom.as_deref(),
                link: link.as_deref(),
                boot_rom: boot_rom.as_deref(),
                force: *force,
                patches: &patch.patches,
            };
            convert(input, output, &options)
        }
    }
}

/// A small deterministic generator (xorshift64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn record(a: &RecordArgs) -> Result<()> {
    let rom = crate::game::rom::read(&a.rom, a.power.force, &a.patch.patches)?;
    let config = SessionConfig {
        desync_check: false,
        ring_bytes: 16 << 20,
        image_key: crate::state_key::get(),
        force_unsupported: a.power.force,
        script_data: crate::scripted::script_data_dir(),
        ..SessionConfig::default()
    };
    let mut session = match &a.from_state {
        Some(p) => {
            // A movie's start state restarts its scripts on playback: so does the recording.
            let mut file = StateFile::read(p)?;
            file.images.clear();
            let roms = crate::scripted::roms(rom, a.link.as_deref(), a.power.force)?;
            Session::from_state_file(roms, None, config, &file)?
        }
        None => crate::scripted::power_on(&a.rom, rom, a.link.as_deref(), a.power, None, config)?,
    };
    crate::scripted::load_scripts(&mut session, &a.script, None)?;
    crate::scripted::load_player_scripts(&mut session, &a.script2, None, 1)?;
    if a.overwrite {
        remove_movie(&a.out);
    }
    let mut meta = BTreeMap::new();
    meta.insert("recorded_by".to_owned(), "gbhost movie record".to_owned());
    if let Some(d) = a.description.as_ref().filter(|d| !d.is_empty()) {
        meta.insert("description".to_owned(), d.clone());
    }
    let mut rec = Recorder::create(&a.out, &mut session, a.author.clone(), meta)
        .with_context(|| format!("cannot record to {}", a.out.display()))?;
    let mut rng = a.random_input.map(|s| Rng(s | 1));
    let frame_time = a
        .fps
        .map(|f| Duration::from_secs_f64(1.0 / f64::from(f.max(1))));
    let t0 = Instant::now();
    let mut flushed = 0;
    let mut out = std::io::stdout();
    for n in 0..a.frames {
        if let Some(r) = &mut rng {
            let x = r.next();
            if x % 6 == 0 {
                session.set_buttons(Buttons((x >> 8) as u8));
            } else if x % 6 == 3 {
                // The second player of a pair (nothing for one Game Boy).
                session.set_player_buttons(1, Buttons((x >> 8) as u8));
            } else if x % 23 == 1 && !a.aligned {
                // A change in the middle of the frame.
                let at = session.gb().cycles() + (x >> 16) % 70_000;
                session.set_buttons_at(Buttons((x >> 24) as u8), at);
            }
        }
        session.run_frame();
        for line in session.take_console() {
            println!("log: {}", line.text);
        }
        rec.after_frame(&mut session)?;
        let chunks = (rec.end_frame() - rec.header.start_frame) / u64::from(movie::CHUNK_FRAMES);
        if chunks != flushed {
            flushed = chunks;
            let _ = writeln!(out, "recorded {}", rec.end_frame() - rec.header.start_frame);
            let _ = out.flush();
        }
        if let Some(ft) = frame_time {
            let due = t0 + ft * (n as u32 + 1);
            if let Some(wait) = due.checked_duration_since(Instant::now()) {
                std::thread::sleep(wait);
            }
        }
    }
    let frames = rec.end_frame() - rec.header.start_frame;
    let path = rec.finish()?;
    if a.compact {
        gb_session::movie::container::compact(&path, &path, 19)?;
    }
    println!("movie: {}, {frames} frames", path.display());
    Ok(())
}

fn play(a: &PlayArgs) -> Result<()> {
    let rom = crate::game::rom::read(&a.rom, a.force, &a.patch.patches)?;
    let rom = crate::scripted::roms(rom, a.link.as_deref(), a.force)?;
    let movie = Movie::open(&a.movie).with_context(|| format!("{}", a.movie.display()))?;
    if let gb_core::ModelChoice::Fixed(model) = a.model {
        movie.check_model(model)?;
    }
    let config = SessionConfig {
        desync_check: false,
        ring_bytes: 16 << 20,
        image_key: crate::state_key::get(),
        force_unsupported: a.force,
        script_folder: a.script_dir.clone(),
        script_data: crate::scripted::script_data_dir(),
        ..SessionConfig::default()
    };
    let total = movie.end_frame();
    let (report_frames, checks, desync, session) = match a.to {
        Some(to) => {
            let t0 = std::time::Instant::now();
            let mut trace = String::new();
            let (session, feeder) = movie.session_at(rom, config, to, |s| {
                if a.trace.is_some() {
                    let logs: Vec<String> = s
                        .take_console()
                        .iter()
                        .flat_map(|l| l.text.lines().map(str::to_owned))
                        .collect();
                    trace.push_str(&s.trace_line(&logs));
                }
                if s.frame() % 600 == 0 {
                    eprintln!("frame {}/{to}", s.frame());
                }
            })?;
            println!(
                "seek: from frame {} ({}) in {:.1} ms",
                feeder.start,
                if feeder.start > movie.header.start_frame {
                    "a keyframe"
                } else {
                    "the start"
                },
                t0.elapsed().as_secs_f64() * 1000.0
            );
            if let Some(p) = &a.trace {
                gb_session::files::write_atomic(p, trace.as_bytes())
                    .with_context(|| format!("cannot write the trace '{}'", p.display()))?;
            }
            (session.frame(), feeder.checks, feeder.desync, session)
        }
        None => {
            let (report, session) = movie::play(&movie, rom, config, |_, s| {
                eprintln!("frame {}/{total}", s.frame());
            })?;
            (report.frames, report.checks, report.desync, session)
        }
    };
    if let Some(p) = &a.screenshot {
        match session.machine().player_picture(1) {
            Some(second) => {
                let screens = [
                    crate::screenshot::to_rgb(session.picture()),
                    crate::screenshot::to_rgb(second),
                ];
                crate::screenshot::write_side_by_side(p, &screens)?;
            }
            None => crate::screenshot::write(p, session.picture())?,
        }
    }
    println!("played: {report_frames} frames, {checks} checks");
    if let Some(note) = movie.core_note() {
        println!("unverified: {note}");
        return Ok(());
    }
    match desync {
        None => {
            println!("desync: none");
            Ok(())
        }
        Some(d) => {
            println!(
                "desync: frame {} expected {:016x} got {:016x}",
                d.frame, d.expected, d.got
            );
            Err(crate::scripted::SyncMismatch.into())
        }
    }
}

fn info(path: &Path) -> Result<()> {
    let movie = Movie::open(path).with_context(|| format!("{}", path.display()))?;
    let h = &movie.header;
    println!("rom: {} ({:016x})", h.rom_title, h.rom_hash);
    println!("model: {}", h.model);
    if let Some(b) = &h.second {
        println!(
            "player 2: {} ({:016x}), {} (a linked pair: play it with --link)",
            b.rom_title, b.rom_hash, b.model
        );
    }
    println!(
        "start: {}",
        match &h.start {
            movie::Start::PowerOn { .. } => "power-on".to_owned(),
            movie::Start::State(b) => format!("state ({} bytes)", b.len()),
        }
    );
    println!("start frame: {}", h.start_frame);
    println!(
        "core: version {}{}",
        h.core_version,
        if movie.other_core().is_some() {
            format!(" (this build: {})", gb_core::CORE_VERSION)
        } else {
            String::new()
        }
    );
    println!("frame rule: {}", h.frame_rule);
    println!("frames: {}", movie.frames());
    println!("rerecords: {}", h.rerecords);
    println!("authors: {}", h.authors.join(", "));
    for (k, v) in &h.metadata {
        println!("meta {k}: {v}");
    }
    println!(
        "form: {}",
        if movie.is_compact() {
            "compact"
        } else {
            "journal"
        }
    );
    let mut keyframes = 0;
    let mut events = 0;
    let mut without_keys = 0usize;
    let mut key_bytes = 0usize;
    for i in 0..movie.chunks().len() {
        let mut c = movie.chunk(i)?;
        events += c.events.len();
        if let Some(k) = c.keyframe.take() {
            keyframes += 1;
            key_bytes += zstd::bulk::compress(&k, 19).map_or(k.len(), |z| z.len());
        }
        let raw = c.encode(movie.chunks()[i].meta.start_frame);
        without_keys += zstd::bulk::compress(&raw, 19).map_or(raw.len(), |z| z.len());
    }
    println!("chunks: {} ({keyframes} keyframes)", movie.chunks().len());
    println!("events: {events}");
    println!("file bytes: {}", std::fs::metadata(path)?.len());
    println!("bytes without keyframes (zstd 19): {without_keys}");
    println!("keyframe bytes (zstd 19): {key_bytes}");
    Ok(())
}

fn convert(input: &Path, output: &Path, options: &crate::movie_convert::Options<'_>) -> Result<()> {
    let ext = |p: &Path| {
        p.extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default()
    };
    match (ext(input).as_str(), ext(output).as_str()) {
        ("gbm", "bk2") => crate::movie_convert::to_bk2(input, output, options),
        ("bk2", "gbm") => crate::movie_convert::to_gbm(input, output, options),
        (a, b) => bail!("cannot convert .{a} to .{b} (gbm ↔ bk2)"),
    }
}

/// Remove a movie file and its index (for --overwrite).
fn remove_movie(path: &Path) {
    let _ = std::fs::remove_file(path);
    let mut idx = path.as_os_str().to_owned();
    idx.push(".idx");
    let _ = std::fs::remove_file(PathBuf::from(idx));
}
