//! The app's side of the TAS workflow (`gb_session::movie::Tas` holds the workflow itself) and
//! of state files: which session runs (a movie's playback gets a new one at its start; a
//! recording from the current frame first swaps in a session made from that frame's state
//! file), the messages, battery saves off while a movie plays, numbered state slots as files
//! per ROM, and state loads that stay on an open movie's timeline.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use gb_session::movie::{Before, EndAction, Tas};
use gb_session::{ScriptRestore, Session, SessionConfig, StateFile};

use super::machine::Emu;
use crate::console::command::StateTarget;

/// Where numbered state slots are kept: `GBHOST_STATE_DIR`, else
/// `$XDG_DATA_HOME/gbhost/states`, else `~/.local/share/gbhost/states`.
pub fn state_dir() -> Option<PathBuf> {
    crate::config::data_dir("GBHOST_STATE_DIR", "states")
}

fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl Emu {
    /// The session configuration new sessions of this app get.
    pub(crate) fn session_config(&self) -> SessionConfig {
        SessionConfig {
            ring_bytes: self.settings.ring_bytes,
            force_unsupported: self.settings.power.force,
            image_key: crate::state_key::get(),
            script_data: crate::scripted::script_data_dir(),
            ..SessionConfig::default()
        }
    }

    /// The buttons the window reports, to the session (both players of a linked pair).
    fn hand_buttons(&mut self) {
        self.session.set_buttons(self.input.held);
        self.session.set_player_buttons(1, self.input.second);
    }

    /// Before a live frame: hand the movie's input (read-only) or the user's (otherwise) to
    /// the session. Returns false when the frame must not run (the movie ended and pauses).
    pub(crate) fn movie_before_frame(&mut self) -> bool {
        let Some(tas) = &mut self.movie.tas else {
            self.session.set_movie(None);
            self.hand_buttons();
            return true;
        };
        match tas.before_frame(&mut self.session) {
            Ok(Before::Record) => {
                self.hand_buttons();
                true
            }
            Ok(Before::Play) => true,
            Ok(Before::Ended { first }) => {
                if first {
                    let frame = self.session.frame();
                    self.say(format!("movie ended at frame {frame}"));
                }
                match self.movie.end_action {
                    EndAction::Pause => {
                        self.pacing.paused = true;
                        false
                    }
                    EndAction::Record => {
                        if let Err(e) = self.movie_read_write() {
                            self.say(format!("movie: {e:#}"));
                            self.pacing.paused = true;
                            return false;
                        }
                        self.hand_buttons();
                        true
                    }
                    EndAction::Stop => {
                        self.movie.tas = None;
                        self.say("movie closed; play goes on unrecorded");
                        self.hand_buttons();
                        true
                    }
                }
            }
            Err(e) => {
                self.say(format!("movie: {e}; playback stopped"));
                self.movie.tas = None;
                self.pacing.paused = true;
                false
            }
        }
    }

    /// After a live frame: record it (read-write) and report a first desync (read-only).
    pub(crate) fn movie_after_frame(&mut self) {
        let Some(tas) = &mut self.movie.tas else {
            return;
        };
        match tas.after_frame(&mut self.session) {
            Ok(None) => {}
            Ok(Some(d)) => self.say(format!(
                "movie desync: the state at frame {} differs from the recording \
                 (expected {:016x}, got {:016x})",
                d.frame, d.expected, d.got
            )),
            Err(e) => {
                let path = tas.path().display().to_string();
                self.say(format!(
                    "movie: {e}; recording stopped ({path} keeps what was recorded)"
                ));
                if let Some(tas) = self.movie.tas.take() {
                    let _ = tas.stop();
                }
            }
        }
    }

    /// Stop the movie (a recording is finished and compacted; the file stays).
    pub fn movie_stop(&mut self) -> Result<String> {
        let Some(tas) = self.movie.tas.take() else {
            bail!("no movie is open");
        };
        let stopped = tas.stop()?;
        Ok(match stopped.recorded {
            Some((frames, compacted)) => format!(
                "recorded {frames} frames to {} ({})",
                stopped.path.display(),
                match compacted {
                    Ok(()) => "compacted".to_owned(),
                    Err(e) => format!("left as a journal: {e}"),
                }
            ),
            None => format!("stopped playing {}", stopped.path.display()),
        })
    }

    /// Record a new movie at `path`: from power-on (the ROM starts again with the loaded
    /// scripts) or from the current frame.
    pub fn movie_record(&mut self, path: &Path, from_power_on: bool) -> Result<String> {
        if path.exists() {
            bail!(
                "{} exists: `movie play` it and `movie rw` to continue it, or choose another name",
                path.display()
            );
        }
        if self.movie.tas.is_some() {
            let msg = self.movie_stop()?;
            self.say(msg);
        }
        if from_power_on {
            self.restart()?;
        } else if self.session.frame() > 0 {
            // The movie starts from a state of this frame, and its playback restarts the
            // scripts there: so does the recording, so that both run the same.
            let mut file = self.session.state_file(unix_now(), false);
            file.images.clear();
            let session =
                Session::from_state_file(self.game.roms(), None, self.session_config(), &file)?;
            let paths: Vec<(u32, Option<PathBuf>)> = self
                .scripts
                .entries
                .iter()
                .filter_map(|s| Some((s.slot?, s.path.clone())))
                .collect();
            // Cheats are inputs, not state: the codes on now are turned on again at the
            // movie's first frame, so it records them.
            let cheats = self.session.cheats().to_vec();
            self.replace_session(session);
            for code in &cheats {
                let _ = self.session.set_cheat(code, true);
            }
            // Keep the scripts' files (for live reload) where the slots match.
            for entry in &mut self.scripts.entries {
                if let Some((_, p)) = paths.iter().find(|(slot, _)| Some(*slot) == entry.slot) {
                    entry.path.clone_from(p);
                    if let (Some(w), Some(p)) = (&mut self.scripts.watcher, p) {
                        w.watch(p);
                    }
                }
            }
        }
        let tas = Tas::record(path, &mut self.session)
            .with_context(|| format!("cannot record to {}", path.display()))?;
        self.movie.tas = Some(tas);
        let from = self.session.frame();
        Ok(format!(
            "recording to {} from {}",
            path.display(),
            if from == 0 {
                "power-on".to_owned()
            } else {
                format!("frame {from}")
            }
        ))
    }

    /// Play a movie read-only from its start (a new session on the movie's start).
    pub fn movie_play(&mut self, path: &Path) -> Result<String> {
        if self.movie.tas.is_some() {
            let msg = self.movie_stop()?;
            self.say(msg);
        }
        let (tas, session) = Tas::play(path, self.game.roms(), self.session_config())
            .with_context(|| format!("{}", path.display()))?;
        // The movie's cartridge RAM is not the player's: battery saves stop here.
        if self.game.battery.is_some() || self.game.second_battery.is_some() {
            self.save_battery();
            self.game.stop_batteries();
            self.say("battery saves are off while a movie plays (reopen the ROM to resume them)");
        }
        self.replace_session(session);
        let view = tas.view();
        self.movie.tas = Some(tas);
        Ok(format!(
            "playing {} read-only ({} frames){}",
            path.display(),
            view.length,
            view.unverified
                .map_or(String::new(), |note| format!("; unverified: {note}"))
        ))
    }

    /// Switch a read-only movie to read-write at the current frame (its future is cut).
    pub fn movie_read_write(&mut self) -> Result<String> {
        match &self.movie.tas {
            Some(t) if !t.is_recording() => {}
            _ => bail!("no movie is playing"),
        }
        let tas = self
            .movie
            .tas
            .take()
            .map(|t| t.read_write(&mut self.session));
        let tas = tas.context("no movie is playing")??;
        let msg = format!(
            "read-write at frame {} ({} rerecords)",
            self.session.frame(),
            tas.rerecords()
        );
        self.movie.tas = Some(tas);
        Ok(msg)
    }

    /// Switch a recording to read-only playback; the session stays where it is.
    pub fn movie_read_only(&mut self) -> Result<String> {
        match &self.movie.tas {
            Some(t) if t.is_recording() => {}
            _ => bail!("no movie is recording"),
        }
        let tas = self.movie.tas.take().map(Tas::read_only);
        let tas = tas.context("no movie is recording")??;
        let msg = format!("read-only ({} frames)", tas.view().length);
        self.movie.tas = Some(tas);
        Ok(msg)
    }

    /// Undo the last rerecord: the cut future comes back and plays read-only from the cut.
    pub fn movie_undo(&mut self) -> Result<String> {
        match &self.movie.tas {
            Some(t) if t.is_recording() && t.can_undo() => {}
            Some(t) if t.is_recording() => bail!("no rerecord to undo"),
            _ => bail!("no movie is recording"),
        }
        let undone = self.movie.tas.take().map(Tas::undo);
        let (tas, end, cut) = undone.context("no movie is recording")??;
        self.movie.tas = Some(tas);
        if let Some(f) = cut.filter(|f| self.in_history(*f)) {
            self.seek(f)?;
        }
        Ok(format!(
            "undid the last rerecord: the movie ends at frame {end} again (read-only)"
        ))
    }

    /// The file a state target names (a slot is a file per ROM in the state folder).
    fn state_path(&self, target: &StateTarget) -> Result<PathBuf> {
        match target {
            StateTarget::Slot(n) => {
                let dir = state_dir().context("no state folder (set GBHOST_STATE_DIR or HOME)")?;
                Ok(gb_session::state::file::slot_path(
                    &dir,
                    self.session.start_params().rom_hash,
                    *n,
                ))
            }
            StateTarget::File(p) => Ok(p.clone()),
            StateTarget::Memory(name) => bail!("'{name}' is a state in memory, not a file"),
        }
    }

    /// Save a state: a numbered slot (0-9) of this ROM, or a file.
    pub fn state_save(&mut self, target: &StateTarget) -> Result<String> {
        let path = self.state_path(target)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let file = self.session.state_file(unix_now(), true);
        file.write(&path)?;
        Ok(format!(
            "saved frame {} to {}",
            self.session.frame(),
            path.display()
        ))
    }

    /// Load a state: a numbered slot or a file. While a movie is open, only a state of the
    /// movie's timeline loads (by moving there).
    pub fn state_load(&mut self, target: &StateTarget) -> Result<String> {
        let path = self.state_path(target)?;
        let file = StateFile::read(&path)?;
        if self.movie.tas.is_some() {
            return self.state_load_in_movie(&file);
        }
        // A state whose scripts cannot be restored into the running ones (other scripts run,
        // or none: a slot saved yesterday) but whose images are the user's own opens as a new
        // session instead, so that the scripts come back exactly.
        if !file.scripts.is_empty()
            && !self.session.loads_exactly(&file)
            && crate::state_key::get().is_some_and(|k| file.images_sealed_with(&k).is_ok())
        {
            let msg = self.state_open(&path)?;
            return Ok(format!(
                "{msg} (as a new session, so that its scripts come back exactly: the rewind \
                 history starts here)"
            ));
        }
        let how = self.session.load_state_file(&file)?;
        if self.pacing.paused {
            self.live_frame();
        }
        Ok(match how {
            ScriptRestore::Exact => format!(
                "loaded {} (frame {} of that timeline); scripts restored exactly",
                path.display(),
                file.meta.frame
            ),
            ScriptRestore::Restarted(why) if file.scripts.is_empty() => {
                let _ = why;
                format!(
                    "loaded {} (frame {} of that timeline); it has no scripts",
                    path.display(),
                    file.meta.frame
                )
            }
            ScriptRestore::Restarted(why) => format!(
                "loaded {} (frame {} of that timeline); scripts restarted with their persist \
                 data, not restored exactly: {why}",
                path.display(),
                file.meta.frame
            ),
        })
    }

    /// Open a state file as a new session of the loaded ROM (File → Open state…, `state open
    /// FILE`): the machine, its frame and its scripts as saved — their VMs restored exactly
    /// when the file carries images sealed with this user's key, otherwise restarted from
    /// their `persist` data (the console says why). A state of another ROM is refused and
    /// nothing changes.
    pub fn state_open(&mut self, path: &Path) -> Result<String> {
        let file = StateFile::read(path)?;
        let ours = gb_session::fnv1a(&self.game.bytes);
        if file.meta.rom_hash != ours {
            bail!(
                "{} is a state of '{}' (ROM hash {:016x}); open that ROM first",
                path.display(),
                file.meta.rom_title,
                file.meta.rom_hash
            );
        }
        if self.movie.tas.is_some() {
            let msg = self.movie_stop()?;
            self.say(msg);
        }
        // Everything but the scripts is checked first (ROM, model, core image), so that a file
        // that cannot be opened changes nothing.
        let mut bare = file.clone();
        bare.scripts.clear();
        bare.images.clear();
        Session::from_state_file(self.game.roms(), None, self.session_config(), &bare)?;
        // The file's script VMs go where they were made: free those places first.
        self.session = super::machine::blank_session()?;
        let session =
            match Session::from_state_file(self.game.roms(), None, self.session_config(), &file) {
                Ok(s) => s,
                Err(e) => {
                    self.restart()?;
                    return Err(e.into());
                }
            };
        let restarted = session.scripts_restarted_at_start();
        self.replace_session(session);
        let scripts = if file.scripts.is_empty() {
            "no scripts".to_owned()
        } else if restarted == 0 {
            "scripts restored exactly".to_owned()
        } else {
            "scripts restarted from their persist data (the console says why)".to_owned()
        };
        Ok(format!(
            "opened {} at frame {}; {scripts}",
            path.display(),
            file.meta.frame
        ))
    }

    fn state_load_in_movie(&mut self, file: &StateFile) -> Result<String> {
        let f = file.meta.frame;
        if !self.in_history(f) {
            bail!(
                "while a movie is open, a state loads only if its frame ({f}) is in the rewind \
                 history of this timeline"
            );
        }
        let back = self.session.frame();
        self.seek(f)?;
        if !Tas::on_timeline(&self.session, file) {
            self.seek(back)?;
            bail!("this state is not on the movie's timeline (frame {f} differs); not loaded");
        }
        self.pacing.paused = true;
        Ok(format!(
            "moved to frame {f}, the state's frame on the movie's timeline (playing on from here \
             in read-write mode is a rerecord)"
        ))
    }

    /// Write the machine as a BESS file (SameBoy's format).
    pub fn bess_export(&mut self, path: &Path) -> Result<String> {
        let bytes = gb_core::bess::export_with_timestamp(self.session.gb(), unix_now());
        gb_session::files::write_atomic(path, &bytes)
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(format!(
            "wrote {} ({} bytes, frame {})",
            path.display(),
            bytes.len(),
            self.session.frame()
        ))
    }

    /// Load a BESS file (from SameBoy or another BESS emulator) before the next frame; the
    /// scripts keep running.
    pub fn bess_import(&mut self, path: &Path) -> Result<String> {
        if self.movie.tas.is_some() {
            bail!("a BESS state is not on any movie's timeline: stop the movie first");
        }
        let data = std::fs::read(path).with_context(|| format!("{}", path.display()))?;
        self.session
            .load_bess(&data)
            .with_context(|| format!("{} cannot be loaded", path.display()))?;
        if self.pacing.paused {
            self.live_frame();
        }
        Ok(format!("loaded {} (BESS)", path.display()))
    }

    /// Start the ROM again with the same scripts (power-on).
    pub(crate) fn restart(&mut self) -> Result<()> {
        let paths = self.script_files();
        let rom = self.game.rom.clone();
        self.open(&rom)?;
        for (p, player) in paths {
            self.load_script_file_on(&p, player)?;
        }
        Ok(())
    }

    /// Put `session` in place of the running one: the scripts panel lists its scripts.
    pub(crate) fn replace_session(&mut self, session: Session) {
        self.editor = None;
        self.session = session;
        self.session.set_symbols(self.game.symbols.clone());
        self.scripts.entries.clear();
        self.adopt_new_scripts();
        if let Some(w) = &mut self.scripts.watcher {
            w.clear();
        }
    }
}
