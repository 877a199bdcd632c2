//! [`MovieView`]: what a window, a REPL or a script's `movie.*` sees of the open movie.

/// What a window or a REPL shows of the open movie.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MovieView {
    /// The file's name.
    pub name: String,
    /// Read-only playback (else recording).
    pub read_only: bool,
    /// The movie's frame count (recorded so far, or the file's).
    pub length: u64,
    /// The frame the movie starts at.
    pub start: u64,
    /// Rerecords.
    pub rerecords: u64,
    /// A rerecord can be undone.
    pub can_undo: bool,
    /// The playback reached the end.
    pub ended: bool,
    /// The first frame the desync detector found different, if any.
    pub desync: Option<u64>,
    /// Why the playback is not checked, if it is not: a movie of another core
    /// (`Movie::core_note`).
    pub unverified: Option<String>,
}
