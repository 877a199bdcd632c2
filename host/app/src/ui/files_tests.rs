//! The window's files, driven by labels with `egui_kittest`: a patch beside the ROM said in
//! the status bar, files dropped on the window (a script, a patch, something gbhost does not
//! open), the typed-path dialog when there is no portal (saying why) applying a patch, and a
//! movie's authors and description asked when recording starts and edited while it records.
//! Every ROM is built in code and lives in a temporary folder.

use super::GbApp;
use super::test_support::{self as support, settle};
use crate::emu::{MovieInfo, RomSource};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A temporary folder of its own for a test.
fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gbhost-ui-files-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A tiny ROM (no battery) at `dir/game.gb`.
fn tiny_rom(dir: &Path) -> PathBuf {
    let rom = dir.join("game.gb");
    let bytes = gb_core::asm::rom("main: halt\n nop\n jr main").expect("assemble");
    std::fs::write(&rom, bytes).unwrap();
    rom
}

/// An IPS patch writing `bytes` at `offset`, written by hand.
fn ips(offset: u32, bytes: &[u8]) -> Vec<u8> {
    let mut p = b"PATCH".to_vec();
    p.extend_from_slice(&offset.to_be_bytes()[1..]);
    p.extend_from_slice(&(bytes.len() as u16).to_be_bytes());
    p.extend_from_slice(bytes);
    p.extend_from_slice(b"EOF");
    p
}

fn harness_on(rom: &Path) -> Harness<'static, GbApp> {
    let mut h = support::harness(
        RomSource::File(rom.to_path_buf()),
        Vec::new(),
        8 << 20,
        [1400.0, 700.0],
    );
    // The console repeats the status bar's notes: hidden, so each label is found once.
    h.state_mut().panels.open.console = false;
    h
}

/// A file dropped on the window.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

fn drop_file(h: &mut Harness<'static, GbApp>, p: &Path) {
    h.input_mut()
        .dropped_files
        .push(Arc::new(Dropped(p.to_path_buf())));
    settle(h);
}

/// Type into the field labelled `label`.
fn type_into(h: &mut Harness<'static, GbApp>, label: &str, text: &str) {
    h.get_by_label(label).focus();
    h.run_steps(1);
    h.get_by_label(label).type_text(text);
    h.run_steps(1);
}

#[test]
fn a_patch_beside_the_rom_is_said_in_the_status_bar() {
    let d = temp_dir("beside");
    let rom = tiny_rom(&d);
    std::fs::write(d.join("game.ips"), ips(0x134, b"HACK")).unwrap();
    let mut h = harness_on(&rom);
    settle(&mut h);
    h.get_by_label("patched: game.ips (beside the ROM)");
    let peek = h.state().emu().repl("peek 0134 4");
    assert!(
        peek.starts_with("0134: 48 41 43 4B") && peek.ends_with("HACK"),
        "{peek}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn dropped_files_open_by_their_extension() {
    let d = temp_dir("drop");
    let rom = tiny_rom(&d);
    let mut h = harness_on(&rom);
    settle(&mut h);
    // A script loads.
    let script = d.join("hello.lua");
    std::fs::write(&script, "console.log('hello from a drop')").unwrap();
    drop_file(&mut h, &script);
    assert!(
        h.state()
            .view()
            .scripts
            .rows
            .iter()
            .any(|s| s.name == "hello.lua"),
        "{:?}",
        h.state().view().scripts
    );
    // A patch re-opens the ROM with it (the script is loaded again).
    let patch = d.join("hack.ips");
    std::fs::write(&patch, ips(0x134, b"HACK")).unwrap();
    drop_file(&mut h, &patch);
    h.get_by_label("patched: hack.ips");
    assert!(h.state().emu().repl("peek 0134 4").contains("HACK"));
    assert!(
        h.state()
            .view()
            .scripts
            .rows
            .iter()
            .any(|s| s.name == "hello.lua")
    );
    // A file gbhost does not open: a line says what it opens.
    drop_file(&mut h, &d.join("notes.txt"));
    h.get_by_label_contains("'notes.txt': gbhost opens ROMs");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn with_no_portal_the_path_is_typed_and_the_window_says_why() {
    let d = temp_dir("typed");
    let rom = tiny_rom(&d);
    let patch = d.join("fix.ips");
    std::fs::write(&patch, ips(0x134, b"FIX")).unwrap();
    let mut h = harness_on(&rom);
    settle(&mut h);
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Apply patch…").click();
    settle(&mut h);
    h.get_by_label_contains("no file-dialog portal");
    h.get_by_label_contains("type the path");
    type_into(&mut h, "Path", patch.to_str().unwrap());
    h.get_by_label("Open").click();
    settle(&mut h);
    h.get_by_label("patched: fix.ips");
    // A patch that does not apply: an error on the console, the ROM as it was.
    let junk = d.join("junk.ips");
    std::fs::write(&junk, b"not a patch").unwrap();
    drop_file(&mut h, &junk);
    let console = h.state().view().console.lines.join("\n");
    assert!(
        console.contains("junk.ips") && console.contains("not a patch"),
        "{console}"
    );
    h.get_by_label("patched: fix.ips");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_movies_authors_are_asked_at_record_and_edited_while_recording() {
    let d = temp_dir("movie-info");
    let rom = tiny_rom(&d);
    let movie = d.join("run.gbm");
    let mut h = harness_on(&rom);
    settle(&mut h);
    h.get_by_label("Movie").click();
    h.run_steps(2);
    h.get_by_label("Record from power-on…").click();
    settle(&mut h);
    type_into(&mut h, "Path", movie.to_str().unwrap());
    type_into(&mut h, "Authors", "Ann, Bo");
    type_into(&mut h, "Description", "any% in one go");
    h.get_by_label("Open").click();
    settle(&mut h);
    let want = MovieInfo {
        authors: vec!["Ann".into(), "Bo".into()],
        description: "any% in one go".into(),
    };
    assert_eq!(h.state().view().movie_info.as_ref(), Some(&want));
    h.state().emu().repl("step 10");
    settle(&mut h);
    // Edited while recording: the window shows what it has, Apply writes the new one.
    h.get_by_label("Movie").click();
    h.run_steps(2);
    h.get_by_label("Authors and description…").click();
    settle(&mut h);
    type_into(&mut h, "Authors", ", Cy");
    h.get_by_label("Apply").click();
    settle(&mut h);
    let edited = h
        .state()
        .view()
        .movie_info
        .clone()
        .expect("a movie is open");
    assert_eq!(edited.authors, ["Ann", "Bo", "Cy"]);
    // It records on: more frames, then the file has them and the header.
    h.state().emu().repl("step 10");
    let out = h.state().emu().repl("movie stop");
    assert!(out.contains("recorded 20 frames"), "{out}");
    let m = gb_session::movie::Movie::open(&movie).expect("the movie");
    assert_eq!(m.header.authors, ["Ann", "Bo", "Cy"]);
    assert_eq!(
        m.header.metadata.get("description").map(String::as_str),
        Some("any% in one go")
    );
    assert_eq!(m.header.rerecords, 0);
    let _ = std::fs::remove_dir_all(&d);
}

/// A movie dropped on the window plays read-only; a BizHawk `.bk2` of it is converted and
/// plays too.
#[test]
fn dropped_movies_play_a_gbm_and_a_bk2() {
    let d = temp_dir("drop-movies");
    let rom = tiny_rom(&d);
    let gbm = d.join("run.gbm");
    let mut h = harness_on(&rom);
    settle(&mut h);
    let emu = h.state().emu();
    emu.repl(&format!("movie record \"{}\"", gbm.display()));
    emu.repl("step 30");
    let out = emu.repl("movie stop");
    assert!(out.contains("recorded 30 frames"), "{out}");
    let bk2 = d.join("run.bk2");
    let options = crate::movie_convert::Options {
        rom: Some(&rom),
        link: None,
        boot_rom: None,
        force: true,
        patches: &[],
    };
    crate::movie_convert::to_bk2(&gbm, &bk2, &options).expect("to .bk2");
    drop_file(&mut h, &gbm);
    let m = h.state().view().movie.clone().expect("playing");
    assert!(m.read_only && m.name.contains("run.gbm"), "{m:?}");
    drop_file(&mut h, &bk2);
    let m = h.state().view().movie.clone().expect("playing the .bk2");
    assert!(m.read_only && m.name.ends_with("-run.gbm"), "{m:?}");
    assert_eq!(m.length, 30);
    drop(h);
    // The converted movie's files in the temporary folder.
    let mine = format!("gbhost-{}-", std::process::id());
    for e in std::fs::read_dir(std::env::temp_dir()).unwrap().flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        if n.starts_with(&mine) && n.contains("-run.gbm") {
            let _ = std::fs::remove_file(e.path());
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// A linked pair's BizHawk movie (GambatteLink) dropped on a window running the pair: it is
/// converted with the running second ROM and plays, both players' tracks.
#[test]
fn a_dropped_bk2_of_a_pair_plays_on_the_running_pair() {
    let d = temp_dir("drop-pair-bk2");
    let (a, b) = (d.join("a.gb"), d.join("b.gb"));
    let demo = crate::game::demo::link_rom().expect("the link demo");
    std::fs::write(&a, &demo).unwrap();
    std::fs::write(&b, &demo).unwrap();
    let gbm = d.join("pair.gbm");
    let mut h = support::harness_linked(
        RomSource::File(a.clone()),
        Some(RomSource::File(b.clone())),
        Vec::new(),
        8 << 20,
        [1400.0, 700.0],
    );
    h.state_mut().panels.open.console = false;
    settle(&mut h);
    let emu = h.state().emu();
    emu.repl(&format!("movie record \"{}\"", gbm.display()));
    emu.repl("step 40");
    let out = emu.repl("movie stop");
    assert!(out.contains("recorded 40 frames"), "{out}");
    let bk2 = d.join("pair.bk2");
    let options = crate::movie_convert::Options {
        rom: Some(&a),
        link: Some(&b),
        boot_rom: None,
        force: true,
        patches: &[],
    };
    crate::movie_convert::to_bk2(&gbm, &bk2, &options).expect("to .bk2");
    assert!(d.join("pair.xml").exists(), "the bundle BizHawk opens");
    drop_file(&mut h, &bk2);
    let m = h
        .state()
        .view()
        .movie
        .clone()
        .expect("playing the pair's .bk2");
    assert!(m.read_only && m.name.ends_with("-pair.gbm"), "{m:?}");
    assert_eq!(m.length, 40);
    assert!(
        h.state().view().screen.second.is_some(),
        "still two screens"
    );
    drop(h);
    let mine = format!("gbhost-{}-", std::process::id());
    for e in std::fs::read_dir(std::env::temp_dir()).unwrap().flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        if n.starts_with(&mine) && n.contains("-pair.gbm") {
            let _ = std::fs::remove_file(e.path());
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// A portal said present whose dialog never shows (here: no session bus, no zenity, so rfd
/// answers "nothing" at once): the typed path is asked instead, saying why. Skipped where a
/// real dialog could open (a session bus, or zenity installed).
#[test]
fn a_native_dialog_that_shows_nothing_falls_back_to_a_typed_path() {
    let zenity = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("zenity").exists()));
    if std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some() || zenity {
        eprintln!("a real file dialog could open here: skipped");
        return;
    }
    let d = temp_dir("native");
    let rom = tiny_rom(&d);
    let mut h = harness_on(&rom);
    h.state_mut().dialogs.portal = super::portal::PortalCheck::present();
    settle(&mut h);
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Apply patch…").click();
    let t0 = std::time::Instant::now();
    while h
        .query_by_label_contains("the portal showed no dialog")
        .is_none()
    {
        assert!(
            t0.elapsed() < std::time::Duration::from_secs(10),
            "no fallback"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.run_steps(1);
    }
    h.get_by_label("Path");
    let _ = std::fs::remove_dir_all(&d);
}
