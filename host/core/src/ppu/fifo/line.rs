//! What the replay of one line reads: the register writes during the line ([`LineWrite`]),
//! the registers as they are ([`LineRegs`]), and VRAM, OAM and the OAM scan ([`LineInput`]).

/// A register write during the line: its dot (from S), address and value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineWrite {
    /// Dot, counted from S, at which the write takes effect.
    pub dot: u16,
    /// The register (0xFF40-0xFF4B).
    pub addr: u16,
    /// The value written.
    pub value: u8,
}

/// The registers the fetcher and the shifter read.
#[derive(Clone, Copy, Debug)]
pub struct LineRegs {
    /// LCDC.
    pub lcdc: u8,
    /// SCY.
    pub scy: u8,
    /// SCX.
    pub scx: u8,
    /// BGP.
    pub bgp: u8,
    /// OBP0.
    pub obp0: u8,
    /// OBP1.
    pub obp1: u8,
    /// WX.
    pub wx: u8,
    /// The line (LY).
    pub ly: u8,
    /// The window's line counter.
    pub window_line: u8,
    /// WY matched LY at a line start this frame.
    pub wy_triggered: bool,
}

/// What the replay needs besides the registers: VRAM, OAM and the OAM scan's result.
#[derive(Clone, Copy, Debug)]
pub struct LineInput<'a> {
    /// Video RAM.
    pub vram: &'a [u8; 0x4000],
    /// Object attribute memory.
    pub oam: &'a [u8; 0xA0],
    /// The objects the OAM scan found on this line (OAM indices, in OAM order).
    pub objects: &'a [u8],
}
