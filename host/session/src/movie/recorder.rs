//! [`Recorder`]: a movie recorded from a session, following it after every frame. When the
//! session resumed at an earlier frame (a rewind, a seek, a state of this movie loaded), the
//! movie's future is cut there and the rerecord count goes up: the movie is always the
//! session's timeline. The last cut can be undone. A chunk is written (and the container's
//! index rewritten atomically) every [`super::format::CHUNK_FRAMES`] frames, so a crash loses
//! at most one emulated second.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::container::{self, ChunkMeta};
use super::error::MovieError;
use super::format::{
    CHUNK_FRAMES, Chunk, FLAG_KEYFRAME, KeyBase, MovieHeader, Power, SecondPlayer, Start,
    core_image, keyframe, state_hash,
};
use super::reader::Movie;
use crate::data::EventKind;
use crate::session::Session;

/// What the last rerecord cut, to put it back.
struct Undo {
    /// The movie's end frame before the cut.
    end: u64,
    /// The written chunks it dropped, as stored.
    chunks: Vec<(ChunkMeta, Vec<u8>)>,
    /// The chunk being filled then, and its first frame.
    pending: Chunk,
    pending_start: u64,
}

/// A movie being recorded from a session.
pub struct Recorder {
    writer: container::Writer,
    path: PathBuf,
    /// The header as written.
    pub header: MovieHeader,
    /// The chunk being filled.
    pending: Chunk,
    /// Its first frame.
    pending_start: u64,
    /// Frames recorded (the movie's end frame).
    end: u64,
    /// The future cut by the last rerecord (chunks' metas and payloads), for undo.
    undo: Option<Undo>,
    /// The last state keyframe with whole images, which the next ones store theirs against
    /// (forgotten at every cut, so a base is always in the movie before what uses it).
    key_base: Option<KeyBase>,
}

impl Recorder {
    /// Start recording `session` from its current frame into a new movie at `path` (an
    /// existing file is never replaced: that is an error). A session at frame 0 records from
    /// power-on; any other starts from a state file of it, whose playback restarts the
    /// scripts there: record such a movie on a session made by `Session::from_state_file`
    /// (as the app does), so that the recording runs as its playback will.
    pub fn create(
        path: &Path,
        session: &mut Session,
        authors: Vec<String>,
        metadata: BTreeMap<String, String>,
    ) -> Result<Recorder, MovieError> {
        let p = session.start_params().clone();
        let start = if session.frame() == 0 {
            Start::PowerOn {
                boot_rom_hash: p.boot_rom_hash,
                battery: p.battery.clone(),
                ram_init: p.ram_init,
                dmg_palette: p.dmg_palette,
            }
        } else {
            // A movie's start state restarts its scripts from their `persist` data on every
            // playback, for every user: it carries no VM images (and the recording session
            // must have restarted them too, see `Recorder::create`).
            Start::State({
                let mut f = session.state_file(0, false);
                f.images.clear();
                f.encode()
            })
        };
        let header = MovieHeader {
            rom_hash: p.rom_hash,
            rom_title: session.gb().cartridge().header().title.clone(),
            model: p.model.name().to_owned(),
            start,
            start_frame: session.frame(),
            rtc_start: p.rtc_start,
            rerecords: 0,
            authors,
            metadata,
            core_version: gb_core::CORE_VERSION,
            frame_rule: session.machine().frame_rule(),
            second: p.second.as_ref().map(|b| SecondPlayer {
                rom_hash: b.rom_hash,
                rom_title: session
                    .machine()
                    .player(1)
                    .map(|gb| gb.cartridge().header().title.clone())
                    .unwrap_or_default(),
                model: b.model.name().to_owned(),
                power: Power {
                    boot_rom_hash: b.boot_rom_hash,
                    battery: b.battery.clone(),
                    ram_init: b.ram_init,
                    dmg_palette: b.dmg_palette,
                },
            }),
        };
        let writer = container::Writer::create(path, &header.encode())?;
        let start_frame = session.frame();
        Ok(Recorder {
            writer,
            path: path.to_owned(),
            header,
            pending: Chunk {
                state_hash: state_hash(session),
                keyframe: Some(core_image(session)),
                ..Chunk::default()
            },
            pending_start: start_frame,
            end: start_frame,
            undo: None,
            key_base: None,
        })
    }

    /// Continue recording a movie file from `session`, which must be at a frame of the
    /// movie's timeline (e.g. played back to it): the movie's future after that frame is cut
    /// (a rerecord, when there was a future).
    pub fn resume(path: &Path, session: &mut Session) -> Result<Recorder, MovieError> {
        let movie = Movie::open(path)?;
        let writer = container::Writer::resume(path)?;
        let mut r = Recorder {
            writer,
            path: path.to_owned(),
            header: movie.header.clone(),
            pending: Chunk::default(),
            pending_start: movie.header.start_frame,
            end: movie.end_frame(),
            undo: None,
            key_base: None,
        };
        r.reopen_last_chunk()?;
        let f = session.frame();
        if f < r.end {
            r.cut(f)?;
        }
        Ok(r)
    }

    /// Make the last written chunk the pending one again (removing it from the file), if it
    /// is not full.
    fn reopen_last_chunk(&mut self) -> Result<(), MovieError> {
        let Some(last) = self.writer.chunks().last().cloned() else {
            self.pending_start = self.end;
            return Ok(());
        };
        let i = self.writer.chunks().len() - 1;
        let chunk = Chunk::decode(&self.writer.read_chunk(i)?, &last.meta).map_err(|source| {
            MovieError::Decode {
                part: format!("chunk {i}"),
                source,
            }
        })?;
        if last.meta.frames < CHUNK_FRAMES {
            self.writer.truncate(i)?;
            self.pending = chunk;
            self.pending_start = last.meta.start_frame;
        } else {
            self.pending_start = self.end;
            self.pending = Chunk::default();
        }
        Ok(())
    }

    /// The movie file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The frame after the last recorded one.
    pub fn end_frame(&self) -> u64 {
        self.end
    }

    /// Record what the session did since the last call: call after every
    /// `Session::run_frame`. When the session resumed at an earlier frame, the movie's
    /// future is cut there first (a rerecord).
    pub fn after_frame(&mut self, session: &mut Session) -> Result<(), MovieError> {
        let done = session.frame();
        let Some(ran) = done.checked_sub(1) else {
            return Ok(());
        };
        if ran < self.header.start_frame {
            return Err(MovieError::Unrecordable(format!(
                "the session went back to frame {ran}, before the movie's start ({})",
                self.header.start_frame
            )));
        }
        if ran < self.end {
            self.cut(ran)?;
        }
        if ran > self.end {
            return Err(MovieError::Unrecordable(format!(
                "frames {}..{ran} ran without being recorded",
                self.end
            )));
        }
        for e in session.log().frame(ran) {
            if let EventKind::LoadState { .. } | EventKind::Persist { .. } = e.kind {
                return Err(MovieError::Unrecordable(
                    "a state loaded from outside the movie (while recording, load a state of \
                     this movie by seeking to its frame)"
                        .into(),
                ));
            }
            if let EventKind::ScriptLoad { hash, .. } | EventKind::ScriptReload { hash, .. } =
                e.kind
                && !self.pending.sources.iter().any(|(h, _)| *h == hash)
                && let Some(b) = session.source(hash)
            {
                self.pending.sources.push((hash, b.clone()));
            }
            self.pending.events.push(e.clone());
        }
        self.end = done;
        if self.end - self.pending_start >= u64::from(CHUNK_FRAMES) {
            self.flush(session)?;
        }
        Ok(())
    }

    /// Write the pending chunk and start the next one at the session's frame.
    fn flush(&mut self, session: &mut Session) -> Result<(), MovieError> {
        self.write_pending()?;
        let index = self.writer.chunks().len() as u64;
        self.pending = Chunk {
            state_hash: state_hash(session),
            keyframe: keyframe(session, index, &mut self.key_base),
            ..Chunk::default()
        };
        self.pending_start = self.end;
        Ok(())
    }

    fn write_pending(&mut self) -> Result<(), MovieError> {
        let frames = (self.end - self.pending_start) as u32;
        if frames == 0 {
            return Ok(());
        }
        let meta = ChunkMeta {
            start_frame: self.pending_start,
            frames,
            flags: if self.pending.keyframe.is_some() {
                FLAG_KEYFRAME
            } else {
                0
            },
        };
        self.writer
            .append_chunk(meta, &self.pending.encode(self.pending_start))?;
        Ok(())
    }

    /// Cut the movie so that frame `f` is the next to record (its events and later ones are
    /// dropped), count a rerecord and keep the cut future for [`Recorder::undo_rerecord`].
    fn cut(&mut self, f: u64) -> Result<(), MovieError> {
        self.key_base = None;
        let kept_pending = (self.pending.clone(), self.pending_start);
        let mut future = Vec::new();
        if f < self.pending_start {
            // The cut is in a written chunk: take it back as the pending one.
            let i = self
                .writer
                .chunks()
                .iter()
                .position(|c| c.meta.start_frame.saturating_add(u64::from(c.meta.frames)) > f)
                .unwrap_or(0);
            for k in i..self.writer.chunks().len() {
                let meta = self.writer.chunks()[k].meta;
                future.push((meta, self.writer.read_chunk(k)?));
            }
            let (meta, raw) = &future[0];
            let mut chunk = Chunk::decode(raw, meta).map_err(|source| MovieError::Decode {
                part: format!("chunk {i}"),
                source,
            })?;
            self.writer.truncate(i)?;
            chunk.events.retain(|e| e.frame < f);
            self.pending = chunk;
            self.pending_start = meta.start_frame;
        } else {
            self.pending.events.retain(|e| e.frame < f);
        }
        self.undo = Some(Undo {
            end: self.end,
            chunks: future,
            pending: kept_pending.0,
            pending_start: kept_pending.1,
        });
        self.end = f;
        self.header.rerecords += 1;
        self.writer.set_header(&self.header.encode())?;
        Ok(())
    }

    /// Set the rerecord count (e.g. of a converted movie) and write the header.
    pub fn set_rerecords(&mut self, n: u64) -> Result<(), MovieError> {
        self.header.rerecords = n;
        self.writer.set_header(&self.header.encode())?;
        Ok(())
    }

    /// Whether a rerecord can be undone.
    pub fn can_undo(&self) -> bool {
        self.undo.is_some()
    }

    /// Undo the last rerecord: put back the future it cut (dropping what was recorded since)
    /// and take the rerecord back. Returns the frame the restored movie ends at; the caller
    /// plays the session forward from the cut frame with a [`super::Feeder`].
    pub fn undo_rerecord(&mut self) -> Result<Option<u64>, MovieError> {
        let Some(undo) = self.undo.take() else {
            return Ok(None);
        };
        self.key_base = None;
        // Drop what was written since the cut: everything from the first cut chunk's start.
        let from = undo
            .chunks
            .first()
            .map_or(undo.pending_start, |(m, _)| m.start_frame);
        let keep = self
            .writer
            .chunks()
            .iter()
            .position(|c| c.meta.start_frame >= from)
            .unwrap_or(self.writer.chunks().len());
        self.writer.truncate(keep)?;
        for (meta, raw) in &undo.chunks {
            self.writer.append_chunk(*meta, raw)?;
        }
        self.pending = undo.pending;
        self.pending_start = undo.pending_start;
        self.end = undo.end;
        self.header.rerecords = self.header.rerecords.saturating_sub(1);
        self.writer.set_header(&self.header.encode())?;
        Ok(Some(undo.end))
    }

    /// Write the pending frames and flush everything to disk (call when recording stops; the
    /// file is then a complete movie, in the journal form until compacted).
    pub fn finish(mut self) -> Result<PathBuf, MovieError> {
        self.write_pending()?;
        self.writer.sync()?;
        Ok(self.path)
    }

    /// Flush the file to disk (the recorder does so itself at least once per chunk).
    pub fn sync(&mut self) -> Result<(), MovieError> {
        self.writer.sync()?;
        Ok(())
    }
}
