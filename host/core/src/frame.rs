//! [`Frame`]: one picture of the LCD, 160 × 144 pixels row-major, as the PPU draws it: DMG
//! shade indices (0 lightest, 3 darkest) on the DMG model, RGB555 colours (the CGB's palette
//! entries as they are: bits 0-4 red, 5-9 green, 10-14 blue) on the CGB model. The host
//! turns it into screen colours ([`Frame::to_rgb888`]).

use std::sync::OnceLock;

/// Screen width in pixels: [`crate::screen::GAME`]'s, the PPU's name for it.
pub const WIDTH: usize = crate::screen::GAME.width;
/// Screen height in pixels: [`crate::screen::GAME`]'s, the PPU's name for it.
pub const HEIGHT: usize = crate::screen::GAME.height;

/// Grey of each DMG shade in the reference palette (lightest to darkest): what screenshots and
/// the test suites' reference images use.
pub const DMG_LEVELS: [u8; 4] = [0xFF, 0xAA, 0x55, 0x00];

/// The reference palette as RGB.
pub const DMG_REFERENCE: [[u8; 3]; 4] = [
    [DMG_LEVELS[0]; 3],
    [DMG_LEVELS[1]; 3],
    [DMG_LEVELS[2]; 3],
    [DMG_LEVELS[3]; 3],
];

/// How the host turns CGB colours into screen colours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColorCorrection {
    /// Each 5-bit channel widened to 8 bits as `(c << 3) | (c >> 2)`: what the test suites'
    /// references use.
    #[default]
    Off,
    /// A curve that looks like a real Game Boy Color screen (its colours mix and its
    /// brightness is not linear).
    Lcd,
}

/// A picture: 160 × 144 pixels, row-major.
///
/// Each row may carry a tag saying from what the PPU drew it (see `Ppu::line_tag`): a row
/// whose tag matches what the PPU would draw it from now is not drawn again. Any other
/// change of the pixels forgets the tags ([`Frame::pixels_mut`], [`Frame::set_color`]).
/// Equality compares the pictures, not the tags.
#[derive(Debug)]
pub struct Frame {
    pixels: Box<[u16; WIDTH * HEIGHT]>,
    color: bool,
    /// Per row: what the PPU drew it from, [`RowTag::UNKNOWN`] when unknown.
    tags: Box<[RowTag; HEIGHT]>,
}

impl Clone for Frame {
    fn clone(&self) -> Self {
        Frame {
            pixels: self.pixels.clone(),
            color: self.color,
            tags: self.tags.clone(),
        }
    }

    /// In place: no new buffers.
    fn clone_from(&mut self, source: &Self) {
        self.pixels.copy_from_slice(&source.pixels[..]);
        self.color = source.color;
        self.tags.copy_from_slice(&source.tags[..]);
    }
}

/// What a row was drawn from, as the PPU names it: the id of its VRAM, OAM, colour RAM and
/// registers with the window's state on the line, and the line's objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RowTag(pub(crate) u64, pub(crate) u64);

impl RowTag {
    /// Drawn from something unknown: matches no line (the PPU's ids start at 1).
    pub(crate) const UNKNOWN: RowTag = RowTag(0, 0);
}

impl PartialEq for Frame {
    fn eq(&self, other: &Frame) -> bool {
        self.color == other.color && self.pixels == other.pixels
    }
}

impl Eq for Frame {}

impl Default for Frame {
    fn default() -> Self {
        Frame::new(false)
    }
}

impl Frame {
    /// A blank frame: shades (`color` false) or RGB555 colours.
    pub fn new(color: bool) -> Frame {
        Frame {
            pixels: Box::new([0; WIDTH * HEIGHT]),
            color,
            tags: Box::new([RowTag::UNKNOWN; HEIGHT]),
        }
    }

    /// Whether the pixels are RGB555 colours (else DMG shade indices 0-3).
    pub fn is_color(&self) -> bool {
        self.color
    }

    /// Switch what the pixels hold (the PPU does when the model's mode is set).
    pub fn set_color(&mut self, color: bool) {
        if self.color != color {
            self.forget_tags();
        }
        self.color = color;
    }

    /// The pixels: shade indices 0-3, or RGB555 colours (see [`Frame::is_color`]).
    pub fn pixels(&self) -> &[u16] {
        &self.pixels[..]
    }

    /// The pixels, to draw into.
    pub fn pixels_mut(&mut self) -> &mut [u16; WIDTH * HEIGHT] {
        self.forget_tags();
        &mut self.pixels
    }

    /// Row `y`'s pixels, to draw into: what it is drawn from is unknown until
    /// [`Frame::set_row_tag`] says.
    pub(crate) fn row_mut(&mut self, y: usize) -> &mut [u16] {
        self.tags[y] = RowTag::UNKNOWN;
        &mut self.pixels[y * WIDTH..(y + 1) * WIDTH]
    }

    /// Say what row `y`, just drawn, was drawn from (see [`Frame::row_mut`]).
    pub(crate) fn set_row_tag(&mut self, y: usize, tag: RowTag) {
        self.tags[y] = tag;
    }

    /// What row `y` was drawn from (see [`Frame::row_mut`]).
    pub(crate) fn row_tag(&self, y: usize) -> RowTag {
        self.tags[y]
    }

    /// Forget what every row was drawn from.
    fn forget_tags(&mut self) {
        self.tags.fill(RowTag::UNKNOWN);
    }

    /// The shade of pixel `i` (0-3) of a DMG frame; the low two bits of a colour otherwise.
    pub fn shade(&self, i: usize) -> u8 {
        (self.pixels[i] & 3) as u8
    }

    /// The DMG shades, one byte a pixel (a colour frame gives the low byte of each colour):
    /// what the recorded frame hashes were taken over.
    pub fn shades(&self) -> impl Iterator<Item = u8> + '_ {
        self.pixels.iter().map(|&p| p as u8)
    }

    /// The whole frame as 8-bit RGB, 3 bytes a pixel: DMG shades in the reference palette,
    /// colours widened (corrected as `correction` says).
    pub fn to_rgb888(&self, correction: ColorCorrection) -> Vec<u8> {
        self.to_rgb888_with(&DMG_REFERENCE, correction)
    }

    /// [`Frame::to_rgb888`] with DMG shades in `dmg` (lightest first), e.g. a green screen.
    pub fn to_rgb888_with(&self, dmg: &[[u8; 3]; 4], correction: ColorCorrection) -> Vec<u8> {
        let mut out = vec![0u8; RGB888_LEN];
        self.write_rgb888(&mut out, dmg, correction);
        out
    }

    /// [`Frame::to_rgb888_with`] into `out`, which holds [`RGB888_LEN`] bytes (a longer
    /// buffer keeps its tail; a shorter one gets the pixels that fit). A bot reads a picture
    /// every frame: this writes colours 8 pixels at a time (DMG shades 4 at a time from a table),
    /// with no allocation.
    pub fn write_rgb888(&self, out: &mut [u8], dmg: &[[u8; 3]; 4], correction: ColorCorrection) {
        // Each pixel as 0x00BBGGRR.
        match (self.color, correction) {
            (false, _) => dmg_rgb(&self.pixels[..], out, dmg),
            (true, _) => {
                let table = rgb555_table(correction);
                pack_rgb(&self.pixels[..], out, |p| table[usize::from(p & 0x7FFF)]);
            }
        }
    }
}

/// Every RGB555 colour as 0x00BBGGRR under `correction`, built once per process (128 KiB
/// each; a frame uses a few dozen colours, so the lookups stay in cache).
fn rgb555_table(correction: ColorCorrection) -> &'static [u32; 0x8000] {
    static OFF: OnceLock<Box<[u32; 0x8000]>> = OnceLock::new();
    static LCD: OnceLock<Box<[u32; 0x8000]>> = OnceLock::new();
    let cell = match correction {
        ColorCorrection::Off => &OFF,
        ColorCorrection::Lcd => &LCD,
    };
    cell.get_or_init(|| {
        let mut table = Box::new([0u32; 0x8000]);
        for (c, entry) in (0u16..).zip(table.iter_mut()) {
            let [r, g, b] = rgb555_to_rgb888(c, correction);
            *entry = u32::from_le_bytes([r, g, b, 0]);
        }
        table
    })
}

/// Bytes of a whole frame as 8-bit RGB ([`Frame::write_rgb888`]).
pub const RGB888_LEN: usize = WIDTH * HEIGHT * 3;

/// [`pack_rgb`] for DMG shades: each group of 4 pixels is one of 256 shade patterns, whose 12
/// bytes come from a table built for `dmg` (a third of the work of a pixel at a time).
fn dmg_rgb(pixels: &[u16], out: &mut [u8], dmg: &[[u8; 3]; 4]) {
    let mut table = [[0u8; 12]; 256];
    for (k, entry) in table.iter_mut().enumerate() {
        for (j, rgb) in entry.chunks_exact_mut(3).enumerate() {
            rgb.copy_from_slice(&dmg[(k >> (2 * j)) & 3]);
        }
    }
    let n = pixels.len().min(out.len() / 3);
    let whole = n / 4 * 4;
    for (o, p) in out[..whole * 3]
        .chunks_exact_mut(12)
        .zip(pixels[..whole].chunks_exact(4))
    {
        let k = (p[0] & 3) | (p[1] & 3) << 2 | (p[2] & 3) << 4 | (p[3] & 3) << 6;
        o.copy_from_slice(&table[usize::from(k)]);
    }
    for (o, &p) in out[whole * 3..n * 3]
        .chunks_exact_mut(3)
        .zip(&pixels[whole..n])
    {
        o.copy_from_slice(&dmg[usize::from(p & 3)]);
    }
}

/// Write `pixels` as RGB bytes into `out`, each pixel's colour given by `rgb` as 0x00BBGGRR:
/// eight pixels at a time as three little-endian 64-bit words, the rest (if `out` is short or
/// the count is not a multiple of 8) a pixel at a time.
#[inline(always)]
fn pack_rgb(pixels: &[u16], out: &mut [u8], rgb: impl Fn(u16) -> u32) {
    let n = pixels.len().min(out.len() / 3);
    let (pixels, out) = (&pixels[..n], &mut out[..n * 3]);
    let mut groups = out.chunks_exact_mut(24);
    let mut eights = pixels.chunks_exact(8);
    for (o, p) in (&mut groups).zip(&mut eights) {
        let c: [u64; 8] = std::array::from_fn(|k| u64::from(rgb(p[k])));
        let words = [
            c[0] | c[1] << 24 | c[2] << 48,
            c[2] >> 16 | c[3] << 8 | c[4] << 32 | c[5] << 56,
            c[5] >> 8 | c[6] << 16 | c[7] << 40,
        ];
        for (o, w) in o.chunks_exact_mut(8).zip(words) {
            o.copy_from_slice(&w.to_le_bytes());
        }
    }
    for (o, &p) in groups
        .into_remainder()
        .chunks_exact_mut(3)
        .zip(eights.remainder())
    {
        o.copy_from_slice(&rgb(p).to_le_bytes()[..3]);
    }
}

/// One RGB555 colour as 8-bit RGB.
pub fn rgb555_to_rgb888(c: u16, correction: ColorCorrection) -> [u8; 3] {
    let (r, g, b) = (c & 0x1F, (c >> 5) & 0x1F, (c >> 10) & 0x1F);
    let widen = |x: u16| ((x << 3) | (x >> 2)) as u8;
    match correction {
        ColorCorrection::Off => [widen(r), widen(g), widen(b)],
        ColorCorrection::Lcd => {
            // The LCD mixes the channels and darkens the mid-tones (the curve of Gambatte and
            // higan: r' = (26r + 4g + 2b), g' = (24g + 8b), b' = (6r + 4g + 22b), over 32
            // shades of each channel, then scaled to 8 bits).
            let (r, g, b) = (u32::from(r), u32::from(g), u32::from(b));
            let r2 = (r * 26 + g * 4 + b * 2).min(960);
            let g2 = (g * 24 + b * 8).min(960);
            let b2 = (r * 6 + g * 4 + b * 22).min(960);
            [(r2 >> 2) as u8, (g2 >> 2) as u8, (b2 >> 2) as u8]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rgb_pictures_convert_every_pixel_as_the_one_pixel_conversion_does() {
        let mut f = Frame::default();
        for (i, p) in f.pixels_mut().iter_mut().enumerate() {
            *p = (i as u16).wrapping_mul(2_654_435_761u32 as u16) & 0x7FFF;
        }
        f.set_color(true);
        for correction in [ColorCorrection::Off, ColorCorrection::Lcd] {
            let rgb = f.to_rgb888_with(&[[0; 3]; 4], correction);
            for (i, &p) in f.pixels().iter().enumerate() {
                assert_eq!(
                    rgb[i * 3..i * 3 + 3],
                    rgb555_to_rgb888(p, correction),
                    "pixel {i}"
                );
            }
        }
        f.set_color(false);
        let grays = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]];
        let rgb = f.to_rgb888_with(&grays, ColorCorrection::Off);
        for (i, &p) in f.pixels().iter().enumerate() {
            assert_eq!(rgb[i * 3..i * 3 + 3], grays[usize::from(p & 3)]);
        }
    }

    #[test]
    fn a_short_buffer_gets_the_pixels_that_fit_and_a_long_one_keeps_its_tail() {
        let mut f = Frame::new(true);
        for (i, p) in f.pixels_mut().iter_mut().enumerate() {
            *p = (i as u16).wrapping_mul(40_503) & 0x7FFF;
        }
        let whole = f.to_rgb888(ColorCorrection::Off);
        // 7 pixels (fewer than a group), then 25 (three groups of eight and one alone).
        let mut short = [0xEEu8; 22];
        f.write_rgb888(&mut short, &DMG_REFERENCE, ColorCorrection::Off);
        assert_eq!(short[..21], whole[..21]);
        assert_eq!(short[21], 0xEE);
        let mut short = [0xEEu8; 77];
        f.write_rgb888(&mut short, &DMG_REFERENCE, ColorCorrection::Off);
        assert_eq!(short[..75], whole[..75]);
        assert_eq!(short[75..], [0xEE; 2]);
        f.set_color(false);
        let shades = f.to_rgb888(ColorCorrection::Off);
        let mut short = [0xEEu8; 22];
        f.write_rgb888(&mut short, &DMG_REFERENCE, ColorCorrection::Off);
        assert_eq!(short[..21], shades[..21]);
        assert_eq!(short[21], 0xEE);
        f.set_color(true);
        let mut long = vec![0xEEu8; RGB888_LEN + 5];
        f.write_rgb888(&mut long, &DMG_REFERENCE, ColorCorrection::Off);
        assert_eq!(long[..RGB888_LEN], whole[..]);
        assert_eq!(long[RGB888_LEN..], [0xEE; 5]);
    }
}
