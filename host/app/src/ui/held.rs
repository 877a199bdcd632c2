//! What the user holds down in the window ([`Held`]): the joypad buttons, rewind, fast-forward.
//! The window sends a command to the emulation thread only when one of these changes.

use gb_core::Buttons;

/// The held controls last sent to the emulation thread.
#[derive(Default)]
pub(super) struct Held {
    /// The joypad buttons (keys and gamepads together).
    pub(super) buttons: Buttons,
    /// The rewind speed asked for: 0 when not rewinding, else the frames stepped back per frame.
    pub(super) rewind: u32,
    /// The fast-forward key is held.
    pub(super) fast: bool,
    /// The Fast-forward toggle (menu or toolbar) is on.
    pub(super) fast_toggle: bool,
    /// The toolbar's Rewind button is held down by the pointer.
    pub(super) rewind_button: bool,
}
