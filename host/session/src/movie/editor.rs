//! [`Editor`]: the TAS editor's model over a session — a [`Roll`] of input edited frame by
//! frame, the greenzone, lag frames, branches — used alike by the app's piano roll, the REPL's
//! `movie` commands and tests.
//!
//! **Frames.** Index `i` of the roll is the input of session frame `start + i`; "frame `f`"
//! below is a session frame, and "at frame `f`" means the machine after `f` frames.
//!
//! **Greenzone.** The frames emulated with the roll's current input are `start..valid`; of
//! those, the ones the session's rewind history holds are green: seeking to one restores it
//! at once. An edit at frame `f` moves `valid` down to `f` and nothing else: frames before `f`
//! stay green. History size and eviction are the rewind ring's (the session's
//! `ring_bytes`): the oldest frames go first, and a frame no longer held is emulated again
//! from the nearest held one before it when it is visited. Marker frames are kept longer: a
//! whole state is kept at each marker the current input reaches, and an edit older than the
//! ring re-emulates from the last one before it ([`Editor::resume_from_marker`]).
//!
//! **Re-emulation is lazy.** An edit behind the playback cursor sets the cursor as the
//! target; [`Editor::advance`] then goes back to the edit and emulates up to the target a
//! budget of frames at a time (the app calls it every UI frame and shows the progress; the
//! REPL and tests call [`Editor::seek_now`]). Emulating frame `f` gives the session the roll's
//! buttons for it (a logged joypad event, as always), runs it (scripts run too, and roll back
//! with the history), and records whether the game read the joypad (a lag frame).
//!
//! **Players.** Each frame of the roll holds every player's buttons ([`Pads`]): one Game
//! Boy's, or both of a linked pair's (player 2's columns beside player 1's; the cable's
//! plugging stays an event of the log, fed again like a script load). The greenzone, the
//! marker states and branches hold the whole pair; a pair's frame lags when neither Game Boy
//! read its joypad.
//!
//! **Branches** keep the whole input, the markers, the frame and a hash of the machine there
//! (and a thumbnail). Loading one replaces the input (an undoable edit) and seeks to its
//! frame; arriving there, the machine's hash is compared with the branch's: emulation is
//! deterministic, so they match unless something outside the input differs.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use super::format::state_hash;
use super::roll::{Marker, Roll};
use crate::api::TasRequest;
use crate::data::{EditorInfo, Event, EventKind, Pads};
use crate::session::{Roms, Session, SessionConfig, SessionError};
use crate::state::StateFile;

/// Most marker states an editor keeps.
pub const MAX_MARKER_STATES: usize = 256;

/// Whether the editor feeds an event of the edited session's log again when it emulates its
/// frame anew: every outside input but the joypads (the roll gives every player's), file
/// reads (a script that reads again logs again) and resumes after a rewind (the editor's runs
/// are none).
pub(super) fn fed_again(kind: &EventKind) -> bool {
    !matches!(
        kind,
        EventKind::Joypad(_)
            | EventKind::PlayerJoypad { .. }
            | EventKind::FileRead { .. }
            | EventKind::Resumed
    )
}

/// A saved branch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Branch {
    /// Its name.
    pub name: String,
    /// The frame it was saved at.
    pub frame: u64,
    /// The input then (every player's).
    pub frames: Vec<Pads>,
    /// The markers then.
    pub markers: BTreeMap<u64, Marker>,
    /// FNV-1a of the core image at `frame` (see [`state_hash`]).
    pub hash: u64,
    /// The picture at `frame`: 160 × 144 shades (0-3) or RGB555 colours.
    pub thumbnail: Vec<u16>,
}

/// Where re-emulation stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The session is at the target.
    Done,
    /// Frames still to emulate to reach the target.
    Pending(u64),
}

/// What loading a branch found on arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BranchCheck {
    /// Not there yet (see [`Editor::advance`]).
    Pending,
    /// The machine matches the branch.
    Same,
    /// The machine differs from what the branch saved.
    Different,
}

/// The TAS editor's model.
#[derive(Clone, Debug)]
pub struct Editor {
    roll: Roll,
    /// The session frame of roll index 0.
    start: u64,
    /// Frames `start..valid` were emulated with the current input.
    valid: u64,
    /// The frame seeking and re-emulation head for.
    target: u64,
    /// Lag of each frame emulated with the current input (by roll index).
    lag: Vec<Option<bool>>,
    /// How many of `lag` are `Some(true)`.
    lag_count: usize,
    /// Recording: playing past the end appends the user's input.
    recording: bool,
    /// The session's other outside inputs (script loads, pokes, the start time, form actions,
    /// …) of frames not emulated again yet: the input is the roll's, the rest stays as it was,
    /// fed again at its frame (a run behind the history's end forgets the log's future).
    kept: Vec<Event>,
    branches: Vec<Branch>,
    /// States kept at marker frames (with the scripts' images), for when the rewind history
    /// no longer holds the frames before them: see [`Editor::resume_from_marker`].
    marker_states: BTreeMap<u64, StateFile>,
    /// A branch being loaded: its index, checked on arrival.
    loading: Option<usize>,
    check: Option<BranchCheck>,
}

impl Editor {
    /// An editor over `session`, whose input from frame `start` on is `frames`; the session
    /// must be at a frame from `start` to `start + frames.len()`, emulated with that input
    /// (as after recording or playing it).
    pub fn new(session: &Session, start: u64, frames: Vec<Pads>) -> Editor {
        let valid = session.frame().max(start);
        Editor {
            roll: Roll::new(frames),
            start,
            valid,
            target: session.frame(),
            lag: Vec::new(),
            lag_count: 0,
            recording: true,
            kept: Vec::new(),
            branches: Vec::new(),
            marker_states: BTreeMap::new(),
            loading: None,
            check: None,
        }
    }

    /// An editor over what `session` has run since frame `start`: the roll is the buttons the
    /// log gave each player each frame.
    pub fn from_session(session: &Session, start: u64) -> Editor {
        let log = session.log();
        let frames = (start..session.frame())
            .map(|f| {
                Pads::pair(
                    log.buttons_before(f + 1),
                    log.player_buttons_before(f + 1, 1),
                )
            })
            .collect();
        Editor::new(session, start, frames)
    }

    /// The input, markers and edit history.
    pub fn roll(&self) -> &Roll {
        &self.roll
    }

    /// The session frame of the roll's first frame.
    pub fn start(&self) -> u64 {
        self.start
    }

    /// The session frame after the roll's last frame.
    pub fn end(&self) -> u64 {
        self.start + self.roll.len()
    }

    /// Every player's buttons of session frame `f`.
    pub fn input(&self, f: u64) -> Pads {
        f.checked_sub(self.start)
            .map_or_else(Pads::default, |i| self.roll.get(i))
    }

    /// Frames `start..valid_end()` were emulated with the current input.
    pub fn valid_end(&self) -> u64 {
        self.valid
    }

    /// Whether seeking to frame `f` is immediate: emulated with the current input and held by
    /// the rewind history.
    pub fn is_green(&self, session: &Session, f: u64) -> bool {
        f <= self.valid && session.history().holds(f)
    }

    /// Whether frame `f` was a lag frame (the game never read the joypad), if emulated with
    /// the current input.
    pub fn lagged(&self, f: u64) -> Option<bool> {
        let i = usize::try_from(f.checked_sub(self.start)?).ok()?;
        self.lag.get(i).copied().flatten()
    }

    /// Lag frames known (emulated with the current input).
    pub fn lag_count(&self) -> usize {
        self.lag_count
    }

    /// Whether each frame from the start lagged, as far as known (see [`Editor::lagged`]).
    pub fn lag_known(&self) -> &[Option<bool>] {
        &self.lag
    }

    /// Whether playing past the end appends input (else it plays empty input there).
    pub fn set_recording(&mut self, on: bool) {
        self.recording = on;
    }

    /// Recording (see [`Editor::set_recording`]).
    pub fn recording(&self) -> bool {
        self.recording
    }

    /// The frame re-emulation heads for.
    pub fn target(&self) -> u64 {
        self.target
    }

    // --- Edits: each invalidates from the first frame it changed. ---

    fn edited(&mut self, session: &Session, first: Option<u64>) -> Option<u64> {
        let f = self.start + first?;
        // States after the edit are of a machine the new input does not make.
        self.marker_states.retain(|&m, _| m <= f);
        if f < self.valid {
            self.valid = f;
            self.lag
                .truncate(usize::try_from(first?).unwrap_or(usize::MAX));
            self.lag_count = self.lag.iter().filter(|l| **l == Some(true)).count();
            // Re-emulate up to where the user was.
            self.target = self.target.max(session.frame());
        }
        Some(f)
    }

    fn range(&self, frames: Range<u64>) -> Range<u64> {
        frames.start.saturating_sub(self.start)..frames.end.saturating_sub(self.start)
    }

    /// Set frame `f`'s buttons. Returns the first frame changed.
    pub fn set(&mut self, session: &Session, f: u64, b: impl Into<Pads>) -> Option<u64> {
        let b = b.into();
        let first = f.checked_sub(self.start).and_then(|i| self.roll.set(i, b));
        self.edited(session, first)
    }

    /// Press or release `mask` over `frames` (painting).
    pub fn paint(
        &mut self,
        session: &Session,
        frames: Range<u64>,
        mask: impl Into<Pads>,
        on: bool,
    ) -> Option<u64> {
        let mask = mask.into();
        let r = self.range(frames);
        let first = self.roll.paint(r, mask, on);
        self.edited(session, first)
    }

    /// Autofire `mask` over `frames`: `on` frames pressed, `off` released, repeating.
    pub fn pattern(
        &mut self,
        session: &Session,
        frames: Range<u64>,
        mask: impl Into<Pads>,
        on: u64,
        off: u64,
    ) -> Option<u64> {
        let mask = mask.into();
        let r = self.range(frames);
        let first = self.roll.pattern(r, mask, true, on, off);
        self.edited(session, first)
    }

    /// Insert `n` frames of `b` before frame `f`.
    pub fn insert(&mut self, session: &Session, f: u64, n: u64, b: impl Into<Pads>) -> Option<u64> {
        let b = b.into();
        let n = usize::try_from(n.min(super::MAX_FRAME_LIST)).ok()?;
        let first = self.roll.insert(f.saturating_sub(self.start), vec![b; n]);
        self.edited(session, first)
    }

    /// Delete the frames of `frames`.
    pub fn delete(&mut self, session: &Session, frames: Range<u64>) -> Option<u64> {
        let r = self.range(frames);
        let first = self.roll.delete(r);
        self.edited(session, first)
    }

    /// Insert a copy of `frames` after them.
    pub fn clone_frames(&mut self, session: &Session, frames: Range<u64>) -> Option<u64> {
        let r = self.range(frames);
        let first = self.roll.clone_range(r);
        self.edited(session, first)
    }

    /// Release every button over `frames`.
    pub fn clear(&mut self, session: &Session, frames: Range<u64>) -> Option<u64> {
        let r = self.range(frames);
        let first = self.roll.clear(r);
        self.edited(session, first)
    }

    /// Paste `input` at frame `f`, over the frames there.
    pub fn paste(&mut self, session: &Session, f: u64, input: Vec<Pads>) -> Option<u64> {
        let first = self.roll.paste(f.saturating_sub(self.start), input, false);
        self.edited(session, first)
    }

    /// Undo the last edit.
    pub fn undo(&mut self, session: &Session) -> Option<u64> {
        let first = self.roll.undo();
        self.edited(session, first)
    }

    /// Redo the last undone edit.
    pub fn redo(&mut self, session: &Session) -> Option<u64> {
        let first = self.roll.redo();
        self.edited(session, first)
    }

    /// Put a marker on frame `f`.
    pub fn set_marker(&mut self, f: u64, text: &str, pinned: bool) {
        if let Some(i) = f.checked_sub(self.start) {
            self.roll.set_marker(i, text, pinned);
        }
    }

    /// Remove the marker of frame `f`.
    pub fn remove_marker(&mut self, f: u64) -> bool {
        f.checked_sub(self.start)
            .is_some_and(|i| self.roll.remove_marker(i))
    }

    /// The markers, by session frame.
    pub fn markers(&self) -> impl Iterator<Item = (u64, &Marker)> {
        self.roll.markers().iter().map(|(i, m)| (self.start + i, m))
    }

    /// The marker of frame `f`.
    pub fn marker(&self, f: u64) -> Option<&Marker> {
        self.roll.markers().get(&f.checked_sub(self.start)?)
    }

    /// The next marker after frame `f`.
    pub fn next_marker(&self, f: u64) -> Option<u64> {
        let i = f.saturating_sub(self.start);
        self.roll.next_marker(i).map(|i| self.start + i)
    }

    // --- Playback and seeking. ---

    /// Run one frame with the roll's input (past the end: the user's `held` buttons, which
    /// recording appends to the roll), every player's.
    pub fn run_frame(&mut self, session: &mut Session, held: impl Into<Pads>) {
        let held = held.into();
        let f = session.frame();
        // Behind the history's end, this frame forgets the log's future: keep its other
        // events, to feed them again at their frames.
        if session.history().frames().is_some_and(|(_, last)| last > f) {
            self.keep_from(session, f);
        }
        let due = self.kept.partition_point(|e| e.frame <= f);
        for e in self.kept.drain(..due).filter(|e| e.frame == f) {
            session.replay_event(&e, None);
        }
        if f >= self.end() && self.recording && f >= self.start {
            // Recording at the end: the input joins the roll (not an undoable edit).
            let i = f - self.start;
            self.roll.extend_to(i, held);
        }
        let b = if f >= self.start && f < self.end() {
            self.input(f)
        } else {
            Pads::default()
        };
        session.set_pads(b);
        session.run_frame();
        if f >= self.start
            && let Ok(i) = usize::try_from(f - self.start)
        {
            if self.lag.len() <= i {
                self.lag.resize(i + 1, None);
            }
            let lagged = session.machine().lagged();
            if self.lag[i] == Some(true) {
                self.lag_count -= 1;
            }
            self.lag[i] = Some(lagged);
            self.lag_count += usize::from(lagged);
        }
        if f == self.valid {
            self.valid = f + 1;
        }
        self.target = self.target.max(session.frame());
        // Arriving at a marker with the current input: keep the machine there.
        let now = session.frame();
        if now <= self.valid
            && self.marker(now).is_some()
            && !self.marker_states.contains_key(&now)
            && self.marker_states.len() < MAX_MARKER_STATES
        {
            self.marker_states.insert(now, session.state_file(0, true));
        }
    }

    /// The frames with a kept marker state.
    pub fn marker_state_frames(&self) -> impl Iterator<Item = u64> + '_ {
        self.marker_states.keys().copied()
    }

    /// When the rewind history no longer holds where re-emulation must start: a new session
    /// at the last kept marker state before that point (built with `rom` and `config`, its
    /// scripts restored exactly from their images when `config` has the user's key; `roms`: a pair's
    /// two), to
    /// replace `session`; the log's other events after it are kept to be fed again. `None`
    /// when no marker state helps.
    pub fn resume_from_marker(
        &mut self,
        session: &Session,
        roms: impl Into<Roms>,
        config: SessionConfig,
    ) -> Result<Option<Session>, SessionError> {
        let need = self.valid.min(self.target);
        let Some((&m, file)) = self.marker_states.range(..=need).next_back() else {
            return Ok(None);
        };
        let exact = config.image_key.is_some();
        let fresh = if exact {
            Session::from_state_file_exact(roms, config, file)?
        } else {
            Session::from_state_file(roms, None, config, file)?
        };
        self.keep_from(session, m);
        Ok(Some(fresh))
    }

    /// Feed `events` again at their frames as the roll is emulated (a movie's cable
    /// pluggings, opened in the editor: outside inputs the roll does not hold).
    pub fn keep_events(&mut self, mut events: Vec<Event>) {
        events.retain(|e| fed_again(&e.kind));
        self.kept.append(&mut events);
        self.kept.sort_by_key(|e| (e.frame, e.cycle));
        self.kept.dedup();
    }

    /// Set aside the events of `session`'s log from frame `from` on that the editor feeds
    /// again (see [`fed_again`]), with those already set aside, in order.
    fn keep_from(&mut self, session: &Session, from: u64) {
        let mut kept: Vec<Event> = session
            .log()
            .events()
            .iter()
            .filter(|e| e.frame >= from && fed_again(&e.kind))
            .cloned()
            .collect();
        kept.append(&mut self.kept);
        kept.sort_by_key(|e| (e.frame, e.cycle));
        kept.dedup();
        self.kept = kept;
    }

    /// Seek to frame `f`: at once when it is green, else it becomes the target of
    /// [`Editor::advance`].
    pub fn seek(&mut self, session: &mut Session, f: u64) -> Result<Progress, SessionError> {
        self.target = f;
        if self.is_green(session, f) && session.frame() != f {
            session.seek(f)?;
        }
        self.advance(session, 0)
    }

    /// Emulate toward the target, at most `budget` frames. A session past the last frame
    /// emulated with the current input goes back there first (to the nearest held frame).
    pub fn advance(
        &mut self,
        session: &mut Session,
        budget: u64,
    ) -> Result<Progress, SessionError> {
        self.advance_observed(session, budget, &mut |_| {})
    }

    /// [`Editor::advance`], calling `observe` after every frame it runs (a ghost fingerprints
    /// them).
    pub fn advance_observed(
        &mut self,
        session: &mut Session,
        budget: u64,
        observe: &mut dyn FnMut(&Session),
    ) -> Result<Progress, SessionError> {
        if session.frame() > self.valid
            || (session.frame() > self.target && self.target < self.valid)
        {
            // Back to the last frame emulated with the current input (or the target before
            // it); the history must still hold it (else the session would run on from a
            // machine the new input never made).
            let back = self.valid.min(self.target);
            session.seek(back)?;
        }
        let mut left = budget;
        while session.frame() < self.target && left > 0 {
            self.run_frame(session, Pads::default());
            observe(session);
            left -= 1;
        }
        if session.frame() == self.target {
            self.arrived(session);
            return Ok(Progress::Done);
        }
        if session.frame() > self.target && self.is_green(session, self.target) {
            session.seek(self.target)?;
            self.arrived(session);
            return Ok(Progress::Done);
        }
        Ok(Progress::Pending(
            self.target.saturating_sub(session.frame()),
        ))
    }

    /// Seek to frame `f` and emulate until there.
    pub fn seek_now(&mut self, session: &mut Session, f: u64) -> Result<(), SessionError> {
        let mut p = self.seek(session, f)?;
        while let Progress::Pending(_) = p {
            p = self.advance(session, 600)?;
        }
        Ok(())
    }

    fn arrived(&mut self, session: &Session) {
        if let Some(i) = self.loading.take()
            && let Some(b) = self.branches.get(i)
            && session.frame() == b.frame
        {
            self.check = Some(if state_hash(session) == b.hash {
                BranchCheck::Same
            } else {
                BranchCheck::Different
            });
        }
    }

    // --- Branches. ---

    /// Save the current input, markers, frame and picture as a branch named `name`.
    pub fn save_branch(&mut self, session: &Session, name: &str) -> usize {
        self.branches.push(Branch {
            name: name.to_owned(),
            frame: session.frame(),
            frames: self.roll.frames().to_vec(),
            markers: self.roll.markers().clone(),
            hash: state_hash(session),
            thumbnail: session.picture().pixels().to_vec(),
        });
        self.branches.len() - 1
    }

    /// The branches.
    pub fn branches(&self) -> &[Branch] {
        &self.branches
    }

    /// Add branches read from a file.
    pub fn add_branches(&mut self, branches: Vec<Branch>) {
        self.branches.extend(branches);
    }

    /// Load branch `i`: its input and markers (an undoable edit) and a seek to its frame,
    /// checked on arrival ([`Editor::branch_check`]).
    pub fn load_branch(
        &mut self,
        session: &mut Session,
        i: usize,
    ) -> Result<Progress, SessionError> {
        let Some(b) = self.branches.get(i).cloned() else {
            return Ok(Progress::Done);
        };
        let first = self.roll.replace_all(b.frames, b.markers);
        self.edited(session, first);
        self.loading = Some(i);
        self.check = Some(BranchCheck::Pending);
        self.seek(session, b.frame)
    }

    /// What the last branch load found on arrival.
    pub fn branch_check(&self) -> Option<BranchCheck> {
        self.check
    }

    /// The first frame where branches `a` and `b` differ in input (None: the same).
    pub fn branch_diff(&self, a: usize, b: usize) -> Option<u64> {
        let (x, y) = (self.branches.get(a)?, self.branches.get(b)?);
        let n = x.frames.len().max(y.frames.len());
        (0..n)
            .find(|&i| {
                x.frames.get(i).copied().unwrap_or_default()
                    != y.frames.get(i).copied().unwrap_or_default()
            })
            .map(|i| self.start + i as u64)
    }

    /// Rename branch `i`.
    pub fn rename_branch(&mut self, i: usize, name: &str) -> bool {
        self.branches
            .get_mut(i)
            .map(|b| b.name = name.to_owned())
            .is_some()
    }

    // --- Scripts: what `tastudio.*` sees and asks. ---

    /// What scripts' `tastudio.*` see (the app gives it to the session before each frame);
    /// `selection` is the piano roll's.
    pub fn info(&self, session: &Session, selection: Vec<u64>) -> EditorInfo {
        EditorInfo {
            start: self.start,
            end: self.end(),
            valid_end: self.valid,
            held_from: session.history().frames().map_or(0, |(a, _)| a),
            recording: self.recording,
            markers: Arc::new(self.markers().map(|(f, m)| (f, m.text.clone())).collect()),
            lag: Arc::new(self.lag.clone()),
            selection: Arc::new(selection),
            branches: Arc::new(
                self.branches
                    .iter()
                    .map(|b| (b.name.clone(), b.frame))
                    .collect(),
            ),
        }
    }

    /// Carry out a script's `tastudio.*` change.
    pub fn apply(&mut self, session: &mut Session, req: &TasRequest) -> Result<(), SessionError> {
        match req {
            TasRequest::Input { frame, mask, on } => {
                self.paint(session, *frame..frame + 1, Pads(*mask), *on);
            }
            TasRequest::Insert { frame, n } => {
                self.insert(session, *frame, *n, Pads::default());
            }
            TasRequest::Delete { frame, n } => {
                self.delete(session, *frame..frame.saturating_add(*n));
            }
            TasRequest::Clear { frame, n } => {
                self.clear(session, *frame..frame.saturating_add(*n));
            }
            TasRequest::Playback(f) => {
                self.seek(session, *f)?;
            }
            TasRequest::Recording(on) => self.recording = *on,
            TasRequest::Marker { frame, text } => self.set_marker(*frame, text, false),
            TasRequest::RemoveMarker(f) => {
                self.remove_marker(*f);
            }
            TasRequest::LoadBranch(i) => {
                self.load_branch(session, *i)?;
            }
            TasRequest::BranchText { index, text } => {
                self.rename_branch(*index, text);
            }
        }
        Ok(())
    }
}
