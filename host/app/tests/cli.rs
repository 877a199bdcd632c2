//! The `gbhost headless` contract, exercised through the real binary with ROMs built in code.

#[path = "../../core/tests/support/mod.rs"]
mod support;

use gb_core::asm;
use std::path::PathBuf;
use std::process::{Command, Output};

fn gbhost(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gbhost"))
        .args(args)
        .output()
        .expect("run gbhost")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Write `bytes` to a fresh file in the test's temporary directory.
fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write temp file");
    path
}

/// A ROM that sends "Hi\n" plus a 0x01 byte over serial, stores 0x5A at $FF82, sets registers
/// and hits `LD B,B`, then loops forever.
fn serial_rom() -> Vec<u8> {
    asm::rom(
        r#"
            ld hl, message
        .next:
            ld a, [hl+]
            cp $FF
            jr z, .done
            ldh [$01], a        ; SB
            ld a, $81
            ldh [$02], a        ; SC: start, internal clock
        .wait:
            ldh a, [$02]
            bit 7, a
            jr nz, .wait
            jr .next
        .done:
            ld a, $5A
            ldh [$82], a
            ld a, $12
            ld c, $34
            ld d, $56
            ld e, $78
            ld h, $9A
            ld l, $BC
            ld b, b
        .forever:
            jr .forever
        message:
            db "Hi", $0A, $01, $FF
        "#,
    )
    .expect("assemble")
}

#[test]
fn headless_prints_frames_serial_regs_and_peeks_in_order() {
    let rom = temp_file("serial.gb", &serial_rom());
    let out = gbhost(&[
        "headless",
        rom.to_str().unwrap(),
        "--frames",
        "30",
        "--print-serial",
        "--print-regs",
        "--peek",
        "FF82",
        "--peek",
        "0x0100",
    ]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "output: {text}");
    assert_eq!(lines[0], "frames: 30");
    assert_eq!(lines[1], "serial: Hi\\x0A\\x01");
    assert!(
        lines[2].starts_with("regs: A=12 F="),
        "regs line: {}",
        lines[2]
    );
    assert!(
        lines[2].contains(" C=34 D=56 E=78 H=9A L=BC SP=FFFE PC="),
        "regs line: {}",
        lines[2]
    );
    assert_eq!(lines[3], "peek FF82=5A");
    assert_eq!(lines[4], "peek 0100=00", "0x0100 holds the header's NOP");
}

#[test]
fn stop_on_ld_b_b_ends_the_run_early() {
    let rom = temp_file("stop.gb", &serial_rom());
    let out = gbhost(&[
        "headless",
        rom.to_str().unwrap(),
        "--frames",
        "500",
        "--stop-on-ld-b-b",
        "--print-regs",
    ]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    let frames: u64 = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("frames: "))
        .and_then(|n| n.parse().ok())
        .expect("frames line");
    assert!(frames < 10, "stopped after {frames} frames: {text}");
    // PC is just past the LD B,B.
    assert!(text.contains("A=12"), "{text}");
}

#[test]
fn default_run_is_600_frames_and_post_boot_registers() {
    let rom = temp_file("idle.gb", &asm::rom("loop: jr loop").expect("assemble"));
    let out = gbhost(&["headless", rom.to_str().unwrap(), "--print-regs"]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("frames: 600\n"), "{text}");
    assert!(
        text.contains("regs: A=01 F=B0 B=00 C=13 D=00 E=D8 H=01 L=4D SP=FFFE PC="),
        "{text}"
    );
}

/// Exit 2, nothing on stdout, exactly one line on stderr naming the problem; no panic.
fn assert_clean_error(out: &Output, needle: &str) {
    assert_eq!(out.status.code(), Some(2), "stderr: {}", stderr(out));
    let err = stderr(out);
    assert!(!err.contains("panicked"), "panic: {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "one line expected: {err}"
    );
    assert!(err.contains(needle), "expected '{needle}' in: {err}");
    assert!(stdout(out).is_empty(), "stdout: {}", stdout(out));
}

#[test]
fn missing_rom_is_exit_2_with_one_line() {
    let out = gbhost(&["headless", "/nonexistent/dir/game.gb"]);
    assert_clean_error(&out, "cannot read ROM");
}

#[test]
fn truncated_rom_is_exit_2_with_one_line() {
    let rom = temp_file("short.gb", &[0u8; 100]);
    let out = gbhost(&["headless", rom.to_str().unwrap()]);
    assert_clean_error(&out, "truncated");
}

#[test]
fn inconsistent_rom_size_is_exit_2() {
    let mut image = asm::rom("nop").expect("assemble");
    image[0x148] = 0x03; // header says 256 KiB, the file is 32 KiB
    let rom = temp_file("size.gb", &image);
    let out = gbhost(&["headless", rom.to_str().unwrap()]);
    assert_clean_error(&out, "not a usable Game Boy ROM");
}

#[test]
fn garbage_files_never_panic() {
    // Pseudo-random images of assorted sizes, some with a plausible header.
    let mut seed = 0x1234_5678_u32;
    for (i, len) in [0usize, 1, 0x14F, 0x150, 0x8000, 0x10000]
        .iter()
        .enumerate()
    {
        let mut bytes = vec![0u8; *len];
        for b in &mut bytes {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            *b = seed as u8;
        }
        if *len >= 0x8000 {
            bytes[0x147] = 0x00;
            bytes[0x148] = if *len == 0x8000 { 0x00 } else { 0x01 };
            bytes[0x149] = 0x00;
        }
        let rom = temp_file(&format!("garbage{i}.gb"), &bytes);
        let out = gbhost(&["headless", rom.to_str().unwrap(), "--frames", "60"]);
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "len {len}: {err}");
        assert!(
            out.status.code() == Some(0) || out.status.code() == Some(2),
            "len {len}: {:?} {err}",
            out.status
        );
    }
}

/// Decode a PNG written by `--screenshot` to grey levels, one per pixel.
fn decode_grey(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let (w, h, pixels) = support::read_png_rgb(path).expect("decode png");
    (w, h, pixels.iter().map(|px| px[0]).collect())
}

#[test]
fn screenshot_writes_a_160x144_png_in_the_reference_palette() {
    // Background on, tile 0 row 0 = colour 3 in every pixel, everything else colour 0.
    let rom = temp_file(
        "shot.gb",
        &asm::rom(
            r#"
            .wait:
                ldh a, [$44]
                cp 144
                jr nz, .wait
                xor a
                ldh [$40], a        ; LCD off
                ld a, $FF
                ld [$8000], a
                ld [$8001], a
                ld a, $E4
                ldh [$47], a        ; BGP: 3,2,1,0
                ld a, $91
                ldh [$40], a        ; LCD on, BG on, tiles at $8000
            .loop:
                jr .loop
            "#,
        )
        .expect("assemble"),
    );
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli/shot.png");
    let _ = std::fs::remove_file(&shot);
    let out = gbhost(&[
        "headless",
        rom.to_str().unwrap(),
        "--frames",
        "10",
        "--screenshot",
        shot.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    assert_eq!(stdout(&out), "frames: 10\n");
    let (w, h, grey) = decode_grey(&shot);
    assert_eq!((w, h), (160, 144));
    // Row 0 of every tile row is black, the other rows white (the map is all tile 0).
    for y in 0..144usize {
        let want = if y % 8 == 0 { 0x00 } else { 0xFF };
        assert!(
            grey[y * 160..(y + 1) * 160].iter().all(|&g| g == want),
            "row {y} should be {want:#04x}"
        );
    }
}

#[test]
fn unwritable_screenshot_is_exit_2_with_one_line() {
    let rom = temp_file("shot2.gb", &serial_rom());
    let out = gbhost(&[
        "headless",
        rom.to_str().unwrap(),
        "--frames",
        "2",
        "--screenshot",
        "/nonexistent/dir/out.png",
    ]);
    assert_clean_error(&out, "cannot write screenshot");
}

#[test]
fn dmg_acid2_screenshot_is_the_reference_image() {
    let roms = support::rom_root();
    let rom = roms.join("acid2/dmg-acid2.gb");
    if !rom.exists() {
        assert!(!support::ci(), "CI=true but {} is missing", rom.display());
        eprintln!(
            "*** SKIPPED: {} not found (set GBHOST_TEST_ROMS) ***",
            rom.display()
        );
        return;
    }
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli/acid2.png");
    let out = gbhost(&[
        "headless",
        rom.to_str().unwrap(),
        "--stop-on-ld-b-b",
        "--screenshot",
        shot.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let (_, _, got) = decode_grey(&shot);
    let (_, _, want) = decode_grey(&roms.join("acid2/expected/dmg-acid2/reference-dmg.png"));
    let wrong = got.iter().zip(&want).filter(|(a, b)| a != b).count();
    assert_eq!(wrong, 0, "{wrong} pixels differ from the reference");
}

#[test]
fn bad_peek_address_is_a_usage_error() {
    let rom = temp_file("peek.gb", &serial_rom());
    let out = gbhost(&["headless", rom.to_str().unwrap(), "--peek", "XYZ"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("XYZ"), "{}", stderr(&out));
}

#[test]
fn bench_prints_median_fps_and_mcycles() {
    let rom = temp_file("bench.gb", &serial_rom());
    let out = gbhost(&[
        "bench",
        rom.to_str().unwrap(),
        "--frames",
        "20",
        "--rounds",
        "3",
    ]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    let fps: f64 = lines[0]
        .strip_prefix("fps: ")
        .and_then(|v| v.parse().ok())
        .expect("fps line");
    let mcps: f64 = lines[1]
        .strip_prefix("mcycles-per-sec: ")
        .and_then(|v| v.parse().ok())
        .expect("mcycles line");
    assert!(fps > 0.0 && mcps > 0.0, "{text}");
}
