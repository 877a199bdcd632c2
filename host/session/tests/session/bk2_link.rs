//! BizHawk `.bk2` movies of a linked pair (its GambatteLink core): the LogKey and lines with
//! both players and the cable's toggle, the per-player sync settings, the bundle's SHA-1,
//! round trips, older BizHawk's DualGambatte, and what a one-Game-Boy LogKey refuses.

use std::io::{Cursor, Read, Write};

use gb_core::{Buttons, Model};
use gb_session::movie::bk2::{self, Bk2, Bk2Error, Bk2Frame};

fn zip_of(entries: &[(&str, &str)]) -> Vec<u8> {
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (name, text) in entries {
        zip.start_file(*name, options).unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

fn entry_text(zip_bytes: &[u8], name: &str) -> String {
    let mut archive = zip::ZipArchive::new(Cursor::new(zip_bytes)).unwrap();
    let mut text = String::new();
    archive
        .by_name(name)
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    text
}

/// A pair's frame.
fn pair(p1: Buttons, p2: Buttons, toggle: bool) -> Bk2Frame {
    Bk2Frame {
        second: p2,
        toggle_link: toggle,
        ..Bk2Frame::one(p1, false)
    }
}

/// Frames of both players, the cable toggled and Power pressed on either side now and then.
fn pair_frames(n: u32) -> Vec<Bk2Frame> {
    let mut x = 0x2545_f491_u32;
    (0..n)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            Bk2Frame {
                buttons: Buttons(x as u8),
                power: i % 97 == 5,
                second: Buttons((x >> 8) as u8),
                second_power: i % 89 == 7,
                toggle_link: (x >> 16).is_multiple_of(11),
            }
        })
        .collect()
}

#[test]
fn bk2_link_movie_is_what_bizhawk_writes_and_round_trips() {
    let mut movie = Bk2::gambatte_link(
        "Red + Blue",
        "25cbc4e0",
        [Model::Dmg, Model::Cgb],
        vec![
            pair(Buttons(0), Buttons(0), false),
            pair(Buttons::UP | Buttons::A, Buttons::START, true),
            Bk2Frame {
                power: true,
                second_power: true,
                ..pair(Buttons(0xff), Buttons(0xff), false)
            },
        ],
    );
    let bytes = bk2::write(&movie).unwrap();
    assert_eq!(
        entry_text(&bytes, "Header.txt"),
        "MovieVersion BizHawk v2.0.0\r\nPlatform GBL\r\nGameName Red + Blue\r\nSHA1 25CBC4E0\r\n\
         Core GambatteLink\r\nrerecordCount 0\r\n\r\n"
    );
    // The console group first, then each player's nine buttons in GambatteLink's order
    // (Up Down Left Right A B Select Start Power), each group closed by `|`.
    assert_eq!(
        entry_text(&bytes, "Input Log.txt"),
        "[Input]\r\nLogKey:#Toggle Link Connection|#P1 Up|P1 Down|P1 Left|P1 Right|P1 A|P1 B|\
         P1 Select|P1 Start|P1 Power|#P2 Up|P2 Down|P2 Left|P2 Right|P2 A|P2 B|P2 Select|\
         P2 Start|P2 Power|\r\n\
         |.|.........|.........|\r\n\
         |L|U...A....|.......S.|\r\n\
         |.|UDLRABsSP|UDLRABsSP|\r\n\
         [/Input]\r\n"
    );
    let sync = entry_text(&bytes, "SyncSettings.json");
    let json: serde_json::Value = serde_json::from_str(sync.trim_end()).unwrap();
    assert_eq!(json["o"]["$type"], bk2::GAMBATTE_LINK_SYNC_TYPE);
    let sides = json["o"]["_linkedSyncSettings"].as_array().unwrap();
    assert_eq!(sides.len(), 4, "GambatteLink keeps room for four");
    assert_eq!(sides[0]["ConsoleMode"], 1);
    assert_eq!(sides[1]["ConsoleMode"], 2);
    assert_eq!(sides[0]["EnableBIOS"], false);
    assert_eq!(sides[1]["FrameLength"], 0);

    let back = bk2::read(&bytes).unwrap();
    assert_eq!(back, movie);
    assert!(back.is_linked());
    assert_eq!(back.players(), 2);
    assert_eq!(
        back.consoles().unwrap(),
        vec![Some(Model::Dmg), Some(Model::Cgb)]
    );
    assert_eq!(back.console().unwrap(), Some(Model::Dmg));
    assert_eq!(back.boot_rom().unwrap(), None);

    // A long random one too, written twice to the same bytes.
    movie.frames = pair_frames(5000);
    let bytes = bk2::write(&movie).unwrap();
    assert_eq!(bk2::read(&bytes).unwrap().frames, movie.frames);
    assert_eq!(bk2::write(&bk2::read(&bytes).unwrap()).unwrap(), bytes);
}

#[test]
fn bk2_link_boot_rom_is_both_players() {
    let movie =
        Bk2::gambatte_link("g", "00", [Model::Cgb, Model::Cgb], Vec::new()).with_boot_rom("abcd");
    assert_eq!(movie.header_value("GBC_Firmware_World"), Some("ABCD"));
    let sync = bk2::GambatteSync::parse_linked(&movie.sync_settings).unwrap();
    assert!(sync.iter().all(|s| s.enable_bios));
    assert_eq!(movie.boot_rom().unwrap(), Some(Some("ABCD".into())));
}

#[test]
fn bk2_link_sha1_is_the_bundles() {
    // SHA-1 of SHA-1("first rom") ++ SHA-1("second rom"), worked out with Python's hashlib.
    assert_eq!(
        bk2::link_sha1_hex(b"first rom", b"second rom"),
        "25CBC4E026F25C8D8E249B7A904F2204740AF89D"
    );
    assert_ne!(
        bk2::link_sha1_hex(b"second rom", b"first rom"),
        bk2::link_sha1_hex(b"first rom", b"second rom"),
        "the order of the players counts"
    );
}

/// A GambatteLink movie as newer BizHawk (System.Text.Json, no `$type`) writes it.
fn bizhawk_link_movie(platform: &str, core: &str, log_key: &str, lines: &[&str]) -> Vec<u8> {
    let side = |mode: u8| {
        format!(r#"{{"EnableBIOS":false,"ConsoleMode":{mode},"FrameLength":0,"InitialTime":0}}"#)
    };
    let sync = format!(
        r#"{{"o":{{"_linkedSyncSettings":[{},{},{},{}]}}}}"#,
        side(2),
        side(1),
        side(0),
        side(0)
    );
    let mut log = format!("[Input]\r\nLogKey:{log_key}\r\n");
    for l in lines {
        log.push_str(l);
        log.push_str("\r\n");
    }
    log.push_str("[/Input]\r\n");
    zip_of(&[
        ("BizState 1.0", "2\r\n"),
        ("BizVersion.txt", "Version 2.10\r\n"),
        (
            "Header.txt",
            &format!(
                "MovieVersion BizHawk v2.0.0\r\nPlatform {platform}\r\nGameName pair\r\n\
                 SHA1 00\r\nCore {core}\r\nrerecordCount 3\r\n\r\n"
            ),
        ),
        ("SyncSettings.json", &format!("{sync}\r\n")),
        ("Input Log.txt", &log),
    ])
}

#[test]
fn bk2_reads_a_bizhawk_gambatte_link_movie() {
    let bytes = bizhawk_link_movie(
        "GBL",
        "GambatteLink",
        bk2::GAMBATTE_LINK_LOG_KEY,
        &[
            "|.|.........|.........|",
            "|L|....A....|........P|",
            "|.|U......S.|.D...B...|",
        ],
    );
    let movie = bk2::read(&bytes).unwrap();
    assert_eq!(
        movie.frames,
        vec![
            pair(Buttons(0), Buttons(0), false),
            Bk2Frame {
                second_power: true,
                ..pair(Buttons::A, Buttons(0), true)
            },
            pair(
                Buttons::UP | Buttons::START,
                Buttons::DOWN | Buttons::B,
                false
            ),
        ]
    );
    assert_eq!(
        movie.consoles().unwrap(),
        vec![Some(Model::Cgb), Some(Model::Dmg)]
    );
    assert_eq!(movie.rerecords(), 3);
}

#[test]
fn bk2_reads_an_older_dual_gambatte_movie() {
    // Before BizHawk 2.8: Platform DGB, Core DualGambatte, the cable's `Toggle Cable` after
    // the players' buttons (the movie's own LogKey decides the order).
    let key = "#P1 Up|P1 Down|P1 Left|P1 Right|P1 A|P1 B|P1 Select|P1 Start|P1 Power|\
               #P2 Up|P2 Down|P2 Left|P2 Right|P2 A|P2 B|P2 Select|P2 Start|P2 Power|\
               #Toggle Cable|";
    let bytes = bizhawk_link_movie(
        "DGB",
        "DualGambatte",
        key,
        &["|...R.....|..L......|L|", "|.........|.........|.|"],
    );
    let movie = bk2::read(&bytes).unwrap();
    assert!(movie.is_linked());
    assert_eq!(
        movie.frames,
        vec![
            pair(Buttons::RIGHT, Buttons::LEFT, true),
            pair(Buttons(0), Buttons(0), false)
        ]
    );
}

#[test]
fn bk2_link_refusals_name_the_player() {
    // A LogKey with player 2's A missing.
    let key = bk2::GAMBATTE_LINK_LOG_KEY.replace("P2 A|", "");
    let err = bk2::read(&bizhawk_link_movie(
        "GBL",
        "GambatteLink",
        &key,
        &["|.|.........|........|"],
    ))
    .unwrap_err();
    assert!(
        matches!(
            err,
            Bk2Error::MissingControl {
                player: 2,
                button: "A",
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("`P2 A`"), "{err}");

    // A wrong character in player 2's group names its column.
    let err = bk2::read(&bizhawk_link_movie(
        "GBL",
        "GambatteLink",
        bk2::GAMBATTE_LINK_LOG_KEY,
        &["|.|.........|..x......|"],
    ))
    .unwrap_err();
    assert!(
        matches!(
            err,
            Bk2Error::BadChar {
                column: 16,
                found: 'x',
                button: "Left",
                ..
            }
        ),
        "{err}"
    );

    // A pair's input does not fit a one-Game-Boy LogKey.
    for core in ["Gambatte", "GBHawk", "SameBoy"] {
        let mut movie = Bk2::gambatte("g", "00", Model::Dmg, vec![Bk2Frame::default(); 3]);
        movie.set_header("Core", core);
        movie.frames[2].toggle_link = true;
        let err = bk2::write(&movie).unwrap_err();
        assert!(
            matches!(err, Bk2Error::LinkNotSupported { frame: 2, .. }),
            "{core}: {err}"
        );
        movie.frames[2] = pair(Buttons(0), Buttons::A, false);
        assert!(matches!(
            bk2::write(&movie).unwrap_err(),
            Bk2Error::LinkNotSupported { frame: 2, .. }
        ));
    }
    // Bad per-player settings are an error, not a guess.
    let mut movie = Bk2::gambatte_link("g", "00", [Model::Dmg; 2], Vec::new());
    movie.sync_settings = r#"{"o":{"_linkedSyncSettings":[{"ConsoleMode":9}]}}"#.into();
    assert!(matches!(
        movie.consoles(),
        Err(Bk2Error::BadSyncSettings(_))
    ));
    movie.sync_settings = r#"{"o":{"_linkedSyncSettings":7}}"#.into();
    assert!(matches!(
        movie.consoles(),
        Err(Bk2Error::BadSyncSettings(_))
    ));
}
