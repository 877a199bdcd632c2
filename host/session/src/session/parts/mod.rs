//! The parts a [`crate::Session`] is made of, each with one job, as plain state with the small
//! methods that concern it alone. They sit below the session's method modules (`frame.rs`,
//! `input.rs`, `timeline.rs`, …), which move several parts at once: a part names no other part
//! of the session and never the session itself. The machine a session runs is
//! [`crate::machine::Machine`] (below the history, which captures it).

pub(crate) mod debugger;
pub(crate) mod inputs;
pub(crate) mod output;
pub(crate) mod scripts;
pub(crate) mod states;
pub(crate) mod timeline;
pub(crate) mod world;
