//! Two Game Boys on a link cable as one session: a movie of the pair (each player's joypad
//! and the cable's plugging) plays back in a new session with no desync and seeks from its
//! keyframes; a pair's state file starts a new pair exactly where it was saved; and a pair
//! and a single Game Boy refuse each other's states and movies with a clear error.

use std::collections::BTreeMap;
use std::path::PathBuf;

use gb_core::Buttons;
use gb_session::movie::{self, Movie, MovieError, Recorder};
use gb_session::{PowerOn, Roms, Session, SessionConfig, SessionError, StateFile, StateFileError};

/// The link demo (`examples/link_demo.asm`), assembled.
fn demo() -> Vec<u8> {
    gb_core::asm::RomBuilder::new()
        .title("GBHOST LINK")
        .program(include_str!("../../../../examples/link_demo.asm"))
        .build()
        .expect("the link demo assembles")
}

/// Another game for player 2: the demo under another title (another ROM hash).
fn other_demo() -> Vec<u8> {
    gb_core::asm::RomBuilder::new()
        .title("GBHOST LINK 2")
        .program(include_str!("../../../../examples/link_demo.asm"))
        .build()
        .expect("the link demo assembles")
}

fn config() -> SessionConfig {
    SessionConfig {
        desync_check: false,
        ring_bytes: 8 << 20,
        ..SessionConfig::default()
    }
}

fn pair() -> Session {
    Session::power_on_linked(
        (demo(), PowerOn::default()),
        (other_demo(), PowerOn::default()),
        config(),
    )
    .expect("a pair")
}

fn roms() -> Roms {
    Roms::linked(demo(), other_demo())
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gbhost-link-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Frame `f`'s input: player 1 leads (Start at 10) and moves right then down, player 2 moves
/// left and up; the cable is pulled at 400 and plugged back at 460.
fn input(s: &mut Session, f: u64) {
    let p1 = match f {
        10..=12 => Buttons::START,
        30..=90 => Buttons::RIGHT,
        200..=260 | 700..=720 => Buttons::DOWN,
        _ => Buttons::default(),
    };
    let p2 = match f {
        50..=120 => Buttons::LEFT,
        300..=340 | 800..=830 => Buttons::UP,
        _ => Buttons::default(),
    };
    s.set_buttons(p1);
    s.set_player_buttons(1, p2);
    if f == 400 {
        s.set_cable(false);
    }
    if f == 460 {
        s.set_cable(true);
    }
}

/// Player `p`'s byte at `addr`.
fn peek(s: &Session, p: usize, addr: u16) -> u8 {
    s.machine().player(p).expect("the player").peek(addr)
}

#[test]
fn a_movie_of_a_pair_plays_back_in_a_new_session_with_no_desync() {
    let path = temp("pair.gbm");
    let mut s = pair();
    let mut rec = Recorder::create(&path, &mut s, vec![], BTreeMap::new()).expect("records");
    for f in 0..900 {
        input(&mut s, f);
        s.run_frame();
        rec.after_frame(&mut s).unwrap();
        if f == 380 {
            // The squares crossed the cable: each side saw the other's moves.
            assert_eq!(peek(&s, 1, 0xC002), peek(&s, 0, 0xC000), "2 sees 1's X");
            assert_eq!(peek(&s, 0, 0xC002), peek(&s, 1, 0xC000), "1 sees 2's X");
            assert_ne!(peek(&s, 0, 0xC000), peek(&s, 1, 0xC000), "they moved apart");
        }
    }
    rec.finish().unwrap();

    let m = Movie::open(&path).unwrap();
    assert_eq!(m.players(), 2);
    let second = m.header.second.as_ref().expect("a second player");
    assert_eq!(second.rom_title, "GBHOST LINK 2");
    assert_eq!(second.rom_hash, gb_session::fnv1a(&other_demo()));
    let (report, played) = movie::play(&m, roms(), config(), |_, _| {}).unwrap();
    assert_eq!((report.frames, report.desync), (900, None));
    assert_eq!(report.checks, 15, "one check per chunk");
    assert_eq!(played.machine().image_hash(), s.machine().image_hash());
    assert_eq!(
        played.machine().player_picture(1),
        s.machine().player_picture(1)
    );

    // A seek lands on the pair's keyframe at frame 600 and plays on to the same state.
    let (mut at, mut feeder) = m.session_at(roms(), config(), 750, |_| {}).unwrap();
    assert_eq!(feeder.start, 600, "from the keyframe");
    while feeder.feed(&m, &mut at).unwrap() == movie::Feed::Playing {
        at.run_frame();
    }
    assert_eq!(feeder.desync, None);
    assert_eq!(at.machine().image_hash(), s.machine().image_hash());

    // One ROM, or the wrong second one: refused, naming why.
    let one = movie::play(&m, demo(), config(), |_, _| {}).expect_err("refused");
    assert!(
        matches!(one, MovieError::Players { theirs: 2, ours: 1 }),
        "{one}"
    );
    assert!(one.to_string().contains("--link"), "{one}");
    let wrong =
        movie::play(&m, Roms::linked(demo(), demo()), config(), |_, _| {}).expect_err("refused");
    assert!(
        matches!(wrong, MovieError::ForeignSecondRom { .. }),
        "{wrong}"
    );
}

#[test]
fn a_pair_state_file_starts_a_new_pair_where_it_was_saved() {
    let mut s = pair();
    for f in 0..300 {
        input(&mut s, f);
        s.run_frame();
    }
    let file = StateFile::decode(&s.state_file(0, false).encode()).expect("decodes");
    let link = file.link.as_ref().expect("the second player is named");
    assert_eq!(link.rom_title, "GBHOST LINK 2");

    let mut resumed = Session::from_state_file(roms(), None, config(), &file).expect("loads");
    assert_eq!(resumed.frame(), 300);
    assert_eq!(resumed.machine().image(), s.machine().image());
    // Both go on the same: the second player's held buttons came with the log.
    for f in 300..500 {
        input(&mut s, f);
        input(&mut resumed, f);
        s.run_frame();
        resumed.run_frame();
    }
    assert_eq!(resumed.machine().image_hash(), s.machine().image_hash());

    // Into the running pair, as a logged load: the next frame runs from frame 300's
    // machine, as a new pair from the file does with the same buttons held.
    resumed.set_buttons(Buttons::RIGHT);
    resumed.set_player_buttons(1, Buttons::DOWN);
    resumed.load_state_file(&file).expect("loads into the pair");
    resumed.run_frame();
    let mut again = Session::from_state_file(roms(), None, config(), &file).unwrap();
    again.set_buttons(Buttons::RIGHT);
    again.set_player_buttons(1, Buttons::DOWN);
    again.run_frame();
    assert_eq!(resumed.machine().image_hash(), again.machine().image_hash());

    // One ROM for a pair's state, the wrong second ROM, a pair's state into one Game Boy.
    let err = Session::from_state_file(demo(), None, config(), &file).expect_err("refused");
    assert!(
        matches!(
            err,
            SessionError::StateFile(StateFileError::Players { theirs: 2, ours: 1 })
        ),
        "{err}"
    );
    let err = Session::from_state_file(Roms::linked(demo(), demo()), None, config(), &file)
        .expect_err("refused");
    assert!(err.to_string().contains("player 2"), "{err}");
    let mut single = Session::new(demo(), None, config()).unwrap();
    let err = single.load_state_file(&file).expect_err("refused");
    assert!(err.to_string().contains("two linked Game Boys"), "{err}");
}

#[test]
fn a_single_game_boys_state_and_movie_do_not_load_into_a_pair() {
    let mut single = Session::new(demo(), None, config()).unwrap();
    single.run_frame();
    let file = single.state_file(0, false);
    let mut p = pair();
    let err = p.load_state_file(&file).expect_err("refused");
    assert!(err.to_string().contains("one Game Boy"), "{err}");
    let err = Session::from_state_file(roms(), None, config(), &file).expect_err("refused");
    assert!(err.to_string().contains("one Game Boy"), "{err}");

    let path = temp("single.gbm");
    let mut single = Session::new(demo(), None, config()).unwrap();
    let mut rec = Recorder::create(&path, &mut single, vec![], BTreeMap::new()).unwrap();
    single.run_frame();
    rec.after_frame(&mut single).unwrap();
    rec.finish().unwrap();
    let m = Movie::open(&path).unwrap();
    let err = movie::play(&m, roms(), config(), |_, _| {}).expect_err("refused");
    assert!(
        matches!(err, MovieError::Players { theirs: 1, ours: 2 }),
        "{err}"
    );
}
