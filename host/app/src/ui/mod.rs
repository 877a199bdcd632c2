//! The window (eframe/egui, glow): the screen with the scripts' overlays, menus, a toolbar,
//! the timeline over the rewind history, the status bar, the scripts, console and memory
//! panels, the TAS editor (`tas_editor.rs`: its window; `piano_roll.rs`: the rows drawn;
//! `roll_mouse.rs`: clicks and drags on them; `branches.rs`: its branches; `roll_state.rs`:
//! its state), the debugger (`debugger.rs`), the tools (`ram_search.rs`, `ram_watch.rs`,
//! `cheats.rs`; their state and the debugger's: `tools_state.rs`), the video viewers
//! (`vram_viewer.rs`: tiles, tile maps, OAM, palettes; `io_viewer.rs`: I/O and CPU registers;
//! decoding in `vram.rs` and `io_regs.rs`; their state: `vram_state.rs`), and the scripts' own
//! windows (`windows.rs`: forms, text buffers; `host_input.rs`: the keys and mouse scripts
//! read), the file dialogs (`dialogs.rs`: native through the desktop portal, `portal.rs` finds
//! it, else a typed path), files dropped on the window (`drop.rs`) and a movie's authors and
//! description (`movie_info.rs`; the state of these: `file_state.rs`). The keys, gamepads and
//! what is held are `controls.rs`; the side panels' state `panel_state.rs`, the scripts'
//! forms' `form_state.rs`, the screen's textures `screen.rs`. Everything it does goes
//! to the emulation thread as a [`Cmd`]; everything it shows comes from the published
//! [`View`].

mod branches;
mod cheats;
mod controls;
mod debugger;
#[cfg(test)]
mod debugger_tests;
mod dialogs;
mod drop;
#[cfg(test)]
mod editor_tests;
mod file_state;
#[cfg(test)]
mod files_tests;
mod form_state;
mod host_input;
mod io_regs;
mod io_viewer;
#[cfg(test)]
mod link_tests;
mod movie_info;
mod panel_state;
mod panels;
pub mod piano_roll;
mod portal;
pub mod ram_search;
mod ram_watch;
mod roll_mouse;
mod roll_state;
pub mod screen;
mod tas_editor;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
mod tools_state;
#[cfg(test)]
mod tools_tests;
pub mod vram;
mod vram_state;
#[cfg(test)]
mod vram_tests;
mod vram_viewer;
mod windows;
#[cfg(test)]
mod windows_tests;

use crate::config::{Config, LinkLayout};
use crate::console::command::{Command, MovieCmd, StateCmd, StateTarget};
use crate::console::link_cmds::LinkCmd;
use crate::emu::{Cmd, EmuHandle, Panel, RomSource, Speed, View};
use eframe::egui;
use file_state::Dialog;
use gb_core::Buttons;
use gb_session::movie::EndAction;
use std::path::PathBuf;

/// The timeline slider's state between frames.
#[derive(Default)]
struct Scrub {
    /// The frame the slider shows (the published frame unless dragged).
    frame: u64,
    /// The slider is being dragged: it keeps its own frame until let go.
    dragging: bool,
}

/// What the emulation thread was told about the window.
#[derive(Default)]
struct Told {
    /// It repaints the window when it publishes (told once, at the first frame).
    repaint_hooked: bool,
    /// The costly panels it was last told are shown.
    shown: crate::emu::Shown,
}

/// The desktop app.
pub struct GbApp {
    /// The emulation thread.
    emu: EmuHandle,
    /// The config file's settings (recent files, model, palette, scale, keys).
    config: Config,
    /// The key bindings, the gamepads, what is held.
    controls: controls::Controls,
    /// The game's picture and the editor's ghost as textures, with what they show.
    textures: screen::Textures,
    /// The view last published by the emulation thread, shown this frame.
    view: View,
    /// The file dialogs and the movie's authors-and-description window.
    dialogs: file_state::Dialogs,
    /// A line for the status bar (a dropped file gbhost does not open…), and when it came.
    notice: Option<(String, std::time::Instant)>,
    /// The movie-end action chosen in the menu.
    end_action: EndAction,
    /// The side panels: which are open, what is typed in them.
    panels: panel_state::Panels,
    /// Save the config file on a change (the desktop app; not tests).
    save_config: bool,
    /// The timeline slider.
    scrub: Scrub,
    /// Scripts' forms: text being typed, forms closed, values given.
    forms: form_state::ScriptForms,
    /// The keys and mouse as scripts read them.
    script_input: controls::ScriptInput,
    /// What the emulation thread was told: to repaint, which costly panels are shown.
    told: Told,
    /// The tool windows' state: the TAS editor, RAM Search and Watch, Cheats, the debugger,
    /// the VRAM viewer.
    tools: tools_state::ToolWindows,
}

impl GbApp {
    /// The app around a running emulation thread. `desktop`: poll gamepads and save the
    /// config file (both off in tests).
    pub fn new(emu: EmuHandle, config: Config, desktop: bool) -> GbApp {
        GbApp {
            save_config: desktop,
            controls: controls::Controls::new(
                &config.keys,
                &config.keys2,
                &config.gamepad_players,
                desktop,
            ),
            emu,
            config,
            textures: Default::default(),
            view: View::default(),
            dialogs: file_state::Dialogs::new(desktop),
            notice: None,
            end_action: EndAction::Pause,
            panels: Default::default(),
            scrub: Default::default(),
            forms: Default::default(),
            script_input: Default::default(),
            told: Told::default(),
            tools: Default::default(),
        }
    }

    /// The emulation thread (tests wait on it).
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn emu(&self) -> &EmuHandle {
        &self.emu
    }

    /// The emulation thread, to stop it (tests).
    #[cfg(test)]
    pub fn emu_mut(&mut self) -> &mut EmuHandle {
        &mut self.emu
    }

    /// The Cheats window's typed code (tests clear it between codes).
    #[cfg(test)]
    fn cheat_ui_mut(&mut self) -> &mut tools_state::CheatUi {
        &mut self.tools.cheat_ui
    }

    /// The last view shown.
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn view(&self) -> &View {
        &self.view
    }

    fn send(&self, cmd: Cmd) {
        self.emu.send(cmd);
    }

    /// Tell the emulation thread which costly panels are shown now, when that changed (it
    /// publishes their views only while they are).
    fn tell_shown(&mut self) {
        let now = crate::emu::Shown {
            debugger: self.tools.debug_ui.open,
            video: self.tools.vram_ui.open || self.tools.vram_ui.io_open,
            search: self.tools.search_ui.open,
        };
        for panel in [Panel::Debugger, Panel::Video, Panel::Search] {
            if now.get(panel) != self.told.shown.get(panel) {
                self.send(Cmd::Shown(panel, now.get(panel)));
            }
        }
        self.told.shown = now;
    }

    /// Run a console command on the emulation thread (it and its reply go to the console).
    fn run(&self, cmd: Command) {
        self.send(Cmd::Run(cmd));
    }

    /// Keyboard and gamepad to commands (only on changes).
    fn input(&mut self, ctx: &egui::Context) {
        let typing = ctx.egui_wants_keyboard_input();
        let linked = self.view.screen.second.is_some();
        let (mut buttons, second, rewind, fast, pause, advance) = ctx.input(|i| {
            let down = |k: Option<egui::Key>| !typing && k.is_some_and(|k| i.key_down(k));
            let pressed = |k: Option<egui::Key>| !typing && k.is_some_and(|k| i.key_pressed(k));
            let pad = |keys: &[(Option<egui::Key>, Buttons)]| {
                keys.iter()
                    .filter(|(k, _)| down(*k))
                    .fold(0u8, |b, (_, bit)| b | bit.0)
            };
            let b = pad(&self.controls.keys.pad);
            let second = if linked { pad(&self.controls.keys2) } else { 0 };
            let rewind = if down(self.controls.keys.rewind) {
                if i.modifiers.shift { 4 } else { 1 }
            } else {
                0
            };
            (
                b,
                Buttons(second),
                rewind,
                down(self.controls.keys.fast),
                pressed(self.controls.keys.pause),
                pressed(self.controls.keys.advance),
            )
        });
        let mut second = second;
        if let Some(g) = &mut self.controls.gamepads {
            if linked {
                let [a, b] = g.poll_players();
                buttons |= a.0;
                second = Buttons(second.0 | b.0);
            } else {
                buttons |= g.poll().0;
            }
        }
        let (buttons, second) = if linked && self.controls.swapped {
            (second, Buttons(buttons))
        } else {
            (Buttons(buttons), second)
        };
        if buttons != self.controls.held.buttons {
            self.controls.held.buttons = buttons;
            self.send(Cmd::Buttons(buttons));
        }
        if second != self.controls.held.second {
            self.controls.held.second = second;
            self.send(Cmd::SecondButtons(second));
        }
        if rewind != self.controls.held.rewind && !self.controls.held.rewind_button {
            self.set_rewind(rewind);
        }
        if fast != self.controls.held.fast {
            self.controls.held.fast = fast;
            self.send_speed();
        }
        if pause {
            self.send(Cmd::TogglePause);
        }
        if advance {
            self.send(Cmd::FrameAdvance);
        }
    }

    fn set_rewind(&mut self, k: u32) {
        if k != self.controls.held.rewind {
            self.controls.held.rewind = k;
            self.send(Cmd::Rewind(k));
        }
    }

    fn send_speed(&self) {
        let s = if self.controls.held.fast || self.controls.held.fast_toggle {
            Speed::Fast
        } else {
            Speed::Normal
        };
        self.send(Cmd::SetSpeed(s));
    }

    fn menus(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| self.menu_file(ui));
            ui.menu_button("Emulation", |ui| self.menu_emulation(ui));
            ui.menu_button("State", |ui| self.menu_state(ui));
            ui.menu_button("Movie", |ui| self.menu_movie(ui));
            ui.menu_button("Model", |ui| self.menu_model(ui));
            ui.menu_button("Scripts", |ui| self.menu_scripts(ui));
            ui.menu_button("View", |ui| self.menu_view(ui));
            let plugged = self.view.screen.second.as_ref().map(|s| s.plugged);
            ui.menu_button("Link", |ui| self.menu_link(ui, plugged));
        });
    }

    /// Two linked Game Boys: a second one linked or taken away, the cable, the controllers,
    /// player 2's scripts (`plugged`: the cable, when a second Game Boy is linked).
    fn menu_link(&mut self, ui: &mut egui::Ui, plugged: Option<bool>) {
        let hint = "The game starts again with two Game Boys on the cable (movies, states and \
                    rewind hold the pair)";
        let Some(plugged) = plugged else {
            if ui
                .button("Link a second game…")
                .on_hover_text(hint)
                .clicked()
            {
                self.ask(Dialog::LinkSecondGame);
            }
            if ui
                .button("Link the same game")
                .on_hover_text(hint)
                .clicked()
            {
                self.run(Command::Link(LinkCmd::Same));
            }
            return;
        };
        if ui
            .button("Unlink (one Game Boy)")
            .on_hover_text("The game starts again on one Game Boy")
            .clicked()
        {
            self.run(Command::Link(LinkCmd::Off));
        }
        if ui
            .button("Link another second game…")
            .on_hover_text(hint)
            .clicked()
        {
            self.ask(Dialog::LinkSecondGame);
        }
        ui.separator();
        let mut on = plugged;
        if ui.checkbox(&mut on, "Cable plugged in").changed() {
            self.send(Cmd::Cable(on));
        }
        ui.checkbox(&mut self.controls.swapped, "Swap controllers");
        // Which player each connected gamepad plays, remembered by the pad's name.
        let pads = self
            .controls
            .gamepads
            .as_ref()
            .map_or_else(Vec::new, |g| g.pads());
        for (name, player) in pads {
            ui.horizontal(|ui| {
                ui.label(&name);
                for p in 0..2 {
                    if ui.radio(player == p, format!("player {}", p + 1)).clicked() {
                        self.config
                            .gamepad_players
                            .insert(name.clone(), p as u8 + 1);
                        if let Some(g) = &mut self.controls.gamepads {
                            g.set_players(self.config.gamepad_players.clone());
                        }
                        self.save_config();
                    }
                }
            });
        }
        ui.horizontal(|ui| {
            ui.label("Screens:");
            let now = self.config.link_layout();
            for (layout, label) in [
                (LinkLayout::Auto, "Fit the window"),
                (LinkLayout::SideBySide, "Side by side"),
                (LinkLayout::Stacked, "Stacked"),
            ] {
                if ui.radio(now == layout, label).clicked() {
                    self.config.link_layout = layout.name().to_owned();
                    self.save_config();
                }
            }
        });
        if ui
            .button("Load script on player 2…")
            .on_hover_text(
                "A Lua script against player 2's Game Boy: its memory, joypad and screen",
            )
            .clicked()
        {
            self.ask(Dialog::LoadScriptOnPlayer2);
        }
        ui.label(if self.controls.swapped {
            "Player 1: W A S D, G = A, F = B, T = Start, R = Select; player 2: the usual keys"
        } else {
            "Player 2: W A S D, G = A, F = B, T = Start, R = Select (keys2 in the config)"
        });
    }

    fn menu_file(&mut self, ui: &mut egui::Ui) {
        if ui.button("Open ROM…").clicked() {
            self.ask(Dialog::OpenRom);
        }
        if ui.button("Open state…").clicked() {
            self.ask(Dialog::OpenStateFile);
        }
        if ui
            .button("Apply patch…")
            .on_hover_text(
                "Open this ROM again with an IPS, UPS or BPS patch (after the patches applied by \
                 name; it replaces the one beside the ROM)",
            )
            .clicked()
        {
            self.ask(Dialog::ApplyPatch);
        }
        if ui.button("Open the demo").clicked() {
            self.send(Cmd::Open(RomSource::Demo));
        }
        ui.menu_button("Recent", |ui| {
            if self.config.recent_roms.is_empty() {
                ui.label("(none yet)");
            }
            for p in self.config.recent_roms.clone() {
                if ui.button(p.display().to_string()).clicked() {
                    self.open_rom(p);
                }
            }
        });
        ui.separator();
        if ui.button("Quit").clicked() {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }

    fn menu_emulation(&mut self, ui: &mut egui::Ui) {
        let pause = if self.view.pacing.paused {
            "Resume"
        } else {
            "Pause"
        };
        if ui.button(pause).clicked() {
            self.send(Cmd::TogglePause);
        }
        if ui.button("Frame advance").clicked() {
            self.send(Cmd::FrameAdvance);
        }
        if ui
            .checkbox(&mut self.controls.held.fast_toggle, "Fast-forward")
            .changed()
        {
            self.send_speed();
        }
        let mut unthrottled = self.view.pacing.speed_mode == Speed::Unthrottled;
        if ui.checkbox(&mut unthrottled, "Unthrottled").changed() {
            self.send(Cmd::SetSpeed(if unthrottled {
                Speed::Unthrottled
            } else {
                Speed::Normal
            }));
        }
        if ui.button("Rewind 5 seconds").clicked() {
            let t = self.view.timeline.frame.saturating_sub(300);
            self.send(Cmd::Seek(t));
        }
        if ui.button("Reset").clicked() {
            self.send(Cmd::Reset);
        }
    }

    fn menu_state(&mut self, ui: &mut egui::Ui) {
        ui.menu_button("Save slot", |ui| {
            for slot in 0..=9 {
                if ui.button(format!("Slot {slot}")).clicked() {
                    self.run(Command::State(StateCmd::Save(StateTarget::Slot(slot))));
                }
            }
        });
        ui.menu_button("Load slot", |ui| {
            for slot in 0..=9 {
                if ui.button(format!("Slot {slot}")).clicked() {
                    self.run(Command::State(StateCmd::Load(StateTarget::Slot(slot))));
                }
            }
        });
        ui.separator();
        if ui.button("Save state file…").clicked() {
            self.ask(Dialog::SaveStateFile);
        }
        if ui.button("Load state file…").clicked() {
            self.ask(Dialog::LoadStateFile);
        }
    }

    fn menu_movie(&mut self, ui: &mut egui::Ui) {
        if ui.button("Record from power-on…").clicked() {
            self.ask(Dialog::RecordMovie { here: false });
        }
        if ui.button("Record from this frame…").clicked() {
            self.ask(Dialog::RecordMovie { here: true });
        }
        if ui.button("Play…").clicked() {
            self.ask(Dialog::PlayMovie);
        }
        ui.separator();
        if ui.button("TAS editor over this session").clicked() {
            self.run(Command::Movie(MovieCmd::Edit(None)));
        }
        if ui.button("Open in TAS editor…").clicked() {
            self.ask(Dialog::EditMovie);
        }
        let movie = self.view.movie.clone();
        ui.separator();
        if let Some(m) = &movie {
            if ui.button("Authors and description…").clicked() {
                self.open_movie_info();
            }
            let mut read_only = m.read_only;
            if ui.checkbox(&mut read_only, "Read-only").changed() {
                self.run(Command::Movie(if read_only {
                    MovieCmd::ReadOnly
                } else {
                    MovieCmd::ReadWrite
                }));
            }
            if ui
                .add_enabled(m.can_undo, egui::Button::new("Undo last rerecord"))
                .clicked()
            {
                self.run(Command::Movie(MovieCmd::Undo));
            }
            if ui.button("Stop movie").clicked() {
                self.run(Command::Movie(MovieCmd::Stop));
            }
            ui.separator();
        }
        ui.label("At the movie's end:");
        for (label, action) in [
            ("Pause", EndAction::Pause),
            ("Keep recording", EndAction::Record),
            ("Stop the movie", EndAction::Stop),
        ] {
            if ui.radio(self.end_action == action, label).clicked() {
                self.end_action = action;
                self.run(Command::Movie(MovieCmd::End(action)));
            }
        }
    }

    fn menu_model(&mut self, ui: &mut egui::Ui) {
        use gb_core::{Model, ModelChoice};
        let current = self.view.game.model_choice;
        for (label, choice) in [
            ("Auto (from the cartridge)", ModelChoice::Auto),
            ("Game Boy (DMG)", ModelChoice::Fixed(Model::Dmg)),
            ("Game Boy Color (CGB)", ModelChoice::Fixed(Model::Cgb)),
        ] {
            if ui.radio(current == choice, label).clicked() && current != choice {
                self.config.model = choice.to_string();
                self.save_config();
                self.send(Cmd::SetModel(choice));
            }
        }
        ui.menu_button("DMG games' colours on the CGB", |ui| {
            use gb_core::DmgPalette;
            let current = self.view.game.dmg_palette;
            let choices = std::iter::once(("Auto (from the title)".to_owned(), DmgPalette::Auto))
                .chain(
                    DmgPalette::COMBOS
                        .iter()
                        .enumerate()
                        .map(|(i, b)| (format!("{b} held"), DmgPalette::Combo(i as u8 + 1))),
                );
            for (label, p) in choices {
                if ui.radio(current == p, label).clicked() && current != p {
                    self.config.dmg_palette = match p {
                        DmgPalette::Auto => "auto".to_owned(),
                        DmgPalette::Combo(n) => DmgPalette::COMBOS[usize::from(n - 1)].to_owned(),
                    };
                    self.save_config();
                    self.send(Cmd::SetDmgPalette(p));
                }
            }
        });
        ui.separator();
        ui.label("A change restarts the game.");
        ui.separator();
        let mut force = self.view.game.force;
        if ui
            .checkbox(&mut force, "Run unsupported cartridges (stand-in mapper)")
            .on_hover_text(
                "MBC6, MBC7, Pocket Camera, HuC1, HuC3, TAMA5, MMM01: run the ROM with the \
                 closest emulated mapper; what only the real one does is missing",
            )
            .changed()
        {
            self.send(Cmd::SetForce(force));
        }
    }

    fn menu_scripts(&mut self, ui: &mut egui::Ui) {
        if ui.button("Load script…").clicked() {
            self.ask(Dialog::LoadScript);
        }
        for p in self.config.recent_scripts.clone() {
            if ui.button(p.display().to_string()).clicked() {
                self.load_script(p, 0);
            }
        }
    }

    fn menu_view(&mut self, ui: &mut egui::Ui) {
        use gb_core::ColorCorrection;
        for (label, c, name) in [
            ("Colours as set", ColorCorrection::Off, "off"),
            ("Colours like a GBC screen", ColorCorrection::Lcd, "lcd"),
        ] {
            if ui.radio(self.view.game.correction == c, label).clicked() {
                self.config.color_correction = name.to_owned();
                self.save_config();
                self.send(Cmd::SetColorCorrection(c));
            }
        }
        ui.separator();
        ui.checkbox(&mut self.panels.open.scripts, "Scripts panel");
        ui.checkbox(&mut self.panels.open.console, "Console panel");
        ui.checkbox(&mut self.panels.open.memory, "Memory viewer");
        ui.checkbox(&mut self.tools.search_ui.open, "RAM search");
        ui.checkbox(&mut self.tools.watch_ui.open, "RAM watch");
        ui.checkbox(&mut self.tools.cheat_ui.open, "Cheats");
        ui.checkbox(&mut self.tools.debug_ui.open, "Debugger");
        ui.checkbox(&mut self.tools.vram_ui.open, "VRAM viewer");
        ui.checkbox(&mut self.tools.vram_ui.io_open, "I/O registers");
        if self.view.editor.is_some() {
            ui.checkbox(&mut self.tools.roll.open, "TAS Editor");
        } else if ui.button("TAS Editor").clicked() {
            self.run(Command::Movie(MovieCmd::Edit(None)));
        }
        ui.separator();
        for s in 0..=6 {
            let label = if s == 0 {
                "Scale: fit".to_owned()
            } else {
                format!("Scale: {s}×")
            };
            if ui.radio(self.config.scale == s, label).clicked() {
                self.config.scale = s;
            }
        }
    }

    fn save_config(&self) {
        if self.save_config
            && let Err(e) = self.config.save()
        {
            eprintln!("gbhost: cannot save the config: {e:#}");
        }
    }

    fn open_rom(&mut self, p: PathBuf) {
        Config::push_recent(&mut self.config.recent_roms, p.clone());
        self.save_config();
        self.send(Cmd::Open(RomSource::FileWith(crate::emu::RomFile {
            path: p,
            patches: Vec::new(),
            saves_dir: self.config.saves_dir.clone(),
        })));
    }

    /// Say `text` in the status bar (for a while).
    fn notice(&mut self, text: impl Into<String>) {
        self.notice = Some((text.into(), std::time::Instant::now()));
    }

    /// Load a script file on `player`'s Game Boy (0: the first), and keep it in the recent list.
    fn load_script(&mut self, p: PathBuf, player: usize) {
        Config::push_recent(&mut self.config.recent_scripts, p.clone());
        self.save_config();
        self.send(Cmd::LoadScript(p, player));
    }

    fn toolbar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let pause = if self.view.pacing.paused {
                "Resume"
            } else {
                "Pause"
            };
            if ui.button(pause).clicked() {
                self.send(Cmd::TogglePause);
            }
            if ui.button("Frame advance").clicked() {
                self.send(Cmd::FrameAdvance);
            }
            let rewind = ui.add(egui::Button::new("Rewind (hold)").sense(egui::Sense::drag()));
            let down = rewind.is_pointer_button_down_on();
            self.controls.held.rewind_button = down;
            if down {
                self.set_rewind(1);
            } else if self.controls.held.rewind > 0 && !self.rewind_key_down(ui.ctx()) {
                self.set_rewind(0);
            }
            if ui
                .toggle_value(&mut self.controls.held.fast_toggle, "Fast-forward")
                .changed()
            {
                self.send_speed();
            }
            if ui.button("Reset").clicked() {
                self.send(Cmd::Reset);
            }
        });
    }

    fn rewind_key_down(&self, ctx: &egui::Context) -> bool {
        let typing = ctx.egui_wants_keyboard_input();
        !typing && ctx.input(|i| self.controls.keys.rewind.is_some_and(|k| i.key_down(k)))
    }

    fn timeline(&mut self, ui: &mut egui::Ui) {
        let Some((first, last)) = self.view.timeline.history else {
            return;
        };
        ui.horizontal(|ui| {
            ui.label("Timeline");
            if !self.scrub.dragging {
                self.scrub.frame = self.view.timeline.frame;
            }
            let width = ui.available_width() - 8.0;
            ui.spacing_mut().slider_width = width.max(100.0);
            let r = ui.add(
                egui::Slider::new(&mut self.scrub.frame, first..=last.max(first + 1))
                    .show_value(false)
                    .smart_aim(false),
            );
            self.scrub.dragging = r.dragged();
            let r = r.on_hover_text("Drag to any frame of the rewind history");
            if r.changed() && self.scrub.frame != self.view.timeline.frame {
                self.send(Cmd::Seek(self.scrub.frame.min(last)));
            }
        });
    }

    fn status_bar(&self, ui: &mut egui::Ui) {
        let v = &self.view;
        ui.horizontal(|ui| {
            let state = if v.pacing.rewinding {
                "rewinding"
            } else if v.pacing.paused {
                "paused"
            } else {
                match v.pacing.speed_mode {
                    Speed::Normal => "running",
                    Speed::Fast => "fast-forward",
                    Speed::Unthrottled => "unthrottled",
                }
            };
            ui.label(state);
            ui.separator();
            if v.pacing.paused && !v.pacing.rewinding {
                ui.label("- fps");
            } else {
                ui.label(format!("{:.1} fps", v.pacing.fps));
                ui.separator();
                ui.label(format!("speed {:.0}%", v.pacing.speed * 100.0));
            }
            ui.separator();
            ui.label(v.screen.model.name());
            ui.separator();
            ui.label(format!("frame {}", v.timeline.frame));
            ui.separator();
            ui.label(format!(
                "lag {}{}",
                v.screen.lag_frames,
                if v.screen.lagged { " (lagged)" } else { "" }
            ));
            ui.separator();
            ui.label(format!("input {}", input_text(v.screen.input)));
            if let Some(second) = &v.screen.second {
                ui.separator();
                ui.label(format!(
                    "player 2 input {} · cable {}",
                    input_text(second.input),
                    if second.plugged { "plugged in" } else { "pulled out" }
                ));
            }
            if let Some(m) = &v.movie {
                ui.separator();
                let f = v.timeline.frame.saturating_sub(m.start);
                let text = format!(
                    "movie {} {} {f}/{} · {} rerecords{}",
                    m.name,
                    if m.read_only { "read-only" } else { "recording" },
                    m.length,
                    m.rerecords,
                    if m.ended { " · ended" } else { "" }
                );
                let text = match &m.unverified {
                    Some(_) => format!("{text} · unverified (another core)"),
                    None => text,
                };
                match m.desync {
                    Some(at) => ui.colored_label(
                        egui::Color32::RED,
                        format!("{text} · desync at frame {at}"),
                    ),
                    None => ui.label(text),
                };
            }
            if let Some((_, last)) = v.timeline.history
                && v.timeline.frame < last
                && !v.pacing.rewinding
            {
                ui.separator();
                ui.label(format!(
                    "rewound: {} frames recorded ahead (Frame advance walks them; Resume forgets them)",
                    last - v.timeline.frame
                ));
            }
            ui.separator();
            if let Some((a, b)) = v.timeline.history {
                ui.label(format!(
                    "history {} frames ({:.1} s), {:.1} / {:.0} MiB",
                    b - a + 1,
                    (b - a + 1) as f64 / 59.73,
                    v.timeline.history_bytes as f64 / 1048576.0,
                    v.timeline.ring_bytes as f64 / 1048576.0
                ));
            }
            if v.timeline.desyncs > 0 {
                ui.separator();
                ui.colored_label(egui::Color32::RED, format!("{} desyncs", v.timeline.desyncs));
            }
            for note in &v.game.notes {
                ui.separator();
                ui.label(note);
            }
            if let Some((text, _)) = &self.notice {
                ui.separator();
                ui.colored_label(egui::Color32::YELLOW, text);
            }
        });
    }

    fn screen(&mut self, ui: &mut egui::Ui) {
        if self.view.screen.picture.is_empty() {
            return;
        }
        if self.textures.game.is_none() || self.textures.shown != self.view.screen.picture {
            let image = screen::image(&self.view.screen.picture);
            match &mut self.textures.game {
                Some(t) => t.set(image, egui::TextureOptions::NEAREST),
                None => {
                    self.textures.game = Some(ui.ctx().load_texture(
                        "screen",
                        image,
                        egui::TextureOptions::NEAREST,
                    ))
                }
            }
            self.textures.shown.clone_from(&self.view.screen.picture);
        }
        let Some(texture) = &self.textures.game else {
            return;
        };
        // Room around the game that scripts asked for (`client.SetGameExtraPadding`), in game
        // pixels: the picture sits inside it and overlays may draw over all of it.
        let [left, top, right, bottom] = self.padding().map(|p| p as f32);
        // A linked pair's second screen stands to the right of the first or below it.
        let avail = ui.available_size();
        let one = egui::vec2(screen::GAME.x + left + right, screen::GAME.y + top + bottom);
        let stacked = self.view.screen.second.is_some()
            && screen::stacks(avail, one, self.config.link_layout());
        let full = match (&self.view.screen.second, stacked) {
            (None, _) => one,
            (Some(_), false) => one + egui::vec2(screen::GAME.x, 0.0),
            (Some(_), true) => one + egui::vec2(0.0, screen::GAME.y),
        };
        let fit = screen::fit_scale(avail, full);
        let scale = if self.config.scale == 0 {
            fit
        } else {
            (self.config.scale as f32).min(fit)
        };
        // Whole physical pixels per Game Boy pixel, so the picture stays crisp.
        let ppp = ui.ctx().pixels_per_point();
        let scale = ((scale * ppp).floor().max(1.0)) / ppp;
        let outer = egui::Rect::from_center_size(ui.max_rect().center(), full * scale);
        let min = egui::pos2(
            ((outer.min.x + left * scale) * ppp).round() / ppp,
            ((outer.min.y + top * scale) * ppp).round() / ppp,
        );
        let rect = egui::Rect::from_min_size(min, screen::GAME * scale);
        let outer = egui::Rect::from_min_max(
            rect.min - egui::vec2(left, top) * scale,
            rect.max + egui::vec2(right, bottom) * scale,
        );
        if outer != rect {
            ui.painter().rect_filled(outer, 0.0, egui::Color32::BLACK);
        }
        ui.painter().image(
            texture.id(),
            rect,
            egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
            egui::Color32::WHITE,
        );
        self.script_input.screen_at = (rect.min, scale);
        self.paint_ghost(ui, rect);
        let painter = ui.painter().with_clip_rect(outer);
        for (_, cmds) in &self.view.screen.overlays {
            screen::paint_overlay(&painter, rect.min, scale, cmds);
        }
        let mut shown = outer;
        if let Some(second) = &self.view.screen.second {
            let id = self.textures.second(ui.ctx(), &second.picture);
            let corner = if stacked {
                egui::pos2(rect.min.x, outer.max.y)
            } else {
                egui::pos2(outer.max.x, rect.min.y)
            };
            let at = egui::Rect::from_min_size(corner, screen::GAME * scale);
            ui.painter().image(
                id,
                at,
                egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
                egui::Color32::WHITE,
            );
            // Player 2's scripts draw on player 2's screen.
            let painter = ui.painter().with_clip_rect(at);
            for (_, cmds) in &second.overlays {
                screen::paint_overlay(&painter, at.min, scale, cmds);
            }
            shown = shown.union(at);
        } else {
            self.textures.second = None;
        }
        ui.allocate_rect(shown, egui::Sense::hover());
    }

    /// The TAS editor's ghost over the game, translucent.
    fn paint_ghost(&mut self, ui: &egui::Ui, rect: egui::Rect) {
        let Some(ghost) = self.view.editor.as_ref().and_then(|e| e.ghost.as_ref()) else {
            self.textures.ghost = None;
            return;
        };
        let stale = self
            .textures
            .ghost
            .as_ref()
            .is_none_or(|(_, shown)| !std::sync::Arc::ptr_eq(shown, &ghost.picture));
        if stale {
            let image = screen::image(&ghost.picture);
            match &mut self.textures.ghost {
                Some((t, shown)) => {
                    t.set(image, egui::TextureOptions::NEAREST);
                    *shown = std::sync::Arc::clone(&ghost.picture);
                }
                None => {
                    let t = ui
                        .ctx()
                        .load_texture("ghost", image, egui::TextureOptions::NEAREST);
                    self.textures.ghost = Some((t, std::sync::Arc::clone(&ghost.picture)));
                }
            }
        }
        if let Some((t, _)) = &self.textures.ghost {
            ui.painter().image(
                t.id(),
                rect,
                egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
                egui::Color32::from_white_alpha(96),
            );
        }
    }

    /// Draw the whole window into `ui` (eframe calls this every frame; tests call it through
    /// `egui_kittest`).
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        if !self.told.repaint_hooked {
            let c = ctx.clone();
            self.send(Cmd::OnPublish(Box::new(move || c.request_repaint())));
            self.told.repaint_hooked = true;
        }
        let view = self.emu.view().clone();
        if view.game.title != self.view.game.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(format!(
                "{} - gbhost",
                view.game.title
            )));
        }
        self.view = view;
        self.input(&ctx);
        egui::Panel::top("menu").show(ui, |ui| {
            self.menus(ui);
            self.toolbar(ui);
        });
        egui::Panel::bottom("status").show(ui, |ui| {
            self.timeline(ui);
            self.status_bar(ui);
        });
        if self.panels.open.scripts {
            egui::Panel::right("scripts")
                .resizable(true)
                .default_size(250.0)
                .show(ui, |ui| self.scripts_panel(ui));
        }
        if self.panels.open.console {
            egui::Panel::bottom("console")
                .resizable(true)
                .default_size(110.0)
                .show(ui, |ui| self.console_panel(ui));
        }
        egui::CentralPanel::default()
            .frame(egui::Frame::NONE.fill(egui::Color32::from_gray(24)))
            .show(ui, |ui| self.screen(ui));
        if self.panels.open.memory {
            self.memory_window(&ctx);
        }
        if self.tools.search_ui.open {
            self.ram_search_window(&ctx);
        }
        if self.tools.watch_ui.open {
            self.ram_watch_window(&ctx);
        }
        if self.tools.cheat_ui.open {
            self.cheats_window(&ctx);
        }
        if self.tools.debug_ui.open {
            self.debugger_window(&ctx);
        }
        self.video_windows(&ctx);
        self.tell_shown();
        self.script_windows(&ctx);
        self.tas_editor(&ctx);
        self.host_input(&ctx);
        self.dialog(&ctx);
        self.movie_info_window(&ctx);
        self.dropped_files(&ctx);
        if self
            .notice
            .as_ref()
            .is_some_and(|(_, at)| at.elapsed() > std::time::Duration::from_secs(15))
        {
            self.notice = None;
        }
        if self.view.quit {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }
}

impl eframe::App for GbApp {
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        // Wake up now and then even when nothing is published (a quit typed in the REPL).
        ctx.request_repaint_after(std::time::Duration::from_millis(100));
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.save_config();
        self.emu.quit();
    }
}

/// Held buttons as letters (`U D L R s S B A`), `-` for none.
fn input_text(b: gb_core::Buttons) -> String {
    use gb_core::Buttons as B;
    // BizHawk's input-log letters (the window's font has no arrows).
    let names = [
        (B::UP, "U"),
        (B::DOWN, "D"),
        (B::LEFT, "L"),
        (B::RIGHT, "R"),
        (B::SELECT, "s"),
        (B::START, "S"),
        (B::B, "B"),
        (B::A, "A"),
    ];
    let t: String = names
        .iter()
        .filter(|(m, _)| b.contains(*m) && m.0 != 0)
        .map(|(_, n)| *n)
        .collect();
    if t.is_empty() { "-".into() } else { t }
}
