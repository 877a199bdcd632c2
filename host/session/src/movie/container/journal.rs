//! The journal form: what applying its records gives ([`Journal`]), a scan of every record or
//! the sidecar index instead, recovery of a torn tail, and the records themselves.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use super::layout::{
    CHUNK_PREFIX_LEN, ChunkEntry, ChunkMeta, ContainerError, ENTRY_LEN, FILE_HEADER_LEN,
    INDEX_MAGIC, IndexSource, MAX_CHUNK_LEN, RECORD_HEADER_LEN, SIDECAR_FIXED_LEN, TAG_CHUNK,
    TAG_HEADER, TAG_TRUNCATE, VERSION, check_entries, corrupt, crc, get_entries, order_error,
    put_entry, u16_at, u32_at, u64_at,
};
use super::source::Source;

#[derive(Clone, Debug, Default)]
pub(super) struct Journal {
    pub(super) id: u64,
    pub(super) header: Vec<u8>,
    /// Offset of the current HEAD record (0: none).
    pub(super) header_off: u64,
    pub(super) chunks: Vec<ChunkEntry>,
    /// End of the last complete record.
    pub(super) valid_len: u64,
    /// Offset and crc field of the last complete record (offset 0: none).
    pub(super) last_off: u64,
    pub(super) last_crc: u32,
}

impl Journal {
    pub(super) fn new(id: u64) -> Journal {
        Journal {
            id,
            valid_len: FILE_HEADER_LEN,
            ..Journal::default()
        }
    }

    /// Apply one complete, crc-checked record at `off`.
    pub(super) fn apply(
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
    pub(super) fn scan(&mut self, src: Source<'_>, file_len: u64) -> Result<(), ContainerError> {
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

    pub(super) fn sidecar_bytes(&self) -> Vec<u8> {
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
    pub(super) fn from_sidecar(
        idx: &Path,
        src: Source<'_>,
        file_len: u64,
        id: u64,
    ) -> Option<Journal> {
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
    pub(super) fn recover(
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
pub(super) fn intact_record_at(
    src: Source<'_>,
    off: u64,
    file_len: u64,
) -> Result<bool, ContainerError> {
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
pub(super) fn intact_record_after(
    src: Source<'_>,
    from: u64,
    file_len: u64,
) -> Result<Option<u64>, ContainerError> {
    pub(super) const WINDOW: u64 = 1 << 20;
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
pub(super) fn record(tag: [u8; 4], parts: &[&[u8]]) -> Result<Vec<u8>, ContainerError> {
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

pub(super) fn chunk_prefix(meta: &ChunkMeta, raw_len: u32, raw_crc: u32) -> [u8; CHUNK_PREFIX_LEN] {
    let mut p = [0; CHUNK_PREFIX_LEN];
    p[0..8].copy_from_slice(&meta.start_frame.to_le_bytes());
    p[8..12].copy_from_slice(&meta.frames.to_le_bytes());
    p[12..16].copy_from_slice(&meta.flags.to_le_bytes());
    p[16..20].copy_from_slice(&raw_len.to_le_bytes());
    p[20..24].copy_from_slice(&raw_crc.to_le_bytes());
    p
}
