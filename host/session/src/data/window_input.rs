//! What the app's windows send to scripts: a user's action on a script's form
//! ([`FormValue`]) and the keys and mouse the host sees ([`HostInput`]). Both reach a script
//! only as logged events (`EventKind::Form`, `EventKind::HostInput`), so a replay hands the
//! script the very same values.

/// A user's action on one control of a script's form (BizHawk's `forms`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormValue {
    /// The control was clicked (a button, a label, a picture box).
    Click,
    /// A checkbox was ticked (`true`) or cleared.
    Check(bool),
    /// A textbox's text is now this.
    Text(String),
    /// A dropdown's item at this index (from 0) was chosen.
    Select(u32),
    /// The form was closed (its handle is the control).
    Close,
}

/// Mouse buttons in [`HostInput::mouse_buttons`].
pub mod mouse {
    /// The left button.
    pub const LEFT: u8 = 1;
    /// The right button.
    pub const RIGHT: u8 = 2;
    /// The middle button.
    pub const MIDDLE: u8 = 4;
}

/// The host's keyboard and mouse as scripts see them (`input.get`, `input.getmouse`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostInput {
    /// The keys held, by BizHawk's names (`A`, `Shift`, `Space`, `Up`, `F1`, …), sorted.
    pub keys: Vec<String>,
    /// The pointer's column in game-screen pixels (negative or past 160 outside the screen).
    pub mouse_x: i32,
    /// The pointer's row in game-screen pixels.
    pub mouse_y: i32,
    /// The buttons held ([`mouse`]'s bits).
    pub mouse_buttons: u8,
    /// The wheel's position: the sum of the notches scrolled (up positive).
    pub wheel: i32,
}
