//! The byte layout of both forms (see the folder's docs): constants, [`ContainerError`],
//! chunk metadata and index entries, and the little helpers that read and write them.

use std::ffi::OsString;
use std::fs::File;
use std::hash::{BuildHasher, Hasher};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The file magic, at offset 0 of both forms.
pub const MAGIC: [u8; 4] = *b"GBMV";
/// The format version this build writes and reads.
pub const VERSION: u16 = 1;
/// The largest chunk payload (uncompressed), 256 MiB.
pub const MAX_CHUNK_LEN: u32 = 256 << 20;
/// The zstd level of chunks in a journal (fast, for recording).
pub const JOURNAL_LEVEL: i32 = 3;
/// The zstd level [`compact`](fn@super::compact) is meant to be called with (slow, small files).
pub const COMPACT_LEVEL: i32 = 19;

pub(super) const INDEX_MAGIC: [u8; 4] = *b"GBMI";
pub(super) const FORM_JOURNAL: u16 = 1;
pub(super) const FORM_COMPACT: u16 = 2;
pub(super) const FILE_HEADER_LEN: u64 = 20;
pub(super) const RECORD_HEADER_LEN: u64 = 12;
pub(super) const CHUNK_PREFIX_LEN: usize = 24;
pub(super) const ENTRY_LEN: usize = 36;
pub(super) const SIDECAR_FIXED_LEN: usize = 52;
pub(super) const TAG_HEADER: [u8; 4] = *b"HEAD";
pub(super) const TAG_CHUNK: [u8; 4] = *b"CHNK";
pub(super) const TAG_TRUNCATE: [u8; 4] = *b"TRNC";

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
    /// [`Writer::create`](super::Writer::create) refuses to replace an existing file.
    #[error(
        "{} already exists: remove it first, or continue it with Writer::resume",
        .0.display()
    )]
    AlreadyExists(PathBuf),
    /// Another [`Writer`](super::Writer) holds the journal.
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
    /// [`Writer::truncate`](super::Writer::truncate) asked to keep more chunks than there are.
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

pub(super) fn io_err(context: impl FnOnce() -> String) -> impl FnOnce(io::Error) -> ContainerError {
    move |source| ContainerError::Io {
        context: context(),
        source,
    }
}

pub(super) fn corrupt(msg: impl Into<String>) -> ContainerError {
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
    /// A compact file's own index (for a [`Writer`](super::Writer): a compact file turned into a journal).
    Compact,
    /// The journal's `.idx` sidecar, valid and consistent; `tail_bytes` bytes of journal past
    /// what it covered were scanned (0 when the sidecar was up to date).
    Sidecar {
        /// Bytes scanned after the part the sidecar covered.
        tail_bytes: u64,
    },
    /// A scan of every journal record (no usable sidecar, or [`Reader::from_bytes`](super::Reader::from_bytes)).
    Scan,
    /// A journal just made by [`Writer::create`](super::Writer::create).
    Created,
}

pub(super) fn crc(parts: &[&[u8]]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    for p in parts {
        h.update(p);
    }
    h.finalize()
}

pub(super) fn u16_at(b: &[u8], at: usize) -> u16 {
    let mut a = [0; 2];
    a.copy_from_slice(&b[at..at + 2]);
    u16::from_le_bytes(a)
}

pub(super) fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut a = [0; 4];
    a.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(a)
}

pub(super) fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

pub(super) fn file_header(form: u16, id: u64) -> Vec<u8> {
    let mut b = Vec::with_capacity(FILE_HEADER_LEN as usize);
    b.extend_from_slice(&MAGIC);
    b.extend_from_slice(&VERSION.to_le_bytes());
    b.extend_from_slice(&form.to_le_bytes());
    b.extend_from_slice(&id.to_le_bytes());
    let c = crc(&[&b]);
    b.extend_from_slice(&c.to_le_bytes());
    b
}

pub(super) fn put_entry(b: &mut Vec<u8>, e: &ChunkEntry) {
    b.extend_from_slice(&e.meta.start_frame.to_le_bytes());
    b.extend_from_slice(&e.meta.frames.to_le_bytes());
    b.extend_from_slice(&e.meta.flags.to_le_bytes());
    b.extend_from_slice(&e.offset.to_le_bytes());
    b.extend_from_slice(&e.compressed_len.to_le_bytes());
    b.extend_from_slice(&e.raw_len.to_le_bytes());
    b.extend_from_slice(&e.raw_crc.to_le_bytes());
}

/// Parse entries (`b.len()` a multiple of [`ENTRY_LEN`]).
pub(super) fn get_entries(b: &[u8]) -> Vec<ChunkEntry> {
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
pub(super) fn order_error(prev: Option<&ChunkEntry>, meta: &ChunkMeta) -> Option<String> {
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
pub(super) fn check_entries(entries: &[ChunkEntry], lo: u64, hi: u64) -> Result<(), String> {
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
pub(super) fn find_in(chunks: &[ChunkEntry], frame: u64) -> Option<usize> {
    let after = chunks.partition_point(|c| c.meta.start_frame <= frame);
    let i = after.checked_sub(1)?;
    let c = &chunks[i];
    (frame < c.meta.end_frame()?).then_some(i)
}

pub(super) fn sidecar_path(path: &Path) -> PathBuf {
    let mut s = OsString::from(path.as_os_str());
    s.push(".idx");
    PathBuf::from(s)
}

pub(super) fn temp_path(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut s = OsString::from(path.as_os_str());
    s.push(format!(".tmp{}-{n}", std::process::id()));
    PathBuf::from(s)
}

pub(super) fn new_id() -> u64 {
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

pub(super) fn sync_dir(path: &Path) -> Result<(), ContainerError> {
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

pub(super) fn check_level(level: i32) -> Result<(), ContainerError> {
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
