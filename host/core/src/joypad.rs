//! The joypad register P1 (0xFF00) and its interrupt (Pan Docs: "Joypad Input").

/// The eight buttons, as a bit set (1 = pressed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Buttons(pub u8);

impl Buttons {
    /// Right on the D-pad.
    pub const RIGHT: Buttons = Buttons(0x01);
    /// Left on the D-pad.
    pub const LEFT: Buttons = Buttons(0x02);
    /// Up on the D-pad.
    pub const UP: Buttons = Buttons(0x04);
    /// Down on the D-pad.
    pub const DOWN: Buttons = Buttons(0x08);
    /// The A button.
    pub const A: Buttons = Buttons(0x10);
    /// The B button.
    pub const B: Buttons = Buttons(0x20);
    /// Select.
    pub const SELECT: Buttons = Buttons(0x40);
    /// Start.
    pub const START: Buttons = Buttons(0x80);

    /// Whether every button of `other` is pressed in `self`.
    pub fn contains(self, other: Buttons) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for Buttons {
    type Output = Buttons;
    fn bitor(self, rhs: Buttons) -> Buttons {
        Buttons(self.0 | rhs.0)
    }
}

/// P1 state: the selection bits written by the game and the buttons held. At power-on both
/// selection lines are low (P1 reads 0xCF).
#[derive(Clone, Debug, Default)]
pub struct Joypad {
    /// Bits 4 (direction keys) and 5 (action keys) as written; 0 selects.
    select: u8,
    /// Buttons held.
    buttons: Buttons,
}

impl Joypad {
    /// The low nibble of P1: 0 where a selected button is pressed.
    fn lines(&self) -> u8 {
        let mut low = 0x0F;
        if self.select & 0x10 == 0 {
            low &= !(self.buttons.0 & 0x0F);
        }
        if self.select & 0x20 == 0 {
            low &= !(self.buttons.0 >> 4);
        }
        low
    }

    /// P1 read.
    pub fn read(&self) -> u8 {
        0xC0 | self.select | self.lines()
    }

    /// P1 write; returns true when a line falls (joypad interrupt).
    pub fn write(&mut self, v: u8) -> bool {
        let before = self.lines();
        self.select = v & 0x30;
        before & !self.lines() != 0
    }

    /// Change the buttons held; returns true when a line falls (joypad interrupt).
    pub fn set_buttons(&mut self, buttons: Buttons) -> bool {
        let before = self.lines();
        self.buttons = buttons;
        before & !self.lines() != 0
    }

    /// The buttons held.
    pub fn buttons(&self) -> Buttons {
        self.buttons
    }

    /// Whether any selected line is low (wakes the CPU from STOP).
    pub fn any_line_low(&self) -> bool {
        self.lines() != 0x0F
    }
}

impl Joypad {
    /// Append the joypad's part of the state image.
    pub(crate) fn save_state(&self, w: &mut crate::state::Writer<'_>) {
        w.bytes(&[self.select, self.buttons.0]);
    }

    /// Read the joypad's part of the state image.
    pub(crate) fn load_state(
        &mut self,
        r: &mut crate::state::Reader<'_>,
    ) -> Result<(), crate::state::StateError> {
        self.select = r.u8()? & 0x30;
        self.buttons = Buttons(r.u8()?);
        Ok(())
    }
}
