//! A measurement, not a check: where the script part of the rewind ring's bytes comes from,
//! with the benchmark HUD (`examples/bench_hud.lua`) on Tobu Tobu Girl. Built only with the
//! `census` feature, so the test suite never runs it:
//! `cargo test --release -p gb-session --features census census -- --nocapture`
//! (`CENSUS_FRAMES` sets the frames; 3,600 by default). It prints the ring bytes of keyframe
//! and diff records, then the words that change per frame in the HUD's arena by region and
//! object kind ([`lua_rollback::census`]), and the blocks where most of them fall. A second
//! measurement, `step_back_parts`, times the parts of one step back.

use lua_rollback::census::{self, Census};

use crate::{Session, SessionConfig};

/// The bench's gameplay input (`host/app/src/bench/rewind.rs`).
fn input(frame: u64) -> gb_core::Buttons {
    match frame {
        0..=59 => gb_core::Buttons(0),
        60..=64 | 120..=124 => gb_core::Buttons::START,
        _ => {
            let mut x = (frame / 6).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            x ^= x >> 29;
            gb_core::Buttons([0x01, 0x02, 0x11, 0x12, 0x00, 0x10][(x % 6) as usize])
        }
    }
}

/// Tobu Tobu Girl with the benchmark HUD loaded, as the rewind bench runs it.
fn hud_session(rom: Vec<u8>) -> Session {
    let config = SessionConfig {
        desync_check: false,
        ..SessionConfig::default()
    };
    let mut s = Session::new(rom, None, config).expect("session");
    s.load_script(
        "bench_hud.lua",
        include_str!("../../../../examples/bench_hud.lua"),
    );
    s
}

#[test]
fn census_of_the_bench_hud() {
    let Some(rom) = gb_testkit::shared_rom_bytes("homebrew/tobutobugirl/tobutobugirl.gb") else {
        return;
    };
    let frames: u64 = std::env::var("CENSUS_FRAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3600);
    let mut s = hud_session(rom);
    let mut prev: Option<Vec<u8>> = None;
    let mut all = Census::default();
    let (mut key_bytes, mut diff_bytes, mut keys, mut counted) = (0usize, 0usize, 0, 0u64);
    let warmup = 300;
    let mut raw: Vec<Vec<u8>> = Vec::new();
    for f in 0..frames {
        s.set_buttons(input(f));
        s.run_frame();
        let st = s.stats().clone();
        let script_bytes = st.record_bytes - st.record_core_bytes;
        let vm = &mut s.scripts.list[0].vm;
        let snap = vm.snapshot();
        if f >= warmup {
            counted += 1;
            if st.record_keyframe {
                key_bytes += script_bytes;
                keys += 1;
            } else {
                diff_bytes += script_bytes;
            }
            if let Some(p) = &prev {
                all.merge(&census::diff(p, snap.bytes()));
                let mut d = Vec::new();
                lua_rollback::codec::encode(p, snap.bytes(), &mut d);
                raw.push(d);
            }
        }
        prev = Some(snap.bytes().to_vec());
    }
    let n = counted.max(1) as f64;
    let stats = s.scripts.list[0].vm.stats();
    println!(
        "frames {counted} after {warmup}; arena used {} B, high water {} B",
        stats.used, stats.high_water
    );
    println!(
        "script ring bytes per frame: {:.0} in diff records, {:.0} in {keys} keyframe records \
         (spread over all frames); per emulated second {:.0}",
        diff_bytes as f64 / n,
        key_bytes as f64 / n,
        (diff_bytes + key_bytes) as f64 / n * 59.73
    );
    let t = all.total();
    println!(
        "changed words per frame {:.1}, codec bytes per frame {:.1}",
        t.words as f64 / n,
        t.coded as f64 / n
    );
    compression(&raw);
    if let Some(p) = &prev {
        for level in [-1, 1, 3, 6, 9] {
            let t = std::time::Instant::now();
            let z = zstd::bulk::compress(p, level).expect("zstd").len();
            println!(
                "keyframe of {} B at zstd {level}: {z} B in {:?}",
                p.len(),
                t.elapsed()
            );
        }
    }
    let mut kinds: Vec<_> = all.by_kind.iter().collect();
    kinds.sort_by_key(|(_, t)| std::cmp::Reverse(t.coded));
    for (k, t) in kinds {
        println!(
            "  {:>8.1} words {:>8.1} coded B/frame  {k}",
            t.words as f64 / n,
            t.coded as f64 / n
        );
    }
    let mut blocks: Vec<_> = all.by_block.iter().collect();
    blocks.sort_by_key(|(_, (_, _, t))| std::cmp::Reverse(t.coded));
    println!("blocks with the most changes:");
    for (at, (size, label, t)) in blocks.iter().take(25) {
        println!(
            "  @{at:>7} size {size:>6} {:>8.1} words {:>8.1} coded B/frame  {label}",
            t.words as f64 / n,
            t.coded as f64 / n
        );
    }
}

/// Per-frame bytes of the diffs `raw` under several ways of compressing them.
fn compression(raw: &[Vec<u8>]) {
    let n = raw.len().max(1) as f64;
    let plain: usize = raw.iter().map(Vec::len).sum();
    println!("codec output per frame: {:.1} B", plain as f64 / n);
    for level in [-1, 1, 3, 6] {
        let mut c = zstd::bulk::Compressor::new(level).expect("zstd");
        let each: usize = raw
            .iter()
            .map(|d| c.compress(d).expect("zstd").len().min(d.len()))
            .sum();
        println!(
            "zstd {level} each frame alone: {:.1} B/frame",
            each as f64 / n
        );
        for batch in [4, 8, 16, 60] {
            let b: usize = raw
                .chunks(batch)
                .map(|ch| c.compress(&ch.concat()).expect("zstd").len())
                .sum();
            println!("  batches of {batch}: {:.1} B/frame", b as f64 / n);
        }
        for batch in [16, 32] {
            // What the ring does: batches, from a group's second one on against a dictionary
            // of the group's first 16 diffs (600-frame groups).
            let mut total = 0usize;
            for group in raw.chunks(600) {
                let dict = group[..16.min(group.len())].concat();
                let mut d = zstd::bulk::Compressor::with_dictionary(level, &dict).expect("dict");
                for (i, ch) in group.chunks(batch).enumerate() {
                    let z = if i * batch >= 16 {
                        d.compress(&ch.concat())
                    } else {
                        c.compress(&ch.concat())
                    };
                    total += z.expect("zstd").len();
                }
            }
            println!(
                "  batches of {batch}, with the group's dictionary: {:.1} B/frame",
                total as f64 / n
            );
        }
        for k in [16, 32, 64] {
            // A dictionary per group of 600 frames: its own first k diffs.
            let mut total = 0usize;
            for group in raw.chunks(600) {
                let dict = group[..k.min(group.len())].concat();
                let mut c = zstd::bulk::Compressor::with_dictionary(level, &dict).expect("dict");
                let mut plain = zstd::bulk::Compressor::new(level).expect("zstd");
                total += group
                    .iter()
                    .enumerate()
                    .map(|(i, d)| {
                        let z = if i < k {
                            plain.compress(d)
                        } else {
                            c.compress(d)
                        };
                        z.expect("zstd").len().min(d.len())
                    })
                    .sum::<usize>();
            }
            println!(
                "  dictionary of the group's own first {k} diffs: {:.1} B/frame",
                total as f64 / n
            );
        }
        for k in [16] {
            // A dictionary per group of 600 frames: the k diffs before the group.
            let mut total = 0usize;
            let mut dicts = 0usize;
            for (g, group) in raw.chunks(600).enumerate().skip(1) {
                let start = g * 600;
                let dict = raw[start - k..start].concat();
                dicts += zstd::bulk::compress(&dict, 3).expect("zstd").len();
                let mut c = zstd::bulk::Compressor::with_dictionary(level, &dict).expect("dict");
                total += group
                    .iter()
                    .map(|d| c.compress(d).expect("zstd").len().min(d.len()))
                    .sum::<usize>();
            }
            let frames = (raw.len() / 600).saturating_sub(1).max(1) as f64 * 600.0;
            println!(
                "  dictionary of the {k} diffs before each 600-frame group: {:.1} B/frame + dict {:.1}",
                total as f64 / frames,
                dicts as f64 / frames
            );
        }
    }
}

/// Median of `v` (microseconds).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

#[test]
fn step_back_parts() {
    let Some(rom) = gb_testkit::shared_rom_bytes("homebrew/tobutobugirl/tobutobugirl.gb") else {
        return;
    };
    let mut s = hud_session(rom);
    for f in 0..3000 {
        s.set_buttons(input(f));
        s.run_frame();
    }
    let (mut mv, mut core, mut vm, mut watches, mut vm2) = (vec![], vec![], vec![], vec![], vec![]);
    let us = |t: std::time::Instant| t.elapsed().as_secs_f64() * 1e6;
    for _ in 0..200 {
        let t = s.frame() - 1;
        let at = std::time::Instant::now();
        let slots = s.timeline.history.move_to(t).expect("move");
        mv.push(us(at));
        assert_eq!(slots.len(), 1);
        let at = std::time::Instant::now();
        s.timeline.history.load_core(&mut s.machine).expect("core");
        core.push(us(at));
        let at = std::time::Instant::now();
        s.timeline
            .history
            .load_vm(&mut s.scripts.list[0])
            .expect("vm");
        vm.push(us(at));
        s.timeline.frame = t;
        let at = std::time::Instant::now();
        s.rebuild_watches();
        watches.push(us(at));
        let at = std::time::Instant::now();
        s.timeline
            .history
            .load_vm(&mut s.scripts.list[0])
            .expect("vm");
        vm2.push(us(at));
    }
    println!(
        "step back, medians in us: cursor move {:.1}, core load {:.1}, arena restore {:.1}, \
         watch list (Lua) {:.1}, arena restore again {:.1}",
        median(mv),
        median(core),
        median(vm),
        median(watches),
        median(vm2)
    );
}
