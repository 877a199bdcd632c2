//! Plain data at the bottom of the crate: the values every other module passes around and no
//! module owns. Nothing here names another module of the crate (`docs/ARCHITECTURE.md`: the
//! floor every import runs down to).
//!
//! - [`hash`]: FNV-1a and [`SourceHash`], the version of a script's source;
//! - [`flavor`]: which Lua API a script is written for;
//! - [`bundle`]: a script's source, modules and images;
//! - [`event`]: one outside input and when it happens;
//! - [`limits`]: the bounds hostile files are held to;
//! - [`status`]: what a script is doing (running, finished, failed);
//! - [`pads`]: every player's buttons of one frame (the TAS editor's input);
//! - [`movie_view`]: what is seen of the open movie; [`editor_info`]: of the TAS editor;
//! - [`window_input`]: what the app's windows send to scripts (form actions, keys, mouse).

pub mod bundle;
pub mod editor_info;
pub mod event;
pub mod flavor;
pub mod hash;
pub mod limits;
pub mod movie_view;
pub mod pads;
pub mod status;
pub mod window_input;

pub use bundle::{Bundle, Image};
pub use editor_info::EditorInfo;
pub use event::{Event, EventKind};
pub use flavor::Flavor;
pub use hash::{SourceHash, fnv1a, fnv1a_iter, source_hash};
pub use movie_view::MovieView;
pub use pads::Pads;
pub use status::Status;
pub use window_input::{FormValue, HostInput};
