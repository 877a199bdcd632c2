//! Scripts that survive the process (issue 17's must-show): a state file saved by one
//! process, with a HUD script and a coroutine input script suspended mid-loop, continues in
//! another process — the `gbhost` binary, and this test binary (another build of the same
//! version) — exactly as one process running all the frames: the same console lines, draw
//! lists, core state and script VM images (canonical hashes), frame after frame. Files of
//! another user (another state key) and damaged images restart the scripts, saying so.

use std::path::{Path, PathBuf};

use gb_session::keys::load_or_create;
use gb_session::{Session, SessionConfig, StateFile};

use crate::common::text;

/// The sessions these tests build in this process map their script VMs where the images say
/// (the same window slots): one at a time.
static IN_PROCESS: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn dir() -> PathBuf {
    crate::common::tmp_dir("portable-cli")
}

fn tobu() -> Option<PathBuf> {
    gb_testkit::shared_rom("homebrew/tobutobugirl/tobutobugirl.gb")
}

/// A coroutine input script that logs its state now and then: its locals, a table of recent
/// values and its generator live only in its arena.
const INPUT: &str = r#"
local n, seed, recent = 0, 7, {}
local function rnd() seed = (seed * 1103515245 + 12345) % 2147483648 return seed end
while true do
  n = n + 1
  local r = rnd()
  if r % 5 == 0 then joypad.set({ A = true, Right = r % 2 == 0 }) end
  recent[n % 16 + 1] = r % 1000
  if n % 50 == 0 then
    local sum = 0
    for _, v in ipairs(recent) do sum = sum + v end
    print(string.format("input frame %d seed %d recent %d", n, seed, sum))
  end
  emu.frameadvance()
end
"#;

struct Setup {
    rom: String,
    hud: String,
    input: String,
    key: String,
    dir: PathBuf,
}

fn setup(name: &str) -> Option<Setup> {
    let shared = tobu()?;
    let dir = dir().join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // A copy: the app keeps a battery save beside its ROM, never in the shared folder.
    let rom = dir.join("tobutobugirl.gb");
    std::fs::copy(&shared, &rom).unwrap();
    let rom = rom.display().to_string();
    let input = dir.join("input.lua");
    std::fs::write(&input, INPUT).unwrap();
    let hud = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/bench_hud.lua");
    Some(Setup {
        rom,
        hud: hud.display().to_string(),
        input: input.display().to_string(),
        key: dir.join("user.key").display().to_string(),
        dir,
    })
}

/// Run `gbhost` with the state key `key`.
fn gbhost_with_key(key: &str, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_gbhost"))
        .args(args)
        .env("GBHOST_STATE_KEY", key)
        .output()
        .expect("run gbhost")
}

/// `gbhost ARGS... --trace TRACE` with the state key `key`, which must succeed; its output.
fn traced(key: &str, args: &[&str], trace: &Path) -> String {
    let out = gbhost_with_key(key, &[args, &["--trace", trace.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", text(&out));
    text(&out)
}

/// The trace lines of frames after `from`, keyed by frame.
fn trace(path: &Path, from: u64) -> Vec<(u64, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out: Vec<(u64, String)> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("frame ") {
            let n: u64 = rest.split(' ').next().unwrap().parse().unwrap();
            out.push((n, line.to_owned()));
        } else if let Some(last) = out.last_mut() {
            last.1.push('\n');
            last.1.push_str(line);
        }
    }
    out.retain(|(n, _)| *n > from);
    out
}

/// The reference: one process, 1,200 frames; and process A: 600 frames, then a state file.
fn reference_and_state(s: &Setup) -> (PathBuf, PathBuf) {
    let reference = s.dir.join("reference.txt");
    let state = s.dir.join("a.gbs");
    let scripts = ["--script", &s.hud, "--script", &s.input];
    let r = gbhost_with_key(
        &s.key,
        &[
            &["headless", &s.rom, "--frames", "1200", "--trace"],
            &[reference.to_str().unwrap()][..],
            &scripts[..],
        ]
        .concat(),
    );
    assert!(r.status.success(), "{}", text(&r));
    let a = gbhost_with_key(
        &s.key,
        &[
            &["headless", &s.rom, "--frames", "600", "--save-state"],
            &[state.to_str().unwrap()][..],
            &scripts[..],
        ]
        .concat(),
    );
    assert!(a.status.success(), "{}", text(&a));
    (reference, state)
}

#[test]
fn a_state_with_scripts_continues_exactly_in_another_process() {
    let Some(s) = setup("exact") else { return };
    let (reference, state) = reference_and_state(&s);
    let info = gbhost_with_key(&s.key, &["state", "info", state.to_str().unwrap()]);
    assert!(
        text(&info).contains("scripts restore: exactly (2 scripts"),
        "{}",
        text(&info)
    );
    // Process B: the gbhost binary, 600 more frames from the file.
    let b_trace = s.dir.join("b.txt");
    let from = ["headless", &s.rom, "--from-state", state.to_str().unwrap()];
    let b = traced(
        &s.key,
        &[&from[..], &["--frames", "600"]].concat(),
        &b_trace,
    );
    assert!(!b.contains("restarted"), "{b}");
    let want = trace(&reference, 600);
    let got = trace(&b_trace, 600);
    assert_eq!(want.len(), 600);
    assert!(
        want.iter()
            .filter(|(_, l)| l.contains("log: input frame"))
            .count()
            >= 10,
        "the comparison covers the scripts' console lines"
    );
    assert!(
        want.iter().all(|(_, l)| l.matches(':').count() >= 4),
        "two VMs hashed"
    );
    for (w, g) in want.iter().zip(&got) {
        assert_eq!(w, g, "frame {} differs between one process and two", w.0);
    }
    assert_eq!(want.len(), got.len());

    // Process B': this test binary, another build of the same version.
    let _one = IN_PROCESS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let key = load_or_create(Path::new(&s.key)).unwrap();
    let file = StateFile::read(&state).unwrap();
    let config = SessionConfig {
        image_key: Some(key),
        ..SessionConfig::default()
    };
    let mut session =
        Session::from_state_file(std::fs::read(&s.rom).unwrap(), None, config, &file).unwrap();
    let mut lines = Vec::new();
    for _ in 0..600 {
        session.run_frame();
        let logs: Vec<String> = session
            .take_console()
            .into_iter()
            .flat_map(|l| l.text.lines().map(str::to_owned).collect::<Vec<_>>())
            .collect();
        let line = session.trace_line(&logs);
        lines.push((session.frame(), line.trim_end().to_owned()));
    }
    assert_eq!(
        lines, want,
        "the test binary continues the file as gbhost does"
    );
}

#[test]
fn another_users_state_restarts_its_scripts_and_says_so() {
    let Some(s) = setup("foreign") else { return };
    let (reference, state) = reference_and_state(&s);
    let other_key = s.dir.join("other.key").display().to_string();
    let info = gbhost_with_key(&other_key, &["state", "info", state.to_str().unwrap()]);
    assert!(
        text(&info).contains("scripts restore: restart from persist data")
            && text(&info).contains("not sealed with this user's key"),
        "{}",
        text(&info)
    );
    let c_trace = s.dir.join("c.txt");
    let from = ["headless", &s.rom, "--from-state", state.to_str().unwrap()];
    let c = traced(
        &other_key,
        &[&from[..], &["--frames", "60"]].concat(),
        &c_trace,
    );
    assert!(
        c.contains(
            "restarted from its persist data (not restored exactly: the script image is not \
             sealed with this user's key"
        ),
        "{c}"
    );
    // The scripts started over: their VMs are not the reference's.
    let want = trace(&reference, 600);
    let got = trace(&c_trace, 600);
    assert_ne!(want[0].1, got[0].1);
}

#[test]
fn a_damaged_image_is_refused_and_the_scripts_restart() {
    let Some(s) = setup("damaged") else { return };
    let (_, state) = reference_and_state(&s);
    let mut file = StateFile::read(&state).unwrap();
    assert_eq!(file.images.len(), 2);
    let key = load_or_create(Path::new(&s.key)).unwrap();
    let _one = IN_PROCESS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    // Damage every kind of place in the first image: its header, the names, the arena bytes
    // (a forged pointer), the seal; each file is re-saved with a valid file checksum.
    let image = file.images[0].image.clone().unwrap();
    let n = image.len();
    for (what, at) in [
        ("header", 20),
        ("names", 60),
        ("arena", n / 2),
        ("arena end", n - 40),
        ("seal", n - 1),
    ] {
        let mut bad = image.clone();
        bad[at] ^= 0x5a;
        file.images[0].image = Ok(bad);
        let config = SessionConfig {
            image_key: Some(key.clone()),
            ..SessionConfig::default()
        };
        let mut session =
            Session::from_state_file(std::fs::read(&s.rom).unwrap(), None, config, &file).unwrap();
        let console: Vec<String> = session.take_console().into_iter().map(|l| l.text).collect();
        assert!(
            console
                .iter()
                .any(|l| l.contains("restarted from its persist data")),
            "{what}: {console:?}"
        );
        // The other script, undamaged, is restored exactly; both keep running.
        for _ in 0..30 {
            session.run_frame();
        }
        assert_eq!(session.scripts().filter(|s| s.active).count(), 2, "{what}");
    }
}

#[test]
fn a_movie_with_scripts_seeks_from_a_keyframe_in_a_new_process() {
    let Some(s) = setup("movie") else { return };
    let movie = s.dir.join("m.gbm");
    let movie = movie.to_str().unwrap();
    let rec = gbhost_with_key(
        &s.key,
        &[
            "movie",
            "record",
            &s.rom,
            "--out",
            movie,
            "--frames",
            "1300",
            "--script",
            &s.hud,
            "--script",
            &s.input,
            "--random-input",
            "5",
        ],
    );
    assert!(rec.status.success(), "{}", text(&rec));
    // A new process seeks to frame 1250: from the keyframe at 1080, with the scripts' memory.
    let seek_trace = s.dir.join("seek.txt");
    let play = ["movie", "play", &s.rom, movie, "--to", "1250"];
    let seek = traced(&s.key, &play, &seek_trace);
    assert!(
        seek.contains("seek: from frame 1080 (a keyframe)"),
        "{seek}"
    );
    assert!(seek.contains("desync: none"), "{seek}");
    // The reference: another user's process cannot use the images, and replays from the start.
    let full_trace = s.dir.join("full.txt");
    let other_key = s.dir.join("other.key").display().to_string();
    let full = traced(&other_key, &play, &full_trace);
    assert!(full.contains("seek: from frame 0 (the start)"), "{full}");
    let want = trace(&full_trace, 1080);
    let got = trace(&seek_trace, 1080);
    assert_eq!(got.len(), 170);
    assert!(want.iter().any(|(_, l)| l.contains("log: input frame")));
    assert_eq!(
        want, got,
        "frames 1081-1250: the same from a keyframe as from the start"
    );
}

/// The player's day: slot 3 saved with an input script running; tomorrow gbhost starts with
/// no script, `state load 3`, and the script comes back exactly (its next console line is the
/// one the first process printed after the save).
#[test]
fn a_slot_saved_yesterday_loads_its_scripts_exactly_today() {
    use std::io::Write;
    let Some(s) = setup("slot") else { return };
    let repl = |args: &[&str], input: &str| {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gbhost"))
            .args(args)
            .env("GBHOST_STATE_KEY", &s.key)
            .env("GBHOST_STATE_DIR", s.dir.join("states"))
            .env("GBHOST_CONFIG", s.dir.join("config.toml"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", text(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let flags = ["--repl", "--no-window", "--paused", "--mute"];
    let yesterday = repl(
        &[&[&s.rom[..], "--script", &s.input][..], &flags[..]].concat(),
        "step 120\nstate save 3\nstep 30\nquit\n",
    );
    let line_150 = yesterday
        .lines()
        .find(|l| l.contains("input frame 150 "))
        .unwrap_or_else(|| panic!("{yesterday}"))
        .to_owned();
    let today = repl(
        &[&[&s.rom[..]][..], &flags[..]].concat(),
        "state load 3\nstep 30\nquit\n",
    );
    assert!(today.contains("scripts restored exactly"), "{today}");
    assert!(today.contains(&line_150), "{today}");
}
