//! The description of a script's windows, as the app shows them: [`ScriptUi`] (BizHawk's
//! forms with their controls, mGBA's text buffers, the extra drawing room around the game),
//! read from the packed bytes `gbhost.ui_view()` (`ui.lua`) returns. It is the script's
//! *output*, like its draw list: the model itself lives in the arena and rolls back.
//!
//! The bytes come from the script's VM, so they are read like a file: every count is checked
//! against the bytes left, and anything malformed gives an error, never a panic.

use super::context::DrawCmd;

/// What kind of control a form holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlKind {
    /// A push button (`forms.button`).
    Button,
    /// A checkbox (`forms.checkbox`).
    Checkbox,
    /// A line of text (`forms.label`).
    Label,
    /// A text field (`forms.textbox`).
    Textbox,
    /// A choice among items (`forms.dropdown`).
    Dropdown,
    /// A drawing surface (`forms.pictureBox`).
    PictureBox,
}

/// One control of a form. Sizes of -1 mean "as large as its content".
#[derive(Clone, Debug, PartialEq)]
pub struct Control {
    /// The handle the script knows it by (the events the app sends name it).
    pub handle: u32,
    /// What it is.
    pub kind: ControlKind,
    /// Left edge in the form, in pixels.
    pub x: i32,
    /// Top edge in the form.
    pub y: i32,
    /// Width (-1: natural).
    pub width: i32,
    /// Height (-1: natural).
    pub height: i32,
    /// Shown.
    pub visible: bool,
    /// Accepts input.
    pub enabled: bool,
    /// A checkbox's tick.
    pub checked: bool,
    /// A textbox of several lines.
    pub multiline: bool,
    /// A picture box's background colour (0xAARRGGBB; 0: none).
    pub background: u32,
    /// The caption, the text typed, or a dropdown's chosen item.
    pub text: String,
    /// A dropdown's items.
    pub items: Vec<String>,
    /// A picture box's drawing, in its own pixels.
    pub drawing: Vec<DrawCmd>,
}

/// One form (`forms.newform`).
#[derive(Clone, Debug, PartialEq)]
pub struct Form {
    /// The form's handle (closing it sends `FormValue::Close` with it).
    pub handle: u32,
    /// The window title.
    pub title: String,
    /// Where the script put it (-1: where the app likes).
    pub x: i32,
    /// Where the script put it (-1: where the app likes).
    pub y: i32,
    /// Inner width in pixels.
    pub width: i32,
    /// Inner height in pixels.
    pub height: i32,
    /// Its controls, in creation order.
    pub controls: Vec<Control>,
}

/// One text buffer (mGBA's `console:createBuffer`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextBuffer {
    /// The buffer's handle.
    pub handle: u32,
    /// Its name (the window title).
    pub name: String,
    /// Columns, as the script set them.
    pub cols: u32,
    /// Rows shown, as the script set them.
    pub rows: u32,
    /// The cursor's column.
    pub cursor_x: u32,
    /// The cursor's row.
    pub cursor_y: u32,
    /// The text, line by line.
    pub lines: Vec<String>,
}

/// Everything a script shows outside the game screen, and the room it asked for around it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScriptUi {
    /// Open forms, in creation order.
    pub forms: Vec<Form>,
    /// Text buffers, in creation order.
    pub buffers: Vec<TextBuffer>,
    /// Extra drawing room around the game in game pixels: left, top, right, bottom
    /// (`client.SetGameExtraPadding`).
    pub padding: [u32; 4],
}

impl ScriptUi {
    /// Nothing to show.
    pub fn is_empty(&self) -> bool {
        self.forms.is_empty() && self.buffers.is_empty() && self.padding == [0; 4]
    }
}

/// A cursor over the packed description.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if n > self.bytes.len() {
            return Err("the windows' description ends early".into());
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn i32(&mut self) -> Result<i32, String> {
        Ok(self.u32()? as i32)
    }

    fn str(&mut self) -> Result<String, String> {
        let n = self.u32()? as usize;
        Ok(String::from_utf8_lossy(self.take(n)?).into_owned())
    }

    /// A count of items at least `min` bytes each, checked against the bytes left.
    fn count(&mut self, min: usize) -> Result<usize, String> {
        let n = self.u32()? as usize;
        if n.saturating_mul(min) > self.bytes.len() {
            return Err(format!("{n} items cannot fit in the description"));
        }
        Ok(n)
    }
}

fn kind(k: u8) -> Result<ControlKind, String> {
    Ok(match k {
        0 => ControlKind::Button,
        1 => ControlKind::Checkbox,
        2 => ControlKind::Label,
        3 => ControlKind::Textbox,
        4 => ControlKind::Dropdown,
        5 => ControlKind::PictureBox,
        _ => return Err(format!("unknown control kind {k}")),
    })
}

/// One packed picture-box command: kind, four numbers, two colours, a text.
fn draw_cmd(r: &mut Reader<'_>) -> Result<DrawCmd, String> {
    let k = r.u8()?;
    let (a, b, c, d) = (r.i32()?, r.i32()?, r.i32()?, r.i32()?);
    // The second colour is a fill (boxes); text backgrounds are not drawn.
    let (c1, c2) = (r.u32()?, r.u32()?);
    let text = r.str()?;
    Ok(match k {
        0 => DrawCmd::Text {
            x: a,
            y: b,
            text,
            color: c1,
        },
        1 => DrawCmd::Box {
            x1: a,
            y1: b,
            x2: c,
            y2: d,
            line: c1,
            fill: c2,
        },
        2 => DrawCmd::Line {
            x1: a,
            y1: b,
            x2: c,
            y2: d,
            color: c1,
        },
        3 => DrawCmd::Pixel {
            x: a,
            y: b,
            color: c1,
        },
        _ => return Err(format!("unknown drawing command {k}")),
    })
}

fn control(r: &mut Reader<'_>) -> Result<Control, String> {
    let handle = r.u32()?;
    let kind = kind(r.u8()?)?;
    let (x, y, width, height) = (r.i32()?, r.i32()?, r.i32()?, r.i32()?);
    let flags = r.u8()?;
    let background = r.u32()?;
    let text = r.str()?;
    let n = r.count(4)?;
    let items = (0..n).map(|_| r.str()).collect::<Result<_, _>>()?;
    let n = r.count(29)?;
    let drawing = (0..n).map(|_| draw_cmd(r)).collect::<Result<_, _>>()?;
    Ok(Control {
        handle,
        kind,
        x,
        y,
        width,
        height,
        visible: flags & 1 != 0,
        enabled: flags & 2 != 0,
        checked: flags & 4 != 0,
        multiline: flags & 8 != 0,
        background,
        text,
        items,
        drawing,
    })
}

fn form(r: &mut Reader<'_>) -> Result<Form, String> {
    let handle = r.u32()?;
    let title = r.str()?;
    let (x, y, width, height) = (r.i32()?, r.i32()?, r.i32()?, r.i32()?);
    let n = r.count(30)?;
    let controls = (0..n).map(|_| control(r)).collect::<Result<_, _>>()?;
    Ok(Form {
        handle,
        title,
        x,
        y,
        width,
        height,
        controls,
    })
}

fn buffer(r: &mut Reader<'_>) -> Result<TextBuffer, String> {
    let handle = r.u32()?;
    let name = r.str()?;
    let (cols, rows, cursor_x, cursor_y) = (r.u32()?, r.u32()?, r.u32()?, r.u32()?);
    let n = r.count(4)?;
    let lines = (0..n).map(|_| r.str()).collect::<Result<_, _>>()?;
    Ok(TextBuffer {
        handle,
        name,
        cols,
        rows,
        cursor_x,
        cursor_y,
        lines,
    })
}

/// Read the description `gbhost.ui_view()` returned.
pub fn decode(bytes: &[u8]) -> Result<ScriptUi, String> {
    let mut r = Reader { bytes };
    let n = r.count(24)?;
    let forms = (0..n).map(|_| form(&mut r)).collect::<Result<_, _>>()?;
    let n = r.count(28)?;
    let buffers = (0..n).map(|_| buffer(&mut r)).collect::<Result<_, _>>()?;
    let padding = [r.u32()?, r.u32()?, r.u32()?, r.u32()?];
    Ok(ScriptUi {
        forms,
        buffers,
        padding,
    })
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn malformed_descriptions_are_errors() {
        assert!(decode(&[]).is_err());
        assert!(decode(&[0xFF, 0xFF, 0xFF, 0xFF]).is_err());
        let empty = [0u8; 24];
        let ui = decode(&empty).expect("empty");
        assert!(ui.is_empty());
        for cut in 0..24 {
            assert!(decode(&empty[..cut]).is_err());
        }
    }
}
