//! The file dialogs: the native one (the `rfd` crate, through the desktop portal, on its own
//! thread; its answer is polled each frame, so the window never waits on it) when a portal
//! runs (`portal.rs`), else a small window asking for a typed path that says in one line why
//! ("no file-dialog portal: type the path"); so does a native dialog that gives up at once
//! (the portal answered but showed none), and the typed paths stay for the session.
//! Recording a movie also asks for its authors and description, in the same window (after
//! the native dialog chose the file). What each dialog is for and their state:
//! `file_state.rs`.

use super::GbApp;
use super::file_state::{Dialog, MovieInfoFields};
use super::portal::Portal;
use crate::console::command::{Command, MovieCmd, StateCmd, StateTarget};
use crate::console::link_cmds::LinkCmd;
use crate::emu::Cmd;
use eframe::egui;
use std::path::PathBuf;
use std::sync::mpsc;

/// A native dialog that answers "nothing chosen" sooner than this was never shown.
const NO_DIALOG: std::time::Duration = std::time::Duration::from_millis(400);

impl GbApp {
    /// Ask for a file: the native dialog when a portal runs, else the typed-path window.
    pub(super) fn ask(&mut self, d: Dialog) {
        if self.dialogs.native.is_some() {
            self.notice("a file dialog is already open");
            return;
        }
        self.dialogs.record_info = MovieInfoFields::default();
        match self.dialogs.portal.state().clone() {
            Portal::Present => self.ask_native(d),
            Portal::Checking => self.ask_typed(d, "still looking for a file-dialog portal"),
            Portal::Absent(why) => self.ask_typed(d, &why),
        }
    }

    fn ask_typed(&mut self, d: Dialog, why: &str) {
        self.dialogs.typed = Some(d);
        self.dialogs.path.clear();
        self.dialogs.why_typed = Some(format!("no file-dialog portal ({why}): type the path"));
        self.dialogs.focus_path = true;
    }

    /// Run the native dialog on its own thread; the window polls for its answer.
    fn ask_native(&mut self, d: Dialog) {
        let (tx, rx) = mpsc::channel();
        let (name, exts) = d.filter();
        // Scripts start where the last script was; everything else beside the last ROM.
        let recent = match d {
            Dialog::LoadScript | Dialog::LoadScriptOnPlayer2 => &self.config.recent_scripts,
            _ => &self.config.recent_roms,
        };
        let start_in = recent.first().and_then(|p| p.parent()).map(PathBuf::from);
        let spawned = std::thread::Builder::new()
            .name("file-dialog".into())
            .spawn(move || {
                let mut fd = rfd::FileDialog::new()
                    .set_title(d.title())
                    .add_filter(name, exts)
                    .add_filter("All files", &["*"]);
                if let Some(dir) = start_in {
                    fd = fd.set_directory(dir);
                }
                let picked = if d.saves() {
                    fd.save_file()
                } else {
                    fd.pick_file()
                };
                let _ = tx.send(picked);
            });
        match spawned {
            Ok(_) => self.dialogs.native = Some((d, rx, std::time::Instant::now())),
            Err(e) => self.ask_typed(d, &format!("cannot start it: {e}")),
        }
    }

    /// Each frame: the typed-path window, and a native dialog's answer when it has come.
    pub(super) fn dialog(&mut self, ctx: &egui::Context) {
        if let Some((d, rx, since)) = &self.dialogs.native {
            let (d, since) = (*d, *since);
            match rx.try_recv() {
                Ok(Some(p)) => {
                    self.dialogs.native = None;
                    if matches!(d, Dialog::RecordMovie { .. }) {
                        // The authors and description are asked next, in the window.
                        self.dialogs.typed = Some(d);
                        self.dialogs.path = p.display().to_string();
                        self.dialogs.why_typed = None;
                        self.dialogs.focus_path = false;
                    } else {
                        self.chosen(d, p);
                    }
                }
                // No answer sooner than anyone could cancel: the portal showed no dialog
                // (rfd then tried zenity, and found none). Typed paths from now on.
                Ok(None) | Err(mpsc::TryRecvError::Disconnected) if since.elapsed() < NO_DIALOG => {
                    self.dialogs.native = None;
                    let why = "the portal showed no dialog";
                    self.dialogs.portal.set_absent(why);
                    self.ask_typed(d, why);
                }
                Ok(None) | Err(mpsc::TryRecvError::Disconnected) => self.dialogs.native = None,
                Err(mpsc::TryRecvError::Empty) => {
                    ctx.request_repaint_after(std::time::Duration::from_millis(100));
                }
            }
        }
        let Some(d) = self.dialogs.typed else { return };
        let mut open = true;
        let mut done = None;
        egui::Window::new(d.title())
            .open(&mut open)
            .collapsible(false)
            .default_width(440.0)
            .show(ctx, |ui| {
                if let Some(why) = &self.dialogs.why_typed {
                    ui.label(why);
                }
                ui.horizontal(|ui| {
                    let label = ui.label("Path");
                    let r = ui
                        .text_edit_singleline(&mut self.dialogs.path)
                        .labelled_by(label.id);
                    if std::mem::take(&mut self.dialogs.focus_path) {
                        r.request_focus();
                    }
                    if r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                        done = Some(self.dialogs.path.clone());
                    }
                });
                if matches!(d, Dialog::RecordMovie { .. }) {
                    self.dialogs.record_info.fields(ui);
                }
                if ui.button("Open").clicked() {
                    done = Some(self.dialogs.path.clone());
                }
            });
        if let Some(p) = done.filter(|p| !p.trim().is_empty()) {
            self.dialogs.typed = None;
            self.chosen(d, PathBuf::from(p.trim()));
        } else if !open {
            self.dialogs.typed = None;
        }
    }

    /// Do what the dialog was for with the file chosen.
    fn chosen(&mut self, d: Dialog, p: PathBuf) {
        match d {
            Dialog::OpenRom => self.open_rom(p),
            Dialog::LoadScript => self.load_script(p, 0),
            Dialog::LoadScriptOnPlayer2 => self.load_script(p, 1),
            Dialog::RecordMovie { here } => {
                let info = self.dialogs.record_info.info();
                self.send(Cmd::RecordMovie {
                    path: p,
                    here,
                    info,
                });
            }
            Dialog::PlayMovie => self.run(Command::Movie(MovieCmd::Play(p))),
            Dialog::SaveStateFile => {
                self.run(Command::State(StateCmd::Save(StateTarget::File(p))));
            }
            Dialog::LoadStateFile => {
                self.run(Command::State(StateCmd::Load(StateTarget::File(p))));
            }
            Dialog::OpenStateFile => self.run(Command::State(StateCmd::Open(p))),
            Dialog::EditMovie => self.run(Command::Movie(MovieCmd::Edit(Some(p)))),
            Dialog::SaveEditedMovie => self.run(Command::Movie(MovieCmd::Save(Some(p)))),
            Dialog::ApplyPatch => self.send(Cmd::ApplyPatch(p)),
            Dialog::LinkSecondGame => self.run(Command::Link(LinkCmd::Open(p))),
        }
    }
}
