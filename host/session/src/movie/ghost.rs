//! [`Ghost`]: a second machine running other input (a branch, another movie of the same ROM)
//! frame-locked with the edited one, to race against it: the app draws its picture over the
//! game or beside it, and the piano roll marks the first frame where the two machines' work
//! RAM or screens differ.
//!
//! The ghost is a session of its own (its own rewind history, no scripts: input only, with a
//! linked pair's cable pluggings). It
//! follows the edited session's frame: forward by running its input, backward by seeking in
//! its history. Each machine's frames are fingerprinted as they are run (FNV-1a of work RAM
//! and of the picture): the ghost's by [`Ghost::follow`], the edited session's by
//! [`Ghost::observe`] after each of its frames. The first difference is the first frame both
//! fingerprinted where they differ; an edit of the main input at frame `f` forgets the main
//! fingerprints from `f` on ([`Ghost::invalidate_main_from`]).

use gb_core::Domain;

use crate::data::{Event, Pads, fnv1a, fnv1a_iter};
use crate::session::{Session, SessionError};

/// A frame's fingerprint: work RAM and picture hashes.
type Print = (u64, u64);

fn print(s: &Session) -> Print {
    let px = s.picture().pixels().iter().flat_map(|p| p.to_le_bytes());
    (fnv1a(s.gb().domain(Domain::Wram)), fnv1a_iter(px))
}

/// Where two machines first differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The frame (the machines after it ran).
    pub frame: u64,
    /// Work RAM differs.
    pub ram: bool,
    /// The picture differs.
    pub screen: bool,
}

/// A second machine running other input beside the edited session.
pub struct Ghost {
    session: Session,
    /// Its input from frame `start` on.
    input: Vec<Pads>,
    /// Other outside inputs fed at their frames (a pair's cable pluggings), in order.
    events: Vec<Event>,
    start: u64,
    /// Its name (the branch's or movie's).
    name: String,
    /// Fingerprints after each frame (index: frame - 1), of the ghost and of the main session.
    ghost_prints: Vec<Option<Print>>,
    main_prints: Vec<Option<Print>>,
    /// The first frame both fingerprinted where they differ, kept up as prints come in (the
    /// app asks for it at every publish).
    first_diff: Option<Divergence>,
    /// The last frame both fingerprinted.
    compared: u64,
}

/// Which machine a fingerprint is of.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Ghost,
    Main,
}

impl Ghost {
    /// A ghost playing `input` from frame `start` on `session` (a fresh session at that
    /// frame: the movie's start, or power-on for a branch of a movie from power-on).
    pub fn new(name: &str, session: Session, start: u64, input: Vec<Pads>) -> Ghost {
        Ghost {
            session,
            input,
            events: Vec::new(),
            start,
            name: name.to_owned(),
            ghost_prints: Vec::new(),
            main_prints: Vec::new(),
            first_diff: None,
            compared: 0,
        }
    }

    /// Feed `events` at their frames too (a linked pair's cable pluggings: outside inputs
    /// beside the buttons, which a pair's run needs to be the same).
    pub fn with_events(mut self, mut events: Vec<Event>) -> Ghost {
        events.sort_by_key(|e| (e.frame, e.cycle));
        self.events = events;
        self
    }

    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The ghost's machine (its picture is what the app draws).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Bring the ghost to frame `f`: run its input forward, or seek back in its history.
    pub fn follow(&mut self, f: u64) -> Result<(), SessionError> {
        if self.session.frame() > f {
            let first = self.session.history().frames().map_or(0, |(a, _)| a);
            self.session.seek(f.max(first))?;
        }
        // A long way forward is run in one go (bounded by the movie's length limit).
        let mut budget = super::MAX_FRAME_LIST;
        while self.session.frame() < f && budget > 0 {
            let g = self.session.frame();
            let b = g
                .checked_sub(self.start)
                .and_then(|i| self.input.get(usize::try_from(i).ok()?))
                .copied()
                .unwrap_or_default();
            self.session.set_pads(b);
            let from = self.events.partition_point(|e| e.frame < g);
            for e in self.events[from..].iter().take_while(|e| e.frame == g) {
                self.session.replay_event(e, None);
            }
            self.session.run_frame();
            let p = print(&self.session);
            self.put(Side::Ghost, self.session.frame(), p);
            budget -= 1;
        }
        Ok(())
    }

    /// Fingerprint the edited session's frame (call after each frame it runs).
    pub fn observe(&mut self, main: &Session) {
        self.put(Side::Main, main.frame(), print(main));
    }

    /// The edited input changed at frame `f`: its fingerprints from there are stale.
    pub fn invalidate_main_from(&mut self, f: u64) {
        let keep = usize::try_from(f).unwrap_or(usize::MAX);
        self.main_prints.truncate(keep.min(self.main_prints.len()));
        self.rescan();
    }

    /// The first frame both machines ran where their work RAM or picture differ.
    pub fn divergence(&self) -> Option<Divergence> {
        self.first_diff
    }

    /// The last frame both machines fingerprinted (how far the comparison reaches).
    pub fn compared_to(&self) -> u64 {
        self.compared
    }

    /// Keep `p` as `side`'s fingerprint after `frame`, and the comparison up to date.
    fn put(&mut self, side: Side, frame: u64, p: Print) {
        let Some(i) = frame.checked_sub(1).and_then(|i| usize::try_from(i).ok()) else {
            return;
        };
        if i >= super::MAX_FRAME_LIST as usize {
            return;
        }
        let v = match side {
            Side::Ghost => &mut self.ghost_prints,
            Side::Main => &mut self.main_prints,
        };
        if v.len() <= i {
            v.resize(i + 1, None);
        }
        let old = v[i].replace(p);
        if old.is_some_and(|o| o != p) && self.first_diff.is_some_and(|d| d.frame > frame) {
            // A fingerprint the first difference rested on changed (a rare rerun): look again.
            self.rescan();
            return;
        }
        let (Some(g), Some(m)) = (
            self.ghost_prints.get(i).copied().flatten(),
            self.main_prints.get(i).copied().flatten(),
        ) else {
            return;
        };
        self.compared = self.compared.max(frame);
        if g != m && self.first_diff.is_none_or(|d| d.frame >= frame) {
            self.first_diff = Some(Divergence {
                frame,
                ram: g.0 != m.0,
                screen: g.1 != m.1,
            });
        } else if g == m && self.first_diff.is_some_and(|d| d.frame == frame) {
            self.rescan();
        }
    }

    /// Compare every frame both fingerprinted again.
    fn rescan(&mut self) {
        let mut both = self.ghost_prints.iter().zip(&self.main_prints);
        self.first_diff = both
            .clone()
            .enumerate()
            .find_map(|(i, (g, m))| match (g, m) {
                (Some(g), Some(m)) if g != m => Some(Divergence {
                    frame: i as u64 + 1,
                    ram: g.0 != m.0,
                    screen: g.1 != m.1,
                }),
                _ => None,
            });
        self.compared = both
            .rposition(|(g, m)| g.is_some() && m.is_some())
            .map_or(0, |i| i as u64 + 1);
    }
}
