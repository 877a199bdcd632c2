//! The frame loop, the same live and on replays: the events due at the frame's start, the
//! scripts' frame-start hooks and their buttons, the file reads the log holds set aside for
//! the scripts' reads to be checked against, the core with sub-frame events at their cycles
//! and stops for the scripts' bus hooks, the frame-end hooks and coroutines, the windows of
//! the scripts whose windows changed, each VM's end-of-frame collection. A frame is begun,
//! run and finished in three steps so that a debugger can stop in the middle of its core and
//! finish it later ([`Session::run_frame`], `end_under_way`).

use super::run::{InFrame, Over, Run};
use super::{ConsoleLine, Session};
use crate::data::{Event, EventKind};
use crate::machine::Machine;
use crate::script::Script;

impl Session {
    /// Apply one event of the log (live or on a replay).
    fn apply_event(&mut self, event: &Event) {
        match &event.kind {
            EventKind::Joypad(b) => {
                self.inputs.user = *b;
                self.machine.set_buttons(self.inputs.player_buttons(0));
            }
            EventKind::PlayerJoypad { player, buttons } => {
                if *player == 1 {
                    self.inputs.second = *buttons;
                    self.machine
                        .set_player_buttons(1, self.inputs.player_buttons(1));
                }
            }
            EventKind::ScriptPlayer { slot, player } => {
                self.scripts.pending_player.insert(*slot, *player);
            }
            EventKind::Cable { plugged } => self.machine.set_cable(*plugged),
            EventKind::Poke { addr, value } => self.machine.poke(*addr, *value),
            EventKind::PokeMemory {
                domain,
                offset,
                value,
            } => self.machine.poke_memory(*domain, *offset, *value),
            EventKind::ScriptLoad {
                slot,
                name,
                hash,
                flavor,
            } => {
                let bundle = self.scripts.sources.get(hash).cloned().unwrap_or_default();
                self.world.files.names.insert(*slot, name.clone());
                let i = match self.scripts.list.iter().position(|s| s.slot == *slot) {
                    Some(i) => i,
                    None => match Script::new(*slot, name, &self.config.scripts) {
                        Ok(s) => {
                            let i = self.scripts.list.partition_point(|x| x.slot < *slot);
                            self.scripts.list.insert(i, s);
                            i
                        }
                        Err(message) => {
                            self.output.console.push(ConsoleLine {
                                slot: *slot,
                                text: message,
                            });
                            return;
                        }
                    },
                };
                if let Some(p) = self.scripts.pending_persist.remove(slot) {
                    self.scripts.list[i].persist = p;
                }
                // The player logged just before this load, else the first.
                self.scripts.list[i].player = self.scripts.pending_player.remove(slot).unwrap_or(0);
                self.scripts.list[i].images = bundle.images.iter().cloned().collect();
                self.with_script(i, |s, api| s.start(api, *hash, &bundle, *flavor));
                self.after_script_call(i);
            }
            EventKind::ScriptReload { slot, hash } => {
                let bundle = self.scripts.sources.get(hash).cloned().unwrap_or_default();
                if let Some(i) = self.scripts.position_active(*slot) {
                    self.with_script(i, |s, api| s.reload(api, *hash, &bundle));
                    self.after_script_call(i);
                }
            }
            EventKind::ScriptUnload { slot } => {
                if let Some(i) = self.scripts.list.iter().position(|s| s.slot == *slot) {
                    self.with_script(i, |s, api| s.fire(api, "exit"));
                    self.after_script_call(i);
                    self.scripts.list[i].active = false;
                    self.scripts.list[i].draw.clear();
                    self.scripts.list[i].windows.ui = crate::api::ScriptUi::default();
                    self.rebuild_watches();
                }
            }
            EventKind::LoadState { index } => {
                if let Some(state) = self.states.loaded.get(*index).cloned() {
                    self.apply_saved(&state, None);
                    self.fire_all("load_state");
                }
            }
            EventKind::Resumed => self.fire_all("rewind"),
            // Checked by the reads themselves (step_frame hands them over).
            EventKind::FileRead { .. } => {}
            EventKind::Clock { unix } => self.world.clock.start_unix = *unix,
            EventKind::Cheat { code, on } => {
                if self.inputs.cheats.set(code, *on) {
                    self.machine.set_rom_cheats(&self.inputs.cheats);
                }
            }
            EventKind::Form {
                slot,
                control,
                value,
            } => {
                if let Some(i) = self.scripts.position_active(*slot) {
                    self.with_script(i, |s, api| s.form_event(api, *control, value));
                    self.after_script_call(i);
                }
            }
            EventKind::HostInput(input) => {
                // Every script is told (not only those that read it so far), so a replay
                // calls the same VMs whatever they did later.
                for i in 0..self.scripts.list.len() {
                    if self.scripts.list[i].active {
                        self.with_script(i, |s, api| s.host_input(api, input));
                        self.after_script_call(i);
                    }
                }
            }
            EventKind::Persist { slot, data } => {
                let table = crate::codec::decode_persist(&mut crate::codec::Dec::new(data))
                    .unwrap_or_default();
                match self.scripts.list.iter_mut().find(|s| s.slot == *slot) {
                    Some(s) => s.persist = table,
                    None => {
                        self.scripts.pending_persist.insert(*slot, table);
                    }
                }
            }
        }
    }

    /// Run one frame, capture it into the rewind history, and hand out its outputs. After a
    /// seek, this resumes play there and forgets the recorded future. A frame a debugger
    /// stopped in the middle of is run to its end (breakpoints do not stop it here).
    pub fn run_frame(&mut self) {
        match self.debugger.in_frame.take() {
            Some(mut f) => {
                self.timeline.replaying = f.replay;
                self.frame_core(&mut f, None);
                self.timeline.replaying = false;
                self.end_under_way(f);
            }
            None => {
                self.fork();
                self.step_frame();
                self.capture();
            }
        }
    }

    /// End a frame a debugger ran (its core is done): a frame of the recorded future moves
    /// the history's cursor on (checked for a desync when asked), a new one is captured.
    pub(crate) fn end_under_way(&mut self, f: InFrame) {
        let replay = f.replay;
        self.timeline.replaying = replay;
        self.frame_finish(f);
        self.timeline.replaying = false;
        if replay {
            if self.replayed(self.config.desync_check).is_err() {
                self.timeline.history.resync(
                    self.timeline.frame,
                    &self.machine,
                    &mut self.scripts.list,
                );
            }
        } else {
            self.capture();
        }
    }

    /// The frame loop proper (no capture): used live and for replays.
    pub(crate) fn step_frame(&mut self) {
        let mut f = self.frame_begin();
        self.frame_core(&mut f, None);
        self.frame_finish(f);
    }

    /// A frame's start: the events due, GameShark writes, the frame-start hooks and the
    /// buttons. Returns the frame's events, those not applied yet from `next` on.
    pub(crate) fn frame_begin(&mut self) -> InFrame {
        // A frame's overlay is what the scripts draw from here to the frame's end.
        for s in &mut self.scripts.list {
            s.draw.clear();
            s.last_frame_ns = std::mem::take(&mut s.time_ns);
        }
        let mut events: Vec<Event> = self.timeline.log.frame(self.timeline.frame).to_vec();
        // File reads the log holds for this frame (a replay's, a movie's) are checked against
        // the ones the scripts make; they are no input to the core.
        self.world.files.expected.clear();
        self.world.files.stepping = Some(self.timeline.frame);
        events.retain(|e| match &e.kind {
            EventKind::FileRead { slot, path, hash } => {
                self.world
                    .files
                    .expected
                    .entry(*slot)
                    .or_default()
                    .push_back((path.clone(), *hash));
                false
            }
            _ => true,
        });
        let mut next = 0;
        let start = self.machine.cycles();
        while next < events.len() && events[next].cycle <= start {
            self.apply_event(&events[next]);
            next += 1;
        }
        // GameShark codes write their RAM at every frame's start (VBlank's).
        self.machine.write_ram_cheats(&self.inputs.cheats);
        // Frame-start hooks, and the buttons scripts hold this frame.
        let mut overrides = [(0u8, 0u8); Machine::MAX_PLAYERS];
        for i in 0..self.scripts.list.len() {
            if !self.scripts.list[i].active {
                continue;
            }
            let (p, r) = self.with_script(i, |s, api| s.frame_start(api));
            let o = &mut overrides[self.scripts.list[i].player()];
            o.0 |= p;
            o.1 |= r;
            self.after_script_call(i);
        }
        self.inputs.overrides = overrides.map(|(press, release)| (press, release & !press));
        self.apply_buttons();
        InFrame {
            events,
            next,
            replay: false,
        }
    }

    /// The core through the frame, with sub-frame events at their cycles and stops for the
    /// scripts' bus hooks; with `debug`, also for what the debugger asks (see
    /// `debugger.rs`). Returns `None` when the frame ended, else why it stopped.
    pub(crate) fn frame_core(
        &mut self,
        f: &mut InFrame,
        mut debug: Option<&mut Run>,
    ) -> Option<crate::debug::Stopped> {
        loop {
            let due = f.events.get(f.next).map(|e| e.cycle);
            let stop = match debug.as_deref_mut() {
                Some(run) => run.core(&mut self.machine, due),
                None => {
                    if self.machine.run_until(due) {
                        gb_core::DebugStop::FrameEnd
                    } else {
                        gb_core::DebugStop::Watch
                    }
                }
            };
            let mut stopped = None;
            if self.machine.has_hits() {
                stopped = self.service_hits(debug.as_deref_mut());
            }
            if stop == gb_core::DebugStop::FrameEnd {
                return None;
            }
            if f.next < f.events.len() && f.events[f.next].cycle <= self.machine.cycles() {
                let e = f.events[f.next].clone();
                self.apply_event(&e);
                f.next += 1;
            }
            if stopped.is_none()
                && let Some(run) = debug.as_deref_mut()
            {
                match run.after(self.machine.gb(), stop) {
                    Some(Over::Stopped(stop)) => stopped = Some(stop),
                    // An interrupt or LD B,B stop is kept only when a breakpoint's condition
                    // holds.
                    Some(Over::At(on)) => match self.special_stop(on) {
                        Some(stop) => stopped = Some(stop),
                        None => run.pass_here(self.machine.gb()),
                    },
                    None => {}
                }
            }
            if stopped.is_some() {
                return stopped;
            }
        }
    }

    /// A frame's end: the events left, the picture, the frame-end hooks and coroutines.
    pub(crate) fn frame_finish(&mut self, f: InFrame) {
        for event in &f.events[f.next..] {
            self.apply_event(event);
        }
        self.timeline.frame += 1;
        self.machine.end_frame();
        // Frame-end hooks and the main coroutines.
        for i in 0..self.scripts.list.len() {
            if !self.scripts.list[i].active {
                continue;
            }
            self.with_script(i, |s, api| s.frame_end(api));
            self.after_script_call(i);
            if self.scripts.list[i].windows.dirty {
                self.with_script(i, |s, api| s.refresh_ui(api));
            }
            self.scripts.list[i].collect();
        }
        self.world.files.stepping = None;
    }
}
