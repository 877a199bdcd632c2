//! The CGB's colour RAM (Pan Docs "LCD Color Palettes (CGB only)"): 64 bytes of background
//! palettes and 64 of object palettes, 8 palettes of 4 RGB555 colours each (little-endian),
//! reached through BCPS/BCPD (0xFF68/0xFF69) and OCPS/OCPD (0xFF6A/0xFF6B).
//!
//! A specification register holds the byte index (bits 0-5) and auto-increment (bit 7); bit
//! 6 reads 1. A data register reads or writes the byte at the index; while the PPU reads colour
//! RAM (mode 3) reads give 0xFF and writes are dropped, but a write still advances the index
//! when auto-increment is on (reads never do). In DMG compatibility mode the data registers
//! read 0xFF and take no writes (Mooneye `misc/bits/unused_hwio-C`); the specification
//! registers stay readable.

/// Both palette memories and their specification registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ColorRam {
    /// Background palettes (BCPD's memory).
    pub(super) bg: [u8; 64],
    /// Object palettes (OCPD's memory).
    pub(super) obj: [u8; 64],
    /// BCPS: index (bits 0-5) and auto-increment (bit 7).
    pub(super) bcps: u8,
    /// OCPS, as BCPS.
    pub(super) ocps: u8,
}

impl Default for ColorRam {
    fn default() -> Self {
        ColorRam {
            bg: [0; 64],
            obj: [0; 64],
            bcps: 0,
            ocps: 0,
        }
    }
}

impl ColorRam {
    /// Colour `i` (0-3) of background palette `p` (0-7) as RGB555.
    #[inline]
    pub(super) fn bg_color(&self, p: usize, i: usize) -> u16 {
        color(&self.bg, p * 4 + i)
    }

    /// Colour `i` (0-3) of object palette `p` (0-7) as RGB555.
    #[inline]
    pub(super) fn obj_color(&self, p: usize, i: usize) -> u16 {
        color(&self.obj, p * 4 + i)
    }

    /// All 32 object colours as RGB555, palette `p`'s colour `i` at `p * 4 + i` (the
    /// background's: [`super::lanes::PaletteCache`]).
    #[inline]
    pub(super) fn obj_table(&self) -> [u16; 32] {
        table(&self.obj)
    }

    /// Read 0xFF68-0xFF6B. `data_ok`: the data registers are reachable (CGB mode, not mode 3).
    pub(super) fn read(&self, addr: u16, data_ok: bool) -> u8 {
        match addr {
            0xFF68 => 0x40 | self.bcps,
            0xFF6A => 0x40 | self.ocps,
            0xFF69 if data_ok => self.bg[usize::from(self.bcps & 0x3F)],
            0xFF6B if data_ok => self.obj[usize::from(self.ocps & 0x3F)],
            _ => 0xFF,
        }
    }

    /// Write 0xFF68-0xFF6B. `data_ok` as for [`ColorRam::read`]; a dropped data write still
    /// advances an auto-incrementing index. True when a colour changed.
    pub(super) fn write(&mut self, addr: u16, v: u8, data_ok: bool) -> bool {
        let (mem, spec) = match addr {
            0xFF68 => {
                self.bcps = v & 0xBF;
                return false;
            }
            0xFF6A => {
                self.ocps = v & 0xBF;
                return false;
            }
            0xFF69 => (&mut self.bg, &mut self.bcps),
            0xFF6B => (&mut self.obj, &mut self.ocps),
            _ => return false,
        };
        let byte = &mut mem[usize::from(*spec & 0x3F)];
        let changed = data_ok && *byte != v;
        if data_ok {
            *byte = v;
        }
        if *spec & 0x80 != 0 {
            *spec = 0x80 | (spec.wrapping_add(1) & 0x3F);
        }
        changed
    }
}

/// Colour `n` (0-31) of a palette memory as RGB555 (bit 15 ignored).
#[inline]
fn color(mem: &[u8; 64], n: usize) -> u16 {
    u16::from_le_bytes([mem[n * 2], mem[n * 2 + 1]]) & 0x7FFF
}

/// Every colour of a palette memory as RGB555, palette `p`'s colour `i` at `p * 4 + i`.
#[inline]
pub(super) fn table(mem: &[u8; 64]) -> [u16; 32] {
    std::array::from_fn(|n| color(mem, n))
}
