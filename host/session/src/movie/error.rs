//! [`MovieError`]: why a movie cannot be read, recorded or played.

use super::container::ContainerError;
use crate::codec::DecodeError;
use crate::data::limits::MAX_FRAME_LIST;
use crate::session::SessionError;

/// Why a movie cannot be read, recorded or played.
#[derive(Debug, thiserror::Error)]
pub enum MovieError {
    /// The container is damaged or foreign.
    #[error(transparent)]
    Container(#[from] ContainerError),
    /// A part does not decode.
    #[error("the movie's {part} is invalid: {source}")]
    Decode {
        /// Which part (`header`, `chunk 12`).
        part: String,
        /// What was wrong.
        source: DecodeError,
    },
    /// The movie is of another ROM.
    #[error(
        "this movie is of another ROM ('{title}', hash {theirs:016x}; the loaded ROM's is {ours:016x})"
    )]
    ForeignRom {
        /// The movie's ROM title.
        title: String,
        /// The movie's ROM hash.
        theirs: u64,
        /// The loaded ROM's hash.
        ours: u64,
    },
    /// The movie is of two linked Game Boys and one ROM was given, or the reverse.
    #[error("{}", players_message(*theirs, *ours))]
    Players {
        /// Game Boys in the movie (2: a linked pair).
        theirs: usize,
        /// Game Boys given to play it on.
        ours: usize,
    },
    /// The second player's ROM of a linked pair's movie is another one.
    #[error(
        "player 2 of this movie ran another ROM ('{title}', hash {theirs:016x}; the linked ROM's is {ours:016x})"
    )]
    ForeignSecondRom {
        /// The movie's second ROM title.
        title: String,
        /// The movie's second ROM hash.
        theirs: u64,
        /// The given second ROM's hash.
        ours: u64,
    },
    /// The movie was made on another model than the one asked for.
    #[error("this movie was recorded on the {theirs}; it cannot play on the {ours}")]
    ForeignModel {
        /// The movie's model.
        theirs: gb_core::Model,
        /// The model asked for.
        ours: gb_core::Model,
    },
    /// The movie names a model gbhost does not emulate.
    #[error("this movie was recorded on a model gbhost does not emulate ('{0}')")]
    UnknownModel(String),
    /// The session did something a movie cannot hold.
    #[error("cannot record this in a movie: {0}")]
    Unrecordable(String),
    /// Too many frames to list one by one.
    #[error("the movie has {0} frames; at most {MAX_FRAME_LIST} can be listed frame by frame")]
    TooLong(u64),
    /// A TAS workflow step that does not apply (e.g. read-write while recording).
    #[error("{0}")]
    Workflow(String),
    /// Making the session failed.
    #[error(transparent)]
    Session(#[from] SessionError),
}

/// What [`MovieError::Players`] says.
fn players_message(theirs: usize, ours: usize) -> String {
    if theirs > ours {
        "this movie is of two linked Game Boys: play it with the second player's ROM too \
         (--link ROM2)"
            .to_owned()
    } else {
        format!("this movie is of one Game Boy; {ours} ROMs were given (drop --link)")
    }
}
