//! Page-write tracking and the end-of-frame collection: a diff built from the tracked pages
//! must be exactly the diff of a full compare, frame after frame, through collections, arena
//! growth, restores and diffs against other snapshots; and collecting each frame's garbage
//! must keep diffs small without changing what the script does.

use crate::common::{HUD, Rng, frame, hud_vm, script_vm};
use lua_rollback::{GcMode, Snapshot, VmConfig, codec};

const HEADER: usize = 56;

fn generational() -> GcMode {
    GcMode::Generational {
        minor_multiplier: 0,
        major_multiplier: 0,
    }
}

#[test]
fn tracked_diffs_equal_full_compare_diffs() {
    let (mut vm, host) = hud_vm(VmConfig {
        track_writes: true,
        ..VmConfig::default()
    });
    let tracking = vm.tracking_writes();
    if !tracking {
        eprintln!("page-write tracking unsupported here: only the full-compare path is tested");
    }
    let mut rng = Rng(0x1234_5678_9abc_def0);
    let mut prev = vm.snapshot();
    let mut history: Vec<(Snapshot, crate::common::HostState)> = Vec::new();
    let mut out = Vec::new();
    let mut full = Vec::new();
    for f in 0..1200 {
        frame(&mut vm, &host).unwrap();
        if f % 3 != 0 {
            vm.collect_frame().unwrap();
        }
        match f % 97 {
            // Grow the arena well past its high-water mark, then drop it again.
            10 => {
                vm.exec("=grow", "BIG = {} for i = 1, 20000 do BIG[i] = i * 3 end")
                    .unwrap();
            }
            40 => {
                vm.exec("=shrink", "BIG = nil collectgarbage()").unwrap();
            }
            // Restore an older frame between two diffs.
            60 if !history.is_empty() => {
                let (s, h) = &history[(rng.next() % history.len() as u64) as usize];
                vm.restore(s).unwrap();
                host.set_state(*h);
            }
            _ => {}
        }
        // Now and then, diff against a snapshot other than the last one produced.
        if f % 89 == 5 && !history.is_empty() {
            prev = history[(rng.next() % history.len() as u64) as usize]
                .0
                .clone();
        }
        let base = prev.clone();
        out.clear();
        vm.snapshot_diff(&mut prev, &mut out).unwrap();
        let live = vm.snapshot();
        assert!(
            prev.bytes() == live.bytes(),
            "frame {f}: snapshot not brought up to date"
        );
        full.clear();
        codec::encode(base.bytes(), live.bytes(), &mut full);
        assert!(out[HEADER..] == full[..], "frame {f}: tracked diff differs");
        // The diff moves the base forward and back.
        let mut walk = base.clone();
        walk.apply_diff(&out).unwrap();
        assert!(walk.bytes() == live.bytes());
        walk.apply_diff(&out).unwrap();
        assert!(walk.bytes() == base.bytes());
        if f % 50 == 0 {
            history.push((live, host.state()));
            vm.check_arena().unwrap();
        }
    }
    vm.check_arena().unwrap();
    // A failed scan would turn tracking off (and this test vacuous).
    assert_eq!(vm.tracking_writes(), tracking);
}

#[test]
fn collecting_each_frame_shrinks_diffs() {
    // Same script, same frames, with and without the end-of-frame collection. (Outputs may
    // differ: the script reads `collectgarbage("count")` and keeps a weak cache.)
    let config = VmConfig {
        gc: generational(),
        ..VmConfig::default()
    };
    let (mut a, host_a) = script_vm(config.clone(), "@hud.lua", HUD);
    let (mut b, host_b) = script_vm(config, "@hud.lua", HUD);
    let (mut prev_a, mut prev_b) = (a.snapshot(), b.snapshot());
    let (mut size_a, mut size_b) = (0, 0);
    let mut out = Vec::new();
    for f in 0..600 {
        frame(&mut a, &host_a).unwrap();
        frame(&mut b, &host_b).unwrap();
        b.collect_frame().unwrap();
        out.clear();
        a.snapshot_diff(&mut prev_a, &mut out).unwrap();
        if f >= 300 {
            size_a += out.len();
        }
        out.clear();
        b.snapshot_diff(&mut prev_b, &mut out).unwrap();
        if f >= 300 {
            size_b += out.len();
        }
    }
    b.check_arena().unwrap();
    assert!(
        size_b * 2 < size_a,
        "collecting each frame: {size_b} B, without: {size_a} B"
    );
    assert!(size_b / 300 < 2048, "{} B per frame", size_b / 300);
    // Memory stays bounded: major collections still happen.
    assert!(b.stats().used < 1 << 20, "{:?}", b.stats());
}

#[test]
fn collect_frame_works_in_every_mode() {
    for gc in [
        generational(),
        GcMode::Incremental {
            pause: 0,
            step_multiplier: 0,
            step_size: 0,
        },
        GcMode::Manual,
    ] {
        let (mut vm, host) = hud_vm(VmConfig {
            gc,
            ..VmConfig::default()
        });
        for f in 0..150 {
            frame(&mut vm, &host).unwrap();
            vm.check_arena()
                .unwrap_or_else(|e| panic!("{gc:?} frame {f} after frame: {e}"));
            vm.collect_frame().unwrap();
            vm.check_arena()
                .unwrap_or_else(|e| panic!("{gc:?} frame {f} after collect: {e}"));
        }
        vm.check_arena().unwrap();
        assert!(vm.stats().used < 1 << 20, "{gc:?}: {:?}", vm.stats());
    }
}
