//! The one-shot subcommands: each runs, prints and exits, with no window (`headless`, `play`,
//! `movie`, `state`, `patch`; `bench` has a folder of its own, `run` is the app).

pub(crate) mod headless;
pub(crate) mod movie;
pub(crate) mod patch;
pub(crate) mod play;
pub(crate) mod state;
