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
