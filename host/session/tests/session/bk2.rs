//! BizHawk `.bk2` import and export: round trips, movies written the way BizHawk writes them
//! (Gambatte, GBHawk, SameBoy, the 2.10 `||` lines, subframe logs), every error, and a fuzz
//! loop over mutated and random archives in which `read` must never panic.

use std::io::{Cursor, Read, Write};

use gb_core::Buttons;
use gb_session::movie::bk2::{self, Bk2, Bk2Error, Bk2Frame};
use zip::CompressionMethod;

// ---------------------------------------------------------------------------------------------
// Helpers.

/// A zip archive of `(name, bytes)` entries, compressed with `method`.
fn zip_of(entries: &[(&str, &[u8])], method: CompressionMethod) -> Vec<u8> {
    let options = zip::write::SimpleFileOptions::default().compression_method(method);
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (name, bytes) in entries {
        zip.start_file(*name, options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
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
        (self.next() % n as u64) as usize
    }

    fn frames(&mut self, n: usize) -> Vec<Bk2Frame> {
        (0..n)
            .map(|_| Bk2Frame::one(Buttons(self.next() as u8), self.below(50) == 0))
            .collect()
    }
}

fn frame(buttons: Buttons) -> Bk2Frame {
    Bk2Frame::one(buttons, false)
}

/// What BizHawk's Gambatte core writes as the sync settings (one line, `WriteLine`).
const GAMBATTE_SYNC: &str = r#"{"o":{"$type":"BizHawk.Emulation.Cores.Nintendo.Gameboy.Gameboy+GambatteSyncSettings, BizHawk.Emulation.Cores","EnableBIOS":true,"ConsoleMode":0,"PreferGBA":false,"MulticartCompat":false,"RealTimeRTC":false,"RTCInitialTime":0,"RTCDivisorOffset":0,"EqualLengthFrames":false,"FrameLength":0}}"#;

/// `Header.txt` as BizHawk writes it for a Gambatte movie: one `key value` line per entry,
/// then the blank line of the final `WriteLine`.
fn bizhawk_header(core: &str) -> String {
    [
        "MovieVersion BizHawk v2.0.0",
        "Author Some Author",
        "emuVersion Version 2.9.1",
        "OriginalEmuVersion Version 2.9.1",
        "Platform GB",
        "GameName Tobu Tobu Girl",
        "SHA1 4C5DE1CBEA76A3EDA1A4B9C6BD8B5A4A0E9E2D0F",
        "GB_Firmware_World 4ED31EC6B0B175BB109C0EB5FD3D193DA823339F",
        &format!("Core {core}"),
        "BoardName MBC1 ROM",
        "CycleCount 245760",
        "ClockRate 2097152",
        "rerecordCount 1337",
        "",
        "",
    ]
    .join("\r\n")
}

/// A `.bk2` with BizHawk's seven entries and the given header and input log.
fn bizhawk_bk2(header: &str, input_log: &str, method: CompressionMethod) -> Vec<u8> {
    zip_of(
        &[
            ("BizState 1.0", b"2\r\n"),
            ("BizVersion.txt", b"Version 2.9.1\r\n"),
            ("Header.txt", header.as_bytes()),
            ("Comments.txt", b"\r\n"),
            ("Subtitles.txt", b"\r\n"),
            (
                "SyncSettings.json",
                format!("{GAMBATTE_SYNC}\r\n").as_bytes(),
            ),
            ("Input Log.txt", input_log.as_bytes()),
        ],
        method,
    )
}

/// An input log with CRLF lines, as BizHawk writes it.
fn input_log(log_key: &str, lines: &[&str]) -> String {
    let mut text = format!("[Input]\r\nLogKey:{log_key}\r\n");
    for line in lines {
        text.push_str(line);
        text.push_str("\r\n");
    }
    text.push_str("[/Input]\r\n");
    text
}

/// The frames of the hand-written Gambatte log below.
fn expected_frames() -> Vec<Bk2Frame> {
    vec![
        Bk2Frame::one(Buttons(0), true),
        frame(Buttons(0)),
        frame(Buttons::START),
        frame(Buttons::UP | Buttons::A),
        frame(Buttons::RIGHT | Buttons::B),
        frame(Buttons(0xff)),
        frame(Buttons::SELECT | Buttons::DOWN | Buttons::LEFT),
    ]
}

const GAMBATTE_LINES: [&str; 7] = [
    "|........P|",
    "|.........|",
    "|....S....|",
    "|U......A.|",
    "|...R..B..|",
    "|UDLRSsBA.|",
    "|.DL..s...|",
];

fn read_err(bytes: &[u8]) -> Bk2Error {
    match bk2::read(bytes) {
        Ok(movie) => panic!("expected an error, read {} frames", movie.frames.len()),
        Err(e) => e,
    }
}

fn gambatte_log_with(line_5: &str) -> Vec<u8> {
    let mut lines = GAMBATTE_LINES.to_vec();
    lines[2] = line_5; // line 1 [Input], 2 LogKey, 3.. frames: index 2 is line 5
    bizhawk_bk2(
        &bizhawk_header("Gambatte"),
        &input_log(bk2::GAMBATTE_LOG_KEY, &lines),
        CompressionMethod::Deflated,
    )
}

// ---------------------------------------------------------------------------------------------
// Round trips.

#[test]
fn bk2_round_trip_is_identical() {
    let mut rng = Rng(1);
    let mut movie = Bk2::gambatte(
        "Tobu Tobu Girl",
        "4c5de1cbea76a3eda1a4b9c6bd8b5a4a0e9e2d0f",
        gb_core::Model::Dmg,
        rng.frames(5000),
    );
    movie
        .header
        .push(("Author".into(), "Two  Words, and ünïcödé".into()));
    movie.header.push(("IsCGBMode".into(), "1".into()));
    movie.header.push(("SomeFutureKey".into(), "".into()));
    movie
        .header
        .push(("Spaces".into(), "  leading and trailing  ".into()));
    movie.sync_settings = GAMBATTE_SYNC.to_string();
    movie.frames[0].power = true;

    let bytes = bk2::write(&movie).unwrap();
    let back = bk2::read(&bytes).unwrap();
    assert_eq!(back.header, movie.header);
    assert_eq!(back.sync_settings, movie.sync_settings);
    assert_eq!(back.frames, movie.frames);
    assert_eq!(back, movie);
    assert_eq!(
        back.header_value("SHA1"),
        Some("4C5DE1CBEA76A3EDA1A4B9C6BD8B5A4A0E9E2D0F")
    );
    // Deterministic: the same movie gives the same bytes.
    assert_eq!(bk2::write(&back).unwrap(), bytes);

    // The empty movie too.
    let empty = Bk2::gambatte("x", "00", gb_core::Model::Dmg, Vec::new());
    assert_eq!(bk2::read(&bk2::write(&empty).unwrap()).unwrap(), empty);
}

#[test]
fn bk2_round_trip_other_cores() {
    let mut rng = Rng(2);
    for core in ["GBHawk", "SameBoy"] {
        let mut movie = Bk2::gambatte("game", "ab", gb_core::Model::Dmg, rng.frames(300));
        for (k, v) in &mut movie.header {
            if k == "Core" {
                *v = core.to_string();
            }
        }
        if core == "SameBoy" {
            for f in &mut movie.frames {
                f.power = false;
            }
        }
        let bytes = bk2::write(&movie).unwrap();
        assert_eq!(bk2::read(&bytes).unwrap(), movie, "{core}");
        let log = entry_text(&bytes, "Input Log.txt");
        let key = if core == "GBHawk" {
            bk2::GBHAWK_LOG_KEY
        } else {
            bk2::SAMEBOY_LOG_KEY
        };
        assert!(
            log.starts_with(&format!("[Input]\r\nLogKey:{key}\r\n")),
            "{log}"
        );
    }
}

fn entry_text(zip_bytes: &[u8], name: &str) -> String {
    let mut archive = zip::ZipArchive::new(Cursor::new(zip_bytes)).unwrap();
    let mut entry = archive.by_name(name).unwrap();
    let mut text = String::new();
    entry.read_to_string(&mut text).unwrap();
    text
}

#[test]
fn bk2_written_archive_is_what_bizhawk_writes() {
    let movie = Bk2 {
        frames: expected_frames(),
        ..Bk2::gambatte("Tobu Tobu Girl", "AB12", gb_core::Model::Dmg, Vec::new())
    };
    let bytes = bk2::write(&movie).unwrap();
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes.as_slice())).unwrap();
    let names: Vec<String> = archive
        .file_names_raw()
        .map(|n| String::from_utf8(n.to_vec()).unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "BizState 1.0",
            "BizVersion.txt",
            "Header.txt",
            "Comments.txt",
            "Subtitles.txt",
            "SyncSettings.json",
            "Input Log.txt"
        ]
    );
    for i in 0..archive.len() {
        assert_eq!(
            archive.by_index(i).unwrap().compression(),
            CompressionMethod::Deflated
        );
    }
    assert_eq!(entry_text(&bytes, "BizState 1.0"), "2\r\n");
    assert_eq!(
        entry_text(&bytes, "Header.txt"),
        "MovieVersion BizHawk v2.0.0\r\nPlatform GB\r\nGameName Tobu Tobu Girl\r\nSHA1 AB12\r\n\
         Core Gambatte\r\nrerecordCount 0\r\n\r\n"
    );
    // The console pinned to the movie's model (Gambatte's `ConsoleMode` 1: GB), so BizHawk
    // does not pick the GBC for a colour-capable cartridge recorded on the DMG; no boot ROM;
    // every other setting explicit, at the value a gbhost movie matches.
    assert_eq!(
        entry_text(&bytes, "SyncSettings.json"),
        format!(
            "{{\"o\":{{\"$type\":\"{}\",\"EnableBIOS\":false,\"ConsoleMode\":1,\
             \"CartBusPullUpTime\":8,\"MulticartCompat\":false,\"RealTimeRTC\":false,\
             \"RTCDivisorOffset\":0,\"InitialTime\":0,\"EnableRemote\":false,\
             \"FrameLength\":0,\"DisplayBG\":true,\"DisplayOBJ\":true,\
             \"DisplayWindow\":true}}}}\r\n",
            bk2::GAMBATTE_SYNC_TYPE
        )
    );
    assert_eq!(
        entry_text(&bytes, "Input Log.txt"),
        input_log(
            "#Up|Down|Left|Right|Start|Select|B|A|Power|",
            &GAMBATTE_LINES
        )
    );
}

#[test]
fn bk2_blank_and_multiline_sync_settings_are_written_as_one_line() {
    let mut movie = Bk2::gambatte("g", "00", gb_core::Model::Dmg, Vec::new());
    movie.sync_settings = "   ".into();
    let back = bk2::read(&bk2::write(&movie).unwrap()).unwrap();
    assert_eq!(back.sync_settings, bk2::MINIMAL_SYNC_SETTINGS);
    movie.sync_settings = "{\r\n  \"o\": null\r\n}\n".into();
    let back = bk2::read(&bk2::write(&movie).unwrap()).unwrap();
    assert_eq!(back.sync_settings, "{ \"o\": null }");
}

// ---------------------------------------------------------------------------------------------
// Movies as BizHawk writes them.

#[test]
fn bk2_reads_a_bizhawk_gambatte_movie() {
    let input = input_log(
        "#Up|Down|Left|Right|Start|Select|B|A|Power|",
        &GAMBATTE_LINES,
    );
    for method in [CompressionMethod::Deflated, CompressionMethod::Stored] {
        let movie = bk2::read(&bizhawk_bk2(&bizhawk_header("Gambatte"), &input, method)).unwrap();
        assert_eq!(movie.frames, expected_frames());
        assert_eq!(movie.rerecords(), 1337);
        assert_eq!(movie.header_value("Core"), Some("Gambatte"));
        assert_eq!(movie.header_value("Platform"), Some("GB"));
        assert_eq!(movie.header_value("Author"), Some("Some Author"));
        assert_eq!(movie.header_value("NoSuchKey"), None);
        assert_eq!(movie.header.len(), 13);
        assert_eq!(
            movie.header[0],
            ("MovieVersion".into(), "BizHawk v2.0.0".into())
        );
        assert_eq!(movie.header[12], ("rerecordCount".into(), "1337".into()));
        assert_eq!(movie.sync_settings, GAMBATTE_SYNC);
    }
}

#[test]
fn bk2_reads_lf_bom_and_the_2_10_double_pipe() {
    // LF line breaks and a byte-order mark in every text.
    let header = format!(
        "\u{feff}{}",
        bizhawk_header("Gambatte").replace("\r\n", "\n")
    );
    let input = format!(
        "\u{feff}{}",
        input_log(bk2::GAMBATTE_LOG_KEY, &GAMBATTE_LINES).replace("\r\n", "\n")
    );
    let movie = bk2::read(&bizhawk_bk2(&header, &input, CompressionMethod::Deflated)).unwrap();
    assert_eq!(movie.frames, expected_frames());
    assert_eq!(movie.header[0].0, "MovieVersion");

    // BizHawk 2.10 and 2.11 wrote an extra `|` for the empty player group.
    let lines: Vec<String> = GAMBATTE_LINES.iter().map(|l| format!("{l}|")).collect();
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let input = input_log(bk2::GAMBATTE_LOG_KEY, &lines);
    let bytes = bizhawk_bk2(
        &bizhawk_header("Gambatte"),
        &input,
        CompressionMethod::Deflated,
    );
    assert_eq!(bk2::read(&bytes).unwrap().frames, expected_frames());
}

#[test]
fn bk2_reads_gbhawk_and_sameboy_movies() {
    let input = input_log(bk2::GBHAWK_LOG_KEY, &GAMBATTE_LINES);
    let bytes = bizhawk_bk2(
        &bizhawk_header("GBHawk"),
        &input,
        CompressionMethod::Deflated,
    );
    assert_eq!(bk2::read(&bytes).unwrap().frames, expected_frames());

    // SameBoy: A before B, Select before Start, no Power.
    let lines = ["|UDLRABsS|", "|........|", "|....A..S|", "|.....Bs.|"];
    let input = input_log(bk2::SAMEBOY_LOG_KEY, &lines);
    let bytes = bizhawk_bk2(
        &bizhawk_header("SameBoy"),
        &input,
        CompressionMethod::Deflated,
    );
    let frames = bk2::read(&bytes).unwrap().frames;
    assert_eq!(
        frames,
        [
            frame(Buttons(0xff)),
            frame(Buttons(0)),
            frame(Buttons::A | Buttons::START),
            frame(Buttons::B | Buttons::SELECT),
        ]
    );
}

#[test]
fn bk2_reads_whole_frame_subframe_logs_and_refuses_subframes() {
    let key = "#Input Length|Up|Down|Left|Right|Start|Select|B|A|Power|";
    let ok = input_log(key, &["|35112,U........|", "|35112,.......A.|"]);
    let movie = bk2::read(&bizhawk_bk2(
        &bizhawk_header("Gambatte"),
        &ok,
        CompressionMethod::Deflated,
    ))
    .unwrap();
    assert_eq!(movie.frames, [frame(Buttons::UP), frame(Buttons::A)]);

    let sub = input_log(key, &["|35112,.........|", "|20000,.........|"]);
    let err = read_err(&bizhawk_bk2(
        &bizhawk_header("Gambatte"),
        &sub,
        CompressionMethod::Deflated,
    ));
    assert!(
        matches!(
            err,
            Bk2Error::SubframeInput {
                line: 4,
                value: 20000,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("subframe"), "{err}");
}

#[test]
fn bk2_without_log_key_uses_the_cores() {
    let input = format!("[Input]\r\n{}\r\n[/Input]\r\n", GAMBATTE_LINES.join("\r\n"));
    let bytes = bizhawk_bk2(
        &bizhawk_header("GBHawk"),
        &input,
        CompressionMethod::Deflated,
    );
    assert_eq!(bk2::read(&bytes).unwrap().frames, expected_frames());
    let bytes = bizhawk_bk2(&bizhawk_header("mGBA"), &input, CompressionMethod::Deflated);
    assert!(matches!(read_err(&bytes), Bk2Error::MissingLogKey(_)));
}

// ---------------------------------------------------------------------------------------------
// Errors.

#[test]
fn bk2_refuses_what_is_not_a_zip() {
    for bytes in [&b""[..], b"PK\x03\x04", b"hello, world", &[0u8; 100]] {
        let err = read_err(bytes);
        assert!(matches!(err, Bk2Error::Zip(_)), "{err}");
        assert!(err.to_string().contains("zip"), "{err}");
    }
}

#[test]
fn bk2_refuses_missing_entries() {
    let input = input_log(bk2::GAMBATTE_LOG_KEY, &GAMBATTE_LINES);
    let header = bizhawk_header("Gambatte");
    let no_header = zip_of(
        &[("Input Log.txt", input.as_bytes())],
        CompressionMethod::Deflated,
    );
    let err = read_err(&no_header);
    assert!(matches!(err, Bk2Error::MissingEntry("Header.txt")), "{err}");
    assert!(err.to_string().contains("Header.txt"), "{err}");

    let no_input = zip_of(
        &[("Header.txt", header.as_bytes())],
        CompressionMethod::Deflated,
    );
    assert!(matches!(
        read_err(&no_input),
        Bk2Error::MissingEntry("Input Log.txt")
    ));

    // Only Header and Input Log are required, as in BizHawk.
    let minimal = zip_of(
        &[
            ("Header.txt", header.as_bytes()),
            ("Input Log.txt", input.as_bytes()),
        ],
        CompressionMethod::Deflated,
    );
    let movie = bk2::read(&minimal).unwrap();
    assert_eq!(movie.sync_settings, "");
    assert_eq!(movie.frames, expected_frames());

    // An entry in a folder is not the movie's.
    let nested = zip_of(
        &[
            ("dir/Header.txt", header.as_bytes()),
            ("Input Log.txt", input.as_bytes()),
        ],
        CompressionMethod::Deflated,
    );
    assert!(matches!(
        read_err(&nested),
        Bk2Error::MissingEntry("Header.txt")
    ));

    // BizHawk finds entries without their extension, so two Headers are ambiguous.
    let twice = zip_of(
        &[
            ("Header.txt", header.as_bytes()),
            ("Header.json", header.as_bytes()),
            ("Input Log.txt", input.as_bytes()),
        ],
        CompressionMethod::Deflated,
    );
    assert!(matches!(
        read_err(&twice),
        Bk2Error::DuplicateEntry("Header.txt")
    ));
}

#[test]
fn bk2_bad_lines_name_their_line_number() {
    let err = read_err(&gambatte_log_with("|....x....|"));
    assert!(
        matches!(
            err,
            Bk2Error::BadChar {
                line: 5,
                column: 6,
                found: 'x',
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("line 5"), "{err}");

    // A mnemonic in the wrong column is wrong too.
    let err = read_err(&gambatte_log_with("|A........|"));
    assert!(
        matches!(
            err,
            Bk2Error::BadChar {
                line: 5,
                column: 2,
                ..
            }
        ),
        "{err}"
    );

    for short_or_long in [
        "|........|",
        "|..........|",
        "|.........",
        "|",
        "|.........|x",
    ] {
        let err = read_err(&gambatte_log_with(short_or_long));
        assert!(
            matches!(err, Bk2Error::BadLineLength { line: 5, .. }),
            "{short_or_long}: {err}"
        );
        assert!(err.to_string().contains("|.........|"), "{err}");
    }

    let err = read_err(&gambatte_log_with("garbage"));
    assert!(
        matches!(err, Bk2Error::UnexpectedLine { line: 5, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("line 5"), "{err}");

    let long = format!("|{}|", ".".repeat(1000));
    assert!(matches!(
        read_err(&gambatte_log_with(&long)),
        Bk2Error::LineTooLong { line: 5, .. }
    ));
    let err = read_err(&gambatte_log_with("|....é....|"));
    assert!(
        matches!(
            err,
            Bk2Error::BadChar {
                line: 5,
                column: 6,
                found: 'é',
                ..
            }
        ),
        "{err}"
    );

    // A second LogKey, or one after the frames.
    let late = format!(
        "[Input]\r\nLogKey:{k}\r\n|.........|\r\nLogKey:{k}\r\n",
        k = bk2::GAMBATTE_LOG_KEY
    );
    let bytes = bizhawk_bk2(
        &bizhawk_header("Gambatte"),
        &late,
        CompressionMethod::Deflated,
    );
    assert!(matches!(
        read_err(&bytes),
        Bk2Error::MisplacedLogKey { line: 4, .. }
    ));
}

#[test]
fn bk2_refuses_other_platforms_and_keys() {
    let input = input_log(bk2::GAMBATTE_LOG_KEY, &GAMBATTE_LINES);
    let nes = bizhawk_header("Gambatte").replace("Platform GB", "Platform NES");
    let err = read_err(&bizhawk_bk2(&nes, &input, CompressionMethod::Deflated));
    assert!(
        matches!(&err, Bk2Error::NotGameBoy(p) if p == "NES"),
        "{err}"
    );
    assert!(err.to_string().contains("not a Game Boy movie"), "{err}");

    let gbc = bizhawk_header("Gambatte").replace("Platform GB", "Platform GBC");
    assert!(bk2::read(&bizhawk_bk2(&gbc, &input, CompressionMethod::Deflated)).is_ok());

    let none = bizhawk_header("Gambatte").replace("Platform GB\r\n", "");
    let err = read_err(&bizhawk_bk2(&none, &input, CompressionMethod::Deflated));
    assert!(matches!(err, Bk2Error::MissingPlatform), "{err}");

    // An NES key in a movie that claims to be GB.
    let nes_key = "#Reset|Power|#P1 Up|P1 Down|P1 Left|P1 Right|P1 Start|P1 Select|P1 B|P1 A|";
    let bytes = bizhawk_bk2(
        &bizhawk_header("Gambatte"),
        &input_log(nes_key, &["|..|........|"]),
        CompressionMethod::Deflated,
    );
    let err = read_err(&bytes);
    assert!(
        matches!(&err, Bk2Error::UnknownControl { line: 2, name } if name == "Reset"),
        "{err}"
    );
    // A second player without all of its buttons, a missing button, a button twice.
    for (key, want) in [
        (
            "#P1 Up|P1 Down|P1 Left|P1 Right|P1 Start|P1 Select|P1 B|P1 A|#P2 Up|",
            "missing2",
        ),
        ("#Up|Down|Left|Right|Start|Select|B|Power|", "missing"),
        ("#Up|Down|Left|Right|Start|Select|B|A|P1 A|", "twice"),
    ] {
        let bytes = bizhawk_bk2(
            &bizhawk_header("Gambatte"),
            &input_log(key, &[]),
            CompressionMethod::Deflated,
        );
        let err = read_err(&bytes);
        let ok = match want {
            "missing2" => matches!(err, Bk2Error::MissingControl { player: 2, .. }),
            "missing" => matches!(err, Bk2Error::MissingControl { button: "A", .. }),
            _ => matches!(err, Bk2Error::DuplicateControl { .. }),
        };
        assert!(ok, "{key}: {err}");
    }

    let state =
        bizhawk_header("Gambatte").replace("rerecordCount", "StartsFromSavestate True\r\nx");
    let err = read_err(&bizhawk_bk2(&state, &input, CompressionMethod::Deflated));
    assert!(matches!(err, Bk2Error::UnsupportedStart(_)), "{err}");
}

#[test]
fn bk2_refuses_oversized_entries() {
    let header = bizhawk_header("Gambatte");
    let huge = vec![b'|'; bk2::MAX_ENTRY_BYTES as usize + 1];
    let bytes = zip_of(
        &[("Header.txt", header.as_bytes()), ("Input Log.txt", &huge)],
        CompressionMethod::Stored,
    );
    let err = read_err(&bytes);
    assert!(matches!(err, Bk2Error::EntryTooLarge { .. }), "{err}");
    assert!(err.to_string().contains("Input Log.txt"), "{err}");
}

#[test]
fn bk2_write_refuses_what_would_not_read_back() {
    let base = Bk2::gambatte("g", "00", gb_core::Model::Dmg, vec![Bk2Frame::default()]);
    let with = |key: &str, value: &str| {
        let mut m = base.clone();
        m.header.push((key.to_string(), value.to_string()));
        bk2::write(&m).unwrap_err()
    };
    assert!(matches!(with("two words", "x"), Bk2Error::BadHeaderKey(_)));
    assert!(matches!(with("", "x"), Bk2Error::BadHeaderKey(_)));
    assert!(matches!(
        with("Author", "a\nb"),
        Bk2Error::BadHeaderValue(_)
    ));
    assert!(matches!(
        with("Platform", "GB"),
        Bk2Error::DuplicateHeaderKey(_)
    ));

    let set = |key: &str, value: &str| {
        let mut m = base.clone();
        for (k, v) in &mut m.header {
            if k == key {
                *v = value.to_string();
            }
        }
        m
    };
    assert!(matches!(
        bk2::write(&set("Platform", "NES")),
        Err(Bk2Error::NotGameBoy(_))
    ));
    assert!(matches!(
        bk2::write(&set("Core", "mGBA")),
        Err(Bk2Error::UnsupportedCore(_))
    ));
    let mut sameboy = set("Core", "SameBoy");
    sameboy.frames[0].power = true;
    let err = bk2::write(&sameboy).unwrap_err();
    assert!(
        matches!(err, Bk2Error::PowerNotSupported { frame: 0, .. }),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------------
// Fuzz: no input makes `read` panic.

#[test]
fn bk2_fuzz_read_never_panics() {
    let mut rng = Rng(0xb12);
    let mut movie = Bk2::gambatte("Fuzz", "ABCDEF", gb_core::Model::Dmg, rng.frames(40));
    movie.sync_settings = GAMBATTE_SYNC.to_string();
    let valid = bk2::write(&movie).unwrap();
    let stored = bizhawk_bk2(
        &bizhawk_header("Gambatte"),
        &input_log(bk2::GAMBATTE_LOG_KEY, &GAMBATTE_LINES),
        CompressionMethod::Stored,
    );
    let (mut runs, mut oks) = (0usize, 0usize);
    let mut count = |result: Result<Bk2, Bk2Error>| {
        runs += 1;
        if let Ok(m) = result {
            oks += 1;
            assert!(m.frames.len() <= bk2::MAX_FRAMES);
        }
    };

    // 1. Byte-level mutations of whole archives (deflated and stored).
    for i in 0..24_000 {
        let mut bytes = if i % 2 == 0 {
            valid.clone()
        } else {
            stored.clone()
        };
        for _ in 0..1 + rng.below(4) {
            mutate(&mut rng, &mut bytes, b"\x00\xff|.PK\x03\x04\x01\x02\r\n");
        }
        count(bk2::read(&bytes));
    }

    // 2. Random bytes, some behind a zip signature.
    for i in 0..3_000 {
        let len = rng.below(600);
        let mut bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        if i % 2 == 0 && bytes.len() >= 4 {
            bytes[..4].copy_from_slice(b"PK\x03\x04");
        }
        count(bk2::read(&bytes));
    }

    // 3. Mutations of the texts themselves, in a well-formed archive, so that the header and
    //    input-log parsers see the damage.
    let header = bizhawk_header("Gambatte");
    let log = input_log(bk2::GAMBATTE_LOG_KEY, &GAMBATTE_LINES);
    let alphabet = b"|.UDLRSsBAP#:\r\n ,0123456789LogKey[]/Input FrameP1 \xc3\xa9\xff";
    for _ in 0..12_000 {
        let mut h = header.clone().into_bytes();
        let mut l = log.clone().into_bytes();
        let target = if rng.below(4) == 0 { &mut h } else { &mut l };
        for _ in 0..1 + rng.below(6) {
            mutate(&mut rng, target, alphabet);
        }
        let bytes = zip_of(
            &[("Header.txt", &h), ("Input Log.txt", &l)],
            CompressionMethod::Stored,
        );
        count(bk2::read(&bytes));
    }

    println!(
        "bk2 fuzz: {runs} reads, {oks} Ok, {} errors, no panic",
        runs - oks
    );
    assert!(runs >= 20_000);
    assert!(oks > 0, "some mutations should still read");
}

/// One random edit: flip a bit, set a byte (from `alphabet` or anything), insert, delete,
/// duplicate a span, or truncate.
fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>, alphabet: &[u8]) {
    if bytes.is_empty() {
        bytes.push(alphabet[rng.below(alphabet.len())]);
        return;
    }
    let at = rng.below(bytes.len());
    match rng.below(7) {
        0 => bytes[at] ^= 1 << rng.below(8),
        1 => bytes[at] = alphabet[rng.below(alphabet.len())],
        2 => bytes[at] = rng.next() as u8,
        3 => bytes.insert(at, alphabet[rng.below(alphabet.len())]),
        4 => {
            bytes.remove(at);
        }
        5 => {
            let end = (at + 1 + rng.below(16)).min(bytes.len());
            let span = bytes[at..end].to_vec();
            let to = rng.below(bytes.len());
            bytes.splice(to..to, span);
        }
        _ => bytes.truncate(at),
    }
}

/// The model travels both ways: a CGB export says `IsCGBMode 1` and pins Gambatte's console to
/// the GBC; a DMG export pins it to the GB; imports read either, and BizHawk's older
/// `Platform GBC` too.
#[test]
fn bk2_carries_the_model() {
    use gb_core::Model;
    let cgb = Bk2::gambatte("uCity", "ab", Model::Cgb, Vec::new());
    assert_eq!(cgb.header_value("IsCGBMode"), Some("1"));
    assert!(
        cgb.sync_settings.contains("\"ConsoleMode\":2"),
        "{}",
        cgb.sync_settings
    );
    let back = bk2::read(&bk2::write(&cgb).unwrap()).unwrap();
    assert_eq!(back.model(), Some(Model::Cgb));
    let dmg = Bk2::gambatte("Tobu", "ab", Model::Dmg, Vec::new());
    assert_eq!(dmg.header_value("IsCGBMode"), None);
    assert_eq!(dmg.model(), Some(Model::Dmg));
    let mut old = dmg.clone();
    old.sync_settings = bk2::MINIMAL_SYNC_SETTINGS.into();
    assert_eq!(old.model(), None, "BizHawk chose from the ROM");
    old.header
        .iter_mut()
        .filter(|(k, _)| k == "Platform")
        .for_each(|(_, v)| *v = "GBC".into());
    assert_eq!(old.model(), Some(Model::Cgb));
}
