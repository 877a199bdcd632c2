//! Frame-hash tests on real games (the homebrew workloads in the shared ROM folder): fixed
//! frame counts with scripted button presses, and the hash of the frame at checkpoints compared
//! with `tests/frame-hashes.tsv`. Any change to what the core draws or how a game runs shows up
//! here. Re-record on purpose with `GBHOST_RECORD_FRAME_HASHES=1`; each checkpoint frame is also
//! written as a PNG under the target directory to look at.

use gb_core::{Buttons, Cartridge, Gb};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A scripted run: the ROM, the buttons held on each frame, the checkpoints.
struct Script {
    name: &'static str,
    rom: &'static str,
    inputs: fn(u32) -> Buttons,
    checkpoints: &'static [u32],
}

/// Deterministic pseudo-random buttons, changing every 8 frames: Start or A pulses to get
/// through menus, and a random direction held in between.
fn menu_and_play(frame: u32) -> Buttons {
    let step = frame / 8;
    let mut x = step.wrapping_mul(0x9E37_79B9) ^ 0x5bd1_e995;
    x ^= x >> 15;
    x = x.wrapping_mul(0x2c1b_3c6d);
    x ^= x >> 12;
    let pulse = frame % 8 < 2;
    let mut b = [Buttons::RIGHT, Buttons::LEFT, Buttons::UP, Buttons::DOWN][(x & 3) as usize];
    if pulse && step.is_multiple_of(4) {
        b = b | if step.is_multiple_of(16) {
            Buttons::START
        } else {
            Buttons::A
        };
    }
    if x & 0x30 == 0 {
        b = b | Buttons::B;
    }
    b
}

/// Adjustris: Start on the title menu's first entry, then play without Start (which pauses).
fn adjustris(frame: u32) -> Buttons {
    match frame {
        120..126 | 240..246 | 360..366 => Buttons::START,
        0..400 => Buttons(0),
        _ => Buttons(menu_and_play(frame).0 & !Buttons::START.0),
    }
}

const CHECKPOINTS: &[u32] = &[
    150, 300, 450, 600, 750, 900, 1050, 1200, 1350, 1500, 1650, 1800, 2100, 2400,
];

const SCRIPTS: &[Script] = &[
    Script {
        name: "tobutobugirl",
        rom: "homebrew/tobutobugirl/tobutobugirl.gb",
        inputs: menu_and_play,
        checkpoints: CHECKPOINTS,
    },
    Script {
        name: "adjustris",
        rom: "homebrew/adjustris/adjustris.gb",
        inputs: adjustris,
        checkpoints: CHECKPOINTS,
    },
];

fn hashes_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/frame-hashes.tsv")
}

/// Run a script; `(checkpoint frame, hash)` pairs.
fn run(script: &Script, rom: Vec<u8>) -> Vec<(u32, u64)> {
    let mut gb = Gb::new(Cartridge::from_rom(rom).expect("cartridge"));
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("frame-hashes");
    let _ = std::fs::create_dir_all(&out_dir);
    let last = script.checkpoints.iter().copied().max().unwrap_or(0);
    let mut results = Vec::new();
    for frame in 1..=last {
        gb.set_buttons((script.inputs)(frame));
        gb.run_frame();
        if script.checkpoints.contains(&frame) {
            let fb = gb.framebuffer();
            results.push((frame, gb_testkit::fnv1a(fb.shades())));
            let _ = gb_testkit::write_frame_png(
                &out_dir.join(format!("{}-{frame}.png", script.name)),
                fb,
            );
        }
    }
    results
}

fn load_expected() -> BTreeMap<(String, u32), u64> {
    let text = std::fs::read_to_string(hashes_file()).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut f = l.split('\t');
            let name = f.next()?.to_string();
            let frame = f.next()?.parse().ok()?;
            let hash = u64::from_str_radix(f.next()?.trim_start_matches("0x"), 16).ok()?;
            Some(((name, frame), hash))
        })
        .collect()
}

#[test]
fn homebrew_frames_match_the_recorded_hashes() {
    let root = gb_testkit::rom_root();
    let ci = gb_testkit::ci();
    let record = std::env::var_os("GBHOST_RECORD_FRAME_HASHES").is_some();
    let expected = load_expected();
    let mut recorded = String::from(
        "# Frame hashes (FNV-1a 64 of the shade indices) at checkpoints of scripted runs.\n\
         # Written by GBHOST_RECORD_FRAME_HASHES=1 cargo test -p gb-core --test frame_hashes\n",
    );
    let mut failures = Vec::new();
    for script in SCRIPTS {
        let path = root.join(script.rom);
        let Ok(rom) = std::fs::read(&path) else {
            assert!(!ci, "CI=true but {} is missing", path.display());
            eprintln!(
                "*** SKIPPED {}: {} not found ***",
                script.name,
                path.display()
            );
            continue;
        };
        let results = run(script, rom);
        let distinct: std::collections::BTreeSet<u64> = results.iter().map(|r| r.1).collect();
        assert!(
            distinct.len() * 2 > results.len(),
            "{}: the checkpoints barely differ; the script does not exercise the game",
            script.name
        );
        for &(frame, hash) in &results {
            recorded.push_str(&format!("{}\t{frame}\t{hash:016x}\n", script.name));
            match expected.get(&(script.name.to_string(), frame)) {
                Some(&want) if want == hash => {}
                Some(&want) => failures.push(format!(
                    "{} frame {frame}: hash {hash:016x}, recorded {want:016x}",
                    script.name
                )),
                None => failures.push(format!("{} frame {frame}: no recorded hash", script.name)),
            }
        }
    }
    if record {
        std::fs::write(hashes_file(), recorded).expect("write frame-hashes.tsv");
        eprintln!("recorded {}", hashes_file().display());
        return;
    }
    assert!(
        failures.is_empty(),
        "frame hashes changed (frames written under {}; re-record on purpose with \
         GBHOST_RECORD_FRAME_HASHES=1):\n{}",
        Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("frame-hashes")
            .display(),
        failures.join("\n")
    );
}
