//! [`OpenEditor`]: an open TAS editor as the emulation thread keeps it (the model, its movie
//! file, a version counter, the view last built from it and its ghost); `editor.rs` and
//! `editor_ghost.rs` do the work.

use std::path::PathBuf;

use gb_session::movie::Movie;
use gb_session::movie::editor::Editor;
use gb_session::movie::ghost::Ghost;

use super::types::EditorView;

/// An open TAS editor.
pub(crate) struct OpenEditor {
    /// The model.
    pub ed: Editor,
    /// The movie file it was opened from or last saved to.
    pub path: Option<PathBuf>,
    /// The movie it was opened from (a fresh session at its start saves it).
    pub movie: Option<Movie>,
    /// Bumped on every change the window shows.
    pub version: u64,
    /// Bumped on every change of the input or markers (the view's biggest parts).
    pub input_version: u64,
    /// The input version the cached view was built from.
    pub cache_input: u64,
    /// The view last built, and its version.
    pub cache: Option<EditorView>,
    /// Re-emulation failed (the history no longer holds where it must start): it waits for
    /// the next edit or seek instead of failing every tick.
    pub stalled: bool,
    /// A second machine racing the edited one (`movie ghost …`).
    pub ghost: Option<Ghost>,
    /// The piano roll's selection (first and last frame), for scripts' `tastudio.getselection`.
    pub selection: Option<(u64, u64)>,
}

impl OpenEditor {
    pub(crate) fn new(ed: Editor, path: Option<PathBuf>, movie: Option<Movie>) -> OpenEditor {
        OpenEditor {
            ed,
            path,
            movie,
            version: 1,
            input_version: 1,
            cache_input: 0,
            cache: None,
            stalled: false,
            ghost: None,
            selection: None,
        }
    }
}
