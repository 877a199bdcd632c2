//! The TAS editor's model over a real session: painting, the greenzone and lazy
//! re-emulation, undo, inserts and deletes, markers, lag frames, branches with a HUD script
//! whose state rolls back with them.

use gb_core::Buttons;
use gb_session::data::Pads;
use gb_session::movie::editor::{BranchCheck, Editor, Progress};
use gb_session::movie::state_hash;
use gb_session::{Flavor, Session};

use crate::common::session;

/// A script that counts the frames in which A was held (its count lives in its arena) and
/// shows it.
const HUD: &str = r#"
local held = 0
while true do
  if joypad.get().A then held = held + 1 end
  gui.text(0, 0, "A " .. held)
  emu.frameadvance()
end
"#;

fn hud_text(s: &Session) -> String {
    crate::common::texts(s).join("|")
}

/// Record `n` frames: A held on frames 50-59 and 150-159.
fn recorded(n: u64) -> (Session, Editor) {
    let mut s = session();
    s.load_script_as("hud.lua", HUD, Flavor::Native);
    let mut ed = Editor::new(&s, 0, Vec::new());
    for f in 0..n {
        let held = if (50..60).contains(&f) || (150..160).contains(&f) {
            Buttons::A
        } else {
            Buttons::default()
        };
        ed.run_frame(&mut s, held);
    }
    (s, ed)
}

/// The machine after playing `input` from power-on with the HUD script.
fn replayed(input: &[Pads]) -> (u64, String) {
    let mut s = session();
    s.load_script_as("hud.lua", HUD, Flavor::Native);
    for b in input {
        s.set_pads(*b);
        s.run_frame();
    }
    (state_hash(&s), hud_text(&s))
}

#[test]
fn painting_invalidates_after_the_edit_and_replay_brings_the_greenzone_back() {
    let (mut s, mut ed) = recorded(300);
    assert_eq!(ed.roll().len(), 300);
    assert_eq!(hud_text(&s), "A 20");
    assert!(ed.is_green(&s, 250));
    let before = state_hash(&s);
    // Paint A over 100-120 while at frame 300.
    assert_eq!(ed.paint(&s, 100..121, Buttons::A, true), Some(100));
    assert!(
        ed.is_green(&s, 100) && !ed.is_green(&s, 101),
        "only frames after 100 leave it"
    );
    assert_eq!(
        ed.target(),
        300,
        "re-emulation heads back to where the user was"
    );
    let mut steps = 0;
    while let Progress::Pending(_) = ed.advance(&mut s, 50).expect("advance") {
        steps += 1;
    }
    assert!(steps >= 3, "lazily, a budget at a time");
    assert_eq!(s.frame(), 300);
    assert!(ed.is_green(&s, 250));
    assert_eq!(hud_text(&s), "A 41", "the HUD counted the painted frames");
    assert_eq!((state_hash(&s), hud_text(&s)), replayed(ed.roll().frames()));
    assert_ne!(state_hash(&s), before);
    // Undo: the old input, and the old machine once re-emulated.
    assert_eq!(ed.undo(&s), Some(100));
    ed.seek_now(&mut s, 300).expect("seek");
    assert_eq!(state_hash(&s), before);
    assert_eq!(hud_text(&s), "A 20");
}

#[test]
fn seeking_a_green_frame_is_immediate_and_scripts_follow() {
    let (mut s, mut ed) = recorded(300);
    assert_eq!(ed.seek(&mut s, 155).expect("seek"), Progress::Done);
    assert_eq!(s.frame(), 155);
    // The HUD drew frame 154: A held on 50-59 and 150-154.
    assert_eq!(hud_text(&s), "A 15");
    ed.seek_now(&mut s, 300).expect("seek");
    assert_eq!(hud_text(&s), "A 20");
}

#[test]
fn inserts_and_deletes_shift_the_input_and_markers() {
    let (mut s, mut ed) = recorded(200);
    ed.set_marker(150, "second press", false);
    ed.insert(&s, 100, 10, Buttons::B);
    assert_eq!(ed.roll().len(), 210);
    assert_eq!(
        ed.input(160),
        Buttons::A.into(),
        "frame 150's A moved to 160"
    );
    assert!(ed.marker(160).is_some());
    ed.delete(&s, 0..5);
    assert_eq!(ed.input(155), Buttons::A.into());
    assert_eq!(ed.next_marker(0), Some(155));
    ed.seek_now(&mut s, 210).expect("seek");
    assert_eq!((state_hash(&s), hud_text(&s)), replayed(ed.roll().frames()));
}

#[test]
fn lag_frames_are_the_frames_without_a_joypad_read() {
    // Reads the joypad in every other VBlank.
    let rom = gb_core::asm::rom(
        r#"
            xor a
            ld [$C000], a
            ld a, $01
            ldh [$FF], a
            ei
        main:
            halt
            nop
            jr main
            org $40
            push af
            ld a, [$C000]
            inc a
            ld [$C000], a
            bit 0, a
            jr nz, skip
            ldh a, [$00]
        skip:
            pop af
            reti
        "#,
    )
    .expect("assemble");
    let mut s = Session::new(rom, None, gb_session::SessionConfig::default()).expect("session");
    let mut ed = Editor::new(&s, 0, Vec::new());
    for _ in 0..60 {
        ed.run_frame(&mut s, Buttons::default());
    }
    let lag: Vec<bool> = (10..14).map(|f| ed.lagged(f).expect("emulated")).collect();
    assert!(
        lag == [true, false, true, false] || lag == [false, true, false, true],
        "{lag:?}"
    );
    assert_eq!(ed.lag_count() as u64, s.gb().lag_frames());
    assert!((29..=31).contains(&ed.lag_count()), "{}", ed.lag_count());
    // An edit forgets the lag of the frames after it until they are emulated again.
    ed.set(&s, 40, Buttons::A);
    assert_eq!(ed.lagged(45), None);
    ed.seek_now(&mut s, 60).expect("seek");
    assert!(ed.lagged(45).is_some());
}

#[test]
fn a_branch_restores_input_frame_and_script_state() {
    let (mut s, mut ed) = recorded(200);
    let b = ed.save_branch(&s, "twenty");
    assert_eq!(hud_text(&s), "A 20");
    // Another try: A all along 0-200.
    ed.paint(&s, 0..200, Buttons::A, true);
    ed.seek_now(&mut s, 200).expect("seek");
    assert_eq!(hud_text(&s), "A 200");
    ed.save_branch(&s, "all");
    assert_eq!(ed.branch_diff(0, 1), Some(0));
    let p = ed.load_branch(&mut s, b).expect("load");
    assert!(
        matches!(p, Progress::Pending(_)),
        "re-emulated from the first difference"
    );
    assert_eq!(ed.branch_check(), Some(BranchCheck::Pending));
    while let Progress::Pending(_) = ed.advance(&mut s, 60).expect("advance") {}
    assert_eq!(s.frame(), 200);
    assert_eq!(ed.branch_check(), Some(BranchCheck::Same));
    assert_eq!(hud_text(&s), "A 20", "the script's count is the branch's");
    assert_eq!(ed.input(55), Buttons::A.into());
    assert_eq!(ed.input(100), Buttons::default().into());
    // Loading a branch is an edit: undo gives the other input back.
    ed.undo(&s);
    assert_eq!(ed.input(100), Buttons::A.into());
}

#[test]
fn an_edited_movie_saves_with_markers_and_branches_and_reopens() {
    use gb_session::movie::{Movie, editor_file, play};
    let dir = std::env::temp_dir().join(format!("gbhost-editor-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("run.gbm");
    let (mut s, mut ed) = recorded(240);
    ed.paint(&s, 100..110, Buttons::A, true);
    ed.set_marker(100, "jump", false);
    ed.set_marker(5, "pinned start", true);
    ed.save_branch(&s, "first try");
    let mut fresh = session();
    editor_file::save(&mut ed, &mut s, &mut fresh, &path).expect("save");
    assert_eq!(hud_text(&s), "A 30");
    assert!(editor_file::branches_path(&path).exists());
    // It plays back as edited, with no desync, the HUD script included.
    let movie = Movie::open(&path).expect("open");
    let (report, played) = play(
        &movie,
        crate::common::counter_rom(),
        Default::default(),
        |_, _| {},
    )
    .expect("play");
    assert!(report.desync.is_none());
    assert_eq!(report.frames, 240);
    assert_eq!(state_hash(&played), state_hash(&s));
    assert_eq!(hud_text(&played), "A 30");
    // Reopened: the input, the markers and the branch.
    let start = movie
        .session(crate::common::counter_rom(), Default::default())
        .expect("session");
    let again = editor_file::open(&movie, &path, &start).expect("reopen");
    assert_eq!(again.roll().frames(), ed.roll().frames());
    assert_eq!(again.marker(100).map(|m| m.text.as_str()), Some("jump"));
    assert!(again.marker(5).is_some_and(|m| m.pinned));
    assert_eq!(again.branches().len(), 1);
    assert_eq!(again.branches()[0].name, "first try");
    assert_eq!(
        again.branches()[0].thumbnail.len(),
        gb_core::screen::GAME.pixels()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_damaged_branch_file_is_an_error_not_a_crash() {
    use gb_session::movie::editor_file::decode_branches;
    assert!(decode_branches(b"junk").is_err());
    assert!(decode_branches(b"GBHBRNCH\x01\xff\xff\xff\xff\x0f").is_err());
    let mut ok = gb_session::movie::editor_file::encode_branches(&[]);
    assert!(decode_branches(&ok).expect("empty").is_empty());
    ok[8] = 9;
    assert!(decode_branches(&ok).is_err(), "a newer version");
}

#[test]
fn a_bizhawk_script_reads_and_edits_the_roll_through_tastudio() {
    use gb_session::api::ClientRequest;
    let (mut s, mut ed) = recorded(100);
    ed.set_marker(50, "boss", false);
    s.load_script_as(
        "tas.lua",
        r#"
        console.log(tostring(tastudio.engaged()) .. " " .. tastudio.getmarker(50) .. " " ..
          tostring(tastudio.islag(10)) .. " " .. tostring(tastudio.hasstate(20)) .. " " ..
          tastudio.find_marker_on_or_before(70) .. " " .. #tastudio.getbranches())
        tastudio.submitinputchange(120, "P1 B", true)
        tastudio.submitinsertframes(0, 2)
        tastudio.applyinputchanges()
        tastudio.setmarker(130, "from lua")
        console.log(pcall(tastudio.onbranchload, print))
        "#,
        Flavor::BizHawk,
    );
    s.set_editor_info(Some(ed.info(&s, vec![3, 4])));
    ed.run_frame(&mut s, Buttons::default());
    let lines = crate::common::console(&mut s);
    assert_eq!(lines[0], "true boss false true 50 0", "{lines:?}");
    assert!(lines[1].contains("hooks on editor actions"), "{lines:?}");
    for (_, req) in s.take_client_requests() {
        if let ClientRequest::Tas(r) = req {
            ed.apply(&mut s, &r).expect("apply");
        }
    }
    // B on 120, then two frames inserted at the start: B is on 122 now.
    assert_eq!(ed.input(122), Buttons::B.into());
    assert!(
        ed.marker(130).is_some(),
        "set after the insert, on the frame it named"
    );
    assert!(
        ed.marker(52).is_some(),
        "the old marker moved with its input"
    );
}

#[test]
fn a_ghost_runs_frame_locked_and_marks_the_first_difference() {
    use gb_session::movie::ghost::Ghost;
    let (mut s, mut ed) = recorded(200);
    // The ghost: the same run without the first A presses.
    let mut input = ed.roll().frames().to_vec();
    for b in &mut input[50..60] {
        *b = Pads::default();
    }
    let mut ghost = Ghost::new("no early A", session(), 0, input);
    // Follow the edited session from the start, frame by frame.
    ed.seek_now(&mut s, 0).expect("seek");
    while s.frame() < 200 {
        ed.run_frame(&mut s, Buttons::default());
        ghost.observe(&s);
        ghost.follow(s.frame()).expect("follow");
    }
    assert_eq!(ghost.session().frame(), 200);
    let d = ghost.divergence().expect("they differ");
    assert!((50..=52).contains(&d.frame), "{d:?}");
    assert!(d.ram, "the ROM mixes the buttons into work RAM");
    assert_eq!(ghost.compared_to(), 200);
    // Back in time: the ghost follows through its own history.
    ed.seek(&mut s, 30).expect("seek");
    ghost.follow(s.frame()).expect("follow");
    assert_eq!(ghost.session().frame(), 30);
    // The edited run made the same as the ghost: no difference once re-observed.
    ed.paint(&s, 50..60, Buttons::A, false);
    ghost.invalidate_main_from(50);
    ed.seek_now(&mut s, 50).expect("seek");
    while s.frame() < 200 {
        ed.run_frame(&mut s, Buttons::default());
        ghost.observe(&s);
        ghost.follow(s.frame()).expect("follow");
    }
    assert_eq!(ghost.divergence(), None);
}

#[test]
fn a_marker_state_brings_back_frames_the_ring_evicted() {
    let config = gb_session::SessionConfig {
        ring_bytes: 48 << 10,
        desync_check: false,
        ..gb_session::SessionConfig::default()
    };
    let mut s = Session::new(crate::common::counter_rom(), None, config.clone()).expect("session");
    let mut ed = Editor::new(&s, 0, vec![Pads::default(); 3000]);
    ed.set_marker(100, "checkpoint", false);
    ed.seek_now(&mut s, 3000).expect("record");
    assert_eq!(ed.marker_state_frames().collect::<Vec<_>>(), [100]);
    assert!(!s.history().holds(150), "the small ring let frame 150 go");
    // An edit at 150 cannot be emulated again from the ring...
    ed.set(&s, 150, Buttons::A);
    assert!(ed.seek_now(&mut s, 2000).is_err());
    // ...but from the marker's state it can.
    let fresh = ed
        .resume_from_marker(&s, crate::common::counter_rom(), config)
        .expect("resume")
        .expect("a marker state before 150");
    s = fresh;
    assert_eq!(s.frame(), 100);
    ed.seek_now(&mut s, 2000).expect("seek");
    let mut input = vec![Buttons::default(); 2000];
    input[150] = Buttons::A;
    let mut plain = session();
    for b in &input {
        plain.set_buttons(*b);
        plain.run_frame();
    }
    assert_eq!(state_hash(&s), state_hash(&plain));
    // An edit before the marker forgets its state.
    ed.set(&s, 50, Buttons::B);
    assert_eq!(ed.marker_state_frames().count(), 0);
}
