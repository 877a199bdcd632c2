//! [`ConsoleOut`]: what the emulation thread prints — the console's lines (bounded, shared
//! with the window without a copy while unchanged), the REPLs subscribed to them — and the
//! watched addresses whose changes it prints.

use std::sync::Arc;
use std::sync::mpsc::Sender;

use crate::console::command::Location;

/// Console lines kept for the window's panel.
const CONSOLE_KEEP: usize = 2000;

/// The console's lines, their subscribers, and the watches.
#[derive(Default)]
pub(crate) struct ConsoleOut {
    /// The lines, oldest first, at most [`CONSOLE_KEEP`].
    pub(crate) lines: Vec<String>,
    /// The copy of `lines` last published.
    pub(crate) shared: Arc<Vec<String>>,
    /// The REPLs that print every line said.
    pub(crate) subscribers: Vec<Sender<String>>,
    /// Watched addresses with their last values.
    pub(crate) watches: Vec<(Location, u8)>,
    /// Where a breakpoint stopped a live frame, not said yet.
    pub(crate) stop_note: Option<String>,
}

impl ConsoleOut {
    /// Print a line to the window's console and to every subscriber.
    pub(crate) fn say(&mut self, line: String) {
        self.subscribers.retain(|s| s.send(line.clone()).is_ok());
        self.keep(line);
    }

    /// Add a line to the window's console only (bounded).
    pub(crate) fn keep(&mut self, line: String) {
        self.lines.push(line);
        if self.lines.len() > CONSOLE_KEEP {
            let extra = self.lines.len() - CONSOLE_KEEP;
            self.lines.drain(..extra);
        }
    }

    /// The lines for the window: the same shared copy while they have not changed.
    pub(crate) fn view(&mut self) -> Arc<Vec<String>> {
        if self.shared.len() != self.lines.len() || self.shared.last() != self.lines.last() {
            self.shared = Arc::new(self.lines.clone());
        }
        Arc::clone(&self.shared)
    }
}
