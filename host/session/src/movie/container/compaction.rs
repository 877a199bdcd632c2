//! [`compact`]: any form rewritten as one compact file, atomically.

use std::fs;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::Path;

use super::layout::{
    ChunkEntry, ContainerError, ENTRY_LEN, FORM_COMPACT, check_level, corrupt, crc, file_header,
    io_err, put_entry, sidecar_path,
};
use super::reader::Reader;
use super::writer::write_atomic;

/// Write the movie at `src` (either form) as a compact file at `dst`, chunks recompressed at
/// zstd `level` (see [`super::COMPACT_LEVEL`]).
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
