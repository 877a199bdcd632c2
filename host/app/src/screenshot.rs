//! Writing a frame as a PNG (DMG shades in the reference palette #FFFFFF, #AAAAAA, #555555,
//! #000000, lightest to darkest; CGB colours widened as `(c << 3) | (c >> 2)`, as the test
//! suites' references are), atomically: a temporary file in the same folder, renamed over the
//! target only once complete.

use anyhow::{Context, Result};
use gb_core::screen::{GAME, Geometry, Size};
use gb_core::{ColorCorrection, Frame};
use std::path::Path;

/// A frame as RGB bytes (the reference palette for DMG shades, widened colours for the CGB).
pub fn to_rgb(frame: &Frame) -> Vec<u8> {
    frame.to_rgb888(ColorCorrection::Off)
}

/// Encode 160 × 144 RGB bytes as a PNG.
pub fn encode_rgb(rgb: &[u8]) -> Result<Vec<u8>> {
    encode_rgb_sized(rgb, GAME)
}

/// Encode RGB bytes of a picture of `size` as a PNG.
fn encode_rgb_sized(rgb: &[u8], size: Size) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, size.width as u32, size.height as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header()?;
        w.write_image_data(rgb)?;
    }
    Ok(out)
}

/// Write `frame` to `path` as a PNG (see [`to_rgb`]), atomically.
pub fn write(path: &Path, frame: &Frame) -> Result<()> {
    write_rgb(path, &to_rgb(frame))
}

/// Write 160 × 144 RGB bytes to `path` as a PNG, atomically.
pub fn write_rgb(path: &Path, rgb: &[u8]) -> Result<()> {
    let bytes = encode_rgb(rgb)?;
    gb_session::files::write_atomic(path, &bytes)
        .with_context(|| format!("cannot write screenshot '{}'", path.display()))?;
    Ok(())
}

/// Write linked Game Boys' screens (160 × 144 RGB bytes each) side by side, left to right, to
/// `path` as a PNG, atomically.
pub fn write_side_by_side(path: &Path, screens: &[Vec<u8>]) -> Result<()> {
    let geometry = Geometry::GAME.side_by_side(screens.len());
    let size = geometry.size();
    let mut rgb = vec![0; size.pixels() * 3];
    for (i, screen) in screens.iter().enumerate() {
        let at = geometry.game_at(i);
        for (y, row) in screen.chunks_exact(GAME.width * 3).enumerate() {
            let start = ((at.y + y) * size.width + at.x) * 3;
            rgb[start..start + row.len()].copy_from_slice(row);
        }
    }
    let bytes = encode_rgb_sized(&rgb, size)?;
    gb_session::files::write_atomic(path, &bytes)
        .with_context(|| format!("cannot write screenshot '{}'", path.display()))?;
    Ok(())
}

/// Write the Game Boy Printer's paper (shades 0-3, white to black, in the reference greys) to
/// `path` as a PNG, atomically; paper with no rows is written one white row high.
pub fn write_paper(path: &Path, paper: &gb_core::link::Paper) -> Result<()> {
    const GREYS: [u8; 4] = [0xFF, 0xAA, 0x55, 0x00];
    let width = gb_core::link::PAPER_WIDTH;
    let rows = paper.rows().max(1);
    let mut rgb = vec![0xFF; width * rows * 3];
    for (px, &shade) in rgb.chunks_exact_mut(3).zip(&paper.shades) {
        px.fill(GREYS[usize::from(shade & 3)]);
    }
    let bytes = encode_rgb_sized(&rgb, Size::new(width, rows))?;
    gb_session::files::write_atomic(path, &bytes)
        .with_context(|| format!("cannot write the printed paper '{}'", path.display()))?;
    Ok(())
}
