//! The event log: every outside input to the session, stamped with the frame and cycle it
//! takes effect at. Replaying the log from any snapshot reproduces every later frame.
//!
//! An event belongs to frame `f` (counted from 0: the frame that runs after `f` frames have
//! completed) and to an absolute core cycle inside it. Events at or before the frame's first
//! cycle apply before the frame runs; later ones (sub-frame joypad changes, e.g. from a movie)
//! apply when the core reaches their cycle. Within a frame, events keep the order they were
//! logged in.

use gb_core::Buttons;

pub use crate::data::{Event, EventKind};

/// All events since power-on, in order.
#[derive(Clone, Debug, Default)]
pub struct EventLog {
    events: Vec<Event>,
    /// Where the script loads and reloads are in `events` (a step back looks up the source
    /// version of each script without a walk through every joypad event).
    script_events: Vec<usize>,
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
        if matches!(
            event.kind,
            EventKind::ScriptLoad { .. } | EventKind::ScriptReload { .. }
        ) {
            self.script_events.push(self.events.len());
        }
        self.events.push(event);
    }

    /// The events that load or reload a script, in order.
    pub fn script_events(&self) -> impl DoubleEndedIterator<Item = &Event> {
        self.script_events.iter().map(|&i| &self.events[i])
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
        while self.script_events.last().is_some_and(|&i| i >= start) {
            self.script_events.pop();
        }
    }

    /// Forget the events after cycle `cycle` of frame `frame`, and every later frame's (the
    /// future, when new input comes while a debugger holds a replayed frame midway).
    pub fn truncate_after_cycle(&mut self, frame: u64, cycle: u64) {
        let start = self
            .events
            .partition_point(|e| (e.frame, e.cycle) <= (frame, cycle));
        self.events.truncate(start);
        while self.script_events.last().is_some_and(|&i| i >= start) {
            self.script_events.pop();
        }
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

    /// The buttons later player `player` (1: the second) holds at the start of `frame`.
    pub fn player_buttons_before(&self, frame: u64, player: u8) -> Buttons {
        let end = self.events.partition_point(|e| e.frame < frame);
        self.events[..end]
            .iter()
            .rev()
            .find_map(|e| match e.kind {
                EventKind::PlayerJoypad { player: p, buttons } if p == player => Some(buttons),
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
    fn script_events_follow_pushes_and_truncation() {
        let load = |frame, slot| Event {
            frame,
            cycle: 0,
            kind: EventKind::ScriptReload {
                slot,
                hash: Default::default(),
            },
        };
        let mut log = EventLog::default();
        for f in 0..10 {
            log.push(joy(f, 1));
            if f % 3 == 0 {
                log.push(load(f, f as u32));
            }
        }
        let slots = |log: &EventLog| -> Vec<u64> { log.script_events().map(|e| e.frame).collect() };
        assert_eq!(slots(&log), [0, 3, 6, 9]);
        log.truncate_from(6);
        assert_eq!(slots(&log), [0, 3]);
        log.push(load(7, 1));
        assert_eq!(slots(&log), [0, 3, 7]);
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
