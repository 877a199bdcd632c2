//! Slabs: requests up to 256 bytes (most Lua objects) in equal slots cut from TLSF blocks.
//!
//! A slab is a TLSF block (its header flagged `SLAB`) of one size class (8-byte steps), holding
//! a slab header — class, slot count, a 64-bit occupancy bitmap, links of its class's list — and
//! then its slots. Each slot keeps a constant 8-byte header (`SLAB` flag and slot size, distance
//! to its slab), so whether a pointer is a slot or a TLSF block is read from its header, never
//! from Lua's `osize`, and a shrink can always stay in place. Allocation takes the lowest free
//! slot of the lowest-addressed slab with room, so a frame's short-lived objects land in the
//! same slots as the previous frame's.
//!
//! Invariants: each class's list holds exactly its slabs that have a free slot, in address
//! order; a free slot's payload is zero; empty slabs are kept for reuse and handed back to TLSF
//! only when TLSF runs out of memory. Slabs and their slots count in the header's `used`,
//! `allocations` and `frees` slot by slot, never as containers.
#![expect(unsafe_code, reason = "the allocator works on raw arena memory")]

use std::ptr;

use super::ctl::AllocCtl;
use super::layout::{
    ALIGN, BLOCK_HEADER, SIZE_MASK, SLAB, SLAB_HEADER, SLAB_SLOTS, SMALL_CLASSES, hdr, rd, rd64,
    size_of_block, wr, wr64,
};
use super::tlsf::{free_block, tlsf_malloc};

/// Slots per slab of a class with `slot` bytes per slot.
pub(super) fn slab_slots(slot: usize) -> usize {
    (4096 / slot).clamp(8, 64)
}

/// Bitmap of a full slab.
pub(super) fn full_mask(slots: usize) -> u64 {
    if slots >= 64 {
        u64::MAX
    } else {
        (1u64 << slots) - 1
    }
}

/// Insert slab `s` of class `c` into its partial list, keeping address order.
unsafe fn slab_link(base: *mut u8, c: usize, s: usize) {
    let h = hdr(base);
    // SAFETY: `s` is a slab container; the list holds slab containers of class `c`.
    unsafe {
        let mut prev = 0usize;
        let mut next = (*h).slabs[c] as usize;
        while next != 0 && next < s {
            prev = next;
            next = rd(base, next + 24) as usize;
        }
        wr(base, s + 24, next as u32);
        wr(base, s + 28, prev as u32);
        if next != 0 {
            wr(base, next + 28, s as u32);
        }
        if prev != 0 {
            wr(base, prev + 24, s as u32);
        } else {
            (*h).slabs[c] = s as u32;
        }
    }
}

/// Remove slab `s` of class `c` from its partial list.
unsafe fn slab_unlink(base: *mut u8, c: usize, s: usize) {
    let h = hdr(base);
    // SAFETY: `s` is on the partial list of class `c`.
    unsafe {
        let next = rd(base, s + 24);
        let prev = rd(base, s + 28);
        if next != 0 {
            wr(base, next as usize + 28, prev);
        }
        if prev != 0 {
            wr(base, prev as usize + 24, next);
        } else {
            (*h).slabs[c] = next;
        }
        wr(base, s + 24, 0);
        wr(base, s + 28, 0);
    }
}

/// Hand every empty slab back to TLSF (when TLSF is out of memory).
pub(super) unsafe fn reclaim_empty_slabs(base: *mut u8) -> bool {
    let h = hdr(base);
    let mut any = false;
    // SAFETY: walks the partial lists, which hold slab containers; an empty slab's slots are
    // all free, so releasing the container frees no live object.
    unsafe {
        for c in 0..SMALL_CLASSES {
            let mut s = (*h).slabs[c] as usize;
            while s != 0 {
                let next = rd(base, s + 24) as usize;
                if rd64(base, s + 16) == 0 {
                    slab_unlink(base, c, s);
                    wr(base, s, rd(base, s) & !SLAB);
                    // `free_block` takes the container off `used` and counts a free; a slab
                    // was never counted in either.
                    (*h).used += size_of_block(base, s) as u64;
                    free_block(base, s);
                    (*h).frees -= 1;
                    any = true;
                }
                s = next;
            }
        }
    }
    any
}

/// Make a new slab for class `c`; returns its container offset.
unsafe fn new_slab(ctl: &AllocCtl, c: usize) -> Option<usize> {
    let base = ctl.base;
    let slot = (c + 1) * ALIGN + BLOCK_HEADER;
    let slots = slab_slots(slot);
    // SAFETY: the container comes from TLSF and is written only inside its payload and its
    // own header; the header keeps its TLSF size and PREV_FREE bit.
    unsafe {
        let mut p = tlsf_malloc(ctl, SLAB_HEADER + slots * slot);
        if p.is_null() && reclaim_empty_slabs(base) {
            p = tlsf_malloc(ctl, SLAB_HEADER + slots * slot);
        }
        if p.is_null() {
            return None;
        }
        let s = p.offset_from(base) as usize - BLOCK_HEADER;
        let h = hdr(base);
        (*h).used -= size_of_block(base, s) as u64;
        (*h).allocations -= 1;
        wr(base, s, rd(base, s) | SLAB);
        wr(base, s + 8, c as u32);
        wr(base, s + 12, slots as u32);
        wr64(base, s + 16, 0);
        for i in 0..slots {
            let at = SLAB_SLOTS + i * slot;
            wr(base, s + at, slot as u32 | SLAB);
            wr(base, s + at + 4, at as u32);
        }
        slab_link(base, c, s);
        Some(s)
    }
}

/// Allocate `n <= SMALL_MAX` bytes from a slab; null on exhaustion.
pub(super) unsafe fn slab_malloc(ctl: &AllocCtl, n: usize) -> *mut u8 {
    let base = ctl.base;
    let c = n.max(1).div_ceil(ALIGN) - 1;
    let slot = (c + 1) * ALIGN + BLOCK_HEADER;
    // SAFETY: slabs on the partial list of class `c` have a free slot; offsets stay inside
    // the slab container.
    unsafe {
        let h = hdr(base);
        let s = match (*h).slabs[c] as usize {
            0 => match new_slab(ctl, c) {
                Some(s) => s,
                None => return ptr::null_mut(),
            },
            s => s,
        };
        let slots = rd(base, s + 12) as usize;
        let bitmap = rd64(base, s + 16);
        let i = (!bitmap).trailing_zeros() as usize;
        let bitmap = bitmap | 1 << i;
        wr64(base, s + 16, bitmap);
        if bitmap == full_mask(slots) {
            slab_unlink(base, c, s);
        }
        (*h).used += slot as u64;
        (*h).allocations += 1;
        base.add(s + SLAB_SLOTS + i * slot + BLOCK_HEADER)
    }
}

/// Free the slot whose header is at `slot`.
pub(super) unsafe fn slab_free(base: *mut u8, slot: usize) {
    // SAFETY: `slot` is a live slot: its header gives its size and the distance to its slab;
    // its payload (`size - 8` bytes after the header) is inside the slab and no longer used.
    unsafe {
        let size = (rd(base, slot) & SIZE_MASK) as usize;
        let at = rd(base, slot + 4) as usize;
        let s = slot - at;
        let i = (at - SLAB_SLOTS) / size;
        let c = rd(base, s + 8) as usize;
        let slots = rd(base, s + 12) as usize;
        let bitmap = rd64(base, s + 16);
        ptr::write_bytes(base.add(slot + BLOCK_HEADER), 0, size - BLOCK_HEADER);
        wr64(base, s + 16, bitmap & !(1 << i));
        if bitmap == full_mask(slots) {
            slab_link(base, c, s);
        }
        let h = hdr(base);
        (*h).used -= size as u64;
        (*h).frees += 1;
    }
}
