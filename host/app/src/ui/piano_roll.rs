//! The TAS editor's window: the piano roll (one row per frame: its number, a lag mark, the
//! eight buttons, the marker's text), drawn row by row for the visible rows only
//! (`ScrollArea::show_rows`), over the published [`EditorView`]; its toolbar (insert, delete,
//! clone, copy, cut, paste, clear, undo, redo, markers), the branches (`branches.rs`) and a
//! status line. Every change goes to the emulation thread as a `movie …` command.
//!
//! Mouse: a click on a frame number seeks there; a drag over frame numbers selects (shift-click
//! extends the selection); a click on a button cell toggles it, a drag paints it over the
//! frames passed (the first cell decides press or release), a right-drag erases. Keys while the
//! pointer is over the window: up/down move the cursor a frame, Insert, Delete, ctrl+Z/Y,
//! ctrl+C/X/V.

use std::ops::RangeInclusive;

use eframe::egui;
use egui::{Color32, Pos2, Rect, Sense, Vec2};
use gb_core::Buttons;

use super::GbApp;
use super::roll_state::Paint;
use crate::command::{BUTTON_NAMES, Command, MovieCmd};
use crate::emu::{Cmd, EditorView};

/// Height of a row, in points.
pub const ROW_HEIGHT: f32 = 18.0;
/// Width of the frame number column.
const FRAME_W: f32 = 64.0;
/// Width of the lag column.
const LAG_W: f32 = 18.0;
/// Width of a button column.
const BUTTON_W: f32 = 22.0;
/// The column letters, in [`BUTTON_NAMES`] order.
const LETTERS: [&str; 8] = ["U", "D", "L", "R", "S", "s", "B", "A"];

/// Row colours: greenzone or not, with the selection on top.
fn row_fill(green: bool, selected: bool, odd: bool) -> Color32 {
    let base = match (green, odd) {
        (true, false) => Color32::from_rgb(28, 58, 30),
        (true, true) => Color32::from_rgb(32, 64, 34),
        (false, false) => Color32::from_gray(30),
        (false, true) => Color32::from_gray(36),
    };
    if selected {
        base.gamma_multiply(1.0)
            .lerp_to_gamma(Color32::from_rgb(70, 90, 150), 0.5)
    } else {
        base
    }
}

/// Draw the roll's rows `rows` (indices from the roll's start) into `ui`; returns the screen y
/// of row 0 (rows are `ROW_HEIGHT` apart) to map the pointer to frames.
pub fn draw_rows(
    ui: &mut egui::Ui,
    ed: &EditorView,
    cursor: u64,
    selection: Option<RangeInclusive<u64>>,
    preview: Option<(Buttons, RangeInclusive<u64>, bool)>,
    rows: std::ops::Range<usize>,
    mut on_cell: impl FnMut(u64, Option<Buttons>, &egui::Response),
) -> f32 {
    let mut origin = ui.cursor().top() - rows.start as f32 * ROW_HEIGHT;
    let width = ui
        .available_width()
        .max(FRAME_W + LAG_W + 8.0 * BUTTON_W + 80.0);
    let font = egui::FontId::monospace(12.0);
    let dim = Color32::from_gray(90);
    for (n, i) in rows.clone().enumerate() {
        let f = ed.start + i as u64;
        let (rect, _) = ui.allocate_exact_size(Vec2::new(width, ROW_HEIGHT), Sense::hover());
        if n == 0 {
            origin = rect.top() - i as f32 * ROW_HEIGHT;
        }
        if !ui.is_rect_visible(rect) {
            continue;
        }
        let painter = ui.painter_at(rect);
        let selected = selection.as_ref().is_some_and(|s| s.contains(&f));
        painter.rect_filled(rect, 0.0, row_fill(ed.is_green(f), selected, i % 2 == 1));
        // Frame number: click to seek, drag to select.
        let num = Rect::from_min_size(rect.min, Vec2::new(FRAME_W, ROW_HEIGHT));
        let r = ui.interact(
            num,
            egui::Id::unique("piano roll").with(("frame", f)),
            Sense::click_and_drag(),
        );
        r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, format!("Frame {f}")));
        on_cell(f, None, &r);
        let text_color = if f == cursor {
            Color32::WHITE
        } else {
            Color32::from_gray(190)
        };
        painter.text(
            num.left_center() + Vec2::new(4.0, 0.0),
            egui::Align2::LEFT_CENTER,
            f.to_string(),
            font.clone(),
            text_color,
        );
        // Lag mark.
        let lag = Rect::from_min_size(num.right_top(), Vec2::new(LAG_W, ROW_HEIGHT));
        if ed.lagged(f) == Some(true) {
            painter.circle_filled(lag.center(), 3.5, Color32::from_rgb(220, 80, 60));
        }
        // The eight buttons.
        let input = ed.input(f);
        for (c, ((mask, name), letter)) in BUTTON_NAMES.iter().zip(LETTERS).enumerate() {
            let cell = Rect::from_min_size(
                Pos2::new(lag.right() + c as f32 * BUTTON_W, rect.top()),
                Vec2::new(BUTTON_W, ROW_HEIGHT),
            );
            let mut pressed = input.contains(*mask);
            if let Some((m, span, on)) = &preview
                && m == mask
                && span.contains(&f)
            {
                pressed = *on;
            }
            let r = ui.interact(
                cell,
                egui::Id::unique("piano roll").with(("cell", f, c)),
                Sense::click_and_drag(),
            );
            r.widget_info(|| {
                egui::WidgetInfo::labeled(egui::Role::Button, true, format!("{name} {f}"))
            });
            on_cell(f, Some(*mask), &r);
            if pressed {
                painter.rect_filled(cell.shrink(2.0), 2.0, Color32::from_rgb(200, 170, 60));
            }
            painter.text(
                cell.center(),
                egui::Align2::CENTER_CENTER,
                letter,
                font.clone(),
                if pressed { Color32::BLACK } else { dim },
            );
        }
        // Marker text.
        if let Some(text) = ed.markers.get(&f) {
            let at = Pos2::new(lag.right() + 8.0 * BUTTON_W + 6.0, rect.center().y);
            painter.text(
                at,
                egui::Align2::LEFT_CENTER,
                if text.is_empty() { "◆" } else { text },
                font.clone(),
                Color32::from_rgb(120, 200, 255),
            );
        }
        // The playback cursor, and where re-emulation heads.
        if f == cursor {
            painter.rect_stroke(
                rect.shrink(0.5),
                0.0,
                egui::Stroke::new(1.5, Color32::from_rgb(90, 160, 255)),
                egui::StrokeKind::Inside,
            );
        } else if f == ed.target && ed.pending.is_some() {
            painter.rect_stroke(
                rect.shrink(0.5),
                0.0,
                egui::Stroke::new(1.5, Color32::from_rgb(255, 160, 40)),
                egui::StrokeKind::Inside,
            );
        }
    }
    origin
}

/// The column header.
fn header(ui: &mut egui::Ui) {
    let (rect, _) =
        ui.allocate_exact_size(Vec2::new(ui.available_width(), ROW_HEIGHT), Sense::hover());
    let p = ui.painter_at(rect);
    let font = egui::FontId::monospace(12.0);
    let c = Color32::from_gray(160);
    p.text(
        rect.left_center() + Vec2::new(4.0, 0.0),
        egui::Align2::LEFT_CENTER,
        "frame",
        font.clone(),
        c,
    );
    let x0 = rect.left() + FRAME_W;
    p.text(
        Pos2::new(x0 + LAG_W / 2.0, rect.center().y),
        egui::Align2::CENTER_CENTER,
        "lag",
        egui::FontId::monospace(9.0),
        c,
    );
    for (i, l) in LETTERS.iter().enumerate() {
        let x = x0 + LAG_W + (i as f32 + 0.5) * BUTTON_W;
        p.text(
            Pos2::new(x, rect.center().y),
            egui::Align2::CENTER_CENTER,
            *l,
            font.clone(),
            c,
        );
    }
    p.text(
        Pos2::new(x0 + LAG_W + 8.0 * BUTTON_W + 6.0, rect.center().y),
        egui::Align2::LEFT_CENTER,
        "marker",
        font,
        c,
    );
}

impl GbApp {
    fn movie(&self, cmd: MovieCmd) {
        self.run(Command::Movie(cmd));
    }

    /// The TAS editor window (when the editor is open and the window shown).
    pub(super) fn tas_editor(&mut self, ctx: &egui::Context) {
        let Some(ed) = self.view.editor.clone() else {
            self.roll.was_open = false;
            return;
        };
        if !self.roll.was_open {
            self.roll.open = true;
            self.roll.was_open = true;
        }
        let mut open = self.roll.open;
        egui::Window::new("TAS Editor")
            .open(&mut open)
            .default_size([470.0, 700.0])
            .default_pos([(ctx.content_rect().right() - 490.0).max(8.0), 60.0])
            .show(ctx, |ui| self.editor_contents(ui, &ed));
        self.roll.open = open;
    }

    fn editor_contents(&mut self, ui: &mut egui::Ui, ed: &EditorView) {
        let cursor = self.view.frame;
        self.toolbar_row(ui, ed, cursor);
        self.branches_section(ui, ed);
        self.status_line(ui, ed, cursor);
        ui.separator();
        header(ui);
        self.roll_rows(ui, ed, cursor);
        if ui.ui_contains_pointer() {
            self.roll_keys(ui, ed, cursor);
        }
    }

    fn toolbar_row(&mut self, ui: &mut egui::Ui, ed: &EditorView, cursor: u64) {
        let sel = self.roll.selected(cursor);
        let (a, b) = (*sel.start(), *sel.end());
        ui.horizontal_wrapped(|ui| {
            if ui
                .button("Insert")
                .on_hover_text("Insert frames before the selection")
                .clicked()
            {
                self.movie(MovieCmd::Insert {
                    frame: a,
                    n: b - a + 1,
                    buttons: Buttons::default(),
                });
            }
            if ui.button("Delete").clicked() {
                self.movie(MovieCmd::Delete { from: a, to: b });
                self.roll.selection = None;
            }
            if ui.button("Clone").clicked() {
                self.movie(MovieCmd::Clone { from: a, to: b });
            }
            if ui.button("Copy").clicked() {
                self.copy(ed, a, b);
            }
            if ui.button("Cut").clicked() {
                self.copy(ed, a, b);
                self.movie(MovieCmd::Delete { from: a, to: b });
                self.roll.selection = None;
            }
            if ui
                .add_enabled(!self.roll.clipboard.is_empty(), egui::Button::new("Paste"))
                .clicked()
            {
                self.movie(MovieCmd::Paste {
                    frame: a,
                    input: self.roll.clipboard.clone(),
                });
            }
            if ui.button("Clear").clicked() {
                self.movie(MovieCmd::Clear { from: a, to: b });
            }
            if ui
                .add_enabled(ed.can_undo, egui::Button::new("Undo"))
                .clicked()
            {
                self.movie(MovieCmd::Undo);
            }
            if ui
                .add_enabled(ed.can_redo, egui::Button::new("Redo"))
                .clicked()
            {
                self.movie(MovieCmd::Redo);
            }
        });
        ui.horizontal(|ui| {
            let l = ui.label("Marker");
            ui.add(egui::TextEdit::singleline(&mut self.roll.marker_text).desired_width(110.0))
                .labelled_by(l.id);
            if ui.button("Add marker").clicked() {
                self.movie(MovieCmd::Marker {
                    frame: a,
                    text: self.roll.marker_text.clone(),
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

    fn copy(&mut self, ed: &EditorView, a: u64, b: u64) {
        self.roll.clipboard = (a..=b.min(ed.end().saturating_sub(1)))
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
        if let Some(sel) = self.roll.selection {
            s.push_str(&format!(
                " · selected {}-{}",
                sel.0.min(sel.1),
                sel.0.max(sel.1)
            ));
        }
        ui.label(s);
        if let Some(n) = ed.pending {
            let total = ed.target.saturating_sub(ed.valid_end.min(ed.target)).max(1);
            let done = 1.0 - (n as f32 / total as f32).clamp(0.0, 1.0);
            ui.add(egui::ProgressBar::new(done).desired_height(6.0));
        }
    }

    fn roll_rows(&mut self, ui: &mut egui::Ui, ed: &EditorView, cursor: u64) {
        let total = ed.frames.len() + 1;
        let cursor_row = cursor.saturating_sub(ed.start) as usize;
        let mut area = egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .id_salt("piano roll");
        // Follow the cursor when it moved out of sight.
        if self.roll.shown_frame != Some(cursor) {
            self.roll.shown_frame = Some(cursor);
            let v = &self.roll.visible;
            if !(v.start + 1..v.end.saturating_sub(1)).contains(&cursor_row) {
                let first = cursor_row.saturating_sub(v.len().max(8) / 3);
                area = area.vertical_scroll_offset(first as f32 * ROW_HEIGHT);
            }
        }
        let preview = self
            .roll
            .paint
            .map(|p| (p.mask, p.from.min(p.to)..=p.from.max(p.to), p.on));
        let selection = self.roll.selection.map(|(a, b)| a.min(b)..=a.max(b));
        let mut events: Vec<(u64, Option<Buttons>, Ev)> = Vec::new();
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
        self.roll.visible = visible;
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
            if let Some(p) = &mut self.roll.paint {
                p.to = row_at(pos.y);
            }
            if self.roll.selecting
                && let Some(sel) = &mut self.roll.selection
            {
                sel.1 = row_at(pos.y);
            }
        } else {
            self.roll.selecting = false;
            if let Some(p) = self.roll.paint.take() {
                self.movie(MovieCmd::Paint {
                    from: p.from.min(p.to),
                    to: p.from.max(p.to),
                    buttons: p.mask,
                    on: p.on,
                });
            }
        }
    }

    fn roll_event(&mut self, ed: &EditorView, f: u64, mask: Option<Buttons>, ev: Ev, shift: bool) {
        match (mask, ev) {
            (None, Ev::Click) if shift => {
                let anchor = self.roll.selection.map_or(self.view.frame, |s| s.0);
                self.roll.selection = Some((anchor, f));
            }
            (None, Ev::Click) => {
                self.roll.selection = Some((f, f));
                self.send(Cmd::Seek(f));
            }
            (None, Ev::DragStart { .. }) => {
                let anchor = match self.roll.selection {
                    Some((a, _)) if shift => a,
                    _ => f,
                };
                self.roll.selection = Some((anchor, f));
                self.roll.selecting = true;
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
                self.roll.paint = Some(Paint {
                    mask: m,
                    from: f,
                    to: f,
                    on: !erase && !ed.input(f).contains(m),
                });
            }
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
        let sel = self.roll.selected(cursor);
        let (a, b) = (*sel.start(), *sel.end());
        if ins {
            self.movie(MovieCmd::Insert {
                frame: a,
                n: b - a + 1,
                buttons: Buttons::default(),
            });
        }
        if del {
            self.movie(MovieCmd::Delete { from: a, to: b });
            self.roll.selection = None;
        }
        if undo {
            self.movie(MovieCmd::Undo);
        }
        if redo {
            self.movie(MovieCmd::Redo);
        }
        if copy || cut {
            self.copy(ed, a, b);
        }
        if cut {
            self.movie(MovieCmd::Delete { from: a, to: b });
        }
        if paste && !self.roll.clipboard.is_empty() {
            self.movie(MovieCmd::Paste {
                frame: a,
                input: self.roll.clipboard.clone(),
            });
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
