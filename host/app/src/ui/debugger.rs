//! The Debugger window: where the machine is, the code around PC (PC marked `>`, execute
//! breakpoints `*`, the ROM's labels), the registers, the call stack and the breakpoints, with
//! Continue, Step (`si`), Step over (`next`), Step out (`finish`) and a field that takes what
//! `break` takes. Every action is a debugger command on the emulation thread, as typed in the
//! REPL; the view is published only while the window is open.

use eframe::egui;

use super::GbApp;
use crate::console::command::Command;
use crate::console::debug_cmds::DebugCmd;
use crate::emu::Cmd;

impl GbApp {
    pub(super) fn debugger_window(&mut self, ctx: &egui::Context) {
        let mut open = self.tools.debug_ui.open;
        egui::Window::new("Debugger")
            .open(&mut open)
            .default_width(520.0)
            .show(ctx, |ui| self.debugger_contents(ui));
        self.tools.debug_ui.open = open;
    }

    fn debugger_contents(&mut self, ui: &mut egui::Ui) {
        let Some(view) = self.view.debug.clone() else {
            ui.label("(waiting for the machine)");
            return;
        };
        ui.horizontal(|ui| {
            if ui.button("Continue").clicked() {
                self.run(Command::Resume);
            }
            if ui
                .button("Step")
                .on_hover_text("si: one instruction")
                .clicked()
            {
                self.run(Command::Debug(DebugCmd::StepIn(1)));
            }
            if ui
                .button("Step over")
                .on_hover_text("next: a CALL runs through")
                .clicked()
            {
                self.run(Command::Debug(DebugCmd::Next));
            }
            if ui
                .button("Step out")
                .on_hover_text("finish: until the routine returns")
                .clicked()
            {
                self.run(Command::Debug(DebugCmd::Finish));
            }
            if ui.button("Pause").clicked() {
                self.run(Command::Pause);
            }
        });
        ui.label(egui::RichText::new(&view.at).monospace());
        ui.label(egui::RichText::new(&view.regs).monospace());
        ui.separator();
        egui::ScrollArea::vertical()
            .id_salt("debugger listing")
            .max_height(300.0)
            .show(ui, |ui| {
                for line in &view.listing {
                    if let Some(l) = &line.label {
                        ui.label(egui::RichText::new(format!("{l}:")).monospace().strong());
                    }
                    let mark = match (line.is_pc, line.has_break) {
                        (true, true) => ">*",
                        (true, false) => "> ",
                        (false, true) => " *",
                        _ => "  ",
                    };
                    let text = format!("{mark} {:04X}  {:<9} {}", line.addr, line.bytes, line.text);
                    let rich = egui::RichText::new(text).monospace();
                    ui.label(if line.is_pc {
                        rich.color(egui::Color32::YELLOW)
                    } else {
                        rich
                    });
                }
            });
        ui.separator();
        ui.collapsing("Call stack", |ui| {
            for l in &view.stack {
                ui.monospace(l);
            }
        });
        ui.label("Breakpoints");
        for b in &view.breakpoints {
            ui.horizontal(|ui| {
                ui.monospace(b);
                let id = b
                    .trim_start_matches('#')
                    .split_whitespace()
                    .next()
                    .and_then(|n| n.parse::<u32>().ok());
                if let Some(id) = id
                    && ui.small_button("×").on_hover_text("Delete").clicked()
                {
                    self.run(Command::Debug(DebugCmd::Delete(Some(id))));
                }
            });
        }
        ui.horizontal(|ui| {
            let l = ui.label("Break at");
            ui.add(
                egui::TextEdit::singleline(&mut self.tools.debug_ui.input)
                    .desired_width(220.0)
                    .hint_text("Main.loop | w C0A0 if value == 3"),
            )
            .labelled_by(l.id);
            if ui.button("Add breakpoint").clicked() {
                let line = format!("break {}", self.tools.debug_ui.input.trim());
                self.send(Cmd::Line(line, None));
                self.tools.debug_ui.input.clear();
            }
        });
    }
}
