//! [`Reader`]: either form, opened from a file (the sidecar index used when it matches) or
//! from bytes.

use std::fs::File;
use std::path::Path;
use std::sync::Mutex;

use super::compact::{parse_compact, read_entry};
use super::journal::Journal;
use super::layout::{ChunkEntry, ContainerError, IndexSource, find_in, io_err, sidecar_path};
use super::source::{Form, Store, read_file_header};

/// Reads a movie in either form.
///
/// A journal is read as it was when opened: records appended later are not seen. The torn tail
/// a crash may leave is ignored (see the module docs).
pub struct Reader {
    pub(super) store: Store,
    pub(super) file_len: u64,
    pub(super) valid_len: u64,
    pub(super) compact: bool,
    pub(super) header: Vec<u8>,
    pub(super) chunks: Vec<ChunkEntry>,
    pub(super) index_source: IndexSource,
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

    pub(super) fn build(
        store: Store,
        file_len: u64,
        idx: Option<&Path>,
    ) -> Result<Reader, ContainerError> {
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
