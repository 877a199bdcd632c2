//! The line's scheduled events ([`Event`]) and the STAT interrupt sources, as the timeline
//! (`timeline.rs`) drives them and the PPU's state holds them.

/// The HBlank STAT interrupt source (its STAT enable bit): from the end of mode 3 to the end
/// of the line, never on the first line after the LCD is switched on.
pub(super) const SRC_HBLANK: u8 = 0x08;
/// The VBlank STAT interrupt source: from line 144 dot 2 to the end of line 153.
pub(super) const SRC_VBLANK: u8 = 0x10;
/// The OAM STAT interrupt source: a pulse over the first M-cycle of lines 0-144 (2 dots on
/// line 144, where VBlank masks it), not a level over mode 2.
pub(super) const SRC_OAM: u8 = 0x20;

/// What the next scheduled PPU event does (dots from S, see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Event {
    /// S of the next line.
    LineStart,
    /// S+2: LY is compared with LYC. On line 144 VBlank starts (mode 1, the VBlank
    /// interrupt; the OAM source's pulse ends), on line 0 it ends (the OAM pulse starts); on
    /// line 153 LY reads 0 from here.
    Compare,
    /// S+4 on lines 0-143: STAT reads mode 2, OAM writes are blocked, the OAM pulse ends.
    Mode2,
    /// S+80: VRAM is blocked.
    VramBlock,
    /// S+84: mode 3.
    Mode3,
    /// S+253+p: mode 0 (STAT, VRAM and OAM), and unless that is on an M-cycle boundary the
    /// HBlank interrupt source.
    HBlank,
    /// S+254+p when mode 0 started on an M-cycle boundary: the HBlank interrupt source.
    HBlankIrq,
    /// Before mode 0, when the pixel counter's last step is longer (objects at X 167, the
    /// CGB's window starting at WX 166): the HBlank interrupt source, a dot after the
    /// counter reached 167 (see `Ppu::mode3_late_dots`); [`Event::HBlank`] follows.
    HBlankIrqEarly,
    /// S+258+p on a line with register writes during mode 3: the line is replayed (its pixels
    /// are all out, [`DRAW_DELAY`](super::timeline::DRAW_DELAY)).
    Draw,
    /// S+6 on line 153: the LY=LYC flag reads 0 for one M-cycle.
    Line153Blank,
    /// S+10 on line 153: LY (now 0) is compared with LYC.
    Line153Compare,
    /// On the CGB, the dot before the next line's S: LY reads the old and the new line ANDed
    /// (its bits fall before they rise). Only a CPU whose M-cycles are out of step with the
    /// PPU by an odd number of dots reads there (after a switch back to normal speed: see
    /// [`Ppu::delay`](super::Ppu::delay)).
    LyGlitch,
    /// The LCD is off: nothing is scheduled.
    Off,
}
