//! The emulation thread and everything it does (see `thread.rs` for the thread, `machine.rs`
//! for its state). [`machine::Emu`] coordinates parts that each keep one thing and make
//! their own part of the [`View`]. Files, from the bottom up:
//! - `types.rs`, `view.rs`: the plain values the thread and the window share ([`Start`],
//!   [`Speed`], …) and the [`View`] with its parts;
//! - the parts: `loaded.rs` (the running ROM, its files, battery save and symbols; the
//!   power-on settings), `pacing.rs` (paused, rewind, speed, frame rate), `console_out.rs`
//!   (console lines, their subscribers, the watches), `sound.rs` (the output device),
//!   `viewers.rs` (the panels shown, the memory viewer's window), `link.rs` (the view's mutex,
//!   the repaint, the stop signal; the window's input), `script_files.rs` (the scripts
//!   loaded, live reload), `movie_slot.rs` (the open movie);
//! - `machine.rs`: [`machine::Emu`], opening ROMs, live frames, seeks, watches, battery RAM;
//! - `scripts.rs`, `movie.rs`, `apply.rs`: script files, the TAS workflow and state files,
//!   and the console commands ([`crate::console::command::Command`]), as methods of `Emu`;
//! - `editor.rs`: the TAS editor (`gb_session::movie::Editor`) in the app: opening, live
//!   frames through it, re-emulation by a budget per tick, saving; its `movie` commands in
//!   `editor_cmds.rs`, what the window sees in `editor_view.rs`, what the thread keeps of an
//!   open editor in `editor_state.rs`;
//! - `movie_info.rs`: a movie's authors and description, set from the window;
//! - `windows.rs`: scripts' windows: form actions and the host's keys and mouse as logged
//!   input, and what scripts ask of the app's window (`client.*`);
//! - `debug_view.rs`: what the Debugger window shows; `debugger.rs`: the debugger's
//!   commands, the ROM's symbols, and the live loop through `Session::debug` while
//!   breakpoints are set;
//! - `tool_state.rs`, `tools.rs`: RAM search, the RAM watch and cheat lists (kept per ROM):
//!   their state and views, and their commands;
//! - `video_state.rs`: the video memory and registers the viewers (tiles, maps, OAM,
//!   palettes, I/O registers) are shown, taken only while one is open;
//! - `publish.rs`: the [`View`] the window draws, from each part's view;
//! - `thread.rs`: the thread, its commands ([`Cmd`]) and the handle the window and the REPL
//!   hold ([`EmuHandle`]).

mod apply;
mod cable;
mod console_out;
mod debug_view;
mod debugger;
mod editor;
mod editor_cmds;
mod editor_ghost;
mod editor_state;
mod editor_view;
mod link;
mod loaded;
mod machine;
mod movie;
mod movie_info;
mod movie_slot;
mod pacing;
mod publish;
mod script_files;
mod scripts;
mod sound;
mod thread;
mod tool_state;
mod tools;
mod types;
mod video_state;
mod view;
mod viewers;
mod windows;

#[cfg(test)]
mod tests;

pub use publish::DMG_GREEN;
pub use thread::{Cmd, EmuHandle, spawn};
pub use tool_state::SearchView;
pub use types::{
    BranchView, EditorView, MovieInfo, Panel, RomFile, RomSource, Shown, Speed, Start,
};
pub use video_state::VideoView;
pub use view::View;
