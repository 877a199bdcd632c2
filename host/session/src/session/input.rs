//! The methods that log outside input: the only ways to change emulation from outside (the
//! joypad, the host's keys and mouse, pokes — the REPL's and the console Lua's —, cheats,
//! script loads, reloads and unloads, forms, the files scripts read, the clock, a movie's
//! events), each an event in the log that the frame loop applies live and on replays alike.
//! Logging while rewound first forks the timeline: the recorded future is forgotten.
//!
//! Invariant: every event enters the log here. The other modules call these methods (the
//! console's writes are [`Session::poke`]s, `hooks.rs` calls [`Session::log_file_reads`],
//! the loads of `states.rs` call [`Session::log_now`]); a test below checks that no other
//! file of the session pushes to the log or calls `log_now`.

use gb_core::Buttons;

use super::{Session, SessionError};
use crate::data::{Bundle, Event, EventKind, Flavor, FormValue, HostInput, SourceHash};

impl Session {
    /// Log `kind` at the present (the next frame's start), forking first if rewound.
    pub(crate) fn log_now(&mut self, kind: EventKind) {
        self.fork();
        let cycle = self.machine.cycles();
        let event = Event {
            frame: self.timeline.frame,
            cycle,
            kind,
        };
        // Stopped in the middle of a frame: the frame under way applies it where it stands.
        if let Some(f) = &mut self.debugger.in_frame {
            f.events.push(event.clone());
        }
        self.timeline.log.push(event);
    }

    /// Log the files the scripts read live during the call that just returned (outside
    /// input: a replay's reads are checked against them, see [`crate::api::io`]). They belong
    /// to the frame being run (frame-end hooks run after the count moved on).
    pub(crate) fn log_file_reads(&mut self) {
        for (slot, path, hash) in std::mem::take(&mut self.world.files.reads) {
            self.fork();
            self.timeline.log.push(Event {
                frame: self.world.files.stepping.unwrap_or(self.timeline.frame),
                cycle: self.machine.cycles(),
                kind: EventKind::FileRead { slot, path, hash },
            });
        }
    }

    /// Hold `buttons` from the next frame on (logged only when they change).
    pub fn set_buttons(&mut self, buttons: Buttons) {
        if buttons != self.inputs.user {
            self.log_now(EventKind::Joypad(buttons));
            self.inputs.user = buttons;
        }
    }

    /// Hold `buttons` on player `player`'s joypad from the next frame on (0: the first, the
    /// same as [`Session::set_buttons`]; 1: a linked pair's second; nothing for a player the
    /// machine does not have). Logged only when they change.
    pub fn set_player_buttons(&mut self, player: usize, buttons: Buttons) {
        match player {
            0 => self.set_buttons(buttons),
            1 if self.machine.players() > 1 && buttons != self.inputs.second => {
                self.log_now(EventKind::PlayerJoypad { player: 1, buttons });
                self.inputs.second = buttons;
            }
            _ => {}
        }
    }

    /// Hold every player's buttons of `pads` from the next frame on (player 2's only on a
    /// linked pair; each logged only when it changes).
    pub fn set_pads(&mut self, pads: crate::data::Pads) {
        self.set_buttons(pads.player(0));
        self.set_player_buttons(1, pads.player(1));
    }

    /// Give each player's Game Boy the buttons it sees now (held, with the scripts' presses
    /// and releases): after a restore, and at a frame's start.
    pub(crate) fn apply_buttons(&mut self) {
        for p in 0..self.machine.players() {
            self.machine
                .set_player_buttons(p, self.inputs.player_buttons(p));
        }
    }

    /// Plug the link cable in or pull it out, from the next frame on (logged; nothing for a
    /// single Game Boy, or when the cable already is so).
    pub fn set_cable(&mut self, plugged: bool) {
        let now = self.machine.pair().map(|p| p.plugged());
        if now.is_some_and(|now| now != plugged) {
            self.log_now(EventKind::Cable { plugged });
        }
    }

    /// Log a joypad change at an exact cycle of the next frame (sub-frame input, e.g. from a
    /// movie). `cycle` is clamped to the frame.
    pub fn set_buttons_at(&mut self, buttons: Buttons, cycle: u64) {
        self.fork();
        let cycle = cycle.max(self.machine.cycles());
        self.timeline.log.push(Event {
            frame: self.timeline.frame,
            cycle,
            kind: EventKind::Joypad(buttons),
        });
    }

    /// Log `event` as it is (a movie's event, played back): it must belong to the next frame
    /// (its frame is set to it; its cycle is kept, so sub-frame input lands where it was
    /// recorded). A script load or reload needs its bundle, given as `bundle`.
    pub fn replay_event(&mut self, event: &Event, bundle: Option<&Bundle>) {
        if let Some(b) = bundle {
            self.scripts.sources.insert(b.hash(), b.clone());
        }
        match &event.kind {
            EventKind::ScriptLoad { slot, hash, .. } | EventKind::ScriptReload { slot, hash } => {
                self.scripts.current.insert(*slot, *hash);
                self.scripts.next_slot = self.scripts.next_slot.max(slot + 1);
            }
            EventKind::ScriptUnload { slot } => {
                self.scripts.current.remove(slot);
            }
            _ => {}
        }
        self.fork();
        self.timeline.log.push(Event {
            frame: self.timeline.frame,
            cycle: event.cycle,
            kind: event.kind.clone(),
        });
    }

    /// The bundle of a source version the session knows.
    pub fn source(&self, hash: SourceHash) -> Option<&Bundle> {
        self.scripts.sources.get(&hash)
    }

    /// Write `value` at `offset` of a memory (a flat domain: every bank of it) before the next
    /// frame, whether its bank is mapped or not (a debugger poke; logged). The ROM is
    /// read-only: a poke into it changes nothing.
    pub fn poke_memory(&mut self, domain: gb_core::Domain, offset: u32, value: u8) {
        self.log_now(EventKind::PokeMemory {
            domain,
            offset,
            value,
        });
    }

    /// The user acted on control `control` of a form of the script in `slot` (a click, a
    /// tick, a text typed, an item chosen, the form closed): logged, applied at the next
    /// frame's start, where the script's model of the form is updated and its callbacks run.
    pub fn form_event(&mut self, slot: u32, control: u32, value: FormValue) {
        self.log_now(EventKind::Form {
            slot,
            control,
            value,
        });
    }

    /// The host's keys and mouse from the next frame on (logged only when they change; call
    /// it while [`Session::wants_host_input`]).
    pub fn set_host_input(&mut self, mut input: HostInput) {
        input.keys.sort();
        input.keys.dedup();
        if input != self.inputs.host {
            self.inputs.host = input.clone();
            self.log_now(EventKind::HostInput(input));
        }
    }

    /// Write `value` to `addr` before the next frame (a console poke or a cheat; logged).
    pub fn poke(&mut self, addr: u16, value: u8) {
        self.log_now(EventKind::Poke { addr, value });
    }

    /// Turn a cheat code on or off from the next frame on (logged, so rewinds, replays and
    /// movies see it). Returns whether anything changed; a code that does not decode is an
    /// error saying what is wrong with it, and nothing is logged.
    pub fn set_cheat(
        &mut self,
        code: &str,
        on: bool,
    ) -> Result<bool, crate::tools::cheats::CheatError> {
        let code = crate::tools::cheats::canonical(code)?;
        if self.inputs.cheats.codes.contains(&code) == on {
            return Ok(false);
        }
        self.log_now(EventKind::Cheat {
            code: code.clone(),
            on,
        });
        // Shown at once (as the buttons are); the frame's start applies the event again,
        // which changes nothing.
        self.inputs.cheats.set(&code, on);
        self.machine.set_rom_cheats(&self.inputs.cheats);
        Ok(true)
    }

    /// The cheat codes on (canonical), in the order they were turned on.
    pub fn cheats(&self) -> &[String] {
        &self.inputs.cheats.codes
    }

    /// Load a script (it starts before the next frame); returns its slot. The API it is
    /// written for (gbhost's, BizHawk's or VBA-rr's) is guessed from its source.
    pub fn load_script(&mut self, name: &str, source: &str) -> u32 {
        self.load_script_as(name, source, Flavor::detect(source))
    }

    /// [`Session::load_script`] for a script written for `flavor`'s API.
    pub fn load_script_as(&mut self, name: &str, source: &str, flavor: Flavor) -> u32 {
        self.load_bundle(name, Bundle::new(source), flavor)
    }

    /// Load a script with the modules of its folder it may `require` (the host reads them;
    /// the session keeps the texts, so replays run the same code).
    pub fn load_bundle(&mut self, name: &str, bundle: Bundle, flavor: Flavor) -> u32 {
        let hash = bundle.hash();
        self.scripts.sources.insert(hash, bundle);
        let slot = self.scripts.take_slot();
        self.scripts.current.insert(slot, hash);
        self.log_now(EventKind::ScriptLoad {
            slot,
            name: name.to_owned(),
            hash,
            flavor,
        });
        slot
    }

    /// Make the next script loaded (by any `load_*` call) run against `player`'s Game Boy
    /// (0: the first, as every script does without this; 1: a linked pair's second): logged
    /// as an event before its load, so replays and movies load it there too.
    pub fn next_script_on_player(&mut self, player: usize) -> Result<(), SessionError> {
        let players = self.machine.players();
        if player >= players {
            return Err(SessionError::NoPlayer { player, players });
        }
        if player > 0 {
            self.log_now(EventKind::ScriptPlayer {
                slot: self.scripts.next_slot,
                player: player as u8,
            });
        }
        Ok(())
    }

    /// Re-run a new version of a script's source on its data (before the next frame). After a
    /// rewind, the new version is what runs from wherever play resumes.
    pub fn reload_script(&mut self, slot: u32, source: &str) -> Result<(), SessionError> {
        self.reload_bundle(slot, Bundle::new(source))
    }

    /// [`Session::reload_script`] with the modules the script may `require` (a module's change
    /// is a reload too).
    pub fn reload_bundle(&mut self, slot: u32, bundle: Bundle) -> Result<(), SessionError> {
        if !self.scripts.current.contains_key(&slot) {
            return Err(SessionError::NoScript(slot));
        }
        let hash = bundle.hash();
        self.scripts.sources.insert(hash, bundle);
        self.scripts.current.insert(slot, hash);
        self.log_now(EventKind::ScriptReload { slot, hash });
        Ok(())
    }

    /// [`Session::load_bundle`] for a script read from `folder`: its `io` calls use the files
    /// of that folder (and nothing else).
    pub fn load_bundle_in(
        &mut self,
        name: &str,
        bundle: Bundle,
        flavor: Flavor,
        folder: &std::path::Path,
    ) -> u32 {
        let slot = self.scripts.next_slot;
        self.world.files.folders.insert(slot, folder.to_path_buf());
        self.load_bundle(name, bundle, flavor)
    }

    /// Give the script in `slot` the files of `folder` (a script a state file or movie brought
    /// back, found again beside its file).
    pub fn set_script_folder(&mut self, slot: u32, folder: &std::path::Path) {
        self.world.files.folders.insert(slot, folder.to_path_buf());
    }

    /// Give scripts the ROM's symbols (`emu.symbol`; `None`: none). Host configuration:
    /// each lookup is logged like a file read, so a replay notices different symbols.
    pub fn set_symbols(&mut self, symbols: Option<crate::symbols::Symbols>) {
        self.world.files.symbols = symbols.map(std::sync::Arc::new);
    }

    /// Log the wall-clock time the session starts at (Unix seconds), before its first frame:
    /// scripts' `os.time` and `os.date` count on from it in emulated time, the same on every
    /// replay. A session with none logged starts its scripts' clock at 1970-01-01.
    pub fn log_clock(&mut self, unix: u64) {
        self.log_now(EventKind::Clock { unix });
        self.world.clock.start_unix = unix;
    }

    /// Tell scripts about the movie being recorded or played (`None`: none), for BizHawk's
    /// `movie.*`. [`crate::movie::Tas`] does it before every frame.
    pub fn set_movie(&mut self, view: Option<crate::data::MovieView>) {
        self.world.movie = view;
    }

    /// Tell scripts about the TAS editor (`None`: closed), for BizHawk's `tastudio.*`.
    pub fn set_editor_info(&mut self, info: Option<crate::data::EditorInfo>) {
        self.world.editor = info;
    }

    /// [`Session::log_clock`] with the time now (a live session's start).
    pub fn log_wall_clock(&mut self) {
        let unix = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        self.log_clock(unix);
    }

    /// Unload a script (before the next frame).
    pub fn unload_script(&mut self, slot: u32) -> Result<(), SessionError> {
        if self.scripts.current.remove(&slot).is_none() {
            return Err(SessionError::NoScript(slot));
        }
        self.log_now(EventKind::ScriptUnload { slot });
        Ok(())
    }

    /// Save the whole state (core and every script) in memory under `name`.
    /// scripts whose source changed since the frame they were restored to are reloaded.
    pub(crate) fn fork(&mut self) {
        if !self.timeline.rewound() {
            return;
        }
        self.timeline.history.truncate_after(self.timeline.frame);
        let cycle = self.machine.cycles();
        match &mut self.debugger.in_frame {
            // A replayed frame a debugger holds midway goes on live from here: what it
            // applied stays in the log, what it had yet to apply goes with the future.
            Some(f) => {
                self.timeline
                    .log
                    .truncate_after_cycle(self.timeline.frame, cycle);
                f.events.truncate(f.next);
                f.replay = false;
            }
            None => self.timeline.log.truncate_from(self.timeline.frame),
        }
        // Slots whose load was in the forgotten future are gone for good.
        let loaded: Vec<u32> = self
            .timeline
            .log
            .events()
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::ScriptLoad { slot, .. } => Some(slot),
                _ => None,
            })
            .collect();
        self.scripts.list.retain(|s| loaded.contains(&s.slot));
        self.scripts.current.retain(|slot, _| loaded.contains(slot));
        // The source being edited is the truth: bring restored VMs up to it.
        let mut reloads = Vec::new();
        for s in self.scripts.list.iter().filter(|s| s.active) {
            match self.scripts.current.get(&s.slot) {
                Some(&hash) if hash != s.hash => {
                    reloads.push(EventKind::ScriptReload { slot: s.slot, hash })
                }
                None => reloads.push(EventKind::ScriptUnload { slot: s.slot }),
                _ => {}
            }
        }
        reloads.push(EventKind::Resumed);
        for kind in reloads {
            let event = Event {
                frame: self.timeline.frame,
                cycle,
                kind,
            };
            if let Some(f) = &mut self.debugger.in_frame {
                f.events.push(event.clone());
            }
            self.timeline.log.push(event);
        }
    }
}

#[cfg(test)]
mod tests {
    /// The session's source files (`src/session/**/*.rs`) with their text.
    fn session_sources() -> Vec<(String, String)> {
        fn walk(dir: &std::path::Path, out: &mut Vec<(String, String)>) {
            for entry in std::fs::read_dir(dir).expect("session sources") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    walk(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).expect("source");
                    out.push((path.display().to_string(), text));
                }
            }
        }
        let mut out = Vec::new();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/session");
        walk(&dir, &mut out);
        assert!(out.len() > 5, "found {} files", out.len());
        out
    }

    /// The invariant `docs/ARCHITECTURE.md` states: only `input.rs` pushes events to the log,
    /// and only it and the loads of `states.rs` call `log_now`.
    #[test]
    fn only_input_logs() {
        for (path, text) in session_sources() {
            let file = path.rsplit('/').next().unwrap_or_default().to_owned();
            let parent_is_session = path.ends_with(&format!("session/{file}"));
            if parent_is_session && file == "input.rs" {
                continue;
            }
            assert!(
                !text.contains("log.push("),
                "{path} pushes to the event log: log through input.rs"
            );
            if !(parent_is_session && file == "states.rs") {
                assert!(
                    !text.contains("log_now("),
                    "{path} calls log_now: log through input.rs's methods"
                );
            }
        }
    }
}
