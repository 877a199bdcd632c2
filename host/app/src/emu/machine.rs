//! [`Emu`]: the emulation thread's state, and what it does between the commands it serves:
//! open a ROM (a new session, its battery RAM as a start parameter), run live frames (a
//! movie's input or the user's), seek, step, check the watches, save battery RAM. `Emu` is
//! a coordinator of parts that each keep one thing (the loaded game, pacing, the console's
//! output, the scripts, sound, the movie, the editor, the tools, the viewers, the link to
//! the window); its methods take the session and the parts they need. The thread loop is
//! `thread.rs`; the commands `apply.rs`, `movie.rs` and `scripts.rs`; what the window sees
//! `publish.rs`.
//!
//! Nothing here emulates or rewinds: frames, seeks and pokes are `Session` calls.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result};
use gb_session::movie::Tas;
use gb_session::{Bundle, PowerOn, Session, SessionConfig};

use super::console_out::ConsoleOut;
use super::link::{Input, WindowLink};
use super::loaded::{LoadedGame, Settings};
use super::movie_slot::MovieSlot;
use super::pacing::Pacing;
use super::script_files::ScriptFiles;
use super::sound::Sound;
use super::types::{RomSource, ScriptEntry, Start};
use super::view::View;
use super::viewers::Viewers;
use crate::console::command::Location;
use crate::game::battery::{Battery, Opened};

/// Battery RAM is written at most this often while playing (and on exit, and before loading
/// another ROM).
pub(crate) const BATTERY_EVERY: Duration = Duration::from_secs(2);

/// The emulation thread's state: the session and the parts of the app around it, each with
/// one job (see the module docs of each part's file).
pub struct Emu {
    /// The machine.
    pub session: Session,
    /// The running ROM, its files, its battery save and symbols.
    pub(crate) game: LoadedGame,
    /// How every ROM opened powers on and is shown.
    pub(crate) settings: Settings,
    /// The scripts the app loaded, and live reload.
    pub(crate) scripts: ScriptFiles,
    /// Paused, rewinding, the speed, the measured frame rate.
    pub(crate) pacing: Pacing,
    /// The console's lines, their subscribers, the watches.
    pub(crate) console: ConsoleOut,
    /// The input the window last reported.
    pub(crate) input: Input,
    /// The panels shown and the memory viewer's window.
    pub(crate) viewers: Viewers,
    /// The output device.
    pub(crate) sound: Sound,
    /// Where the view goes, and what stops the thread.
    pub(crate) link: WindowLink,
    /// The open movie.
    pub(crate) movie: MovieSlot,
    /// The open TAS editor, if any.
    pub(crate) editor: Option<super::editor_state::OpenEditor>,
    /// RAM search, the watch list, the cheat list.
    pub(crate) tools: super::tool_state::Tools,
}

impl Emu {
    pub(crate) fn new(start: &Start, shared: Arc<Mutex<View>>) -> Result<Emu> {
        let mut emu = Emu {
            session: blank_session()?,
            game: LoadedGame::default(),
            settings: Settings {
                power: start.power,
                correction: start.correction,
                ring_bytes: start.ring_bytes,
                link: start.link.clone(),
            },
            scripts: ScriptFiles::new(),
            pacing: Pacing::new(start.paused),
            console: ConsoleOut::default(),
            input: Input::default(),
            viewers: Viewers::default(),
            sound: Sound::open(start.audio),
            link: WindowLink::new(shared, start.stop.clone()),
            movie: MovieSlot::default(),
            editor: None,
            tools: super::tool_state::Tools {
                dir: super::tool_state::rom_data_dir(),
                ..Default::default()
            },
        };
        emu.open(&start.rom)?;
        for path in &start.scripts {
            emu.load_script_file(path)?;
        }
        for path in &start.scripts2 {
            emu.load_script_file_on(path, 1)?;
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
            None if matches!(rom, RomSource::LinkDemo) => crate::game::rom_patches::Patched {
                bytes: crate::game::demo::link_rom()?,
                ..Default::default()
            },
            None => crate::game::rom_patches::Patched {
                bytes: crate::game::demo::rom()?,
                ..Default::default()
            },
            Some(f) => {
                crate::game::rom::read_patched(&f.path, self.settings.power.force, &f.patches)?
            }
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
        let place = file
            .as_ref()
            .map(|f| crate::game::saves::locate(&f.path, &patched.applied, f.saves_dir.as_deref()));
        let opened = match &place {
            Some(place) => Battery::open(|| place.clone(), &bytes),
            None => Opened::default(),
        };
        let power = PowerOn {
            battery: opened.data,
            ..self.settings.power.power_on(None)
        };
        let mut second_bytes = None;
        let mut second_battery = None;
        let mut session = match self.settings.link.clone() {
            // The second player's battery is its own file (another name when both players
            // run one ROM file: see `saves::for_player_2`).
            Some(second_rom) => {
                let patched2 = self.read_rom(&second_rom)?;
                let second = patched2.bytes;
                second_bytes = Some(second.clone());
                let opened2 = match second_rom.file() {
                    Some(f) => Battery::open(
                        || {
                            crate::game::saves::for_player_2(
                                crate::game::saves::locate(
                                    &f.path,
                                    &patched2.applied,
                                    f.saves_dir.as_deref(),
                                ),
                                place.as_ref(),
                            )
                        },
                        &second,
                    ),
                    None => Opened::default(),
                };
                if let Some(note) = opened2.note {
                    self.say(format!("player 2's {note}"));
                }
                second_battery = opened2.battery;
                let power2 = PowerOn {
                    battery: opened2.data,
                    ..self.settings.power.power_on(None)
                };
                Session::power_on_linked((bytes.clone(), power), (second, power2), config)
                    .context("cannot run the two games linked")?
            }
            None => {
                Session::power_on(bytes.clone(), power, config).context("cannot run the ROM")?
            }
        };
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
        self.game.notes = rom_notes;
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
        self.game.battery = battery;
        self.game.second_battery = second_battery;
        self.game.bytes = bytes;
        self.game.second = second_bytes;
        self.game.rom = rom.clone();
        self.game.title = match rom {
            RomSource::Demo => "gbhost demo".into(),
            RomSource::LinkDemo => "gbhost link demo".into(),
            RomSource::File(p) | RomSource::FileWith(super::types::RomFile { path: p, .. }) => p
                .file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into()),
        };
        self.scripts.clear();
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
                self.scripts.entries.push(ScriptEntry {
                    name: name.into(),
                    path: None,
                    bundle: Bundle::new(source),
                    slot: Some(slot),
                    reloaded_at: None,
                    player: 0,
                });
            }
        }
        Ok(())
    }

    /// Open the current ROM again with `patch` after the patches named so far (see
    /// [`Cmd::ApplyPatch`](super::Cmd::ApplyPatch)); a patch that does not apply changes
    /// nothing.
    pub(crate) fn apply_patch(&mut self, patch: &Path) -> Result<String> {
        let Some(mut file) = self.game.rom.file() else {
            anyhow::bail!("the demo cannot be patched: open a ROM first");
        };
        file.patches.push(patch.to_owned());
        let rom = RomSource::FileWith(file);
        let patched = self.read_rom(&rom)?;
        if self.movie.tas.is_some() {
            let msg = self.movie_stop()?;
            self.say(msg);
        }
        let paths = self.script_files();
        self.open_read(&rom, patched)?;
        for (p, player) in paths {
            self.load_script_file_on(&p, player)?;
        }
        Ok(format!(
            "reopened {}; {}",
            self.game.title,
            self.game
                .notes
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
        self.console.say(line.into());
    }

    pub(crate) fn drain_session_console(&mut self) {
        for line in self.session.take_console() {
            let name = self
                .scripts
                .entries
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
        if self.movie.tas.as_ref().is_some_and(|t| !t.is_recording()) {
            self.adopt_new_scripts();
        }
        self.play_audio();
        self.after_frame();
    }

    /// Send the frame's sound to the device: only at normal speed while running (muted with a
    /// fade when fast-forwarding, rewinding, paused).
    pub(crate) fn play_audio(&mut self) {
        let audible = self.pacing.audible();
        self.sound.play(&mut self.session, audible);
    }

    pub(crate) fn after_frame(&mut self) {
        self.drain_session_console();
        self.check_watches();
        self.tools_after_frame();
        self.pacing.count_frame();
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
        for i in 0..self.console.watches.len() {
            let (at, old) = self.console.watches[i];
            let Ok(now) = self.read_at(at) else { continue };
            if now != old {
                self.console.watches[i].1 = now;
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
            self.pacing.count_frame();
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
        let recording = self.movie.tas.as_ref().is_some_and(Tas::is_recording);
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
        if let Some(note) = self.game.save_battery(self.session.machine()) {
            self.say(note);
        }
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
