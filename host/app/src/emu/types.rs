//! The plain values the emulation thread and the window share: how fast play runs, what the
//! cartridge comes from, how the thread starts, the scripts the app loaded, which costly
//! panels are shown, and the TAS editor's part of the [`View`](super::View).

use std::path::PathBuf;
use std::sync::Arc;

use gb_session::Bundle;
use gb_session::data::Pads;

/// How fast live play runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Speed {
    /// 59.73 frames per second.
    #[default]
    Normal,
    /// [`super::pacing::FAST_FACTOR`] frames per tick.
    Fast,
    /// As fast as the machine goes.
    Unthrottled,
}

/// A panel whose part of the [`View`](super::View) costs to build, so it is published only while shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    /// The Debugger window ([`View::debug`](super::View::debug)).
    Debugger,
    /// A video viewer: tiles, maps, OAM, palettes, I/O registers ([`View::video`](super::View::video)).
    Video,
    /// The RAM Search window (the candidate rows of [`View::tools`](super::View::tools)).
    Search,
}

/// Which [`Panel`]s are shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shown {
    /// The Debugger window.
    pub debugger: bool,
    /// A video viewer.
    pub video: bool,
    /// The RAM Search window.
    pub search: bool,
}

impl Shown {
    /// Whether `panel` is shown.
    pub fn get(self, panel: Panel) -> bool {
        match panel {
            Panel::Debugger => self.debugger,
            Panel::Video => self.video,
            Panel::Search => self.search,
        }
    }

    /// Mark `panel` shown or hidden.
    pub fn set(&mut self, panel: Panel, on: bool) {
        match panel {
            Panel::Debugger => self.debugger = on,
            Panel::Video => self.video = on,
            Panel::Search => self.search = on,
        }
    }
}

/// What the cartridge and its scripts come from.
#[derive(Clone, Debug)]
pub enum RomSource {
    /// The built-in demo cartridge (with its overlay script).
    Demo,
    /// The built-in link-cable demo (`examples/link_demo.asm`): two copies on a cable each
    /// move a square and show the other's.
    LinkDemo,
    /// A ROM file (no patch but the one beside it; saves beside it or in the data folder).
    #[cfg_attr(not(test), allow(dead_code))]
    File(PathBuf),
    /// A ROM file with its patches and saves folder.
    FileWith(RomFile),
}

/// A ROM file with what goes with it: the patches applied as it loads (none: the one beside
/// it, see `rom_patches.rs`) and the configured folder for battery saves (see `saves.rs`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RomFile {
    /// The ROM.
    pub path: PathBuf,
    /// Patches, applied in order.
    pub patches: Vec<PathBuf>,
    /// The `saves_dir` of the config.
    pub saves_dir: Option<PathBuf>,
}

impl RomSource {
    /// The ROM file with its options (None: the demo).
    pub fn file(&self) -> Option<RomFile> {
        match self {
            RomSource::Demo | RomSource::LinkDemo => None,
            RomSource::File(path) => Some(RomFile {
                path: path.clone(),
                ..RomFile::default()
            }),
            RomSource::FileWith(f) => Some(f.clone()),
        }
    }
}

/// A movie's authors and description (see `movie_info.rs`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MovieInfo {
    /// Authors, in order.
    pub authors: Vec<String>,
    /// Free text.
    pub description: String,
}

impl MovieInfo {
    /// The key of the movie header's metadata that holds the description.
    pub(crate) const DESCRIPTION_KEY: &str = "description";

    /// The authors and description in a movie's header.
    pub(crate) fn of(h: &gb_session::movie::MovieHeader) -> MovieInfo {
        MovieInfo {
            authors: h.authors.clone(),
            description: h
                .metadata
                .get(Self::DESCRIPTION_KEY)
                .cloned()
                .unwrap_or_default(),
        }
    }

    /// No authors and no description.
    pub fn is_empty(&self) -> bool {
        self.authors.is_empty() && self.description.is_empty()
    }
}

/// One row of the scripts panel.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptRow {
    /// File name.
    pub name: String,
    /// File path (None for the demo's built-in overlay).
    pub path: Option<PathBuf>,
    /// Loaded in the session.
    pub enabled: bool,
    /// "running", "finished", "error: …", "disabled".
    pub status: String,
    /// The status is an error.
    pub failed: bool,
    /// Frame of the last reload.
    pub reloaded_at: Option<u64>,
    /// Arena bytes in use, and the cap.
    pub arena_used: usize,
    /// Arena capacity.
    pub arena_cap: usize,
    /// Time the script's Lua took in the last frame, in microseconds.
    pub frame_us: f64,
}

/// A branch of the TAS editor as the window shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct BranchView {
    /// Its name.
    pub name: String,
    /// The frame it was saved at.
    pub frame: u64,
    /// The machine's hash there (tells branches apart).
    pub hash: u64,
    /// Its picture, 160 x 144 RGB888.
    pub thumbnail: Arc<Vec<u8>>,
}

/// The TAS editor as the window shows it: the big parts shared (`Arc`), rebuilt by the
/// emulation thread only when the editor changed (`version`).
#[derive(Clone, Debug, Default)]
pub struct EditorView {
    /// Bumped on every change.
    pub version: u64,
    /// The movie file, once opened from or saved to one.
    pub path: Option<PathBuf>,
    /// The session frame of the roll's first frame.
    pub start: u64,
    /// The input, a frame each from `start` (every player's buttons).
    pub frames: Arc<Vec<Pads>>,
    /// Players whose columns the piano roll shows: 1, or 2 for a linked pair.
    pub players: usize,
    /// Lag of the frames from `start` emulated with the current input.
    pub lag: Arc<Vec<Option<bool>>>,
    /// Lag frames known.
    pub lag_count: usize,
    /// The markers' texts, by frame.
    pub markers: Arc<std::collections::BTreeMap<u64, String>>,
    /// Frames before this were emulated with the current input.
    pub valid_end: u64,
    /// The frame re-emulation heads for.
    pub target: u64,
    /// Oldest and newest frames the rewind history holds.
    pub held: Option<(u64, u64)>,
    /// Frames still to re-emulate.
    pub pending: Option<u64>,
    /// An edit to undo.
    pub can_undo: bool,
    /// An edit to redo.
    pub can_redo: bool,
    /// Playing past the end records.
    pub recording: bool,
    /// The branches.
    pub branches: Arc<Vec<BranchView>>,
    /// The ghost racing the edited run, if any.
    pub ghost: Option<GhostView>,
}

/// The TAS editor's ghost as the window shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct GhostView {
    /// Its name (the branch's or movie's).
    pub name: String,
    /// Its picture, 160 x 144 RGB888, drawn translucent over the game.
    pub picture: Arc<Vec<u8>>,
    /// The first frame whose run made the two machines differ (its row is marked), and
    /// whether work RAM and the picture differ.
    pub divergence: Option<(u64, bool, bool)>,
    /// Frames compared so far (both machines ran them).
    pub compared_to: u64,
}

impl EditorView {
    /// The session frame after the last.
    pub fn end(&self) -> u64 {
        self.start + self.frames.len() as u64
    }

    /// Every player's buttons of session frame `f`.
    pub fn input(&self, f: u64) -> Pads {
        f.checked_sub(self.start)
            .and_then(|i| self.frames.get(usize::try_from(i).ok()?).copied())
            .unwrap_or_default()
    }

    /// Whether frame `f` is in the greenzone: emulated with the current input and within
    /// the history.
    pub fn is_green(&self, f: u64) -> bool {
        f <= self.valid_end && self.held.is_some_and(|(a, b)| (a..=b).contains(&f))
    }

    /// Whether frame `f` lagged (None: unknown).
    pub fn lagged(&self, f: u64) -> Option<bool> {
        let i = usize::try_from(f.checked_sub(self.start)?).ok()?;
        self.lag.get(i).copied().flatten()
    }
}

/// How the thread starts.
#[derive(Clone, Debug)]
pub struct Start {
    /// The cartridge.
    pub rom: RomSource,
    /// Scripts to load before the first frame.
    pub scripts: Vec<PathBuf>,
    /// Scripts to load on a linked pair's second Game Boy, after them.
    pub scripts2: Vec<PathBuf>,
    /// Start paused.
    pub paused: bool,
    /// Rewind ring size.
    pub ring_bytes: usize,
    /// Open the audio device (off: silent, paced by the clock).
    pub audio: bool,
    /// Set by a signal handler (SIGTERM, SIGINT): save and stop.
    pub stop: Option<Arc<std::sync::atomic::AtomicBool>>,
    /// How the machine powers on (every ROM opened, and every reset).
    pub power: crate::game::rom::PowerArgs,
    /// How CGB colours are shown.
    pub correction: gb_core::ColorCorrection,
    /// A second Game Boy on a link cable, running this game (every ROM opened is linked
    /// to it).
    pub link: Option<RomSource>,
}

/// A script the app loaded: where it comes from and its session slot.
pub struct ScriptEntry {
    /// File name shown.
    pub name: String,
    /// The file (None: built in).
    pub path: Option<PathBuf>,
    /// The text (and `require`-able modules of its folder) last loaded.
    pub bundle: Bundle,
    /// Session slot when enabled.
    pub slot: Option<u32>,
    /// Frame of the last reload.
    pub reloaded_at: Option<u64>,
    /// The player whose Game Boy it runs against (0: the first; 1: a linked pair's second).
    pub player: usize,
}
