//! [`Inputs`]: the outside input in force at the session's position, as the log's events last
//! set it (each player's buttons, the host's keys and mouse, the cheat codes on), and the
//! buttons the scripts press and release this frame on each player's joypad. A restore sets it from the log again; only the
//! frame loop's event application and the logging methods of `input.rs` change it.

use gb_core::Buttons;

use crate::data::HostInput;
use crate::machine::Machine;
use crate::tools::cheats::Active;

/// The input in force.
#[derive(Debug, Default)]
pub(crate) struct Inputs {
    /// The buttons the user holds (from the log).
    pub(crate) user: Buttons,
    /// The buttons the second player of a linked pair holds (from the log).
    pub(crate) second: Buttons,
    /// Buttons scripts press and release this frame, on each player's joypad.
    pub(crate) overrides: [(u8, u8); Machine::MAX_PLAYERS],
    /// The host's keys and mouse as last logged (to log only changes).
    pub(crate) host: HostInput,
    /// The cheat codes on (from the log).
    pub(crate) cheats: Active,
}

impl Inputs {
    /// The buttons player `p` holds (from the log), without the scripts' overrides.
    pub(crate) fn held(&self, p: usize) -> Buttons {
        if p == 0 { self.user } else { self.second }
    }

    /// The buttons player `p`'s Game Boy sees: what the player holds, with the presses and
    /// releases of the scripts running against it.
    pub(crate) fn player_buttons(&self, p: usize) -> Buttons {
        let (press, release) = self.overrides[p];
        Buttons((self.held(p).0 & !release) | press)
    }
}
