//! Movies: a session's outside inputs from power-on (or from a state) to the end, with state
//! checks, in the chunked container of `container.rs`.
//!
//! A movie is what the session's event log already is (joypad changes at exact cycles, pokes,
//! script loads and reloads with their sources; for two linked Game Boys each player's joypad
//! and the cable's plugging, the header naming both players), cut into chunks of [`CHUNK_FRAMES`] frames.
//! Each chunk starts with the hash of the core image at its first frame (the desync detector:
//! playback compares it at every chunk) and, every [`KEYFRAME_CHUNKS`] chunks, the image itself
//! (a keyframe, for seeking; once scripts are in play, a state file with their portable VM
//! images every `SCRIPTED_KEYFRAME_CHUNKS` chunks: [`format`](mod@format)); then the source
//! bundles its events name; then its events.
//!
//! Chunk payload (`codec.rs` encodings):
//!
//! ```text
//! u64 state hash (FNV-1a of the core image at start_frame)
//! bytes keyframe (the core image, a state file "GBHSTATE…", or empty)
//! count, (u64 hash, bundle)*     sources of the chunk's script loads and reloads
//! events                          encode_events from (start_frame, 0)
//! ```
//!
//! The files of this folder, from the bottom up:
//! - [`container`]: the file container (journal while recording, compact when done), blind to
//!   what its chunks hold; [`bk2`]: BizHawk's `.bk2` format, a pure format module;
//! - [`error`], [`format`](mod@format): the errors, and the header and chunk payloads;
//! - [`reader`]: [`Movie`], a movie read from a file, and sessions at any of its frames;
//! - [`player`]: [`Feeder`] (playback with the desync detector) and [`play`];
//! - [`recorder`]: [`Recorder`] (recording after every frame, rerecords, undo);
//! - [`tas`]: [`Tas`], the TAS workflow (record, play read-only, read-write, undo, the end
//!   of a movie) over a session;
//! - the TAS editor's model: [`roll`] (the input frame by frame, markers, undo),
//!   [`editor`] (edits over a session, the greenzone, lazy re-emulation, branches, marker
//!   states, `tastudio.*` requests), [`editor_file`] (its `.gbm` and `.branches` sidecar),
//!   [`ghost`] (a second machine frame-locked with the edited one).

pub mod bk2;
pub mod container;
pub mod editor;
pub mod editor_file;
pub mod error;
pub mod format;
pub mod ghost;
pub mod player;
pub mod reader;
pub mod recorder;
pub mod roll;
pub mod tas;

pub use crate::data::limits::{MAX_FRAME, MAX_FRAME_LIST};
pub use error::MovieError;
pub use format::{
    CHUNK_FRAMES, Chunk, FLAG_KEYFRAME, KEYFRAME_CHUNKS, MovieHeader, Power, SecondPlayer, Start,
    state_hash,
};
pub use player::{Desync, Feed, Feeder, PlayReport, play};
pub use reader::{FrameInput, Movie};
pub use recorder::Recorder;
pub use tas::{Before, EndAction, MovieView, Stopped, Tas};
