//! `gb-session`: the deterministic machine of gbhost.
//!
//! A [`Session`] owns the Game Boy core, one Lua VM per loaded script and the event log of
//! every outside input; its [`History`] captures all of them after every frame into the rewind
//! ring, so that a rewind or seek brings back the game and its scripts together.
//!
//! Map of the crate, from the floor up (a module only names modules above it in this list,
//! never below: `docs/ARCHITECTURE.md`):
//! - [`data`]: plain data every part passes around (hashes, script bundles, API flavors,
//!   events, what scripts see of the movie and the TAS editor, the bounds on hostile files);
//! - [`events`] (the event log), [`codec`] (portable byte encodings), [`files`] (atomic
//!   writes), [`keys`] (the user's state key), [`patch`] (IPS, UPS and BPS ROM patches);
//! - [`api`] (the Lua API's host side) and [`script`] (one script's VM); [`banks`]
//!   (`bank:addr` as debuggers write it); [`symbols`] (RGBDS `.sym` files: names for banked
//!   addresses); [`tools`] (RAM search, the watch list, cheat codes); [`debug`] (the
//!   debugger's breakpoints and conditions);
//! - [`machine`]: the [`Machine`] a session runs (one Game Boy today; the seam a linked pair
//!   goes in), its stepping, image, input and views;
//! - [`rewind`]: the ring and the [`History`] (capture, cursor, restore, the desync check);
//! - [`state`]: in-memory states and the state-file format;
//! - [`session`]: the [`Session`] itself (frame loop, logged input, timeline, state files,
//!   the console);
//! - [`movie`]: movies (container, format, recorder, player, `.bk2`), the TAS workflow
//!   ([`movie::Tas`]) and the TAS editor's model ([`movie::editor::Editor`]) over a session;
//! - [`catalog`]: BizHawk's, VBA-rr's and mGBA's APIs name by name, their status found by
//!   looking each up in a session running the layer (the compatibility docs).
//!
//! The session touches no window, terminal, audio device or thread: the app drives it.
#![warn(missing_docs)]

pub mod api;
pub mod banks;
pub mod catalog;
pub mod codec;
pub mod data;
pub mod debug;
pub mod events;
pub mod files;
pub mod keys;
pub mod machine;
pub mod movie;
pub mod patch;
pub mod rewind;
pub mod script;
pub mod session;
pub mod state;
pub mod symbols;
pub mod tools;

pub use api::DrawCmd;
pub use data::{Bundle, Event, EventKind, Flavor, Image, SourceHash, fnv1a, source_hash};
pub use events::EventLog;
pub use machine::Machine;
pub use rewind::{History, Method, Ring, RingError};
pub use script::{ScriptConfig, Status};
pub use session::{
    ConsoleLine, PowerOn, Roms, ScriptRestore, Session, SessionConfig, SessionError, StartParams,
    Stats,
};
pub use state::{ScriptImage, StateFile, StateFileError};
