//! The pixel output: the background FIFO, the palettes as the shifter reads them, and each
//! pixel's shade from the background index, the object pixel, LCDC.0/.1 and the priority bit.

use super::line::LineWrite;
use super::objects::ObjPixel;

/// The background FIFO: 8 colour indices, pushed whole by the fetcher, with their tile's
/// attributes (CGB mode).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct BgFifo {
    pixels: [u8; 8],
    /// The attributes of the tile the pixels come from.
    attr: u8,
    /// Pixels pushed (8 after a push, 0 before the first one or after a clear).
    len: usize,
    /// Pixels already shifted out.
    pos: usize,
}

impl BgFifo {
    /// Push 8 pixels from a tile row's two bit planes (bit 7 leftmost) and the tile's
    /// attributes.
    pub(super) fn push(&mut self, lo: u8, hi: u8, attr: u8) {
        self.attr = attr;
        for (i, p) in self.pixels.iter_mut().enumerate() {
            let bit = 7 - i;
            *p = ((lo >> bit) & 1) | (((hi >> bit) & 1) << 1);
        }
        self.len = 8;
        self.pos = 0;
    }

    /// Empty it (the window starts).
    pub(super) fn clear(&mut self) {
        self.len = 0;
        self.pos = 0;
    }

    /// Something was pushed since the line started or the FIFO was cleared.
    pub(super) fn started(&self) -> bool {
        self.len > 0
    }

    /// Pixels are waiting to be shifted out.
    pub(super) fn has_pixels(&self) -> bool {
        self.pos < self.len
    }

    /// How many pixels are waiting.
    pub(super) fn remaining(&self) -> usize {
        self.len - self.pos
    }

    /// No pixel of the current tile has been shifted out yet.
    pub(super) fn at_tile_start(&self) -> bool {
        self.pos == 0
    }

    /// The attributes of the pixels waiting (CGB mode).
    pub(super) fn attr(&self) -> u8 {
        self.attr
    }

    /// Shift out the next pixel's colour index (call only while [`BgFifo::has_pixels`]).
    pub(super) fn pop(&mut self) -> u8 {
        let p = self.pixels[self.pos];
        self.pos += 1;
        p
    }
}

/// The palettes as the shifter reads them.
#[derive(Clone, Copy, Debug)]
pub(super) struct Palettes {
    /// BGP.
    pub(super) bgp: u8,
    /// OBP0.
    pub(super) obp0: u8,
    /// OBP1.
    pub(super) obp1: u8,
}

impl Palettes {
    /// Apply a palette write.
    pub(super) fn apply(&mut self, w: &LineWrite) {
        match w.addr {
            0xFF47 => self.bgp = w.value,
            0xFF48 => self.obp0 = w.value,
            0xFF49 => self.obp1 = w.value,
            _ => {}
        }
    }
}

/// A pixel's colour in CGB mode: the object pixel shows if it is not transparent, objects are
/// on (LCDC.1), and the background does not win: with LCDC.0 set (the master priority), a
/// background colour 1-3 wins when its tile's priority bit or the object's OBJ-to-BG bit is
/// set. The background keeps its colours while LCDC.0 is clear.
pub(super) fn color(
    index: u8,
    bg_attr: u8,
    obj: ObjPixel,
    lcdc: u8,
    bg_palettes: &[u8; 64],
    obj_palettes: &[u8; 64],
) -> u16 {
    let bg_wins = lcdc & 0x01 != 0 && index != 0 && (bg_attr & 0x80 != 0 || obj.attr & 0x80 != 0);
    let (mem, palette, i) = if obj.index != 0 && lcdc & 0x02 != 0 && !bg_wins {
        (obj_palettes, obj.attr & 7, obj.index)
    } else {
        (bg_palettes, bg_attr & 7, index)
    };
    let n = usize::from(palette) * 8 + usize::from(i) * 2;
    u16::from_le_bytes([mem[n], mem[n + 1]]) & 0x7FFF
}

/// A pixel's shade: the object pixel shows if it is not transparent, objects are on (LCDC.1)
/// and its priority bit does not hide it behind a background colour other than 0; the
/// background counts as colour 0 while LCDC.0 is clear. An object's shade comes tagged with
/// its palette (4: OBP0, 8: OBP1), which the CGB's compatibility mode colours by.
pub(super) fn shade(index: u8, obj: ObjPixel, lcdc: u8, pal: &Palettes) -> u8 {
    let bg = if lcdc & 0x01 == 0 { 0 } else { index };
    let obj_shows = obj.index != 0 && lcdc & 0x02 != 0 && !(obj.attr & 0x80 != 0 && bg != 0);
    if obj_shows {
        let p = if obj.attr & 0x10 != 0 {
            pal.obp1
        } else {
            pal.obp0
        };
        ((p >> (obj.index * 2)) & 3) | (4 << ((obj.attr >> 4) & 1))
    } else {
        (pal.bgp >> (bg * 2)) & 3
    }
}
