//! [`Timeline`]: where a session is in time and what brought it there: the frame count, the
//! event log of every outside input, the rewind history that captures each frame, whether a
//! replay is running, and the figures of the last captures and replays ([`Stats`]).
//!
//! Invariant: the log is the only source of outside input; the frame loop applies it live and
//! on replays alike. Events enter it only through the session's `input.rs`.

use crate::events::EventLog;
use crate::rewind::History;
use crate::rewind::history::Capture;

/// Timing and size figures of the last frames.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Time the last capture took, in nanoseconds.
    pub capture_ns: u64,
    /// Bytes the last capture made final in the ring (a keyframe record, the batch of diff
    /// records it sealed; see `History`'s `Capture::bytes`: an open diff record counts when
    /// its batch is sealed).
    pub record_bytes: usize,
    /// Of those, the core's parts and the record's framing (all but the scripts' parts).
    pub record_core_bytes: usize,
    /// Whether the last record was a keyframe.
    pub record_keyframe: bool,
    /// Replayed frames that did not match their record (the desync check).
    pub desyncs: u64,
    /// Frames replayed by seeks and checks.
    pub replayed: u64,
}

/// The session's position on its timeline, its log and its history.
#[derive(Debug)]
pub(crate) struct Timeline {
    /// Frames completed: the position on the timeline.
    pub(crate) frame: u64,
    /// Every outside input, by frame and cycle.
    pub(crate) log: EventLog,
    /// The rewind history (ring and cursor).
    pub(crate) history: History,
    /// A replay is running: its console output is dropped.
    pub(crate) replaying: bool,
    /// Timing and size figures.
    pub(crate) stats: Stats,
}

impl Timeline {
    /// At frame 0 with an empty log, over `history`.
    pub(crate) fn new(history: History) -> Timeline {
        Timeline {
            frame: 0,
            log: EventLog::default(),
            history,
            replaying: false,
            stats: Stats::default(),
        }
    }

    /// Whether the session stands before the newest frame its history holds (rewound: the
    /// recorded future is still there).
    pub(crate) fn rewound(&self) -> bool {
        self.history
            .frames()
            .is_some_and(|(_, last)| last > self.frame)
    }

    /// Keep the figures of a capture that took `ns` nanoseconds.
    pub(crate) fn captured(&mut self, c: &Capture, ns: u64) {
        self.stats.capture_ns = ns;
        self.stats.record_bytes = c.bytes;
        self.stats.record_core_bytes = c.core_bytes;
        self.stats.record_keyframe = c.keyframe;
    }
}
