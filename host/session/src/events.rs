//! The event log: every outside input to the session, stamped with the frame and cycle it
//! takes effect at. Replaying the log from any snapshot reproduces every later frame.
//!
//! An event belongs to frame `f` (counted from 0: the frame that runs after `f` frames have
//! completed) and to an absolute core cycle inside it. Events at or before the frame's first
//! cycle apply before the frame runs; later ones (sub-frame joypad changes, e.g. from a movie)
//! apply when the core reaches their cycle. Within a frame, events keep the order they were
//! logged in.

use gb_core::Buttons;

/// A hash of a script's source text (FNV-1a, 64-bit): names a version of a script.
pub type SourceHash = u64;

/// The FNV-1a hash of `text`.
pub fn source_hash(text: &str) -> SourceHash {
    crate::session::fnv1a(text.as_bytes())
}

/// One outside input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// The buttons the user holds from now on.
    Joypad(Buttons),
    /// A write from a console or cheat (not from a script: scripts are replayed instead).
    Poke {
        /// The address.
        addr: u16,
        /// The value written.
        value: u8,
    },
    /// A script is loaded into slot `slot` (a fresh VM), running the source with `hash`.
    ScriptLoad {
        /// The script's slot id (unique over the session).
        slot: u32,
        /// Its name, shown to the user (a file name).
        name: String,
        /// The version of the source it runs (the text is in the session's source store).
        hash: SourceHash,
        /// The API it is written for.
        flavor: crate::api::Flavor,
    },
    /// The script in `slot` re-runs a new version of its source on its current data.
    ScriptReload {
        /// The script's slot.
        slot: u32,
        /// The version it runs from now on.
        hash: SourceHash,
    },
    /// The script in `slot` is unloaded.
    ScriptUnload {
        /// The script's slot.
        slot: u32,
    },
    /// Play resumed after a rewind (the scripts' `on_rewind` hooks run).
    Resumed,
    /// The user loaded a state: the session's in-memory state number `index` (states are
    /// never changed once saved, so a replay loads the same bytes).
    LoadState {
        /// Which state.
        index: usize,
    },
    /// The `persist` table of the script in `slot` is set to `data` (encoded by
    /// `codec::encode_persist`); logged before a script a state file restarts is loaded, so it
    /// starts with the data it had.
    Persist {
        /// The script's slot (it may not be loaded yet).
        slot: u32,
        /// The encoded table.
        data: Vec<u8>,
    },
}

/// An event and when it happens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The frame it belongs to.
    pub frame: u64,
    /// The core cycle it applies at (at most the frame's first cycle: before the frame runs).
    pub cycle: u64,
    /// What happens.
    pub kind: EventKind,
}

/// All events since power-on, in order.
#[derive(Clone, Debug, Default)]
pub struct EventLog {
    events: Vec<Event>,
}

impl EventLog {
    /// A log holding `events` (sorted by frame and cycle, as [`EventLog::push`] keeps them;
    /// out-of-order events are moved forward the same way).
    pub fn from_events(events: Vec<Event>) -> EventLog {
        let mut log = EventLog::default();
        for e in events {
            log.push(e);
        }
        log
    }

    /// Append an event. It must not be earlier than the last one (the session only logs at
    /// the present); an earlier one is moved to the present's frame.
    pub fn push(&mut self, mut event: Event) {
        if let Some(last) = self.events.last()
            && (event.frame, event.cycle) < (last.frame, last.cycle)
        {
            event.frame = last.frame;
            event.cycle = event.cycle.max(last.cycle);
        }
        self.events.push(event);
    }

    /// The events of frame `frame`, in order.
    pub fn frame(&self, frame: u64) -> &[Event] {
        let start = self.events.partition_point(|e| e.frame < frame);
        let end = self.events.partition_point(|e| e.frame <= frame);
        &self.events[start..end]
    }

    /// Forget the events of frame `frame` and later (the future, when resuming after a seek).
    pub fn truncate_from(&mut self, frame: u64) {
        let start = self.events.partition_point(|e| e.frame < frame);
        self.events.truncate(start);
    }

    /// The buttons the user held at the start of frame `frame` (the last joypad event before it).
    pub fn buttons_before(&self, frame: u64) -> Buttons {
        let end = self.events.partition_point(|e| e.frame < frame);
        self.events[..end]
            .iter()
            .rev()
            .find_map(|e| match e.kind {
                EventKind::Joypad(b) => Some(b),
                _ => None,
            })
            .unwrap_or_default()
    }

    /// Every event, in order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Number of events.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether no event was logged.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joy(frame: u64, b: u8) -> Event {
        Event {
            frame,
            cycle: frame * 70224,
            kind: EventKind::Joypad(Buttons(b)),
        }
    }

    #[test]
    fn frames_slice_and_truncate() {
        let mut log = EventLog::default();
        for f in [1, 1, 3, 7] {
            log.push(joy(f, f as u8));
        }
        assert_eq!(log.frame(1).len(), 2);
        assert_eq!(log.frame(2).len(), 0);
        assert_eq!(log.frame(7)[0].kind, EventKind::Joypad(Buttons(7)));
        assert_eq!(log.buttons_before(7), Buttons(3));
        assert_eq!(log.buttons_before(1), Buttons(0));
        log.truncate_from(3);
        assert_eq!(log.len(), 2);
        assert_eq!(log.buttons_before(100), Buttons(1));
    }

    #[test]
    fn a_late_event_moves_to_the_present() {
        let mut log = EventLog::default();
        log.push(joy(5, 1));
        log.push(joy(2, 2));
        assert_eq!(log.events()[1].frame, 5);
        assert_eq!(log.frame(5).len(), 2);
    }
}
