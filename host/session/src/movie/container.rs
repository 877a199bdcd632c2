//! The movie file container: chunked, crash-safe, indexed; it knows nothing of what a chunk holds.
//!
//! A movie is a caller-defined *header payload* (opaque bytes) and a list of *chunks*. Each chunk
//! covers the frames `start_frame .. start_frame + frames` and carries opaque payload bytes plus
//! caller flags ([`ChunkMeta`]); live chunks are in frame order and never overlap (gaps are
//! allowed). The movie semantics (keyframes, event streams) live elsewhere.
//!
//! One format, two forms:
//! - the **journal**, written while recording ([`Writer`]): records are only ever appended, so a
//!   crash loses at most the record being written. After every append an index is rewritten to a
//!   sidecar file `<path>.idx` (temp file + rename), so that opening a long journal need not scan
//!   it;
//! - the **compact** file, the final form ([`compact`]): header payload, index and chunks in one
//!   file written atomically, chunks compressed at a high zstd level.
//!
//! [`Reader`] reads both forms; [`Writer::resume`] continues a journal (recovering it after a
//! crash) or turns a compact file back into a journal.
//!
//! # Byte layout (version 1)
//!
//! All integers are little-endian. `crc` is CRC-32 (IEEE, as in zlib and PNG).
//!
//! **File header** (20 bytes, both forms):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | magic `GBMV` |
//! | 4 | 2 | format version, `1` |
//! | 6 | 2 | form: `1` journal, `2` compact |
//! | 8 | 8 | journal id (random, chosen when the journal is created; `0` in a compact file) |
//! | 16 | 4 | crc of bytes 0..16 |
//!
//! **Journal** = file header, then records back to back to the end of the file. A record:
//!
//! | size | field |
//! |---|---|
//! | 4 | tag: `HEAD`, `CHNK` or `TRNC` (ASCII) |
//! | 4 | payload length `n` |
//! | 4 | crc of the tag, the length field and the payload |
//! | n | payload |
//!
//! - `HEAD`: the payload is the header payload. The last `HEAD` record is the current one.
//! - `CHNK`: `start_frame u64, frames u32, flags u32, raw_len u32, raw_crc u32` (24 bytes), then
//!   one zstd frame (the rest of the payload) that declares its content size and decompresses to
//!   the `raw_len` bytes of the chunk payload, whose crc is `raw_crc`. Appends a live chunk.
//! - `TRNC`: `keep u64`: only the first `keep` live chunks stay live.
//!
//! Reading a journal applies its records in order and stops, without error, at the first record
//! that is incomplete (the file ends inside it) or whose crc does not match: that is the tail a
//! crash leaves. A record with a good crc that makes no sense (unknown tag, chunk out of frame
//! order, `keep` beyond the live chunks) is an error. A journal with no complete `HEAD` record
//! has an empty header payload.
//!
//! **Index sidecar** `<journal path>.idx` (rewritten after every append; the journal stays
//! the truth):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | magic `GBMI` |
//! | 4 | 2 | version, `1` |
//! | 6 | 2 | `0` |
//! | 8 | 8 | journal id (must equal the journal's) |
//! | 16 | 8 | covered length: the journal length after the last record it accounts for |
//! | 24 | 8 | offset of that last record (`0`: none) |
//! | 32 | 4 | that record's crc field |
//! | 36 | 8 | offset of the current `HEAD` record (`0`: none) |
//! | 44 | 4 | live chunk count `c` |
//! | 48 | 36·c | index entries (below) |
//! | 48+36c | 4 | crc of all the preceding bytes |
//!
//! It is used only when its crc matches, its id matches the journal's, the covered length is
//! within the journal, the last record it names is intact (crc checked), carries the same crc
//! field and ends at the covered length, and the `HEAD` record it names is intact. Records past
//! the covered length (an append whose index update a crash cut off) are then scanned and
//! applied. Otherwise (missing, stale, corrupt) the whole journal is scanned. Records the
//! sidecar covers are not read again: damage there shows when their chunk is read
//! ([`ContainerError::BadChunk`]).
//!
//! **Compact** = file header (form 2), then:
//!
//! | size | field |
//! |---|---|
//! | 4 | header payload length `h` |
//! | 4 | crc of the length field and the header payload |
//! | h | header payload |
//! | 4 | chunk count `c` |
//! | 4 | crc of the count field and the entries |
//! | 36·c | index entries, in frame order |
//! | … | the chunks' zstd frames, back to back in index order; the file ends after the last |
//!
//! **Index entry** (36 bytes, in the sidecar and the compact file): `start_frame u64, frames u32,
//! flags u32, offset u64` (of the zstd frame in the file), `compressed_len u32, raw_len u32,
//! raw_crc u32`.
//!
//! A chunk's bytes are checked when read: the zstd frame must declare `raw_len` as its content
//! size, decompress to exactly `raw_len` bytes, and those bytes must have the crc `raw_crc`.
//!
//! # Trust
//!
//! Files are untrusted. Every length, count and offset is checked against the file's length
//! before anything is allocated or read, with checked arithmetic; a corrupt or foreign file gives
//! a [`ContainerError`], never a panic. The one allocation a file does not bound is a chunk's
//! decompressed payload: at most [`MAX_CHUNK_LEN`], and only after the crc-checked `raw_len` and
//! the zstd frame's own content size agree.
//!
//! # Durability
//!
//! When [`Writer::append_chunk`] (or any other append) returns, the record is in the journal
//! file: a killed process loses nothing. Against power loss, call [`Writer::sync`], which
//! flushes the journal and then the sidecar to the disk. One writer per journal: the writer
//! holds an advisory lock on it. Each append rewrites the whole sidecar (52 + 36 bytes per live
//! chunk).
//!
//! [`Writer::resume`] cuts a torn tail off before appending. It refuses (with
//! [`ContainerError::Corrupt`]) when an intact record follows the damage: that is not what a
//! crash leaves, and cutting would lose those records ([`Reader`] still reads what precedes
//! the damage, and [`compact`] can save it to a new file).

use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

/// The file magic, at offset 0 of both forms.
pub const MAGIC: [u8; 4] = *b"GBMV";
/// The format version this build writes and reads.
pub const VERSION: u16 = 1;
/// The largest chunk payload (uncompressed), 256 MiB.
pub const MAX_CHUNK_LEN: u32 = 256 << 20;
/// The zstd level of chunks in a journal (fast, for recording).
pub const JOURNAL_LEVEL: i32 = 3;
/// The zstd level [`compact`] is meant to be called with (slow, small files).
pub const COMPACT_LEVEL: i32 = 19;

const INDEX_MAGIC: [u8; 4] = *b"GBMI";
const FORM_JOURNAL: u16 = 1;
const FORM_COMPACT: u16 = 2;
const FILE_HEADER_LEN: u64 = 20;
const RECORD_HEADER_LEN: u64 = 12;
const CHUNK_PREFIX_LEN: usize = 24;
const ENTRY_LEN: usize = 36;
const SIDECAR_FIXED_LEN: usize = 52;
const TAG_HEADER: [u8; 4] = *b"HEAD";
const TAG_CHUNK: [u8; 4] = *b"CHNK";
const TAG_TRUNCATE: [u8; 4] = *b"TRNC";

/// What went wrong reading or writing a movie container.
#[derive(Debug, thiserror::Error)]
pub enum ContainerError {
    /// An operating-system error, with what was being done.
    #[error("{context}: {source}")]
    Io {
        /// What was being done, and on which file.
        context: String,
        /// The error itself.
        #[source]
        source: io::Error,
    },
    /// The bytes do not start with the movie magic `GBMV`.
    #[error("not a gbhost movie file (it does not start with the GBMV magic)")]
    NotAMovie,
    /// A version this build does not know.
    #[error("movie format version {found} is not supported (this build reads version {VERSION})")]
    UnsupportedVersion {
        /// The version in the file.
        found: u16,
    },
    /// The file's structure is damaged (the message says where and how).
    #[error("corrupt movie file: {0}")]
    Corrupt(String),
    /// [`Writer::create`] refuses to replace an existing file.
    #[error(
        "{} already exists: remove it first, or continue it with Writer::resume",
        .0.display()
    )]
    AlreadyExists(PathBuf),
    /// Another [`Writer`] holds the journal.
    #[error("{} is locked: another writer is recording into it", .0.display())]
    Locked(PathBuf),
    /// A chunk index past the end of the list.
    #[error("chunk {index} does not exist (there are {count} chunks)")]
    NoSuchChunk {
        /// The index asked for.
        index: usize,
        /// How many chunks there are.
        count: usize,
    },
    /// A chunk's stored bytes do not decode to what its index entry promises.
    #[error("chunk {index} is corrupt: {reason}")]
    BadChunk {
        /// Which chunk.
        index: usize,
        /// What does not match.
        reason: String,
    },
    /// The caller asked to append a chunk that cannot be appended.
    #[error("cannot append chunk: {0}")]
    InvalidChunk(String),
    /// [`Writer::truncate`] asked to keep more chunks than there are.
    #[error("cannot keep {keep} chunks: only {count} are live")]
    TruncateBeyond {
        /// How many the caller asked to keep.
        keep: usize,
        /// How many are live.
        count: usize,
    },
    /// A header payload that does not fit a record.
    #[error("header payload of {0} bytes is too large (at most 4 GiB - 1)")]
    HeaderTooLarge(usize),
    /// A zstd level outside zstd's range.
    #[error("zstd level {level} is outside {min}..={max}")]
    BadLevel {
        /// The level asked for.
        level: i32,
        /// zstd's lowest level.
        min: i32,
        /// zstd's highest level.
        max: i32,
    },
}

fn io_err(context: impl FnOnce() -> String) -> impl FnOnce(io::Error) -> ContainerError {
    move |source| ContainerError::Io {
        context: context(),
        source,
    }
}

fn corrupt(msg: impl Into<String>) -> ContainerError {
    ContainerError::Corrupt(msg.into())
}

/// What the caller says about one chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChunkMeta {
    /// The first frame the chunk covers.
    pub start_frame: u64,
    /// How many frames it covers (`start_frame .. start_frame + frames`); may be 0.
    pub frames: u32,
    /// Caller's flags (e.g. bit 0: the chunk starts with a keyframe); opaque here.
    pub flags: u32,
}

impl ChunkMeta {
    /// One past the last frame covered (`None` when it overflows `u64`).
    pub fn end_frame(&self) -> Option<u64> {
        self.start_frame.checked_add(u64::from(self.frames))
    }
}

/// One live chunk: its meta and where its compressed bytes are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChunkEntry {
    /// The caller's meta.
    pub meta: ChunkMeta,
    /// Offset of the chunk's zstd frame in the file.
    pub offset: u64,
    /// Length of the zstd frame.
    pub compressed_len: u32,
    /// Length of the payload once decompressed.
    pub raw_len: u32,
    /// crc32 of the decompressed payload.
    pub raw_crc: u32,
}

/// Where a reader's or writer's chunk index came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexSource {
    /// A compact file's own index (for a [`Writer`]: a compact file turned into a journal).
    Compact,
    /// The journal's `.idx` sidecar, valid and consistent; `tail_bytes` bytes of journal past
    /// what it covered were scanned (0 when the sidecar was up to date).
    Sidecar {
        /// Bytes scanned after the part the sidecar covered.
        tail_bytes: u64,
    },
    /// A scan of every journal record (no usable sidecar, or [`Reader::from_bytes`]).
    Scan,
    /// A journal just made by [`Writer::create`].
    Created,
}

// ---------------------------------------------------------------------------------------------
// Little helpers: crc, integers, entries.

fn crc(parts: &[&[u8]]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    for p in parts {
        h.update(p);
    }
    h.finalize()
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    let mut a = [0; 2];
    a.copy_from_slice(&b[at..at + 2]);
    u16::from_le_bytes(a)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut a = [0; 4];
    a.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(a)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

fn file_header(form: u16, id: u64) -> Vec<u8> {
    let mut b = Vec::with_capacity(FILE_HEADER_LEN as usize);
    b.extend_from_slice(&MAGIC);
    b.extend_from_slice(&VERSION.to_le_bytes());
    b.extend_from_slice(&form.to_le_bytes());
    b.extend_from_slice(&id.to_le_bytes());
    let c = crc(&[&b]);
    b.extend_from_slice(&c.to_le_bytes());
    b
}

fn put_entry(b: &mut Vec<u8>, e: &ChunkEntry) {
    b.extend_from_slice(&e.meta.start_frame.to_le_bytes());
    b.extend_from_slice(&e.meta.frames.to_le_bytes());
    b.extend_from_slice(&e.meta.flags.to_le_bytes());
    b.extend_from_slice(&e.offset.to_le_bytes());
    b.extend_from_slice(&e.compressed_len.to_le_bytes());
    b.extend_from_slice(&e.raw_len.to_le_bytes());
    b.extend_from_slice(&e.raw_crc.to_le_bytes());
}

/// Parse entries (`b.len()` a multiple of [`ENTRY_LEN`]).
fn get_entries(b: &[u8]) -> Vec<ChunkEntry> {
    b.chunks_exact(ENTRY_LEN)
        .map(|e| ChunkEntry {
            meta: ChunkMeta {
                start_frame: u64_at(e, 0),
                frames: u32_at(e, 8),
                flags: u32_at(e, 12),
            },
            offset: u64_at(e, 16),
            compressed_len: u32_at(e, 24),
            raw_len: u32_at(e, 28),
            raw_crc: u32_at(e, 32),
        })
        .collect()
}

/// Why `meta` cannot follow `prev` (the last live chunk), if it cannot.
fn order_error(prev: Option<&ChunkEntry>, meta: &ChunkMeta) -> Option<String> {
    if meta.end_frame().is_none() {
        return Some(format!(
            "chunk at frame {} with {} frames ends past the last frame number",
            meta.start_frame, meta.frames
        ));
    }
    let prev_end = prev.and_then(|p| p.meta.end_frame()).unwrap_or(0);
    (meta.start_frame < prev_end).then(|| {
        format!(
            "chunk starts at frame {}, before the end of the previous chunk (frame {prev_end})",
            meta.start_frame
        )
    })
}

/// Check a list of entries read from a file: frame order, sizes, and every chunk's bytes
/// within `lo..hi`.
fn check_entries(entries: &[ChunkEntry], lo: u64, hi: u64) -> Result<(), String> {
    for (i, e) in entries.iter().enumerate() {
        if let Some(why) = order_error(i.checked_sub(1).map(|p| &entries[p]), &e.meta) {
            return Err(format!("index entry {i}: {why}"));
        }
        if e.raw_len > MAX_CHUNK_LEN {
            return Err(format!(
                "index entry {i}: chunk of {} bytes exceeds the limit of {MAX_CHUNK_LEN}",
                e.raw_len
            ));
        }
        let end = e.offset.checked_add(u64::from(e.compressed_len));
        if e.offset < lo || end.is_none_or(|end| end > hi) {
            return Err(format!(
                "index entry {i}: chunk bytes at {}..+{} lie outside the data ({lo}..{hi})",
                e.offset, e.compressed_len
            ));
        }
    }
    Ok(())
}

/// The index of the chunk containing `frame` (chunks in frame order, no overlap).
fn find_in(chunks: &[ChunkEntry], frame: u64) -> Option<usize> {
    let after = chunks.partition_point(|c| c.meta.start_frame <= frame);
    let i = after.checked_sub(1)?;
    let c = &chunks[i];
    (frame < c.meta.end_frame()?).then_some(i)
}

fn sidecar_path(path: &Path) -> PathBuf {
    let mut s = OsString::from(path.as_os_str());
    s.push(".idx");
    PathBuf::from(s)
}

fn temp_path(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut s = OsString::from(path.as_os_str());
    s.push(format!(".tmp{}-{n}", std::process::id()));
    PathBuf::from(s)
}

fn new_id() -> u64 {
    // `RandomState` is seeded from the OS; mix in the time and process for good measure.
    let mut h = std::hash::RandomState::new().build_hasher();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    h.write_u128(now);
    h.write_u32(std::process::id());
    h.finish().max(1)
}

fn sync_dir(path: &Path) -> Result<(), ContainerError> {
    #[cfg(unix)]
    {
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(io_err(|| {
                format!("cannot flush directory {}", dir.display())
            }))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

fn check_level(level: i32) -> Result<(), ContainerError> {
    let range = zstd::compression_level_range();
    if range.contains(&level) {
        Ok(())
    } else {
        Err(ContainerError::BadLevel {
            level,
            min: *range.start(),
            max: *range.end(),
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Byte sources: a file (read with positioned reads under a lock) or bytes in memory.

/// Where bytes are read from: a file (positioned reads under a lock) or bytes in memory.
#[derive(Clone, Copy)]
enum Source<'a> {
    Bytes(&'a [u8]),
    File(&'a Mutex<File>, &'a Path),
}

impl<'a> Source<'a> {
    /// Read `len` bytes at `off`; the caller has checked `off + len` against the length.
    fn read_at(self, off: u64, len: usize) -> Result<Vec<u8>, ContainerError> {
        match self {
            Source::Bytes(b) => {
                let range = usize::try_from(off)
                    .ok()
                    .and_then(|o| Some(o..o.checked_add(len)?))
                    .filter(|r| r.end <= b.len());
                match range {
                    Some(r) => Ok(b[r].to_vec()),
                    None => Err(corrupt(format!(
                        "{len} bytes at offset {off} lie past the end ({} bytes)",
                        b.len()
                    ))),
                }
            }
            Source::File(f, path) => read_file_at(f, path, off, len),
        }
    }

    /// A reader over `from..file_len` (the file: buffered, positioned at `from`, locked
    /// meanwhile).
    fn stream_from(self, from: u64, file_len: u64) -> Result<Box<dyn Read + 'a>, ContainerError> {
        match self {
            Source::Bytes(b) => {
                let from = usize::try_from(from).unwrap_or(usize::MAX).min(b.len());
                Ok(Box::new(&b[from..]))
            }
            Source::File(f, path) => {
                let mut g = f.lock().unwrap_or_else(PoisonError::into_inner);
                g.seek(SeekFrom::Start(from))
                    .map_err(io_err(|| format!("cannot seek in {}", path.display())))?;
                let capacity = file_len.saturating_sub(from).min(1 << 16) as usize;
                Ok(Box::new(BufReader::with_capacity(capacity, LockedFile(g))))
            }
        }
    }
}

/// What a [`Reader`] reads from.
enum Store {
    Bytes(Vec<u8>),
    File(Mutex<File>, PathBuf),
}

impl Store {
    fn source(&self) -> Source<'_> {
        match self {
            Store::Bytes(b) => Source::Bytes(b),
            Store::File(f, p) => Source::File(f, p),
        }
    }
}

struct LockedFile<'a>(std::sync::MutexGuard<'a, File>);

impl Read for LockedFile<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

fn read_file_at(
    f: &Mutex<File>,
    path: &Path,
    off: u64,
    len: usize,
) -> Result<Vec<u8>, ContainerError> {
    let mut g = f.lock().unwrap_or_else(PoisonError::into_inner);
    let mut buf = vec![0; len];
    g.seek(SeekFrom::Start(off))
        .and_then(|_| g.read_exact(&mut buf))
        .map_err(io_err(|| {
            format!("cannot read {len} bytes at {off} in {}", path.display())
        }))?;
    Ok(buf)
}

/// The form named by a file header, checked.
enum Form {
    Journal { id: u64 },
    Compact,
}

fn read_file_header(src: Source<'_>, file_len: u64) -> Result<Form, ContainerError> {
    let have = file_len.min(FILE_HEADER_LEN) as usize;
    let b = src.read_at(0, have)?;
    let n = b.len().min(4);
    if b[..n] != MAGIC[..n] || n == 0 {
        return Err(ContainerError::NotAMovie);
    }
    if b.len() < FILE_HEADER_LEN as usize {
        return Err(corrupt(format!(
            "the file is {file_len} bytes, shorter than its {FILE_HEADER_LEN}-byte header"
        )));
    }
    let version = u16_at(&b, 4);
    if version != VERSION {
        return Err(ContainerError::UnsupportedVersion { found: version });
    }
    if crc(&[&b[..16]]) != u32_at(&b, 16) {
        return Err(corrupt("file header checksum mismatch"));
    }
    let id = u64_at(&b, 8);
    match u16_at(&b, 6) {
        FORM_JOURNAL => Ok(Form::Journal { id }),
        FORM_COMPACT => Ok(Form::Compact),
        other => Err(corrupt(format!("unknown form {other} in the file header"))),
    }
}

// ---------------------------------------------------------------------------------------------
// Journal state: what applying the records gives.

#[derive(Clone, Debug, Default)]
struct Journal {
    id: u64,
    header: Vec<u8>,
    /// Offset of the current HEAD record (0: none).
    header_off: u64,
    chunks: Vec<ChunkEntry>,
    /// End of the last complete record.
    valid_len: u64,
    /// Offset and crc field of the last complete record (offset 0: none).
    last_off: u64,
    last_crc: u32,
}

impl Journal {
    fn new(id: u64) -> Journal {
        Journal {
            id,
            valid_len: FILE_HEADER_LEN,
            ..Journal::default()
        }
    }

    /// Apply one complete, crc-checked record at `off`.
    fn apply(
        &mut self,
        off: u64,
        tag: [u8; 4],
        payload: &[u8],
        crc: u32,
    ) -> Result<(), ContainerError> {
        let at = || format!("record at offset {off}");
        match tag {
            TAG_HEADER => {
                self.header = payload.to_vec();
                self.header_off = off;
            }
            TAG_CHUNK => {
                if payload.len() < CHUNK_PREFIX_LEN {
                    return Err(corrupt(format!(
                        "{}: chunk record of {} bytes, too short for its meta",
                        at(),
                        payload.len()
                    )));
                }
                let meta = ChunkMeta {
                    start_frame: u64_at(payload, 0),
                    frames: u32_at(payload, 8),
                    flags: u32_at(payload, 12),
                };
                if let Some(why) = order_error(self.chunks.last(), &meta) {
                    return Err(corrupt(format!("{}: {why}", at())));
                }
                let raw_len = u32_at(payload, 16);
                if raw_len > MAX_CHUNK_LEN {
                    return Err(corrupt(format!(
                        "{}: chunk of {raw_len} bytes exceeds the limit of {MAX_CHUNK_LEN}",
                        at()
                    )));
                }
                self.chunks.push(ChunkEntry {
                    meta,
                    offset: off + RECORD_HEADER_LEN + CHUNK_PREFIX_LEN as u64,
                    // The record length is a u32, so this fits.
                    compressed_len: (payload.len() - CHUNK_PREFIX_LEN) as u32,
                    raw_len,
                    raw_crc: u32_at(payload, 20),
                });
            }
            TAG_TRUNCATE => {
                if payload.len() != 8 {
                    return Err(corrupt(format!(
                        "{}: truncate record of {} bytes (expected 8)",
                        at(),
                        payload.len()
                    )));
                }
                let keep = u64_at(payload, 0);
                match usize::try_from(keep) {
                    Ok(k) if k <= self.chunks.len() => self.chunks.truncate(k),
                    _ => {
                        return Err(corrupt(format!(
                            "{}: truncate keeps {keep} chunks but only {} are live",
                            at(),
                            self.chunks.len()
                        )));
                    }
                }
            }
            other => {
                return Err(corrupt(format!(
                    "{}: unknown record tag {:?}",
                    at(),
                    String::from_utf8_lossy(&other)
                )));
            }
        }
        self.last_off = off;
        self.last_crc = crc;
        self.valid_len = off + RECORD_HEADER_LEN + payload.len() as u64;
        Ok(())
    }

    /// Apply the records from `valid_len` on, up to the first incomplete or corrupt one.
    fn scan(&mut self, src: Source<'_>, file_len: u64) -> Result<(), ContainerError> {
        let mut r = src.stream_from(self.valid_len, file_len)?;
        let mut payload = Vec::new();
        loop {
            let off = self.valid_len;
            let left = file_len.saturating_sub(off);
            if left < RECORD_HEADER_LEN {
                return Ok(());
            }
            let mut h = [0; RECORD_HEADER_LEN as usize];
            if r.read_exact(&mut h).is_err() {
                return Ok(()); // The file shrank under us: a tail.
            }
            let tag = [h[0], h[1], h[2], h[3]];
            let len = u32_at(&h, 4);
            let stored_crc = u32_at(&h, 8);
            if u64::from(len) > left - RECORD_HEADER_LEN {
                return Ok(()); // Incomplete.
            }
            payload.clear();
            payload.resize(len as usize, 0);
            if r.read_exact(&mut payload).is_err() {
                return Ok(());
            }
            if crc(&[&h[..8], &payload]) != stored_crc {
                return Ok(()); // Torn or damaged: the tail starts here.
            }
            self.apply(off, tag, &payload, stored_crc)?;
        }
    }

    fn sidecar_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(SIDECAR_FIXED_LEN + ENTRY_LEN * self.chunks.len());
        b.extend_from_slice(&INDEX_MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes());
        b.extend_from_slice(&self.id.to_le_bytes());
        b.extend_from_slice(&self.valid_len.to_le_bytes());
        b.extend_from_slice(&self.last_off.to_le_bytes());
        b.extend_from_slice(&self.last_crc.to_le_bytes());
        b.extend_from_slice(&self.header_off.to_le_bytes());
        b.extend_from_slice(&(self.chunks.len() as u32).to_le_bytes());
        for e in &self.chunks {
            put_entry(&mut b, e);
        }
        let c = crc(&[&b]);
        b.extend_from_slice(&c.to_le_bytes());
        b
    }

    /// The state a sidecar describes, if it is valid and consistent with the journal.
    fn from_sidecar(idx: &Path, src: Source<'_>, file_len: u64, id: u64) -> Option<Journal> {
        let mut f = File::open(idx).ok()?;
        let idx_len = f.metadata().ok()?.len();
        // Each entry stands for a record of at least 36 journal bytes: a longer sidecar is
        // not this journal's.
        if idx_len < SIDECAR_FIXED_LEN as u64 || idx_len > SIDECAR_FIXED_LEN as u64 + file_len {
            return None;
        }
        let mut b = Vec::with_capacity(idx_len as usize);
        f.read_to_end(&mut b).ok()?;
        let n = b.len();
        if n < SIDECAR_FIXED_LEN || b[..4] != INDEX_MAGIC || u16_at(&b, 4) != VERSION {
            return None;
        }
        if crc(&[&b[..n - 4]]) != u32_at(&b, n - 4) || u64_at(&b, 8) != id {
            return None;
        }
        let count = u32_at(&b, 44) as usize;
        if Some(n - SIDECAR_FIXED_LEN) != count.checked_mul(ENTRY_LEN) {
            return None;
        }
        let mut j = Journal::new(id);
        j.valid_len = u64_at(&b, 16);
        j.last_off = u64_at(&b, 24);
        j.last_crc = u32_at(&b, 32);
        j.header_off = u64_at(&b, 36);
        j.chunks = get_entries(&b[48..n - 4]);
        if j.valid_len < FILE_HEADER_LEN || j.valid_len > file_len {
            return None;
        }
        // The last record must be where the sidecar says, with the same crc, ending at the
        // covered length.
        if j.last_off == 0 {
            if j.valid_len != FILE_HEADER_LEN || j.header_off != 0 || !j.chunks.is_empty() {
                return None;
            }
        } else {
            if j.last_off < FILE_HEADER_LEN || j.last_off > j.valid_len - RECORD_HEADER_LEN {
                return None;
            }
            let h = src.read_at(j.last_off, RECORD_HEADER_LEN as usize).ok()?;
            let len = u32_at(&h, 4);
            let end = j.last_off + RECORD_HEADER_LEN + u64::from(len);
            if u32_at(&h, 8) != j.last_crc || end != j.valid_len {
                return None;
            }
            // The end of the file is where damage is likeliest: check that record whole.
            let payload = src
                .read_at(j.last_off + RECORD_HEADER_LEN, len as usize)
                .ok()?;
            if crc(&[&h[..8], &payload]) != j.last_crc {
                return None;
            }
        }
        // The current header record must be intact.
        if j.header_off != 0 {
            if j.header_off < FILE_HEADER_LEN || j.header_off > j.valid_len - RECORD_HEADER_LEN {
                return None;
            }
            let h = src.read_at(j.header_off, RECORD_HEADER_LEN as usize).ok()?;
            let len = u32_at(&h, 4);
            if h[..4] != TAG_HEADER
                || u64::from(len) > j.valid_len - j.header_off - RECORD_HEADER_LEN
            {
                return None;
            }
            let payload = src
                .read_at(j.header_off + RECORD_HEADER_LEN, len as usize)
                .ok()?;
            if crc(&[&h[..8], &payload]) != u32_at(&h, 8) {
                return None;
            }
            j.header = payload;
        }
        let lo = FILE_HEADER_LEN + RECORD_HEADER_LEN + CHUNK_PREFIX_LEN as u64;
        check_entries(&j.chunks, lo, j.valid_len).ok()?;
        Some(j)
    }

    /// Recover the state of a journal: the sidecar (if given and good) plus a scan of what
    /// follows it, else a full scan.
    fn recover(
        src: Source<'_>,
        file_len: u64,
        id: u64,
        idx: Option<&Path>,
    ) -> Result<(Journal, IndexSource), ContainerError> {
        if let Some(mut j) = idx.and_then(|idx| Journal::from_sidecar(idx, src, file_len, id)) {
            let tail_bytes = file_len - j.valid_len;
            j.scan(src, file_len)?;
            return Ok((j, IndexSource::Sidecar { tail_bytes }));
        }
        let mut j = Journal::new(id);
        j.scan(src, file_len)?;
        Ok((j, IndexSource::Scan))
    }
}

/// Whether an intact record (known tag, complete, crc matching) starts at `off`.
fn intact_record_at(src: Source<'_>, off: u64, file_len: u64) -> Result<bool, ContainerError> {
    if file_len.saturating_sub(off) < RECORD_HEADER_LEN {
        return Ok(false);
    }
    let h = src.read_at(off, RECORD_HEADER_LEN as usize)?;
    let len = u32_at(&h, 4);
    if u64::from(len) > file_len - off - RECORD_HEADER_LEN {
        return Ok(false);
    }
    let payload = src.read_at(off + RECORD_HEADER_LEN, len as usize)?;
    Ok(crc(&[&h[..8], &payload]) == u32_at(&h, 8))
}

/// The offset of the first intact record that starts after `from`, if any: evidence that the
/// damage at `from` is not a crash tail.
fn intact_record_after(
    src: Source<'_>,
    from: u64,
    file_len: u64,
) -> Result<Option<u64>, ContainerError> {
    const WINDOW: u64 = 1 << 20;
    let mut start = from + 1;
    while file_len.saturating_sub(start) >= RECORD_HEADER_LEN {
        let n = (file_len - start).min(WINDOW);
        let buf = src.read_at(start, n as usize)?;
        for (i, w) in buf.windows(4).enumerate() {
            let tag = [w[0], w[1], w[2], w[3]];
            if matches!(tag, TAG_HEADER | TAG_CHUNK | TAG_TRUNCATE)
                && intact_record_at(src, start + i as u64, file_len)?
            {
                return Ok(Some(start + i as u64));
            }
        }
        // The next window overlaps by 3 bytes, so no start position is skipped.
        start += n - 3;
    }
    Ok(None)
}

/// A record's bytes: tag, length, crc, payload parts.
fn record(tag: [u8; 4], parts: &[&[u8]]) -> Result<Vec<u8>, ContainerError> {
    let len: usize = parts.iter().map(|p| p.len()).sum();
    let len32 = u32::try_from(len).map_err(|_| ContainerError::HeaderTooLarge(len))?;
    let mut b = Vec::with_capacity(RECORD_HEADER_LEN as usize + len);
    b.extend_from_slice(&tag);
    b.extend_from_slice(&len32.to_le_bytes());
    let mut h = crc32fast::Hasher::new();
    h.update(&b);
    for p in parts {
        h.update(p);
    }
    b.extend_from_slice(&h.finalize().to_le_bytes());
    for p in parts {
        b.extend_from_slice(p);
    }
    Ok(b)
}

fn chunk_prefix(meta: &ChunkMeta, raw_len: u32, raw_crc: u32) -> [u8; CHUNK_PREFIX_LEN] {
    let mut p = [0; CHUNK_PREFIX_LEN];
    p[0..8].copy_from_slice(&meta.start_frame.to_le_bytes());
    p[8..12].copy_from_slice(&meta.frames.to_le_bytes());
    p[12..16].copy_from_slice(&meta.flags.to_le_bytes());
    p[16..20].copy_from_slice(&raw_len.to_le_bytes());
    p[20..24].copy_from_slice(&raw_crc.to_le_bytes());
    p
}

// ---------------------------------------------------------------------------------------------
// Compact form.

struct Compact {
    header: Vec<u8>,
    chunks: Vec<ChunkEntry>,
}

fn parse_compact(src: Source<'_>, file_len: u64) -> Result<Compact, ContainerError> {
    let mut pos = FILE_HEADER_LEN;
    let section = |pos: u64, what: &str, unit: u64| -> Result<(Vec<u8>, Vec<u8>), ContainerError> {
        if file_len - pos < 8 {
            return Err(corrupt(format!(
                "truncated: the file ends before the {what} (at offset {pos})"
            )));
        }
        let h = src.read_at(pos, 8)?;
        let n = u64::from(u32_at(&h, 0));
        let len = n * unit;
        if len > file_len - pos - 8 {
            return Err(corrupt(format!(
                "the {what} at offset {pos} claims {len} bytes; only {} remain in the file",
                file_len - pos - 8
            )));
        }
        let body = src.read_at(pos + 8, len as usize)?;
        if crc(&[&h[..4], &body]) != u32_at(&h, 4) {
            return Err(corrupt(format!(
                "the {what} at offset {pos} fails its checksum"
            )));
        }
        Ok((h, body))
    };
    let (_, header) = section(pos, "header payload", 1)?;
    pos += 8 + header.len() as u64;
    let (_, index) = section(pos, "chunk index", ENTRY_LEN as u64)?;
    pos += 8 + index.len() as u64;
    let chunks = get_entries(&index);
    check_entries(&chunks, pos, file_len).map_err(corrupt)?;
    // The chunks lie back to back after the index, up to the end of the file.
    for (i, e) in chunks.iter().enumerate() {
        if e.offset != pos {
            return Err(corrupt(format!(
                "index entry {i}: chunk at offset {} where {pos} was expected",
                e.offset
            )));
        }
        pos += u64::from(e.compressed_len);
    }
    if pos != file_len {
        return Err(corrupt(format!(
            "{} bytes follow the last chunk (which ends at {pos})",
            file_len - pos
        )));
    }
    Ok(Compact { header, chunks })
}

/// Read, decompress and check chunk `index`.
fn read_entry(
    read_at: impl FnOnce(u64, usize) -> Result<Vec<u8>, ContainerError>,
    chunks: &[ChunkEntry],
    index: usize,
) -> Result<Vec<u8>, ContainerError> {
    let e = chunks.get(index).ok_or(ContainerError::NoSuchChunk {
        index,
        count: chunks.len(),
    })?;
    let data = read_at(e.offset, e.compressed_len as usize)?;
    decode_chunk(&data, e).map_err(|reason| ContainerError::BadChunk { index, reason })
}

fn decode_chunk(data: &[u8], e: &ChunkEntry) -> Result<Vec<u8>, String> {
    use zstd::zstd_safe;
    if e.raw_len > MAX_CHUNK_LEN {
        return Err(format!("{} bytes exceed the limit", e.raw_len));
    }
    match zstd_safe::get_frame_content_size(data) {
        Ok(Some(n)) if n == u64::from(e.raw_len) => {}
        Ok(Some(n)) => {
            return Err(format!(
                "its zstd frame holds {n} bytes, its entry says {}",
                e.raw_len
            ));
        }
        _ => return Err("not a zstd frame that declares its size".into()),
    }
    match zstd_safe::find_frame_compressed_size(data) {
        Ok(n) if n == data.len() => {}
        _ => return Err("not exactly one zstd frame".into()),
    }
    let raw =
        zstd::bulk::decompress(data, e.raw_len as usize).map_err(|err| format!("zstd: {err}"))?;
    if raw.len() != e.raw_len as usize {
        return Err(format!(
            "decompressed to {} bytes, expected {}",
            raw.len(),
            e.raw_len
        ));
    }
    if crc(&[&raw]) != e.raw_crc {
        return Err("checksum mismatch".into());
    }
    Ok(raw)
}

// ---------------------------------------------------------------------------------------------
// Reader.

/// Reads a movie in either form.
///
/// A journal is read as it was when opened: records appended later are not seen. The torn tail
/// a crash may leave is ignored (see the module docs).
pub struct Reader {
    store: Store,
    file_len: u64,
    valid_len: u64,
    compact: bool,
    header: Vec<u8>,
    chunks: Vec<ChunkEntry>,
    index_source: IndexSource,
}

impl Reader {
    /// Open a movie file. A journal's index comes from its `.idx` sidecar when that is valid
    /// and consistent, else from a scan of the journal.
    pub fn open(path: &Path) -> Result<Reader, ContainerError> {
        let file =
            File::open(path).map_err(io_err(|| format!("cannot open {}", path.display())))?;
        let file_len = file
            .metadata()
            .map_err(io_err(|| format!("cannot stat {}", path.display())))?
            .len();
        let store = Store::File(Mutex::new(file), path.to_path_buf());
        Reader::build(store, file_len, Some(&sidecar_path(path)))
    }

    /// Read a movie from bytes: a compact file, or a journal (scanned; no sidecar).
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Reader, ContainerError> {
        let file_len = bytes.len() as u64;
        Reader::build(Store::Bytes(bytes), file_len, None)
    }

    fn build(store: Store, file_len: u64, idx: Option<&Path>) -> Result<Reader, ContainerError> {
        let src = store.source();
        match read_file_header(src, file_len)? {
            Form::Compact => {
                let c = parse_compact(src, file_len)?;
                Ok(Reader {
                    store,
                    file_len,
                    valid_len: file_len,
                    compact: true,
                    header: c.header,
                    chunks: c.chunks,
                    index_source: IndexSource::Compact,
                })
            }
            Form::Journal { id } => {
                let (j, index_source) = Journal::recover(src, file_len, id, idx)?;
                Ok(Reader {
                    store,
                    file_len,
                    valid_len: j.valid_len,
                    compact: false,
                    header: j.header,
                    chunks: j.chunks,
                    index_source,
                })
            }
        }
    }

    /// The current header payload (empty for a journal whose first `HEAD` record is torn).
    pub fn header(&self) -> &[u8] {
        &self.header
    }

    /// The live chunks, in frame order.
    pub fn chunks(&self) -> &[ChunkEntry] {
        &self.chunks
    }

    /// Whether the file is in the compact form (else it is a journal).
    pub fn is_compact(&self) -> bool {
        self.compact
    }

    /// Where the index came from (compact index, journal sidecar, or a scan).
    pub fn index_source(&self) -> IndexSource {
        self.index_source
    }

    /// The index of the chunk whose frames contain `frame` (binary search).
    pub fn find(&self, frame: u64) -> Option<usize> {
        find_in(&self.chunks, frame)
    }

    /// Chunk `i`'s payload, decompressed and checked (length and crc).
    pub fn read_chunk(&self, i: usize) -> Result<Vec<u8>, ContainerError> {
        read_entry(
            |off, len| self.store.source().read_at(off, len),
            &self.chunks,
            i,
        )
    }

    /// The file's length in bytes.
    pub fn file_len(&self) -> u64 {
        self.file_len
    }

    /// The length of the valid part: for a journal, the end of its last complete record (less
    /// than [`Reader::file_len`] when a crash left a torn tail); for a compact file, its length.
    pub fn valid_len(&self) -> u64 {
        self.valid_len
    }
}

// ---------------------------------------------------------------------------------------------
// Writer.

/// Records into a journal: appends header updates, chunks and truncations, each followed by an
/// atomic rewrite of the `.idx` sidecar.
///
/// The writer holds an advisory lock on the journal while it lives; a second writer on the
/// same file gets [`ContainerError::Locked`].
pub struct Writer {
    path: PathBuf,
    idx: PathBuf,
    file: Mutex<File>,
    journal: Journal,
    compressor: zstd::bulk::Compressor<'static>,
    index_source: IndexSource,
    discarded: u64,
}

fn lock(file: &File, path: &Path) -> Result<(), ContainerError> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(fs::TryLockError::WouldBlock) => Err(ContainerError::Locked(path.to_path_buf())),
        // A file system without locks: go on unlocked.
        Err(fs::TryLockError::Error(e)) if e.kind() == io::ErrorKind::Unsupported => Ok(()),
        Err(fs::TryLockError::Error(e)) => Err(ContainerError::Io {
            context: format!("cannot lock {}", path.display()),
            source: e,
        }),
    }
}

fn open_rw(path: &Path) -> Result<File, ContainerError> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(io_err(|| format!("cannot open {}", path.display())))?;
    lock(&file, path)?;
    Ok(file)
}

/// Write `path` with `write` into a temp file next to it, flushed, then renamed over `path`
/// (`replace` false: put in place only if `path` does not exist).
fn write_atomic(
    path: &Path,
    replace: bool,
    write: impl FnOnce(&mut BufWriter<File>) -> Result<(), ContainerError>,
) -> Result<(), ContainerError> {
    let tmp = temp_path(path);
    let ctx = || format!("cannot write {}", tmp.display());
    let result = (|| {
        let file = File::create(&tmp).map_err(io_err(ctx))?;
        let mut w = BufWriter::with_capacity(1 << 16, file);
        write(&mut w)?;
        let file = w.into_inner().map_err(|e| ContainerError::Io {
            context: ctx(),
            source: e.into_error(),
        })?;
        file.sync_all().map_err(io_err(ctx))?;
        drop(file);
        if replace {
            fs::rename(&tmp, path)
                .map_err(io_err(|| format!("cannot rename over {}", path.display())))
        } else {
            // A hard link fails if `path` exists, atomically; without hard links, check first.
            match fs::hard_link(&tmp, path) {
                Ok(()) => Ok(()),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    Err(ContainerError::AlreadyExists(path.to_path_buf()))
                }
                Err(_) => match path.try_exists() {
                    Ok(true) => Err(ContainerError::AlreadyExists(path.to_path_buf())),
                    _ => fs::rename(&tmp, path)
                        .map_err(io_err(|| format!("cannot create {}", path.display()))),
                },
            }
        }
    })();
    let _ = fs::remove_file(&tmp);
    result?;
    sync_dir(path)
}

impl Writer {
    /// Create a new journal at `path` with `header` as its header payload.
    ///
    /// The file appears whole (file header and first `HEAD` record, flushed) or not at all.
    /// An existing file is never replaced: that is [`ContainerError::AlreadyExists`] (remove it
    /// first, or continue it with [`Writer::resume`]). A stale `<path>.idx` is overwritten.
    pub fn create(path: &Path, header: &[u8]) -> Result<Writer, ContainerError> {
        let id = new_id();
        let mut journal = Journal::new(id);
        let rec = record(TAG_HEADER, &[header])?;
        let last_crc = u32_at(&rec, 8);
        write_atomic(path, false, |w| {
            w.write_all(&file_header(FORM_JOURNAL, id))
                .and_then(|()| w.write_all(&rec))
                .map_err(io_err(|| format!("cannot write {}", path.display())))
        })?;
        journal.apply(FILE_HEADER_LEN, TAG_HEADER, header, last_crc)?;
        let file = open_rw(path)?;
        let mut w = Writer::new(path, file, journal, IndexSource::Created, 0)?;
        w.write_index(false)?;
        Ok(w)
    }

    /// Continue recording into the movie at `path`.
    ///
    /// A journal is recovered like [`Reader::open`] does; a torn tail left by a crash is cut
    /// off the file (see [`Writer::discarded_len`]). A compact file is first turned into a
    /// journal holding the same header and chunks (its compressed chunks copied as they are),
    /// which replaces it atomically.
    pub fn resume(path: &Path) -> Result<Writer, ContainerError> {
        let file = open_rw(path)?;
        let file_len = file
            .metadata()
            .map_err(io_err(|| format!("cannot stat {}", path.display())))?
            .len();
        let file = Mutex::new(file);
        let src = Source::File(&file, path);
        let idx = sidecar_path(path);
        match read_file_header(src, file_len)? {
            Form::Journal { id } => {
                let (journal, source) = Journal::recover(src, file_len, id, Some(&idx))?;
                let discarded = file_len - journal.valid_len;
                if discarded > 0
                    && let Some(next) = intact_record_after(src, journal.valid_len, file_len)?
                {
                    return Err(corrupt(format!(
                        "{} is damaged at offset {} but an intact record follows at {next}: \
                         that is not a crash tail, and resuming would cut it off (read it \
                         with Reader, or compact it to a new file to keep what precedes the \
                         damage)",
                        path.display(),
                        journal.valid_len
                    )));
                }
                let file = file.into_inner().unwrap_or_else(PoisonError::into_inner);
                if discarded > 0 {
                    file.set_len(journal.valid_len)
                        .and_then(|()| file.sync_all())
                        .map_err(io_err(|| {
                            format!("cannot cut the torn tail of {}", path.display())
                        }))?;
                }
                let mut w = Writer::new(path, file, journal, source, discarded)?;
                w.write_index(true)?;
                Ok(w)
            }
            Form::Compact => {
                let c = parse_compact(src, file_len)?;
                let id = new_id();
                let mut journal = Journal::new(id);
                let j = &mut journal;
                write_atomic(path, true, move |w| {
                    let ctx = || format!("cannot write the journal for {}", path.display());
                    w.write_all(&file_header(FORM_JOURNAL, id))
                        .map_err(io_err(ctx))?;
                    let mut put = |tag, parts: &[&[u8]]| -> Result<(), ContainerError> {
                        let rec = record(tag, parts)?;
                        w.write_all(&rec).map_err(io_err(ctx))?;
                        let off = j.valid_len;
                        j.apply(
                            off,
                            tag,
                            &rec[RECORD_HEADER_LEN as usize..],
                            u32_at(&rec, 8),
                        )
                    };
                    put(TAG_HEADER, &[&c.header])?;
                    let src = Source::File(&file, path);
                    for (i, e) in c.chunks.iter().enumerate() {
                        // Copied as they are, but checked first.
                        let data = src.read_at(e.offset, e.compressed_len as usize)?;
                        decode_chunk(&data, e)
                            .map_err(|reason| ContainerError::BadChunk { index: i, reason })?;
                        let prefix = chunk_prefix(&e.meta, e.raw_len, e.raw_crc);
                        put(TAG_CHUNK, &[&prefix, &data])?;
                    }
                    // Close the compact file before the rename replaces it.
                    drop(file);
                    // The sidecar goes first: until the rename it names a journal id no file has.
                    write_sidecar(&idx, j, true)
                })?;
                let file = open_rw(path)?;
                Writer::new(path, file, journal, IndexSource::Compact, 0)
            }
        }
    }

    fn new(
        path: &Path,
        file: File,
        journal: Journal,
        index_source: IndexSource,
        discarded: u64,
    ) -> Result<Writer, ContainerError> {
        let compressor = zstd::bulk::Compressor::new(JOURNAL_LEVEL)
            .map_err(io_err(|| "cannot set up zstd".to_string()))?;
        Ok(Writer {
            path: path.to_path_buf(),
            idx: sidecar_path(path),
            file: Mutex::new(file),
            journal,
            compressor,
            index_source,
            discarded,
        })
    }

    /// Append a `HEAD` record: `header` becomes the current header payload.
    pub fn set_header(&mut self, header: &[u8]) -> Result<(), ContainerError> {
        self.append(TAG_HEADER, &[header])
    }

    /// Append a chunk (its payload compressed with zstd at [`JOURNAL_LEVEL`]).
    ///
    /// `meta.start_frame` must be at or after the end of the last live chunk, and the payload
    /// at most [`MAX_CHUNK_LEN`] bytes; else [`ContainerError::InvalidChunk`] and nothing is
    /// written. When writing the record fails, it is cut off again and nothing changes; when
    /// only the sidecar update fails, the record is in the journal and in
    /// [`Writer::chunks`], and the error says the index could not be written (the next open
    /// scans what the sidecar misses).
    pub fn append_chunk(&mut self, meta: ChunkMeta, payload: &[u8]) -> Result<(), ContainerError> {
        if let Some(why) = order_error(self.journal.chunks.last(), &meta) {
            return Err(ContainerError::InvalidChunk(why));
        }
        let raw_len = u32::try_from(payload.len())
            .ok()
            .filter(|&n| n <= MAX_CHUNK_LEN)
            .ok_or_else(|| {
                ContainerError::InvalidChunk(format!(
                    "payload of {} bytes exceeds the limit of {MAX_CHUNK_LEN}",
                    payload.len()
                ))
            })?;
        let data = self
            .compressor
            .compress(payload)
            .map_err(io_err(|| "zstd compression failed".to_string()))?;
        let prefix = chunk_prefix(&meta, raw_len, crc(&[payload]));
        self.append(TAG_CHUNK, &[&prefix, &data])
    }

    /// Keep only the first `keep` live chunks (append a `TRNC` record). Keeping all of them
    /// writes nothing; keeping more is [`ContainerError::TruncateBeyond`].
    pub fn truncate(&mut self, keep: usize) -> Result<(), ContainerError> {
        let count = self.journal.chunks.len();
        if keep > count {
            return Err(ContainerError::TruncateBeyond { keep, count });
        }
        if keep == count {
            return Ok(());
        }
        self.append(TAG_TRUNCATE, &[&(keep as u64).to_le_bytes()])
    }

    /// Append one record, apply it, rewrite the sidecar.
    fn append(&mut self, tag: [u8; 4], parts: &[&[u8]]) -> Result<(), ContainerError> {
        let rec = record(tag, parts)?;
        let off = self.journal.valid_len;
        let path = &self.path;
        let file = self.file.get_mut().unwrap_or_else(PoisonError::into_inner);
        let written = file
            .seek(SeekFrom::Start(off))
            .and_then(|_| file.write_all(&rec));
        if let Err(e) = written {
            // Do not leave a partial record behind (the next open would ignore it anyway).
            let _ = file.set_len(off);
            return Err(ContainerError::Io {
                context: format!("cannot append to {}", path.display()),
                source: e,
            });
        }
        self.journal.apply(
            off,
            tag,
            &rec[RECORD_HEADER_LEN as usize..],
            u32_at(&rec, 8),
        )?;
        self.write_index(false)
    }

    fn write_index(&mut self, durable: bool) -> Result<(), ContainerError> {
        write_sidecar(&self.idx, &self.journal, durable)
    }

    /// Flush the journal and then the sidecar to the disk.
    pub fn sync(&mut self) -> Result<(), ContainerError> {
        let file = self.file.get_mut().unwrap_or_else(PoisonError::into_inner);
        file.sync_data()
            .map_err(io_err(|| format!("cannot flush {}", self.path.display())))?;
        self.write_index(true)
    }

    /// The current header payload.
    pub fn header(&self) -> &[u8] {
        &self.journal.header
    }

    /// The live chunks, in frame order.
    pub fn chunks(&self) -> &[ChunkEntry] {
        &self.journal.chunks
    }

    /// Chunk `i`'s payload, read back from the journal, decompressed and checked.
    pub fn read_chunk(&self, i: usize) -> Result<Vec<u8>, ContainerError> {
        read_entry(
            |off, len| read_file_at(&self.file, &self.path, off, len),
            &self.journal.chunks,
            i,
        )
    }

    /// Where the index came from when the writer was made.
    pub fn index_source(&self) -> IndexSource {
        self.index_source
    }

    /// How many bytes of torn tail [`Writer::resume`] cut off the journal (0 after a clean
    /// shutdown).
    pub fn discarded_len(&self) -> u64 {
        self.discarded
    }

    /// The journal's length in bytes.
    pub fn journal_len(&self) -> u64 {
        self.journal.valid_len
    }
}

/// Rewrite the sidecar: a temp file renamed over it (flushed first when `durable`).
fn write_sidecar(idx: &Path, journal: &Journal, durable: bool) -> Result<(), ContainerError> {
    let bytes = journal.sidecar_bytes();
    let tmp = temp_path(idx);
    let ctx = || format!("cannot write the index {}", idx.display());
    let result = File::create(&tmp)
        .and_then(|mut f| {
            f.write_all(&bytes)?;
            if durable {
                f.sync_all()?;
            }
            Ok(())
        })
        .and_then(|()| fs::rename(&tmp, idx));
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(io_err(ctx))?;
    if durable {
        sync_dir(idx)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Compaction.

/// Write the movie at `src` (either form) as a compact file at `dst`, chunks recompressed at
/// zstd `level` (see [`COMPACT_LEVEL`]).
///
/// Every chunk is decompressed and checked on the way. `dst` is written to a temp file,
/// flushed and renamed into place, so it is either the old file or the whole new one; `dst`
/// may be `src`. A `<dst>.idx` sidecar is removed, since a compact file has its own index.
pub fn compact(src: &Path, dst: &Path, level: i32) -> Result<(), ContainerError> {
    check_level(level)?;
    let reader = Reader::open(src)?;
    let n = reader.chunks.len();
    let count = u32::try_from(n).map_err(|_| corrupt("more than 2^32 - 1 chunks"))?;
    let header_len = u32::try_from(reader.header.len())
        .map_err(|_| ContainerError::HeaderTooLarge(reader.header.len()))?;
    let mut compressor =
        zstd::bulk::Compressor::new(level).map_err(io_err(|| "cannot set up zstd".into()))?;
    write_atomic(dst, true, move |w| {
        let ctx = || format!("cannot write {}", dst.display());
        let hlen = header_len.to_le_bytes();
        let mut head = file_header(FORM_COMPACT, 0);
        head.extend_from_slice(&hlen);
        head.extend_from_slice(&crc(&[&hlen, &reader.header]).to_le_bytes());
        head.extend_from_slice(&reader.header);
        // The index goes before the data: leave room for it, write the chunks, come back.
        let index_at = head.len() as u64;
        let data_start = index_at + 8 + (ENTRY_LEN * n) as u64;
        w.write_all(&head)
            .and_then(|()| w.seek(SeekFrom::Start(data_start)).map(drop))
            .map_err(io_err(ctx))?;
        let mut index = Vec::with_capacity(ENTRY_LEN * n);
        let mut offset = data_start;
        for (i, e) in reader.chunks.iter().enumerate() {
            let raw = reader.read_chunk(i)?;
            let data = compressor
                .compress(&raw)
                .map_err(io_err(|| "zstd compression failed".to_string()))?;
            let compressed_len = u32::try_from(data.len())
                .map_err(|_| ContainerError::InvalidChunk("compressed beyond 4 GiB".into()))?;
            w.write_all(&data).map_err(io_err(ctx))?;
            put_entry(
                &mut index,
                &ChunkEntry {
                    offset,
                    compressed_len,
                    ..*e
                },
            );
            offset += u64::from(compressed_len);
        }
        let cnt = count.to_le_bytes();
        w.seek(SeekFrom::Start(index_at))
            .and_then(|_| w.write_all(&cnt))
            .and_then(|()| w.write_all(&crc(&[&cnt, &index]).to_le_bytes()))
            .and_then(|()| w.write_all(&index))
            .map_err(io_err(ctx))?;
        // Close the source before the rename (it may be `dst`).
        drop(reader);
        Ok(())
    })?;
    let idx = sidecar_path(dst);
    match fs::remove_file(&idx) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(ContainerError::Io {
            context: format!("cannot remove {}", idx.display()),
            source: e,
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(start_frame: u64, frames: u32) -> ChunkEntry {
        ChunkEntry {
            meta: ChunkMeta {
                start_frame,
                frames,
                flags: 0xA5A5_0001,
            },
            offset: 1234,
            compressed_len: 56,
            raw_len: 78,
            raw_crc: 0xDEAD_BEEF,
        }
    }

    #[test]
    fn layout_sizes_match_the_docs() {
        assert_eq!(file_header(FORM_JOURNAL, 7).len() as u64, FILE_HEADER_LEN);
        assert_eq!(record(TAG_HEADER, &[b"abc"]).unwrap().len(), 12 + 3);
        let mut j = Journal::new(9);
        j.chunks = vec![entry(0, 1), entry(5, 2)];
        assert_eq!(j.sidecar_bytes().len(), SIDECAR_FIXED_LEN + 2 * ENTRY_LEN);
        let mut b = Vec::new();
        put_entry(&mut b, &j.chunks[1]);
        assert_eq!(b.len(), ENTRY_LEN);
        assert_eq!(get_entries(&b), vec![j.chunks[1]]);
        let h = file_header(FORM_COMPACT, 0);
        let form = read_file_header(Source::Bytes(&h), h.len() as u64).unwrap();
        assert!(matches!(form, Form::Compact));
    }

    #[test]
    fn find_handles_gaps_and_empty_chunks() {
        let chunks = [entry(0, 10), entry(10, 0), entry(12, 3), entry(15, 0)];
        let got: Vec<Option<usize>> = (0..17).map(|f| find_in(&chunks, f)).collect();
        let mut want = vec![Some(0); 10];
        want.extend([None, None, Some(2), Some(2), Some(2), None, None]);
        assert_eq!(got, want);
        assert_eq!(find_in(&[], 0), None);
    }

    #[test]
    fn chunk_bytes_are_checked_before_and_after_decompression() {
        let raw = b"a payload, a payload, a payload".to_vec();
        let data = zstd::bulk::compress(&raw, 3).unwrap();
        let good = ChunkEntry {
            compressed_len: data.len() as u32,
            raw_len: raw.len() as u32,
            raw_crc: crc(&[&raw]),
            ..entry(0, 1)
        };
        assert_eq!(decode_chunk(&data, &good).unwrap(), raw);
        let bad = |e: ChunkEntry, d: &[u8]| decode_chunk(d, &e).unwrap_err();
        // Lengths disagree, crc differs, trailing bytes, a second frame.
        assert!(bad(ChunkEntry { raw_len: 5, ..good }, &data).contains("holds"));
        assert!(bad(ChunkEntry { raw_crc: 1, ..good }, &data).contains("checksum"));
        let mut two = data.clone();
        two.extend_from_slice(&data);
        assert!(bad(good, &two).contains("one zstd frame"));
        // A streamed frame that does not declare its size.
        let mut streamed = Vec::new();
        let mut enc = zstd::stream::write::Encoder::new(&mut streamed, 3).unwrap();
        enc.write_all(&raw).unwrap();
        enc.finish().unwrap();
        assert!(bad(good, &streamed).contains("declares its size"));
        assert!(bad(good, b"not zstd").contains("zstd"));
        assert!(bad(good, b"").contains("zstd"));
    }

    #[test]
    fn an_intact_record_after_damage_is_found_across_windows() {
        let rec = record(TAG_CHUNK, &[&[7; 40]]).unwrap();
        for gap in [0usize, 1, 5, (1 << 20) - 2, (1 << 20) + 3] {
            let mut b = vec![0xEE; 100 + gap];
            b.extend_from_slice(&rec);
            b.extend_from_slice(b"CHN");
            let len = b.len() as u64;
            let at = intact_record_after(Source::Bytes(&b), 99, len).unwrap();
            assert_eq!(at, Some(100 + gap as u64), "gap {gap}");
            let n = b.len();
            b[n - 4] ^= 1; // now torn
            assert_eq!(
                intact_record_after(Source::Bytes(&b), 99, len).unwrap(),
                None
            );
        }
    }
}
