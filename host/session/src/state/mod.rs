//! Saved states: [`saved`], a state kept in memory (core image + script arenas), and [`file`](mod@file),
//! the sectioned, versioned state-file format on disk with its slot paths.

pub mod file;
pub mod saved;

pub use file::{ScriptImage, StateFile, StateFileError, Thumbnail};
pub use saved::SavedState;
