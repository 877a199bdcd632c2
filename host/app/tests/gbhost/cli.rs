//! The `gbhost headless` contract, exercised through the real binary with ROMs built in code.

use gb_core::asm;
use gb_core::screen::GAME;
use std::path::PathBuf;
use std::process::{Command, Output};

use crate::common::gbhost;

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
    asm::rom(SERIAL_PROGRAM).expect("assemble")
}

/// The program of [`serial_rom`].
const SERIAL_PROGRAM: &str = r#"
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
        "#;

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
fn an_unsupported_cartridge_is_refused_unless_forced() {
    // An MBC7 cartridge (type 0x22) whose program only uses ROM bank 0: refused with one line
    // that says how to force it; with --force it runs on a stand-in mapper and says so.
    let image = asm::RomBuilder::new()
        .cartridge_type(0x22)
        .rom_banks(4)
        .program(SERIAL_PROGRAM)
        .build()
        .expect("assemble");
    let rom = temp_file("mbc7.gb", &image);
    let out = gbhost(&["headless", rom.to_str().unwrap(), "--frames", "5"]);
    assert_clean_error(&out, "unsupported cartridge type 0x22 (MBC7); --force");
    let out = gbhost(&[
        "headless",
        rom.to_str().unwrap(),
        "--frames",
        "5",
        "--force",
        "--print-serial",
    ]);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    assert!(
        stderr(&out).contains("cartridge type 0x22 (MBC7) is not emulated; forced to run as MBC5"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).contains("Hi"), "{}", stdout(&out));
}

#[test]
fn inconsistent_rom_size_runs_with_a_warning() {
    let mut image = asm::rom("nop").expect("assemble");
    image[0x148] = 0x03; // header says 256 KiB, the file is 32 KiB
    image[0x14D] = image[0x14D].wrapping_sub(3); // keep the header checksum right
    let rom = temp_file("size.gb", &image);
    let out = gbhost(&["headless", rom.to_str().unwrap(), "--frames", "2"]);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    let err = stderr(&out);
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("warning")).collect();
    assert!(
        warnings
            .iter()
            .any(|l| l.contains("ROM size code 0x03 says 256 KiB")),
        "{err}"
    );
    assert!(
        warnings.iter().all(|l| !l.contains("header checksum")),
        "{err}"
    );
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
    let (w, h, pixels) = gb_testkit::read_png_rgb(path).expect("decode png");
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
                ld a, $99
                ldh [$40], a        ; LCD on, BG on, tiles at $8000, map at $9C00 (all tile 0;
                                    ; $9800 holds the boot ROM's logo)
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
    assert_eq!((w as usize, h as usize), (GAME.width, GAME.height));
    // Row 0 of every tile row is black, the other rows white (the map is all tile 0).
    for y in 0..GAME.height {
        let want = if y % 8 == 0 { 0x00 } else { 0xFF };
        assert!(
            grey[y * GAME.width..(y + 1) * GAME.width]
                .iter()
                .all(|&g| g == want),
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
    let Some(rom) = gb_testkit::shared_rom("acid2/dmg-acid2.gb") else {
        return;
    };
    let roms = gb_testkit::rom_root();
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

/// A ROM that reads the joypad all the time and adds what it reads into $C000, so its state
/// depends on every frame's input.
fn joypad_rom() -> Vec<u8> {
    asm::rom(
        r#"
        .loop:
            ld a, $10
            ldh [$00], a        ; P1: the buttons
            ldh a, [$00]
            ld b, a
            ld a, [$C000]
            add a, b
            ld [$C000], a
            jr .loop
        "#,
    )
    .expect("assemble")
}

/// Record `frames` frames of seeded random input on `rom` into `movie` (`--aligned`: each
/// change at its frame's first cycle, as `bench --movie` needs).
fn record_random_movie(rom: &str, movie: &str, frames: u32, aligned: bool) {
    let frames = frames.to_string();
    let mut args = vec![
        "movie",
        "record",
        rom,
        "--out",
        movie,
        "--overwrite",
        "--frames",
        &frames,
        "--random-input",
        "7",
    ];
    if aligned {
        args.push("--aligned");
    }
    let rec = gbhost(&args);
    assert!(rec.status.success(), "stderr: {}", stderr(&rec));
}

#[test]
fn bench_runs_a_movies_input_from_a_frame_after_checking_it() {
    let rom = temp_file("bench-movie.gb", &joypad_rom());
    let movie = rom.with_file_name("bench-movie.gbm");
    let (r, m) = (rom.to_str().unwrap(), movie.to_str().unwrap());
    record_random_movie(r, m, 150, true);
    let out = gbhost(&[
        "bench", r, "--movie", m, "--from", "40", "--frames", "100", "--rounds", "2",
    ]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("fps: ") && lines[1].starts_with("mcycles-per-sec: "));
    let err = stderr(&out);
    // Chunks start at frames 0, 60 and 120: all three lie within the 140 frames played.
    assert!(
        err.contains("movie: frames 40-139 of 150 timed; 3 state checks matched"),
        "{err}"
    );
    assert_eq!(err.matches("round ").count(), 2, "{err}");
    // Without audio and pixels the rounds run the same input (the untimed check runs as the
    // movie was recorded: both are in the state it compares).
    let bot = gbhost(&[
        "bench",
        r,
        "--movie",
        m,
        "--no-audio",
        "--no-render",
        "--rounds",
        "1",
    ]);
    assert!(bot.status.success(), "stderr: {}", stderr(&bot));
    assert!(
        stderr(&bot).contains("3 state checks matched"),
        "{}",
        stderr(&bot)
    );
    // Past the movie's end: refused.
    let past = gbhost(&["bench", r, "--movie", m, "--from", "150"]);
    assert_eq!(past.status.code(), Some(2), "{}", stderr(&past));
    assert!(
        stderr(&past).contains("leaves none to time"),
        "{}",
        stderr(&past)
    );
}

#[test]
fn bench_refuses_a_movie_whose_input_changes_inside_frames() {
    let rom = temp_file("bench-subframe.gb", &joypad_rom());
    let movie = rom.with_file_name("bench-subframe.gbm");
    let (r, m) = (rom.to_str().unwrap(), movie.to_str().unwrap());
    record_random_movie(r, m, 300, false);
    let out = gbhost(&["bench", r, "--movie", m, "--rounds", "1"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("frame-aligned joypad input only"),
        "{}",
        stderr(&out)
    );
}

/// A ROM that plays a 440 Hz square (channel 2, duty 50 %, volume 15, both sides) forever.
fn tone_rom() -> Vec<u8> {
    asm::rom(
        r#"
            ld a, $80
            ldh [$26], a        ; NR52: power on
            ld a, $77
            ldh [$24], a        ; NR50: full volume
            ld a, $22
            ldh [$25], a        ; NR51: channel 2 left and right
            ld a, $80
            ldh [$16], a        ; NR21: duty 50 %
            ld a, $F0
            ldh [$17], a        ; NR22: volume 15, no envelope
            ld a, $D6
            ldh [$18], a        ; NR23: frequency 1750 (131072 / 298 = 439.8 Hz)
            ld a, $86
            ldh [$19], a        ; NR24: trigger, no length
        .forever:
            jr .forever
        "#,
    )
    .expect("assemble")
}

/// A WAV file's format and its samples (16-bit stereo expected).
fn read_wav(path: &std::path::Path) -> (u16, u32, u16, Vec<(i16, i16)>) {
    let b = std::fs::read(path).expect("read wav");
    assert_eq!(&b[0..4], b"RIFF");
    assert_eq!(&b[8..16], b"WAVEfmt ");
    let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
    let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    assert_eq!(u16_at(20), 1, "PCM");
    assert_eq!(&b[36..40], b"data");
    let len = u32_at(40) as usize;
    assert_eq!(len + 44, b.len(), "data size in the header");
    assert_eq!(u32_at(4) as usize, b.len() - 8, "RIFF size in the header");
    let samples = b[44..]
        .chunks_exact(4)
        .map(|c| {
            (
                i16::from_le_bytes([c[0], c[1]]),
                i16::from_le_bytes([c[2], c[3]]),
            )
        })
        .collect();
    (u16_at(22), u32_at(24), u16_at(34), samples)
}

#[test]
fn wav_is_48khz_stereo_16_bit_with_the_tone() {
    let rom = temp_file("tone.gb", &tone_rom());
    let wav = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli/tone.wav");
    let _ = std::fs::remove_file(&wav);
    let out = gbhost(&[
        "headless",
        rom.to_str().unwrap(),
        "--frames",
        "60",
        "--wav",
        wav.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    assert_eq!(stdout(&out), "frames: 60\n");
    let (channels, rate, bits, samples) = read_wav(&wav);
    assert_eq!((channels, rate, bits), (2, 48_000, 16));
    // 60 frames of 70,224 T-cycles at 4,194,304 Hz is 1.0046 s.
    let want = 60.0 * 70_224.0 / 4_194_304.0 * 48_000.0;
    assert!(
        (samples.len() as f64 - want).abs() < 100.0,
        "{} samples, about {want:.0} expected",
        samples.len()
    );
    // The second half: a 440 Hz square of high level, centred by the high-pass filter.
    let body = &samples[samples.len() / 2..];
    let ups = body
        .windows(2)
        .filter(|w| w[0].0 < 0 && w[1].0 >= 0)
        .count();
    let hz = ups as f64 * 48_000.0 / body.len() as f64;
    assert!((hz - 439.8).abs() < 5.0, "{hz:.1} Hz");
    let mean = body.iter().map(|s| f64::from(s.0)).sum::<f64>() / body.len() as f64;
    let rms = (body.iter().map(|s| f64::from(s.0).powi(2)).sum::<f64>() / body.len() as f64).sqrt();
    assert!(mean.abs() < 300.0, "DC left: {mean:.0}");
    assert!(rms > 3000.0, "rms {rms:.0}");
    assert!(
        body.iter().all(|s| s.0 == s.1),
        "both sides carry channel 2"
    );
    // Its temporary file is gone (other tests write theirs beside it in parallel).
    assert!(!wav.with_file_name(".tone.wav.tmp").exists());
}

#[test]
fn unwritable_wav_is_exit_2_with_one_line() {
    let rom = temp_file("tone2.gb", &tone_rom());
    let out = gbhost(&[
        "headless",
        rom.to_str().unwrap(),
        "--frames",
        "2",
        "--wav",
        "/nonexistent/dir/out.wav",
    ]);
    assert_clean_error(&out, "cannot write WAV");
}

#[test]
fn wav_does_not_change_the_run() {
    let rom = temp_file("serial-wav.gb", &serial_rom());
    let wav = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli/serial.wav");
    let args = ["--frames", "30", "--print-serial", "--print-regs"];
    let plain = gbhost(&[&["headless", rom.to_str().unwrap()][..], &args].concat());
    let with_wav = gbhost(
        &[
            &["headless", rom.to_str().unwrap()][..],
            &args,
            &["--wav", wav.to_str().unwrap()],
        ]
        .concat(),
    );
    assert!(plain.status.success() && with_wav.status.success());
    assert_eq!(stdout(&plain), stdout(&with_wav));
}

/// `gbhost play` with a scrubbed environment: `HOME` is `home`, no sound-server variables.
fn play(home: &std::path::Path, rom: &std::path::Path, frames: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gbhost"))
        .args(["play", rom.to_str().unwrap(), "--frames", frames])
        .env("HOME", home)
        .env_remove("XDG_RUNTIME_DIR")
        .env_remove("PULSE_SERVER")
        .output()
        .expect("run gbhost")
}

#[test]
fn play_without_a_sound_device_runs_silently_with_one_line() {
    if std::path::Path::new("/dev/snd").exists()
        || std::path::Path::new("/etc/asound.conf").exists()
    {
        eprintln!("*** SKIPPED: this machine has a sound device ***");
        return;
    }
    let home = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli/no-sound-home");
    std::fs::create_dir_all(&home).unwrap();
    let rom = temp_file("tone3.gb", &tone_rom());
    let t = std::time::Instant::now();
    let out = play(&home, &rom, "30");
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    assert_eq!(stdout(&out), "frames: 30\n");
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains("running silently"), "{err}");
    // Paced by the wall clock: 30 frames take about half a second.
    assert!(t.elapsed().as_secs_f64() > 0.4, "{:?}", t.elapsed());
}

#[test]
fn play_opens_an_alsa_device_and_feeds_it() {
    // ALSA's file plugin stands in for a sound card: whatever is played lands in a file.
    if !std::path::Path::new("/usr/share/alsa/alsa.conf").exists() {
        eprintln!("*** SKIPPED: no ALSA configuration on this machine ***");
        return;
    }
    let home = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli/alsa-file-home");
    std::fs::create_dir_all(&home).unwrap();
    let raw = home.join("played.raw");
    let _ = std::fs::remove_file(&raw);
    std::fs::write(
        home.join(".asoundrc"),
        format!(
            "pcm.!default {{\n type file\n slave.pcm \"null\"\n file \"{}\"\n format \"raw\"\n}}\n",
            raw.display()
        ),
    )
    .unwrap();
    let rom = temp_file("tone4.gb", &tone_rom());
    let out = play(&home, &rom, "60");
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    assert_eq!(stdout(&out), "frames: 60\n");
    assert!(stderr(&out).contains("playing at"), "{}", stderr(&out));
    let played = std::fs::metadata(&raw).map(|m| m.len()).unwrap_or(0);
    assert!(played > 0, "nothing reached the device");
}

#[test]
fn sync_test_is_clean_with_sound_and_writes_the_same_audio() {
    let rom = temp_file("tone5.gb", &tone_rom());
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli");
    let (plain_wav, synced_wav) = (dir.join("plain.wav"), dir.join("synced.wav"));
    let plain = gbhost(&[
        "headless",
        rom.to_str().unwrap(),
        "--frames",
        "40",
        "--wav",
        plain_wav.to_str().unwrap(),
    ]);
    let synced = gbhost(&[
        "headless",
        rom.to_str().unwrap(),
        "--frames",
        "40",
        "--sync-test",
        "3",
        "--wav",
        synced_wav.to_str().unwrap(),
    ]);
    assert!(plain.status.success(), "stderr: {}", stderr(&plain));
    assert!(synced.status.success(), "stderr: {}", stderr(&synced));
    assert!(
        stdout(&synced).contains("sync-test: 40 frames, 0 mismatches"),
        "{}",
        stdout(&synced)
    );
    let (_, _, _, a) = read_wav(&plain_wav);
    let (_, _, _, b) = read_wav(&synced_wav);
    assert!(a.len() > 30_000);
    assert!(a == b, "the sync test's audio differs from the plain run's");
}

/// `--ram-init`: what work RAM holds at power-on is the pattern of a seed (the same seed, the
/// same bytes; another seed, other bytes), zeros, or a random seed printed so the run repeats.
#[test]
fn ram_init_chooses_what_work_ram_holds_at_power_on() {
    let rom = temp_file("ram_init.gb", &asm::rom("loop:\n jr loop\n").unwrap());
    let rom = rom.to_str().unwrap();
    let peeks = |init: &str| {
        let mut args = vec!["headless", rom, "--frames", "1", "--ram-init", init];
        for a in ["C000", "C001", "D123", "DFFE"] {
            args.extend(["--peek", a]);
        }
        let out = gbhost(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        (stdout(&out), stderr(&out))
    };
    let (zero, _) = peeks("zero");
    assert!(
        zero.contains("peek C000=00") && zero.contains("peek DFFE=00"),
        "{zero}"
    );
    let (a, _) = peeks("12345");
    assert_eq!(peeks("12345").0, a, "one seed, one pattern");
    assert_ne!(peeks("0x3039").0, peeks("99").0, "other seeds, other bytes");
    assert_eq!(
        peeks("0x3039").0,
        a,
        "hex and decimal seeds are the same seed"
    );
    assert_eq!(peeks("pattern").0, peeks("pattern").0);
    let (random, note) = peeks("random");
    let seed = note
        .split("--ram-init ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap_or_else(|| panic!("no seed printed: {note}"));
    assert_eq!(peeks(seed).0, random, "the printed seed repeats the run");
    let bad = gbhost(&["headless", rom, "--ram-init", "lots"]);
    assert_eq!(bad.status.code(), Some(2));
}
