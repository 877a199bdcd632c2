//! Word-wise XOR diffs with zero-run coding: the raw diff machinery of the rewind ring.
//!
//! Two byte strings `a` and `b` are compared as little-endian 64-bit words (both zero-extended
//! to the longer one, rounded up to whole words). The encoding of `a XOR b` is:
//!
//! ```text
//! varint total_words
//! repeat until total_words are covered:
//!     varint zero_words       words where a and b agree
//!     literal words           words where they differ, each as:
//!         mask byte           bit i set when byte i of the XOR word is nonzero (never 0)
//!         the nonzero bytes   in order
//!     0x00                    end of the run (a mask is never 0)
//! ```
//!
//! Varints are LEB128. A run with no zero words and no literals never occurs. Because XOR is
//! its own inverse, one encoding moves `a` to `b` *and* `b` to `a`: a chain of per-frame diffs
//! decodes forward from a keyframe and backward from the live state. Applying touches only the
//! literal words, so it costs time in proportion to what changed. The masked literals keep a
//! word in which only a mark byte changed (the common case under garbage collection) at 2
//! bytes instead of 8.

use crate::error::CodecError;

/// Append `v` as LEB128.
fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Read a LEB128 value at `*i`.
fn get_varint(b: &[u8], i: &mut usize) -> Result<u64, CodecError> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let x = *b.get(*i).ok_or(CodecError::Corrupt)?;
        *i += 1;
        v |= u64::from(x & 0x7f) << shift;
        if x < 0x80 {
            return Ok(v);
        }
    }
    Err(CodecError::Corrupt)
}

/// Word `i` of `s`, zero-extended past its end.
#[inline]
fn word(s: &[u8], i: usize) -> u64 {
    let start = i * 8;
    match s.get(start..start + 8) {
        Some(c) => load(c),
        None if start < s.len() => {
            let mut w = [0u8; 8];
            w[..s.len() - start].copy_from_slice(&s[start..]);
            u64::from_le_bytes(w)
        }
        None => 0,
    }
}

/// An 8-byte chunk as a little-endian word.
#[inline(always)]
fn load(c: &[u8]) -> u64 {
    u64::from_le_bytes(c.try_into().unwrap_or([0; 8]))
}

/// Whether two 64-byte blocks are equal (branch-free, so the compiler vectorizes it).
#[inline(always)]
fn block_eq(a: &[u8], b: &[u8]) -> bool {
    let mut acc = 0u64;
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        acc |= load(x) ^ load(y);
    }
    acc == 0
}

/// Number of words the encoding of `a` vs `b` covers.
pub fn total_words(a_len: usize, b_len: usize) -> usize {
    a_len.max(b_len).div_ceil(8)
}

/// Append one masked literal (`x != 0`).
#[inline(always)]
fn put_literal(out: &mut Vec<u8>, x: u64) {
    let mut lit = [0u8; 9];
    let mut n = 1;
    for (bit, byte) in x.to_le_bytes().into_iter().enumerate() {
        lit[n] = byte;
        let nonzero = byte != 0;
        lit[0] |= u8::from(nonzero) << bit;
        n += usize::from(nonzero);
    }
    out.extend_from_slice(&lit[..n]);
}

/// Run-length state of the encoder, writing straight into the output.
struct Runs<'o> {
    out: &'o mut Vec<u8>,
    zeros: u64,
    in_literals: bool,
}

impl Runs<'_> {
    #[inline(always)]
    fn zero(&mut self, n: u64) {
        if self.in_literals {
            self.out.push(0);
            self.in_literals = false;
        }
        self.zeros += n;
    }

    #[inline(always)]
    fn literal(&mut self, x: u64) {
        if !self.in_literals {
            put_varint(self.out, self.zeros);
            self.zeros = 0;
            self.in_literals = true;
        }
        put_literal(self.out, x);
    }

    fn finish(mut self) {
        if self.in_literals {
            self.out.push(0);
        } else if self.zeros > 0 {
            put_varint(self.out, self.zeros);
            self.out.push(0);
            self.zeros = 0;
        }
    }
}

/// Append the encoding of `a XOR b` to `out`.
pub fn encode(a: &[u8], b: &[u8], out: &mut Vec<u8>) {
    let total = total_words(a.len(), b.len());
    put_varint(out, total as u64);
    let mut runs = Runs {
        out,
        zeros: 0,
        in_literals: false,
    };
    // Words both inputs have in full: 64-byte blocks first, skipping equal ones fast.
    let common = a.len().min(b.len()) / 8;
    let blocks = common / 8;
    for (x, y) in a.chunks_exact(64).zip(b.chunks_exact(64)).take(blocks) {
        if block_eq(x, y) {
            runs.zero(8);
            continue;
        }
        for (p, q) in x.chunks_exact(8).zip(y.chunks_exact(8)) {
            let d = load(p) ^ load(q);
            if d == 0 {
                runs.zero(1);
            } else {
                runs.literal(d);
            }
        }
    }
    // The rest, zero-extended.
    for i in blocks * 8..total {
        let d = word(a, i) ^ word(b, i);
        if d == 0 {
            runs.zero(1);
        } else {
            runs.literal(d);
        }
    }
    runs.finish();
}

/// Append the encoding of `old XOR new` to `out` (exactly what [`encode`] appends) and make
/// `old` equal to `new`, writing only the words that differ: the rewind ring's per-frame step,
/// which keeps the previous frame's bytes up to date at the cost of one compare.
pub fn encode_and_update(old: &mut Vec<u8>, new: &[u8], out: &mut Vec<u8>) {
    let len = old.len().max(new.len());
    encode_and_update_dirty(old, new, std::iter::once(0..len), out);
}

/// [`encode_and_update`] comparing only the bytes in `dirty`: sorted, disjoint byte ranges
/// starting at multiples of 64. The caller guarantees that `old` and `new` (zero-extended)
/// agree everywhere else; then the output is exactly what [`encode_and_update`] gives. Ranges
/// are clamped to the inputs, and overlapping or unsorted ones are trimmed, never a panic.
pub(crate) fn encode_and_update_dirty(
    old: &mut Vec<u8>,
    new: &[u8],
    dirty: impl Iterator<Item = std::ops::Range<usize>>,
    out: &mut Vec<u8>,
) {
    let total = total_words(old.len(), new.len());
    put_varint(out, total as u64);
    old.resize(total * 8, 0);
    let mut runs = Runs {
        out,
        zeros: 0,
        in_literals: false,
    };
    // Words both have in full 64-byte blocks.
    let block_words = new.len() / 64 * 8;
    let mut at = 0usize;
    for r in dirty {
        let from = ((r.start / 8) & !7).max(at);
        let to = r.end.div_ceil(8).min(total);
        if from >= to {
            continue;
        }
        if from > at {
            runs.zero((from - at) as u64);
        }
        let mut i = from;
        // Whole blocks, 4 at a time when they agree.
        let blocks_end = to.min(block_words) & !7;
        while i + 8 <= blocks_end {
            if i % 32 == 0
                && i + 32 <= blocks_end
                && old[i * 8..i * 8 + 256] == new[i * 8..i * 8 + 256]
            {
                runs.zero(32);
                i += 32;
                continue;
            }
            update_block(
                &mut old[i * 8..i * 8 + 64],
                &new[i * 8..i * 8 + 64],
                &mut runs,
            );
            i += 8;
        }
        // The rest, zero-extended.
        for j in i..to {
            let w = word(new, j);
            let d = word(old, j) ^ w;
            if d == 0 {
                runs.zero(1);
            } else {
                runs.literal(d);
                old[j * 8..j * 8 + 8].copy_from_slice(&w.to_le_bytes());
            }
        }
        at = to;
    }
    if total > at {
        runs.zero((total - at) as u64);
    }
    runs.finish();
    old.truncate(new.len());
}

/// Encode one 64-byte block of `x XOR y` and copy the differing words of `y` into `x`.
#[inline(always)]
fn update_block(x: &mut [u8], y: &[u8], runs: &mut Runs<'_>) {
    let mut d = [0u64; 8];
    let mut mask = 0u32;
    for (i, (p, q)) in x.chunks_exact(8).zip(y.chunks_exact(8)).enumerate() {
        d[i] = load(p) ^ load(q);
        mask |= u32::from(d[i] != 0) << i;
    }
    if mask == 0 {
        runs.zero(8);
        return;
    }
    let mut at = 0;
    while mask != 0 {
        let i = mask.trailing_zeros() as usize;
        if i > at {
            runs.zero((i - at) as u64);
        }
        runs.literal(d[i]);
        x[i * 8..i * 8 + 8].copy_from_slice(&y[i * 8..i * 8 + 8]);
        at = i + 1;
        mask &= mask - 1;
    }
    if at < 8 {
        runs.zero((8 - at) as u64);
    }
}

/// XOR the encoded diff into `buf`, which must be at least `total_words * 8` bytes long (see
/// [`encoded_words`]). Returns the number of bytes of `enc` consumed.
pub fn apply(buf: &mut [u8], enc: &[u8]) -> Result<usize, CodecError> {
    let mut i = 0;
    let total = get_varint(enc, &mut i)?;
    let total = usize::try_from(total).map_err(|_| CodecError::Corrupt)?;
    if buf.len() / 8 < total {
        return Err(CodecError::Corrupt);
    }
    let mut pos = 0usize;
    while pos < total {
        let zeros = get_varint(enc, &mut i)?;
        let zeros = usize::try_from(zeros).map_err(|_| CodecError::Corrupt)?;
        pos = pos
            .checked_add(zeros)
            .filter(|&p| p <= total)
            .ok_or(CodecError::Corrupt)?;
        let run_start = pos;
        loop {
            let mask = *enc.get(i).ok_or(CodecError::Corrupt)?;
            i += 1;
            if mask == 0 {
                break;
            }
            if pos >= total {
                return Err(CodecError::Corrupt);
            }
            let n = mask.count_ones() as usize;
            let bytes = enc.get(i..i + n).ok_or(CodecError::Corrupt)?;
            i += n;
            // Scatter the bytes to the positions of the mask's set bits.
            let mut x = 0u64;
            let mut m = mask;
            for &byte in bytes {
                x |= u64::from(byte) << (m.trailing_zeros() * 8);
                m &= m - 1;
            }
            let dst = &mut buf[pos * 8..pos * 8 + 8];
            let old = u64::from_le_bytes(dst.try_into().unwrap_or([0; 8]));
            dst.copy_from_slice(&(old ^ x).to_le_bytes());
            pos += 1;
        }
        if zeros == 0 && pos == run_start {
            return Err(CodecError::Corrupt);
        }
    }
    Ok(i)
}

/// The `total_words` an encoding starts with (to size the buffer for [`apply`]).
pub fn encoded_words(enc: &[u8]) -> Result<usize, CodecError> {
    let mut i = 0;
    usize::try_from(get_varint(enc, &mut i)?).map_err(|_| CodecError::Corrupt)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rng(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    #[test]
    fn roundtrip_both_directions() {
        let mut s = 0x2545_f491_4f6c_dd1d;
        for (la, lb) in [
            (0, 0),
            (0, 5),
            (8, 0),
            (9, 17),
            (100, 64),
            (4096, 4100),
            (10_001, 9_999),
        ] {
            for density in [0u64, 1, 10, 60, 100] {
                let a: Vec<u8> = (0..la).map(|_| rng(&mut s) as u8).collect();
                let mut b = a.clone();
                b.resize(lb, 0);
                for x in b.iter_mut() {
                    if rng(&mut s) % 100 < density {
                        *x = rng(&mut s) as u8;
                    }
                }
                let mut enc = Vec::new();
                encode(&a, &b, &mut enc);
                let words = encoded_words(&enc).unwrap();
                assert_eq!(words, total_words(la, lb));
                // forward
                let mut buf = a.clone();
                buf.resize(words * 8, 0);
                assert_eq!(apply(&mut buf, &enc).unwrap(), enc.len());
                assert_eq!(&buf[..lb], &b[..]);
                assert!(buf[lb..].iter().all(|&x| x == 0));
                // fused encode + update gives the same bytes and brings `a` to `b`
                let mut old = a.clone();
                let mut enc2 = Vec::new();
                encode_and_update(&mut old, &b, &mut enc2);
                assert_eq!(enc2, enc);
                assert_eq!(old, b);
                // backward
                let mut buf = b.clone();
                buf.resize(words * 8, 0);
                apply(&mut buf, &enc).unwrap();
                assert_eq!(&buf[..la], &a[..]);
            }
        }
    }

    #[test]
    fn dirty_ranges_covering_every_change_give_the_full_encoding() {
        let mut s = 0x9e37_79b9_7f4a_7c15;
        for (la, lb) in [
            (0, 4096),
            (20_000, 20_000),
            (20_480, 12_290),
            (9_000, 30_000),
        ] {
            for _ in 0..20 {
                let a: Vec<u8> = (0..la).map(|_| rng(&mut s) as u8).collect();
                let mut b = a.clone();
                b.resize(lb, 0);
                let pages = la.max(lb).div_ceil(4096);
                // Change a few random pages; list those plus some unchanged ones.
                let mut dirty = vec![false; pages];
                for _ in 0..3 {
                    let p = rng(&mut s) as usize % pages;
                    dirty[p] = true;
                    let at = p * 4096 + rng(&mut s) as usize % 4096;
                    if at < lb {
                        b[at] ^= 0x5a;
                    }
                }
                for (p, d) in dirty.iter_mut().enumerate() {
                    let (lo, hi) = (p * 4096, (p + 1) * 4096);
                    let zext = |v: &[u8], i: usize| v.get(i).copied().unwrap_or(0);
                    if (lo..hi).any(|i| zext(&a, i) != zext(&b, i)) {
                        *d = true;
                    }
                    if rng(&mut s).is_multiple_of(5) {
                        *d = true;
                    }
                }
                let ranges = (0..pages)
                    .filter(|&p| dirty[p])
                    .map(|p| p * 4096..(p + 1) * 4096);
                let mut full = Vec::new();
                encode(&a, &b, &mut full);
                let mut old = a.clone();
                let mut enc = Vec::new();
                encode_and_update_dirty(&mut old, &b, ranges, &mut enc);
                assert_eq!(enc, full);
                assert_eq!(old, b);
            }
        }
        // Unsorted, overlapping and out-of-range ranges: no panic.
        let a = vec![1u8; 10_000];
        let b = vec![2u8; 7_000];
        for ranges in [
            vec![9000..100_000, 0..64, 4096..8192, 100..200],
            vec![std::ops::Range { start: 5, end: 3 }, 3..4],
            vec![usize::MAX - 10..usize::MAX, 0..usize::MAX],
        ] {
            let mut old = a.clone();
            let mut enc = Vec::new();
            encode_and_update_dirty(&mut old, &b, ranges.into_iter(), &mut enc);
            assert_eq!(encoded_words(&enc).unwrap(), total_words(a.len(), b.len()));
        }
    }

    #[test]
    fn identical_inputs_encode_tiny() {
        let a = vec![7u8; 100_000];
        let mut enc = Vec::new();
        encode(&a, &a, &mut enc);
        assert!(enc.len() <= 8, "{}", enc.len());
    }

    #[test]
    fn one_changed_byte_costs_a_few_bytes() {
        let a = vec![0u8; 65_536];
        let mut b = a.clone();
        b[30_001] = 0x20;
        let mut enc = Vec::new();
        encode(&a, &b, &mut enc);
        assert!(enc.len() <= 10, "{}", enc.len());
    }

    #[test]
    fn malformed_input_is_an_error_not_a_panic() {
        let mut s = 99;
        let a: Vec<u8> = (0..512).map(|_| rng(&mut s) as u8).collect();
        let b: Vec<u8> = (0..512).map(|_| rng(&mut s) as u8 & 0x11).collect();
        let mut enc = Vec::new();
        encode(&a, &b, &mut enc);
        let mut buf = vec![0u8; 512];
        for cut in 0..enc.len() {
            let _ = apply(&mut buf, &enc[..cut]);
        }
        for k in 0..2000 {
            let mut bad = enc.clone();
            let at = rng(&mut s) as usize % bad.len();
            bad[at] = rng(&mut s) as u8;
            if k % 3 == 0 {
                bad.truncate(rng(&mut s) as usize % bad.len());
            }
            let _ = apply(&mut buf, &bad);
        }
        assert_eq!(apply(&mut [0u8; 8], &enc), Err(CodecError::Corrupt));
        assert_eq!(apply(&mut buf, &[0xff; 12]), Err(CodecError::Corrupt));
        assert_eq!(apply(&mut buf, &[2, 0, 0]), Err(CodecError::Corrupt));
    }
}
