//! `gbhost`: the command-line entry point.
//!
//! With no subcommand: the desktop app on the built-in demo cartridge. Subcommands: `run`
//! (the desktop app on a ROM, with scripts and a REPL), `headless` (run a ROM with no window or
//! audio device, print what was asked, optionally write the audio to a WAV), `play` (sound
//! only, at normal speed, paced by the audio clock), `bench` (measure emulation speed, the
//! rewind history, the TAS editor's and RAM Search's drawing), `movie` (record, play, inspect,
//! compact and convert TAS movies), `state` (save, inspect and convert state files) and
//! `patch` (apply and create ROM patches). Errors become one line on stderr and exit 2 (1 for
//! a failed script or sync test).

mod audio;
mod bench;
mod cli;
mod config;
mod console;
mod desktop;
mod emu;
mod game;
mod gamepad;
mod movie_convert;
mod overlay;
mod screenshot;
mod scripted;
mod state_key;
mod ui;
mod watcher;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Game Boy emulator host whose Lua scripts rewind with the game.
#[derive(Parser, Debug)]
#[command(
    name = "gbhost",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// With no subcommand: `run`'s arguments (no ROM: the demo cartridge).
    #[command(flatten)]
    run: desktop::Args,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The desktop app: a ROM (or the demo) in a window, with scripts, rewind and a REPL.
    Run(desktop::Args),
    /// Run a ROM with no window and no audio device, as fast as possible.
    Headless(cli::headless::Args),
    /// Run a ROM with sound and no window at normal speed, paced by the audio device (silent,
    /// paced by the wall clock, when there is none).
    Play(cli::play::Args),
    /// Measure emulation speed on a ROM or a recorded movie's gameplay (frames per second,
    /// median of several rounds), the rewind history, or the TAS editor's and RAM Search's
    /// drawing.
    Bench(bench::Args),
    /// Record, play, inspect, compact and convert TAS movies.
    Movie(cli::movie::Args),
    /// Save, inspect and convert save-state files (gbhost's own and SameBoy's BESS).
    State(cli::state::Args),
    /// Apply IPS, UPS and BPS ROM patches, and create BPS patches.
    Patch(cli::patch::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => desktop::run(&cli.run),
        Some(Command::Run(args)) => desktop::run(&args),
        Some(Command::Headless(args)) => cli::headless::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Play(args)) => cli::play::run(&args),
        Some(Command::Movie(args)) => cli::movie::run(&args),
        Some(Command::State(args)) => cli::state::run(&args),
        Some(Command::Patch(args)) => cli::patch::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.downcast_ref::<scripted::SyncMismatch>().is_some() => ExitCode::from(1),
        Err(e) if e.downcast_ref::<scripted::ScriptFailed>().is_some() => {
            eprintln!("gbhost: {e}");
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("gbhost: {e:#}");
            ExitCode::from(2)
        }
    }
}
