//! The TAS editor's branches in its window: one card per branch (its picture as a small
//! texture, name, frame) with Load and Diff, and a Save branch button with a name field.
//! Pictures become textures once per branch (by index and machine hash).

use eframe::egui;

use super::GbApp;
use crate::console::command::{BranchCmd, Command, MovieCmd};
use crate::emu::{BranchView, EditorView};

impl GbApp {
    /// The branches, under a collapsing header of the TAS editor's window.
    pub(super) fn branches_section(&mut self, ui: &mut egui::Ui, ed: &EditorView) {
        egui::CollapsingHeader::new(format!("Branches ({})", ed.branches.len()))
            .id_salt("branches")
            .default_open(true)
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    let l = ui.label("Name");
                    ui.add(
                        egui::TextEdit::singleline(&mut self.tools.roll.branches.name)
                            .desired_width(110.0),
                    )
                    .labelled_by(l.id);
                    if ui.button("Save branch").clicked() {
                        let name = self.tools.roll.branches.name.trim().to_owned();
                        self.run(Command::Movie(MovieCmd::Branch(BranchCmd::Save(
                            (!name.is_empty()).then_some(name),
                        ))));
                        self.tools.roll.branches.name.clear();
                    }
                });
                egui::ScrollArea::horizontal()
                    .id_salt("branch cards")
                    .show(ui, |ui| {
                        ui.horizontal(|ui| {
                            for (i, b) in ed.branches.iter().enumerate() {
                                self.branch_card(ui, i, b);
                            }
                        });
                    });
            });
    }

    fn branch_card(&mut self, ui: &mut egui::Ui, i: usize, b: &BranchView) {
        let tex = self.tools.roll.branches.texture(ui.ctx(), i, b);
        ui.group(|ui| {
            ui.vertical(|ui| {
                ui.add(egui::Image::new(&tex).fit_to_exact_size(egui::vec2(80.0, 72.0)));
                ui.label(format!("#{i} {}", b.name));
                ui.label(format!("frame {}", b.frame));
                ui.horizontal(|ui| {
                    if ui
                        .button(format!("Load #{i}"))
                        .on_hover_text(format!("Load branch {i}"))
                        .clicked()
                    {
                        self.run(Command::Movie(MovieCmd::Branch(BranchCmd::Load(i))));
                    }
                    if i > 0
                        && ui
                            .button(format!("Diff #{i}"))
                            .on_hover_text(format!("Where branch {} and {i} differ", i - 1))
                            .clicked()
                    {
                        self.run(Command::Movie(MovieCmd::Branch(BranchCmd::Diff(i - 1, i))));
                    }
                });
            });
        });
    }
}
