//! The desktop app's command line through the real binary: no display, the REPL driven by piped
//! input and by `tmux send-keys` (a real terminal), and battery saves that survive `kill -9`.

use gb_core::asm::RomBuilder;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_gbhost")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("app")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `gbhost` with a private config file, fed `input` on stdin.
fn gbhost_with_input(args: &[&str], input: &str, config_dir: &Path) -> Output {
    let mut child = Command::new(bin())
        .env("GBHOST_STATE_KEY", crate::common::state_key())
        .args(args)
        .env("GBHOST_CONFIG", config_dir.join("config.toml"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gbhost");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("wait for gbhost")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn no_display_is_one_line_and_exit_2() {
    let dir = temp_dir("nodisplay");
    let out = Command::new(bin())
        .env("GBHOST_STATE_KEY", crate::common::state_key())
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env("GBHOST_CONFIG", dir.join("config.toml"))
        .output()
        .expect("run gbhost");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(
        err.contains("no display") && err.contains("gbhost headless"),
        "{err}"
    );
    assert!(!err.contains("panicked"));
}

#[test]
fn piped_repl_on_the_demo() {
    let dir = temp_dir("repl");
    let input = "help\npeek c000 2\npoke c100 42 43\nstep\npeek c100 2\nmemory.read_u8(0xC100) + 1\nstep 120\nframe\nrewind 60\nframe\nwatch c000\nstep 3\nregs\nbogus_fn()\npeek zz\n";
    let out = gbhost_with_input(&["run", "--repl", "--no-window", "--paused"], input, &dir);
    let o = text(&out.stdout);
    let e = text(&out.stderr);
    assert!(out.status.success(), "stdout: {o}\nstderr: {e}");
    assert!(o.contains("peek ADDR [N]"), "help: {o}");
    assert!(o.contains("C100: 42 43"), "poke then peek: {o}");
    assert!(o.contains("67"), "Lua expression: {o}");
    assert!(o.contains("frame 121"), "step 120: {o}");
    assert!(o.contains("at frame 61"), "rewind 60: {o}");
    assert!(o.contains("watching [C000]"), "{o}");
    assert!(o.contains("watch [C000]"), "a watch hit: {o}");
    assert!(o.contains("PC") || o.contains("pc"), "regs: {o}");
    assert!(o.contains("error:"), "a Lua error is reported: {o}");
    assert!(o.contains("bad address 'zz'"), "{o}");
}

/// A battery cartridge (MBC1+RAM+BATTERY, 8 KiB): at power-on it counts boots at $A000 and
/// writes "GBH" at $A001, then counts frames at $A010.
/// The terminal REPL parses a line once, with quotes: a state path with a space writes that
/// file (not one named after its first word); the console's Lua has the scripts' API and its
/// writes are logged pokes.
#[test]
fn piped_repl_quoted_paths_and_console_lua() {
    let dir = temp_dir("repl-space");
    let sub = dir.join("dir with space");
    std::fs::create_dir_all(&sub).unwrap();
    let target = sub.join("a.gbs");
    let input = format!(
        "step 5\nstate save \"{}\"\nstate save {}/unquoted words.gbs\nmemory.write_u16_be(0xC200, 0x1234)\nstep\nmemory.read_u16_be(0xC200)\nemu.setregister('a', 1)\npoke 1:D010 AB CD\nstep\npeek 1:D010 2\npeek 2:D000\nwatch 0:8000\nmemory.write_u8(0x1FFF, 0x77, 'vram')\nstep\nmemory.read_u8(0x1FFF, 'vram')\n",
        target.display(),
        sub.display()
    );
    let out = gbhost_with_input(&["run", "--repl", "--no-window", "--paused"], &input, &dir);
    let o = text(&out.stdout);
    assert!(out.status.success(), "stdout: {o}");
    assert!(
        target.is_file(),
        "{} was not written: {o}",
        target.display()
    );
    assert!(o.contains("saved frame 5 to"), "{o}");
    assert!(
        o.contains("too many words"),
        "unquoted spaces are refused: {o}"
    );
    assert!(
        o.contains("4660 (0x1234)"),
        "a logged write, read back after a frame: {o}"
    );
    assert!(o.contains("not available in the console"), "{o}");
    assert!(
        o.contains("1:D010: AB CD"),
        "a banked poke, read back by bank: {o}"
    );
    assert!(
        o.contains("bank 2 of WRAM does not exist here (2 banks)"),
        "{o}"
    );
    assert!(o.contains("watching [0:8000]"), "{o}");
    assert!(
        o.contains("119 (0x77)"),
        "the console writes a flat domain as a logged poke: {o}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game with battery RAM that counts its boots at $A000 (fresh cartridge RAM reads $FF, so the
/// first boot counts 0 and the second 1) and frames at $A010.
fn battery_rom() -> Vec<u8> {
    RomBuilder::new()
        .title("BATTERY")
        .cartridge_type(0x03)
        .ram_size_code(0x02)
        .program(
            r#"
                ld a, $0A
                ld [$0000], a
                ld a, [$A000]
                inc a
                ld [$A000], a
                ld a, 'G'
                ld [$A001], a
                ld a, 'B'
                ld [$A002], a
                ld a, 'H'
                ld [$A003], a
            .loop:
                ldh a, [$44]
                cp 144
                jr nz, .loop
                ld a, [$A010]
                inc a
                ld [$A010], a
            .wait:
                ldh a, [$44]
                cp 144
                jr z, .wait
                jr .loop
            "#,
        )
        .build()
        .expect("assemble")
}

#[test]
fn battery_save_survives_kill_9_and_loads_again() {
    let dir = temp_dir("battery");
    let rom = dir.join("game.gb");
    std::fs::write(&rom, battery_rom()).unwrap();
    let sav = dir.join("game.sav");
    let rom_s = rom.to_str().unwrap();
    let mut child = Command::new(bin())
        .env("GBHOST_STATE_KEY", crate::common::state_key())
        .args(["run", rom_s, "--no-window"])
        .env("GBHOST_CONFIG", dir.join("config.toml"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run gbhost");
    // Periodic saves: wait for one with some frames counted.
    let t0 = Instant::now();
    let saved = loop {
        if let Ok(b) = std::fs::read(&sav)
            && b.len() == 0x2000
            && b[0x10] > 10
        {
            break b;
        }
        assert!(t0.elapsed() < Duration::from_secs(30), "no .sav written");
        std::thread::sleep(Duration::from_millis(100));
    };
    child.kill().expect("kill -9");
    let _ = child.wait();
    assert_eq!(&saved[..4], b"\x00GBH");
    let after = std::fs::read(&sav).expect(".sav still there");
    assert_eq!(after.len(), 0x2000, "whole file after kill -9");
    assert_eq!(&after[..4], b"\x00GBH");
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
        .collect();
    assert!(
        leftovers.is_empty() || leftovers.len() == 1,
        "at most one temp file from the killed write"
    );
    // Start again: the game finds its RAM (second boot).
    let out = gbhost_with_input(
        &["run", rom_s, "--repl", "--no-window", "--paused"],
        "step 2\npeek a000 4\nquit\n",
        &dir,
    );
    let o = text(&out.stdout);
    let e = text(&out.stderr);
    assert!(o.contains("A000: 01 47 42 48"), "stdout: {o}\nstderr: {e}");
    // The clean exit saved the second boot.
    assert_eq!(std::fs::read(&sav).unwrap()[0], 1);
}

#[test]
fn corrupt_battery_save_is_kept_aside() {
    let dir = temp_dir("corrupt");
    let rom = dir.join("game.gb");
    std::fs::write(&rom, battery_rom()).unwrap();
    std::fs::write(dir.join("game.sav"), b"not a save").unwrap();
    let out = gbhost_with_input(
        &[
            "run",
            rom.to_str().unwrap(),
            "--repl",
            "--no-window",
            "--paused",
        ],
        "step 2\nquit\n",
        &dir,
    );
    let o = text(&out.stdout);
    assert!(o.contains("is corrupt"), "{o}");
    let aside: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("game.sav.corrupt-")
        })
        .collect();
    assert_eq!(aside.len(), 1);
    assert_eq!(std::fs::read(aside[0].path()).unwrap(), b"not a save");
    // The new save is the game's own.
    assert_eq!(
        &std::fs::read(dir.join("game.sav")).unwrap()[..4],
        b"\x00GBH"
    );
}

/// A program in a real terminal: `tmux send-keys` types, `tmux capture-pane` reads the
/// screen; the session is killed when dropped.
struct Tmux {
    session: String,
}

impl Tmux {
    /// Start `cmd` in a new 150 × 50 tmux session, or `None` (with a note) when tmux is not
    /// installed (CI installs it).
    fn start(name: &str, cmd: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            eprintln!("tmux not installed: skipped");
            return None;
        }
        let t = Tmux {
            session: format!("gbhost-{name}-{}", std::process::id()),
        };
        let ok = t.run(&[
            "new-session",
            "-d",
            "-s",
            &t.session,
            "-x",
            "150",
            "-y",
            "50",
            cmd,
        ]);
        assert!(ok.status.success(), "{}", text(&ok.stderr));
        Some(t)
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux").args(args).output().expect("tmux")
    }

    fn screen(&self) -> String {
        text(
            &self
                .run(&["capture-pane", "-p", "-t", &self.session, "-S", "-200"])
                .stdout,
        )
    }

    /// Wait until `needle` is on the screen; returns the screen.
    fn wait_for(&self, needle: &str) -> String {
        let t0 = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(needle) {
                return s;
            }
            // Generous: the test binary runs its heavy tests (whole runs of games with scripts)
            // in parallel on a small machine.
            assert!(
                t0.elapsed() < Duration::from_secs(60),
                "'{needle}' never appeared:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Type `keys` (literally) without Enter.
    fn keys(&self, keys: &str) {
        self.run(&["send-keys", "-t", &self.session, "-l", keys]);
    }

    /// Press one key by tmux's name (`Tab`, `Enter`).
    fn press(&self, key: &str) {
        self.run(&["send-keys", "-t", &self.session, key]);
    }

    /// Type a line and Enter, and wait for the next prompt: the REPL (rustyline) drops what
    /// is typed before its prompt is up.
    fn send(&self, line: &str) {
        let prompts = || self.screen().matches("gbhost>").count();
        let before = prompts();
        self.keys(line);
        self.press("Enter");
        let t0 = Instant::now();
        while prompts() <= before {
            assert!(
                t0.elapsed() < Duration::from_secs(60),
                "no prompt after '{line}':\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Type a line and Enter, without waiting (the last one, `quit`).
    fn send_last(&self, line: &str) {
        self.keys(line);
        self.press("Enter");
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-session", "-t", &self.session]);
    }
}

/// The REPL command line for `rom` (the demo when `None`), paused, in a terminal.
fn repl_cmd(dir: &Path, rom: Option<&Path>) -> String {
    format!(
        "GBHOST_CONFIG={} GBHOST_STATE_KEY={} GBHOST_ROM_DATA={} {} run {} --repl --no-window --paused --mute; sleep 30",
        dir.join("config.toml").display(),
        crate::common::state_key().display(),
        dir.join("rom-data").display(),
        bin(),
        rom.map_or(String::new(), |r| r.display().to_string()),
    )
}

#[test]
fn repl_in_tmux() {
    let dir = temp_dir("tmux");
    let Some(t) = Tmux::start("repl", &repl_cmd(&dir, None)) else {
        return;
    };
    t.wait_for("gbhost>");
    t.send("step 100");
    t.wait_for("frame 100");
    t.send("peek c000 4");
    t.wait_for("C000: ");
    t.send("poke c100 99");
    t.wait_for("poked 1 byte(s) at C100");
    t.send("step");
    t.send("memory.read_u8(0xC100) * 2");
    t.wait_for("306");
    t.send("rewind 60");
    t.wait_for("at frame 41");
    t.send("watch c001");
    t.wait_for("watching [C001]");
    t.send("step 2");
    t.wait_for("watch [C001]");
    // Tab completion of a command.
    t.keys("rewi");
    t.press("Tab");
    t.keys("5");
    t.press("Enter");
    t.wait_for("at frame 38");
    t.send_last("quit");
}

/// A ROM whose "height" at $C0A2 goes up by one every frame and whose "lives" at $C0A5 stay 3
/// (the VBlank interrupt counts; the rest of work RAM holds still).
fn height_rom() -> Vec<u8> {
    RomBuilder::new()
        .title("HEIGHT")
        .program(
            r#"
            ld hl, $C000
            xor a
        clear:
            ld [hl+], a
            bit 5, h
            jr z, clear
            ld a, 3
            ld [$C0A5], a
            ld a, $01
            ldh [$FF], a
            ei
        main:
            halt
            nop
            jr main
            org $40
            push af
            ld a, [$C0A2]
            inc a
            ld [$C0A2], a
            pop af
            reti
            "#,
        )
        .build()
        .expect("assemble")
}

/// The REPL's RAM search, cheats and watch list, typed in a terminal.
#[test]
fn repl_search_cheats_and_watches_in_tmux() {
    let dir = temp_dir("tmux-search");
    let rom = dir.join("height.gb");
    std::fs::write(&rom, height_rom()).unwrap();
    let Some(t) = Tmux::start("search", &repl_cmd(&dir, Some(&rom))) else {
        return;
    };
    t.wait_for("gbhost>");
    t.send("step 10");
    t.wait_for("frame 10");
    t.send("search new 1u");
    t.wait_for("8192 candidates in wram (1u)");
    t.send("step 1");
    t.wait_for("frame 11");
    t.send("search gt");
    t.wait_for("(value > previous) 1 candidate(s) in wram");
    t.send("search by 3");
    t.wait_for("0 candidate(s) left (value ±3 previous)");
    t.send("search undo");
    t.wait_for("undone: 1 candidate(s)");
    t.send("step 3");
    t.wait_for("frame 14");
    t.send("search by 3");
    let s = t.wait_for("(value ±3 previous) 1 candidate(s)");
    assert!(s.contains("C0A2"), "{s}");
    // The lives: 3 now, compared with a value; watched under a name, poked by the watch.
    t.send("search new 1u");
    t.send("search eq 3");
    t.wait_for("C0A5");
    t.send("ramwatch add C0A5 1u lives");
    t.wait_for("watching C0A5 (1u)");
    t.send("ramwatch poke 1 9");
    t.wait_for("poked 9 into C0A5");
    t.send("step");
    t.wait_for("frame 15");
    t.send("ramwatch list");
    t.wait_for("C0A5       1u                9  lives");
    // A GameShark code holding the lives at 99; a bad code says why.
    t.send("cheat add 01630040");
    t.wait_for("writes 4000, which is not RAM");
    t.send("cheat add 0163A5C0 lives");
    t.wait_for("cheat 0163A5C0 on");
    t.send("step 2");
    t.wait_for("frame 17");
    t.send("peek c0a5 1");
    t.wait_for("C0A5: 63");
    t.send("cheat list");
    t.wait_for("[x] 0163A5C0");
    t.send_last("quit");
    drop(t);
    // Both lists were kept for this ROM.
    let folder = std::fs::read_dir(dir.join("rom-data"))
        .expect("the ROM's folder")
        .next()
        .expect("one folder")
        .unwrap()
        .path();
    let wch = std::fs::read_to_string(folder.join("watch.wch")).unwrap();
    assert!(
        wch.contains("00C0A5\tb\tu\t0\tSystem Bus\tlives")
            || wch.contains("C0A5\tb\tu\t0\tSystem Bus\tlives"),
        "{wch}"
    );
    let cheats = std::fs::read_to_string(folder.join("cheats.tsv")).unwrap();
    assert!(cheats.contains("0163A5C0\t1\tlives"), "{cheats}");
}

#[test]
fn sigterm_saves_and_exits_cleanly() {
    let dir = temp_dir("sigterm");
    let rom = dir.join("game.gb");
    std::fs::write(&rom, battery_rom()).unwrap();
    let child = Command::new(bin())
        .env("GBHOST_STATE_KEY", crate::common::state_key())
        .args(["run", rom.to_str().unwrap(), "--no-window", "--mute"])
        .env("GBHOST_CONFIG", dir.join("config.toml"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gbhost");
    // Well before the first periodic save (2 s).
    std::thread::sleep(Duration::from_millis(800));
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill -TERM");
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let sav = std::fs::read(dir.join("game.sav")).expect("saved on SIGTERM");
    assert_eq!(&sav[..4], b"\x00GBH");
}

#[test]
fn the_clock_footer_is_loaded_back() {
    let dir = temp_dir("rtc");
    let rom = dir.join("clock.gb");
    // MBC3+TIMER+RAM+BATTERY, 8 KiB; the program only halts.
    let image = RomBuilder::new()
        .title("CLOCK")
        .cartridge_type(0x10)
        .ram_size_code(0x02)
        .program("di\n.l: halt\njr .l\n")
        .build()
        .unwrap();
    std::fs::write(&rom, image).unwrap();
    let mut sav = vec![0u8; 0x2000];
    sav[0] = 0x77;
    for v in [5u32, 6, 7, 8, 0, 5, 6, 7, 8, 0] {
        sav.extend_from_slice(&v.to_le_bytes());
    }
    sav.extend_from_slice(&12_345u64.to_le_bytes());
    std::fs::write(dir.join("clock.sav"), &sav).unwrap();
    let out = gbhost_with_input(
        &[
            "run",
            rom.to_str().unwrap(),
            "--repl",
            "--no-window",
            "--paused",
            "--mute",
        ],
        "step 1\nquit\n",
        &dir,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let saved = std::fs::read(dir.join("clock.sav")).unwrap();
    assert_eq!(saved.len(), 0x2000 + 48);
    assert_eq!(saved[0], 0x77, "RAM loaded and saved");
    let word = |i: usize| saved[0x2000 + i * 4];
    // One frame of emulated time does not reach a second: S, M, H, DL, DH as loaded.
    assert_eq!(
        [word(0), word(1), word(2), word(3), word(4)],
        [5, 6, 7, 8, 0]
    );
}

/// The TAS editor's `movie` commands through the piped REPL, on a copy of Tobu Tobu Girl:
/// open over the session, paint, undo, insert and delete, markers, a branch saved and loaded
/// back, the movie saved and opened again with its markers and branches.
#[test]
fn tas_editor_commands_through_the_repl() {
    let Some(shared) = gb_testkit::shared_rom("homebrew/tobutobugirl/tobutobugirl.gb") else {
        return;
    };
    let dir = temp_dir("tas-editor");
    let rom = dir.join("tobu.gb");
    std::fs::copy(shared, &rom).unwrap();
    let movie = dir.join("edited.gbm");
    let m = movie.to_str().unwrap();
    let s = dir.join("none.gbs");
    let s = s.to_str().unwrap();
    let input = format!(
        "movie edit\nstep 200\nmovie set 100 A+Up\nmovie paint 110 120 B on\nmovie info\n\
         movie goto 200\nmovie info\nmovie undo\nmovie redo\nmovie insert 50 3 Start\n\
         movie info\nmovie delete 50 52\nmovie marker 60 \"door open\"\nmovie marker 70\n\
         movie marker -70\nmovie branch save first\nmovie goto 150\nmovie branch save second\n\
         movie branch list\nmovie branch diff 0 1\nmovie paste 140 A . A\nmovie branch load 0\n\
         movie save {m}\nmovie close\nmovie edit {m}\nmovie info\nmovie edit {m}x\nmovie set x A\nmovie set 99999999 A\n\
         movie marker 99999 far\nstate load {s}\nquit\n"
    );
    let out = gbhost_with_input(
        &[
            rom.to_str().unwrap(),
            "--repl",
            "--no-window",
            "--paused",
            "--mute",
        ],
        &input,
        &dir,
    );
    let o = text(&out.stdout);
    let e = text(&out.stderr);
    let has = |s: &str| assert!(o.contains(s), "missing {s:?} in:\n{o}\nstderr: {e}");
    has("TAS editor over this session: 0 frames");
    has("changed from frame 100");
    has("changed from frame 110");
    has("(200 frames), greenzone to");
    has("undone (from frame 110)");
    has("redone (from frame 110)");
    has("(203 frames)");
    has("marker at frame 60");
    has("removed the marker of frame 70");
    has("saved branch #0 \"first\" at frame 200");
    has("saved branch #1 \"second\" at frame 150");
    has("#1 \"second\" frame 150 (200 frames)");
    has("branches #0 and #1 have the same input");
    has("at frame 200 (the machine matches the branch)");
    has("saved 200 frames to");
    has("TAS editor closed");
    has("200 frames, 1 markers, 2 branches");
    has("markers: 60 \"door open\"");
    has("error: bad frame 'x'");
    has("error: the roll would be longer than 10000000 frames");
    has("error: frame 99999 is past the roll's end (200)");
    has("error: a state would change the machine outside the TAS editor's input");
    assert!(o.contains("error:") && !e.contains("panicked"), "{e}");
    assert!(movie.exists());
    assert!(dir.join("edited.gbm.branches").exists());
}

/// `gbhost bench --editor-paint` draws the piano roll with no display and prints its times.
#[test]
fn editor_paint_bench_runs_headless() {
    let out = Command::new(bin())
        .args([
            "bench",
            "--editor-paint",
            "--frames",
            "5000",
            "--rounds",
            "1",
        ])
        .output()
        .expect("run gbhost");
    let o = text(&out.stdout);
    assert!(out.status.success(), "{o}{}", text(&out.stderr));
    assert!(
        o.contains("editor-paint: 5000 frames") && o.contains("median-ms: "),
        "{o}"
    );
}

/// `gbhost bench --search-list` draws the RAM Search list with no display and prints its times.
#[test]
fn bench_search_list_prints_its_times() {
    let out = Command::new(bin())
        .args([
            "bench",
            "--search-list",
            "--frames",
            "2000",
            "--rounds",
            "1",
        ])
        .output()
        .expect("run gbhost");
    let o = text(&out.stdout);
    assert!(out.status.success(), "{o}{}", text(&out.stderr));
    assert!(
        o.contains("search-list: 2000 candidates") && o.contains("median-ms: "),
        "{o}"
    );
}
