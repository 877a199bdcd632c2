//! The emulation thread: it owns the `Session` (Lua states are not `Send`, so the session is
//! built on this thread), paces frames (by the clock, or by the audio device at normal
//! speed), and serves [`Cmd`]s from the window and the REPL between frames. What the window
//! shows is published into a shared `View` after every change; console lines are also sent
//! to subscribers (the terminal REPL).

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use gb_core::{Buttons, Domain};

use super::machine::{BATTERY_EVERY, Emu};
use super::pacing::{FAST_FACTOR, FRAME};
use super::types::{Panel, RomSource, Speed, Start};
use super::view::View;
use crate::console::command::Command;

/// A request to the emulation thread.
pub enum Cmd {
    /// Buttons the user holds now (keyboard, gamepad).
    Buttons(Buttons),
    /// Buttons held now for the second player of a linked pair (its keys).
    SecondButtons(Buttons),
    /// Plug the link cable in (true) or pull it out.
    Cable(bool),
    /// Toggle pause.
    TogglePause,
    /// One frame forward: through the recorded future when rewound, else a new frame.
    FrameAdvance,
    /// Set the live speed.
    SetSpeed(Speed),
    /// Rewind while held: this many frames back per tick (0 = released: resume).
    Rewind(u32),
    /// Show frame `t` of the history (paused there until resumed).
    Seek(u64),
    /// Open a ROM (or the demo); battery RAM of the current one is saved first.
    Open(RomSource),
    /// Open the current ROM again with one more patch after those named so far (which
    /// replaces the automatic one beside it); the scripts are loaded again.
    ApplyPatch(PathBuf),
    /// Record a new movie (from power-on, or from the current frame: `here`) with these
    /// authors and description.
    RecordMovie {
        /// The new file.
        path: PathBuf,
        /// From the current frame.
        here: bool,
        /// Its authors and description.
        info: super::types::MovieInfo,
    },
    /// Play a BizHawk movie (converted to a `.gbm` in the temporary folder first).
    PlayBk2(PathBuf),
    /// Set the recording movie's authors and description.
    SetMovieInfo(super::types::MovieInfo),
    /// Power-cycle the current ROM (the history starts again; scripts are loaded again).
    Reset,
    /// Choose the model and power-cycle the current ROM on it.
    SetModel(gb_core::ModelChoice),
    /// How CGB colours are shown.
    SetColorCorrection(gb_core::ColorCorrection),
    /// The palette a DMG game gets on the CGB (the game restarts when it runs in one).
    SetDmgPalette(gb_core::DmgPalette),
    /// Run cartridge types gbhost does not emulate with a stand-in mapper (from the next ROM
    /// opened or reset on).
    SetForce(bool),
    /// Load a script file against a player's Game Boy (0: the first; 1: a linked pair's
    /// second).
    LoadScript(PathBuf, usize),
    /// Reload a script (by index in [`View::scripts`]) from its file.
    ReloadScript(usize),
    /// Unload a script (by index); it leaves the list.
    UnloadScript(usize),
    /// Enable or disable a script (disabled: unloaded from the session, kept in the list).
    EnableScript(usize, bool),
    /// Write bytes from an address (logged pokes).
    Poke(u16, Vec<u8>),
    /// Write bytes from an offset of a memory, any bank of it (logged pokes).
    PokeMemory(Domain, u32, Vec<u8>),
    /// The memory viewer's window: `len` bytes from offset `start` of a domain (None: the
    /// CPU's address space).
    ViewMemory(Option<Domain>, u32, u32),
    /// The piano roll's selection changed (first and last frame; scripts see it).
    RollSelection(Option<(u64, u64)>),
    /// A panel whose view costs to build was shown or hidden: its part of [`View`] is
    /// published only while it is shown.
    Shown(Panel, bool),
    /// A REPL line as typed (a command or Lua), parsed here; the reply (may be empty) goes
    /// back on the sender, or to the console when there is none.
    Line(String, Option<Sender<String>>),
    /// A command a menu or panel built; it and its reply go to the console.
    Run(Command),
    /// Send every console line from now on to this channel too.
    Subscribe(Sender<String>),
    /// Call this after each publish (the window's repaint request).
    OnPublish(Box<dyn Fn() + Send>),
    /// Reply when every earlier command was handled (tests).
    #[cfg_attr(not(test), allow(dead_code))]
    Sync(Sender<()>),
    /// The user acted on a control of a script's form (slot, control handle, action).
    Form(u32, u32, gb_session::data::FormValue),
    /// The host's keys and mouse now (logged before frames while a script reads them).
    HostInput(gb_session::data::HostInput),
    /// Save battery RAM and stop the thread.
    Quit,
}

/// The window's and REPL's end of the emulation thread.
pub struct EmuHandle {
    tx: Sender<Cmd>,
    view: Arc<Mutex<View>>,
    thread: Option<JoinHandle<()>>,
}

impl EmuHandle {
    /// Send a command (ignored once the thread has stopped).
    pub fn send(&self, cmd: Cmd) {
        let _ = self.tx.send(cmd);
    }

    /// A sender for another thread (the REPL).
    pub fn sender(&self) -> Sender<Cmd> {
        self.tx.clone()
    }

    /// The latest published view.
    pub fn view(&self) -> MutexGuard<'_, View> {
        self.view.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wait until every command sent so far was handled.
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn sync(&self) {
        let (tx, rx) = mpsc::channel();
        self.send(Cmd::Sync(tx));
        let _ = rx.recv_timeout(Duration::from_secs(10));
    }

    /// Evaluate a REPL line and wait for its reply.
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn repl(&self, line: &str) -> String {
        let (tx, rx) = mpsc::channel();
        self.send(Cmd::Line(line.to_owned(), Some(tx)));
        rx.recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| "(no reply)".into())
    }

    /// Stop the thread (battery RAM is saved) and wait for it.
    pub fn quit(&mut self) {
        self.send(Cmd::Quit);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for EmuHandle {
    fn drop(&mut self) {
        self.quit();
    }
}

/// Build the session for `start` on a new thread; errors building it (unreadable ROM) are
/// returned before the thread runs.
pub fn spawn(start: Start) -> Result<EmuHandle> {
    let (tx, rx) = mpsc::channel();
    let view = Arc::new(Mutex::new(View::default()));
    let (ready_tx, ready_rx) = mpsc::channel::<Result<(), String>>();
    let shared = Arc::clone(&view);
    let thread = std::thread::Builder::new()
        .name("emulation".into())
        .spawn(move || match Emu::new(&start, shared) {
            Ok(mut emu) => {
                let _ = ready_tx.send(Ok(()));
                emu.run(&rx);
            }
            Err(e) => {
                let _ = ready_tx.send(Err(format!("{e:#}")));
            }
        })
        .context("cannot start the emulation thread")?;
    match ready_rx.recv() {
        Ok(Ok(())) => Ok(EmuHandle {
            tx,
            view,
            thread: Some(thread),
        }),
        Ok(Err(e)) => {
            let _ = thread.join();
            Err(anyhow::anyhow!(e))
        }
        Err(_) => anyhow::bail!("the emulation thread stopped while starting"),
    }
}

impl Emu {
    pub(super) fn handle(&mut self, cmd: Cmd) {
        let result: Result<()> = (|| {
            match cmd {
                Cmd::Buttons(b) => self.input.held = b,
                Cmd::SecondButtons(b) => self.input.second = b,
                Cmd::Cable(on) => {
                    self.session.set_cable(on);
                    self.say(if on {
                        "link cable plugged in (from the next frame)"
                    } else {
                        "link cable pulled out (from the next frame)"
                    });
                }
                Cmd::Form(slot, control, value) => self.form_event(slot, control, value),
                Cmd::HostInput(input) => self.input.host = input,
                Cmd::TogglePause => self.pacing.paused = !self.pacing.paused,
                Cmd::FrameAdvance => {
                    self.pacing.paused = true;
                    self.advance();
                }
                Cmd::SetSpeed(s) => self.pacing.speed = s,
                Cmd::Rewind(k) => self.pacing.rewind = k,
                Cmd::Seek(t) => {
                    self.pacing.paused = true;
                    self.seek(t)?;
                }
                Cmd::Open(rom) => {
                    if self.movie.tas.is_some() {
                        let msg = self.movie_stop()?;
                        self.say(msg);
                    }
                    self.open(&rom)?;
                    self.say(format!("opened {}", self.game.title));
                }
                Cmd::ApplyPatch(p) => {
                    let msg = self.apply_patch(&p)?;
                    self.say(msg);
                }
                Cmd::RecordMovie { path, here, info } => {
                    let msg = self.movie_record_with(&path, here, info)?;
                    self.say(msg);
                }
                Cmd::PlayBk2(p) => {
                    let msg = self.movie_play_bk2(&p)?;
                    self.say(msg);
                }
                Cmd::SetMovieInfo(info) => {
                    let msg = self.set_movie_info(info)?;
                    self.say(msg);
                }
                Cmd::Reset => {
                    if self.movie.tas.is_some() {
                        let msg = self.movie_stop()?;
                        self.say(msg);
                    }
                    self.restart()?;
                    self.say("reset");
                }
                Cmd::SetModel(choice) => {
                    if self.movie.tas.is_some() {
                        let msg = self.movie_stop()?;
                        self.say(msg);
                    }
                    self.settings.power.model = Some(choice);
                    self.restart()?;
                    let model = self.session.gb().model();
                    self.say(format!("model {choice}: running on the {model}"));
                }
                Cmd::SetColorCorrection(c) => self.settings.correction = c,
                Cmd::SetForce(on) => {
                    self.settings.power.force = on;
                    self.say(if on {
                        "cartridges gbhost does not emulate will run with a stand-in mapper"
                    } else {
                        "cartridges gbhost does not emulate will be refused"
                    });
                }
                Cmd::SetDmgPalette(p) => {
                    self.settings.power.dmg_palette = p;
                    let gb = self.session.gb();
                    let compat = gb.model() == gb_core::Model::Cgb
                        && gb.cartridge().header().cgb_flag & 0x80 == 0;
                    if compat {
                        if self.movie.tas.is_some() {
                            let msg = self.movie_stop()?;
                            self.say(msg);
                        }
                        self.restart()?;
                        self.say("the game restarted with its new palette");
                    }
                }
                Cmd::LoadScript(p, player) => {
                    self.load_script_file_on(&p, player)?;
                    self.say(format!("loaded {}", p.display()));
                }
                Cmd::ReloadScript(i) => self.reload_script(i)?,
                Cmd::UnloadScript(i) => self.unload_script(i)?,
                Cmd::EnableScript(i, on) => self.enable_script(i, on)?,
                Cmd::Poke(addr, bytes) => {
                    for (i, b) in bytes.iter().enumerate() {
                        self.session.poke(addr.wrapping_add(i as u16), *b);
                    }
                }
                Cmd::PokeMemory(d, offset, bytes) => {
                    for (i, b) in bytes.iter().enumerate() {
                        self.session
                            .poke_memory(d, offset.wrapping_add(i as u32), *b);
                    }
                }
                Cmd::ViewMemory(d, start, len) => self.viewers.mem_window = (d, start, len),
                Cmd::Shown(panel, on) => self.viewers.shown.set(panel, on),
                Cmd::RollSelection(sel) => {
                    if let Some(o) = &mut self.editor {
                        o.selection = sel;
                    }
                }
                Cmd::Line(line, reply) => {
                    let out = self.apply_line(&line);
                    self.answer(&line, &out, reply);
                }
                Cmd::Run(cmd) => {
                    let line = cmd.to_string();
                    let out = self.apply(cmd);
                    self.answer(&line, &out, None);
                }
                Cmd::Subscribe(tx) => {
                    // What was said before (start-up notes) first.
                    for line in &self.console.lines {
                        let _ = tx.send(line.clone());
                    }
                    self.console.subscribers.push(tx);
                }
                Cmd::OnPublish(f) => self.link.on_publish = Some(f),
                Cmd::Sync(tx) => {
                    self.publish();
                    let _ = tx.send(());
                }
                Cmd::Quit => self.link.quit = true,
            }
            Ok(())
        })();
        if let Err(e) = result {
            self.say(format!("error: {e:#}"));
        }
    }

    /// Show a console exchange: the terminal prints the reply itself (on `reply`) and the
    /// window's console panel mirrors it; without a sender both get it.
    fn answer(&mut self, line: &str, out: &str, reply: Option<Sender<String>>) {
        match reply {
            Some(tx) => {
                self.console.keep(format!("> {line}"));
                for l in out.lines() {
                    self.console.keep(l.to_owned());
                }
                let _ = tx.send(out.to_owned());
            }
            None => {
                self.say(format!("> {line}"));
                for l in out.lines() {
                    self.say(l.to_owned());
                }
            }
        }
    }

    /// Frames per tick while rewinding, or the live frames per tick.
    fn tick(&mut self) {
        if self.pacing.rewind > 0 {
            let t = self
                .session
                .frame()
                .saturating_sub(u64::from(self.pacing.rewind));
            if let Err(e) = self.seek(t) {
                self.say(format!("rewind: {e}"));
                self.pacing.rewind = 0;
            }
            return;
        }
        if self.editor_pending() {
            self.editor_pump();
            return;
        }
        if self.pacing.paused {
            return;
        }
        let n = if self.pacing.speed == Speed::Fast {
            FAST_FACTOR
        } else {
            1
        };
        for _ in 0..n {
            self.live_frame();
        }
        if self.game.battery_at.elapsed() >= BATTERY_EVERY {
            self.save_battery();
        }
    }

    fn active(&self) -> bool {
        self.pacing.rewind > 0 || !self.pacing.paused || self.editor_pending()
    }

    fn run(&mut self, rx: &Receiver<Cmd>) {
        let mut deadline = Instant::now();
        let mut last_publish = Instant::now();
        while !self.link.quit {
            let now = Instant::now();
            // At normal speed with a device playing, its clock paces emulation.
            let audio_paced = self.sound.out.is_playing()
                && self.pacing.speed == Speed::Normal
                && self.pacing.rewind == 0
                && !self.pacing.paused;
            if audio_paced {
                deadline = if self.sound.out.wants_frame() {
                    now
                } else {
                    now + Duration::from_millis(2)
                };
            }
            if self.active() && now >= deadline {
                self.tick();
                let step = if self.pacing.speed == Speed::Unthrottled && self.pacing.rewind == 0 {
                    Duration::ZERO
                } else {
                    FRAME
                };
                deadline = (deadline + step).max(now.checked_sub(FRAME * 3).unwrap_or(now));
                // Unthrottled: publish at most 120 times a second.
                if step > Duration::ZERO || last_publish.elapsed() > Duration::from_millis(8) {
                    self.publish();
                    last_publish = Instant::now();
                }
            }
            let wait = if self.active() {
                deadline.saturating_duration_since(Instant::now())
            } else {
                Duration::from_millis(50)
            };
            match rx.recv_timeout(wait) {
                Ok(cmd) => {
                    self.handle(cmd);
                    while let Ok(cmd) = rx.try_recv() {
                        self.handle(cmd);
                    }
                    self.publish();
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            self.poll_watcher();
            if self.link.signalled() {
                self.link.quit = true;
            }
        }
        if self
            .movie
            .tas
            .as_ref()
            .is_some_and(gb_session::movie::Tas::is_recording)
        {
            match self.movie_stop() {
                Ok(msg) => eprintln!("gbhost: {msg}"),
                Err(e) => eprintln!("gbhost: the movie could not be finished: {e:#}"),
            }
        }
        self.save_battery();
        self.link.publish_quit();
    }
}
