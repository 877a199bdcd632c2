//! The TAS editor's window driven by its labels with `egui_kittest`, on the demo cartridge
//! (its A button stops the background's scrolling, so input shows) with a HUD script counting
//! frames: a movie opened, a seek by clicking a frame and by the arrow keys, A painted by
//! dragging over frames 100-120 (the frames after leave the greenzone and come back after
//! playback), undo, insert and delete shifting frames, copy and paste, a right-drag erasing, a
//! selection dragged and cleared, a branch saved and loaded back (input, frame and the
//! script's counter), markers kept through a save and a reopen.

use super::GbApp;
use super::test_support::{self as support, H, settle};
use crate::emu::{EditorView, RomSource};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use gb_core::Buttons;
use std::path::PathBuf;
use std::time::{Duration, Instant};

const HUD: &str = "count = 0\n\
event.onframeend(function()\n\
  count = count + 1\n\
  gui.text(0, 0, 'count ' .. count)\n\
end)\n";

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gbhost-ui-editor-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn harness(dir: &std::path::Path) -> Harness<'static, GbApp> {
    let hud = dir.join("hud.lua");
    std::fs::write(&hud, HUD).unwrap();
    support::harness(RomSource::Demo, vec![hud], 32 << 20, [1200.0, 1000.0])
}

fn editor(h: &Harness<'static, GbApp>) -> EditorView {
    h.state().view().editor.clone().expect("the editor is open")
}

fn frame(h: &Harness<'static, GbApp>) -> u64 {
    h.state().view().timeline.frame
}

/// Run the window until `done` holds (re-emulation goes on between frames).
fn wait(
    h: &mut Harness<'static, GbApp>,
    what: &str,
    done: impl Fn(&Harness<'static, GbApp>) -> bool,
) {
    let t0 = Instant::now();
    while !done(h) {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(10));
        settle(h);
    }
}

fn idle(h: &mut Harness<'static, GbApp>) {
    wait(h, "re-emulation", |h| {
        h.state()
            .view()
            .editor
            .as_ref()
            .is_some_and(|e| e.pending.is_none())
    });
}

fn hud(h: &Harness<'static, GbApp>) -> Vec<String> {
    h.state()
        .view()
        .screen
        .overlays
        .iter()
        .flat_map(|(_, l)| l.iter())
        .filter_map(|c| match c {
            gb_session::DrawCmd::Text { text, .. } if text.starts_with("count") => {
                Some(text.clone())
            }
            _ => None,
        })
        .collect()
}

/// A path typed into the open path dialog, then its button.
fn type_path(h: &mut Harness<'static, GbApp>, p: &std::path::Path) {
    h.run_steps(2);
    h.get_by_label("Path").focus();
    h.run_steps(1);
    h.get_by_label("Path").type_text(p.to_str().unwrap());
    h.run_steps(1);
    h.get_by_label("Open").click();
    settle(h);
}

/// Record 300 frames of the demo as a movie, then open it in the editor from the Movie menu.
fn open_recorded(h: &mut Harness<'static, GbApp>, dir: &std::path::Path) -> PathBuf {
    let movie = dir.join("demo.gbm");
    let e = h.state().emu();
    let out = e.repl(&format!("movie record {}", movie.display()));
    assert!(out.contains("recording"), "{out}");
    e.repl("step 300");
    e.repl("movie stop");
    h.get_by_label("Movie").click();
    h.run_steps(2);
    h.get_by_label("Open in TAS editor…").click();
    type_path(h, &movie);
    h.get_by_label("TAS Editor");
    assert_eq!(editor(h).frames.len(), 300);
    assert!(
        h.query_all_by_label_contains("300 frames").count() >= 1,
        "the status line counts the frames"
    );
    movie
}

/// Press at `from`'s centre, move to `to`'s, release: a drag over the roll.
fn drag(h: &mut Harness<'static, GbApp>, from: &str, to: &str) {
    drag_with(h, from, to, egui::PointerButton::Primary);
}

/// A drag with `button`.
fn drag_with(h: &mut Harness<'static, GbApp>, from: &str, to: &str, button: egui::PointerButton) {
    let a = h.get_by_label(from).rect().center();
    let b = h.get_by_label(to).rect().center();
    let press = |pos, pressed| egui::Event::PointerButton {
        pos,
        button,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    h.hover_at(a);
    h.run_steps(1);
    h.event(press(a, true));
    h.run_steps(1);
    for k in 1..=8 {
        h.hover_at(a + (b - a) * (k as f32 / 8.0));
        h.run_steps(1);
    }
    h.event(press(b, false));
    h.run_steps(1);
    h.event(egui::Event::PointerGone);
    settle(h);
}

#[test]
fn open_seek_paint_playback_and_undo() {
    let d = dir("paint");
    let mut h = harness(&d);
    open_recorded(&mut h, &d);
    assert_eq!(frame(&h), 0);
    // Seek by clicking a frame number (emulated there: the movie opened at frame 0).
    h.get_by_label("Frame 5").click();
    settle(&mut h);
    wait(&mut h, "frame 5", |h| frame(h) == 5);
    idle(&mut h);
    // Down and up move the cursor while the pointer is over the roll.
    let at = h.get_by_label("Frame 7").rect().center();
    h.hover_at(at);
    h.run_steps(1);
    h.key_press(egui::Key::ArrowDown);
    settle(&mut h);
    wait(&mut h, "frame 6", |h| frame(h) == 6);
    h.hover_at(at);
    h.key_press(egui::Key::ArrowUp);
    settle(&mut h);
    wait(&mut h, "frame 5 again", |h| frame(h) == 5);
    // Play to 130 and remember the picture there.
    h.state().emu().repl("movie goto 130");
    settle(&mut h);
    let before = h.state().view().screen.picture.clone();
    h.state().emu().repl("movie goto 105");
    settle(&mut h);
    assert_eq!(frame(&h), 105);
    assert!(editor(&h).is_green(120) && editor(&h).is_green(130));
    // Paint A over 100-120 by dragging down the A column.
    drag(&mut h, "A 100", "A 120");
    let ed = editor(&h);
    assert!(
        (100..=120).all(|f| ed.input(f).contains(Buttons::A)),
        "painted"
    );
    assert!(!ed.input(99).contains(Buttons::A) && !ed.input(121).contains(Buttons::A));
    assert!(ed.can_undo);
    // The frames after 100 left the greenzone (re-emulation heads only for the cursor).
    idle(&mut h);
    let ed = editor(&h);
    assert!(ed.is_green(99), "before the edit stays green");
    assert!(
        !ed.is_green(110) && !ed.is_green(130),
        "after the cursor: not green"
    );
    // Playback brings them back.
    h.get_by_label("Resume").click();
    settle(&mut h);
    wait(&mut h, "playback past 140", |h| frame(h) > 140);
    h.get_by_label("Pause").click();
    settle(&mut h);
    let ed = editor(&h);
    assert!(
        ed.is_green(110) && ed.is_green(130),
        "green again after playback"
    );
    assert_eq!(ed.lag.len() as u64, ed.valid_end.min(ed.end()) - ed.start);
    // Undo restores the old input, and the same machine at 130.
    h.get_by_label("Undo").click();
    settle(&mut h);
    let ed = editor(&h);
    assert!(
        (100..=120).all(|f| !ed.input(f).contains(Buttons::A)),
        "undone"
    );
    assert!(ed.can_redo);
    idle(&mut h);
    h.state().emu().repl("movie goto 130");
    settle(&mut h);
    assert!(editor(&h).is_green(130));
    assert_eq!(
        h.state().view().screen.picture,
        before,
        "the old input's picture at 130"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn insert_and_delete_shift_frames() {
    let d = dir("insert");
    let mut h = harness(&d);
    open_recorded(&mut h, &d);
    h.state().emu().repl("movie goto 40");
    settle(&mut h);
    // Click the B cell of frame 50: pressed.
    h.get_by_label("B 50").click();
    settle(&mut h);
    assert!(editor(&h).input(50).contains(Buttons::B));
    // Select 48-49 (click, shift-click) and insert two frames there.
    h.get_by_label("Frame 48").click();
    settle(&mut h);
    h.get_by_label("Frame 49")
        .click_modifiers(egui::Modifiers::SHIFT);
    settle(&mut h);
    h.get_by_label("Insert").click();
    settle(&mut h);
    let ed = editor(&h);
    assert_eq!(ed.frames.len(), 302);
    assert!(ed.input(52).contains(Buttons::B) && !ed.input(50).contains(Buttons::B));
    // Delete them again.
    h.get_by_label("Delete").click();
    settle(&mut h);
    let ed = editor(&h);
    assert_eq!(ed.frames.len(), 300);
    assert!(ed.input(50).contains(Buttons::B) && !ed.input(52).contains(Buttons::B));
    // Copy frame 50, paste it over 56.
    h.get_by_label("Frame 50").click();
    settle(&mut h);
    h.get_by_label("Copy").click();
    h.get_by_label("Frame 56").click();
    settle(&mut h);
    h.get_by_label("Paste").click();
    settle(&mut h);
    let ed = editor(&h);
    assert!(
        ed.input(56).contains(Buttons::B) && ed.frames.len() == 300,
        "pasted over"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn right_drag_erases_and_a_dragged_selection_clears() {
    let d = dir("erase");
    let mut h = harness(&d);
    open_recorded(&mut h, &d);
    h.state().emu().repl("movie paint 95 130 B on");
    h.state().emu().repl("movie goto 104");
    settle(&mut h);
    drag_with(&mut h, "B 110", "B 120", egui::PointerButton::Secondary);
    let ed = editor(&h);
    assert!(
        (110..=120).all(|f| !ed.input(f).contains(Buttons::B)),
        "erased"
    );
    assert!(ed.input(109).contains(Buttons::B) && ed.input(121).contains(Buttons::B));
    // Select 100-104 by dragging over their numbers, then clear them.
    drag(&mut h, "Frame 100", "Frame 104");
    assert!(
        h.query_all_by_label_contains("selected 100-104").count() >= 1,
        "the status line shows the selection"
    );
    h.get_by_label("Clear").click();
    settle(&mut h);
    let ed = editor(&h);
    assert!((100..=104).all(|f| ed.input(f).is_empty()), "cleared");
    assert!(ed.input(99).contains(Buttons::B) && ed.input(105).contains(Buttons::B));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_branch_restores_input_frame_and_script_state() {
    let d = dir("branch");
    let mut h = harness(&d);
    open_recorded(&mut h, &d);
    h.state().emu().repl("movie paint 20 30 A on");
    h.state().emu().repl("movie goto 150");
    settle(&mut h);
    assert_eq!(hud(&h), vec!["count 150".to_owned()]);
    h.get_by_label("Name").focus();
    h.run_steps(1);
    h.get_by_label("Name").type_text("alpha");
    h.run_steps(1);
    h.get_by_label("Save branch").click();
    settle(&mut h);
    assert_eq!(editor(&h).branches.len(), 1);
    h.get_by_label("#0 alpha");
    // Change the input and go elsewhere.
    h.state().emu().repl("movie clear 20 30");
    h.state().emu().repl("movie goto 250");
    settle(&mut h);
    assert_eq!(hud(&h), vec!["count 250".to_owned()]);
    assert!(!editor(&h).input(25).contains(Buttons::A));
    // Load it back.
    h.get_by_label("Load #0").click();
    settle(&mut h);
    idle(&mut h);
    assert_eq!(frame(&h), 150);
    assert!(editor(&h).input(25).contains(Buttons::A));
    assert_eq!(hud(&h), vec!["count 150".to_owned()]);
    assert!(
        h.state()
            .view()
            .console
            .lines
            .iter()
            .any(|l| l.contains("the machine matches the branch")),
        "checked on arrival"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn markers_survive_save_and_reopen() {
    let d = dir("markers");
    let mut h = harness(&d);
    let movie = open_recorded(&mut h, &d);
    h.state().emu().repl("movie goto 60");
    settle(&mut h);
    h.get_by_label("Frame 64").click();
    settle(&mut h);
    h.get_by_label("Marker").focus();
    h.run_steps(1);
    h.get_by_label("Marker").type_text("jump here");
    h.run_steps(1);
    h.get_by_label("Add marker").click();
    settle(&mut h);
    assert_eq!(
        editor(&h).markers.get(&64).map(String::as_str),
        Some("jump here")
    );
    h.get_by_label("Save movie").click();
    settle(&mut h);
    idle(&mut h);
    h.get_by_label("Close editor").click();
    settle(&mut h);
    assert!(h.state().view().editor.is_none());
    h.get_by_label("Movie").click();
    h.run_steps(2);
    h.get_by_label("Open in TAS editor…").click();
    type_path(&mut h, &movie);
    let ed = editor(&h);
    assert_eq!(ed.markers.get(&64).map(String::as_str), Some("jump here"));
    assert_eq!(ed.frames.len(), 300);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_linked_pair_shows_both_players_columns_and_edits_player_2s_apart() {
    let d = dir("pair");
    let mut h = support::harness_linked(
        RomSource::LinkDemo,
        Some(RomSource::LinkDemo),
        Vec::new(),
        32 << 20,
        [1400.0, 1000.0],
    );
    let movie = d.join("pair.gbm");
    let repl = |h: &H, line: &str| h.state().emu().repl(line);
    let out = repl(&h, &format!("movie record {}", movie.display()));
    assert!(out.contains("recording"), "{out}");
    repl(&h, "step 120");
    repl(&h, "movie stop");
    let out = repl(&h, &format!("movie edit {}", movie.display()));
    assert!(out.contains("120 frames"), "{out}");
    settle(&mut h);
    h.get_by_label("TAS Editor");
    assert_eq!(editor(&h).players, 2);
    // Both players' columns, labelled by player.
    h.get_by_label("P1 A 10");
    h.get_by_label("P2 A 10");
    // Player 2's Down painted by dragging: player 1's columns stay released.
    drag(&mut h, "P2 Down 12", "P2 Down 18");
    let ed = editor(&h);
    assert!(
        (12..=18).all(|f| ed.input(f).player(1) == Buttons::DOWN),
        "player 2's Down painted"
    );
    assert!((0..120).all(|f| ed.input(f).player(0) == Buttons::default()));
    // The REPL writes player 2's buttons after a '/'.
    let out = repl(&h, "movie set 50 A/Start");
    assert!(out.contains("changed from frame 50"), "{out}");
    settle(&mut h);
    let p = editor(&h).input(50);
    assert_eq!((p.player(0), p.player(1)), (Buttons::A, Buttons::START));
    // Played to the end and saved, the pair's movie replays in a new session.
    repl(&h, "movie goto 120");
    idle(&mut h);
    let saved = d.join("pair-edited.gbm");
    let out = repl(&h, &format!("movie save {}", saved.display()));
    assert!(out.contains("saved 120 frames"), "{out}");
    let m = gb_session::movie::Movie::open(&saved).expect("saved");
    assert_eq!(m.players(), 2);
    let (inputs, _) = m.frame_inputs().expect("input");
    assert_eq!(inputs[15].buttons[1], Buttons::DOWN);
    assert_eq!(inputs[50].buttons, [Buttons::A, Buttons::START]);
}
