//! The Game Boy screen: the picture as a texture scaled by an integer factor (nearest
//! neighbour, so pixels stay square and sharp), and the scripts' overlays painted on top at
//! the same scale.

use eframe::egui;
use gb_session::DrawCmd;

/// Shades 0-3 (lightest first) as RGB: the DMG's green.
pub const PALETTE: [[u8; 3]; 4] = [
    [0xE0, 0xF8, 0xD0],
    [0x88, 0xC0, 0x70],
    [0x34, 0x68, 0x56],
    [0x08, 0x18, 0x20],
];

/// Screen size in Game Boy pixels.
pub const SIZE: (usize, usize) = (160, 144);

/// The picture (shades) as an egui image.
pub fn image(picture: &[u8]) -> egui::ColorImage {
    let mut rgba = Vec::with_capacity(SIZE.0 * SIZE.1 * 4);
    for i in 0..SIZE.0 * SIZE.1 {
        let [r, g, b] = PALETTE[usize::from(picture.get(i).copied().unwrap_or(0) & 3)];
        rgba.extend_from_slice(&[r, g, b, 0xFF]);
    }
    egui::ColorImage::from_rgba_unmultiplied([SIZE.0, SIZE.1], &rgba)
}

/// The largest integer scale at which the screen fits `avail` (at least 1).
pub fn fit_scale(avail: egui::Vec2) -> f32 {
    let s = (avail.x / SIZE.0 as f32)
        .min(avail.y / SIZE.1 as f32)
        .floor();
    s.max(1.0)
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
    // Scripts measure text in the 8-pixel cells of BizHawk-style overlays.
    let font = egui::FontId::monospace(8.0 * scale);
    for cmd in cmds {
        match cmd {
            DrawCmd::Text {
                x,
                y,
                text,
                color: c,
            } => {
                // A one-pixel shadow keeps text readable on any background.
                let shadow = egui::Color32::from_black_alpha(((*c >> 24) as u8) / 2);
                painter.text(
                    at(*x, *y) + egui::vec2(scale * 0.5, scale * 0.5),
                    egui::Align2::LEFT_TOP,
                    text,
                    font.clone(),
                    shadow,
                );
                painter.text(
                    at(*x, *y),
                    egui::Align2::LEFT_TOP,
                    text,
                    font.clone(),
                    color(*c),
                );
            }
        }
    }
}
