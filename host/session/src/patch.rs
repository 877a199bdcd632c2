//! ROM patches, the way ROM hacks and translations ship: IPS (with its run-length records and
//! the truncation extension), UPS and BPS (with their CRC32 checks of source, target and
//! patch), applied to a ROM image in memory; and BPS creation (linear: runs of unchanged bytes
//! read from the source, the rest stored), for hack authors. Pure functions over bytes: the
//! app applies `--patch` files and the patch found beside a ROM.
//!
//! Formats (as their authors documented them):
//! - IPS: `PATCH`, then records `offset(3 BE) size(2 BE) data`, a size of 0 being a run
//!   `count(2 BE) byte`, until `EOF`, optionally followed by a 3-byte size to truncate to.
//! - UPS: `UPS1`, source size and target size (varints), then hunks `skip(varint) xor-bytes 0`,
//!   then CRC32 of source, target and patch (little-endian); the patch's CRC covers all bytes
//!   before it.
//! - BPS: `BPS1`, source size, target size, metadata size (varints) and metadata, then actions
//!   `varint(length - 1 << 2 | kind)`: 0 source read, 1 target read (bytes follow), 2 source
//!   copy and 3 target copy (a signed relative offset follows), then the three CRC32s.
//!
//! Varints (UPS and BPS): 7 bits a byte, low first, the top bit ends the number, and each
//! continuation adds one (`x += 1 << shift` after the shift grows), so every number has one
//! encoding.

/// The largest ROM a patch may produce (more than any Game Boy cartridge).
pub const MAX_TARGET: usize = 64 << 20;

/// Why a patch cannot be applied.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PatchError {
    /// Not an IPS, UPS or BPS file.
    #[error("not a patch (IPS, UPS or BPS)")]
    UnknownFormat,
    /// The file ends early or is malformed.
    #[error("the {format} patch is damaged: {what}")]
    Damaged {
        /// IPS, UPS or BPS.
        format: &'static str,
        /// What is wrong.
        what: String,
    },
    /// A CRC32 check failed.
    #[error(
        "the {which} does not match the patch's CRC32 (expected {expected:08X}, found {found:08X}){hint}"
    )]
    Checksum {
        /// `source ROM`, `patched ROM` or `patch file`.
        which: &'static str,
        /// The CRC the patch holds.
        expected: u32,
        /// The CRC computed.
        found: u32,
        /// A hint for the source ROM (another version or dump of the game).
        hint: &'static str,
    },
    /// The patch makes a ROM larger than [`MAX_TARGET`].
    #[error("the patched ROM would be {0} bytes (at most {MAX_TARGET})")]
    TooLarge(u64),
}

fn damaged(format: &'static str, what: impl Into<String>) -> PatchError {
    PatchError::Damaged {
        format,
        what: what.into(),
    }
}

/// CRC-32 (IEEE, reflected, as zip and the patch formats use).
pub fn crc32(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

/// Which format `patch` is, by its magic.
pub fn format(patch: &[u8]) -> Option<&'static str> {
    if patch.starts_with(b"PATCH") {
        Some("IPS")
    } else if patch.starts_with(b"UPS1") {
        Some("UPS")
    } else if patch.starts_with(b"BPS1") {
        Some("BPS")
    } else {
        None
    }
}

/// Apply `patch` (IPS, UPS or BPS, told by its magic) to `rom`.
pub fn apply(rom: &[u8], patch: &[u8]) -> Result<Vec<u8>, PatchError> {
    match format(patch) {
        Some("IPS") => apply_ips(rom, patch),
        Some("UPS") => apply_ups(rom, patch),
        Some("BPS") => apply_bps(rom, patch),
        _ => Err(PatchError::UnknownFormat),
    }
}

/// A reader over a patch's bytes.
struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    format: &'static str,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], PatchError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.data.len())
            .ok_or_else(|| damaged(self.format, format!("it ends early (at byte {})", self.pos)))?;
        let s = &self.data[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    fn byte(&mut self) -> Result<u8, PatchError> {
        Ok(self.take(1)?[0])
    }

    fn be(&mut self, n: usize) -> Result<usize, PatchError> {
        Ok(self
            .take(n)?
            .iter()
            .fold(0usize, |v, &b| v << 8 | usize::from(b)))
    }

    fn varint(&mut self) -> Result<u64, PatchError> {
        let (mut v, mut shift) = (0u64, 0u32);
        loop {
            let b = self.byte()?;
            let part = u64::from(b & 0x7F)
                .checked_shl(shift)
                .filter(|_| shift < 63)
                .ok_or_else(|| damaged(self.format, "a number is too large"))?;
            v = v
                .checked_add(part)
                .ok_or_else(|| damaged(self.format, "a number is too large"))?;
            if b & 0x80 != 0 {
                return Ok(v);
            }
            shift += 7;
            v = v
                .checked_add(1 << shift)
                .ok_or_else(|| damaged(self.format, "a number is too large"))?;
        }
    }

    fn size(&mut self) -> Result<usize, PatchError> {
        let v = self.varint()?;
        usize::try_from(v)
            .ok()
            .filter(|&n| n <= MAX_TARGET)
            .ok_or(PatchError::TooLarge(v))
    }
}

fn write_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let x = (v & 0x7F) as u8;
        v >>= 7;
        if v == 0 {
            out.push(0x80 | x);
            return;
        }
        out.push(x);
        v -= 1;
    }
}

/// Apply an IPS patch.
pub fn apply_ips(rom: &[u8], patch: &[u8]) -> Result<Vec<u8>, PatchError> {
    let mut c = Cursor {
        data: patch,
        pos: 5,
        format: "IPS",
    };
    if !patch.starts_with(b"PATCH") {
        return Err(PatchError::UnknownFormat);
    }
    let mut out = rom.to_vec();
    loop {
        let head = c.take(3)?;
        if head == b"EOF" {
            // The truncation extension: a 3-byte size after EOF.
            if c.data.len() - c.pos >= 3 {
                let size = c.be(3)?;
                out.truncate(size);
            }
            return Ok(out);
        }
        let offset = head.iter().fold(0usize, |v, &b| v << 8 | usize::from(b));
        let size = c.be(2)?;
        let (len, fill) = if size == 0 {
            let n = c.be(2)?;
            (n, Some(c.byte()?))
        } else {
            (size, None)
        };
        let end = offset + len;
        if end > MAX_TARGET {
            return Err(PatchError::TooLarge(end as u64));
        }
        if out.len() < end {
            out.resize(end, 0);
        }
        match fill {
            Some(b) => out[offset..end].fill(b),
            None => out[offset..end].copy_from_slice(c.take(len)?),
        }
    }
}

/// Check a patch's three CRC32s at its end: `[source, target, patch]`.
fn check_crcs(
    format: &'static str,
    patch: &[u8],
    source: Option<&[u8]>,
    target: Option<&[u8]>,
) -> Result<[u32; 3], PatchError> {
    if patch.len() < 12 {
        return Err(damaged(format, "it is too short for its checksums"));
    }
    let tail = &patch[patch.len() - 12..];
    let crc = |i: usize| u32::from_le_bytes([tail[i], tail[i + 1], tail[i + 2], tail[i + 3]]);
    let (s, t, p) = (crc(0), crc(4), crc(8));
    let found = crc32(&patch[..patch.len() - 4]);
    if found != p {
        return Err(PatchError::Checksum {
            which: "patch file",
            expected: p,
            found,
            hint: " (the patch is damaged)",
        });
    }
    if let Some(src) = source {
        let found = crc32(src);
        if found != s {
            return Err(PatchError::Checksum {
                which: "source ROM",
                expected: s,
                found,
                hint: " (the patch is for another version or dump of the game)",
            });
        }
    }
    if let Some(dst) = target {
        let found = crc32(dst);
        if found != t {
            return Err(PatchError::Checksum {
                which: "patched ROM",
                expected: t,
                found,
                hint: "",
            });
        }
    }
    Ok([s, t, p])
}

/// Apply a UPS patch.
pub fn apply_ups(rom: &[u8], patch: &[u8]) -> Result<Vec<u8>, PatchError> {
    if !patch.starts_with(b"UPS1") {
        return Err(PatchError::UnknownFormat);
    }
    check_crcs("UPS", patch, Some(rom), None)?;
    let body = &patch[..patch.len() - 12];
    let mut c = Cursor {
        data: body,
        pos: 4,
        format: "UPS",
    };
    let source_size = c.size()?;
    let target_size = c.size()?;
    if source_size != rom.len() {
        return Err(damaged(
            "UPS",
            format!(
                "it is for a {source_size}-byte ROM; this one has {} bytes",
                rom.len()
            ),
        ));
    }
    let mut out = rom.to_vec();
    out.resize(target_size, 0);
    let mut at = 0usize;
    while c.pos < body.len() {
        at = at
            .checked_add(c.size()?)
            .filter(|&a| a <= target_size)
            .ok_or_else(|| damaged("UPS", "a hunk starts past the patched ROM's end"))?;
        loop {
            let x = c.byte()?;
            if x == 0 {
                at += 1;
                break;
            }
            if at >= target_size {
                return Err(damaged("UPS", "a hunk runs past the patched ROM's end"));
            }
            out[at] ^= x;
            at += 1;
        }
    }
    check_crcs("UPS", patch, None, Some(&out))?;
    Ok(out)
}

/// Apply a BPS patch.
pub fn apply_bps(rom: &[u8], patch: &[u8]) -> Result<Vec<u8>, PatchError> {
    if !patch.starts_with(b"BPS1") {
        return Err(PatchError::UnknownFormat);
    }
    check_crcs("BPS", patch, Some(rom), None)?;
    let body = &patch[..patch.len() - 12];
    let mut c = Cursor {
        data: body,
        pos: 4,
        format: "BPS",
    };
    let source_size = c.size()?;
    let target_size = c.size()?;
    let meta = c.size()?;
    c.take(meta)?;
    if source_size != rom.len() {
        return Err(damaged(
            "BPS",
            format!(
                "it is for a {source_size}-byte ROM; this one has {} bytes",
                rom.len()
            ),
        ));
    }
    let mut out: Vec<u8> = Vec::with_capacity(target_size);
    let (mut src_rel, mut dst_rel) = (0usize, 0usize);
    let past = || damaged("BPS", "an action reaches past a ROM's end");
    while c.pos < body.len() {
        let word = c.varint()?;
        let len = usize::try_from((word >> 2) + 1).map_err(|_| past())?;
        if out.len() + len > target_size {
            return Err(past());
        }
        match word & 3 {
            0 => {
                let at = out.len();
                out.extend_from_slice(rom.get(at..at + len).ok_or_else(past)?);
            }
            1 => out.extend_from_slice(c.take(len)?),
            kind => {
                let v = c.varint()?;
                let delta = (v >> 1) as i64 * if v & 1 != 0 { -1 } else { 1 };
                let base = if kind == 2 {
                    &mut src_rel
                } else {
                    &mut dst_rel
                };
                *base = usize::try_from(*base as i64 + delta).map_err(|_| past())?;
                if kind == 2 {
                    let from = rom.get(*base..*base + len).ok_or_else(past)?;
                    out.extend_from_slice(from);
                } else {
                    // A target copy may overlap what it writes (a repeating pattern).
                    if *base >= out.len() {
                        return Err(past());
                    }
                    for k in 0..len {
                        out.push(out[*base + k]);
                    }
                }
                *base += len;
            }
        }
    }
    if out.len() != target_size {
        return Err(damaged(
            "BPS",
            format!(
                "it made {} bytes, not the {target_size} it names",
                out.len()
            ),
        ));
    }
    check_crcs("BPS", patch, None, Some(&out))?;
    Ok(out)
}

/// A BPS patch from `source` to `target` (linear: unchanged runs of 4 bytes or more are read
/// from the source, everything else stored), with `metadata` (often an XML note).
pub fn create_bps(source: &[u8], target: &[u8], metadata: &str) -> Vec<u8> {
    let mut out = b"BPS1".to_vec();
    write_varint(&mut out, source.len() as u64);
    write_varint(&mut out, target.len() as u64);
    write_varint(&mut out, metadata.len() as u64);
    out.extend_from_slice(metadata.as_bytes());
    let same = |i: usize| source.get(i) == target.get(i);
    let mut i = 0;
    let mut stored_from = None::<usize>;
    let flush = |out: &mut Vec<u8>, from: usize, to: usize| {
        if to > from {
            write_varint(out, ((to - from - 1) as u64) << 2 | 1);
            out.extend_from_slice(&target[from..to]);
        }
    };
    while i < target.len() {
        let run = (i..target.len()).take_while(|&k| same(k)).count();
        if run >= 4 {
            if let Some(from) = stored_from.take() {
                flush(&mut out, from, i);
            }
            write_varint(&mut out, ((run - 1) as u64) << 2);
            i += run;
        } else {
            stored_from.get_or_insert(i);
            i += run.max(1);
        }
    }
    if let Some(from) = stored_from {
        flush(&mut out, from, target.len());
    }
    out.extend_from_slice(&crc32(source).to_le_bytes());
    out.extend_from_slice(&crc32(target).to_le_bytes());
    let p = crc32(&out);
    out.extend_from_slice(&p.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn ips_records_runs_growth_and_truncation() {
        let rom = vec![0u8; 16];
        let mut p = b"PATCH".to_vec();
        p.extend_from_slice(&[0, 0, 2, 0, 3, 1, 2, 3]); // 3 bytes at 2
        p.extend_from_slice(&[0, 0, 8, 0, 0, 0, 4, 0xAA]); // a run of 4 × AA at 8
        p.extend_from_slice(&[0, 0, 20, 0, 1, 7]); // past the end: grows to 21
        p.extend_from_slice(b"EOF");
        let out = apply(&rom, &p).unwrap();
        assert_eq!(&out[..6], &[0, 0, 1, 2, 3, 0]);
        assert_eq!(&out[8..12], &[0xAA; 4]);
        assert_eq!(out.len(), 21);
        assert_eq!(out[20], 7);
        let mut t = p.clone();
        t.extend_from_slice(&[0, 0, 10]);
        assert_eq!(
            apply(&rom, &t).unwrap().len(),
            10,
            "truncated by the extension"
        );
        assert!(matches!(
            apply(&rom, &p[..p.len() - 4]),
            Err(PatchError::Damaged { .. })
        ));
    }

    fn ups(source: &[u8], target: &[u8]) -> Vec<u8> {
        let mut p = b"UPS1".to_vec();
        write_varint(&mut p, source.len() as u64);
        write_varint(&mut p, target.len() as u64);
        let mut last = 0usize;
        let mut i = 0;
        let n = source.len().max(target.len());
        while i < n {
            let x = source.get(i).copied().unwrap_or(0) ^ target.get(i).copied().unwrap_or(0);
            if x == 0 {
                i += 1;
                continue;
            }
            write_varint(&mut p, (i - last) as u64);
            while i < n {
                let x = source.get(i).copied().unwrap_or(0) ^ target.get(i).copied().unwrap_or(0);
                if x == 0 {
                    break;
                }
                p.push(x);
                i += 1;
            }
            p.push(0);
            i += 1;
            last = i;
        }
        p.extend_from_slice(&crc32(source).to_le_bytes());
        p.extend_from_slice(&crc32(target).to_le_bytes());
        let c = crc32(&p);
        p.extend_from_slice(&c.to_le_bytes());
        p
    }

    #[test]
    fn ups_applies_and_checks_its_crcs() {
        let source: Vec<u8> = (0..100u8).collect();
        let mut target = source.clone();
        target[10] = 0xFF;
        target[11] = 0xFE;
        target[50] = 1;
        target.extend_from_slice(&[9, 9]);
        let p = ups(&source, &target);
        assert_eq!(apply(&source, &p).unwrap(), target);
        let mut other = source.clone();
        other[0] = 7;
        assert!(matches!(
            apply(&other, &p),
            Err(PatchError::Checksum {
                which: "source ROM",
                ..
            })
        ));
        let mut bad = p.clone();
        bad[6] ^= 1;
        assert!(matches!(
            apply(&source, &bad),
            Err(PatchError::Checksum {
                which: "patch file",
                ..
            })
        ));
    }

    /// A BPS patch built by hand with every action: source read, target read, source copy
    /// (backwards) and target copy (overlapping, a repeated pattern).
    #[test]
    fn bps_actions_by_hand() {
        let source = b"ABCDEFGHIJ".to_vec();
        let target = b"ABCDxyxyxyxyHIJAB".to_vec();
        let mut p = b"BPS1".to_vec();
        write_varint(&mut p, source.len() as u64);
        write_varint(&mut p, target.len() as u64);
        write_varint(&mut p, 0);
        write_varint(&mut p, (4 - 1) << 2); // source read "ABCD"
        write_varint(&mut p, (2 - 1) << 2 | 1); // target read "xy"
        p.extend_from_slice(b"xy");
        write_varint(&mut p, (6 - 1) << 2 | 3); // target copy "xyxyxy" from 4 (overlapping)
        write_varint(&mut p, 4 << 1);
        write_varint(&mut p, (3 - 1) << 2 | 2); // source copy "HIJ" from 7
        write_varint(&mut p, 7 << 1);
        write_varint(&mut p, (2 - 1) << 2 | 2); // source copy "AB": back from 10 to 0
        write_varint(&mut p, 10 << 1 | 1);
        p.extend_from_slice(&crc32(&source).to_le_bytes());
        p.extend_from_slice(&crc32(&target).to_le_bytes());
        let c = crc32(&p);
        p.extend_from_slice(&c.to_le_bytes());
        assert_eq!(apply(&source, &p).unwrap(), target);
    }

    #[test]
    fn created_bps_patches_apply() {
        let source: Vec<u8> = (0..4096u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut target = source.clone();
        target[100..110].fill(0);
        target[3000] ^= 0x55;
        target.truncate(4000);
        target.extend_from_slice(b"a translation's new text");
        let p = create_bps(&source, &target, "<note/>");
        assert!(
            p.len() < 200,
            "linear runs keep it small: {} bytes",
            p.len()
        );
        assert_eq!(apply(&source, &p).unwrap(), target);
        assert_eq!(
            apply(&source, &create_bps(&source, &source, "")).unwrap(),
            source
        );
        assert_eq!(apply(&[], &create_bps(&[], b"new", "")).unwrap(), b"new");
    }
}
