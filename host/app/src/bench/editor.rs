//! `gbhost bench --editor-paint`: how long the TAS editor's piano roll takes to draw over a
//! long movie. A roll of N frames (100,000 by default; every frame's buttons, lag and some
//! markers differ) is drawn in a 1280 × 1000 egui viewport, scrolled to a new place every
//! pass so each pass lays out rows it has not just drawn; a pass is egui's layout plus
//! tessellation (what the app does before the GPU). Prints the median, the 95th percentile and
//! the worst pass, in milliseconds, against a 60 Hz frame's 16.7 ms.

use std::collections::BTreeMap;
use std::sync::Arc;

use anyhow::Result;
use eframe::egui;
use gb_session::data::Pads;

use crate::emu::EditorView;
use crate::ui::piano_roll::{ROW_HEIGHT, draw_rows};

/// A made-up editor of `n` frames.
fn roll(n: usize) -> EditorView {
    let frames: Vec<Pads> = (0..n).map(|i| Pads((i * 37 % 256) as u16)).collect();
    let markers: BTreeMap<u64, String> = (0..n as u64)
        .step_by(50)
        .map(|f| (f, format!("marker {f}")))
        .collect();
    EditorView {
        version: 1,
        start: 0,
        lag: Arc::new((0..n / 2).map(|i| Some(i % 3 == 0)).collect()),
        lag_count: n / 6,
        frames: Arc::new(frames),
        markers: Arc::new(markers),
        valid_end: n as u64 / 2,
        target: n as u64 / 2,
        held: Some((0, n as u64)),
        ..EditorView::default()
    }
}

/// Run the benchmark: `frames` rows, `passes` timed passes.
pub fn run(frames: usize, passes: usize) -> Result<()> {
    let ed = roll(frames.max(1));
    let visible = (1000.0 / ROW_HEIGHT) as usize;
    crate::bench::paint::run(
        &format!("editor-paint: {frames} frames, about {visible} rows visible, {passes} passes"),
        passes,
        |ui, pass| {
            let first = (pass * 7919) % frames.max(1);
            ui.spacing_mut().item_spacing.y = 0.0;
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .vertical_scroll_offset(first as f32 * ROW_HEIGHT)
                .show_rows(ui, ROW_HEIGHT, ed.frames.len() + 1, |ui, rows| {
                    draw_rows(ui, &ed, first as u64 + 3, None, None, rows, |_, _, _| {});
                });
        },
    );
    Ok(())
}
