//! What the window sees: the [`View`] built from each part's view after every change,
//! published into the shared mutex, then the window's repaint is asked for.

use std::sync::Arc;

use gb_session::Session;

use super::machine::Emu;
use super::video_state::VideoView;
use super::view::{ScreenView, SecondView, TimelineView, View};

/// DMG shades (lightest first) as the window shows them: the DMG's green.
pub const DMG_GREEN: [[u8; 3]; 4] = [
    [0xE0, 0xF8, 0xD0],
    [0x88, 0xC0, 0x70],
    [0x34, 0x68, 0x56],
    [0x08, 0x18, 0x20],
];

impl Emu {
    /// Build the view and hand it to the window.
    pub(crate) fn publish(&mut self) {
        if let Some(note) = self.console.stop_note.take() {
            self.say(note);
        }
        let editor = self.editor_view();
        let (movie, movie_info) = self.movie.view();
        let gb = self.session.gb();
        let view = View {
            screen: screen_view(&self.session, self.settings.correction),
            timeline: timeline_view(&self.session, self.settings.ring_bytes),
            pacing: self.pacing.view(),
            game: self.game.view(&self.settings),
            console: self.console.view(),
            memory: self.viewers.memory(gb),
            scripts: self.scripts.view(&self.session),
            movie,
            movie_info,
            editor,
            tools: self.tools_view(),
            debug: self.viewers.shown.debugger.then(|| self.debug_view()),
            video: self
                .viewers
                .shown
                .video
                .then(|| Arc::new(VideoView::capture(gb, self.session.frame()))),
            quit: self.link.quit,
        };
        self.link.publish(view);
    }
}

/// The machine's picture (in `correction`'s colours), the scripts' overlays, and what the
/// game sees.
fn screen_view(session: &Session, correction: gb_core::ColorCorrection) -> ScreenView {
    let gb = session.gb();
    ScreenView {
        picture: session.picture().to_rgb888_with(&DMG_GREEN, correction),
        overlays: overlays(session, 0),
        model: gb.model(),
        input: gb.buttons(),
        lag_frames: gb.lag_frames(),
        lagged: gb.lagged(),
        second: session.machine().pair().map(|pair| SecondView {
            picture: pair.picture(1).to_rgb888_with(&DMG_GREEN, correction),
            input: pair.gb(1).buttons(),
            plugged: pair.plugged(),
            overlays: overlays(session, 1),
        }),
    }
}

/// The overlays of the scripts on `player`'s Game Boy, by slot.
fn overlays(session: &Session, player: usize) -> Vec<(u32, Vec<gb_session::DrawCmd>)> {
    session
        .draw_lists_of(player)
        .map(|(slot, list)| (slot, list.to_vec()))
        .collect()
}

/// The timeline position and the history of a ring of `ring_bytes`.
fn timeline_view(session: &Session, ring_bytes: usize) -> TimelineView {
    TimelineView {
        frame: session.frame(),
        history: session.history().frames(),
        history_bytes: session.history().used_bytes(),
        ring_bytes,
        desyncs: session.stats().desyncs,
    }
}
