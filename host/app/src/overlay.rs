//! Scripts' overlays drawn into an RGB frame in software, for `headless --screenshot
//! --overlay`: boxes, lines, pixels and text in a built-in 3 × 5 pixel font (a 4 × 6 cell),
//! with each colour's alpha blended over the picture. The desktop app draws the same lists
//! with its own renderer, at its scale.

use gb_core::screen::GAME;
use gb_session::DrawCmd;

/// The font: for each character from `' '` to `` '`' ``, five rows of three pixels (bit 2 is
/// the left column). Lowercase letters use the capitals; `{|}~` are in [`FONT_TAIL`].
const FONT: [[u8; 5]; 65] = [
    [0, 0, 0, 0, 0], // ' '
    [2, 2, 2, 0, 2], // !
    [5, 5, 0, 0, 0], // "
    [5, 7, 5, 7, 5], // #
    [3, 6, 2, 3, 6], // $
    [5, 1, 2, 4, 5], // %
    [2, 5, 2, 5, 3], // &
    [2, 2, 0, 0, 0], // '
    [1, 2, 2, 2, 1], // (
    [4, 2, 2, 2, 4], // )
    [0, 5, 2, 5, 0], // *
    [0, 2, 7, 2, 0], // +
    [0, 0, 0, 2, 4], // ,
    [0, 0, 7, 0, 0], // -
    [0, 0, 0, 0, 2], // .
    [1, 1, 2, 4, 4], // /
    [7, 5, 5, 5, 7], // 0
    [2, 6, 2, 2, 7], // 1
    [7, 1, 7, 4, 7], // 2
    [7, 1, 3, 1, 7], // 3
    [5, 5, 7, 1, 1], // 4
    [7, 4, 7, 1, 7], // 5
    [7, 4, 7, 5, 7], // 6
    [7, 1, 1, 2, 2], // 7
    [7, 5, 7, 5, 7], // 8
    [7, 5, 7, 1, 7], // 9
    [0, 2, 0, 2, 0], // :
    [0, 2, 0, 2, 4], // ;
    [1, 2, 4, 2, 1], // <
    [0, 7, 0, 7, 0], // =
    [4, 2, 1, 2, 4], // >
    [7, 1, 3, 0, 2], // ?
    [7, 5, 7, 4, 7], // @
    [2, 5, 7, 5, 5], // A
    [6, 5, 6, 5, 6], // B
    [3, 4, 4, 4, 3], // C
    [6, 5, 5, 5, 6], // D
    [7, 4, 6, 4, 7], // E
    [7, 4, 6, 4, 4], // F
    [3, 4, 5, 5, 3], // G
    [5, 5, 7, 5, 5], // H
    [7, 2, 2, 2, 7], // I
    [1, 1, 1, 5, 2], // J
    [5, 5, 6, 5, 5], // K
    [4, 4, 4, 4, 7], // L
    [5, 7, 7, 5, 5], // M
    [6, 5, 5, 5, 5], // N
    [2, 5, 5, 5, 2], // O
    [6, 5, 6, 4, 4], // P
    [2, 5, 5, 6, 3], // Q
    [6, 5, 6, 5, 5], // R
    [3, 4, 2, 1, 6], // S
    [7, 2, 2, 2, 2], // T
    [5, 5, 5, 5, 7], // U
    [5, 5, 5, 5, 2], // V
    [5, 5, 7, 7, 5], // W
    [5, 5, 2, 5, 5], // X
    [5, 5, 2, 2, 2], // Y
    [7, 1, 2, 4, 7], // Z
    [3, 2, 2, 2, 3], // [
    [4, 4, 2, 1, 1], // backslash
    [6, 2, 2, 2, 6], // ]
    [2, 5, 0, 0, 0], // ^
    [0, 0, 0, 0, 7], // _
    [4, 2, 0, 0, 0], // `
];

/// `{`, `|`, `}` and `~`.
const FONT_TAIL: [[u8; 5]; 4] = [
    [3, 2, 6, 2, 3], // {
    [2, 2, 2, 2, 2], // |
    [6, 2, 3, 2, 6], // }
    [0, 3, 6, 0, 0], // ~
];

/// The glyph of `c` (capitals for lowercase, `?` for anything outside ASCII).
pub(crate) fn glyph(c: char) -> [u8; 5] {
    let c = c.to_ascii_uppercase();
    match c {
        ' '..='`' => FONT[c as usize - ' ' as usize],
        '{'..='~' => FONT_TAIL[c as usize - '{' as usize],
        _ => FONT['?' as usize - ' ' as usize],
    }
}

/// Blend 0xAARRGGBB over the pixel at (x, y); outside the screen nothing happens.
fn plot(rgb: &mut [u8], x: i32, y: i32, argb: u32) {
    if !GAME.contains(x.into(), y.into()) {
        return;
    }
    let a = argb >> 24;
    if a == 0 {
        return;
    }
    let i = (y as usize * GAME.width + x as usize) * 3;
    for (k, shift) in [16, 8, 0].into_iter().enumerate() {
        let src = (argb >> shift) & 0xFF;
        let dst = u32::from(rgb[i + k]);
        rgb[i + k] = ((src * a + dst * (255 - a) + 127) / 255) as u8;
    }
}

fn text(rgb: &mut [u8], x: i32, y: i32, s: &str, fg: u32, bg: u32) {
    let width = 4 * s.chars().count() as i32;
    if bg >> 24 != 0 {
        for yy in y - 1..y + 6 {
            for xx in x - 1..x + width {
                plot(rgb, xx, yy, bg);
            }
        }
    }
    for (n, c) in s.chars().enumerate() {
        let g = glyph(c);
        for (row, bits) in g.iter().enumerate() {
            for col in 0..3 {
                if bits & (4 >> col) != 0 {
                    plot(rgb, x + 4 * n as i32 + col, y + row as i32, fg);
                }
            }
        }
    }
}

fn line(rgb: &mut [u8], (mut x0, mut y0): (i32, i32), (x1, y1): (i32, i32), c: u32) {
    let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
    let (sx, sy) = (if x0 < x1 { 1 } else { -1 }, if y0 < y1 { 1 } else { -1 });
    let mut err = dx + dy;
    // A line crossing the whole clamped coordinate range is at most ~40,000 steps.
    for _ in 0..=(dx - dy) {
        plot(rgb, x0, y0, c);
        if x0 == x1 && y0 == y1 {
            break;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x0 += sx;
        }
        if e2 <= dx {
            err += dx;
            y0 += sy;
        }
    }
}

/// Draw one list over `rgb` (160 × 144 × 3 bytes).
pub fn render(rgb: &mut [u8], list: &[DrawCmd]) {
    for cmd in list {
        match cmd {
            DrawCmd::Text {
                x,
                y,
                text: s,
                color,
            } => text(rgb, *x, *y, s, *color, 0),
            DrawCmd::PixelText {
                x,
                y,
                text: s,
                fg,
                bg,
            } => text(rgb, *x, *y, s, *fg, *bg),
            DrawCmd::Box {
                x1,
                y1,
                x2,
                y2,
                line: l,
                fill,
            } => {
                let (xa, xb) = ((*x1).min(*x2), (*x1).max(*x2));
                let (ya, yb) = ((*y1).min(*y2), (*y1).max(*y2));
                if fill >> 24 != 0 {
                    for y in (ya + 1).max(0)..yb.min(GAME.height as i32) {
                        for x in (xa + 1).max(0)..xb.min(GAME.width as i32) {
                            plot(rgb, x, y, *fill);
                        }
                    }
                }
                line(rgb, (xa, ya), (xb, ya), *l);
                line(rgb, (xa, yb), (xb, yb), *l);
                line(rgb, (xa, ya + 1), (xa, yb - 1), *l);
                line(rgb, (xb, ya + 1), (xb, yb - 1), *l);
            }
            DrawCmd::Line {
                x1,
                y1,
                x2,
                y2,
                color,
            } => line(rgb, (*x1, *y1), (*x2, *y2), *color),
            DrawCmd::Pixel { x, y, color } => plot(rgb, *x, *y, *color),
            DrawCmd::Image { x, y, image } => {
                let w = image.width as usize;
                for (i, p) in image.rgba.chunks_exact(4).enumerate() {
                    let argb = u32::from_be_bytes([p[3], p[0], p[1], p[2]]);
                    plot(rgb, x + (i % w) as i32, y + (i / w) as i32, argb);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blank() -> Vec<u8> {
        vec![0xFF; GAME.pixels() * 3]
    }

    fn px(rgb: &[u8], x: usize, y: usize) -> [u8; 3] {
        let i = (y * GAME.width + x) * 3;
        [rgb[i], rgb[i + 1], rgb[i + 2]]
    }

    #[test]
    fn shapes_land_on_their_pixels_with_alpha() {
        let mut rgb = blank();
        render(
            &mut rgb,
            &[
                DrawCmd::Pixel {
                    x: 3,
                    y: 4,
                    color: 0xFFFF0000,
                },
                DrawCmd::Pixel {
                    x: 5,
                    y: 4,
                    color: 0x80000000,
                },
                DrawCmd::Line {
                    x1: 0,
                    y1: 10,
                    x2: 9,
                    y2: 10,
                    color: 0xFF0000FF,
                },
                DrawCmd::Box {
                    x1: 20,
                    y1: 20,
                    x2: 30,
                    y2: 25,
                    line: 0xFF00FF00,
                    fill: 0xFF000000,
                },
                DrawCmd::Pixel {
                    x: -1,
                    y: 500,
                    color: 0xFF000000,
                },
            ],
        );
        assert_eq!(px(&rgb, 3, 4), [0xFF, 0, 0]);
        assert_eq!(px(&rgb, 5, 4), [0x7F, 0x7F, 0x7F]);
        assert!((0..10).all(|x| px(&rgb, x, 10) == [0, 0, 0xFF]));
        assert_eq!(px(&rgb, 20, 20), [0, 0xFF, 0]);
        assert_eq!(px(&rgb, 25, 22), [0, 0, 0]);
        assert_eq!(px(&rgb, 31, 22), [0xFF; 3]);
    }

    #[test]
    fn text_uses_the_font() {
        let mut rgb = blank();
        render(
            &mut rgb,
            &[DrawCmd::Text {
                x: 0,
                y: 0,
                text: "1".into(),
                color: 0xFF000000,
            }],
        );
        // "1": .#. / ##. / .#. / .#. / ###
        let rows: Vec<[bool; 3]> = (0..5)
            .map(|y| [0, 1, 2].map(|x| px(&rgb, x, y) == [0, 0, 0]))
            .collect();
        assert_eq!(
            rows,
            [
                [false, true, false],
                [true, true, false],
                [false, true, false],
                [false, true, false],
                [true, true, true]
            ]
        );
    }
}
