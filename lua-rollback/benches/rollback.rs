//! Rollback benchmark: the sync-test HUD script and the research prototype's (both in
//! `tests/scripts/`) after warm-up, per GC mode. Prints arena size, snapshot / restore / diff
//! times, per-frame diff sizes (our coding, and with zstd-1 / lz4 on top) and script time per
//! frame. Run with `cargo bench -p lua-rollback`.

#[path = "../tests/it/common.rs"]
#[allow(dead_code, reason = "the benchmark uses only part of the test helpers")]
mod common;

use std::time::{Duration, Instant};

use common::{HUD, frame, script_vm};
use lua_rollback::{GcMode, Snapshot, Vm, VmConfig, codec};

/// The benchmark HUD (`examples/bench_hud.lua`, the research prototype's script), so the
/// figures compare with the prototype's and with the session's rewind bench.
const PROTO_HUD: &str = include_str!("../../examples/bench_hud.lua");

const WARMUP: usize = 300;
const FRAMES: usize = 600;

/// How the host drives the collector each frame.
#[derive(Clone, Copy)]
enum HostGc {
    None,
    Frame,
    Full,
}

struct Stats(Vec<f64>);

impl Stats {
    fn mean(&self) -> f64 {
        self.0.iter().sum::<f64>() / self.0.len() as f64
    }
    fn pct(&self, p: f64) -> f64 {
        let mut v = self.0.clone();
        v.sort_by(f64::total_cmp);
        v[((v.len() - 1) as f64 * p).round() as usize]
    }
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn run(name: &str, script: &str, gc: GcMode, host_gc: HostGc, track_writes: bool) {
    let (mut vm, host) = script_vm(
        VmConfig {
            gc,
            track_writes,
            ..VmConfig::default()
        },
        "@script.lua",
        script,
    );
    let step = |vm: &mut Vm| match host_gc {
        HostGc::None => {}
        HostGc::Frame => vm.collect_frame().unwrap(),
        HostGc::Full => vm.gc_collect().unwrap(),
    };
    for _ in 0..WARMUP {
        frame(&mut vm, &host).unwrap();
        step(&mut vm);
    }
    let mut live = vm.snapshot();
    let mut full = vm.snapshot();
    let (mut script, mut encode, mut snap, mut restore, mut back) =
        (vec![], vec![], vec![], vec![], vec![]);
    let (mut ours, mut zstd1, mut lz4, mut xor_zstd) = (vec![], vec![], vec![], vec![]);
    let mut changed_words = vec![];
    let (mut raw_enc, mut raw_dec) = (vec![], vec![]);
    let mut prev_full: Snapshot = full.clone();
    let mut used = 0;
    let mut out = Vec::new();
    for _ in 0..FRAMES {
        let t = Instant::now();
        frame(&mut vm, &host).unwrap();
        step(&mut vm);
        script.push(us(t.elapsed()));

        out.clear();
        let t = Instant::now();
        vm.snapshot_diff(&mut live, &mut out).unwrap();
        encode.push(us(t.elapsed()));
        ours.push(out.len() as f64);
        zstd1.push(zstd::bulk::compress(&out, 1).unwrap().len() as f64);
        lz4.push(lz4_flex::compress_prepend_size(&out).len() as f64);

        let t = Instant::now();
        vm.snapshot_into(&mut full);
        snap.push(us(t.elapsed()));
        let t = Instant::now();
        vm.restore(&full).unwrap();
        restore.push(us(t.elapsed()));

        // The prototype's measure: zstd-1 of the raw XOR against the previous frame.
        let n = full.len().max(prev_full.len());
        let xor: Vec<u8> = (0..n)
            .map(|i| full.bytes().get(i).unwrap_or(&0) ^ prev_full.bytes().get(i).unwrap_or(&0))
            .collect();
        changed_words.push(xor.chunks(8).filter(|w| w.iter().any(|&b| b != 0)).count() as f64);
        xor_zstd.push(zstd::bulk::compress(&xor, 1).unwrap().len() as f64);

        // One backward step (what a seek walking back from the live state pays per frame).
        let mut walk = live.clone();
        let t = Instant::now();
        walk.apply_diff(&out).unwrap();
        back.push(us(t.elapsed()));
        assert!(walk.bytes() == prev_full.bytes());
        // Raw codec costs, for the breakdown.
        let mut raw = Vec::with_capacity(out.len());
        let t = Instant::now();
        codec::encode(prev_full.bytes(), full.bytes(), &mut raw);
        raw_enc.push(us(t.elapsed()));
        let mut buf = full.bytes().to_vec();
        buf.resize(codec::encoded_words(&raw).unwrap() * 8, 0);
        let t = Instant::now();
        codec::apply(&mut buf, &raw).unwrap();
        raw_dec.push(us(t.elapsed()));
        std::mem::swap(&mut prev_full, &mut full);
        used = used.max(vm.stats().high_water);
    }
    let s = vm.stats();
    if track_writes && !vm.tracking_writes() {
        println!("{name}: page-write tracking unsupported here, compared every page");
    }
    let (ours, zstd1, lz4, xor_zstd) = (Stats(ours), Stats(zstd1), Stats(lz4), Stats(xor_zstd));
    println!(
        "{name:<28} arena hw {:>4} KB used {:>4} KB | script {:>5.1} us | snapshot {:>5.1} us restore {:>5.1} us | \
         diff+copy {:>5.1} us (p99 {:>5.1}) back {:>5.1} us | words/frame {:>5.0} | \
         ours {:>5.0} B (p99 {:>5.0}) +zstd1 {:>5.0} (p99 {:>5.0}) +lz4 {:>5.0} | raw xor+zstd1 {:>5.0} (p99 {:>5.0})",
        used / 1024,
        s.used / 1024,
        Stats(script).pct(0.5),
        Stats(snap).pct(0.5),
        Stats(restore).pct(0.5),
        Stats(encode.clone()).pct(0.5),
        Stats(encode).pct(0.99),
        Stats(back).pct(0.5),
        Stats(changed_words).mean(),
        ours.mean(),
        ours.pct(0.99),
        zstd1.mean(),
        zstd1.pct(0.99),
        lz4.mean(),
        xor_zstd.mean(),
        xor_zstd.pct(0.99),
    );
    // The compare alone: encoding a snapshot against itself.
    let mut scan = vec![];
    let mut sink = Vec::new();
    for _ in 0..200 {
        sink.clear();
        let t = Instant::now();
        codec::encode(prev_full.bytes(), prev_full.bytes(), &mut sink);
        scan.push(us(t.elapsed()));
    }
    println!(
        "{:<28} raw codec: encode {:>5.1} us (of which comparing {:>5.1} us), apply {:>5.1} us (medians)",
        "",
        Stats(raw_enc).pct(0.5),
        Stats(scan).pct(0.5),
        Stats(raw_dec).pct(0.5)
    );
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --all-targets` runs this binary without it
    // (in the unoptimized test profile): do nothing then.
    if !std::env::args().any(|a| a == "--bench") {
        println!("rollback benchmark: run it with `cargo bench -p lua-rollback`");
        return;
    }
    println!(
        "lua-rollback bench: HUD script, {WARMUP} warm-up frames, {FRAMES} measured; times are medians"
    );
    let inc = |pause, step_multiplier| GcMode::Incremental {
        pause,
        step_multiplier,
        step_size: 0,
    };
    let gen_ = |minor_multiplier, major_multiplier| GcMode::Generational {
        minor_multiplier,
        major_multiplier,
    };
    let workloads = [
        ("sync-test HUD (345 lines)", HUD),
        ("prototype HUD (234 lines)", PROTO_HUD),
    ];
    for (script_name, script) in workloads {
        println!("== {script_name}");
        run(
            "incremental (200,100)",
            script,
            inc(0, 0),
            HostGc::None,
            false,
        );
        run(
            "generational (20,100)",
            script,
            gen_(0, 0),
            HostGc::None,
            false,
        );
        run(
            "generational (5,100)",
            script,
            gen_(5, 100),
            HostGc::None,
            false,
        );
        run(
            "gen, collect_frame",
            script,
            gen_(0, 0),
            HostGc::Frame,
            false,
        );
        run(
            "gen (50,100), collect_frame",
            script,
            gen_(50, 100),
            HostGc::Frame,
            false,
        );
        run(
            "gen, collect_frame, tracked",
            script,
            gen_(0, 0),
            HostGc::Frame,
            true,
        );
        run(
            "manual, host full/frame",
            script,
            GcMode::Manual,
            HostGc::Full,
            false,
        );
    }
    // A script holding a few megabytes of data it only reads: whole-arena compares grow with
    // the arena, tracked ones with what a frame writes.
    let big = format!("BIG = {{}} for i = 1, 30000 do BIG[i] = {{ i, tostring(i) }} end\n{HUD}");
    println!("== sync-test HUD + 30,000 static rows");
    for (name, track) in [
        ("gen, collect_frame", false),
        ("gen, collect_frame, tracked", true),
    ] {
        run(name, &big, gen_(0, 0), HostGc::Frame, track);
    }
}
