//! The I/O registers window: the CPU's registers and flags, then every I/O register
//! (0xFF00-0xFF7F and IE) with its Pan Docs name, its value and, for the important ones, its
//! bits in words (`io_regs.rs`), from the [`crate::emu::VideoView`] of the shown frame.

use eframe::egui;

use super::GbApp;
use super::io_regs;

impl GbApp {
    pub(super) fn io_window(&mut self, ctx: &egui::Context) {
        let mut open = self.tools.vram_ui.io_open;
        egui::Window::new("I/O registers")
            .open(&mut open)
            .default_width(560.0)
            .default_height(560.0)
            .show(ctx, |ui| self.io_contents(ui));
        self.tools.vram_ui.io_open = open;
    }

    fn io_contents(&mut self, ui: &mut egui::Ui) {
        let Some(v) = self.view.video.clone() else {
            ui.label("Waiting for the machine...");
            return;
        };
        let r = v.regs;
        ui.monospace(format!(
            "AF {:02X}{:02X}  BC {:02X}{:02X}  DE {:02X}{:02X}  HL {:02X}{:02X}  SP {:04X}  PC {:04X}",
            r.a, r.f, r.b, r.c, r.d, r.e, r.h, r.l, r.sp, r.pc
        ));
        ui.monospace(format!(
            "Flags {}  IME {}  {}  frame {}",
            io_regs::flags(r.f),
            if v.ime { "on" } else { "off" },
            if v.halted { "halted" } else { "running" },
            v.frame
        ));
        ui.separator();
        let cgb = v.model == gb_core::Model::Cgb;
        egui::ScrollArea::vertical()
            .id_salt("io registers")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for addr in io_regs::addresses() {
                    let Some(name) = io_regs::name(addr) else {
                        continue;
                    };
                    let value = v.reg(addr);
                    ui.monospace(
                        format!(
                            "{addr:04X} {name:<6} {value:02X}  {}",
                            io_regs::describe(addr, value, cgb)
                        )
                        .trim_end(),
                    );
                }
            });
    }
}
