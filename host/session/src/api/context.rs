//! What one VM call may reach: [`Api`], lent by the session for the duration of one call, and
//! the outputs a call leaves ([`DrawCmd`]s, [`Request`]s), and what the file and clock calls
//! share with the session ([`FileIo`], [`Clock`]).

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::PathBuf;

use gb_core::{Buttons, Gb};
use lua_rollback::Value;

use crate::data::{EventKind, Image};
use crate::state::SavedState;

/// One drawing command of a script's overlay, in screen pixels (160 × 144).
#[derive(Clone, Debug, PartialEq)]
pub enum DrawCmd {
    /// Text with its top-left corner at (x, y).
    Text {
        /// Left edge.
        x: i32,
        /// Top edge.
        y: i32,
        /// The text.
        text: String,
        /// Colour as 0xAARRGGBB.
        color: u32,
    },
    /// Text in the small pixel font (4 × 6 cells), over an optional background.
    PixelText {
        /// Left edge.
        x: i32,
        /// Top edge.
        y: i32,
        /// The text.
        text: String,
        /// Text colour, 0xAARRGGBB.
        fg: u32,
        /// Background colour (0: none).
        bg: u32,
    },
    /// A rectangle between two corners (inclusive).
    Box {
        /// First corner.
        x1: i32,
        /// First corner.
        y1: i32,
        /// Opposite corner.
        x2: i32,
        /// Opposite corner.
        y2: i32,
        /// Outline colour.
        line: u32,
        /// Fill colour (0: none).
        fill: u32,
    },
    /// A line between two points (inclusive).
    Line {
        /// Start.
        x1: i32,
        /// Start.
        y1: i32,
        /// End.
        x2: i32,
        /// End.
        y2: i32,
        /// Colour.
        color: u32,
    },
    /// One pixel.
    Pixel {
        /// Column.
        x: i32,
        /// Row.
        y: i32,
        /// Colour.
        color: u32,
    },
    /// An image from the script's folder, its top-left corner at (x, y), alpha-blended.
    Image {
        /// Left edge.
        x: i32,
        /// Top edge.
        y: i32,
        /// The image.
        image: Image,
    },
}

/// A state save or load a script asked for; the session carries it out when the script's
/// call returns (a VM cannot be restored while it runs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `savestate.save(slot)`.
    Save(String),
    /// `savestate.load(slot)`.
    Load(String),
    /// The script's bus hooks changed: the core's watchpoints are set again.
    Watches,
    /// The script's windows (forms, text buffers) changed: the session asks for their
    /// description at the frame's end.
    Ui,
    /// The script reads the host's keys or mouse: the app starts logging them.
    HostInput,
    /// A request to the app's window (`client.*`).
    Client(ClientRequest),
}

/// What a script asks of the app's window (`client.*`). These are outputs, like the draw
/// list: the session hands them to the app when the frame is run live, never on a replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientRequest {
    /// `client.pause()`.
    Pause,
    /// `client.unpause()`.
    Unpause,
    /// `client.togglepause()`.
    TogglePause,
    /// `client.screenshot(path)`: a PNG of the screen, at this path relative to the script's
    /// folder (already checked to stay inside it).
    Screenshot(String),
    /// `client.reboot_core()`: power-cycle the machine.
    Reboot,
    /// A `tastudio.*` change to the TAS editor.
    Tas(TasRequest),
}

/// What a script asks of the TAS editor (`tastudio.*`); frames are session frames. The app
/// hands it to `Editor::apply` after the frame (live frames only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TasRequest {
    /// Press (`on`) or release the buttons of `mask` on `frame`.
    Input {
        /// The frame.
        frame: u64,
        /// The buttons (bits as [`Pads`](crate::data::Pads): player 2's in the high byte).
        mask: u16,
        /// Pressed.
        on: bool,
    },
    /// Insert `n` empty frames before `frame`.
    Insert {
        /// Where.
        frame: u64,
        /// How many.
        n: u64,
    },
    /// Delete `n` frames from `frame`.
    Delete {
        /// Where.
        frame: u64,
        /// How many.
        n: u64,
    },
    /// Release every button of `n` frames from `frame`.
    Clear {
        /// Where.
        frame: u64,
        /// How many.
        n: u64,
    },
    /// Seek to `frame`.
    Playback(u64),
    /// Recording on or off.
    Recording(bool),
    /// A marker on `frame` (replacing one there).
    Marker {
        /// Where.
        frame: u64,
        /// Its text.
        text: String,
    },
    /// Remove the marker of a frame.
    RemoveMarker(u64),
    /// Load branch `i` (0-based).
    LoadBranch(usize),
    /// Rename branch `index`.
    BranchText {
        /// Which.
        index: usize,
        /// Its new name.
        text: String,
    },
}

/// What one VM call may reach.
pub struct Api<'a> {
    /// The machine: the calling script's player's Game Boy.
    pub gb: &'a mut Gb,
    /// A linked pair's other Game Boy, reached by the `p1 `/`p2 ` memory domains (`None` on
    /// one Game Boy).
    pub other: Option<&'a mut Gb>,
    /// Frames completed.
    pub frame: u64,
    /// The calling script's overlay for this frame.
    pub draw: &'a mut Vec<DrawCmd>,
    /// The calling script's `persist` table.
    pub persist: &'a mut BTreeMap<Vec<u8>, Value>,
    /// State saves and loads asked for (the script VMs' part, done when the call returns).
    pub requests: &'a mut Vec<Request>,
    /// The states saved by scripts, by name.
    pub(crate) states: &'a mut HashMap<String, SavedState>,
    /// The images the calling script may draw.
    pub images: &'a HashMap<String, Image>,
    /// `Some` for the console's calls: memory writes are collected here as poke events (the
    /// session logs them) instead of made, and calls that would change the machine outside
    /// the log (registers, state loads) are refused. `None` for scripts.
    pub pokes: Option<&'a mut Vec<EventKind>>,
    /// The calling script's slot (0 for the console).
    pub slot: u32,
    /// Files: `Some` for scripts, `None` for the console (which has none).
    pub files: Option<&'a mut FileIo>,
    /// What the call sees of the session around the machine (read only).
    pub view: SessionView<'a>,
}

/// The session around the machine as one VM call sees it: read only, the same for every
/// call of a frame.
#[derive(Clone, Copy, Debug, Default)]
pub struct SessionView<'a> {
    /// The buttons the user holds (on the calling script's player's joypad).
    pub user_buttons: Buttons,
    /// The player whose Game Boy the call runs against (0: the first).
    pub player: usize,
    /// How many Game Boys the session runs (0 read as 1: a view made without a session).
    pub players: usize,
    /// The ROM's hash.
    pub rom_hash: u64,
    /// The session's clock, for `os.time` and `os.clock`.
    pub clock: Clock,
    /// The movie being recorded or played, if any.
    pub movie: Option<&'a crate::data::MovieView>,
    /// The TAS editor, if open.
    pub editor: Option<&'a crate::data::EditorInfo>,
    /// The session's event log (the input of past frames).
    pub log: Option<&'a crate::events::EventLog>,
}

/// The session's clock as scripts see it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Unix seconds at power-on: the logged start time (0, 1970, when none is logged).
    pub start_unix: u64,
    /// The core's cycle count at power-on.
    pub power_on_cycles: u64,
}

/// What the scripts' file calls share with the session (not rolled back: it describes the
/// outside world and the log).
#[derive(Debug, Default)]
pub struct FileIo {
    /// Each script's folder, by slot.
    pub folders: HashMap<u32, PathBuf>,
    /// Where the scripts' own data folders are (`data:` paths), if anywhere.
    pub data_root: Option<PathBuf>,
    /// Each script's name, by slot (its data folder is named after it).
    pub names: HashMap<u32, String>,
    /// The folder of the scripts that have none of their own (a movie's, played back), if
    /// any; else such scripts have no files.
    pub default_folder: Option<PathBuf>,
    /// A replay: writes are skipped.
    pub replaying: bool,
    /// The frame being run, while one is (file reads are logged in it).
    pub stepping: Option<u64>,
    /// The reads the log holds for this frame (a replay's, a movie's), by slot, in order:
    /// the reads are checked against them instead of logged again.
    pub expected: HashMap<u32, VecDeque<(String, u64)>>,
    /// Live reads made during a call, for the session to log: slot, path, hash.
    pub reads: Vec<(u32, String, u64)>,
    /// Differences found on a replay, for the console: slot, text.
    pub warnings: Vec<(u32, String)>,
    /// The ROM's symbols (its `.sym` file) for `emu.symbol`, as the host gave them.
    pub symbols: Option<std::sync::Arc<crate::symbols::Symbols>>,
}
