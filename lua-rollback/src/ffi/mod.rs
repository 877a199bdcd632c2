//! The FFI layer: every call into Lua's C API (through `mlua::ffi`, never mlua's `Lua`).
//!
//! [`RawVm`] owns a `lua_State` living in an [`Arena`] and exposes safe methods. Its soundness
//! rests on these rules, kept by every function in this module and its parts:
//!
//! * **Everything that can allocate runs inside `lua_pcall`** on the main thread: a protected
//!   C function (`p_*`) does the work, and only non-allocating calls (`lua_settop`,
//!   `lua_pushcfunction` of a light C function, `lua_pushlightuserdata`, `lua_type`, `lua_to*`
//!   on values that need no conversion, `lua_sethook`) run outside. An error thrown in a
//!   coroutine without a handler is re-thrown into the main thread's handler (`luaD_throw`),
//!   so resuming from inside a protected function is safe too. Arena exhaustion is therefore
//!   always a Lua error, never `abort()`.
//! * **No Rust value with a destructor is alive across a Lua call that can raise** (Lua
//!   raises with `longjmp`): protected functions read their inputs through raw pointers to
//!   plain data owned by the caller, outside the protected call.
//! * **Nothing here panics while Lua is on the stack.** A panic unwinding out of a host
//!   function would cross C frames; [`AbortOnUnwind`] turns that host bug into an abort rather
//!   than leaving a corrupt state.
//! * **Snapshot and restore need `&mut self`**, so no Lua call is active; the host side keeps
//!   no pointer into the arena except the main thread, which is created first and never moves.
//! * **Pointers from the arena to the outside** go only to static code (C functions, the
//!   hook, the allocator) and to the [`Control`] block, which lives as long as the arena: the
//!   allocator's `ud`, and the main thread's extra space (copied into every coroutine).
//! * **Safe host functions** ([`Host`](crate::host::Host)) are C closures of a trampoline carrying their number;
//!   the host object is reachable from the control block only during a `*_with` call (see
//!   `host_call`).
//!
//! # Parts
//!
//! This file holds the state's life (creation, drop) and the driver of protected calls
//! ([`RawVm::protected`]). The rest, each part adding its own `impl RawVm`:
//!
//! * `state`: the types every part shares ([`RawVm`], [`Control`], `control`).
//!
//! * `calls`: running chunks, functions and named coroutines (each `p_*` beside its method).
//! * `host_call`: the host-function trampoline, registration, and the raw host-function API.
//! * `sandbox`: the state's setup and the library functions it replaces.
//! * `budget`: the instruction-count hook.
//! * `gc`: garbage-collector modes and collections.
//! * `stack`: values, names and paths across the Lua stack.
//! * `rollback`: snapshots, diffs and restore of the arena.
//! * `image`: the FFI side of portable images (our code's names, a VM's parts, restoring an
//!   imported image).
#![expect(unsafe_code, reason = "creates and drives the Lua state")]

mod budget;
mod calls;
mod gc;
mod host_call;
mod image;
mod rollback;
mod sandbox;
mod stack;
mod state;

use std::cell::{Cell, UnsafeCell};
use std::ffi::{c_int, c_void};
use std::ptr::{self, NonNull};

use mlua::ffi as lua;

use crate::arena::{AllocFailure, Arena, lua_alloc};
use crate::error::Error;
use crate::value::Value;

pub(crate) use gc::GC_FRAME;
pub use gc::GcMode;
pub(crate) use host_call::{HostBinding, HostCall, host_factory};
pub use host_call::{HostFn, host_context, yield_frame};
pub(crate) use image::known_code;

use sandbox::{InitArgs, p_init};
use stack::{read_error, read_value};
use state::AbortOnUnwind;
pub(crate) use state::{Control, RawVm};

/// What [`RawVm::new`] needs.
pub(crate) struct RawConfig<'a> {
    pub(crate) capacity: usize,
    pub(crate) fixed_address: Option<usize>,
    pub(crate) window_slot: Option<usize>,
    pub(crate) budget: Option<u64>,
    pub(crate) gc: GcMode,
    pub(crate) random_seed: i64,
    pub(crate) output_limit: usize,
    pub(crate) host: *mut c_void,
    pub(crate) functions: &'a [HostBinding],
    pub(crate) failure: AllocFailure,
    pub(crate) track_writes: bool,
}

impl RawVm {
    /// Create a state in a fresh arena and set it up.
    pub(crate) fn new(cfg: &RawConfig<'_>) -> Result<RawVm, Error> {
        let arena = match (cfg.fixed_address, cfg.window_slot) {
            (None, Some(slot)) => Arena::new_in_window(cfg.capacity, slot)?,
            (fixed, _) => Arena::new(cfg.capacity, fixed)?,
        };
        arena.set_failure(cfg.failure);
        let ctl = NonNull::from(Box::leak(Box::new(Control {
            host: cfg.host,
            active: Cell::new(None),
            args: Cell::new(Vec::new()),
            results: UnsafeCell::new(Vec::new()),
            message: UnsafeCell::new(Vec::new()),
            budget: cfg.budget,
            left: Cell::new(0),
            exhausted: Cell::new(false),
            output: Cell::new(Vec::new()),
            output_limit: cfg.output_limit,
            arg: Cell::new(ptr::null_mut()),
        })));
        // SAFETY: `lua_alloc` with this arena's `ud` is a valid allocator for the arena's whole
        // life; lua_newstate runs its own allocations protected and returns null on failure.
        let l = unsafe { lua::lua_newstate(lua_alloc, arena.lua_ud()) };
        let mut vm = RawVm {
            l,
            ctl,
            next_seq: 1,
            tracked_seq: None,
            written: Vec::new(),
            changed: Vec::new(),
            raw_functions: cfg
                .functions
                .iter()
                .filter_map(|b| match b.f {
                    HostCall::Raw(f) => {
                        let name = b.name.to_string_lossy();
                        let path = match &b.table {
                            Some(t) => format!("{}.{name}", t.to_string_lossy()),
                            None => name.into_owned(),
                        };
                        Some((path, f as usize as u64))
                    }
                    HostCall::Id(_) => None,
                })
                .collect(),
            arena,
        };
        if l.is_null() {
            return Err(Error::StateCreation);
        }
        // SAFETY: the extra space of the fresh main thread is LUA_EXTRASPACE (pointer-sized)
        // bytes inside the arena before the state; threads created later copy it.
        unsafe { *lua::lua_getextraspace(l).cast::<*const Control>() = ctl.as_ptr() };
        let args = InitArgs {
            functions: cfg.functions,
            seed: cfg.random_seed,
            gc: cfg.gc,
        };
        vm.protected(p_init, ptr::from_ref(&args).cast_mut().cast(), 0)?;
        vm.clear();
        if cfg.track_writes {
            vm.arena.track_writes();
        }
        Ok(vm)
    }

    fn ctl(&self) -> &Control {
        // SAFETY: `ctl` is leaked in `new` and freed only in `drop`.
        unsafe { self.ctl.as_ref() }
    }

    /// Empty the main thread's stack.
    fn clear(&mut self) {
        // SAFETY: lowering the top of the main thread's stack does not allocate; no
        // to-be-closed variables live on it.
        unsafe { lua::lua_settop(self.l, 0) };
    }

    /// Map a failed pcall status and the error object on top of the stack.
    fn error(&mut self, status: c_int, syntax: bool) -> Error {
        // SAFETY: after a failed pcall the error object is on top of the main thread's stack.
        let msg = unsafe { read_error(self.l, -1) };
        self.status_error(status, msg, syntax)
    }

    fn status_error(&mut self, status: c_int, msg: String, syntax: bool) -> Error {
        let ctl = self.ctl();
        if ctl.exhausted.get() {
            return Error::Budget(ctl.budget.unwrap_or(0));
        }
        match status {
            lua::LUA_ERRMEM => Error::Memory,
            lua::LUA_ERRERR => Error::ErrorHandling(msg),
            lua::LUA_ERRSYNTAX if syntax => Error::Syntax(msg),
            _ => Error::Runtime(msg),
        }
    }

    /// Run a protected C function on an empty stack, its argument block `arg` reachable
    /// through the control block for the call; its results stay on the stack. `nresults` as
    /// in `lua_pcall`.
    fn protected(
        &mut self,
        f: lua::lua_CFunction,
        arg: *mut c_void,
        nresults: c_int,
    ) -> Result<(), Error> {
        // A budget spent by an earlier call must not colour this call's errors.
        self.ctl().exhausted.set(false);
        self.protected_armed(f, arg, nresults)
    }

    /// [`RawVm::protected`] for a call that armed the budget itself.
    fn protected_armed(
        &mut self,
        f: lua::lua_CFunction,
        arg: *mut c_void,
        nresults: c_int,
    ) -> Result<(), Error> {
        self.clear();
        let _guard = AbortOnUnwind;
        // SAFETY: the stack is empty and has LUA_MINSTACK free slots, so pushing a light C
        // function and a light userdata cannot allocate; lua_pcall protects `f`.
        let status = unsafe {
            lua::lua_pushcfunction(self.l, f);
            // A placeholder where the argument used to be, so the protected functions' stack
            // indices stay the same; the argument itself is in the control block.
            lua::lua_pushinteger(self.l, 0);
            self.ctl().arg.set(arg);
            let status = lua::lua_pcall(self.l, 1, nresults, 0);
            self.ctl().arg.set(ptr::null_mut());
            status
        };
        if status != lua::LUA_OK {
            let e = self.error(status, false);
            self.clear();
            return Err(e);
        }
        Ok(())
    }

    /// Read the values from stack index `from` to the top, then clear the stack.
    fn take_results(&mut self, from: c_int) -> Vec<Value> {
        // SAFETY: the indices are within `[from, top]`; reading does not allocate in Lua.
        let values = unsafe {
            let top = lua::lua_gettop(self.l);
            (from..=top).map(|i| read_value(self.l, i)).collect()
        };
        self.clear();
        values
    }

    /// Stack index 1 as an integer (the status convention of the protected functions).
    fn code_at(&self, idx: c_int) -> lua::lua_Integer {
        // SAFETY: reading a stack slot does not allocate (an absent one reads as 0).
        unsafe { lua::lua_tointegerx(self.l, idx, ptr::null_mut()) }
    }
}

impl Drop for RawVm {
    fn drop(&mut self) {
        // No lua_close: the state lives entirely in the arena and owns nothing outside it
        // (no userdata holds Rust resources), so unmapping the arena frees it all without
        // running script finalizers. The arena is unmapped when `self.arena` drops, after this.
        // SAFETY: `ctl` was leaked in `new`; nothing uses it once the state is gone.
        drop(unsafe { Box::from_raw(self.ctl.as_ptr()) });
    }
}
