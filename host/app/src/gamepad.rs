//! Gamepads through `gilrs`: the D-pad or left stick, East = A, South = B (the Game Boy's
//! layout on a Nintendo-style pad), Start and Select. With no gamepad support (no udev) the
//! app runs keyboard-only after one log line. For two linked Game Boys each pad plays the
//! player the config assigns to its name (`gamepad_players`, chosen in the Link menu); an
//! unassigned pad plays player 1 when it is the first connected, else player 2.

use std::collections::BTreeMap;

use gb_core::Buttons;
use gilrs::{Axis, Button, Gilrs};

/// Connected gamepads, polled once per UI frame.
pub struct Gamepads {
    gilrs: Gilrs,
    /// The player (1 or 2) assigned to a pad, by its name.
    assigned: BTreeMap<String, u8>,
}

/// The player (0: the first) the `index`th connected pad, named `name`, plays: its
/// assignment when it has one (1 or 2), else the first pad player 1 and the others player 2.
pub fn player_of(index: usize, name: &str, assigned: &BTreeMap<String, u8>) -> usize {
    match assigned.get(name) {
        Some(1) => 0,
        Some(2) => 1,
        _ => usize::from(index > 0),
    }
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
                Some(Gamepads {
                    gilrs,
                    assigned: BTreeMap::new(),
                })
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

    /// The buttons held per player of a linked pair (see [`player_of`]).
    pub fn poll_players(&mut self) -> [Buttons; 2] {
        while self.gilrs.next_event().is_some() {}
        let mut held = [0u8; 2];
        for (i, (_, pad)) in self.gilrs.gamepads().enumerate() {
            held[player_of(i, pad.name(), &self.assigned)] |= pad_buttons(&pad);
        }
        held.map(Buttons)
    }

    /// Assign players to pads by name (the config's `gamepad_players`).
    pub fn set_players(&mut self, assigned: BTreeMap<String, u8>) {
        self.assigned = assigned;
    }

    /// The connected pads' names, each with the player it plays (0: the first).
    pub fn pads(&self) -> Vec<(String, usize)> {
        self.gilrs
            .gamepads()
            .enumerate()
            .map(|(i, (_, pad))| {
                let name = pad.name().to_owned();
                let p = player_of(i, &name, &self.assigned);
                (name, p)
            })
            .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pads_play_their_assigned_player_else_the_first_plays_player_1() {
        let mut assigned = BTreeMap::new();
        assert_eq!(player_of(0, "Pad A", &assigned), 0);
        assert_eq!(player_of(1, "Pad B", &assigned), 1);
        assert_eq!(player_of(2, "Pad C", &assigned), 1);
        assigned.insert("Pad A".to_owned(), 2);
        assigned.insert("Pad B".to_owned(), 1);
        assigned.insert("Pad C".to_owned(), 7);
        assert_eq!(player_of(0, "Pad A", &assigned), 1, "assigned to player 2");
        assert_eq!(player_of(1, "Pad B", &assigned), 0, "assigned to player 1");
        assert_eq!(
            player_of(2, "Pad C", &assigned),
            1,
            "a bad number: the default"
        );
    }
}
