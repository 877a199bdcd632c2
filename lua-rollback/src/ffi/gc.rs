//! The garbage collector: its modes ([`GcMode`]), collections and steps on request, and the
//! end-of-frame collection of a rewind host ([`GC_FRAME`]).
//!
//! Invariants: collections run inside a protected call (they may run out of memory or call
//! finalizers); finalizers never hold Rust resources (the sandbox refuses `__gc`).
#![expect(unsafe_code, reason = "every call into Lua's C API")]

use std::ffi::c_int;
use std::ptr;

use mlua::ffi as lua;

use super::state::{RawVm, control};
use crate::error::Error;

/// Garbage-collector setup (see the Lua 5.4 manual, §2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GcMode {
    /// Incremental mode with pause (%), step multiplier and step size (log2 bytes); 0 keeps
    /// Lua's default for a parameter.
    Incremental {
        /// How long the collector waits before a new cycle (percent of memory after the last).
        pause: i32,
        /// Speed of the collector relative to allocation (percent).
        step_multiplier: i32,
        /// log2 of the bytes allocated between steps.
        step_size: i32,
    },
    /// Generational mode with minor and major multipliers (percent); 0 keeps the default.
    Generational {
        /// Memory growth (percent) that triggers a minor collection.
        minor_multiplier: i32,
        /// Memory growth (percent) that triggers a major collection.
        major_multiplier: i32,
    },
    /// The collector never runs by itself; the host collects with
    /// [`Vm::gc_collect`](crate::Vm::gc_collect) / [`Vm::gc_step`](crate::Vm::gc_step)
    /// (an exhausted arena still triggers an emergency collection).
    Manual,
}

/// Apply a GC mode (may run a collection: protected callers only).
pub(super) unsafe fn set_gc(l: *mut lua::lua_State, gc: GcMode) {
    // SAFETY: lua_gc with these options takes the listed int arguments; inside a pcall.
    unsafe {
        match gc {
            GcMode::Incremental {
                pause,
                step_multiplier,
                step_size,
            } => {
                lua::lua_gc(l, lua::LUA_GCRESTART);
                lua::lua_gc(l, lua::LUA_GCINC, pause, step_multiplier, step_size);
            }
            GcMode::Generational {
                minor_multiplier,
                major_multiplier,
            } => {
                lua::lua_gc(l, lua::LUA_GCRESTART);
                lua::lua_gc(l, lua::LUA_GCGEN, minor_multiplier, major_multiplier);
            }
            GcMode::Manual => {
                lua::lua_gc(l, lua::LUA_GCINC, 0, 0, 0);
                lua::lua_gc(l, lua::LUA_GCSTOP);
            }
        }
    }
}

/// Inputs of [`p_gc`].
struct GcArgs {
    what: c_int,
    arg: c_int,
    mode: Option<GcMode>,
}

/// `what` of [`GcArgs`] for the end-of-frame collection ([`RawVm::gc`]).
pub(crate) const GC_FRAME: c_int = -1;

/// Run a `lua_gc` operation; returns its result.
unsafe extern "C-unwind" fn p_gc(l: *mut lua::lua_State) -> c_int {
    // SAFETY: under lua_pcall with a pointer to `GcArgs`; finalizers run protected by Lua.
    unsafe {
        let a = &*control(l).arg.get().cast::<GcArgs>();
        let r = match a.mode {
            Some(mode) => {
                set_gc(l, mode);
                0
            }
            None if a.what == lua::LUA_GCSTEP => lua::lua_gc(l, a.what, a.arg),
            None if a.what == GC_FRAME => {
                // A step with more debt than any credit the collector can hold (a minor
                // multiplier is at most 255 %, a pause at most 1023 % of the heap), so it
                // always runs: one young (or major) collection in generational mode, the
                // rest of the cycle in incremental mode.
                let kib = lua::lua_gc(l, lua::LUA_GCCOUNT);
                lua::lua_gc(
                    l,
                    lua::LUA_GCSTEP,
                    kib.saturating_mul(11).saturating_add(64),
                )
            }
            None => lua::lua_gc(l, a.what),
        };
        lua::lua_pushinteger(l, lua::lua_Integer::from(r));
        1
    }
}

impl RawVm {
    /// A `lua_gc` operation (LUA_GCCOLLECT, LUA_GCSTEP with `arg` KiB, LUA_GCCOUNT...), or a
    /// mode change.
    pub(crate) fn gc(
        &mut self,
        what: c_int,
        arg: c_int,
        mode: Option<GcMode>,
    ) -> Result<i64, Error> {
        let a = GcArgs { what, arg, mode };
        self.arm();
        self.protected_armed(p_gc, ptr::from_ref(&a).cast_mut().cast(), 1)?;
        let r = self.code_at(1);
        self.clear();
        Ok(r)
    }
}
