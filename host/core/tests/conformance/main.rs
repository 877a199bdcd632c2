//! The conformance harness: one test per ROM of the shared test-ROM folder, run on the DMG.
//!
//! ROMs come from `../shared/roms` beside the repository (override: `GBHOST_TEST_ROMS`). Known
//! failures are listed, with their reason, in `tests/expected-failures.tsv`: a listed ROM that
//! fails passes the run, and a listed ROM that passes fails it until the list is updated. A full
//! run (no name filter) rewrites `docs/conformance.md` with every ROM's result.
//!
//! Without the ROM folder every test says so and is skipped; with `CI=true` they fail instead.

mod gbc_hw;
mod gbmicrotest;
mod rtc3test;
mod screen;
mod table;

use gb_core::{Cartridge, Gb};
use libtest_mimic::{Arguments, Failed, Trial};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// How long a screenshot test runs before its frame is compared.
#[derive(Clone, Copy, Debug)]
pub enum Run {
    /// Until the CPU executes `LD B,B`; the frame is compared as it is then, as the Mealybug and
    /// acid2 READMEs say (their `LD B,B` comes in VBlank, so the frame is complete; taking it
    /// two frames later gives the same results).
    LdBB,
    /// A fixed number of frames.
    Frames(u32),
}

/// How a ROM reports its result.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// Mooneye: `LD B,B` with B,C,D,E,H,L = 3,5,8,13,21,34 (the file name's suffix says which
    /// models the test is for).
    Mooneye,
    /// Blargg: "Passed"/"Failed" on the serial port, or the status byte at $A000.
    Blargg,
    /// Compare the final frame with a reference PNG (path under the ROM folder).
    Screen {
        /// The reference image.
        expected: &'static str,
        /// When to take the frame.
        run: Run,
    },
    /// gbmicrotest: the verdict at $FF82 ([`gbmicrotest`]).
    Microtest,
    /// Not a test for the DMG-CPU B (the reason is given).
    NotApplicable(&'static str),
    /// A harness of its own (a module of this one): called with the ROM folder and the row's
    /// name, it loads and runs what it needs.
    Custom(fn(&Path, &str) -> Result<Outcome, String>),
}

/// Every row of the table: the plain suites, gbmicrotest, then the modules with harnesses of
/// their own.
fn all_roms() -> impl Iterator<Item = (&'static str, Kind)> {
    let microtests = gbmicrotest::ROMS.iter().map(|&p| (p, Kind::Microtest));
    table::ROMS
        .iter()
        .copied()
        .chain(microtests)
        .chain(rtc3test::ROMS.iter().copied())
        .chain(gbc_hw::ROMS.iter().copied())
}

/// Longest a Mooneye test may run, in frames (about 30 emulated seconds).
const MOONEYE_FRAMES: u32 = 1800;
/// Longest a Blargg test may run, in frames (about 100 emulated seconds).
const BLARGG_FRAMES: u32 = 6000;

/// What one ROM did.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// The ROM says it passed.
    Pass,
    /// It failed, and how.
    Fail(String),
    /// A gbmicrotest experiment ran and, as its source says, wrote no verdict.
    NoVerdict,
}

/// Whether a Mooneye test applies to the DMG-CPU B, from its file name's model suffix.
fn mooneye_applies_to_dmg(path: &str) -> Result<(), String> {
    let stem = Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let Some((_, suffix)) = stem.rsplit_once('-') else {
        return Ok(());
    };
    if suffix.contains("dmgABC") || suffix == "G" || suffix == "GS" {
        Ok(())
    } else {
        Err(format!("for model(s) '{suffix}', not the DMG-CPU B"))
    }
}

fn load(root: &Path, path: &str) -> Result<Gb, String> {
    let file = root.join(path);
    let bytes = std::fs::read(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let cart = Cartridge::from_rom(bytes).map_err(|e| format!("bad ROM {path}: {e}"))?;
    Ok(Gb::new(cart))
}

fn run_mooneye(mut gb: Gb) -> Outcome {
    for _ in 0..MOONEYE_FRAMES {
        if gb.run_frame_or_ld_b_b() {
            let r = gb.regs();
            let got = [r.b, r.c, r.d, r.e, r.h, r.l];
            return if got == [3, 5, 8, 13, 21, 34] {
                Outcome::Pass
            } else {
                Outcome::Fail(format!(
                    "LD B,B with B,C,D,E,H,L = {got:02X?}, expected [03, 05, 08, 0D, 15, 22]"
                ))
            };
        }
    }
    Outcome::Fail(format!("no LD B,B within {MOONEYE_FRAMES} frames"))
}

/// Blargg's status protocol: signature DE B0 61 at $A001, result at $A000 (0x80 = running),
/// text from $A004.
fn blargg_status(gb: &Gb) -> Option<(u8, String)> {
    if [gb.peek(0xA001), gb.peek(0xA002), gb.peek(0xA003)] != [0xDE, 0xB0, 0x61] {
        return None;
    }
    let code = gb.peek(0xA000);
    if code == 0x80 {
        return None;
    }
    let mut text = String::new();
    for addr in 0xA004..0xB000u16 {
        let b = gb.peek(addr);
        if b == 0 {
            break;
        }
        text.push(char::from(b));
    }
    Some((code, text))
}

fn run_blargg(mut gb: Gb) -> Outcome {
    for frame in 0..BLARGG_FRAMES {
        gb.run_frame();
        let serial = String::from_utf8_lossy(gb.serial_output());
        if serial.contains("Passed") {
            return Outcome::Pass;
        }
        if serial.contains("Failed") {
            return Outcome::Fail(format!("serial: {}", serial.trim()));
        }
        // The status byte can only be trusted once the test has had time to set it up.
        if frame % 30 == 29
            && let Some((code, text)) = blargg_status(&gb)
        {
            return if code == 0 {
                Outcome::Pass
            } else {
                Outcome::Fail(format!("status ${code:02X}: {}", text.trim()))
            };
        }
    }
    let serial = String::from_utf8_lossy(gb.serial_output());
    Outcome::Fail(format!(
        "no result within {BLARGG_FRAMES} frames; serial so far: {:?}",
        serial.trim()
    ))
}

fn run_screen(mut gb: Gb, root: &Path, name: &str, expected: &str, run: Run) -> Outcome {
    match run {
        Run::LdBB => {
            let mut hit = false;
            for _ in 0..MOONEYE_FRAMES {
                if gb.run_frame_or_ld_b_b() {
                    hit = true;
                    break;
                }
            }
            if !hit {
                return Outcome::Fail(format!("no LD B,B within {MOONEYE_FRAMES} frames"));
            }
        }
        Run::Frames(n) => {
            for _ in 0..n {
                gb.run_frame();
            }
        }
    }
    match screen::compare(gb.framebuffer(), &root.join(expected), name) {
        Ok(()) => Outcome::Pass,
        Err(e) => Outcome::Fail(e),
    }
}

/// Run one ROM; `None` when it does not apply to the DMG.
fn run_rom(root: &Path, path: &str, kind: Kind) -> Result<Outcome, String> {
    if let Kind::Custom(run) = kind {
        return run(root, path);
    }
    let gb = load(root, path)?;
    Ok(match kind {
        Kind::Mooneye => run_mooneye(gb),
        Kind::Blargg => run_blargg(gb),
        Kind::Screen { expected, run } => run_screen(gb, root, path, expected, run),
        Kind::Microtest => gbmicrotest::run(gb, gbmicrotest::is_experiment(path)),
        Kind::NotApplicable(_) | Kind::Custom(_) => unreachable!("handled before"),
    })
}

/// `tests/expected-failures.tsv`: path, tab, reason.
fn expected_failures() -> BTreeMap<String, String> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected-failures.tsv");
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| match l.split_once('\t') {
            Some((p, r)) => (p.trim().to_string(), r.trim().to_string()),
            None => (l.trim().to_string(), String::new()),
        })
        .collect()
}

/// A row of `docs/conformance.md`.
#[derive(Clone, Debug)]
enum Row {
    Pass,
    /// The listed reason, and what the ROM actually did.
    ExpectedFailure(String, String),
    Fail(String),
    NotApplicable(String),
    /// A gbmicrotest experiment: it writes no verdict.
    NoVerdict,
}

/// A failure message without machine-specific paths, for the committed table: the ROM folder
/// becomes `<roms>` and the pointers to the written images and RAM files are dropped.
fn summarize(detail: &str, root: &Path) -> String {
    let text = detail.replace(&*root.to_string_lossy(), "<roms>");
    let text = text.split("; actual ").next().unwrap_or_default();
    let mut short: String = text.chars().take(160).collect();
    if text.chars().count() > 160 {
        short.push('…');
    }
    short
}

fn write_conformance(rows: &BTreeMap<&'static str, Row>) {
    let mut md = String::new();
    let count = |f: fn(&Row) -> bool| rows.values().filter(|r| f(r)).count();
    let pass = count(|r| matches!(r, Row::Pass));
    let xfail = count(|r| matches!(r, Row::ExpectedFailure(..)));
    let fail = count(|r| matches!(r, Row::Fail(_)));
    let na = count(|r| matches!(r, Row::NotApplicable(_)));
    let experiments = count(|r| matches!(r, Row::NoVerdict));
    md.push_str("# Conformance\n\n");
    md.push_str(
        "Generated by the conformance harness (`cargo test -p gb-core --test conformance`); do \
         not edit by hand. Every ROM of the shared test-ROM folder, run on the DMG model \
         (DMG-CPU B). Expected failures, with their reasons, are listed in \
         `host/core/tests/expected-failures.tsv`.\n\n",
    );
    let _ = writeln!(
        md,
        "DMG: **{pass} pass**, {xfail} expected failures, {fail} unexpected failures, {na} not \
         for this model, {experiments} experiments without a verdict.\n"
    );
    md.push_str("| suite | pass | expected failures | unexpected failures | n/a | no verdict |\n");
    md.push_str("|---|---|---|---|---|---|\n");
    let mut suites: BTreeMap<&str, [usize; 5]> = BTreeMap::new();
    for (path, row) in rows {
        let suite = path.split('/').next().unwrap_or_default();
        let column = match row {
            Row::Pass => 0,
            Row::ExpectedFailure(..) => 1,
            Row::Fail(_) => 2,
            Row::NotApplicable(_) => 3,
            Row::NoVerdict => 4,
        };
        suites.entry(suite).or_default()[column] += 1;
    }
    for (suite, [p, x, f, n, e]) in &suites {
        let _ = writeln!(md, "| {suite} | {p} | {x} | {f} | {n} | {e} |");
    }
    md.push('\n');
    md.push_str("| ROM | DMG | notes |\n|---|---|---|\n");
    for (path, row) in rows {
        let (result, note) = match row {
            Row::Pass => ("pass", String::new()),
            Row::ExpectedFailure(reason, got) => {
                ("fail (expected)", format!("{reason}. Got: {got}"))
            }
            Row::Fail(e) => ("**FAIL**", e.clone()),
            Row::NotApplicable(why) => ("n/a", why.clone()),
            Row::NoVerdict => ("no verdict (experiment)", String::new()),
        };
        let note = note.replace('|', "\\|").replace('\n', " ");
        let _ = writeln!(md, "| `{path}` | {result} | {note} |");
    }
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/conformance.md");
    if let Err(e) = std::fs::write(&out, md) {
        eprintln!("conformance: could not write {}: {e}", out.display());
    }
}

fn main() {
    let args = Arguments::from_args();
    let root = gb_testkit::rom_root();
    let ci = gb_testkit::ci();
    let have_roms = root.is_dir();
    if !have_roms {
        eprintln!(
            "\n*** conformance: ROM folder {} not found (set GBHOST_TEST_ROMS). {} ***\n",
            root.display(),
            if ci {
                "CI=true: every ROM test FAILS."
            } else {
                "Every ROM test is SKIPPED."
            }
        );
    }
    let xfail = Arc::new(expected_failures());
    let rows: Arc<Mutex<BTreeMap<&'static str, Row>>> = Arc::default();
    let mut trials = Vec::new();
    for (path, kind) in all_roms() {
        let not_applicable = match kind {
            Kind::NotApplicable(why) => Some(why.to_string()),
            Kind::Mooneye => mooneye_applies_to_dmg(path).err(),
            _ => None,
        };
        if let Some(why) = not_applicable {
            rows.lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(path, Row::NotApplicable(why));
            continue;
        }
        let name = path.trim_end_matches(".gb").to_string();
        let root = root.clone();
        let xfail = Arc::clone(&xfail);
        let rows = Arc::clone(&rows);
        let trial = Trial::test(name, move || {
            if !have_roms {
                return Err(Failed::from(format!(
                    "ROM folder {} not found (set GBHOST_TEST_ROMS)",
                    root.display()
                )));
            }
            let outcome = run_rom(&root, path, kind).unwrap_or_else(Outcome::Fail);
            let listed = xfail.get(path);
            let (row, result) = match (outcome, listed) {
                (Outcome::Pass, None) => (Row::Pass, Ok(())),
                (Outcome::Pass, Some(_)) => (
                    Row::Fail("passes but is listed as an expected failure".into()),
                    Err(Failed::from(format!(
                        "{path} now PASSES: remove it from tests/expected-failures.tsv"
                    ))),
                ),
                (Outcome::Fail(e), Some(reason)) => (
                    Row::ExpectedFailure(reason.clone(), summarize(&e, &root)),
                    Ok(()),
                ),
                (Outcome::Fail(e), None) => (Row::Fail(e.clone()), Err(Failed::from(e))),
                (Outcome::NoVerdict, None) => (Row::NoVerdict, Ok(())),
                (Outcome::NoVerdict, Some(_)) => (
                    Row::Fail("an experiment is listed as an expected failure".into()),
                    Err(Failed::from(format!(
                        "{path} writes no verdict: remove it from tests/expected-failures.tsv"
                    ))),
                ),
            };
            rows.lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(path, row);
            result
        })
        .with_ignored_flag(!have_roms && !ci);
        trials.push(trial);
    }
    for path in xfail.keys() {
        if !table::ROMS.iter().any(|(p, _)| p == path)
            && !gbmicrotest::ROMS.contains(&path.as_str())
        {
            eprintln!("conformance: expected-failures.tsv names {path}, which is not in the table");
        }
    }
    let full_run = args.filter.is_none() && args.skip.is_empty() && !args.list;
    let conclusion = libtest_mimic::run(&args, trials);
    if full_run && have_roms {
        let rows = rows.lock().unwrap_or_else(|e| e.into_inner());
        write_conformance(&rows);
    }
    conclusion.exit();
}
