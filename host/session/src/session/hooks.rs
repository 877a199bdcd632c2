//! Calling into a script: [`Session::with_script`] lends a script its API context (its
//! player's Game Boy, joypad and ROM hash, its draw list, its `persist` table, the state requests) for one call, and
//! [`Session::after_script_call`] carries out what the call left behind: console output,
//! errors, state saves and loads the script asked for, changed bus hooks. Also the hooks the
//! frame loop fires for every script, and the core's watchpoints for the scripts' bus hooks
//! (player 1's scripts only: the watchpoints are the first Game Boy's).

use std::time::Instant;

use gb_core::watch::Access;

use super::{ConsoleLine, Session};
use crate::api::{Api, Request, SessionView};
use crate::script::Script;

/// Put the loaded scripts of a saved state back (all but `except`).
pub(crate) fn restore_scripts(
    scripts: &mut [Script],
    saved: &[(u32, lua_rollback::Snapshot)],
    except: Option<u32>,
) {
    for (slot, snap) in saved {
        if Some(*slot) == except {
            continue;
        }
        if let Some(s) = scripts.iter_mut().find(|s| s.slot == *slot && s.active) {
            // A snapshot of this very VM: restoring it cannot fail.
            let _ = s.vm.restore(snap);
            // Its windows may differ: described again at the frame's end (every restored
            // script, so that a replay asks the very same VMs).
            s.windows.dirty = true;
        }
    }
}

impl Session {
    /// Run `f` on script `i` with its API context (its draw list and persist table are moved
    /// out for the call, so the script and the context can both be borrowed).
    pub(crate) fn with_script<R>(
        &mut self,
        i: usize,
        f: impl FnOnce(&mut Script, &mut Api<'_>) -> R,
    ) -> R {
        let frame = self.timeline.frame;
        self.world.files.replaying = self.timeline.replaying;
        let script = &mut self.scripts.list[i];
        let mut draw = std::mem::take(&mut script.draw);
        let mut persist = std::mem::take(&mut script.persist);
        let images = std::mem::take(&mut script.images);
        let t0 = Instant::now();
        let r = {
            let player = script.player();
            let players = self.machine.players();
            let rom_hash = match (player, &self.start.second) {
                (1, Some(second)) => second.rom_hash,
                _ => self.start.rom_hash,
            };
            let (gb, other) = self.machine.player_and_other_mut(player);
            let mut api = Api {
                images: &images,
                gb,
                other,
                frame,
                draw: &mut draw,
                persist: &mut persist,
                requests: &mut self.scripts.requests,
                states: &mut self.states.by_scripts,
                pokes: None,
                slot: script.slot,
                files: Some(&mut self.world.files),
                view: SessionView {
                    user_buttons: self.inputs.held(player),
                    player,
                    players,
                    rom_hash,
                    clock: self.world.clock,
                    movie: self.world.movie.as_ref(),
                    editor: self.world.editor.as_ref(),
                    log: Some(&self.timeline.log),
                },
            };
            f(script, &mut api)
        };
        script.time_ns += t0.elapsed().as_nanos() as u64;
        if self
            .scripts
            .requests
            .iter()
            .any(|r| matches!(r, Request::Watches))
        {
            script.may_watch = true;
        }
        script.draw = draw;
        script.persist = persist;
        // A reload during the call installed its own images; keep them.
        if script.images.is_empty() {
            script.images = images;
        }
        r
    }

    /// Set the core's watchpoints to what the loaded scripts' bus hooks ask for.
    pub(crate) fn rebuild_watches(&mut self) {
        let mut watches = Vec::new();
        for i in 0..self.scripts.list.len() {
            // Only the first player's Game Boy carries the scripts' watchpoints
            // (`Machine::set_watches`): a later player's script has no bus hooks yet.
            let first = self.scripts.list[i].player == 0;
            if first && self.scripts.list[i].active && self.scripts.list[i].may_watch {
                for (kind, addr, len) in self.with_script(i, |s, api| s.watches(api)) {
                    let access = match kind {
                        0 => Access::Read,
                        1 => Access::Write,
                        _ => Access::Exec,
                    };
                    watches.push((access, addr, len));
                }
            }
        }
        self.scripts.watches = watches;
        // With the debugger's breakpoints.
        self.apply_watches();
    }

    /// Ask every loaded script that has had windows for their description again (after a
    /// restore: like asking for watches, this runs Lua, so callers put the arenas back).
    pub(crate) fn refresh_all_ui(&mut self) {
        for i in 0..self.scripts.list.len() {
            if self.scripts.list[i].active && self.scripts.list[i].windows.ever {
                self.with_script(i, |s, api| s.refresh_ui(api));
            }
        }
    }

    /// Run the scripts' bus hooks for the watchpoint hits the core stopped on (only the hits
    /// of addresses the scripts watch: the others are the debugger's, and a replay without it
    /// must call the same Lua). With a debug run, the breakpoint that stops it, if any.
    pub(crate) fn service_hits(
        &mut self,
        debug: Option<&mut super::run::Run>,
    ) -> Option<crate::debug::Stopped> {
        let mut hits = std::mem::take(&mut self.scripts.hits);
        self.machine.take_hits(&mut hits);
        let mut stopped = None;
        for hit in &hits {
            let kind = match hit.access {
                Access::Read => 0,
                Access::Write => 1,
                Access::Exec => 2,
            };
            if self.scripts.watch(hit.access, hit.addr) {
                for i in 0..self.scripts.list.len() {
                    if self.scripts.list[i].active {
                        self.with_script(i, |s, api| {
                            s.bus(api, kind, hit.addr, hit.value, hit.bank)
                        });
                        self.after_script_call(i);
                    }
                }
            }
            if hit.access == Access::Exec {
                self.machine.skip_exec_once(hit.addr);
            }
            if debug.is_some() && stopped.is_none() {
                stopped = self.breakpoint_hit(hit);
            }
        }
        self.scripts.hits = hits;
        stopped
    }

    /// Run every loaded script's hooks for `event`.
    pub(crate) fn fire_all(&mut self, event: &str) {
        for i in 0..self.scripts.list.len() {
            if self.scripts.list[i].active {
                self.with_script(i, |s, api| s.fire(api, event));
                self.after_script_call(i);
            }
        }
    }

    /// After a call into script `i`: route its output and carry out its state requests.
    pub(crate) fn after_script_call(&mut self, i: usize) {
        // Live file reads are outside input: logged (by `input.rs`). A replay's differences
        // are reported even though a replay's console output is otherwise dropped.
        self.log_file_reads();
        for (slot, text) in std::mem::take(&mut self.world.files.warnings) {
            self.output.line(slot, text);
        }
        let out = self.scripts.list[i].take_output();
        if !self.timeline.replaying && !out.is_empty() {
            let slot = self.scripts.list[i].slot;
            for line in String::from_utf8_lossy(&out).lines() {
                self.output.console.push(ConsoleLine {
                    slot,
                    text: line.to_owned(),
                });
            }
        }
        if let Some(msg) = self.scripts.list[i].take_new_error()
            && !self.timeline.replaying
        {
            let (slot, name) = (self.scripts.list[i].slot, &self.scripts.list[i].name);
            // Name the script when Lua's message does not (budget, memory).
            let text = if msg.contains(name.as_str()) {
                format!("error: {msg}")
            } else {
                format!("error: {name}: {msg}")
            };
            self.output.line(slot, text);
        }
        if let Some(msg) = self.scripts.list[i].take_reload_error()
            && !self.timeline.replaying
        {
            let (slot, name) = (self.scripts.list[i].slot, &self.scripts.list[i].name);
            let text = format!(
                "error: the new version of {name} was not loaded (the previous one keeps running): {msg}"
            );
            self.output.line(slot, text);
        }
        let caller = self.scripts.list[i].slot;
        let mut loaded = false;
        let mut watches = false;
        for req in std::mem::take(&mut self.scripts.requests) {
            match req {
                Request::Save(name) => {
                    let scripts: Vec<_> = self
                        .scripts
                        .list
                        .iter_mut()
                        .filter(|s| s.active)
                        .map(|s| (s.slot, s.vm.snapshot()))
                        .collect();
                    if let Some(state) = self.states.by_scripts.get_mut(&name) {
                        state.scripts = scripts;
                    }
                }
                Request::Watches => watches = true,
                Request::Ui => {
                    self.scripts.list[i].windows.dirty = true;
                    self.scripts.list[i].windows.ever = true;
                }
                Request::HostInput => self.output.wants_host_input = true,
                Request::Client(c) => {
                    // Hosts with no window never take them: keep a bounded few.
                    if !self.timeline.replaying && self.output.client_requests.len() < 256 {
                        self.output.client_requests.push((caller, c));
                    }
                }
                Request::Load(name) => {
                    loaded = true;
                    // The core was loaded during the call. A load the script asked for does not
                    // roll the script itself back: bots loop save → try → load.
                    if let Some(state) = self.states.by_scripts.get(&name) {
                        restore_scripts(&mut self.scripts.list, &state.scripts, Some(caller));
                    }
                }
            }
        }
        if watches || loaded {
            self.rebuild_watches();
        }
        // A load made from an `on_load_state` hook does not fire the hooks again.
        if loaded && !self.scripts.firing_load {
            self.scripts.firing_load = true;
            self.fire_all("load_state");
            self.scripts.firing_load = false;
        }
    }
}
