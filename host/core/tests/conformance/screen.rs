//! Screenshot comparison: a frame against a reference PNG, in 8-bit RGB: DMG shades in the
//! reference palette (#FFFFFF, #AAAAAA, #555555, #000000, lightest to darkest), CGB colours
//! widened as the references are. On a mismatch the actual
//! frame and a diff image are written under the target directory and named in the error.

use gb_core::screen::GAME;
use gb_core::{ColorCorrection, Frame};
use gb_testkit::{read_png_rgb, write_frame_png, write_rgb_png};
use std::path::{Path, PathBuf};

const WIDTH: usize = GAME.width;
const HEIGHT: usize = GAME.height;

fn out_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("conformance")
}

/// Compare `frame` with the reference PNG at `expected`, pixel for pixel in 8-bit RGB (DMG
/// shades in the reference palette, CGB colours widened as `(c << 3) | (c >> 2)`).
pub fn compare(frame: &Frame, expected: &Path, name: &str) -> Result<(), String> {
    let (w, h, reference) = read_png_rgb(expected)?;
    if w as usize != WIDTH || h as usize != HEIGHT {
        return Err(format!(
            "{} is {w}x{h}, not {WIDTH}x{HEIGHT}",
            expected.display()
        ));
    }
    let actual = frame.to_rgb888(ColorCorrection::Off);
    let same = |i: usize| actual[i * 3..i * 3 + 3] == reference[i];
    let mismatches = (0..WIDTH * HEIGHT).filter(|&i| !same(i)).count();
    if mismatches == 0 {
        return Ok(());
    }
    let dir = out_dir();
    let _ = std::fs::create_dir_all(&dir);
    let base = name.replace(['/', ' '], "_");
    let actual_path = dir.join(format!("{base}.actual.png"));
    let diff_path = dir.join(format!("{base}.diff.png"));
    let diff: Vec<u8> = (0..WIDTH * HEIGHT)
        .flat_map(|i| {
            if same(i) {
                let faded = |k: usize| actual[i * 3 + k] / 4 + 0xC0;
                [faded(0), faded(1), faded(2)]
            } else {
                [0xFF, 0x00, 0x00]
            }
        })
        .collect();
    let _ = write_frame_png(&actual_path, frame);
    let _ = write_rgb_png(&diff_path, WIDTH as u32, HEIGHT as u32, &diff);
    Err(format!(
        "{mismatches} of {} pixels differ from {}; actual frame: {}, diff (red = wrong): {}",
        WIDTH * HEIGHT,
        expected.display(),
        actual_path.display(),
        diff_path.display()
    ))
}

/// Compare which pixels are lit (not white: the reference's brightest colour) in `frame` and
/// in the reference at `expected`: for references taken with another palette or another
/// widening of the CGB's colours.
pub fn compare_lit(frame: &gb_core::Frame, expected: &Path, name: &str) -> Result<(), String> {
    let rgb = frame.to_rgb888(ColorCorrection::Off);
    let lit: Vec<bool> = rgb.chunks_exact(3).map(|px| px != [0xFF; 3]).collect();
    let (w, h, reference) = read_png_rgb(expected)?;
    if (w as usize, h as usize) != (WIDTH, HEIGHT) || lit.len() != reference.len() {
        return Err(format!(
            "{} is {w}x{h}, not {WIDTH}x{HEIGHT}",
            expected.display()
        ));
    }
    // The reference's white is its brightest colour (248 in a capture that widened as `c << 3`).
    let white = reference
        .iter()
        .max_by_key(|px| px.iter().map(|&c| u32::from(c)).sum::<u32>())
        .copied()
        .unwrap_or([0xFF; 3]);
    let lit_ref = |px: &[u8; 3]| *px != white;
    let mismatches = lit
        .iter()
        .zip(&reference)
        .filter(|&(&lit, px)| lit != lit_ref(px))
        .count();
    if mismatches == 0 {
        return Ok(());
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("conformance");
    let _ = std::fs::create_dir_all(&dir);
    let base = name.replace(['/', ' '], "_");
    let actual_path = dir.join(format!("{base}.actual.png"));
    let diff_path = dir.join(format!("{base}.diff.png"));
    let diff: Vec<u8> = lit
        .iter()
        .zip(&reference)
        .flat_map(|(&lit, px)| {
            if lit == lit_ref(px) {
                let l = if lit { 0xD0 } else { 0xF0 };
                [l, l, l]
            } else {
                [0xFF, 0x00, 0x00]
            }
        })
        .collect();
    let _ = write_frame_png(&actual_path, frame);
    let _ = write_rgb_png(&diff_path, WIDTH as u32, HEIGHT as u32, &diff);
    Err(format!(
        "{mismatches} of {} pixels lit differently from {} (compared lit/unlit); actual \
         frame: {}, diff (red = wrong): {}",
        GAME.pixels(),
        expected.display(),
        actual_path.display(),
        diff_path.display()
    ))
}
