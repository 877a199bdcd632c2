//! rtc3test (aaaaaa123456789/rtc3test, v004, and the three builds GBEmulatorShootout uses):
//! the MBC3 real-time clock tests, one trial per sub-test.
//!
//! The v004 ROM opens on a menu (Basic tests, Range tests, Sub-second writes) that waits for
//! the joypad: its `WaitForButtonPress` first waits for every button to be released, then for
//! a press, one read per VBlank; Up and Down move the cursor, A runs the entry. The trial holds
//! Down for [`HOLD`] frames and releases it for as long, once per menu line to go down, then
//! does the same with A, through [`Gb::set_buttons`] at frame boundaries. A sub-test is
//! complete when the ROM draws its "* Return" line (the A-button glyph, tile $C1, at column 6
//! of row 17 of the $9C00 map); the frame is then compared with
//! `rtc3test/expected/rtc3test-<sub-test>-dmg.png` pixel for pixel.
//!
//! The shootout builds start a sub-test by themselves (their code at $0150 calls `RunTests`
//! with menu entry 1, 2 or 3 before the menu) and draw no "Return" line: they run for
//! [`SHOOTOUT_FRAMES`] frames, longer than any of their sub-tests takes. Their reference
//! images were taken on a Game Boy Color, where the ROM draws "PASS" in green; on the DMG the
//! same text comes out in the darkest shade, so these three are compared by shape: every pixel
//! must be lit (not white) in our frame exactly where it is lit in the reference; on the CGB
//! too (the ROM is CGB-compatible, flag $80), since the screenshot's green (0, 145, 0) is no
//! widened RGB555 colour (an emulator's colour correction). The menu's sub-tests are compared
//! pixel for pixel with their `-cgb.png` references on the CGB.

use crate::Kind;
use crate::Outcome;
use gb_core::{Buttons, Domain, Gb, Model};
use gb_testkit::write_frame_png;
use std::path::Path;

/// The rows this module adds to the conformance table.
pub const ROMS: &[(&str, Kind)] = &[
    (
        "rtc3test/rtc3test.gb (basic tests)",
        Kind::Custom(basic_tests),
    ),
    (
        "rtc3test/rtc3test.gb (range tests)",
        Kind::Custom(range_tests),
    ),
    (
        "rtc3test/rtc3test.gb (sub-second writes)",
        Kind::Custom(sub_second_writes),
    ),
    ("rtc3test/rtc3test-1-shootout.gb", Kind::Custom(shootout)),
    ("rtc3test/rtc3test-2-shootout.gb", Kind::Custom(shootout)),
    ("rtc3test/rtc3test-3-shootout.gb", Kind::Custom(shootout)),
];

/// The rows on the CGB: the shootout builds' references are CGB screenshots; the menu's
/// sub-tests have CGB references for two of them.
pub const ROMS_CGB: &[(&str, Kind)] = &[
    (
        "rtc3test/rtc3test.gb (basic tests)",
        Kind::Custom(basic_tests),
    ),
    (
        "rtc3test/rtc3test.gb (range tests)",
        Kind::Custom(range_tests),
    ),
    (
        "rtc3test/rtc3test.gb (sub-second writes)",
        Kind::NotApplicable("no CGB reference"),
    ),
    ("rtc3test/rtc3test-1-shootout.gb", Kind::Custom(shootout)),
    ("rtc3test/rtc3test-2-shootout.gb", Kind::Custom(shootout)),
    ("rtc3test/rtc3test-3-shootout.gb", Kind::Custom(shootout)),
];

/// The v004 ROM.
const ROM: &str = "rtc3test/rtc3test.gb";
/// Frames a button is held, then released, for each menu step.
const HOLD: u32 = 6;
/// The first press comes after the menu is drawn (it takes a few frames after power-on).
const FIRST_PRESS: u32 = 60;
/// Longest a sub-test may take before its "Return" line, in frames (90 emulated seconds;
/// the longest, sub-second writes, takes about 26).
const MAX_FRAMES: u32 = 90 * 60;
/// How long the shootout builds run: 60 emulated seconds.
const SHOOTOUT_FRAMES: u32 = 60 * 60;
/// Offset in VRAM of row 17, column 6 of the $9C00 tile map, where "* Return" starts.
const RETURN_TILE_OFFSET: usize = 0x1C00 + 17 * 32 + 6;
/// The ROM's tile for "*" (the A-button glyph).
const A_BUTTON_TILE: u8 = 0xC1;

/// The model's suffix in the references' names.
fn suffix(model: Model) -> &'static str {
    match model {
        Model::Dmg => "dmg",
        Model::Cgb => "cgb",
    }
}

fn basic_tests(root: &Path, _: &str, model: Model) -> Result<Outcome, String> {
    let expected = format!(
        "rtc3test/expected/rtc3test-basic-tests-{}.png",
        suffix(model)
    );
    run_menu_entry(root, 0, &expected, model)
}

fn range_tests(root: &Path, _: &str, model: Model) -> Result<Outcome, String> {
    let expected = format!(
        "rtc3test/expected/rtc3test-range-tests-{}.png",
        suffix(model)
    );
    run_menu_entry(root, 1, &expected, model)
}

fn sub_second_writes(root: &Path, _: &str, model: Model) -> Result<Outcome, String> {
    let expected = format!(
        "rtc3test/expected/rtc3test-sub-second-writes-{}.png",
        suffix(model)
    );
    run_menu_entry(root, 2, &expected, model)
}

/// The buttons held on `frame` to run menu entry `entry`: Down once per line, then A.
fn menu_input(entry: u32, frame: u32) -> Buttons {
    let Some(since) = frame.checked_sub(FIRST_PRESS) else {
        return Buttons::default();
    };
    let step = since / (2 * HOLD);
    let held = since % (2 * HOLD) < HOLD;
    match (step.cmp(&entry), held) {
        (std::cmp::Ordering::Less, true) => Buttons::DOWN,
        (std::cmp::Ordering::Equal, true) => Buttons::A,
        _ => Buttons::default(),
    }
}

/// Whether the ROM has drawn its "* Return" line.
fn return_drawn(gb: &Gb) -> bool {
    gb.domain(Domain::Vram).get(RETURN_TILE_OFFSET) == Some(&A_BUTTON_TILE)
}

fn run_menu_entry(
    root: &Path,
    entry: u32,
    expected: &str,
    model: Model,
) -> Result<Outcome, String> {
    let mut gb = crate::load(root, ROM, model)?;
    let mut done_at = None;
    for frame in 0..MAX_FRAMES {
        gb.set_buttons(menu_input(entry, frame));
        gb.run_frame();
        if frame > FIRST_PRESS + 2 * HOLD * (entry + 1) && return_drawn(&gb) {
            done_at = Some(frame);
            break;
        }
    }
    let Some(done_at) = done_at else {
        return Ok(fail_with_frame(
            &gb,
            expected,
            format!("no \"Return\" line within {MAX_FRAMES} frames"),
        ));
    };
    // The line is in VRAM; let the LCD show it.
    for _ in 0..2 {
        gb.run_frame();
    }
    let name = format!("{ROM} menu entry {entry}");
    Ok(
        match crate::screen::compare(gb.framebuffer(), &root.join(expected), &name) {
            Ok(()) => Outcome::Pass,
            Err(e) => Outcome::Fail(format!("finished at frame {done_at}: {e}")),
        },
    )
}

/// A failure that carries the frame as it is, for a run that never finished.
fn fail_with_frame(gb: &Gb, expected: &str, why: String) -> Outcome {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("conformance");
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(format!("{}.actual.png", expected.replace('/', "_")));
    let _ = write_frame_png(&path, gb.framebuffer());
    Outcome::Fail(format!("{why}; actual frame: {}", path.display()))
}

fn shootout(root: &Path, path: &str, model: Model) -> Result<Outcome, String> {
    let mut gb = crate::load(root, path, model)?;
    for _ in 0..SHOOTOUT_FRAMES {
        gb.run_frame();
    }
    let stem = Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let expected = root.join(format!("rtc3test/expected/{stem}.png"));
    Ok(
        match crate::screen::compare_lit(gb.framebuffer(), &expected, path) {
            Ok(()) => Outcome::Pass,
            Err(e) => Outcome::Fail(e),
        },
    )
}
