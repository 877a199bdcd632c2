//! The joypad register P1 (0xFF00) and its interrupt (Pan Docs: "Joypad Input").
//!
//! The interrupt goes through a filter against contact bounce: the "a selected line is low"
//! signal is shifted through four flip-flops, one per M-cycle, and the request is the AND of
//! the first and the last (GateBoy's BATU, ACEF, AGEM, APUG and ASOK): a line that falls is
//! requested `FILTER_MCYCLES` M-cycles later if a line is still low then (gbc-hw-tests
//! `joy_interrupt_manual_delay`: selecting a held button and deselecting it 5 M-cycles later
//! requests the interrupt after the instruction that follows the selecting write).

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

    /// The buttons with their names, in the order of BizHawk's Game Boy input log (and of
    /// gbhost's piano roll): Up, Down, Left, Right, Start, Select, B, A.
    pub const NAMES: [(Buttons, &'static str); 8] = [
        (Buttons::UP, "Up"),
        (Buttons::DOWN, "Down"),
        (Buttons::LEFT, "Left"),
        (Buttons::RIGHT, "Right"),
        (Buttons::START, "Start"),
        (Buttons::SELECT, "Select"),
        (Buttons::B, "B"),
        (Buttons::A, "A"),
    ];

    /// BizHawk's input-log letters for [`Buttons::NAMES`], in its order (the piano roll's
    /// column heads too).
    pub const MNEMONICS: [u8; 8] = *b"UDLRSsBA";

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

/// M-cycles from a line's fall to the joypad interrupt request (the filter's length).
pub(crate) const FILTER_MCYCLES: u64 = 3;

/// P1 state: the selection bits written by the game and the buttons held. At power-on both
/// selection lines are low (P1 reads 0xCF).
#[derive(Clone, Debug)]
pub struct Joypad {
    /// Bits 4 (direction keys) and 5 (action keys) as written; 0 selects.
    select: u8,
    /// Buttons held.
    buttons: Buttons,
    /// When a fallen line reaches the filter's end (the interrupt is requested if a line is
    /// still low then), `u64::MAX` when none is on its way.
    irq_at: u64,
}

impl Default for Joypad {
    fn default() -> Self {
        Joypad {
            select: 0,
            buttons: Buttons::default(),
            irq_at: u64::MAX,
        }
    }
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

    /// P1 write at `now`; a line that falls reaches the interrupt filter's end `delay` dots
    /// later.
    pub fn write(&mut self, v: u8, now: u64, delay: u64) {
        let before = self.lines();
        self.select = v & 0x30;
        self.line_fell(before, now + delay);
    }

    /// Set the selection bits without an interrupt (a boot ROM's state, a save state).
    pub(crate) fn restore_select(&mut self, v: u8) {
        self.select = v & 0x30;
    }

    /// Change the buttons held at `now`, as [`Joypad::write`] does the selection.
    pub fn set_buttons(&mut self, buttons: Buttons, now: u64, delay: u64) {
        let before = self.lines();
        self.buttons = buttons;
        self.line_fell(before, now + delay);
    }

    fn line_fell(&mut self, before: u8, at: u64) {
        if before & !self.lines() != 0 && self.irq_at == u64::MAX {
            self.irq_at = at;
        }
    }

    /// Time of the next event (a fallen line at the filter's end).
    #[inline]
    pub fn next_event(&self) -> u64 {
        self.irq_at
    }

    /// The filter's end at or before `now`: true when the interrupt is requested (a line is
    /// still low).
    pub fn run_events(&mut self, now: u64) -> bool {
        if self.irq_at > now {
            return false;
        }
        self.irq_at = u64::MAX;
        self.any_line_low()
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
        w.u64(self.irq_at);
    }

    /// Read the joypad's part of the state image.
    pub(crate) fn load_state(
        &mut self,
        r: &mut crate::state::Reader<'_>,
    ) -> Result<(), crate::state::StateError> {
        self.select = r.u8()? & 0x30;
        self.buttons = Buttons(r.u8()?);
        self.irq_at = r.u64()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fallen_line_is_requested_after_the_filter_if_still_low() {
        let mut j = Joypad::default();
        j.restore_select(0x30);
        j.set_buttons(Buttons::A, 0, 12);
        assert_eq!(j.next_event(), u64::MAX, "A is not selected: no line falls");
        // Selecting the action keys at t = 100: the request 12 dots later.
        j.write(0x10, 100, 12);
        assert!(!j.run_events(111));
        assert!(j.run_events(112));
        assert_eq!(j.next_event(), u64::MAX);
        // A line low for less than the filter: deselected before its end, no request.
        j.write(0x30, 120, 12);
        j.write(0x10, 200, 12);
        j.write(0x30, 204, 12);
        assert!(!j.run_events(212));
    }
}
