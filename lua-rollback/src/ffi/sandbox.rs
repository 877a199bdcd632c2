//! The sandbox: the state's setup (`p_init`) and the library functions it replaces.
//!
//! Only `base` (without `dofile`, `loadfile`), `coroutine`, `table`, `string` (without
//! `dump`), `math` and `utf8` are opened. `load` takes text only; `print` goes to the host's
//! sink; `math.random` is seeded at creation and `math.randomseed` needs an explicit seed;
//! `setmetatable` refuses `__gc` (finalizers run with hooks off, outside the budget); `xpcall`
//! runs no message handler once the budget is spent.
//!
//! Invariants: nothing here reads the clock, files or the environment; the replacements of
//! `load`, `setmetatable`, `xpcall` and `math.randomseed` wrap the original function (kept as
//! an upvalue, in the arena); all of them run inside the caller's protected call.
#![expect(
    unsafe_code,
    reason = "C functions called by Lua, and the state's setup"
)]

use std::ffi::{CStr, c_int};

use mlua::ffi as lua;

use super::calls::COROUTINES;
use super::gc::{GcMode, set_gc};
use super::host_call::{HostBinding, install_host_functions};
use super::state::{Control, RawVm, control};

/// Append to the print sink, up to its limit.
fn sink(ctl: &Control, bytes: &[u8]) {
    let mut out = ctl.output.take();
    let room = ctl.output_limit.saturating_sub(out.len());
    out.extend_from_slice(&bytes[..bytes.len().min(room)]);
    ctl.output.set(out);
}

/// `print`: the arguments through `tostring`, tab-separated, into the host's sink.
unsafe extern "C-unwind" fn lua_print(l: *mut lua::lua_State) -> c_int {
    // SAFETY: called by Lua; luaL_tolstring may raise, and no Rust value with a destructor is
    // alive across it (the sink's Vec is taken and put back between Lua calls).
    unsafe {
        let ctl = control(l);
        let n = lua::lua_gettop(l);
        for i in 1..=n {
            let mut len = 0usize;
            let s = lua::luaL_tolstring(l, i, &mut len);
            if i > 1 {
                sink(ctl, b"\t");
            }
            sink(ctl, std::slice::from_raw_parts(s.cast::<u8>(), len));
            lua::lua_pop(l, 1);
        }
        sink(ctl, b"\n");
        0
    }
}

/// `load` restricted to text: calls the original `load` (upvalue 1) with mode forced to "t".
unsafe extern "C-unwind" fn lua_load_text(l: *mut lua::lua_State) -> c_int {
    // SAFETY: called by Lua with its arguments; all stack indices used exist after settop;
    // lua_call runs the original load (which yields never).
    unsafe {
        let n = lua::lua_gettop(l);
        lua::lua_settop(l, n.clamp(3, 4));
        lua::lua_pushstring(l, c"t".as_ptr());
        lua::lua_replace(l, 3);
        lua::lua_pushvalue(l, lua::lua_upvalueindex(1));
        lua::lua_insert(l, 1);
        lua::lua_call(l, lua::lua_gettop(l) - 1, lua::LUA_MULTRET);
        lua::lua_gettop(l)
    }
}

/// `math.randomseed` that needs an explicit seed (the seedless form reads the clock).
unsafe extern "C-unwind" fn lua_randomseed(l: *mut lua::lua_State) -> c_int {
    // SAFETY: called by Lua; luaL_error raises into the running protected call.
    unsafe {
        if lua::lua_isnone(l, 1) != 0 {
            return lua::luaL_error(
                l,
                c"math.randomseed needs a seed here (scripts must be deterministic)".as_ptr(),
            );
        }
        lua::lua_pushvalue(l, lua::lua_upvalueindex(1));
        lua::lua_insert(l, 1);
        lua::lua_call(l, lua::lua_gettop(l) - 1, lua::LUA_MULTRET);
        lua::lua_gettop(l)
    }
}

/// `setmetatable` that refuses metatables with a `__gc` field: Lua runs finalizers with
/// hooks disabled, so a finalizer could loop forever past the instruction budget. (Lua marks
/// an object for finalization only when its metatable has `__gc` at `setmetatable` time.)
unsafe extern "C-unwind" fn lua_setmetatable_checked(l: *mut lua::lua_State) -> c_int {
    // SAFETY: called by Lua; lua_rawget with a pushed key and lua_call of the original
    // setmetatable (upvalue 1) run inside the caller's protection.
    unsafe {
        if lua::lua_type(l, 2) == lua::LUA_TTABLE {
            lua::lua_pushstring(l, c"__gc".as_ptr());
            let has_gc = lua::lua_rawget(l, 2) != lua::LUA_TNIL;
            lua::lua_pop(l, 1);
            if has_gc {
                return lua::luaL_error(
                    l,
                    c"__gc metamethods are not allowed (finalizers cannot be budgeted)".as_ptr(),
                );
            }
        }
        lua::lua_pushvalue(l, lua::lua_upvalueindex(1));
        lua::lua_insert(l, 1);
        lua::lua_call(l, lua::lua_gettop(l) - 1, 1);
        1
    }
}

/// Continuation of [`lua_xpcall_guarded`]: the results of the original `xpcall`.
pub(super) unsafe extern "C-unwind" fn xpcall_cont(
    l: *mut lua::lua_State,
    _status: c_int,
    _ctx: lua::lua_KContext,
) -> c_int {
    // SAFETY: called by Lua; lua_gettop has no preconditions.
    unsafe { lua::lua_gettop(l) }
}

/// Message handler wrapper: once the budget is spent, return the error untouched instead of
/// running the script's handler (which Lua may call with hooks disabled, from inside the hook).
pub(super) unsafe extern "C-unwind" fn guarded_handler(l: *mut lua::lua_State) -> c_int {
    // SAFETY: called by Lua as a message handler with the error object at index 1; the
    // script's handler is upvalue 1.
    unsafe {
        lua::lua_settop(l, 1);
        if control(l).exhausted.get() {
            return 1;
        }
        lua::lua_pushvalue(l, lua::lua_upvalueindex(1));
        lua::lua_insert(l, 1);
        lua::lua_call(l, 1, 1);
        1
    }
}

/// `xpcall` whose message handler cannot outrun the budget (see [`guarded_handler`]). Calls
/// the original `xpcall` (upvalue 1) with a continuation, so the protected function may yield.
unsafe extern "C-unwind" fn lua_xpcall_guarded(l: *mut lua::lua_State) -> c_int {
    // SAFETY: called by Lua; luaL_checktype may raise before anything is built; the stack
    // indices used exist after the check; lua_callk with a continuation keeps yields working.
    unsafe {
        lua::luaL_checktype(l, 2, lua::LUA_TFUNCTION);
        lua::lua_pushvalue(l, 2);
        lua::lua_pushcclosure(l, guarded_handler, 1);
        lua::lua_replace(l, 2);
        lua::lua_pushvalue(l, lua::lua_upvalueindex(1));
        lua::lua_insert(l, 1);
        lua::lua_callk(
            l,
            lua::lua_gettop(l) - 1,
            lua::LUA_MULTRET,
            0,
            Some(xpcall_cont),
        );
        xpcall_cont(l, lua::LUA_OK, 0)
    }
}

/// Inputs of [`p_init`].
pub(super) struct InitArgs<'a> {
    pub(super) functions: &'a [HostBinding],
    pub(super) seed: i64,
    pub(super) gc: GcMode,
}

/// Open the safe libraries, sandbox them, install host functions, seed, set the GC mode.
pub(super) unsafe extern "C-unwind" fn p_init(l: *mut lua::lua_State) -> c_int {
    // SAFETY: runs under lua_pcall with a pointer to `InitArgs` owned by `RawVm::new`, alive
    // across the call; every API call below may raise into that pcall; no Rust value with a
    // destructor is alive.
    unsafe {
        let args = &*control(l).arg.get().cast::<InitArgs<'_>>();
        let libs: [(&CStr, lua::lua_CFunction); 6] = [
            (c"_G", lua::luaopen_base),
            (c"coroutine", lua::luaopen_coroutine),
            (c"table", lua::luaopen_table),
            (c"string", lua::luaopen_string),
            (c"math", lua::luaopen_math),
            (c"utf8", lua::luaopen_utf8),
        ];
        for (name, open) in libs {
            lua::luaL_requiref(l, name.as_ptr(), open, 1);
            lua::lua_pop(l, 1);
        }
        for name in [c"dofile", c"loadfile"] {
            lua::lua_pushnil(l);
            lua::lua_setglobal(l, name.as_ptr());
        }
        lua::lua_getglobal(l, c"string".as_ptr());
        lua::lua_pushnil(l);
        lua::lua_setfield(l, -2, c"dump".as_ptr());
        lua::lua_pop(l, 1);
        // load: text only.
        lua::lua_getglobal(l, c"load".as_ptr());
        lua::lua_pushcclosure(l, lua_load_text, 1);
        lua::lua_setglobal(l, c"load".as_ptr());
        // setmetatable: no finalizers; xpcall: handlers bounded by the budget.
        lua::lua_getglobal(l, c"setmetatable".as_ptr());
        lua::lua_pushcclosure(l, lua_setmetatable_checked, 1);
        lua::lua_setglobal(l, c"setmetatable".as_ptr());
        lua::lua_getglobal(l, c"xpcall".as_ptr());
        lua::lua_pushcclosure(l, lua_xpcall_guarded, 1);
        lua::lua_setglobal(l, c"xpcall".as_ptr());
        // print: to the host sink.
        lua::lua_pushcfunction(l, lua_print);
        lua::lua_setglobal(l, c"print".as_ptr());
        // math.random: seeded now; randomseed needs an explicit seed.
        lua::lua_getglobal(l, c"math".as_ptr());
        lua::lua_getfield(l, -1, c"randomseed".as_ptr());
        lua::lua_pushvalue(l, -1);
        lua::lua_pushinteger(l, args.seed);
        lua::lua_call(l, 1, 0);
        lua::lua_pushcclosure(l, lua_randomseed, 1);
        lua::lua_setfield(l, -2, c"randomseed".as_ptr());
        lua::lua_pop(l, 1);
        // Named coroutines.
        lua::lua_createtable(l, 0, 4);
        lua::lua_setfield(l, lua::LUA_REGISTRYINDEX, COROUTINES.as_ptr());
        // Host functions (names from the heap: through `push_name`).
        install_host_functions(l, args.functions);
        set_gc(l, args.gc);
        0
    }
}

impl RawVm {
    /// Take what `print` wrote since the last call.
    pub(crate) fn take_output(&mut self) -> Vec<u8> {
        self.ctl().output.take()
    }
}
