//! Word-wise XOR diffs with zero-run coding: the raw diff machinery of the rewind ring.
//!
//! Two byte strings `a` and `b` are compared as little-endian 64-bit words (both zero-extended
//! to the longer one, rounded up to whole words). The encoding of `a XOR b` is:
//!
//! ```text
//! varint total_words
//! repeat until total_words are covered:
//!     varint zero_words       words where a and b agree
//!     varint literal_words    words where they differ, each as:
//!         mask byte           bit i set when byte i of the XOR word is nonzero
//!         the nonzero bytes   in order
//! ```
//!
//! Varints are LEB128. A run with `zero_words = literal_words = 0` never occurs. Because XOR is
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
        Some(c) => u64::from_le_bytes(c.try_into().unwrap_or([0; 8])),
        None if start < s.len() => {
            let mut w = [0u8; 8];
            w[..s.len() - start].copy_from_slice(&s[start..]);
            u64::from_le_bytes(w)
        }
        None => 0,
    }
}

/// First word index `>= i` (and `< end`) where `a` and `b` differ, or `end`.
#[inline]
fn skip_equal(a: &[u8], b: &[u8], mut i: usize, end: usize) -> usize {
    // Fast path: compare 64-byte blocks where both inputs have them.
    let full = a.len().min(b.len()) / 8;
    while i + 8 <= full && a[i * 8..i * 8 + 64] == b[i * 8..i * 8 + 64] {
        i += 8;
    }
    while i < end && word(a, i) == word(b, i) {
        i += 1;
    }
    i
}

/// Number of words the encoding of `a` vs `b` covers.
pub fn total_words(a_len: usize, b_len: usize) -> usize {
    a_len.max(b_len).div_ceil(8)
}

/// Append the encoding of `a XOR b` to `out`.
pub fn encode(a: &[u8], b: &[u8], out: &mut Vec<u8>) {
    let total = total_words(a.len(), b.len());
    put_varint(out, total as u64);
    let mut i = 0;
    while i < total {
        let z0 = i;
        i = skip_equal(a, b, i, total);
        let zeros = i - z0;
        let l0 = i;
        while i < total && word(a, i) != word(b, i) {
            i += 1;
        }
        put_varint(out, zeros as u64);
        put_varint(out, (i - l0) as u64);
        for k in l0..i {
            let x = (word(a, k) ^ word(b, k)).to_le_bytes();
            let mask_at = out.len();
            out.push(0);
            let mut mask = 0u8;
            for (bit, &byte) in x.iter().enumerate() {
                if byte != 0 {
                    mask |= 1 << bit;
                    out.push(byte);
                }
            }
            out[mask_at] = mask;
        }
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
        let lits = get_varint(enc, &mut i)?;
        if zeros == 0 && lits == 0 {
            return Err(CodecError::Corrupt);
        }
        let zeros = usize::try_from(zeros).map_err(|_| CodecError::Corrupt)?;
        let lits = usize::try_from(lits).map_err(|_| CodecError::Corrupt)?;
        pos = pos
            .checked_add(zeros)
            .filter(|&p| p <= total)
            .ok_or(CodecError::Corrupt)?;
        let end = pos
            .checked_add(lits)
            .filter(|&e| e <= total)
            .ok_or(CodecError::Corrupt)?;
        for w in pos..end {
            let mask = *enc.get(i).ok_or(CodecError::Corrupt)?;
            i += 1;
            let n = mask.count_ones() as usize;
            let bytes = enc.get(i..i + n).ok_or(CodecError::Corrupt)?;
            i += n;
            let dst = &mut buf[w * 8..w * 8 + 8];
            let mut src = bytes.iter();
            for (bit, d) in dst.iter_mut().enumerate() {
                if mask & (1 << bit) != 0 {
                    // `n` bytes were taken for the `n` set bits.
                    *d ^= src.next().copied().unwrap_or(0);
                }
            }
        }
        pos = end;
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
        for (la, lb) in [(0, 0), (0, 5), (8, 0), (9, 17), (100, 64), (4096, 4100), (10_001, 9_999)] {
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
                // backward
                let mut buf = b.clone();
                buf.resize(words * 8, 0);
                apply(&mut buf, &enc).unwrap();
                assert_eq!(&buf[..la], &a[..]);
            }
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
