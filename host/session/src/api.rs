//! The Lua API's host side: the functions scripts call, answered by a [`lua_rollback::Host`]
//! that borrows the parts of the session a call may touch, for the duration of one VM call.
//!
//! Nothing here remembers anything about Lua between calls: hooks, pending input and the
//! coroutine live in the script's arena (see `prelude.lua`), so they roll back with it. The
//! host keeps only what must *not* roll back: each script's `persist` table and its output
//! (draw list, console lines).

use std::collections::BTreeMap;

use gb_core::Gb;
use lua_rollback::{Host, HostReturn, Value, VmBuilder};

/// The Lua source run in every script VM before the script.
pub const PRELUDE: &str = include_str!("prelude.lua");

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
}

/// A state save or load a script asked for; the session carries it out when the script's
/// call returns (a VM cannot be restored while it runs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `savestate.save(slot)`.
    Save(String),
    /// `savestate.load(slot)`.
    Load(String),
}

/// A state kept in memory by `savestate.save` or [`crate::Session::save_state`].
#[derive(Clone, Debug)]
pub(crate) struct SavedState {
    /// The core image.
    pub(crate) core: Vec<u8>,
    /// Each loaded script's arena, by slot.
    pub(crate) scripts: Vec<(u32, lua_rollback::Snapshot)>,
}

/// Host function ids.
mod id {
    pub const READ_U8: u32 = 1;
    pub const WRITE_U8: u32 = 2;
    pub const FRAMECOUNT: u32 = 3;
    pub const TEXT: u32 = 4;
    pub const PERSIST_GET: u32 = 5;
    pub const PERSIST_SET: u32 = 6;
    pub const SAVE: u32 = 7;
    pub const LOAD: u32 = 8;
    pub const READ_S8: u32 = 9;
    pub const READ_U16_LE: u32 = 10;
    pub const READ_U16_BE: u32 = 11;
    pub const READ_U32_LE: u32 = 12;
}

/// Register the host functions on a VM being built.
pub fn register(builder: VmBuilder) -> VmBuilder {
    builder
        .host_function("memory.read_u8", id::READ_U8)
        .host_function("memory.write_u8", id::WRITE_U8)
        .host_function("emu.framecount", id::FRAMECOUNT)
        .host_function("gui.text", id::TEXT)
        .host_function("gbhost.persist_get", id::PERSIST_GET)
        .host_function("gbhost.persist_set", id::PERSIST_SET)
        .host_function("savestate.save", id::SAVE)
        .host_function("savestate.load", id::LOAD)
        .host_function("memory.read_s8", id::READ_S8)
        .host_function("memory.read_u16_le", id::READ_U16_LE)
        .host_function("memory.read_u16_be", id::READ_U16_BE)
        .host_function("memory.read_u32_le", id::READ_U32_LE)
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

fn addr(args: &[Value], what: &str) -> Result<u16, String> {
    let a = int(args, 0, what)?;
    u16::try_from(a).map_err(|_| format!("{what}: address {a:#x} is outside 0x0000-0xFFFF"))
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

/// Parse a colour: 0xAARRGGBB (0xRRGGBB is opaque), "#RRGGBB" or a few names.
fn color(v: Option<&Value>) -> Result<u32, String> {
    match v {
        None | Some(Value::Nil) => Ok(0xFFFF_FFFF),
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
                _ => None,
            };
            if let Some(c) = named {
                return Ok(c);
            }
            s.strip_prefix('#')
                .filter(|h| h.len() == 6)
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .map(|c| c | 0xFF00_0000)
                .ok_or_else(|| format!("unknown colour '{s}'"))
        }
        other => Err(format!("bad colour ({})", type_name(other))),
    }
}

impl Host for Api<'_> {
    fn call(
        &mut self,
        id: u32,
        args: &[Value],
        ret: &mut Vec<Value>,
    ) -> Result<HostReturn, String> {
        match id {
            id::READ_U8 => {
                let a = addr(args, "memory.read_u8")?;
                ret.push(Value::Integer(i64::from(self.gb.peek(a))));
            }
            id::READ_S8 => {
                let a = addr(args, "memory.read_s8")?;
                ret.push(Value::Integer(i64::from(self.gb.peek(a) as i8)));
            }
            id::READ_U16_LE | id::READ_U16_BE | id::READ_U32_LE => {
                let a = addr(args, "memory.read")?;
                let n = if id == id::READ_U32_LE { 4 } else { 2 };
                let mut v = 0i64;
                for k in 0..n {
                    let b = i64::from(self.gb.peek(a.wrapping_add(k)));
                    v |= if id == id::READ_U16_BE {
                        b << (8 * (1 - k))
                    } else {
                        b << (8 * k)
                    };
                }
                ret.push(Value::Integer(v));
            }
            id::WRITE_U8 => {
                let a = addr(args, "memory.write_u8")?;
                let v = int(args, 1, "memory.write_u8")?;
                self.gb.poke(a, v as u8);
            }
            id::FRAMECOUNT => ret.push(Value::Integer(self.frame as i64)),
            id::TEXT => {
                let x = int(args, 0, "gui.text")?;
                let y = int(args, 1, "gui.text")?;
                let text = match args.get(2) {
                    Some(Value::String(s)) => String::from_utf8_lossy(s).into_owned(),
                    Some(Value::Integer(i)) => i.to_string(),
                    Some(Value::Number(n)) => n.to_string(),
                    Some(Value::Boolean(b)) => b.to_string(),
                    other => {
                        return Err(format!(
                            "bad argument #3 to 'gui.text' (string expected, got {})",
                            type_name(other)
                        ));
                    }
                };
                let color = color(args.get(3))?;
                if self.draw.len() < MAX_DRAW {
                    self.draw.push(DrawCmd::Text {
                        x: x.clamp(-10_000, 10_000) as i32,
                        y: y.clamp(-10_000, 10_000) as i32,
                        text,
                        color,
                    });
                }
            }
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
                    Some(v @ (Value::Boolean(_) | Value::Integer(_) | Value::Number(_))) => {
                        self.persist.insert(k, v.clone());
                    }
                    Some(Value::String(s)) => {
                        self.persist.insert(k, Value::String(s.clone()));
                    }
                    Some(Value::Other(t)) => {
                        return Err(format!(
                            "persist holds nil, booleans, numbers and strings, not {t}"
                        ));
                    }
                }
            }
            id::SAVE => {
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
