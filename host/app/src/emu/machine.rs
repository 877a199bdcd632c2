//! [`Emu`]: the emulation thread's state, and what it does between the commands it serves:
//! open a ROM (a new session, its battery RAM as a start parameter), run live frames (a
//! movie's input or the user's), seek, step, keep the console lines and watches, send the
//! sound out, save battery RAM. The thread loop is `thread.rs`; the commands `apply.rs`,
//! `movie.rs` and `scripts.rs`; what the window sees `publish.rs`.
//!
//! Nothing here emulates or rewinds: frames, seeks and pokes are `Session` calls.

use std::path::Path;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use gb_core::{Buttons, Domain};
use gb_session::movie::{EndAction, Tas};
use gb_session::{Bundle, PowerOn, Session, SessionConfig};

use super::types::{RomSource, ScriptEntry, Speed, Start, View};
use crate::audio::output::AudioOut;
use crate::console::command::Location;
use crate::game::battery::{Battery, Opened};
use crate::watcher::Watcher;

/// One frame at normal speed: 70,224 T-cycles at 4,194,304 Hz (59.73 fps).
pub const FRAME: Duration = Duration::from_nanos(16_742_706);
/// Frames run per tick in fast-forward.
pub const FAST_FACTOR: u32 = 4;
/// Console lines kept for the window's panel.
const CONSOLE_KEEP: usize = 2000;
/// Battery RAM is written at most this often while playing (and on exit, and before loading
/// another ROM).
pub(crate) const BATTERY_EVERY: Duration = Duration::from_secs(2);

/// The emulation thread's state.
pub struct Emu {
    /// The machine.
    pub session: Session,
    pub(crate) rom: RomSource,
    pub(crate) rom_bytes: Vec<u8>,
    /// What the status bar says about the ROM's files (patches, saves folder).
    pub(crate) rom_notes: Vec<String>,
    pub(crate) ring_bytes: usize,
    /// How the machine powers on.
    pub(crate) power: crate::game::rom::PowerArgs,
    /// How CGB colours are shown.
    pub(crate) correction: gb_core::ColorCorrection,
    /// Scripts, in load order.
    pub scripts: Vec<ScriptEntry>,
    /// Paused.
    pub paused: bool,
    pub(crate) rewind: u32,
    pub(crate) speed: Speed,
    pub(crate) held: Buttons,
    /// The host's keys and mouse as the window last reported them.
    pub(crate) host_input: gb_session::data::HostInput,
    /// Watched addresses with their last values.
    pub watches: Vec<(Location, u8)>,
    pub(crate) lines: Vec<String>,
    pub(crate) lines_shared: Arc<Vec<String>>,
    pub(crate) subscribers: Vec<Sender<String>>,
    pub(crate) on_publish: Option<Box<dyn Fn() + Send>>,
    pub(crate) battery: Option<Battery>,
    pub(crate) battery_at: Instant,
    pub(crate) watcher: Option<Watcher>,
    pub(crate) mem_window: (Option<Domain>, u32, u32),
    pub(crate) shared: Arc<Mutex<View>>,
    pub(crate) title: String,
    pub(crate) fps_count: u32,
    pub(crate) fps_since: Instant,
    pub(crate) fps: f64,
    pub(crate) audio: AudioOut,
    pub(crate) audio_buf: Vec<gb_core::apu::Sample>,
    pub(crate) stop: Option<Arc<std::sync::atomic::AtomicBool>>,
    pub(crate) quit: bool,
    /// The open movie, if any.
    pub(crate) tas: Option<Tas>,
    /// What a read-only movie does at its end.
    pub(crate) end_action: EndAction,
    /// The open TAS editor, if any.
    pub(crate) editor: Option<super::editor_state::OpenEditor>,
    /// RAM search, the watch list, the cheat list.
    pub(crate) tools: super::tool_state::Tools,
    /// The panels shown, whose parts of the view are published only then.
    pub(crate) shown: super::types::Shown,
    /// The ROM's symbols (its `.sym` file), for the debugger.
    pub(crate) symbols: Option<gb_session::symbols::Symbols>,
    /// Where a breakpoint stopped a live frame, not said yet.
    pub(crate) stop_note: Option<String>,
    /// The authors and description of the movie at this path, as last read or set.
    pub(crate) movie_info: Option<(std::path::PathBuf, super::types::MovieInfo)>,
}

impl Emu {
    pub(crate) fn new(start: &Start, shared: Arc<Mutex<View>>) -> Result<Emu> {
        let mut emu = Emu {
            session: blank_session()?,
            rom: RomSource::Demo,
            rom_bytes: Vec::new(),
            rom_notes: Vec::new(),
            ring_bytes: start.ring_bytes,
            power: start.power,
            correction: start.correction,
            scripts: Vec::new(),
            paused: start.paused,
            rewind: 0,
            speed: Speed::Normal,
            held: Buttons::default(),
            host_input: Default::default(),
            watches: Vec::new(),
            lines: Vec::new(),
            lines_shared: Arc::new(Vec::new()),
            subscribers: Vec::new(),
            on_publish: None,
            battery: None,
            battery_at: Instant::now(),
            watcher: Watcher::new().ok(),
            mem_window: (None, 0xC000, 0x100),
            shared,
            title: String::new(),
            fps_count: 0,
            fps_since: Instant::now(),
            fps: 0.0,
            audio: if start.audio {
                AudioOut::open()
            } else {
                AudioOut::silent(48_000)
            },
            audio_buf: vec![(0, 0); gb_core::apu::RING_CAPACITY],
            stop: start.stop.clone(),
            quit: false,
            tas: None,
            end_action: EndAction::default(),
            editor: None,
            tools: super::tool_state::Tools {
                dir: super::tool_state::rom_data_dir(),
                ..Default::default()
            },
            shown: Default::default(),
            symbols: None,
            stop_note: None,
            movie_info: None,
        };
        emu.open(&start.rom)?;
        for path in &start.scripts {
            emu.load_script_file(path)?;
        }
        emu.publish();
        Ok(emu)
    }

    /// Open a ROM or the demo: a new session, scripts of the demo loaded.
    pub(crate) fn open(&mut self, rom: &RomSource) -> Result<()> {
        let patched = self.read_rom(rom)?;
        self.open_read(rom, patched)
    }

    /// The image of `rom` with its patches applied (read before anything changes: a ROM or
    /// patch that cannot be used leaves the running game as it is).
    fn read_rom(&self, rom: &RomSource) -> Result<crate::game::rom_patches::Patched> {
        Ok(match rom.file() {
            None => crate::game::rom_patches::Patched {
                bytes: crate::game::demo::rom()?,
                ..Default::default()
            },
            Some(f) => crate::game::rom::read_patched(&f.path, self.power.force, &f.patches)?,
        })
    }

    /// [`Emu::open`] with the image [`Emu::read_rom`] read.
    fn open_read(
        &mut self,
        rom: &RomSource,
        patched: crate::game::rom_patches::Patched,
    ) -> Result<()> {
        // The running cartridge's RAM first: a reset powers on with what it holds now.
        self.save_battery();
        let file = rom.file();
        let bytes = patched.bytes.clone();
        let config = self.session_config();
        let opened = match &file {
            Some(f) => Battery::open(
                || crate::game::saves::locate(&f.path, &patched.applied, f.saves_dir.as_deref()),
                &bytes,
            ),
            None => Opened::default(),
        };
        let power = PowerOn {
            battery: opened.data,
            ..self.power.power_on(None)
        };
        let mut session =
            Session::power_on(bytes.clone(), power, config).context("cannot run the ROM")?;
        session.log_wall_clock();
        let rom_notes: Vec<String> = patched
            .note()
            .into_iter()
            .chain(opened.place_note)
            .collect();
        for note in &rom_notes {
            eprintln!("gbhost: {note}");
            self.say(note.clone());
        }
        self.rom_notes = rom_notes;
        if let Some(note) = opened.note {
            self.say(note);
        }
        for note in crate::game::rom::notes(session.gb().cartridge()) {
            self.say(format!("warning: {note}"));
        }
        let battery = opened.battery;
        self.editor = None;
        self.session.set_editor_info(None);
        self.session = session;
        self.battery = battery;
        self.rom_bytes = bytes;
        self.rom = rom.clone();
        self.title = match rom {
            RomSource::Demo => "gbhost demo".into(),
            RomSource::File(p) | RomSource::FileWith(super::types::RomFile { path: p, .. }) => p
                .file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into()),
        };
        self.scripts.clear();
        if let Some(w) = &mut self.watcher {
            w.clear();
        }
        self.tools_opened();
        self.load_symbols();
        if matches!(rom, RomSource::Demo) {
            // Run from the repository (the README's command), the overlay is loaded from its
            // file, so editing it shows live reload at once; elsewhere the built-in copy runs.
            let on_disk = Path::new(crate::game::demo::OVERLAY_PATH);
            let loaded_file = on_disk.is_file() && self.load_script_file(on_disk).is_ok();
            if !loaded_file {
                let (name, source) = crate::game::demo::OVERLAY;
                let slot = self.session.load_script(name, source);
                self.scripts.push(ScriptEntry {
                    name: name.into(),
                    path: None,
                    bundle: Bundle::new(source),
                    slot: Some(slot),
                    reloaded_at: None,
                });
            }
        }
        Ok(())
    }

    /// Open the current ROM again with `patch` after the patches named so far (see
    /// [`Cmd::ApplyPatch`](super::Cmd::ApplyPatch)); a patch that does not apply changes
    /// nothing.
    pub(crate) fn apply_patch(&mut self, patch: &Path) -> Result<String> {
        let Some(mut file) = self.rom.file() else {
            anyhow::bail!("the demo cannot be patched: open a ROM first");
        };
        file.patches.push(patch.to_owned());
        let rom = RomSource::FileWith(file);
        let patched = self.read_rom(&rom)?;
        if self.tas.is_some() {
            let msg = self.movie_stop()?;
            self.say(msg);
        }
        let paths: Vec<std::path::PathBuf> =
            self.scripts.iter().filter_map(|s| s.path.clone()).collect();
        self.open_read(&rom, patched)?;
        for p in paths {
            self.load_script_file(&p)?;
        }
        Ok(format!(
            "reopened {}; {}",
            self.title,
            self.rom_notes
                .first()
                .map_or("no patch applied", String::as_str)
        ))
    }

    pub(crate) fn in_history(&self, t: u64) -> bool {
        self.session
            .history()
            .frames()
            .is_some_and(|(a, b)| (a..=b).contains(&t))
    }

    /// The position is before the newest recorded frame.
    pub fn rewound(&self) -> bool {
        self.session
            .history()
            .frames()
            .is_some_and(|(_, last)| self.session.frame() < last)
    }

    /// Print a line on the console (window panel and REPL subscribers).
    pub fn say(&mut self, line: impl Into<String>) {
        let line = line.into();
        self.subscribers.retain(|s| s.send(line.clone()).is_ok());
        self.keep(line);
    }

    /// Add a line to the window's console only (bounded).
    pub(crate) fn keep(&mut self, line: String) {
        self.lines.push(line);
        if self.lines.len() > CONSOLE_KEEP {
            let extra = self.lines.len() - CONSOLE_KEEP;
            self.lines.drain(..extra);
        }
    }

    pub(crate) fn drain_session_console(&mut self) {
        for line in self.session.take_console() {
            let name = self
                .scripts
                .iter()
                .find(|s| s.slot == Some(line.slot))
                .map_or_else(|| format!("#{}", line.slot), |s| s.name.clone());
            for text in line.text.lines() {
                self.say(format!("[{name}] {text}"));
            }
        }
    }

    /// Run one new frame from the current position (forks the timeline if rewound): the
    /// movie's input or the user's, then the movie records it.
    pub fn live_frame(&mut self) {
        if self.editor.is_some() {
            self.editor_frame();
            return;
        }
        if !self.movie_before_frame() {
            return;
        }
        self.log_host_input();
        if self.debugging() {
            // A breakpoint pauses the app where it hit, in the middle of the frame.
            if !self.debug_live_frame() {
                return;
            }
        } else {
            self.session.run_frame();
        }
        self.movie_after_frame();
        self.serve_client_requests();
        // Only a movie's playback loads scripts the app did not.
        if self.tas.as_ref().is_some_and(|t| !t.is_recording()) {
            self.adopt_new_scripts();
        }
        self.play_audio();
        self.after_frame();
    }

    /// Send the frame's sound to the device: only at normal speed while running (muted with a
    /// fade when fast-forwarding, rewinding, paused).
    pub(crate) fn play_audio(&mut self) {
        let n = self.session.drain_audio(&mut self.audio_buf);
        let audible = self.speed == Speed::Normal && self.rewind == 0 && !self.paused;
        self.audio.set_muted(!audible);
        if audible || self.audio.queued_seconds() < 0.02 {
            self.audio.push(&self.audio_buf[..n]);
        }
    }

    pub(crate) fn after_frame(&mut self) {
        self.drain_session_console();
        self.check_watches();
        self.tools_after_frame();
        self.fps_count += 1;
    }

    /// The byte at `at`: as the CPU sees it, or in the bank it names (mapped or not).
    pub fn read_at(&self, at: Location) -> Result<u8, String> {
        let gb = self.session.gb();
        match at.bank {
            None => Ok(gb.peek(at.addr)),
            Some(bank) => gb_session::banks::peek(gb, bank, at.addr).map_err(|e| e.to_string()),
        }
    }

    /// Log a poke at `at`: through the bus, or into the bank it names.
    pub fn poke_at(&mut self, at: Location, value: u8) -> Result<(), String> {
        match at.bank {
            None => self.session.poke(at.addr, value),
            Some(bank) => {
                let (domain, offset) = gb_session::banks::locate(self.session.gb(), bank, at.addr)
                    .map_err(|e| e.to_string())?;
                self.session.poke_memory(domain, offset as u32, value);
            }
        }
        Ok(())
    }

    /// Print the watched bytes that changed since they were last seen.
    pub(crate) fn check_watches(&mut self) {
        let mut changed = Vec::new();
        for i in 0..self.watches.len() {
            let (at, old) = self.watches[i];
            let Ok(now) = self.read_at(at) else { continue };
            if now != old {
                self.watches[i].1 = now;
                changed.push((at, old, now));
            }
        }
        let frame = self.session.frame();
        for (at, old, now) in changed {
            self.say(format!(
                "watch [{at}] {old:02X} -> {now:02X} at frame {frame}"
            ));
        }
    }

    /// Show frame `t` (clamped to the history).
    pub fn seek(&mut self, t: u64) -> Result<u64> {
        if self.editor.is_some() {
            return self.editor_seek(t);
        }
        let (first, last) = self
            .session
            .history()
            .frames()
            .ok_or_else(|| anyhow::anyhow!("no history yet"))?;
        let t = t.clamp(first, last);
        if t != self.session.frame() {
            self.session.seek(t)?;
            self.session.discard_audio();
            self.drain_session_console();
            self.check_watches();
            self.fps_count += 1;
        }
        Ok(t)
    }

    /// One frame forward: through the recorded future when rewound (except while recording a
    /// movie), else a new frame.
    pub fn advance(&mut self) {
        if self.editor.is_some() {
            self.editor_step();
            return;
        }
        // Recording a movie, a step from a rewound frame is new input: a rerecord.
        let recording = self.tas.as_ref().is_some_and(Tas::is_recording);
        if self.rewound() && !recording {
            let t = self.session.frame() + 1;
            if let Err(e) = self.seek(t) {
                self.say(format!("seek: {e}"));
            }
        } else {
            self.live_frame();
        }
    }

    pub(crate) fn save_battery(&mut self) {
        if let Some(b) = &mut self.battery {
            match b.save(self.session.gb()) {
                Ok(None) => {}
                Ok(Some(note)) => {
                    // Where the user's saves went matters outside the window too.
                    eprintln!("gbhost: {note}");
                    self.say(note);
                }
                Err(e) => {
                    let msg = format!("battery save: {e:#}");
                    self.say(msg);
                }
            }
        }
        self.battery_at = Instant::now();
    }
}

/// A placeholder session, replaced by [`Emu::open`] at once.
pub(crate) fn blank_session() -> Result<Session> {
    let rom = crate::game::demo::rom()?;
    let config = SessionConfig {
        ring_bytes: 1 << 20,
        ..SessionConfig::default()
    };
    Ok(Session::new(rom, None, config)?)
}
