//! Property tests of the ROM patch formats (IPS, UPS, BPS): arbitrary bytes and mutated valid
//! patches are applied without panicking (an error or a ROM), and a BPS patch created from
//! any source to any target applies back to that target.

use gb_session::patch::{apply, create_bps};
use proptest::prelude::*;

fn edit(mut bytes: Vec<u8>, edits: &[(usize, u8)], cut: usize) -> Vec<u8> {
    for &(at, v) in edits {
        if !bytes.is_empty() {
            let i = at % bytes.len();
            bytes[i] = v;
        }
    }
    bytes.truncate(bytes.len().saturating_sub(cut % 8));
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_patches_never_panic(
        magic in prop::sample::select(vec![&b"PATCH"[..], b"UPS1", b"BPS1", b"JUNK"]),
        body in prop::collection::vec(any::<u8>(), 0..200),
        rom in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        let mut p = magic.to_vec();
        p.extend_from_slice(&body);
        let _ = apply(&rom, &p);
    }

    #[test]
    fn created_bps_round_trips_and_survives_mutation(
        source in prop::collection::vec(any::<u8>(), 0..300),
        target in prop::collection::vec(any::<u8>(), 0..300),
        edits in prop::collection::vec((any::<usize>(), any::<u8>()), 0..4),
        cut in any::<usize>(),
    ) {
        let p = create_bps(&source, &target, "meta");
        prop_assert_eq!(apply(&source, &p).unwrap(), target);
        let _ = apply(&source, &edit(p, &edits, cut));
    }

    #[test]
    fn a_patched_copy_of_a_rom_as_target_round_trips(
        source in prop::collection::vec(any::<u8>(), 1..400),
        changes in prop::collection::vec((any::<usize>(), any::<u8>()), 0..20),
    ) {
        let target = edit(source.clone(), &changes, 0);
        let p = create_bps(&source, &target, "");
        prop_assert_eq!(apply(&source, &p).unwrap(), target);
    }
}
