//! Group dictionaries: the diffs of one keyframe group compress against the group's own first
//! diffs.
//!
//! Consecutive frames change the same words (the GC's lists, a thread's stack, a ring of
//! recent values), so their diffs look alike, and so do the batches of them the ring seals
//! (see `ring.rs`). For each part (the core, each script) the *dictionary* of a keyframe group
//! is the concatenation of that part's diffs in the group's first [`SAMPLES`] records (the
//! keyframe record's diffs, when it has any, and the records after it, whether they are open,
//! of their own or in a batch record). Those records store their diffs without it; every
//! batch of the group that starts at least [`SAMPLES`] records after its keyframe compresses
//! its zstd parts with the dictionary (zstd's raw-content dictionaries). Measured on the
//! benchmark HUD: batches of 16 frames without a dictionary 20.5 KB/s in all, with it 17.3.
//!
//! Invariants: a dictionary is a function of ring bytes only (the group's first records),
//! never of host state, so the capture that compresses and any later walk that decodes build
//! the same one; eviction drops whole groups, so a record's samples are always in the ring
//! while it is. The cache only saves rebuilding: it is emptied whenever records are
//! forgotten ([`Dicts::clear`]), since a fork may rewrite a group's first records.

use std::collections::VecDeque;

use zstd::zstd_safe::{CDict, DDict};

use super::ring::{Ring, RingError};

/// Records whose diffs make a group's dictionary.
pub const SAMPLES: usize = 16;

/// Dictionaries kept built (every part of the live group's, and of a group a walk passes
/// through), about 90 KB each (zstd's prepared forms for both directions). A capture whose
/// parts do not all fit compresses the rest without one.
const CACHED: usize = 8;

/// zstd's level for compressing with a dictionary (batch records', see `ring.rs`).
const LEVEL: i32 = super::ring::BATCH_LEVEL;

/// One part's dictionary of one group, prepared for both directions.
pub struct Dict {
    /// Frame of the group's keyframe.
    frame: u64,
    /// Part index (0 the core, `k + 1` the `k`-th script of the group).
    part: usize,
    /// For compressing.
    pub cdict: CDict<'static>,
    /// For decompressing.
    pub ddict: DDict<'static>,
}

/// The cache of built dictionaries.
#[derive(Default)]
pub struct Dicts {
    built: VecDeque<Option<Dict>>,
    keys: VecDeque<(u64, usize)>,
}

impl std::fmt::Debug for Dicts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dicts").field("keys", &self.keys).finish()
    }
}

impl Dicts {
    /// Forget every built dictionary (records were dropped or rewritten).
    pub fn clear(&mut self) {
        self.built.clear();
        self.keys.clear();
    }

    /// The dictionary of `part` in the group whose keyframe is at position `ki`, built from
    /// the ring if needed; `None` when the group's first records do not all carry diffs of
    /// that part (a record of that group is then never compressed with one).
    pub fn get(&mut self, ring: &Ring, ki: usize, part: usize) -> Result<Option<&Dict>, RingError> {
        self.prepare(ring, ki, part)?;
        Ok(self.find(ring, ki, part))
    }

    /// Build the dictionary of `part` in the group at `ki` unless it is cached.
    pub fn prepare(&mut self, ring: &Ring, ki: usize, part: usize) -> Result<(), RingError> {
        let key = (ring.entry(ki).map_or(0, |e| e.frame), part);
        if !self.keys.contains(&key) {
            let dict = build(ring, ki, part)?;
            if self.keys.len() == CACHED {
                self.keys.pop_front();
                self.built.pop_front();
            }
            self.keys.push_back(key);
            self.built.push_back(dict);
        }
        Ok(())
    }

    /// The cached dictionary of `part` in the group at `ki`, if built and present.
    pub fn find(&self, ring: &Ring, ki: usize, part: usize) -> Option<&Dict> {
        let key = (ring.entry(ki).map_or(0, |e| e.frame), part);
        let at = self.keys.iter().position(|&k| k == key)?;
        self.built[at].as_ref().filter(|d| (d.frame, d.part) == key)
    }
}

/// Build the dictionary of `part` from the group's first [`SAMPLES`] records.
fn build(ring: &Ring, ki: usize, part: usize) -> Result<Option<Dict>, RingError> {
    let frame = ring.entry(ki).map_or(0, |e| e.frame);
    // Eight zero bytes first: a raw-content dictionary must not start with zstd's
    // dictionary magic number, whatever the first diff holds.
    let mut content = vec![0u8; 8];
    let mut dec = Vec::new();
    // The batch record decoded last (its offset), whose frames are samples one after another.
    let mut batch = None;
    for i in ki..ki + SAMPLES {
        let Some(entry) = ring.entry(i) else {
            return Ok(None);
        };
        if i > ki && (entry.keyframe || !entry.has_diffs) {
            return Ok(None);
        }
        if !entry.has_diffs {
            continue;
        }
        let rec = ring.record(i)?;
        let Some(p) = rec.diff.get(part) else {
            return Ok(None);
        };
        if rec.batch > 0 {
            if batch != Some(entry.offset) {
                p.decode(&mut dec)?;
                batch = Some(entry.offset);
            }
            let span = rec
                .span(part, usize::from(entry.sub))
                .ok_or(RingError::Corrupt("batch frame"))?;
            content.extend_from_slice(dec.get(span).ok_or(RingError::Corrupt("batch frame"))?);
        } else {
            p.decode(&mut dec)?;
            batch = None;
            content.extend_from_slice(&dec);
        }
    }
    let (Some(cdict), Some(ddict)) = (
        CDict::try_create(&content, LEVEL),
        DDict::try_create(&content),
    ) else {
        return Ok(None);
    };
    Ok(Some(Dict {
        frame,
        part,
        cdict,
        ddict,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rewind::ring::{Method, PartIn};

    fn diff(frame: u64) -> Vec<u8> {
        (0..400u64)
            .map(|i| {
                if i % 37 == 0 {
                    (frame * 7 + i) as u8
                } else {
                    (i % 5) as u8
                }
            })
            .collect()
    }

    #[test]
    fn parts_compressed_with_the_group_dictionary_decode_and_are_smaller() {
        let mut ring = Ring::new(1 << 20);
        let mut dicts = Dicts::default();
        let (mut plain, mut with_dict) = (0, 0);
        for f in 0..100u64 {
            let key = f % 50 == 0;
            let ki = ring
                .len()
                .checked_sub(1)
                .and_then(|i| ring.keyframe_at_or_before(i));
            let group = ki.filter(|&k| !key && ring.len() >= k + SAMPLES);
            if let Some(k) = group {
                dicts.prepare(&ring, k, 0).expect("samples decode");
            }
            let d = diff(f);
            let parts = [PartIn {
                bytes: &d,
                method: Method::Zstd,
                dict: group
                    .and_then(|k| dicts.find(&ring, k, 0))
                    .map(|x| &x.cdict),
            }];
            let n = if key {
                ring.push(f, &[], &parts, &parts)
            } else {
                ring.push(f, &[], &[], &parts)
            };
            if group.is_some() {
                with_dict += n;
            } else if !key {
                plain += n;
            }
        }
        let mut out = Vec::new();
        for f in 0..100u64 {
            let i = ring.find(f).expect("held");
            let rec = ring.record(i).expect("parses");
            let part = rec.diff[0];
            if part.needs_dict() {
                assert!(
                    part.decode(&mut out).is_err(),
                    "refused without its dictionary"
                );
                let k = ring.keyframe_at_or_before(i).expect("keyframe");
                let dict = dicts.get(&ring, k, 0).expect("builds").expect("exists");
                part.decode_with(&mut out, Some(&dict.ddict))
                    .expect("decodes");
            } else {
                part.decode(&mut out).expect("decodes");
            }
            assert_eq!(out, diff(f), "frame {f}");
        }
        assert!(with_dict > 0 && plain > 0);
        // Per record: 68 with the dictionary against 30 plain ones.
        assert!(
            with_dict / 68 < plain / 30,
            "{with_dict} / 68 vs {plain} / 30"
        );
    }
}
