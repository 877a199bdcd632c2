//! [`ScriptFiles`]: the scripts the app loaded, in load order (their files, bundles and
//! session slots), the watcher that reloads them live, and the scripts panel they make.

use gb_session::{Session, Status};

use super::types::{ScriptEntry, ScriptRow};
use super::view::ScriptsView;
use crate::watcher::Watcher;

/// The scripts the app loaded, in load order, and the watcher that reloads them.
pub(crate) struct ScriptFiles {
    /// The scripts, in load order.
    pub(crate) entries: Vec<ScriptEntry>,
    /// Live reload's file watcher (None: the platform has none).
    pub(crate) watcher: Option<Watcher>,
}

impl ScriptFiles {
    /// No scripts, watching for changes where the platform can.
    pub(crate) fn new() -> ScriptFiles {
        ScriptFiles {
            entries: Vec::new(),
            watcher: Watcher::new().ok(),
        }
    }

    /// Forget every script (a new ROM's session has none).
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        if let Some(w) = &mut self.watcher {
            w.clear();
        }
    }

    /// The scripts panel and what the session's scripts ask of the window.
    pub(crate) fn view(&self, session: &Session) -> ScriptsView {
        ScriptsView {
            rows: self.rows(session),
            windows: session
                .windows()
                .filter(|(_, ui)| !ui.is_empty())
                .map(|(slot, ui)| (slot, ui.clone()))
                .collect(),
            wants_host_input: session.wants_host_input(),
        }
    }

    fn rows(&self, session: &Session) -> Vec<ScriptRow> {
        self.entries
            .iter()
            .map(|e| {
                let s = e
                    .slot
                    .and_then(|slot| session.scripts().find(|s| s.slot == slot));
                let (status, failed) = match s.map(|s| s.status()) {
                    None => ("disabled".to_owned(), false),
                    Some(Status::Running) => ("running".to_owned(), false),
                    Some(Status::Finished) => ("finished".to_owned(), false),
                    Some(Status::Failed(m)) => (format!("error: {m}"), true),
                };
                // On a linked pair's second Game Boy, the panel says so.
                let status = if e.player > 0 {
                    format!("player {}: {status}", e.player + 1)
                } else {
                    status
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
}
