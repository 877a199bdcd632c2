//! The heap checker (tests and debugging): walks every block, free list and slab list of an
//! arena and verifies the allocator's invariants, including that free memory is zero.
//!
//! It only reads, and only what it has checked to lie below the header's `top`: a block or a
//! list link is followed once it is aligned and its header fits below `top`. Damage is
//! therefore reported as an error naming where it was found, never followed out of the heap.
#![expect(unsafe_code, reason = "reads raw arena memory")]

use super::layout::{
    ALIGN, BLOCK_HEADER, FL_COUNT, FREE, HEADER_SIZE, MAGIC, MIN_BLOCK, PREV_FREE, SIZE_MASK,
    SL_COUNT, SLAB, SLAB_SLOTS, SMALL_CLASSES, hdr, rd, rd64,
};
use super::slab::{full_mask, slab_slots};
use super::tlsf::mapping_insert;

/// Check every allocator invariant by walking the heap.
///
/// # Safety
/// `base` is the base of a mapping of `capacity` bytes whose first bytes hold an arena header.
pub(super) unsafe fn check_heap(base: *mut u8, capacity: usize) -> Result<(), String> {
    // SAFETY: every read is at an offset checked to be below `top + 8 <= capacity`.
    unsafe {
        let h = hdr(base);
        if (*h).magic != MAGIC {
            return Err("bad magic".into());
        }
        let top = (*h).top as usize;
        if top + BLOCK_HEADER > capacity || top < HEADER_SIZE {
            return Err(format!("top {top} out of range"));
        }
        let blocks = check_blocks(base, top)?;
        if blocks.used != (*h).used {
            return Err(format!(
                "used {} but blocks sum to {}",
                (*h).used,
                blocks.used
            ));
        }
        check_free_lists(base, top, blocks.free)?;
        check_slab_lists(base, top, blocks.partial_slabs)?;
        check_above_mark(base, top, capacity)
    }
}

/// What the block walk counted.
struct Blocks {
    /// Bytes in allocated blocks and live slots.
    used: u64,
    /// Free blocks.
    free: usize,
    /// Slabs with a free slot.
    partial_slabs: usize,
}

/// Walk the blocks from `HEADER_SIZE` to the sentinel at `top`: sizes, flags, boundary tags,
/// coalescing, zeroed free memory, and each slab.
///
/// # Safety
/// As [`check_heap`], with `top + 8` inside the mapping.
unsafe fn check_blocks(base: *mut u8, top: usize) -> Result<Blocks, String> {
    // SAFETY: every block is read only once its offset is known to be below `top`.
    unsafe {
        let mut b = HEADER_SIZE;
        let mut prev_free = false;
        let mut prev_size = 0usize;
        let mut used = 0u64;
        let mut free_blocks = 0usize;
        let mut partial_slabs = 0usize;
        while b < top {
            let word = rd(base, b);
            let size = (word & SIZE_MASK) as usize;
            if size < MIN_BLOCK || b + size > top {
                return Err(format!("block {b}: bad size {size}"));
            }
            let is_free = word & FREE != 0;
            if (word & PREV_FREE != 0) != prev_free {
                return Err(format!("block {b}: PREV_FREE flag wrong"));
            }
            if prev_free && rd(base, b + 4) as usize != prev_size {
                return Err(format!("block {b}: boundary tag wrong"));
            }
            if is_free {
                if prev_free {
                    return Err(format!("block {b}: two adjacent free blocks"));
                }
                if word & SLAB != 0 {
                    return Err(format!("block {b}: free block marked as slab"));
                }
                if !zeroed(base, b + MIN_BLOCK, size - MIN_BLOCK) {
                    return Err(format!("block {b}: free memory not zeroed"));
                }
                free_blocks += 1;
            } else if word & SLAB != 0 {
                used += check_slab(base, b, size)?;
                let bitmap = rd64(base, b + 16);
                if bitmap != full_mask(rd(base, b + 12) as usize) {
                    partial_slabs += 1;
                }
            } else {
                used += size as u64;
            }
            prev_free = is_free;
            prev_size = size;
            b += size;
        }
        if b != top {
            return Err("blocks do not end at top".into());
        }
        let sentinel = rd(base, top);
        if sentinel & SIZE_MASK != 0 || (sentinel & PREV_FREE != 0) != prev_free {
            return Err("bad sentinel".into());
        }
        Ok(Blocks {
            used,
            free: free_blocks,
            partial_slabs,
        })
    }
}

/// Check the TLSF free lists: each holds exactly the free blocks of its class, doubly linked,
/// and the bitmaps say which lists are non-empty; together they hold all `free_blocks`.
///
/// # Safety
/// As [`check_blocks`], after it succeeded.
unsafe fn check_free_lists(base: *mut u8, top: usize, free_blocks: usize) -> Result<(), String> {
    // SAFETY: the header is inside the mapping; every link is checked to be aligned and to
    // name a block whose first `MIN_BLOCK` bytes (all that is read) lie in
    // `[HEADER_SIZE, top)` before it is followed.
    unsafe {
        let h = hdr(base);
        let mut listed = 0usize;
        for fl in 0..FL_COUNT {
            for sl in 0..SL_COUNT {
                let mut f = (*h).heads[fl * SL_COUNT + sl] as usize;
                let bit = (*h).sl_bitmap[fl] & (1 << sl) != 0;
                if bit != (f != 0) {
                    return Err(format!("bitmap wrong for class ({fl},{sl})"));
                }
                let mut prev = 0usize;
                while f != 0 {
                    if f < HEADER_SIZE || f + MIN_BLOCK > top || !f.is_multiple_of(ALIGN) {
                        return Err(format!("free list link {f} out of range"));
                    }
                    let word = rd(base, f);
                    if word & FREE == 0 || mapping_insert((word & SIZE_MASK) as usize) != (fl, sl) {
                        return Err(format!("block {f} on the wrong free list"));
                    }
                    if rd(base, f + 12) as usize != prev {
                        return Err(format!("block {f}: bad back link"));
                    }
                    listed += 1;
                    if listed > free_blocks {
                        return Err("free list cycle or stray block".into());
                    }
                    prev = f;
                    f = rd(base, f + 8) as usize;
                }
            }
            if ((*h).fl_bitmap & (1 << fl) != 0) != ((*h).sl_bitmap[fl] != 0) {
                return Err(format!("first-level bitmap wrong for {fl}"));
            }
        }
        if listed != free_blocks {
            return Err(format!("{free_blocks} free blocks, {listed} listed"));
        }
        Ok(())
    }
}

/// Check the slab lists: each holds, in address order and doubly linked, slabs of its class
/// that have a free slot; together they hold all `partial_slabs`.
///
/// # Safety
/// As [`check_blocks`], after it succeeded.
unsafe fn check_slab_lists(base: *mut u8, top: usize, partial_slabs: usize) -> Result<(), String> {
    // SAFETY: the header is inside the mapping; every link is checked to be aligned and to
    // name a slab whose header (`SLAB_SLOTS` bytes, all that is read) lies in
    // `[HEADER_SIZE, top)` before it is followed.
    unsafe {
        let h = hdr(base);
        let mut listed = 0usize;
        for c in 0..SMALL_CLASSES {
            let mut s = (*h).slabs[c] as usize;
            let mut prev = 0usize;
            while s != 0 {
                if s < HEADER_SIZE || s + SLAB_SLOTS > top || !s.is_multiple_of(ALIGN) || s <= prev
                {
                    return Err(format!("slab list {c}: bad link {s} after {prev}"));
                }
                let word = rd(base, s);
                if word & SLAB == 0 || word & FREE != 0 || rd(base, s + 8) as usize != c {
                    return Err(format!("slab list {c}: {s} is not a slab of that class"));
                }
                if rd64(base, s + 16) == full_mask(rd(base, s + 12) as usize) {
                    return Err(format!("slab list {c}: full slab {s} listed"));
                }
                if rd(base, s + 28) as usize != prev {
                    return Err(format!("slab list {c}: bad back link at {s}"));
                }
                listed += 1;
                if listed > partial_slabs {
                    return Err("slab list cycle or stray slab".into());
                }
                prev = s;
                s = rd(base, s + 24) as usize;
            }
        }
        if listed != partial_slabs {
            return Err(format!("{partial_slabs} slabs with room, {listed} listed"));
        }
        Ok(())
    }
}

/// Above the high-water mark everything is zero (sampled: the first page past it).
///
/// # Safety
/// As [`check_blocks`].
unsafe fn check_above_mark(base: *mut u8, top: usize, capacity: usize) -> Result<(), String> {
    let end = (top + BLOCK_HEADER + 4096).min(capacity);
    for off in top + BLOCK_HEADER..end {
        // SAFETY: `off < capacity`: inside the mapping.
        if unsafe { base.add(off).read() } != 0 {
            return Err(format!("nonzero byte above the high-water mark at {off}"));
        }
    }
    Ok(())
}

/// Whether the `len` bytes at offset `off` are all zero.
unsafe fn zeroed(base: *mut u8, off: usize, len: usize) -> bool {
    // SAFETY: the caller guarantees the range is inside the mapping.
    unsafe { std::slice::from_raw_parts(base.add(off), len) }
        .iter()
        .all(|&x| x == 0)
}

/// Check one slab container of `size` bytes at `s`; returns the bytes of its live slots.
unsafe fn check_slab(base: *mut u8, s: usize, size: usize) -> Result<u64, String> {
    // SAFETY: `s` is a block of `size` bytes inside the heap (checked by the caller).
    unsafe {
        let c = rd(base, s + 8) as usize;
        let slots = rd(base, s + 12) as usize;
        if c >= SMALL_CLASSES {
            return Err(format!("slab {s}: bad class {c}"));
        }
        let slot = (c + 1) * ALIGN + BLOCK_HEADER;
        if slots != slab_slots(slot) || SLAB_SLOTS + slots * slot > size {
            return Err(format!("slab {s}: bad slot count {slots}"));
        }
        let bitmap = rd64(base, s + 16);
        if bitmap & !full_mask(slots) != 0 {
            return Err(format!("slab {s}: bitmap {bitmap:#x} beyond {slots} slots"));
        }
        for i in 0..slots {
            let at = SLAB_SLOTS + i * slot;
            if rd(base, s + at) != slot as u32 | SLAB || rd(base, s + at + 4) as usize != at {
                return Err(format!("slab {s}: slot {i} header damaged"));
            }
            if bitmap & 1 << i == 0 && !zeroed(base, s + at + BLOCK_HEADER, slot - BLOCK_HEADER) {
                return Err(format!("slab {s}: free slot {i} not zeroed"));
            }
        }
        Ok(u64::from(bitmap.count_ones()) * slot as u64)
    }
}
