//! The side panels: scripts (status, enable, reload, unload, load), the console (mirrors the
//! REPL: same commands, same output), and the memory viewer (live hex view, edits are logged
//! pokes, a watch list).

use super::GbApp;
use crate::console::command::{Command, parse_hex};
use crate::emu::Cmd;
use eframe::egui;
use gb_core::Domain;
use std::path::PathBuf;

impl GbApp {
    pub(super) fn scripts_panel(&mut self, ui: &mut egui::Ui) {
        ui.heading("Scripts");
        let rows = self.view.scripts.rows.clone();
        if rows.is_empty() {
            ui.label("No script loaded.");
        }
        for (i, row) in rows.iter().enumerate() {
            ui.separator();
            ui.horizontal(|ui| {
                let mut enabled = row.enabled;
                if ui.checkbox(&mut enabled, row.name.as_str()).changed() {
                    self.send(Cmd::EnableScript(i, enabled));
                }
            });
            let status = egui::RichText::new(&row.status);
            if row.failed {
                ui.label(status.color(ui.visuals().error_fg_color));
            } else {
                ui.label(status);
            }
            if let Some(f) = row.reloaded_at {
                ui.label(format!("reloaded at frame {f}"));
            }
            if row.enabled {
                ui.label(format!(
                    "arena {:.0} KiB of {:.0} MiB, {:.0} µs a frame",
                    row.arena_used as f64 / 1024.0,
                    row.arena_cap as f64 / 1048576.0,
                    row.frame_us
                ));
            }
            ui.horizontal(|ui| {
                if ui.button(format!("Reload {}", row.name)).clicked() {
                    self.send(Cmd::ReloadScript(i));
                }
                if ui.button(format!("Unload {}", row.name)).clicked() {
                    self.send(Cmd::UnloadScript(i));
                }
                if let Some(dir) = row.path.as_ref().and_then(|p| p.parent()) {
                    let dir = if dir.as_os_str().is_empty() {
                        PathBuf::from(".")
                    } else {
                        dir.to_path_buf()
                    };
                    if ui.button("Open folder").clicked() {
                        let _ = std::process::Command::new("xdg-open").arg(&dir).spawn();
                    }
                }
            });
        }
        ui.separator();
        ui.horizontal(|ui| {
            let label = ui.label("Script path");
            ui.add(
                egui::TextEdit::singleline(&mut self.panels.text.script)
                    .desired_width(140.0)
                    .hint_text("scripts/x.lua"),
            )
            .labelled_by(label.id);
        });
        if ui.button("Load script").clicked() && !self.panels.text.script.trim().is_empty() {
            let p = PathBuf::from(self.panels.text.script.trim());
            self.load_script(p, 0);
        }
    }

    pub(super) fn console_panel(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let label = ui.label("Console");
            let r = ui
                .add(
                    egui::TextEdit::singleline(&mut self.panels.text.console)
                        .desired_width(f32::INFINITY)
                        .font(egui::TextStyle::Monospace)
                        .hint_text("help, peek C000, poke C000 1, rewind 60, or Lua"),
                )
                .labelled_by(label.id);
            if r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                let line = std::mem::take(&mut self.panels.text.console);
                if !line.trim().is_empty() {
                    self.send(Cmd::Line(line, None));
                }
                r.request_focus();
            }
        });
        egui::ScrollArea::vertical()
            .stick_to_bottom(true)
            .auto_shrink([false, false])
            .show(ui, |ui| {
                let start = self.view.console.lines.len().saturating_sub(500);
                for line in &self.view.console.lines[start..] {
                    ui.monospace(line);
                }
            });
    }

    pub(super) fn memory_window(&mut self, ctx: &egui::Context) {
        let mut open = self.panels.open.memory;
        egui::Window::new("Memory")
            .open(&mut open)
            .default_width(520.0)
            .show(ctx, |ui| {
                let (domain, start, bytes, size) = self.view.memory.clone();
                ui.horizontal(|ui| {
                    ui.label("Domain");
                    let domains: [(&str, Option<Domain>); 7] = [
                        ("bus", None),
                        ("WRAM", Some(Domain::Wram)),
                        ("VRAM", Some(Domain::Vram)),
                        ("OAM", Some(Domain::Oam)),
                        ("HRAM", Some(Domain::Hram)),
                        ("cart RAM", Some(Domain::CartRam)),
                        ("ROM", Some(Domain::Rom)),
                    ];
                    for (name, d) in domains {
                        if ui.selectable_label(domain == d, name).clicked() {
                            let at = if d.is_none() { 0xC000 } else { 0 };
                            self.panels.text.mem_start = format!("{at:04X}");
                            self.send(Cmd::ViewMemory(d, at, 0x100));
                        }
                    }
                });
                ui.horizontal(|ui| {
                    ui.label("From");
                    let r = ui.add(
                        egui::TextEdit::singleline(&mut self.panels.text.mem_start)
                            .desired_width(70.0),
                    );
                    if r.changed()
                        && let Some(a) = parse_hex(&self.panels.text.mem_start)
                    {
                        self.send(Cmd::ViewMemory(domain, a & !0xF, 0x100));
                    }
                    for (label, delta) in [("< page", -0x100i64), ("page >", 0x100)] {
                        if ui.small_button(label).clicked() {
                            let max = size.saturating_sub(0x100) as i64;
                            let a = (i64::from(start) + delta).clamp(0, max.max(0)) as u32;
                            self.panels.text.mem_start = format!("{a:04X}");
                            self.send(Cmd::ViewMemory(domain, a, 0x100));
                        }
                    }
                    ui.label(format!("size {size:#X}"));
                });
                if let Some(bank_size) = domain.and_then(bank_size) {
                    let banks = (size / bank_size).max(1);
                    ui.horizontal_wrapped(|ui| {
                        ui.label("Bank");
                        let current = start as usize / bank_size;
                        for b in 0..banks.min(64) {
                            if ui.selectable_label(current == b, format!("#{b}")).clicked() {
                                let a = (b * bank_size) as u32;
                                self.panels.text.mem_start = format!("{a:04X}");
                                self.send(Cmd::ViewMemory(domain, a, 0x100));
                            }
                        }
                        if banks > 64 {
                            ui.label(format!("(of {banks}: type an offset)"));
                        }
                    });
                }
                let digits = if size > 0x10000 { 6 } else { 4 };
                egui::ScrollArea::vertical()
                    .max_height(300.0)
                    .show(ui, |ui| {
                        ui.monospace(crate::console::hexdump::hexdump_at(start, digits, &bytes));
                    });
                ui.label(if domain.is_some() {
                    "Edits are logged pokes at offsets of this memory (any bank)."
                } else {
                    "Edits are logged pokes on the CPU bus."
                });
                ui.horizontal(|ui| {
                    ui.label("Poke");
                    ui.add(
                        egui::TextEdit::singleline(&mut self.panels.text.mem_edit.0)
                            .desired_width(50.0)
                            .hint_text("addr"),
                    );
                    ui.add(
                        egui::TextEdit::singleline(&mut self.panels.text.mem_edit.1)
                            .desired_width(80.0)
                            .hint_text("bytes"),
                    );
                    if ui.button("Write").clicked() {
                        let addr = parse_hex(&self.panels.text.mem_edit.0)
                            .and_then(|a| u16::try_from(a).ok());
                        let vals: Option<Vec<u8>> = self
                            .panels
                            .text
                            .mem_edit
                            .1
                            .split_whitespace()
                            .map(|v| parse_hex(v).and_then(|v| u8::try_from(v).ok()))
                            .collect();
                        let offset = parse_hex(&self.panels.text.mem_edit.0);
                        match (domain, addr, offset, vals) {
                            (None, Some(a), _, Some(v)) => self.send(Cmd::Poke(a, v)),
                            (Some(d), _, Some(o), Some(v)) => {
                                self.send(Cmd::PokeMemory(d, o, v));
                            }
                            _ => {}
                        }
                    }
                });
                ui.separator();
                ui.label("Watch list");
                for (a, v) in self.view.console.watches.clone() {
                    ui.horizontal(|ui| {
                        ui.monospace(format!("[{a}] = {v:02X} ({v})"));
                        if ui.small_button("×").clicked() {
                            self.send(Cmd::Run(Command::Unwatch(a)));
                        }
                    });
                }
                ui.horizontal(|ui| {
                    ui.add(
                        egui::TextEdit::singleline(&mut self.panels.text.watch)
                            .desired_width(60.0)
                            .hint_text("addr"),
                    );
                    let addr =
                        parse_hex(&self.panels.text.watch).and_then(|a| u16::try_from(a).ok());
                    if ui
                        .add_enabled(addr.is_some(), egui::Button::new("Watch"))
                        .clicked()
                        && let Some(a) = addr
                    {
                        self.send(Cmd::Run(Command::Watch(
                            crate::console::command::Location::bus(a),
                        )));
                        self.panels.text.watch.clear();
                    }
                });
            });
        self.panels.open.memory = open;
    }
}

/// The size of one bank of a memory shown whole (`None`: it has no banks).
fn bank_size(domain: Domain) -> Option<usize> {
    match domain {
        Domain::Rom => Some(0x4000),
        Domain::Vram | Domain::CartRam => Some(0x2000),
        Domain::Wram => Some(0x1000),
        Domain::Oam | Domain::Hram => None,
    }
}
