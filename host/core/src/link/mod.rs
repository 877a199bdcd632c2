//! Two Game Boys on a link cable ([`Pair`]), stepped deterministically so that every bit
//! crosses the cable at the cycle the clocking side shifts it (Pan Docs "Serial Data
//! Transfer"; the rules are in `docs/timing.md`, "Link cable").
//!
//! **What couples the two machines.** Only the serial lines: at each edge of the clocking
//! side's shift clock it shifts out its SB bit 7 and shifts in the other side's line (that
//! side's SB bit 7 at that moment); the other side, if it waits for a byte on the external
//! clock (SC = $80), shifts the clocking side's bit in at the same moment, and completes on
//! the eighth edge. Nothing else of one machine is visible to the other.
//!
//! **How the pair steps.** Each side runs alone, whole instructions at a time, on its own
//! clock (dots since power-on: both count from the same moment). The side that is behind runs
//! next, up to a bound that keeps both directions exact:
//! - A side's line at an edge is read from its SB history when it has already run past the
//!   edge (it logs every SB change with its time), and is predicted when it is behind but
//!   waits for a byte (it then changes SB only by shifting); the prediction is checked when
//!   the waiting side reaches the edge.
//! - A clocking side runs only up to the other side's clock, unless the other side waits (so
//!   that its line is known: history, or the prediction).
//! - A waiting side runs only up to the other side's clock and stops before the other side's
//!   next edge, so that every edge reaches it before its clock passes it.
//! - A side stops whenever it starts a transfer or begins to wait (an SC write), so that the
//!   bound is chosen again.
//! - When both wait, the side behind runs on to the goal, kept as it was first: should the
//!   other then start clocking with an edge the first has already run past, the first is
//!   put back and runs again (one copy of a machine a turn, never a visible rewind).
//!
//! Where a side's instruction straddles an edge those rules cannot split, the exchange is
//! counted in [`Inexact`]; the tests assert it stays 0.

pub use crate::serial::{Inexact, LinkPort, PAPER_WIDTH, Paper, Printer};

use crate::frame::Frame;
use crate::gb::Gb;
use crate::serial::Device;
use crate::state::{Reader, StateError, Writer};

/// The longest instruction or interrupt dispatch, in dots (6 M-cycles at normal speed): how
/// far past a bound a side may run before it stops.
const MAX_INSTRUCTION: u64 = 24;
/// Magic bytes at the start of a pair's image.
pub const PAIR_MAGIC: [u8; 4] = *b"GBln";
/// Format version of a pair's image.
pub const PAIR_VERSION: u16 = 1;

/// Why a pair's state image cannot be loaded.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PairStateError {
    /// Not a pair's image (a single machine's state, or something else).
    #[error("not a linked pair's state (a single Game Boy's state cannot load into a pair)")]
    NotAPair,
    /// A part of the image is wrong.
    #[error("linked pair's state, player {player}: {error}")]
    Player {
        /// Which player's part (1 or 2).
        player: usize,
        /// What is wrong with it.
        error: StateError,
    },
    /// The cable's part is wrong.
    #[error("linked pair's state, the cable: {0}")]
    Cable(StateError),
}

/// A side as it was before it ran ahead while both waited (taken back if the other side's
/// edge then falls in the part it ran): its state image, its last picture and frame count,
/// how much output it had made, and the run's goal and whether the first player's frame had
/// ended. Kept between runs so that its buffers are reused.
#[derive(Clone, Debug, Default)]
struct Before {
    image: Vec<u8>,
    /// Its link port (not in the image).
    port: LinkPort,
    picture: Frame,
    frames_ended: u32,
    outputs: (usize, usize),
    ended: bool,
    goal: u64,
    /// Holds a side's moment (else it is a spare).
    held: bool,
}

/// One side of the pair.
#[derive(Clone, Debug)]
struct Player {
    gb: Gb,
    /// Its last completed frame.
    picture: Frame,
    /// Frames it completed since the caller last asked ([`Pair::take_frames_ended`]).
    frames_ended: u32,
}

/// Two Game Boys and the cable between them.
#[derive(Clone, Debug)]
pub struct Pair {
    players: [Player; 2],
    /// The cable joins them (unplugged, each side's other end is nothing).
    plugged: bool,
    /// Turns run so far (a diagnostic for benchmarks, not state).
    turns: u64,
    /// Runs ahead taken back (a diagnostic, not state; see [`Pair::passed_by_an_edge`]).
    reruns: u64,
    /// Each side as it was before it ran ahead while both waited (within one
    /// [`Pair::run_until`]).
    before: [Before; 2],
}

impl Pair {
    /// Two machines joined by a plugged-in cable.
    pub fn new(first: Gb, second: Gb) -> Pair {
        let player = |gb: Gb| Player {
            gb,
            picture: Frame::default(),
            frames_ended: 0,
        };
        let mut pair = Pair {
            players: [player(first), player(second)],
            plugged: false,
            turns: 0,
            reruns: 0,
            before: Default::default(),
        };
        pair.set_plugged(true);
        pair
    }

    /// Player `p`'s Game Boy (0 or 1).
    pub fn gb(&self, p: usize) -> &Gb {
        &self.players[p].gb
    }

    /// Player `p`'s Game Boy, to change (input, pokes).
    pub fn gb_mut(&mut self, p: usize) -> &mut Gb {
        &mut self.players[p].gb
    }

    /// Player `p`'s Game Boy and the other player's, both to change at once (`p` is 0 or 1).
    pub fn gb_and_other_mut(&mut self, p: usize) -> (&mut Gb, &mut Gb) {
        let [first, second] = &mut self.players;
        if p == 0 {
            (&mut first.gb, &mut second.gb)
        } else {
            (&mut second.gb, &mut first.gb)
        }
    }

    /// Player `p`'s last completed frame.
    pub fn picture(&self, p: usize) -> &Frame {
        &self.players[p].picture
    }

    /// Player `p`'s last completed frame, to change (a state file's thumbnail).
    pub fn picture_mut(&mut self, p: usize) -> &mut Frame {
        &mut self.players[p].picture
    }

    /// How many frames player `p` completed since the last call (0, 1, rarely 2).
    pub fn take_frames_ended(&mut self, p: usize) -> u32 {
        std::mem::take(&mut self.players[p].frames_ended)
    }

    /// The pair's clock: the first player's T-cycles since power-on.
    pub fn cycles(&self) -> u64 {
        self.players[0].gb.cycles()
    }

    /// Whether the cable is plugged in.
    pub fn plugged(&self) -> bool {
        self.plugged
    }

    /// Plug the cable in or pull it out (a transfer in flight goes on with nothing at the
    /// other end: 1s on the internal clock, no edges on the external one).
    pub fn set_plugged(&mut self, on: bool) {
        self.plugged = on;
        for p in &mut self.players {
            let now = p.gb.cycles();
            let sb = p.gb.serial().read_sb();
            let inexact = p.gb.serial().port().map(|port| port.inexact);
            let device = if on {
                let mut port = LinkPort::default();
                port.reset(sb, now);
                port.inexact = inexact.unwrap_or_default();
                Device::Link(Box::new(port))
            } else {
                Device::Nothing
            };
            p.gb.serial_mut().set_device(device);
            p.gb.serial_changed();
        }
    }

    /// Turns the pair ran so far: runs of one side between two decisions of who runs (a
    /// diagnostic: two a frame when the cable is quiet).
    pub fn turns(&self) -> u64 {
        self.turns
    }

    /// How many times a side that ran ahead while both waited was put back because the
    /// other side's edge fell in the part it ran (a diagnostic).
    pub fn reruns(&self) -> u64 {
        self.reruns
    }

    /// Exchanges that were not exact since the pair was made (both sides together).
    pub fn inexact(&self) -> Inexact {
        let mut sum = Inexact::default();
        for p in &self.players {
            if let Some(port) = p.gb.serial().port() {
                sum.mispredicted += port.inexact.mispredicted;
                sum.late += port.inexact.late;
            }
        }
        sum
    }

    /// Run until the pair's clock reaches `due` (the next input event's cycle), or the first
    /// player's frame ends when there is none; the second player runs to the same moment
    /// (its own frames end on its own; see [`Pair::take_frames_ended`]). True if the first
    /// player's frame ended.
    pub fn run_until(&mut self, due: Option<u64>) -> bool {
        let mut goal = due.unwrap_or(u64::MAX);
        let mut ended = false;
        self.before[0].held = false;
        self.before[1].held = false;
        loop {
            for x in 0..2 {
                if self.passed_by_an_edge(x) {
                    // Its run went past an edge the other side makes: run it again from
                    // before, so the edge reaches it in time.
                    self.take_back(x);
                    if x == 0 {
                        (ended, goal) = (self.before[0].ended, self.before[0].goal);
                    }
                }
            }
            self.hand_over();
            let t = [self.players[0].gb.cycles(), self.players[1].gb.cycles()];
            if t[0] >= goal && t[1] >= goal {
                return ended;
            }
            let behind = usize::from(t[1] < t[0]);
            let (who, bound, ahead) = self.plan(behind, goal);
            if ahead {
                self.keep_before(who, ended, goal);
            }
            self.show_peer(who);
            self.turns += 1;
            let player = &mut self.players[who];
            if player.gb.run_link_slice(bound) {
                player.gb.swap_frame(&mut player.picture);
                player.frames_ended += 1;
                if who == 0 && !ended {
                    ended = true;
                    goal = goal.min(player.gb.cycles());
                }
            }
        }
    }

    /// Who runs next, up to when, and whether it runs ahead of the other while both wait
    /// (kept as it was first, see [`Pair::passed_by_an_edge`]): `x` is behind (see the
    /// module's rules). The bound is at or before the goal (a sub-frame input applies there)
    /// unless the side that runs has reached it already (it must run on a little for the
    /// other to move).
    fn plan(&self, x: usize, goal: u64) -> (usize, u64, bool) {
        let y = 1 - x;
        let t = [self.players[0].gb.cycles(), self.players[1].gb.cycles()];
        let (who, bound) = match self.bound(x, y, false) {
            Some(b) if b > t[x] => (x, b),
            _ => match self.bound(y, x, true) {
                // The side ahead goes on (to its next edge, or its own bound).
                Some(b) if b > t[y] => (y, b),
                // Both wait: the one behind runs on to the goal.
                _ if self.waits(x) && self.waits(y) => (x, u64::MAX),
                // Both clock, level: one instruction at a time.
                _ => (x, t[x].max(t[y]) + 1),
            },
        };
        let bound = if t[who] < goal {
            bound.min(goal)
        } else {
            // Past the goal only as far as the other side needs: its next edge, or past the
            // one it is about to make (both within an instruction or two).
            bound.min(t[who] + 2 * MAX_INSTRUCTION).max(t[who] + 1)
        };
        let ahead = self.plugged && self.waits(x) && self.waits(y) && bound > t[y];
        (who, bound, ahead)
    }

    /// Whether side `p` waits for a byte on the external clock.
    fn waits(&self, p: usize) -> bool {
        self.players[p].gb.serial().waits_for_byte()
    }

    /// Side `x`, run ahead while both waited (held in `before[x]` as it was), and the other
    /// side since: true when an edge of the other side (made, or the next one due) falls at
    /// or before `x`'s clock, which passed it unseen; what is held is let go once the other
    /// side has caught up (its edges can then only come later).
    fn passed_by_an_edge(&mut self, x: usize) -> bool {
        if !self.before[x].held {
            return false;
        }
        let (tx, other) = (self.players[x].gb.cycles(), &self.players[1 - x].gb);
        let made = other
            .serial()
            .port()
            .and_then(|p| p.sent.first().map(|e| e.time));
        let edge = made.into_iter().chain(other.serial().next_shift()).min();
        if edge.is_some_and(|e| e <= tx) {
            return true;
        }
        if other.cycles() >= tx {
            self.before[x].held = false;
        }
        false
    }

    /// Hold side `who` as it is now, before it runs ahead while both wait.
    fn keep_before(&mut self, who: usize, ended: bool, goal: u64) {
        let (player, b) = (&mut self.players[who], &mut self.before[who]);
        player.gb.save_state(&mut b.image);
        if let Some(port) = player.gb.serial().port() {
            b.port.clone_from(port);
        }
        b.picture.clone_from(&player.picture);
        b.frames_ended = player.frames_ended;
        b.outputs = player.gb.outputs();
        (b.ended, b.goal, b.held) = (ended, goal, true);
    }

    /// Put side `x` back as [`Pair::keep_before`] held it. Its own image always loads; the
    /// picture it was drawing goes back to being drawn (the frame it ended since is undone).
    fn take_back(&mut self, x: usize) {
        let (player, b) = (&mut self.players[x], &mut self.before[x]);
        b.held = false;
        self.reruns += 1;
        let _ = player.gb.load_state(&b.image);
        if let Some(port) = player.gb.serial_mut().port_mut() {
            let inexact = port.inexact;
            port.clone_from(&b.port);
            port.inexact = inexact;
        }
        player.gb.serial_changed();
        if player.frames_ended != b.frames_ended {
            // The frame it ended goes back to the PPU, unfinished; the picture shown before.
            player.gb.swap_frame(&mut player.picture);
            player.picture.clone_from(&b.picture);
            player.frames_ended = b.frames_ended;
        }
        player.gb.trim_outputs(b.outputs);
    }

    /// The bound up to which side `x` may run with `y` where it is (before the goal is
    /// applied); `None` when only `y`'s progress can let it run. `must`: `x` is the side
    /// ahead and must move for the other to (no lead is kept then).
    fn bound(&self, x: usize, y: usize, must: bool) -> Option<u64> {
        let (sx, sy) = (self.players[x].gb.serial(), self.players[y].gb.serial());
        let ty = self.players[y].gb.cycles();
        // Nothing couples them, or x can start no edge without an SC write (which stops
        // it): x runs on, the first player as far as the goal (its frame's end: one turn a
        // frame each when the cable is quiet), the second never past the first.
        let free = match (must, x) {
            (false, 1) => ty,
            _ => u64::MAX,
        };
        if !self.plugged {
            return Some(free);
        }
        if sx.waits_for_byte() {
            if sy.waits_for_byte() {
                return None;
            }
            // Never past an edge of y not yet made.
            let mut b = ty;
            if let Some(edge) = sy.next_shift() {
                b = b.min(edge.saturating_sub(MAX_INSTRUCTION));
            }
            return Some(b);
        }
        let Some(next) = sx.next_shift() else {
            return Some(free);
        };
        if sy.waits_for_byte() {
            // y's line is predicted: x clocks on (it stops at its next byte's start); when
            // y waits for x's next edge, only to that edge.
            return Some(if must { next } else { u64::MAX });
        }
        // y's line is read from its history: not past y's clock, and not so close to it that
        // an instruction would carry an edge beyond it.
        let period = sx.shift_period().max(1);
        let first_beyond = if next > ty {
            next
        } else {
            next + (ty - next) / period * period + period
        };
        if first_beyond - ty <= MAX_INSTRUCTION {
            return Some(first_beyond.saturating_sub(MAX_INSTRUCTION));
        }
        Some(ty)
    }

    /// Before `who` runs: what it knows of the other side's line (the history up to the
    /// other's clock, and the prediction beyond it).
    fn show_peer(&mut self, who: usize) {
        let [first, second] = &mut self.players;
        let (mine, other) = if who == 0 {
            (first, &*second)
        } else {
            (second, &*first)
        };
        let serial = other.gb.serial();
        let (Some(port), Some(mine)) = (serial.port(), mine.gb.serial_mut().port_mut()) else {
            return;
        };
        // Its SB once the edges it has not reached yet are shifted in (as it will take them).
        let mut sb = serial.read_sb();
        let mut bits = if serial.waits_for_byte() {
            port.bits_left
        } else {
            0
        };
        for e in &port.received {
            if bits > 0 && serial.takes_edge_at(e.time) {
                sb = (sb << 1) | u8::from(e.bit);
                bits -= 1;
            }
        }
        let peer = &mut mine.peer;
        peer.history.clone_from(&port.log);
        peer.known_until = other.gb.cycles();
        (peer.predicted_sb, peer.predicted_bits) = (sb, bits);
    }

    /// Hand each side the edges the other made, and trim the histories to what can still be
    /// asked (the other side's clock on).
    fn hand_over(&mut self) {
        for from in 0..2 {
            let to = 1 - from;
            let Some(edges) = self.players[from]
                .gb
                .serial_mut()
                .port_mut()
                .map(|p| std::mem::take(&mut p.sent))
            else {
                continue;
            };
            if edges.is_empty() {
                continue;
            }
            let receiver = &mut self.players[to].gb;
            let now = receiver.cycles();
            // An edge its clock already passed while it waited reaches it late.
            let late = edges
                .iter()
                .filter(|e| e.time < now && receiver.serial().takes_edge_at(e.time))
                .count() as u64;
            if let Some(port) = receiver.serial_mut().port_mut() {
                port.inexact.late += late;
                port.received.extend(edges);
            }
            receiver.serial_changed();
        }
        let t = [self.players[0].gb.cycles(), self.players[1].gb.cycles()];
        for p in 0..2 {
            if let Some(port) = self.players[p].gb.serial_mut().port_mut() {
                port.trim(t[1 - p].min(t[p]));
            }
        }
    }

    /// Write the pair's state image into `out`: both machines' images (each a sized
    /// section) and the cable (plugged, each side's port).
    pub fn save_state(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend_from_slice(&PAIR_MAGIC);
        out.extend_from_slice(&PAIR_VERSION.to_le_bytes());
        let mut image = Vec::new();
        for p in &self.players {
            p.gb.save_state(&mut image);
            out.extend_from_slice(&(image.len() as u32).to_le_bytes());
            out.extend_from_slice(&image);
        }
        let mut w = Writer::new(out, crate::state::VERSION);
        w.bool(self.plugged);
        for p in &self.players {
            match p.gb.serial().port() {
                Some(port) => {
                    w.bool(true);
                    port.save_state(&mut w);
                }
                None => w.bool(false),
            }
        }
    }

    /// Load a pair's state image; a refused one changes nothing.
    pub fn load_state(&mut self, data: &[u8]) -> Result<(), PairStateError> {
        let rest = data
            .strip_prefix(&PAIR_MAGIC)
            .ok_or(PairStateError::NotAPair)?;
        let cable = |e| PairStateError::Cable(e);
        let (version, mut rest) = rest.split_at_checked(2).ok_or(cable(StateError::Length))?;
        if u16::from_le_bytes([version[0], version[1]]) != PAIR_VERSION {
            return Err(cable(StateError::Version(u16::from_le_bytes([
                version[0], version[1],
            ]))));
        }
        let mut next = self.clone();
        for (i, p) in next.players.iter_mut().enumerate() {
            let player = |error| PairStateError::Player {
                player: i + 1,
                error,
            };
            let (len, after) = rest.split_at_checked(4).ok_or(player(StateError::Length))?;
            let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
            let (image, after) = after
                .split_at_checked(len)
                .ok_or(player(StateError::Length))?;
            p.gb.load_state(image).map_err(player)?;
            rest = after;
        }
        let mut r = Reader::new(rest);
        let plugged = r.bool().map_err(cable)?;
        let mut ports = Vec::new();
        for _ in 0..2 {
            ports.push(if r.bool().map_err(cable)? {
                Some(LinkPort::load_state(&mut r).map_err(cable)?)
            } else {
                None
            });
        }
        if !r.rest().is_empty() || ports.iter().any(|p| p.is_some() != plugged) {
            return Err(cable(StateError::Length));
        }
        next.plugged = plugged;
        for (p, port) in next.players.iter_mut().zip(ports) {
            let inexact = p.gb.serial().port().map(|q| q.inexact).unwrap_or_default();
            let device = match port {
                Some(mut port) => {
                    port.inexact = inexact;
                    Device::Link(Box::new(port))
                }
                None => Device::Nothing,
            };
            p.gb.serial_mut().set_device(device);
            p.gb.serial_changed();
        }
        *self = next;
        Ok(())
    }
}
