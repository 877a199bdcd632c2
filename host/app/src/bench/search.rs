//! `gbhost bench --search-list`: how long the RAM Search window's candidate list takes to
//! draw with many candidates (10,000 by default, as after a first filter of 32 KiB of work
//! RAM). The list is drawn in a 1280 × 1000 egui viewport, scrolled to a new place every pass
//! so each pass lays out rows it has not just drawn; a pass is egui's layout plus tessellation
//! (what the app does before the GPU). Prints the median, the 95th percentile and the worst
//! pass, in milliseconds, against a 60 Hz frame's 16.7 ms.

use std::sync::Arc;

use anyhow::Result;
use gb_core::Domain;
use gb_session::tools::search::{Candidate, Display, Layout};

use crate::emu::SearchView;
use crate::ui::ram_search::candidate_list;

/// A made-up search of `n` candidates over the CGB's 32 KiB of work RAM.
fn search(n: usize) -> SearchView {
    let rows: Vec<Candidate> = (0..n)
        .map(|i| Candidate {
            offset: (i * 3 % 0x8000) as u32,
            current: (i * 37 % 65_536) as u32,
            previous: (i * 11 % 65_536) as u32,
            changes: (i % 97) as u32,
        })
        .collect();
    SearchView {
        domain: Domain::Wram,
        domain_len: 0x8000,
        layout: Layout {
            size: 2,
            display: Display::Signed,
            big_endian: false,
            aligned: false,
        },
        count: n,
        filters: Vec::new(),
        rows: Arc::new(rows),
    }
}

/// Run the benchmark: `candidates` rows, `passes` timed passes.
pub fn run(candidates: usize, passes: usize) -> Result<()> {
    let view = search(candidates.max(1));
    let mut selected = None;
    crate::bench::paint::run(
        &format!("search-list: {candidates} candidates, {passes} passes"),
        passes,
        |ui, pass| {
            let first = (pass * 7919) % candidates.max(1);
            candidate_list(ui, &view, &mut selected, Some(first));
        },
    );
    Ok(())
}
