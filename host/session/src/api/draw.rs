//! The drawing calls: text, pixel text, boxes, lines, pixels, images (whole or a region,
//! scaled) into the calling script's overlay for this frame (at most [`MAX_DRAW`] commands a
//! frame). Ellipses and polygons are drawn in Lua as lines (`prelude.lua`), so every renderer
//! draws them alike.

use lua_rollback::Value;

use super::args::{bytes_arg, color, coord, int, text_arg};
use super::context::{Api, DrawCmd};
use super::spec::id;
use crate::data::Image;

/// Most drawing commands one script may issue per frame (the rest are dropped).
pub const MAX_DRAW: usize = 4096;

/// The largest image a script may draw (a scaled one too), in pixels.
const MAX_IMAGE_PIXELS: u64 = 1 << 20;

/// The size asked at `args[i]`, `args[i + 1]`, or `default`.
fn size(args: &[Value], i: usize, default: (u32, u32), what: &str) -> Result<(u32, u32), String> {
    let get = |k: usize, d: u32| match args.get(k) {
        None | Some(Value::Nil) => Ok(d),
        _ => u32::try_from(int(args, k, what)?)
            .map_err(|_| format!("{what}: the size must not be negative")),
    };
    Ok((get(i, default.0)?, get(i + 1, default.1)?))
}

/// The part `(x, y, w, h)` of `image` (clipped to it), scaled to `to` by nearest pixel.
fn region(
    image: &Image,
    (x, y, w, h): (u32, u32, u32, u32),
    to: (u32, u32),
) -> Result<Image, String> {
    if (x, y, w, h) == (0, 0, image.width, image.height) && to == (w, h) {
        return Ok(image.clone());
    }
    if u64::from(to.0) * u64::from(to.1) > MAX_IMAGE_PIXELS {
        return Err(format!(
            "gui.image: {} × {} is too large to draw",
            to.0, to.1
        ));
    }
    let w = w.min(image.width.saturating_sub(x));
    let h = h.min(image.height.saturating_sub(y));
    let mut rgba = Vec::with_capacity((to.0 * to.1 * 4) as usize);
    for row in 0..to.1 {
        for col in 0..to.0 {
            if w == 0 || h == 0 {
                rgba.extend_from_slice(&[0; 4]);
                continue;
            }
            let sx = x + (u64::from(col) * u64::from(w) / u64::from(to.0)) as u32;
            let sy = y + (u64::from(row) * u64::from(h) / u64::from(to.1)) as u32;
            let at = ((sy * image.width + sx) * 4) as usize;
            rgba.extend_from_slice(&image.rgba[at..at + 4]);
        }
    }
    Ok(Image {
        width: to.0,
        height: to.1,
        rgba: rgba.into(),
    })
}

impl Api<'_> {
    /// The image `name` of the script's folder (`./a.png`, `img\\a.png` name `a.png`,
    /// `img/a.png`).
    fn image(&self, name: &str, what: &str) -> Result<Image, String> {
        // The name as given first: no allocation on the way for a HUD drawing every frame.
        let found = self.images.get(name).or_else(|| {
            let key = name.trim_start_matches("./").replace('\\', "/");
            self.images.get(&key)
        });
        found.cloned().ok_or_else(|| {
            format!("{what}: no image '{name}' in the script's folder (PNG files only)")
        })
    }

    fn draw(&mut self, cmd: DrawCmd) {
        if self.draw.len() < MAX_DRAW {
            self.draw.push(cmd);
        }
    }

    /// The drawing calls. Returns false for an id that is not one of them.
    pub(super) fn call_draw(
        &mut self,
        id: u32,
        args: &[Value],
        ret: &mut Vec<Value>,
    ) -> Result<bool, String> {
        match id {
            id::TEXT => {
                let cmd = DrawCmd::Text {
                    x: coord(int(args, 0, "gui.text")?),
                    y: coord(int(args, 1, "gui.text")?),
                    text: text_arg(args, 2, "gui.text")?,
                    color: color(args.get(3), 0xFFFF_FFFF)?,
                };
                self.draw(cmd);
            }
            id::PIXEL_TEXT => {
                let cmd = DrawCmd::PixelText {
                    x: coord(int(args, 0, "gui.pixel_text")?),
                    y: coord(int(args, 1, "gui.pixel_text")?),
                    text: text_arg(args, 2, "gui.pixel_text")?,
                    fg: color(args.get(3), 0xFFFF_FFFF)?,
                    bg: color(args.get(4), 0)?,
                };
                self.draw(cmd);
            }
            id::BOX => {
                let cmd = DrawCmd::Box {
                    x1: coord(int(args, 0, "gui.box")?),
                    y1: coord(int(args, 1, "gui.box")?),
                    x2: coord(int(args, 2, "gui.box")?),
                    y2: coord(int(args, 3, "gui.box")?),
                    line: color(args.get(4), 0xFFFF_FFFF)?,
                    fill: color(args.get(5), 0)?,
                };
                self.draw(cmd);
            }
            id::LINE => {
                let cmd = DrawCmd::Line {
                    x1: coord(int(args, 0, "gui.line")?),
                    y1: coord(int(args, 1, "gui.line")?),
                    x2: coord(int(args, 2, "gui.line")?),
                    y2: coord(int(args, 3, "gui.line")?),
                    color: color(args.get(4), 0xFFFF_FFFF)?,
                };
                self.draw(cmd);
            }
            id::PIXEL => {
                let cmd = DrawCmd::Pixel {
                    x: coord(int(args, 0, "gui.pixel")?),
                    y: coord(int(args, 1, "gui.pixel")?),
                    color: color(args.get(2), 0xFFFF_FFFF)?,
                };
                self.draw(cmd);
            }
            id::CLEAR => self.draw.clear(),
            id::IMAGE => {
                let what = "gui.image";
                let image = self.image(&text_arg(args, 2, what)?, what)?;
                let (w, h) = (image.width, image.height);
                let image = region(&image, (0, 0, w, h), size(args, 3, (w, h), what)?)?;
                let cmd = DrawCmd::Image {
                    x: coord(int(args, 0, what)?),
                    y: coord(int(args, 1, what)?),
                    image,
                };
                self.draw(cmd);
            }
            id::RGBA => {
                let what = "gui.rgba";
                let (w, h) = size(args, 2, (0, 0), what)?;
                let pixels = bytes_arg(args, 4, what)?;
                if u64::from(w) * u64::from(h) > MAX_IMAGE_PIXELS
                    || pixels.len() as u64 != u64::from(w) * u64::from(h) * 4
                {
                    return Err(format!(
                        "{what}: {} bytes are not {w} × {h} RGBA pixels (at most {MAX_IMAGE_PIXELS})",
                        pixels.len()
                    ));
                }
                let cmd = DrawCmd::Image {
                    x: coord(int(args, 0, what)?),
                    y: coord(int(args, 1, what)?),
                    image: Image {
                        width: w,
                        height: h,
                        rgba: pixels.into(),
                    },
                };
                self.draw(cmd);
            }
            id::IMAGE_DATA => {
                let image = self.image(&text_arg(args, 0, "gui.image_data")?, "gui.image_data")?;
                ret.push(Value::Integer(i64::from(image.width)));
                ret.push(Value::Integer(i64::from(image.height)));
                ret.push(Value::String(image.rgba.to_vec()));
            }
            id::IMAGE_REGION => {
                let what = "gui.image_region";
                let image = self.image(&text_arg(args, 0, what)?, what)?;
                let mut src = [0u32; 4];
                for (k, v) in src.iter_mut().enumerate() {
                    *v = u32::try_from(int(args, 1 + k, what)?)
                        .map_err(|_| format!("{what}: the region must not be negative"))?;
                }
                let (sw, sh) = (src[2], src[3]);
                let image = region(
                    &image,
                    (src[0], src[1], sw, sh),
                    size(args, 7, (sw, sh), what)?,
                )?;
                let cmd = DrawCmd::Image {
                    x: coord(int(args, 5, what)?),
                    y: coord(int(args, 6, what)?),
                    image,
                };
                self.draw(cmd);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}
