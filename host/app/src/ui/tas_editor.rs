//! The TAS editor's window: its toolbar (insert, delete, clone, copy, cut, paste, clear, undo,
//! redo, markers, save, close), the branches (`branches.rs`), a status line (frames, cursor,
//! greenzone end, lag count, re-emulation progress, selection), the roll (`piano_roll.rs`
//! drawn, `roll_mouse.rs` clicked and dragged), and its keys while the pointer is over it:
//! up/down move the cursor a frame, Insert, Delete, ctrl+Z/Y, ctrl+C/X/V. Every change goes to
//! the emulation thread as a `movie …` command.

use eframe::egui;
use gb_session::data::Pads;

use super::GbApp;
use super::piano_roll::header;
use crate::console::command::{Command, MovieCmd};
use crate::emu::{Cmd, EditorView};

/// An edit the toolbar and the keys both make.
#[derive(Clone, Copy)]
enum RollAction {
    Insert,
    Delete,
    Clone,
    Copy,
    Cut,
    Paste,
    Clear,
    Undo,
    Redo,
}

impl GbApp {
    pub(super) fn movie(&self, cmd: MovieCmd) {
        self.run(Command::Movie(cmd));
    }

    /// The TAS editor window (when the editor is open and the window shown).
    pub(super) fn tas_editor(&mut self, ctx: &egui::Context) {
        let Some(ed) = self.view.editor.clone() else {
            self.tools.roll.was_open = false;
            return;
        };
        if !self.tools.roll.was_open {
            self.tools.roll.open = true;
            self.tools.roll.was_open = true;
        }
        let mut open = self.tools.roll.open;
        egui::Window::new("TAS Editor")
            .open(&mut open)
            .default_size([470.0, 700.0])
            .default_pos([(ctx.content_rect().right() - 490.0).max(8.0), 60.0])
            .show(ctx, |ui| self.editor_contents(ui, &ed));
        self.tools.roll.open = open;
        let sel = self.tools.roll.selection.map(|(a, b)| (a.min(b), a.max(b)));
        if sel != self.tools.roll.told_selection {
            self.tools.roll.told_selection = sel;
            self.send(Cmd::RollSelection(sel));
        }
    }

    fn editor_contents(&mut self, ui: &mut egui::Ui, ed: &EditorView) {
        let cursor = self.view.timeline.frame;
        self.toolbar_row(ui, ed, cursor);
        self.branches_section(ui, ed);
        self.status_line(ui, ed, cursor);
        ui.separator();
        header(ui, ed.players);
        self.roll_rows(ui, ed, cursor);
        if ui.ui_contains_pointer() {
            self.roll_keys(ui, ed, cursor);
        }
    }

    fn toolbar_row(&mut self, ui: &mut egui::Ui, ed: &EditorView, cursor: u64) {
        let sel = self.tools.roll.selected(cursor);
        let (a, b) = (*sel.start(), *sel.end());
        ui.horizontal_wrapped(|ui| {
            use RollAction::*;
            let paste = !self.tools.roll.clipboard.is_empty();
            for (label, act, enabled, hover) in [
                ("Insert", Insert, true, "Insert frames before the selection"),
                ("Delete", Delete, true, "Delete the selected frames"),
                (
                    "Clone",
                    Clone,
                    true,
                    "Repeat the selected frames after them",
                ),
                ("Copy", Copy, true, "Copy the selected frames' input"),
                (
                    "Cut",
                    Cut,
                    true,
                    "Copy the selected frames' input and delete them",
                ),
                (
                    "Paste",
                    Paste,
                    paste,
                    "Paste over the frames from the selection on",
                ),
                (
                    "Clear",
                    Clear,
                    true,
                    "Release every button in the selected frames",
                ),
                ("Undo", Undo, ed.can_undo, "Undo the last edit"),
                ("Redo", Redo, ed.can_redo, "Redo the last undone edit"),
            ] {
                if ui
                    .add_enabled(enabled, egui::Button::new(label))
                    .on_hover_text(hover)
                    .clicked()
                {
                    self.roll_action(act, ed, a, b);
                }
            }
        });
        ui.horizontal(|ui| {
            let l = ui.label("Marker");
            ui.add(
                egui::TextEdit::singleline(&mut self.tools.roll.marker_text).desired_width(110.0),
            )
            .labelled_by(l.id);
            if ui.button("Add marker").clicked() {
                self.movie(MovieCmd::Marker {
                    frame: a,
                    text: self.tools.roll.marker_text.clone(),
                });
            }
            if ui.button("Remove marker").clicked() {
                self.movie(MovieCmd::RemoveMarker(a));
            }
            if ui.button("Prev marker").clicked()
                && let Some((&f, _)) = ed.markers.range(..cursor).next_back()
            {
                self.send(Cmd::Seek(f));
            }
            if ui.button("Next marker").clicked()
                && let Some((&f, _)) = ed.markers.range(cursor + 1..).next()
            {
                self.send(Cmd::Seek(f));
            }
        });
        ui.horizontal(|ui| {
            if ui.button("Save movie").clicked() {
                if ed.path.is_some() {
                    self.movie(MovieCmd::Save(None));
                } else {
                    self.ask(super::Dialog::SaveEditedMovie);
                }
            }
            if ui.button("Save as…").clicked() {
                self.ask(super::Dialog::SaveEditedMovie);
            }
            if ui.button("Close editor").clicked() {
                self.movie(MovieCmd::Close);
            }
        });
    }

    pub(super) fn copy(&mut self, ed: &EditorView, a: u64, b: u64) {
        self.tools.roll.clipboard = (a..=b.min(ed.end().saturating_sub(1)))
            .map(|f| ed.input(f))
            .collect();
    }

    fn status_line(&self, ui: &mut egui::Ui, ed: &EditorView, cursor: u64) {
        let mut s = format!(
            "{} frames · frame {cursor} · greenzone to {} · lag {}",
            ed.frames.len(),
            ed.valid_end,
            ed.lag_count
        );
        if let Some(n) = ed.pending {
            s.push_str(&format!(
                " · re-emulating to {}: {n} frames left",
                ed.target
            ));
        }
        if ed.recording {
            s.push_str(" · recording past the end");
        }
        if let Some(sel) = self.tools.roll.selection {
            s.push_str(&format!(
                " · selected {}-{}",
                sel.0.min(sel.1),
                sel.0.max(sel.1)
            ));
        }
        ui.label(s);
        if let Some(g) = &ed.ghost {
            let what = match g.divergence {
                Some((f, ram, screen)) => format!(
                    "differs from frame {f} ({})",
                    match (ram, screen) {
                        (true, true) => "RAM and screen",
                        (true, false) => "RAM",
                        _ => "screen",
                    }
                ),
                None => format!("the same up to frame {}", g.compared_to),
            };
            ui.label(format!("ghost {}: {what}", g.name));
        }
        if let Some(n) = ed.pending {
            let total = ed.target.saturating_sub(ed.valid_end.min(ed.target)).max(1);
            let done = 1.0 - (n as f32 / total as f32).clamp(0.0, 1.0);
            ui.add(egui::ProgressBar::new(done).desired_height(6.0));
        }
    }

    fn roll_keys(&mut self, ui: &mut egui::Ui, ed: &EditorView, cursor: u64) {
        if ui.ctx().egui_wants_keyboard_input() {
            return;
        }
        let (up, down, ins, del, undo, redo, copy, cut, paste) = ui.input_mut(|i| {
            let cmd = egui::Modifiers::COMMAND;
            (
                i.key_pressed(egui::Key::ArrowUp),
                i.key_pressed(egui::Key::ArrowDown),
                i.key_pressed(egui::Key::Insert),
                i.key_pressed(egui::Key::Delete),
                i.consume_key(cmd, egui::Key::Z),
                i.consume_key(cmd, egui::Key::Y),
                i.events.iter().any(|e| matches!(e, egui::Event::Copy)),
                i.events.iter().any(|e| matches!(e, egui::Event::Cut)),
                i.events.iter().any(|e| matches!(e, egui::Event::Paste(_))),
            )
        });
        if up && cursor > ed.start {
            self.send(Cmd::Seek(cursor - 1));
        }
        if down {
            self.send(Cmd::FrameAdvance);
        }
        let sel = self.tools.roll.selected(cursor);
        let (a, b) = (*sel.start(), *sel.end());
        for (pressed, act) in [
            (ins, RollAction::Insert),
            (del, RollAction::Delete),
            (undo, RollAction::Undo),
            (redo, RollAction::Redo),
            (copy, RollAction::Copy),
            (cut, RollAction::Cut),
            (paste, RollAction::Paste),
        ] {
            if pressed {
                self.roll_action(act, ed, a, b);
            }
        }
    }

    /// Carry out an edit of the toolbar or the keys on frames `a..=b` (the selection).
    fn roll_action(&mut self, act: RollAction, ed: &EditorView, a: u64, b: u64) {
        match act {
            RollAction::Insert => self.movie(MovieCmd::Insert {
                frame: a,
                n: b - a + 1,
                buttons: Pads::default(),
            }),
            RollAction::Delete => {
                self.movie(MovieCmd::Delete { from: a, to: b });
                self.tools.roll.selection = None;
            }
            RollAction::Clone => self.movie(MovieCmd::Clone { from: a, to: b }),
            RollAction::Copy => self.copy(ed, a, b),
            RollAction::Cut => {
                self.copy(ed, a, b);
                self.movie(MovieCmd::Delete { from: a, to: b });
                self.tools.roll.selection = None;
            }
            RollAction::Paste => {
                if !self.tools.roll.clipboard.is_empty() {
                    self.movie(MovieCmd::Paste {
                        frame: a,
                        input: self.tools.roll.clipboard.clone(),
                    });
                }
            }
            RollAction::Clear => self.movie(MovieCmd::Clear { from: a, to: b }),
            RollAction::Undo => self.movie(MovieCmd::Undo),
            RollAction::Redo => self.movie(MovieCmd::Redo),
        }
    }
}
