//! The file dialogs: what each one asks for ([`Dialog`]), and how it asks. With a desktop
//! portal (`portal.rs`) the native dialog opens (the `rfd` crate, on its own thread; its
//! answer is polled each frame, so the window never waits on it). Without one, a small window
//! asks for a typed path and says in one line why ("no file-dialog portal: type the path").
//! Recording a movie also asks for its authors and description (`movie_info.rs`), in the
//! same window, after the native dialog chose the file.

use super::GbApp;
use crate::command::{Command, MovieCmd, StateCmd, StateTarget};
use crate::emu::Cmd;
use eframe::egui;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver};

use super::movie_info::MovieInfoFields;
use super::portal::{Portal, PortalCheck};

/// What a file dialog is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dialog {
    OpenRom,
    LoadScript,
    /// Record a movie (from power-on, or from the current frame).
    RecordMovie {
        here: bool,
    },
    PlayMovie,
    SaveStateFile,
    LoadStateFile,
    OpenStateFile,
    /// Open a movie in the TAS editor.
    EditMovie,
    /// Save the TAS editor's movie.
    SaveEditedMovie,
    /// Open the current ROM again with a patch.
    ApplyPatch,
}

impl Dialog {
    /// The window's (and native dialog's) title.
    fn title(self) -> &'static str {
        match self {
            Dialog::OpenRom => "Open ROM",
            Dialog::LoadScript => "Load script",
            Dialog::RecordMovie { here: false } => "Record a movie from power-on (.gbm)",
            Dialog::RecordMovie { here: true } => "Record a movie from this frame (.gbm)",
            Dialog::PlayMovie => "Play a movie (.gbm)",
            Dialog::SaveStateFile => "Save a state file (.gbs)",
            Dialog::LoadStateFile => "Load a state file (.gbs)",
            Dialog::OpenStateFile => "Open a state file (.gbs) of this ROM",
            Dialog::EditMovie => "Open a movie (.gbm) in the TAS editor",
            Dialog::SaveEditedMovie => "Save the TAS editor's movie (.gbm)",
            Dialog::ApplyPatch => "Apply a patch (.ips, .ups, .bps) to this ROM",
        }
    }

    /// Whether it chooses a new file ("save as") rather than an existing one.
    fn saves(self) -> bool {
        matches!(
            self,
            Dialog::RecordMovie { .. } | Dialog::SaveStateFile | Dialog::SaveEditedMovie
        )
    }

    /// The native dialog's file filter: a name and extensions.
    fn filter(self) -> (&'static str, &'static [&'static str]) {
        match self {
            Dialog::OpenRom => ("Game Boy ROMs", &["gb", "gbc", "sgb", "cgb", "bin"]),
            Dialog::LoadScript => ("Lua scripts", &["lua"]),
            Dialog::RecordMovie { .. }
            | Dialog::PlayMovie
            | Dialog::EditMovie
            | Dialog::SaveEditedMovie => ("gbhost movies", &["gbm"]),
            Dialog::SaveStateFile | Dialog::LoadStateFile | Dialog::OpenStateFile => {
                ("gbhost states", &["gbs"])
            }
            Dialog::ApplyPatch => ("ROM patches", &["ips", "ups", "bps"]),
        }
    }
}

/// The dialogs' state in the window.
pub(super) struct Dialogs {
    /// The typed-path window, when open.
    typed: Option<Dialog>,
    /// Its path field.
    path: String,
    /// Why the path is typed (no portal), shown in the window.
    why_typed: Option<String>,
    /// A native dialog running on its own thread, and where its answer comes.
    native: Option<(Dialog, Receiver<Option<PathBuf>>)>,
    /// The portal, as far as known.
    portal: PortalCheck,
    /// The authors and description asked when a recording starts.
    pub(super) record_info: MovieInfoFields,
}

impl Dialogs {
    /// Dialogs that look for a portal (`desktop`), or only ever ask for typed paths (tests).
    pub(super) fn new(desktop: bool) -> Dialogs {
        Dialogs {
            typed: None,
            path: String::new(),
            why_typed: None,
            native: None,
            portal: if desktop {
                PortalCheck::start()
            } else {
                PortalCheck::absent("not on a desktop")
            },
            record_info: MovieInfoFields::default(),
        }
    }
}

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
    }

    /// Run the native dialog on its own thread; the window polls for its answer.
    fn ask_native(&mut self, d: Dialog) {
        let (tx, rx) = mpsc::channel();
        let (name, exts) = d.filter();
        let start_in = self
            .config
            .recent_roms
            .first()
            .and_then(|p| p.parent())
            .map(PathBuf::from);
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
            Ok(_) => self.dialogs.native = Some((d, rx)),
            Err(e) => self.ask_typed(d, &format!("cannot start it: {e}")),
        }
    }

    /// Each frame: the typed-path window, and a native dialog's answer when it has come.
    pub(super) fn dialog(&mut self, ctx: &egui::Context) {
        if let Some((d, rx)) = &self.dialogs.native {
            let d = *d;
            match rx.try_recv() {
                Ok(Some(p)) => {
                    self.dialogs.native = None;
                    if matches!(d, Dialog::RecordMovie { .. }) {
                        // The authors and description are asked next, in the window.
                        self.dialogs.typed = Some(d);
                        self.dialogs.path = p.display().to_string();
                        self.dialogs.why_typed = None;
                    } else {
                        self.chosen(d, p);
                    }
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
            .show(ctx, |ui| {
                if let Some(why) = &self.dialogs.why_typed {
                    ui.label(why);
                }
                ui.horizontal(|ui| {
                    let label = ui.label("Path");
                    let r = ui
                        .text_edit_singleline(&mut self.dialogs.path)
                        .labelled_by(label.id);
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
            Dialog::LoadScript => self.load_script(p),
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
        }
    }
}
