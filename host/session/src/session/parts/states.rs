//! [`States`]: the states a session keeps in memory: the user's by name, the scripts' by name
//! (kept apart), and every state a logged load names, by index. Saving and loading them is
//! the session's `states.rs`.
//!
//! Invariant: a state a logged `LoadState` event names is never changed or removed, so a
//! replay loads the same bytes.

use std::collections::HashMap;

use crate::state::SavedState;

/// The states a session keeps in memory.
#[derive(Debug, Default)]
pub(crate) struct States {
    /// Saved by the user (`Session::save_state`), by name.
    pub(crate) named: HashMap<String, SavedState>,
    /// Saved by scripts (`savestate.save`), kept apart from the user's.
    pub(crate) by_scripts: HashMap<String, SavedState>,
    /// Every state a logged `LoadState` event names, by index.
    pub(crate) loaded: Vec<SavedState>,
}
