//! Movies: record and play back with the desync detector, rerecords (cut, undo), resuming a
//! file, keyframe seeks, and hostile bytes.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::common::{counter_rom, session, texts};
use gb_core::Buttons;
use gb_session::movie::{self, Movie, Recorder};
use gb_session::{Session, SessionConfig};

const HUD: &str = r#"
local seen = 0
event.on_frame_end(function()
  seen = seen + memory.read_u8(0xC001)
  if emu.framecount() % 97 == 0 then memory.write_u8(0xC080, seen & 0xFF) end
  gui.text(0, 0, tostring(seen))
end)
"#;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gbhost-movie-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn config() -> SessionConfig {
    SessionConfig {
        desync_check: false,
        ring_bytes: 8 << 20,
        ..SessionConfig::default()
    }
}

/// Varied input: frame-aligned and sub-frame changes.
fn drive(s: &mut Session, rec: &mut Recorder, frames: u64, seed: u64) {
    let mut x = seed | 1;
    for _ in 0..frames {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if x.is_multiple_of(5) {
            s.set_buttons(Buttons((x >> 8) as u8));
        } else if x % 17 == 1 {
            let at = s.gb().cycles() + (x >> 20) % 70_000;
            s.set_buttons_at(Buttons((x >> 30) as u8), at);
        }
        s.run_frame();
        rec.after_frame(s).unwrap();
    }
}

fn core_hash(s: &Session) -> u64 {
    movie::state_hash(s)
}

#[test]
fn a_recording_plays_back_in_sync() {
    let path = temp("sync.gbm");
    let mut s = Session::new(counter_rom(), None, config()).unwrap();
    s.load_script("hud.lua", HUD);
    let mut rec = Recorder::create(&path, &mut s, vec!["me".into()], BTreeMap::new()).unwrap();
    drive(&mut s, &mut rec, 1234, 42);
    rec.finish().unwrap();
    let m = Movie::open(&path).unwrap();
    assert_eq!(m.frames(), 1234);
    assert_eq!(m.header.authors, vec!["me".to_owned()]);
    let (report, played) = movie::play(&m, counter_rom(), config(), |_, _| {}).unwrap();
    assert_eq!(report.frames, 1234);
    assert_eq!(report.checks, 21, "one check per chunk");
    assert_eq!(report.desync, None);
    assert_eq!(core_hash(&played), core_hash(&s));
    assert_eq!(played.picture(), s.picture());
    // Compacted: the same movie.
    gb_session::movie::container::compact(&path, &path, 19).unwrap();
    let c = Movie::open(&path).unwrap();
    assert!(c.is_compact());
    let (report, _) = movie::play(&c, counter_rom(), config(), |_, _| {}).unwrap();
    assert_eq!((report.frames, report.desync), (1234, None));
}

#[test]
fn the_detector_names_the_first_differing_check() {
    let path = temp("desync.gbm");
    let mut s = Session::new(counter_rom(), None, config()).unwrap();
    let mut rec = Recorder::create(&path, &mut s, vec![], BTreeMap::new()).unwrap();
    drive(&mut s, &mut rec, 300, 7);
    rec.finish().unwrap();
    let m = Movie::open(&path).unwrap();
    // Played with a poke the recording did not have, at frame 130.
    let mut p = m.session(counter_rom(), config()).unwrap();
    let mut feeder = movie::Feeder::new();
    while feeder.feed(&m, &mut p).unwrap() == movie::Feed::Playing {
        if p.frame() == 130 {
            p.poke(0xC000, 0x55);
        }
        p.run_frame();
    }
    let d = feeder.desync.expect("a desync");
    assert_eq!(d.frame, 180, "the first check after the poke");
}

#[test]
fn rewinding_while_recording_is_a_rerecord_and_undo_brings_the_future_back() {
    let path = temp("rerecord.gbm");
    let mut s = Session::new(counter_rom(), None, config()).unwrap();
    s.load_script("hud.lua", HUD);
    let mut rec = Recorder::create(&path, &mut s, vec![], BTreeMap::new()).unwrap();
    drive(&mut s, &mut rec, 300, 3);
    let original_end = core_hash(&s);
    s.seek(150).unwrap();
    drive(&mut s, &mut rec, 50, 99);
    assert_eq!(rec.end_frame(), 200);
    assert_eq!(rec.header.rerecords, 1);
    let branch_end = core_hash(&s);
    // The file is the new timeline (its last, unfinished second is still in memory).
    {
        let m = Movie::open(&path).unwrap();
        assert_eq!(m.frames(), 180);
        assert_eq!(m.header.rerecords, 1);
        let (report, mut played) = movie::play(&m, counter_rom(), config(), |_, _| {}).unwrap();
        assert_eq!(report.desync, None);
        s.seek(180).unwrap();
        assert_eq!(core_hash(&played), core_hash(&s));
        played.run_frame();
        s.seek(200).unwrap();
        assert_eq!(core_hash(&s), branch_end);
    }
    // Undo: the old future is back.
    assert_eq!(rec.undo_rerecord().unwrap(), Some(300));
    rec.finish().unwrap();
    let m = Movie::open(&path).unwrap();
    assert_eq!((m.frames(), m.header.rerecords), (300, 0));
    let (report, played) = movie::play(&m, counter_rom(), config(), |_, _| {}).unwrap();
    assert_eq!(report.desync, None);
    assert_eq!(core_hash(&played), original_end);
}

#[test]
fn a_movie_file_can_be_continued_from_a_frame() {
    let path = temp("resume.gbm");
    let mut s = Session::new(counter_rom(), None, config()).unwrap();
    let mut rec = Recorder::create(&path, &mut s, vec![], BTreeMap::new()).unwrap();
    drive(&mut s, &mut rec, 250, 5);
    rec.finish().unwrap();
    let m = Movie::open(&path).unwrap();
    let (mut p, _) = m.session_at(counter_rom(), config(), 100, |_| {}).unwrap();
    assert_eq!(p.frame(), 100);
    drop(m);
    let mut rec = Recorder::resume(&path, &mut p).unwrap();
    assert_eq!(rec.end_frame(), 100);
    assert_eq!(rec.header.rerecords, 1);
    drive(&mut p, &mut rec, 70, 11);
    rec.finish().unwrap();
    let m = Movie::open(&path).unwrap();
    assert_eq!(m.frames(), 170);
    let (report, played) = movie::play(&m, counter_rom(), config(), |_, _| {}).unwrap();
    assert_eq!(report.desync, None);
    assert_eq!(core_hash(&played), core_hash(&p));
}

#[test]
fn seeking_starts_from_the_nearest_keyframe() {
    let path = temp("seek.gbm");
    let mut s = session();
    let mut rec = Recorder::create(&path, &mut s, vec![], BTreeMap::new()).unwrap();
    drive(&mut s, &mut rec, 1300, 9);
    rec.finish().unwrap();
    let m = Movie::open(&path).unwrap();
    let keys = m
        .chunks()
        .iter()
        .filter(|c| c.meta.flags & movie::FLAG_KEYFRAME != 0)
        .count();
    assert_eq!(keys, 3, "frames 0, 600 and 1200");
    let (at, feeder) = m.session_at(counter_rom(), config(), 1250, |_| {}).unwrap();
    assert_eq!(at.frame(), 1250);
    // From the keyframe at 1200: one chunk check on the way (at 1200), not 21.
    assert_eq!(feeder.checks, 1);
    assert_eq!(feeder.desync, None);
    let (_, mut full) = movie::play(&m, counter_rom(), config(), |_, _| {}).unwrap();
    full.seek(1250).unwrap();
    assert_eq!(core_hash(&at), core_hash(&full));
}

#[test]
fn hostile_movie_bytes_never_panic() {
    let path = temp("fuzz.gbm");
    let mut s = Session::new(counter_rom(), None, config()).unwrap();
    s.load_script("hud.lua", HUD);
    let mut rec = Recorder::create(&path, &mut s, vec![], BTreeMap::new()).unwrap();
    drive(&mut s, &mut rec, 200, 1);
    rec.finish().unwrap();
    let journal = std::fs::read(&path).unwrap();
    gb_session::movie::container::compact(&path, &path, 3).unwrap();
    let compact = std::fs::read(&path).unwrap();
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut runs = 0;
    for round in 0..20_000u32 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mut bad = if round % 2 == 0 {
            journal.clone()
        } else {
            compact.clone()
        };
        match round % 3 {
            0 => {
                let i = x as usize % bad.len();
                bad[i] ^= 1 << ((x >> 40) % 8);
            }
            1 => bad.truncate(x as usize % bad.len()),
            _ => {
                let i = x as usize % (bad.len() - 4);
                bad[i..i + 4].copy_from_slice(&u32::MAX.to_le_bytes());
            }
        }
        runs += 1;
        if let Ok(m) = Movie::from_bytes(bad) {
            for i in 0..m.chunks().len() {
                let _ = m.chunk(i);
            }
            let _ = m.frame_buttons();
        }
    }
    println!("movie fuzz: {runs} executions");
}

#[test]
fn a_movie_from_a_state_plays_back_in_sync() {
    let path = temp("from-state.gbm");
    let mut a = Session::new(counter_rom(), None, config()).unwrap();
    a.load_script("hud.lua", HUD);
    for f in 0..100u8 {
        a.set_buttons(Buttons(f));
        a.run_frame();
    }
    let file = a.state_file(0, false);
    let mut s = Session::from_state_file(counter_rom(), None, config(), &file).unwrap();
    assert_eq!(s.frame(), 100);
    let mut rec = Recorder::create(&path, &mut s, vec![], BTreeMap::new()).unwrap();
    drive(&mut s, &mut rec, 300, 17);
    rec.finish().unwrap();
    let m = Movie::open(&path).unwrap();
    assert!(matches!(m.header.start, movie::Start::State(_)));
    assert_eq!((m.header.start_frame, m.frames()), (100, 300));
    let (report, played) = movie::play(&m, counter_rom(), config(), |_, _| {}).unwrap();
    assert_eq!(report.desync, None);
    assert_eq!(played.frame(), 400);
    assert_eq!(core_hash(&played), core_hash(&s));
    assert_eq!(played.picture(), s.picture());
}

#[test]
fn movies_with_impossible_frames_are_refused_or_bounded() {
    let path = temp("huge.gbm");
    let _ = std::fs::remove_file(&path);
    let mut s = Session::new(counter_rom(), None, config()).unwrap();
    let rec = Recorder::create(&path, &mut s, vec![], BTreeMap::new()).unwrap();
    let header = rec.header.encode();
    drop(rec);
    let _ = std::fs::remove_file(&path);
    let mut idx = path.as_os_str().to_owned();
    idx.push(".idx");
    let _ = std::fs::remove_file(PathBuf::from(idx));
    // A chunk claiming four billion frames: listed as an error, not an allocation.
    let mut w = gb_session::movie::container::Writer::create(&path, &header).unwrap();
    let chunk = movie::Chunk::default().encode(0);
    let meta = gb_session::movie::container::ChunkMeta {
        start_frame: 0,
        frames: u32::MAX,
        flags: 0,
    };
    w.append_chunk(meta, &chunk).unwrap();
    w.sync().unwrap();
    drop(w);
    let m = Movie::open(&path).unwrap();
    assert_eq!(m.frames(), u64::from(u32::MAX));
    assert!(m.frame_buttons().is_err());
    // A chunk before the movie's start is refused when opening.
    let mut h = movie::MovieHeader::decode(&header).unwrap();
    h.start_frame = 100;
    let path2 = temp("before.gbm");
    let _ = std::fs::remove_file(&path2);
    let mut w = gb_session::movie::container::Writer::create(&path2, &h.encode()).unwrap();
    w.append_chunk(
        gb_session::movie::container::ChunkMeta {
            start_frame: 10,
            frames: 60,
            flags: 0,
        },
        &movie::Chunk::default().encode(10),
    )
    .unwrap();
    drop(w);
    let e = Movie::open(&path2).err().expect("refused").to_string();
    assert!(e.contains("outside the movie"), "{e}");
}

/// A battery cartridge whose state depends on what work RAM and its save RAM held at power-on:
/// each frame it adds up $C100-$C1FF and $A000 into $C000.
fn power_on_rom() -> Vec<u8> {
    gb_core::asm::RomBuilder::new()
        .title("POWERON")
        .cartridge_type(0x03)
        .ram_size_code(0x02)
        .program(
            r#"
                ld a, $0A
                ld [$0000], a
            frame:
                ld hl, $C100
                ld b, 0
                xor a
            .sum:
                add a, [hl]
                inc hl
                dec b
                jr nz, .sum
                ld c, a
                ld a, [$A000]
                add a, c
                ld [$C000], a
            .wait:
                ldh a, [$44]
                cp 144
                jr nz, .wait
            .out:
                ldh a, [$44]
                cp 144
                jr z, .out
                jr frame
            "#,
        )
        .build()
        .expect("assemble")
}

/// A movie from power-on carries the power-on RAM seed and the battery RAM: its playback powers
/// on the same (no desync), while a machine powered on otherwise runs differently.
#[test]
fn the_power_on_state_travels_with_the_movie() {
    use gb_core::RamInit;
    use gb_session::PowerOn;
    let path = temp("power-on.gbm");
    let _ = std::fs::remove_file(&path);
    let mut battery = vec![0u8; 8 * 1024];
    battery[0] = 0x5A;
    let power = PowerOn {
        battery: Some(battery.clone()),
        ram_init: RamInit::Pattern(0x00DE_C0DE),
        ..PowerOn::default()
    };
    let mut s = Session::power_on(power_on_rom(), power.clone(), config()).unwrap();
    let mut rec = Recorder::create(&path, &mut s, Vec::new(), BTreeMap::new()).unwrap();
    drive(&mut s, &mut rec, 200, 7);
    rec.finish().unwrap();
    let m = Movie::open(&path).unwrap();
    match &m.header.start {
        movie::Start::PowerOn {
            battery: b,
            ram_init,
            ..
        } => {
            assert_eq!(b.as_deref(), Some(&battery[..]));
            assert_eq!(*ram_init, RamInit::Pattern(0x00DE_C0DE));
        }
        other => panic!("{other:?}"),
    }
    let (report, played) = movie::play(&m, power_on_rom(), config(), |_, _| {}).unwrap();
    assert_eq!((report.frames, report.desync), (200, None));
    assert_eq!(core_hash(&played), core_hash(&s));
    // The same input on a machine powered on with the default pattern and no save differs.
    let mut other = Session::new(power_on_rom(), None, config()).unwrap();
    other.run_frame();
    s.seek(1).unwrap();
    assert_ne!(other.gb().peek(0xC000), s.gb().peek(0xC000));
}

/// Scripts in play: with a state key the movie's keyframes (every three chunks) are state
/// files with the scripts' portable images, and a seek starts from the nearest one in a new
/// session, the scripts' memory included; without the key the seek replays from the start.
#[test]
fn seeking_a_movie_with_scripts_starts_from_a_keyframe_with_their_images() {
    let path = temp("seek-scripts.gbm");
    let keyed = |offset: usize| SessionConfig {
        image_key: Some(lua_rollback::ImageKey::from_bytes([3; 32])),
        scripts: gb_session::ScriptConfig {
            window_offset: offset,
            ..gb_session::ScriptConfig::default()
        },
        ..config()
    };
    let reference = {
        let mut s = Session::new(counter_rom(), None, keyed(400)).unwrap();
        s.load_script("hud.lua", HUD);
        s.load_script(
            "count.lua",
            "local n = 0 while true do n = n + 1 gui.text(0, 8, 'count ' .. n) emu.frameadvance() end",
        );
        let mut rec = Recorder::create(&path, &mut s, vec![], BTreeMap::new()).unwrap();
        drive(&mut s, &mut rec, 500, 4);
        rec.finish().unwrap();
        s.seek(430).unwrap();
        (core_hash(&s), s.script_image_hashes())
    };
    let m = Movie::open(&path).unwrap();
    let state_keys = m
        .chunks()
        .iter()
        .filter(|c| c.meta.flags & movie::FLAG_KEYFRAME != 0 && c.meta.start_frame > 0)
        .count();
    assert_eq!(state_keys, 2, "frames 180 and 360");
    // The second stores its images as deltas from the first's.
    let i = m
        .chunks()
        .iter()
        .position(|c| c.meta.start_frame == 360)
        .unwrap();
    let key = m.chunk(i).unwrap().keyframe.unwrap();
    let file = gb_session::StateFile::decode(&key).unwrap();
    assert_eq!(file.images.len(), 2);
    assert!(file.images.iter().all(|i| i.base == Some(180)));
    // The recording session is gone (as another process would start): its VMs' addresses are
    // free for the seek's.
    let (mut at, feeder) = m
        .session_at(counter_rom(), keyed(400), 430, |_| {})
        .unwrap();
    assert_eq!(feeder.start, 360, "from the keyframe at 360");
    assert_eq!(feeder.desync, None);
    assert_eq!(at.frame(), 430);
    assert_eq!((core_hash(&at), at.script_image_hashes()), reference);
    assert!(
        texts(&at).iter().any(|t| t == "count 431"),
        "the counter lives on: {:?}",
        texts(&at)
    );
    drop(at);
    // Another user: the images do not verify, so the seek replays from the start, exactly.
    let other = SessionConfig {
        image_key: Some(lua_rollback::ImageKey::from_bytes([4; 32])),
        ..keyed(400)
    };
    let (mut from_start, feeder) = m.session_at(counter_rom(), other, 430, |_| {}).unwrap();
    assert_eq!(feeder.start, 0);
    assert_eq!(
        (core_hash(&from_start), from_start.script_image_hashes()),
        reference
    );
}

/// A ROM that switches the LCD off and on every ~2.4 frames and sums the action buttons it
/// reads (P1) into 0xC000 all along, so where frames end decides what it sums.
fn lcd_switching_rom() -> Vec<u8> {
    let phase = r#"
            ld bc, 3000
        .delay_LABEL:
            ldh a, [$00]
            add a, [hl]
            ld [hl], a
            dec bc
            ld a, b
            or c
            jr nz, .delay_LABEL
    "#;
    let src = format!(
        r#"
            ld hl, $C000
            xor a
            ld [hl], a
            ld a, $10
            ldh [$00], a
        main:
            xor a
            ldh [$40], a
            {}
            ld a, $91
            ldh [$40], a
            {}
            jr main
        "#,
        phase.replace("LABEL", "off"),
        phase.replace("LABEL", "on")
    );
    gb_core::asm::rom(&src).expect("assemble")
}

/// Record 400 frames of `rom` counting frames by `rule`, with A toggled every 7 frames.
fn record_with_rule(path: &std::path::Path, rom: &[u8], rule: gb_core::FrameRule) -> Session {
    let power = gb_session::PowerOn {
        frame_rule: rule,
        ..gb_session::PowerOn::default()
    };
    let mut s = Session::power_on(rom.to_vec(), power, config()).unwrap();
    let mut rec = Recorder::create(path, &mut s, vec![], BTreeMap::new()).unwrap();
    for f in 0..400u64 {
        s.set_buttons(Buttons(if (f / 7) % 2 == 1 { 0x01 } else { 0 }));
        s.run_frame();
        rec.after_frame(&mut s).unwrap();
    }
    rec.finish().unwrap();
    s
}

#[test]
fn a_movie_from_before_core_versions_plays_by_the_legacy_rule_and_says_it_is_unverified() {
    let rom = lcd_switching_rom();
    let new_path = temp("rule-bizhawk.gbm");
    let old_path = temp("rule-legacy.gbm");
    let bizhawk = record_with_rule(&new_path, &rom, gb_core::FrameRule::BizHawk);
    let legacy = record_with_rule(&old_path, &rom, gb_core::FrameRule::Legacy);
    // On this ROM the rules put the input on other dots.
    assert_ne!(
        (bizhawk.gb().peek(0xC000), bizhawk.gb().cycles()),
        (legacy.gb().peek(0xC000), legacy.gb().cycles()),
        "the frame rule changes what the game sees"
    );
    // A new movie says its core and rule, and plays checked.
    let m = Movie::open(&new_path).unwrap();
    assert_eq!(m.header.core_version, gb_core::CORE_VERSION);
    assert_eq!(m.header.frame_rule, gb_core::FrameRule::BizHawk);
    assert_eq!(m.other_core(), None);
    let (report, played) = movie::play(&m, rom.clone(), config(), |_, _| {}).unwrap();
    assert_eq!((report.desync, report.other_core), (None, None));
    assert!(report.checks > 0);
    assert_eq!(core_hash(&played), core_hash(&bizhawk));
    // Turn the legacy recording into a movie as gbhost wrote them before core versions:
    // header version 2, without the core version and rule at its end.
    let m = Movie::open(&old_path).unwrap();
    let mut header = m.header.encode();
    header.truncate(header.len() - 2);
    header[0] = 2;
    drop(m);
    let mut w = movie::container::Writer::resume(&old_path).unwrap();
    w.set_header(&header).unwrap();
    w.sync().unwrap();
    drop(w);
    let m = Movie::open(&old_path).unwrap();
    assert_eq!(m.header.core_version, 1);
    assert_eq!(m.header.frame_rule, gb_core::FrameRule::Legacy);
    assert_eq!(m.other_core(), Some(1));
    let note = m.core_note().expect("a note");
    assert!(
        note.contains("core version 1") && note.contains("legacy"),
        "{note}"
    );
    let (report, played) = movie::play(&m, rom.clone(), config(), |_, _| {}).unwrap();
    assert_eq!(report.other_core, Some(1));
    assert_eq!(report.checks, 0, "no state check against another core");
    assert_eq!(report.desync, None);
    // Played by the legacy rule, it is the legacy recording's game.
    assert_eq!(played.gb().frame_rule(), gb_core::FrameRule::Legacy);
    assert_eq!(core_hash(&played), core_hash(&legacy));
    // A seek plays it from its start (its keyframes are another core's).
    let (at, feeder) = m.session_at(rom, config(), 300, |_| {}).unwrap();
    assert_eq!((at.frame(), feeder.start), (300, 0));
}
