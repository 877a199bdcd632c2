//! Screenshot comparison: a frame of shade indices against a reference PNG in the reference
//! palette (#FFFFFF, #AAAAAA, #555555, #000000, lightest to darkest). On a mismatch the actual
//! frame and a diff image are written under the target directory and named in the error.

use std::path::{Path, PathBuf};

const WIDTH: usize = 160;
const HEIGHT: usize = 144;
/// Grey level of each shade index.
const LEVELS: [u8; 4] = [0xFF, 0xAA, 0x55, 0x00];

/// Decode `path` to shade indices (`None` for a pixel outside the palette).
fn load_reference(path: &Path) -> Result<Vec<Option<u8>>, String> {
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
    if info.width as usize != WIDTH || info.height as usize != HEIGHT {
        return Err(format!(
            "{} is {}x{}, not 160x144",
            path.display(),
            info.width,
            info.height
        ));
    }
    let channels = info.color_type.samples();
    Ok(buf[..info.buffer_size()]
        .chunks_exact(channels)
        .map(|px| {
            let (r, g, b) = match channels {
                1 | 2 => (px[0], px[0], px[0]),
                _ => (px[0], px[1], px[2]),
            };
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

fn write_png(path: &Path, rgb: &[u8]) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| e.to_string())?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), WIDTH as u32, HEIGHT as u32);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().map_err(|e| e.to_string())?;
    w.write_image_data(rgb).map_err(|e| e.to_string())
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
    let actual: Vec<u8> = frame
        .iter()
        .flat_map(|&s| [LEVELS[usize::from(s & 3)]; 3])
        .collect();
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
    let _ = write_png(&actual_path, &actual);
    let _ = write_png(&diff_path, &diff);
    Err(format!(
        "{mismatches} of {} pixels differ from {}; actual frame: {}, diff (red = wrong): {}",
        WIDTH * HEIGHT,
        expected.display(),
        actual_path.display(),
        diff_path.display()
    ))
}
