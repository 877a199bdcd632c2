//! [`Session`]: the Game Boy, its scripts and the event log, run one frame at a time; the
//! type, its start parameters and configuration, and what it hands out.
//!
//! Its state is made of parts with one job each (`parts/`, below the methods: a part names
//! no other part and never the session): the [`Machine`] it runs (one Game Boy today, the
//! seam a linked pair goes in), the `Timeline` (the frame, the event log, the history, the
//! figures), the `States` kept in memory, the `Scripts` (slots, sources, what their calls
//! leave), the `World` scripts see (clock, files, movie, editor), the `Inputs` in force
//! (buttons, host keys, cheats), the `Debugger` (breakpoints, a frame stopped midway) and the
//! `Output` waiting for the host (console lines, client requests).
//!
//! Its methods are split by concern, each moving whichever parts it needs:
//! - `input.rs`: the methods that log outside input (the only ways to change emulation from
//!   outside: buttons, pokes, cheats, script loads, reloads and unloads, forms, file reads,
//!   movie events), and the fork of the timeline when play resumes in the past;
//! - `frame.rs`: the frame loop, live and on replays (events at their cycles, hooks, the core,
//!   the coroutines);
//! - `hooks.rs`: calling into a script with its API context, and what follows a call (output,
//!   errors, state requests, bus watches);
//! - `timeline.rs`: restore, seek, step back and the sync test, over the [`History`];
//! - `states.rs`: states in memory and state files (saving, loading as a logged event,
//!   starting a session from one);
//! - `debugger.rs`: breakpoints, debug runs and traces; `run.rs`: the frame under way and a
//!   debug run, which the frame loop, the hooks and the debugger share;
//! - `console.rs`: the REPL's Lua, evaluated with the scripts' API outside the timeline;
//!   `trace.rs`: a frame's digest.
//!
//! A frame ([`Session::run_frame`]): apply the events logged for it that are due at its start
//! → the scripts' frame-start hooks (which also say what buttons they press) → run the core
//! to the frame's end, applying sub-frame events at their cycles → frame-end hooks and each
//! script's main coroutine → each VM's end-of-frame collection → capture into the history →
//! hand out the picture, each script's draw list and the console lines.
//!
//! Determinism: only the methods of `input.rs` and the state loads of `states.rs` change
//! emulation from outside, and each logs an event; every event enters the log through
//! `input.rs` (its test holds the other files to it). The frame loop applies events from the
//! log, whether it runs live or replays. Scripts are not outside input: they are replayed, so
//! what they do (memory writes, joypad overrides, script-requested state loads) happens again
//! on a replay.

mod console;
mod debugger;
mod frame;
mod hooks;
mod input;
mod parts;
mod run;
mod states;
mod timeline;
mod trace;

use std::time::Instant;

use gb_core::{Boot, Cartridge, DmgPalette, Frame, FrameRule, Gb, Model, ModelChoice, RamInit};

use crate::api::DrawCmd;
use crate::data::fnv1a;
use crate::events::EventLog;
use crate::machine::Machine;
use crate::rewind::history::{HistoryConfig, HistoryError};
use crate::rewind::{History, Method};
use crate::script::{Script, ScriptConfig};
use parts::debugger::Debugger;
use parts::inputs::Inputs;
pub use parts::output::ConsoleLine;
use parts::output::Output;
use parts::scripts::Scripts;
use parts::states::States;
pub use parts::timeline::Stats;
use parts::timeline::Timeline;
use parts::world::World;

/// Why a session cannot be made or a request cannot be carried out.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The ROM is not usable.
    #[error("{0}")]
    Rom(#[from] gb_core::cartridge::CartridgeError),
    /// The battery RAM does not fit the cartridge.
    #[error("the battery save does not fit this cartridge: {0}")]
    Battery(gb_core::cartridge::CartridgeError),
    /// The boot ROM is not usable.
    #[error("{0}")]
    BootRom(#[from] gb_core::GbError),
    /// The history cannot go to a frame (not held, or damaged).
    #[error(transparent)]
    History(#[from] HistoryError),
    /// A core state that does not load.
    #[error("{0}")]
    State(#[from] gb_core::StateError),
    /// A BESS file the core refuses.
    #[error(transparent)]
    Bess(#[from] gb_core::bess::BessError),
    /// No such script slot.
    #[error("no script in slot {0}")]
    NoScript(u32),
    /// A script was asked to run against a player the session does not have.
    #[error("there is no player {} here: the session runs {players} Game Boy(s)", player + 1)]
    NoPlayer {
        /// The player asked for (0: the first).
        player: usize,
        /// How many the session runs.
        players: usize,
    },
    /// No saved state by that name.
    #[error("no saved state named '{0}'")]
    NoState(String),
    /// A state file cannot be read or used.
    #[error(transparent)]
    StateFile(#[from] crate::state::file::StateFileError),
}

/// How a state file's scripts came back (see [`Session::load_state_file`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptRestore {
    /// The VMs were restored exactly: from this session's own arenas, or from the file's
    /// portable images, sealed with this user's key.
    Exact,
    /// The scripts restarted at the loaded frame with their `persist` data, and their
    /// `on_load_state` hooks ran; the text says why they were not restored exactly (another
    /// user's file, no images, scripts that differ from the running ones…).
    Restarted(String),
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
    /// Run a cartridge type the core does not emulate with a stand-in mapper
    /// (`gb_core::Cartridge::from_rom_forced`, the user's `--force`) instead of refusing it.
    /// It applies to every way a session starts (a ROM, a state file, a movie), so a run made
    /// with it replays with it; without it such a cartridge is a clear error.
    pub force_unsupported: bool,
    /// The user's state key ([`crate::keys::user_key`]): state files and movie keyframes carry
    /// the scripts' portable VM images sealed with it, and images sealed with it are restored
    /// exactly. `None`: no images are written, and every load restarts the scripts.
    pub image_key: Option<lua_rollback::ImageKey>,
    /// The folder whose files scripts loaded without one of their own use (a movie's or state
    /// file's scripts, played back here): `None`, no files for them.
    pub script_folder: Option<std::path::PathBuf>,
    /// Where each script's own data folder is made (`io.open("data:best.txt")` opens
    /// `<this>/<script name>/best.txt`): `None`, scripts have no data folder.
    pub script_data: Option<std::path::PathBuf>,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            ring_bytes: 64 << 20,
            keyframe_interval: 600,
            // Measured on Tobu Tobu Girl gameplay with the ~230-line HUD script (`gbhost bench
            // --rewind`): diff records are sealed 16 at a time into one batch record whose
            // parts zstd compresses together (see `rewind/history.rs`); the core's diffs,
            // which zstd could not shrink one frame at a time, lose ~40 % that way, the arena
            // diffs ~55 %. Keyframes: zstd too.
            core_method: Method::Zstd,
            script_method: Method::Zstd,
            keyframe_method: Method::Zstd,
            scripts: ScriptConfig::default(),
            desync_check: cfg!(debug_assertions),
            force_unsupported: false,
            image_key: None,
            script_folder: None,
            script_data: None,
        }
    }
}

impl SessionConfig {
    /// The history's part of the configuration.
    pub fn history(&self) -> HistoryConfig {
        HistoryConfig {
            ring_bytes: self.ring_bytes,
            keyframe_interval: self.keyframe_interval,
            core_method: self.core_method,
            script_method: self.script_method,
            keyframe_method: self.keyframe_method,
        }
    }
}

/// What the session was started with (part of the log: a replay needs the same).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartParams {
    /// The emulated model.
    pub model: Model,
    /// FNV-1a hash of the ROM image.
    pub rom_hash: u64,
    /// FNV-1a hash of the boot ROM, if one runs.
    pub boot_rom_hash: Option<u64>,
    /// Unix time the cartridge clock (MBC3 RTC) starts from; the clock then runs on emulated
    /// time.
    pub rtc_start: u64,
    /// The battery-backed cartridge RAM (and clock) the machine powered on with, as a `.sav`
    /// file holds it (see [`PowerOn::battery`]); movies from power-on carry it.
    pub battery: Option<Vec<u8>>,
    /// What work RAM, HRAM and OAM held at power-on (see [`PowerOn::ram_init`]).
    pub ram_init: RamInit,
    /// The compatibility palette a DMG game got on the CGB (see [`PowerOn::dmg_palette`]).
    pub dmg_palette: DmgPalette,
    /// Where frames end (see [`PowerOn::frame_rule`]).
    pub frame_rule: FrameRule,
    /// A linked pair's second player's start (its `frame_rule` unused: the first player's
    /// counts); `None` for one Game Boy.
    pub second: Option<Box<StartParams>>,
}

/// How the machine powers on, besides its ROM: everything a replay of the session needs to
/// start the same (it becomes part of the [`StartParams`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PowerOn {
    /// A DMG boot ROM to run first (else the machine starts in the post-boot state).
    pub boot_rom: Option<Vec<u8>>,
    /// Battery-backed cartridge RAM to power on with, in the `.sav` layout
    /// (`gb_core::Cartridge::load_battery`: the RAM, then the MBC3 clock's footer if any).
    /// Loaded into the cartridge before the first cycle, as a battery keeps it: not an event.
    pub battery: Option<Vec<u8>>,
    /// What work RAM, HRAM and OAM hold at power-on: the hardware-like pattern from a seed (the
    /// default seed unless one is chosen), or zeros. A seed drawn at random is still a start
    /// parameter: the session records it, so every replay powers on the same.
    pub ram_init: RamInit,
    /// The model, or `auto` (the CGB for cartridges whose header asks for it, else the DMG);
    /// the session records the model it chose.
    pub model: ModelChoice,
    /// On the CGB, the palette its boot ROM gives a DMG game: its choice from the title, or
    /// one of the 12 button combinations held at power-on.
    pub dmg_palette: DmgPalette,
    /// Where frames end: as BizHawk counts them (the default), or gbhost's rule before core
    /// version 2, which movies recorded then play with (`gb_core::FrameRule`).
    pub frame_rule: FrameRule,
}

/// The ROM images a session runs: one Game Boy's, or a linked pair's (the first player's,
/// then the second's). A single ROM converts into it, so callers that run one Game Boy pass
/// their ROM as before.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Roms {
    /// The first player's ROM (the only one of a single Game Boy).
    pub first: Vec<u8>,
    /// A linked pair's second player's ROM.
    pub second: Option<Vec<u8>>,
}

impl Roms {
    /// The ROMs of two linked Game Boys.
    pub fn linked(first: Vec<u8>, second: Vec<u8>) -> Roms {
        Roms {
            first,
            second: Some(second),
        }
    }

    /// How many Game Boys they make: 1, or 2 for a pair.
    pub fn players(&self) -> usize {
        1 + usize::from(self.second.is_some())
    }
}

impl From<Vec<u8>> for Roms {
    fn from(first: Vec<u8>) -> Roms {
        Roms {
            first,
            second: None,
        }
    }
}

/// The deterministic machine: core + script VMs + event log + rewind history, as parts with
/// one job each (see the module's docs).
pub struct Session {
    /// The emulated hardware (one Game Boy).
    pub(crate) machine: Machine,
    pub(crate) start: StartParams,
    pub(crate) config: SessionConfig,
    /// This session's id in the process (state files' arena token).
    pub(crate) id: u64,
    /// Scripts [`Session::from_state_file`] restarted from their `persist` data instead of
    /// restoring them exactly.
    pub(crate) restarted_at_start: usize,
    /// The position, the event log and the rewind history.
    pub(crate) timeline: Timeline,
    /// States kept in memory: the user's, the scripts', and those loaded (by log index).
    pub(crate) states: States,
    /// Every script slot and the sources they run.
    pub(crate) scripts: Scripts,
    /// What the scripts see of the world outside the machine.
    pub(crate) world: World,
    /// The outside input in force, and the scripts' presses this frame.
    pub(crate) inputs: Inputs,
    /// Breakpoints and the frame a debugger stopped in.
    pub(crate) debugger: Debugger,
    /// Console lines and client requests waiting for the host.
    pub(crate) output: Output,
    /// The console's own Lua VM (outside the timeline), made when first used.
    pub(crate) console_vm: Option<crate::api::console::Console>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("frame", &self.timeline.frame)
            .field("start", &self.start)
            .field("scripts", &self.scripts.list)
            .field("history", &self.timeline.history)
            .finish()
    }
}

impl Session {
    /// A session running `rom` on a DMG, from the post-boot state or through `boot_rom`
    /// (see [`Session::power_on`]).
    pub fn new(
        rom: Vec<u8>,
        boot_rom: Option<&[u8]>,
        config: SessionConfig,
    ) -> Result<Session, SessionError> {
        let power = PowerOn {
            boot_rom: boot_rom.map(<[u8]>::to_vec),
            ..PowerOn::default()
        };
        Session::power_on(rom, power, config)
    }

    /// A session running `rom` powered on as `power` says (model, boot ROM, battery RAM, power-on
    /// RAM).
    pub fn power_on(
        rom: Vec<u8>,
        power: PowerOn,
        config: SessionConfig,
    ) -> Result<Session, SessionError> {
        let (cart, start) = Session::cartridge(rom, &power, &config)?;
        let machine = Machine::power_on(cart, Session::boot(&start, &power))?;
        Session::around(machine, start, config)
    }

    /// A session running two Game Boys on a link cable (plugged in at power-on): the first
    /// player's ROM and power-on options, then the second's. Each player's model, boot ROM,
    /// battery and power-on RAM are its own; the frame rule is the first player's.
    pub fn power_on_linked(
        first: (Vec<u8>, PowerOn),
        second: (Vec<u8>, PowerOn),
        config: SessionConfig,
    ) -> Result<Session, SessionError> {
        let (cart_a, mut start) = Session::cartridge(first.0, &first.1, &config)?;
        let (cart_b, start_b) = Session::cartridge(second.0, &second.1, &config)?;
        let machine = Machine::power_on_linked(
            (cart_a, Session::boot(&start, &first.1)),
            (cart_b, Session::boot(&start_b, &second.1)),
        )?;
        start.second = Some(Box::new(start_b));
        Session::around(machine, start, config)
    }

    /// The cartridge of `rom` as `power` and `config` say (battery loaded), and the start
    /// parameters it gives.
    fn cartridge(
        rom: Vec<u8>,
        power: &PowerOn,
        config: &SessionConfig,
    ) -> Result<(Cartridge, StartParams), SessionError> {
        let rom_hash = fnv1a(&rom);
        let mut cart = if config.force_unsupported {
            Cartridge::from_rom_forced(rom)?
        } else {
            Cartridge::from_rom(rom)?
        };
        if let Some(data) = &power.battery {
            cart.load_battery(data, 0).map_err(SessionError::Battery)?;
        }
        let model = power.model.resolve(&cart);
        let start = StartParams {
            model,
            rom_hash,
            boot_rom_hash: power.boot_rom.as_deref().map(fnv1a),
            rtc_start: 0,
            battery: power.battery.clone(),
            ram_init: power.ram_init,
            dmg_palette: power.dmg_palette,
            frame_rule: power.frame_rule,
            second: None,
        };
        Ok((cart, start))
    }

    /// How the machine of `start` powers on.
    fn boot<'a>(start: &StartParams, power: &'a PowerOn) -> Boot<'a> {
        Boot {
            model: start.model,
            ram_init: power.ram_init,
            boot_rom: power.boot_rom.as_deref(),
            dmg_palette: power.dmg_palette,
            // Sessions run the default revision (CPU CGB C); the state image records it.
            cgb_revision: gb_core::CgbRevision::default(),
            frame_rule: power.frame_rule,
        }
    }

    /// The session around a powered-on machine.
    fn around(
        machine: Machine,
        start: StartParams,
        config: SessionConfig,
    ) -> Result<Session, SessionError> {
        let mut s = Session {
            machine,
            start,
            timeline: Timeline::new(History::new(config.history())),
            config,
            id: NEXT_SESSION.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            restarted_at_start: 0,
            states: States::default(),
            scripts: Scripts::default(),
            world: World::default(),
            inputs: Inputs::default(),
            debugger: Debugger::default(),
            output: Output::default(),
            console_vm: None,
        };
        s.world.clock.power_on_cycles = s.machine.cycles();
        s.world.files.default_folder = s.config.script_folder.clone();
        s.world.files.data_root = s.config.script_data.clone();
        s.capture();
        Ok(s)
    }

    /// How many scripts the state file this session started from restarted from their
    /// `persist` data instead of being restored exactly (0 for other sessions).
    pub fn scripts_restarted_at_start(&self) -> usize {
        self.restarted_at_start
    }

    /// Frames completed: the position on the timeline.
    pub fn frame(&self) -> u64 {
        self.timeline.frame
    }

    /// The Game Boy (read only: changes go through logged events); a linked pair's first
    /// player (see [`Machine`]).
    pub fn gb(&self) -> &Gb {
        self.machine.gb()
    }

    /// The machine the session runs (read only: changes go through logged events).
    pub fn machine(&self) -> &Machine {
        &self.machine
    }

    /// Move the audio the frames run so far made into `out` (see `Gb::drain_audio`); returns
    /// how many stereo samples were written. Audio is output, not state: draining changes
    /// nothing a snapshot holds.
    pub fn drain_audio(&mut self, out: &mut [gb_core::apu::Sample]) -> usize {
        self.machine.drain_audio(out)
    }

    /// Produce the picture or not (host configuration, like the audio: see
    /// `Gb::set_rendering`; a bot's frames cost less without it). Frames run the same.
    pub fn set_rendering(&mut self, on: bool) {
        self.machine.set_rendering(on);
    }

    /// Generate audio or not (see `Gb::set_audio_enabled`): off when nobody listens.
    pub fn set_audio_enabled(&mut self, on: bool) {
        self.machine.set_audio_enabled(on);
    }

    /// Forget the audio waiting, e.g. what a seek or a replay made again.
    pub fn discard_audio(&mut self) {
        self.machine.discard_audio();
    }

    /// What the session was started with.
    pub fn start_params(&self) -> &StartParams {
        &self.start
    }

    /// The event log.
    pub fn log(&self) -> &EventLog {
        &self.timeline.log
    }

    /// The rewind history: the frames it holds ([`History::frames`]), its size.
    pub fn history(&self) -> &History {
        &self.timeline.history
    }

    /// Timing and size figures.
    pub fn stats(&self) -> &Stats {
        &self.timeline.stats
    }

    /// The last completed frame (160 × 144: DMG shades, or CGB colours; see `gb_core::Frame`).
    pub fn picture(&self) -> &Frame {
        self.machine.picture()
    }

    /// The loaded scripts (parked ones excluded), in slot order.
    pub fn scripts(&self) -> impl Iterator<Item = &Script> {
        self.scripts.active()
    }

    /// Each loaded script's overlay for the last frame.
    pub fn draw_lists(&self) -> impl Iterator<Item = (u32, &[DrawCmd])> {
        self.scripts().map(|s| (s.slot, &s.draw[..]))
    }

    /// The draw lists of the scripts that run against `player` (0: the first; see
    /// `emu.player()`), for drawing on that player's screen.
    pub fn draw_lists_of(&self, player: usize) -> impl Iterator<Item = (u32, &[DrawCmd])> {
        self.scripts()
            .filter(move |s| s.player() == player)
            .map(|s| (s.slot, &s.draw[..]))
    }

    /// Each loaded script's windows (forms, text buffers, padding), as of the last frame.
    pub fn windows(&self) -> impl Iterator<Item = (u32, &crate::api::ScriptUi)> {
        self.scripts().map(|s| (s.slot, s.ui()))
    }

    /// Whether a script has read the host's keys or mouse (then the app should log them with
    /// [`Session::set_host_input`] before every frame).
    pub fn wants_host_input(&self) -> bool {
        self.output.wants_host_input
    }

    /// Take what scripts asked of the app's window (`client.*`) since the last call, with the
    /// asking script's slot (only from frames run live: never from replays).
    pub fn take_client_requests(&mut self) -> Vec<(u32, crate::api::ClientRequest)> {
        std::mem::take(&mut self.output.client_requests)
    }

    /// Take the lines scripts printed since the last call.
    pub fn take_console(&mut self) -> Vec<ConsoleLine> {
        std::mem::take(&mut self.output.console)
    }

    /// Capture the state at the present frame into the history.
    pub(crate) fn capture(&mut self) {
        // No history asked for (a bot's session): nothing is kept, nothing can be rewound.
        if self.config.ring_bytes == 0 {
            return;
        }
        let t0 = Instant::now();
        let c = self.timeline.history.capture(
            self.timeline.frame,
            &self.machine,
            &mut self.scripts.list,
        );
        self.timeline.captured(&c, t0.elapsed().as_nanos() as u64);
    }
}
