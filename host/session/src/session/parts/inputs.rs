//! [`Inputs`]: the outside input in force at the session's position, as the log's events last
//! set it (the user's buttons, the host's keys and mouse, the cheat codes on), and the buttons
//! the scripts press and release this frame. A restore sets it from the log again; only the
//! frame loop's event application and the logging methods of `input.rs` change it.

use gb_core::Buttons;

use crate::data::HostInput;
use crate::tools::cheats::Active;

/// The input in force.
#[derive(Debug, Default)]
pub(crate) struct Inputs {
    /// The buttons the user holds (from the log).
    pub(crate) user: Buttons,
    /// The buttons the second player of a linked pair holds (from the log).
    pub(crate) second: Buttons,
    /// Buttons scripts press and release this frame.
    pub(crate) overrides: (u8, u8),
    /// The host's keys and mouse as last logged (to log only changes).
    pub(crate) host: HostInput,
    /// The cheat codes on (from the log).
    pub(crate) cheats: Active,
}

impl Inputs {
    /// The buttons the machine sees: the user's, with the scripts' presses and releases.
    pub(crate) fn effective_buttons(&self) -> Buttons {
        let (press, release) = self.overrides;
        Buttons((self.user.0 & !release) | press)
    }
}
