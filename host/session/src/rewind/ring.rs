//! The rewind ring: one preallocated buffer of per-frame records, with a fixed-size index.
//!
//! binjgb's layout: records are written one after another into a single buffer and wrap to its
//! start when the end is reached; the oldest records are evicted to make room, a whole
//! keyframe group at a time, so the oldest record left is always a keyframe. The index (one
//! [`Entry`] per frame, in frame order) is searched by binary search, and so is the list of
//! keyframes held (a record's keyframe is found without a walk back through its group).
//!
//! A record holds *parts*: the core's state image first, then each script VM's arena, in slot
//! order. A keyframe record holds every part whole (so decoding can start there); a diff
//! record holds, per part, the XOR of this frame against the previous one in zero-run coding
//! ([`lua_rollback::codec`], also used for the core image). A keyframe record also carries
//! the diffs when the previous frame had the same scripts, so a walk backward from the live
//! frame never has to stop at a keyframe. Each part's bytes are then stored as they are, or
//! compressed with zstd or lz4, whichever [`Method`] the session chose for it.
//!
//! *Batches*: a frame's diff alone is a few hundred bytes, too little for a compressor to find
//! much to reuse, but consecutive frames change the same words. So a diff record is first
//! written *open* ([`Ring::push_open`]: its parts stored as they are, nothing compressed), and
//! [`Ring::seal`] later replaces the open records (16 of them, see `history.rs`) by one *batch
//! record*: per part, the frames' diffs concatenated and compressed together (zstd at
//! [`BATCH_LEVEL`], against the keyframe group's dictionary when the history gives one, see
//! `dict.rs`; such a part needs it to decode, [`PartOut::decode_with`]). Every frame of a
//! batch keeps its own index entry, pointing at the shared record with its place in it
//! ([`Entry::sub`]); [`Record::span`] says where its diff lies in each decoded part.
//! Records of their own (keyframes, with their diffs) compress at zstd's fast level -1.
//!
//! Record layout: `flags u8` (bit 0 keyframe, bit 1 has diffs, bit 2 batch: a batch record's
//! flags are exactly 6), `slots u8`, the slot ids (varints), for a batch the number of frames
//! (varint), then the keyframe parts (if any) and the diff parts (if any), each as `method u8`
//! (0 stored, 1 zstd, 2 lz4, 3 zstd with the group's dictionary), the `raw length` (varint; in
//! a batch, one per frame), the stored length (varint; absent for a stored part, whose length
//! is its raw length), bytes. Varints are LEB128 of at most 32 bits. Decoding checks every
//! length, so corrupt bytes give an error, never a panic.

use std::collections::VecDeque;

use zstd::zstd_safe::{CDict, DCtx, DDict};

/// How a part's bytes are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// As they are (the zero-run coding alone).
    Stored,
    /// Compressed with zstd (its fast level -1).
    Zstd,
    /// Compressed with lz4 (block format).
    Lz4,
}

impl Method {
    fn id(self) -> u8 {
        match self {
            Method::Stored => 0,
            Method::Zstd => 1,
            Method::Lz4 => 2,
        }
    }

    fn from_id(id: u8) -> Option<Method> {
        match id {
            0 => Some(Method::Stored),
            1 => Some(Method::Zstd),
            2 => Some(Method::Lz4),
            _ => None,
        }
    }

    /// Parse a name (`stored`, `zstd`, `lz4`).
    pub fn parse(name: &str) -> Option<Method> {
        match name {
            "stored" | "rle" => Some(Method::Stored),
            "zstd" => Some(Method::Zstd),
            "lz4" => Some(Method::Lz4),
            _ => None,
        }
    }
}

/// Why ring data cannot be decoded.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RingError {
    /// A record's bytes do not parse.
    #[error("rewind record is corrupt: {0}")]
    Corrupt(&'static str),
    /// No record for this frame.
    #[error("frame {0} is not in the rewind history")]
    NoFrame(u64),
}

/// One record in the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The frame the record is the state at the end of (frames completed).
    pub frame: u64,
    /// Where the record starts in the buffer.
    pub(crate) offset: u32,
    /// Its length in bytes.
    pub(crate) len: u32,
    /// Whether it holds every part whole.
    pub keyframe: bool,
    /// Whether it holds diffs against the previous record.
    pub has_diffs: bool,
    /// Its position in a batch record (the record every frame of the batch shares); 0 for a
    /// record of its own.
    pub sub: u16,
}

/// One part of a record being written.
#[derive(Clone, Copy)]
pub struct PartIn<'a> {
    /// Bytes (a whole image / keyframe encoding, or a diff).
    pub bytes: &'a [u8],
    /// How to store them.
    pub method: Method,
    /// With [`Method::Zstd`]: compress against this dictionary (the group's, see
    /// `rewind::dict`); the part is then stored as "zstd with the group's dictionary".
    pub dict: Option<&'a CDict<'static>>,
}

/// Stored method id of a part compressed with zstd against its group's dictionary.
const ZSTD_DICT_ID: u8 = 3;

/// One part of a record read back.
#[derive(Clone, Copy, Debug)]
pub struct PartOut<'a> {
    method: Method,
    /// Compressed against the group's dictionary (with [`Method::Zstd`]).
    dict: bool,
    raw_len: usize,
    stored: &'a [u8],
}

impl PartOut<'_> {
    /// Whether decoding needs the group's dictionary ([`PartOut::decode_with`]).
    pub fn needs_dict(&self) -> bool {
        self.dict
    }

    /// Decompress into `out` (cleared first); a part that needs its group's dictionary is
    /// refused.
    pub fn decode(&self, out: &mut Vec<u8>) -> Result<(), RingError> {
        self.decode_with(out, None)
    }

    /// Decompress into `out` (cleared first), with the group's dictionary when the part
    /// needs it.
    pub fn decode_with(
        &self,
        out: &mut Vec<u8>,
        dict: Option<&DDict<'_>>,
    ) -> Result<(), RingError> {
        self.decode_in(out, &mut DCtx::create(), dict)
    }

    /// [`PartOut::decode_with`] with a reusable decompression context.
    pub fn decode_in(
        &self,
        out: &mut Vec<u8>,
        dctx: &mut DCtx<'_>,
        dict: Option<&DDict<'_>>,
    ) -> Result<(), RingError> {
        out.clear();
        match self.method {
            Method::Stored => {
                if self.stored.len() != self.raw_len {
                    return Err(RingError::Corrupt("stored part length"));
                }
                out.extend_from_slice(self.stored);
            }
            Method::Zstd => {
                // The frame says how big it decompresses to: check before allocating.
                match zstd::zstd_safe::get_frame_content_size(self.stored) {
                    Ok(Some(n)) if n == self.raw_len as u64 => {}
                    _ => return Err(RingError::Corrupt("zstd part length")),
                }
                out.resize(self.raw_len, 0);
                let n = if self.dict {
                    let dict = dict.ok_or(RingError::Corrupt("a part without its dictionary"))?;
                    dctx.decompress_using_ddict(&mut out[..], self.stored, dict)
                } else {
                    dctx.decompress(&mut out[..], self.stored)
                }
                .map_err(|_| RingError::Corrupt("zstd part"))?;
                if n != self.raw_len {
                    return Err(RingError::Corrupt("zstd part length"));
                }
            }
            Method::Lz4 => {
                // lz4 cannot expand a byte into more than 255.
                if self.raw_len > self.stored.len().saturating_mul(255) + 16 {
                    return Err(RingError::Corrupt("lz4 part length"));
                }
                out.resize(self.raw_len, 0);
                let n = lz4_flex::block::decompress_into(self.stored, &mut out[..])
                    .map_err(|_| RingError::Corrupt("lz4 part"))?;
                if n != self.raw_len {
                    return Err(RingError::Corrupt("lz4 part length"));
                }
            }
        }
        Ok(())
    }

    /// Bytes this part takes in the ring.
    pub fn stored_len(&self) -> usize {
        self.stored.len()
    }
}

/// A record read back: its slots and parts.
#[derive(Debug)]
pub struct Record<'a> {
    /// The script slots, in order (part `i + 1` belongs to `slots[i]`).
    pub slots: Vec<u32>,
    /// Whole parts (core first), if a keyframe.
    pub key: Vec<PartOut<'a>>,
    /// Diff parts (core first), if it has diffs; in a batch record, each part is the
    /// concatenation of the batch's frames' diffs of that part.
    pub diff: Vec<PartOut<'a>>,
    /// Frames in a batch record (0 for a record of one frame).
    pub batch: usize,
    /// In a batch record: each part's diff lengths, frame by frame (`lens[p * batch + j]`).
    pub lens: Vec<usize>,
}

impl Record<'_> {
    /// Where frame `sub` of a batch record lies in part `p`'s decoded concatenation.
    pub fn span(&self, p: usize, sub: usize) -> Option<std::ops::Range<usize>> {
        let lens = self.lens.get(p * self.batch..(p + 1) * self.batch)?;
        let start: usize = lens.get(..sub)?.iter().sum();
        Some(start..start + lens.get(sub)?)
    }
}

/// The first `n` bytes of `r`, which moves past them.
fn take<'a>(r: &mut &'a [u8], n: usize) -> Result<&'a [u8], RingError> {
    let (head, rest) = r
        .split_at_checked(n)
        .ok_or(RingError::Corrupt("record ends early"))?;
    *r = rest;
    Ok(head)
}

/// A LEB128 number of at most 32 bits at the start of `r`, which moves past it.
fn take_varint(r: &mut &[u8]) -> Result<u32, RingError> {
    let mut v = 0u64;
    for shift in (0..35).step_by(7) {
        let b = take(r, 1)?[0];
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return u32::try_from(v).map_err(|_| RingError::Corrupt("number too big"));
        }
    }
    Err(RingError::Corrupt("number too long"))
}

/// Bytes `v` takes as LEB128.
fn varint_len(v: usize) -> usize {
    let mut n = 1;
    let mut v = v >> 7;
    while v > 0 {
        n += 1;
        v >>= 7;
    }
    n
}

/// Append `v` as LEB128.
fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Parse a record's bytes.
pub fn parse_record(bytes: &[u8]) -> Result<Record<'_>, RingError> {
    let mut r = bytes;
    let head = take(&mut r, 2)?;
    let (flags, count) = (head[0], usize::from(head[1]));
    if flags & !7 != 0 || flags & 3 == 0 || (flags & 4 != 0 && flags != 6) {
        return Err(RingError::Corrupt("record flags"));
    }
    let mut slots = Vec::with_capacity(count);
    for _ in 0..count {
        slots.push(take_varint(&mut r)?);
    }
    let batch = if flags & 4 != 0 {
        let n = take_varint(&mut r)? as usize;
        if !(1..=MAX_BATCH).contains(&n) {
            return Err(RingError::Corrupt("batch length"));
        }
        n
    } else {
        0
    };
    let mut lens = Vec::new();
    let mut read_parts = |present: bool| -> Result<Vec<PartOut<'_>>, RingError> {
        let mut parts = Vec::new();
        if !present {
            return Ok(parts);
        }
        for _ in 0..=count {
            let id = take(&mut r, 1)?[0];
            let dict = id == ZSTD_DICT_ID;
            let method = if dict {
                Method::Zstd
            } else {
                Method::from_id(id).ok_or(RingError::Corrupt("part method"))?
            };
            let raw_len = if batch > 0 {
                let mut sum = 0usize;
                for _ in 0..batch {
                    let n = take_varint(&mut r)? as usize;
                    lens.push(n);
                    sum += n;
                }
                sum
            } else {
                take_varint(&mut r)? as usize
            };
            let len = match method {
                // A stored part's length is its raw length.
                Method::Stored => raw_len,
                _ => take_varint(&mut r)? as usize,
            };
            if raw_len > MAX_PART {
                return Err(RingError::Corrupt("part length"));
            }
            parts.push(PartOut {
                method,
                dict,
                raw_len,
                stored: take(&mut r, len)?,
            });
        }
        Ok(parts)
    };
    let key = read_parts(flags & 1 != 0)?;
    let diff = read_parts(flags & 2 != 0)?;
    if !r.is_empty() {
        return Err(RingError::Corrupt("bytes after the last part"));
    }
    Ok(Record {
        slots,
        key,
        diff,
        batch,
        lens,
    })
}

/// zstd's level for the parts of records of their own (keyframes, and the diffs a keyframe
/// record carries) stored with [`Method::Zstd`]: its fast mode (a keyframe takes ~0.45 ms at
/// -1, ~1.2 ms at 3 for 3 % fewer bytes, once every 600 frames).
const ZSTD_LEVEL: i32 = -1;

/// zstd's level for batch records ([`Ring::seal`]), once every 16 frames: the HUD's script
/// diffs take ~10 % fewer bytes than at level -1 for ~100 µs a batch (see `docs/rewind.md`).
pub const BATCH_LEVEL: i32 = 3;

/// Largest part a record may claim to hold when decompressed (a 4 GiB arena is the limit).
const MAX_PART: usize = u32::MAX as usize;

/// Most frames a batch record holds (its entries number their place in it with a `u16`).
pub const MAX_BATCH: usize = 1 << 12;

/// What sealing the open records into a batch did ([`Ring::seal`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sealed {
    /// Frames the batch holds.
    pub frames: usize,
    /// Bytes the batch record takes.
    pub bytes: usize,
    /// Of those, the core's part and the record's framing (all but the scripts' parts).
    pub core_bytes: usize,
}

/// The ring: buffer, index and compression scratch.
pub struct Ring {
    buf: Vec<u8>,
    entries: VecDeque<Entry>,
    /// Where the next record is written.
    head: usize,
    zstd: zstd::bulk::Compressor<'static>,
    /// The compressor of batch records, at [`BATCH_LEVEL`].
    zstd_batch: zstd::bulk::Compressor<'static>,
    scratch: Vec<u8>,
    record: Vec<u8>,
    /// Bytes each part of the last record took (keyframe parts, then diff parts).
    last_parts: Vec<usize>,
    /// How many of the newest records are *open*: diff records of one frame, stored as they
    /// are, that [`Ring::seal`] will turn into one batch record.
    open: usize,
    /// Frames of the keyframe records held, oldest first (finds a record's keyframe by
    /// binary search instead of a walk back through its group).
    keys: VecDeque<u64>,
    /// Scratch of [`Ring::seal`]: each part's concatenated diffs and their lengths.
    batch_parts: Vec<Vec<u8>>,
    batch_lens: Vec<Vec<usize>>,
}

impl std::fmt::Debug for Ring {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ring")
            .field("capacity", &self.buf.len())
            .field("records", &self.entries.len())
            .field("used", &self.used_bytes())
            .finish()
    }
}

impl Ring {
    /// A ring of `capacity` bytes (allocated and touched now, once).
    pub fn new(capacity: usize) -> Ring {
        let capacity = capacity.clamp(1 << 16, u32::MAX as usize);
        Ring {
            buf: vec![0; capacity],
            entries: VecDeque::new(),
            head: 0,
            zstd: zstd::bulk::Compressor::new(ZSTD_LEVEL).unwrap_or_else(|_| {
                // Level 1 is always valid; fall back to the default level if not.
                zstd::bulk::Compressor::default()
            }),
            zstd_batch: zstd::bulk::Compressor::new(BATCH_LEVEL)
                .unwrap_or_else(|_| zstd::bulk::Compressor::default()),
            scratch: Vec::new(),
            record: Vec::new(),
            last_parts: Vec::new(),
            open: 0,
            keys: VecDeque::new(),
            batch_parts: Vec::new(),
            batch_lens: Vec::new(),
        }
    }

    /// How many of the newest records are open (see [`Ring::push_open`]).
    pub fn open_records(&self) -> usize {
        self.open
    }

    /// Bytes each part of the last record took, headers included: the keyframe parts (if
    /// any, core first) then the diff parts (if any, core first).
    pub fn last_part_sizes(&self) -> &[usize] {
        &self.last_parts
    }

    /// Bytes of the data buffer.
    pub fn capacity(&self) -> usize {
        self.buf.len()
    }

    /// Bytes the live records take (a batch record once, though every frame of it has an
    /// entry).
    pub fn used_bytes(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| e.sub == 0)
            .map(|e| e.len as usize)
            .sum()
    }

    /// Bytes the open records take (see [`Ring::push_open`]), and of those the core's parts
    /// and the records' framing.
    pub fn open_bytes(&self) -> (usize, usize) {
        let n = self.entries.len();
        let (mut total, mut core) = (0, 0);
        for i in n - self.open..n {
            let len = self.entries[i].len as usize;
            total += len;
            let scripts: usize = self.record(i).map_or(0, |r| {
                r.diff
                    .iter()
                    .skip(1)
                    .map(|p| p.stored_len() + 1 + varint_len(p.raw_len))
                    .sum()
            });
            core += len - scripts.min(len);
        }
        (total, core)
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the ring is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The oldest and newest frames held.
    pub fn frames(&self) -> Option<(u64, u64)> {
        Some((self.entries.front()?.frame, self.entries.back()?.frame))
    }

    /// The index entry of `frame`, by binary search.
    pub fn find(&self, frame: u64) -> Option<usize> {
        let i = self.entries.partition_point(|e| e.frame < frame);
        (self.entries.get(i)?.frame == frame).then_some(i)
    }

    /// The index entry at position `i`.
    pub fn entry(&self, i: usize) -> Option<Entry> {
        self.entries.get(i).copied()
    }

    /// The position of the newest keyframe at or before position `i`.
    pub fn keyframe_at_or_before(&self, i: usize) -> Option<usize> {
        let frame = self
            .entries
            .get(i.min(self.entries.len().checked_sub(1)?))?
            .frame;
        let k = self.keys.partition_point(|&f| f <= frame).checked_sub(1)?;
        self.find(self.keys[k])
    }

    /// The bytes of the record at position `i`.
    pub fn record_bytes(&self, i: usize) -> Option<&[u8]> {
        let e = self.entries.get(i)?;
        self.buf
            .get(e.offset as usize..e.offset as usize + e.len as usize)
    }

    /// The record at position `i`, parsed.
    pub fn record(&self, i: usize) -> Result<Record<'_>, RingError> {
        let frame = self.entries.get(i).map_or(0, |e| e.frame);
        parse_record(self.record_bytes(i).ok_or(RingError::NoFrame(frame))?)
    }

    /// The whole data buffer, for corruption tests.
    #[cfg(test)]
    pub(crate) fn buffer_mut(&mut self) -> &mut [u8] {
        &mut self.buf
    }

    /// Forget every record after `frame` (resuming from a seek forks the timeline).
    pub fn truncate_after(&mut self, frame: u64) {
        let keep = self.entries.partition_point(|e| e.frame <= frame);
        self.open = self
            .open
            .saturating_sub(self.entries.len().saturating_sub(keep));
        self.entries.truncate(keep);
        while self.keys.back().is_some_and(|&f| f > frame) {
            self.keys.pop_back();
        }
        self.head = match self.entries.back() {
            Some(e) => (e.offset + e.len) as usize,
            None => 0,
        };
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.keys.clear();
        self.head = 0;
        self.open = 0;
    }

    /// Append the record of `frame` (later than every record held). `key` holds the whole
    /// parts of a keyframe (empty for a diff record), `diff` the diffs against the previous
    /// record (empty when there are none). Returns the bytes it took; 0 when the record does
    /// not fit in the ring at all (the history is then empty). Records before it that were
    /// open stay as they are (call [`Ring::seal`] first to batch them).
    pub fn push(
        &mut self,
        frame: u64,
        slots: &[u32],
        key: &[PartIn<'_>],
        diff: &[PartIn<'_>],
    ) -> usize {
        self.open = 0;
        self.push_record(frame, slots, key, diff)
    }

    /// Append the diff record of `frame`, its parts (`diff`, core first) stored as they are,
    /// and leave it *open*: [`Ring::seal`] later replaces the open records by one batch record
    /// that compresses them together. Returns the bytes it took (0 when it does not fit).
    pub fn push_open(&mut self, frame: u64, slots: &[u32], diff: &[&[u8]]) -> usize {
        let parts: Vec<PartIn<'_>> = diff
            .iter()
            .map(|b| PartIn {
                bytes: b,
                method: Method::Stored,
                dict: None,
            })
            .collect();
        let n = self.push_record(frame, slots, &[], &parts);
        self.open = if n > 0 { self.open + 1 } else { 0 };
        n
    }

    /// Replace the open records (see [`Ring::push_open`]) by one batch record: each part's
    /// diffs of every frame, concatenated and stored with `methods[p]` (against `dicts[p]`
    /// with zstd, when given). Every frame keeps its index entry, pointing at the batch
    /// record. `None` when no record is open or the batch does not fit (the ring is then
    /// empty).
    pub fn seal(
        &mut self,
        methods: &[Method],
        dicts: &[Option<&CDict<'static>>],
    ) -> Option<Sealed> {
        let n = std::mem::take(&mut self.open).min(MAX_BATCH);
        if n == 0 {
            return None;
        }
        let first = self.entries.len() - n;
        let mut parts = std::mem::take(&mut self.batch_parts);
        let mut lens = std::mem::take(&mut self.batch_lens);
        parts.iter_mut().for_each(Vec::clear);
        lens.iter_mut().for_each(Vec::clear);
        let mut slots = Vec::new();
        for i in first..self.entries.len() {
            let Ok(rec) = self.record(i) else {
                // Open records are written by this ring: never corrupt; keep them as they are.
                self.batch_parts = parts;
                self.batch_lens = lens;
                return None;
            };
            if i == first {
                slots = rec.slots.clone();
                parts.resize_with(rec.diff.len(), Vec::new);
                lens.resize_with(rec.diff.len(), Vec::new);
            }
            if rec.slots != slots || rec.diff.len() != parts.len() {
                self.batch_parts = parts;
                self.batch_lens = lens;
                return None;
            }
            for (p, part) in rec.diff.iter().enumerate() {
                // Open records are stored as they are: their bytes are the diff.
                parts[p].extend_from_slice(part.stored);
                lens[p].push(part.raw_len);
            }
        }
        let frames: Vec<u64> = self.entries.range(first..).map(|e| e.frame).collect();
        // Drop the open records; the batch is written in their place.
        self.entries.truncate(first);
        self.head = match self.entries.back() {
            Some(e) => (e.offset + e.len) as usize,
            None => 0,
        };
        let mut rec = std::mem::take(&mut self.record);
        rec.clear();
        rec.push(6);
        rec.push(slots.len().min(255) as u8);
        for &s in slots.iter().take(255) {
            put_varint(&mut rec, s);
        }
        put_varint(&mut rec, n as u32);
        self.last_parts.clear();
        for (p, bytes) in parts.iter().enumerate() {
            let before = rec.len();
            let part = PartIn {
                bytes,
                method: methods.get(p).copied().unwrap_or(Method::Stored),
                dict: dicts.get(p).copied().flatten(),
            };
            self.put_part(&mut rec, &part, &lens[p]);
            self.last_parts.push(rec.len() - before);
        }
        let len = rec.len();
        let sealed = if self.make_room(len) {
            let start = self.head;
            self.buf[start..start + len].copy_from_slice(&rec);
            for (j, &frame) in frames.iter().enumerate() {
                self.entries.push_back(Entry {
                    frame,
                    offset: start as u32,
                    len: len as u32,
                    keyframe: false,
                    has_diffs: true,
                    sub: j as u16,
                });
            }
            self.head = start + len;
            let scripts: usize = self.last_parts.iter().skip(1).sum();
            Some(Sealed {
                frames: n,
                bytes: len,
                core_bytes: len - scripts,
            })
        } else {
            self.clear();
            None
        };
        self.record = rec;
        self.batch_parts = parts;
        self.batch_lens = lens;
        sealed
    }

    fn push_record(
        &mut self,
        frame: u64,
        slots: &[u32],
        key: &[PartIn<'_>],
        diff: &[PartIn<'_>],
    ) -> usize {
        debug_assert!(!key.is_empty() || !diff.is_empty());
        let mut rec = std::mem::take(&mut self.record);
        rec.clear();
        let flags = u8::from(!key.is_empty()) | (u8::from(!diff.is_empty()) << 1);
        rec.push(flags);
        rec.push(slots.len().min(255) as u8);
        for &s in slots.iter().take(255) {
            put_varint(&mut rec, s);
        }
        self.last_parts.clear();
        for part in key.iter().chain(diff) {
            let before = rec.len();
            self.put_part(&mut rec, part, &[]);
            self.last_parts.push(rec.len() - before);
        }
        let len = rec.len();
        let stored = if self.make_room(len) {
            let start = self.head;
            self.buf[start..start + len].copy_from_slice(&rec);
            self.entries.push_back(Entry {
                frame,
                offset: start as u32,
                len: len as u32,
                keyframe: !key.is_empty(),
                has_diffs: !diff.is_empty(),
                sub: 0,
            });
            if !key.is_empty() {
                self.keys.push_back(frame);
            }
            self.head = start + len;
            len
        } else {
            self.clear();
            0
        };
        self.record = rec;
        stored
    }

    /// Append one part; `lens` are a batch part's frame lengths (empty for a record of one
    /// frame, whose raw length is written instead).
    fn put_part(&mut self, rec: &mut Vec<u8>, part: &PartIn<'_>, lens: &[usize]) {
        let raw = part.bytes;
        let mut method = part.method;
        let mut id = None;
        let stored: &[u8] = match (method, part.dict) {
            (Method::Stored, _) => raw,
            (Method::Zstd, dict) => {
                self.scratch.clear();
                self.scratch
                    .reserve(zstd::zstd_safe::compress_bound(raw.len()));
                let z = if lens.is_empty() {
                    &mut self.zstd
                } else {
                    &mut self.zstd_batch
                };
                // A dictionary carries its own level (the group's, see `dict.rs`).
                let done = match dict {
                    Some(d) => z
                        .context_mut()
                        .compress_using_cdict(&mut self.scratch, raw, d)
                        .map(|_| ())
                        .map_err(|_| ()),
                    None => z
                        .compress_to_buffer(raw, &mut self.scratch)
                        .map(|_| ())
                        .map_err(|_| ()),
                };
                match done {
                    Ok(()) => {
                        id = dict.map(|_| ZSTD_DICT_ID);
                        &self.scratch
                    }
                    Err(()) => {
                        method = Method::Stored;
                        raw
                    }
                }
            }
            (Method::Lz4, _) => {
                self.scratch.clear();
                self.scratch
                    .resize(lz4_flex::block::get_maximum_output_size(raw.len()), 0);
                match lz4_flex::block::compress_into(raw, &mut self.scratch) {
                    Ok(n) => &self.scratch[..n],
                    Err(_) => {
                        method = Method::Stored;
                        raw
                    }
                }
            }
        };
        // Keep whichever is smaller: compression can lose on tiny diffs.
        let (id, stored) = if stored.len() >= raw.len() {
            (Method::Stored.id(), raw)
        } else {
            (id.unwrap_or(method.id()), stored)
        };
        rec.push(id);
        if lens.is_empty() {
            put_varint(rec, raw.len() as u32);
        } else {
            for &n in lens {
                put_varint(rec, n as u32);
            }
        }
        if id != Method::Stored.id() {
            put_varint(rec, stored.len() as u32);
        }
        rec.extend_from_slice(stored);
    }

    /// Evict the oldest keyframe groups until `len` bytes fit at `self.head` (wrapping to the
    /// start of the buffer when the end is too close). False if they can never fit.
    fn make_room(&mut self, len: usize) -> bool {
        let cap = self.buf.len();
        if len > cap {
            return false;
        }
        loop {
            let Some(front) = self.entries.front() else {
                self.head = 0;
                return true;
            };
            let tail = front.offset as usize;
            if self.head > tail {
                if cap - self.head >= len {
                    return true;
                }
                // Wrap: the space between head and the end is given up.
                self.head = 0;
                continue;
            }
            if tail - self.head >= len {
                return true;
            }
            self.evict_group();
        }
    }

    /// Evict the oldest record and every following one up to the next keyframe.
    fn evict_group(&mut self) {
        self.entries.pop_front();
        while self.entries.front().is_some_and(|e| !e.keyframe) {
            self.entries.pop_front();
        }
        self.open = self.open.min(self.entries.len());
        let oldest = self.entries.front().map_or(u64::MAX, |e| e.frame);
        while self.keys.front().is_some_and(|&f| f < oldest) {
            self.keys.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn push(ring: &mut Ring, frame: u64, key: bool, fill: u8, n: usize) -> usize {
        let bytes = vec![fill; n];
        let parts = [PartIn {
            bytes: &bytes,
            method: Method::Stored,
            dict: None,
        }];
        if key {
            ring.push(frame, &[], &parts, &[])
        } else {
            ring.push(frame, &[], &[], &parts)
        }
    }

    #[test]
    fn records_round_trip_with_every_method() {
        let mut ring = Ring::new(1 << 20);
        let data: Vec<u8> = (0..5000u32).map(|i| (i % 7) as u8).collect();
        for (f, m) in [Method::Stored, Method::Zstd, Method::Lz4]
            .into_iter()
            .enumerate()
        {
            let parts = [
                PartIn {
                    bytes: &data,
                    method: m,
                    dict: None,
                },
                PartIn {
                    bytes: b"x",
                    method: m,
                    dict: None,
                },
            ];
            ring.push(f as u64, &[7], &parts, &parts);
        }
        for f in 0..3u64 {
            let i = ring.find(f).expect("frame");
            let rec = ring.record(i).expect("parse");
            assert_eq!(rec.slots, [7]);
            let mut out = Vec::new();
            for part in rec.key.iter().chain(&rec.diff) {
                part.decode(&mut out).expect("decode");
                assert!(out == data || out == b"x");
            }
        }
        assert_eq!(ring.find(3), None);
    }

    #[test]
    fn eviction_drops_whole_groups_and_keeps_a_keyframe_first() {
        let mut ring = Ring::new(1 << 16);
        for f in 0..2000u64 {
            push(
                &mut ring,
                f,
                f % 10 == 0,
                f as u8,
                200 + (f as usize * 13) % 300,
            );
            let first = ring.entry(0).expect("not empty");
            assert!(first.keyframe, "frame {f}: oldest record is a keyframe");
            assert!(ring.used_bytes() <= ring.capacity());
        }
        let (first, last) = ring.frames().expect("records");
        assert_eq!(last, 1999);
        assert!(first > 1500 && first % 10 == 0);
        for f in first..=last {
            let i = ring.find(f).expect("contiguous frames");
            let rec = ring.record(i).expect("intact after wrapping");
            let mut out = Vec::new();
            let part = rec.key.first().or(rec.diff.first()).expect("a part");
            part.decode(&mut out).expect("decode");
            assert!(
                out.iter().all(|&b| b == f as u8),
                "frame {f} holds its own bytes"
            );
        }
    }

    #[test]
    fn truncate_forks_the_timeline() {
        let mut ring = Ring::new(1 << 16);
        for f in 0..50 {
            push(&mut ring, f, f % 8 == 0, 1, 100);
        }
        ring.truncate_after(20);
        assert_eq!(ring.frames(), Some((0, 20)));
        push(&mut ring, 21, false, 9, 100);
        assert_eq!(ring.frames(), Some((0, 21)));
        assert_eq!(
            ring.keyframe_at_or_before(ring.find(21).expect("21")),
            ring.find(16)
        );
    }

    /// Part `p` of frame `f`'s diff in the batch tests: lengths and bytes vary by frame.
    fn frame_diff(f: u64, p: usize) -> Vec<u8> {
        (0..(50 + (f as usize * 7 + p * 13) % 90))
            .map(|i| (i as u64 * 3 + f * (p as u64 + 1)) as u8 % 11)
            .collect()
    }

    /// Decode frame `f`'s diff part `p` from whatever record holds it.
    fn read_diff(ring: &Ring, f: u64, p: usize) -> Vec<u8> {
        let i = ring.find(f).expect("held");
        let e = ring.entry(i).expect("entry");
        let rec = ring.record(i).expect("parses");
        let mut out = Vec::new();
        rec.diff[p].decode(&mut out).expect("decodes");
        if rec.batch > 0 {
            out[rec.span(p, usize::from(e.sub)).expect("span")].to_vec()
        } else {
            out
        }
    }

    fn push_frame(ring: &mut Ring, f: u64) {
        let (a, b) = (frame_diff(f, 0), frame_diff(f, 1));
        ring.push_open(f, &[3], &[&a, &b]);
    }

    fn seal(ring: &mut Ring) -> Option<Sealed> {
        ring.seal(&[Method::Zstd, Method::Lz4], &[None, None])
    }

    #[test]
    fn batch_records_hold_every_frame_of_their_open_records() {
        let mut ring = Ring::new(1 << 20);
        let key = frame_diff(0, 0);
        let parts = [PartIn {
            bytes: &key,
            method: Method::Zstd,
            dict: None,
        }];
        ring.push(0, &[3], &[parts[0], parts[0]], &[]);
        let mut open_bytes = 0;
        for f in 1..=40u64 {
            push_frame(&mut ring, f);
            open_bytes += ring.entry(ring.len() - 1).expect("pushed").len as usize;
            if f % 16 == 0 {
                assert_eq!(ring.open_records(), 16);
                let sealed = seal(&mut ring).expect("sealed");
                assert_eq!(sealed.frames, 16);
                assert!(
                    sealed.bytes < open_bytes,
                    "{} vs {open_bytes}",
                    sealed.bytes
                );
                assert!(sealed.core_bytes < sealed.bytes);
                open_bytes = 0;
                assert_eq!(ring.open_records(), 0);
            }
        }
        assert_eq!(ring.open_records(), 8);
        assert_eq!(ring.open_bytes().0, open_bytes);
        for f in 1..=40u64 {
            for p in 0..2 {
                assert_eq!(
                    read_diff(&ring, f, p),
                    frame_diff(f, p),
                    "frame {f} part {p}"
                );
            }
            let e = ring.entry(ring.find(f).expect("held")).expect("entry");
            assert!(e.has_diffs && !e.keyframe);
            assert_eq!(
                usize::from(e.sub),
                if f <= 32 { (f as usize - 1) % 16 } else { 0 }
            );
            assert_eq!(
                ring.keyframe_at_or_before(ring.find(f).expect("held")),
                Some(0)
            );
        }
        // A batch record counts once.
        let records: usize = [0u64, 1, 17]
            .iter()
            .map(|&f| ring.entry(ring.find(f).expect("held")).expect("entry").len as usize)
            .sum::<usize>()
            + open_bytes;
        assert_eq!(ring.used_bytes(), records);
        // A record of its own closes the open ones without batching them.
        ring.push(41, &[3], &[], &[parts[0], parts[0]]);
        assert_eq!(ring.open_records(), 0);
        assert_eq!(seal(&mut ring), None);
    }

    #[test]
    fn a_fork_inside_a_batch_keeps_its_first_frames() {
        let mut ring = Ring::new(1 << 20);
        push(&mut ring, 0, true, 1, 100);
        for f in 1..=16u64 {
            push_frame(&mut ring, f);
        }
        seal(&mut ring).expect("sealed");
        for f in 17..=20u64 {
            push_frame(&mut ring, f);
        }
        // Fork inside the open records, then inside the batch.
        ring.truncate_after(18);
        assert_eq!(ring.open_records(), 2);
        ring.truncate_after(9);
        assert_eq!(ring.open_records(), 0);
        assert_eq!(ring.frames(), Some((0, 9)));
        for f in 10..=30u64 {
            // The new timeline's diffs differ from the old one's.
            let (a, b) = (frame_diff(f + 100, 0), frame_diff(f + 100, 1));
            ring.push_open(f, &[3], &[&a, &b]);
        }
        seal(&mut ring).expect("sealed");
        for f in 1..=30u64 {
            let from = if f <= 9 { f } else { f + 100 };
            for p in 0..2 {
                assert_eq!(read_diff(&ring, f, p), frame_diff(from, p), "frame {f}");
            }
        }
    }

    #[test]
    fn eviction_drops_batches_with_their_group() {
        let mut ring = Ring::new(1 << 16);
        for f in 0..3000u64 {
            if f % 40 == 0 {
                seal(&mut ring);
                push(&mut ring, f, true, f as u8, 600);
            } else {
                push_frame(&mut ring, f);
                if ring.open_records() == 8 {
                    seal(&mut ring).expect("fits");
                }
            }
            assert!(ring.entry(0).expect("not empty").keyframe, "frame {f}");
            assert!(ring.used_bytes() <= ring.capacity());
        }
        let (first, last) = ring.frames().expect("records");
        assert!(first > 0 && first % 40 == 0, "{first}");
        for f in first..=last {
            let i = ring.find(f).expect("contiguous frames");
            assert_eq!(
                ring.keyframe_at_or_before(i),
                ring.find(f / 40 * 40),
                "frame {f}"
            );
            if f % 40 != 0 {
                assert_eq!(read_diff(&ring, f, 1), frame_diff(f, 1), "frame {f}");
            }
        }
    }

    #[test]
    fn a_record_too_big_for_the_ring_empties_it() {
        let mut ring = Ring::new(1 << 16);
        push(&mut ring, 0, true, 1, 100);
        assert_eq!(push(&mut ring, 1, true, 1, 1 << 17), 0);
        assert!(ring.is_empty());
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;

    fn xorshift(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    /// Corrupt records (flipped bytes, truncations, random garbage) are refused or decode to
    /// something; they never panic.
    #[test]
    fn corrupt_records_never_panic() {
        let mut ring = Ring::new(1 << 20);
        let data: Vec<u8> = (0..3000u32).map(|i| (i * 7 % 13) as u8).collect();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let methods = [Method::Stored, Method::Zstd, Method::Lz4];
        for f in 0..3u64 {
            let m = methods[f as usize];
            let parts = [
                PartIn {
                    bytes: &data,
                    method: m,
                    dict: None,
                },
                PartIn {
                    bytes: &data[..100],
                    method: m,
                    dict: None,
                },
            ];
            ring.push(f, &[1], &parts, &parts);
        }
        for f in 3..6u64 {
            ring.push_open(f, &[1], &[&data[..200 + f as usize], &data[..50]]);
        }
        ring.seal(&[Method::Zstd, Method::Lz4], &[None, None])
            .expect("sealed");
        let mut out = Vec::new();
        let mut decoded = 0;
        for round in 0..20_000 {
            let i = round % 4;
            let mut bad = ring.record_bytes(i).expect("record").to_vec();
            match xorshift(&mut seed) % 4 {
                0 => bad.truncate((xorshift(&mut seed) % bad.len() as u64) as usize),
                1 => {
                    let k = (xorshift(&mut seed) % bad.len() as u64) as usize;
                    bad[k] ^= 1 << (xorshift(&mut seed) % 8);
                }
                2 => {
                    for _ in 0..4 {
                        let k = (xorshift(&mut seed) % bad.len() as u64) as usize;
                        bad[k] = xorshift(&mut seed) as u8;
                    }
                }
                _ => {
                    let n = (xorshift(&mut seed) % 64) as usize;
                    bad = (0..n).map(|_| xorshift(&mut seed) as u8).collect();
                }
            }
            if let Ok(rec) = parse_record(&bad) {
                for part in rec.key.iter().chain(&rec.diff) {
                    if part.decode(&mut out).is_ok() {
                        decoded += 1;
                    }
                }
                for p in 0..rec.diff.len() {
                    for sub in 0..rec.batch + 1 {
                        let _ = rec.span(p, sub);
                    }
                }
            }
        }
        assert!(
            decoded > 0,
            "some corruptions leave decodable parts (payload bytes)"
        );
    }
}
