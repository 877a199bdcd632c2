//! Running code: compiling and running chunks, calling functions by global path, and named
//! coroutines. Each operation is a protected C function (`p_*`, run by
//! [`RawVm::protected`]) that does the Lua side under `lua_pcall`, and a `RawVm` method that
//! hands it its inputs and reads its results.
//!
//! Invariants: every allocating call happens inside a protected function; inputs cross as
//! plain-data argument blocks (`LoadArgs`, `CallArgs`) read through the control block, never
//! as Rust values with destructors; chunks are text only; named coroutines live in a registry
//! table inside the arena (so they roll back), and one that returns or fails is forgotten.
#![expect(unsafe_code, reason = "every call into Lua's C API")]

use std::ffi::{CStr, c_char, c_int};
use std::ptr;

use mlua::ffi as lua;

use super::budget::arm_thread;
use super::stack::{push_chunkname, push_name, push_path, push_value, read_error};
use super::state::{AbortOnUnwind, RawVm, control};
use crate::error::Error;
use crate::host::Host;
use crate::value::{Resume, Value};

/// Registry field holding the table of named coroutines.
pub(super) const COROUTINES: &CStr = c"lua_rollback.coroutines";

/// Message handler: append a traceback to string errors.
pub(super) unsafe extern "C-unwind" fn msg_handler(l: *mut lua::lua_State) -> c_int {
    // SAFETY: called by Lua with the error object at index 1; luaL_traceback allocates inside
    // the running protected call.
    unsafe {
        if lua::lua_type(l, 1) == lua::LUA_TSTRING {
            let msg = lua::lua_tolstring(l, 1, ptr::null_mut());
            lua::luaL_traceback(l, l, msg, 1);
        }
        1
    }
}

/// Inputs of [`p_load`] and [`p_spawn_chunk`].
struct LoadArgs {
    source: *const u8,
    len: usize,
    chunkname: *const c_char,
    coroutine: *const c_char,
}

/// Compile a text chunk; returns `status, function-or-message`.
unsafe extern "C-unwind" fn p_load(l: *mut lua::lua_State) -> c_int {
    // SAFETY: under lua_pcall with a pointer to `LoadArgs` whose buffers outlive the call.
    unsafe {
        let a = &*control(l).arg.get().cast::<LoadArgs>();
        let name = push_chunkname(l, a.chunkname);
        let status = lua::luaL_loadbufferx(l, a.source.cast(), a.len, name, c"t".as_ptr());
        lua::lua_pushinteger(l, lua::lua_Integer::from(status));
        lua::lua_insert(l, -2);
        2
    }
}

/// Compile a text chunk as the body of a new named coroutine; returns `status[, message]`.
unsafe extern "C-unwind" fn p_spawn_chunk(l: *mut lua::lua_State) -> c_int {
    // SAFETY: under lua_pcall with a pointer to `LoadArgs`; the parser runs protected on the
    // new thread; lua_xmove moves one value between threads of the same state.
    unsafe {
        let a = &*control(l).arg.get().cast::<LoadArgs>();
        lua::lua_getfield(l, lua::LUA_REGISTRYINDEX, COROUTINES.as_ptr()); // 2
        let name = push_chunkname(l, a.chunkname); // 3
        let co = lua::lua_newthread(l); // 4
        let status = lua::luaL_loadbufferx(co, a.source.cast(), a.len, name, c"t".as_ptr());
        if status != lua::LUA_OK {
            lua::lua_xmove(co, l, 1);
            lua::lua_pushinteger(l, lua::lua_Integer::from(status));
            lua::lua_insert(l, -2);
            return 2;
        }
        push_name(l, a.coroutine);
        lua::lua_insert(l, -2);
        lua::lua_rawset(l, 2);
        lua::lua_pushinteger(l, 0);
        1
    }
}

/// Inputs of [`p_prepare_call`] and [`p_spawn_function`].
struct CallArgs {
    function: *const c_char,
    coroutine: *const c_char,
    args: *const Value,
    nargs: usize,
}

/// Push the global function and the arguments.
unsafe extern "C-unwind" fn p_prepare_call(l: *mut lua::lua_State) -> c_int {
    // SAFETY: under lua_pcall with a pointer to `CallArgs` whose slice outlives the call.
    unsafe {
        let a = &*control(l).arg.get().cast::<CallArgs>();
        let args = std::slice::from_raw_parts(a.args, a.nargs);
        lua::luaL_checkstack(l, a.nargs as c_int + 3, c"too many arguments".as_ptr());
        push_path(l, a.function);
        for v in args {
            push_value(l, v);
        }
        a.nargs as c_int + 1
    }
}

/// Make a named coroutine running a global function; returns `1` or `0` if not a function.
unsafe extern "C-unwind" fn p_spawn_function(l: *mut lua::lua_State) -> c_int {
    // SAFETY: under lua_pcall with a pointer to `CallArgs`.
    unsafe {
        let a = &*control(l).arg.get().cast::<CallArgs>();
        lua::lua_getfield(l, lua::LUA_REGISTRYINDEX, COROUTINES.as_ptr());
        push_path(l, a.function);
        if lua::lua_type(l, -1) != lua::LUA_TFUNCTION {
            lua::lua_pushinteger(l, 0);
            return 1;
        }
        let co = lua::lua_newthread(l);
        lua::lua_rotate(l, -2, 1);
        lua::lua_xmove(l, co, 1);
        push_name(l, a.coroutine);
        lua::lua_insert(l, -2);
        lua::lua_rawset(l, 2);
        lua::lua_pushinteger(l, 1);
        1
    }
}

/// Remove a named coroutine from the table at stack index 2 (two free slots needed).
unsafe fn forget_coroutine(l: *mut lua::lua_State, name: *const c_char) {
    // SAFETY: inside `p_resume`, whose index 2 is the coroutine table; may allocate.
    unsafe {
        push_name(l, name);
        lua::lua_pushnil(l);
        lua::lua_rawset(l, 2);
    }
}

/// Outcome codes of [`p_resume`] (first result).
const RESUME_YIELDED: lua::lua_Integer = 0;
const RESUME_RETURNED: lua::lua_Integer = 1;
const RESUME_MISSING: lua::lua_Integer = 2;
const RESUME_ERROR: lua::lua_Integer = 3;

/// Resume a named coroutine with arguments. Returns `code, values...`, or for an error
/// `RESUME_ERROR, status, message`.
unsafe extern "C-unwind" fn p_resume(l: *mut lua::lua_State) -> c_int {
    // SAFETY: under lua_pcall on the main thread with a pointer to `CallArgs`. The coroutine
    // is checked to be a resumable thread of this state before lua_resume; every value moved
    // between threads was made room for with lua_checkstack first; errors thrown in the
    // coroutine outside its own protection propagate to this pcall.
    unsafe {
        let a = &*control(l).arg.get().cast::<CallArgs>();
        let args = std::slice::from_raw_parts(a.args, a.nargs);
        lua::lua_getfield(l, lua::LUA_REGISTRYINDEX, COROUTINES.as_ptr()); // 2
        push_name(l, a.coroutine);
        lua::lua_rawget(l, 2); // 3
        let co = lua::lua_tothread(l, 3);
        let resumable = !co.is_null()
            && match lua::lua_status(co) {
                lua::LUA_YIELD => true,
                // Not started yet: its function is the only thing on its stack.
                lua::LUA_OK => lua::lua_gettop(co) > 0 && co != l,
                _ => false,
            };
        if !resumable {
            lua::lua_pushinteger(l, RESUME_MISSING);
            return 1;
        }
        lua::luaL_checkstack(l, a.nargs as c_int + 4, c"too many arguments".as_ptr());
        for v in args {
            push_value(l, v);
        }
        if lua::lua_checkstack(co, a.nargs as c_int + 1) == 0 {
            return lua::luaL_error(l, c"not enough memory".as_ptr());
        }
        lua::lua_xmove(l, co, a.nargs as c_int);
        arm_thread(co, control(l));
        let mut nres: c_int = 0;
        let status = lua::lua_resume(co, l, a.nargs as c_int, &mut nres);
        match status {
            lua::LUA_OK | lua::LUA_YIELD => {
                if lua::lua_checkstack(l, nres + 3) == 0 {
                    lua::lua_pop(co, nres);
                    return lua::luaL_error(l, c"too many results to resume".as_ptr());
                }
                let code = if status == lua::LUA_YIELD {
                    RESUME_YIELDED
                } else {
                    // Finished: forget it.
                    forget_coroutine(l, a.coroutine);
                    RESUME_RETURNED
                };
                lua::lua_pushinteger(l, code);
                lua::lua_xmove(co, l, nres);
                nres + 1
            }
            _ => {
                lua::lua_pushinteger(l, RESUME_ERROR); // 4
                lua::lua_pushinteger(l, lua::lua_Integer::from(status)); // 5
                lua::lua_xmove(co, l, 1); // 6: error object
                if status == lua::LUA_ERRRUN && lua::lua_type(l, 6) == lua::LUA_TSTRING {
                    let msg = lua::lua_tolstring(l, 6, ptr::null_mut());
                    lua::luaL_traceback(l, co, msg, 0);
                    lua::lua_replace(l, 6);
                }
                forget_coroutine(l, a.coroutine);
                3
            }
        }
    }
}

impl RawVm {
    /// Call the function at stack index 2 with `nargs` arguments above it, with the message
    /// handler at index 1, under the budget; returns its results.
    fn run(&mut self, nargs: c_int) -> Result<Vec<Value>, Error> {
        self.arm();
        let _guard = AbortOnUnwind;
        // SAFETY: the stack holds [msgh, f, args...] as built by the caller; lua_pcall
        // protects the call.
        let status = unsafe { lua::lua_pcall(self.l, nargs, lua::LUA_MULTRET, 1) };
        if status != lua::LUA_OK {
            let e = self.error(status, false);
            self.clear();
            return Err(e);
        }
        self.budget_check()?;
        Ok(self.take_results(2))
    }

    /// Push the message handler under what is on the stack (index 1).
    fn insert_handler(&mut self) {
        // SAFETY: pushing a light C function into the stack's free slots does not allocate;
        // lua_insert only rotates.
        unsafe {
            lua::lua_pushcfunction(self.l, msg_handler);
            lua::lua_insert(self.l, 1);
        }
    }

    /// Compile and run a text chunk on the main thread.
    pub(crate) fn exec(
        &mut self,
        host: Option<&mut dyn Host>,
        chunkname: &CStr,
        source: &[u8],
    ) -> Result<Vec<Value>, Error> {
        let _host = self.enter(host);
        let args = LoadArgs {
            source: source.as_ptr(),
            len: source.len(),
            chunkname: chunkname.as_ptr(),
            coroutine: ptr::null(),
        };
        self.protected(p_load, ptr::from_ref(&args).cast_mut().cast(), 2)?;
        let status = self.code_at(1) as c_int;
        if status != lua::LUA_OK {
            let e = self.error(status, true);
            self.clear();
            return Err(e);
        }
        // [status, f] -> [msgh, f]
        // SAFETY: replacing a slot with a light C function does not allocate.
        unsafe {
            lua::lua_pushcfunction(self.l, msg_handler);
            lua::lua_replace(self.l, 1);
        }
        self.run(0)
    }

    /// Call the function at a global path (`name` or `a.b.c`).
    pub(crate) fn call(
        &mut self,
        host: Option<&mut dyn Host>,
        function: &CStr,
        args: &[Value],
    ) -> Result<Vec<Value>, Error> {
        let _host = self.enter(host);
        let a = CallArgs {
            function: function.as_ptr(),
            coroutine: ptr::null(),
            args: args.as_ptr(),
            nargs: args.len(),
        };
        self.protected(
            p_prepare_call,
            ptr::from_ref(&a).cast_mut().cast(),
            lua::LUA_MULTRET,
        )?;
        // SAFETY: p_prepare_call left [f, args...]; lua_type does not allocate.
        if unsafe { lua::lua_type(self.l, 1) } != lua::LUA_TFUNCTION {
            self.clear();
            return Err(Error::NotAFunction(function.to_string_lossy().into_owned()));
        }
        self.insert_handler();
        self.run(args.len() as c_int)
    }

    /// Compile a text chunk as the body of a named coroutine (replacing one of that name).
    pub(crate) fn spawn_chunk(
        &mut self,
        coroutine: &CStr,
        chunkname: &CStr,
        source: &[u8],
    ) -> Result<(), Error> {
        let args = LoadArgs {
            source: source.as_ptr(),
            len: source.len(),
            chunkname: chunkname.as_ptr(),
            coroutine: coroutine.as_ptr(),
        };
        self.protected(p_spawn_chunk, ptr::from_ref(&args).cast_mut().cast(), 2)?;
        let status = self.code_at(1) as c_int;
        if status != lua::LUA_OK {
            let e = self.error(status, true);
            self.clear();
            return Err(e);
        }
        self.clear();
        Ok(())
    }

    /// Make a named coroutine that will run a global function.
    pub(crate) fn spawn_function(
        &mut self,
        coroutine: &CStr,
        function: &CStr,
    ) -> Result<(), Error> {
        let a = CallArgs {
            function: function.as_ptr(),
            coroutine: coroutine.as_ptr(),
            args: ptr::null(),
            nargs: 0,
        };
        self.protected(p_spawn_function, ptr::from_ref(&a).cast_mut().cast(), 1)?;
        let ok = self.code_at(1) == 1;
        self.clear();
        if ok {
            Ok(())
        } else {
            Err(Error::NotAFunction(function.to_string_lossy().into_owned()))
        }
    }

    /// Resume a named coroutine.
    pub(crate) fn resume(
        &mut self,
        host: Option<&mut dyn Host>,
        coroutine: &CStr,
        args: &[Value],
    ) -> Result<Resume, Error> {
        let _host = self.enter(host);
        let a = CallArgs {
            function: ptr::null(),
            coroutine: coroutine.as_ptr(),
            args: args.as_ptr(),
            nargs: args.len(),
        };
        self.arm();
        self.protected_armed(
            p_resume,
            ptr::from_ref(&a).cast_mut().cast(),
            lua::LUA_MULTRET,
        )?;
        let code = self.code_at(1);
        if code == RESUME_YIELDED || code == RESUME_RETURNED {
            self.budget_check()?;
        }
        match code {
            RESUME_YIELDED => Ok(Resume::Yielded(self.take_results(2))),
            RESUME_RETURNED => Ok(Resume::Returned(self.take_results(2))),
            RESUME_ERROR => {
                let status = self.code_at(2) as c_int;
                // SAFETY: p_resume left the error object at index 3.
                let msg = unsafe { read_error(self.l, 3) };
                self.clear();
                Err(self.status_error(status, msg, false))
            }
            _ => {
                self.clear();
                Err(Error::NoCoroutine(coroutine.to_string_lossy().into_owned()))
            }
        }
    }
}
