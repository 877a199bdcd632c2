//! [`World`]: what the scripts see of the world outside the machine: the clock they count
//! time by, their files, the movie and the TAS editor open over the session. None of it is in
//! the machine's image or the arenas: the clock's start and the files' contents come from the
//! log (each read is logged), the movie and editor views are set by their owners before every
//! frame and are not inputs (see `docs/lua-api.md`).

use crate::api::io::{Clock, FileIo};
use crate::data::{EditorInfo, MovieView};

/// The scripts' outside world.
#[derive(Debug, Default)]
pub(crate) struct World {
    /// The clock scripts see (`os.time`, `os.clock`).
    pub(crate) clock: Clock,
    /// Scripts' folders and file reads (see [`crate::api::io`]).
    pub(crate) files: FileIo,
    /// The movie open over the session, as scripts' `movie.*` see it.
    pub(crate) movie: Option<MovieView>,
    /// The TAS editor, as scripts' `tastudio.*` see it.
    pub(crate) editor: Option<EditorInfo>,
}
