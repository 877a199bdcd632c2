//! Line buffers and 8-pixel lanes shared by the DMG and CGB renderers.
//!
//! A line is drawn into buffers that start [`LEAD`] pixels left of the screen's first, so a
//! tile or an object is always written whole at its place (the fine scroll, a window left of
//! x = 0 and objects at X 1-7 spill into the lead, a tile past the right edge into the tail).
//! Per-pixel masks are byte lanes of a `u64` (0x00 or 0xFF, leftmost pixel in the lowest byte)
//! read and written 8 at a time; colours are `[u16; 8]` computed from a tile row's two bit
//! planes with the palette's 4 colours loaded once ([`ColorLanes`]), which the compiler turns
//! into a few vector operations.

use crate::frame::WIDTH;

/// Pixels of the line buffers left of the screen's first.
pub(super) const LEAD: usize = 8;
/// The line buffers' length: the lead, the screen, and a tile's spill past its right edge.
pub(super) const BUF: usize = LEAD + WIDTH + 8;

/// Every byte's 8 bits as `u16` lanes of 0x0000/0xFFFF, bit 7 (the leftmost pixel) first.
static MASKS: [[u16; 8]; 256] = {
    let mut table = [[0u16; 8]; 256];
    let mut v = 0;
    while v < 256 {
        let mut i = 0;
        while i < 8 {
            if (v >> (7 - i)) & 1 != 0 {
                table[v][i] = 0xFFFF;
            }
            i += 1;
        }
        v += 1;
    }
    table
};

/// [`spread`] for every byte, built at compile time.
const SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut v = 0;
    while v < 256 {
        let mut lanes = 0u64;
        let mut i = 0;
        while i < 8 {
            if (v >> (7 - i)) & 1 != 0 {
                lanes |= 0xFF << (i * 8);
            }
            i += 1;
        }
        table[v] = lanes;
        v += 1;
    }
    table
};

/// Spread the 8 bits of a tile plane byte to 8 byte lanes of 0x00/0xFF, bit 7 (the leftmost
/// pixel) in the lowest lane.
#[inline]
pub(super) fn spread(bits: u8) -> u64 {
    SPREAD[usize::from(bits)]
}

/// Every byte with its bits in reverse order, built at compile time.
const FLIPPED: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut v = 0;
    while v < 256 {
        table[v] = (v as u8).reverse_bits();
        v += 1;
    }
    table
};

/// A tile row's bit plane mirrored (X flip): one table read, where `reverse_bits` takes a
/// dozen instructions without a bit-reverse instruction.
#[inline]
pub(super) fn flip(plane: u8) -> u8 {
    FLIPPED[usize::from(plane)]
}

/// A palette's 4 colours (or shades) arranged to colour 8 pixels at once from a tile row's
/// bit planes: each pixel is a choice between colours 0 and 1 (low plane), 2 and 3 (low
/// plane), then between those two (high plane).
#[derive(Clone, Copy, Debug)]
pub(super) struct ColorLanes {
    /// Colour 0 in every lane.
    c0: [u16; 8],
    /// Colour 0 XOR colour 1 in every lane.
    d01: [u16; 8],
    /// Colour 2 in every lane.
    c2: [u16; 8],
    /// Colour 2 XOR colour 3 in every lane.
    d23: [u16; 8],
}

impl Default for ColorLanes {
    fn default() -> ColorLanes {
        ColorLanes::new([0; 4])
    }
}

impl ColorLanes {
    /// The lanes of the palette `colors` (colour index 0-3 to colour).
    #[inline]
    pub(super) fn new(colors: [u16; 4]) -> ColorLanes {
        let [c0, c1, c2, c3] = colors;
        ColorLanes {
            c0: [c0; 8],
            d01: [c0 ^ c1; 8],
            c2: [c2; 8],
            d23: [c2 ^ c3; 8],
        }
    }

    /// The colours of a tile row's 8 pixels from its two bit planes (bit 7 leftmost).
    #[inline]
    pub(super) fn tile(&self, lo: u8, hi: u8) -> [u16; 8] {
        let lo = &MASKS[usize::from(lo)];
        let hi = &MASKS[usize::from(hi)];
        std::array::from_fn(|k| {
            let low_pair = self.c0[k] ^ (self.d01[k] & lo[k]);
            let high_pair = self.c2[k] ^ (self.d23[k] & lo[k]);
            low_pair ^ ((low_pair ^ high_pair) & hi[k])
        })
    }
}

/// The 8 background palettes as [`ColorLanes`], with the colour RAM they were made from: a
/// line reuses them while BCPD is not written (derived data, not in the state image).
#[derive(Clone, Debug, Default)]
pub(super) struct PaletteCache {
    from: Option<[u8; 64]>,
    lanes: [ColorLanes; 8],
}

impl PaletteCache {
    /// Make the lanes of the 8 palettes in `cram` (64 bytes of RGB555 colours, as BCPD sets
    /// them) unless they were made from the same bytes last time.
    pub(super) fn refresh(&mut self, cram: &[u8; 64]) {
        if self.from.as_ref() != Some(cram) {
            let table = super::cram::table(cram);
            self.lanes =
                std::array::from_fn(|p| ColorLanes::new(std::array::from_fn(|i| table[p * 4 + i])));
            self.from = Some(*cram);
        }
    }

    /// The lanes [`PaletteCache::refresh`] made.
    pub(super) fn lanes(&self) -> &[ColorLanes; 8] {
        &self.lanes
    }
}

/// The 8 byte lanes of `buf` from `x`.
#[inline]
pub(super) fn lanes_at(buf: &[u8; BUF], x: usize) -> u64 {
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&buf[x..x + 8]);
    u64::from_le_bytes(bytes)
}

/// Write 8 byte lanes into `buf` from `x`.
#[inline]
pub(super) fn put_lanes(buf: &mut [u8; BUF], x: usize, lanes: u64) {
    buf[x..x + 8].copy_from_slice(&lanes.to_le_bytes());
}

/// The byte lanes of a tile row's pixels of colour index 1-3 (bit planes `lo` and `hi`).
#[inline]
pub(super) fn opaque(lo: u8, hi: u8) -> u64 {
    spread(lo | hi)
}

/// Byte lanes (0x00/0xFF) packed to one bit each, lane 0 in bit 7 (as a tile row's pixels).
#[inline]
fn pack(lanes: u64) -> u8 {
    ((lanes & 0x0101_0101_0101_0101).wrapping_mul(0x8040_2010_0804_0201) >> 56) as u8
}

/// Write the pixels of `colors` whose byte lane in `mask` is set into `line` from `x`.
#[inline]
pub(super) fn blend(line: &mut [u16; BUF], x: usize, colors: [u16; 8], mask: u64) {
    let mask = &MASKS[usize::from(pack(mask))];
    let dst: &mut [u16; 8] = (&mut line[x..x + 8]).try_into().expect("8 pixels");
    *dst = std::array::from_fn(|k| (dst[k] & !mask[k]) | (colors[k] & mask[k]));
}

/// The line's object pixels claimed so far: the first object (in priority order) with an
/// opaque pixel somewhere owns it, even where the background hides it.
pub(super) struct Claims([u8; BUF]);

impl Claims {
    /// No pixel claimed.
    pub(super) fn new() -> Claims {
        Claims([0; BUF])
    }

    /// Claim the pixels of `opaque` (byte lanes from `x`); returns those no earlier object
    /// had.
    #[inline]
    pub(super) fn claim(&mut self, x: usize, opaque: u64) -> u64 {
        let before = lanes_at(&self.0, x);
        put_lanes(&mut self.0, x, before | opaque);
        opaque & !before
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_puts_lane0_in_bit7() {
        for v in 0..=255u8 {
            assert_eq!(pack(spread(v)), v);
        }
    }

    #[test]
    fn color_lanes_pick_each_index() {
        let lanes = ColorLanes::new([0x1111, 0x2222, 0x4444, 0x7FFF]);
        // Indices 0,1,2,3,3,2,1,0.
        assert_eq!(
            lanes.tile(0b0101_1010, 0b0011_1100),
            [
                0x1111, 0x2222, 0x4444, 0x7FFF, 0x7FFF, 0x4444, 0x2222, 0x1111
            ]
        );
    }

    #[test]
    fn blend_writes_masked_pixels_only() {
        let mut line = [9u16; BUF];
        blend(&mut line, 3, [1, 2, 3, 4, 5, 6, 7, 8], spread(0b1000_0001));
        assert_eq!(&line[2..12], &[9, 1, 9, 9, 9, 9, 9, 9, 8, 9]);
    }

    #[test]
    fn claims_go_to_the_first() {
        let mut claims = Claims::new();
        assert_eq!(claims.claim(10, spread(0b1100_0000)), spread(0b1100_0000));
        assert_eq!(
            claims.claim(9, spread(0b1111_0000)),
            spread(0b1000_0000 | 0b0001_0000)
        );
    }
}
