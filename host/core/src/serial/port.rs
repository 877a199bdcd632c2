//! One Game Boy's end of a link cable ([`LinkPort`]): the clock edges it gave the other side
//! and the ones it was given, the history of its SB (what its serial-out line carried when),
//! and the view it has of the other side's line while it runs ([`crate::link`] has the rules
//! that make this exact).

use std::collections::VecDeque;

use crate::state::{Reader, StateError, Writer};

/// Most clock edges one side can have waiting for the other (at the fast clock a side runs at
/// most a few frames ahead: 8 edges per byte, and it stops at each byte's start).
const MAX_EDGES: usize = 4096;
/// Most SB changes kept in a history (the driver trims it at every step).
const MAX_LOG: usize = 4096;

/// A clock edge of the clocking side's shift register, for the other side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Edge {
    /// When it happened (dots since power-on: both sides' clocks count from the same moment).
    pub(crate) time: u64,
    /// The bit the clocking side shifted out (its SB bit 7): the other side shifts it in.
    pub(crate) bit: bool,
    /// The bit the clocking side took as the other side's line at `time`.
    pub(crate) assumed: bool,
    /// `assumed` was predicted from the other side's state before `time` (it was behind), not
    /// read from its history: the other side checks it when it gets there.
    pub(crate) predicted: bool,
}

/// What a side knows, while it runs, of the other side's serial-out line (set by the driver
/// before each run).
#[derive(Clone, Debug, Default)]
pub(crate) struct PeerLine {
    /// The other side's SB history up to `known_until`: (time, SB from then on), oldest
    /// first; the first entry holds at every time before the second.
    pub(crate) history: Vec<(u64, u8)>,
    /// The other side's clock when this run started: its line is known up to here.
    pub(crate) known_until: u64,
    /// Beyond `known_until`: the other side's SB as it will be, if it is waiting for this
    /// side's clock (armed on the external clock) and changes it only by shifting.
    pub(crate) predicted_sb: u8,
    /// Bits the other side still shifts in before its byte is complete (0: not waiting).
    pub(crate) predicted_bits: u8,
}

impl PeerLine {
    /// The other side's serial-out line at `time`, and whether it was predicted: the bit 7
    /// of its SB as last changed before `time`.
    fn line_at(&mut self, time: u64, shifted_out: bool) -> (bool, bool) {
        if time <= self.known_until {
            let sb = self
                .history
                .iter()
                .take_while(|(t, _)| *t < time)
                .last()
                .or(self.history.first())
                .map_or(0xFF, |(_, sb)| *sb);
            return (sb & 0x80 != 0, false);
        }
        let line = self.predicted_sb & 0x80 != 0;
        if self.predicted_bits > 0 {
            self.predicted_sb = (self.predicted_sb << 1) | u8::from(shifted_out);
            self.predicted_bits -= 1;
        }
        (line, true)
    }
}

/// One side's end of a link cable to another Game Boy.
#[derive(Clone, Debug, Default)]
pub struct LinkPort {
    /// Clock edges this side gave (internal clock) that the other side has not been handed.
    pub(crate) sent: Vec<Edge>,
    /// Clock edges the other side gave, oldest first, not yet reached.
    pub(crate) received: VecDeque<Edge>,
    /// This side's SB history since the driver last trimmed it: (time, SB from then on).
    pub(crate) log: Vec<(u64, u8)>,
    /// The other side's line as this side sees it while it runs.
    pub(crate) peer: PeerLine,
    /// Bits left to shift in the byte this side waits for on the external clock (0: not
    /// waiting).
    pub(crate) bits_left: u8,
    /// When this side last armed a transfer on the external clock: edges before it find it
    /// not waiting.
    pub(crate) armed_at: u64,
    /// The run loop should stop after this instruction: this side started a transfer on its
    /// own clock or began waiting for the other's (the driver then decides who runs).
    pub(crate) stop: bool,
    /// Diagnostics, not state: edges whose predicted line turned out wrong, and edges that
    /// reached a waiting side after its clock had passed them.
    pub(crate) inexact: Inexact,
}

/// Exchanges that were not exact (see [`LinkPort`]); 0 in every case the driver's rules
/// cover.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inexact {
    /// The line a clocking side predicted for the other was not what the other sent.
    pub mispredicted: u64,
    /// An edge reached a waiting side after its clock had passed it (applied late).
    pub late: u64,
}

impl LinkPort {
    /// The time of the next received edge, `u64::MAX` when none waits.
    pub(crate) fn next_event(&self) -> u64 {
        self.received.front().map_or(u64::MAX, |e| e.time)
    }

    /// Record that SB became `sb` at `time`.
    pub(crate) fn logged(&mut self, time: u64, sb: u8) {
        if self.log.len() >= MAX_LOG {
            self.log.drain(..MAX_LOG / 2);
        }
        self.log.push((time, sb));
    }

    /// This side clocks an edge at `time`, shifting out `out`: the bit it shifts in (the other
    /// side's line at `time`); the edge is kept for the other side.
    pub(crate) fn clock(&mut self, time: u64, out: bool) -> bool {
        let (line, predicted) = self.peer.line_at(time, out);
        if self.sent.len() < MAX_EDGES {
            self.sent.push(Edge {
                time,
                bit: out,
                assumed: line,
                predicted,
            });
        }
        line
    }

    /// Take a received edge due by `now`.
    pub(crate) fn take_due(&mut self, now: u64) -> Option<Edge> {
        if self.received.front().is_some_and(|e| e.time <= now) {
            self.received.pop_front()
        } else {
            None
        }
    }

    /// Forget the edges and histories (the cable is unplugged or plugged in).
    pub(crate) fn reset(&mut self, sb: u8, now: u64) {
        *self = LinkPort {
            log: vec![(now, sb)],
            inexact: self.inexact,
            ..LinkPort::default()
        };
    }

    /// Drop the history before `time`, keeping the entry that holds at `time`.
    pub(crate) fn trim(&mut self, time: u64) {
        if let Some(i) = self.log.iter().rposition(|(t, _)| *t < time)
            && i > 0
        {
            self.log.drain(..i);
        }
    }

    /// Append the port's part of a linked pair's image.
    pub(crate) fn save_state(&self, w: &mut Writer<'_>) {
        let edges = |w: &mut Writer<'_>, list: &mut dyn Iterator<Item = &Edge>| {
            let list: Vec<&Edge> = list.collect();
            w.u32(list.len() as u32);
            for e in list {
                w.u64(e.time);
                w.u8(u8::from(e.bit) | u8::from(e.assumed) << 1 | u8::from(e.predicted) << 2);
            }
        };
        edges(w, &mut self.sent.iter());
        edges(w, &mut self.received.iter());
        w.u32(self.log.len() as u32);
        for (t, sb) in &self.log {
            w.u64(*t);
            w.u8(*sb);
        }
        w.u8(self.bits_left);
        w.u64(self.armed_at);
        w.bool(self.stop);
    }

    /// Read the port's part of a linked pair's image.
    pub(crate) fn load_state(r: &mut Reader<'_>) -> Result<LinkPort, StateError> {
        fn edges(r: &mut Reader<'_>) -> Result<Vec<Edge>, StateError> {
            let n = r.u32()? as usize;
            if n > MAX_EDGES {
                return Err(StateError::Invalid("link edges"));
            }
            let mut out = Vec::with_capacity(n);
            for _ in 0..n {
                let time = r.u64()?;
                let flags = r.below(8, "link edge flags")?;
                out.push(Edge {
                    time,
                    bit: flags & 1 != 0,
                    assumed: flags & 2 != 0,
                    predicted: flags & 4 != 0,
                });
            }
            Ok(out)
        }
        let sent = edges(r)?;
        let received = edges(r)?.into();
        let n = r.u32()? as usize;
        if n > MAX_LOG {
            return Err(StateError::Invalid("link history"));
        }
        let mut log = Vec::with_capacity(n);
        for _ in 0..n {
            log.push((r.u64()?, r.u8()?));
        }
        Ok(LinkPort {
            sent,
            received,
            log,
            peer: PeerLine::default(),
            bits_left: r.below(9, "link bit count")?,
            armed_at: r.u64()?,
            stop: r.bool()?,
            inexact: Inexact::default(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_is_read_from_the_history_before_the_time_asked() {
        let mut peer = PeerLine {
            history: vec![(0, 0x00), (100, 0x80), (200, 0x00)],
            known_until: 300,
            ..PeerLine::default()
        };
        assert_eq!(peer.line_at(50, true), (false, false));
        // A change at the very time comes after the edge.
        assert_eq!(peer.line_at(100, true), (false, false));
        assert_eq!(peer.line_at(101, true), (true, false));
        assert_eq!(peer.line_at(250, true), (false, false));
    }

    #[test]
    fn beyond_the_history_a_waiting_side_is_predicted_to_shift() {
        let mut peer = PeerLine {
            history: vec![(0, 0xA5)],
            known_until: 10,
            predicted_sb: 0b1010_0000,
            predicted_bits: 2,
        };
        assert_eq!(peer.line_at(20, false), (true, true));
        assert_eq!(peer.line_at(30, true), (false, true));
        // Two bits shifted: 1010_0000 -> 0100_0000 -> 1000_0001; no more shifting after.
        assert_eq!(peer.predicted_sb, 0b1000_0001);
        assert_eq!(peer.line_at(40, false), (true, true));
        assert_eq!(peer.predicted_sb, 0b1000_0001);
    }

    #[test]
    fn a_port_round_trips_through_the_image() {
        let mut p = LinkPort::default();
        p.logged(5, 0x12);
        p.clock(7, true);
        p.received.push_back(Edge {
            time: 9,
            bit: false,
            assumed: true,
            predicted: true,
        });
        p.bits_left = 3;
        p.armed_at = 4;
        let mut out = Vec::new();
        p.save_state(&mut Writer::new(&mut out, crate::state::VERSION));
        let q = LinkPort::load_state(&mut Reader::new(&out)).expect("loads");
        assert_eq!((q.sent, q.received, q.log), (p.sent, p.received, p.log));
        assert_eq!((q.bits_left, q.armed_at), (3, 4));
    }
}
