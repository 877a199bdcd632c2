//! Property tests (proptest) of every parser of outside files: state files, movies (journal
//! and compact), BizHawk `.bk2` and BESS. Inputs are arbitrary bytes and valid files with
//! arbitrary byte edits and truncations; the property is that parsing returns (an error or a
//! value) without panicking, and that whatever a parser accepts can be used. Failing cases
//! are kept in `proptest-regressions/` as the corpus.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::common::counter_rom;
use gb_core::Buttons;
use gb_session::movie::{Movie, Recorder};
use gb_session::{Session, SessionConfig, StateFile};
use proptest::prelude::*;

struct Seeds {
    state: Vec<u8>,
    journal: Vec<u8>,
    compact: Vec<u8>,
    bk2: Vec<u8>,
    bess: Vec<u8>,
}

fn seeds() -> &'static Seeds {
    static SEEDS: OnceLock<Seeds> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let config = SessionConfig {
            desync_check: false,
            ring_bytes: 4 << 20,
            ..SessionConfig::default()
        };
        let dir = std::env::temp_dir().join(format!("gbhost-props-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("seed.gbm");
        let _ = std::fs::remove_file(&path);
        let mut s = Session::new(counter_rom(), None, config).unwrap();
        s.load_script(
            "hud.lua",
            "persist.n = 1 event.on_frame_end(function() gui.text(0, 0, 'x') end)",
        );
        let mut rec = Recorder::create(&path, &mut s, vec!["a".into()], BTreeMap::new()).unwrap();
        for f in 0..130u8 {
            s.set_buttons(Buttons(f.wrapping_mul(37)));
            s.run_frame();
            rec.after_frame(&mut s).unwrap();
        }
        rec.finish().unwrap();
        let journal = std::fs::read(&path).unwrap();
        gb_session::movie::container::compact(&path, &path, 3).unwrap();
        let compact = std::fs::read(&path).unwrap();
        let state = s.state_file(0, true).encode();
        let bk2 = gb_session::movie::bk2::write(&gb_session::movie::bk2::Bk2::gambatte(
            "GBHOST TEST",
            "",
            gb_core::Model::Dmg,
            (0..50u8)
                .map(|b| gb_session::movie::bk2::Bk2Frame::one(Buttons(b), false))
                .collect(),
        ))
        .unwrap();
        let bess = gb_core::bess::export(s.gb());
        let _ = std::fs::remove_dir_all(&dir);
        Seeds {
            state,
            journal,
            compact,
            bk2,
            bess,
        }
    })
}

/// A seed with edits: each (position, byte) overwrites, then the bytes are cut to `keep` of
/// every 1,000 (1,000: not cut).
fn mutate(seed: &[u8], edits: &[(usize, u8)], keep: u16) -> Vec<u8> {
    let mut v = seed.to_vec();
    for &(i, b) in edits {
        if !v.is_empty() {
            let n = v.len();
            v[i % n] = b;
        }
    }
    let len = v.len() * usize::from(keep.min(1000)) / 1000;
    v.truncate(len);
    v
}

fn edits() -> impl Strategy<Value = (Vec<(usize, u8)>, u16)> {
    (
        proptest::collection::vec((any::<usize>(), any::<u8>()), 0..8),
        prop_oneof![Just(1000u16), 0..1000u16],
    )
}

/// Recompute a state file's end checksum, so edits reach the sections behind it.
fn reseal(bytes: &mut [u8]) {
    if bytes.len() >= 28 {
        let end = bytes.len() - 16;
        if &bytes[end..end + 4] == b"END " {
            let sum = gb_session::fnv1a(&bytes[..end]);
            bytes[end + 8..].copy_from_slice(&sum.to_le_bytes());
        }
    }
}

fn check_state(bytes: &[u8]) {
    if let Ok(file) = StateFile::decode(bytes) {
        // Accepted files load into a session or are refused whole.
        let mut s = Session::new(counter_rom(), None, SessionConfig::default()).unwrap();
        let _ = s.load_state_file(&file);
        s.run_frame();
    }
}

fn check_movie(bytes: Vec<u8>) {
    if let Ok(m) = Movie::from_bytes(bytes) {
        for i in 0..m.chunks().len() {
            let _ = m.chunk(i);
        }
        let _ = m.frame_buttons();
    }
}

fn check_bess(bytes: &[u8]) {
    let cart = gb_core::Cartridge::from_rom(counter_rom()).unwrap();
    let mut gb = gb_core::Gb::new(cart);
    if gb_core::bess::import(&mut gb, bytes).is_ok() {
        gb.run_frame();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn state_files_never_panic((e, keep) in edits(), seal in any::<bool>()) {
        let mut bytes = mutate(&seeds().state, &e, keep);
        if seal {
            reseal(&mut bytes);
        }
        check_state(&bytes);
    }

    #[test]
    fn journals_never_panic((e, keep) in edits()) {
        check_movie(mutate(&seeds().journal, &e, keep));
    }

    #[test]
    fn compact_movies_never_panic((e, keep) in edits()) {
        check_movie(mutate(&seeds().compact, &e, keep));
    }

    #[test]
    fn bk2_files_never_panic((e, keep) in edits()) {
        let _ = gb_session::movie::bk2::read(&mutate(&seeds().bk2, &e, keep));
    }

    #[test]
    fn bess_files_never_panic((e, keep) in edits()) {
        check_bess(&mutate(&seeds().bess, &e, keep));
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        check_state(&bytes);
        check_movie(bytes.clone());
        let _ = gb_session::movie::bk2::read(&bytes);
        check_bess(&bytes);
    }
}
