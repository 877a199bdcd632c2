//! Scripts' windows: each BizHawk form a script opened (`forms.newform`) as an egui window with
//! its controls at the places the script gave, and each mGBA text buffer
//! (`console:createBuffer`) as a text panel. What is shown comes from the published
//! [`crate::emu::View`] (the script's output); what the user does goes to the emulation thread
//! as [`Cmd::Form`], a logged event the script sees at the next frame's start.

use eframe::egui;
use gb_session::api::{Control, ControlKind, Form, TextBuffer};
use gb_session::data::FormValue;

use super::{GbApp, screen};
use crate::emu::Cmd;

/// A control's size: the script's, or a natural one for its kind (BizHawk's defaults).
fn size(c: &Control) -> egui::Vec2 {
    let text_w = 7.0 * c.text.chars().count() as f32;
    let (w, h) = match c.kind {
        ControlKind::Button => (75.0, 23.0),
        ControlKind::Checkbox => (text_w + 28.0, 20.0),
        ControlKind::Label => (text_w + 8.0, 18.0),
        ControlKind::Textbox => (100.0, 20.0),
        ControlKind::Dropdown => (121.0, 21.0),
        ControlKind::PictureBox => (100.0, 100.0),
    };
    let pick = |v: i32, d: f32| if v > 0 { v as f32 } else { d };
    egui::vec2(pick(c.width, w), pick(c.height, h))
}

impl GbApp {
    /// The room around the game the scripts asked for (the largest on each side), in game
    /// pixels: left, top, right, bottom.
    pub(super) fn padding(&self) -> [u32; 4] {
        let mut p = [0u32; 4];
        for (_, ui) in &self.view.scripts.windows {
            for (side, v) in p.iter_mut().zip(ui.padding) {
                *side = (*side).max(v);
            }
        }
        p
    }

    /// Every script's forms and text buffers, as windows.
    pub(super) fn script_windows(&mut self, ctx: &egui::Context) {
        let windows = std::mem::take(&mut self.view.scripts.windows);
        // Windows the script placed nowhere start stacked from the middle of the app's window,
        // clear of the game's top-left corner (the user moves them; egui remembers where).
        let x = ctx.content_rect().center().x - 100.0;
        let mut y = 70.0;
        let frame = self.view.timeline.frame;
        self.forms.pending.retain(|_, (at, _)| *at == frame);
        // A closed form is hidden until the script no longer describes it.
        self.forms.closed.retain(|(slot, handle)| {
            windows
                .iter()
                .any(|(s, ui)| s == slot && ui.forms.iter().any(|f| f.handle == *handle))
        });
        for (slot, ui) in &windows {
            for form in &ui.forms {
                if self.forms.closed.contains(&(*slot, form.handle)) {
                    continue;
                }
                self.form_window(ctx, *slot, form, egui::pos2(x, y));
                y += form.height.clamp(0, 600) as f32 + 50.0;
            }
            for buffer in &ui.buffers {
                let size = buffer_size(buffer);
                buffer_window(ctx, *slot, buffer, egui::pos2(x, y), size);
                y += size.y + 50.0;
            }
        }
        self.view.scripts.windows = windows;
    }

    fn form_window(&mut self, ctx: &egui::Context, slot: u32, form: &Form, at: egui::Pos2) {
        let mut open = true;
        let mut window = egui::Window::new(&form.title)
            .id(egui::Id::unique(("gbhost-form", slot, form.handle)))
            .open(&mut open)
            .resizable(false)
            .collapsible(true);
        window = if form.x >= 0 && form.y >= 0 {
            window.default_pos(egui::pos2(form.x as f32, form.y as f32))
        } else {
            window.default_pos(at)
        };
        let size = egui::vec2(form.width.max(1) as f32, form.height.max(1) as f32);
        window.show(ctx, |ui| {
            let (canvas, _) = ui.allocate_exact_size(size, egui::Sense::hover());
            for c in form.controls.iter().filter(|c| c.visible) {
                let rect = egui::Rect::from_min_size(
                    canvas.min + egui::vec2(c.x as f32, c.y as f32),
                    self::size(c),
                );
                ui.add_enabled_ui(c.enabled, |ui| self.control(ui, slot, c, rect));
            }
        });
        if !open {
            self.forms.closed.insert((slot, form.handle));
            self.send(Cmd::Form(slot, form.handle, FormValue::Close));
        }
    }

    /// Give control `c` of script `slot` a value: sent as a logged event, and shown until the
    /// next frame is.
    fn set_value(&mut self, slot: u32, c: &Control, value: FormValue) {
        self.forms
            .pending
            .insert((slot, c.handle), (self.view.timeline.frame, value.clone()));
        self.send(Cmd::Form(slot, c.handle, value));
    }

    fn control(&mut self, ui: &mut egui::Ui, slot: u32, c: &Control, rect: egui::Rect) {
        let pending = self.forms.pending.get(&(slot, c.handle)).map(|(_, v)| v);
        match c.kind {
            ControlKind::Button => {
                if ui.put(rect, egui::Button::new(&c.text)).clicked() {
                    self.send(Cmd::Form(slot, c.handle, FormValue::Click));
                }
            }
            ControlKind::Checkbox => {
                let mut checked = match pending {
                    Some(FormValue::Check(b)) => *b,
                    _ => c.checked,
                };
                if ui
                    .put(rect, egui::Checkbox::new(&mut checked, &c.text))
                    .changed()
                {
                    self.set_value(slot, c, FormValue::Check(checked));
                }
            }
            ControlKind::Label => {
                ui.put(rect, egui::Label::new(&c.text).truncate());
            }
            ControlKind::Textbox => {
                let key = (slot, c.handle);
                let mut text = self
                    .forms
                    .edits
                    .get(&key)
                    .cloned()
                    .unwrap_or(c.text.clone());
                let edit = if c.multiline {
                    egui::TextEdit::multiline(&mut text)
                } else {
                    egui::TextEdit::singleline(&mut text)
                };
                let r = ui.put(rect, edit.desired_width(rect.width()));
                if r.changed() {
                    self.set_value(slot, c, FormValue::Text(text.clone()));
                }
                if r.has_focus() {
                    self.forms.edits.insert(key, text);
                } else {
                    self.forms.edits.remove(&key);
                }
            }
            ControlKind::Dropdown => {
                let shown = match pending {
                    Some(FormValue::Select(i)) => c.items.get(*i as usize).unwrap_or(&c.text),
                    _ => &c.text,
                };
                let mut chosen = None;
                ui.scope_builder(egui::UiBuilder::new().max_rect(rect), |ui| {
                    egui::ComboBox::from_id_salt(("gbhost-dropdown", slot, c.handle))
                        .selected_text(shown)
                        .width(rect.width())
                        .show_ui(ui, |ui| {
                            for (i, item) in c.items.iter().enumerate() {
                                if ui.selectable_label(item == shown, item).clicked() {
                                    chosen = Some(i);
                                }
                            }
                        });
                });
                if let Some(i) = chosen {
                    self.set_value(slot, c, FormValue::Select(i as u32));
                }
            }
            ControlKind::PictureBox => {
                let r = ui.put(rect, |ui: &mut egui::Ui| {
                    let (r, painter) = ui.allocate_painter(rect.size(), egui::Sense::click());
                    let painter = painter.with_clip_rect(r.rect);
                    if c.background >> 24 != 0 {
                        painter.rect_filled(r.rect, 0.0, screen::color(c.background));
                    }
                    screen::paint_overlay(&painter, r.rect.min, 1.0, &c.drawing);
                    r
                });
                if r.clicked() {
                    self.send(Cmd::Form(slot, c.handle, FormValue::Click));
                }
            }
        }
    }
}

/// A text buffer's first size: its columns and rows in monospace cells, within bounds.
fn buffer_size(b: &TextBuffer) -> egui::Vec2 {
    egui::vec2(
        (7.5 * b.cols.max(10) as f32).min(480.0),
        (16.0 * b.rows.max(3) as f32 + 16.0).min(280.0),
    )
}

/// A text buffer as a window of monospace text, following its end.
fn buffer_window(ctx: &egui::Context, slot: u32, b: &TextBuffer, at: egui::Pos2, size: egui::Vec2) {
    egui::Window::new(&b.name)
        .id(egui::Id::unique(("gbhost-buffer", slot, b.handle)))
        .default_pos(at)
        .default_size(size)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical()
                .stick_to_bottom(true)
                .min_scrolled_height(size.y)
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    ui.add(
                        egui::Label::new(egui::RichText::new(b.lines.join("\n")).monospace())
                            .extend(),
                    );
                });
        });
}
