//! The Game Boy screen: the picture as a texture scaled by an integer factor (nearest
//! neighbour, so pixels stay square and sharp), and the scripts' overlays painted on top at
//! the same scale.

use crate::config::LinkLayout;
use eframe::egui;
use gb_session::DrawCmd;

/// The textures the screen is drawn from, kept between frames so a picture is uploaded only
/// when it changed.
#[derive(Default)]
pub(super) struct Textures {
    /// The game's picture.
    pub(super) game: Option<egui::TextureHandle>,
    /// The picture [`Textures::game`] holds.
    pub(super) shown: Vec<u8>,
    /// The TAS editor's ghost picture, drawn translucent over the game, with the picture it holds.
    pub(super) ghost: Option<(egui::TextureHandle, std::sync::Arc<Vec<u8>>)>,
    /// A linked pair's second player's picture, with the picture it holds.
    pub(super) second: Option<(egui::TextureHandle, Vec<u8>)>,
}

impl Textures {
    /// The second player's texture showing `picture` (uploaded when it changed).
    pub(super) fn second(&mut self, ctx: &egui::Context, picture: &[u8]) -> egui::TextureId {
        match &mut self.second {
            Some((t, shown)) => {
                if shown.as_slice() != picture {
                    t.set(image(picture), egui::TextureOptions::NEAREST);
                    shown.clear();
                    shown.extend_from_slice(picture);
                }
                t.id()
            }
            None => {
                let t = ctx.load_texture("screen 2", image(picture), egui::TextureOptions::NEAREST);
                let id = t.id();
                self.second = Some((t, picture.to_vec()));
                id
            }
        }
    }
}

/// Screen size in Game Boy pixels.
pub const SIZE: (usize, usize) = (gb_core::screen::GAME.width, gb_core::screen::GAME.height);
/// [`SIZE`] in egui's units, Game Boy pixels.
pub const GAME: egui::Vec2 = egui::vec2(SIZE.0 as f32, SIZE.1 as f32);

/// The picture (8-bit RGB, 3 bytes a pixel) as an egui image.
pub fn image(rgb: &[u8]) -> egui::ColorImage {
    let mut rgba = Vec::with_capacity(SIZE.0 * SIZE.1 * 4);
    for i in 0..SIZE.0 * SIZE.1 {
        let px = rgb.get(i * 3..i * 3 + 3).unwrap_or(&[0xFF; 3]);
        rgba.extend_from_slice(&[px[0], px[1], px[2], 0xFF]);
    }
    egui::ColorImage::from_rgba_unmultiplied([SIZE.0, SIZE.1], &rgba)
}

/// The largest integer scale at which `size` Game Boy pixels (the screen and any room scripts
/// asked for around it) fit `avail` (at least 1).
pub fn fit_scale(avail: egui::Vec2, size: egui::Vec2) -> f32 {
    let s = (avail.x / size.x).min(avail.y / size.y).floor();
    s.max(1.0)
}

/// Whether a linked pair's second screen goes below the first (else beside it): as
/// `layout` says, or for [`LinkLayout::Auto`] when that shows both bigger in `avail` (`one`:
/// the first screen with its padding; a tie stays side by side).
pub fn stacks(avail: egui::Vec2, one: egui::Vec2, layout: LinkLayout) -> bool {
    match layout {
        LinkLayout::SideBySide => false,
        LinkLayout::Stacked => true,
        LinkLayout::Auto => {
            fit_scale(avail, one + egui::vec2(0.0, GAME.y))
                > fit_scale(avail, one + egui::vec2(GAME.x, 0.0))
        }
    }
}

/// `0xAARRGGBB` as an egui colour.
pub fn color(argb: u32) -> egui::Color32 {
    let [a, r, g, b] = argb.to_be_bytes();
    egui::Color32::from_rgba_unmultiplied(r, g, b, a)
}

/// Paint one script's draw list over the screen at `origin`, `scale` screen pixels per Game
/// Boy pixel. Every drawing command the session knows is handled here, in one place.
pub fn paint_overlay(painter: &egui::Painter, origin: egui::Pos2, scale: f32, cmds: &[DrawCmd]) {
    let at = |x: i32, y: i32| origin + egui::vec2(x as f32 * scale, y as f32 * scale);
    // Whole Game Boy pixels from (x1, y1) to (x2, y2), both inclusive.
    let cells = |x1: i32, y1: i32, x2: i32, y2: i32| {
        egui::Rect::from_min_max(
            at(x1.min(x2), y1.min(y2)),
            at(x1.max(x2) + 1, y1.max(y2) + 1),
        )
    };
    for cmd in cmds {
        match cmd {
            DrawCmd::Text {
                x,
                y,
                text,
                color: c,
            } => {
                // Scripts measure text in the 8-pixel cells of BizHawk-style overlays; a
                // one-pixel shadow keeps it readable on any background.
                let font = egui::FontId::monospace(8.0 * scale);
                let shadow = egui::Color32::from_black_alpha(((*c >> 24) as u8) / 2);
                let p = at(*x, *y);
                painter.text(
                    p + egui::vec2(scale * 0.5, scale * 0.5),
                    egui::Align2::LEFT_TOP,
                    text,
                    font.clone(),
                    shadow,
                );
                painter.text(p, egui::Align2::LEFT_TOP, text, font, color(*c));
            }
            DrawCmd::PixelText { x, y, text, fg, bg } => {
                // The same 3 × 5 font as `headless --overlay` (4 × 6 cells), pixel for pixel.
                let cols = text.chars().count() as i32;
                if *bg >> 24 != 0 && cols > 0 {
                    painter.rect_filled(
                        cells(x - 1, y - 1, x + cols * 4 - 1, y + 5),
                        0.0,
                        color(*bg),
                    );
                }
                for (n, c) in text.chars().enumerate() {
                    for (row, bits) in crate::overlay::glyph(c).iter().enumerate() {
                        for col in 0..3 {
                            if bits & (4 >> col) != 0 {
                                let px = x + 4 * n as i32 + col;
                                let py = y + row as i32;
                                painter.rect_filled(cells(px, py, px, py), 0.0, color(*fg));
                            }
                        }
                    }
                }
            }
            DrawCmd::Box {
                x1,
                y1,
                x2,
                y2,
                line,
                fill,
            } => {
                let r = cells(*x1, *y1, *x2, *y2);
                if *fill != 0 {
                    painter.rect_filled(r.shrink(scale), 0.0, color(*fill));
                }
                painter.rect_stroke(
                    r.shrink(scale / 2.0),
                    0.0,
                    egui::Stroke::new(scale, color(*line)),
                    egui::StrokeKind::Middle,
                );
            }
            DrawCmd::Line {
                x1,
                y1,
                x2,
                y2,
                color: c,
            } => {
                let half = egui::vec2(scale / 2.0, scale / 2.0);
                painter.line_segment(
                    [at(*x1, *y1) + half, at(*x2, *y2) + half],
                    egui::Stroke::new(scale, color(*c)),
                );
            }
            DrawCmd::Pixel { x, y, color: c } => {
                painter.rect_filled(cells(*x, *y, *x, *y), 0.0, color(*c));
            }
            DrawCmd::Image { x, y, image } => {
                // Pixel by pixel at the screen's scale (script images are small sprites and
                // icons), clipped to the screen.
                let w = image.width.max(1) as usize;
                for (i, p) in image.rgba.chunks_exact(4).enumerate() {
                    let (px, py) = (x + (i % w) as i32, y + (i / w) as i32);
                    if p[3] == 0 || px < 0 || py < 0 || px >= SIZE.0 as i32 || py >= SIZE.1 as i32 {
                        continue;
                    }
                    let c = egui::Color32::from_rgba_unmultiplied(p[0], p[1], p[2], p[3]);
                    painter.rect_filled(cells(px, py, px, py), 0.0, c);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_stacks_where_that_shows_it_bigger() {
        let one = GAME;
        // A wide window: side by side at 3× (960 × 432) beats stacked at 2×.
        assert!(!stacks(egui::vec2(1000.0, 700.0), one, LinkLayout::Auto));
        // A tall one: stacked at 3× (480 × 864) beats side by side at 1×.
        assert!(stacks(egui::vec2(500.0, 900.0), one, LinkLayout::Auto));
        // A tie stays side by side; the config's choice holds whatever the window.
        assert!(!stacks(egui::vec2(320.0, 288.0), one, LinkLayout::Auto));
        assert!(stacks(egui::vec2(1000.0, 700.0), one, LinkLayout::Stacked));
        assert!(!stacks(
            egui::vec2(500.0, 900.0),
            one,
            LinkLayout::SideBySide
        ));
    }
}
