//! The compact form: its header and index parsed and checked, and a chunk read and
//! decompressed with every length and checksum checked.

use super::layout::{
    ChunkEntry, ContainerError, ENTRY_LEN, FILE_HEADER_LEN, MAX_CHUNK_LEN, check_entries, corrupt,
    crc, get_entries, u32_at,
};
use super::source::Source;

pub(super) struct Compact {
    pub(super) header: Vec<u8>,
    pub(super) chunks: Vec<ChunkEntry>,
}

pub(super) fn parse_compact(src: Source<'_>, file_len: u64) -> Result<Compact, ContainerError> {
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
pub(super) fn read_entry(
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

pub(super) fn decode_chunk(data: &[u8], e: &ChunkEntry) -> Result<Vec<u8>, String> {
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
