//! Movies through the real binary, across processes: a 10,000-frame recording with scripts
//! and varied input plays back in a new process with every state check equal; a recorder
//! killed with SIGKILL loses at most its last second; `.gbm` → `.bk2` → `.gbm` keeps the
//! inputs; state files and BESS files round-trip through `gbhost state`.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common::{gbhost, text};

fn dir() -> PathBuf {
    crate::common::tmp_dir("movie-cli")
}

/// Tobu Tobu Girl from the shared ROM folder (`GBHOST_TEST_ROMS` overrides), or `None`,
/// loudly (a failure when CI=true).
fn tobu() -> Option<PathBuf> {
    gb_testkit::shared_rom("homebrew/tobutobugirl/tobutobugirl.gb")
}

fn scripts() -> (String, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts");
    (
        root.join("overlays/input_display.lua")
            .display()
            .to_string(),
        root.join("overlays/ram_watch.lua").display().to_string(),
    )
}

fn value(out: &str, key: &str) -> String {
    out.lines()
        .find_map(|l| l.strip_prefix(&format!("{key}: ")))
        .unwrap_or_else(|| panic!("no '{key}' in {out}"))
        .to_owned()
}

#[test]
fn a_long_movie_with_scripts_plays_back_in_another_process() {
    let Some(rom) = tobu() else { return };
    let rom = rom.display().to_string();
    let movie = dir().join("long.gbm").display().to_string();
    let (a, b) = scripts();
    let rec = gbhost(&[
        "movie",
        "record",
        &rom,
        "--overwrite",
        "--out",
        &movie,
        "--frames",
        "10000",
        "--script",
        &a,
        "--script",
        &b,
        "--random-input",
        "2026",
        "--compact",
    ]);
    assert!(rec.status.success(), "{}", text(&rec));
    let info = gbhost(&["movie", "info", &movie]);
    let info_text = text(&info);
    assert_eq!(value(&info_text, "frames"), "10000");
    println!("{info_text}");
    // A new process plays it: every chunk's state check (one a second) must match.
    let play = gbhost(&["movie", "play", &rom, &movie]);
    let out = text(&play);
    assert!(play.status.success(), "{out}");
    assert!(out.contains("played: 10000 frames, 167 checks"), "{out}");
    assert!(out.contains("desync: none"), "{out}");
}

#[test]
fn a_killed_recorder_loses_at_most_one_second() {
    let Some(rom) = tobu() else { return };
    let rom = rom.display().to_string();
    let movie = dir().join("killed.gbm");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gbhost"))
        .env("GBHOST_STATE_KEY", crate::common::state_key())
        .args([
            "movie",
            "record",
            &rom,
            "--overwrite",
            "--out",
            &movie.display().to_string(),
            "--frames",
            "100000",
            "--random-input",
            "5",
            "--fps",
            "240",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut last = 0u64;
    while last < 600 {
        let line = lines.next().expect("recorder output").unwrap();
        if let Some(n) = line.strip_prefix("recorded ") {
            last = n.parse().unwrap();
        }
    }
    // SIGKILL: no destructor, no flush.
    child.kill().unwrap();
    child.wait().unwrap();
    let info = gbhost(&["movie", "info", &movie.display().to_string()]);
    let out = text(&info);
    assert!(info.status.success(), "{out}");
    let frames: u64 = value(&out, "frames").parse().unwrap();
    // Everything reported written is there; at most one chunk (one emulated second, a quarter
    // of a second of this run's wall time) was being filled when it died.
    assert!(frames >= last, "recovered {frames} of at least {last}");
    assert_eq!(frames % 60, 0, "whole chunks only");
    let play = gbhost(&["movie", "play", &rom, &movie.display().to_string()]);
    assert!(text(&play).contains("desync: none"), "{}", text(&play));
    println!("killed after {last}+ frames; recovered {frames}");
}

#[test]
fn gbm_to_bk2_and_back_keeps_the_inputs() {
    let Some(rom) = tobu() else { return };
    let rom = rom.display().to_string();
    let d = dir();
    let (a, b, c) = (d.join("a.gbm"), d.join("a.bk2"), d.join("b.gbm"));
    let s = |p: &PathBuf| p.display().to_string();
    // Frame-aligned input only (a .bk2 has one input line per frame).
    let rec = gbhost(&[
        "movie",
        "record",
        &rom,
        "--overwrite",
        "--out",
        &s(&a),
        "--frames",
        "900",
        "--random-input",
        "31",
        "--aligned",
    ]);
    assert!(rec.status.success(), "{}", text(&rec));
    // Post-boot: BizHawk would run the boot ROM first, so export needs --force.
    let to = gbhost(&[
        "movie",
        "convert",
        &s(&a),
        &s(&b),
        "--rom",
        &rom,
        "--overwrite",
        "--force",
    ]);
    assert!(to.status.success(), "{}", text(&to));
    assert!(text(&to).contains("may desync"), "{}", text(&to));
    let back = gbhost(&[
        "movie",
        "convert",
        &s(&b),
        &s(&c),
        "--rom",
        &rom,
        "--overwrite",
    ]);
    assert!(back.status.success(), "{}", text(&back));
    let pa = gbhost(&[
        "movie",
        "play",
        &rom,
        &s(&a),
        "--screenshot",
        &s(&d.join("a.png")),
    ]);
    let pc = gbhost(&[
        "movie",
        "play",
        &rom,
        &s(&c),
        "--screenshot",
        &s(&d.join("c.png")),
    ]);
    assert!(text(&pa).contains("desync: none") && text(&pc).contains("desync: none"));
    // The same input on every frame, both ways.
    let (ia, lost_a) = gb_session::movie::Movie::open(&a)
        .unwrap()
        .frame_buttons()
        .unwrap();
    let (ic, lost_c) = gb_session::movie::Movie::open(&c)
        .unwrap()
        .frame_buttons()
        .unwrap();
    assert_eq!((ia.len(), lost_a, lost_c), (900, 0, 0));
    assert_eq!(ia, ic);
    assert!(ia.iter().any(|b| b.0 != 0), "the movie has input");
    let bk2 = gb_session::movie::bk2::read(&std::fs::read(&b).unwrap()).unwrap();
    let from_bk2: Vec<_> = bk2.frames.iter().map(|f| f.buttons).collect();
    assert_eq!(from_bk2, ia);
    assert_eq!(
        std::fs::read(d.join("a.png")).unwrap(),
        std::fs::read(d.join("c.png")).unwrap()
    );
}

#[test]
fn state_files_and_bess_round_trip_through_the_cli() {
    let Some(rom) = tobu() else { return };
    let rom = rom.display().to_string();
    let d = dir();
    let s = |p: PathBuf| p.display().to_string();
    let state = s(d.join("t.gbs"));
    let out = gbhost(&["state", "save", &rom, "--frames", "300", "--out", &state]);
    assert!(out.status.success(), "{}", text(&out));
    let info = text(&gbhost(&["state", "info", &state]));
    assert_eq!(value(&info, "frame"), "300");
    let bess = s(d.join("t.bess"));
    let out = gbhost(&["state", "export-bess", &rom, &state, &bess]);
    assert!(out.status.success(), "{}", text(&out));
    let back = s(d.join("back.gbs"));
    let out = gbhost(&["state", "import-bess", &rom, &bess, &back]);
    assert!(out.status.success(), "{}", text(&out));
    let again = s(d.join("again.bess"));
    let out = gbhost(&["state", "export-bess", &rom, &back, &again]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        std::fs::read(&bess).unwrap(),
        std::fs::read(&again).unwrap()
    );
    // A corrupt file is refused with a reason.
    let mut bad = std::fs::read(&state).unwrap();
    let n = bad.len() / 2;
    bad[n] ^= 0x40;
    let badp = s(d.join("bad.gbs"));
    std::fs::write(&badp, bad).unwrap();
    let out = gbhost(&["state", "info", &badp]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("damaged"), "{}", text(&out));
}

/// The gameplay movies of `examples/` (the README's speed figures are taken on them) still
/// replay frame by frame on this build: the bench checks every state of the movie before
/// timing its last second.
#[test]
fn the_example_gameplay_movies_replay_in_the_bench() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    for (rom, movie, frames) in [
        (
            "homebrew/tobutobugirl/tobutobugirl.gb",
            "tobu_gameplay.gbm",
            4800,
        ),
        ("homebrew/ucity/ucity.gbc", "ucity_gameplay.gbm", 6700),
    ] {
        let Some(rom) = gb_testkit::shared_rom(rom) else {
            return;
        };
        let movie = examples.join(movie).display().to_string();
        let from = (frames - 60).to_string();
        let out = gbhost(&[
            "bench",
            &rom.display().to_string(),
            "--movie",
            &movie,
            "--from",
            &from,
            "--rounds",
            "1",
        ]);
        let t = text(&out);
        assert!(out.status.success(), "{t}");
        assert!(
            t.contains(&format!(
                "frames {from}-{} of {frames} timed; {} state checks matched",
                frames - 1,
                u32::div_ceil(frames, 60)
            )),
            "{t}"
        );
    }
}
