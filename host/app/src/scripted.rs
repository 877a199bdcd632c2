//! `gbhost headless` with scripts or the sync test: the run goes through a [`Session`], so
//! scripts run as in the app (and rewind with the game), their console lines are printed as
//! `log: TEXT` while the run goes on, and `--sync-test K` rolls back K frames after every frame,
//! replays them and compares core and scripts byte for byte with what was recorded.

use anyhow::{Context, Result, bail};
use gb_session::{Roms, Session, SessionConfig};
use std::path::{Path, PathBuf};

/// The sync test found frames that replayed differently (exit status 1).
#[derive(Debug)]
pub struct SyncMismatch;

impl std::fmt::Display for SyncMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("sync test: frames replayed differently from their record")
    }
}

impl std::error::Error for SyncMismatch {}

/// A script failed during a headless run (its error is in the `log:` lines): exit status 1.
#[derive(Debug)]
pub struct ScriptFailed;

impl std::fmt::Display for ScriptFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(
            "a script failed (its error is in the log above); --keep-going runs every frame anyway",
        )
    }
}

impl std::error::Error for ScriptFailed {}

/// Whether a loaded script has failed.
pub fn script_failed(session: &Session) -> bool {
    session
        .scripts()
        .any(|s| s.active && matches!(s.status(), gb_session::Status::Failed(_)))
}

/// What a scripted run needs from the command line.
pub struct Run<'a> {
    /// The ROM.
    pub rom: &'a Path,
    /// An optional boot ROM.
    pub boot_rom: Option<&'a Path>,
    /// How the machine powers on.
    pub power: crate::game::rom::PowerArgs,
    /// Patches for the ROM (none: the one beside it, if any).
    pub patches: &'a [PathBuf],
    /// Scripts to load before the first frame, in order.
    pub scripts: &'a [PathBuf],
    /// Scripts to load on player 2's Game Boy after them (with `link`).
    pub scripts2: &'a [PathBuf],
    /// The API they are written for (`None`: guessed from each source).
    pub api: Option<gb_session::Flavor>,
    /// Frames to run.
    pub frames: u64,
    /// Roll back this many frames after every frame and compare the replay.
    pub sync_test: Option<u64>,
    /// Write the run's audio here (the timeline's, not the sync test's replays).
    pub wav: Option<&'a Path>,
    /// Start from this state file instead of power-on.
    pub from_state: Option<&'a Path>,
    /// Save a state file here after the last frame.
    pub save_state: Option<&'a Path>,
    /// Write a per-frame trace here (see `gbhost headless --trace`).
    pub trace: Option<&'a Path>,
    /// Run every frame even after a script failed (otherwise the run ends after that frame).
    pub keep_going: bool,
    /// A second Game Boy on a link cable, running this ROM (the same power-on options).
    pub link: Option<&'a Path>,
}

/// The ROMs of a session: `rom` (read already), and with `link` the second player's, read
/// from that file (no patches: those are the first ROM's).
pub fn roms(rom: Vec<u8>, link: Option<&Path>, force: bool) -> Result<Roms> {
    Ok(match link {
        Some(second) => Roms::linked(rom, crate::game::rom::read(second, force, &[])?),
        None => Roms::from(rom),
    })
}

/// A session powered on with `rom` (read from `rom_path`) as `power` says, and with `link`
/// a second Game Boy on a link cable running that ROM (the same power-on options; `auto`
/// chooses for each ROM); the wall clock is logged as its start time.
pub fn power_on(
    rom_path: &Path,
    rom: Vec<u8>,
    link: Option<&Path>,
    power: crate::game::rom::PowerArgs,
    boot: Option<Vec<u8>>,
    config: SessionConfig,
) -> Result<Session> {
    let mut s = match link {
        Some(second) => {
            let rom2 = crate::game::rom::read(second, power.force, &[])?;
            Session::power_on_linked(
                (rom, power.power_on(boot.clone())),
                (rom2, power.power_on(boot)),
                config,
            )
            .with_context(|| {
                format!(
                    "'{}' and '{}' cannot be run linked",
                    rom_path.display(),
                    second.display()
                )
            })?
        }
        None => Session::power_on(rom, power.power_on(boot), config)
            .with_context(|| format!("'{}' cannot be run", rom_path.display()))?,
    };
    s.log_wall_clock();
    Ok(s)
}

/// Read a script file: UTF-8 text, or (older scripts, saved by Windows editors) Latin-1,
/// each byte the character of that number.
pub fn read_script(path: &Path) -> Result<String> {
    let bytes =
        std::fs::read(path).with_context(|| format!("cannot read script '{}'", path.display()))?;
    Ok(script_text(bytes))
}

/// A script file's bytes as text: UTF-8 as it is; anything else read as Latin-1 (the
/// characters show right on the console and in overlays; a non-ASCII string literal is then
/// its UTF-8 bytes, not the file's single bytes).
pub fn script_text(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => e.into_bytes().iter().map(|&b| char::from(b)).collect(),
    }
}

/// Most modules a script's folder may offer to `require`, and the largest one.
const MAX_MODULES: usize = 256;
const MAX_MODULE_BYTES: u64 = 1 << 20;
/// Most bytes of modules read for one script.
const MAX_TOTAL_BYTES: usize = 8 << 20;

/// A script and the `.lua` files of its folder (and subfolders, three deep) it may `require`:
/// `lib/vec.lua` is the module `lib.vec`. Nothing outside the folder is ever read.
pub fn read_bundle(path: &Path) -> Result<gb_session::Bundle> {
    let main = read_script(path)?;
    let dir = script_folder(path);
    let mut modules = Vec::new();
    collect_modules(&dir, "", 0, path, &mut modules);
    modules.sort();
    let mut images = Vec::new();
    collect_images(&dir, "", 0, &mut images);
    images.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(gb_session::Bundle {
        main,
        modules,
        images,
    })
}

/// Most images a script's folder may offer `gui.image`, and the largest (pixels).
const MAX_IMAGES: usize = 64;
const MAX_IMAGE_PIXELS: u64 = 1 << 20;

/// The PNG files of the script's folder and its subfolders (two deep), decoded, by path
/// (`img/a.png`); a file that does not decode is left out (`gui.image` then says it is
/// missing).
fn collect_images(
    dir: &Path,
    prefix: &str,
    depth: u32,
    out: &mut Vec<(String, gb_session::Image)>,
) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if out.len() >= MAX_IMAGES {
            return;
        }
        let path = entry.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Ok(meta) = entry.metadata() else { continue };
        if meta.is_dir() && depth < 2 && !name.starts_with('.') {
            collect_images(&path, &format!("{prefix}{name}/"), depth + 1, out);
            continue;
        }
        if !path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("png"))
        {
            continue;
        }
        if let Some(image) = decode_png(&path) {
            out.push((format!("{prefix}{name}"), image));
        }
    }
}

fn decode_png(path: &Path) -> Option<gb_session::Image> {
    let file = std::fs::File::open(path).ok()?;
    let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().ok()?;
    let (w, h) = (reader.info().width, reader.info().height);
    if u64::from(w) * u64::from(h) > MAX_IMAGE_PIXELS {
        return None;
    }
    let mut buf = vec![0; reader.output_buffer_size()?];
    let info = reader.next_frame(&mut buf).ok()?;
    let px = &buf[..info.buffer_size()];
    let rgba: Vec<u8> = match info.color_type {
        png::ColorType::Rgba => px.to_vec(),
        png::ColorType::Rgb => px
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        png::ColorType::GrayscaleAlpha => px
            .chunks_exact(2)
            .flat_map(|p| [p[0], p[0], p[0], p[1]])
            .collect(),
        png::ColorType::Grayscale => px.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::Indexed => return None,
    };
    (rgba.len() == (w * h * 4) as usize).then(|| gb_session::Image {
        width: w,
        height: h,
        rgba: rgba.into(),
    })
}

fn collect_modules(
    dir: &Path,
    prefix: &str,
    depth: u32,
    main: &Path,
    out: &mut Vec<(String, String)>,
) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let total: usize = out.iter().map(|(_, t)| t.len()).sum();
        if out.len() >= MAX_MODULES || total >= MAX_TOTAL_BYTES {
            return;
        }
        let path = entry.path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        let Ok(meta) = entry.metadata() else { continue };
        if meta.is_dir() && depth < 3 && !stem.starts_with('.') {
            collect_modules(&path, &format!("{prefix}{stem}."), depth + 1, main, out);
        } else if meta.is_file()
            && meta.len() <= MAX_MODULE_BYTES
            && path.extension().is_some_and(|e| e == "lua")
            && path != main
            && let Ok(bytes) = std::fs::read(&path)
        {
            out.push((format!("{prefix}{stem}"), script_text(bytes)));
        }
    }
}

/// Where scripts' own data folders are (`io.open("data:…")`): `GBHOST_SCRIPT_DATA`, else
/// `$XDG_DATA_HOME/gbhost/script-data`, else `~/.local/share/gbhost/script-data`.
pub fn script_data_dir() -> Option<PathBuf> {
    crate::config::data_dir("GBHOST_SCRIPT_DATA", "script-data")
}

/// The folder of the script file `path` (its files are the ones its `io` calls may use).
pub fn script_folder(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Load script files into a session, in order (the API guessed from each source unless given).
pub fn load_scripts(
    session: &mut Session,
    paths: &[PathBuf],
    api: Option<gb_session::Flavor>,
) -> Result<()> {
    load_player_scripts(session, paths, api, 0)
}

/// [`load_scripts`] against `player`'s Game Boy (0: the first; 1: a linked pair's second,
/// whose memory, joypad and screen the scripts then see as `emu.player() == 2`).
pub fn load_player_scripts(
    session: &mut Session,
    paths: &[PathBuf],
    api: Option<gb_session::Flavor>,
    player: usize,
) -> Result<()> {
    for path in paths {
        let bundle = read_bundle(path)?;
        session
            .next_script_on_player(player)
            .with_context(|| format!("cannot load '{}'", path.display()))?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let flavor = api.unwrap_or_else(|| gb_session::Flavor::detect(&bundle.main));
        let folder = script_folder(path);
        session.load_bundle_in(&name, bundle, flavor, &folder);
    }
    Ok(())
}

/// Print the session's console lines as `log: TEXT` (and return them).
fn print_console(session: &mut Session) -> Vec<String> {
    let mut out = Vec::new();
    for line in session.take_console() {
        // A multi-line text (an error with its traceback) gives one `log:` line each.
        for text in line.text.lines() {
            println!("log: {text}");
            out.push(text.to_owned());
        }
    }
    out
}

/// Run the session; returns it for the caller's other output.
pub fn run(run: &Run<'_>) -> Result<Session> {
    let rom = crate::game::rom::read(run.rom, run.power.force, run.patches)?;
    let boot = run.boot_rom.map(crate::game::rom::read_boot).transpose()?;
    let mut config = SessionConfig {
        force_unsupported: run.power.force,
        desync_check: run.sync_test.is_some(),
        image_key: crate::state_key::get(),
        script_data: script_data_dir(),
        ..SessionConfig::default()
    };
    if let Some(k) = run.sync_test {
        if k == 0 {
            bail!("--sync-test needs at least 1 frame to roll back");
        }
        // The ring needs only the last K frames; keep it small.
        config.ring_bytes = 16 << 20;
    }
    let mut session = match run.from_state {
        Some(path) => {
            let file = gb_session::StateFile::read(path)
                .with_context(|| format!("cannot load state '{}'", path.display()))?;
            if let Some(gb_core::ModelChoice::Fixed(model)) = run.power.model
                && model.name() != file.meta.model
            {
                bail!(
                    "'{}' was saved on the {}; it cannot run on the {model}",
                    path.display(),
                    file.meta.model
                );
            }
            let roms = roms(rom, run.link, run.power.force)?;
            Session::from_state_file(roms, boot.as_deref(), config, &file)
                .with_context(|| format!("cannot load state '{}'", path.display()))?
        }
        None => power_on(run.rom, rom, run.link, run.power, boot, config)?,
    };
    // The ROM's symbols for `emu.symbol` (its `.sym` file beside it), as the app gives them.
    match gb_session::symbols::Symbols::beside_rom(run.rom) {
        Ok(symbols) => session.set_symbols(symbols),
        Err(e) => eprintln!("gbhost: symbols: {e}"),
    }
    load_scripts(&mut session, run.scripts, run.api)?;
    load_player_scripts(&mut session, run.scripts2, run.api, 1)?;
    let mut wav = run.wav.map(crate::audio::WavOut::create).transpose()?;
    let mut mismatches = 0;
    let mut trace = String::new();
    for _ in 0..run.frames {
        session.run_frame();
        let logs = print_console(&mut session);
        if run.trace.is_some() {
            trace.push_str(&session.trace_line(&logs));
        }
        if !run.keep_going && script_failed(&session) {
            break;
        }
        if let Some(w) = &mut wav
            && let Err(e) = w.drain(|buf| session.drain_audio(buf))
        {
            if let Some(w) = wav.take() {
                w.abandon();
            }
            return Err(e);
        }
        if let Some(k) = run.sync_test {
            let now = session.frame();
            let from = now.saturating_sub(k);
            if from < now {
                mismatches += session
                    .verify_replay(from)
                    .context("sync test: the rewind history could not be replayed")?;
                print_console(&mut session);
                // The replayed frames' audio was heard already.
                session.discard_audio();
            }
        }
    }
    if let Some(w) = wav {
        w.finish()?;
    }
    if let Some(path) = run.trace {
        gb_session::files::write_atomic(path, trace.as_bytes())
            .with_context(|| format!("cannot write the trace '{}'", path.display()))?;
    }
    if let Some(path) = run.save_state {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        session
            .state_file(now, false)
            .write(path)
            .with_context(|| format!("cannot save the state '{}'", path.display()))?;
    }
    if let Some(_k) = run.sync_test {
        println!("sync-test: {} frames, {mismatches} mismatches", run.frames);
        if mismatches > 0 {
            return Err(SyncMismatch.into());
        }
    }
    Ok(session)
}
