//! Moving the session on its timeline: restore any frame the history holds (core and every
//! script VM together), seek (restore the frame before and replay one frame from the log, so
//! the frame is shown as it was drawn, overlays included), step back, and the sync test.
//!
//! With the desync check on, every replayed frame is compared byte for byte with its record
//! (NetHack 4's desync detector); a mismatch is reported on the console and play carries on
//! from what was recorded.

use super::{ConsoleLine, Session, SessionError};
use crate::data::{EventKind, SourceHash};

impl Session {
    /// The source version script `slot` ran at the start of frame `t` (from the log).
    fn version_at(&self, slot: u32, t: u64) -> Option<SourceHash> {
        self.timeline
            .log
            .script_events()
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

    /// Load the live core and VMs from the history's cursor, now at frame `t` with `slots`
    /// active.
    fn load_from_cursor(&mut self, t: u64, slots: &[u32]) -> Result<(), SessionError> {
        // A frame a debugger stopped in the middle of is left: back to a frame boundary.
        self.debugger.in_frame = None;
        self.timeline.history.load_core(&mut self.machine)?;
        for i in 0..self.scripts.list.len() {
            let slot = self.scripts.list[i].slot;
            let active = slots.contains(&slot);
            let version = self.version_at(slot, t);
            let s = &mut self.scripts.list[i];
            s.active = active;
            if active {
                self.timeline.history.load_vm(s)?;
                s.rolled_back_to(t);
                s.hash = version.unwrap_or(s.hash);
            }
        }
        self.timeline.frame = t;
        self.inputs.user = self.timeline.log.buttons_before(t);
        self.inputs.second = self.timeline.log.player_buttons_before(t, 1);
        // The cheats on before frame `t`.
        let mut cheats = crate::tools::cheats::Active::default();
        for e in self
            .timeline
            .log
            .events()
            .iter()
            .take_while(|e| e.frame < t)
        {
            if let EventKind::Cheat { code, on } = &e.kind {
                cheats.set(code, *on);
            }
        }
        self.machine.set_rom_cheats(&cheats);
        self.inputs.cheats = cheats;
        // Asking the scripts for their watches runs Lua, which leaves traces in the arenas; a
        // restore is not part of the timeline, so put the arenas back as recorded afterwards
        // (only those asked: a script that never changed its bus hooks has none).
        self.rebuild_watches();
        // The same for their windows: the description is output, asked for again here.
        self.refresh_all_ui();
        for s in self
            .scripts
            .list
            .iter_mut()
            .filter(|s| s.active && (s.may_watch || s.windows.ever))
        {
            self.timeline.history.load_vm(s)?;
        }
        // The host's keys and mouse the scripts were last told before frame `t`.
        self.inputs.host = self
            .timeline
            .log
            .events()
            .iter()
            .rev()
            .filter(|e| e.frame < t)
            .find_map(|e| match &e.kind {
                EventKind::HostInput(input) => Some(input.clone()),
                _ => None,
            })
            .unwrap_or_default();
        Ok(())
    }

    /// Put the session at frame `t` (core and scripts), without replaying anything: the
    /// picture and overlays stay those of the last frame run.
    pub fn restore(&mut self, t: u64) -> Result<(), SessionError> {
        let result = self
            .timeline
            .history
            .move_to(t)
            .map_err(SessionError::from)
            .and_then(|slots| self.load_from_cursor(t, &slots));
        if result.is_err() {
            // Damaged history (never in practice): the cursor may be half way; make it the
            // live state again.
            self.timeline.history.resync(
                self.timeline.frame,
                &self.machine,
                &mut self.scripts.list,
            );
        }
        result
    }

    /// Go to frame `t` and show it as it was drawn: restore the frame before, replay one
    /// frame (with the desync check when it is on). Play resumes from `t` with the next
    /// [`Session::run_frame`], which forgets the recorded future.
    pub fn seek(&mut self, t: u64) -> Result<(), SessionError> {
        let first = self.timeline.history.frames().map_or(0, |(f, _)| f);
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
        let t = self.timeline.frame.saturating_sub(1);
        self.seek(t)
    }

    /// Replay the frame at the session's position from the log, move the cursor to the next
    /// record, and (with `check`) compare the replayed state with it. Returns whether they
    /// matched (always true unchecked).
    fn replay_one(&mut self, check: bool) -> Result<bool, SessionError> {
        let result = self.replay_one_inner(check);
        if result.is_err() {
            self.timeline.history.resync(
                self.timeline.frame,
                &self.machine,
                &mut self.scripts.list,
            );
        }
        result
    }

    fn replay_one_inner(&mut self, check: bool) -> Result<bool, SessionError> {
        self.timeline.replaying = true;
        self.step_frame();
        self.timeline.replaying = false;
        self.replayed(check)
    }

    /// After a frame of the recorded future was replayed: move the cursor to the next record
    /// and (with `check`) compare the replayed state with it. Returns whether they matched.
    pub(crate) fn replayed(&mut self, check: bool) -> Result<bool, SessionError> {
        self.timeline.stats.replayed += 1;
        let t = self.timeline.frame;
        self.timeline.history.step_to(t, &self.scripts.list)?;
        if !check {
            return Ok(true);
        }
        let diffs = self
            .timeline
            .history
            .differences(&self.machine, &mut self.scripts.list);
        if diffs.is_empty() {
            return Ok(true);
        }
        self.timeline.stats.desyncs += 1;
        self.output.console.push(ConsoleLine {
            slot: 0,
            text: format!(
                "desync: frame {t} replayed differently from its record ({})",
                diffs.join(", ")
            ),
        });
        // Carry on from what was recorded.
        let slots = self.timeline.history.move_to(t)?;
        self.load_from_cursor(t, &slots)?;
        Ok(false)
    }

    /// The sync test (ggrs): go back to frame `from`, replay up to the present comparing every
    /// frame with its record byte for byte (core image and every arena), and end where it
    /// started. Returns the number of frames that did not match.
    pub fn verify_replay(&mut self, from: u64) -> Result<u64, SessionError> {
        let end = self.timeline.frame;
        self.restore(from)?;
        let mut mismatches = 0;
        while self.timeline.frame < end {
            if !self.replay_one(true)? {
                mismatches += 1;
            }
        }
        Ok(mismatches)
    }
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
        let used = s.timeline.history.used_bytes();
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
            s.timeline.history.ring_mut().buffer_mut()[at] ^= flip;
            let target = 1 + next() % 63;
            match s.seek(target) {
                Ok(()) => ok += 1,
                Err(_) => refused += 1,
            }
            s.timeline.history.ring_mut().buffer_mut()[at] ^= flip;
            // Whatever happened, the machine can run a frame (without forking the history).
            let mut probe = s.machine.gb().clone();
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
