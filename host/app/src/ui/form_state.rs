//! What the window remembers of scripts' forms between frames ([`ScriptForms`]): text being
//! typed, forms the user closed, and values given but not yet seen by the script.

use std::collections::{HashMap, HashSet};

use gb_session::data::FormValue;

/// The window's side of the scripts' forms, keyed by (slot, control or form handle).
#[derive(Default)]
pub(super) struct ScriptForms {
    /// The text being typed in a focused textbox of a script's form, by (slot, control):
    /// shown instead of the published text until the field loses focus (the script sees each
    /// change a frame later).
    pub(super) edits: HashMap<(u32, u32), String>,
    /// Forms the user closed, by (slot, form), hidden until the script's next description
    /// (the close reaches the script at the next frame's start, maybe much later if paused).
    pub(super) closed: HashSet<(u32, u32)>,
    /// Values the user gave controls of scripts' forms, by (slot, control), with the frame
    /// shown then: shown until another frame is (the script sees them at the next frame's
    /// start, maybe much later if paused).
    pub(super) pending: HashMap<(u32, u32), (u64, FormValue)>,
}
