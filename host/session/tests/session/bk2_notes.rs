//! What a `.bk2` carries besides the input, and how it starts: comments, subtitles, TAStudio
//! markers and lag log read as BizHawk writes them and round-tripped (through a `.bk2`, and
//! through a gbhost movie's metadata); Gambatte's sync settings (console, boot ROM) read and
//! written explicitly; the boot ROM BizHawk forces; the cycle-count header.

use std::collections::BTreeMap;
use std::io::{Cursor, Read, Write};

use gb_core::{Buttons, Model};
use gb_session::movie::bk2::{
    self, Bk2, Bk2Error, Bk2Frame, Carried, ConsoleMode, GambatteSync, Marker, Subtitle,
};
use gb_session::movie::{Movie, Recorder};
use gb_session::{Session, SessionConfig};

use crate::common::counter_rom;

/// A zip of `(name, text)` entries, deflated.
fn zip_of(entries: &[(&str, &str)]) -> Vec<u8> {
    let options = zip::write::SimpleFileOptions::default();
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (name, text) in entries {
        zip.start_file(*name, options).unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// The text of entry `name`.
fn entry_text(bytes: &[u8], name: &str) -> String {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    let mut s = String::new();
    archive
        .by_name(name)
        .unwrap()
        .read_to_string(&mut s)
        .unwrap();
    s
}

const HEADER: &str = "MovieVersion BizHawk v2.0.0\r\nPlatform GB\r\nGameName Tobu\r\n\
    SHA1 AB12\r\nCore Gambatte\r\nrerecordCount 3\r\n\r\n";
const INPUT: &str = "[Input]\r\nLogKey:#Up|Down|Left|Right|Start|Select|B|A|Power|\r\n\
    |.........|\r\n|.......A.|\r\n|........P|\r\n|U........|\r\n[/Input]\r\n";

/// A movie with something in every note.
fn noted() -> Bk2 {
    let mut movie = Bk2::gambatte(
        "Tobu",
        "ab12",
        Model::Dmg,
        (0..10)
            .map(|i| Bk2Frame::one(Buttons(i as u8), i == 7))
            .collect(),
    );
    movie.comments = vec!["Made by a bot".into(), "Second  comment".into()];
    movie.subtitles = vec![
        Subtitle {
            frame: 2,
            x: 8,
            y: 16,
            duration: 120,
            color: 0xFFFF_FFFF,
            message: "two  spaces inside".into(),
        },
        Subtitle {
            frame: 2,
            x: 8,
            y: 4,
            duration: 60,
            color: 0x80FF_0000,
            message: "higher".into(),
        },
    ];
    movie.markers = vec![
        Marker {
            frame: 0,
            message: "Power on".into(),
        },
        Marker {
            frame: 5,
            message: "jump".into(),
        },
    ];
    movie.lag_log = Some(BTreeMap::from([(0, true), (1, false), (12, true)]));
    movie
}

#[test]
fn bk2_notes_round_trip_in_bizhawk_form() {
    let movie = noted();
    let bytes = bk2::write(&movie).unwrap();
    assert_eq!(
        entry_text(&bytes, "Comments.txt"),
        "Made by a bot\r\nSecond  comment\r\n\r\n"
    );
    // Sorted by frame then y, as BizHawk's SubtitleList.ToString does.
    assert_eq!(
        entry_text(&bytes, "Subtitles.txt"),
        "subtitle 2 8 4 60 80FF0000 higher\r\nsubtitle 2 8 16 120 FFFFFFFF two  spaces inside\r\n\r\n"
    );
    assert_eq!(
        entry_text(&bytes, "Markers.txt"),
        "0\tPower on\r\n5\tjump\r\n\r\n"
    );
    assert_eq!(
        entry_text(&bytes, "LagLog"),
        "{\"0\":true,\"1\":false,\"12\":true}\r\n{}\r\n"
    );
    let back = bk2::read(&bytes).unwrap();
    let mut expected = movie.clone();
    expected.subtitles.sort_by_key(|s| (s.frame, s.y));
    assert_eq!(back, expected);
    // No notes: no TAStudio entries at all, as Bk2Movie writes.
    let plain = Bk2::gambatte("Tobu", "ab12", Model::Dmg, Vec::new());
    let bytes = bk2::write(&plain).unwrap();
    let archive = zip::ZipArchive::new(Cursor::new(bytes.as_slice())).unwrap();
    assert!(
        archive
            .file_names_raw()
            .all(|n| n != b"Markers.txt" && n != b"LagLog")
    );
    assert_eq!(bk2::read(&bytes).unwrap(), plain);
}

#[test]
fn bk2_reads_notes_as_bizhawk_and_tastudio_write_them() {
    let bytes = zip_of(&[
        ("Header.txt", HEADER),
        ("Comments.txt", "\u{feff}first\n\n  indented\r\n"),
        (
            "Subtitles.txt",
            "subtitle 100 0 0 120 FFFFFFFF  Hello   world  \r\nsubtitle 3 1 2 4 ff00ff00 x\r\n\r\n",
        ),
        (
            "Markers.txt",
            "0\tPower on\r\n30\tboss\textra\r\n30\tboss 2\r\n",
        ),
        ("LagLog", "{\"0\":false,\"1\":true}\r\n{\"5\":true}\r\n"),
        ("Input Log.txt", INPUT),
    ]);
    let movie = bk2::read(&bytes).unwrap();
    assert_eq!(movie.comments, ["first", "  indented"]);
    assert_eq!(movie.subtitles.len(), 2);
    assert_eq!(
        movie.subtitles[0],
        Subtitle {
            frame: 3,
            x: 1,
            y: 2,
            duration: 4,
            color: 0xFF00_FF00,
            message: "x".into()
        }
    );
    assert_eq!(movie.subtitles[1].message, "Hello   world");
    assert_eq!(
        movie.markers,
        [
            Marker {
                frame: 0,
                message: "Power on".into()
            },
            Marker {
                frame: 30,
                message: "boss 2".into()
            }
        ]
    );
    assert_eq!(movie.lag_log, Some(BTreeMap::from([(0, false), (1, true)])));
    // Power is kept, on the frame that presses it.
    let power: Vec<bool> = movie.frames.iter().map(|f| f.power).collect();
    assert_eq!(power, [false, false, true, false]);
}

#[test]
fn bk2_damaged_notes_are_errors_naming_their_line() {
    let with = |name: &str, text: &str| {
        bk2::read(&zip_of(&[
            ("Header.txt", HEADER),
            (name, text),
            ("Input Log.txt", INPUT),
        ]))
    };
    for (name, text, line) in [
        (
            "Subtitles.txt",
            "subtitle 1 2 3 4 FFFFFFFF ok\nsubtitle x 2 3 4 FF a\n",
            2,
        ),
        ("Subtitles.txt", "subtitle 1 2 3\n", 1),
        ("Subtitles.txt", "subtitle 1 2 3 4 GG x\n", 1),
        ("Markers.txt", "\n\nno tab here\n", 3),
        ("Markers.txt", "-4\tnegative\n", 1),
        ("LagLog", "[1,2]\n", 1),
        ("LagLog", "{\"x\":true}\n", 1),
    ] {
        match with(name, text) {
            Err(Bk2Error::BadNote { entry, line: l, .. }) => {
                assert_eq!((entry, l), (name, line), "{text:?}")
            }
            other => panic!("{name} {text:?}: {other:?}"),
        }
    }
    // Export refuses what would not read back.
    let mut movie = noted();
    movie.markers[1].message = "a\tb".into();
    assert!(matches!(
        bk2::write(&movie),
        Err(Bk2Error::BadNoteText {
            entry: "Markers.txt",
            ..
        })
    ));
    let mut movie = noted();
    movie.comments.push("two\nlines".into());
    assert!(matches!(
        bk2::write(&movie),
        Err(Bk2Error::BadNoteText {
            entry: "Comments.txt",
            ..
        })
    ));
    let mut movie = noted();
    movie.subtitles[0].message = "cr\r".into();
    assert!(matches!(
        bk2::write(&movie),
        Err(Bk2Error::BadNoteText {
            entry: "Subtitles.txt",
            ..
        })
    ));
}

#[test]
fn bk2_cgb_movie_exports_console_mode_gbc() {
    let movie = Bk2::gambatte("uCity", "ab", Model::Cgb, Vec::new());
    let bytes = bk2::write(&movie).unwrap();
    let sync = entry_text(&bytes, "SyncSettings.json");
    assert!(sync.contains("\"ConsoleMode\":2,"), "{sync}");
    assert!(sync.contains("\"EnableBIOS\":false,"), "{sync}");
    let back = bk2::read(&bytes).unwrap();
    assert_eq!(
        GambatteSync::parse(&back.sync_settings).unwrap(),
        GambatteSync::new(ConsoleMode::Gbc, false)
    );
    assert_eq!(back.console().unwrap(), Some(Model::Cgb));
    assert_eq!(back.boot_rom().unwrap(), None);
    let dmg = Bk2::gambatte("Tobu", "ab", Model::Dmg, Vec::new());
    assert_eq!(
        GambatteSync::parse(&dmg.sync_settings)
            .unwrap()
            .console_mode,
        ConsoleMode::Gb
    );
    // A DMG game on the CGB: newer BizHawk says IsCGBDMGMode; a CGB game keeps IsCGBMode.
    let mut rom = counter_rom();
    for (compat, key) in [
        (0x00, "IsCGBDMGMode"),
        (0x84, "IsCGBDMGMode"),
        (0x80, "IsCGBMode"),
        (0xC0, "IsCGBMode"),
    ] {
        rom[0x143] = compat;
        let m = Bk2::gambatte("T", "ab", Model::Cgb, Vec::new()).name_cgb_mode_for(&rom);
        assert_eq!(m.header_value(key), Some("1"), "{compat:#x}");
        let back = bk2::read(&bk2::write(&m).unwrap()).unwrap();
        assert_eq!(back.console().unwrap(), Some(Model::Cgb));
    }
    let m = Bk2::gambatte("T", "ab", Model::Dmg, Vec::new()).name_cgb_mode_for(&rom);
    assert_eq!(m.header_value("IsCGBDMGMode"), None);
}

#[test]
fn bk2_sync_settings_decide_console_and_boot_rom() {
    let with = |sync: &str| {
        let mut m = Bk2::gambatte("T", "ab", Model::Dmg, Vec::new());
        m.sync_settings = sync.into();
        m
    };
    let ty = bk2::GAMBATTE_SYNC_TYPE;
    // BizHawk's defaults: the console from the ROM, no boot ROM.
    for blank in ["", "{\"o\":null}"] {
        let m = with(blank);
        assert_eq!(GambatteSync::parse(blank).unwrap(), GambatteSync::default());
        assert_eq!((m.console().unwrap(), m.boot_rom().unwrap()), (None, None));
    }
    // EnableBIOS true: the boot ROM, hash unknown.
    let m = with(&format!(
        "{{\"o\":{{\"$type\":\"{ty}\",\"EnableBIOS\":true,\"ConsoleMode\":0}}}}"
    ));
    assert_eq!(m.boot_rom().unwrap(), Some(None));
    // A firmware header (written for every boot ROM BizHawk served, also a forced one).
    let mut forced = with(&format!(
        "{{\"o\":{{\"$type\":\"{ty}\",\"EnableBIOS\":false}}}}"
    ));
    forced.set_header(
        "GB_Firmware_World",
        "4ed31ec6b0b175bb109c0eb5fd3d193da823339f",
    );
    assert_eq!(
        forced.boot_rom().unwrap(),
        Some(Some("4ED31EC6B0B175BB109C0EB5FD3D193DA823339F".into()))
    );
    // The console: by number or by name; GBA and SGB2 are refused with the reason.
    let mode = |v: &str| with(&format!("{{\"o\":{{\"ConsoleMode\":{v}}}}}")).console();
    assert_eq!(mode("1").unwrap(), Some(Model::Dmg));
    assert_eq!(mode("\"GBC\"").unwrap(), Some(Model::Cgb));
    assert!(matches!(mode("3"), Err(Bk2Error::UnsupportedConsole(_))));
    assert!(matches!(
        mode("\"SGB2\""),
        Err(Bk2Error::UnsupportedConsole(_))
    ));
    assert!(matches!(mode("9"), Err(Bk2Error::BadSyncSettings(_))));
    // The timing fields, as BizHawk 2.9 writes them and as older versions did.
    let now = GambatteSync::parse(&format!(
        "{{\"o\":{{\"$type\":\"{ty}\",\"FrameLength\":\"EqualLengthFrames\",\"InitialTime\":86400,\
         \"RTCDivisorOffset\":-3,\"MulticartCompat\":true}}}}"
    ))
    .unwrap();
    assert_eq!(
        (
            now.frame_length,
            now.initial_time,
            now.rtc_divisor_offset,
            now.multicart_compat
        ),
        (1, 86400, -3, true)
    );
    let old = GambatteSync::parse(&format!(
        "{{\"o\":{{\"$type\":\"{ty}\",\"RTCInitialTime\":5,\"EqualLengthFrames\":true}}}}"
    ))
    .unwrap();
    assert_eq!((old.frame_length, old.initial_time), (1, 5));
    // Written explicitly, they read back.
    let back = GambatteSync::parse(&now.to_json()).unwrap();
    assert_eq!(back, now);
    for bad in [
        "{\"o\":{\"FrameLength\":7}}",
        "{\"o\":{\"InitialTime\":-1}}",
        "{\"o\":{\"RTCDivisorOffset\":\"x\"}}",
        "{\"o\":{\"MulticartCompat\":1}}",
        "{\"o\":3}",
        "[]",
    ] {
        assert!(
            matches!(GambatteSync::parse(bad), Err(Bk2Error::BadSyncSettings(_))),
            "{bad}"
        );
    }
    // Damaged settings: an error from console(), no model from model().
    let broken = with("{\"o\":{\"ConsoleMode\":1");
    assert!(matches!(
        broken.console(),
        Err(Bk2Error::BadSyncSettings(_))
    ));
    assert_eq!(broken.model(), None);
    assert!(matches!(
        with("{\"o\":{\"EnableBIOS\":\"yes\"}}").boot_rom(),
        Err(Bk2Error::BadSyncSettings(_))
    ));
}

#[test]
fn bk2_boot_rom_and_cycle_count_headers() {
    let dmg = Bk2::gambatte("T", "ab", Model::Dmg, Vec::new())
        .with_boot_rom("4ed31ec6b0b175bb109c0eb5fd3d193da823339f")
        .with_cycles(35112 * 60);
    let back = bk2::read(&bk2::write(&dmg).unwrap()).unwrap();
    assert_eq!(
        back.header_value("GB_Firmware_World"),
        Some("4ED31EC6B0B175BB109C0EB5FD3D193DA823339F")
    );
    assert_eq!(back.header_value("CycleCount"), Some("2106720"));
    assert_eq!(back.header_value("ClockRate"), Some("2097152"));
    let sync = GambatteSync::parse(&back.sync_settings).unwrap();
    assert!(sync.enable_bios);
    assert_eq!(sync.console_mode, ConsoleMode::Gb);
    assert!(back.boot_rom().unwrap().is_some());
    let cgb = Bk2::gambatte("T", "ab", Model::Cgb, Vec::new()).with_boot_rom("cd");
    assert_eq!(cgb.header_value("GBC_Firmware_World"), Some("CD"));
    assert_eq!(cgb.header_value("GB_Firmware_World"), None);
}

/// A 32 KiB ROM whose header a boot ROM accepts.
fn bootable_rom() -> Vec<u8> {
    let mut rom = counter_rom();
    const LOGO: [u8; 48] = [
        0xCE, 0xED, 0x66, 0x66, 0xCC, 0x0D, 0x00, 0x0B, 0x03, 0x73, 0x00, 0x83, 0x00, 0x0C, 0x00,
        0x0D, 0x00, 0x08, 0x11, 0x1F, 0x88, 0x89, 0x00, 0x0E, 0xDC, 0xCC, 0x6E, 0xE6, 0xDD, 0xDD,
        0xD9, 0x99, 0xBB, 0xBB, 0x67, 0x63, 0x6E, 0x0E, 0xEC, 0xCC, 0xDD, 0xDC, 0x99, 0x9F, 0xBB,
        0xB9, 0x33, 0x3E,
    ];
    rom[0x104..0x134].copy_from_slice(&LOGO);
    fix_checksum(&mut rom);
    rom
}

fn fix_checksum(rom: &mut [u8]) {
    rom[0x14D] = rom[0x134..=0x14C]
        .iter()
        .fold(0u8, |x, &b| x.wrapping_sub(b).wrapping_sub(1));
}

#[test]
fn bk2_bios_is_forced_for_cartridges_a_boot_rom_accepts() {
    let good = bootable_rom();
    assert!(bk2::bios_forced(&good, false) && bk2::bios_forced(&good, true));
    // A bad header checksum: no boot ROM would start it, BizHawk does not force one.
    let mut bad = good.clone();
    bad[0x14D] ^= 1;
    assert!(!bk2::bios_forced(&bad, false) && !bk2::bios_forced(&bad, true));
    // The logo's bottom half: only the DMG's boot ROM checks it.
    let mut half = good.clone();
    half[0x130] ^= 0xFF;
    assert!(!bk2::bios_forced(&half, false) && bk2::bios_forced(&half, true));
    assert!(!bk2::bios_forced(&good[..0x140], false), "too short");
    if let Some(tobu) = gb_testkit::shared_rom_bytes("homebrew/tobutobugirl/tobutobugirl.gb") {
        assert!(
            bk2::bios_forced(&tobu, false),
            "Tobu Tobu Girl boots on hardware"
        );
    }
}

#[test]
fn bk2_notes_and_power_survive_a_gbhost_movie() {
    // .bk2 → the metadata of a recorded .gbm → a .bk2 again.
    let movie = noted();
    let carried = Carried::of(&movie);
    assert_eq!(carried.power, [7]);
    let mut meta = BTreeMap::new();
    carried.to_metadata(&mut meta);
    let dir = std::env::temp_dir().join(format!("gbhost-bk2-notes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("notes.gbm");
    let _ = std::fs::remove_file(&path);
    let mut s = Session::new(counter_rom(), None, SessionConfig::default()).unwrap();
    let mut rec = Recorder::create(&path, &mut s, vec![], meta).unwrap();
    for f in &movie.frames {
        s.set_buttons(f.buttons);
        s.run_frame();
        rec.after_frame(&mut s).unwrap();
    }
    rec.finish().unwrap();
    let gbm = Movie::open(&path).unwrap();
    let back = Carried::from_metadata(&gbm.header.metadata).unwrap();
    assert_eq!(back, carried);
    let (buttons, _) = gbm.frame_buttons().unwrap();
    let mut again = Bk2::gambatte(
        "Tobu",
        "ab12",
        Model::Dmg,
        buttons
            .iter()
            .map(|&buttons| Bk2Frame::one(buttons, false))
            .collect(),
    );
    back.apply(&mut again);
    let again = bk2::read(&bk2::write(&again).unwrap()).unwrap();
    let mut expected = movie.clone();
    expected.subtitles.sort_by_key(|s| (s.frame, s.y));
    assert_eq!(
        (
            &again.frames,
            &again.comments,
            &again.subtitles,
            &again.markers,
            &again.lag_log
        ),
        (
            &expected.frames,
            &expected.comments,
            &expected.subtitles,
            &expected.markers,
            &expected.lag_log
        )
    );
    // Damaged metadata is an error naming the key, never a panic.
    for (key, value) in [
        ("bk2.comments", "[1]"),
        ("bk2.subtitles", "[\"subtitle x\"]"),
        ("markers", "1\t-\tok\nno tabs\n"),
        ("markers", "x\t-\tnot a frame\n"),
        ("bk2.lag_log", "{\"a\":1}"),
        ("bk2.power", "[-1]"),
        ("bk2.power", "not json"),
    ] {
        let meta = BTreeMap::from([(key.to_string(), value.to_string())]);
        match Carried::from_metadata(&meta) {
            Err(Bk2Error::BadMetadata { key: k, .. }) => assert_eq!(k, key),
            other => panic!("{key} {value}: {other:?}"),
        }
    }
    assert_eq!(
        Carried::from_metadata(&BTreeMap::new()).unwrap(),
        Carried::default()
    );
}

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// One random edit of `text`: set, insert or delete a character from `alphabet`.
    fn mutate(&mut self, text: &mut Vec<u8>, alphabet: &[u8]) {
        let at = self.below(text.len() + 1);
        let c = alphabet[self.below(alphabet.len())];
        match self.below(3) {
            0 if at < text.len() => text[at] = c,
            1 if at < text.len() => {
                text.remove(at);
            }
            _ => text.insert(at, c),
        }
    }
}

/// Damaged notes, sync settings and metadata are errors, never panics; and a huge marker list
/// reads in linear time.
#[test]
fn bk2_fuzz_notes_sync_and_metadata_never_panic() {
    let mut rng = Rng(0x5eed);
    let movie = noted();
    let bytes = bk2::write(&movie).unwrap();
    let texts = [
        entry_text(&bytes, "Subtitles.txt"),
        entry_text(&bytes, "Markers.txt"),
        entry_text(&bytes, "LagLog"),
        entry_text(&bytes, "SyncSettings.json"),
        entry_text(&bytes, "Comments.txt"),
    ];
    let alphabet = b"subtitle 0123456789-ABCDEFG\t\r\n{}[]\":,.truefalsenull\xc3\xa9\xff";
    let (mut runs, mut oks) = (0usize, 0usize);
    for i in 0..4_000 {
        let which = i % texts.len();
        let mut t = texts[which].clone().into_bytes();
        for _ in 0..1 + rng.below(5) {
            rng.mutate(&mut t, alphabet);
        }
        let t = String::from_utf8_lossy(&t).into_owned();
        let name = [
            "Subtitles.txt",
            "Markers.txt",
            "LagLog",
            "SyncSettings.json",
            "Comments.txt",
        ][which];
        let archive = zip_of(&[("Header.txt", HEADER), (name, &t), ("Input Log.txt", INPUT)]);
        runs += 1;
        if let Ok(m) = bk2::read(&archive) {
            oks += 1;
            let _ = (m.console(), m.boot_rom(), m.model());
            // What reads also writes and reads back the same, or is refused cleanly.
            if let Ok(again) = bk2::write(&m) {
                assert_eq!(bk2::read(&again).unwrap().frames, m.frames);
            }
        }
        let mut meta = BTreeMap::new();
        Carried::of(&movie).to_metadata(&mut meta);
        let keys: Vec<String> = meta.keys().cloned().collect();
        let key = &keys[rng.below(keys.len())];
        let mut v = meta[key].clone().into_bytes();
        for _ in 0..1 + rng.below(4) {
            rng.mutate(&mut v, alphabet);
        }
        meta.insert(key.clone(), String::from_utf8_lossy(&v).into_owned());
        let _ = Carried::from_metadata(&meta);
    }
    assert!(oks > 0 && oks < runs, "{oks} of {runs} read");

    let many: String = (0..200_000).map(|i| format!("{i}\tm{i}\r\n")).collect();
    let t0 = std::time::Instant::now();
    let archive = zip_of(&[
        ("Header.txt", HEADER),
        ("Markers.txt", &many),
        ("Input Log.txt", INPUT),
    ]);
    assert_eq!(bk2::read(&archive).unwrap().markers.len(), 200_000);
    assert!(t0.elapsed().as_secs() < 20, "{:?}", t0.elapsed());
}
