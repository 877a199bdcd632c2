//! Gambatte's hardware tests (`gambatte/`): each ROM's expectation is in its file name or in a
//! PNG beside it, as `../shared/roms/README.md` and Gambatte's own test runner read them.
//!
//! A ROM runs from the post-boot state for 15 frames; then, by its name:
//! - `…_dmg08_cgb04c_outXY…` expects the hex digits `XY…` on both models, `…_dmg08_outXY…` on
//!   the DMG, `…_cgb04c_outXY…` on the CGB, and an `_outXY…` after no model name on the CGB.
//!   The digits are 8×8 tiles from the top-left corner (digit i at x = 8i, y = 0), black
//!   where Gambatte's font is on and white elsewhere, compared on the top 5 bits of each
//!   channel after Gambatte's colour curve (below).
//! - `…_outaudio0` / `…_outaudio1`: the last frame's sound output is constant / changes.
//! - A PNG beside the ROM (`NAME_dmg08_cgb04c.png`, `NAME_cgb04c.png`, `NAME_dmg08.png`): the
//!   whole frame equals it on the top 5 bits of each channel.
//!
//! Names whose expectation is marked unverified (`_xout…`, `_cgb_xout…`, `_xdmg08`) or that
//! name no model (`sram.gbc`, the `_dumper` ROMs) are not tests and get no row. DMG shades are
//! #FFFFFF, #AAAAAA, #555555, #000000; a CGB colour (r, g, b, 5 bits each) is drawn as
//! R = (13r + 2g + b) >> 1, G = (3g + b) << 1, B = (3r + 2g + 11b) >> 1.

use crate::{Kind, Outcome};
use gb_core::screen::GAME;
use gb_core::{Frame, Model};
use gb_testkit::read_png_rgb;
use libtest_mimic::{Failed, Trial};
use std::path::Path;

/// The folder under the ROM root.
pub const DIR: &str = "gambatte";

/// Frames each ROM runs (the README: the results are the same from 15 to 30 frames).
const FRAMES: u32 = 15;

/// What a test expects on one model.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Expect {
    /// Hex digits drawn at the top left.
    Digits(String),
    /// The last frame's sound is constant (false) or changes (true).
    Audio(bool),
    /// The whole frame equals this PNG (a path under the ROM root).
    Png(String),
}

/// A ROM's stem split at `_`.
fn tokens(stem: &str) -> Vec<&str> {
    stem.split('_').collect()
}

/// The expectation on `model` of the ROM named `stem` from its name alone (`None`: it names
/// none for that model).
fn expect_from_name(stem: &str, model: Model) -> Option<Expect> {
    let t = tokens(stem);
    let mut found: Option<(bool, bool, &str)> = None;
    let mut any_model = false;
    let mut plain = None;
    for (i, tok) in t.iter().enumerate() {
        let Some(out) = tok.strip_prefix("out") else {
            continue;
        };
        let prev = i.checked_sub(1).map(|j| t[j]);
        let prev2 = i.checked_sub(2).map(|j| t[j]);
        let (dmg, cgb) = match prev {
            Some("cgb04c") => (prev2 == Some("dmg08"), true),
            Some("dmg08") => (true, false),
            _ => {
                plain.get_or_insert(out);
                continue;
            }
        };
        any_model = true;
        let wanted = match model {
            Model::Dmg => dmg,
            Model::Cgb => cgb,
        };
        if wanted && found.is_none() {
            found = Some((dmg, cgb, out));
        }
    }
    let out = match (found, any_model, plain) {
        (Some((_, _, out)), _, _) => out,
        // Gambatte's rule: an `_out` after no model name is the CGB's.
        (None, false, Some(out)) if model == Model::Cgb => out,
        _ => return None,
    };
    Some(match out {
        "audio0" => Expect::Audio(false),
        "audio1" => Expect::Audio(true),
        digits => {
            let hex: String = digits
                .chars()
                .take_while(|c| c.is_ascii_hexdigit())
                .collect();
            if hex.is_empty() {
                return None;
            }
            Expect::Digits(hex.to_ascii_uppercase())
        }
    })
}

/// The expectation on `model` of the ROM at `path` (under the ROM root): by its name, else a
/// PNG beside it.
fn expect(root: &Path, path: &str, model: Model) -> Option<Expect> {
    let stem = path.rsplit_once('.').map_or(path, |(s, _)| s);
    let name = stem.rsplit('/').next().unwrap_or(stem);
    if let Some(e) = expect_from_name(name, model) {
        return Some(e);
    }
    let both = format!("{stem}_dmg08_cgb04c.png");
    if root.join(&both).is_file() {
        return Some(Expect::Png(both));
    }
    let own = match model {
        Model::Dmg => format!("{stem}_dmg08.png"),
        Model::Cgb => format!("{stem}_cgb04c.png"),
    };
    root.join(&own).is_file().then_some(Expect::Png(own))
}

/// Every test ROM under `gambatte/` and the models it is a test for, sorted by path. Paths are
/// leaked: the harness keeps them for the whole run.
pub fn roms(root: &Path) -> Vec<(&'static str, Model, Kind)> {
    let mut paths = Vec::new();
    collect(root, &root.join(DIR), &mut paths);
    paths.sort();
    let mut out = Vec::new();
    for path in paths {
        let models: Vec<Model> = crate::MODELS
            .into_iter()
            .filter(|&m| expect(root, &path, m).is_some())
            .collect();
        if models.is_empty() {
            continue;
        }
        let path: &'static str = Box::leak(path.into_boxed_str());
        for model in models {
            out.push((path, model, Kind::Custom(run)));
        }
    }
    out
}

/// The ROM files under `dir`, as paths relative to `root` with `/` separators.
fn collect(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(root, &path, out);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("gb" | "gbc")
        ) && let Ok(rel) = path.strip_prefix(root)
        {
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// One ROM on one model.
pub fn run(root: &Path, path: &str, model: Model) -> Result<Outcome, String> {
    let expect = expect(root, path, model)
        .ok_or_else(|| format!("{path} names no expectation for the {model}"))?;
    let mut gb = crate::load(root, path, model)?;
    let mut audio = Vec::new();
    for frame in 0..FRAMES {
        if frame + 1 == FRAMES {
            gb.discard_audio();
        }
        gb.run_frame();
    }
    let pending = gb.audio_pending();
    audio.resize(pending, Default::default());
    let n = gb.drain_audio(&mut audio);
    audio.truncate(n);
    let rgb = gambatte_rgb(gb.framebuffer());
    Ok(match expect {
        Expect::Digits(digits) => match read_digits(&rgb, digits.len()) {
            Ok(got) if got == digits => Outcome::Pass,
            Ok(got) => Outcome::Fail(format!("shows {got}, expected {digits}")),
            Err(e) => Outcome::Fail(format!("expected {digits}: {e}")),
        },
        Expect::Audio(changes) => {
            let constant = audio.windows(2).all(|w| w[0] == w[1]);
            if audio.is_empty() {
                Outcome::Fail("no sound output in the last frame".into())
            } else if constant != changes {
                Outcome::Pass
            } else if changes {
                Outcome::Fail("the last frame's sound is constant, expected it to change".into())
            } else {
                Outcome::Fail("the last frame's sound changes, expected it constant".into())
            }
        }
        Expect::Png(png) => compare_png(&rgb, &root.join(&png)),
    })
}

/// The frame in 8-bit RGB as Gambatte's test runner renders it (see the module docs).
fn gambatte_rgb(frame: &Frame) -> Vec<[u8; 3]> {
    frame
        .pixels()
        .iter()
        .map(|&p| {
            if frame.is_color() {
                let (r, g, b) = (
                    u32::from(p & 31),
                    u32::from((p >> 5) & 31),
                    u32::from((p >> 10) & 31),
                );
                let c = |v: u32| u8::try_from(v.min(255)).unwrap_or(255);
                [
                    c((13 * r + 2 * g + b) >> 1),
                    c((3 * g + b) << 1),
                    c((3 * r + 2 * g + 11 * b) >> 1),
                ]
            } else {
                let v = (3 - (p & 3) as u8) * 85;
                [v, v, v]
            }
        })
        .collect()
}

/// Gambatte's digit font: for each hex digit, 8 rows of 8 pixels, bit 7 the leftmost, a set
/// bit black.
const FONT: [[u8; 8]; 16] = [
    [0x00, 0x7F, 0x41, 0x41, 0x41, 0x41, 0x41, 0x7F],
    [0x00, 0x08, 0x08, 0x08, 0x08, 0x08, 0x08, 0x08],
    [0x00, 0x7F, 0x01, 0x01, 0x7F, 0x40, 0x40, 0x7F],
    [0x00, 0x7F, 0x01, 0x01, 0x3F, 0x01, 0x01, 0x7F],
    [0x00, 0x41, 0x41, 0x41, 0x7F, 0x01, 0x01, 0x01],
    [0x00, 0x7F, 0x40, 0x40, 0x7E, 0x01, 0x01, 0x7E],
    [0x00, 0x7F, 0x40, 0x40, 0x7F, 0x41, 0x41, 0x7F],
    [0x00, 0x7F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x10],
    [0x00, 0x3E, 0x41, 0x41, 0x3E, 0x41, 0x41, 0x3E],
    [0x00, 0x7F, 0x41, 0x41, 0x7F, 0x01, 0x01, 0x7F],
    [0x00, 0x08, 0x22, 0x41, 0x7F, 0x41, 0x41, 0x41],
    [0x00, 0x7E, 0x41, 0x41, 0x7E, 0x41, 0x41, 0x7E],
    [0x00, 0x3E, 0x41, 0x40, 0x40, 0x40, 0x41, 0x3E],
    [0x00, 0x7E, 0x41, 0x41, 0x41, 0x41, 0x41, 0x7E],
    [0x00, 0x7F, 0x40, 0x40, 0x7F, 0x40, 0x40, 0x7F],
    [0x00, 0x7F, 0x40, 0x40, 0x7F, 0x40, 0x40, 0x40],
];

/// The `count` digits at the top left of `rgb`: each tile must be exactly one digit of the
/// font (white off, black on, on the top 5 bits); a tile that is none is reported as `?`, and
/// an error says what the first such tile holds.
fn read_digits(rgb: &[[u8; 3]], count: usize) -> Result<String, String> {
    let mut out = String::new();
    let mut bad = None;
    for i in 0..count {
        let mut rows = [0u8; 8];
        let mut clean = true;
        for (y, row) in rows.iter_mut().enumerate() {
            for x in 0..8 {
                let px = rgb[y * GAME.width + i * 8 + x].map(|c| c & 0xF8);
                match px {
                    [0, 0, 0] => *row |= 0x80 >> x,
                    [0xF8, 0xF8, 0xF8] => {}
                    _ => clean = false,
                }
            }
        }
        let digit = FONT.iter().position(|f| *f == rows).filter(|_| clean);
        match digit {
            Some(d) => out.push(char::from_digit(d as u32, 16).unwrap_or('?')),
            None => {
                out.push('?');
                bad.get_or_insert_with(|| {
                    let colours = if clean { "" } else { ", with other colours" };
                    format!("tile {i} is no digit (rows {rows:02X?}{colours})")
                });
            }
        }
    }
    let out = out.to_ascii_uppercase();
    match bad {
        Some(e) => Err(format!("shows {out}: {e}")),
        None => Ok(out),
    }
}

/// The whole frame against a reference PNG on the top 5 bits of each channel.
fn compare_png(rgb: &[[u8; 3]], png: &Path) -> Outcome {
    let (w, h, reference) = match read_png_rgb(png) {
        Ok(r) => r,
        Err(e) => return Outcome::Fail(e),
    };
    if (w as usize, h as usize) != (GAME.width, GAME.height) || reference.len() != rgb.len() {
        return Outcome::Fail(format!(
            "{} is {w}x{h}, not {}x{}",
            png.display(),
            GAME.width,
            GAME.height
        ));
    }
    let differ: Vec<usize> = (0..rgb.len())
        .filter(|&i| rgb[i].map(|c| c & 0xF8) != reference[i].map(|c| c & 0xF8))
        .collect();
    match differ.first() {
        None => Outcome::Pass,
        Some(&first) => Outcome::Fail(format!(
            "{} of {} pixels differ from {} (first at x {}, y {})",
            differ.len(),
            GAME.pixels(),
            png.display(),
            first % GAME.width,
            first / GAME.width
        )),
    }
}

/// The table of `docs/conformance.md` that sums Gambatte's tests up by folder: from each
/// row's path and whether it passed on the DMG and on the CGB (`None`: not a test there).
pub fn summary<'a>(rows: impl Iterator<Item = (&'a str, [Option<bool>; 2])>) -> String {
    use std::fmt::Write as _;
    let mut folders: std::collections::BTreeMap<&str, [[usize; 2]; 2]> = Default::default();
    let mut total = [[0usize; 2]; 2];
    for (path, cols) in rows {
        let Some(rest) = path.strip_prefix("gambatte/") else {
            continue;
        };
        let folder = rest.split('/').next().unwrap_or_default();
        let folder = if rest.contains('/') { folder } else { "(top)" };
        for (m, pass) in cols.iter().enumerate() {
            let Some(pass) = *pass else { continue };
            let counts = &mut folders.entry(folder).or_default()[m];
            counts[0] += usize::from(pass);
            counts[1] += 1;
            if folder != "sound" {
                total[m][0] += usize::from(pass);
                total[m][1] += 1;
            }
        }
    }
    let pct = |[p, n]: [usize; 2]| {
        if n == 0 {
            "—".to_string()
        } else {
            format!("{p} of {n} ({:.1} %)", 100.0 * p as f64 / n as f64)
        }
    };
    let mut md = String::from("## Gambatte's hardware tests by folder\n\n");
    let _ = writeln!(
        md,
        "Everything but `sound/` (the APU's): DMG **{}**, CGB **{}**.\n",
        pct(total[0]),
        pct(total[1])
    );
    md.push_str("| folder | DMG pass | CGB pass |\n|---|---|---|\n");
    for (folder, [dmg, cgb]) in &folders {
        let _ = writeln!(md, "| `{folder}` | {} | {} |", pct(*dmg), pct(*cgb));
    }
    md.push('\n');
    md
}

/// The harness's own checks, as trials: names read as the README says, and the font is
/// `gambatte/digits.png`'s.
pub fn self_checks(root: &Path) -> Vec<Trial> {
    let root = root.to_path_buf();
    vec![
        Trial::test("gambatte-harness/names_say_which_models", || {
            names_say_which_models().map_err(Failed::from)
        }),
        Trial::test("gambatte-harness/the_font_reads_back", || {
            the_font_reads_back().map_err(Failed::from)
        }),
        Trial::test("gambatte-harness/the_font_is_digits_png", move || {
            the_font_is_digits_png(&root).map_err(Failed::from)
        }),
    ]
}

fn check<T: PartialEq + std::fmt::Debug>(got: T, want: T, what: &str) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}: got {got:?}, expected {want:?}"))
    }
}

fn names_say_which_models() -> Result<(), String> {
    let digits = |s: &str| Some(Expect::Digits(s.into()));
    let cases = [
        ("late_sp00x_1_dmg08_cgb04c_out0", digits("0"), digits("0")),
        (
            "late_disable_1_dmg08_out3_cgb04c_out0",
            digits("3"),
            digits("0"),
        ),
        ("late_sp00x_ds_1_cgb04c_out0", None, digits("0")),
        (
            "m2int_wxA6_oambusyread_3_dmg08_out5_cgb_xout1",
            digits("5"),
            None,
        ),
        ("postread_scx3_2_dmg08_xout1_cgb04c_out0", None, digits("0")),
        ("lycdisable_ff45_ds_2_xout0", None, None),
        ("foo_out1e", None, digits("1E")),
        ("m2disable_dmg08_cgb_dmg08_out0", digits("0"), None),
        (
            "ch1_duty0_pattern_pos7_dmg08_cgb04c_outaudio1",
            Some(Expect::Audio(true)),
            Some(Expect::Audio(true)),
        ),
        (
            "ch1_init_reset_sweep_counter_timing_5_dmg08_xoutaudio1lowpitch_cgb04c_outaudio0",
            None,
            Some(Expect::Audio(false)),
        ),
        ("ime_noie_nolcdirq_readstat_dmg08_cgb_blank", None, None),
    ];
    for (name, dmg, cgb) in cases {
        check(expect_from_name(name, Model::Dmg), dmg, name)?;
        check(expect_from_name(name, Model::Cgb), cgb, name)?;
    }
    Ok(())
}

/// Each glyph drawn into a frame reads back as its digit; a blank tile reads as none.
fn the_font_reads_back() -> Result<(), String> {
    for (d, glyph) in FONT.iter().enumerate() {
        let mut rgb = vec![[0xFF; 3]; GAME.pixels()];
        for (y, row) in glyph.iter().enumerate() {
            for x in 0..8 {
                if row & (0x80 >> x) != 0 {
                    rgb[y * GAME.width + 8 + x] = [0; 3];
                }
            }
        }
        if read_digits(&rgb, 2).is_ok() {
            return Err("a blank tile read as a digit".into());
        }
        check(read_digits(&rgb[8..], 1), Ok(format!("{d:X}")), "glyph")?;
    }
    Ok(())
}

/// `FONT` is the font of `gambatte/digits.png` (16 tiles of 8×8 side by side, dark = on).
fn the_font_is_digits_png(root: &Path) -> Result<(), String> {
    let (w, h, px) = read_png_rgb(&root.join(DIR).join("digits.png"))?;
    check((w, h), (128, 8), "digits.png's size")?;
    for (d, glyph) in FONT.iter().enumerate() {
        for (y, &row) in glyph.iter().enumerate() {
            let mut bits = 0u8;
            for x in 0..8 {
                if px[y * 128 + d * 8 + x]
                    .iter()
                    .map(|&c| u32::from(c))
                    .sum::<u32>()
                    < 384
                {
                    bits |= 0x80 >> x;
                }
            }
            check(bits, row, &format!("digit {d:X} row {y}"))?;
        }
    }
    Ok(())
}
