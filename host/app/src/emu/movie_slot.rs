//! [`MovieSlot`]: the open movie as the thread keeps it — the `Tas` workflow, what a
//! read-only movie does at its end, and its authors and description as last read — with its
//! part of the view.

use std::path::PathBuf;

use gb_session::movie::{EndAction, Movie, MovieView, Tas};

use super::types::MovieInfo;

/// The open movie, what a read-only one does at its end, and its authors and description as
/// last read.
#[derive(Default)]
pub(crate) struct MovieSlot {
    /// The open movie, if any.
    pub(crate) tas: Option<Tas>,
    /// What a read-only movie does at its end.
    pub(crate) end_action: EndAction,
    /// The authors and description of the movie at this path, as last read or set.
    pub(crate) info: Option<(PathBuf, MovieInfo)>,
}

impl MovieSlot {
    /// The open movie and its authors and description, for the window (those read from its
    /// file once per movie).
    pub(crate) fn view(&mut self) -> (Option<MovieView>, Option<MovieInfo>) {
        let movie = self.tas.as_ref().map(Tas::view);
        (movie, self.info_view())
    }

    fn info_view(&mut self) -> Option<MovieInfo> {
        let tas = self.tas.as_ref()?;
        let path = tas.path();
        if let Some((p, info)) = &self.info
            && p == path
        {
            return Some(info.clone());
        }
        let info = Movie::open(path)
            .map(|m| MovieInfo::of(&m.header))
            .unwrap_or_default();
        self.info = Some((path.to_owned(), info.clone()));
        Some(info)
    }
}
