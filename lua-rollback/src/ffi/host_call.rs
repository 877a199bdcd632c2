//! Host functions: the trampoline behind safe [`Host`] functions, their registration, and
//! the raw host-function API ([`HostFn`], [`host_context`], [`yield_frame`]).
//!
//! A safe host function is a C closure of `host_trampoline` carrying its number. The host
//! object is reachable from the control block only during a `*_with` call ([`ActiveHost`]
//! sets and clears it). The trampoline works in two phases: `dispatch` reads the arguments
//! without raising, calls the host under `catch_unwind` and drops every Rust value; then it
//! pushes the results from the control block's buffer, yields, or raises the host's message
//! from one (see the `host` module's docs).
//!
//! Invariants: no Rust value with a destructor is alive when the trampoline calls into Lua in a
//! way that can raise; a host panic never unwinds into Lua (it becomes the Lua error "host
//! function panicked"); host calls never nest (the host cannot reach the VM).
#![expect(
    unsafe_code,
    reason = "C functions called by Lua, and raw host-function helpers"
)]

use std::any::Any;
use std::ffi::{CString, c_int, c_void};
use std::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr::{self, NonNull};

use mlua::ffi as lua;

use super::stack::{push_name, push_value, read_value};
use super::state::{Control, RawVm, control};
use crate::host::{Host, HostReturn};

/// A raw host function: called by Lua with its arguments on the stack, returns how many
/// results it pushed. See [`host_context`] for the host pointer and the crate docs for the
/// rules. Prefer the safe [`Host`] trait
/// ([`VmBuilder::host_function`](crate::VmBuilder::host_function)).
pub type HostFn = lua::lua_CFunction;

/// One host function to install in the globals: `table.name`, or `name` when `table` is None.
pub(crate) struct HostBinding {
    pub(crate) table: Option<CString>,
    pub(crate) name: CString,
    pub(crate) f: HostCall,
}

/// How a host function is implemented.
#[derive(Clone, Copy)]
pub(crate) enum HostCall {
    /// A raw C function.
    Raw(HostFn),
    /// [`Host::call`] with this id, through [`host_trampoline`].
    Id(u32),
}

/// The host pointer given at build time, from inside a host function.
///
/// # Safety
/// `l` must be the state (or a coroutine of the state) that is calling the host function,
/// i.e. a state of a live [`Vm`](crate::Vm) of this crate.
pub unsafe fn host_context(l: *mut lua::lua_State) -> *mut c_void {
    // SAFETY: forwarded caller guarantee: `l` belongs to a live VM, whose extra space holds its
    // control block (set at creation, copied into every thread).
    unsafe { control(l).host }
}

/// A ready-made raw host function that yields from the running coroutine with no values:
/// register it as e.g. `emu.frameadvance` for BizHawk-style `while true do ... end` scripts.
/// With safe host functions, return [`HostReturn::Yield`] instead.
///
/// # Safety
/// Called by Lua only (it is a `lua_CFunction`).
pub unsafe extern "C-unwind" fn yield_frame(l: *mut lua::lua_State) -> c_int {
    // SAFETY: `l` is the calling thread; yielding from a C function that returns the result
    // of lua_yield is allowed (an error outside a coroutine).
    unsafe { lua::lua_yield(l, 0) }
}

/// What one host function asked for, as plain data (nothing to drop).
enum Outcome {
    /// Return this many results (in the control block's result buffer).
    Values(usize),
    /// Yield this many results.
    Yield(usize),
    /// Raise the message in the control block's message buffer.
    Error,
    /// The host panicked.
    Panic,
    /// No `*_with` call is running.
    NoHost,
}

/// The C closure behind every safe host function (upvalue 1: its id).
///
/// Phase 1 ([`dispatch`]) calls nothing in Lua that can raise and leaves no Rust value alive;
/// phase 2 pushes results or raises, touching only plain data and the control block's
/// buffers (see the `host` module's soundness notes).
pub(super) unsafe extern "C-unwind" fn host_trampoline(l: *mut lua::lua_State) -> c_int {
    // SAFETY: called by Lua on a thread of a live VM, inside a protected call. After
    // `dispatch` returns no Rust value with a destructor is alive in this frame (`ctl` and the
    // message slice are references into the control block, which outlives the state), so the
    // calls that can raise (pushing, luaL_where, lua_concat, lua_error, lua_yield, which
    // longjmp) skip nothing that needs dropping. A C function has LUA_MINSTACK free slots,
    // enough for the where-string and the message.
    unsafe {
        let ctl = control(l);
        match dispatch(l, ctl) {
            Outcome::Values(n) => push_results(l, ctl, n),
            Outcome::Yield(n) => {
                let n = push_results(l, ctl, n);
                lua::lua_yield(l, n)
            }
            Outcome::Error => {
                lua::luaL_where(l, 1);
                let msg: &[u8] = &*ctl.message.get();
                lua::lua_pushlstring(l, msg.as_ptr().cast(), msg.len());
                lua::lua_concat(l, 2);
                lua::lua_error(l)
            }
            Outcome::Panic => lua::luaL_error(l, c"host function panicked".as_ptr()),
            Outcome::NoHost => {
                lua::luaL_error(l, c"host function called outside a host call".as_ptr())
            }
        }
    }
}

/// Phase 1 of [`host_trampoline`]: read the arguments, call the host (catching panics), and
/// leave the results or the error message in the control block. Calls nothing in Lua that
/// can raise; every Rust value it makes is dropped before it returns.
///
/// # Safety
/// `l` is the thread running the trampoline of a live VM whose control block is `ctl`.
unsafe fn dispatch(l: *mut lua::lua_State, ctl: &Control) -> Outcome {
    let Some(mut host) = ctl.active.get() else {
        return Outcome::NoHost;
    };
    let r = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the upvalue is the id pushed at registration; reading stack slots
        // 1..=top with `read_value` neither allocates in Lua nor raises. `host` points to the
        // object of the running `*_with` call, borrowed mutably for that call and used by
        // nothing else meanwhile (the host cannot reach the VM, so this is never nested).
        // `results` is not otherwise borrowed while the host runs.
        unsafe {
            let id = lua::lua_tointegerx(l, lua::lua_upvalueindex(1), ptr::null_mut()) as u32;
            let mut args = ctl.args.take();
            args.clear();
            args.extend((1..=lua::lua_gettop(l)).map(|i| read_value(l, i)));
            let ret = &mut *ctl.results.get();
            ret.clear();
            let r = host.as_mut().call(id, &args, ret);
            args.clear();
            ctl.args.set(args);
            r.map(|how| (how, ret.len()))
        }
    }));
    match r {
        Ok(Ok((HostReturn::Values, n))) => Outcome::Values(n),
        Ok(Ok((HostReturn::Yield, n))) => Outcome::Yield(n),
        Ok(Err(msg)) => {
            // SAFETY: the message buffer is borrowed nowhere else.
            let buf = unsafe { &mut *ctl.message.get() };
            buf.clear();
            buf.extend_from_slice(msg.as_bytes());
            Outcome::Error
        }
        Err(payload) => {
            drop_payload(payload);
            Outcome::Panic
        }
    }
}

/// Drop a panic payload without letting a panicking destructor escape.
fn drop_payload(payload: Box<dyn Any + Send>) {
    if let Err(again) = catch_unwind(AssertUnwindSafe(|| drop(payload))) {
        std::mem::forget(again);
    }
}

/// Phase 2 of [`host_trampoline`] for results: push the `n` values of the control block's
/// result buffer, then empty it; returns `n`.
///
/// # Safety
/// As [`dispatch`]; no Rust value with a destructor may be alive in the caller's frame.
unsafe fn push_results(l: *mut lua::lua_State, ctl: &Control, n: usize) -> c_int {
    let n = c_int::try_from(n).unwrap_or(c_int::MAX);
    // SAFETY: inside a protected call; luaL_checkstack and the pushes may raise (stack
    // overflow, arena exhaustion), which leaves the buffer in the control block to be emptied
    // at the next call; the slice iterator owns nothing.
    unsafe {
        // A C function starts with LUA_MINSTACK free slots above its arguments.
        if n > lua::LUA_MINSTACK {
            lua::luaL_checkstack(l, n, c"too many results".as_ptr());
        }
        for v in (*ctl.results.get()).iter() {
            push_value(l, v);
        }
        (*ctl.results.get()).clear();
    }
    n
}

/// Makes the host object of a `*_with` call reachable from the control block, and unreachable
/// again when dropped (also on error or unwinding), before the borrow `'h` ends.
pub(super) struct ActiveHost<'h> {
    ctl: NonNull<Control>,
    _host: PhantomData<&'h mut dyn Host>,
}

impl Drop for ActiveHost<'_> {
    fn drop(&mut self) {
        // SAFETY: the guard lives inside a `RawVm` method, so the control block is alive.
        unsafe { self.ctl.as_ref() }.active.set(None);
    }
}

/// The host-function factory (`VmBuilder::host_function_factory`): `f(id)` returns the host
/// function number `id`, as [`VmBuilder::host_function`](crate::VmBuilder::host_function)
/// would have registered it, made only when asked (every closure registered at build time
/// lives in every VM's arena).
pub(crate) unsafe extern "C-unwind" fn host_factory(l: *mut lua::lua_State) -> c_int {
    // SAFETY: called by Lua inside a protected call with LUA_MINSTACK free slots; no Rust
    // value with a destructor is alive when luaL_error or the allocating calls may raise.
    unsafe {
        let id = if lua::lua_isinteger(l, 1) != 0 {
            u32::try_from(lua::lua_tointegerx(l, 1, ptr::null_mut())).ok()
        } else {
            None
        };
        let Some(id) = id else {
            return lua::luaL_error(l, c"a host function number expected".as_ptr());
        };
        push_host_function(l, HostCall::Id(id));
        1
    }
}

/// Push a host function (allocates for a closure: protected callers only).
unsafe fn push_host_function(l: *mut lua::lua_State, f: HostCall) {
    // SAFETY: inside a protected call with stack room for two values.
    unsafe {
        match f {
            HostCall::Raw(f) => lua::lua_pushcfunction(l, f),
            HostCall::Id(id) => {
                lua::lua_pushinteger(l, lua::lua_Integer::from(id));
                lua::lua_pushcclosure(l, host_trampoline, 1);
            }
        }
    }
}

/// Install `functions` in the globals: `table.name` (creating the table) or `name`. Names come
/// from the Rust heap, so they reach Lua through `push_name`.
///
/// # Safety
/// Inside a protected call on `l` (everything here allocates), with four free stack slots.
pub(super) unsafe fn install_host_functions(l: *mut lua::lua_State, functions: &[HostBinding]) {
    // SAFETY: inside the caller's protected call, every API call below may raise into it; the
    // slice iterator owns nothing, so no Rust value with a destructor is alive across them.
    unsafe {
        lua::lua_pushglobaltable(l);
        for b in functions {
            match &b.table {
                Some(t) => {
                    push_name(l, t.as_ptr());
                    if lua::lua_rawget(l, -2) != lua::LUA_TTABLE {
                        lua::lua_pop(l, 1);
                        lua::lua_createtable(l, 0, 8);
                        push_name(l, t.as_ptr());
                        lua::lua_pushvalue(l, -2);
                        lua::lua_rawset(l, -4);
                    }
                    push_name(l, b.name.as_ptr());
                    push_host_function(l, b.f);
                    lua::lua_rawset(l, -3);
                    lua::lua_pop(l, 1);
                }
                None => {
                    push_name(l, b.name.as_ptr());
                    push_host_function(l, b.f);
                    lua::lua_rawset(l, -3);
                }
            }
        }
        lua::lua_pop(l, 1);
    }
}

impl RawVm {
    /// Make `host` the object host functions call until the guard drops (`None`: host
    /// functions raise "host function called outside a host call").
    pub(super) fn enter<'h>(&mut self, host: Option<&'h mut dyn Host>) -> ActiveHost<'h> {
        let ptr = host.map(|h| {
            let p: NonNull<dyn Host + 'h> = NonNull::from(h);
            // SAFETY: only the lifetime bound changes (same fat-pointer layout). The pointer
            // is cleared by the returned guard, which cannot outlive `'h`.
            unsafe { std::mem::transmute::<NonNull<dyn Host + 'h>, NonNull<dyn Host>>(p) }
        });
        self.ctl().active.set(ptr);
        ActiveHost {
            ctl: self.ctl,
            _host: PhantomData,
        }
    }
}
