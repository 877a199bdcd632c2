//! The container's tests: round trips, a journal cut at every length with its sidecar
//! missing, stale, corrupt or matching, fuzzed inputs.

use super::compact::decode_chunk;
use super::journal::{Journal, intact_record_after, record};
use super::layout::{
    ChunkEntry, ChunkMeta, ENTRY_LEN, FILE_HEADER_LEN, FORM_COMPACT, FORM_JOURNAL,
    SIDECAR_FIXED_LEN, TAG_CHUNK, TAG_HEADER, crc, file_header, find_in, get_entries, put_entry,
};
use super::source::{Form, Source, read_file_header};
use std::io::Write;

fn entry(start_frame: u64, frames: u32) -> ChunkEntry {
    ChunkEntry {
        meta: ChunkMeta {
            start_frame,
            frames,
            flags: 0xA5A5_0001,
        },
        offset: 1234,
        compressed_len: 56,
        raw_len: 78,
        raw_crc: 0xDEAD_BEEF,
    }
}

#[test]
fn layout_sizes_match_the_docs() {
    assert_eq!(file_header(FORM_JOURNAL, 7).len() as u64, FILE_HEADER_LEN);
    assert_eq!(record(TAG_HEADER, &[b"abc"]).unwrap().len(), 12 + 3);
    let mut j = Journal::new(9);
    j.chunks = vec![entry(0, 1), entry(5, 2)];
    assert_eq!(j.sidecar_bytes().len(), SIDECAR_FIXED_LEN + 2 * ENTRY_LEN);
    let mut b = Vec::new();
    put_entry(&mut b, &j.chunks[1]);
    assert_eq!(b.len(), ENTRY_LEN);
    assert_eq!(get_entries(&b), vec![j.chunks[1]]);
    let h = file_header(FORM_COMPACT, 0);
    let form = read_file_header(Source::Bytes(&h), h.len() as u64).unwrap();
    assert!(matches!(form, Form::Compact));
}

#[test]
fn find_handles_gaps_and_empty_chunks() {
    let chunks = [entry(0, 10), entry(10, 0), entry(12, 3), entry(15, 0)];
    let got: Vec<Option<usize>> = (0..17).map(|f| find_in(&chunks, f)).collect();
    let mut want = vec![Some(0); 10];
    want.extend([None, None, Some(2), Some(2), Some(2), None, None]);
    assert_eq!(got, want);
    assert_eq!(find_in(&[], 0), None);
}

#[test]
fn chunk_bytes_are_checked_before_and_after_decompression() {
    let raw = b"a payload, a payload, a payload".to_vec();
    let data = zstd::bulk::compress(&raw, 3).unwrap();
    let good = ChunkEntry {
        compressed_len: data.len() as u32,
        raw_len: raw.len() as u32,
        raw_crc: crc(&[&raw]),
        ..entry(0, 1)
    };
    assert_eq!(decode_chunk(&data, &good).unwrap(), raw);
    let bad = |e: ChunkEntry, d: &[u8]| decode_chunk(d, &e).unwrap_err();
    // Lengths disagree, crc differs, trailing bytes, a second frame.
    assert!(bad(ChunkEntry { raw_len: 5, ..good }, &data).contains("holds"));
    assert!(bad(ChunkEntry { raw_crc: 1, ..good }, &data).contains("checksum"));
    let mut two = data.clone();
    two.extend_from_slice(&data);
    assert!(bad(good, &two).contains("one zstd frame"));
    // A streamed frame that does not declare its size.
    let mut streamed = Vec::new();
    let mut enc = zstd::stream::write::Encoder::new(&mut streamed, 3).unwrap();
    enc.write_all(&raw).unwrap();
    enc.finish().unwrap();
    assert!(bad(good, &streamed).contains("declares its size"));
    assert!(bad(good, b"not zstd").contains("zstd"));
    assert!(bad(good, b"").contains("zstd"));
}

#[test]
fn an_intact_record_after_damage_is_found_across_windows() {
    let rec = record(TAG_CHUNK, &[&[7; 40]]).unwrap();
    for gap in [0usize, 1, 5, (1 << 20) - 2, (1 << 20) + 3] {
        let mut b = vec![0xEE; 100 + gap];
        b.extend_from_slice(&rec);
        b.extend_from_slice(b"CHN");
        let len = b.len() as u64;
        let at = intact_record_after(Source::Bytes(&b), 99, len).unwrap();
        assert_eq!(at, Some(100 + gap as u64), "gap {gap}");
        let n = b.len();
        b[n - 4] ^= 1; // now torn
        assert_eq!(
            intact_record_after(Source::Bytes(&b), 99, len).unwrap(),
            None
        );
    }
}
