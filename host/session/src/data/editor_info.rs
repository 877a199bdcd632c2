//! [`EditorInfo`]: what scripts' `tastudio.*` see of the TAS editor (set by the app while
//! the editor is open and a script runs: before each live frame, once per re-emulation tick;
//! like the movie's [`super::MovieView`], not part of the log).

use std::collections::BTreeMap;
use std::sync::Arc;

/// The TAS editor as scripts see it. Frames are session frames.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EditorInfo {
    /// The roll's first frame.
    pub start: u64,
    /// The roll's end (one past its last frame).
    pub end: u64,
    /// Frames before this were emulated with the current input.
    pub valid_end: u64,
    /// The oldest frame the rewind history holds.
    pub held_from: u64,
    /// Playing past the end records.
    pub recording: bool,
    /// The markers' texts.
    pub markers: Arc<BTreeMap<u64, String>>,
    /// Lag of the frames from `start` (None: not emulated with the current input).
    pub lag: Arc<Vec<Option<bool>>>,
    /// The frames selected in the piano roll.
    pub selection: Arc<Vec<u64>>,
    /// The branches: text and frame.
    pub branches: Arc<Vec<(String, u64)>>,
}
