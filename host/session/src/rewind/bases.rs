//! Script base images: a script's keyframe is stored as its XOR against a *base*, an earlier
//! snapshot of the same arena kept beside the ring, instead of whole.
//!
//! Most of a script's arena — its functions, constants, lookup tables — does not change after
//! it started, so a keyframe against an earlier image of the arena is mostly zero runs: the
//! benchmark HUD's keyframe drops from ~45 KB to a few KB (zstd), 600 frames apart. The first
//! keyframe of a script is stored whole and its snapshot becomes the script's base; a later
//! keyframe is stored whole again, becoming the new base, when its diff against the base is
//! no longer much smaller than the whole image (unless the script has two bases the ring still
//! needs: then the smaller of the diff and the whole image is stored, and no base is added).
//!
//! Invariants: a base is a snapshot of the arena the history really captured (a keyframe's
//! state), never changed; a keyframe stored as a diff names its base by the snapshot's
//! sequence number (the diff's sealed header), so decoding picks the right one or fails, never
//! a wrong one. A base is dropped only when the ring no longer holds a keyframe that may
//! refer to it: a slot's base is needed until the ring's oldest record is at or after the
//! frame its successor was taken at. Memory beside the ring: at most two arena images a script
//! ([`Bases::bytes`]).

use std::collections::BTreeMap;

use lua_rollback::{CodecError, Snapshot};

/// A keyframe stored as a diff must be at most this fraction (1/n) of the whole encoding;
/// otherwise it is stored whole and becomes the new base.
const WORTH: usize = 3;

/// Bases kept per script at most: when a new one is due and the ring still needs both,
/// keyframes are stored against the newer base, or whole, whichever is smaller.
const MAX_BASES: usize = 2;

/// Each script's bases, oldest first, with the frame each was taken at.
#[derive(Debug, Default)]
pub struct Bases {
    by_slot: BTreeMap<u32, Vec<(u64, Snapshot)>>,
}

impl Bases {
    /// Forget every base (the ring holds no keyframe any more).
    pub fn clear(&mut self) {
        self.by_slot.clear();
    }

    /// Bytes the bases hold.
    pub fn bytes(&self) -> usize {
        self.by_slot.values().flatten().map(|(_, s)| s.len()).sum()
    }

    /// Append `snap`'s keyframe encoding (the script in `slot`, at keyframe `frame`) to `out`:
    /// its diff against the slot's newest base when that is small enough, else the whole
    /// snapshot, which then becomes the newest base. `scratch` is a reusable buffer.
    pub fn encode(
        &mut self,
        slot: u32,
        frame: u64,
        snap: &Snapshot,
        out: &mut Vec<u8>,
        scratch: &mut Vec<u8>,
    ) {
        let start = out.len();
        snap.encode_keyframe(out);
        let whole = out.len() - start;
        let bases = self.by_slot.entry(slot).or_default();
        let diff = bases.last().and_then(|(_, base)| {
            scratch.clear();
            snap.encode_diff(base, scratch).ok().map(|()| scratch.len())
        });
        match diff {
            Some(n) if n * WORTH <= whole || (bases.len() >= MAX_BASES && n < whole) => {
                out.truncate(start);
                out.extend_from_slice(scratch);
            }
            _ if bases.len() < MAX_BASES => bases.push((frame, snap.clone())),
            _ => {}
        }
    }

    /// Decode a keyframe part of `slot` made by [`Bases::encode`].
    pub fn decode(&self, slot: u32, enc: &[u8]) -> Result<Snapshot, CodecError> {
        match Snapshot::decode_keyframe(enc) {
            Err(CodecError::WrongKind) => {}
            other => return other,
        }
        let mut err = CodecError::WrongKind;
        for (_, base) in self.by_slot.get(&slot).into_iter().flatten().rev() {
            let mut snap = base.clone();
            match snap.apply_diff(enc) {
                Ok(()) => return Ok(snap),
                Err(e) => err = e,
            }
        }
        Err(err)
    }

    /// Drop the bases no keyframe the ring holds can refer to (its oldest record is at
    /// `oldest`).
    pub fn retain(&mut self, oldest: u64) {
        for bases in self.by_slot.values_mut() {
            let stale = bases
                .iter()
                .skip(1)
                .take_while(|(f, _)| *f <= oldest)
                .count();
            bases.drain(..stale);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lua_rollback::{Vm, VmConfig};

    fn vm() -> Vm {
        let mut vm = Vm::new(VmConfig::default()).expect("vm");
        vm.exec(
            "=init",
            "t = {} for i = 1, 2000 do t[i] = ('x'):rep(i % 50) end",
        )
        .expect("init");
        vm
    }

    #[test]
    fn keyframes_against_a_base_decode_exactly_and_are_small() {
        let mut vm = vm();
        let mut bases = Bases::default();
        let (mut out, mut scratch) = (Vec::new(), Vec::new());
        let first = vm.snapshot();
        bases.encode(1, 0, &first, &mut out, &mut scratch);
        let whole = out.len();
        assert_eq!(bases.decode(1, &out).expect("whole"), first);
        vm.exec("=step", "for i = 1, 20 do t[i] = i end n = 1")
            .expect("step");
        let later = vm.snapshot();
        out.clear();
        bases.encode(1, 600, &later, &mut out, &mut scratch);
        assert!(out.len() * WORTH <= whole, "{} vs {whole}", out.len());
        assert_eq!(bases.decode(1, &out).expect("against the base"), later);
        assert_eq!(bases.by_slot[&1].len(), 1, "no new base for a small change");
        // Another slot, or no base: refused, never a wrong snapshot.
        assert!(bases.decode(2, &out).is_err());
    }

    #[test]
    fn at_most_two_bases_and_stale_ones_dropped() {
        let mut vm = vm();
        let mut bases = Bases::default();
        let (mut out, mut scratch) = (Vec::new(), Vec::new());
        let mut encoded = Vec::new();
        for k in 0..4u64 {
            // Rewrite everything: each keyframe differs from the previous one throughout.
            vm.exec(
                "=all",
                &format!("for i = 1, 2000 do t[i] = {{ {k}, i }} end"),
            )
            .expect("rewrite");
            let snap = vm.snapshot();
            out.clear();
            bases.encode(1, k * 600, &snap, &mut out, &mut scratch);
            encoded.push((out.clone(), snap));
            assert!(bases.by_slot[&1].len() <= MAX_BASES);
        }
        for (enc, snap) in &encoded {
            assert_eq!(&bases.decode(1, enc).expect("decodes"), snap);
        }
        bases.retain(600);
        assert_eq!(
            bases.by_slot[&1].len(),
            1,
            "the ring starts at the second base"
        );
        assert_eq!(bases.by_slot[&1][0].0, 600);
        for (enc, snap) in &encoded[1..] {
            assert_eq!(&bases.decode(1, enc).expect("still decodes"), snap);
        }
    }
}
