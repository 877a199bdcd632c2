//! [`History`]: every frame captured into the rewind ring, and the *cursor* that moves the
//! whole machine (core and every script VM together) to any frame the ring holds.
//!
//! The cursor is the core image and each script's snapshot at one frame of the ring (the
//! session's position after a capture or a restore). Capturing a frame diffs the live state
//! against the cursor and moves the cursor to it. Moving to another frame walks the cursor
//! through the ring: backward by applying each record's diffs (XOR undoes itself), forward by
//! applying the next records' diffs, or from the nearest keyframe at or before the target,
//! whichever touches fewer records; the live core and VMs are then loaded from the cursor.
//! Diff records are written open and sealed [`BATCH`] at a time into a batch record that
//! compresses them together (`ring.rs`; a walk decodes a batch once for all its frames), deep
//! enough into their keyframe group against the group's dictionary (`dict.rs`); script
//! keyframes are stored against a base image (`bases.rs`).
//!
//! Invariants: the cursor is always a state the ring holds, or the live state after
//! [`History::resync`] (then the next capture is a keyframe); a capture never runs Lua; a
//! restore changes nothing but the machine it is given and the cursor.

use std::collections::BTreeMap;

use lua_rollback::{Snapshot, codec};
use zstd::zstd_safe::DCtx;

use super::bases::Bases;
use super::dict::{Dicts, SAMPLES};
use super::ring::{Method, PartIn, PartOut, Ring, RingError};
use crate::machine::Machine;
use crate::script::Script;

/// Diff records sealed into one batch record: zstd finds more to reuse in 16 frames' diffs
/// together than in each alone (see `docs/rewind.md`).
pub const BATCH: usize = 16;

/// Why the history cannot move to a frame.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// A frame outside the rewind history.
    #[error("frame {frame} is not in the rewind history (it holds frames {first}-{last})")]
    NotInHistory {
        /// The frame asked for.
        frame: u64,
        /// Oldest frame held.
        first: u64,
        /// Newest frame held.
        last: u64,
    },
    /// The rewind history is damaged (a bug: it never leaves the process).
    #[error("rewind history: {0}")]
    Ring(#[from] RingError),
    /// A recorded core image the core refuses (damaged history).
    #[error("rewind history: {0}")]
    Core(#[from] gb_core::StateError),
    /// A script VM could not be restored.
    #[error("script {slot}: {message}")]
    Script {
        /// The script's slot.
        slot: u32,
        /// What went wrong.
        message: String,
    },
}

/// How the history stores its records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryConfig {
    /// Bytes of the ring (allocated once).
    pub ring_bytes: usize,
    /// Frames between two keyframes.
    pub keyframe_interval: u64,
    /// How the core image's per-frame diffs are stored.
    pub core_method: Method,
    /// How script arenas' per-frame diffs are stored.
    pub script_method: Method,
    /// How keyframes are stored.
    pub keyframe_method: Method,
}

/// What the last capture cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Capture {
    /// Bytes the capture made final in the ring: a record of its own (a keyframe), and the
    /// batch record it sealed, if any. An open diff record counts when its batch is sealed
    /// (until then, [`History::open_bytes`]), so the sum over captures is what the ring holds.
    pub bytes: usize,
    /// Of those, the core's parts and the record's framing (all but the scripts' parts).
    pub core_bytes: usize,
    /// The record is a keyframe.
    pub keyframe: bool,
}

/// The rewind history: the ring, the cursor, and the scratch buffers a capture reuses.
pub struct History {
    ring: Ring,
    config: HistoryConfig,
    /// The state at one frame, which the next capture diffs against.
    cursor: Cursor,
    /// Frame of the newest keyframe.
    last_key: u64,
    /// Scratch: the live core image, the parts of a record, a decoded part.
    live: Vec<u8>,
    key_bufs: Vec<Vec<u8>>,
    diff_bufs: Vec<Vec<u8>>,
    dec: Vec<u8>,
    /// Built group dictionaries (a cache: rebuilt from the ring when missing).
    dicts: Dicts,
    /// The scripts' base images, which their keyframes are stored against.
    bases: Bases,
    /// zstd's decompression context, reused.
    dctx: DCtx<'static>,
    /// The batch record a walk decoded last: each part's diffs, concatenated.
    batch: BatchCache,
}

/// The cursor: the machine's image and every script's snapshot at one frame of the ring.
#[derive(Default)]
struct Cursor {
    /// The frame the cursor is at.
    at: u64,
    /// The core image at the cursor (padded to whole words; the base of the next diff).
    core: Vec<u8>,
    /// Each script's snapshot at the cursor, by slot.
    vms: BTreeMap<u32, Snapshot>,
    /// Slots active in the cursor's record.
    slots: Vec<u32>,
    /// The cursor was rebuilt from the live state: the next record must be a keyframe.
    fresh: bool,
}

/// The decoded parts of one batch record, kept while a walk goes through its frames.
#[derive(Default)]
struct BatchCache {
    /// The record's place: its offset and length in the ring and the frame of its first entry
    /// (`None`: nothing cached). Records are never rewritten in place: a fork (the only way
    /// back to an earlier frame) empties the cache.
    key: Option<(u32, u32, u64)>,
    /// Each part's decoded concatenation.
    parts: Vec<Vec<u8>>,
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("History")
            .field("at", &self.cursor.at)
            .field("ring", &self.ring)
            .finish()
    }
}

/// Round a core image up to whole 64-bit words (the diff codec works on words) and end it
/// with its length before padding (a word, little-endian): the image's length changes with
/// the machine (a linked pair's cable state), and a frame restored from the ring must load
/// with its own length, not the last captured one's.
fn pad(image: &mut Vec<u8>) {
    let len = image.len();
    image.resize(len.div_ceil(8) * 8, 0);
    image.extend_from_slice(&(len as u64).to_le_bytes());
}

/// The image a [`pad`]ded one holds (`None`: its length word is damaged).
fn unpadded(image: &[u8]) -> Option<&[u8]> {
    let (body, tail) = image.split_at_checked(image.len().checked_sub(8)?)?;
    let len = usize::try_from(u64::from_le_bytes(tail.try_into().ok()?)).ok()?;
    body.get(..len)
}

fn script_error(slot: u32, e: impl std::fmt::Display) -> HistoryError {
    HistoryError::Script {
        slot,
        message: e.to_string(),
    }
}

fn corrupt(what: &'static str) -> HistoryError {
    HistoryError::Ring(RingError::Corrupt(what))
}

/// The first byte where `a` and `b` differ (a length difference counts).
fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    // The usual answer (no difference) from one memcmp; the byte-by-byte search only when
    // there is something to find.
    if a == b {
        return None;
    }
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .or_else(|| (a.len() != b.len()).then_some(a.len().min(b.len())))
}

fn active_slots(scripts: &[Script]) -> Vec<u32> {
    scripts
        .iter()
        .filter(|s| s.active)
        .map(|s| s.slot)
        .collect()
}

impl History {
    /// An empty history (the ring is allocated now, once).
    pub fn new(config: HistoryConfig) -> History {
        History {
            ring: Ring::new(config.ring_bytes),
            config,
            cursor: Cursor::default(),
            last_key: 0,
            live: Vec::new(),
            key_bufs: Vec::new(),
            diff_bufs: Vec::new(),
            dec: Vec::new(),
            dicts: Dicts::default(),
            bases: Bases::default(),
            dctx: DCtx::create(),
            batch: BatchCache::default(),
        }
    }

    /// The ring.
    pub fn ring(&self) -> &Ring {
        &self.ring
    }

    /// The oldest and newest frames held.
    pub fn frames(&self) -> Option<(u64, u64)> {
        self.ring.frames()
    }

    /// Whether frame `t` is held.
    pub fn holds(&self, t: u64) -> bool {
        self.ring.find(t).is_some()
    }

    /// Bytes the records take.
    pub fn used_bytes(&self) -> usize {
        self.ring.used_bytes()
    }

    /// Bytes kept beside the ring: the scripts' base images (see `bases.rs`).
    pub fn base_bytes(&self) -> usize {
        self.bases.bytes()
    }

    /// Forget every record after frame `t` (the future, when play resumes at `t`).
    pub fn truncate_after(&mut self, t: u64) {
        self.ring.truncate_after(t);
        self.dicts.clear();
        self.batch.key = None;
    }

    /// Forget every record (the next capture starts a new history).
    pub fn clear(&mut self) {
        self.ring.clear();
        self.dicts.clear();
        self.bases.clear();
        self.batch.key = None;
    }

    /// Bytes of the newest records not yet sealed into a batch (their captures reported
    /// nothing yet, see [`Capture::bytes`]), and of those the core's parts and the records'
    /// framing.
    pub fn open_bytes(&self) -> (usize, usize) {
        self.ring.open_bytes()
    }

    /// Seal the open records into one batch record, compressing each part of it with the
    /// session's method, against its group's dictionary when the batch starts at least
    /// [`SAMPLES`] records after the group's keyframe. Returns (bytes, core bytes) of the
    /// batch, or zeros when nothing was open.
    fn seal(&mut self) -> (usize, usize) {
        let open = self.ring.open_records();
        if open == 0 {
            return (0, 0);
        }
        let first = self.ring.len() - open;
        let n = self.ring.record(first).map_or(1, |r| r.diff.len());
        let methods: Vec<Method> = (0..n)
            .map(|p| {
                if p == 0 {
                    self.config.core_method
                } else {
                    self.config.script_method
                }
            })
            .collect();
        let group = self
            .ring
            .keyframe_at_or_before(first)
            .filter(|&ki| first >= ki + SAMPLES);
        if let Some(ki) = group {
            for (p, m) in methods.iter().enumerate() {
                if *m == Method::Zstd {
                    // A damaged sample record only costs the dictionary.
                    let _ = self.dicts.prepare(&self.ring, ki, p);
                }
            }
        }
        let dicts: Vec<_> = (0..n)
            .map(|p| {
                group
                    .and_then(|ki| self.dicts.find(&self.ring, ki, p))
                    .map(|d| &d.cdict)
            })
            .collect();
        match self.ring.seal(&methods, &dicts) {
            Some(s) => (s.bytes, s.core_bytes),
            None => (0, 0),
        }
    }

    /// The error for a frame the ring does not hold.
    pub fn not_in_history(&self, frame: u64) -> HistoryError {
        let (first, last) = self.ring.frames().unwrap_or((0, 0));
        HistoryError::NotInHistory { frame, first, last }
    }

    /// The ring's bytes, for tests that damage them.
    #[cfg(test)]
    pub(crate) fn ring_mut(&mut self) -> &mut Ring {
        &mut self.ring
    }

    /// Capture the live state (the `machine`'s image and the active `scripts`) as frame
    /// `frame` and move the cursor to it. Never runs Lua.
    pub fn capture(&mut self, frame: u64, machine: &Machine, scripts: &mut [Script]) -> Capture {
        machine.save_image(&mut self.live);
        pad(&mut self.live);
        let slots = active_slots(scripts);
        let contiguous = self
            .ring
            .frames()
            .is_some_and(|(_, last)| last + 1 == frame)
            && slots == self.cursor.slots
            && self.cursor.core.len() == self.live.len()
            && !std::mem::take(&mut self.cursor.fresh);
        let key = !contiguous || frame >= self.last_key + self.config.keyframe_interval.max(1);
        // A record of its own comes next: the open records before it are sealed first.
        let (sealed, sealed_core) = if key { self.seal() } else { (0, 0) };
        let n = slots.len() + 1;
        self.key_bufs.resize_with(n, Vec::new);
        self.diff_bufs.resize_with(n, Vec::new);
        let live_scripts = scripts.iter_mut().filter(|s| s.active);
        if contiguous {
            self.diff_bufs[0].clear();
            codec::encode_and_update(&mut self.cursor.core, &self.live, &mut self.diff_bufs[0]);
            for (k, s) in live_scripts.enumerate() {
                let out = &mut self.diff_bufs[k + 1];
                out.clear();
                let prev = self
                    .cursor
                    .vms
                    .entry(s.slot)
                    .or_insert_with(|| s.vm.snapshot());
                if s.vm.snapshot_diff(prev, out).is_err() {
                    // Only a snapshot of another VM is refused; the cursor's is this VM's.
                    out.clear();
                }
            }
        } else {
            self.cursor.core.clone_from(&self.live);
            for s in live_scripts {
                match self.cursor.vms.get_mut(&s.slot) {
                    Some(prev) => s.vm.snapshot_into(prev),
                    None => {
                        self.cursor.vms.insert(s.slot, s.vm.snapshot());
                    }
                }
            }
        }
        if key {
            self.key_bufs[0].clone_from(&self.live);
            for (k, slot) in slots.iter().enumerate() {
                self.key_bufs[k + 1].clear();
                if let Some(snap) = self.cursor.vms.get(slot) {
                    let out = &mut self.key_bufs[k + 1];
                    self.bases.encode(*slot, frame, snap, out, &mut self.dec);
                }
            }
            self.last_key = frame;
        }
        let part = |bytes, method| PartIn {
            bytes,
            method,
            dict: None,
        };
        let (mut bytes, mut core_bytes) = (0, 0);
        if contiguous && !key {
            // A diff record: open (stored as it is) until its batch is sealed.
            let diffs: Vec<&[u8]> = self.diff_bufs[..n].iter().map(Vec::as_slice).collect();
            self.ring.push_open(frame, &slots, &diffs);
            if self.ring.open_records() >= BATCH {
                (bytes, core_bytes) = self.seal();
            }
        } else {
            let keys: Vec<PartIn<'_>> = if key {
                let m = self.config.keyframe_method;
                self.key_bufs[..n].iter().map(|b| part(b, m)).collect()
            } else {
                Vec::new()
            };
            let diffs: Vec<PartIn<'_>> = if contiguous {
                let (c, s) = (self.config.core_method, self.config.script_method);
                let bufs = self.diff_bufs[..n].iter().enumerate();
                bufs.map(|(i, b)| part(b, if i == 0 { c } else { s }))
                    .collect()
            } else {
                Vec::new()
            };
            let rec = self.ring.push(frame, &slots, &keys, &diffs);
            let parts = self.ring.last_part_sizes();
            // The core is the first keyframe part and the first diff part; the record's
            // framing counts with the core, so a history without scripts is all core.
            let core_parts = parts.first().copied().unwrap_or(0)
                + if key && contiguous {
                    parts.get(n).copied().unwrap_or(0)
                } else {
                    0
                };
            let script_parts = parts.iter().sum::<usize>().saturating_sub(core_parts);
            bytes += rec;
            core_bytes += rec.saturating_sub(script_parts);
        }
        if let Some((oldest, _)) = self.ring.frames() {
            self.bases.retain(oldest);
        }
        self.cursor.slots = slots;
        self.cursor.at = frame;
        Capture {
            bytes: bytes + sealed,
            core_bytes: core_bytes + sealed_core,
            keyframe: key,
        }
    }

    /// Apply the diffs of record `i` to the cursor (forward or backward: XOR undoes itself).
    fn apply_diffs(&mut self, i: usize) -> Result<(), HistoryError> {
        let entry = self.ring.entry(i).ok_or(RingError::NoFrame(0))?;
        let rec = self.ring.record(i)?;
        if rec.diff.len() != rec.slots.len() + 1 {
            return Err(corrupt("a record without diffs in a diff walk"));
        }
        // The group's keyframe, looked for only when a part needs the group's dictionary.
        let mut ki = None;
        let mut decode = |part: &PartOut<'_>, p: usize, out: &mut Vec<u8>| {
            let dict = if part.needs_dict() {
                match *ki.get_or_insert_with(|| self.ring.keyframe_at_or_before(i)) {
                    Some(k) => self.dicts.get(&self.ring, k, p)?.map(|d| &d.ddict),
                    None => None,
                }
            } else {
                None
            };
            part.decode_in(out, &mut self.dctx, dict)
        };
        if rec.batch > 0 {
            // A batch record: its parts are decoded once for every frame of it.
            let first = entry.frame.saturating_sub(u64::from(entry.sub));
            let key = (entry.offset, entry.len, first);
            if self.batch.key != Some(key) {
                self.batch.key = None;
                self.batch.parts.resize_with(rec.diff.len(), Vec::new);
                for (p, part) in rec.diff.iter().enumerate() {
                    decode(part, p, &mut self.batch.parts[p])?;
                }
                self.batch.key = Some(key);
            }
            let sub = usize::from(entry.sub);
            let span = |p| rec.span(p, sub).ok_or_else(|| corrupt("batch frame"));
            let core = &self.batch.parts[0][span(0)?];
            match codec::apply(&mut self.cursor.core, core) {
                Ok(n) if n == core.len() => {}
                _ => return Err(corrupt("core diff")),
            }
            for (k, slot) in rec.slots.iter().enumerate() {
                let snap = self
                    .cursor
                    .vms
                    .get_mut(slot)
                    .ok_or_else(|| script_error(*slot, "no snapshot to apply a diff to"))?;
                snap.apply_diff(&self.batch.parts[k + 1][span(k + 1)?])
                    .map_err(|e| script_error(*slot, e))?;
            }
            return Ok(());
        }
        decode(&rec.diff[0], 0, &mut self.dec)?;
        match codec::apply(&mut self.cursor.core, &self.dec) {
            Ok(n) if n == self.dec.len() => {}
            _ => return Err(corrupt("core diff")),
        }
        for (k, (slot, part)) in rec.slots.iter().zip(&rec.diff[1..]).enumerate() {
            let snap = self
                .cursor
                .vms
                .get_mut(slot)
                .ok_or_else(|| script_error(*slot, "no snapshot to apply a diff to"))?;
            decode(part, k + 1, &mut self.dec)?;
            snap.apply_diff(&self.dec)
                .map_err(|e| script_error(*slot, e))?;
        }
        Ok(())
    }

    /// Put the cursor at keyframe record `i`.
    fn load_key(&mut self, i: usize) -> Result<(), HistoryError> {
        let rec = self.ring.record(i)?;
        if rec.key.len() != rec.slots.len() + 1 {
            return Err(corrupt("a keyframe without its parts"));
        }
        rec.key[0].decode_in(&mut self.cursor.core, &mut self.dctx, None)?;
        for (slot, part) in rec.slots.iter().zip(&rec.key[1..]) {
            part.decode_in(&mut self.dec, &mut self.dctx, None)?;
            let snap = self
                .bases
                .decode(*slot, &self.dec)
                .map_err(|e| script_error(*slot, e))?;
            self.cursor.vms.insert(*slot, snap);
        }
        Ok(())
    }

    /// Move the cursor to frame `t`, along the cheapest path; returns the slots active in
    /// its record. A failure leaves the cursor anywhere: call [`History::resync`].
    pub fn move_to(&mut self, t: u64) -> Result<Vec<u32>, HistoryError> {
        let ti = self.ring.find(t).ok_or_else(|| self.not_in_history(t))?;
        if t != self.cursor.at || self.cursor.fresh {
            let ki = self
                .ring
                .keyframe_at_or_before(ti)
                .ok_or_else(|| corrupt("no keyframe before a record"))?;
            let kf = self.ring.entry(ki).map_or(0, |e| e.frame);
            let (cur, ci) = (
                self.cursor.at,
                self.ring
                    .find(self.cursor.at)
                    .filter(|_| !self.cursor.fresh),
            );
            let has_diffs = |i: usize| self.ring.entry(i).is_some_and(|e| e.has_diffs);
            match ci {
                Some(ci) if t < cur && cur - t <= t - kf + 1 && (ti + 1..=ci).all(has_diffs) => {
                    for i in (ti + 1..=ci).rev() {
                        self.apply_diffs(i)?;
                    }
                }
                Some(ci) if t > cur && cur >= kf => {
                    for i in ci + 1..=ti {
                        self.apply_diffs(i)?;
                    }
                }
                _ => {
                    self.load_key(ki)?;
                    for i in ki + 1..=ti {
                        self.apply_diffs(i)?;
                    }
                }
            }
        }
        self.cursor.at = t;
        self.cursor.slots = self.ring.record(ti)?.slots;
        Ok(self.cursor.slots.clone())
    }

    /// Load the live machine from the cursor.
    pub fn load_core(&self, machine: &mut Machine) -> Result<(), HistoryError> {
        let image = unpadded(&self.cursor.core).ok_or_else(|| corrupt("core image length"))?;
        machine.load_image(image)?;
        Ok(())
    }

    /// Load a script's VM from the cursor.
    pub fn load_vm(&self, script: &mut Script) -> Result<(), HistoryError> {
        let snap = self
            .cursor
            .vms
            .get(&script.slot)
            .ok_or_else(|| script_error(script.slot, "no snapshot at this frame"))?;
        script
            .vm
            .restore(snap)
            .map_err(|e| script_error(script.slot, e))
    }

    /// After a failed move (damaged history: never in practice), the cursor may be half way:
    /// make it the live state at frame `at` again, and start the next record afresh (a
    /// keyframe).
    pub fn resync(&mut self, at: u64, machine: &Machine, scripts: &mut [Script]) {
        machine.save_image(&mut self.cursor.core);
        pad(&mut self.cursor.core);
        for s in scripts.iter_mut().filter(|s| s.active) {
            match self.cursor.vms.get_mut(&s.slot) {
                Some(prev) => s.vm.snapshot_into(prev),
                None => {
                    self.cursor.vms.insert(s.slot, s.vm.snapshot());
                }
            }
        }
        self.cursor.slots = active_slots(scripts);
        self.cursor.at = at;
        self.cursor.fresh = true;
    }

    /// After frame `t` was replayed from the frame before it: move the cursor one record on
    /// (the state recorded at `t`), by its diffs when the replay ran the same scripts.
    pub fn step_to(&mut self, t: u64, scripts: &[Script]) -> Result<(), HistoryError> {
        let ti = self.ring.find(t).ok_or_else(|| self.not_in_history(t))?;
        let entry = self.ring.entry(ti).ok_or_else(|| self.not_in_history(t))?;
        if entry.has_diffs && active_slots(scripts) == self.cursor.slots && self.cursor.at + 1 == t
        {
            self.apply_diffs(ti)?;
        } else {
            let ki = self
                .ring
                .keyframe_at_or_before(ti)
                .ok_or_else(|| corrupt("no keyframe before a record"))?;
            self.load_key(ki)?;
            for i in ki + 1..=ti {
                self.apply_diffs(i)?;
            }
        }
        self.cursor.slots = self.ring.record(ti)?.slots;
        self.cursor.at = t;
        Ok(())
    }

    /// The desync check: where the live state differs from the cursor's, byte for byte (core
    /// image, the set of scripts, every arena). Empty when they are the same.
    pub fn differences(&mut self, machine: &Machine, scripts: &mut [Script]) -> Vec<String> {
        machine.save_image(&mut self.live);
        pad(&mut self.live);
        let mut diffs = Vec::new();
        if let Some(at) = first_difference(&self.live, &self.cursor.core) {
            diffs.push(format!("core image at byte {at}"));
        }
        if active_slots(scripts) != self.cursor.slots {
            diffs.push("the set of scripts".to_owned());
        }
        for s in scripts.iter_mut().filter(|s| s.active) {
            let live = s.vm.snapshot();
            let recorded = self.cursor.vms.get(&s.slot).map_or(&[][..], |p| p.bytes());
            if let Some(at) = first_difference(live.bytes(), recorded) {
                diffs.push(format!("script {} arena at byte {at}", s.slot));
            }
        }
        diffs
    }
}
