//! One loaded script: its VM (own arena, own globals), its status, and what it produced this
//! frame (its snapshots at the session's position are the history's).
//!
//! A script's main chunk runs as the coroutine `main` (BizHawk style: `while true do …
//! emu.frameadvance() end`); it is resumed once when loaded and once at the end of every frame.
//! Hooks registered with `event.*` run from the session's frame loop.
//!
//! A slot is never dropped while the rewind history may still need it: an unloaded script is
//! *parked* (inactive, VM kept), so that seeking back to a frame where it ran restores it. Its
//! first snapshot (the empty VM) is kept too, so that re-running its load event on a replay
//! gives the same bytes as the first time.

use std::collections::BTreeMap;

use lua_rollback::{Error as LuaError, Resume, Snapshot, Value, Vm, VmConfig};

use crate::api::{self, Api, DrawCmd, ScriptUi};
use crate::data::{Bundle, Flavor, FormValue, HostInput, Image, SourceHash};

/// Name of the coroutine running the script's main chunk.
const MAIN: &str = "main";

pub use crate::data::Status;

/// A loaded (or parked) script.
pub struct Script {
    /// Unique slot id.
    pub slot: u32,
    /// Name shown to the user (the file name).
    pub name: String,
    /// The version of its source the VM runs.
    pub hash: SourceHash,
    /// Loaded at the current position (false: parked).
    pub active: bool,
    /// The API it is written for.
    pub flavor: Flavor,
    pub(crate) vm: Vm,
    /// The empty VM, right after it was built.
    pub(crate) initial: Snapshot,
    /// Its status and the errors not reported yet.
    health: Health,
    /// Overlay drawn this frame.
    pub draw: Vec<DrawCmd>,
    /// The images `gui.image` can draw (from the running version's bundle).
    pub(crate) images: std::collections::HashMap<String, Image>,
    /// The `persist` table: kept across rollbacks on purpose.
    pub persist: BTreeMap<Vec<u8>, Value>,
    /// Wall-clock time spent in this script's VM during the frame being run, and during the
    /// last whole frame (a statistic: it never affects emulation).
    pub(crate) time_ns: u64,
    pub(crate) last_frame_ns: u64,
    /// The VM has changed its bus hooks at least once (it asked for `gbhost.watch_changed`).
    /// Never cleared: every arena restored into this VM is a snapshot of this VM, so one
    /// without it set holds no bus hooks at any frame, and a restore need not ask it for its
    /// watches.
    pub(crate) may_watch: bool,
    /// Its windows (forms, text buffers).
    pub(crate) windows: Windows,
    /// The player whose Game Boy it runs against (0: the first; set by a `ScriptPlayer`
    /// event before its load).
    pub(crate) player: u8,
}

/// A script's status, and the errors it has not reported yet.
#[derive(Debug)]
struct Health {
    /// Running, finished or failed, and since which frame (for rollback of the status).
    status: Status,
    since: u64,
    /// A failure not reported to the console yet.
    new_error: bool,
    /// A refused reload not reported to the console yet.
    reload_error: Option<String>,
}

/// A script's windows as the session knows them.
#[derive(Debug, Default)]
pub(crate) struct Windows {
    /// The windows (forms, text buffers) as last described by the VM: an output, refreshed
    /// at the end of a frame in which they changed and after every restore.
    pub(crate) ui: ScriptUi,
    /// The windows changed during the frame being run (the VM said so).
    pub(crate) dirty: bool,
    /// The VM has had windows at least once (never cleared, like `may_watch`): only such
    /// VMs are asked for their windows after a restore.
    pub(crate) ever: bool,
}

impl std::fmt::Debug for Script {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Script")
            .field("slot", &self.slot)
            .field("name", &self.name)
            .field("active", &self.active)
            .field("status", &self.health.status)
            .finish()
    }
}

/// Settings of every script VM.
#[derive(Clone, Debug)]
pub struct ScriptConfig {
    /// Arena size: the script's memory cap.
    pub arena_bytes: usize,
    /// Lua instructions one call (a hook, a resume) may run.
    pub instruction_budget: u64,
    /// Where in the portable window (`lua_rollback::window_address`) script VMs go: slot `s`
    /// prefers window slot `window_offset + s`. Processes that exchange state files must agree
    /// on it (0, the default); tests running many sessions in one process give each its own.
    pub window_offset: usize,
}

impl Default for ScriptConfig {
    fn default() -> Self {
        ScriptConfig {
            arena_bytes: 16 << 20,
            instruction_budget: 20_000_000,
            window_offset: 0,
        }
    }
}

/// The Lua error's text, with Lua's own prefix kept (it carries the script position).
fn message(e: &LuaError) -> String {
    e.to_string()
}

impl Script {
    /// Build a fresh VM for `slot` (nothing runs yet).
    ///
    /// The arena is mapped in the portable window at the slot's own place (or the first free
    /// one after it), so that its portable images restore in another process whose script of
    /// the same slot sits at the same address; when the window is full, anywhere.
    pub(crate) fn new(slot: u32, name: &str, config: &ScriptConfig) -> Result<Script, String> {
        let vm_config = Script::vm_config(slot, config);
        let vm = api::register(Vm::builder(vm_config.clone()))
            .build()
            .or_else(|_| {
                api::register(Vm::builder(VmConfig {
                    window_slot: None,
                    ..vm_config
                }))
                .build()
            })
            .map_err(|e| format!("cannot create a Lua VM: {e}"))?;
        Ok(Script::with_vm(slot, name, vm))
    }

    /// A script for `slot` whose VM is built where the portable image `image` (sealed with
    /// `key`) was made, and holds its state; nothing runs. The caller sets the rest (name,
    /// hash, flavor, status, persist, images) from the state file.
    pub(crate) fn from_image(
        slot: u32,
        name: &str,
        config: &ScriptConfig,
        key: &lua_rollback::ImageKey,
        image: &[u8],
    ) -> Result<Script, String> {
        // The seal first: nothing of an image is trusted, not even where it wants its arena.
        let info = lua_rollback::verify_image(key, image).map_err(|e| e.to_string())?;
        let vm_config = VmConfig {
            fixed_address: Some(info.address),
            arena_capacity: info.capacity,
            ..Script::vm_config(slot, config)
        };
        let vm = api::register(Vm::builder(vm_config))
            .build()
            .map_err(|e| format!("cannot create its Lua VM where the image needs it: {e}"))?;
        let mut script = Script::with_vm(slot, name, vm);
        script
            .vm
            .load_image(key, image)
            .map_err(|e| e.to_string())?;
        script.may_watch = true;
        script.windows.ever = true;
        Ok(script)
    }

    fn vm_config(slot: u32, config: &ScriptConfig) -> VmConfig {
        VmConfig {
            arena_capacity: config.arena_bytes,
            instruction_budget: Some(config.instruction_budget),
            random_seed: 0x5eed ^ i64::from(slot),
            window_slot: Some(config.window_offset + slot as usize),
            ..VmConfig::default()
        }
    }

    fn with_vm(slot: u32, name: &str, mut vm: Vm) -> Script {
        let initial = vm.snapshot();
        Script {
            slot,
            name: name.to_owned(),
            hash: 0,
            active: false,
            flavor: Flavor::Native,
            initial,
            vm,
            health: Health {
                status: Status::Running,
                since: 0,
                new_error: false,
                reload_error: None,
            },
            draw: Vec::new(),
            images: std::collections::HashMap::new(),
            persist: BTreeMap::new(),
            time_ns: 0,
            last_frame_ns: 0,
            may_watch: false,
            windows: Windows::default(),
            player: 0,
        }
    }

    /// Set the status a state file recorded (with a portable image restored in place).
    pub(crate) fn set_status(&mut self, status: Status, since: u64) {
        self.health.status = status;
        self.health.since = since;
    }

    /// The status and the frame it began.
    pub(crate) fn status_and_since(&self) -> (Status, u64) {
        (self.health.status.clone(), self.health.since)
    }

    /// The player whose Game Boy the script runs against (0: the first): the machine its
    /// API reads and writes, the joypad it presses, the screen its overlay is drawn on.
    pub fn player(&self) -> usize {
        usize::from(self.player)
    }

    /// The script's status.
    pub fn status(&self) -> &Status {
        &self.health.status
    }

    fn running(&self) -> bool {
        !matches!(self.health.status, Status::Failed(_))
    }

    fn fail(&mut self, frame: u64, e: &LuaError) {
        self.health.status = Status::Failed(message(e));
        self.health.since = frame;
        self.health.new_error = true;
    }

    /// The failure message, once, right after the script failed.
    pub(crate) fn take_new_error(&mut self) -> Option<String> {
        if !std::mem::take(&mut self.health.new_error) {
            return None;
        }
        match &self.health.status {
            Status::Failed(m) => Some(m.clone()),
            _ => None,
        }
    }

    /// Wall-clock time the script's Lua took during the last frame, in nanoseconds.
    pub fn frame_time_ns(&self) -> u64 {
        self.last_frame_ns
    }

    /// Arena statistics (used bytes, high-water mark, capacity).
    pub fn arena(&self) -> lua_rollback::ArenaStats {
        self.vm.stats()
    }

    /// Start (or restart, on a replay) the script: back to the empty VM, run the prelude, then
    /// the source's main chunk up to its first `emu.frameadvance()`.
    pub(crate) fn start(
        &mut self,
        api: &mut Api<'_>,
        hash: SourceHash,
        bundle: &Bundle,
        flavor: Flavor,
    ) {
        self.active = true;
        self.hash = hash;
        self.health.status = Status::Running;
        self.health.since = api.frame;
        if let Err(e) = self.vm.restore(&self.initial) {
            self.fail(api.frame, &e);
            return;
        }
        if let Err(e) = self.vm.exec_with(api, "=prelude", api::PRELUDE) {
            self.fail(api.frame, &e);
            return;
        }
        if let Some(layer) = api::layer(flavor)
            && let Err(e) = self.vm.exec_with(api, "=compat", layer)
        {
            self.fail(api.frame, &e);
            return;
        }
        self.flavor = flavor;
        if let Err(e) = self.install_modules(api, bundle) {
            self.fail(api.frame, &e);
            return;
        }
        self.run_source(api, &bundle.main);
    }

    /// Hand the bundle's modules to the VM (`require` finds them there).
    fn install_modules(&mut self, api: &mut Api<'_>, bundle: &Bundle) -> Result<(), LuaError> {
        self.vm.call_with(api, "gbhost.clear_modules", &[])?;
        for (name, text) in &bundle.modules {
            self.vm.call_with(
                api,
                "gbhost.add_module",
                &[Value::from(name.as_str()), Value::from(text.as_str())],
            )?;
        }
        Ok(())
    }

    /// Re-run a new version of the source on the VM's current data (a reload). If the new
    /// version does not compile or fails before its first `emu.frameadvance()`, the VM is put
    /// back as it was: the previous version keeps running, and the error is reported.
    pub(crate) fn reload(&mut self, api: &mut Api<'_>, hash: SourceHash, bundle: &Bundle) {
        let before = self.vm.snapshot();
        let (status, since, old_hash) = (self.health.status.clone(), self.health.since, self.hash);
        self.hash = hash;
        self.health.status = Status::Running;
        self.health.since = api.frame;
        let result = self
            .vm
            .call_with(api, "gbhost.reset_hooks", &[])
            .and_then(|_| self.install_modules(api, bundle))
            .and_then(|()| {
                let chunk = format!("@{}", self.name);
                self.vm.spawn_chunk(MAIN, &chunk, &bundle.main)
            })
            .and_then(|()| self.vm.resume_with(api, MAIN, &[]));
        if result.is_ok() {
            self.images = bundle.images.iter().cloned().collect();
        }
        match result {
            Ok(Resume::Yielded(_)) => {}
            Ok(Resume::Returned(_)) => {
                self.health.status = Status::Finished;
                self.health.since = api.frame;
            }
            Err(e) => {
                // Nothing of the new version stays: data, hooks and coroutine are the old ones.
                let _ = self.vm.restore(&before);
                self.health.status = status;
                self.health.since = since;
                self.hash = old_hash;
                self.health.reload_error = Some(message(&e));
            }
        }
    }

    /// The error of a reload that was refused, once.
    pub(crate) fn take_reload_error(&mut self) -> Option<String> {
        self.health.reload_error.take()
    }

    fn run_source(&mut self, api: &mut Api<'_>, source: &str) {
        let chunk = format!("@{}", self.name);
        if let Err(e) = self.vm.spawn_chunk(MAIN, &chunk, source) {
            self.fail(api.frame, &e);
            return;
        }
        self.resume(api);
    }

    /// Resume the main coroutine, if it is still there.
    fn resume(&mut self, api: &mut Api<'_>) {
        if self.health.status != Status::Running {
            return;
        }
        match self.vm.resume_with(api, MAIN, &[]) {
            Ok(Resume::Yielded(_)) => {}
            Ok(Resume::Returned(_)) => {
                self.health.status = Status::Finished;
                self.health.since = api.frame;
            }
            Err(e) => self.fail(api.frame, &e),
        }
    }

    /// Frame start: run the frame-start hooks, and return the buttons the script presses and
    /// releases this frame.
    pub(crate) fn frame_start(&mut self, api: &mut Api<'_>) -> (u8, u8) {
        if !self.active || !self.running() {
            return (0, 0);
        }
        match self.vm.call_with(api, "gbhost.frame_start", &[]) {
            Ok(r) => {
                let mask = |v: Option<&Value>| v.and_then(Value::as_integer).unwrap_or(0) as u8;
                (mask(r.first()), mask(r.get(1)))
            }
            Err(e) => {
                self.fail(api.frame, &e);
                (0, 0)
            }
        }
    }

    /// Frame end: run the frame-end hooks, then resume the main coroutine.
    pub(crate) fn frame_end(&mut self, api: &mut Api<'_>) {
        if !self.active || !self.running() {
            return;
        }
        if let Err(e) = self.vm.call_with(api, "gbhost.frame_end", &[]) {
            self.fail(api.frame, &e);
            return;
        }
        self.resume(api);
    }

    /// Run the bus hooks for an access (kind 0 read, 1 write, 2 exec).
    pub(crate) fn bus(
        &mut self,
        api: &mut Api<'_>,
        kind: i64,
        addr: u16,
        value: u8,
        bank: Option<u16>,
    ) {
        if !self.active || !self.running() {
            return;
        }
        let args = [
            Value::Integer(kind),
            Value::Integer(i64::from(addr)),
            Value::Integer(i64::from(value)),
            bank.map_or(Value::Nil, |b| Value::Integer(i64::from(b))),
        ];
        if let Err(e) = self.vm.call_with(api, "gbhost.bus", &args) {
            self.fail(api.frame, &e);
        }
    }

    /// The addresses the script watches: (kind, first address, length).
    pub(crate) fn watches(&mut self, api: &mut Api<'_>) -> Vec<(u8, u16, u32)> {
        if !self.active || !self.running() {
            return Vec::new();
        }
        let Ok(r) = self.vm.call_with(api, "gbhost.watches", &[]) else {
            return Vec::new();
        };
        let Some(Value::String(packed)) = r.first() else {
            return Vec::new();
        };
        packed
            .chunks_exact(7)
            .map(|c| {
                (
                    c[0],
                    u16::from_le_bytes([c[1], c[2]]),
                    u32::from_le_bytes([c[3], c[4], c[5], c[6]]),
                )
            })
            .collect()
    }

    /// Run the hooks registered for `event` (`load_state`, `rewind`, `exit`).
    pub(crate) fn fire(&mut self, api: &mut Api<'_>, event: &str) {
        if !self.active || !self.running() {
            return;
        }
        if let Err(e) = self.vm.call_with(api, "gbhost.fire", &[Value::from(event)]) {
            self.fail(api.frame, &e);
        }
    }

    /// A user's action on control `control` of one of the script's forms: the control's data
    /// is updated and its callbacks run (`gbhost.form_event`).
    pub(crate) fn form_event(&mut self, api: &mut Api<'_>, control: u32, value: &FormValue) {
        if !self.active || !self.running() {
            return;
        }
        let (kind, v) = match value {
            FormValue::Click => (0, Value::Nil),
            FormValue::Check(b) => (1, Value::Boolean(*b)),
            FormValue::Text(t) => (2, Value::from(t.as_str())),
            FormValue::Select(i) => (3, Value::Integer(i64::from(*i))),
            FormValue::Close => (4, Value::Nil),
        };
        let args = [Value::Integer(i64::from(control)), Value::Integer(kind), v];
        if let Err(e) = self.vm.call_with(api, "gbhost.form_event", &args) {
            self.fail(api.frame, &e);
        }
    }

    /// The host's keys and mouse from now on (`gbhost.host_input`).
    pub(crate) fn host_input(&mut self, api: &mut Api<'_>, input: &HostInput) {
        if !self.active || !self.running() {
            return;
        }
        let args = [
            Value::from(input.keys.join("\n").as_str()),
            Value::Integer(i64::from(input.mouse_x)),
            Value::Integer(i64::from(input.mouse_y)),
            Value::Integer(i64::from(input.mouse_buttons)),
            Value::Integer(i64::from(input.wheel)),
        ];
        if let Err(e) = self.vm.call_with(api, "gbhost.host_input", &args) {
            self.fail(api.frame, &e);
        }
    }

    /// Ask the VM for its windows' description (`gbhost.ui_view`) and keep it. A VM that
    /// cannot answer (failed, out of memory) keeps showing what it showed.
    pub(crate) fn refresh_ui(&mut self, api: &mut Api<'_>) {
        self.windows.dirty = false;
        if !self.active {
            self.windows.ui = ScriptUi::default();
            return;
        }
        let Ok(r) = self.vm.call_with(api, "gbhost.ui_view", &[]) else {
            return;
        };
        if let Some(Value::String(bytes)) = r.first()
            && let Ok(ui) = api::ui::decode(bytes)
        {
            self.windows.ui = ui;
        }
    }

    /// Its windows as last described.
    pub fn ui(&self) -> &ScriptUi {
        &self.windows.ui
    }

    /// The end-of-frame young collection (before the snapshot).
    pub(crate) fn collect(&mut self) {
        if self.active {
            // A failed collection (out of memory) leaves the VM as it was; nothing to do.
            let _ = self.vm.collect_frame();
        }
    }

    /// What the script printed since the last call.
    pub(crate) fn take_output(&mut self) -> Vec<u8> {
        self.vm.take_output()
    }

    /// After the VM was put back to the state of frame `frame`: a status reached later is
    /// undone (the script had not failed or finished yet then).
    pub(crate) fn rolled_back_to(&mut self, frame: u64) {
        if self.health.status != Status::Running && self.health.since > frame {
            self.health.status = Status::Running;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Request;
    use gb_core::{Cartridge, Gb};

    fn gb() -> Gb {
        let mut rom = vec![0u8; 0x8000];
        rom[0x100] = 0x18; // jr -2
        rom[0x101] = 0xFE;
        Gb::new(Cartridge::from_rom(rom).expect("cart"))
    }

    /// Run `frames` frames of the script's calls; `steps` picks which calls a frame makes.
    fn run(s: &mut Script, gb: &mut Gb, frames: u64, steps: u8) {
        let mut requests: Vec<Request> = Vec::new();
        let mut states = std::collections::HashMap::new();
        let images = std::collections::HashMap::new();
        for f in 0..frames {
            let mut draw = Vec::new();
            let mut persist = BTreeMap::new();
            let mut api = Api {
                gb,
                other: None,
                frame: f,
                draw: &mut draw,
                persist: &mut persist,
                requests: &mut requests,
                states: &mut states,
                images: &images,
                pokes: None,
                slot: 1,
                files: None,
                view: Default::default(),
            };
            if steps & 1 != 0 {
                s.frame_start(&mut api);
            }
            if steps & 2 != 0 {
                s.frame_end(&mut api);
            }
            if steps & 4 != 0 {
                s.collect();
            }
        }
    }

    #[test]
    fn replaying_the_same_calls_after_a_restore_gives_the_same_bytes() {
        for steps in [2u8, 3, 6, 7] {
            let mut gb = gb();
            let mut s = Script::new(1, "t.lua", &ScriptConfig::default()).expect("vm");
            let mut requests = Vec::new();
            let mut states = std::collections::HashMap::new();
            let images = std::collections::HashMap::new();
            let mut draw = Vec::new();
            let mut persist = BTreeMap::new();
            let mut api = Api {
                gb: &mut gb,
                other: None,
                frame: 0,
                draw: &mut draw,
                persist: &mut persist,
                requests: &mut requests,
                states: &mut states,
                images: &images,
                pokes: None,
                slot: 1,
                files: None,
                view: Default::default(),
            };
            s.start(
                &mut api,
                1,
                &Bundle::new("n = 0 while true do n = n + 1 emu.frameadvance() end"),
                Flavor::Native,
            );
            run(&mut s, &mut gb, 5, steps);
            let at5 = s.vm.snapshot();
            run(&mut s, &mut gb, 1, steps);
            let at6 = s.vm.snapshot();
            s.vm.restore(&at5).expect("restore");
            run(&mut s, &mut gb, 1, steps);
            let again = s.vm.snapshot();
            let diff: Vec<usize> = (0..at6.len().min(again.len()))
                .filter(|&i| at6.bytes()[i] != again.bytes()[i])
                .collect();
            assert!(diff.is_empty(), "steps {steps}: bytes {diff:?} differ");
        }
    }
}
