//! [`Tas`]: the TAS workflow over a session, the way BizHawk's users work: a movie open for
//! recording (read-write) or for playback (read-only), and the switches between them.
//!
//! - **Record** ([`Tas::record`]) a session from its current frame: every frame is recorded
//!   after it runs; rewinding and playing on cuts the movie's future there (a rerecord).
//! - **Play** ([`Tas::play`]) read-only: before each frame the movie's input drives the
//!   session (the user's is ignored); the desync detector checks every chunk.
//!   [`Tas::read_write`] continues recording from the current frame (cutting the future: a
//!   rerecord); [`Tas::read_only`] turns a recording back into playback.
//! - **Undo** ([`Tas::undo`]) puts back the future the last rerecord cut; the caller then
//!   plays it read-only from the cut.
//! - **End** of a read-only movie: [`EndAction`] says what the caller does (pause, keep
//!   recording, stop).
//! - **States** while a movie is open: [`Tas::on_timeline`] says whether a state file is one
//!   of the movie's frames (only those load, by moving there).
//!
//! The type holds the movie and nothing of the caller's (pause, the user's buttons, windows):
//! the app, the REPL and the TAS editor drive the same workflow through it.

use std::path::{Path, PathBuf};

use super::container;
use super::error::MovieError;
use super::format::state_hash;
use super::player::{Desync, Feed, Feeder};
use super::reader::Movie;
use super::recorder::Recorder;
pub use crate::data::MovieView;
use crate::data::fnv1a;
use crate::session::{Session, SessionConfig};
use crate::state::StateFile;

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
    /// Parse `pause`, `record` (or `continue`) or `stop`.
    pub fn parse(s: &str) -> Option<EndAction> {
        match s {
            "pause" => Some(EndAction::Pause),
            "record" | "continue" => Some(EndAction::Record),
            "stop" => Some(EndAction::Stop),
            _ => None,
        }
    }

    /// The word [`EndAction::parse`] reads.
    pub fn name(self) -> &'static str {
        match self {
            EndAction::Pause => "pause",
            EndAction::Record => "record",
            EndAction::Stop => "stop",
        }
    }
}

/// How the movie is open.
enum Mode {
    /// Recording (read-write).
    Recording(Box<Recorder>),
    /// Playing back (read-only).
    Playing {
        /// The file.
        path: PathBuf,
        /// The movie.
        movie: Box<Movie>,
        /// Hands its events to the session.
        feeder: Feeder,
        /// The end was reached.
        ended: bool,
    },
}

/// Before a live frame: what the open movie says (see [`Tas::before_frame`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Before {
    /// Recording: the caller gives the session the user's input and runs the frame.
    Record,
    /// Playing: the movie's input for this frame was given to the session; run it.
    Play,
    /// The read-only movie has no more frames (`first`: it just ended).
    Ended {
        /// This is the first frame past the end.
        first: bool,
    },
}

/// A movie open over a session.
pub struct Tas {
    mode: Mode,
    /// Where the last rerecord cut the movie (undo plays on from there).
    cut: Option<u64>,
    /// The first desync was reported.
    desync_said: bool,
}

fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

impl Tas {
    /// Record `session` from its current frame into a new movie at `path` (an existing file is
    /// never replaced). From frame 0 the movie starts at power-on; from any other frame it
    /// starts from a state file, whose playback restarts the scripts there: record such a
    /// session made by `Session::from_state_file`, so that the recording runs as its playback
    /// will.
    pub fn record(path: &Path, session: &mut Session) -> Result<Tas, MovieError> {
        let rec = Recorder::create(path, session, Vec::new(), Default::default())?;
        Ok(Tas {
            mode: Mode::Recording(Box::new(rec)),
            cut: None,
            desync_said: false,
        })
    }

    /// Open the movie at `path` for read-only playback, with a new session at its start on
    /// `roms` (the movie's ROM, or a linked pair's two: others are refused).
    pub fn play(
        path: &Path,
        roms: impl Into<crate::session::Roms>,
        config: SessionConfig,
    ) -> Result<(Tas, Session), MovieError> {
        let movie = Movie::open(path)?;
        let session = movie.session(roms, config)?;
        let tas = Tas {
            mode: Mode::Playing {
                path: path.to_owned(),
                movie: Box::new(movie),
                feeder: Feeder::new(),
                ended: false,
            },
            cut: None,
            desync_said: false,
        };
        Ok((tas, session))
    }

    /// The movie file.
    pub fn path(&self) -> &Path {
        match &self.mode {
            Mode::Recording(rec) => rec.path(),
            Mode::Playing { path, .. } => path,
        }
    }

    /// Recording (read-write), else playing (read-only).
    pub fn is_recording(&self) -> bool {
        matches!(self.mode, Mode::Recording(_))
    }

    /// The rerecord count.
    pub fn rerecords(&self) -> u64 {
        match &self.mode {
            Mode::Recording(rec) => rec.header.rerecords,
            Mode::Playing { movie, .. } => movie.header.rerecords,
        }
    }

    /// The movie as a window shows it.
    pub fn view(&self) -> MovieView {
        match &self.mode {
            Mode::Recording(rec) => MovieView {
                name: file_name(rec.path()),
                read_only: false,
                length: rec.end_frame() - rec.header.start_frame,
                start: rec.header.start_frame,
                rerecords: rec.header.rerecords,
                can_undo: rec.can_undo(),
                ended: false,
                desync: None,
                unverified: None,
            },
            Mode::Playing {
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
                unverified: movie.core_note(),
            },
        }
    }

    /// Before a live frame: a playing movie hands the session its input for the frame.
    pub fn before_frame(&mut self, session: &mut Session) -> Result<Before, MovieError> {
        // What scripts' `movie.*` see.
        session.set_movie(Some(self.view()));
        let Mode::Playing {
            movie,
            feeder,
            ended,
            ..
        } = &mut self.mode
        else {
            return Ok(Before::Record);
        };
        Ok(match feeder.feed(movie, session)? {
            Feed::Playing => Before::Play,
            Feed::Ended => Before::Ended {
                first: !std::mem::replace(ended, true),
            },
        })
    }

    /// After a live frame: a recording records it (a resume at an earlier frame is a
    /// rerecord); a playing movie returns its first desync, once.
    pub fn after_frame(&mut self, session: &mut Session) -> Result<Option<Desync>, MovieError> {
        match &mut self.mode {
            Mode::Recording(rec) => {
                let before = rec.header.rerecords;
                rec.after_frame(session)?;
                if rec.header.rerecords > before {
                    self.cut = Some(session.frame().saturating_sub(1));
                }
                Ok(None)
            }
            Mode::Playing { feeder, .. } => {
                let first = feeder.desync.clone().filter(|_| !self.desync_said);
                self.desync_said |= first.is_some();
                Ok(first)
            }
        }
    }

    /// Close the movie: a recording is finished and compacted into one file (if compaction
    /// fails, the journal stays whole). Returns the file and, for a recording, its frame
    /// count and how it was left.
    pub fn stop(self) -> Result<Stopped, MovieError> {
        match self.mode {
            Mode::Recording(rec) => {
                let frames = rec.end_frame() - rec.header.start_frame;
                let path = rec.finish()?;
                let compacted = container::compact(&path, &path, 19).map_err(|e| e.to_string());
                Ok(Stopped {
                    path,
                    recorded: Some((frames, compacted)),
                })
            }
            Mode::Playing { path, .. } => Ok(Stopped {
                path,
                recorded: None,
            }),
        }
    }

    /// Switch a read-only movie to read-write at the session's frame (its future is cut: a
    /// rerecord). On an error the movie is closed (its file stays as it was).
    pub fn read_write(self, session: &mut Session) -> Result<Tas, MovieError> {
        let Mode::Playing { path, .. } = self.mode else {
            return Err(MovieError::Workflow("the movie is not playing".into()));
        };
        let rec = Recorder::resume(&path, session)?;
        let cut = rec.can_undo().then(|| session.frame());
        Ok(Tas {
            mode: Mode::Recording(Box::new(rec)),
            cut,
            desync_said: false,
        })
    }

    /// Switch a recording to read-only playback; the session stays where it is. On an error
    /// the movie is closed (its file keeps what was recorded).
    pub fn read_only(self) -> Result<Tas, MovieError> {
        let Mode::Recording(rec) = self.mode else {
            return Err(MovieError::Workflow("the movie is not recording".into()));
        };
        let path = rec.finish()?;
        let movie = Movie::open(&path)?;
        Ok(Tas {
            mode: Mode::Playing {
                path,
                movie: Box::new(movie),
                feeder: Feeder::new(),
                ended: false,
            },
            cut: self.cut,
            desync_said: false,
        })
    }

    /// Whether the last rerecord can be undone.
    pub fn can_undo(&self) -> bool {
        matches!(&self.mode, Mode::Recording(rec) if rec.can_undo())
    }

    /// Undo the last rerecord: the cut future comes back and the movie plays read-only.
    /// Returns the movie, its end frame again, and the frame the rerecord cut at (the caller
    /// seeks there when its history holds it). Check [`Tas::can_undo`] first: without a
    /// rerecord to undo, or on an error, the movie is closed (its file stays whole).
    pub fn undo(mut self) -> Result<(Tas, u64, Option<u64>), MovieError> {
        let undone = match &mut self.mode {
            Mode::Recording(rec) => rec.undo_rerecord()?,
            Mode::Playing { .. } => None,
        };
        let end = undone.ok_or_else(|| MovieError::Workflow("no rerecord to undo".into()))?;
        let cut = self.cut.take();
        Ok((self.read_only()?, end, cut))
    }

    /// Whether `file` is a state of this movie's timeline: called with the session at the
    /// file's frame, whether its core image is the one the session has there.
    pub fn on_timeline(session: &Session, file: &StateFile) -> bool {
        state_hash(session) == fnv1a(&file.core)
    }
}

/// A closed movie (see [`Tas::stop`]).
#[derive(Debug)]
pub struct Stopped {
    /// The file.
    pub path: PathBuf,
    /// For a recording: frames recorded, and whether the journal became one compact file
    /// (else why not: the journal stays whole).
    pub recorded: Option<(u64, Result<(), String>)>,
}
