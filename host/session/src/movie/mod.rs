//! Movies: a session's outside inputs from power-on (or from a state) to the end, with state
//! checks, in the chunked container of `container.rs`.
//!
//! A movie is what the session's event log already is (joypad changes at exact cycles, pokes,
//! script loads and reloads with their sources), cut into chunks of [`CHUNK_FRAMES`] frames.
//! Each chunk starts with the hash of the core image at its first frame (the desync detector:
//! playback compares it at every chunk) and, every [`KEYFRAME_CHUNKS`] chunks, the image itself
//! (a keyframe, for seeking); then the source bundles its events name; then its events.
//!
//! Chunk payload (`codec.rs` encodings):
//!
//! ```text
//! u64 state hash (FNV-1a of the core image at start_frame)
//! bytes keyframe (the image, or empty)
//! count, (u64 hash, bundle)*     sources of the chunk's script loads and reloads
//! events                          encode_events from (start_frame, 0)
//! ```
//!
//! The header payload: magic-free, versioned by the container; see [`MovieHeader`].
//!
//! Recording ([`Recorder`]) follows the session after every frame: when the session resumed
//! at an earlier frame (a rewind, a seek, a state of this movie loaded), the movie's future is
//! cut there and the rerecord count goes up: the movie is always the session's timeline.
//! A chunk is written (and the container's index rewritten atomically) every
//! [`CHUNK_FRAMES`] frames, so a crash loses at most one emulated second.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::codec::{self, Dec, DecodeError, Enc};
use crate::data::{Bundle, Event, EventKind, fnv1a};
use crate::session::{PowerOn, Session, SessionConfig, SessionError};
use crate::state::file::StateFile;
use container::{ChunkMeta, ContainerError};

/// Frames per chunk: one emulated second (the most a crash can lose).
pub const CHUNK_FRAMES: u32 = 60;
/// Chunks between two keyframes (a keyframe every 10 seconds).
pub const KEYFRAME_CHUNKS: u64 = 10;
/// Chunk flag: the chunk holds a keyframe.
pub const FLAG_KEYFRAME: u32 = 1;
pub use crate::data::limits::{MAX_FRAME, MAX_FRAME_LIST};

pub mod bk2;
pub mod container;
/// Version of the header payload.
const HEADER_VERSION: u8 = 2;

/// Why a movie cannot be read, recorded or played.
#[derive(Debug, thiserror::Error)]
pub enum MovieError {
    /// The container is damaged or foreign.
    #[error(transparent)]
    Container(#[from] ContainerError),
    /// A part does not decode.
    #[error("the movie's {part} is invalid: {source}")]
    Decode {
        /// Which part (`header`, `chunk 12`).
        part: String,
        /// What was wrong.
        source: DecodeError,
    },
    /// The movie is of another ROM.
    #[error(
        "this movie is of another ROM ('{title}', hash {theirs:016x}; the loaded ROM's is {ours:016x})"
    )]
    ForeignRom {
        /// The movie's ROM title.
        title: String,
        /// The movie's ROM hash.
        theirs: u64,
        /// The loaded ROM's hash.
        ours: u64,
    },
    /// The session did something a movie cannot hold.
    #[error("cannot record this in a movie: {0}")]
    Unrecordable(String),
    /// Too many frames to list one by one.
    #[error("the movie has {0} frames; at most {MAX_FRAME_LIST} can be listed frame by frame")]
    TooLong(u64),
    /// Making the session failed.
    #[error(transparent)]
    Session(#[from] SessionError),
}

/// How a movie starts.
#[derive(Clone, Debug, PartialEq)]
pub enum Start {
    /// From power-on (the post-boot state, or the boot ROM with that hash).
    PowerOn {
        /// FNV-1a of the boot ROM, if one runs.
        boot_rom_hash: Option<u64>,
        /// The battery RAM the cartridge powered on with (`.sav` layout), if any.
        battery: Option<Vec<u8>>,
    },
    /// From a state file (its bytes).
    State(Vec<u8>),
}

/// What a movie is of and by whom.
#[derive(Clone, Debug, PartialEq)]
pub struct MovieHeader {
    /// FNV-1a hash of the ROM image.
    pub rom_hash: u64,
    /// The ROM's header title.
    pub rom_title: String,
    /// The emulated model (`DMG`).
    pub model: String,
    /// How it starts.
    pub start: Start,
    /// The session frame it starts at (0 from power-on).
    pub start_frame: u64,
    /// Unix time the cartridge clock starts from.
    pub rtc_start: u64,
    /// Times the movie's future was cut and re-recorded.
    pub rerecords: u64,
    /// Authors, free text.
    pub authors: Vec<String>,
    /// Free metadata (a JSON object in the file).
    pub metadata: BTreeMap<String, String>,
}

impl MovieHeader {
    /// The header's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut e = Enc::default();
        e.u8(HEADER_VERSION);
        e.u64(self.rom_hash);
        e.str(&self.rom_title);
        e.str(&self.model);
        match &self.start {
            Start::PowerOn {
                boot_rom_hash,
                battery,
            } => {
                e.u8(0);
                match boot_rom_hash {
                    Some(h) => {
                        e.u8(1);
                        e.u64(*h);
                    }
                    None => e.u8(0),
                }
                match battery {
                    Some(b) => {
                        e.u8(1);
                        e.bytes(b);
                    }
                    None => e.u8(0),
                }
            }
            Start::State(bytes) => {
                e.u8(1);
                e.bytes(bytes);
            }
        }
        e.var(self.start_frame);
        e.var(self.rtc_start);
        e.var(self.rerecords);
        e.var(self.authors.len() as u64);
        for a in &self.authors {
            e.str(a);
        }
        let json = serde_json::to_string(&self.metadata).unwrap_or_else(|_| "{}".into());
        e.str(&json);
        e.buf
    }

    /// Decode a header.
    pub fn decode(bytes: &[u8]) -> Result<MovieHeader, MovieError> {
        let mut d = Dec::new(bytes);
        let part = |source| MovieError::Decode {
            part: "header".into(),
            source,
        };
        (|| {
            let v = d.u8()?;
            if !(1..=HEADER_VERSION).contains(&v) {
                return Err(d.error(format!("header version {v} is not supported")));
            }
            let rom_hash = d.u64()?;
            let rom_title = d.str()?;
            let model = d.str()?;
            let start = match d.u8()? {
                0 => Start::PowerOn {
                    boot_rom_hash: match d.u8()? {
                        0 => None,
                        _ => Some(d.u64()?),
                    },
                    // Version 1 had no battery: such movies logged it as pokes.
                    battery: if v >= 2 && d.u8()? != 0 {
                        Some(d.bytes()?.to_vec())
                    } else {
                        None
                    },
                },
                1 => Start::State(d.bytes()?.to_vec()),
                k => return Err(d.error(format!("unknown start kind {k}"))),
            };
            let start_frame = d.var()?;
            if start_frame > MAX_FRAME {
                return Err(d.error(format!("start frame {start_frame} is out of range")));
            }
            let rtc_start = d.var()?;
            let rerecords = d.var()?;
            let n = d.count(1)?;
            let mut authors = Vec::with_capacity(n);
            for _ in 0..n {
                authors.push(d.str()?);
            }
            let json = d.str()?;
            let metadata = serde_json::from_str(&json)
                .map_err(|e| d.error(format!("metadata is not a JSON object of texts: {e}")))?;
            Ok(MovieHeader {
                rom_hash,
                rom_title,
                model,
                start,
                start_frame,
                rtc_start,
                rerecords,
                authors,
                metadata,
            })
        })()
        .map_err(part)
    }
}

/// One decoded chunk.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Chunk {
    /// FNV-1a of the core image at the chunk's first frame.
    pub state_hash: u64,
    /// The core image there, if this chunk is a keyframe.
    pub keyframe: Option<Vec<u8>>,
    /// Bundles of the script versions its events load.
    pub sources: Vec<(u64, Bundle)>,
    /// Its events, in order.
    pub events: Vec<Event>,
}

impl Chunk {
    /// The chunk's payload.
    pub fn encode(&self, start_frame: u64) -> Vec<u8> {
        let mut e = Enc::default();
        e.u64(self.state_hash);
        e.bytes(self.keyframe.as_deref().unwrap_or(&[]));
        e.var(self.sources.len() as u64);
        for (h, b) in &self.sources {
            e.u64(*h);
            codec::encode_bundle(&mut e, b);
        }
        codec::encode_events(&mut e, &self.events, start_frame, 0);
        e.buf
    }

    /// Decode a chunk's payload; every event must lie in `[start, start + frames)`.
    pub fn decode(bytes: &[u8], meta: &ChunkMeta) -> Result<Chunk, DecodeError> {
        let mut d = Dec::new(bytes);
        let state_hash = d.u64()?;
        let key = d.bytes()?;
        let n = d.count(11)?;
        let mut sources = Vec::with_capacity(n);
        for _ in 0..n {
            let h = d.u64()?;
            sources.push((h, codec::decode_bundle(&mut d)?));
        }
        let events = codec::decode_events(&mut d, meta.start_frame, 0)?;
        let end = meta.start_frame.saturating_add(u64::from(meta.frames));
        if events
            .iter()
            .any(|e| e.frame < meta.start_frame || e.frame >= end)
        {
            return Err(d.error("an event lies outside its chunk"));
        }
        Ok(Chunk {
            state_hash,
            keyframe: (!key.is_empty()).then(|| key.to_vec()),
            sources,
            events,
        })
    }
}

/// The hash the desync detector compares: FNV-1a of the core image.
pub fn state_hash(session: &Session) -> u64 {
    let mut image = Vec::new();
    session.gb().save_state(&mut image);
    fnv1a(&image)
}

/// A movie read from a file (either container form).
pub struct Movie {
    /// Its header.
    pub header: MovieHeader,
    reader: container::Reader,
}

impl Movie {
    /// Open a movie file (a finished one, or a recording's journal, recovered).
    pub fn open(path: &Path) -> Result<Movie, MovieError> {
        Movie::from_reader(container::Reader::open(path)?)
    }

    /// A movie from its bytes.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Movie, MovieError> {
        Movie::from_reader(container::Reader::from_bytes(bytes)?)
    }

    fn from_reader(reader: container::Reader) -> Result<Movie, MovieError> {
        let header = MovieHeader::decode(reader.header())?;
        if let Some(c) = reader.chunks().iter().find(|c| {
            c.meta.start_frame < header.start_frame
                || c.meta.start_frame.saturating_add(u64::from(c.meta.frames)) > MAX_FRAME
        }) {
            return Err(MovieError::Decode {
                part: "index".into(),
                source: DecodeError {
                    what: format!(
                        "a chunk at frame {} lies outside the movie (it starts at frame {})",
                        c.meta.start_frame, header.start_frame
                    ),
                    at: 0,
                },
            });
        }
        Ok(Movie { header, reader })
    }

    /// The chunks' index entries.
    pub fn chunks(&self) -> &[container::ChunkEntry] {
        self.reader.chunks()
    }

    /// The frame after the last recorded one.
    pub fn end_frame(&self) -> u64 {
        self.chunks().last().map_or(self.header.start_frame, |c| {
            c.meta.start_frame.saturating_add(u64::from(c.meta.frames))
        })
    }

    /// Frames recorded.
    pub fn frames(&self) -> u64 {
        self.end_frame().saturating_sub(self.header.start_frame)
    }

    /// Whether the file is the compact form.
    pub fn is_compact(&self) -> bool {
        self.reader.is_compact()
    }

    /// Chunk `i`, decoded.
    pub fn chunk(&self, i: usize) -> Result<Chunk, MovieError> {
        let raw = self.reader.read_chunk(i)?;
        let meta = &self.chunks()[i].meta;
        Chunk::decode(&raw, meta).map_err(|source| MovieError::Decode {
            part: format!("chunk {i}"),
            source,
        })
    }

    /// The index of the chunk holding `frame`.
    pub fn find(&self, frame: u64) -> Option<usize> {
        self.reader.find(frame)
    }

    /// Refuse a ROM the movie was not recorded on.
    pub fn check_rom(&self, rom: &[u8]) -> Result<(), MovieError> {
        let ours = fnv1a(rom);
        if ours != self.header.rom_hash {
            return Err(MovieError::ForeignRom {
                title: self.header.rom_title.clone(),
                theirs: self.header.rom_hash,
                ours,
            });
        }
        Ok(())
    }

    /// A new session at the movie's start, with the movie's ROM.
    pub fn session(&self, rom: Vec<u8>, config: SessionConfig) -> Result<Session, MovieError> {
        self.check_rom(&rom)?;
        Ok(match &self.header.start {
            Start::PowerOn { battery, .. } => {
                let power = PowerOn {
                    battery: battery.clone(),
                    ..PowerOn::default()
                };
                Session::power_on(rom, power, config)?
            }
            Start::State(bytes) => {
                let file = StateFile::decode(bytes).map_err(SessionError::from)?;
                Session::from_state_file(rom, None, config, &file)?
            }
        })
    }

    /// A session at `frame` of the movie: from the nearest keyframe at or before it when no
    /// script or poke came before that keyframe (the core image is then the whole state),
    /// otherwise from the movie's start; then played forward to `frame` (`progress` is called
    /// every 600 frames). Returns the session and a feeder to go on playing.
    pub fn session_at(
        &self,
        rom: Vec<u8>,
        config: SessionConfig,
        frame: u64,
        mut progress: impl FnMut(&Session),
    ) -> Result<(Session, Feeder), MovieError> {
        let frame = frame.clamp(self.header.start_frame, self.end_frame());
        let mut from_key = None;
        let mut held = gb_core::Buttons::default();
        if matches!(self.header.start, Start::PowerOn { .. }) {
            'scan: for (i, c) in self.chunks().iter().enumerate() {
                if c.meta.start_frame > frame {
                    break;
                }
                let chunk = self.chunk(i)?;
                if let Some(key) = &chunk.keyframe {
                    from_key = Some((c.meta.start_frame, key.clone(), held));
                }
                for e in &chunk.events {
                    match e.kind {
                        EventKind::Joypad(b) => held = b,
                        EventKind::Poke { .. } => {}
                        // A later keyframe would lack this script's state.
                        _ => break 'scan,
                    }
                }
            }
        }
        let mut session = match from_key {
            Some((at, core, held)) if at > 0 => {
                self.check_rom(&rom)?;
                let file = StateFile {
                    meta: crate::state::file::Meta {
                        rom_hash: self.header.rom_hash,
                        rom_title: self.header.rom_title.clone(),
                        model: self.header.model.clone(),
                        frame: at,
                        unix_time: 0,
                        build: String::new(),
                    },
                    core,
                    scripts: Vec::new(),
                    sources: Vec::new(),
                    // The buttons held at the keyframe, as the log's last joypad change.
                    log: vec![Event {
                        frame: at - 1,
                        cycle: 0,
                        kind: EventKind::Joypad(held),
                    }],
                    thumbnail: None,
                    arenas: None,
                };
                Session::from_state_file(rom, None, config, &file)?
            }
            _ => self.session(rom, config)?,
        };
        let mut feeder = Feeder::new();
        while session.frame() < frame && feeder.feed(self, &mut session)? == Feed::Playing {
            session.run_frame();
            if session.frame() % 600 == 0 {
                progress(&session);
            }
        }
        Ok((session, feeder))
    }

    /// One set of buttons per frame, from the movie's start to its end: the last buttons
    /// logged for that frame (or held from before), and how many events that drops (a
    /// frame's earlier joypad changes, pokes, scripts).
    pub fn frame_buttons(&self) -> Result<(Vec<gb_core::Buttons>, usize), MovieError> {
        if self.frames() > MAX_FRAME_LIST {
            return Err(MovieError::TooLong(self.frames()));
        }
        let mut out = Vec::with_capacity(self.frames() as usize);
        let mut held = gb_core::Buttons::default();
        let mut lost = 0;
        let mut f = self.header.start_frame;
        for i in 0..self.chunks().len() {
            let chunk = self.chunk(i)?;
            let mut last_frame = None;
            for e in &chunk.events {
                while f < e.frame {
                    out.push(held);
                    f += 1;
                }
                match e.kind {
                    EventKind::Joypad(b) => {
                        if last_frame == Some(e.frame) {
                            lost += 1;
                        }
                        held = b;
                        last_frame = Some(e.frame);
                    }
                    _ => lost += 1,
                }
            }
        }
        while f < self.end_frame() {
            out.push(held);
            f += 1;
        }
        Ok((out, lost))
    }
}

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
            }
        } else {
            Start::State(session.state_file(0, false).encode())
        };
        let header = MovieHeader {
            rom_hash: p.rom_hash,
            rom_title: session.gb().cartridge().header().title.clone(),
            model: p.model.to_owned(),
            start,
            start_frame: session.frame(),
            rtc_start: p.rtc_start,
            rerecords: 0,
            authors,
            metadata,
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
    fn flush(&mut self, session: &Session) -> Result<(), MovieError> {
        self.write_pending()?;
        let index = self.writer.chunks().len() as u64;
        self.pending = Chunk {
            state_hash: state_hash(session),
            keyframe: index
                .is_multiple_of(KEYFRAME_CHUNKS)
                .then(|| core_image(session)),
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
    /// plays the session forward from the cut frame with a [`Feeder`].
    pub fn undo_rerecord(&mut self) -> Result<Option<u64>, MovieError> {
        let Some(undo) = self.undo.take() else {
            return Ok(None);
        };
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

fn core_image(session: &Session) -> Vec<u8> {
    let mut v = Vec::new();
    session.gb().save_state(&mut v);
    v
}

/// Where playback stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feed {
    /// The frame's events were handed to the session.
    Playing,
    /// The movie has no more frames.
    Ended,
}

/// A state check that failed during playback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Desync {
    /// The first frame whose state differs from the recording (checked at every chunk start;
    /// the previous check, [`CHUNK_FRAMES`] earlier, matched).
    pub frame: u64,
    /// The recorded hash.
    pub expected: u64,
    /// The replayed one.
    pub got: u64,
}

/// Plays a movie into a session: before each frame, hands it the movie's events for that
/// frame and checks the state at every chunk start (the desync detector).
pub struct Feeder {
    cached: Option<(usize, Chunk)>,
    /// The first failed check, if any.
    pub desync: Option<Desync>,
    /// Checks made.
    pub checks: u64,
}

impl Default for Feeder {
    fn default() -> Self {
        Feeder::new()
    }
}

impl Feeder {
    /// A feeder with nothing read yet.
    pub fn new() -> Feeder {
        Feeder {
            cached: None,
            desync: None,
            checks: 0,
        }
    }

    /// Before `session.run_frame()`: log the movie's events of the next frame (and check the
    /// state if a chunk starts there).
    pub fn feed(&mut self, movie: &Movie, session: &mut Session) -> Result<Feed, MovieError> {
        let f = session.frame();
        let Some(i) = movie.find(f) else {
            return Ok(Feed::Ended);
        };
        if self.cached.as_ref().is_none_or(|(k, _)| *k != i) {
            self.cached = Some((i, movie.chunk(i)?));
        }
        let Some((_, chunk)) = &self.cached else {
            return Ok(Feed::Ended);
        };
        if movie.chunks()[i].meta.start_frame == f {
            self.checks += 1;
            let got = state_hash(session);
            if got != chunk.state_hash && self.desync.is_none() {
                self.desync = Some(Desync {
                    frame: f,
                    expected: chunk.state_hash,
                    got,
                });
            }
        }
        let start = chunk.events.partition_point(|e| e.frame < f);
        for e in chunk.events[start..].iter().take_while(|e| e.frame == f) {
            let bundle = match e.kind {
                EventKind::ScriptLoad { hash, .. } | EventKind::ScriptReload { hash, .. } => chunk
                    .sources
                    .iter()
                    .find(|(h, _)| *h == hash)
                    .map(|(_, b)| b),
                _ => None,
            };
            session.replay_event(e, bundle);
        }
        Ok(Feed::Playing)
    }
}

/// What playing a whole movie found.
#[derive(Clone, Debug)]
pub struct PlayReport {
    /// Frames played.
    pub frames: u64,
    /// State checks made.
    pub checks: u64,
    /// The first failed check.
    pub desync: Option<Desync>,
    /// FNV-1a of the core image at the end.
    pub final_hash: u64,
}

/// Play `movie` from its start to its end in a new session on `rom` (headless); `progress`
/// is called every 600 frames with the frames played.
pub fn play(
    movie: &Movie,
    rom: Vec<u8>,
    config: SessionConfig,
    mut progress: impl FnMut(u64, &Session),
) -> Result<(PlayReport, Session), MovieError> {
    let mut session = movie.session(rom, config)?;
    let mut feeder = Feeder::new();
    let mut frames = 0;
    while feeder.feed(movie, &mut session)? == Feed::Playing {
        session.run_frame();
        frames += 1;
        if frames % 600 == 0 {
            progress(frames, &session);
        }
    }
    let report = PlayReport {
        frames,
        checks: feeder.checks,
        desync: feeder.desync,
        final_hash: state_hash(&session),
    };
    Ok((report, session))
}
