//! Gamepads through `gilrs`: the D-pad or left stick, East = A, South = B (the Game Boy's
//! layout on a Nintendo-style pad), Start and Select. With no gamepad support (no udev) the
//! app runs keyboard-only after one log line.

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
        while self.gilrs.next_event().is_some() {}
        let mut b = 0u8;
        for (_, pad) in self.gilrs.gamepads() {
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
        }
        Buttons(b)
    }
}
