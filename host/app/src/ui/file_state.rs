//! The state of the window's file dialogs, kept by `GbApp` (what `dialogs.rs` and
//! `movie_info.rs` draw and act on): what a dialog is for ([`Dialog`]), the open typed-path
//! window or native dialog ([`Dialogs`]), and a movie's authors and description as typed
//! ([`MovieInfoFields`], [`MovieInfoWindow`]).

use super::portal::PortalCheck;
use crate::emu::MovieInfo;
use eframe::egui;
use std::path::PathBuf;
use std::sync::mpsc::Receiver;

/// What a file dialog is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dialog {
    OpenRom,
    LoadScript,
    /// Load a script on a linked pair's second Game Boy.
    LoadScriptOnPlayer2,
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
    /// Link a second Game Boy running a ROM file.
    LinkSecondGame,
}

impl Dialog {
    /// The window's (and native dialog's) title.
    pub(super) fn title(self) -> &'static str {
        match self {
            Dialog::OpenRom => "Open ROM",
            Dialog::LoadScript => "Load script",
            Dialog::LoadScriptOnPlayer2 => "Load script on player 2",
            Dialog::RecordMovie { here: false } => "Record a movie from power-on (.gbm)",
            Dialog::RecordMovie { here: true } => "Record a movie from this frame (.gbm)",
            Dialog::PlayMovie => "Play a movie (.gbm)",
            Dialog::SaveStateFile => "Save a state file (.gbs)",
            Dialog::LoadStateFile => "Load a state file (.gbs)",
            Dialog::OpenStateFile => "Open a state file (.gbs) of this ROM",
            Dialog::EditMovie => "Open a movie (.gbm) in the TAS editor",
            Dialog::SaveEditedMovie => "Save the TAS editor's movie (.gbm)",
            Dialog::ApplyPatch => "Apply a patch (.ips .ups .bps)",
            Dialog::LinkSecondGame => "Link a second Game Boy: its ROM",
        }
    }

    /// Whether it chooses a new file ("save as") rather than an existing one.
    pub(super) fn saves(self) -> bool {
        matches!(
            self,
            Dialog::RecordMovie { .. } | Dialog::SaveStateFile | Dialog::SaveEditedMovie
        )
    }

    /// The native dialog's file filter: a name and extensions.
    pub(super) fn filter(self) -> (&'static str, &'static [&'static str]) {
        match self {
            Dialog::OpenRom | Dialog::LinkSecondGame => {
                ("Game Boy ROMs", &crate::game::rom::EXTENSIONS)
            }
            Dialog::LoadScript | Dialog::LoadScriptOnPlayer2 => ("Lua scripts", &["lua"]),
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

/// The dialogs' state in the window, and the movie's authors-and-description window's.
pub(super) struct Dialogs {
    /// The typed-path window, when open.
    pub(super) typed: Option<Dialog>,
    /// Its path field.
    pub(super) path: String,
    /// Why the path is typed (no portal), shown in the window.
    pub(super) why_typed: Option<String>,
    /// The path field takes the keyboard at the window's next frame.
    pub(super) focus_path: bool,
    /// A native dialog running on its own thread, where its answer comes, and when it
    /// started.
    pub(super) native: Option<(Dialog, Receiver<Option<PathBuf>>, std::time::Instant)>,
    /// The portal, as far as known.
    pub(super) portal: PortalCheck,
    /// The authors and description asked when a recording starts.
    pub(super) record_info: MovieInfoFields,
    /// The Movie ▸ Authors and description… window.
    pub(super) movie_info: MovieInfoWindow,
}

impl Dialogs {
    /// Dialogs that look for a portal (`desktop`), or only ever ask for typed paths (tests).
    pub(super) fn new(desktop: bool) -> Dialogs {
        Dialogs {
            typed: None,
            path: String::new(),
            why_typed: None,
            focus_path: false,
            native: None,
            portal: if desktop {
                PortalCheck::start()
            } else {
                PortalCheck::absent("not on a desktop")
            },
            record_info: MovieInfoFields::default(),
            movie_info: MovieInfoWindow::default(),
        }
    }
}

/// The two fields as typed: authors separated by commas, and the description.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct MovieInfoFields {
    authors: String,
    description: String,
}

impl MovieInfoFields {
    /// The fields showing `info`.
    pub(super) fn from_info(info: &MovieInfo) -> MovieInfoFields {
        MovieInfoFields {
            authors: info.authors.join(", "),
            description: info.description.clone(),
        }
    }

    /// Draw the fields (labelled "Authors" and "Description").
    pub(super) fn fields(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let label = ui.label("Authors");
            ui.text_edit_singleline(&mut self.authors)
                .labelled_by(label.id)
                .on_hover_text("Separated by commas");
        });
        ui.horizontal(|ui| {
            let label = ui.label("Description");
            ui.text_edit_multiline(&mut self.description)
                .labelled_by(label.id);
        });
    }

    /// What the fields say: the authors trimmed, empty ones left out.
    pub(super) fn info(&self) -> MovieInfo {
        MovieInfo {
            authors: self
                .authors
                .split(',')
                .map(str::trim)
                .filter(|a| !a.is_empty())
                .map(str::to_owned)
                .collect(),
            description: self.description.trim().to_owned(),
        }
    }
}

/// The Movie ▸ Authors and description… window.
#[derive(Default)]
pub(super) struct MovieInfoWindow {
    /// Shown.
    pub(super) open: bool,
    /// Its fields.
    pub(super) fields: MovieInfoFields,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authors_are_split_on_commas_and_trimmed() {
        let f = MovieInfoFields {
            authors: " Ann, ,Bo ".into(),
            description: " any% \n".into(),
        };
        let info = f.info();
        assert_eq!(info.authors, ["Ann", "Bo"]);
        assert_eq!(info.description, "any%");
        assert_eq!(MovieInfoFields::from_info(&info).authors, "Ann, Bo");
    }
}
