//! Two Game Boys on a link cable as one session: a movie of the pair (each player's joypad
//! and the cable's plugging) plays back in a new session with no desync and seeks from its
//! keyframes; a pair's state file starts a new pair exactly where it was saved; and a pair
//! and a single Game Boy refuse each other's states and movies with a clear error; a script on
//! each player sees, moves and draws its own Game Boy, and keeps its player through rewinds,
//! the sync test, state files and movies.

use std::collections::BTreeMap;
use std::path::PathBuf;

use gb_core::Buttons;
use gb_session::movie::{self, Movie, MovieError, Recorder};
use gb_session::{PowerOn, Roms, Session, SessionConfig, SessionError, StateFile, StateFileError};

/// The link demo (`examples/link_demo.asm`), assembled.
pub(crate) fn demo() -> Vec<u8> {
    gb_core::asm::RomBuilder::new()
        .title("GBHOST LINK")
        .program(include_str!("../../../../examples/link_demo.asm"))
        .build()
        .expect("the link demo assembles")
}

/// Another game for player 2: the demo under another title (another ROM hash).
pub(crate) fn other_demo() -> Vec<u8> {
    gb_core::asm::RomBuilder::new()
        .title("GBHOST LINK 2")
        .program(include_str!("../../../../examples/link_demo.asm"))
        .build()
        .expect("the link demo assembles")
}

pub(crate) fn config() -> SessionConfig {
    SessionConfig {
        desync_check: false,
        ring_bytes: 8 << 20,
        ..SessionConfig::default()
    }
}

pub(crate) fn pair() -> Session {
    Session::power_on_linked(
        (demo(), PowerOn::default()),
        (other_demo(), PowerOn::default()),
        config(),
    )
    .expect("a pair")
}

pub(crate) fn roms() -> Roms {
    Roms::linked(demo(), other_demo())
}

pub(crate) fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gbhost-link-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Frame `f`'s input: player 1 leads (Start at 10) and moves right then down, player 2 moves
/// left and up; the cable is pulled at 400 and plugged back at 460.
pub(crate) fn input(s: &mut Session, f: u64) {
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
pub(crate) fn peek(s: &Session, p: usize, addr: u16) -> u8 {
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

/// A script for either player (the native API): it says whose Game Boy it runs on, keeps a
/// history of its player's X in Lua, draws it, and moves its player's square (player 1 leads
/// and goes right, player 2 goes left).
const SIDE: &str = r#"
local me, of = emu.player(), emu.players()
print("player " .. me .. " of " .. of .. ", " .. emu.rom_title())
local xs = {}
event.on_frame_end(function()
  xs[#xs + 1] = memory.read_u8(0xC000)
  if #xs > 16 then table.remove(xs, 1) end
  gui.text(0, 8 * me, "P" .. me .. " x " .. xs[#xs] .. " of " .. #xs)
end)
while true do
  local f = emu.framecount()
  if me == 1 and f >= 10 and f <= 12 then joypad.set({ Start = true }) end
  if f >= 30 and f <= 90 then joypad.set(me == 1 and { Right = true } or { Left = true }) end
  emu.frameadvance()
end
"#;

/// The pair with [`SIDE`] loaded on each player.
fn scripted_pair(config: SessionConfig) -> Session {
    let mut s = Session::power_on_linked(
        (demo(), PowerOn::default()),
        (other_demo(), PowerOn::default()),
        config,
    )
    .expect("a pair");
    s.load_script("one.lua", SIDE);
    s.next_script_on_player(1).expect("a second player");
    s.load_script("two.lua", SIDE);
    s
}

#[test]
fn a_script_on_each_player_sees_and_moves_its_own_game_boy_and_rolls_back() {
    let mut s = scripted_pair(SessionConfig {
        desync_check: true,
        ..config()
    });
    s.run_frame();
    let said: Vec<String> = s.take_console().into_iter().map(|l| l.text).collect();
    assert_eq!(
        said,
        ["player 1 of 2, GBHOST LINK", "player 2 of 2, GBHOST LINK 2"]
    );
    let players: Vec<usize> = s.scripts().map(|sc| sc.player()).collect();
    assert_eq!(players, [0, 1]);
    for _ in 1..25 {
        s.run_frame();
    }
    let (x1, x2) = (peek(&s, 0, 0xC000), peek(&s, 1, 0xC000));
    for _ in 25..120 {
        s.run_frame();
        // Every frame replays from 8 back to the same machine and script images.
        assert_eq!(s.verify_replay(s.frame() - 8).unwrap(), 0);
    }
    assert!(peek(&s, 0, 0xC000) > x1, "player 1's script moved it right");
    assert!(peek(&s, 1, 0xC000) < x2, "player 2's script moved it left");
    assert_eq!(peek(&s, 0, 0xC004), 1, "player 1's script made it lead");
    // Each overlay is its player's: drawn from its own Game Boy's memory.
    let text = |s: &Session, p: usize| format!("{:?}", s.draw_lists_of(p).collect::<Vec<_>>());
    assert!(
        text(&s, 0).contains(&format!("P1 x {} of 16", peek(&s, 0, 0xC000))),
        "{}",
        text(&s, 0)
    );
    assert!(
        text(&s, 1).contains(&format!("P2 x {} of 16", peek(&s, 1, 0xC000))),
        "{}",
        text(&s, 1)
    );
    // A rewind brings both scripts' overlays back with both machines.
    let at = s.frame();
    let (image, one, two) = (s.machine().image(), text(&s, 0), text(&s, 1));
    for _ in 0..30 {
        s.run_frame();
    }
    s.seek(at).unwrap();
    assert!(s.machine().image() == image);
    assert_eq!((text(&s, 0), text(&s, 1)), (one, two));
    assert_eq!(s.stats().desyncs, 0);

    // A third player does not exist; a single Game Boy has one.
    let err = s.next_script_on_player(2).expect_err("refused");
    assert!(
        matches!(
            err,
            SessionError::NoPlayer {
                player: 2,
                players: 2
            }
        ),
        "{err}"
    );
    let mut single = Session::new(demo(), None, config()).unwrap();
    assert!(single.next_script_on_player(1).is_err());

    // Bus hooks are player 1's only: on player 2 the call says so.
    s.next_script_on_player(1).unwrap();
    s.load_script("hook.lua", "event.on_bus_write(function() end, 0xC000)");
    s.run_frame();
    let said: Vec<String> = s.take_console().into_iter().map(|l| l.text).collect();
    assert!(
        said.iter()
            .any(|l| l.contains("bus hooks run only for scripts on player 1")),
        "{said:?}"
    );
}

#[test]
fn scripts_keep_their_player_in_a_state_file_and_a_movie() {
    // Its own window slots (800 on): tests running at once must not hold the images' places.
    let keyed = || SessionConfig {
        image_key: Some(lua_rollback::ImageKey::from_bytes([7; 32])),
        scripts: gb_session::ScriptConfig {
            window_offset: 800,
            ..gb_session::ScriptConfig::default()
        },
        ..config()
    };
    let mut s = scripted_pair(keyed());
    for _ in 0..60 {
        s.run_frame();
    }
    // A state file with the scripts' images: both go on where they were, each on its player
    // (once the first session is gone, as another process would be: the images need their
    // arenas' places).
    let file = StateFile::decode(&s.state_file(0, false).encode()).expect("decodes");
    let ahead: Vec<String> = (60..120)
        .map(|_| {
            s.run_frame();
            s.trace_line(&[])
        })
        .collect();
    drop(s);
    let mut resumed = Session::from_state_file(roms(), None, keyed(), &file).expect("loads");
    let players: Vec<usize> = resumed.scripts().map(|sc| sc.player()).collect();
    assert_eq!(players, [0, 1]);
    assert!(resumed.take_console().is_empty(), "restored exactly");
    for line in &ahead {
        resumed.run_frame();
        assert_eq!(
            &resumed.trace_line(&[]),
            line,
            "the resumed pair and its scripts"
        );
    }
    drop(resumed);
    // Without the key the scripts start again from their sources, still each on its player.
    let mut restarted = Session::from_state_file(roms(), None, config(), &file).expect("loads");
    let players: Vec<usize> = restarted.scripts().map(|sc| sc.player()).collect();
    assert_eq!(players, [0, 1]);
    restarted.run_frame();
    let said: Vec<String> = restarted
        .take_console()
        .into_iter()
        .map(|l| l.text)
        .filter(|t| t.starts_with("player"))
        .collect();
    assert_eq!(
        said,
        ["player 1 of 2, GBHOST LINK", "player 2 of 2, GBHOST LINK 2"]
    );
    drop(restarted);

    // A movie of the pair with both scripts replays with no desync, each on its player.
    let path = temp("scripted-pair.gbm");
    let mut s = scripted_pair(config());
    let mut rec = Recorder::create(&path, &mut s, vec![], BTreeMap::new()).expect("records");
    for _ in 0..300 {
        s.run_frame();
        rec.after_frame(&mut s).unwrap();
    }
    rec.finish().unwrap();
    let m = Movie::open(&path).unwrap();
    let (report, played) = movie::play(&m, roms(), config(), |_, _| {}).unwrap();
    assert_eq!((report.frames, report.desync), (300, None));
    assert_eq!(played.machine().image_hash(), s.machine().image_hash());
    let players: Vec<usize> = played.scripts().map(|sc| sc.player()).collect();
    assert_eq!(players, [0, 1]);
    assert!(peek(&played, 1, 0xC000) < peek(&played, 0, 0xC000));
}

/// One script reaches both players: the native `p1 `/`p2 ` domains and BizHawk's `P1 `/`P2 `
/// names of its link core (listed by `memory.getmemorydomainlist`), reads and writes, rolled
/// back and replayed like every script write; the console reads both and writes player 1's
/// only; a single Game Boy has no player 2 to name.
#[test]
fn one_script_reads_and_writes_both_players_memory() {
    let mut s = pair();
    s.load_script(
        "both.lua",
        r#"
while true do
  -- Player 2's WRAM from a script on player 1, every frame one byte more at $D000.
  local n = memory.read_u8(0x1000, "p2 wram")
  memory.write_u8(0x1000, (n + 1) & 0xFF, "p2 wram")
  memory.write_u8(0xD001, memory.read_u8(0xD000, "p2 bus"), "p1 bus")
  gui.text(0, 0, "p2 title " .. memory.read_u8(0x134, "P2 ROM"))
  emu.frameadvance()
end
"#,
    );
    s.load_script_as(
        "bizhawk.lua",
        r#"
local names = table.concat(memory.getmemorydomainlist(), ",")
print(names)
memory.usememorydomain("P2 WRAM")
print("current " .. memory.getcurrentmemorydomain() .. " size " ..
  memory.getcurrentmemorydomainsize())
while true do
  memory.write_u8(0x1002, memory.read_u8(0x1000) ~ 0xFF)
  memory.write_u8(0x1003, memory.read_u8(0x1000, "P2 WRAM"), "P1 WRAM")
  emu.frameadvance()
end
"#,
        gb_session::Flavor::BizHawk,
    );
    for _ in 0..10 {
        s.run_frame();
    }
    let said: Vec<String> = s.take_console().into_iter().map(|l| l.text).collect();
    assert!(
        said.iter()
            .any(|l| l.contains("P1 WRAM") && l.contains("P2 System Bus")),
        "{said:?}"
    );
    assert!(
        said.iter().any(|l| l == "current P2 WRAM size 8192"),
        "{said:?}"
    );
    let n = peek(&s, 1, 0xD000);
    // The native script counts, then copies the count; the BizHawk one runs after it.
    assert_eq!(peek(&s, 0, 0xD001), n, "player 2's byte, copied");
    assert_eq!(peek(&s, 1, 0xD002), n ^ 0xFF, "BizHawk's P2 WRAM");
    assert_eq!(peek(&s, 0, 0xD003), n);
    // Player 2's bytes change with the script, and rewind and replay alike.
    let at = s.frame();
    let image = s.machine().image();
    for _ in 0..20 {
        s.run_frame();
    }
    assert_eq!(peek(&s, 1, 0xD000), n.wrapping_add(20));
    s.seek(at).unwrap();
    assert!(s.machine().image() == image);
    assert_eq!(s.verify_replay(at - 5).unwrap(), 0);

    // The console reads both, writes player 1's only.
    let out = s.eval_console(r#"return memory.read_u8(0x1000, "p2 wram")"#);
    assert!(out.contains(&n.to_string()), "{out}");
    let out = s.eval_console(r#"memory.write_u8(0x1000, 1, "p2 wram")"#);
    assert!(
        out.contains("writes into player 1's Game Boy only"),
        "{out}"
    );

    // One Game Boy: no player 2.
    let mut single = Session::new(demo(), None, config()).unwrap();
    let out = single.eval_console(r#"return memory.read_u8(0, "p2 wram")"#);
    assert!(out.contains("there is no player 2 here"), "{out}");
    let out = single.eval_console(r#"return memory.read_u8(0, "p1 wram")"#);
    assert!(!out.contains("error"), "{out}");
}

/// A pair run to frame `n` by [`input`] from power-on.
fn run_pair(n: u64) -> Session {
    let mut s = pair();
    for f in 0..n {
        input(&mut s, f);
        s.run_frame();
    }
    s
}

#[test]
fn seeking_across_the_cables_pulling_restores_each_frames_own_image() {
    // The pair's image is longer while the cable is out (each side's own serial state): a
    // seek from a plugged frame to an unplugged one and back must load each with its length.
    let mut s = run_pair(520);
    for t in [430, 300, 480, 410, 519] {
        s.seek(t).unwrap_or_else(|e| panic!("seek to {t}: {e}"));
        assert_eq!(
            s.machine().image_hash(),
            run_pair(t).machine().image_hash(),
            "frame {t} restored as it ran"
        );
    }
}
