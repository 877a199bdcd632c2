//! Writing a frame as a PNG in the reference palette (#FFFFFF, #AAAAAA, #555555, #000000,
//! lightest to darkest), atomically: a temporary file in the same folder, renamed over the
//! target only once complete.

use anyhow::{Context, Result};
use gb_core::ppu::{HEIGHT, WIDTH};
use std::path::Path;

/// Grey level of each shade index.
const LEVELS: [u8; 4] = [0xFF, 0xAA, 0x55, 0x00];

/// A frame of shade indices (160 × 144) as RGB bytes in the reference palette.
pub fn to_rgb(frame: &[u8]) -> Vec<u8> {
    frame
        .iter()
        .flat_map(|&s| [LEVELS[usize::from(s & 3)]; 3])
        .collect()
}

/// Encode 160 × 144 RGB bytes as a PNG.
pub fn encode_rgb(rgb: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, WIDTH as u32, HEIGHT as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header()?;
        w.write_image_data(rgb)?;
    }
    Ok(out)
}

/// Write `frame` (shade indices) to `path` as a PNG in the reference palette, atomically.
pub fn write(path: &Path, frame: &[u8]) -> Result<()> {
    write_rgb(path, &to_rgb(frame))
}

/// Write 160 × 144 RGB bytes to `path` as a PNG, atomically.
pub fn write_rgb(path: &Path, rgb: &[u8]) -> Result<()> {
    let bytes = encode_rgb(rgb)?;
    gb_session::files::write_atomic(path, &bytes)
        .with_context(|| format!("cannot write screenshot '{}'", path.display()))?;
    Ok(())
}
