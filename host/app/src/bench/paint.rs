//! What the window-drawing benchmarks share (`bench/editor.rs`, `bench/search.rs`): run a
//! drawing pass many times in a 1280 × 1000 egui viewport, each pass egui's layout plus
//! tessellation (what the app does before the GPU), after 20 untimed passes; print the median,
//! the 95th percentile and the worst pass in milliseconds against a 60 Hz frame's 16.7 ms.

use std::time::Instant;

use eframe::egui;

/// Time `passes` passes of `draw(ui, pass)` and print the figures under `title`.
pub fn run(title: &str, passes: usize, mut draw: impl FnMut(&mut egui::Ui, usize)) {
    let ctx = egui::Context::default();
    let mut times = Vec::with_capacity(passes);
    let warmup = 20;
    for pass in 0..passes + warmup {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1280.0, 1000.0),
            )),
            ..Default::default()
        };
        let t0 = Instant::now();
        let out = ctx.run_ui(input, |ui| draw(ui, pass));
        let egui::FullOutput {
            shapes,
            pixels_per_point,
            mut textures_delta,
            ..
        } = out;
        // No GPU here: the font atlas' uploads are dropped.
        textures_delta.clear();
        std::hint::black_box(ctx.tessellate(shapes, pixels_per_point));
        if pass >= warmup {
            times.push(t0.elapsed().as_secs_f64() * 1000.0);
        }
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!("{title}");
    println!(
        "median-ms: {:.3}\np95-ms: {:.3}\nmax-ms: {:.3}\nbudget-ms: 16.7 ({})",
        at(0.5),
        at(0.95),
        at(1.0),
        if at(0.5) < 16.7 { "within" } else { "OVER" }
    );
}
