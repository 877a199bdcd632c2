//! What the video viewers (tiles, tile maps, OAM, palettes, I/O registers) are shown: a copy
//! of the machine's video memory and registers at the shown frame ([`VideoView`]), taken only
//! while one of their windows is open. Plain data; the window decodes it (`ui/vram.rs`,
//! `ui/io_regs.rs`).

use gb_core::{Domain, Gb, Model, Registers};

/// The machine as the viewers see it at the shown frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VideoView {
    /// The frame it was taken at.
    pub frame: u64,
    /// The model running.
    pub model: Model,
    /// The CGB runs a CGB game (its palettes and VRAM bank 1 are used).
    pub cgb_mode: bool,
    /// Video RAM: 8 KiB, or 16 KiB on the CGB (bank 0 then bank 1).
    pub vram: Vec<u8>,
    /// Object attribute memory (40 objects of 4 bytes).
    pub oam: Vec<u8>,
    /// The I/O registers 0xFF00-0xFF7F as the CPU reads them now.
    pub io: Vec<u8>,
    /// IE (0xFFFF).
    pub ie: u8,
    /// CGB background palette RAM (8 palettes of 4 RGB555 colours, little-endian).
    pub bg_palettes: [u8; 64],
    /// CGB object palette RAM.
    pub obj_palettes: [u8; 64],
    /// The CPU registers.
    pub regs: Registers,
    /// The interrupt master enable.
    pub ime: bool,
    /// The CPU is halted.
    pub halted: bool,
}

impl VideoView {
    /// Read it from the machine (no side effects).
    pub fn capture(gb: &Gb, frame: u64) -> VideoView {
        let (bg_palettes, obj_palettes) = gb.color_palettes();
        VideoView {
            frame,
            model: gb.model(),
            cgb_mode: gb.cgb_mode(),
            vram: gb.domain(Domain::Vram).to_vec(),
            oam: gb.domain(Domain::Oam).to_vec(),
            io: (0xFF00..=0xFF7Fu16).map(|a| gb.peek(a)).collect(),
            ie: gb.peek(0xFFFF),
            bg_palettes,
            obj_palettes,
            regs: gb.regs(),
            ime: gb.ime(),
            halted: gb.is_halted(),
        }
    }

    /// The I/O register at `addr` (0xFF00-0xFF7F, or 0xFFFF); 0xFF elsewhere.
    pub fn reg(&self, addr: u16) -> u8 {
        match addr {
            0xFFFF => self.ie,
            0xFF00..=0xFF7F => self
                .io
                .get(usize::from(addr - 0xFF00))
                .copied()
                .unwrap_or(0xFF),
            _ => 0xFF,
        }
    }
}
