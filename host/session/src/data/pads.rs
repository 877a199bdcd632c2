//! [`Pads`]: the buttons of every player of one frame, as the TAS editor, its branches and
//! ghosts hold a movie's input (one Game Boy's buttons, or a linked pair's two).
//!
//! Packed as a bit set, player 1's [`Buttons`] in the low byte and player 2's in the high
//! byte, so painting and autofire over a mask work alike for either player's columns (the
//! mask of player 2's A is `Pads::of(1, Buttons::A)`). On one Game Boy the high byte stays 0.

use gb_core::Buttons;

/// The players a frame's [`Pads`] holds (a linked pair's two).
pub const PLAYERS: usize = 2;

/// Every player's buttons of one frame: player `p`'s are bits `8p..8p + 8`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pads(pub u16);

impl Pads {
    /// Player `player`'s `buttons`, nobody else's (nothing for a player past [`PLAYERS`]).
    pub fn of(player: usize, buttons: Buttons) -> Pads {
        if player < PLAYERS {
            Pads(u16::from(buttons.0) << (8 * player))
        } else {
            Pads::default()
        }
    }

    /// Player 1's `first` and player 2's `second`.
    pub fn pair(first: Buttons, second: Buttons) -> Pads {
        Pads::of(0, first) | Pads::of(1, second)
    }

    /// Player `player`'s buttons (released for a player past [`PLAYERS`]).
    pub fn player(self, player: usize) -> Buttons {
        if player < PLAYERS {
            Buttons((self.0 >> (8 * player)) as u8)
        } else {
            Buttons::default()
        }
    }

    /// Whether every button of `other` (player 1's, given [`Buttons`]) is pressed in `self`.
    pub fn contains(self, other: impl Into<Pads>) -> bool {
        let other = other.into();
        self.0 & other.0 == other.0
    }

    /// Whether no button of any player is pressed.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl From<Buttons> for Pads {
    /// Player 1's buttons (one Game Boy's frame).
    fn from(b: Buttons) -> Pads {
        Pads::of(0, b)
    }
}

impl std::ops::BitOr for Pads {
    type Output = Pads;
    fn bitor(self, rhs: Pads) -> Pads {
        Pads(self.0 | rhs.0)
    }
}

impl std::ops::BitAnd for Pads {
    type Output = Pads;
    fn bitand(self, rhs: Pads) -> Pads {
        Pads(self.0 & rhs.0)
    }
}

impl std::ops::Not for Pads {
    type Output = Pads;
    fn not(self) -> Pads {
        Pads(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_player_has_its_byte() {
        let p = Pads::pair(Buttons::A | Buttons::UP, Buttons::START);
        assert_eq!(p.player(0), Buttons::A | Buttons::UP);
        assert_eq!(p.player(1), Buttons::START);
        assert_eq!(p.player(2), Buttons::default());
        assert_eq!(p.0, 0x8014);
        assert!(p.contains(Pads::of(1, Buttons::START)));
        assert!(!p.contains(Pads::of(0, Buttons::START)));
        assert_eq!(Pads::from(Buttons::B), Pads::of(0, Buttons::B));
        assert_eq!(Pads::of(5, Buttons::B), Pads::default());
        assert_eq!(
            p & !Pads::of(0, Buttons::A),
            Pads::pair(Buttons::UP, Buttons::START)
        );
    }
}
