//! `gbhost movie convert` and BizHawk's `.bk2`, through the real binary: export needs the ROM,
//! names it by SHA-1, writes the length in Gambatte's cycles and refuses a post-boot movie that
//! BizHawk would boot through the boot ROM (unless `--force`); import refuses a ROM whose SHA-1
//! differs, a boot ROM it is not given and Power presses it cannot replay (unless `--force`),
//! and comments, subtitles, markers, lag log and Power presses come back out on re-export.

use std::path::{Path, PathBuf};

use gb_core::Buttons;
use gb_session::movie::bk2::{self, Bk2, Bk2Frame, GambatteSync, Marker, Subtitle};

use crate::common::{gbhost, text};

/// A fresh folder with a copy of Tobu Tobu Girl (the app may write a battery file beside its
/// ROM), or `None` without the shared ROM folder.
fn setup(name: &str) -> Option<(PathBuf, PathBuf, Vec<u8>)> {
    let src = gb_testkit::shared_rom("homebrew/tobutobugirl/tobutobugirl.gb")?;
    let d = crate::common::tmp_dir(name);
    let rom = d.join("tobu.gb");
    std::fs::copy(&src, &rom).unwrap();
    let bytes = std::fs::read(&rom).unwrap();
    Some((d, rom, bytes))
}

fn sha1(bytes: &[u8]) -> String {
    sha1_smol::Sha1::from(bytes)
        .digest()
        .to_string()
        .to_ascii_uppercase()
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn bk2_export_names_the_rom_counts_cycles_and_refuses_a_start_bizhawk_changes() {
    let Some((d, rom, bytes)) = setup("bk2-export") else {
        return;
    };
    let (gbm, bk) = (d.join("a.gbm"), d.join("a.bk2"));
    let rec = gbhost(&[
        "movie",
        "record",
        &s(&rom),
        "--overwrite",
        "--out",
        &s(&gbm),
        "--frames",
        "240",
        "--random-input",
        "5",
        "--aligned",
    ]);
    assert!(rec.status.success(), "{}", text(&rec));
    let convert = |extra: &[&str]| {
        let mut args = vec!["movie", "convert", "--overwrite"];
        let (g, b) = (s(&gbm), s(&bk));
        let mut all: Vec<String> = args.drain(..).map(String::from).collect();
        all.extend([g, b]);
        all.extend(extra.iter().map(|x| x.to_string()));
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        gbhost(&refs)
    };
    // No ROM: no SHA1, no length; refused rather than written half.
    let out = convert(&[]);
    assert!(!out.status.success());
    assert!(text(&out).contains("needs --rom"), "{}", text(&out));
    // A post-boot movie of a cartridge whose header boots: BizHawk would run the boot ROM.
    let out = convert(&["--rom", &s(&rom)]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("boot ROM") && text(&out).contains("--force"),
        "{}",
        text(&out)
    );
    assert!(!bk.exists());
    // Forced: written, with a warning, EnableBIOS false.
    let out = convert(&["--rom", &s(&rom), "--force"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("warning (--force)"), "{}", text(&out));
    let movie = bk2::read(&std::fs::read(&bk).unwrap()).unwrap();
    assert_eq!(movie.frames.len(), 240);
    assert_eq!(movie.header_value("SHA1"), Some(sha1(&bytes).as_str()));
    assert_eq!(movie.header_value("ClockRate"), Some("2097152"));
    let cycles: u64 = movie.header_value("CycleCount").unwrap().parse().unwrap();
    // 240 frames of 35,112 Gambatte ticks (70,224 T-cycles) while the LCD runs.
    assert!(
        cycles.abs_diff(240 * 35_112) <= 35_112,
        "CycleCount {cycles}"
    );
    assert_eq!(
        GambatteSync::parse(&movie.sync_settings).unwrap(),
        GambatteSync::new(bk2::ConsoleMode::Gb, false)
    );
    // A movie that started with a boot ROM (256 bytes of NOPs, recorded here through the
    // library: `movie record` has no --boot-rom) needs it to export, and carries its SHA-1.
    let boot_image = vec![0u8; 256];
    let boot = d.join("boot.bin");
    std::fs::write(&boot, &boot_image).unwrap();
    let _ = std::fs::remove_file(&gbm);
    let power = gb_session::PowerOn {
        boot_rom: Some(boot_image.clone()),
        ..gb_session::PowerOn::default()
    };
    let mut session =
        gb_session::Session::power_on(bytes.clone(), power, Default::default()).unwrap();
    let mut rec =
        gb_session::movie::Recorder::create(&gbm, &mut session, vec![], Default::default())
            .unwrap();
    for _ in 0..90 {
        session.run_frame();
        rec.after_frame(&mut session).unwrap();
    }
    rec.finish().unwrap();
    let out = convert(&["--rom", &s(&rom)]);
    assert!(!out.status.success());
    assert!(text(&out).contains("--boot-rom"), "{}", text(&out));
    let out = convert(&["--rom", &s(&rom), "--boot-rom", &s(&boot)]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(!text(&out).contains("no CycleCount"), "{}", text(&out));
    let movie = bk2::read(&std::fs::read(&bk).unwrap()).unwrap();
    assert_eq!(
        movie.header_value("GB_Firmware_World"),
        Some(sha1(&boot_image).as_str())
    );
    assert!(
        GambatteSync::parse(&movie.sync_settings)
            .unwrap()
            .enable_bios
    );
    assert!(movie.header_value("CycleCount").is_some());
}

/// A .bk2 of Tobu made in code, as BizHawk would write it, with notes and a Power press.
fn made_bk2(rom: &[u8], power_at: Option<usize>) -> Bk2 {
    let frames = (0..180)
        .map(|i| Bk2Frame {
            buttons: match i {
                60..=64 | 120..=124 => Buttons::START,
                _ if i > 130 && i % 7 == 0 => Buttons::A,
                _ => Buttons(0),
            },
            power: Some(i) == power_at,
            ..Bk2Frame::default()
        })
        .collect();
    let mut movie = Bk2::gambatte("Tobu Tobu Girl", &sha1(rom), gb_core::Model::Dmg, frames);
    movie.comments = vec!["A test movie".into()];
    movie.subtitles = vec![Subtitle {
        frame: 60,
        x: 0,
        y: 0,
        duration: 30,
        color: 0xFFFF_FFFF,
        message: "Start!".into(),
    }];
    movie.markers = vec![Marker {
        frame: 120,
        message: "second start".into(),
    }];
    movie.lag_log = Some([(0, true), (1, true), (2, false)].into());
    movie
}

#[test]
fn bk2_import_checks_the_rom_and_keeps_notes_and_power() {
    let Some((d, rom, bytes)) = setup("bk2-import") else {
        return;
    };
    let (src, gbm, back) = (d.join("in.bk2"), d.join("b.gbm"), d.join("back.bk2"));
    let run = |args: &[&str]| {
        let mut all = vec!["movie", "convert", "--overwrite"];
        all.extend_from_slice(args);
        gbhost(&all)
    };
    // The ROM's SHA-1 differs: refused, then forced.
    let mut wrong = made_bk2(&bytes, None);
    wrong.set_header("SHA1", "0000000000000000000000000000000000000000");
    std::fs::write(&src, bk2::write(&wrong).unwrap()).unwrap();
    let out = run(&[&s(&src), &s(&gbm), "--rom", &s(&rom)]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("SHA-1") && text(&out).contains(&sha1(&bytes)),
        "{}",
        text(&out)
    );
    let out = run(&[&s(&src), &s(&gbm), "--rom", &s(&rom), "--force"]);
    assert!(out.status.success(), "{}", text(&out));

    // Equal-length frames: input would land on other frames in gbhost.
    let mut equal = made_bk2(&bytes, None);
    equal.sync_settings = equal
        .sync_settings
        .replace("\"FrameLength\":0", "\"FrameLength\":1");
    std::fs::write(&src, bk2::write(&equal).unwrap()).unwrap();
    let out = run(&[&s(&src), &s(&gbm), "--rom", &s(&rom)]);
    assert!(!out.status.success());
    assert!(text(&out).contains("FrameLength"), "{}", text(&out));

    // A movie BizHawk played with the boot ROM: refused without it.
    let booted = made_bk2(&bytes, None).with_boot_rom("4ED31EC6B0B175BB109C0EB5FD3D193DA823339F");
    std::fs::write(&src, bk2::write(&booted).unwrap()).unwrap();
    let out = run(&[&s(&src), &s(&gbm), "--rom", &s(&rom)]);
    assert!(!out.status.success());
    assert!(text(&out).contains("--boot-rom"), "{}", text(&out));

    // Power on frame 150: gbhost has no reset event, so it is refused, then kept as metadata.
    let movie = made_bk2(&bytes, Some(150));
    std::fs::write(&src, bk2::write(&movie).unwrap()).unwrap();
    let out = run(&[&s(&src), &s(&gbm), "--rom", &s(&rom)]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("frame 150 presses Power"),
        "{}",
        text(&out)
    );
    let out = run(&[&s(&src), &s(&gbm), "--rom", &s(&rom), "--force"]);
    assert!(out.status.success(), "{}", text(&out));
    let info = gbhost(&["movie", "info", &s(&gbm)]);
    assert!(
        text(&info).contains("meta bk2.power: [150]"),
        "{}",
        text(&info)
    );
    // Back to .bk2: the notes and the Power press return.
    let out = run(&[&s(&gbm), &s(&back), "--rom", &s(&rom), "--force"]);
    assert!(out.status.success(), "{}", text(&out));
    let again = bk2::read(&std::fs::read(&back).unwrap()).unwrap();
    assert_eq!(again.frames, movie.frames);
    assert_eq!(again.comments, movie.comments);
    assert_eq!(again.subtitles, movie.subtitles);
    assert_eq!(again.markers, movie.markers);
    assert_eq!(again.lag_log, movie.lag_log);
    assert_eq!(again.header_value("SHA1"), Some(sha1(&bytes).as_str()));
}
