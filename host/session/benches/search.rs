//! RAM search speed: starting a search over 8 KiB of work RAM (every byte a candidate),
//! filtering all 8,192 candidates (the goal: ≤ 1 ms), filtering 32 KiB (the CGB's work
//! RAM, 2-byte values, misaligned), counting changes each frame, and reading the 10,000 rows a
//! list would show. Medians of 9 rounds; `cargo bench -p gb-session --bench search` prints
//! `NAME-us: X` lines.

use gb_core::Domain;
use gb_session::tools::search::{Display, Filter, Layout, Op, Operand, Search};
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Microseconds per run of `f`, median of 9 rounds of `n` runs.
fn time(n: u32, mut f: impl FnMut()) -> f64 {
    let mut rounds = Vec::new();
    for _ in 0..9 {
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        rounds.push(t.elapsed().as_secs_f64() * 1e6 / f64::from(n));
    }
    median(rounds)
}

/// Memory that looks like a game's: mostly still, some bytes moving.
fn memory(len: usize, frame: u32) -> Vec<u8> {
    (0..len)
        .map(|i| {
            let x = (i as u32).wrapping_mul(2_654_435_761);
            if x.is_multiple_of(7) {
                (x >> 8).wrapping_add(frame) as u8
            } else {
                (x >> 16) as u8
            }
        })
        .collect()
}

fn main() {
    let wram = memory(0x2000, 0);
    let later = memory(0x2000, 3);
    let layout = Layout::default();
    let start = time(200, || {
        std::hint::black_box(Search::new(Domain::Wram, layout, &wram).unwrap());
    });
    println!("new-8KiB-us: {start:.1}");
    let fresh = Search::new(Domain::Wram, layout, &wram).unwrap();
    for (name, filter) in [
        (
            "filter-8KiB-previous-us",
            Filter {
                op: Op::Ne,
                operand: Operand::Previous,
            },
        ),
        (
            "filter-8KiB-value-us",
            Filter {
                op: Op::Lt,
                operand: Operand::Value(100),
            },
        ),
        (
            "filter-8KiB-differs-by-us",
            Filter {
                op: Op::DiffersBy(3),
                operand: Operand::Previous,
            },
        ),
    ] {
        let us = time(200, || {
            let mut s = fresh.clone();
            std::hint::black_box(s.filter(filter, &later));
        });
        // The clone is part of the measure: it only makes the figure larger.
        println!("{name}: {us:.1}");
    }
    let cgb = memory(0x8000, 0);
    let cgb_later = memory(0x8000, 5);
    let wide = Layout {
        size: 2,
        display: Display::Signed,
        big_endian: false,
        aligned: false,
    };
    let big = Search::new(Domain::Wram, wide, &cgb).unwrap();
    let us = time(50, || {
        let mut s = big.clone();
        std::hint::black_box(s.filter(
            Filter {
                op: Op::Gt,
                operand: Operand::Previous,
            },
            &cgb_later,
        ));
    });
    println!("filter-32KiB-2s-misaligned-us: {us:.1}");
    let mut s = fresh.clone();
    let us = time(200, || s.observe(&later));
    println!("observe-8KiB-us: {us:.1}");
    let us = time(200, || {
        std::hint::black_box(fresh.rows(0..10_000, &later));
    });
    println!("rows-10000-us: {us:.1}");
}
