//! The conformance harness: one test per ROM of the shared test-ROM folder and model it is
//! for, run on the DMG (DMG-CPU B) and on the CGB (CPU CGB C).
//!
//! ROMs come from `../shared/roms` beside the repository (override: `GBHOST_TEST_ROMS`). Which
//! ROMs run on the DMG is `table.rs` and the modules' `ROMS`; on the CGB, `table_cgb.rs`,
//! rtc3test's `ROMS_CGB` and gbc-hw-tests' `roms_cgb()` (its DMG rows with the CGB-only ones
//! run), plus every Mooneye test whose file name's suffix names the CGB (or no model). A DMG trial is named by the ROM's path, a CGB trial by `cgb/` and the path. Known
//! failures are listed per model, with their reason, in `tests/expected-failures.tsv` (and
//! `tests/expected-failures-gambatte.tsv` for Gambatte's tests, [`gambatte`]): a
//! listed ROM that fails passes the run, and a listed ROM that passes fails it until the list
//! is updated. A full run (no name filter) rewrites `docs/conformance.md` with every ROM's
//! result on both models.
//!
//! Without the ROM folder every test says so and is skipped; with `CI=true` they fail instead.

// The tests are the host around the core: they read ROMs and references and write reports and
// pictures, so the core's ban on files and the environment (host/core/clippy.toml) is lifted
// here, for the test binary only.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

mod gambatte;
mod games;
mod gbc_hw;
mod gbmicrotest;
mod rtc3test;
mod screen;
mod table;
mod table_cgb;

use gb_core::{Boot, Cartridge, CgbRevision, Gb, Model};
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
    /// Compare which pixels of the final frame are lit (not white) with a reference PNG taken
    /// with other colours (a capture that widened the CGB's colours as `c << 3`).
    ScreenLit {
        /// The reference image.
        expected: &'static str,
        /// When to take the frame.
        run: Run,
    },
    /// gbmicrotest: the verdict at $FF82 ([`gbmicrotest`]).
    Microtest,
    /// Not a test for this model (the reason is given).
    NotApplicable(&'static str),
    /// A harness of its own (a module of this one): called with the ROM folder, the row's
    /// name and the model, it loads and runs what it needs.
    Custom(fn(&Path, &str, Model) -> Result<Outcome, String>),
}

/// The models, in the order of the table's columns.
const MODELS: [Model; 2] = [Model::Dmg, Model::Cgb];

/// Every row of the table on each model: the plain suites, gbmicrotest, then the modules with
/// harnesses of their own, on the DMG; the CGB's table, the Mooneye tests and the modules'
/// CGB rows on the CGB. A path with no CGB row is not run there ([`no_cgb_row`] says why).
fn all_roms(root: &Path) -> Vec<(&'static str, Model, Kind)> {
    let microtests = gbmicrotest::ROMS.iter().map(|&p| (p, Kind::Microtest));
    let dmg = table::ROMS
        .iter()
        .copied()
        .chain(microtests)
        .chain(rtc3test::ROMS.iter().copied())
        .chain(gbc_hw::ROMS.iter().copied());
    let mooneye = table::ROMS
        .iter()
        .filter(|(_, k)| matches!(k, Kind::Mooneye))
        .copied();
    let cgb = table_cgb::ROMS
        .iter()
        .copied()
        .chain(mooneye)
        .chain(rtc3test::ROMS_CGB.iter().copied())
        .chain(gbc_hw::roms_cgb());
    let mut all: Vec<_> = dmg.map(|(p, k)| (p, Model::Dmg, k)).collect();
    all.extend(cgb.map(|(p, k)| (p, Model::Cgb, k)));
    all.extend(gambatte::roms(root));
    all
}

/// Why a ROM of the DMG's table has no CGB row.
fn no_cgb_row(path: &str) -> &'static str {
    if path.starts_with("gbmicrotest/") {
        "verified on a DMG-CPU-08 only: no CGB verdicts"
    } else {
        "no CGB reference"
    }
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

/// Whether a Mooneye test applies to the model (the DMG-CPU B, the CPU CGB C), from its file
/// name's model suffix: `G` (the DMG family), `S` (SGB), `C` (CGB), `A` (AGB), or revisions
/// such as `dmgABCmgb`, `cgb0`, `cgbABCDE`; no suffix: every model.
fn mooneye_applies(path: &str, model: Model) -> Result<(), String> {
    let stem = Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let Some((_, suffix)) = stem.rsplit_once('-') else {
        return Ok(());
    };
    let ok = match model {
        Model::Dmg => suffix.contains("dmgABC") || suffix == "G" || suffix == "GS",
        Model::Cgb => {
            suffix == "C" || suffix == "cgb" || (suffix.starts_with("cgb") && suffix.contains('C'))
        }
    };
    if ok {
        Ok(())
    } else {
        let name = match model {
            Model::Dmg => "the DMG-CPU B",
            Model::Cgb => "the CPU CGB C",
        };
        Err(format!("for model(s) '{suffix}', not {name}"))
    }
}

/// The ROM at `path` on `model` (a CGB of the default revision), powered on without a boot
/// ROM.
pub fn load(root: &Path, path: &str, model: Model) -> Result<Gb, String> {
    load_revision(root, path, model, CgbRevision::default())
}

/// [`load`] on a CGB of `revision` (on the DMG the revision means nothing).
pub fn load_revision(
    root: &Path,
    path: &str,
    model: Model,
    revision: CgbRevision,
) -> Result<Gb, String> {
    let file = root.join(path);
    let bytes = std::fs::read(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let cart = Cartridge::from_rom(bytes).map_err(|e| format!("bad ROM {path}: {e}"))?;
    let boot = Boot {
        model,
        cgb_revision: revision,
        ..Boot::default()
    };
    Gb::power_on(cart, boot).map_err(|e| format!("cannot power on {path}: {e}"))
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

fn run_screen(mut gb: Gb, root: &Path, name: &str, expected: &str, run: Run, lit: bool) -> Outcome {
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
    let compare = if lit {
        screen::compare_lit
    } else {
        screen::compare
    };
    match compare(gb.framebuffer(), &root.join(expected), name) {
        Ok(()) => Outcome::Pass,
        Err(e) => Outcome::Fail(e),
    }
}

/// Run one ROM on `model`.
fn run_rom(root: &Path, path: &str, kind: Kind, model: Model) -> Result<Outcome, String> {
    if let Kind::Custom(run) = kind {
        return run(root, path, model);
    }
    let gb = load(root, path, model)?;
    Ok(match kind {
        Kind::Mooneye => run_mooneye(gb),
        Kind::Blargg => run_blargg(gb),
        Kind::Screen { expected, run } => run_screen(gb, root, path, expected, run, false),
        Kind::ScreenLit { expected, run } => run_screen(gb, root, path, expected, run, true),
        Kind::Microtest => gbmicrotest::run(gb, gbmicrotest::is_experiment(path)),
        Kind::NotApplicable(_) | Kind::Custom(_) => unreachable!("handled before"),
    })
}

/// The lists of known failures: `tests/expected-failures.tsv`, and Gambatte's tests' in
/// `tests/expected-failures-gambatte.tsv` (kept apart for its size).
const EXPECTED_FAILURES: [&str; 2] = [
    "tests/expected-failures.tsv",
    "tests/expected-failures-gambatte.tsv",
];

/// The known failures ([`EXPECTED_FAILURES`]): model (`dmg` or `cgb`), tab, path, tab, reason.
fn expected_failures() -> BTreeMap<(Model, String), String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text: String = EXPECTED_FAILURES
        .iter()
        .map(|f| std::fs::read_to_string(dir.join(f)).unwrap_or_default() + "\n")
        .collect();
    let mut out = BTreeMap::new();
    for line in text.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.splitn(3, '\t');
        let (model, path, reason) = (fields.next(), fields.next(), fields.next());
        match (model.and_then(Model::from_name), path) {
            (Some(model), Some(path)) => {
                let reason = reason.unwrap_or_default().trim().to_string();
                out.insert((model, path.trim().to_string()), reason);
            }
            _ => eprintln!("conformance: expected-failures.tsv: bad line {line:?}"),
        }
    }
    out
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

/// Each ROM's row on the DMG and on the CGB (`None`: not run on that model).
type Rows = BTreeMap<&'static str, [Option<Row>; 2]>;

/// Which column a row goes in, for the counts.
fn column(row: &Row) -> usize {
    match row {
        Row::Pass => 0,
        Row::ExpectedFailure(..) => 1,
        Row::Fail(_) => 2,
        Row::NotApplicable(_) => 3,
        Row::NoVerdict => 4,
    }
}

/// A row's result cell and note.
fn cell(row: &Row) -> (&'static str, String) {
    match row {
        Row::Pass => ("pass", String::new()),
        Row::ExpectedFailure(reason, got) => ("fail (expected)", format!("{reason}. Got: {got}")),
        Row::Fail(e) => ("**FAIL**", e.clone()),
        Row::NotApplicable(why) => ("n/a", why.clone()),
        Row::NoVerdict => ("no verdict (experiment)", String::new()),
    }
}

fn write_conformance(rows: &Rows) {
    let mut md = String::new();
    md.push_str("# Conformance\n\n");
    md.push_str(
        "Generated by the conformance harness (`cargo test -p gb-core --test conformance`); do \
         not edit by hand. Every ROM of the shared test-ROM folder, run on the DMG model \
         (DMG-CPU B) and on the CGB model (CPU CGB C, gbc-hw-tests on a CPU CGB D: see below; \
         a DMG game runs in the CGB's DMG compatibility mode, as on the console). Expected failures, with their reasons, are \
         listed per model in `host/core/tests/expected-failures.tsv` and, for Gambatte's tests, `host/core/tests/expected-failures-gambatte.tsv`.\n\n",
    );
    md.push_str(CGB_REVISION);
    md.push('\n');
    let mut suites: BTreeMap<&str, [[usize; 5]; 2]> = BTreeMap::new();
    let mut totals = [[0usize; 5]; 2];
    for (path, cols) in rows {
        let suite = path.split('/').next().unwrap_or_default();
        for (m, row) in cols.iter().enumerate() {
            if let Some(row) = row {
                suites.entry(suite).or_default()[m][column(row)] += 1;
                totals[m][column(row)] += 1;
            }
        }
    }
    for (m, model) in MODELS.iter().enumerate() {
        let [p, x, f, n, e] = totals[m];
        let _ = writeln!(
            md,
            "{model}: **{p} pass**, {x} expected failures, {f} unexpected failures, {n} not \
             for this model, {e} experiments without a verdict.\n"
        );
    }
    md.push_str(
        "| suite | DMG pass | DMG expected failures | DMG unexpected failures | DMG n/a | DMG no \
         verdict | CGB pass | CGB expected failures | CGB unexpected failures | CGB n/a |\n",
    );
    md.push_str("|---|---|---|---|---|---|---|---|---|---|\n");
    for (suite, [[p, x, f, n, e], [cp, cx, cf, cn, _]]) in &suites {
        let _ = writeln!(
            md,
            "| {suite} | {p} | {x} | {f} | {n} | {e} | {cp} | {cx} | {cf} | {cn} |"
        );
    }
    md.push('\n');
    md.push_str(&gambatte::summary(rows.iter().map(|(path, cols)| {
        let pass = cols.clone().map(|r| match r? {
            Row::Pass => Some(true),
            Row::ExpectedFailure(..) | Row::Fail(_) => Some(false),
            Row::NotApplicable(_) | Row::NoVerdict => None,
        });
        (*path, pass)
    })));
    md.push_str(&games::table());
    md.push_str("| ROM | DMG | CGB | notes |\n|---|---|---|---|\n");
    for (path, cols) in rows {
        let mut results = ["—"; 2];
        let mut notes = Vec::new();
        for (m, row) in cols.iter().enumerate() {
            let Some(row) = row else { continue };
            let (result, note) = cell(row);
            results[m] = result;
            if !note.is_empty() {
                notes.push(format!("{}: {note}", MODELS[m]));
            }
        }
        let note = notes.join("; ").replace('|', "\\|").replace('\n', " ");
        let _ = writeln!(
            md,
            "| `{path}` | {} | {} | {note} |",
            results[0], results[1]
        );
    }
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/conformance.md");
    if let Err(e) = std::fs::write(&out, md) {
        eprintln!("conformance: could not write {}: {e}", out.display());
    }
}

/// Why the CGB model is a CPU CGB C (the text of `docs/conformance.md`).
const CGB_REVISION: &str = "## The CGB revision\n\n\
     The CGB model's default revision is the **CPU CGB C** (`Boot::cgb_revision`, \
     `CgbRevision::C`); a CPU CGB D can be chosen at power-on. Why C:\n\n\
     - Mealybug Tearoom's CGB screenshots were taken on a CPU CGB C and a CPU CGB D. The C \
     set is the complete one (31 images, 4 of them placeholders: 27 real; the D set lacks the \
     seven `*2` variants: 20 real), and the core's PPU matches it: 17 of the 27 C images \
     pixel for pixel, against 7 of the 20 D images when run as a CPU CGB D.\n\
     - cgb-acid-hell refuses to run unless 0xFEB8 aliases 0xFEA0 (it writes both, reads the \
     first back and shows an error screen otherwise): the CPU CGB C's mask of the RAM at \
     0xFEA0-0xFEFF (address bits 3 and 4 ignored; SameBoy: revisions 0 to C).\n\
     - Mooneye's CGB tests accept revisions A-E; Blargg's were written on a CGB of unknown \
     revision and pass on both.\n\n\
     AntonioND's gbc-hw-tests dumps (`real_gbc.sav`) do not name their revision, but their \
     CGB behaves as a **CPU CGB D** wherever C and D differ: 0xFEC0-0xFEFF fold onto \
     0xFEF0-0xFEFF (`oam_echo_ram_read*`), the LY=LYC flag keeps its value while LY changes \
     (`mode1_disable*`, `vbl_irq_delay_timer_*`), and LY reads 0 on line 153 an M-cycle \
     later than on the DMG (`ly_timings_*_dmg_mode`), as SameBoy has the CGB D. So the harness \
     runs gbc-hw-tests on a CPU CGB D, and everything else on the default CPU CGB C.\n";

/// Whether a listed result must fail the run: a listed ROM that passes, or writes no verdict.
fn judge(
    path: &str,
    model: Model,
    outcome: Outcome,
    listed: Option<&String>,
    root: &Path,
) -> (Row, Result<(), Failed>) {
    let tsv = "tests/expected-failures*.tsv";
    match (outcome, listed) {
        (Outcome::Pass, None) => (Row::Pass, Ok(())),
        (Outcome::Pass, Some(_)) => (
            Row::Fail("passes but is listed as an expected failure".into()),
            Err(Failed::from(format!(
                "{path} now PASSES on the {model}: remove it from {tsv}"
            ))),
        ),
        (Outcome::Fail(e), Some(reason)) => (
            Row::ExpectedFailure(reason.clone(), summarize(&e, root)),
            Ok(()),
        ),
        (Outcome::Fail(e), None) => (Row::Fail(e.clone()), Err(Failed::from(e))),
        (Outcome::NoVerdict, None) => (Row::NoVerdict, Ok(())),
        (Outcome::NoVerdict, Some(_)) => (
            Row::Fail("an experiment is listed as an expected failure".into()),
            Err(Failed::from(format!(
                "{path} writes no verdict: remove it from {tsv}"
            ))),
        ),
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
    let rows: Arc<Mutex<Rows>> = Arc::default();
    let set_row = |rows: &Mutex<Rows>, path: &'static str, model: Model, row: Row| {
        let m = MODELS.iter().position(|&x| x == model).unwrap_or(0);
        rows.lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(path)
            .or_default()[m] = Some(row);
    };
    let roms = all_roms(&root);
    let mut trials = Vec::new();
    for &(path, model, kind) in &roms {
        let not_applicable = match kind {
            Kind::NotApplicable(why) => Some(why.to_string()),
            Kind::Mooneye => mooneye_applies(path, model).err(),
            _ => None,
        };
        if let Some(why) = not_applicable {
            set_row(&rows, path, model, Row::NotApplicable(why));
            continue;
        }
        let base = path.trim_end_matches(".gb").to_string();
        let name = match model {
            Model::Dmg => base,
            Model::Cgb => format!("cgb/{base}"),
        };
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
            let outcome = run_rom(&root, path, kind, model).unwrap_or_else(Outcome::Fail);
            let listed = xfail.get(&(model, path.to_string()));
            let (row, result) = judge(path, model, outcome, listed, &root);
            set_row(&rows, path, model, row);
            result
        })
        .with_ignored_flag(!have_roms && !ci);
        trials.push(trial);
    }
    if have_roms {
        trials.extend(gambatte::self_checks(&root));
        if !root.join(gambatte::DIR).is_dir() {
            let dir = root.join(gambatte::DIR);
            trials.push(
                Trial::test("gambatte", move || {
                    Err(Failed::from(format!("{} not found", dir.display())))
                })
                .with_ignored_flag(!ci),
            );
        }
    }
    // Paths with a row on one model only.
    for &(path, model, _) in &roms {
        let other = match model {
            Model::Dmg => Model::Cgb,
            Model::Cgb => Model::Dmg,
        };
        if !roms.iter().any(|&(p, m, _)| p == path && m == other) {
            let why = match other {
                Model::Cgb => no_cgb_row(path),
                Model::Dmg => "CGB only",
            };
            set_row(&rows, path, other, Row::NotApplicable(why.to_string()));
        }
    }
    for (model, path) in xfail.keys() {
        if !roms.iter().any(|&(p, m, _)| p == path && m == *model) {
            eprintln!(
                "conformance: expected-failures.tsv names {path} on the {model}, which is not \
                 in the table"
            );
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
