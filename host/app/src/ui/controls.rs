//! The window's controls ([`Controls`]): the key bindings ([`KeyMap`]), the gamepads and what
//! the user holds down ([`Held`]: the joypad buttons, rewind, fast-forward); and the keys and
//! mouse as scripts read them ([`ScriptInput`]). The window sends a command to the emulation
//! thread only when one of these changes.

use crate::config::{Keys, PadKeys};
use crate::gamepad::Gamepads;
use eframe::egui;
use gb_core::Buttons;
use gb_session::data::HostInput;

/// The game's controls: how keys map to buttons, the gamepads, what was last sent.
pub(super) struct Controls {
    /// The key bindings.
    pub(super) keys: KeyMap,
    /// The gamepads, when polled (the desktop app; not tests).
    pub(super) gamepads: Option<Gamepads>,
    /// The joypad buttons, rewind and fast-forward last sent.
    pub(super) held: Held,
    /// The second player's joypad keys (a linked pair), each with its button.
    pub(super) keys2: [(Option<egui::Key>, Buttons); 8],
    /// The Link menu's "Swap controllers": player 1's keys and gamepads play player 2 and
    /// the other way round.
    pub(super) swapped: bool,
}

impl Controls {
    /// The controls for these bindings; `gamepads`: poll the gamepads.
    /// `gamepad_players`: the player assigned to each pad by name.
    pub(super) fn new(
        keys: &Keys,
        keys2: &PadKeys,
        gamepad_players: &std::collections::BTreeMap<String, u8>,
        gamepads: bool,
    ) -> Controls {
        let k = keys2;
        let mut pads = if gamepads { Gamepads::new() } else { None };
        if let Some(p) = &mut pads {
            p.set_players(gamepad_players.clone());
        }
        Controls {
            keys: KeyMap::new(keys),
            gamepads: pads,
            held: Held::default(),
            keys2: pad([
                &k.right, &k.left, &k.up, &k.down, &k.a, &k.b, &k.select, &k.start,
            ]),
            swapped: false,
        }
    }
}

/// A joypad's keys by egui's names, in the order right, left, up, down, A, B, Select,
/// Start, each with its button.
fn pad(names: [&str; 8]) -> [(Option<egui::Key>, Buttons); 8] {
    let buttons = [
        Buttons::RIGHT,
        Buttons::LEFT,
        Buttons::UP,
        Buttons::DOWN,
        Buttons::A,
        Buttons::B,
        Buttons::SELECT,
        Buttons::START,
    ];
    std::array::from_fn(|i| (egui::Key::from_name(names[i]), buttons[i]))
}

/// Key bindings resolved to egui keys.
pub(super) struct KeyMap {
    /// The joypad's keys, each with its button.
    pub(super) pad: [(Option<egui::Key>, Buttons); 8],
    /// Rewind while held (with Shift: four times as fast).
    pub(super) rewind: Option<egui::Key>,
    /// Fast-forward while held.
    pub(super) fast: Option<egui::Key>,
    /// Pause or resume.
    pub(super) pause: Option<egui::Key>,
    /// Step one frame.
    pub(super) advance: Option<egui::Key>,
}

impl KeyMap {
    /// The bindings of the config file, by egui's key names.
    fn new(k: &Keys) -> KeyMap {
        let key = |s: &str| egui::Key::from_name(s);
        KeyMap {
            pad: pad([
                &k.right, &k.left, &k.up, &k.down, &k.a, &k.b, &k.select, &k.start,
            ]),
            rewind: key(&k.rewind),
            fast: key(&k.fast_forward),
            pause: key(&k.pause),
            advance: key(&k.frame_advance),
        }
    }
}

/// The held controls last sent to the emulation thread.
#[derive(Default)]
pub(super) struct Held {
    /// The joypad buttons (keys and gamepads together).
    pub(super) buttons: Buttons,
    /// The second player's buttons (its keys; a linked pair).
    pub(super) second: Buttons,
    /// The rewind speed asked for: 0 when not rewinding, else the frames stepped back per frame.
    pub(super) rewind: u32,
    /// The fast-forward key is held.
    pub(super) fast: bool,
    /// The Fast-forward toggle (menu or toolbar) is on.
    pub(super) fast_toggle: bool,
    /// The toolbar's Rewind button is held down by the pointer.
    pub(super) rewind_button: bool,
}

/// The keys and mouse as scripts read them (`host_input.rs` fills and sends them).
pub(super) struct ScriptInput {
    /// Where the game's picture was last drawn: its top-left corner and scale.
    pub(super) screen_at: (egui::Pos2, f32),
    /// The wheel's position (the sum of scrolls, in notches).
    pub(super) wheel: f32,
    /// The keys and mouse last sent.
    pub(super) sent: HostInput,
}

impl Default for ScriptInput {
    fn default() -> Self {
        Self {
            screen_at: (egui::Pos2::ZERO, 1.0),
            wheel: 0.0,
            sent: HostInput::default(),
        }
    }
}
