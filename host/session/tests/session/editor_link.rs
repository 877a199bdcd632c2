//! The TAS editor over a linked pair: a movie of the pair opens with both players' input
//! (and the cable's pluggings, fed again), player 2's columns are edited apart from player
//! 1's with the greenzone kept before the edit, undo and branches hold the pair, and the saved
//! movie plays back in a new session on the edited machine with no desync.

use std::collections::BTreeMap;

use gb_core::Buttons;
use gb_session::Session;
use gb_session::data::Pads;
use gb_session::movie::editor::{BranchCheck, Editor};
use gb_session::movie::{self, Movie, Recorder, editor_file, state_hash};

use crate::link::{config, input, pair, peek, roms, temp};

/// Record `n` frames of the pair (the link tests' input: the cable pulled at 400, plugged
/// back at 460) to `name`; the recorded session and the movie's path.
fn recorded_pair(name: &str, n: u64) -> (Session, std::path::PathBuf) {
    let path = temp(name);
    let mut s = pair();
    let mut rec = Recorder::create(&path, &mut s, vec![], BTreeMap::new()).expect("records");
    for f in 0..n {
        input(&mut s, f);
        s.run_frame();
        rec.after_frame(&mut s).unwrap();
    }
    rec.finish().unwrap();
    (s, path)
}

/// A new pair playing `roll` from power-on, with the cable pulled at 400 and plugged at 460.
fn replayed(roll: &[Pads]) -> Session {
    let mut s = pair();
    for (f, p) in roll.iter().enumerate() {
        s.set_pads(*p);
        if f == 400 {
            s.set_cable(false);
        }
        if f == 460 {
            s.set_cable(true);
        }
        s.run_frame();
    }
    s
}

#[test]
fn player_2s_columns_are_edited_apart_and_the_saved_pair_movie_replays() {
    let (live, path) = recorded_pair("edit-pair.gbm", 600);
    let m = Movie::open(&path).unwrap();
    let mut s = m.session(roms(), config()).expect("the pair's session");
    let mut ed = editor_file::open(&m, &path, &s).expect("opens");
    assert_eq!(ed.roll().len(), 600);
    assert_eq!(
        ed.input(60),
        Pads::pair(Buttons::RIGHT, Buttons::LEFT),
        "both players' buttons in one frame"
    );
    assert_eq!(ed.input(310), Pads::of(1, Buttons::UP));

    // Played to the end, the editor makes the recorded machine: the cable's pluggings were
    // fed again at their frames (without them the pair would run linked through 400-460).
    ed.seek_now(&mut s, 600).unwrap();
    assert_eq!(s.machine().image_hash(), live.machine().image_hash());
    let unedited = state_hash(&s);
    let live_at_380 = replayed(&ed.roll().frames()[..380]);
    let branch = ed.save_branch(&s, "as recorded");

    // Player 2 holds Down over 150-169: player 1's input stays, the greenzone before 150
    // stays green, and re-emulation brings the pair to what a fresh pair makes of the roll.
    let p1_before: Vec<Buttons> = ed.roll().frames().iter().map(|p| p.player(0)).collect();
    assert_eq!(
        ed.paint(&s, 150..170, Pads::of(1, Buttons::DOWN), true),
        Some(150)
    );
    assert_eq!(ed.valid_end(), 150);
    assert!(ed.is_green(&s, 149));
    let p1_after: Vec<Buttons> = ed.roll().frames().iter().map(|p| p.player(0)).collect();
    assert_eq!(p1_before, p1_after, "player 1's columns untouched");
    assert_eq!(ed.input(160), Pads::of(1, Buttons::DOWN));
    ed.seek_now(&mut s, 380).unwrap();
    assert_eq!(
        peek(&s, 0, 0xC003),
        peek(&s, 1, 0xC001),
        "player 1 saw player 2's new place over the cable"
    );
    assert_ne!(
        peek(&s, 1, 0xC001),
        peek(&live_at_380, 1, 0xC001),
        "player 2's square is lower"
    );
    ed.seek_now(&mut s, 600).unwrap();
    let fresh = replayed(ed.roll().frames());
    assert_eq!(s.machine().image_hash(), fresh.machine().image_hash());
    assert_ne!(state_hash(&s), unedited, "player 2's edit changed the pair");

    // Saved, the movie plays back in a new session on the edited pair with no desync.
    let saved = temp("edit-pair-saved.gbm");
    let mut blank = m.session(roms(), config()).unwrap();
    editor_file::save(&mut ed, &mut s, &mut blank, &saved).expect("saves");
    let back = Movie::open(&saved).unwrap();
    assert_eq!(back.players(), 2);
    let (report, played) = movie::play(&back, roms(), config(), |_, _| {}).unwrap();
    assert_eq!((report.frames, report.desync), (600, None));
    assert_eq!(played.machine().image_hash(), s.machine().image_hash());
    // Its sidecar keeps the branch with player 2's buttons.
    let reopened = editor_file::open(&back, &saved, &played).unwrap();
    assert_eq!(reopened.branches().len(), 1);
    assert_eq!(reopened.branches()[0].frames[310], Pads::of(1, Buttons::UP));
    assert_eq!(reopened.input(160), Pads::of(1, Buttons::DOWN));

    // Undo brings the recorded input back; the branch loads onto the recorded machine.
    ed.undo(&s);
    assert_eq!(ed.input(160), Pads::default());
    ed.load_branch(&mut s, branch).unwrap();
    ed.seek_now(&mut s, 600).unwrap();
    assert_eq!(ed.branch_check(), Some(BranchCheck::Same));
    assert_eq!(state_hash(&s), unedited);
}

#[test]
fn an_editor_over_a_running_pair_takes_both_players_input_from_its_log() {
    let mut s = pair();
    for f in 0..130 {
        input(&mut s, f);
        s.run_frame();
    }
    let ed = Editor::from_session(&s, 0);
    assert_eq!(ed.input(11), Pads::of(0, Buttons::START));
    assert_eq!(ed.input(60), Pads::pair(Buttons::RIGHT, Buttons::LEFT));
    assert_eq!(ed.input(100), Pads::of(1, Buttons::LEFT));
    // Recording past the end appends every player's buttons.
    let mut ed = ed;
    ed.run_frame(&mut s, Pads::pair(Buttons::A, Buttons::B));
    assert_eq!(ed.input(130), Pads::pair(Buttons::A, Buttons::B));
    assert_eq!(
        s.machine().player(1).unwrap().buttons(),
        Buttons::B,
        "player 2 got its buttons"
    );
}

#[test]
fn a_bizhawk_script_edits_player_2s_column_through_tastudio() {
    use gb_session::Flavor;
    use gb_session::api::ClientRequest;
    let mut s = pair();
    for f in 0..60 {
        input(&mut s, f);
        s.run_frame();
    }
    let mut ed = Editor::from_session(&s, 0);
    s.load_script_as(
        "tas.lua",
        r#"
        tastudio.submitinputchange(20, "P2 A", true)
        tastudio.submitinputchange(21, "P1 B", true)
        tastudio.submitinputchange(55, "P2 Left", false)
        tastudio.applyinputchanges()
        console.log(pcall(tastudio.submitinputchange, 22, "P3 A", true))
        "#,
        Flavor::BizHawk,
    );
    s.set_editor_info(Some(ed.info(&s, Vec::new())));
    ed.run_frame(&mut s, Pads::default());
    let lines = crate::common::console(&mut s);
    assert!(lines[0].contains("unknown button 'P3 A'"), "{lines:?}");
    for (_, req) in s.take_client_requests() {
        if let ClientRequest::Tas(r) = req {
            ed.apply(&mut s, &r).expect("apply");
        }
    }
    assert_eq!(ed.input(20), Pads::of(1, Buttons::A));
    assert_eq!(ed.input(21), Pads::of(0, Buttons::B));
    assert_eq!(
        ed.input(55),
        Pads::of(0, Buttons::RIGHT),
        "player 2's Left released, player 1's Right kept"
    );
}
