//! Reading the arguments of a host call: integers, texts, byte strings, addresses, `persist`
//! keys, state slot names, colours and screen coordinates, each with Lua's own wording for a bad
//! argument.

use lua_rollback::Value;

pub(super) fn int(args: &[Value], i: usize, what: &str) -> Result<i64, String> {
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

pub(super) fn text_arg(args: &[Value], i: usize, what: &str) -> Result<String, String> {
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

pub(super) fn bytes_arg<'v>(args: &'v [Value], i: usize, what: &str) -> Result<&'v [u8], String> {
    match args.get(i) {
        Some(Value::String(s)) => Ok(s),
        other => Err(format!(
            "bad argument #{} to '{what}' (string expected, got {})",
            i + 1,
            type_name(other)
        )),
    }
}

pub(super) fn type_name(v: Option<&Value>) -> &'static str {
    match v {
        None | Some(Value::Nil) => "nil",
        Some(Value::Boolean(_)) => "boolean",
        Some(Value::Integer(_)) | Some(Value::Number(_)) => "number",
        Some(Value::String(_)) => "string",
        Some(Value::Other(t)) => t,
    }
}

pub(super) fn address(args: &[Value], i: usize, what: &str) -> Result<usize, String> {
    let a = int(args, i, what)?;
    usize::try_from(a).map_err(|_| format!("{what}: address {a} is negative"))
}

/// A key of the `persist` table: strings and numbers, as text.
pub(super) fn persist_key(v: Option<&Value>) -> Result<Vec<u8>, String> {
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

pub(super) fn slot_name(args: &[Value], what: &str) -> Result<String, String> {
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

pub(super) fn coord(v: i64) -> i32 {
    v.clamp(-10_000, 10_000) as i32
}
