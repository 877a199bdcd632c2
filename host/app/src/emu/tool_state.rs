//! What the tools keep on the emulation thread and what their windows are shown: the RAM
//! search, the watch and cheat lists ([`Tools`]), and the views built from them
//! ([`ToolsView`]). Plain data; the commands that change it are in `tools.rs`.

use std::path::PathBuf;
use std::sync::Arc;

use gb_core::Domain;
use gb_session::tools::search::{self, Layout, Search};
use gb_session::tools::watchlist::Watch;

/// Most candidates the window's list gets each frame (the search keeps them all).
pub const LIST_MAX: usize = 65_536;

/// One code of the cheat list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheatEntry {
    /// The code, canonical.
    pub code: String,
    /// The user's name for it.
    pub name: String,
    /// Turned on when the ROM opens.
    pub enabled: bool,
}

/// The tools' state.
#[derive(Default)]
pub(crate) struct Tools {
    /// The data folder the per-ROM lists go in (`None`: kept in memory only).
    pub(crate) dir: Option<PathBuf>,
    /// The RAM search, if one was started.
    pub(crate) search: Option<Search>,
    /// The watch list.
    pub(crate) watches: Vec<Watch>,
    /// The cheat list.
    pub(crate) cheats: Vec<CheatEntry>,
}

/// The search as the window shows it: the rows are raw, the window formats the ones it
/// shows (a search can hold 32,768 candidates; formatting them all every frame would cost
/// milliseconds).
#[derive(Clone, Debug)]
pub struct SearchView {
    /// The memory searched.
    pub domain: Domain,
    /// Its size (for the rows' places: [`gb_session::banks::place_text_in`]).
    pub domain_len: usize,
    /// The layout.
    pub layout: Layout,
    /// Candidates left.
    pub count: usize,
    /// The filters applied, as text.
    pub filters: Vec<String>,
    /// The first [`LIST_MAX`] candidates (empty while the RAM Search window is closed).
    pub rows: Arc<Vec<search::Candidate>>,
}

/// A watch as the window shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WatchRow {
    /// Its name.
    pub name: String,
    /// Where it is.
    pub place: String,
    /// Size and display (`1u`, `2h be`).
    pub kind: String,
    /// Its value now.
    pub value: String,
}

/// A cheat as the window shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheatRow {
    /// The code.
    pub code: String,
    /// The user's name.
    pub name: String,
    /// On in the session now.
    pub on: bool,
    /// What it does.
    pub what: String,
}

/// What the tools' windows show.
#[derive(Clone, Debug, Default)]
pub struct ToolsView {
    /// The search, if any.
    pub search: Option<SearchView>,
    /// The watch list.
    pub watches: Vec<WatchRow>,
    /// The cheat list.
    pub cheats: Vec<CheatRow>,
}

/// Where the per-ROM lists live by default.
pub(crate) fn rom_data_dir() -> Option<PathBuf> {
    if cfg!(test) {
        // Unit tests never touch the user's folders; they set `Tools::dir` themselves.
        return None;
    }
    crate::config::data_dir("GBHOST_ROM_DATA", "roms")
}
