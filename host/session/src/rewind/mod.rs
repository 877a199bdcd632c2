//! The rewind history: [`ring`] stores every frame's record (keyframes and diffs) in one
//! preallocated buffer; [`history`] keeps the cursor (the state at the session's position) and
//! moves it, capturing a frame into the ring or restoring the machine from any frame held.

mod bases;
mod dict;
pub mod history;
pub mod ring;

pub use history::History;
pub use ring::{Method, Ring, RingError};

#[cfg(all(test, feature = "census"))]
mod census;
