//! Cheat codes in a session: a Game Genie code changes what the game reads from its ROM and a
//! GameShark code writes RAM every frame; both are logged inputs, so a rewind takes them back,
//! a replay has them again and a movie records them.

use std::collections::BTreeMap;

use crate::common::{counter_rom, session};
use gb_core::bus::RomCheat;
use gb_session::movie::{self, Movie, Recorder};
use gb_session::tools::cheats::encode_genie;
use gb_session::{EventKind, SessionConfig};

/// The counter ROM's VBlank handler counts with `inc a` (0x3C) at 0x0044: this code reads it
/// as `dec a` (0x3D), so the counter at $C000 counts down.
fn count_down() -> String {
    encode_genie(RomCheat {
        addr: 0x0044,
        value: 0x3D,
        compare: Some(0x3C),
    })
}

fn counter(s: &gb_session::Session) -> u8 {
    s.gb().peek(0xC000)
}

#[test]
fn a_game_genie_code_changes_the_game_and_a_rewind_takes_it_back() {
    let mut s = session();
    for _ in 0..20 {
        s.run_frame();
    }
    let before = counter(&s);
    assert!(s.set_cheat(&count_down(), true).unwrap());
    assert!(!s.set_cheat(&count_down(), true).unwrap(), "already on");
    for _ in 0..10 {
        s.run_frame();
    }
    assert_eq!(
        counter(&s),
        before.wrapping_sub(10),
        "the counter went down"
    );
    // The ROM itself is untouched: only reads see the code.
    assert_eq!(s.gb().domain(gb_core::Domain::Rom)[0x44], 0x3C);
    assert_eq!(s.gb().peek(0x44), 0x3D);
    // Back before the code: it is off, and the game counts up again.
    s.seek(10).unwrap();
    assert!(s.cheats().is_empty());
    assert_eq!(s.gb().peek(0x44), 0x3C);
    // Forward again, through the replay of the log (the desync check is on): it is back.
    s.seek(28).unwrap();
    assert_eq!(s.cheats(), [count_down()]);
    assert_eq!(counter(&s), before.wrapping_sub(8));
    assert_eq!(s.stats().desyncs, 0);
}

#[test]
fn a_gameshark_code_writes_every_frame_until_turned_off() {
    let mut s = session();
    s.run_frame();
    s.set_cheat("015A10C0", true).unwrap();
    for _ in 0..3 {
        s.poke(0xC010, 0x00);
        s.run_frame();
        assert_eq!(
            s.gb().peek(0xC010),
            0x5A,
            "written again at the frame's start"
        );
    }
    s.set_cheat("015a10c0", false).unwrap();
    s.poke(0xC010, 0x11);
    s.run_frame();
    assert_eq!(s.gb().peek(0xC010), 0x11);
    assert!(s.set_cheat("01G", true).is_err());
    let logged: Vec<_> = s
        .log()
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Cheat { code, on } => Some((code.clone(), *on)),
            _ => None,
        })
        .collect();
    assert_eq!(
        logged,
        vec![
            ("015A10C0".to_owned(), true),
            ("015A10C0".to_owned(), false)
        ],
        "two spellings of one code are one code; a bad code logs nothing"
    );
}

#[test]
fn a_movie_records_the_cheats_and_plays_them_back() {
    let dir = std::env::temp_dir().join(format!("gbhost-cheats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("cheat.gbm");
    let _ = std::fs::remove_file(&path);
    let config = SessionConfig {
        ring_bytes: 8 << 20,
        ..SessionConfig::default()
    };
    let mut s = gb_session::Session::new(counter_rom(), None, config.clone()).unwrap();
    let mut rec = Recorder::create(&path, &mut s, vec![], BTreeMap::new()).unwrap();
    for f in 0..300 {
        match f {
            50 => drop(s.set_cheat(&count_down(), true).unwrap()),
            120 => drop(s.set_cheat("01A510C0", true).unwrap()),
            200 => drop(s.set_cheat(&count_down(), false).unwrap()),
            _ => {}
        }
        s.run_frame();
        rec.after_frame(&mut s).unwrap();
    }
    rec.finish().unwrap();
    let m = Movie::open(&path).unwrap();
    let (report, played) = movie::play(&m, counter_rom(), config, |_, _| {}).unwrap();
    assert_eq!(report.desync, None);
    assert_eq!(played.cheats(), ["01A510C0".to_owned()]);
    assert_eq!(counter(&played), counter(&s));
    // 50 up, 150 down, 100 up from the first VBlank's count.
    assert_eq!(played.gb().peek(0xC010), 0xA5);
    std::fs::remove_dir_all(&dir).ok();
}
