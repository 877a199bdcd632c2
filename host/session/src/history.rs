//! The session's history: each frame captured into the rewind ring, and the whole session
//! (core and every script VM together) moved to any frame the ring holds.
//!
//! The session keeps a *cursor*: the core image and each script's snapshot at its position
//! (`core_prev`, `Script::prev`). Capturing a frame diffs the live state against the cursor and
//! moves the cursor to it. Moving to another frame walks the cursor through the ring: backward
//! by applying each record's diffs (XOR undoes itself), forward by applying the next records'
//! diffs, or from the nearest keyframe at or before the target, whichever touches fewer
//! records; then the live core and VMs are loaded from the cursor.
//!
//! A seek shows the target frame as it was drawn: it restores the frame before and replays one
//! frame from the log (scripts included, so their overlays come back as they were), then, with
//! the desync check on, compares the replayed state byte for byte with the record.

use lua_rollback::{Snapshot, codec};

use crate::events::{EventKind, SourceHash};
use crate::ring::PartIn;
use crate::session::{ConsoleLine, Session, SessionError};

/// Round a core image up to whole 64-bit words (the diff codec works on words).
fn pad(image: &mut Vec<u8>) {
    let len = image.len().div_ceil(8) * 8;
    image.resize(len, 0);
}

impl Session {
    /// Capture the live state at `self.frame` into the ring and move the cursor to it.
    pub(crate) fn record_frame(&mut self) {
        self.gb.save_state(&mut self.core_now);
        self.core_len = self.core_now.len();
        pad(&mut self.core_now);
        let slots: Vec<u32> = self.active_slots();
        let contiguous = self
            .ring
            .frames()
            .is_some_and(|(_, last)| last + 1 == self.frame)
            && slots == self.prev_slots
            && self.core_prev.len() == self.core_now.len()
            && !std::mem::take(&mut self.cursor_fresh);
        let key = !contiguous || self.frame >= self.last_key + self.config.keyframe_interval.max(1);
        let n = slots.len() + 1;
        self.key_bufs.resize_with(n, Vec::new);
        self.diff_bufs.resize_with(n, Vec::new);
        if contiguous {
            self.diff_bufs[0].clear();
            codec::encode_and_update(&mut self.core_prev, &self.core_now, &mut self.diff_bufs[0]);
            for (k, s) in self.scripts.iter_mut().filter(|s| s.active).enumerate() {
                let out = &mut self.diff_bufs[k + 1];
                out.clear();
                if s.vm.snapshot_diff(&mut s.prev, out).is_err() {
                    // Only a snapshot of another VM is refused; `prev` is always this VM's.
                    out.clear();
                }
            }
        } else {
            self.core_prev.clone_from(&self.core_now);
            for s in self.scripts.iter_mut().filter(|s| s.active) {
                s.vm.snapshot_into(&mut s.prev);
            }
        }
        if key {
            self.key_bufs[0].clone_from(&self.core_now);
            for (k, s) in self.scripts.iter().filter(|s| s.active).enumerate() {
                self.key_bufs[k + 1].clear();
                s.prev.encode_keyframe(&mut self.key_bufs[k + 1]);
            }
            self.last_key = self.frame;
        }
        let (c, s, k) = (
            self.config.core_method,
            self.config.script_method,
            self.config.keyframe_method,
        );
        let keys: Vec<PartIn<'_>> = if key {
            self.key_bufs[..n]
                .iter()
                .map(|b| PartIn {
                    bytes: b,
                    method: k,
                })
                .collect()
        } else {
            Vec::new()
        };
        let diffs: Vec<PartIn<'_>> = if contiguous {
            self.diff_bufs[..n]
                .iter()
                .enumerate()
                .map(|(i, b)| PartIn {
                    bytes: b,
                    method: if i == 0 { c } else { s },
                })
                .collect()
        } else {
            Vec::new()
        };
        self.stats.record_bytes = self.ring.push(self.frame, &slots, &keys, &diffs);
        let parts = self.ring.last_part_sizes();
        // The core is the first keyframe part and the first diff part.
        self.stats.record_core_bytes = parts.first().copied().unwrap_or(0)
            + if key && contiguous {
                parts.get(n).copied().unwrap_or(0)
            } else {
                0
            };
        self.stats.record_keyframe = key;
        self.prev_slots = slots;
    }

    fn active_slots(&self) -> Vec<u32> {
        self.scripts
            .iter()
            .filter(|s| s.active)
            .map(|s| s.slot)
            .collect()
    }

    fn not_in_history(&self, frame: u64) -> SessionError {
        let (first, last) = self.ring.frames().unwrap_or((0, 0));
        SessionError::NotInHistory { frame, first, last }
    }

    /// Apply the diffs of record `i` to the cursor (forward or backward: XOR undoes itself).
    fn cursor_apply_diffs(&mut self, i: usize) -> Result<(), SessionError> {
        let rec = self.ring.record(i)?;
        if rec.diff.len() != rec.slots.len() + 1 {
            return Err(corrupt("a record without diffs in a diff walk"));
        }
        rec.diff[0].decode(&mut self.dec)?;
        match codec::apply(&mut self.core_prev, &self.dec) {
            Ok(n) if n == self.dec.len() => {}
            _ => return Err(corrupt("core diff")),
        }
        for (slot, part) in rec.slots.iter().zip(&rec.diff[1..]) {
            let s = slot_mut(&mut self.scripts, *slot)?;
            part.decode(&mut self.dec)?;
            s.prev
                .apply_diff(&self.dec)
                .map_err(|e| SessionError::Script {
                    slot: *slot,
                    message: e.to_string(),
                })?;
        }
        Ok(())
    }

    /// Put the cursor at keyframe record `i`.
    fn cursor_load_key(&mut self, i: usize) -> Result<(), SessionError> {
        let rec = self.ring.record(i)?;
        if rec.key.len() != rec.slots.len() + 1 {
            return Err(corrupt("a keyframe without its parts"));
        }
        rec.key[0].decode(&mut self.core_prev)?;
        for (slot, part) in rec.slots.iter().zip(&rec.key[1..]) {
            let s = slot_mut(&mut self.scripts, *slot)?;
            part.decode(&mut self.dec)?;
            s.prev = Snapshot::decode_keyframe(&self.dec).map_err(|e| SessionError::Script {
                slot: *slot,
                message: e.to_string(),
            })?;
        }
        Ok(())
    }

    /// Move the cursor from `self.frame` to frame `t`, along the cheapest path.
    fn move_cursor(&mut self, t: u64) -> Result<(), SessionError> {
        let ti = self.ring.find(t).ok_or_else(|| self.not_in_history(t))?;
        let ki = self
            .ring
            .keyframe_at_or_before(ti)
            .ok_or_else(|| corrupt("no keyframe before a record"))?;
        let kf = self.ring.entry(ki).map_or(0, |e| e.frame);
        let ci = self.ring.find(self.frame);
        let cur = self.frame;
        let has_diffs = |i: usize| self.ring.entry(i).is_some_and(|e| e.has_diffs);
        match ci {
            Some(ci) if t < cur && cur - t <= t - kf + 1 && (ti + 1..=ci).all(has_diffs) => {
                for i in (ti + 1..=ci).rev() {
                    self.cursor_apply_diffs(i)?;
                }
            }
            Some(ci) if t > cur && cur >= kf => {
                for i in ci + 1..=ti {
                    self.cursor_apply_diffs(i)?;
                }
            }
            _ => {
                self.cursor_load_key(ki)?;
                for i in ki + 1..=ti {
                    self.cursor_apply_diffs(i)?;
                }
            }
        }
        Ok(())
    }

    /// The source version script `slot` ran at the start of frame `t` (from the log).
    fn version_at(&self, slot: u32, t: u64) -> Option<SourceHash> {
        self.log
            .events()
            .iter()
            .take_while(|e| e.frame < t)
            .filter_map(|e| match e.kind {
                EventKind::ScriptLoad { slot: s, hash, .. }
                | EventKind::ScriptReload { slot: s, hash }
                    if s == slot =>
                {
                    Some(hash)
                }
                _ => None,
            })
            .last()
    }

    /// Load the live core and VMs from the cursor, now at frame `t`.
    fn load_from_cursor(&mut self, t: u64) -> Result<(), SessionError> {
        let ti = self.ring.find(t).ok_or_else(|| self.not_in_history(t))?;
        let slots = self.ring.record(ti)?.slots;
        self.gb.load_state(&self.core_prev[..self.core_len])?;
        for i in 0..self.scripts.len() {
            let slot = self.scripts[i].slot;
            let active = slots.contains(&slot);
            let version = self.version_at(slot, t);
            let s = &mut self.scripts[i];
            s.active = active;
            if active {
                s.vm.restore(&s.prev).map_err(|e| SessionError::Script {
                    slot,
                    message: e.to_string(),
                })?;
                s.rolled_back_to(t);
                s.hash = version.unwrap_or(s.hash);
            }
        }
        self.prev_slots = slots;
        self.frame = t;
        self.user_buttons = self.log.buttons_before(t);
        // Asking the scripts for their watches runs Lua, which leaves traces in the arenas; a
        // restore is not part of the timeline, so put the arenas back as recorded afterwards.
        self.rebuild_watches();
        for s in self.scripts.iter_mut().filter(|s| s.active) {
            s.vm.restore(&s.prev).map_err(|e| SessionError::Script {
                slot: s.slot,
                message: e.to_string(),
            })?;
        }
        Ok(())
    }

    /// Put the session at frame `t` (core and scripts), without replaying anything: the
    /// picture and overlays stay those of the last frame run.
    pub fn restore(&mut self, t: u64) -> Result<(), SessionError> {
        let result = if t != self.frame || self.ring.find(t).is_none() {
            self.move_cursor(t)
        } else {
            Ok(())
        };
        match result.and_then(|()| self.load_from_cursor(t)) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.resync_cursor();
                Err(e)
            }
        }
    }

    /// After a failed restore (damaged history: never in practice), the cursor may be half
    /// way: make it the live state again, and start the next record afresh (a keyframe).
    fn resync_cursor(&mut self) {
        self.gb.save_state(&mut self.core_prev);
        self.core_len = self.core_prev.len();
        pad(&mut self.core_prev);
        for s in self.scripts.iter_mut().filter(|s| s.active) {
            s.vm.snapshot_into(&mut s.prev);
        }
        self.prev_slots = self.active_slots();
        self.cursor_fresh = true;
    }

    /// Go to frame `t` and show it as it was drawn: restore the frame before, replay one
    /// frame (with the desync check when it is on). Play resumes from `t` with the next
    /// [`Session::run_frame`], which forgets the recorded future.
    pub fn seek(&mut self, t: u64) -> Result<(), SessionError> {
        let first = self.ring.frames().map_or(0, |(f, _)| f);
        if t > first {
            self.restore(t - 1)?;
            self.replay_one(self.config.desync_check)?;
        } else {
            self.restore(t)?;
        }
        Ok(())
    }

    /// One frame back (see [`Session::seek`]).
    pub fn step_back(&mut self) -> Result<(), SessionError> {
        let t = self.frame.saturating_sub(1);
        self.seek(t)
    }

    /// Replay the frame at the session's position from the log, move the cursor to the next
    /// record, and (with `check`) compare the replayed state with it. Returns whether they
    /// matched (always true unchecked).
    fn replay_one(&mut self, check: bool) -> Result<bool, SessionError> {
        let result = self.replay_one_inner(check);
        if result.is_err() {
            self.resync_cursor();
        }
        result
    }

    fn replay_one_inner(&mut self, check: bool) -> Result<bool, SessionError> {
        self.replaying = true;
        self.step_frame();
        self.replaying = false;
        self.stats.replayed += 1;
        let t = self.frame;
        let ti = self.ring.find(t).ok_or_else(|| self.not_in_history(t))?;
        let entry = self.ring.entry(ti).ok_or_else(|| self.not_in_history(t))?;
        let same_slots = self.active_slots() == self.prev_slots;
        if entry.has_diffs && same_slots {
            self.cursor_apply_diffs(ti)?;
        } else {
            self.cursor_load_key(ti)?;
        }
        self.prev_slots = self.ring.record(ti)?.slots;
        if !check {
            return Ok(true);
        }
        self.gb.save_state(&mut self.core_now);
        pad(&mut self.core_now);
        let mut diffs = Vec::new();
        if let Some(at) = first_difference(&self.core_now, &self.core_prev) {
            diffs.push(format!("core image at byte {at}"));
        }
        if self.active_slots() != self.prev_slots {
            diffs.push("the set of scripts".to_owned());
        }
        for s in self.scripts.iter_mut().filter(|s| s.active) {
            let live = s.vm.snapshot();
            if let Some(at) = first_difference(live.bytes(), s.prev.bytes()) {
                diffs.push(format!("script {} arena at byte {at}", s.slot));
            }
        }
        let same = diffs.is_empty();
        if !same {
            self.stats.desyncs += 1;
            self.push_console(ConsoleLine {
                slot: 0,
                text: format!(
                    "desync: frame {t} replayed differently from its record ({})",
                    diffs.join(", ")
                ),
            });
            // Carry on from what was recorded.
            self.load_from_cursor(t)?;
        }
        Ok(same)
    }

    /// The sync test (ggrs): go back to frame `from`, replay up to the present comparing every
    /// frame with its record byte for byte (core image and every arena), and end where it
    /// started. Returns the number of frames that did not match.
    pub fn verify_replay(&mut self, from: u64) -> Result<u64, SessionError> {
        let end = self.frame;
        self.restore(from)?;
        let mut mismatches = 0;
        while self.frame < end {
            if !self.replay_one(true)? {
                mismatches += 1;
            }
        }
        Ok(mismatches)
    }
}

/// The script in `slot`.
fn slot_mut(
    scripts: &mut [crate::script::Script],
    slot: u32,
) -> Result<&mut crate::script::Script, SessionError> {
    scripts
        .iter_mut()
        .find(|s| s.slot == slot)
        .ok_or(SessionError::NoScript(slot))
}

/// The first byte where `a` and `b` differ (a length difference counts).
fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .or_else(|| (a.len() != b.len()).then_some(a.len().min(b.len())))
}

fn corrupt(what: &'static str) -> SessionError {
    SessionError::Ring(crate::ring::RingError::Corrupt(what))
}

#[cfg(test)]
mod tests {
    use crate::{Session, SessionConfig};

    fn counter_rom() -> Vec<u8> {
        gb_core::asm::rom(
            "xor a\n ld [$C000], a\n ld a, $01\n ldh [$FF], a\n ei\n main:\n halt\n nop\n \
             jr main\n org $40\n \
             push af\n ld a, [$C000]\n inc a\n ld [$C000], a\n pop af\n reti\n",
        )
        .expect("assemble")
    }

    /// Corrupt history bytes make seeks fail (or land on a checked state), never panic, and the
    /// session keeps running.
    #[test]
    fn corrupt_history_never_panics() {
        let config = SessionConfig {
            ring_bytes: 1 << 20,
            keyframe_interval: 16,
            ..SessionConfig::default()
        };
        let mut s = Session::new(counter_rom(), None, config).expect("session");
        s.load_script(
            "t.lua",
            "local t = {} while true do t[#t + 1] = memory.read_u8(0xC000) emu.frameadvance() end",
        );
        for _ in 0..64 {
            s.run_frame();
        }
        let used = s.ring.used_bytes();
        let mut x = 0x1234_5678_9ABC_DEF1u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (mut ok, mut refused) = (0, 0);
        for _ in 0..600 {
            let at = (next() % used as u64) as usize;
            let flip = (next() % 255 + 1) as u8;
            s.ring.buffer_mut()[at] ^= flip;
            let target = 1 + next() % 63;
            match s.seek(target) {
                Ok(()) => ok += 1,
                Err(_) => refused += 1,
            }
            s.ring.buffer_mut()[at] ^= flip;
            // Whatever happened, the machine can run a frame (without forking the history).
            let mut probe = s.gb.clone();
            probe.run_frame();
        }
        assert!(refused > 0 && ok > 0, "ok {ok}, refused {refused}");
        // With the damage gone, play goes on and replays exactly again.
        for _ in 0..20 {
            s.run_frame();
        }
        let now = s.frame();
        assert_eq!(s.verify_replay(now - 10).expect("replay"), 0);
    }
}
