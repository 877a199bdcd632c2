//! The emulation thread's tests: live reload while rewound, battery RAM, movies, state
//! slots and BESS through the console commands.

use super::machine::Emu;
use super::*;
use crate::console::command::StateTarget;
use gb_core::{Buttons, Domain};
use gb_session::DrawCmd;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The demo, paused, silent, with a 16 MiB history.
fn demo_start() -> Start {
    Start {
        rom: RomSource::Demo,
        scripts: Vec::new(),
        scripts2: Vec::new(),
        paused: true,
        ring_bytes: 16 << 20,
        audio: false,
        stop: None,
        power: Default::default(),
        correction: Default::default(),
        link: None,
    }
}

fn texts(v: &View) -> Vec<String> {
    v.screen
        .overlays
        .iter()
        .flat_map(|(_, l)| l.iter())
        .filter_map(|c| match c {
            DrawCmd::Text { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

/// A 32 KiB battery save loads as a start parameter of the session: the cartridge RAM
/// holds it before the first frame and the log holds no event for it (the earlier
/// loader logged about one poke per byte).
#[test]
fn a_32_kib_battery_save_loads_without_events() {
    let dir = std::env::temp_dir().join(format!("gbhost-sav32-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rom = dir.join("big.gb");
    let bytes = gb_core::asm::RomBuilder::new()
        .title("BIGRAM")
        .cartridge_type(0x1B)
        .ram_size_code(0x03)
        .program("loop:\n halt\n nop\n jr loop\n")
        .build()
        .unwrap();
    std::fs::write(&rom, &bytes).unwrap();
    let sav: Vec<u8> = (0..32 * 1024u32).map(|i| (i ^ (i >> 8)) as u8).collect();
    std::fs::write(crate::game::battery::sav_path(&rom), &sav).unwrap();
    let start = Start {
        rom: RomSource::File(rom.clone()),
        ..demo_start()
    };
    let mut emu = Emu::new(&start, Arc::new(Mutex::new(View::default()))).unwrap();
    // The log holds the start time only: no events for the battery.
    assert!(
        emu.session
            .log()
            .events()
            .iter()
            .all(|e| matches!(e.kind, gb_session::EventKind::Clock { .. })),
        "events logged for the battery"
    );
    assert_eq!(emu.session.gb().domain(Domain::CartRam), &sav[..]);
    emu.live_frame();
    assert_eq!(emu.session.gb().domain(Domain::CartRam), &sav[..]);
    assert!(
        emu.console
            .lines
            .iter()
            .any(|l| l.contains("battery: loaded"))
    );
    drop(emu);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Live reload while rewound: the file is edited at frame 70 of a 100-frame history; the
/// watcher reloads it and frame 70 is shown again as the new code draws it.
#[test]
fn editing_a_script_while_rewound_redraws_that_frame() {
    let dir = std::env::temp_dir().join(format!("gbhost-live-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("live.lua");
    let v1 = "event.onframeend(function() gui.text(0, 0, 'old ' .. emu.framecount()) end)\n";
    std::fs::write(&path, v1).unwrap();
    let emu = spawn(Start {
        rom: RomSource::Demo,
        scripts: vec![path.clone()],
        scripts2: Vec::new(),
        paused: true,
        ring_bytes: 8 << 20,
        audio: false,
        stop: None,
        power: Default::default(),
        correction: Default::default(),
        link: None,
    })
    .unwrap();
    emu.repl("step 100");
    emu.repl("rewind 30");
    emu.sync();
    assert_eq!(emu.view().timeline.frame, 70);
    assert!(texts(&emu.view()).contains(&"old 70".to_owned()));
    // An editor's save: write a new file and rename it over the old one.
    let tmp = dir.join(".live.lua.swp");
    let v2 = "event.onframeend(function() gui.text(0, 0, 'new ' .. emu.framecount()) end)\n";
    std::fs::write(&tmp, v2).unwrap();
    std::fs::rename(&tmp, &path).unwrap();
    let t0 = Instant::now();
    while !texts(&emu.view()).contains(&"new 70".to_owned()) {
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "not redrawn: {:?}",
            texts(&emu.view())
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // The figure the scripting issue asks for (a measurement, not a timed assertion).
    eprintln!(
        "live reload: the redrawn frame is on screen {:?} after the save",
        t0.elapsed()
    );
    // Reloaded once: the watcher's reports of our own reads do not reload again.
    std::thread::sleep(Duration::from_millis(500));
    emu.sync();
    let v = emu.view().clone();
    let reloads = v
        .console
        .lines
        .iter()
        .filter(|l| l.contains("reloaded live.lua"))
        .count();
    assert_eq!(reloads, 1, "{:?}", v.console);
    assert_eq!(v.timeline.frame, 70, "still at the rewound frame");
    assert_eq!(v.scripts.rows[1].reloaded_at, Some(70));
    assert!(
        v.console
            .lines
            .iter()
            .any(|l| l.contains("reloaded live.lua at frame 70"))
    );
    drop(emu);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A script that `require`s a module of its folder: editing the module reloads the script.
#[test]
fn editing_a_required_module_reloads_the_script() {
    let dir = std::env::temp_dir().join(format!("gbhost-mod-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("words.lua"), "return { hello = 'one' }\n").unwrap();
    let main = dir.join("main.lua");
    std::fs::write(
        &main,
        "local w = require('words')\nevent.on_frame_end(function() gui.text(0, 0, w.hello) end)\n",
    )
    .unwrap();
    let emu = spawn(Start {
        rom: RomSource::Demo,
        scripts: vec![main.clone()],
        scripts2: Vec::new(),
        paused: true,
        ring_bytes: 8 << 20,
        audio: false,
        stop: None,
        power: Default::default(),
        correction: Default::default(),
        link: None,
    })
    .unwrap();
    emu.repl("step 2");
    emu.sync();
    assert!(
        texts(&emu.view()).contains(&"one".to_owned()),
        "{:?}",
        emu.view().console
    );
    std::fs::write(dir.join("words.lua"), "return { hello = 'two' }\n").unwrap();
    let t0 = Instant::now();
    while !texts(&emu.view()).contains(&"two".to_owned()) {
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "{:?}",
            texts(&emu.view())
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    eprintln!(
        "live reload: a module's edit is on screen {:?} after the save",
        t0.elapsed()
    );
    drop(emu);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The TAS workflow: record from power-on, rewind and step (a rerecord), undo it, play the
/// restored movie read-only to its end (pause), and play it again from the start.
#[test]
fn a_movie_records_rerecords_undoes_and_plays_back() {
    let dir = std::env::temp_dir().join(format!("gbhost-tas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let movie = dir.join("run.gbm");
    let emu = spawn(demo_start()).unwrap();
    let r = emu.repl(&format!("movie record {}", movie.display()));
    assert!(r.contains("from power-on"), "{r}");
    emu.send(Cmd::Buttons(Buttons::RIGHT));
    emu.repl("step 100");
    emu.send(Cmd::Buttons(Buttons::default()));
    emu.repl("step 100");
    emu.sync();
    let recorded = emu.view().screen.picture.clone();
    let m = emu.view().movie.clone().unwrap();
    assert_eq!((m.length, m.rerecords, m.read_only), (200, 0, false));
    // Back 50 frames and new input: the movie's future is cut (a rerecord).
    emu.repl("rewind 50");
    emu.send(Cmd::Buttons(Buttons::LEFT));
    emu.repl("step 10");
    emu.sync();
    let m = emu.view().movie.clone().unwrap();
    assert_eq!((m.length, m.rerecords, m.can_undo), (160, 1, true));
    // Undo: the old future is back and plays read-only from the cut.
    let r = emu.repl("movie undo");
    assert!(r.contains("ends at frame 200"), "{r}");
    emu.sync();
    let v = emu.view().clone();
    let m = v.movie.clone().unwrap();
    assert_eq!((m.length, m.rerecords, m.read_only), (200, 0, true));
    assert_eq!(v.timeline.frame, 150);
    // Playing past the end pauses on the last frame.
    emu.repl("step 80");
    emu.sync();
    let v = emu.view().clone();
    assert_eq!(v.timeline.frame, 200);
    assert!(v.movie.as_ref().unwrap().ended && v.pacing.paused);
    assert_eq!(
        v.screen.picture, recorded,
        "the restored future is the recorded one"
    );
    assert!(
        v.console
            .lines
            .iter()
            .any(|l| l.contains("movie ended at frame 200"))
    );
    // From the file, in the same app: the same picture at its end, no desync.
    emu.repl("movie stop");
    let r = emu.repl(&format!("movie play {}", movie.display()));
    assert!(r.contains("200 frames"), "{r}");
    emu.repl("step 200");
    emu.sync();
    let v = emu.view().clone();
    assert_eq!(v.timeline.frame, 200);
    assert_eq!(v.screen.picture, recorded);
    assert_eq!(v.movie.as_ref().unwrap().desync, None);
    // Read-write from frame 120: a rerecord in the file.
    emu.repl("seek 120");
    let r = emu.repl("movie rw");
    assert!(r.contains("read-write at frame 120 (1 rerecords)"), "{r}");
    emu.repl("movie stop");
    let r = emu.repl("movie info");
    assert_eq!(r, "no movie");
    drop(emu);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Numbered state slots are files per ROM; this session's own states restore scripts
/// exactly, and while a movie runs only states of its timeline load.
#[test]
fn state_slots_are_files_and_respect_the_movie_timeline() {
    let dir = std::env::temp_dir().join(format!("gbhost-slots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let slot_file = |emu: &Emu| {
        gb_session::state::file::slot_path(&dir, emu.session.start_params().rom_hash, 3)
    };
    let start = demo_start();
    let mut emu = Emu::new(&start, Arc::new(Mutex::new(View::default()))).unwrap();
    let path = slot_file(&emu);
    let p = StateTarget::File(path.clone());
    for f in 0..30 {
        if f == 10 {
            // This timeline differs from a fresh power-on's.
            emu.session.poke(0xC123, 0x42);
        }
        emu.live_frame();
    }
    let saved = emu.state_save(&p).unwrap();
    assert!(saved.contains("saved frame 30"), "{saved}");
    for _ in 0..30 {
        emu.live_frame();
    }
    let r = emu.state_load(&p).unwrap();
    assert!(r.contains("scripts restored exactly"), "{r}");
    assert_eq!(
        emu.session.frame(),
        61,
        "a load is an event: the timeline goes on"
    );
    // A movie recorded from power-on: the saved state is not on its timeline.
    let movie = dir.join("m.gbm");
    emu.movie_record(&movie, true).unwrap();
    for _ in 0..40 {
        emu.live_frame();
    }
    let e = emu.state_load(&p).unwrap_err().to_string();
    assert!(e.contains("not on the movie's timeline"), "{e}");
    assert_eq!(emu.session.frame(), 40, "a refused load moves nothing");
    // A state of this timeline moves there.
    let q = StateTarget::File(dir.join("here.gbs"));
    emu.seek(30).unwrap();
    let at30 = emu.session.picture().clone();
    emu.state_save(&q).unwrap();
    emu.seek(40).unwrap();
    let r = emu.state_load(&q).unwrap();
    assert!(r.contains("moved to frame 30"), "{r}");
    assert_eq!(emu.session.frame(), 30);
    assert_eq!(emu.session.picture(), &at30);
    let _ = emu.movie_stop();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Recording from the current frame: the movie starts from a state there, and plays back
/// to the same picture in the same app.
#[test]
fn a_movie_recorded_from_here_plays_back() {
    let dir = std::env::temp_dir().join(format!("gbhost-here-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let movie = dir.join("here.gbm");
    let emu = spawn(demo_start()).unwrap();
    emu.repl("poke C0F0 5A");
    emu.repl("step 50");
    let r = emu.repl(&format!("movie record {} --here", movie.display()));
    assert!(r.contains("from frame 50"), "{r}");
    let r = emu.repl(&format!("movie record {} --here", movie.display()));
    assert!(r.contains("exists"), "never overwritten: {r}");
    emu.send(Cmd::Buttons(Buttons::START));
    emu.repl("step 40");
    emu.send(Cmd::Buttons(Buttons::default()));
    emu.repl("step 40");
    emu.sync();
    let recorded = emu.view().screen.picture.clone();
    let r = emu.repl("movie stop");
    assert!(
        r.contains("recorded 80 frames") && r.contains("compacted"),
        "{r}"
    );
    emu.repl(&format!("movie play {}", movie.display()));
    emu.sync();
    assert_eq!(emu.view().timeline.frame, 50);
    emu.repl("step 100");
    emu.sync();
    let v = emu.view().clone();
    assert_eq!(v.timeline.frame, 130);
    assert_eq!(v.screen.picture, recorded);
    let m = v.movie.unwrap();
    assert!(m.ended && m.desync.is_none(), "{m:?}");
    drop(emu);
    let _ = std::fs::remove_dir_all(&dir);
}

/// BESS files from the console: export, change the machine, import: memory comes back,
/// the scripts keep running, and a corrupt file is refused with nothing changed.
#[test]
fn bess_files_export_and_import_from_the_console() {
    let dir = std::env::temp_dir().join(format!("gbhost-bess-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("s.bess");
    let start = demo_start();
    let mut emu = Emu::new(&start, Arc::new(Mutex::new(View::default()))).unwrap();
    emu.session.poke(0xC0F0, 0x11);
    for _ in 0..20 {
        emu.live_frame();
    }
    let r = emu.apply_line(&format!("state export-bess {}", file.display()));
    assert!(r.contains("wrote"), "{r}");
    emu.session.poke(0xC0F0, 0x22);
    emu.live_frame();
    assert_eq!(emu.session.gb().peek(0xC0F0), 0x22);
    let r = emu.apply_line(&format!("state import-bess {}", file.display()));
    assert!(r.contains("loaded"), "{r}");
    assert_eq!(emu.session.gb().peek(0xC0F0), 0x11);
    assert!(
        emu.session.scripts().any(|s| s.active),
        "the demo overlay still runs"
    );
    let mut bad = std::fs::read(&file).unwrap();
    let n = bad.len();
    bad.truncate(n - 3);
    std::fs::write(&file, bad).unwrap();
    let before = emu.session.frame();
    let r = emu.apply_line(&format!("state import-bess {}", file.display()));
    assert!(r.contains("cannot be loaded"), "{r}");
    assert_eq!(emu.session.frame(), before);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A cartridge type gbhost does not emulate is refused with a line that says how to run it
/// anyway; the Model menu's switch (`Cmd::SetForce`) runs it with a stand-in mapper.
#[test]
fn unsupported_cartridges_open_only_when_forced() {
    let dir = std::env::temp_dir().join(format!("gbhost-force-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rom = dir.join("camera.gb");
    let bytes = gb_core::asm::RomBuilder::new()
        .title("CAMERA")
        .cartridge_type(0xFC)
        .program("loop:\n halt\n nop\n jr loop\n")
        .build()
        .unwrap();
    std::fs::write(&rom, &bytes).unwrap();
    let mut emu = Emu::new(&demo_start(), Arc::new(Mutex::new(View::default()))).unwrap();
    let err = format!("{:#}", emu.open(&RomSource::File(rom.clone())).unwrap_err());
    assert!(
        err.contains("unsupported cartridge type 0xFC (Pocket Camera); --force"),
        "{err}"
    );
    assert_eq!(emu.game.title, "gbhost demo", "the running game is kept");
    emu.handle(Cmd::SetForce(true));
    emu.open(&RomSource::File(rom.clone())).unwrap();
    emu.live_frame();
    assert!(
        emu.console
            .lines
            .iter()
            .any(|l| l.contains("(Pocket Camera) is not emulated; forced to run as MBC5")),
        "{:?}",
        emu.console.lines
    );
    emu.save_battery();
    drop(emu);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A BizHawk script edits the TAS editor's roll through `tastudio.*`: its requests after a
/// live frame reach `Editor::apply`; re-emulation after the edit does not ask again.
#[test]
fn tastudio_requests_reach_the_editor() {
    let dir = std::env::temp_dir().join(format!("gbhost-tastudio-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("tas.lua");
    std::fs::write(
        &script,
        r#"
        asked = 0
        event.onframeend(function()
          if asked == 0 and tastudio.engaged() then
            asked = asked + 1
            tastudio.submitinputchange(20, "P1 A", true)
            tastudio.applyinputchanges()
            tastudio.setmarker(25, "from lua")
            console.log("tas sees " .. tastudio.getmarker(10))
            console.log("selected " .. table.concat(tastudio.getselection(), ","))
          end
        end)
        "#,
    )
    .unwrap();
    let start = Start {
        scripts: vec![script],
        scripts2: Vec::new(),
        ..demo_start()
    };
    let mut emu = Emu::new(&start, Arc::new(Mutex::new(View::default()))).unwrap();
    emu.apply_line("step 30");
    assert!(emu.apply_line("movie edit").contains("30 frames"));
    emu.apply_line("movie marker 10 hello");
    // The piano roll's selection, as the window sends it.
    emu.handle(Cmd::RollSelection(Some((12, 14))));
    emu.apply_line("step 1");
    let ed = &emu.editor.as_ref().expect("open").ed;
    assert!(ed.input(20).contains(Buttons::A), "painted by the script");
    assert_eq!(ed.marker(25).map(|m| m.text.as_str()), Some("from lua"));
    assert!(
        emu.console
            .lines
            .iter()
            .any(|l| l.contains("tas sees hello")),
        "{:?}",
        emu.console.lines
    );
    assert!(
        emu.console
            .lines
            .iter()
            .any(|l| l.contains("selected 12,13,14")),
        "{:?}",
        emu.console.lines
    );
    // Re-emulation from frame 20 back to 31: the script runs those frames again, but its
    // requests then are replays and are not carried out twice.
    while emu.editor_pending() {
        emu.editor_pump();
    }
    assert_eq!(emu.session.frame(), 31);
    let ed = &emu.editor.as_ref().expect("open").ed;
    assert_eq!(ed.valid_end(), 31);
    assert_eq!(ed.roll().len(), 31);
    assert_eq!(ed.markers().count(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The window's view of the TAS editor shares its big parts: publishing again without a change
/// hands out the same `Arc`s; an edit rebuilds them.
#[test]
fn the_editor_view_is_rebuilt_only_on_changes() {
    let mut emu = Emu::new(&demo_start(), Arc::new(Mutex::new(View::default()))).unwrap();
    emu.apply_line("step 40");
    emu.apply_line("movie edit");
    let a = emu.editor_view().expect("open");
    let b = emu.editor_view().expect("open");
    assert!(Arc::ptr_eq(&a.frames, &b.frames) && Arc::ptr_eq(&a.lag, &b.lag));
    assert_eq!(a.version, b.version);
    emu.apply_line("movie set 5 A");
    let c = emu.editor_view().expect("open");
    assert!(!Arc::ptr_eq(&a.frames, &c.frames) && c.version > a.version);
    assert!(c.input(5).contains(Buttons::A));
    assert!(Arc::ptr_eq(&a.branches, &c.branches), "no branch changed");
    // Playing through the roll changes the cursor and lag, not the input: shared still.
    while emu.editor_pending() {
        emu.editor_pump();
    }
    let d = emu.editor_view().expect("open");
    emu.apply_line("movie goto 20");
    emu.apply_line("step 3");
    let e = emu.editor_view().expect("open");
    assert!(e.version > d.version && Arc::ptr_eq(&d.frames, &e.frames));
    assert!(Arc::ptr_eq(&d.markers, &e.markers));
}

/// A ghost of a branch races the edited run: after an edit the two machines differ from the
/// edited frame on, which the editor's view marks; with the same input again they agree.
#[test]
fn a_ghost_branch_marks_where_the_runs_part() {
    let mut emu = Emu::new(&demo_start(), Arc::new(Mutex::new(View::default()))).unwrap();
    emu.apply_line("step 120");
    emu.apply_line("movie edit");
    emu.apply_line("movie branch save plain");
    // A held over 40-60 stops the demo's scrolling: work RAM differs from frame 40 on.
    emu.apply_line("movie paint 40 60 A on");
    emu.apply_line("movie goto 120");
    let out = emu.apply_line("movie ghost branch 0");
    assert!(out.contains("races the edited run"), "{out}");
    // Run on past the edit, live, so both machines are fingerprinted frame by frame.
    emu.apply_line("movie goto 20");
    for _ in 0..100 {
        emu.editor_step();
    }
    let view = emu.editor_view().expect("view");
    let ghost = view.ghost.expect("ghost");
    let (frame, ram, _) = ghost.divergence.expect("the runs part");
    assert!((40..=41).contains(&frame), "{frame}");
    assert!(ram);
    assert!(ghost.compared_to >= 120);
    assert_eq!(ghost.picture.len(), gb_core::screen::GAME.pixels() * 3);
    // The same input as the branch again: no difference once run again.
    emu.apply_line("movie undo");
    emu.apply_line("movie goto 20");
    for _ in 0..100 {
        emu.editor_step();
    }
    let ghost = emu.editor_view().expect("view").ghost.expect("ghost");
    assert_eq!(ghost.divergence, None, "{ghost:?}");
    assert!(emu.apply_line("movie ghost off").contains("off"));
    assert!(emu.editor_view().expect("view").ghost.is_none());
}

/// The cheat and watch lists are kept per ROM and come back when it opens; a BizHawk `.wch`
/// file goes in and out; a movie recorded from the current frame records the cheats on, and
/// plays them back whatever the list says.
#[test]
fn tool_lists_are_kept_per_rom_and_movies_record_the_cheats() {
    let dir = std::env::temp_dir().join(format!("gbhost-tool-lists-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut emu = Emu::new(&demo_start(), Arc::new(Mutex::new(View::default()))).unwrap();
    emu.tools.dir = Some(dir.join("roms"));
    emu.apply_line("step 10");
    let r = emu.apply_line("cheat add 0142A0C1 the answer");
    assert!(r.contains("cheat 0142A0C1 on (C1A0 = 42 each frame"), "{r}");
    emu.apply_line("step 2");
    assert_eq!(emu.session.gb().peek(0xC1A0), 0x42);
    let r = emu.apply_line("cheat add 00A-17");
    assert!(
        r.starts_with("error:") && r.contains("not a cheat code"),
        "{r}"
    );
    // A watch list from BizHawk (GBHawk's domain names), and back out.
    let wch = dir.join("from bizhawk.wch");
    std::fs::write(
        &wch,
        "SystemID GB\n01A0\tb\th\t0\tMain RAM\tanswer\n0000\tS\t_\t0\t\t\n0010\tw\tu\t0\tHRAM\ttimer\n",
    )
    .unwrap();
    let r = emu.apply_line(&format!("ramwatch import \"{}\"", wch.display()));
    assert!(
        r.starts_with("imported 2 watch(es)") && r.contains("separator"),
        "{r}"
    );
    let r = emu.apply_line("ramwatch list");
    assert!(
        r.contains("C1A0") && r.contains("0x42") && r.contains("answer"),
        "{r}"
    );
    let out = dir.join("out.wch");
    emu.apply_line(&format!("ramwatch export {}", out.display()));
    let back =
        gb_session::tools::watchlist::parse_wch(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(back.watches, emu.tools.watches);
    // A movie from this frame records the code that is on.
    let movie = dir.join("cheat.gbm");
    let r = emu.apply_line(&format!("movie record {} --here", movie.display()));
    assert!(r.starts_with("recording"), "{r}");
    assert_eq!(emu.session.cheats(), ["0142A0C1".to_owned()]);
    emu.apply_line("step 20");
    emu.apply_line("movie stop");
    // Opening the ROM again brings both lists back, the code on.
    emu.open(&RomSource::Demo).unwrap();
    assert_eq!(emu.tools.watches.len(), 2);
    assert_eq!(emu.tools.cheats[0].name, "the answer");
    assert_eq!(emu.session.cheats(), ["0142A0C1".to_owned()]);
    // Off in the list; the movie still plays with it.
    emu.apply_line("cheat off 0142A0C1");
    let r = emu.apply_line(&format!("movie play {}", movie.display()));
    assert!(!r.starts_with("error"), "{r}");
    emu.apply_line("step 20");
    assert_eq!(emu.session.cheats(), ["0142A0C1".to_owned()]);
    assert_eq!(emu.session.gb().peek(0xC1A0), 0x42);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `gbhost run --link-demo --script2 FILE`: the script runs on player 2 and draws on player
/// 2's screen; on a single Game Boy the start fails with the reason.
#[test]
fn a_start_script_on_player_2_draws_on_player_2s_screen() {
    let dir = std::env::temp_dir().join(format!("gbhost-script2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("p2.lua");
    std::fs::write(
        &path,
        "event.onframeend(function() gui.text(0, 0, 'player ' .. emu.player()) end)\n",
    )
    .unwrap();
    let start = Start {
        rom: RomSource::LinkDemo,
        link: Some(RomSource::LinkDemo),
        scripts2: vec![path.clone()],
        ..demo_start()
    };
    let emu = spawn(start).unwrap();
    emu.repl("step 3");
    emu.sync();
    let view = emu.view();
    assert!(texts(&view).is_empty(), "nothing on player 1's screen");
    let second = view.screen.second.as_ref().expect("two screens");
    assert!(
        format!("{:?}", second.overlays).contains("player 2"),
        "{:?}",
        second.overlays
    );
    let err = spawn(Start {
        scripts2: vec![path],
        ..demo_start()
    })
    .err()
    .map(|e| format!("{e:#}"));
    assert!(
        err.as_deref().is_some_and(|e| e.contains("no player 2")),
        "{err:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A linked pair's second player keeps its own battery save: two copies of one ROM file
/// save to `game.sav` and `game.p2.sav`, each loaded again on the next open; a second ROM
/// file saves beside itself.
#[test]
fn each_player_of_a_pair_keeps_its_battery_save() {
    let dir = std::env::temp_dir().join(format!("gbhost-pair-sav-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // MBC1 + RAM + battery: enable the RAM, count one power-on in $A000.
    let bytes = |title: &str| {
        gb_core::asm::RomBuilder::new()
            .title(title)
            .cartridge_type(0x03)
            .ram_size_code(0x02)
            .program(
                "ld a, $0A\n ld [$0000], a\n ld hl, $A000\n inc [hl]\n\
                 loop:\n halt\n nop\n jr loop\n",
            )
            .build()
            .unwrap()
    };
    let rom = dir.join("game.gb");
    std::fs::write(&rom, bytes("SAVER")).unwrap();
    // Player 1's save holds 40 power-ons; player 2 has none yet.
    let mut sav = vec![0u8; 8 * 1024];
    sav[0] = 40;
    std::fs::write(dir.join("game.sav"), &sav).unwrap();
    let start = Start {
        rom: RomSource::File(rom.clone()),
        link: Some(RomSource::File(rom.clone())),
        ..demo_start()
    };
    let count = |emu: &Emu, p: usize| {
        emu.session
            .machine()
            .player(p)
            .unwrap()
            .domain(Domain::CartRam)[0]
    };
    let mut emu = Emu::new(&start, Arc::new(Mutex::new(View::default()))).unwrap();
    for _ in 0..3 {
        emu.live_frame();
    }
    assert_eq!(count(&emu, 0), 41);
    let p2_start = count(&emu, 1);
    emu.save_battery();
    assert_eq!(std::fs::read(dir.join("game.sav")).unwrap()[0], 41);
    let p2 = dir.join("game.p2.sav");
    assert_eq!(
        std::fs::read(&p2).unwrap()[0],
        p2_start,
        "player 2's own file"
    );
    // A reset opens both again: each powers on with its own save, and counts once more.
    emu.restart().unwrap();
    for _ in 0..3 {
        emu.live_frame();
    }
    assert_eq!(count(&emu, 0), 42);
    assert_eq!(count(&emu, 1), p2_start.wrapping_add(1));
    assert!(
        emu.console
            .lines
            .iter()
            .any(|l| l.contains("player 2's battery: loaded") && l.contains("game.p2.sav")),
        "{:?}",
        emu.console.lines
    );
    emu.save_battery();
    drop(emu);

    // Another ROM file for player 2: its save beside it.
    let other = dir.join("other.gb");
    std::fs::write(&other, bytes("OTHER")).unwrap();
    let start = Start {
        link: Some(RomSource::File(other.clone())),
        ..start
    };
    let mut emu = Emu::new(&start, Arc::new(Mutex::new(View::default()))).unwrap();
    emu.live_frame();
    emu.save_battery();
    assert!(dir.join("other.sav").exists());
    assert_eq!(std::fs::read(dir.join("game.sav")).unwrap()[0], 43);
    drop(emu);
    let _ = std::fs::remove_dir_all(&dir);
}
