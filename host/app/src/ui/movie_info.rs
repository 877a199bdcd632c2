//! Movie ▸ Authors and description…: the recording movie's authors and description, edited
//! in a small window (a read-only movie's change waits until it is switched to read-write:
//! the emulation thread says so). The fields themselves: `file_state.rs`.

use super::GbApp;
use super::file_state::{MovieInfoFields, MovieInfoWindow};
use crate::emu::Cmd;
use eframe::egui;

impl GbApp {
    /// Open the window on the open movie's authors and description.
    pub(super) fn open_movie_info(&mut self) {
        let info = self.view.movie_info.clone().unwrap_or_default();
        self.dialogs.movie_info = MovieInfoWindow {
            open: true,
            fields: MovieInfoFields::from_info(&info),
        };
    }

    /// Draw the window while it is open.
    pub(super) fn movie_info_window(&mut self, ctx: &egui::Context) {
        if !self.dialogs.movie_info.open {
            return;
        }
        let mut open = true;
        let mut apply = false;
        let read_only = self.view.movie.as_ref().is_some_and(|m| m.read_only);
        egui::Window::new("Movie authors and description")
            .open(&mut open)
            .collapsible(false)
            .show(ctx, |ui| {
                self.dialogs.movie_info.fields.fields(ui);
                if read_only {
                    ui.label("The movie plays read-only: switch it to read-write to change these.");
                }
                apply = ui.button("Apply").clicked();
            });
        if apply {
            self.send(Cmd::SetMovieInfo(self.dialogs.movie_info.fields.info()));
            self.dialogs.movie_info.open = false;
        } else if !open {
            self.dialogs.movie_info.open = false;
        }
    }
}
