//! The arena's byte format: the allocator header at offset 0, block and slot headers, and
//! word access at byte offsets from the arena's base.
//!
//! ```text
//! offset 0            HEADER_SIZE                                 top   top+8
//! | arena header      | block | block | free block | block | ... | sentinel | zero ... capacity
//! ```
//!
//! * The **arena header** ([`Header`]) holds the allocator state: the high-water offset `top`,
//!   statistics, the TLSF bitmaps and free-list heads, and the slab lists (as byte offsets, 0
//!   meaning "none").
//! * Every **block** starts with an 8-byte header: a `u32` size (multiple of 8, including the
//!   header) whose low bits are flags (`FREE`, `PREV_FREE`, `SLAB`), and a `u32` holding the
//!   size of the previous block, valid only when `PREV_FREE` is set (the boundary tag used to
//!   coalesce). A free block keeps its free-list links (`u32` next, `u32` prev) in its payload.
//! * The **sentinel** is a zero-size block header at `top`. The high-water mark is `top + 8`:
//!   everything the allocator ever touched lies below it, and everything above it is zero.
//!   `top` only grows (a free block at the end stays a free block), except on restore.
//!
//! Invariants: all allocator state lives in these bytes and none host-side, so a copy of the
//! bytes is a copy of the allocator; offsets and sizes are `u32` (hence [`MAX_CAPACITY`]);
//! payloads are 8-byte aligned, which is Lua's `LUAI_MAXALIGN` on every 64-bit target. The
//! accessors trust their callers for the offsets: each must be aligned and inside the mapping.
#![expect(unsafe_code, reason = "raw reads and writes of the arena's words")]

/// Magic number at offset 0 ("LUARENA2").
pub(super) const MAGIC: u64 = 0x4c55_4152_454e_4132;
/// Block granularity and payload alignment.
pub(super) const ALIGN: usize = 8;
/// Size of a block header.
pub(crate) const BLOCK_HEADER: usize = 8;
/// Smallest block: header plus the two free-list links.
pub(super) const MIN_BLOCK: usize = 16;
/// log2 of the number of second-level classes per first-level class.
pub(super) const SL_LOG2: u32 = 4;
pub(super) const SL_COUNT: usize = 1 << SL_LOG2;
/// Sizes below this have exact (linear) classes in first-level class 0.
pub(super) const LINEAR_LIMIT: usize = 1 << (SL_LOG2 + 3);
/// First-level classes: class 0 is linear, class `k >= 1` holds sizes in `[2^(k+6), 2^(k+7))`.
pub(super) const FL_COUNT: usize = 26;
/// Flag bits in a block's size word.
pub(crate) const FREE: u32 = 1;
pub(super) const PREV_FREE: u32 = 2;
/// On a block header: the block is a slab container. On a slot header: the slot is in a slab.
pub(crate) const SLAB: u32 = 4;
pub(crate) const SIZE_MASK: u32 = !7;
/// Requests up to this many bytes are served by slabs.
pub(super) const SMALL_MAX: usize = 256;
/// Slab classes: class `c` serves payloads of `(c + 1) * 8` bytes.
pub(super) const SMALL_CLASSES: usize = SMALL_MAX / ALIGN;
/// Slab header inside the container's payload: class u32, slots u32, bitmap u64, next u32,
/// prev u32.
pub(super) const SLAB_HEADER: usize = 24;
/// Offset of the first slot from the container block.
pub(crate) const SLAB_SLOTS: usize = BLOCK_HEADER + SLAB_HEADER;

/// Largest arena: offsets and sizes are `u32`.
pub(super) const MAX_CAPACITY: usize = (u32::MAX as usize + 1) - 4096;
/// Smallest arena: a header plus a little room.
pub(super) const MIN_CAPACITY: usize = 64 * 1024;

/// The allocator state at offset 0 of the arena.
#[repr(C)]
pub(super) struct Header {
    pub(super) magic: u64,
    pub(super) capacity: u64,
    /// Offset of the sentinel block header; the high-water mark is `top + 8`.
    pub(super) top: u64,
    /// Bytes in allocated blocks, block headers included.
    pub(super) used: u64,
    /// Successful allocations (new blocks, and moving reallocations).
    pub(super) allocations: u64,
    /// Blocks freed.
    pub(super) frees: u64,
    pub(super) fl_bitmap: u32,
    pub(super) sl_bitmap: [u32; FL_COUNT],
    pub(super) heads: [u32; FL_COUNT * SL_COUNT],
    /// Per slab class, the slabs with a free slot, in address order (container offsets).
    pub(super) slabs: [u32; SMALL_CLASSES],
}

/// Offset of the first block (the header rounded up to the block granularity).
pub(crate) const HEADER_SIZE: usize = (std::mem::size_of::<Header>() + ALIGN - 1) & !(ALIGN - 1);

#[inline]
pub(super) unsafe fn rd(base: *mut u8, off: usize) -> u32 {
    // SAFETY: the caller guarantees `off` is a 4-aligned offset inside the mapping.
    unsafe { base.add(off).cast::<u32>().read() }
}

#[inline]
pub(super) unsafe fn wr(base: *mut u8, off: usize, v: u32) {
    // SAFETY: the caller guarantees `off` is a 4-aligned offset inside the mapping.
    unsafe { base.add(off).cast::<u32>().write(v) }
}

#[inline]
pub(super) unsafe fn rd64(base: *mut u8, off: usize) -> u64 {
    // SAFETY: the caller guarantees `off` is an 8-aligned offset inside the mapping.
    unsafe { base.add(off).cast::<u64>().read() }
}

#[inline]
pub(super) unsafe fn wr64(base: *mut u8, off: usize, v: u64) {
    // SAFETY: the caller guarantees `off` is an 8-aligned offset inside the mapping.
    unsafe { base.add(off).cast::<u64>().write(v) }
}

#[inline]
pub(super) unsafe fn size_of_block(base: *mut u8, b: usize) -> usize {
    // SAFETY: forwarded caller guarantee.
    (unsafe { rd(base, b) } & SIZE_MASK) as usize
}

#[inline]
pub(super) fn hdr(base: *mut u8) -> *mut Header {
    base.cast()
}
