//! [`Writer`]: the journal while recording (append, truncate, resume after a crash, turn a
//! compact file back into a journal), its sidecar index, and atomic whole-file writes.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use super::compact::{decode_chunk, parse_compact, read_entry};
use super::journal::{Journal, chunk_prefix, intact_record_after, record};
use super::layout::{
    ChunkEntry, ChunkMeta, ContainerError, FILE_HEADER_LEN, FORM_JOURNAL, IndexSource,
    JOURNAL_LEVEL, MAX_CHUNK_LEN, RECORD_HEADER_LEN, TAG_CHUNK, TAG_HEADER, TAG_TRUNCATE, corrupt,
    crc, file_header, io_err, new_id, order_error, sidecar_path, sync_dir, temp_path, u32_at,
};
use super::source::{Form, Source, read_file_at, read_file_header};

/// Records into a journal: appends header updates, chunks and truncations, each followed by an
/// atomic rewrite of the `.idx` sidecar.
///
/// The writer holds an advisory lock on the journal while it lives; a second writer on the
/// same file gets [`ContainerError::Locked`].
pub struct Writer {
    pub(super) path: PathBuf,
    pub(super) idx: PathBuf,
    pub(super) file: Mutex<File>,
    pub(super) journal: Journal,
    pub(super) compressor: zstd::bulk::Compressor<'static>,
    pub(super) index_source: IndexSource,
    pub(super) discarded: u64,
}

pub(super) fn lock(file: &File, path: &Path) -> Result<(), ContainerError> {
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

pub(super) fn open_rw(path: &Path) -> Result<File, ContainerError> {
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
pub(super) fn write_atomic(
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
    /// A journal is recovered like [`Reader::open`](super::Reader::open) does; a torn tail left by a crash is cut
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

    pub(super) fn new(
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
    pub(super) fn append(&mut self, tag: [u8; 4], parts: &[&[u8]]) -> Result<(), ContainerError> {
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

    pub(super) fn write_index(&mut self, durable: bool) -> Result<(), ContainerError> {
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
pub(super) fn write_sidecar(
    idx: &Path,
    journal: &Journal,
    durable: bool,
) -> Result<(), ContainerError> {
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
