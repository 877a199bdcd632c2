//! `gbhost` (the demo) and `gbhost run ROM`: the emulation thread, the window and the REPL.
//!
//! With no display the window cannot open: one line pointing at `gbhost headless`, exit 2
//! (checked before anything starts, and again if eframe fails). `--no-window` runs the
//! emulation thread (and the REPL) without a window.

use crate::config::Config;
use crate::emu::{self, RomFile, RomSource, Start};
use anyhow::Result;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Arguments of `gbhost run`.
#[derive(clap::Args, Debug, Default)]
pub struct Args {
    /// The ROM file (none: the built-in demo cartridge with its overlay script). Its battery
    /// save is `ROM.sav` beside it; in `$XDG_DATA_HOME/gbhost/saves/` (else
    /// `~/.local/share/gbhost/saves/`) when its folder is not writable; in the config's
    /// `saves_dir` when set. A patched game's is `ROM+PATCH.sav` (each patch's name, in order).
    pub rom: Option<PathBuf>,
    /// A Lua script to load before the first frame (repeatable).
    #[arg(long = "script", value_name = "SCRIPT")]
    pub scripts: Vec<PathBuf>,
    /// A Lua script to load on player 2's Game Boy (with --link or --link-demo; repeatable):
    /// its memory, joypad and `emu.player()` are player 2's, its overlay on player 2's screen.
    #[arg(long = "script2", value_name = "SCRIPT")]
    pub scripts2: Vec<PathBuf>,
    /// A REPL in this terminal (meta-commands and Lua; `help`).
    #[arg(long)]
    pub repl: bool,
    /// Run without a window (with --repl: a terminal-only debugger).
    #[arg(long)]
    pub no_window: bool,
    /// Start paused.
    #[arg(long)]
    pub paused: bool,
    /// No sound (do not open the audio device).
    #[arg(long)]
    pub mute: bool,
    /// Rewind history size in MiB.
    #[arg(long, default_value_t = 64, value_name = "MIB")]
    pub history_mib: usize,
    #[command(flatten)]
    pub power: crate::game::rom::PowerArgs,
    #[command(flatten)]
    pub patch: crate::game::rom_patches::PatchArgs,
    /// Link a second Game Boy running ROM2 by cable (the same --model and power-on options):
    /// both screens side by side, player 2 on its own keys (W A S D, G = A, F = B, T = Start,
    /// R = Select by default), the Link menu to pull the cable out and plug it in.
    #[arg(long, value_name = "ROM2", conflicts_with = "link_demo")]
    pub link: Option<PathBuf>,
    /// Run the built-in link-cable demo on two linked Game Boys (each moves a square with its
    /// d-pad; START makes a side the one that clocks the cable).
    #[arg(long, conflicts_with = "rom")]
    pub link_demo: bool,
}

/// There is no display to open a window on (exit status 2).
#[derive(Debug)]
pub struct NoDisplay(pub String);

impl std::fmt::Display for NoDisplay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "no display ({}): the window needs X11 or Wayland; for a run without a window use `gbhost headless ROM` (or `gbhost run ROM --repl --no-window`)",
            self.0
        )
    }
}

impl std::error::Error for NoDisplay {}

fn has_display() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}

/// A flag set by SIGTERM, SIGINT or SIGHUP, so the emulation thread saves battery RAM and
/// stops (the window then closes) instead of dying mid-way.
fn stop_on_signals() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    for sig in [
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGHUP,
    ] {
        if let Err(e) = signal_hook::flag::register(sig, Arc::clone(&flag)) {
            eprintln!("gbhost: cannot handle signal {sig}: {e}");
        }
    }
    flag
}

/// Run the app.
pub fn run(args: &Args) -> Result<()> {
    if !args.no_window && !has_display() {
        return Err(NoDisplay("neither DISPLAY nor WAYLAND_DISPLAY is set".into()).into());
    }
    if args.rom.is_none() && !args.patch.patches.is_empty() {
        anyhow::bail!("--patch needs a ROM (`gbhost run ROM --patch FILE`)");
    }
    let (config, note) = Config::load();
    if let Some(n) = note {
        eprintln!("gbhost: {n}");
    }
    let start = Start {
        rom: match &args.rom {
            Some(p) => RomSource::FileWith(RomFile {
                path: p.clone(),
                patches: args.patch.patches.clone(),
                saves_dir: config.saves_dir.clone(),
            }),
            None if args.link_demo => RomSource::LinkDemo,
            None => RomSource::Demo,
        },
        link: match (&args.link, args.link_demo) {
            (Some(p), _) => Some(RomSource::File(p.clone())),
            (None, true) => Some(RomSource::LinkDemo),
            (None, false) => None,
        },
        scripts: args.scripts.clone(),
        scripts2: args.scripts2.clone(),
        paused: args.paused,
        ring_bytes: if args.history_mib == 0 {
            64
        } else {
            args.history_mib.min(4096)
        } << 20,
        audio: !args.mute,
        stop: Some(stop_on_signals()),
        power: crate::game::rom::PowerArgs {
            model: args.power.model.or(Some(config.model())),
            dmg_palette: if args.power.dmg_palette == gb_core::DmgPalette::Auto {
                config.dmg_palette()
            } else {
                args.power.dmg_palette
            },
            ..args.power
        },
        correction: config.color_correction(),
    };
    let mut emu = emu::spawn(start)?;
    let _term = crate::console::repl::TermGuard::save();
    let repl = if args.repl {
        let tx = emu.sender();
        Some(
            std::thread::Builder::new()
                .name("repl".into())
                .spawn(move || crate::console::repl::run(tx))?,
        )
    } else {
        None
    };
    if args.no_window {
        match repl {
            Some(r) => {
                let _ = r.join();
            }
            None => {
                while !emu.view().quit {
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
        }
        emu.quit();
        return Ok(());
    }
    let mut config = config;
    if let Some(p) = &args.rom {
        Config::push_recent(&mut config.recent_roms, p.clone());
        let _ = config.save();
    }
    let options = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        viewport: eframe::egui::ViewportBuilder::default()
            .with_title("gbhost")
            .with_inner_size([960.0, 720.0]),
        ..Default::default()
    };
    let result = eframe::run_native(
        "gbhost",
        options,
        Box::new(move |_cc| Ok(Box::new(crate::ui::GbApp::new(emu, config, true)))),
    );
    if let Err(e) = result {
        return Err(NoDisplay(e.to_string()).into());
    }
    Ok(())
}
