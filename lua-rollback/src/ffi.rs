//! The FFI layer: every call into Lua's C API (through `mlua::ffi`, never mlua's `Lua`).
//!
//! [`RawVm`] owns a `lua_State` living in an [`Arena`] and exposes safe methods. Its soundness
//! rests on these rules, kept by every function here:
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
//! * **Safe host functions** ([`Host`]) are C closures of [`host_trampoline`] carrying their
//!   number. The host object is reachable from the control block only during a `*_with` call
//!   ([`ActiveHost`] sets and clears it); the trampoline keeps the rules above: it reads
//!   arguments without raising, calls the host under `catch_unwind`, drops every Rust value,
//!   then pushes results from the control block or raises (see the `host` module's docs).

use std::any::Any;
use std::cell::{Cell, UnsafeCell};
use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr::{self, NonNull};

use mlua::ffi as lua;

use crate::arena::{AllocFailure, Arena, ArenaStats, lua_alloc};
use crate::error::Error;
use crate::host::{Host, HostReturn};
use crate::snapshot::Snapshot;
use crate::value::{Resume, Value};

/// A raw host function: called by Lua with its arguments on the stack, returns how many
/// results it pushed. See [`host_context`] for the host pointer and the crate docs for the
/// rules. Prefer the safe [`Host`] trait
/// ([`VmBuilder::host_function`](crate::VmBuilder::host_function)).
pub type HostFn = lua::lua_CFunction;

/// Instructions between two calls of the budget hook.
const HOOK_CHUNK: u64 = 1000;
/// Registry field holding the table of named coroutines.
const COROUTINES: &CStr = c"lua_rollback.coroutines";

/// Host-side state of one VM that Lua callbacks reach through the main thread's extra space.
/// Not rolled back: it holds per-call budget state, the print sink, the host pointers and the
/// buffers of the host-function trampoline.
pub(crate) struct Control {
    host: *mut c_void,
    /// The host object of the running `*_with` call, lifetime erased; `None` outside one.
    active: Cell<Option<NonNull<dyn Host>>>,
    /// Arguments of the running host function (reused; empty between calls).
    args: Cell<Vec<Value>>,
    /// Results of the last host function, pushed from here by index.
    results: UnsafeCell<Vec<Value>>,
    /// Error message of the last failing host function.
    message: UnsafeCell<Vec<u8>>,
    budget: Option<u64>,
    left: Cell<u64>,
    exhausted: Cell<bool>,
    output: Cell<Vec<u8>>,
    output_limit: usize,
    /// The argument block of the running protected call (see [`RawVm::protected`]). Kept here
    /// rather than as a light userdata on the Lua stack: a stack slot keeps its bytes after the
    /// call, and a Rust stack address there would make the arena differ between two runs that
    /// do the same thing from different call depths.
    arg: Cell<*mut c_void>,
}

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

/// What [`RawVm::new`] needs.
pub(crate) struct RawConfig<'a> {
    pub(crate) capacity: usize,
    pub(crate) fixed_address: Option<usize>,
    pub(crate) budget: Option<u64>,
    pub(crate) gc: GcMode,
    pub(crate) random_seed: i64,
    pub(crate) output_limit: usize,
    pub(crate) host: *mut c_void,
    pub(crate) functions: &'a [HostBinding],
    pub(crate) failure: AllocFailure,
    pub(crate) track_writes: bool,
}

/// Panics must not unwind through Lua's C frames: abort instead (host-function bug).
struct AbortOnUnwind;

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
    l: *mut lua::lua_State,
    ctl: NonNull<Control>,
    next_seq: u64,
    /// With page-write tracking: the snapshot whose bytes the arena had at the last scan.
    tracked_seq: Option<u64>,
    /// Scratch list of written pages.
    written: Vec<std::ops::Range<usize>>,
    arena: Arena,
}

// SAFETY: the VM exclusively owns its arena, state and control block; a Lua state is not tied
// to the thread that made it. The host pointer is the host's to keep valid on whatever thread
// it calls the VM from (documented on `host_context`).
unsafe impl Send for RawVm {}

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
unsafe extern "C-unwind" fn host_trampoline(l: *mut lua::lua_State) -> c_int {
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
pub(crate) struct ActiveHost<'h> {
    ctl: NonNull<Control>,
    _host: PhantomData<&'h mut dyn Host>,
}

impl Drop for ActiveHost<'_> {
    fn drop(&mut self) {
        // SAFETY: the guard lives inside a `RawVm` method, so the control block is alive.
        unsafe { self.ctl.as_ref() }.active.set(None);
    }
}

/// The calling thread's stack as an address range (`pthread_getattr_np`), cached per thread.
fn thread_stack() -> Option<std::ops::Range<u64>> {
    thread_local! {
        static STACK: Option<std::ops::Range<u64>> = {
            let mut attr = std::mem::MaybeUninit::<libc::pthread_attr_t>::uninit();
            // SAFETY: pthread_getattr_np initializes `attr` on success (checked), which is
            // then read and destroyed exactly once; the out-pointers are valid locals.
            unsafe {
                if libc::pthread_getattr_np(libc::pthread_self(), attr.as_mut_ptr()) != 0 {
                    None
                } else {
                    let mut addr: *mut c_void = ptr::null_mut();
                    let mut size: libc::size_t = 0;
                    let ok = libc::pthread_attr_getstack(attr.as_ptr(), &mut addr, &mut size);
                    libc::pthread_attr_destroy(attr.as_mut_ptr());
                    (ok == 0 && size > 0).then(|| addr as u64..addr as u64 + size as u64)
                }
            }
        };
    }
    STACK.with(Clone::clone)
}

/// The control block of a VM's state.
///
/// # Safety
/// `l` must be a thread of a state created by [`RawVm::new`] whose `RawVm` is alive.
unsafe fn control<'a>(l: *mut lua::lua_State) -> &'a Control {
    // SAFETY: the extra space of every thread holds the control pointer written in `new`;
    // the control block outlives the state.
    unsafe { &**lua::lua_getextraspace(l).cast::<*const Control>() }
}

/// The instruction-count hook: charges the budget, and once it is spent raises an error on
/// every instruction until the host call ends.
unsafe extern "C-unwind" fn budget_hook(l: *mut lua::lua_State, _ar: *mut lua::lua_Debug) {
    // SAFETY: called by Lua on a thread of a live VM; lua_gethookcount/lua_sethook do not
    // allocate; luaL_error raises into the running protected call.
    unsafe {
        let ctl = control(l);
        let n = lua::lua_gethookcount(l).max(1) as u64;
        let left = ctl.left.get();
        if left > n && !ctl.exhausted.get() {
            ctl.left.set(left - n);
            if n != HOOK_CHUNK.min(ctl.budget.unwrap_or(HOOK_CHUNK)) {
                arm_thread(l, ctl);
            }
            return;
        }
        ctl.left.set(0);
        ctl.exhausted.set(true);
        // From now on every instruction raises, so a script that catches the error with pcall
        // cannot keep running: each frame it returns to fails at its next instruction.
        lua::lua_sethook(l, Some(budget_hook), lua::LUA_MASKCOUNT, 1);
        lua::luaL_error(l, c"instruction budget exceeded".as_ptr());
    }
}

/// Set (or clear) the budget hook on one thread, resetting its count.
unsafe fn arm_thread(l: *mut lua::lua_State, ctl: &Control) {
    // SAFETY: lua_sethook only stores into the thread; `l` is a live thread.
    unsafe {
        match ctl.budget {
            Some(b) => {
                let chunk = HOOK_CHUNK.min(b.max(1)) as c_int;
                lua::lua_sethook(l, Some(budget_hook), lua::LUA_MASKCOUNT, chunk);
            }
            None => lua::lua_sethook(l, None, 0, 0),
        }
    }
}

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
unsafe extern "C-unwind" fn xpcall_cont(
    l: *mut lua::lua_State,
    _status: c_int,
    _ctx: lua::lua_KContext,
) -> c_int {
    // SAFETY: called by Lua; lua_gettop has no preconditions.
    unsafe { lua::lua_gettop(l) }
}

/// Message handler wrapper: once the budget is spent, return the error untouched instead of
/// running the script's handler (which Lua may call with hooks disabled, from inside the hook).
unsafe extern "C-unwind" fn guarded_handler(l: *mut lua::lua_State) -> c_int {
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

/// Message handler: append a traceback to string errors.
unsafe extern "C-unwind" fn msg_handler(l: *mut lua::lua_State) -> c_int {
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

/// Push a plain value (allocates for strings: protected callers only).
unsafe fn push_value(l: *mut lua::lua_State, v: &Value) {
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
unsafe fn read_value(l: *mut lua::lua_State, idx: c_int) -> Value {
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
unsafe fn read_error(l: *mut lua::lua_State, idx: c_int) -> String {
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

/// Inputs of [`p_init`].
struct InitArgs<'a> {
    functions: &'a [HostBinding],
    seed: i64,
    gc: GcMode,
}

/// Open the safe libraries, sandbox them, install host functions, seed, set the GC mode.
unsafe extern "C-unwind" fn p_init(l: *mut lua::lua_State) -> c_int {
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
        lua::lua_pushglobaltable(l);
        for b in args.functions {
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
        set_gc(l, args.gc);
        0
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
unsafe fn push_name(l: *mut lua::lua_State, name: *const c_char) {
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
unsafe fn push_chunkname(l: *mut lua::lua_State, name: *const c_char) -> *const c_char {
    // SAFETY: as `push_name`; the pushed value is a string, so lua_tolstring only reads it.
    unsafe {
        push_name(l, name);
        lua::lua_tolstring(l, -1, ptr::null_mut())
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

/// Apply a GC mode (may run a collection: protected callers only).
unsafe fn set_gc(l: *mut lua::lua_State, gc: GcMode) {
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

/// Push the value at a global path: `name`, or `a.b.c` through nested tables (with their
/// `__index`); nil when a step is not a table. Needs two free stack slots.
unsafe fn push_path(l: *mut lua::lua_State, path: *const c_char) {
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
    /// Create a state in a fresh arena and set it up.
    pub(crate) fn new(cfg: &RawConfig<'_>) -> Result<RawVm, Error> {
        let arena = Arena::new(cfg.capacity, cfg.fixed_address)?;
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

    /// Make `host` the object host functions call until the guard drops (`None`: host
    /// functions raise "host function called outside a host call").
    fn enter<'h>(&mut self, host: Option<&'h mut dyn Host>) -> ActiveHost<'h> {
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

    /// Reset the per-call budget and arm the main thread.
    fn arm(&mut self) {
        let ctl = self.ctl();
        ctl.left.set(ctl.budget.unwrap_or(u64::MAX));
        ctl.exhausted.set(false);
        // SAFETY: `l` is the live main thread; lua_sethook does not allocate.
        unsafe { arm_thread(self.l, ctl) };
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

    /// Run a protected C function with one light-userdata argument on an empty stack; its
    /// results stay on the stack. `nresults` as in `lua_pcall`.
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

    /// A call that returned normally after the budget ran out (the script caught the error
    /// in a coroutine that died) still fails: its work was cut short.
    fn budget_check(&mut self) -> Result<(), Error> {
        let ctl = self.ctl();
        if ctl.exhausted.get() {
            let e = Error::Budget(ctl.budget.unwrap_or(0));
            self.clear();
            return Err(e);
        }
        Ok(())
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

    /// Take what `print` wrote since the last call.
    pub(crate) fn take_output(&mut self) -> Vec<u8> {
        self.ctl().output.take()
    }

    /// A snapshot of the arena, reusing `snap`'s buffer.
    /// Zero the stale copies of host stack addresses that Lua leaves in the arena.
    ///
    /// Lua writes only the type tag of `nil`, `false` and `true` values (`setnilvalue`,
    /// `setbfvalue`, `setbtvalue`), so a stack slot or table field holding one keeps the
    /// payload bytes of whatever was there before, and copying the value copies them too. Some
    /// of those bytes are addresses on the host's C stack: `luaL_Buffer` (used by
    /// `string.format`, `table.concat`, `string.rep`…) pushes the address of the buffer
    /// structure, which lives on the C stack, as a placeholder. Such an address depends on how
    /// deep in the host's call stack the VM was called, so two runs that do the same thing
    /// would leave different arena bytes: a replay after a restore would not be byte-identical
    /// to the first run. Before every snapshot, words whose value lies inside the calling
    /// thread's stack are zeroed: no live Lua value ever points there while no Lua call is
    /// running (light userdata pointing to the C stack exist only during the C call that made
    /// them), so only meaningless payload bytes are touched.
    fn scrub_host_addresses(&mut self) {
        if let Some(stack) = thread_stack() {
            // SAFETY: `&mut self`: no Lua call is running; see the function's docs for why
            // no word in the stack range is meaningful.
            unsafe { self.arena.scrub(stack) };
        }
    }

    pub(crate) fn snapshot_into(&mut self, snap: &mut Snapshot) {
        self.scrub_host_addresses();
        snap.arena_id = self.arena.id();
        snap.seq = self.next_seq;
        self.next_seq += 1;
        snap.bytes.clear();
        snap.bytes.extend_from_slice(self.arena.bytes());
    }

    /// Encode the diff from `snap` (a snapshot of this VM) to the live arena into `out`, and
    /// advance `snap` to the live state.
    pub(crate) fn snapshot_diff(
        &mut self,
        snap: &mut Snapshot,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        if snap.arena_id != self.arena.id() {
            return Err(Error::ForeignSnapshot);
        }
        if let Some(stack) = thread_stack() {
            // SAFETY: as in `scrub_host_addresses`; `snap` is this arena's snapshot from the
            // previous capture, scrubbed then, so only the blocks that changed can hold stale
            // host addresses.
            unsafe { self.arena.scrub_changed(&snap.bytes, stack) };
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        // With tracking, the pages written since the last scan are the only ones that can
        // differ from the snapshot the arena matched then; scanning also starts the next
        // frame's tracking, with the new snapshot as its base.
        let len = self.arena.high_water().max(snap.bytes.len());
        let scanned = self.arena.tracking() && self.arena.take_written(len, &mut self.written);
        if scanned && self.tracked_seq == Some(snap.seq) {
            snap.advance_dirty(self.arena.bytes(), seq, &self.written, out);
        } else {
            snap.advance_to(self.arena.bytes(), seq, out);
        }
        self.tracked_seq = scanned.then_some(seq);
        Ok(())
    }

    /// Whether page-write tracking is on.
    pub(crate) fn tracking_writes(&self) -> bool {
        self.arena.tracking()
    }

    /// Put the arena back to a snapshot of it.
    pub(crate) fn restore(&mut self, snap: &Snapshot) -> Result<(), Error> {
        if snap.arena_id != self.arena.id() {
            return Err(Error::ForeignSnapshot);
        }
        // SAFETY: a `Snapshot` with this arena's id holds bytes this arena really had: they are
        // made only by `snapshot_into`/`snapshot_diff` from this arena, or by decoding sealed
        // encodings of such snapshots (checked with a per-process key), and its fields are
        // private to the crate. `&mut self` means no Lua call is running. The only arena
        // pointer kept host-side is the main thread, alive in every snapshot (it is created
        // first and never freed).
        unsafe { self.arena.restore(&snap.bytes) };
        Ok(())
    }

    /// Arena statistics.
    pub(crate) fn stats(&self) -> ArenaStats {
        self.arena.stats()
    }

    /// Failure injection.
    pub(crate) fn set_failure(&mut self, failure: AllocFailure) {
        self.arena.set_failure(failure);
    }

    /// Allocation requests failed by injection since the last `set_failure`.
    pub(crate) fn injected_failures(&self) -> u64 {
        self.arena.injected_failures()
    }

    /// Check the allocator's invariants.
    pub(crate) fn check(&self) -> Result<(), String> {
        self.arena.check()
    }

    /// Base address of the arena.
    pub(crate) fn base_address(&self) -> usize {
        self.arena.base() as usize
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
