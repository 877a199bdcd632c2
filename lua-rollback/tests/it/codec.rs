//! The rewind ring's diff machinery on real snapshots: per-frame sealed diffs decode forward
//! from a keyframe and backward from the live state to exactly the recorded snapshots.

use crate::common::{frame, hud_vm};
use lua_rollback::{CodecError, Snapshot, VmConfig};

#[test]
fn diff_chain_decodes_forward_and_backward() {
    const FRAMES: usize = 300;
    let (mut vm, host) = hud_vm(VmConfig::default());
    for _ in 0..30 {
        frame(&mut vm, &host).unwrap();
    }
    let key = vm.snapshot();
    let mut keyframe = Vec::new();
    key.encode_keyframe(&mut keyframe);
    assert!(keyframe.len() < key.len(), "zero runs are coded away");

    // Record: full snapshots for reference, and the ring's per-frame diffs.
    let mut reference = vec![key.clone()];
    let mut diffs: Vec<Vec<u8>> = Vec::new();
    let mut live = key.clone();
    for _ in 0..FRAMES {
        frame(&mut vm, &host).unwrap();
        let mut d = Vec::new();
        vm.snapshot_diff(&mut live, &mut d).unwrap();
        diffs.push(d);
        reference.push(vm.snapshot());
        assert!(live.bytes() == reference.last().unwrap().bytes());
    }
    let mean = diffs.iter().map(Vec::len).sum::<usize>() / FRAMES;
    assert!(
        mean < key.len() / 10,
        "mean diff {mean} vs arena {}",
        key.len()
    );

    // Forward from the keyframe.
    let mut s = Snapshot::decode_keyframe(&keyframe).unwrap();
    assert!(s.bytes() == key.bytes());
    for (i, d) in diffs.iter().enumerate() {
        s.apply_diff(d).unwrap();
        assert!(s.bytes() == reference[i + 1].bytes(), "forward frame {i}");
    }
    // Backward from the live state.
    for (i, d) in diffs.iter().enumerate().rev() {
        live.apply_diff(d).unwrap();
        assert!(live.bytes() == reference[i].bytes(), "backward frame {i}");
    }
    // A decoded snapshot restores, and the VM continues exactly as recorded.
    s = Snapshot::decode_keyframe(&keyframe).unwrap();
    for d in &diffs[..100] {
        s.apply_diff(d).unwrap();
    }
    vm.restore(&s).unwrap();
    assert!(vm.snapshot().bytes() == reference[100].bytes());

    // Encodings between two plain snapshots work the same way.
    let mut d = Vec::new();
    reference[50].encode_diff(&reference[10], &mut d).unwrap();
    let mut t = reference[10].clone();
    t.apply_diff(&d).unwrap();
    assert!(t.bytes() == reference[50].bytes());
    t.apply_diff(&d).unwrap();
    assert!(t.bytes() == reference[10].bytes());
}

#[test]
fn wrong_base_corruption_and_foreign_data_are_refused() {
    let (mut vm, host) = hud_vm(VmConfig::default());
    frame(&mut vm, &host).unwrap();
    let a = vm.snapshot();
    frame(&mut vm, &host).unwrap();
    let b = vm.snapshot();
    frame(&mut vm, &host).unwrap();
    let c = vm.snapshot();
    let mut d = Vec::new();
    b.encode_diff(&a, &mut d).unwrap();

    let mut other = c.clone();
    assert_eq!(other.apply_diff(&d), Err(CodecError::WrongBase));
    assert!(other == c, "a refused diff leaves the snapshot unchanged");
    // Any flipped byte is detected by the keyed checksum.
    for i in (0..d.len()).step_by(d.len() / 50 + 1) {
        let mut bad = d.clone();
        bad[i] ^= 0x40;
        let mut t = a.clone();
        assert!(t.apply_diff(&bad).is_err(), "byte {i}");
        assert!(t == a);
    }
    for cut in [0, 10, 56, d.len() - 1] {
        assert!(a.clone().apply_diff(&d[..cut]).is_err());
    }
    assert_eq!(Snapshot::decode_keyframe(&d), Err(CodecError::WrongKind));
    let mut k = Vec::new();
    a.encode_keyframe(&mut k);
    assert_eq!(a.clone().apply_diff(&k), Err(CodecError::WrongKind));

    // Snapshots of another VM are refused by restore and by the codec.
    let (mut vm2, _host2) = hud_vm(VmConfig::default());
    assert!(vm2.restore(&a).is_err());
    let z = vm2.snapshot();
    assert_eq!(
        z.encode_diff(&a, &mut Vec::new()),
        Err(CodecError::ForeignSnapshot)
    );
    let mut live = vm2.snapshot();
    assert!(vm.snapshot_diff(&mut live, &mut Vec::new()).is_err());
}
