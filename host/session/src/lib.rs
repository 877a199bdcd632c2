//! `gb-session`: the deterministic machine of gbhost.
//!
//! A [`Session`] owns the Game Boy core, one Lua VM per loaded script and the event log of
//! every outside input; it captures a snapshot of all of them after every frame into the
//! rewind ring, so that a rewind or seek brings back the game and its scripts together.
//!
//! Map of the crate:
//! - [`session`]: the session and its frame loop; the methods that log outside input;
//! - `history` (methods of [`Session`]): capture into the ring, restore, seek, step back,
//!   replay with the desync check, the sync test;
//! - [`ring`]: the rewind ring (one preallocated buffer, keyframes + diffs, binary search);
//! - [`events`]: the event log;
//! - [`bk2`]: BizHawk `.bk2` movie import and export (a pure format module);
//! - [`container`]: the movie file container (journal while recording, compact when done),
//!   which knows nothing of what its chunks hold;
//! - [`movie`]: movies on that container: recording after every frame (rerecords, undo),
//!   playback with the desync detector, keyframe seeks;
//! - [`statefile`] and `state_io` (methods of [`Session`]): save-state files and loading them;
//! - [`codec`]: the byte encodings of events, script bundles and `persist` tables;
//! - [`files`]: atomic file writes;
//! - [`script`] and [`api`]: one script's VM and the Lua API's host side (`prelude.lua` is the
//!   Lua side).
//!
//! The session touches no window, terminal, audio device or thread: the app drives it.
#![warn(missing_docs)]

pub mod api;
pub mod bk2;
pub mod codec;
pub mod container;
pub mod events;
pub mod files;
mod history;
pub mod movie;
pub mod ring;
pub mod script;
pub mod session;
pub mod state_io;
pub mod statefile;

pub use api::{DrawCmd, Flavor};
pub use events::{Event, EventKind, EventLog, SourceHash, source_hash};
pub use ring::{Method, Ring, RingError};
pub use script::{Bundle, Image, ScriptConfig, Status};
pub use session::{
    ConsoleLine, ScriptRestore, Session, SessionConfig, SessionError, StartParams, Stats,
};
pub use statefile::{StateFile, StateFileError};
