//! A movie's authors and description in the window: the fields the record dialog shows (asked
//! when a recording starts), and Movie ▸ Authors and description…, which edits the recording
//! movie's (a read-only movie's change waits until it is switched to read-write: the
//! emulation thread says so).

use super::GbApp;
use crate::emu::{Cmd, MovieInfo};
use eframe::egui;

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
    open: bool,
    fields: MovieInfoFields,
}

impl GbApp {
    /// Open the window on the open movie's authors and description.
    pub(super) fn open_movie_info(&mut self) {
        let info = self.view.movie_info.clone().unwrap_or_default();
        self.movie_info = MovieInfoWindow {
            open: true,
            fields: MovieInfoFields::from_info(&info),
        };
    }

    /// Draw the window while it is open.
    pub(super) fn movie_info_window(&mut self, ctx: &egui::Context) {
        if !self.movie_info.open {
            return;
        }
        let mut open = true;
        let mut apply = false;
        let read_only = self.view.movie.as_ref().is_some_and(|m| m.read_only);
        egui::Window::new("Movie authors and description")
            .open(&mut open)
            .collapsible(false)
            .show(ctx, |ui| {
                self.movie_info.fields.fields(ui);
                if read_only {
                    ui.label("The movie plays read-only: switch it to read-write to change these.");
                }
                apply = ui.button("Apply").clicked();
            });
        if apply {
            self.send(Cmd::SetMovieInfo(self.movie_info.fields.info()));
            self.movie_info.open = false;
        } else if !open {
            self.movie_info.open = false;
        }
    }
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
