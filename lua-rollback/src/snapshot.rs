//! Snapshots of a VM's arena, and their sealed encodings for a rewind ring.
//!
//! A [`Snapshot`] is the arena's bytes up to the high-water mark, tagged with the VM's arena id
//! and a sequence number that names its contents: `(arena id, seq)` always denotes the same
//! bytes, because sequence numbers are handed out only by [`Vm::snapshot`](crate::Vm::snapshot)
//! and [`Vm::snapshot_diff`](crate::Vm::snapshot_diff), and a diff application moves a snapshot
//! exactly from one named state to the other.
//!
//! Encodings (a keyframe: one snapshot; a diff: two snapshots' XOR, see [`crate::codec`]) carry
//! a header and a keyed checksum (SipHash with a per-process random key) over header and
//! payload. Decoding refuses anything this process did not produce, so a restored snapshot is
//! always bytes that a VM really had: corrupting an arena through this API is impossible.
//!
//! ```text
//! magic "LRS1" | kind u8 (0 keyframe, 1 diff) | 3 zero bytes | arena id u64 | seq a u64 |
//! seq b u64 | len a u64 | len b u64 | checksum u64 | codec payload
//! ```
//! A keyframe is a diff from the empty state (`seq a = 0`, `len a = 0`).

use std::hash::{BuildHasher, Hasher, RandomState};
use std::sync::OnceLock;

use crate::codec;
use crate::error::CodecError;

const MAGIC: [u8; 4] = *b"LRS1";
const KIND_KEYFRAME: u8 = 0;
const KIND_DIFF: u8 = 1;
const HEADER_LEN: usize = 56;
const CHECKSUM_AT: usize = 48;

/// The arena bytes of a VM at one moment. Restore it with [`Vm::restore`](crate::Vm::restore);
/// valid only for the VM that made it, in this process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub(crate) arena_id: u64,
    pub(crate) seq: u64,
    pub(crate) bytes: Vec<u8>,
}

/// Process-wide key of the encoding checksums.
fn key() -> &'static RandomState {
    static KEY: OnceLock<RandomState> = OnceLock::new();
    KEY.get_or_init(RandomState::new)
}

fn checksum(header: &[u8], payload: &[u8]) -> u64 {
    let mut h = key().build_hasher();
    h.write(&header[..CHECKSUM_AT]);
    h.write(payload);
    h.finish()
}

struct Header {
    kind: u8,
    arena_id: u64,
    seq_a: u64,
    seq_b: u64,
    len_a: usize,
    len_b: usize,
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// Append a header with a zero checksum; returns where it starts.
fn put_header(out: &mut Vec<u8>, h: &Header) -> usize {
    let start = out.len();
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&[h.kind, 0, 0, 0]);
    for v in [
        h.arena_id,
        h.seq_a,
        h.seq_b,
        h.len_a as u64,
        h.len_b as u64,
        0,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    start
}

/// Fill in the checksum of the encoding that starts at `start`.
fn seal(out: &mut [u8], start: usize) {
    let (header, payload) = out[start..].split_at(HEADER_LEN);
    let sum = checksum(header, payload);
    out[start + CHECKSUM_AT..start + HEADER_LEN].copy_from_slice(&sum.to_le_bytes());
}

/// Check magic and checksum; parse the header.
fn open(enc: &[u8]) -> Result<(Header, &[u8]), CodecError> {
    if enc.len() < HEADER_LEN || enc[..4] != MAGIC || enc[5..8] != [0, 0, 0] {
        return Err(CodecError::Corrupt);
    }
    let (header, payload) = enc.split_at(HEADER_LEN);
    if checksum(header, payload) != u64_at(header, CHECKSUM_AT) {
        return Err(CodecError::Corrupt);
    }
    let len = |at| usize::try_from(u64_at(header, at)).map_err(|_| CodecError::Corrupt);
    let h = Header {
        kind: header[4],
        arena_id: u64_at(header, 8),
        seq_a: u64_at(header, 16),
        seq_b: u64_at(header, 24),
        len_a: len(32)?,
        len_b: len(40)?,
    };
    if codec::encoded_words(payload)? != codec::total_words(h.len_a, h.len_b) {
        return Err(CodecError::Corrupt);
    }
    Ok((h, payload))
}

impl Snapshot {
    /// Number of arena bytes held (the arena's high-water mark when it was taken).
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the snapshot holds no bytes (never true for a real snapshot).
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The raw arena bytes (for measuring, hashing and comparing; they contain addresses and are
    /// meaningful only in this process).
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Append the sealed diff from `older` to `self` to `out`. Either snapshot can later be
    /// rebuilt from the other with [`Snapshot::apply_diff`].
    pub fn encode_diff(&self, older: &Snapshot, out: &mut Vec<u8>) -> Result<(), CodecError> {
        if self.arena_id != older.arena_id {
            return Err(CodecError::ForeignSnapshot);
        }
        let start = put_header(
            out,
            &Header {
                kind: KIND_DIFF,
                arena_id: self.arena_id,
                seq_a: older.seq,
                seq_b: self.seq,
                len_a: older.bytes.len(),
                len_b: self.bytes.len(),
            },
        );
        codec::encode(&older.bytes, &self.bytes, out);
        seal(out, start);
        Ok(())
    }

    /// Append the sealed keyframe encoding of `self` (its zero runs coded away) to `out`.
    pub fn encode_keyframe(&self, out: &mut Vec<u8>) {
        let start = put_header(
            out,
            &Header {
                kind: KIND_KEYFRAME,
                arena_id: self.arena_id,
                seq_a: 0,
                seq_b: self.seq,
                len_a: 0,
                len_b: self.bytes.len(),
            },
        );
        codec::encode(&[], &self.bytes, out);
        seal(out, start);
    }

    /// Rebuild a snapshot from a keyframe made by [`Snapshot::encode_keyframe`] in this process.
    pub fn decode_keyframe(enc: &[u8]) -> Result<Snapshot, CodecError> {
        let (h, payload) = open(enc)?;
        if h.kind != KIND_KEYFRAME {
            return Err(CodecError::WrongKind);
        }
        let mut bytes = vec![0u8; codec::total_words(0, h.len_b) * 8];
        if codec::apply(&mut bytes, payload)? != payload.len() {
            return Err(CodecError::Corrupt);
        }
        bytes.truncate(h.len_b);
        Ok(Snapshot {
            arena_id: h.arena_id,
            seq: h.seq_b,
            bytes,
        })
    }

    /// Apply a diff made by [`Snapshot::encode_diff`] (or [`Vm::snapshot_diff`]) in this
    /// process: if `self` is the diff's older snapshot it becomes the newer one (decoding
    /// forward from a keyframe), and if it is the newer one it becomes the older one (walking
    /// backward from the live state). Any other snapshot is refused and left unchanged.
    ///
    /// [`Vm::snapshot_diff`]: crate::Vm::snapshot_diff
    pub fn apply_diff(&mut self, enc: &[u8]) -> Result<(), CodecError> {
        let (h, payload) = open(enc)?;
        if h.kind != KIND_DIFF {
            return Err(CodecError::WrongKind);
        }
        if h.arena_id != self.arena_id {
            return Err(CodecError::ForeignSnapshot);
        }
        let (from_len, to_seq, to_len) = if self.seq == h.seq_a {
            (h.len_a, h.seq_b, h.len_b)
        } else if self.seq == h.seq_b {
            (h.len_b, h.seq_a, h.len_a)
        } else {
            return Err(CodecError::WrongBase);
        };
        if self.bytes.len() != from_len {
            return Err(CodecError::WrongBase);
        }
        let words = codec::total_words(h.len_a, h.len_b);
        let mut work = std::mem::take(&mut self.bytes);
        work.resize(words * 8, 0);
        match codec::apply(&mut work, payload) {
            Ok(n) if n == payload.len() => {
                work.truncate(to_len);
                self.bytes = work;
                self.seq = to_seq;
                Ok(())
            }
            result => {
                // Cannot happen for a sealed encoding; undo so `self` stays what it was.
                let _ = codec::apply(&mut work, payload);
                work.truncate(from_len);
                self.bytes = work;
                Err(result.err().unwrap_or(CodecError::Corrupt))
            }
        }
    }

    /// [`Snapshot::advance_to`] when `self` and `live` can differ only in the byte ranges
    /// `dirty` (sorted, each starting at a multiple of 64): only those are compared, and the
    /// encoding is the same.
    pub(crate) fn advance_dirty(
        &mut self,
        live: &[u8],
        live_seq: u64,
        dirty: &[std::ops::Range<usize>],
        out: &mut Vec<u8>,
    ) {
        self.advance_with(live, live_seq, out, |prev, live, out| {
            codec::encode_and_update_dirty(prev, live, dirty.iter().cloned(), out)
        });
    }

    /// Encode the diff from `self` to `live` into `out` and make `self` equal to `live`,
    /// touching only the words that changed. `live_seq` names the new state.
    pub(crate) fn advance_to(&mut self, live: &[u8], live_seq: u64, out: &mut Vec<u8>) {
        self.advance_with(live, live_seq, out, codec::encode_and_update);
    }

    /// The sealed diff around `encode`, which writes the body and brings `self.bytes` to `live`.
    fn advance_with(
        &mut self,
        live: &[u8],
        live_seq: u64,
        out: &mut Vec<u8>,
        encode: impl FnOnce(&mut Vec<u8>, &[u8], &mut Vec<u8>),
    ) {
        let start = put_header(
            out,
            &Header {
                kind: KIND_DIFF,
                arena_id: self.arena_id,
                seq_a: self.seq,
                seq_b: live_seq,
                len_a: self.bytes.len(),
                len_b: live.len(),
            },
        );
        encode(&mut self.bytes, live, out);
        debug_assert_eq!(self.bytes, live);
        self.seq = live_seq;
        seal(out, start);
    }
}
