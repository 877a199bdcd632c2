//! Lua's allocator over one arena: the `lua_Alloc` function ([`lua_alloc`]) routes each
//! request to a slab (up to 256 bytes) or to TLSF, resizes in place when it can, and fails
//! requests on purpose when a test asks it to (`AllocFailure`).
//!
//! Invariants: the allocator never unwinds and never touches memory outside its arena; a
//! failed request returns null and leaves the block it was asked to resize as it was (it may
//! have handed empty slabs back to TLSF meanwhile); shrinking never fails (Lua relies on it);
//! failure injection counts only requests for more memory.
#![expect(unsafe_code, reason = "Lua's allocator hands out raw arena memory")]

use std::ffi::c_void;
use std::ptr;

use super::ctl::AllocCtl;
use super::layout::{ALIGN, BLOCK_HEADER, SIZE_MASK, SLAB, SMALL_MAX, rd};
use super::slab::{reclaim_empty_slabs, slab_free, slab_malloc};
use super::tlsf::{self, block_size, free_block, tlsf_malloc};

/// Allocate `n` bytes (slab or TLSF), without failure injection.
unsafe fn alloc_any(ctl: &AllocCtl, n: usize) -> *mut u8 {
    // SAFETY: forwarded allocator invariants.
    unsafe {
        if n <= SMALL_MAX {
            slab_malloc(ctl, n)
        } else {
            let p = tlsf_malloc(ctl, n);
            if p.is_null() && reclaim_empty_slabs(ctl.base) {
                tlsf_malloc(ctl, n)
            } else {
                p
            }
        }
    }
}

/// Allocate `n` bytes; null on exhaustion (or injected failure).
unsafe fn malloc(ctl: &AllocCtl, n: usize) -> *mut u8 {
    if ctl.inject_failure() {
        return ptr::null_mut();
    }
    // SAFETY: forwarded allocator invariants.
    unsafe { alloc_any(ctl, n) }
}

/// Free the live allocation whose header is at `b` (slot or TLSF block).
unsafe fn free_any(base: *mut u8, b: usize) {
    // SAFETY: `b` is the header of a live allocation.
    unsafe {
        if rd(base, b) & SLAB != 0 {
            slab_free(base, b);
        } else {
            free_block(base, b);
        }
    }
}

/// Resize the allocation at `p` (of `osize` requested bytes) to `nsize > 0` bytes: in place
/// when it can (a shrink always can), else by moving it.
unsafe fn realloc(ctl: &AllocCtl, p: *mut u8, osize: usize, nsize: usize) -> *mut u8 {
    let base = ctl.base;
    // SAFETY: `p` was returned by this allocator and is live (Lua's contract); offsets below
    // are derived from its block header and its neighbours'.
    unsafe {
        let b = p.offset_from(base) as usize - BLOCK_HEADER;
        let word = rd(base, b);
        let size = (word & SIZE_MASK) as usize;
        if word & SLAB != 0 {
            return realloc_slot(ctl, p, b, size, osize, nsize);
        }
        let want = match block_size(nsize) {
            Some(w) => w,
            None => return ptr::null_mut(),
        };
        if want <= size {
            // Shrink in place; never fails (Lua relies on it).
            tlsf::shrink_in_place(base, b, size, want);
            return p;
        }
        if ctl.inject_failure() {
            return ptr::null_mut();
        }
        if tlsf::grow_in_place(ctl, b, size, want) {
            return p;
        }
        // Move. The failure check above already counted this request.
        let q = alloc_any(ctl, nsize);
        if q.is_null() {
            return ptr::null_mut();
        }
        ptr::copy_nonoverlapping(p, q, osize.min(nsize).min(size - BLOCK_HEADER));
        free_block(base, b);
        q
    }
}

/// [`realloc`] of the slot `p`, whose header at `b` gives its `size`: it stays when `nsize`
/// is of its class, else moves (to a slot or a TLSF block); a shrink never fails.
unsafe fn realloc_slot(
    ctl: &AllocCtl,
    p: *mut u8,
    b: usize,
    size: usize,
    osize: usize,
    nsize: usize,
) -> *mut u8 {
    // SAFETY: `p` is a live slot whose header is at `b` (checked by the caller); the copy
    // stays inside both allocations, which are distinct.
    unsafe {
        let capacity = size - BLOCK_HEADER;
        let same_class = nsize <= capacity && nsize + ALIGN > capacity;
        if same_class {
            return p;
        }
        if nsize > capacity && ctl.inject_failure() {
            return ptr::null_mut();
        }
        let q = alloc_any(ctl, nsize);
        if q.is_null() {
            // A shrink never fails: the slot is big enough.
            return if nsize <= capacity {
                p
            } else {
                ptr::null_mut()
            };
        }
        ptr::copy_nonoverlapping(p, q, osize.min(nsize).min(capacity));
        slab_free(ctl.base, b);
        q
    }
}

/// The `lua_Alloc` of every VM: `ud` is the [`AllocCtl`] of its arena. Never unwinds, never
/// touches memory outside the arena.
pub(crate) unsafe extern "C" fn lua_alloc(
    ud: *mut c_void,
    p: *mut c_void,
    osize: usize,
    nsize: usize,
) -> *mut c_void {
    // SAFETY: `ud` is the `AllocCtl` passed to `lua_newstate`, alive as long as the state; `p`
    // is null or a live block of this arena (Lua's allocator contract).
    unsafe {
        let ctl = &*ud.cast::<AllocCtl>();
        let p = p.cast::<u8>();
        if nsize == 0 {
            if !p.is_null() {
                free_any(ctl.base, p.offset_from(ctl.base) as usize - BLOCK_HEADER);
            }
            return ptr::null_mut();
        }
        if p.is_null() {
            malloc(ctl, nsize).cast()
        } else {
            realloc(ctl, p, osize, nsize).cast()
        }
    }
}
