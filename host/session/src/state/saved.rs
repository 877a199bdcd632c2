//! [`SavedState`]: a whole state kept in memory (the core image and each loaded script's
//! arena), by `savestate.save`, `Session::save_state` and loads of state files. Valid only in
//! the process that made it (arenas hold raw pointers).

/// A state kept in memory by `savestate.save` or `Session::save_state`.
#[derive(Clone, Debug)]
pub struct SavedState {
    /// The core image.
    pub core: Vec<u8>,
    /// Each loaded script's arena, by slot.
    pub scripts: Vec<(u32, lua_rollback::Snapshot)>,
}
