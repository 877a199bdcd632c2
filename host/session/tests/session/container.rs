//! The movie container's promises: journal and compact forms round-trip the same header and
//! chunks; a journal cut at any byte opens with exactly its complete records, whatever state
//! its `.idx` sidecar is in; the sidecar lets `open` skip the scan; and no mutation of either
//! form, nor random bytes, makes it panic.

use std::fs;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use gb_session::movie::container::{
    self, COMPACT_LEVEL, ChunkMeta, ContainerError, IndexSource, Reader, Writer,
};

/// A fresh, empty directory for one test.
fn test_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("container-{name}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn idx_of(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".idx");
    PathBuf::from(s)
}

/// splitmix64: a small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// A chunk payload: a slowly changing pattern with sparse noise, something like input events
/// and memory; `len` bytes.
fn payload(rng: &mut Rng, len: usize) -> Vec<u8> {
    let stride = 50 + rng.below(100) as usize;
    (0..len)
        .map(|i| {
            let noise = if i % stride == 0 { rng.next() as u8 } else { 0 };
            ((i / 13) as u8) ^ noise
        })
        .collect()
}

/// What a movie should hold: header and live chunks with their payloads.
#[derive(Clone, Debug, Default, PartialEq)]
struct Model {
    header: Vec<u8>,
    chunks: Vec<(ChunkMeta, Vec<u8>)>,
}

impl Model {
    fn next_start(&self, gap: u64) -> u64 {
        self.chunks
            .last()
            .map(|(m, _)| m.start_frame + u64::from(m.frames))
            .unwrap_or(0)
            + gap
    }
}

/// The reader holds exactly `model` (metas and payloads).
fn assert_reader(r: &Reader, model: &Model, what: &str) {
    assert_eq!(r.header(), &model.header[..], "{what}: header");
    let metas: Vec<ChunkMeta> = r.chunks().iter().map(|e| e.meta).collect();
    let want: Vec<ChunkMeta> = model.chunks.iter().map(|(m, _)| *m).collect();
    assert_eq!(metas, want, "{what}: chunk metas");
    for (i, (_, p)) in model.chunks.iter().enumerate() {
        assert_eq!(&r.read_chunk(i).unwrap(), p, "{what}: chunk {i} payload");
    }
    assert!(matches!(
        r.read_chunk(model.chunks.len()),
        Err(ContainerError::NoSuchChunk { .. })
    ));
}

fn assert_writer(w: &Writer, model: &Model) {
    assert_eq!(w.header(), &model.header[..]);
    let metas: Vec<ChunkMeta> = w.chunks().iter().map(|e| e.meta).collect();
    let want: Vec<ChunkMeta> = model.chunks.iter().map(|(m, _)| *m).collect();
    assert_eq!(metas, want);
    for (i, (_, p)) in model.chunks.iter().enumerate() {
        assert_eq!(&w.read_chunk(i).unwrap(), p, "writer chunk {i}");
    }
}

/// `find` agrees with a linear search over the model for every frame around the chunks.
fn assert_find(r: &Reader, model: &Model) {
    let end = model.next_start(3);
    for frame in 0..end {
        let want = model.chunks.iter().position(|(m, _)| {
            m.start_frame <= frame && frame < m.start_frame + u64::from(m.frames)
        });
        assert_eq!(r.find(frame), want, "find({frame})");
    }
}

fn append(w: &mut Writer, model: &mut Model, meta: ChunkMeta, p: Vec<u8>) {
    w.append_chunk(meta, &p).unwrap();
    model.chunks.push((meta, p));
}

#[test]
fn round_trip_journal_then_compact_then_in_place() {
    let dir = test_dir("round-trip");
    let path = dir.join("movie.gbmv");
    let mut rng = Rng(1);
    let mut model = Model {
        header: b"rerecords=0".to_vec(),
        ..Model::default()
    };
    let mut w = Writer::create(&path, &model.header).unwrap();
    assert_eq!(w.index_source(), IndexSource::Created);
    // Chunks of every shape: empty payload, zero frames, gaps, a large keyframe-like one.
    let sizes = [0usize, 17, 3000, 250_000, 1, 4096, 60, 0, 999, 12_345];
    for (k, &size) in sizes.iter().enumerate() {
        let meta = ChunkMeta {
            start_frame: model.next_start(if k % 3 == 2 { 5 } else { 0 }),
            frames: if k == 4 { 0 } else { 60 + k as u32 },
            flags: (k % 2) as u32,
        };
        append(&mut w, &mut model, meta, payload(&mut rng, size));
        if k == 5 {
            model.header = b"rerecords=1".to_vec();
            w.set_header(&model.header).unwrap();
        }
    }
    assert_writer(&w, &model);
    // A rerecord: drop the future, record a different one.
    w.truncate(6).unwrap();
    model.chunks.truncate(6);
    model.header = b"rerecords=2, and a longer header than before".to_vec();
    w.set_header(&model.header).unwrap();
    for k in 0..4 {
        let meta = ChunkMeta {
            start_frame: model.next_start(k),
            frames: 30,
            flags: 0xF0 | k as u32,
        };
        append(
            &mut w,
            &mut model,
            meta,
            payload(&mut rng, 500 * k as usize),
        );
    }
    w.truncate(model.chunks.len()).unwrap(); // Keeping all writes nothing.
    w.sync().unwrap();
    assert_writer(&w, &model);
    let journal_len = w.journal_len();
    drop(w);

    let r = Reader::open(&path).unwrap();
    assert!(!r.is_compact());
    assert_eq!(r.index_source(), IndexSource::Sidecar { tail_bytes: 0 });
    assert_eq!(r.file_len(), journal_len);
    assert_eq!(r.valid_len(), journal_len);
    assert_reader(&r, &model, "journal (sidecar)");
    assert_find(&r, &model);
    let r = Reader::from_bytes(fs::read(&path).unwrap()).unwrap();
    assert_eq!(r.index_source(), IndexSource::Scan);
    assert_reader(&r, &model, "journal bytes");

    let dst = dir.join("final.gbmv");
    container::compact(&path, &dst, COMPACT_LEVEL).unwrap();
    let r = Reader::open(&dst).unwrap();
    assert!(r.is_compact());
    assert_eq!(r.index_source(), IndexSource::Compact);
    assert_reader(&r, &model, "compact");
    assert_find(&r, &model);
    assert!(!idx_of(&dst).exists());
    let compact_len = r.file_len();
    println!("journal {journal_len} bytes, compact {compact_len} bytes");
    assert!(compact_len < journal_len);
    let bytes = fs::read(&dst).unwrap();
    assert_reader(&Reader::from_bytes(bytes).unwrap(), &model, "compact bytes");
    // Compacting a compact file gives the same bytes.
    let again = dir.join("again.gbmv");
    container::compact(&dst, &again, COMPACT_LEVEL).unwrap();
    assert_eq!(fs::read(&dst).unwrap(), fs::read(&again).unwrap());

    // In place: the journal becomes compact, its sidecar goes.
    assert!(idx_of(&path).exists());
    container::compact(&path, &path, COMPACT_LEVEL).unwrap();
    assert!(!idx_of(&path).exists());
    let r = Reader::open(&path).unwrap();
    assert!(r.is_compact());
    assert_reader(&r, &model, "compacted in place");
    assert_eq!(fs::read(&path).unwrap(), fs::read(&dst).unwrap());
    // No temp file left behind.
    let mut names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["again.gbmv", "final.gbmv", "movie.gbmv"]);
    assert!(matches!(
        container::compact(&path, &dst, 1000),
        Err(ContainerError::BadLevel { .. })
    ));
}

#[test]
fn resume_continues_a_journal_and_reopens_a_compact_file() {
    let dir = test_dir("resume");
    let path = dir.join("movie.gbmv");
    let mut rng = Rng(2);
    let mut model = Model {
        header: b"h".to_vec(),
        ..Model::default()
    };
    let mut w = Writer::create(&path, &model.header).unwrap();
    for _ in 0..3 {
        let meta = ChunkMeta {
            start_frame: model.next_start(0),
            frames: 10,
            flags: 1,
        };
        append(&mut w, &mut model, meta, payload(&mut rng, 700));
    }
    drop(w);

    let mut w = Writer::resume(&path).unwrap();
    assert_eq!(w.index_source(), IndexSource::Sidecar { tail_bytes: 0 });
    assert_eq!(w.discarded_len(), 0);
    assert_writer(&w, &model);
    let meta = ChunkMeta {
        start_frame: model.next_start(0),
        frames: 10,
        flags: 0,
    };
    append(&mut w, &mut model, meta, payload(&mut rng, 100));
    drop(w);
    assert_reader(&Reader::open(&path).unwrap(), &model, "resumed journal");

    // A compact file turns back into a journal, atomically, and recording goes on.
    container::compact(&path, &path, COMPACT_LEVEL).unwrap();
    let mut w = Writer::resume(&path).unwrap();
    assert_eq!(w.index_source(), IndexSource::Compact);
    assert_writer(&w, &model);
    w.truncate(2).unwrap();
    model.chunks.truncate(2);
    let meta = ChunkMeta {
        start_frame: model.next_start(1),
        frames: 5,
        flags: 7,
    };
    append(&mut w, &mut model, meta, payload(&mut rng, 300));
    model.header = b"h2".to_vec();
    w.set_header(&model.header).unwrap();
    drop(w);
    let r = Reader::open(&path).unwrap();
    assert!(!r.is_compact());
    assert_eq!(r.index_source(), IndexSource::Sidecar { tail_bytes: 0 });
    assert_reader(&r, &model, "journal from a compact file");
}

#[test]
fn create_refuses_to_clobber_and_writers_exclude_each_other() {
    let dir = test_dir("clobber");
    let path = dir.join("movie.gbmv");
    let w = Writer::create(&path, b"x").unwrap();
    let e = Writer::create(&path, b"y").err().unwrap();
    assert!(matches!(e, ContainerError::AlreadyExists(_)), "{e}");
    println!("{e}");
    let e = Writer::resume(&path).err().unwrap();
    assert!(matches!(e, ContainerError::Locked(_)), "{e}");
    println!("{e}");
    drop(w);
    assert!(Writer::resume(&path).is_ok());
    assert_eq!(Reader::open(&path).unwrap().header(), b"x");
    let e = Reader::open(&dir.join("missing.gbmv")).err().unwrap();
    println!("{e}");
    assert!(matches!(e, ContainerError::Io { .. }));
}

#[test]
fn invalid_appends_are_refused_and_write_nothing() {
    let dir = test_dir("invalid");
    let path = dir.join("movie.gbmv");
    let mut w = Writer::create(&path, b"").unwrap();
    let meta = |start_frame, frames| ChunkMeta {
        start_frame,
        frames,
        flags: 0,
    };
    w.append_chunk(meta(100, 50), b"a").unwrap();
    let len = w.journal_len();
    for (bad, what) in [
        (meta(149, 1), "overlap"),
        (meta(0, 1), "before"),
        (meta(u64::MAX, 1), "overflow"),
    ] {
        let e = w.append_chunk(bad, b"b").err().unwrap();
        println!("{what}: {e}");
        assert!(matches!(e, ContainerError::InvalidChunk(_)));
    }
    let e = w.truncate(2).err().unwrap();
    println!("{e}");
    assert!(matches!(
        e,
        ContainerError::TruncateBeyond { keep: 2, count: 1 }
    ));
    assert!(matches!(
        w.read_chunk(1),
        Err(ContainerError::NoSuchChunk { index: 1, count: 1 })
    ));
    assert_eq!(w.journal_len(), len);
    w.append_chunk(meta(150, 1), b"c").unwrap();
    w.append_chunk(meta(u64::MAX - 1, 1), b"d").unwrap();
    let r = Reader::open(&path).unwrap();
    assert_eq!(r.chunks().len(), 3);
    assert_eq!(r.find(u64::MAX - 1), Some(2));
    assert_eq!(r.find(u64::MAX), None);
    assert_eq!(r.find(99), None);
    assert_eq!(r.find(150), Some(1));
}

#[test]
fn the_sidecar_written_after_each_append_lets_open_skip_the_scan() {
    let dir = test_dir("sidecar");
    let path = dir.join("movie.gbmv");
    let idx = idx_of(&path);
    let mut rng = Rng(3);
    let mut model = Model::default();
    let mut w = Writer::create(&path, b"").unwrap();
    for k in 0..8 {
        let before = fs::read(&idx).unwrap();
        let before_len = w.journal_len();
        let meta = ChunkMeta {
            start_frame: model.next_start(0),
            frames: 20,
            flags: 0,
        };
        append(&mut w, &mut model, meta, payload(&mut rng, 400));
        if k == 4 {
            w.truncate(3).unwrap();
            model.chunks.truncate(3);
        }
        // Up to date after every append: no scan at all.
        let r = Reader::open(&path).unwrap();
        assert_eq!(r.index_source(), IndexSource::Sidecar { tail_bytes: 0 });
        assert_reader(&r, &model, "sidecar");

        // The sidecar of before the append (a crash between the append and the index
        // rewrite): used, and only the new records are scanned.
        let current = fs::read(&idx).unwrap();
        fs::write(&idx, &before).unwrap();
        let r = Reader::open(&path).unwrap();
        assert_eq!(
            r.index_source(),
            IndexSource::Sidecar {
                tail_bytes: w.journal_len() - before_len
            }
        );
        assert_reader(&r, &model, "sidecar + tail");

        // Missing or corrupt: a scan, same result.
        fs::remove_file(&idx).unwrap();
        let r = Reader::open(&path).unwrap();
        assert_eq!(r.index_source(), IndexSource::Scan);
        assert_reader(&r, &model, "no sidecar");
        let mut bad = current.clone();
        let at = rng.below(bad.len() as u64) as usize;
        bad[at] ^= 1 << rng.below(8);
        fs::write(&idx, &bad).unwrap();
        let r = Reader::open(&path).unwrap();
        assert_eq!(r.index_source(), IndexSource::Scan);
        assert_reader(&r, &model, "corrupt sidecar");
        fs::write(&idx, &current).unwrap();
    }
    drop(w);

    // Another journal's sidecar (another id) is not used, even with the same length.
    let other = dir.join("other.gbmv");
    fs::copy(&path, &other).unwrap();
    let mut w2 = Writer::create(&dir.join("third.gbmv"), b"").unwrap();
    w2.append_chunk(
        ChunkMeta {
            start_frame: 0,
            frames: 1,
            flags: 0,
        },
        b"z",
    )
    .unwrap();
    fs::copy(idx_of(&dir.join("third.gbmv")), idx_of(&other)).unwrap();
    let r = Reader::open(&other).unwrap();
    assert_eq!(r.index_source(), IndexSource::Scan);
    assert_reader(&r, &model, "foreign sidecar");

    // A journal rewritten differently at the same length, with the old sidecar: the last
    // record's crc no longer matches, so the sidecar is not trusted.
    let mut bytes = fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n - 1] ^= 0xFF; // the last record is now corrupt: a torn tail
    fs::write(&other, &bytes).unwrap();
    fs::copy(&idx, idx_of(&other)).unwrap();
    let r = Reader::open(&other).unwrap();
    assert_eq!(r.index_source(), IndexSource::Scan);
    assert!(r.valid_len() < r.file_len());
}

#[test]
fn damage_in_the_middle_is_not_taken_for_a_crash_tail() {
    let dir = test_dir("middle");
    let path = dir.join("movie.gbmv");
    let mut rng = Rng(6);
    let mut model = Model::default();
    let mut w = Writer::create(&path, b"").unwrap();
    let mut ends = Vec::new();
    for _ in 0..5 {
        let meta = ChunkMeta {
            start_frame: model.next_start(0),
            frames: 4,
            flags: 0,
        };
        append(&mut w, &mut model, meta, payload(&mut rng, 200));
        ends.push(w.journal_len());
    }
    drop(w);
    // Flip a byte inside the third chunk's record.
    let mut bytes = fs::read(&path).unwrap();
    let at = (ends[1] + 40) as usize;
    bytes[at] ^= 0x40;
    fs::write(&path, &bytes).unwrap();

    // With the sidecar, nothing is scanned: the damage shows only when chunk 2 is read.
    let r = Reader::open(&path).unwrap();
    assert_eq!(r.index_source(), IndexSource::Sidecar { tail_bytes: 0 });
    assert_eq!(r.chunks().len(), 5);
    let e = r.read_chunk(2).unwrap_err();
    println!("{e}");
    assert!(matches!(e, ContainerError::BadChunk { index: 2, .. }));
    assert_eq!(r.read_chunk(3).unwrap(), model.chunks[3].1);
    // A scan stops at the damage.
    let r = Reader::from_bytes(bytes).unwrap();
    assert_eq!(r.chunks().len(), 2);
    assert_eq!(r.valid_len(), ends[1]);
    // Resuming would cut intact records off: refused, the file untouched.
    fs::remove_file(idx_of(&path)).unwrap();
    let e = Writer::resume(&path).err().unwrap();
    println!("{e}");
    assert!(matches!(e, ContainerError::Corrupt(_)));
    assert_eq!(fs::metadata(&path).unwrap().len(), ends[4]);
    // Compacting keeps what precedes the damage.
    let saved = dir.join("saved.gbmv");
    container::compact(&path, &saved, 3).unwrap();
    model.chunks.truncate(2);
    assert_reader(&Reader::open(&saved).unwrap(), &model, "saved");
}

/// One step of the recorded journal: where it ends and what the movie holds after it.
struct Step {
    end: u64,
    model: Model,
    sidecar: Vec<u8>,
}

#[test]
fn a_journal_cut_at_any_length_opens_with_exactly_its_complete_records() {
    let dir = test_dir("crash");
    let path = dir.join("movie.gbmv");
    let idx = idx_of(&path);
    let mut rng = Rng(4);
    let mut model = Model {
        header: b"rerecords=0".to_vec(),
        ..Model::default()
    };
    let mut w = Writer::create(&path, &model.header).unwrap();
    let mut steps = vec![Step {
        end: w.journal_len(),
        model: model.clone(),
        sidecar: fs::read(&idx).unwrap(),
    }];
    for k in 0..14u64 {
        match k {
            5 | 11 => {
                model.header = format!("rerecords={k}").into_bytes();
                w.set_header(&model.header).unwrap();
            }
            8 => {
                w.truncate(4).unwrap();
                model.chunks.truncate(4);
            }
            _ => {
                let meta = ChunkMeta {
                    start_frame: model.next_start(k % 2),
                    frames: 1 + k as u32,
                    flags: k as u32,
                };
                let len = rng.below(300) as usize;
                append(&mut w, &mut model, meta, payload(&mut rng, len));
            }
        }
        steps.push(Step {
            end: w.journal_len(),
            model: model.clone(),
            sidecar: fs::read(&idx).unwrap(),
        });
    }
    drop(w);
    let full = fs::read(&path).unwrap();
    let final_idx = fs::read(&idx).unwrap();
    assert_eq!(full.len() as u64, steps.last().unwrap().end);
    let mut corrupt_idx = final_idx.clone();
    corrupt_idx[30] ^= 0x10;

    let cut = dir.join("cut.gbmv");
    let cut_idx = idx_of(&cut);
    let empty = Model::default();
    let (mut opens, mut resumes) = (0, 0);
    for len in 0..=full.len() {
        let bytes = &full[..len];
        if len < 20 {
            // Not even a file header: a clear error, never a panic.
            let e = Reader::from_bytes(bytes.to_vec()).err().unwrap();
            assert!(
                matches!(e, ContainerError::NotAMovie | ContainerError::Corrupt(_)),
                "{e}"
            );
            continue;
        }
        // The last step whose records are all in `bytes`.
        let step = steps.iter().rev().find(|s| s.end <= len as u64);
        let (want, step_end) = match step {
            Some(s) => (&s.model, s.end),
            None => (&empty, 20),
        };
        let what = format!("cut at {len}");
        let r = Reader::from_bytes(bytes.to_vec()).unwrap();
        assert_eq!(r.valid_len(), step_end, "{what}");
        assert_reader(&r, want, &what);

        fs::write(&cut, bytes).unwrap();
        let sidecars: [(&str, Option<&[u8]>); 4] = [
            ("missing", None),
            ("final", Some(&final_idx)),
            ("corrupt", Some(&corrupt_idx)),
            ("matching", step.map(|s| &s.sidecar[..])),
        ];
        for (name, sidecar) in sidecars {
            match sidecar {
                Some(b) => fs::write(&cut_idx, b).unwrap(),
                None => {
                    let _ = fs::remove_file(&cut_idx);
                }
            }
            let r = Reader::open(&cut).unwrap();
            opens += 1;
            let what = format!("cut at {len}, {name} sidecar");
            assert_reader(&r, want, &what);
            assert_eq!(r.valid_len(), step_end, "{what}");
            let expected = match name {
                "final" if len == full.len() => IndexSource::Sidecar { tail_bytes: 0 },
                "matching" if sidecar.is_some() => IndexSource::Sidecar {
                    tail_bytes: len as u64 - step_end,
                },
                _ => IndexSource::Scan,
            };
            assert_eq!(r.index_source(), expected, "{what}");
        }
        // Resuming cuts the torn tail off and goes on recording (not at every length: each
        // resume flushes to the disk).
        if len % 7 == 0 || len == full.len() || steps.iter().any(|s| s.end == len as u64) {
            let mut w = Writer::resume(&cut).unwrap();
            resumes += 1;
            assert_eq!(w.discarded_len(), len as u64 - step_end);
            assert_writer(&w, want);
            let mut more = want.clone();
            let meta = ChunkMeta {
                start_frame: more.next_start(0),
                frames: 3,
                flags: 0,
            };
            append(&mut w, &mut more, meta, b"after the crash".to_vec());
            drop(w);
            let r = Reader::open(&cut).unwrap();
            assert_eq!(r.index_source(), IndexSource::Sidecar { tail_bytes: 0 });
            assert_reader(&r, &more, "resumed");
            assert_reader(
                &Reader::from_bytes(fs::read(&cut).unwrap()).unwrap(),
                &more,
                "resumed, scanned",
            );
        }
    }
    println!(
        "{} lengths, {opens} opens, {resumes} resumes over a journal of {} records",
        full.len() + 1,
        steps.len()
    );
}

// -------------------------------------------------------------------------------------------
// Fuzzing.

fn crc32(parts: &[&[u8]]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    for p in parts {
        h.update(p);
    }
    h.finalize()
}

fn get_u32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn set_u32(b: &mut [u8], at: usize, v: u32) {
    if let Some(s) = b.get_mut(at..at + 4) {
        s.copy_from_slice(&v.to_le_bytes());
    }
}

/// Recompute every crc the layout has (as far as the lengths allow), so that a mutation gets
/// past the checksums and into the parsing behind them.
fn refix(b: &mut [u8]) {
    if b.len() >= 20 {
        let c = crc32(&[&b[..16]]);
        set_u32(b, 16, c);
    }
    match b.get(6) {
        Some(1) => {
            let mut off = 20;
            while let Some(len) = get_u32(b, off + 4) {
                let end = off + 12 + len as usize;
                if end > b.len() {
                    break;
                }
                let c = crc32(&[&b[off..off + 8], &b[off + 12..end]]);
                set_u32(b, off + 8, c);
                off = end;
            }
        }
        Some(2) => {
            let Some(h) = get_u32(b, 20) else { return };
            let end = 28 + h as usize;
            if end > b.len() {
                return;
            }
            let c = crc32(&[&b[20..24], &b[28..end]]);
            set_u32(b, 24, c);
            let Some(count) = get_u32(b, end) else { return };
            let iend = end + 8 + 36 * count as usize;
            if iend > b.len() {
                return;
            }
            let c = crc32(&[&b[end..end + 4], &b[end + 8..iend]]);
            set_u32(b, end + 4, c);
        }
        _ => {}
    }
}

fn refix_sidecar(b: &mut [u8]) {
    if b.len() >= 4 {
        let n = b.len();
        let c = crc32(&[&b[..n - 4]]);
        set_u32(b, n - 4, c);
    }
}

const EXTREMES: [u64; 8] = [
    0,
    1,
    0x7FFF_FFFF,
    0x8000_0000,
    0xFFFF_FFFF,
    0xFFFF_FFFF_FFFF_FFFF,
    0x8000_0000_0000_0000,
    0x1_0000_0000,
];

fn mutate(rng: &mut Rng, b: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(4) {
        let n = b.len() as u64;
        match rng.below(9) {
            0 | 1 if n > 0 => {
                let at = rng.below(n) as usize;
                b[at] ^= 1 << rng.below(8);
            }
            2 if n > 0 => {
                let at = rng.below(n) as usize;
                b[at] = rng.next() as u8;
            }
            3 => b.truncate(rng.below(n + 1) as usize),
            4 => {
                let extra = rng.below(64) as usize;
                b.extend(rng.bytes(extra));
            }
            // A huge or odd length field: a u32 at a random place (often a field start).
            5 | 6 if n >= 4 => {
                let at = rng.below(n - 3) as usize;
                let v = EXTREMES[rng.below(8) as usize] as u32;
                let v = if rng.below(3) == 0 {
                    v.wrapping_add(rng.below(64) as u32)
                } else {
                    v
                };
                b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            }
            7 if n >= 8 => {
                let at = rng.below(n - 7) as usize;
                let v = EXTREMES[rng.below(8) as usize];
                b[at..at + 8].copy_from_slice(&v.to_le_bytes());
            }
            // Copy a range elsewhere (records or entries out of place).
            _ if n >= 2 => {
                let from = rng.below(n) as usize;
                let to = rng.below(n) as usize;
                let len = (rng.below(64) as usize).min(b.len() - from.max(to));
                b.copy_within(from..from + len, to);
            }
            _ => {}
        }
    }
}

/// Everything a reader offers; errors are fine, panics are not. Counts chunk reads.
fn exercise(r: &Reader, counts: &mut Counts) {
    let _ = r.header().len();
    let n = r.chunks().len();
    for i in 0..n.min(64) {
        match r.read_chunk(i) {
            Ok(_) => counts.chunks_read += 1,
            Err(_) => counts.chunk_errors += 1,
        }
    }
    let _ = r.read_chunk(n);
    for e in r.chunks().iter().take(8) {
        let _ = r.find(e.meta.start_frame);
    }
    let _ = r.find(u64::MAX);
    let _ = (
        r.is_compact(),
        r.file_len(),
        r.valid_len(),
        r.index_source(),
    );
}

#[derive(Default, Debug)]
struct Counts {
    runs: u64,
    from_bytes: u64,
    opens: u64,
    resumes: u64,
    accepted: u64,
    chunks_read: u64,
    chunk_errors: u64,
    /// `from_bytes` errors by kind.
    not_a_movie: u64,
    unsupported_version: u64,
    corrupt: u64,
    other_errors: u64,
}

impl Counts {
    fn error(&mut self, e: &ContainerError) {
        match e {
            ContainerError::NotAMovie => self.not_a_movie += 1,
            ContainerError::UnsupportedVersion { .. } => self.unsupported_version += 1,
            ContainerError::Corrupt(_) => self.corrupt += 1,
            _ => self.other_errors += 1,
        }
    }
}

#[test]
fn fuzz_mutated_and_random_files_never_panic() {
    let iterations: u64 = std::env::var("CONTAINER_FUZZ_ITERATIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(24_000);
    let dir = test_dir("fuzz");
    let path = dir.join("movie.gbmv");
    let mut rng = Rng(5);
    let mut model = Model {
        header: b"seed".to_vec(),
        ..Model::default()
    };
    let mut w = Writer::create(&path, &model.header).unwrap();
    for k in 0..9u64 {
        let meta = ChunkMeta {
            start_frame: model.next_start(k % 3),
            frames: 10 + k as u32,
            flags: k as u32 & 1,
        };
        let len = 50 + rng.below(900) as usize;
        append(&mut w, &mut model, meta, payload(&mut rng, len));
        if k == 4 {
            w.truncate(3).unwrap();
            model.chunks.truncate(3);
            w.set_header(b"seed, rerecord 1").unwrap();
        }
    }
    drop(w);
    let journal = fs::read(&path).unwrap();
    let sidecar = fs::read(idx_of(&path)).unwrap();
    let compact_path = dir.join("compact.gbmv");
    container::compact(&path, &compact_path, COMPACT_LEVEL).unwrap();
    let compact = fs::read(&compact_path).unwrap();
    println!(
        "fuzz seeds: journal {} bytes, sidecar {} bytes, compact {} bytes",
        journal.len(),
        sidecar.len(),
        compact.len()
    );

    let file = dir.join("fuzz.gbmv");
    let file_idx = idx_of(&file);
    let mut counts = Counts::default();
    for iter in 0..iterations {
        let kind = rng.below(10);
        let mut bytes = match kind {
            0..=3 => journal.clone(),
            4..=7 => compact.clone(),
            8 => journal.clone(), // intact journal, mutated sidecar
            _ => {
                // Random bytes, often behind a valid-looking file header.
                let len = rng.below(300) as usize;
                let mut b = rng.bytes(len);
                if rng.below(2) == 0 && b.len() >= 20 {
                    b[..4].copy_from_slice(b"GBMV");
                    b[4..8].copy_from_slice(&[1, 0, 1 + rng.below(2) as u8, 0]);
                    refix(&mut b);
                }
                b
            }
        };
        let mut idx = sidecar.clone();
        if kind == 8 {
            mutate(&mut rng, &mut idx);
            if rng.below(2) == 0 {
                refix_sidecar(&mut idx);
            }
        } else if kind <= 7 {
            mutate(&mut rng, &mut bytes);
            if rng.below(2) == 0 {
                refix(&mut bytes);
            }
        }
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            counts.runs += 1;
            counts.from_bytes += 1;
            match Reader::from_bytes(bytes.clone()) {
                Ok(r) => {
                    counts.accepted += 1;
                    exercise(&r, &mut counts);
                }
                Err(e) => counts.error(&e),
            }
            // Through a file too, next to the (possibly mutated) sidecar.
            {
                fs::write(&file, &bytes).unwrap();
                fs::write(&file_idx, &idx).unwrap();
                counts.opens += 1;
                if let Ok(r) = Reader::open(&file) {
                    exercise(&r, &mut counts);
                }
                if iter % 80 == 0 {
                    counts.resumes += 1;
                    if let Ok(mut w) = Writer::resume(&file) {
                        let start = w
                            .chunks()
                            .last()
                            .map_or(0, |e| e.meta.start_frame + u64::from(e.meta.frames));
                        let meta = ChunkMeta {
                            start_frame: start,
                            frames: 1,
                            flags: 0,
                        };
                        let _ = w.append_chunk(meta, b"more");
                        let n = w.chunks().len();
                        let _ = w.read_chunk(n.saturating_sub(1));
                    }
                }
            }
        }));
        if outcome.is_err() {
            let saved = dir.join(format!("panic-{iter}.bin"));
            fs::write(&saved, &bytes).unwrap();
            fs::write(dir.join(format!("panic-{iter}.idx")), &idx).unwrap();
            panic!(
                "iteration {iter} panicked; input saved to {}",
                saved.display()
            );
        }
    }
    println!("fuzz executions: {counts:#?}");
    assert!(counts.opens >= 20_000 || iterations < 20_000);
    assert!(counts.accepted > 0);
}

#[test]
fn foreign_files_get_clear_errors() {
    let cases: [(&str, Vec<u8>); 5] = [
        ("empty", vec![]),
        ("png", b"\x89PNG\r\n\x1a\n and so on".to_vec()),
        ("short", b"GBM".to_vec()),
        ("future version", {
            let mut b = b"GBMV\x09\x00\x01\x00".to_vec();
            b.extend([0; 12]);
            b
        }),
        ("bad header crc", {
            let mut b = b"GBMV\x01\x00\x02\x00".to_vec();
            b.extend([0; 12]);
            b
        }),
    ];
    for (what, bytes) in cases {
        let e = Reader::from_bytes(bytes).err().unwrap();
        println!("{what}: {e}");
        match what {
            "empty" | "png" => assert!(matches!(e, ContainerError::NotAMovie)),
            "future version" => {
                assert!(matches!(e, ContainerError::UnsupportedVersion { found: 9 }))
            }
            _ => assert!(matches!(e, ContainerError::Corrupt(_))),
        }
    }
}
