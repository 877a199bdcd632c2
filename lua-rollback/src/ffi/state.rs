//! The VM's state as the FFI layer's parts share it: [`RawVm`] (the `lua_State` and its arena),
//! its [`Control`] block (host-side, reached by Lua callbacks through the main thread's extra
//! space), [`control`] to reach it from a Lua thread, and [`AbortOnUnwind`]. The state's life
//! (creation, drop) is `mod.rs`'s.
#![expect(unsafe_code, reason = "reaches the control block through a lua_State")]

use std::cell::{Cell, UnsafeCell};
use std::ffi::c_void;
use std::ptr::NonNull;

use mlua::ffi as lua;

use crate::arena::Arena;
use crate::host::Host;
use crate::value::Value;

/// Host-side state of one VM that Lua callbacks reach through the main thread's extra space.
/// Not rolled back: it holds per-call budget state, the print sink, the host pointers and the
/// buffers of the host-function trampoline.
pub(crate) struct Control {
    pub(super) host: *mut c_void,
    /// The host object of the running `*_with` call, lifetime erased; `None` outside one.
    pub(super) active: Cell<Option<NonNull<dyn Host>>>,
    /// Arguments of the running host function (reused; empty between calls).
    pub(super) args: Cell<Vec<Value>>,
    /// Results of the last host function, pushed from here by index.
    pub(super) results: UnsafeCell<Vec<Value>>,
    /// Error message of the last failing host function.
    pub(super) message: UnsafeCell<Vec<u8>>,
    pub(super) budget: Option<u64>,
    pub(super) left: Cell<u64>,
    pub(super) exhausted: Cell<bool>,
    pub(super) output: Cell<Vec<u8>>,
    pub(super) output_limit: usize,
    /// The argument block of the running protected call (see [`RawVm::protected`]). Kept here
    /// rather than as a light userdata on the Lua stack: a stack slot keeps its bytes after the
    /// call, and a Rust stack address there would make the arena differ between two runs that
    /// do the same thing from different call depths.
    pub(super) arg: Cell<*mut c_void>,
}

/// Panics must not unwind through Lua's C frames: abort instead (host-function bug).
pub(super) struct AbortOnUnwind;

impl Drop for AbortOnUnwind {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("lua-rollback: a host function panicked inside a Lua call; aborting");
            std::process::abort();
        }
    }
}

/// A Lua state in its own arena.
pub(crate) struct RawVm {
    pub(super) l: *mut lua::lua_State,
    pub(super) ctl: NonNull<Control>,
    pub(super) next_seq: u64,
    /// With page-write tracking: the snapshot whose bytes the arena had at the last scan.
    pub(super) tracked_seq: Option<u64>,
    /// Scratch list of written pages.
    pub(super) written: Vec<std::ops::Range<usize>>,
    /// Scratch list of the spans that differ from the previous snapshot.
    pub(super) changed: Vec<std::ops::Range<usize>>,
    /// Raw host functions registered at build time (path, address), named in portable images.
    pub(super) raw_functions: Vec<(String, u64)>,
    pub(super) arena: Arena,
}

// SAFETY: the VM exclusively owns its arena, state and control block; a Lua state is not tied
// to the thread that made it. The host pointer is the host's to keep valid on whatever thread
// it calls the VM from (documented on `host_context`).
unsafe impl Send for RawVm {}

/// The control block of a VM's state.
///
/// # Safety
/// `l` must be a thread of a state created by [`RawVm::new`] whose `RawVm` is alive.
pub(super) unsafe fn control<'a>(l: *mut lua::lua_State) -> &'a Control {
    // SAFETY: the extra space of every thread holds the control pointer written in `new`;
    // the control block outlives the state.
    unsafe { &**lua::lua_getextraspace(l).cast::<*const Control>() }
}
