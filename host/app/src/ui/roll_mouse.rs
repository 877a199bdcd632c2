//! The piano roll under the mouse: a click on a frame number seeks there (shift-click extends
//! the selection), a drag over frame numbers selects, a click on a button cell toggles it, a
//! drag paints it over the frames passed (the first cell decides press or release, one
//! `movie paint` on release), a right-click or right-drag erases. Also follows the cursor when it
//! moves out of sight.

use eframe::egui;
use gb_session::data::Pads;

use super::GbApp;
use super::piano_roll::{ROW_HEIGHT, draw_rows};
use super::roll_state::Paint;
use crate::console::command::MovieCmd;
use crate::emu::{Cmd, EditorView};

impl GbApp {
    pub(super) fn roll_rows(&mut self, ui: &mut egui::Ui, ed: &EditorView, cursor: u64) {
        let total = ed.frames.len() + 1;
        let cursor_row = cursor.saturating_sub(ed.start) as usize;
        let mut area = egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .id_salt("piano roll");
        // Follow the cursor when it moved out of sight.
        if self.tools.roll.shown_frame != Some(cursor) {
            self.tools.roll.shown_frame = Some(cursor);
            let v = &self.tools.roll.visible;
            if !(v.start + 1..v.end.saturating_sub(1)).contains(&cursor_row) {
                let first = cursor_row.saturating_sub(v.len().max(8) / 3);
                area = area.vertical_scroll_offset(first as f32 * ROW_HEIGHT);
            }
        }
        let preview = self
            .tools
            .roll
            .paint
            .map(|p| (p.mask, p.from.min(p.to)..=p.from.max(p.to), p.on));
        let selection = self.tools.roll.selection.map(|(a, b)| a.min(b)..=a.max(b));
        let mut events: Vec<(u64, Option<Pads>, Ev)> = Vec::new();
        let mut origin = 0.0;
        let mut visible = 0..0;
        ui.scope(|ui| {
            ui.spacing_mut().item_spacing.y = 0.0;
            area.show_rows(ui, ROW_HEIGHT, total, |ui, rows| {
                visible = rows.clone();
                origin = draw_rows(ui, ed, cursor, selection, preview, rows, |f, mask, r| {
                    if let Some(ev) = Ev::of(r) {
                        events.push((f, mask, ev));
                    }
                });
            });
        });
        self.tools.roll.visible = visible;
        let shift = ui.input(|i| i.modifiers.shift);
        for (f, mask, ev) in events {
            self.roll_event(ed, f, mask, ev, shift);
        }
        // Drags follow the pointer's row.
        let pointer = ui.input(|i| (i.pointer.interact_pos(), i.pointer.any_down()));
        let row_at = |y: f32| {
            let i = ((y - origin) / ROW_HEIGHT).floor().max(0.0) as u64;
            ed.start + i.min(ed.frames.len() as u64)
        };
        if let (Some(pos), true) = pointer {
            if let Some(p) = &mut self.tools.roll.paint {
                p.to = row_at(pos.y);
            }
            if self.tools.roll.selecting
                && let Some(sel) = &mut self.tools.roll.selection
            {
                sel.1 = row_at(pos.y);
            }
        } else {
            self.tools.roll.selecting = false;
            if let Some(p) = self.tools.roll.paint.take() {
                self.movie(MovieCmd::Paint {
                    from: p.from.min(p.to),
                    to: p.from.max(p.to),
                    buttons: p.mask,
                    on: p.on,
                });
            }
        }
    }

    fn roll_event(&mut self, ed: &EditorView, f: u64, mask: Option<Pads>, ev: Ev, shift: bool) {
        match (mask, ev) {
            (None, Ev::Click) if shift => {
                let anchor = self
                    .tools
                    .roll
                    .selection
                    .map_or(self.view.timeline.frame, |s| s.0);
                self.tools.roll.selection = Some((anchor, f));
            }
            (None, Ev::Click) => {
                self.tools.roll.selection = Some((f, f));
                self.send(Cmd::Seek(f));
            }
            (None, Ev::DragStart { .. }) => {
                let anchor = match self.tools.roll.selection {
                    Some((a, _)) if shift => a,
                    _ => f,
                };
                self.tools.roll.selection = Some((anchor, f));
                self.tools.roll.selecting = true;
            }
            (None, Ev::SecondaryClick) => {}
            (Some(m), Ev::Click) => self.movie(MovieCmd::Paint {
                from: f,
                to: f,
                buttons: m,
                on: !ed.input(f).contains(m),
            }),
            (Some(m), Ev::SecondaryClick) => self.movie(MovieCmd::Paint {
                from: f,
                to: f,
                buttons: m,
                on: false,
            }),
            (Some(m), Ev::DragStart { erase }) => {
                self.tools.roll.paint = Some(Paint {
                    mask: m,
                    from: f,
                    to: f,
                    on: !erase && !ed.input(f).contains(m),
                });
            }
        }
    }
}

/// What happened to a cell this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ev {
    Click,
    SecondaryClick,
    DragStart { erase: bool },
}

impl Ev {
    fn of(r: &egui::Response) -> Option<Ev> {
        if r.drag_started_by(egui::PointerButton::Primary) {
            Some(Ev::DragStart { erase: false })
        } else if r.drag_started_by(egui::PointerButton::Secondary) {
            Some(Ev::DragStart { erase: true })
        } else if r.clicked() {
            Some(Ev::Click)
        } else if r.secondary_clicked() {
            Some(Ev::SecondaryClick)
        } else {
            None
        }
    }
}
