//! `gb-session`: the deterministic machine of gbhost.
//!
//! A [`Session`] owns the Game Boy core, one Lua VM per loaded script and the event log of
//! every outside input; it captures a snapshot of all of them after every frame into the
//! rewind ring, so that a rewind or seek brings back the game and its scripts together.
#![warn(missing_docs)]

pub mod events;
pub mod ring;

pub use events::{Event, EventKind, EventLog, SourceHash, source_hash};
pub use ring::{Method, Ring, RingError};
