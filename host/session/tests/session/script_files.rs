//! Files and time for scripts: `io` on the files of the script's own folder (reads logged and
//! checked on replays, writes made once), the sandbox around that folder, and `os.time`,
//! `os.date` and `os.clock` on the logged start time and emulated time.

use std::path::{Path, PathBuf};

use gb_session::{Bundle, Flavor, Session};

use crate::common::{console, session};

/// A fresh folder for one test's script.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gbhost-files-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("script/data")).expect("folder");
    dir
}

fn load(s: &mut Session, dir: &Path, source: &str) -> u32 {
    s.load_bundle_in(
        "files.lua",
        Bundle::new(source),
        Flavor::Native,
        &dir.join("script"),
    )
}

/// Run `frames` frames, each followed by a replay of the last 8 compared byte for byte.
fn run_synced(s: &mut Session, frames: u64) -> Vec<String> {
    let mut lines = Vec::new();
    let mut mismatches = 0;
    for _ in 0..frames {
        s.run_frame();
        lines.extend(console(s));
        if s.frame() > 8 {
            mismatches += s.verify_replay(s.frame() - 8).expect("replay");
        }
    }
    lines.extend(console(s));
    assert_eq!(mismatches, 0, "frames that replayed differently: {lines:?}");
    lines
}

#[test]
fn files_beside_the_script_are_read_and_written_once_and_replays_match() {
    let dir = folder("rw");
    std::fs::write(dir.join("script/data/route.txt"), "gold=42\nname=Tobu\n").unwrap();
    let mut s = session();
    load(
        &mut s,
        &dir,
        r#"
        local cfg = {}
        for line in io.lines("data/route.txt") do
          local k, v = line:match("^(%w+)=(.*)$")
          cfg[k] = v
        end
        print("gold " .. cfg.gold .. " name " .. cfg.name)
        local out = assert(io.open("splits.log", "w"))
        out:write("run start\n")
        out:close()
        while true do
          if emu.framecount() % 25 == 0 then
            local f = assert(io.open("splits.log", "a"))
            f:write(string.format("frame %d gold %s\n", emu.framecount(), cfg.gold))
            f:close()
            -- Read back what was written: a read like any other, logged and checked.
            local all = io.open("splits.log"):read("a")
            gui.text(0, 0, #all)
          end
          emu.frameadvance()
        end
        "#,
    );
    let lines = run_synced(&mut s, 120);
    assert_eq!(lines[0], "gold 42 name Tobu", "{lines:?}");
    assert!(
        !lines.iter().any(|l| l.contains("replay:")),
        "replays read the same bytes: {lines:?}"
    );
    // Each line once, though every frame was replayed: replays make no writes.
    let log = std::fs::read_to_string(dir.join("script/splits.log")).unwrap();
    assert_eq!(
        log,
        "run start\nframe 0 gold 42\nframe 25 gold 42\nframe 50 gold 42\nframe 75 gold 42\nframe 100 gold 42\n"
    );
    // The reads are in the log, so in state files and movies.
    let reads = s
        .log()
        .events()
        .iter()
        .filter(|e| matches!(e.kind, gb_session::EventKind::FileRead { .. }))
        .count();
    assert_eq!(reads, 6, "one read of the route and five of the log");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_changed_behind_a_replay_is_reported() {
    let dir = folder("changed");
    let path = dir.join("script/data/level.txt");
    std::fs::write(&path, "1").unwrap();
    let mut s = session();
    load(
        &mut s,
        &dir,
        r#"while true do
             level = io.open("data/level.txt"):read("n")
             emu.frameadvance()
           end"#,
    );
    for _ in 0..20 {
        s.run_frame();
    }
    console(&mut s);
    std::fs::write(&path, "2").unwrap();
    s.verify_replay(10).expect("replay");
    let lines = console(&mut s).join("\n");
    assert!(
        lines.contains(
            "replay: io read data/level.txt and found different bytes from the run it replays"
        ),
        "{lines}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn files_outside_the_folder_are_refused_with_a_clear_message() {
    let dir = folder("sandbox");
    std::fs::write(dir.join("secret.txt"), "secret").unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.join("secret.txt"), dir.join("script/link.txt")).unwrap();
        std::os::unix::fs::symlink(&dir, dir.join("script/up")).unwrap();
    }
    let mut s = session();
    load(
        &mut s,
        &dir,
        r#"
        local function try(what, f, ...)
          local ok, a, b = pcall(f, ...)
          print(what .. ": " .. tostring(ok and (a == nil and b or a) or a))
        end
        try("parent", io.open, "../secret.txt")
        try("absolute", io.open, "/etc/passwd")
        try("traversal", io.open, "data/../../secret.txt")
        try("write parent", io.open, "../new.txt", "w")
        try("link", io.open, "link.txt")
        try("link folder", io.open, "up/secret.txt")
        try("lines", io.lines, "../secret.txt")
        try("execute", os.execute, "true")
        try("remove", os.remove, "data")
        try("loadlib", package.loadlib, "libc.so.6", "system")
        try("sethook", debug.sethook)
        try("getupvalue", debug.getupvalue, print, 1)
        try("dofile", dofile, "../secret.txt")
        print("probe " .. tostring(debug.getmetatable))
        while true do gui.text(0, 0, "alive") emu.frameadvance() end
        "#,
    );
    for _ in 0..3 {
        s.run_frame();
    }
    let lines = console(&mut s);
    let expect = [
        "parent: ../secret.txt: a path out of the folder",
        "absolute: /etc/passwd: an absolute path",
        "traversal: data/../../secret.txt: a path out of the folder",
        "write parent: ../new.txt: a path out of the folder",
        "link: link.txt: a link out of the folder",
        "link folder: up/secret.txt: a link out of the folder",
        "lines: ../secret.txt: a path out of the folder",
        "execute: os.execute is not available: gbhost scripts run in a sandbox",
        "remove: os.remove is not available",
        "loadlib: package.loadlib is not available",
        "sethook: debug.sethook is not available",
        "getupvalue: debug.getupvalue is not available",
        "dofile: cannot open ../secret.txt",
        "probe nil",
    ];
    for (line, want) in lines.iter().zip(expect) {
        assert!(line.contains(want), "{line:?} should say {want:?}");
    }
    assert_eq!(lines.len(), expect.len(), "{lines:?}");
    assert!(!dir.join("new.txt").exists());
    assert_eq!(s.gb().peek(0xC000), 3, "the game kept running");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn time_runs_on_the_logged_clock_and_emulated_time() {
    let mut s = session();
    s.log_clock(1_700_000_000);
    s.load_script(
        "time.lua",
        r#"
        local t0 = os.time()
        print(os.date("!%Y-%m-%d %H:%M:%S %A %j", t0))
        print(os.time({ year = 2000, month = 2, day = 29, hour = 0 }))
        print(os.date("%c", 0))
        local d = os.date("*t", 951782400)
        print(d.year, d.month, d.day, d.wday, d.yday)
        while true do
          if emu.framecount() == 600 then
            print("after 600 frames: " .. (os.time() - t0) .. " s, clock " ..
              string.format("%.2f", os.clock()))
          end
          emu.frameadvance()
        end
        "#,
    );
    let lines = run_synced(&mut s, 610);
    assert_eq!(
        lines,
        [
            "2023-11-14 22:13:20 Tuesday 318",
            "951782400",
            "Thu Jan  1 00:00:00 1970",
            "2000\t2\t29\t3\t60",
            "after 600 frames: 10 s, clock 10.04",
        ]
    );
    // The start time is an event of the log: a state file or movie carries it.
    assert!(s.log().events().iter().any(|e| e.kind
        == gb_session::EventKind::Clock {
            unix: 1_700_000_000
        }));
}

#[test]
fn a_movie_of_a_script_reading_files_plays_back_with_the_same_bytes() {
    use gb_session::movie::{Movie, Tas, play};
    let dir = folder("movie");
    std::fs::write(dir.join("script/data/level.txt"), "7").unwrap();
    let mut s = session();
    s.log_clock(1_600_000_000);
    let movie_path = dir.join("run.gbm");
    let mut tas = Tas::record(&movie_path, &mut s).expect("record");
    load(
        &mut s,
        &dir,
        r#"while true do
             local n = io.open("data/level.txt"):read("n")
             memory.write_u8(0xC100, n + os.time() % 7)
             emu.frameadvance()
           end"#,
    );
    for _ in 0..40 {
        tas.before_frame(&mut s).expect("before");
        s.run_frame();
        tas.after_frame(&mut s).expect("after");
    }
    let recorded = s.gb().peek(0xC100);
    tas.stop().expect("stop");
    let movie = Movie::open(&movie_path).expect("open");
    let config = |folder: Option<PathBuf>| gb_session::SessionConfig {
        script_folder: folder,
        ..gb_session::SessionConfig::default()
    };
    let rom = crate::common::counter_rom();
    // Played back with the script's folder: the same bytes, the same clock, no desync.
    let (report, mut played) = play(
        &movie,
        rom.clone(),
        config(Some(dir.join("script"))),
        |_, _| {},
    )
    .expect("play");
    assert!(report.desync.is_none());
    assert_eq!(played.gb().peek(0xC100), recorded);
    let lines = console(&mut played);
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("replay:") || l.contains("error")),
        "{lines:?}"
    );
    // The file changed since: playback says so.
    std::fs::write(dir.join("script/data/level.txt"), "8").unwrap();
    let (_, mut changed) =
        play(&movie, rom, config(Some(dir.join("script"))), |_, _| {}).expect("play");
    let lines = console(&mut changed).join("\n");
    assert!(
        lines.contains("found different bytes from the run it replays"),
        "{lines}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_script_keeps_its_own_data_folder() {
    let dir = folder("data");
    let config = gb_session::SessionConfig {
        script_data: Some(dir.join("script-data")),
        desync_check: true,
        ..gb_session::SessionConfig::default()
    };
    let mut s = Session::new(crate::common::counter_rom(), None, config).expect("session");
    s.load_bundle_in(
        "best times.lua",
        Bundle::new(
            r#"
            local f = assert(io.open("data:best.txt", "w"))
            f:write("41.5")
            f:close()
            print(io.open("data:best.txt"):read("n"))
            print(select(2, io.open("data:../escape.txt", "w")))
            print(select(2, io.open("data:/etc/passwd")))
            "#,
        ),
        Flavor::Native,
        &dir.join("script"),
    );
    let lines = run_synced(&mut s, 12);
    assert_eq!(lines[0], "41.5");
    assert!(
        lines[1].contains("data:../escape.txt: a path out of the folder"),
        "{lines:?}"
    );
    assert!(lines[2].contains("an absolute path"), "{lines:?}");
    assert_eq!(
        std::fs::read_to_string(dir.join("script-data/best_times/best.txt")).unwrap(),
        "41.5"
    );
    assert!(!dir.join("script-data/escape.txt").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_session_from_a_state_file_keeps_the_logged_start_time() {
    let mut s = session();
    s.log_clock(1_700_000_000);
    s.load_script(
        "t.lua",
        "while true do gui.text(0, 0, os.date('!%Y', os.time())) emu.frameadvance() end",
    );
    for _ in 0..3 {
        s.run_frame();
    }
    let file = s.state_file(0, false);
    let mut again = Session::from_state_file(
        crate::common::counter_rom(),
        None,
        gb_session::SessionConfig::default(),
        &file,
    )
    .expect("from state");
    again.run_frame();
    assert_eq!(crate::common::texts(&again), ["2023"]);
}
