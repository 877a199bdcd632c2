//! The TLSF allocator: blocks of any size, found in O(1), split and coalesced in place.
//!
//! Two-level segregated fit: sizes below 128 bytes have exact 8-byte classes, larger sizes
//! 16 classes per power of two. A request takes the head of the first non-empty class that is
//! guaranteed to fit, splitting off the remainder; when no class fits it takes the head of its
//! own class if that block is large enough, then grows the free block that ends at `top`, then
//! bumps `top`. Frees coalesce with both neighbours immediately. Free lists are LIFO.
//!
//! Invariants: no two free blocks are ever adjacent; a block's `PREV_FREE` flag and boundary
//! tag say whether its predecessor is free and how big it is; every free block is on the list
//! of its class, and the bitmaps say which lists are non-empty; a freed block is zero past its
//! free-list links (together with the headers a coalesced block swallows). Every decision
//! depends only on the arena bytes and the request, so the same requests from the same arena
//! bytes give the same offsets.
//!
//! Every function takes the arena base; offsets are byte offsets from it. Callers guarantee
//! that offsets name blocks inside `[HEADER_SIZE, top]` of a valid heap.
#![expect(unsafe_code, reason = "the allocator works on raw arena memory")]

use std::ptr;

use super::ctl::AllocCtl;
use super::layout::{
    ALIGN, BLOCK_HEADER, FL_COUNT, FREE, LINEAR_LIMIT, MAX_CAPACITY, MIN_BLOCK, PREV_FREE,
    SIZE_MASK, SL_COUNT, SL_LOG2, hdr, rd, size_of_block, wr, wr64,
};

/// Class of a free block of `size` bytes (for insertion).
pub(super) fn mapping_insert(size: usize) -> (usize, usize) {
    if size < LINEAR_LIMIT {
        (0, size / ALIGN)
    } else {
        let log = size.ilog2();
        let fl = (log - (SL_LOG2 + 3) + 1) as usize;
        let sl = (size >> (log - SL_LOG2)) & (SL_COUNT - 1);
        (fl, sl)
    }
}

/// Smallest class whose every block is at least `size` bytes (for searching).
pub(super) fn mapping_search(size: usize) -> (usize, usize) {
    if size < LINEAR_LIMIT {
        (0, size / ALIGN)
    } else {
        let round = (1usize << (size.ilog2() - SL_LOG2)) - 1;
        mapping_insert(size + round)
    }
}

/// Block size serving a request of `n` bytes, or `None` if it can never fit.
pub(super) fn block_size(n: usize) -> Option<usize> {
    let s = n.checked_add(BLOCK_HEADER + ALIGN - 1)? & !(ALIGN - 1);
    let s = s.max(MIN_BLOCK);
    (s <= MAX_CAPACITY).then_some(s)
}

/// Put the free block `b` of `size` bytes at the head of its class's list.
unsafe fn insert_free(base: *mut u8, b: usize, size: usize) {
    let (fl, sl) = mapping_insert(size);
    let h = hdr(base);
    // SAFETY: `b` is a free block of `size` bytes inside the heap; the list heads hold offsets
    // of free blocks of the same class.
    unsafe {
        let idx = fl * SL_COUNT + sl;
        let next = (*h).heads[idx];
        wr(base, b + 8, next);
        wr(base, b + 12, 0);
        if next != 0 {
            wr(base, next as usize + 12, b as u32);
        }
        (*h).heads[idx] = b as u32;
        (*h).fl_bitmap |= 1 << fl;
        (*h).sl_bitmap[fl] |= 1 << sl;
    }
}

/// Take the free block `b` of `size` bytes off its class's list.
unsafe fn remove_free(base: *mut u8, b: usize, size: usize) {
    let (fl, sl) = mapping_insert(size);
    let h = hdr(base);
    // SAFETY: `b` is a free block of `size` bytes on the list of its class.
    unsafe {
        let next = rd(base, b + 8);
        let prev = rd(base, b + 12);
        if prev != 0 {
            wr(base, prev as usize + 8, next);
        } else {
            let idx = fl * SL_COUNT + sl;
            (*h).heads[idx] = next;
            if next == 0 {
                (*h).sl_bitmap[fl] &= !(1 << sl);
                if (*h).sl_bitmap[fl] == 0 {
                    (*h).fl_bitmap &= !(1 << fl);
                }
            }
        }
        if next != 0 {
            wr(base, next as usize + 12, prev);
        }
    }
}

/// Head of the first non-empty class at or above `(fl, sl)`.
unsafe fn find_class(base: *mut u8, fl: usize, sl: usize) -> Option<usize> {
    if fl >= FL_COUNT {
        return None;
    }
    let h = hdr(base);
    // SAFETY: reads of the header, inside the mapping.
    unsafe {
        let mut fl = fl;
        let mut sl_map = (*h).sl_bitmap[fl] & (!0u32 << sl);
        if sl_map == 0 {
            let fl_map = (*h).fl_bitmap & (!0u32 << (fl + 1));
            if fl_map == 0 {
                return None;
            }
            fl = fl_map.trailing_zeros() as usize;
            sl_map = (*h).sl_bitmap[fl];
        }
        let sl = sl_map.trailing_zeros() as usize;
        Some((*h).heads[fl * SL_COUNT + sl] as usize)
    }
}

/// Mark the free block `b` (already off its list) of `size` bytes as allocated for a block of
/// `want` bytes, returning the tail to the free lists when it is big enough.
unsafe fn take_block(base: *mut u8, b: usize, size: usize, want: usize) {
    // SAFETY: `b` is a block of `size` bytes followed by a valid block header at `b + size`;
    // a free block's predecessor is never free (coalescing invariant).
    unsafe {
        if size - want >= MIN_BLOCK {
            let rest = b + want;
            let rsize = size - want;
            wr(base, b, want as u32);
            wr(base, rest, rsize as u32 | FREE);
            insert_free(base, rest, rsize);
            // The next block already has PREV_FREE set (b was free); update the boundary tag.
            wr(base, rest + rsize + 4, rsize as u32);
        } else {
            wr(base, b, size as u32);
            let next = b + size;
            wr(base, next, rd(base, next) & !PREV_FREE);
        }
        let h = hdr(base);
        (*h).used += size_of_block(base, b) as u64;
        (*h).allocations += 1;
    }
}

/// Allocate `n` bytes from TLSF; null on exhaustion.
pub(super) unsafe fn tlsf_malloc(ctl: &AllocCtl, n: usize) -> *mut u8 {
    let base = ctl.base;
    let Some(want) = block_size(n) else {
        return ptr::null_mut();
    };
    // SAFETY: the arena is a valid heap (allocator invariant); every offset used below comes
    // from the header or from block headers inside `[HEADER_SIZE, top]`.
    unsafe {
        let h = hdr(base);
        let (fl, sl) = mapping_search(want);
        let mut found = find_class(base, fl, sl);
        if found.is_none() {
            // No class guarantees a fit: try the head of the request's own class.
            let (fl, sl) = mapping_insert(want);
            let head = (*h).heads[fl * SL_COUNT + sl] as usize;
            if head != 0 && size_of_block(base, head) >= want {
                found = Some(head);
            }
        }
        if let Some(b) = found {
            let size = size_of_block(base, b);
            remove_free(base, b, size);
            take_block(base, b, size, want);
            return base.add(b + BLOCK_HEADER);
        }
        // Grow at the top: extend the free block that ends there, or bump.
        let top = (*h).top as usize;
        let sentinel = rd(base, top);
        let start = if sentinel & PREV_FREE != 0 {
            let psize = rd(base, top + 4) as usize;
            let b = top - psize;
            if psize >= want {
                remove_free(base, b, psize);
                take_block(base, b, psize, want);
                return base.add(b + BLOCK_HEADER);
            }
            b
        } else {
            top
        };
        let new_top = start + want;
        if new_top + BLOCK_HEADER > ctl.capacity {
            return ptr::null_mut();
        }
        if start != top {
            remove_free(base, start, top - start);
            // The old sentinel ends up inside the payload: keep free memory zero (a slab
            // carved from this block needs zero slots).
            wr64(base, top, 0);
        }
        // The new sentinel lies in zero memory (above the old high-water mark) except when it
        // lands on the old sentinel's bytes: write it explicitly.
        wr(base, new_top, 0);
        wr(base, new_top + 4, 0);
        wr(base, start, want as u32);
        (*h).top = new_top as u64;
        (*h).used += want as u64;
        (*h).allocations += 1;
        base.add(start + BLOCK_HEADER)
    }
}

/// Put block `b` (allocated) back, coalescing with free neighbours.
pub(super) unsafe fn free_block(base: *mut u8, b: usize) {
    // SAFETY: `b` is an allocated block inside the heap, no longer used; its neighbours'
    // headers are valid; the bytes zeroed lie inside `b` or at the head of a free neighbour
    // that is merged into it.
    unsafe {
        let h = hdr(base);
        let word = rd(base, b);
        let mut b = b;
        let mut size = (word & SIZE_MASK) as usize;
        (*h).used -= size as u64;
        (*h).frees += 1;
        // Zero the payload, and below the headers that end up inside the merged block, so
        // that free memory is zero past the free-list links.
        ptr::write_bytes(base.add(b + BLOCK_HEADER), 0, size - BLOCK_HEADER);
        let next = b + size;
        let nword = rd(base, next);
        if nword & FREE != 0 {
            let nsize = (nword & SIZE_MASK) as usize;
            remove_free(base, next, nsize);
            ptr::write_bytes(base.add(next), 0, MIN_BLOCK);
            size += nsize;
        }
        if word & PREV_FREE != 0 {
            let psize = rd(base, b + 4) as usize;
            ptr::write_bytes(base.add(b), 0, BLOCK_HEADER);
            b -= psize;
            remove_free(base, b, psize);
            size += psize;
        }
        wr(base, b, size as u32 | FREE);
        let next = b + size;
        wr(base, next, rd(base, next) | PREV_FREE);
        wr(base, next + 4, size as u32);
        insert_free(base, b, size);
    }
}

/// Shrink block `b` of `size` bytes to `want <= size` bytes in place, handing the tail back
/// when it is big enough. Never fails (Lua relies on it).
pub(super) unsafe fn shrink_in_place(base: *mut u8, b: usize, size: usize, want: usize) {
    // SAFETY: `b` is an allocated block of `size` bytes inside the heap; the tail split off
    // lies inside it and is freed like any block.
    unsafe {
        if size - want >= MIN_BLOCK {
            let pf = rd(base, b) & PREV_FREE;
            wr(base, b, want as u32 | pf);
            let rest = b + want;
            wr(base, rest, (size - want) as u32);
            // `free_block` takes the tail off `used` and counts a free: uncount it.
            free_block(base, rest);
            (*hdr(base)).frees -= 1;
        }
    }
}

/// Grow block `b` of `size` bytes to `want > size` bytes without moving it: past the
/// high-water mark when it is the last block, or into the free block that follows it. False
/// (nothing changed) when neither has room.
pub(super) unsafe fn grow_in_place(ctl: &AllocCtl, b: usize, size: usize, want: usize) -> bool {
    let base = ctl.base;
    // SAFETY: `b` is an allocated block of `size` bytes inside the heap, followed by a valid
    // block header (a block or the sentinel); the new sentinel is checked to lie inside the
    // mapping before it is written.
    unsafe {
        let h = hdr(base);
        let pf = rd(base, b) & PREV_FREE;
        let next = b + size;
        let top = (*h).top as usize;
        if next == top {
            // Last block: grow the high-water mark in place.
            let new_top = b + want;
            if new_top + BLOCK_HEADER <= ctl.capacity {
                wr(base, new_top, 0);
                wr(base, new_top + 4, 0);
                wr(base, b, want as u32 | pf);
                (*h).top = new_top as u64;
                (*h).used += (want - size) as u64;
                return true;
            }
        } else {
            let nword = rd(base, next);
            let nsize = (nword & SIZE_MASK) as usize;
            if nword & FREE != 0 && size + nsize >= want {
                remove_free(base, next, nsize);
                let total = size + nsize;
                if total - want >= MIN_BLOCK {
                    wr(base, b, want as u32 | pf);
                    let rest = b + want;
                    let rsize = total - want;
                    wr(base, rest, rsize as u32 | FREE);
                    insert_free(base, rest, rsize);
                    wr(base, rest + rsize + 4, rsize as u32);
                    (*h).used += (want - size) as u64;
                } else {
                    wr(base, b, total as u32 | pf);
                    let after = b + total;
                    wr(base, after, rd(base, after) & !PREV_FREE);
                    (*h).used += (total - size) as u64;
                }
                return true;
            }
        }
        false
    }
}
