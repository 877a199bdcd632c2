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
    /// DMG: the line starts in the window, from its first pixel, if LCDC.5 is set as mode 3
    /// starts (WX 166 met at the last line's end: `Ppu::window_carry`).
    pub window_carry: bool,
}

/// What the replay needs besides the registers: VRAM, OAM and the OAM scan's result, and in
/// CGB mode the colour palettes.
#[derive(Clone, Copy, Debug)]
pub struct LineInput<'a> {
    /// Video RAM (bank 0, then the CGB's bank 1).
    pub vram: &'a [u8; 0x4000],
    /// Object attribute memory.
    pub oam: &'a [u8; 0xA0],
    /// The objects the OAM scan found on this line (OAM indices, in OAM order).
    pub objects: &'a [u8],
    /// CGB mode: tile attributes, VRAM banks, colour palettes, object priority by OAM index;
    /// the pixels are RGB555 colours (else DMG shades).
    pub cgb: bool,
    /// CGB mode with OPRI bit 0 set: objects overlap by X as on the DMG.
    pub dmg_order: bool,
    /// The CGB's PPU (in either mode): its delays differ from the DMG's.
    pub cgb_hardware: bool,
    /// The CPU CGB D's PPU (its LCDC.4 glitch differs).
    pub cgb_d: bool,
    /// The CPU runs at double speed: the fetcher sees its writes a dot sooner.
    pub double_speed: bool,
    /// The background colour palettes (BCPD's memory).
    pub bg_palettes: &'a [u8; 64],
    /// The object colour palettes (OCPD's memory).
    pub obj_palettes: &'a [u8; 64],
}
