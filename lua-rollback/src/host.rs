//! Safe host functions: the [`Host`] trait a VM call is given, and what a host function
//! returns ([`HostReturn`]).
//!
//! A host function is registered by name and number at build time
//! ([`VmBuilder::host_function`](crate::VmBuilder::host_function)). In Lua it is a C closure
//! (a trampoline in `ffi`) that carries the number. When a script calls it during
//! [`Vm::exec_with`](crate::Vm::exec_with), [`Vm::call_with`](crate::Vm::call_with) or
//! [`Vm::resume_with`](crate::Vm::resume_with), the trampoline converts the Lua arguments to
//! [`Value`]s, calls [`Host::call`] on the host object given to that method, and pushes the
//! results back (or raises the error, or yields). Outside those methods (in `exec`, `call`,
//! `resume`) a host function raises the Lua error "host function called outside a host call".
//!
//! ```
//! use lua_rollback::{Host, HostReturn, Value, Vm, VmConfig};
//!
//! struct Ram([u8; 16]);
//!
//! impl Host for Ram {
//!     fn call(&mut self, id: u32, args: &[Value], ret: &mut Vec<Value>) -> Result<HostReturn, String> {
//!         match (id, args) {
//!             (0, [Value::Integer(a), ..]) => {
//!                 let b = self.0.get(*a as usize).ok_or("address out of range")?;
//!                 ret.push(Value::Integer(i64::from(*b)));
//!                 Ok(HostReturn::Values)
//!             }
//!             _ => Err("bad arguments".into()),
//!         }
//!     }
//! }
//!
//! let mut vm = Vm::builder(VmConfig::default())
//!     .host_function("memory.read_u8", 0)
//!     .build()
//!     .unwrap();
//! let mut ram = Ram([7; 16]);
//! let r = vm.exec_with(&mut ram, "=demo", "return memory.read_u8(3)").unwrap();
//! assert_eq!(r, [Value::Integer(7)]);
//! let e = vm.exec_with(&mut ram, "=demo", "return memory.read_u8(99)").unwrap_err();
//! assert!(e.to_string().starts_with("demo:1: address out of range"));
//! ```
//!
//! # Soundness
//! * The `&mut dyn Host` is stored in the VM's control block (a raw fat pointer with its
//!   lifetime erased) only for the duration of the `*_with` call, and cleared when the call
//!   ends, also on error or unwinding (a drop guard whose lifetime is the borrow's). Outside
//!   `exec_with`, `call_with` and `resume_with` it is always empty, so a host function called
//!   anywhere else (in `exec`, in a metamethod run by a name lookup) finds no host and raises.
//! * Re-entrancy is impossible: [`Host::call`] has no access to the [`Vm`](crate::Vm), whose
//!   methods take `&mut self` and are borrowed for the whole call; the trampoline holds the
//!   only reference to the host object while `call` runs.
//! * No Rust value with a destructor is alive across a Lua API call that can raise (Lua
//!   raises with `longjmp`). The trampoline reads the arguments without calling anything that
//!   can raise (strings only from values that already are strings, numbers without string
//!   conversion, other types as [`Value::Other`] with their type name), calls the host, drops
//!   every Rust value, and only then pushes the results — from a buffer owned by the control
//!   block, by index, so an arena exhaustion while pushing a string is a plain Lua "not enough
//!   memory" error — or raises the host's message, copied into a control-block buffer, with
//!   the caller's position (`luaL_where(L, 1)`).
//! * A panic in [`Host::call`] never unwinds through C: the trampoline catches it and raises
//!   the Lua error "host function panicked" (the VM stays usable; the host object is in
//!   whatever state the panic left it).
//! * The argument and result buffers are reused: a call allocates nothing on the Rust side in
//!   the steady state except for string arguments.

use crate::value::Value;

/// What a host function asks the VM to do after it returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostReturn {
    /// Return the values pushed into `ret` to the Lua caller.
    Values,
    /// Yield the running coroutine with the values pushed into `ret` (they come out of
    /// [`Resume::Yielded`](crate::Resume::Yielded)); the values of the next resume become the
    /// host function's results. Outside a coroutine this is the Lua error "attempt to yield
    /// from outside a coroutine". This is how `emu.frameadvance()` is written.
    Yield,
}

/// The host side of a VM's host functions, given to [`Vm::exec_with`](crate::Vm::exec_with),
/// [`Vm::call_with`](crate::Vm::call_with) and [`Vm::resume_with`](crate::Vm::resume_with)
/// for the duration of one call.
pub trait Host {
    /// Host function `id` (as registered with
    /// [`VmBuilder::host_function`](crate::VmBuilder::host_function)) was called with `args`
    /// (converted to plain values: tables, functions, threads and userdata arrive as
    /// [`Value::Other`] with their type name; numeric strings stay strings).
    ///
    /// Push the results into `ret` (empty on entry; [`Value::Other`] is pushed as `nil`).
    /// `Err(msg)` raises a Lua error with `msg` prefixed by the Lua caller's position
    /// (`chunkname:line: msg`, like `luaL_error`), which scripts can catch with `pcall`.
    /// A panic is caught and becomes the Lua error "host function panicked".
    fn call(&mut self, id: u32, args: &[Value], ret: &mut Vec<Value>)
    -> Result<HostReturn, String>;
}
