//! The Lua API's host side: the functions scripts call, answered by a [`lua_rollback::Host`]
//! that borrows the parts of the session a call may touch, for the duration of one VM call.
//! The API itself is described in [`spec`]; the Lua side is `prelude.lua` (native API) and the
//! compatibility layers `bizhawk.lua` and `vba.lua`.
//!
//! Nothing here remembers anything about Lua between calls: hooks, pending input and the
//! coroutine live in the script's arena (see `prelude.lua`), so they roll back with it. The
//! host keeps only what must *not* roll back: each script's `persist` table and its output
//! (draw list, console lines).

use std::collections::BTreeMap;

use gb_core::{Buttons, Domain, Gb, Registers};
use lua_rollback::{Host, HostReturn, Value};

pub use crate::data::{Flavor, Image};
use crate::state::SavedState;

pub mod console;
pub mod spec;

pub use spec::register;
use spec::{READ, WIDTHS, WRITE, id};

/// The Lua source run in every script VM before the script.
pub const PRELUDE: &str = include_str!("prelude.lua");

/// The compatibility layer run after the prelude for a script written for `flavor`, if any.
pub fn layer(flavor: Flavor) -> Option<&'static str> {
    match flavor {
        Flavor::Native => None,
        Flavor::BizHawk => Some(include_str!("bizhawk.lua")),
        Flavor::Vba => Some(include_str!("vba.lua")),
    }
}

/// One drawing command of a script's overlay, in screen pixels (160 × 144).
#[derive(Clone, Debug, PartialEq)]
pub enum DrawCmd {
    /// Text with its top-left corner at (x, y).
    Text {
        /// Left edge.
        x: i32,
        /// Top edge.
        y: i32,
        /// The text.
        text: String,
        /// Colour as 0xAARRGGBB.
        color: u32,
    },
    /// Text in the small pixel font (4 × 6 cells), over an optional background.
    PixelText {
        /// Left edge.
        x: i32,
        /// Top edge.
        y: i32,
        /// The text.
        text: String,
        /// Text colour, 0xAARRGGBB.
        fg: u32,
        /// Background colour (0: none).
        bg: u32,
    },
    /// A rectangle between two corners (inclusive).
    Box {
        /// First corner.
        x1: i32,
        /// First corner.
        y1: i32,
        /// Opposite corner.
        x2: i32,
        /// Opposite corner.
        y2: i32,
        /// Outline colour.
        line: u32,
        /// Fill colour (0: none).
        fill: u32,
    },
    /// A line between two points (inclusive).
    Line {
        /// Start.
        x1: i32,
        /// Start.
        y1: i32,
        /// End.
        x2: i32,
        /// End.
        y2: i32,
        /// Colour.
        color: u32,
    },
    /// One pixel.
    Pixel {
        /// Column.
        x: i32,
        /// Row.
        y: i32,
        /// Colour.
        color: u32,
    },
    /// An image from the script's folder, its top-left corner at (x, y), alpha-blended.
    Image {
        /// Left edge.
        x: i32,
        /// Top edge.
        y: i32,
        /// The image.
        image: Image,
    },
}

/// A state save or load a script asked for; the session carries it out when the script's
/// call returns (a VM cannot be restored while it runs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `savestate.save(slot)`.
    Save(String),
    /// `savestate.load(slot)`.
    Load(String),
    /// The script's bus hooks changed: the core's watchpoints are set again.
    Watches,
}

/// What one VM call may reach.
pub struct Api<'a> {
    /// The machine.
    pub gb: &'a mut Gb,
    /// Frames completed.
    pub frame: u64,
    /// The calling script's overlay for this frame.
    pub draw: &'a mut Vec<DrawCmd>,
    /// The calling script's `persist` table.
    pub persist: &'a mut BTreeMap<Vec<u8>, Value>,
    /// State saves and loads asked for (the script VMs' part, done when the call returns).
    pub requests: &'a mut Vec<Request>,
    /// The states saved by scripts, by name.
    pub(crate) states: &'a mut std::collections::HashMap<String, SavedState>,
    /// The buttons the user holds.
    pub user_buttons: Buttons,
    /// The images the calling script may draw.
    pub images: &'a std::collections::HashMap<String, Image>,
    /// The ROM's hash.
    pub rom_hash: u64,
    /// `Some` for the console's calls: memory writes are collected here as bus pokes (the
    /// session logs them) instead of made, and calls that would change the machine outside
    /// the log (registers, state loads) are refused. `None` for scripts.
    pub pokes: Option<&'a mut Vec<(u16, u8)>>,
}

fn int(args: &[Value], i: usize, what: &str) -> Result<i64, String> {
    match args.get(i) {
        Some(Value::Integer(v)) => Ok(*v),
        Some(Value::Number(v)) if v.fract() == 0.0 && v.abs() < 9.0e15 => Ok(*v as i64),
        other => Err(format!(
            "bad argument #{} to '{what}' (integer expected, got {})",
            i + 1,
            type_name(other)
        )),
    }
}

fn text_arg(args: &[Value], i: usize, what: &str) -> Result<String, String> {
    match args.get(i) {
        Some(Value::String(s)) => Ok(String::from_utf8_lossy(s).into_owned()),
        Some(Value::Integer(v)) => Ok(v.to_string()),
        Some(Value::Number(v)) => Ok(v.to_string()),
        Some(Value::Boolean(b)) => Ok(b.to_string()),
        other => Err(format!(
            "bad argument #{} to '{what}' (string expected, got {})",
            i + 1,
            type_name(other)
        )),
    }
}

fn bytes_arg<'v>(args: &'v [Value], i: usize, what: &str) -> Result<&'v [u8], String> {
    match args.get(i) {
        Some(Value::String(s)) => Ok(s),
        other => Err(format!(
            "bad argument #{} to '{what}' (string expected, got {})",
            i + 1,
            type_name(other)
        )),
    }
}

fn type_name(v: Option<&Value>) -> &'static str {
    match v {
        None | Some(Value::Nil) => "nil",
        Some(Value::Boolean(_)) => "boolean",
        Some(Value::Integer(_)) | Some(Value::Number(_)) => "number",
        Some(Value::String(_)) => "string",
        Some(Value::Other(t)) => t,
    }
}

/// Where a memory access goes: the bus (side-effect-free reads, CPU-like writes) or a flat
/// domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Space {
    Bus,
    Io,
    Flat(Domain),
}

fn space(args: &[Value], i: usize, default: Space, what: &str) -> Result<Space, String> {
    let name = match args.get(i) {
        None | Some(Value::Nil) => return Ok(default),
        Some(Value::String(s)) => String::from_utf8_lossy(s).to_ascii_lowercase(),
        other => {
            return Err(format!(
                "bad argument #{} to '{what}' (domain name expected, got {})",
                i + 1,
                type_name(other)
            ));
        }
    };
    Ok(match name.as_str() {
        "bus" | "system bus" => Space::Bus,
        "io" => Space::Io,
        "rom" => Space::Flat(Domain::Rom),
        "wram" => Space::Flat(Domain::Wram),
        "vram" => Space::Flat(Domain::Vram),
        "oam" => Space::Flat(Domain::Oam),
        "hram" => Space::Flat(Domain::Hram),
        "cartram" | "sram" => Space::Flat(Domain::CartRam),
        _ => {
            return Err(format!(
                "{what}: unknown memory domain '{name}' (bus, rom, wram, vram, oam, hram, io, cartram)"
            ));
        }
    })
}

fn space_len(gb: &Gb, sp: Space) -> usize {
    match sp {
        Space::Bus => 0x10000,
        Space::Io => 0x81,
        Space::Flat(d) => gb.domain(d).len(),
    }
}

/// The bus address of offset `a` in the `io` domain (0x80 is IE, 0xFFFF).
fn io_addr(a: usize) -> u16 {
    if a == 0x80 { 0xFFFF } else { 0xFF00 + a as u16 }
}

fn peek(gb: &Gb, sp: Space, a: usize) -> Option<u8> {
    match sp {
        Space::Bus => u16::try_from(a).ok().map(|a| gb.peek(a)),
        Space::Io => (a <= 0x80).then(|| gb.peek(io_addr(a))),
        Space::Flat(d) => gb.domain(d).get(a).copied(),
    }
}

fn poke(gb: &mut Gb, sp: Space, a: usize, v: u8, what: &str) -> Result<(), String> {
    let out = || format!("{what}: address {a:#x} is outside the domain");
    match sp {
        Space::Bus => gb.poke(u16::try_from(a).map_err(|_| out())?, v),
        Space::Io if a <= 0x80 => gb.poke(io_addr(a), v),
        Space::Io => return Err(out()),
        Space::Flat(d) => {
            let mem = gb
                .domain_mut(d)
                .ok_or_else(|| format!("{what}: the ROM is read-only"))?;
            *mem.get_mut(a).ok_or_else(out)? = v;
        }
    }
    Ok(())
}

fn address(args: &[Value], i: usize, what: &str) -> Result<usize, String> {
    let a = int(args, i, what)?;
    usize::try_from(a).map_err(|_| format!("{what}: address {a} is negative"))
}

/// A key of the `persist` table: strings and numbers, as text.
fn persist_key(v: Option<&Value>) -> Result<Vec<u8>, String> {
    match v {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(Value::Integer(i)) => Ok(i.to_string().into_bytes()),
        Some(Value::Number(n)) => Ok(n.to_string().into_bytes()),
        other => Err(format!(
            "persist keys are strings or numbers, not {}",
            type_name(other)
        )),
    }
}

fn slot_name(args: &[Value], what: &str) -> Result<String, String> {
    match args.first() {
        Some(Value::Integer(i)) => Ok(i.to_string()),
        Some(Value::String(s)) => Ok(String::from_utf8_lossy(s).into_owned()),
        other => Err(format!(
            "bad argument #1 to '{what}' (slot number or name expected, got {})",
            type_name(other)
        )),
    }
}

/// Parse a colour: 0xAARRGGBB (0xRRGGBB is opaque), "#RRGGBB", "#AARRGGBB" or a name; `None`
/// (absent or nil) gives `default`.
pub fn color(v: Option<&Value>, default: u32) -> Result<u32, String> {
    match v {
        None | Some(Value::Nil) => Ok(default),
        Some(Value::Integer(c)) => {
            let c = *c as u32;
            Ok(if c <= 0xFF_FFFF { c | 0xFF00_0000 } else { c })
        }
        Some(Value::String(s)) => {
            let s = String::from_utf8_lossy(s).to_ascii_lowercase();
            let named = match s.as_str() {
                "white" => Some(0xFFFF_FFFF),
                "black" => Some(0xFF00_0000),
                "red" => Some(0xFFFF_0000),
                "green" => Some(0xFF00_FF00),
                "blue" => Some(0xFF00_00FF),
                "yellow" => Some(0xFFFF_FF00),
                "cyan" => Some(0xFF00_FFFF),
                "magenta" | "purple" => Some(0xFFFF_00FF),
                "gray" | "grey" => Some(0xFF80_8080),
                "orange" => Some(0xFFFF_A500),
                "clear" | "transparent" => Some(0),
                _ => None,
            };
            if let Some(c) = named {
                return Ok(c);
            }
            let hex = s.strip_prefix('#').unwrap_or("");
            let parsed = u32::from_str_radix(hex, 16).ok();
            match (hex.len(), parsed) {
                (6, Some(c)) => Ok(c | 0xFF00_0000),
                (8, Some(c)) => Ok(c),
                _ => Err(format!("unknown colour '{s}'")),
            }
        }
        other => Err(format!("bad colour ({})", type_name(other))),
    }
}

fn coord(v: i64) -> i32 {
    v.clamp(-10_000, 10_000) as i32
}

/// Most bytes `memory.read_bytes` returns at once.
const MAX_READ: usize = 1 << 20;
/// Most addresses `memory.search` returns.
const MAX_HITS: usize = 65_536;

fn register_value(r: &Registers, name: &str) -> Option<i64> {
    let pair = |h: u8, l: u8| i64::from(u16::from_be_bytes([h, l]));
    Some(match name {
        "a" => i64::from(r.a),
        "f" => i64::from(r.f),
        "b" => i64::from(r.b),
        "c" => i64::from(r.c),
        "d" => i64::from(r.d),
        "e" => i64::from(r.e),
        "h" => i64::from(r.h),
        "l" => i64::from(r.l),
        "af" => pair(r.a, r.f),
        "bc" => pair(r.b, r.c),
        "de" => pair(r.d, r.e),
        "hl" => pair(r.h, r.l),
        "sp" => i64::from(r.sp),
        "pc" => i64::from(r.pc),
        _ => return None,
    })
}

fn set_register(r: &mut Registers, name: &str, v: i64) -> bool {
    let (hi, lo) = ((v >> 8) as u8, v as u8);
    match name {
        "a" => r.a = lo,
        "f" => r.f = lo,
        "b" => r.b = lo,
        "c" => r.c = lo,
        "d" => r.d = lo,
        "e" => r.e = lo,
        "h" => r.h = lo,
        "l" => r.l = lo,
        "af" => (r.a, r.f) = (hi, lo),
        "bc" => (r.b, r.c) = (hi, lo),
        "de" => (r.d, r.e) = (hi, lo),
        "hl" => (r.h, r.l) = (hi, lo),
        "sp" => r.sp = v as u16,
        "pc" => r.pc = v as u16,
        _ => return false,
    }
    true
}

/// The accessors' names, by index in `WIDTHS` (static, so a call allocates nothing).
const READ_NAMES: [&str; 10] = [
    "memory.read_u8",
    "memory.read_s8",
    "memory.read_u16_le",
    "memory.read_u16_be",
    "memory.read_s16_le",
    "memory.read_s16_be",
    "memory.read_u32_le",
    "memory.read_u32_be",
    "memory.read_s32_le",
    "memory.read_s32_be",
];
/// See [`READ_NAMES`].
const WRITE_NAMES: [&str; 10] = [
    "memory.write_u8",
    "memory.write_s8",
    "memory.write_u16_le",
    "memory.write_u16_be",
    "memory.write_s16_le",
    "memory.write_s16_be",
    "memory.write_u32_le",
    "memory.write_u32_be",
    "memory.write_s32_le",
    "memory.write_s32_be",
];

impl Api<'_> {
    fn draw(&mut self, cmd: DrawCmd) {
        if self.draw.len() < MAX_DRAW {
            self.draw.push(cmd);
        }
    }

    fn read(&self, id: u32, args: &[Value]) -> Result<i64, String> {
        let (_, n, signed, big) = WIDTHS[(id - READ) as usize];
        let what = READ_NAMES[(id - READ) as usize];
        let a = address(args, 0, what)?;
        // The common case first: one byte on the bus.
        if n == 1 && args.len() < 2 && a <= 0xFFFF {
            let v = self.gb.peek(a as u16);
            return Ok(if signed {
                i64::from(v as i8)
            } else {
                i64::from(v)
            });
        }
        let sp = space(args, 1, Space::Bus, what)?;
        let mut v: u32 = 0;
        for k in 0..n {
            // The bus wraps at 0x10000; other domains end.
            let at = if sp == Space::Bus {
                (a + k) & 0xFFFF
            } else {
                a + k
            };
            let b = peek(self.gb, sp, at)
                .ok_or_else(|| format!("{what}: address {at:#x} is outside the domain"))?;
            let shift = if big { 8 * (n - 1 - k) } else { 8 * k };
            v |= u32::from(b) << shift;
        }
        Ok(match (n, signed) {
            (1, true) => i64::from(v as u8 as i8),
            (2, true) => i64::from(v as u16 as i16),
            (4, true) => i64::from(v as i32),
            _ => i64::from(v),
        })
    }

    fn write(&mut self, id: u32, args: &[Value]) -> Result<(), String> {
        let (_, n, _, big) = WIDTHS[(id - WRITE) as usize];
        let what = WRITE_NAMES[(id - WRITE) as usize];
        let a = address(args, 0, what)?;
        let v = int(args, 1, what)?;
        let sp = space(args, 2, Space::Bus, what)?;
        for k in 0..n {
            let at = if sp == Space::Bus {
                (a + k) & 0xFFFF
            } else {
                a + k
            };
            let shift = if big { 8 * (n - 1 - k) } else { 8 * k };
            self.store(sp, at, (v >> shift) as u8, what)?;
        }
        Ok(())
    }

    /// Write one byte: into the machine for scripts, as a poke to log for the console.
    fn store(&mut self, sp: Space, a: usize, v: u8, what: &str) -> Result<(), String> {
        let Some(pokes) = &mut self.pokes else {
            return poke(self.gb, sp, a, v, what);
        };
        let addr = bus_address(sp, a).ok_or_else(|| {
            format!("{what}: the console writes through the bus only (logged pokes), and {a:#x} of this domain is not on it")
        })?;
        pokes.push((addr, v));
        Ok(())
    }

    /// Refuse `what` in the console, where it would change the machine outside the log.
    fn not_in_console(&self, what: &str) -> Result<(), String> {
        match self.pokes {
            Some(_) => Err(format!(
                "{what} is not available in the console (it would change the machine outside the event log)"
            )),
            None => Ok(()),
        }
    }
}

/// Where offset `a` of `sp` is on the bus, for the domains that sit at a fixed bus address.
fn bus_address(sp: Space, a: usize) -> Option<u16> {
    let base = match sp {
        Space::Bus => 0,
        Space::Io if a <= 0x80 => return Some(io_addr(a)),
        Space::Io => return None,
        Space::Flat(Domain::Wram) if a < 0x2000 => 0xC000,
        Space::Flat(Domain::Vram) if a < 0x2000 => 0x8000,
        Space::Flat(Domain::Oam) if a < 0xA0 => 0xFE00,
        Space::Flat(Domain::Hram) if a < 0x7F => 0xFF80,
        Space::Flat(_) => return None,
    };
    u16::try_from(base + a).ok()
}

impl Host for Api<'_> {
    fn call(
        &mut self,
        id: u32,
        args: &[Value],
        ret: &mut Vec<Value>,
    ) -> Result<HostReturn, String> {
        // The hottest call, `memory.read_u8(addr)` on the bus, before any dispatch (scripts
        // call it thousands of times a frame); anything else takes the general path below.
        if id == READ
            && let [Value::Integer(a)] = args
            && let Ok(a) = u16::try_from(*a)
        {
            ret.push(Value::Integer(i64::from(self.gb.peek(a))));
            return Ok(HostReturn::Values);
        }
        match id {
            _ if (READ..READ + WIDTHS.len() as u32).contains(&id) => {
                ret.push(Value::Integer(self.read(id, args)?));
            }
            _ if (WRITE..WRITE + WIDTHS.len() as u32).contains(&id) => self.write(id, args)?,
            id::READ_BYTES => {
                let what = "memory.read_bytes";
                let a = address(args, 0, what)?;
                let n = int(args, 1, what)?.clamp(0, MAX_READ as i64) as usize;
                let sp = space(args, 2, Space::Bus, what)?;
                let len = space_len(self.gb, sp);
                let bytes: Vec<u8> = (a..a.saturating_add(n).min(len))
                    .filter_map(|at| peek(self.gb, sp, at))
                    .collect();
                ret.push(Value::String(bytes));
            }
            id::WRITE_BYTES => {
                let what = "memory.write_bytes";
                let a = address(args, 0, what)?;
                let bytes = bytes_arg(args, 1, what)?.to_vec();
                let sp = space(args, 2, Space::Bus, what)?;
                for (k, b) in bytes.into_iter().enumerate() {
                    self.store(sp, a + k, b, what)?;
                }
            }
            id::SEARCH => {
                let what = "memory.search";
                let needle = bytes_arg(args, 0, what)?.to_vec();
                let sp = space(args, 1, Space::Flat(Domain::Wram), what)?;
                let hay: Vec<u8> = match sp {
                    Space::Flat(d) => self.gb.domain(d).to_vec(),
                    _ => (0..space_len(self.gb, sp))
                        .filter_map(|a| peek(self.gb, sp, a))
                        .collect(),
                };
                let mut packed = Vec::new();
                if !needle.is_empty() {
                    for (a, w) in hay.windows(needle.len()).enumerate() {
                        if w == needle.as_slice() {
                            packed.extend_from_slice(&(a as u32).to_le_bytes());
                            if packed.len() / 4 >= MAX_HITS {
                                break;
                            }
                        }
                    }
                }
                ret.push(Value::String(packed));
            }
            id::DOMAIN_SIZE => {
                let sp = space(args, 0, Space::Bus, "memory.size")?;
                ret.push(Value::Integer(space_len(self.gb, sp) as i64));
            }
            id::FRAMECOUNT => ret.push(Value::Integer(self.frame as i64)),
            id::LAGCOUNT => ret.push(Value::Integer(self.gb.lag_frames() as i64)),
            id::ISLAGGED => ret.push(Value::Boolean(self.gb.lagged())),
            id::GETREGISTER => {
                let name = text_arg(args, 0, "emu.getregister")?.to_ascii_lowercase();
                let v = register_value(&self.gb.regs(), &name)
                    .ok_or_else(|| format!("emu.getregister: no register '{name}'"))?;
                ret.push(Value::Integer(v));
            }
            id::SETREGISTER => {
                self.not_in_console("emu.setregister")?;
                let name = text_arg(args, 0, "emu.setregister")?.to_ascii_lowercase();
                let v = int(args, 1, "emu.setregister")?;
                let mut r = self.gb.regs();
                if !set_register(&mut r, &name, v) {
                    return Err(format!("emu.setregister: no register '{name}'"));
                }
                self.gb.set_registers(r);
            }
            id::MODEL => ret.push(Value::from("DMG")),
            id::ROM_TITLE => ret.push(Value::from(self.gb.cartridge().header().title.as_str())),
            id::ROM_HASH => ret.push(Value::from(format!("{:016x}", self.rom_hash).as_str())),
            id::JOYPAD_GET => ret.push(Value::Integer(i64::from(self.gb.buttons().0))),
            id::JOYPAD_IMMEDIATE => ret.push(Value::Integer(i64::from(self.user_buttons.0))),
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
            id::WATCH_CHANGED => self.requests.push(Request::Watches),
            id::PERSIST_GET => {
                let k = persist_key(args.first())?;
                ret.push(self.persist.get(&k).cloned().unwrap_or(Value::Nil));
            }
            id::PERSIST_SET => {
                let k = persist_key(args.first())?;
                match args.get(1) {
                    None | Some(Value::Nil) => {
                        self.persist.remove(&k);
                    }
                    Some(Value::Other(t)) => {
                        return Err(format!(
                            "persist holds nil, booleans, numbers and strings, not {t}"
                        ));
                    }
                    Some(v) => {
                        self.persist.insert(k, v.clone());
                    }
                }
            }
            id::SAVE => {
                self.not_in_console("savestate.save")?;
                // The machine is saved now; the scripts' arenas when the call returns (a VM
                // cannot be copied while it runs).
                let name = slot_name(args, "savestate.save")?;
                let mut core = Vec::new();
                self.gb.save_state(&mut core);
                self.states.insert(
                    name.clone(),
                    SavedState {
                        core,
                        scripts: Vec::new(),
                    },
                );
                self.requests.push(Request::Save(name));
            }
            id::LOAD => {
                self.not_in_console("savestate.load")?;
                // The machine is loaded now, so the script sees the loaded memory at once; the
                // other scripts are rolled back when the call returns, the caller never.
                let name = slot_name(args, "savestate.load")?;
                let state = self
                    .states
                    .get(&name)
                    .ok_or_else(|| format!("savestate.load: no state named '{name}'"))?;
                self.gb
                    .load_state(&state.core)
                    .map_err(|e| format!("savestate.load: {e}"))?;
                self.requests.push(Request::Load(name));
            }
            _ => return Err(format!("unknown host function {id}")),
        }
        Ok(HostReturn::Values)
    }
}

/// Most drawing commands one script may issue per frame (the rest are dropped).
const MAX_DRAW: usize = 4096;
