//! The drawing calls: text, pixel text, boxes, lines, pixels, images into the calling
//! script's overlay for this frame (at most [`MAX_DRAW`] commands a frame).

use lua_rollback::Value;

use super::args::{color, coord, int, text_arg};
use super::context::{Api, DrawCmd};
use super::spec::id;

/// Most drawing commands one script may issue per frame (the rest are dropped).
pub const MAX_DRAW: usize = 4096;

impl Api<'_> {
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
        _ret: &mut Vec<Value>,
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
                let name = text_arg(args, 2, "gui.image")?;
                let image = self.images.get(&name).cloned().ok_or_else(|| {
                    format!("gui.image: no image '{name}' in the script's folder (PNG files only)")
                })?;
                let cmd = DrawCmd::Image {
                    x: coord(int(args, 0, "gui.image")?),
                    y: coord(int(args, 1, "gui.image")?),
                    image,
                };
                self.draw(cmd);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}
