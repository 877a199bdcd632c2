//! The [`View`]: everything the window draws, published by the emulation thread after every
//! change, in one part per part of the thread that makes it (the machine's screen, the
//! timeline, pacing, the loaded game, the console, the scripts, the movie, the editor, the
//! tools, the debugger, the video viewers).

use std::sync::Arc;

use gb_core::{Buttons, Domain};
use gb_session::DrawCmd;
use gb_session::movie::MovieView;

use super::types::{EditorView, MovieInfo, ScriptRow, Speed};

/// Everything the window shows, published by the emulation thread.
#[derive(Clone, Debug, Default)]
pub struct View {
    /// The machine's picture, what scripts draw over it, and what the game sees.
    pub screen: ScreenView,
    /// The timeline position and the rewind history.
    pub timeline: TimelineView,
    /// Paused, rewinding, the speed and the measured frame rate.
    pub pacing: PacingView,
    /// The running ROM and how it powers on.
    pub game: GameView,
    /// The console's lines and the watched addresses.
    pub console: ConsoleView,
    /// The memory viewer's window: its domain (None: the bus), start offset, bytes, and the
    /// domain's size.
    pub memory: (Option<Domain>, u32, Vec<u8>, usize),
    /// The scripts panel and what scripts ask of the window.
    pub scripts: ScriptsView,
    /// The open movie.
    pub movie: Option<MovieView>,
    /// The open movie's authors and description.
    pub movie_info: Option<MovieInfo>,
    /// The open TAS editor.
    pub editor: Option<EditorView>,
    /// RAM search, RAM watch and cheats.
    pub tools: super::tool_state::ToolsView,
    /// The Debugger window's view (only while it is open).
    pub debug: Option<super::debug_view::DebugView>,
    /// The machine's video memory and registers for the video viewers (only while one is
    /// open).
    pub video: Option<Arc<super::video_state::VideoView>>,
    /// The thread stopped.
    pub quit: bool,
}

/// The machine as the window draws it.
#[derive(Clone, Debug, Default)]
pub struct ScreenView {
    /// The picture, RGB888, the size of `gb_core::screen::GAME`.
    pub picture: Vec<u8>,
    /// Each script's overlay for the shown frame.
    pub overlays: Vec<(u32, Vec<DrawCmd>)>,
    /// The model running.
    pub model: gb_core::Model,
    /// The buttons the game sees.
    pub input: Buttons,
    /// Lag frames since power-on (frames the game did not read the joypad).
    pub lag_frames: u64,
    /// The last frame was a lag frame.
    pub lagged: bool,
    /// A linked pair's second player and the cable (`None`: one Game Boy).
    pub second: Option<SecondView>,
}

/// A linked pair's second player as the window draws it, and the cable.
#[derive(Clone, Debug, Default)]
pub struct SecondView {
    /// Its picture, RGB888, the size of the first's.
    pub picture: Vec<u8>,
    /// The buttons its game sees.
    pub input: Buttons,
    /// The cable is plugged in.
    pub plugged: bool,
    /// The overlays of the scripts on its Game Boy (`emu.player() == 2`), by slot.
    pub overlays: Vec<(u32, Vec<DrawCmd>)>,
}

/// The timeline and the rewind history.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimelineView {
    /// The timeline position.
    pub frame: u64,
    /// Oldest and newest frames in the rewind history.
    pub history: Option<(u64, u64)>,
    /// Bytes the history takes.
    pub history_bytes: usize,
    /// The ring's size.
    pub ring_bytes: usize,
    /// Desyncs the session detected.
    pub desyncs: u64,
}

/// How the thread runs frames.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PacingView {
    /// Frames shown per second (measured).
    pub fps: f64,
    /// Speed relative to 59.73 fps.
    pub speed: f64,
    /// Paused.
    pub paused: bool,
    /// Rewind held.
    pub rewinding: bool,
    /// Live speed.
    pub speed_mode: Speed,
}

/// The running ROM and the power-on settings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameView {
    /// The title of the running ROM.
    pub title: String,
    /// What the status bar says about the ROM's files: the patches applied, where battery
    /// saves go when not beside the ROM.
    pub notes: Vec<String>,
    /// The model chosen (`auto` or fixed).
    pub model_choice: gb_core::ModelChoice,
    /// How CGB colours are shown.
    pub correction: gb_core::ColorCorrection,
    /// The palette a DMG game gets on the CGB.
    pub dmg_palette: gb_core::DmgPalette,
    /// Cartridge types gbhost does not emulate run with a stand-in mapper (`--force`).
    pub force: bool,
}

/// The console panel.
#[derive(Clone, Debug, Default)]
pub struct ConsoleView {
    /// Console lines (script prints, REPL output), oldest first (shared: rebuilt only when
    /// lines were added).
    pub lines: Arc<Vec<String>>,
    /// Watched addresses and their values.
    pub watches: Vec<(crate::console::command::Location, u8)>,
}

/// The scripts panel and the scripts' windows.
#[derive(Clone, Debug, Default)]
pub struct ScriptsView {
    /// The panel's rows, in load order.
    pub rows: Vec<ScriptRow>,
    /// Each script's windows (forms, text buffers, padding), by slot.
    pub windows: Vec<(u32, gb_session::api::ScriptUi)>,
    /// A script reads the host's keys or mouse: the window reports them.
    pub wants_host_input: bool,
}
