//! Screenshot comparison: a frame of shade indices against a reference PNG in the reference
//! palette (#FFFFFF, #AAAAAA, #555555, #000000, lightest to darkest). On a mismatch the actual
//! frame and a diff image are written under the target directory and named in the error.

use gb_testkit::{LEVELS, read_png_rgb, write_frame_png, write_rgb_png};
use std::path::{Path, PathBuf};

const WIDTH: usize = 160;
const HEIGHT: usize = 144;

/// Decode `path` to shade indices (`None` for a pixel outside the palette).
fn load_reference(path: &Path) -> Result<Vec<Option<u8>>, String> {
    let (w, h, pixels) = read_png_rgb(path)?;
    if w as usize != WIDTH || h as usize != HEIGHT {
        return Err(format!("{} is {w}x{h}, not 160x144", path.display()));
    }
    Ok(pixels
        .iter()
        .map(|&[r, g, b]| {
            if r != g || g != b {
                return None;
            }
            LEVELS.iter().position(|&l| l == r).map(|i| i as u8)
        })
        .collect())
}

fn out_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("conformance")
}

/// Compare `frame` (shade indices, 160 × 144) with the reference PNG at `expected`.
pub fn compare(frame: &[u8], expected: &Path, name: &str) -> Result<(), String> {
    let reference = load_reference(expected)?;
    let mismatches = frame
        .iter()
        .zip(&reference)
        .filter(|(a, b)| Some(**a) != **b)
        .count();
    if mismatches == 0 {
        return Ok(());
    }
    let dir = out_dir();
    let _ = std::fs::create_dir_all(&dir);
    let base = name.replace(['/', ' '], "_");
    let actual_path = dir.join(format!("{base}.actual.png"));
    let diff_path = dir.join(format!("{base}.diff.png"));
    let diff: Vec<u8> = frame
        .iter()
        .zip(&reference)
        .flat_map(|(&a, &b)| {
            if Some(a) == b {
                let l = LEVELS[usize::from(a & 3)] / 4 + 0xC0;
                [l, l, l]
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
