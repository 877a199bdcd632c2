//! The Cheats window: Game Genie and GameShark codes typed or pasted (several at once, one
//! per line or separated by spaces), each with a name, turned on and off, removed; the list is
//! kept per ROM. A bad code is refused here with what is wrong with it. Turning a code on or
//! off is a logged input of the session (`cheat` commands on the emulation thread), so rewind,
//! movies and the sync test see it.

use eframe::egui;
use gb_session::tools::cheats;

use super::GbApp;
use crate::console::command::Command;
use crate::console::tool_cmds::CheatCmd;

impl GbApp {
    pub(super) fn cheats_window(&mut self, ctx: &egui::Context) {
        let mut open = self.tools.cheat_ui.open;
        egui::Window::new("Cheats")
            .open(&mut open)
            .default_width(460.0)
            .show(ctx, |ui| self.cheats_contents(ui));
        self.tools.cheat_ui.open = open;
    }

    fn cheats_contents(&mut self, ui: &mut egui::Ui) {
        let rows = self.view.tools.cheats.clone();
        if rows.is_empty() {
            ui.label("No codes for this game yet.");
        }
        egui::Grid::new("cheat rows")
            .striped(true)
            .num_columns(4)
            .show(ui, |ui| {
                for c in &rows {
                    let mut on = c.on;
                    if ui
                        .checkbox(&mut on, egui::RichText::new(&c.code).monospace())
                        .changed()
                    {
                        self.run(Command::Cheat(CheatCmd::Enable(c.code.clone(), on)));
                    }
                    ui.label(&c.what);
                    ui.label(&c.name);
                    if ui.small_button("×").on_hover_text("Remove").clicked() {
                        self.run(Command::Cheat(CheatCmd::Remove(c.code.clone())));
                    }
                    ui.end_row();
                }
            });
        ui.separator();
        ui.horizontal(|ui| {
            let l = ui.label("Code");
            ui.add(
                egui::TextEdit::singleline(&mut self.tools.cheat_ui.code)
                    .desired_width(150.0)
                    .hint_text("ABC-DEF-GHI or 01VVAAAA"),
            )
            .labelled_by(l.id);
            let l = ui.label("Name");
            ui.add(egui::TextEdit::singleline(&mut self.tools.cheat_ui.name).desired_width(120.0))
                .labelled_by(l.id);
            if ui.button("Add code").clicked() {
                self.add_codes();
            }
        });
        ui.label("Game Genie (ROM patches: ABC-DEF-GHI, ABC-DEF) or GameShark (RAM writes each frame: 01VVAAAA); paste several separated by spaces.");
        if let Some(e) = &self.tools.cheat_ui.error {
            ui.colored_label(egui::Color32::LIGHT_RED, e);
        }
    }

    /// Add every code typed (all checked first: one bad code adds none).
    fn add_codes(&mut self) {
        let text = self.tools.cheat_ui.code.trim().to_owned();
        if text.is_empty() {
            self.tools.cheat_ui.error = Some("type or paste a code".into());
            return;
        }
        // A Game Genie code may be typed with spaces instead of dashes: try the whole text first.
        let codes: Result<Vec<String>, _> = match cheats::canonical(&text) {
            Ok(c) => Ok(vec![c]),
            Err(_) => text.split_whitespace().map(cheats::canonical).collect(),
        };
        match codes {
            Ok(codes) => {
                for code in codes {
                    self.run(Command::Cheat(CheatCmd::Add {
                        code,
                        name: self.tools.cheat_ui.name.trim().to_owned(),
                    }));
                }
                self.tools.cheat_ui.code.clear();
                self.tools.cheat_ui.name.clear();
                self.tools.cheat_ui.error = None;
            }
            Err(e) => self.tools.cheat_ui.error = Some(e.to_string()),
        }
    }
}
