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
//! - the **compact** file, the final form ([`compact`](fn@compact)): header payload, index and chunks in one
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
//! the damage, and [`compact`](fn@compact) can save it to a new file).

mod compact;
mod compaction;
mod journal;
mod layout;
mod reader;
mod source;
mod writer;

#[cfg(test)]
mod tests;

pub use compaction::compact;
pub use layout::{
    COMPACT_LEVEL, ChunkEntry, ChunkMeta, ContainerError, IndexSource, JOURNAL_LEVEL, MAGIC,
    MAX_CHUNK_LEN, VERSION,
};
pub use reader::Reader;
pub use writer::Writer;
