//! Values across the stack: pushing [`Value`]s, names and global paths, and reading values
//! and error objects back.
//!
//! Invariants: reading never allocates in Lua and never raises (no conversions, no
//! metamethods), so it is safe outside a protected call; pushing may allocate, so it runs
//! inside one. Names from the Rust heap reach Lua only through `lua_pushlstring` (see
//! [`push_name`]), never through calls that cache strings by their C address.
#![expect(unsafe_code, reason = "every call into Lua's C API")]

use std::ffi::{CStr, c_char, c_int};
use std::ptr;

use mlua::ffi as lua;

use crate::value::Value;

/// Push a plain value (allocates for strings: protected callers only).
pub(super) unsafe fn push_value(l: *mut lua::lua_State, v: &Value) {
    // SAFETY: the caller runs inside a protected call with stack room for one value.
    unsafe {
        match v {
            Value::Nil | Value::Other(_) => lua::lua_pushnil(l),
            Value::Boolean(b) => lua::lua_pushboolean(l, c_int::from(*b)),
            Value::Integer(i) => lua::lua_pushinteger(l, *i),
            Value::Number(n) => lua::lua_pushnumber(l, *n),
            Value::String(s) => {
                lua::lua_pushlstring(l, s.as_ptr().cast(), s.len());
            }
        }
    }
}

/// Read the value at `idx` without allocating or calling metamethods.
pub(super) unsafe fn read_value(l: *mut lua::lua_State, idx: c_int) -> Value {
    // SAFETY: `idx` is a valid stack index; lua_tolstring is used only on strings (no
    // conversion), so nothing here allocates or raises.
    unsafe {
        // The common case first (addresses, counts): one call fewer than via lua_type.
        if lua::lua_isinteger(l, idx) != 0 {
            return Value::Integer(lua::lua_tointegerx(l, idx, ptr::null_mut()));
        }
        match lua::lua_type(l, idx) {
            lua::LUA_TNIL | lua::LUA_TNONE => Value::Nil,
            lua::LUA_TBOOLEAN => Value::Boolean(lua::lua_toboolean(l, idx) != 0),
            lua::LUA_TNUMBER => {
                if lua::lua_isinteger(l, idx) != 0 {
                    Value::Integer(lua::lua_tointegerx(l, idx, ptr::null_mut()))
                } else {
                    Value::Number(lua::lua_tonumberx(l, idx, ptr::null_mut()))
                }
            }
            lua::LUA_TSTRING => {
                let mut len = 0usize;
                let s = lua::lua_tolstring(l, idx, &mut len);
                Value::String(std::slice::from_raw_parts(s.cast::<u8>(), len).to_vec())
            }
            lua::LUA_TTABLE => Value::Other("table"),
            lua::LUA_TFUNCTION => Value::Other("function"),
            lua::LUA_TTHREAD => Value::Other("thread"),
            lua::LUA_TUSERDATA | lua::LUA_TLIGHTUSERDATA => Value::Other("userdata"),
            _ => Value::Other("unknown"),
        }
    }
}

/// The error object at `idx` as text, without allocating in Lua.
pub(super) unsafe fn read_error(l: *mut lua::lua_State, idx: c_int) -> String {
    // SAFETY: forwarded: `idx` is a valid stack index.
    match unsafe { read_value(l, idx) } {
        Value::String(s) => String::from_utf8_lossy(&s).into_owned(),
        Value::Integer(i) => i.to_string(),
        Value::Number(n) => n.to_string(),
        Value::Nil => "nil".to_string(),
        Value::Boolean(b) => b.to_string(),
        Value::Other(t) => format!("(error object is a {t} value)"),
    }
}

/// Push a NUL-terminated name that may live anywhere (the Rust heap) as a Lua string.
///
/// Never hand such a pointer to `lua_pushstring`, `lua_getfield`, `lua_setfield`,
/// `lua_getglobal`, `lua_setglobal` or as a chunk name to `luaL_loadbufferx`: they go through
/// `luaS_new`, whose string cache picks its slot from the C string's *address*, so the arena
/// bytes would depend on where the heap put the name, and a re-run after a restore would not
/// be byte-identical. `lua_pushlstring` does not use that cache; static `c"..."` names are
/// fine.
pub(super) unsafe fn push_name(l: *mut lua::lua_State, name: *const c_char) {
    // SAFETY: `name` is a live NUL-terminated string; inside a protected call with a free
    // stack slot (lua_pushlstring allocates).
    unsafe {
        let b = CStr::from_ptr(name).to_bytes();
        lua::lua_pushlstring(l, b.as_ptr().cast(), b.len());
    }
}

/// Push a chunk name (see [`push_name`]) and return a pointer to it that `luaL_loadbufferx`
/// may take: the copy lives in the arena, at a deterministic address, anchored on `l`'s
/// stack until the caller pops it.
pub(super) unsafe fn push_chunkname(l: *mut lua::lua_State, name: *const c_char) -> *const c_char {
    // SAFETY: as `push_name`; the pushed value is a string, so lua_tolstring only reads it.
    unsafe {
        push_name(l, name);
        lua::lua_tolstring(l, -1, ptr::null_mut())
    }
}

/// Push the value at a global path: `name`, or `a.b.c` through nested tables (with their
/// `__index`); nil when a step is not a table. Needs two free stack slots.
pub(super) unsafe fn push_path(l: *mut lua::lua_State, path: *const c_char) {
    // SAFETY: `path` is a NUL-terminated string alive for the call; under lua_pcall (the
    // lookups may allocate or run metamethods); the split iterator owns nothing.
    unsafe {
        lua::lua_pushglobaltable(l);
        for step in CStr::from_ptr(path).to_bytes().split(|&b| b == b'.') {
            if lua::lua_type(l, -1) != lua::LUA_TTABLE {
                lua::lua_pop(l, 1);
                lua::lua_pushnil(l);
                return;
            }
            lua::lua_pushlstring(l, step.as_ptr().cast(), step.len());
            lua::lua_gettable(l, -2);
            lua::lua_remove(l, -2);
        }
    }
}
