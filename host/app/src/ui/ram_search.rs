//! The RAM Search window (BizHawk's and VBA-rr's, in egui): choose a memory and how its bytes
//! are read, start a search, filter the candidates against their previous values, a value,
//! another address or their change counts, undo, and from the live list add a candidate to the
//! RAM watch or poke it. Everything runs as `search`, `ramwatch` and `poke` commands on the
//! emulation thread (so the console shows the same lines the REPL does); the list draws only
//! its visible rows, formatting them from the raw values the thread publishes.

use eframe::egui;
use gb_session::banks;
use gb_session::tools::search::{Display, Op};

use super::GbApp;
use super::tools_state::Against;
use crate::console::command::{Command, Location, parse_hex};
use crate::console::tool_cmds::{RamWatchCmd, SEARCH_DOMAINS, SearchCmd};
use crate::emu::SearchView;

impl GbApp {
    pub(super) fn ram_search_window(&mut self, ctx: &egui::Context) {
        let mut open = self.tools.search_ui.open;
        egui::Window::new("RAM Search")
            .open(&mut open)
            .default_width(460.0)
            .default_height(520.0)
            .show(ctx, |ui| self.ram_search_contents(ui));
        self.tools.search_ui.open = open;
    }

    fn ram_search_contents(&mut self, ui: &mut egui::Ui) {
        let view = self.view.tools.search.clone();
        ui.horizontal_wrapped(|ui| {
            ui.label("Memory");
            for d in SEARCH_DOMAINS {
                ui.selectable_value(&mut self.tools.search_ui.domain, d, d.name().to_uppercase());
            }
        });
        ui.horizontal(|ui| {
            ui.label("Size");
            for (label, size) in [("1 byte", 1u8), ("2 bytes", 2), ("4 bytes", 4)] {
                ui.selectable_value(&mut self.tools.search_ui.layout.size, size, label);
            }
            ui.separator();
            for (label, d) in [
                ("Unsigned", Display::Unsigned),
                ("Signed", Display::Signed),
                ("Hex", Display::Hex),
            ] {
                if ui
                    .selectable_value(&mut self.tools.search_ui.layout.display, d, label)
                    .clicked()
                    && view.is_some()
                {
                    self.run(Command::Search(SearchCmd::Show(d)));
                }
            }
        });
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.tools.search_ui.layout.big_endian, "Big-endian");
            let mut misaligned = !self.tools.search_ui.layout.aligned;
            ui.checkbox(&mut misaligned, "Misaligned");
            self.tools.search_ui.layout.aligned = !misaligned;
            if ui.button("New search").clicked() {
                self.tools.search_ui.selected = None;
                self.run(Command::Search(SearchCmd::New {
                    domain: self.tools.search_ui.domain,
                    layout: self.tools.search_ui.layout,
                }));
            }
        });
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            ui.label("Compare to");
            for (label, a) in [
                ("Previous value", Against::Previous),
                ("Specific value", Against::Value),
                ("Specific address", Against::Address),
                ("Number of changes", Against::Changes),
            ] {
                ui.radio_value(&mut self.tools.search_ui.against, a, label);
            }
        });
        if self.tools.search_ui.against != Against::Previous {
            ui.horizontal(|ui| {
                let hint = match self.tools.search_ui.against {
                    Against::Address => "address (C0A0, 3:D000)",
                    Against::Changes => "changes",
                    _ => "value (5, -1, 0x1F)",
                };
                let l = ui.label("Compare with");
                ui.add(
                    egui::TextEdit::singleline(&mut self.tools.search_ui.operand)
                        .desired_width(110.0)
                        .hint_text(hint),
                )
                .labelled_by(l.id);
            });
        }
        ui.horizontal_wrapped(|ui| {
            ui.label("Comparison");
            for (label, op) in [
                ("<", Op::Lt),
                (">", Op::Gt),
                ("=", Op::Eq),
                ("≠", Op::Ne),
                ("≤", Op::Le),
                ("≥", Op::Ge),
            ] {
                if ui
                    .selectable_label(
                        !self.tools.search_ui.differs_by && self.tools.search_ui.op == op,
                        label,
                    )
                    .clicked()
                {
                    self.tools.search_ui.op = op;
                    self.tools.search_ui.differs_by = false;
                }
            }
            ui.checkbox(&mut self.tools.search_ui.differs_by, "Differs by");
            if self.tools.search_ui.differs_by {
                ui.add(
                    egui::TextEdit::singleline(&mut self.tools.search_ui.by).desired_width(40.0),
                );
            }
        });
        ui.horizontal(|ui| {
            let has = view.is_some();
            if ui.add_enabled(has, egui::Button::new("Filter")).clicked() {
                match self.tools.search_ui.filter_words() {
                    Ok(words) => {
                        self.tools.search_ui.error = None;
                        self.run(Command::Search(SearchCmd::Filter(words)));
                    }
                    Err(e) => self.tools.search_ui.error = Some(e),
                }
            }
            let undo = view.as_ref().is_some_and(|v| !v.filters.is_empty());
            if ui
                .add_enabled(undo, egui::Button::new("Undo filter"))
                .clicked()
            {
                self.run(Command::Search(SearchCmd::Undo));
            }
            if ui
                .add_enabled(has, egui::Button::new("Reset previous"))
                .clicked()
            {
                self.run(Command::Search(SearchCmd::Reset));
            }
        });
        if let Some(e) = &self.tools.search_ui.error {
            ui.colored_label(egui::Color32::LIGHT_RED, e);
        }
        ui.separator();
        let Some(view) = view else {
            ui.label("No search yet: choose a memory and a size, then \"New search\".");
            return;
        };
        ui.label(format!(
            "{} candidate(s) in {} ({}){}",
            view.count,
            view.domain_name(),
            view.layout.short(),
            if view.filters.is_empty() {
                String::new()
            } else {
                format!(" after: {}", view.filters.join(", "))
            }
        ));
        let rows = std::sync::Arc::clone(&view.rows);
        candidate_list(ui, &view, &mut self.tools.search_ui.selected, None);
        if view.count > rows.len() {
            ui.label(format!(
                "(the first {} shown: filter to see the rest)",
                rows.len()
            ));
        }
        let picked = self
            .tools
            .search_ui
            .selected
            .filter(|o| rows.iter().any(|c| c.offset == *o))
            .and_then(|o| {
                banks::place_in(view.domain, view.domain_len, o as usize)
                    .map(|(bank, addr)| Location { bank, addr })
            });
        ui.horizontal(|ui| {
            if ui
                .add_enabled(picked.is_some(), egui::Button::new("Add to watch"))
                .clicked()
                && let Some(at) = picked
            {
                self.run(Command::RamWatch(RamWatchCmd::Add {
                    at,
                    layout: view.layout,
                    name: String::new(),
                }));
            }
            let l = ui.label("Value");
            ui.add(
                egui::TextEdit::singleline(&mut self.tools.search_ui.poke)
                    .desired_width(70.0)
                    .hint_text("5, -1, 0x1F"),
            )
            .labelled_by(l.id);
            if ui
                .add_enabled(picked.is_some(), egui::Button::new("Poke"))
                .clicked()
                && let Some(at) = picked
            {
                let value =
                    gb_session::tools::search::parse_number(self.tools.search_ui.poke.trim())
                        .or_else(|| parse_hex(&self.tools.search_ui.poke).map(i64::from));
                match value.map(|v| view.layout.encode(v)) {
                    Some(Ok(bytes)) => {
                        self.tools.search_ui.error = None;
                        self.run(Command::Poke { addr: at, bytes });
                    }
                    Some(Err(e)) => self.tools.search_ui.error = Some(e.to_string()),
                    None => self.tools.search_ui.error = Some("type a value to poke".into()),
                }
            }
        });
    }
}

/// The candidates as a list of rows (address, value, previous, changes), only the visible rows
/// laid out; a click selects one (`selected`: its offset). `scroll_to` puts the list at a row
/// (the bench scrolls it).
pub fn candidate_list(
    ui: &mut egui::Ui,
    view: &SearchView,
    selected: &mut Option<u32>,
    scroll_to: Option<usize>,
) {
    let row_h = ui.text_style_height(&egui::TextStyle::Monospace) + 4.0;
    let header = format!(
        "{:<9}{:>12}{:>12}{:>8}",
        "Address", "Value", "Previous", "Changes"
    );
    ui.monospace(header);
    let mut area = egui::ScrollArea::vertical()
        .id_salt("ram search rows")
        .max_height(260.0)
        .auto_shrink([false, false]);
    if let Some(row) = scroll_to {
        area = area.vertical_scroll_offset(row as f32 * row_h);
    }
    area.show_rows(ui, row_h, view.rows.len(), |ui, range| {
        for c in &view.rows[range] {
            let place = banks::place_text_in(view.domain, view.domain_len, c.offset as usize);
            let text = format!(
                "{:<9}{:>12}{:>12}{:>8}",
                place,
                view.layout.format(c.current),
                view.layout.format(c.previous),
                c.changes
            );
            if ui
                .selectable_label(
                    *selected == Some(c.offset),
                    egui::RichText::new(text).monospace(),
                )
                .clicked()
            {
                *selected = Some(c.offset);
            }
        }
    });
}

impl SearchView {
    /// The searched memory's name as the window shows it.
    fn domain_name(&self) -> &'static str {
        gb_session::tools::search::domain_name(self.domain)
    }
}
