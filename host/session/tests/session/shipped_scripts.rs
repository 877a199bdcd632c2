//! Every script we ship in `scripts/` runs without an error for 120 frames and draws or shows
//! something; the Tobu Tobu Girl trainer finds the game's save data and shows its records.

use crate::common::{console, session};
use gb_session::{Session, SessionConfig};
use std::path::{Path, PathBuf};

fn lua_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("scripts folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "types") {
                lua_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "lua") {
            out.push(path);
        }
    }
}

#[test]
fn every_shipped_script_runs_cleanly() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts");
    let mut files = Vec::new();
    lua_files(&root, &mut files);
    files.sort();
    assert!(files.len() >= 7, "{files:?}");
    for path in files {
        if path.ends_with("trainers/tobutobugirl.lua") {
            continue; // needs the game: below
        }
        let mut s = session();
        let source = std::fs::read_to_string(&path).expect("read");
        s.load_script(
            &path.file_name().unwrap_or_default().to_string_lossy(),
            &source,
        );
        for _ in 0..120 {
            s.run_frame();
        }
        let errors: Vec<String> = console(&mut s)
            .into_iter()
            .filter(|l| l.starts_with("error"))
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        // Drawn on the screen, or shown in windows of its own (forms, text buffers).
        let drawn: usize = s.draw_lists().map(|(_, d)| d.len()).sum::<usize>()
            + s.windows().filter(|(_, w)| !w.is_empty()).count();
        assert!(
            drawn > 0 || path.to_string_lossy().contains("vba_bot"),
            "{} draws nothing",
            path.display()
        );
        assert_eq!(
            s.verify_replay(110).expect("replay"),
            0,
            "{}",
            path.display()
        );
    }
}

#[test]
fn the_tobu_tobu_girl_trainer_finds_the_save_data() {
    let Some(rom) = gb_testkit::shared_rom_bytes("homebrew/tobutobugirl/tobutobugirl.gb") else {
        return;
    };
    let mut s = Session::new(rom, None, SessionConfig::default()).expect("session");
    s.load_script(
        "tobutobugirl.lua",
        include_str!("../../../../scripts/trainers/tobutobugirl.lua"),
    );
    for _ in 0..120 {
        s.run_frame();
    }
    let lines = console(&mut s);
    assert_eq!(lines, ["save data found at cartram 0000"]);
    assert_eq!(
        s.gb().domain(gb_core::Domain::CartRam)[58],
        1,
        "the dash counter is on"
    );
    assert_eq!(crate::common::texts(&s).len(), 4, "four levels' records");
}
