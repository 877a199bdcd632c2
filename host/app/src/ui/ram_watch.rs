//! The RAM Watch window: the watch list (kept per ROM) with each value live, a value poked
//! into a watch at its size, watches added by address and removed, and BizHawk's `.wch` files
//! imported and exported. Every action is a `ramwatch` command on the emulation thread.

use eframe::egui;
use gb_session::tools::search::{self, Display};

use super::GbApp;
use crate::console::cmd_words::addr_word;
use crate::console::command::Command;
use crate::console::tool_cmds::RamWatchCmd;

impl GbApp {
    pub(super) fn ram_watch_window(&mut self, ctx: &egui::Context) {
        let mut open = self.tools.watch_ui.open;
        egui::Window::new("RAM Watch")
            .open(&mut open)
            .default_width(420.0)
            .show(ctx, |ui| self.ram_watch_contents(ui));
        self.tools.watch_ui.open = open;
    }

    fn ram_watch_contents(&mut self, ui: &mut egui::Ui) {
        let rows = self.view.tools.watches.clone();
        if rows.is_empty() {
            ui.label("No watches: add one below, or from RAM Search.");
        }
        egui::Grid::new("ram watch rows")
            .striped(true)
            .num_columns(5)
            .show(ui, |ui| {
                ui.strong("Name");
                ui.strong("Address");
                ui.strong("Type");
                ui.strong("Value");
                ui.label("");
                ui.end_row();
                let mut remove = None;
                for (i, w) in rows.iter().enumerate() {
                    let name = if w.name.is_empty() {
                        "(unnamed)"
                    } else {
                        &w.name
                    };
                    if ui
                        .selectable_label(self.tools.watch_ui.selected == Some(i), name)
                        .clicked()
                    {
                        self.tools.watch_ui.selected = Some(i);
                    }
                    ui.monospace(&w.place);
                    ui.monospace(&w.kind);
                    ui.monospace(&w.value);
                    if ui.small_button("×").on_hover_text("Remove").clicked() {
                        remove = Some(i);
                    }
                    ui.end_row();
                }
                if let Some(i) = remove {
                    self.tools.watch_ui.selected = None;
                    self.run(Command::RamWatch(RamWatchCmd::Remove(i + 1)));
                }
            });
        ui.horizontal(|ui| {
            let sel = self.tools.watch_ui.selected.filter(|&i| i < rows.len());
            ui.add(
                egui::TextEdit::singleline(&mut self.tools.watch_ui.poke)
                    .desired_width(70.0)
                    .hint_text("value"),
            );
            if ui
                .add_enabled(sel.is_some(), egui::Button::new("Poke watch"))
                .clicked()
                && let Some(i) = sel
            {
                match search::parse_number(self.tools.watch_ui.poke.trim()) {
                    Some(v) => {
                        self.tools.watch_ui.error = None;
                        self.run(Command::RamWatch(RamWatchCmd::Poke(i + 1, v)));
                    }
                    None => {
                        self.tools.watch_ui.error = Some("a value: 5, -1, 0x1F or $1F".into());
                    }
                }
            }
        });
        ui.separator();
        ui.horizontal(|ui| {
            ui.add(
                egui::TextEdit::singleline(&mut self.tools.watch_ui.add_addr)
                    .desired_width(70.0)
                    .hint_text("address"),
            );
            for size in [1u8, 2, 4] {
                ui.selectable_value(
                    &mut self.tools.watch_ui.add_layout.size,
                    size,
                    format!("{size}B"),
                );
            }
            for (l, d) in [
                ("u", Display::Unsigned),
                ("s", Display::Signed),
                ("h", Display::Hex),
            ] {
                ui.selectable_value(&mut self.tools.watch_ui.add_layout.display, d, l);
            }
            ui.add(
                egui::TextEdit::singleline(&mut self.tools.watch_ui.add_name)
                    .desired_width(100.0)
                    .hint_text("name"),
            );
            if ui.button("Add watch").clicked() {
                match addr_word(Some(&self.tools.watch_ui.add_addr.trim().to_owned())) {
                    Ok(at) => {
                        self.tools.watch_ui.error = None;
                        self.run(Command::RamWatch(RamWatchCmd::Add {
                            at,
                            layout: self.tools.watch_ui.add_layout,
                            name: self.tools.watch_ui.add_name.trim().to_owned(),
                        }));
                        self.tools.watch_ui.add_addr.clear();
                        self.tools.watch_ui.add_name.clear();
                    }
                    Err(e) => self.tools.watch_ui.error = Some(e),
                }
            }
        });
        ui.horizontal(|ui| {
            ui.add(
                egui::TextEdit::singleline(&mut self.tools.watch_ui.file)
                    .desired_width(200.0)
                    .hint_text("file.wch"),
            );
            let path = self.tools.watch_ui.file.trim().to_owned();
            if ui
                .add_enabled(!path.is_empty(), egui::Button::new("Import .wch"))
                .clicked()
            {
                self.run(Command::RamWatch(RamWatchCmd::Import(path.clone().into())));
            }
            if ui
                .add_enabled(!path.is_empty(), egui::Button::new("Export .wch"))
                .clicked()
            {
                self.run(Command::RamWatch(RamWatchCmd::Export(path.into())));
            }
        });
        if let Some(e) = &self.tools.watch_ui.error {
            ui.colored_label(egui::Color32::LIGHT_RED, e);
        }
    }
}
