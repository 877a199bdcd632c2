//! What the window sees: the [`View`] built from the session after every change (picture,
//! overlays, timeline, scripts' rows, console, memory window, movie), published into the
//! shared mutex, then the window's repaint is asked for.

use std::sync::Arc;
use std::time::{Duration, Instant};

use gb_session::Status;

use super::machine::{Emu, FRAME};
use super::types::{ScriptRow, View};
use super::video_state::VideoView;

/// DMG shades (lightest first) as the window shows them: the DMG's green.
pub const DMG_GREEN: [[u8; 3]; 4] = [
    [0xE0, 0xF8, 0xD0],
    [0x88, 0xC0, 0x70],
    [0x34, 0x68, 0x56],
    [0x08, 0x18, 0x20],
];

impl Emu {
    fn script_rows(&self) -> Vec<ScriptRow> {
        self.scripts
            .iter()
            .map(|e| {
                let s = e
                    .slot
                    .and_then(|slot| self.session.scripts().find(|s| s.slot == slot));
                let (status, failed) = match s.map(|s| s.status()) {
                    None => ("disabled".to_owned(), false),
                    Some(Status::Running) => ("running".to_owned(), false),
                    Some(Status::Finished) => ("finished".to_owned(), false),
                    Some(Status::Failed(m)) => (format!("error: {m}"), true),
                };
                let arena = s.map(|s| s.arena());
                ScriptRow {
                    name: e.name.clone(),
                    path: e.path.clone(),
                    enabled: e.slot.is_some(),
                    status,
                    failed,
                    reloaded_at: e.reloaded_at,
                    arena_used: arena.as_ref().map_or(0, |a| a.used),
                    arena_cap: arena.as_ref().map_or(0, |a| a.capacity),
                    frame_us: s.map_or(0.0, |s| s.frame_time_ns() as f64 / 1000.0),
                }
            })
            .collect()
    }

    /// Build the view and hand it to the window.
    pub(crate) fn publish(&mut self) {
        if let Some(note) = self.stop_note.take() {
            self.say(note);
        }
        let elapsed = self.fps_since.elapsed();
        if elapsed >= Duration::from_millis(500) {
            self.fps = f64::from(self.fps_count) / elapsed.as_secs_f64();
            self.fps_count = 0;
            self.fps_since = Instant::now();
        }
        let editor = self.editor_view();
        let movie_info = self.movie_info_view();
        let gb = self.session.gb();
        let (domain, start, len) = self.mem_window;
        let (bytes, size): (Vec<u8>, usize) = match domain {
            None => (
                (0..len)
                    .map(|i| gb.peek((start.wrapping_add(i) & 0xFFFF) as u16))
                    .collect(),
                0x10000,
            ),
            Some(d) => {
                let all = gb.domain(d);
                let from = (start as usize).min(all.len());
                let to = (from + len as usize).min(all.len());
                (all[from..to].to_vec(), all.len())
            }
        };
        let view = View {
            picture: self
                .session
                .picture()
                .to_rgb888_with(&DMG_GREEN, self.correction),
            overlays: self
                .session
                .draw_lists()
                .map(|(slot, list)| (slot, list.to_vec()))
                .collect(),
            frame: self.session.frame(),
            history: self.session.history().frames(),
            history_bytes: self.session.history().used_bytes(),
            ring_bytes: self.ring_bytes,
            fps: self.fps,
            speed: self.fps / (1.0 / FRAME.as_secs_f64()),
            paused: self.paused,
            rewinding: self.rewind > 0,
            speed_mode: self.speed,
            title: self.title.clone(),
            model: self.session.gb().model(),
            model_choice: self.power.model.unwrap_or_default(),
            correction: self.correction,
            dmg_palette: self.power.dmg_palette,
            force: self.power.force,
            scripts: self.script_rows(),
            console: {
                if self.lines_shared.len() != self.lines.len()
                    || self.lines_shared.last() != self.lines.last()
                {
                    self.lines_shared = Arc::new(self.lines.clone());
                }
                Arc::clone(&self.lines_shared)
            },
            memory: (domain, start, bytes, size),
            watches: self.watches.clone(),
            desyncs: self.session.stats().desyncs,
            movie: self.tas.as_ref().map(|t| t.view()),
            editor,
            lag_frames: gb.lag_frames(),
            lagged: gb.lagged(),
            input: gb.buttons(),
            windows: self
                .session
                .windows()
                .filter(|(_, ui)| !ui.is_empty())
                .map(|(slot, ui)| (slot, ui.clone()))
                .collect(),
            rom_notes: self.rom_notes.clone(),
            movie_info,
            wants_host_input: self.session.wants_host_input(),
            tools: self.tools_view(),
            debug: self.shown.debugger.then(|| self.debug_view()),
            video: self
                .shown
                .video
                .then(|| Arc::new(VideoView::capture(gb, self.session.frame()))),
            quit: self.quit,
        };
        *self.shared.lock().unwrap_or_else(|e| e.into_inner()) = view;
        if let Some(f) = &self.on_publish {
            f();
        }
    }
}
