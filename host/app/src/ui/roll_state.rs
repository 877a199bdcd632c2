//! The TAS editor window's own state, kept by the app between frames (what the emulation
//! thread does not need): whether it is shown, the selection, a paint drag, the clipboard, the
//! marker and branch names typed, the branches' textures. `piano_roll.rs` and `branches.rs`
//! draw with it.

use std::collections::HashMap;
use std::ops::RangeInclusive;

use eframe::egui;
use gb_session::data::Pads;

use crate::emu::BranchView;

/// A drag in progress over button cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Paint {
    pub(super) mask: Pads,
    pub(super) from: u64,
    pub(super) to: u64,
    pub(super) on: bool,
}

/// The piano roll's own state (what the emulation thread does not need).
#[derive(Default)]
pub struct RollUi {
    /// The window is shown.
    pub open: bool,
    /// The editor was open at the last frame (opening it shows the window).
    pub(super) was_open: bool,
    /// Selected frames (anchor, other end).
    pub(super) selection: Option<(u64, u64)>,
    /// The selection the emulation thread was last told of (scripts see it).
    pub(super) told_selection: Option<(u64, u64)>,
    /// A selection drag over frame numbers is going on.
    pub(super) selecting: bool,
    pub(super) paint: Option<Paint>,
    pub(super) clipboard: Vec<Pads>,
    pub(super) marker_text: String,
    /// The cursor last drawn, to scroll to it when it moves.
    pub(super) shown_frame: Option<u64>,
    /// The rows last visible.
    pub(super) visible: std::ops::Range<usize>,
    /// The branches' pictures.
    pub(super) branches: BranchUi,
}

impl RollUi {
    /// The selected frames, or the cursor's frame.
    pub(super) fn selected(&self, cursor: u64) -> RangeInclusive<u64> {
        match self.selection {
            Some((a, b)) => a.min(b)..=a.max(b),
            None => cursor..=cursor,
        }
    }
}

/// The branches' textures and the name typed for the next one.
#[derive(Default)]
pub struct BranchUi {
    pub(super) textures: HashMap<(usize, u64), egui::TextureHandle>,
    pub(super) name: String,
}

impl BranchUi {
    pub(super) fn texture(
        &mut self,
        ctx: &egui::Context,
        i: usize,
        b: &BranchView,
    ) -> egui::TextureHandle {
        self.textures
            .entry((i, b.hash))
            .or_insert_with(|| {
                let size = [gb_core::screen::GAME.width, gb_core::screen::GAME.height];
                let image = if b.thumbnail.len() == size[0] * size[1] * 3 {
                    egui::ColorImage::from_rgb(size, &b.thumbnail)
                } else {
                    egui::ColorImage::filled(size, egui::Color32::BLACK)
                };
                ctx.load_texture(format!("branch {i}"), image, egui::TextureOptions::NEAREST)
            })
            .clone()
    }
}
