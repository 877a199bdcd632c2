//! The shared test ROMs: where they are, whether a missing one is a failure, frames as PNG
//! files in the reference palette, and the FNV-1a hash the recorded hash tables use.

use std::path::{Path, PathBuf};

/// Grey level of each shade index in the reference palette (lightest to darkest).
pub const LEVELS: [u8; 4] = gb_core::frame::DMG_LEVELS;

/// A script that plays Tobu Tobu Girl (`homebrew/tobutobugirl`) for tests: through the menus
/// with A (and Start) until frame 1200, then A held now and then. From about frame 1260 the
/// first level runs, its clock (seconds left, `C0B0`) counting down.
pub const TOBU_PLAY_LUA: &str = r#"
local f = 0
event.on_frame_start(function()
  f = f + 1
  if f < 1200 then
    if f % 60 < 3 then joypad.set({A = true}) end
    if f % 120 == 30 then joypad.set({Start = true}) end
  elseif f % 30 < 10 then joypad.set({A = true}) end
end)
"#;

/// The shared test-ROM folder: `GBHOST_TEST_ROMS`, else `../shared/roms` beside the repository.
pub fn rom_root() -> PathBuf {
    match std::env::var_os("GBHOST_TEST_ROMS") {
        Some(dir) => PathBuf::from(dir),
        None => crate::arch::repo_root().join("../shared/roms"),
    }
}

/// `CI=true` (or `1`): a missing ROM is a failure instead of a loud skip.
pub fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// The shared ROM at `relative` (e.g. `"homebrew/ucity/ucity.gbc"`) under [`rom_root`], or
/// `None` after a loud `SKIPPED` line on stderr when it is missing; with `CI=true` a missing
/// ROM panics instead (the folder is required there).
pub fn shared_rom(relative: &str) -> Option<PathBuf> {
    let path = rom_root().join(relative);
    if path.is_file() {
        return Some(path);
    }
    assert!(
        !ci(),
        "CI=true but the test ROM {} is missing (set GBHOST_TEST_ROMS)",
        path.display()
    );
    eprintln!(
        "*** SKIPPED: test ROM {} not found (set GBHOST_TEST_ROMS) ***",
        path.display()
    );
    None
}

/// The bytes of [`shared_rom`]`(relative)`, or `None` as it says.
pub fn shared_rom_bytes(relative: &str) -> Option<Vec<u8>> {
    let path = shared_rom(relative)?;
    Some(std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// Decode a PNG to `(width, height, RGB per pixel)`.
pub fn read_png_rgb(path: &Path) -> Result<(u32, u32, Vec<[u8; 3]>), String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder
        .read_info()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut buf = vec![0; reader.output_buffer_size().unwrap_or(0)];
    let info = reader
        .next_frame(&mut buf)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let channels = info.color_type.samples();
    let pixels = buf[..info.buffer_size()]
        .chunks_exact(channels)
        .map(|px| match channels {
            1 | 2 => [px[0]; 3],
            _ => [px[0], px[1], px[2]],
        })
        .collect();
    Ok((info.width, info.height, pixels))
}

/// Write an RGB image (3 bytes per pixel) as a PNG.
pub fn write_rgb_png(path: &Path, width: u32, height: u32, rgb: &[u8]) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), width, height);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().map_err(|e| e.to_string())?;
    w.write_image_data(rgb).map_err(|e| e.to_string())
}

/// Write a frame as a PNG: DMG shades in the reference palette, CGB colours widened as the
/// references are (`(c << 3) | (c >> 2)`).
pub fn write_frame_png(path: &Path, frame: &gb_core::Frame) -> Result<(), String> {
    let rgb = frame.to_rgb888(gb_core::ColorCorrection::Off);
    let size = gb_core::screen::GAME;
    write_rgb_png(path, size.width as u32, size.height as u32, &rgb)
}

/// FNV-1a, 64 bits (the hash of `frame-hashes.tsv` and `audio-hashes.tsv`).
pub fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}
