//! Gamepads through `gilrs`: the D-pad or left stick, East = A, South = B (the Game Boy's
//! layout on a Nintendo-style pad), Start and Select. With no gamepad support (no udev) the
//! app runs keyboard-only after one log line. For two linked Game Boys the first connected
//! pad plays player 1 and the others player 2.

use gb_core::Buttons;
use gilrs::{Axis, Button, Gilrs};

/// Connected gamepads, polled once per UI frame.
pub struct Gamepads {
    gilrs: Gilrs,
}

impl Gamepads {
    /// Start gamepad support; `None` (with one line on stderr) when it is unavailable.
    pub fn new() -> Option<Gamepads> {
        match Gilrs::new() {
            Ok(gilrs) => {
                if gilrs.gamepads().next().is_none() {
                    eprintln!(
                        "gbhost: no gamepad connected; keyboard only (pads plugged in later work)"
                    );
                }
                Some(Gamepads { gilrs })
            }
            Err(e) => {
                eprintln!("gbhost: no gamepad support ({e}); keyboard only");
                None
            }
        }
    }

    /// The buttons held on any connected pad.
    pub fn poll(&mut self) -> Buttons {
        let [a, b] = self.poll_players();
        Buttons(a.0 | b.0)
    }

    /// The buttons held per player of a linked pair: the first connected pad plays player
    /// 1, the others player 2.
    pub fn poll_players(&mut self) -> [Buttons; 2] {
        while self.gilrs.next_event().is_some() {}
        let mut held = [0u8; 2];
        for (i, (_, pad)) in self.gilrs.gamepads().enumerate() {
            held[usize::from(i > 0)] |= pad_buttons(&pad);
        }
        held.map(Buttons)
    }
}

/// What one pad holds, as the Game Boy's buttons (the D-pad or the left stick).
fn pad_buttons(pad: &gilrs::Gamepad<'_>) -> u8 {
    let map = [
        (Button::DPadRight, Buttons::RIGHT),
        (Button::DPadLeft, Buttons::LEFT),
        (Button::DPadUp, Buttons::UP),
        (Button::DPadDown, Buttons::DOWN),
        (Button::East, Buttons::A),
        (Button::South, Buttons::B),
        (Button::Select, Buttons::SELECT),
        (Button::Start, Buttons::START),
    ];
    let mut b = 0u8;
    for (btn, bit) in map {
        if pad.is_pressed(btn) {
            b |= bit.0;
        }
    }
    let (x, y) = (pad.value(Axis::LeftStickX), pad.value(Axis::LeftStickY));
    if x > 0.5 {
        b |= Buttons::RIGHT.0;
    } else if x < -0.5 {
        b |= Buttons::LEFT.0;
    }
    if y > 0.5 {
        b |= Buttons::UP.0;
    } else if y < -0.5 {
        b |= Buttons::DOWN.0;
    }
    b
}
