//! State files: round trips, loads into running and new sessions, exact vs restarted
//! scripts, refusals that change nothing, and hostile bytes.

use crate::common::{counter_rom, session, texts};
use gb_core::Buttons;
use gb_session::state::file::{StateFile, StateFileError};
use gb_session::{ScriptRestore, Session, SessionConfig, SessionError};

/// A script with memory of its own (a counter in a local) and a `persist` entry it only reads.
const SCRIPT: &str = r#"
local n = 0
local loads = persist.loads or 0
event.on_frame_end(function() n = n + 1; gui.text(0, 0, "n=" .. n .. " c=" .. memory.read_u8(0xC000)) end)
event.on_load_state(function() console.log("loaded; persist loads=" .. tostring(persist.loads)) end)
"#;

fn played(frames: u64) -> Session {
    let mut s = session();
    s.load_script("hud.lua", SCRIPT);
    s.load_script(
        "keeper.lua",
        "if not persist.loads then persist.loads = 7 end \
         event.on_load_state(function() console.log('keeper: persist loads=' .. persist.loads) end)",
    );
    for f in 0..frames {
        s.set_buttons(if f % 7 < 3 {
            Buttons::A
        } else {
            Buttons::default()
        });
        s.run_frame();
    }
    s
}

fn core_image(s: &Session) -> Vec<u8> {
    let mut v = Vec::new();
    s.gb().save_state(&mut v);
    v
}

#[test]
fn save_load_save_is_byte_identical() {
    let mut a = played(100);
    let first = a.state_file(1_700_000_000, false).encode();
    let file = StateFile::decode(&first).unwrap();
    assert_eq!(file.encode(), first, "decode then encode");
    assert_eq!(file.meta.frame, 100);
    assert_eq!(file.meta.rom_title, "GBHOST TEST");
    assert_eq!(file.scripts.len(), 2);
    assert!(file.log.len() > 10, "the log since power-on is kept");
    let mut b =
        Session::from_state_file(counter_rom(), None, SessionConfig::default(), &file).unwrap();
    let second = b.state_file(1_700_000_000, false).encode();
    assert_eq!(second, first, "save → load → save");
    // Both machines go on the same way.
    for _ in 0..60 {
        a.run_frame();
        b.run_frame();
    }
    assert_eq!(core_image(&a), core_image(&b));
    assert_eq!(a.picture(), b.picture());
}

#[test]
fn a_file_from_elsewhere_restarts_scripts_with_persist() {
    let mut a = played(100);
    let file = a.state_file(0, true);
    // Another session (as another process would be): scripts restart.
    let mut b = session();
    b.load_script(
        "other.lua",
        "event.on_frame_end(function() gui.text(0, 0, 'other') end)",
    );
    b.run_frame();
    let outcome = b.load_state_file(&file).unwrap();
    assert_eq!(
        outcome,
        ScriptRestore::Restarted("no state key".into()),
        "without a key there are no images"
    );
    b.run_frame();
    assert_eq!(b.gb().peek(0xC000), a.gb().peek(0xC000).wrapping_add(1));
    let t = texts(&b);
    assert!(
        !t.iter().any(|x| x == "other"),
        "the running script was unloaded: {t:?}"
    );
    assert!(
        t.iter().any(|x| x.starts_with("n=1 ")),
        "restarted at the loaded frame: {t:?}"
    );
    let lines = crate::common::console(&mut b);
    assert!(
        lines.iter().any(|l| l.contains("keeper: persist loads=7")),
        "{lines:?}"
    );
}

#[test]
fn a_file_this_session_saved_restores_scripts_exactly() {
    let mut a = played(100);
    let file = StateFile::decode(&a.state_file(0, true).encode()).unwrap();
    for _ in 0..50 {
        a.run_frame();
    }
    assert!(texts(&a).iter().any(|x| x.starts_with("n=150 ")));
    assert_eq!(a.load_state_file(&file).unwrap(), ScriptRestore::Exact);
    a.run_frame();
    // The script's own counter came back with the game.
    assert!(
        texts(&a).iter().any(|x| x.starts_with("n=101 ")),
        "{:?}",
        texts(&a)
    );
    // And the load is an event: rewinding over it and replaying gives the same frame.
    let now = a.frame();
    let pic = a.picture().clone();
    a.seek(now - 3).unwrap();
    a.seek(now).unwrap();
    assert_eq!(a.picture(), &pic);
}

#[test]
fn refused_files_change_nothing() {
    let mut a = played(30);
    let good = a.state_file(0, false);
    let mut other = counter_rom();
    other[0x150] ^= 0xFF;
    let mut foreign = Session::new(other, None, SessionConfig::default()).unwrap();
    let before = core_image(&foreign);
    let log_len = foreign.log().len();
    match foreign.load_state_file(&good) {
        Err(SessionError::StateFile(StateFileError::ForeignRom { .. })) => {}
        r => panic!("{r:?}"),
    }
    let mut bad_core = good.clone();
    bad_core.core[0] ^= 0xFF;
    assert!(matches!(
        a.load_state_file(&bad_core),
        Err(SessionError::StateFile(StateFileError::Core(_)))
    ));
    assert_eq!(core_image(&foreign), before);
    assert_eq!(foreign.log().len(), log_len);
    let bytes = good.encode();
    assert!(matches!(
        StateFile::decode(&bytes[..bytes.len() - 3]),
        Err(StateFileError::Truncated(_))
    ));
    assert!(matches!(
        StateFile::decode(b"PNG....."),
        Err(StateFileError::Magic)
    ));
    let mut flipped = bytes.clone();
    flipped[40] ^= 1;
    assert!(matches!(
        StateFile::decode(&flipped),
        Err(StateFileError::Checksum)
    ));
}

/// Re-seal bytes after a change (recompute the END checksum) so mutations reach the sections.
fn reseal(bytes: &mut [u8]) {
    if bytes.len() < 28 {
        return;
    }
    let end = bytes.len() - 16;
    if &bytes[end..end + 4] != b"END " {
        return;
    }
    let sum = gb_session::fnv1a(&bytes[..end]);
    bytes[end + 8..].copy_from_slice(&sum.to_le_bytes());
}

#[test]
fn unknown_sections_are_skipped() {
    let mut a = played(10);
    let bytes = a.state_file(0, false).encode();
    let end = bytes.len() - 16;
    let mut with = bytes[..end].to_vec();
    with.extend_from_slice(b"XTRA");
    with.extend_from_slice(&3u32.to_le_bytes());
    with.extend_from_slice(b"new");
    with.extend_from_slice(&bytes[end..]);
    reseal(&mut with);
    assert_eq!(
        StateFile::decode(&with).unwrap(),
        StateFile::decode(&bytes).unwrap()
    );
}

#[test]
fn hostile_bytes_never_panic_and_change_nothing() {
    let mut a = played(20);
    let good = a.state_file(0, true).encode();
    let mut target = session();
    target.run_frame();
    let before = core_image(&target);
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let (mut runs, mut decoded) = (0u64, 0u64);
    for round in 0..30_000 {
        let mut bad = good.clone();
        match round % 4 {
            0 => {
                let i = next() as usize % bad.len();
                bad[i] ^= 1 << (next() % 8);
            }
            1 => {
                let n = next() as usize % bad.len();
                bad.truncate(n);
            }
            2 => {
                // A huge length or count somewhere.
                let i = next() as usize % (bad.len() - 4);
                bad[i..i + 4].copy_from_slice(&u32::MAX.to_le_bytes());
            }
            _ => {
                bad = (0..(next() % 200)).map(|_| next() as u8).collect();
                if round % 8 == 3 {
                    bad.splice(0..0, *b"GBHSTATE\x01\x00\x00\x00");
                }
            }
        }
        reseal(&mut bad);
        runs += 1;
        if let Ok(f) = StateFile::decode(&bad) {
            decoded += 1;
            // Whatever decodes is either refused whole or loads as events.
            let _ = target.load_state_file(&f);
        }
    }
    println!("state file fuzz: {runs} executions, {decoded} decoded");
    // Loads are logged for the next frame; the machine itself was never touched.
    assert_eq!(core_image(&target), before);
}

/// A state of another model is refused with a clear error (the machine is unchanged), and a
/// session started from a state runs the state's model; a model gbhost does not know is an
/// error too.
#[test]
fn states_of_another_model_are_refused() {
    let mut a = played(20);
    let mut file = a.state_file(0, false);
    assert_eq!(file.meta.model, "DMG");
    file.meta.model = "CGB".into();
    let before = core_image(&a);
    match a.load_state_file(&file) {
        Err(SessionError::StateFile(StateFileError::ForeignModel { theirs, ours })) => {
            assert_eq!((theirs.as_str(), ours), ("CGB", gb_core::Model::Dmg));
        }
        r => panic!("{r:?}"),
    }
    assert_eq!(core_image(&a), before);
    let message = a.load_state_file(&file).unwrap_err().to_string();
    assert!(
        message.contains("CGB") && message.contains("DMG"),
        "{message}"
    );
    file.meta.model = "SGB3".into();
    match Session::from_state_file(counter_rom(), None, SessionConfig::default(), &file) {
        Err(SessionError::StateFile(StateFileError::UnknownModel(m))) => assert_eq!(m, "SGB3"),
        r => panic!("{:?}", r.map(|_| ())),
    }
}

/// A colour picture travels as RGB555 (`THMC`), a DMG picture as packed shades (`THMB`); a
/// section of the wrong size is refused.
#[test]
fn thumbnails_of_both_models_round_trip() {
    use gb_session::state::Thumbnail;
    let mut a = played(10);
    let mut file = a.state_file(0, false);
    let shades = match &file.thumbnail {
        Some(Thumbnail::Shades(s)) => s.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        StateFile::decode(&file.encode()).unwrap().thumbnail,
        Some(Thumbnail::Shades(shades))
    );
    let colors: Vec<u16> = (0..gb_core::screen::GAME.pixels())
        .map(|i| (i * 37 % 0x8000) as u16)
        .collect();
    file.thumbnail = Some(Thumbnail::Colors(colors.clone()));
    let back = StateFile::decode(&file.encode()).unwrap();
    assert_eq!(back.thumbnail, Some(Thumbnail::Colors(colors)));
    file.thumbnail = Some(Thumbnail::Colors(vec![1; 10]));
    let bytes = file.encode();
    assert!(
        StateFile::decode(&bytes).is_err(),
        "a short colour picture is refused"
    );
}

/// A configuration with the state key `key` whose script VMs sit at window slots from
/// `offset`.
fn keyed_config(key: u8, offset: usize) -> SessionConfig {
    SessionConfig {
        desync_check: true,
        image_key: Some(lua_rollback::ImageKey::from_bytes([key; 32])),
        scripts: gb_session::ScriptConfig {
            window_offset: offset,
            ..gb_session::ScriptConfig::default()
        },
        ..SessionConfig::default()
    }
}

/// A session of the counter ROM with [`keyed_config`].
fn keyed(key: u8, offset: usize) -> Session {
    Session::new(counter_rom(), None, keyed_config(key, offset)).expect("session")
}

fn load_both(s: &mut Session) {
    s.load_script("hud.lua", SCRIPT);
    s.load_script(
        "keeper.lua",
        "if not persist.loads then persist.loads = 7 end \
         event.on_load_state(function() console.log('keeper: persist loads=' .. persist.loads) end)",
    );
}

#[test]
fn a_state_of_the_same_scripts_loads_exactly_from_its_images_in_another_session() {
    // Session A saves at frame 100 (no in-process arenas: only the portable images), then is
    // gone, as a process would be; session B runs the same scripts, where A's were.
    let file = {
        let mut a = keyed(1, 300);
        load_both(&mut a);
        for _ in 0..100 {
            a.run_frame();
        }
        StateFile::decode(&a.state_file(0, false).encode()).unwrap()
    };
    assert_eq!(file.images.len(), 2);
    assert!(file.images.iter().all(|i| i.image.is_ok()));
    let mut b = keyed(1, 300);
    load_both(&mut b);
    for _ in 0..20 {
        b.run_frame();
    }
    assert_eq!(b.load_state_file(&file).unwrap(), ScriptRestore::Exact);
    b.run_frame();
    assert!(
        texts(&b).iter().any(|x| x.starts_with("n=101 ")),
        "the script's own counter came back: {:?}",
        texts(&b)
    );
    // A load into a running session is a user's load: the hooks see it (the script's own
    // memory, not its persist table, says where it is).
    let lines = crate::common::console(&mut b);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("loaded; persist loads=nil")),
        "{lines:?}"
    );
    // The load is a logged event: rewinding over it and replaying gives the same frame.
    let now = b.frame();
    let pic = b.picture().clone();
    b.seek(now - 3).unwrap();
    b.seek(now).unwrap();
    assert_eq!(b.picture(), &pic);

    // Another user's key: the scripts restart, and the reason says why.
    let mut c = keyed(2, 310);
    load_both(&mut c);
    c.run_frame();
    match c.load_state_file(&file).unwrap() {
        ScriptRestore::Restarted(why) => assert!(why.contains("not sealed"), "{why}"),
        ScriptRestore::Exact => panic!("another user's images must not load"),
    }
    // Other scripts running: restart too.
    let mut d = keyed(1, 300 + 20);
    d.load_script("hud.lua", SCRIPT);
    d.run_frame();
    assert!(matches!(
        d.load_state_file(&file).unwrap(),
        ScriptRestore::Restarted(_)
    ));
}

/// Images are bound to their game and script: one moved to another script's entry, or into a
/// state of another game, is refused (the scripts restart and say why), though the same user
/// sealed it.
#[test]
fn an_image_moved_to_another_script_or_game_is_refused() {
    let file = {
        let mut a = keyed(5, 330);
        load_both(&mut a);
        for _ in 0..30 {
            a.run_frame();
        }
        StateFile::decode(&a.state_file(0, false).encode()).unwrap()
    };
    let restarts = |file: &StateFile, rom: Vec<u8>| {
        let s = Session::from_state_file(rom, None, keyed_config(5, 330), file).unwrap();
        s.scripts_restarted_at_start()
    };
    assert_eq!(restarts(&file, counter_rom()), 0, "as saved: exact");
    // Swapped between the two scripts.
    let mut swapped = file.clone();
    let (a, b) = (
        swapped.images[0].image.clone(),
        swapped.images[1].image.clone(),
    );
    swapped.images[0].image = b;
    swapped.images[1].image = a;
    assert_eq!(restarts(&swapped, counter_rom()), 2);
    // Into a state of another game (the same scripts, another ROM).
    let mut other_rom = counter_rom();
    other_rom[0x7FFF] ^= 0xA5;
    let mut foreign = {
        let mut b = Session::new(other_rom.clone(), None, keyed_config(5, 340)).unwrap();
        load_both(&mut b);
        for _ in 0..30 {
            b.run_frame();
        }
        StateFile::decode(&b.state_file(0, false).encode()).unwrap()
    };
    foreign.images = file.images.clone();
    assert_eq!(restarts(&foreign, other_rom), 2);
}
