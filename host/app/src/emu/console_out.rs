//! [`ConsoleOut`]: what the emulation thread prints — the console's lines (bounded, shared
//! with the window without a copy while unchanged), the REPLs subscribed to them — and the
//! watched addresses whose changes it prints.

use std::sync::Arc;
use std::sync::mpsc::Sender;

use super::view::ConsoleView;
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
    /// `lines` changed since `shared` was made.
    pub(crate) changed: bool,
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
        self.changed = true;
        if self.lines.len() > CONSOLE_KEEP {
            let extra = self.lines.len() - CONSOLE_KEEP;
            self.lines.drain(..extra);
        }
    }

    /// The console as the window shows it: the lines (the same shared copy while they have
    /// not changed) and the watches.
    pub(crate) fn view(&mut self) -> ConsoleView {
        if self.changed {
            self.shared = Arc::new(self.lines.clone());
            self.changed = false;
        }
        ConsoleView {
            lines: Arc::clone(&self.shared),
            watches: self.watches.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_line_on_a_full_console_is_published() {
        let mut out = ConsoleOut::default();
        for i in 0..CONSOLE_KEEP {
            out.keep(if i % 2 == 0 { "a" } else { "b" }.into());
        }
        let before = out.view().lines;
        assert!(
            Arc::ptr_eq(&before, &out.view().lines),
            "unchanged: same copy"
        );
        out.keep("b".into());
        let after = out.view().lines;
        assert_eq!(after.len(), CONSOLE_KEEP);
        assert_eq!(after[..], out.lines[..]);
        assert_ne!(after[..], before[..], "the oldest line left, all shifted");
    }
}
