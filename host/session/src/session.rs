//! The session: the Game Boy, its scripts and the event log, run one frame at a time.
//!
//! A frame (see [`Session::run_frame`]): apply the events logged for it that are due at its
//! start → the scripts' frame-start hooks (which also say what buttons they press) → run the
//! core to the frame's end, applying sub-frame events at their cycles → frame-end hooks and
//! each script's main coroutine → each VM's end-of-frame collection → capture a snapshot into
//! the rewind ring (`history.rs`) → hand out the picture, each script's draw list and the
//! console lines.
//!
//! Determinism: the only ways to change emulation from outside are the methods that log an
//! event ([`Session::set_buttons`], [`Session::set_buttons_at`], [`Session::poke`],
//! [`Session::load_script`], [`Session::reload_script`], [`Session::unload_script`],
//! [`Session::load_state`], `load_state_file` and `load_core_image` (in `state_io.rs`), and
//! [`Session::replay_event`] for a movie's events); the frame loop applies events from the
//! log, whether it runs live or replays. Scripts are not
//! outside input: they are replayed, so what they do (memory writes, joypad overrides,
//! script-requested state loads) happens again on a replay.

use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

use gb_core::{Buttons, Cartridge, Frame, Gb};

use crate::api::{Api, DrawCmd, Flavor, Request, SavedState};
use crate::events::{Event, EventKind, EventLog, SourceHash};
use crate::ring::{Method, Ring, RingError};
use crate::script::{Bundle, Script, ScriptConfig};
use gb_core::watch::Access;

/// Why a session cannot be made or a request cannot be carried out.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The ROM is not usable.
    #[error("{0}")]
    Rom(#[from] gb_core::cartridge::CartridgeError),
    /// The boot ROM is not usable.
    #[error("{0}")]
    BootRom(#[from] gb_core::GbError),
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
    /// A core state that does not load.
    #[error("{0}")]
    State(#[from] gb_core::StateError),
    /// A script VM could not be restored.
    #[error("script {slot}: {message}")]
    Script {
        /// The script's slot.
        slot: u32,
        /// What went wrong.
        message: String,
    },
    /// No such script slot.
    #[error("no script in slot {0}")]
    NoScript(u32),
    /// No saved state by that name.
    #[error("no saved state named '{0}'")]
    NoState(String),
    /// A state file cannot be read or used.
    #[error(transparent)]
    StateFile(#[from] crate::statefile::StateFileError),
}

/// How a state file's scripts came back (see [`Session::load_state_file`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScriptRestore {
    /// The VMs were restored exactly (the file was saved by this session).
    Exact,
    /// The scripts restarted at the loaded frame with their `persist` data, and their
    /// `on_load_state` hooks ran (a file of another session or process: arenas hold raw
    /// pointers valid only where they were made).
    Restarted,
}

/// A number made once per process, so a state file's arenas are recognised only by the
/// process (and session) that wrote them.
pub(crate) fn process_nonce() -> u64 {
    static NONCE: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *NONCE.get_or_init(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        fnv1a(&[t.to_le_bytes(), u64::from(std::process::id()).to_le_bytes()].concat())
    })
}

/// Session ids, unique in the process.
static NEXT_SESSION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// How a session stores its history and runs its scripts.
#[derive(Clone, Debug)]
pub struct SessionConfig {
    /// Bytes of the rewind ring (allocated once).
    pub ring_bytes: usize,
    /// Frames between two keyframes.
    pub keyframe_interval: u64,
    /// How the core image's per-frame diffs are stored.
    pub core_method: Method,
    /// How script arenas' per-frame diffs are stored.
    pub script_method: Method,
    /// How keyframes are stored.
    pub keyframe_method: Method,
    /// Script VM settings.
    pub scripts: ScriptConfig,
    /// After every seek, compare the replayed frame with the recorded one (NetHack 4's desync
    /// detector). On by default in debug builds.
    pub desync_check: bool,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            ring_bytes: 64 << 20,
            keyframe_interval: 600,
            // Measured on Tobu Tobu Girl gameplay with the ~230-line HUD script (`gbhost bench
            // --rewind`): the core's per-frame diffs are as small stored as compressed (the
            // zero-run coding leaves nothing for zstd or lz4), so they are stored; the arena
            // diffs shrink by 17 % with lz4, by 20 % with zstd at its fast level -1 (+2-3 µs a
            // frame) and by 25 % at level 1 (+13 µs): zstd at level -1 keeps both the bytes and
            // the capture time within their goals. Keyframes: zstd too.
            core_method: Method::Stored,
            script_method: Method::Zstd,
            keyframe_method: Method::Zstd,
            scripts: ScriptConfig::default(),
            desync_check: cfg!(debug_assertions),
        }
    }
}

/// What the session was started with (part of the log: a replay needs the same).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartParams {
    /// The emulated model.
    pub model: &'static str,
    /// FNV-1a hash of the ROM image.
    pub rom_hash: u64,
    /// FNV-1a hash of the boot ROM, if one runs.
    pub boot_rom_hash: Option<u64>,
    /// Unix time the cartridge clock (MBC3 RTC) starts from; the clock then runs on emulated
    /// time.
    pub rtc_start: u64,
}

/// A line a script printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsoleLine {
    /// The script's slot.
    pub slot: u32,
    /// The text.
    pub text: String,
}

/// Timing and size figures of the last frames.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Time the last capture took, in nanoseconds.
    pub capture_ns: u64,
    /// Bytes the last record took in the ring.
    pub record_bytes: usize,
    /// Of those, the core's parts.
    pub record_core_bytes: usize,
    /// Whether the last record was a keyframe.
    pub record_keyframe: bool,
    /// Replayed frames that did not match their record (the desync check).
    pub desyncs: u64,
    /// Frames replayed by seeks and checks.
    pub replayed: u64,
}

/// The deterministic machine: core + script VMs + event log + rewind ring.
pub struct Session {
    pub(crate) gb: Gb,
    pub(crate) start: StartParams,
    pub(crate) config: SessionConfig,
    /// Frames completed: the position on the timeline.
    pub(crate) frame: u64,
    pub(crate) log: EventLog,
    pub(crate) sources: HashMap<SourceHash, Bundle>,
    /// The latest source of each script, the truth a restored VM is brought up to.
    pub(crate) current: BTreeMap<u32, SourceHash>,
    /// Every script slot, loaded or parked, by slot id.
    pub(crate) scripts: Vec<Script>,
    pub(crate) next_slot: u32,
    pub(crate) ring: Ring,
    /// The core image at `frame` (the base of the next diff).
    pub(crate) core_prev: Vec<u8>,
    pub(crate) core_now: Vec<u8>,
    /// Length of the core image before padding to whole words.
    pub(crate) core_len: usize,
    pub(crate) key_bufs: Vec<Vec<u8>>,
    pub(crate) diff_bufs: Vec<Vec<u8>>,
    pub(crate) dec: Vec<u8>,
    /// Frame of the newest keyframe.
    pub(crate) last_key: u64,
    /// Slots active at `frame`'s record.
    pub(crate) prev_slots: Vec<u32>,
    /// The cursor was rebuilt from the live state: the next record must be a keyframe.
    pub(crate) cursor_fresh: bool,
    /// The buttons the user holds (from the log).
    pub(crate) user_buttons: Buttons,
    /// Buttons scripts press and release this frame.
    overrides: (u8, u8),
    pub(crate) console: Vec<ConsoleLine>,
    requests: Vec<Request>,
    states: HashMap<String, SavedState>,
    /// States saved by scripts (`savestate.save`), kept apart from the user's.
    script_states: HashMap<String, SavedState>,
    pub(crate) user_states: Vec<SavedState>,
    pub(crate) picture: Frame,
    /// A replay is running: its console output is dropped.
    pub(crate) replaying: bool,
    /// `on_load_state` hooks are running.
    firing_load: bool,
    /// Scratch list of watchpoint hits.
    hits: Vec<gb_core::watch::Hit>,
    pub(crate) stats: Stats,
    /// This session's id in the process (state files' arena token).
    pub(crate) id: u64,
    /// `persist` tables logged for slots whose script is not loaded yet.
    pending_persist: BTreeMap<u32, BTreeMap<Vec<u8>, lua_rollback::Value>>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("frame", &self.frame)
            .field("start", &self.start)
            .field("scripts", &self.scripts)
            .field("ring", &self.ring)
            .finish()
    }
}

/// FNV-1a over bytes.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Put the loaded scripts of a saved state back (all but `except`).
fn restore_scripts(
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
        }
    }
}

impl Session {
    /// A session running `rom` on a DMG, from the post-boot state or through `boot_rom`.
    pub fn new(
        rom: Vec<u8>,
        boot_rom: Option<&[u8]>,
        config: SessionConfig,
    ) -> Result<Session, SessionError> {
        let rom_hash = fnv1a(&rom);
        let cart = Cartridge::from_rom(rom)?;
        let gb = match boot_rom {
            Some(b) => Gb::with_boot_rom(cart, b)?,
            None => Gb::new(cart),
        };
        let start = StartParams {
            model: "DMG",
            rom_hash,
            boot_rom_hash: boot_rom.map(fnv1a),
            rtc_start: 0,
        };
        let mut s = Session {
            gb,
            start,
            ring: Ring::new(config.ring_bytes),
            config,
            frame: 0,
            log: EventLog::default(),
            sources: HashMap::new(),
            current: BTreeMap::new(),
            scripts: Vec::new(),
            next_slot: 1,
            core_prev: Vec::new(),
            core_now: Vec::new(),
            core_len: 0,
            key_bufs: Vec::new(),
            diff_bufs: Vec::new(),
            dec: Vec::new(),
            last_key: 0,
            prev_slots: Vec::new(),
            cursor_fresh: false,
            user_buttons: Buttons::default(),
            overrides: (0, 0),
            console: Vec::new(),
            requests: Vec::new(),
            states: HashMap::new(),
            script_states: HashMap::new(),
            user_states: Vec::new(),
            picture: Frame::default(),
            replaying: false,
            firing_load: false,
            hits: Vec::new(),
            stats: Stats::default(),
            id: NEXT_SESSION.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            pending_persist: BTreeMap::new(),
        };
        s.capture();
        Ok(s)
    }

    /// Frames completed: the position on the timeline.
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// The machine (read only: changes go through logged events).
    pub fn gb(&self) -> &Gb {
        &self.gb
    }

    /// Move the audio the frames run so far made into `out` (see `Gb::drain_audio`); returns
    /// how many stereo samples were written. Audio is output, not state: draining changes
    /// nothing a snapshot holds.
    pub fn drain_audio(&mut self, out: &mut [gb_core::apu::Sample]) -> usize {
        self.gb.drain_audio(out)
    }

    /// Forget the audio waiting, e.g. what a seek or a replay made again.
    pub fn discard_audio(&mut self) {
        self.gb.discard_audio();
    }

    /// What the session was started with.
    pub fn start_params(&self) -> &StartParams {
        &self.start
    }

    /// The event log.
    pub fn log(&self) -> &EventLog {
        &self.log
    }

    /// The rewind ring.
    pub fn ring(&self) -> &Ring {
        &self.ring
    }

    /// Timing and size figures.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The last completed frame as shade indices 0-3 (160 × 144, 0 lightest).
    pub fn picture(&self) -> &[u8] {
        &self.picture.0[..]
    }

    /// The loaded scripts (parked ones excluded), in slot order.
    pub fn scripts(&self) -> impl Iterator<Item = &Script> {
        self.scripts.iter().filter(|s| s.active)
    }

    /// Each loaded script's overlay for the last frame.
    pub fn draw_lists(&self) -> impl Iterator<Item = (u32, &[DrawCmd])> {
        self.scripts().map(|s| (s.slot, &s.draw[..]))
    }

    pub(crate) fn push_console(&mut self, line: ConsoleLine) {
        self.console.push(line);
    }

    /// Take the lines scripts printed since the last call.
    pub fn take_console(&mut self) -> Vec<ConsoleLine> {
        std::mem::take(&mut self.console)
    }

    /// Run `f` on script `i` with its API context (its draw list and persist table are moved
    /// out for the call, so the script and the context can both be borrowed).
    pub(crate) fn with_script<R>(
        &mut self,
        i: usize,
        f: impl FnOnce(&mut Script, &mut Api<'_>) -> R,
    ) -> R {
        let (frame, user_buttons, rom_hash) = (self.frame, self.user_buttons, self.start.rom_hash);
        let script = &mut self.scripts[i];
        let mut draw = std::mem::take(&mut script.draw);
        let mut persist = std::mem::take(&mut script.persist);
        let images = std::mem::take(&mut script.images);
        let t0 = Instant::now();
        let r = {
            let mut api = Api {
                images: &images,
                gb: &mut self.gb,
                frame,
                draw: &mut draw,
                persist: &mut persist,
                requests: &mut self.requests,
                states: &mut self.script_states,
                user_buttons,
                rom_hash,
            };
            f(script, &mut api)
        };
        script.time_ns += t0.elapsed().as_nanos() as u64;
        script.draw = draw;
        script.persist = persist;
        // A reload during the call installed its own images; keep them.
        if script.images.is_empty() {
            script.images = images;
        }
        r
    }

    pub(crate) fn log_now(&mut self, kind: EventKind) {
        self.fork();
        let cycle = self.gb.cycles();
        self.log.push(Event {
            frame: self.frame,
            cycle,
            kind,
        });
    }

    /// Hold `buttons` from the next frame on (logged only when they change).
    pub fn set_buttons(&mut self, buttons: Buttons) {
        if buttons != self.user_buttons {
            self.log_now(EventKind::Joypad(buttons));
            self.user_buttons = buttons;
        }
    }

    /// Log a joypad change at an exact cycle of the next frame (sub-frame input, e.g. from a
    /// movie). `cycle` is clamped to the frame.
    pub fn set_buttons_at(&mut self, buttons: Buttons, cycle: u64) {
        self.fork();
        let cycle = cycle.max(self.gb.cycles());
        self.log.push(Event {
            frame: self.frame,
            cycle,
            kind: EventKind::Joypad(buttons),
        });
    }

    /// Log `event` as it is (a movie's event, played back): it must belong to the next frame
    /// (its frame is set to it; its cycle is kept, so sub-frame input lands where it was
    /// recorded). A script load or reload needs its bundle, given as `bundle`.
    pub fn replay_event(&mut self, event: &Event, bundle: Option<&Bundle>) {
        if let Some(b) = bundle {
            self.sources.insert(b.hash(), b.clone());
        }
        match &event.kind {
            EventKind::ScriptLoad { slot, hash, .. } | EventKind::ScriptReload { slot, hash } => {
                self.current.insert(*slot, *hash);
                self.next_slot = self.next_slot.max(slot + 1);
            }
            EventKind::ScriptUnload { slot } => {
                self.current.remove(slot);
            }
            _ => {}
        }
        self.fork();
        self.log.push(Event {
            frame: self.frame,
            cycle: event.cycle,
            kind: event.kind.clone(),
        });
    }

    /// The bundle of a source version the session knows.
    pub fn source(&self, hash: SourceHash) -> Option<&Bundle> {
        self.sources.get(&hash)
    }

    /// Write `value` to `addr` before the next frame (a console poke or a cheat; logged).
    pub fn poke(&mut self, addr: u16, value: u8) {
        self.log_now(EventKind::Poke { addr, value });
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
        self.sources.insert(hash, bundle);
        let slot = self.next_slot;
        self.next_slot += 1;
        self.current.insert(slot, hash);
        self.log_now(EventKind::ScriptLoad {
            slot,
            name: name.to_owned(),
            hash,
            flavor,
        });
        slot
    }

    /// Re-run a new version of a script's source on its data (before the next frame). After a
    /// rewind, the new version is what runs from wherever play resumes.
    pub fn reload_script(&mut self, slot: u32, source: &str) -> Result<(), SessionError> {
        self.reload_bundle(slot, Bundle::new(source))
    }

    /// [`Session::reload_script`] with the modules the script may `require` (a module's change
    /// is a reload too).
    pub fn reload_bundle(&mut self, slot: u32, bundle: Bundle) -> Result<(), SessionError> {
        if !self.current.contains_key(&slot) {
            return Err(SessionError::NoScript(slot));
        }
        let hash = bundle.hash();
        self.sources.insert(hash, bundle);
        self.current.insert(slot, hash);
        self.log_now(EventKind::ScriptReload { slot, hash });
        Ok(())
    }

    /// Unload a script (before the next frame).
    pub fn unload_script(&mut self, slot: u32) -> Result<(), SessionError> {
        if self.current.remove(&slot).is_none() {
            return Err(SessionError::NoScript(slot));
        }
        self.log_now(EventKind::ScriptUnload { slot });
        Ok(())
    }

    /// Save the whole state (core and every script) in memory under `name`.
    pub fn save_state(&mut self, name: &str) {
        let state = self.saved_state();
        self.states.insert(name.to_owned(), state);
    }

    /// Load a state saved with [`Session::save_state`] (a user request: scripts roll back).
    /// Logged, so a replay loads the same bytes.
    pub fn load_state(&mut self, name: &str) -> Result<(), SessionError> {
        let state = self
            .states
            .get(name)
            .cloned()
            .ok_or_else(|| SessionError::NoState(name.to_owned()))?;
        let index = self.user_states.len();
        self.user_states.push(state);
        self.log_now(EventKind::LoadState { index });
        Ok(())
    }

    fn saved_state(&mut self) -> SavedState {
        let mut core = Vec::new();
        self.gb.save_state(&mut core);
        let scripts = self
            .scripts
            .iter_mut()
            .filter(|s| s.active)
            .map(|s| (s.slot, s.vm.snapshot()))
            .collect();
        SavedState { core, scripts }
    }

    fn apply_saved(&mut self, state: &SavedState, except: Option<u32>) {
        // The image was made by this session: it always loads.
        let _ = self.gb.load_state(&state.core);
        restore_scripts(&mut self.scripts, &state.scripts, except);
        self.rebuild_watches();
        self.gb.set_buttons(self.effective_buttons());
    }

    /// Resuming play after a seek forks the timeline: the recorded future is forgotten, and
    /// scripts whose source changed since the frame they were restored to are reloaded.
    pub(crate) fn fork(&mut self) {
        let Some((_, last)) = self.ring.frames() else {
            return;
        };
        if last <= self.frame {
            return;
        }
        self.ring.truncate_after(self.frame);
        self.log.truncate_from(self.frame);
        // Slots whose load was in the forgotten future are gone for good.
        let loaded: Vec<u32> = self
            .log
            .events()
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::ScriptLoad { slot, .. } => Some(slot),
                _ => None,
            })
            .collect();
        self.scripts.retain(|s| loaded.contains(&s.slot));
        self.current.retain(|slot, _| loaded.contains(slot));
        // The source being edited is the truth: bring restored VMs up to it.
        let cycle = self.gb.cycles();
        let mut reloads = Vec::new();
        for s in self.scripts.iter().filter(|s| s.active) {
            match self.current.get(&s.slot) {
                Some(&hash) if hash != s.hash => {
                    reloads.push(EventKind::ScriptReload { slot: s.slot, hash })
                }
                None => reloads.push(EventKind::ScriptUnload { slot: s.slot }),
                _ => {}
            }
        }
        reloads.push(EventKind::Resumed);
        for kind in reloads {
            self.log.push(Event {
                frame: self.frame,
                cycle,
                kind,
            });
        }
    }

    pub(crate) fn effective_buttons(&self) -> Buttons {
        let (press, release) = self.overrides;
        Buttons((self.user_buttons.0 & !release) | press)
    }

    fn apply_event(&mut self, event: &Event) {
        match &event.kind {
            EventKind::Joypad(b) => {
                self.user_buttons = *b;
                self.gb.set_buttons(self.effective_buttons());
            }
            EventKind::Poke { addr, value } => self.gb.poke(*addr, *value),
            EventKind::ScriptLoad {
                slot,
                name,
                hash,
                flavor,
            } => {
                let bundle = self.sources.get(hash).cloned().unwrap_or_default();
                let i = match self.scripts.iter().position(|s| s.slot == *slot) {
                    Some(i) => i,
                    None => match Script::new(*slot, name, &self.config.scripts) {
                        Ok(s) => {
                            let i = self.scripts.partition_point(|x| x.slot < *slot);
                            self.scripts.insert(i, s);
                            i
                        }
                        Err(message) => {
                            self.console.push(ConsoleLine {
                                slot: *slot,
                                text: message,
                            });
                            return;
                        }
                    },
                };
                if let Some(p) = self.pending_persist.remove(slot) {
                    self.scripts[i].persist = p;
                }
                self.scripts[i].images = bundle.images.iter().cloned().collect();
                self.with_script(i, |s, api| s.start(api, *hash, &bundle, *flavor));
                self.after_script_call(i);
            }
            EventKind::ScriptReload { slot, hash } => {
                let bundle = self.sources.get(hash).cloned().unwrap_or_default();
                if let Some(i) = self
                    .scripts
                    .iter()
                    .position(|s| s.slot == *slot && s.active)
                {
                    self.with_script(i, |s, api| s.reload(api, *hash, &bundle));
                    self.after_script_call(i);
                }
            }
            EventKind::ScriptUnload { slot } => {
                if let Some(i) = self.scripts.iter().position(|s| s.slot == *slot) {
                    self.with_script(i, |s, api| s.fire(api, "exit"));
                    self.after_script_call(i);
                    self.scripts[i].active = false;
                    self.scripts[i].draw.clear();
                    self.rebuild_watches();
                }
            }
            EventKind::LoadState { index } => {
                if let Some(state) = self.user_states.get(*index).cloned() {
                    self.apply_saved(&state, None);
                    self.fire_all("load_state");
                }
            }
            EventKind::Resumed => self.fire_all("rewind"),
            EventKind::Persist { slot, data } => {
                let table = crate::codec::decode_persist(&mut crate::codec::Dec::new(data))
                    .unwrap_or_default();
                match self.scripts.iter_mut().find(|s| s.slot == *slot) {
                    Some(s) => s.persist = table,
                    None => {
                        self.pending_persist.insert(*slot, table);
                    }
                }
            }
        }
    }

    /// Set the core's watchpoints to what the loaded scripts' bus hooks ask for.
    pub(crate) fn rebuild_watches(&mut self) {
        self.gb.clear_watches();
        for i in 0..self.scripts.len() {
            if self.scripts[i].active {
                for (kind, addr, len) in self.with_script(i, |s, api| s.watches(api)) {
                    let access = match kind {
                        0 => Access::Read,
                        1 => Access::Write,
                        _ => Access::Exec,
                    };
                    self.gb.add_watch(access, addr, len);
                }
            }
        }
    }

    /// Run the scripts' bus hooks for the watchpoint hits the core stopped on.
    fn service_hits(&mut self) {
        let mut hits = std::mem::take(&mut self.hits);
        self.gb.watch().take_hits(&mut hits);
        for hit in &hits {
            let kind = match hit.access {
                Access::Read => 0,
                Access::Write => 1,
                Access::Exec => 2,
            };
            for i in 0..self.scripts.len() {
                if self.scripts[i].active {
                    self.with_script(i, |s, api| s.bus(api, kind, hit.addr, hit.value));
                    self.after_script_call(i);
                }
            }
            if hit.access == Access::Exec {
                self.gb.watch().skip_exec_once(hit.addr);
            }
        }
        self.hits = hits;
    }

    /// Run every loaded script's hooks for `event`.
    pub(crate) fn fire_all(&mut self, event: &str) {
        for i in 0..self.scripts.len() {
            if self.scripts[i].active {
                self.with_script(i, |s, api| s.fire(api, event));
                self.after_script_call(i);
            }
        }
    }

    /// After a call into script `i`: route its output and carry out its state requests.
    pub(crate) fn after_script_call(&mut self, i: usize) {
        let out = self.scripts[i].take_output();
        if !self.replaying && !out.is_empty() {
            let slot = self.scripts[i].slot;
            for line in String::from_utf8_lossy(&out).lines() {
                self.console.push(ConsoleLine {
                    slot,
                    text: line.to_owned(),
                });
            }
        }
        if let Some(msg) = self.scripts[i].take_new_error()
            && !self.replaying
        {
            let (slot, name) = (self.scripts[i].slot, &self.scripts[i].name);
            // Name the script when Lua's message does not (budget, memory).
            let text = if msg.contains(name.as_str()) {
                format!("error: {msg}")
            } else {
                format!("error: {name}: {msg}")
            };
            self.console.push(ConsoleLine { slot, text });
        }
        if let Some(msg) = self.scripts[i].take_reload_error()
            && !self.replaying
        {
            let (slot, name) = (self.scripts[i].slot, &self.scripts[i].name);
            let text = format!(
                "error: the new version of {name} was not loaded (the previous one keeps running): {msg}"
            );
            self.console.push(ConsoleLine { slot, text });
        }
        let caller = self.scripts[i].slot;
        let mut loaded = false;
        let mut watches = false;
        for req in std::mem::take(&mut self.requests) {
            match req {
                Request::Save(name) => {
                    let scripts: Vec<_> = self
                        .scripts
                        .iter_mut()
                        .filter(|s| s.active)
                        .map(|s| (s.slot, s.vm.snapshot()))
                        .collect();
                    if let Some(state) = self.script_states.get_mut(&name) {
                        state.scripts = scripts;
                    }
                }
                Request::Watches => watches = true,
                Request::Load(name) => {
                    loaded = true;
                    // The core was loaded during the call. A load the script asked for does not
                    // roll the script itself back: bots loop save → try → load.
                    if let Some(state) = self.script_states.get(&name) {
                        restore_scripts(&mut self.scripts, &state.scripts, Some(caller));
                    }
                }
            }
        }
        if watches || loaded {
            self.rebuild_watches();
        }
        // A load made from an `on_load_state` hook does not fire the hooks again.
        if loaded && !self.firing_load {
            self.firing_load = true;
            self.fire_all("load_state");
            self.firing_load = false;
        }
    }

    /// Run one frame, capture it into the rewind ring, and hand out its outputs. After a seek,
    /// this resumes play there and forgets the recorded future.
    pub fn run_frame(&mut self) {
        self.fork();
        self.step_frame();
        self.capture();
    }

    /// The frame loop proper (no capture): used live and for replays.
    pub(crate) fn step_frame(&mut self) {
        // A frame's overlay is what the scripts draw from here to the frame's end.
        for s in &mut self.scripts {
            s.draw.clear();
            s.last_frame_ns = std::mem::take(&mut s.time_ns);
        }
        let events: Vec<Event> = self.log.frame(self.frame).to_vec();
        let mut next = 0;
        let start = self.gb.cycles();
        while next < events.len() && events[next].cycle <= start {
            self.apply_event(&events[next]);
            next += 1;
        }
        // Frame-start hooks, and the buttons scripts hold this frame.
        let (mut press, mut release) = (0u8, 0u8);
        for i in 0..self.scripts.len() {
            if !self.scripts[i].active {
                continue;
            }
            let (p, r) = self.with_script(i, |s, api| s.frame_start(api));
            press |= p;
            release |= r;
            self.after_script_call(i);
        }
        self.overrides = (press, release & !press);
        self.gb.set_buttons(self.effective_buttons());
        // The core, with sub-frame events at their cycles, stopping for the scripts' bus hooks.
        let mut ended = false;
        while !ended {
            ended = match events.get(next) {
                Some(e) => self.gb.run_until_cycle(e.cycle),
                None => self.gb.run_frame_watched(),
            };
            if self.gb.watch().has_hits() {
                self.service_hits();
            }
            if !ended && next < events.len() && events[next].cycle <= self.gb.cycles() {
                self.apply_event(&events[next]);
                next += 1;
            }
        }
        for event in &events[next..] {
            self.apply_event(event);
        }
        self.frame += 1;
        self.gb.swap_frame(&mut self.picture);
        // Frame-end hooks and the main coroutines.
        for i in 0..self.scripts.len() {
            if !self.scripts[i].active {
                continue;
            }
            self.with_script(i, |s, api| s.frame_end(api));
            self.after_script_call(i);
            self.scripts[i].collect();
        }
    }

    /// A frame's capture time and record size, and the ring's fill.
    pub fn history_bytes(&self) -> usize {
        self.ring.used_bytes()
    }

    /// The oldest and newest frames the rewind history holds.
    pub fn history(&self) -> Option<(u64, u64)> {
        self.ring.frames()
    }

    /// Capture the state at `self.frame` into the ring.
    pub(crate) fn capture(&mut self) {
        let t0 = Instant::now();
        self.record_frame();
        self.stats.capture_ns = t0.elapsed().as_nanos() as u64;
    }
}
