//! Where the bytes come from: a file (positioned reads under a lock) or bytes in memory, and
//! the file header that says which form a file is.

use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use super::layout::{
    ContainerError, FILE_HEADER_LEN, FORM_COMPACT, FORM_JOURNAL, MAGIC, VERSION, corrupt, crc,
    io_err, u16_at, u32_at, u64_at,
};

/// Where bytes are read from: a file (positioned reads under a lock) or bytes in memory.
#[derive(Clone, Copy)]
pub(super) enum Source<'a> {
    Bytes(&'a [u8]),
    File(&'a Mutex<File>, &'a Path),
}

impl<'a> Source<'a> {
    /// Read `len` bytes at `off`; the caller has checked `off + len` against the length.
    pub(super) fn read_at(self, off: u64, len: usize) -> Result<Vec<u8>, ContainerError> {
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
    pub(super) fn stream_from(
        self,
        from: u64,
        file_len: u64,
    ) -> Result<Box<dyn Read + 'a>, ContainerError> {
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

/// What a [`Reader`](super::Reader) reads from.
pub(super) enum Store {
    Bytes(Vec<u8>),
    File(Mutex<File>, PathBuf),
}

impl Store {
    pub(super) fn source(&self) -> Source<'_> {
        match self {
            Store::Bytes(b) => Source::Bytes(b),
            Store::File(f, p) => Source::File(f, p),
        }
    }
}

pub(super) struct LockedFile<'a>(std::sync::MutexGuard<'a, File>);

impl Read for LockedFile<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

pub(super) fn read_file_at(
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
pub(super) enum Form {
    Journal { id: u64 },
    Compact,
}

pub(super) fn read_file_header(src: Source<'_>, file_len: u64) -> Result<Form, ContainerError> {
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
