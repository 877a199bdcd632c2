//! `gbhost headless --script` and `--sync-test`, through the real binary: script output as
//! `log:` lines, errors that never stop the run, the sync test's verdict and exit status.

use gb_core::asm;
use gb_core::screen::GAME;
use std::path::PathBuf;
use std::process::Output;

use crate::common::gbhost;

fn file(name: &str, bytes: &[u8]) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("session-cli");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    // Tests run in parallel and share names: write aside, then rename (atomic).
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.{n}.tmp"));
    std::fs::write(&tmp, bytes).expect("write temp file");
    std::fs::rename(&tmp, &path).expect("rename temp file");
    path.to_string_lossy().into_owned()
}

/// A ROM that counts VBlanks at $C000 and keeps the LCD on.
fn counter_rom() -> String {
    let rom = asm::rom(
        r#"
            xor a
            ld [$C000], a
            ld a, $01
            ldh [$FF], a
            ei
        main:
            halt
            nop
            jr main
            org $40
            push af
            ld a, [$C000]
            inc a
            ld [$C000], a
            pop af
            reti
        "#,
    )
    .expect("assemble");
    file("counter.gb", &rom)
}

fn lines(o: &Output) -> Vec<String> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn script_output_is_printed_as_log_lines_before_the_summary() {
    let rom = counter_rom();
    let script = file(
        "hello.lua",
        b"print('hello', 1 + 2) console.log('at', emu.framecount())\n\
          while true do\n\
            if emu.framecount() == 3 then console.log('counter', memory.read_u8(0xC000)) end\n\
            emu.frameadvance()\n\
          end\n",
    );
    let out = gbhost(&[
        "headless", &rom, "--frames", "5", "--script", &script, "--peek", "C000",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        lines(&out),
        [
            "log: hello\t3",
            "log: at\t0",
            "log: counter\t3",
            "frames: 5",
            "peek C000=05"
        ]
    );
}

/// A script error ends a headless run after its frame, with the run's output and exit 1 (so
/// CI users see it).
#[test]
fn a_failing_script_ends_the_run_with_exit_1() {
    let rom = counter_rom();
    let bad = file("bad_stop.lua", b"emu.frameadvance()\nerror('boom')\n");
    let out = gbhost(&[
        "headless", &rom, "--frames", "50", "--script", &bad, "--peek", "C000",
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let l = lines(&out);
    assert!(
        l.iter()
            .any(|x| x.starts_with("log: error: bad_stop.lua:2: boom")),
        "{l:?}"
    );
    assert!(
        l.ends_with(&["frames: 1".to_owned(), "peek C000=01".to_owned()]),
        "stopped after the failing frame: {l:?}"
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("a script failed"),
        "{out:?}"
    );
}

#[test]
fn with_keep_going_a_failing_script_is_reported_and_the_run_goes_on() {
    let rom = counter_rom();
    let bad = file("bad.lua", b"emu.frameadvance()\nerror('boom')\n");
    let endless = file("endless.lua", b"while true do end");
    let syntax = file("syntax.lua", b"this is not lua");
    let out = gbhost(&[
        "headless",
        &rom,
        "--frames",
        "4",
        "--script",
        &bad,
        "--script",
        &endless,
        "--script",
        &syntax,
        "--peek",
        "C000",
        "--keep-going",
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let l = lines(&out);
    assert!(
        l.iter()
            .any(|x| x.starts_with("log: error: bad.lua:2: boom")),
        "{l:?}"
    );
    assert!(
        l.iter()
            .any(|x| x.starts_with("log: error: endless.lua: instruction budget exceeded")),
        "{l:?}"
    );
    assert!(
        l.iter()
            .any(|x| x.contains("syntax.lua:1: syntax error near 'is'")),
        "{l:?}"
    );
    assert!(
        l.ends_with(&["frames: 4".to_owned(), "peek C000=04".to_owned()]),
        "{l:?}"
    );
}

#[test]
fn a_missing_script_is_exit_2_with_one_line() {
    let rom = counter_rom();
    let out = gbhost(&["headless", &rom, "--script", "/nonexistent/x.lua"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("cannot read script '/nonexistent/x.lua'"),
        "{err}"
    );
}

#[test]
fn sync_test_reports_zero_mismatches_with_scripts() {
    let rom = counter_rom();
    let hud = file(
        "hud.lua",
        b"local t = {} event.onframeend(function() t[#t + 1] = string.format('%d', memory.read_u8(0xC000)) \
          gui.text(0, 0, table.concat(t, ',', math.max(1, #t - 4))) end)\n\
          while true do joypad.set({A = emu.framecount() % 3 == 0}) emu.frameadvance() end",
    );
    let out = gbhost(&[
        "headless",
        &rom,
        "--frames",
        "120",
        "--script",
        &hud,
        "--sync-test",
        "5",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        lines(&out),
        ["sync-test: 120 frames, 0 mismatches", "frames: 120"]
    );
}

#[test]
fn sync_test_needs_a_positive_depth() {
    let rom = counter_rom();
    let out = gbhost(&["headless", &rom, "--frames", "3", "--sync-test", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn require_reads_modules_from_the_scripts_folder_only() {
    let rom = counter_rom();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("session-cli/req");
    std::fs::create_dir_all(dir.join("lib")).expect("dir");
    std::fs::write(
        dir.join("lib/greet.lua"),
        "return { hello = function() return 'hi' end }",
    )
    .expect("module");
    std::fs::write(
        dir.join("main.lua"),
        "print(require('lib.greet').hello()) print(pcall(require, '../cli/counter'))",
    )
    .expect("main");
    let main = dir.join("main.lua");
    let out = gbhost(&[
        "headless",
        &rom,
        "--frames",
        "1",
        "--script",
        main.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let l = lines(&out);
    assert_eq!(l[0], "log: hi");
    assert!(l[1].contains("module '../cli/counter' not found"), "{l:?}");
}

#[test]
fn overlays_and_images_are_drawn_into_the_screenshot() {
    let rom = counter_rom();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("session-cli/img");
    std::fs::create_dir_all(&dir).expect("dir");
    {
        let file = std::fs::File::create(dir.join("red.png")).expect("png");
        let mut enc = png::Encoder::new(std::io::BufWriter::new(file), 2, 2);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().expect("header");
        w.write_image_data(&[255, 0, 0, 255].repeat(4))
            .expect("data");
    }
    std::fs::write(
        dir.join("draw.lua"),
        "event.on_frame_end(function() gui.image(10, 20, 'red.png') gui.box(50, 50, 52, 52, 'blue', 'blue') end) \
         while true do emu.frameadvance() end",
    )
    .expect("script");
    let shot = dir.join("shot.png");
    let out = gbhost(&[
        "headless",
        &rom,
        "--frames",
        "2",
        "--script",
        dir.join("draw.lua").to_str().unwrap(),
        "--screenshot",
        shot.to_str().unwrap(),
        "--overlay",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&shot).expect("shot"),
    ));
    let mut reader = decoder.read_info().expect("info");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    reader.next_frame(&mut buf).expect("frame");
    let px = |x: usize, y: usize| {
        [
            buf[(y * GAME.width + x) * 3],
            buf[(y * GAME.width + x) * 3 + 1],
            buf[(y * GAME.width + x) * 3 + 2],
        ]
    };
    assert_eq!(px(10, 20), [255, 0, 0]);
    assert_eq!(px(11, 21), [255, 0, 0]);
    assert_eq!(px(51, 51), [0, 0, 255]);
    assert_eq!(px(12, 20), [255, 255, 255], "only the image's pixels");
}
