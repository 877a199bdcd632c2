//! The FFI side of portable images (`crate::portable`): the addresses of this crate's own C
//! functions, a VM's parts an image refers to, and restoring an imported image's bytes.
//!
//! Invariant: [`RawVm::restore_image_bytes`] takes only bytes produced by
//! `portable::import` from an image whose MAC verified under the host's key, for this very
//! VM (same address, capacity and main thread).
#![expect(
    unsafe_code,
    reason = "names C functions and restores imported arena bytes"
)]

use std::ffi::c_void;

use mlua::ffi as lua;

use super::budget::budget_hook;
use super::calls::msg_handler;
use super::host_call::{host_trampoline, yield_frame};
use super::sandbox::{guarded_handler, xpcall_cont};
use super::state::RawVm;
use crate::arena::lua_alloc;
use crate::error::Error;
use crate::portable::{ImageError, VmParts};

/// This crate's C functions that a VM's heap can point to, with their stable names.
pub(crate) fn known_code() -> Vec<(&'static str, usize)> {
    let alloc: lua::lua_Alloc = lua_alloc;
    let hook: lua::lua_Hook = budget_hook;
    let cont: lua::lua_KFunction = xpcall_cont;
    let f: [(&'static str, lua::lua_CFunction); 4] = [
        ("rb:host_trampoline", host_trampoline),
        ("rb:yield_frame", yield_frame),
        ("rb:guarded_handler", guarded_handler),
        ("rb:msg_handler", msg_handler),
    ];
    let mut out = vec![
        ("rb:alloc", alloc as usize),
        ("rb:budget_hook", hook as usize),
        ("rb:xpcall_cont", cont as usize),
    ];
    out.extend(f.iter().map(|(n, f)| (*n, *f as usize)));
    out
}

impl RawVm {
    /// What an image of this VM refers to.
    pub(crate) fn image_parts(&self) -> VmParts {
        VmParts {
            base: self.arena.base() as u64,
            capacity: self.arena.stats().capacity as u64,
            main: self.l as u64,
            control: self.ctl.as_ptr() as u64,
            alloc_ud: self.arena.lua_ud() as u64,
            raw: self.raw_functions.clone(),
        }
    }

    /// Put the arena to `bytes`, imported from a portable image for this VM.
    pub(crate) fn restore_image_bytes(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let cap = self.arena.stats().capacity;
        if bytes.len() < crate::arena::layout::HEADER_SIZE + crate::arena::layout::BLOCK_HEADER
            || bytes.len() > cap
        {
            return Err(ImageError::Corrupt("arena length").into());
        }
        // SAFETY: `&mut self`: no Lua call is running. The bytes come from a sealed image of
        // a VM at this address, with this capacity and main thread, made by this crate (the
        // MAC verified under the host's key), with every pointer out of the arena replaced by
        // this process's own (module docs): they are a state this arena could have had. The
        // only arena pointer kept host-side is the main thread, at the same address in both.
        unsafe { self.arena.restore(bytes) };
        self.tracked_seq = None;
        Ok(())
    }

    /// The main thread's address.
    pub(crate) fn main_thread(&self) -> *mut c_void {
        self.l.cast()
    }
}
