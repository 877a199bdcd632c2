//! `gbhost bench --editor-paint`: how long the TAS editor's piano roll takes to draw over a
//! long movie. A roll of N frames (100,000 by default; every frame's buttons, lag and some
//! markers differ) is drawn in a 1280 × 1000 egui viewport, scrolled to a new place every
//! pass so each pass lays out rows it has not just drawn; a pass is egui's layout plus
//! tessellation (what the app does before the GPU). Prints the median, the 95th percentile and
//! the worst pass, in milliseconds, against a 60 Hz frame's 16.7 ms.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;
use eframe::egui;
use gb_core::Buttons;

use crate::emu::EditorView;
use crate::ui::piano_roll::{ROW_HEIGHT, draw_rows};

/// A made-up editor of `n` frames.
fn roll(n: usize) -> EditorView {
    let frames: Vec<Buttons> = (0..n).map(|i| Buttons((i * 37 % 256) as u8)).collect();
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
    let ctx = egui::Context::default();
    let mut times = Vec::with_capacity(passes);
    let mut rows_drawn = 0;
    let warmup = 20;
    for pass in 0..passes + warmup {
        let first = (pass * 7919) % frames.max(1);
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1280.0, 1000.0),
            )),
            ..Default::default()
        };
        let t0 = Instant::now();
        let out = ctx.run_ui(input, |ui| {
            ui.spacing_mut().item_spacing.y = 0.0;
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .vertical_scroll_offset(first as f32 * ROW_HEIGHT)
                .show_rows(ui, ROW_HEIGHT, ed.frames.len() + 1, |ui, rows| {
                    rows_drawn = rows.len();
                    draw_rows(ui, &ed, first as u64 + 3, None, None, rows, |_, _, _| {});
                });
        });
        let egui::FullOutput {
            shapes,
            pixels_per_point,
            mut textures_delta,
            ..
        } = out;
        // No GPU here: the font atlas' uploads are dropped.
        textures_delta.clear();
        let prims = ctx.tessellate(shapes, pixels_per_point);
        std::hint::black_box(prims);
        if pass >= warmup {
            times.push(t0.elapsed().as_secs_f64() * 1000.0);
        }
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!("editor-paint: {frames} frames, {rows_drawn} rows visible, {passes} passes");
    println!(
        "median-ms: {:.3}\np95-ms: {:.3}\nmax-ms: {:.3}\nbudget-ms: 16.7 ({})",
        at(0.5),
        at(0.95),
        at(1.0),
        if at(0.5) < 16.7 { "within" } else { "OVER" }
    );
    Ok(())
}
