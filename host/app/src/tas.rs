//! The TAS workflow of the app: recording and playing movies (`gb_session::movie`) and
//! state files (numbered slots per ROM and named files), as methods of the emulation thread.
//!
//! - **Record** from power-on (the ROM is started again, the loaded scripts with it) or from
//!   the current frame (the movie starts from a state file of it). Every frame is recorded
//!   after it runs; rewinding and playing on cuts the movie's future there (a rerecord).
//! - **Play** read-only: the movie's input drives the game, the user's is ignored; the desync
//!   detector checks every chunk. Switching to read-write continues recording from the current
//!   frame (cutting the future: a rerecord). Undo puts back the future the last rerecord cut
//!   and plays it read-only from the cut.
//! - **Movie end**: pause (default), continue recording (read-write), or stop the movie.
//! - **States**: `save N` / `load N` (0-9) are files per ROM under the state folder; any path
//!   works too. While a movie runs, loading a state moves to its frame on the movie's timeline
//!   (through the rewind history) if it is one of this timeline's frames; anything else is
//!   refused, so the movie stays the session's timeline.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use gb_session::movie::{self, Feed, Feeder, Movie, Recorder};
use gb_session::{ScriptRestore, StateFile};

use crate::emu::Emu;

/// What happens when a read-only movie runs out of frames.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EndAction {
    /// Pause on the last frame.
    #[default]
    Pause,
    /// Switch to read-write and keep recording.
    Record,
    /// Close the movie; play goes on unrecorded.
    Stop,
}

impl EndAction {
    /// Parse `pause`, `record` or `stop`.
    pub fn parse(s: &str) -> Option<EndAction> {
        match s {
            "pause" => Some(EndAction::Pause),
            "record" | "continue" => Some(EndAction::Record),
            "stop" => Some(EndAction::Stop),
            _ => None,
        }
    }
}

/// A movie open in the app.
pub enum Tas {
    /// Recording (read-write).
    Recording {
        /// The recorder.
        rec: Box<Recorder>,
    },
    /// Playing back (read-only).
    Playing {
        /// The file.
        path: PathBuf,
        /// The movie.
        movie: Box<Movie>,
        /// Hands its events to the session.
        feeder: Feeder,
        /// The end was reached (and handled).
        ended: bool,
    },
}

/// What the window shows of the movie.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MovieView {
    /// The file's name.
    pub name: String,
    /// Read-only playback (else recording).
    pub read_only: bool,
    /// The movie's frame count (recorded so far, or the file's).
    pub length: u64,
    /// The frame the movie starts at.
    pub start: u64,
    /// Rerecords.
    pub rerecords: u64,
    /// A rerecord can be undone.
    pub can_undo: bool,
    /// The playback reached the end.
    pub ended: bool,
    /// The first frame the desync detector found different, if any.
    pub desync: Option<u64>,
}

/// Where numbered state slots are kept: `GBHOST_STATE_DIR`, else
/// `$XDG_DATA_HOME/gbhost/states`, else `~/.local/share/gbhost/states`.
pub fn state_dir() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("GBHOST_STATE_DIR") {
        return Some(PathBuf::from(p));
    }
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local").join("share"))
        })?;
    Some(base.join("gbhost").join("states"))
}

fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

impl Emu {
    /// The movie as the window shows it.
    pub fn movie_view(&self) -> Option<MovieView> {
        Some(match self.tas.as_ref()? {
            Tas::Recording { rec } => MovieView {
                name: file_name(rec.path()),
                read_only: false,
                length: rec.end_frame() - rec.header.start_frame,
                start: rec.header.start_frame,
                rerecords: rec.header.rerecords,
                can_undo: rec.can_undo(),
                ended: false,
                desync: None,
            },
            Tas::Playing {
                path,
                movie,
                feeder,
                ended,
            } => MovieView {
                name: file_name(path),
                read_only: true,
                length: movie.frames(),
                start: movie.header.start_frame,
                rerecords: movie.header.rerecords,
                can_undo: false,
                ended: *ended,
                desync: feeder.desync.as_ref().map(|d| d.frame),
            },
        })
    }

    /// Before a live frame: hand the movie's input (read-only) or the user's (otherwise) to
    /// the session. Returns false when the frame must not run (the movie ended and pauses).
    pub(crate) fn movie_before_frame(&mut self) -> bool {
        let Some(Tas::Playing {
            movie,
            feeder,
            ended,
            ..
        }) = &mut self.tas
        else {
            self.session.set_buttons(self.held);
            return true;
        };
        match feeder.feed(movie, &mut self.session) {
            Ok(Feed::Playing) => true,
            Ok(Feed::Ended) => {
                let first = !*ended;
                *ended = true;
                if first {
                    let frame = self.session.frame();
                    self.say(format!("movie ended at frame {frame}"));
                }
                match self.end_action {
                    EndAction::Pause => {
                        self.paused = true;
                        false
                    }
                    EndAction::Record => {
                        if let Err(e) = self.movie_read_write() {
                            self.say(format!("movie: {e:#}"));
                            self.paused = true;
                            return false;
                        }
                        self.session.set_buttons(self.held);
                        true
                    }
                    EndAction::Stop => {
                        self.tas = None;
                        self.say("movie closed; play goes on unrecorded");
                        self.session.set_buttons(self.held);
                        true
                    }
                }
            }
            Err(e) => {
                self.say(format!("movie: {e}; playback stopped"));
                self.tas = None;
                self.paused = true;
                false
            }
        }
    }

    /// After a live frame: record it (read-write) and report a first desync (read-only).
    pub(crate) fn movie_after_frame(&mut self) {
        match &mut self.tas {
            Some(Tas::Recording { rec }) => {
                if let Err(e) = rec.after_frame(&mut self.session) {
                    let path = rec.path().display().to_string();
                    self.say(format!(
                        "movie: {e}; recording stopped ({path} keeps what was recorded)"
                    ));
                    if let Some(Tas::Recording { rec }) = self.tas.take() {
                        let _ = rec.finish();
                    }
                }
            }
            Some(Tas::Playing { feeder, .. }) => {
                if let Some(d) = &feeder.desync
                    && !self.desync_said
                {
                    let msg = format!(
                        "movie desync: the state at frame {} differs from the recording \
                         (expected {:016x}, got {:016x})",
                        d.frame, d.expected, d.got
                    );
                    self.desync_said = true;
                    self.say(msg);
                }
            }
            None => {}
        }
    }

    /// Stop the movie (a recording is flushed; the file stays).
    pub fn movie_stop(&mut self) -> Result<String> {
        match self.tas.take() {
            Some(Tas::Recording { rec }) => {
                let frames = rec.end_frame() - rec.header.start_frame;
                let path = rec.finish()?;
                // The journal becomes one compact file; if that fails the journal stays whole.
                let how = match gb_session::movie::container::compact(&path, &path, 19) {
                    Ok(()) => "compacted".to_owned(),
                    Err(e) => format!("left as a journal: {e}"),
                };
                Ok(format!(
                    "recorded {frames} frames to {} ({how})",
                    path.display()
                ))
            }
            Some(Tas::Playing { path, .. }) => Ok(format!("stopped playing {}", path.display())),
            None => bail!("no movie is open"),
        }
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
        if self.tas.is_some() {
            let msg = self.movie_stop()?;
            self.say(msg);
        }
        if from_power_on {
            self.restart()?;
        } else if self.session.frame() > 0 {
            // The movie starts from a state of this frame, and its playback restarts the
            // scripts there: so does the recording, so that both run the same.
            let file = self.session.state_file(unix_now(), false);
            let config = gb_session::SessionConfig {
                ring_bytes: self.ring_bytes,
                ..gb_session::SessionConfig::default()
            };
            let session =
                gb_session::Session::from_state_file(self.rom_bytes.clone(), None, config, &file)?;
            let paths: Vec<(u32, Option<PathBuf>)> = self
                .scripts
                .iter()
                .filter_map(|s| Some((s.slot?, s.path.clone())))
                .collect();
            self.replace_session(session);
            // Keep the scripts' files (for live reload) where the slots match.
            for entry in &mut self.scripts {
                if let Some((_, p)) = paths.iter().find(|(slot, _)| Some(*slot) == entry.slot) {
                    entry.path.clone_from(p);
                    if let (Some(w), Some(p)) = (&mut self.watcher, p) {
                        w.watch(p);
                    }
                }
            }
        }
        let rec = Recorder::create(path, &mut self.session, Vec::new(), Default::default())
            .with_context(|| format!("cannot record to {}", path.display()))?;
        let from = self.session.frame();
        self.tas = Some(Tas::Recording { rec: Box::new(rec) });
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
        let mut movie = Movie::open(path).with_context(|| format!("{}", path.display()))?;
        movie.check_rom(&self.rom_bytes)?;
        if self.tas.is_some() {
            let msg = self.movie_stop()?;
            self.say(msg);
            // (It may have been this very file, now finished.)
            movie = Movie::open(path).with_context(|| format!("{}", path.display()))?;
        }
        let config = gb_session::SessionConfig {
            ring_bytes: self.ring_bytes,
            ..gb_session::SessionConfig::default()
        };
        let session = movie.session(self.rom_bytes.clone(), config)?;
        // The movie's cartridge RAM is not the player's: battery saves stop here.
        if self.battery.is_some() {
            self.save_battery();
            self.battery = None;
            self.say("battery saves are off while a movie plays (reopen the ROM to resume them)");
        }
        self.replace_session(session);
        let frames = movie.frames();
        self.tas = Some(Tas::Playing {
            path: path.to_owned(),
            movie: Box::new(movie),
            feeder: Feeder::new(),
            ended: false,
        });
        self.desync_said = false;
        Ok(format!(
            "playing {} read-only ({frames} frames)",
            path.display()
        ))
    }

    /// Switch a read-only movie to read-write at the current frame (its future is cut).
    pub fn movie_read_write(&mut self) -> Result<String> {
        let Some(Tas::Playing { path, .. }) = &self.tas else {
            bail!("no movie is playing");
        };
        let path = path.clone();
        self.tas = None;
        let rec = Recorder::resume(&path, &mut self.session)?;
        if rec.can_undo() {
            self.undo_frame = Some(self.session.frame());
        }
        let msg = format!(
            "read-write at frame {} ({} rerecords)",
            self.session.frame(),
            rec.header.rerecords
        );
        self.tas = Some(Tas::Recording { rec: Box::new(rec) });
        Ok(msg)
    }

    /// Switch a recording to read-only playback; the session stays where it is.
    pub fn movie_read_only(&mut self) -> Result<String> {
        let Some(Tas::Recording { .. }) = &self.tas else {
            bail!("no movie is recording");
        };
        let Some(Tas::Recording { rec }) = self.tas.take() else {
            bail!("no movie is recording");
        };
        let path = (*rec).finish()?;
        let movie = Movie::open(&path)?;
        let msg = format!("read-only ({} frames)", movie.frames());
        self.tas = Some(Tas::Playing {
            path,
            movie: Box::new(movie),
            feeder: Feeder::new(),
            ended: false,
        });
        Ok(msg)
    }

    /// Undo the last rerecord: the cut future comes back and plays read-only from the cut.
    pub fn movie_undo(&mut self) -> Result<String> {
        let Some(Tas::Recording { rec }) = &mut self.tas else {
            bail!("no movie is recording");
        };
        let Some(end) = rec.undo_rerecord()? else {
            bail!("no rerecord to undo");
        };
        let cut = self.undo_frame.take();
        self.movie_read_only()?;
        if let Some(f) = cut.filter(|f| self.in_history(*f)) {
            self.seek(f)?;
        }
        Ok(format!(
            "undid the last rerecord: the movie ends at frame {end} again (read-only)"
        ))
    }

    /// Save a state: a numbered slot (0-9) of this ROM, or a file.
    pub fn state_save(&mut self, target: &str) -> Result<String> {
        let path = self.state_path(target)?;
        if let Some(dir) = path.parent() {
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
    pub fn state_load(&mut self, target: &str) -> Result<String> {
        let path = self.state_path(target)?;
        let file = StateFile::read(&path)?;
        if self.tas.is_some() {
            return self.state_load_in_movie(&file);
        }
        let how = self.session.load_state_file(&file)?;
        if self.paused {
            self.live_frame();
        }
        Ok(match how {
            ScriptRestore::Exact => format!(
                "loaded {} (frame {} of that timeline); scripts restored exactly",
                path.display(),
                file.meta.frame
            ),
            ScriptRestore::Restarted => format!(
                "loaded {} (frame {} of that timeline); scripts restarted with their persist \
                 data (their memory is only restored for states this session saved)",
                path.display(),
                file.meta.frame
            ),
        })
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
        if self.tas.is_some() {
            bail!("a BESS state is not on any movie's timeline: stop the movie first");
        }
        let data = std::fs::read(path).with_context(|| format!("{}", path.display()))?;
        let cart = gb_core::Cartridge::from_rom(self.rom_bytes.clone())?;
        let mut gb = gb_core::Gb::new(cart);
        gb_core::bess::import(&mut gb, &data)
            .with_context(|| format!("{} cannot be loaded", path.display()))?;
        let mut core = Vec::new();
        gb.save_state(&mut core);
        self.session.load_core_image(core)?;
        if self.paused {
            self.live_frame();
        }
        Ok(format!("loaded {} (BESS)", path.display()))
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
        if movie::state_hash(&self.session) != gb_session::fnv1a(&file.core) {
            self.seek(back)?;
            bail!("this state is not on the movie's timeline (frame {f} differs); not loaded");
        }
        self.paused = true;
        Ok(format!(
            "moved to frame {f}, the state's frame on the movie's timeline (playing on from here \
             in read-write mode is a rerecord)"
        ))
    }

    fn state_path(&self, target: &str) -> Result<PathBuf> {
        if let Ok(n) = target.parse::<u8>()
            && n <= 9
        {
            let dir = state_dir().context("no state folder (set GBHOST_STATE_DIR or HOME)")?;
            return Ok(gb_session::state::file::slot_path(
                &dir,
                self.session.start_params().rom_hash,
                n,
            ));
        }
        Ok(PathBuf::from(target))
    }

    /// Start the ROM again with the same scripts (power-on).
    pub(crate) fn restart(&mut self) -> Result<()> {
        let paths: Vec<PathBuf> = self.scripts.iter().filter_map(|s| s.path.clone()).collect();
        let rom = self.rom.clone();
        self.open(&rom)?;
        for p in paths {
            self.load_script_file(&p)?;
        }
        Ok(())
    }

    /// Put `session` in place of the running one: the scripts panel lists its scripts.
    fn replace_session(&mut self, session: gb_session::Session) {
        self.session = session;
        self.scripts.clear();
        self.adopt_new_scripts();
        if let Some(w) = &mut self.watcher {
            w.clear();
        }
    }
}
