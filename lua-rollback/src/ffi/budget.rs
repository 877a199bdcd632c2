//! The instruction budget: a count hook that charges each host call's budget and, once it is
//! spent, raises on every instruction until the call ends.
//!
//! Invariants: the budget is reset, and the hook armed on the main thread, when a call that
//! runs script code starts ([`RawVm::arm`]: exec, call, resume, collections); each coroutine is
//! armed as it is resumed. Once the budget is spent every instruction raises, so a script that
//! catches the error cannot go on, and the call fails with [`Error::Budget`] even if it returns
//! ([`RawVm::budget_check`]). The hook raises inside the protected call it interrupts.
#![expect(unsafe_code, reason = "the hook is a C callback on Lua's state")]

use std::ffi::c_int;

use mlua::ffi as lua;

use super::state::{Control, RawVm, control};
use crate::error::Error;

/// Instructions between two calls of the budget hook.
const HOOK_CHUNK: u64 = 1000;

/// The instruction-count hook: charges the budget, and once it is spent raises an error on
/// every instruction until the host call ends.
pub(super) unsafe extern "C-unwind" fn budget_hook(
    l: *mut lua::lua_State,
    _ar: *mut lua::lua_Debug,
) {
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
pub(super) unsafe fn arm_thread(l: *mut lua::lua_State, ctl: &Control) {
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

impl RawVm {
    /// Reset the per-call budget and arm the main thread.
    pub(super) fn arm(&mut self) {
        let ctl = self.ctl();
        ctl.left.set(ctl.budget.unwrap_or(u64::MAX));
        ctl.exhausted.set(false);
        // SAFETY: `l` is the live main thread; lua_sethook does not allocate.
        unsafe { arm_thread(self.l, ctl) };
    }

    /// A call that returned normally after the budget ran out (the script caught the error
    /// in a coroutine that died) still fails: its work was cut short.
    pub(super) fn budget_check(&mut self) -> Result<(), Error> {
        let ctl = self.ctl();
        if ctl.exhausted.get() {
            let e = Error::Budget(ctl.budget.unwrap_or(0));
            self.clear();
            return Err(e);
        }
        Ok(())
    }
}
