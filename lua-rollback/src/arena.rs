//! The arena: one fixed mapping holding a whole Lua VM, with a TLSF allocator whose metadata
//! lives entirely inside the arena.
//!
//! # Layout
//!
//! ```text
//! offset 0            HEADER_SIZE                                 top   top+8
//! | arena header      | block | block | free block | block | ... | sentinel | zero ... capacity
//! ```
//!
//! * The **arena header** holds the allocator state: the high-water offset `top`, statistics,
//!   and the TLSF bitmaps and free-list heads (as byte offsets, 0 meaning "none").
//! * Every **block** starts with an 8-byte header: a `u32` size (multiple of 8, including the
//!   header) whose low bits are flags (`FREE`, `PREV_FREE`), and a `u32` holding the size of the
//!   previous block, valid only when `PREV_FREE` is set (the boundary tag used to coalesce).
//!   A free block keeps its free-list links (`u32` next, `u32` prev) in its payload.
//! * The **sentinel** is a zero-size block header at `top`. The high-water mark is `top + 8`:
//!   everything the allocator ever touched lies below it, and everything above it is zero.
//!   `top` only grows (a free block at the end stays a free block), except on restore.
//!
//! # Allocation policy
//!
//! Two-level segregated fit (TLSF): sizes below 128 bytes have exact 8-byte classes, larger
//! sizes 16 classes per power of two. A request takes the head of the first non-empty class
//! that is guaranteed to fit, splitting off the remainder; when no class fits it takes the head
//! of its own class if that block is large enough, then grows the free block that ends at `top`,
//! then bumps `top`. Frees coalesce with both neighbours immediately, so no two free blocks are
//! ever adjacent. Free lists are LIFO. Every decision depends only on the arena bytes and the
//! request, so the same requests from the same arena bytes give the same offsets.
//!
//! # Slabs
//!
//! Requests up to 256 bytes (most Lua objects) go to **slabs**: TLSF blocks cut into equal
//! slots of one size class (8-byte steps), each slot keeping a constant 8-byte header (`SLAB`
//! flag, slot size, distance to its slab), with a 64-bit occupancy bitmap in the slab header.
//! Allocation takes the lowest free slot of the lowest-addressed slab with room, so a frame's
//! short-lived objects land in the same slots as the previous frame's. Empty slabs are kept for reuse and handed back
//! to TLSF only when TLSF runs out of memory. Whether a pointer is a slot or a TLSF block is
//! read from its header, never from Lua's `osize`, so a shrink can always stay in place.
//!
//! # Freed memory is zero
//!
//! Freeing zeroes the payload (a slot's, or a TLSF block's past its free-list links, together
//! with the headers a coalesced block swallows). Free memory therefore holds nothing but zeros,
//! links and slot headers: when the host collects a frame's garbage before taking the frame's
//! snapshot ([`Vm::collect_frame`](crate::Vm::collect_frame)), the garbage leaves no trace in
//! the arena, and a frame-to-frame XOR diff sees only what survived the frame. `check` verifies
//! it.
//!
//! Payloads are 8-byte aligned, which is Lua's `LUAI_MAXALIGN` on every 64-bit target.

use std::cell::Cell;
use std::ffi::c_void;
use std::ptr::{self, NonNull};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::ArenaError;

/// Magic number at offset 0 ("LUARENA2").
const MAGIC: u64 = 0x4c55_4152_454e_4132;
/// Block granularity and payload alignment.
const ALIGN: usize = 8;
/// Size of a block header.
const BLOCK_HEADER: usize = 8;
/// Smallest block: header plus the two free-list links.
const MIN_BLOCK: usize = 16;
/// log2 of the number of second-level classes per first-level class.
const SL_LOG2: u32 = 4;
const SL_COUNT: usize = 1 << SL_LOG2;
/// Sizes below this have exact (linear) classes in first-level class 0.
const LINEAR_LIMIT: usize = 1 << (SL_LOG2 + 3);
/// First-level classes: class 0 is linear, class `k >= 1` holds sizes in `[2^(k+6), 2^(k+7))`.
const FL_COUNT: usize = 26;
/// Flag bits in a block's size word.
const FREE: u32 = 1;
const PREV_FREE: u32 = 2;
/// On a block header: the block is a slab container. On a slot header: the slot is in a slab.
const SLAB: u32 = 4;
const SIZE_MASK: u32 = !7;
/// Requests up to this many bytes are served by slabs.
const SMALL_MAX: usize = 256;
/// Slab classes: class `c` serves payloads of `(c + 1) * 8` bytes.
const SMALL_CLASSES: usize = SMALL_MAX / ALIGN;
/// Slab header inside the container's payload: class u32, slots u32, bitmap u64, next u32,
/// prev u32.
const SLAB_HEADER: usize = 24;
/// Offset of the first slot from the container block.
const SLAB_SLOTS: usize = BLOCK_HEADER + SLAB_HEADER;

/// Largest arena: offsets and sizes are `u32`.
pub(crate) const MAX_CAPACITY: usize = (u32::MAX as usize + 1) - 4096;
/// Smallest arena: a header plus a little room.
pub(crate) const MIN_CAPACITY: usize = 64 * 1024;

/// The allocator state at offset 0 of the arena.
#[repr(C)]
struct Header {
    magic: u64,
    capacity: u64,
    /// Offset of the sentinel block header; the high-water mark is `top + 8`.
    top: u64,
    /// Bytes in allocated blocks, block headers included.
    used: u64,
    /// Successful allocations (new blocks, and moving reallocations).
    allocations: u64,
    /// Blocks freed.
    frees: u64,
    fl_bitmap: u32,
    sl_bitmap: [u32; FL_COUNT],
    heads: [u32; FL_COUNT * SL_COUNT],
    /// Per slab class, the slabs with a free slot, in address order (container offsets).
    slabs: [u32; SMALL_CLASSES],
}

/// Offset of the first block (the header rounded up to the block granularity).
const HEADER_SIZE: usize = (std::mem::size_of::<Header>() + ALIGN - 1) & !(ALIGN - 1);

/// Statistics of an arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaStats {
    /// Bytes in live allocations, including each block's 8-byte header.
    pub used: usize,
    /// Bytes up to the high-water mark: what a snapshot copies.
    pub high_water: usize,
    /// Bytes reserved for the arena (the memory cap).
    pub capacity: usize,
    /// Allocations served since the arena was created (rolls back with the arena).
    pub allocations: u64,
    /// Blocks freed since the arena was created (rolls back with the arena).
    pub frees: u64,
}

/// Failure injection for tests: which allocation requests fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AllocFailure {
    /// Allocations succeed while memory lasts.
    #[default]
    Off,
    /// The n-th allocation request from now (1 = the next one) fails; later ones succeed.
    Once(u64),
    /// The n-th allocation request from now and every later one fail.
    From(u64),
}

/// Host-side allocator context: what `lua_Alloc`'s `ud` points to. It lives outside the arena
/// (it is not rolled back), at a stable address, for as long as the arena.
#[repr(C)]
pub(crate) struct AllocCtl {
    base: *mut u8,
    capacity: usize,
    /// Failure injection state; requests counted since it was set.
    failure: Cell<AllocFailure>,
    /// Requests seen since `failure` was set.
    requests: Cell<u64>,
    /// Requests failed by injection since `failure` was set.
    injected: Cell<u64>,
}

impl AllocCtl {
    /// Decide whether this (growing) request fails by injection.
    fn inject_failure(&self) -> bool {
        let failure = self.failure.get();
        if failure == AllocFailure::Off {
            return false;
        }
        let n = self.requests.get().saturating_add(1);
        self.requests.set(n);
        let fail = match failure {
            AllocFailure::Off => false,
            AllocFailure::Once(k) => n == k,
            AllocFailure::From(k) => n >= k,
        };
        if fail {
            self.injected.set(self.injected.get() + 1);
        }
        fail
    }
}

/// Source of arena ids: a snapshot restores only into the arena that made it.
static NEXT_ARENA_ID: AtomicU64 = AtomicU64::new(1);

/// One reserved mapping holding a whole VM. Never moves, never grows.
pub(crate) struct Arena {
    ctl: NonNull<AllocCtl>,
    id: u64,
    /// Page-write tracking, when enabled and supported.
    tracker: Option<tracking::Tracker>,
}

impl Arena {
    /// Reserve `capacity` bytes (rounded up to pages). Pages are committed as they are touched.
    /// With `fixed_address`, map exactly there or fail.
    pub(crate) fn new(capacity: usize, fixed_address: Option<usize>) -> Result<Arena, ArenaError> {
        let page = page_size();
        let capacity = capacity
            .checked_add(page - 1)
            .map(|c| c & !(page - 1))
            .filter(|c| (MIN_CAPACITY..=MAX_CAPACITY).contains(c))
            .ok_or(ArenaError::BadCapacity(capacity))?;
        if let Some(addr) = fixed_address
            && (addr == 0 || addr % page != 0)
        {
            return Err(ArenaError::BadAddress(addr));
        }
        let base = map(capacity, fixed_address)?;
        let ctl = Box::new(AllocCtl {
            base,
            capacity,
            failure: Cell::new(AllocFailure::Off),
            requests: Cell::new(0),
            injected: Cell::new(0),
        });
        let arena = Arena {
            ctl: NonNull::from(Box::leak(ctl)),
            id: NEXT_ARENA_ID.fetch_add(1, Ordering::Relaxed),
            tracker: None,
        };
        // SAFETY: the mapping is fresh, zero-filled, writable and at least MIN_CAPACITY bytes,
        // so the header fits; nothing else refers to it yet.
        unsafe {
            let h = base.cast::<Header>();
            (*h).magic = MAGIC;
            (*h).capacity = capacity as u64;
            (*h).top = HEADER_SIZE as u64;
            // The sentinel header at `top` is all zero bytes: size 0, no flags.
        }
        Ok(arena)
    }

    fn ctl(&self) -> &AllocCtl {
        // SAFETY: `ctl` came from `Box::leak` in `new` and is freed only in `drop`.
        unsafe { self.ctl.as_ref() }
    }

    /// The `ud` argument for `lua_newstate`: a pointer to the allocator context.
    pub(crate) fn lua_ud(&self) -> *mut c_void {
        self.ctl.as_ptr().cast()
    }

    /// A process-unique id of this arena.
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// Base address of the mapping.
    pub(crate) fn base(&self) -> *mut u8 {
        self.ctl().base
    }

    /// Set failure injection; the request count starts over.
    pub(crate) fn set_failure(&self, failure: AllocFailure) {
        let ctl = self.ctl();
        ctl.failure.set(failure);
        ctl.requests.set(0);
        ctl.injected.set(0);
    }

    /// Allocation requests failed by injection since the last `set_failure`.
    pub(crate) fn injected_failures(&self) -> u64 {
        self.ctl().injected.get()
    }

    fn header(&self) -> *mut Header {
        self.base().cast()
    }

    /// Bytes up to the high-water mark.
    pub(crate) fn high_water(&self) -> usize {
        // SAFETY: the header is inside the mapping; no Lua call is running (the VM holds the
        // arena behind `&mut self` during calls), so nothing writes it concurrently.
        let top = unsafe { (*self.header()).top } as usize;
        top + BLOCK_HEADER
    }

    /// Statistics.
    pub(crate) fn stats(&self) -> ArenaStats {
        let h = self.header();
        // SAFETY: as in `high_water`.
        unsafe {
            ArenaStats {
                used: (*h).used as usize,
                high_water: (*h).top as usize + BLOCK_HEADER,
                capacity: self.ctl().capacity,
                allocations: (*h).allocations,
                frees: (*h).frees,
            }
        }
    }

    /// The bytes up to the high-water mark.
    pub(crate) fn bytes(&self) -> &[u8] {
        // SAFETY: `[base, base + high_water)` is inside the mapping and initialized (mapped
        // memory reads as zero until written). Callers hold `&self` of the VM, so no Lua call can
        // write the arena while the slice lives.
        unsafe { std::slice::from_raw_parts(self.base(), self.high_water()) }
    }

    /// Zero every aligned 8-byte word of the used arena whose value is an address inside
    /// `host`, returning how many were zeroed. See `RawVm::scrub_host_addresses` for why this
    /// is sound and needed.
    ///
    /// # Safety
    /// No Lua call may be running, and no word whose value lies in `host` may be meaningful to
    /// the VM (only stale bytes of slots without a payload hold such values).
    pub(crate) unsafe fn scrub(&mut self, host: std::ops::Range<u64>) -> usize {
        let words = self.high_water() / 8;
        // SAFETY: `[base, base + high_water)` is inside the mapping and initialized; the base is
        // page-aligned, so the words are aligned; `&mut self` and the caller's guarantee mean
        // nothing else reads or writes the arena meanwhile.
        let arena = unsafe { std::slice::from_raw_parts_mut(self.base().cast::<u64>(), words) };
        let (lo, len) = (host.start, host.end.saturating_sub(host.start));
        // One unsigned compare per word (`w - lo < len`), folded without branches so the
        // compiler vectorizes the scan; almost every block has no such word.
        let inside = |w: u64| w.wrapping_sub(lo) < len;
        let mut zeroed = 0;
        for chunk in arena.chunks_mut(32) {
            let hit = chunk.iter().fold(0u64, |h, &w| h | u64::from(inside(w)));
            if hit != 0 {
                for w in chunk.iter_mut().filter(|w| inside(**w)) {
                    *w = 0;
                    zeroed += 1;
                }
            }
        }
        zeroed
    }

    /// [`Arena::scrub`], looking only at the 256-byte spans that differ from `prev` (an earlier
    /// snapshot of this arena that was scrubbed itself, so unchanged blocks hold no such word):
    /// comparing is much cheaper than testing every word.
    ///
    /// # Safety
    /// As [`Arena::scrub`].
    pub(crate) unsafe fn scrub_changed(
        &mut self,
        prev: &[u8],
        host: std::ops::Range<u64>,
    ) -> usize {
        let len = self.high_water();
        // SAFETY: as in `scrub`.
        let arena = unsafe { std::slice::from_raw_parts_mut(self.base(), len) };
        let (lo, span) = (host.start, host.end.saturating_sub(host.start));
        let inside = |w: u64| w.wrapping_sub(lo) < span;
        let mut zeroed = 0;
        for (i, span) in arena.chunks_mut(256).enumerate() {
            // Slice equality is libc's memcmp: the fastest compare there is.
            if prev.get(i * 256..i * 256 + span.len()) == Some(&*span) {
                continue;
            }
            for word in span.chunks_exact_mut(8) {
                let w = u64::from_le_bytes([
                    word[0], word[1], word[2], word[3], word[4], word[5], word[6], word[7],
                ]);
                if inside(w) {
                    word.fill(0);
                    zeroed += 1;
                }
            }
        }
        zeroed
    }

    /// Copy `bytes` (a snapshot of this arena) back and zero what lies above it.
    ///
    /// # Safety
    /// `bytes` must be exactly the bytes [`Arena::bytes`] returned at some earlier moment of this
    /// arena, no Lua call may be running, and no pointer into the arena may be used afterwards
    /// unless it pointed to an object that was alive when the snapshot was taken.
    pub(crate) unsafe fn restore(&mut self, bytes: &[u8]) {
        let cur = self.high_water();
        let cap = self.ctl().capacity;
        assert!(
            bytes.len() >= HEADER_SIZE + BLOCK_HEADER && bytes.len() <= cap,
            "snapshot size out of range"
        );
        if self.tracker.is_some() {
            // Write only the blocks that differ, so that pages the restore does not change
            // stay unwritten: no fault now, no compare in the next diff.
            let len = cur.max(bytes.len());
            // SAFETY: `[base, base + len)` is inside the mapping (checked above and
            // `cur <= capacity`); the caller guarantees no Lua code runs and no other
            // reference into the arena is alive, so the exclusive slice aliases nothing; the
            // snapshot buffer is a separate allocation.
            let arena = unsafe { std::slice::from_raw_parts_mut(self.base(), len) };
            let (low, high) = arena.split_at_mut(bytes.len());
            for (dst, src) in low.chunks_mut(64).zip(bytes.chunks(64)) {
                if dst != src {
                    dst.copy_from_slice(src);
                }
            }
            for dst in high.chunks_mut(64) {
                if dst.iter().any(|&x| x != 0) {
                    dst.fill(0);
                }
            }
        } else {
            // SAFETY: both ranges are inside the mapping (checked above; `cur <= capacity` is
            // an allocator invariant); the snapshot buffer is a separate allocation, so the
            // copy does not overlap; the caller guarantees no Lua code runs.
            unsafe {
                ptr::copy_nonoverlapping(bytes.as_ptr(), self.base(), bytes.len());
                if cur > bytes.len() {
                    ptr::write_bytes(self.base().add(bytes.len()), 0, cur - bytes.len());
                }
            }
        }
        debug_assert_eq!(self.high_water(), bytes.len());
    }

    /// Start tracking which pages are written (see [`tracking`]); returns whether tracking is
    /// on. Every page counts as written until the first [`Arena::take_written`].
    pub(crate) fn track_writes(&mut self) -> bool {
        if self.tracker.is_none() {
            self.tracker = tracking::Tracker::new(self.base(), self.ctl().capacity);
        }
        self.tracker.is_some()
    }

    /// Whether page-write tracking is on.
    pub(crate) fn tracking(&self) -> bool {
        self.tracker.is_some()
    }

    /// Put into `out` (cleared first) the byte ranges of the pages among the first `len` bytes
    /// that were written since the last call that covered them (or since tracking started),
    /// and start tracking those pages afresh. Pages beyond `len` keep their state. Returns
    /// false — and turns tracking off for good — when tracking is off or the scan fails;
    /// `out` is then meaningless.
    pub(crate) fn take_written(
        &mut self,
        len: usize,
        out: &mut Vec<std::ops::Range<usize>>,
    ) -> bool {
        out.clear();
        let len = len.min(self.ctl().capacity);
        let base = self.base();
        let ok = match &mut self.tracker {
            Some(t) => t.take_written(base, len, out),
            None => false,
        };
        if !ok {
            self.tracker = None;
        }
        ok
    }

    /// Walk every block and check the allocator's invariants (tests and debugging).
    pub(crate) fn check(&self) -> Result<(), String> {
        // SAFETY: read-only walk inside `[0, high_water)`; every offset is bounds-checked
        // against `top` before it is read.
        unsafe { check_heap(self.base(), self.ctl().capacity) }
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        // SAFETY: `ctl` came from `Box::leak` and is dropped once, here; the mapping was made by
        // `map` with this base and capacity, and nothing refers to it once the VM is gone (the
        // VM drops its arena last).
        unsafe {
            let ctl = Box::from_raw(self.ctl.as_ptr());
            libc::munmap(ctl.base.cast(), ctl.capacity);
        }
    }
}

/// Page-write tracking with Linux's userfaultfd write protection in asynchronous mode
/// (Linux 6.7+): the arena is registered and write-protected once; the first write to a
/// protected page then just drops its protection, in the kernel, with no signal and no
/// handler thread. `PAGEMAP_SCAN` on `/proc/self/pagemap` lists the pages that lost it and
/// protects them again, atomically. Unprivileged processes get it with `UFFD_USER_MODE_ONLY`.
/// Anything unsupported — another OS, an older kernel, a sandbox refusing the calls — makes
/// [`Tracker::new`] return `None`, and the caller compares every page instead.
///
/// Exactness: a page that was written since the last scan covering it is always listed (the
/// kernel keeps the protection bit through swapping and migration, and writes by this
/// process — Lua's and `restore`'s alike — all go through the protection). A listed page may
/// hold the same bytes as before; that costs a compare, never a wrong diff.
mod tracking {
    #![cfg_attr(not(target_os = "linux"), allow(dead_code))]

    use std::ffi::c_void;
    use std::ops::Range;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

    const UFFD_API: u64 = 0xAA;
    const UFFD_USER_MODE_ONLY: libc::c_int = 1;
    const UFFD_FEATURE_WP_UNPOPULATED: u64 = 1 << 13;
    const UFFD_FEATURE_WP_ASYNC: u64 = 1 << 15;
    const UFFDIO_REGISTER_MODE_WP: u64 = 1 << 1;
    const UFFDIO_WRITEPROTECT_MODE_WP: u64 = 1;
    /// `_IOWR(0xAA, 0x3F, struct uffdio_api)`.
    const UFFDIO_API: u64 = 0xC018_AA3F;
    /// `_IOWR(0xAA, 0x00, struct uffdio_register)`.
    const UFFDIO_REGISTER: u64 = 0xC020_AA00;
    /// `_IOWR(0xAA, 0x06, struct uffdio_writeprotect)`.
    const UFFDIO_WRITEPROTECT: u64 = 0xC018_AA06;
    /// `_IOWR('f', 16, struct pm_scan_arg)`.
    const PAGEMAP_SCAN: u64 = 0xC060_6610;
    const PM_SCAN_WP_MATCHING: u64 = 1;
    const PM_SCAN_CHECK_WPASYNC: u64 = 1 << 1;
    const PAGE_IS_WRITTEN: u64 = 1 << 1;

    #[repr(C)]
    struct UffdioApi {
        api: u64,
        features: u64,
        ioctls: u64,
    }

    #[repr(C)]
    struct UffdioRegister {
        start: u64,
        len: u64,
        mode: u64,
        ioctls: u64,
    }

    #[repr(C)]
    struct UffdioWriteprotect {
        start: u64,
        len: u64,
        mode: u64,
    }

    #[repr(C)]
    struct PmScanArg {
        size: u64,
        flags: u64,
        start: u64,
        end: u64,
        walk_end: u64,
        vec: u64,
        vec_len: u64,
        max_pages: u64,
        category_inverted: u64,
        category_mask: u64,
        category_anyof_mask: u64,
        return_mask: u64,
    }

    #[repr(C)]
    #[derive(Clone, Copy, Default)]
    struct PageRegion {
        start: u64,
        end: u64,
        categories: u64,
    }

    /// The userfaultfd and pagemap descriptors of one arena's tracking.
    pub(super) struct Tracker {
        /// Kept open: closing it would drop the registration.
        _uffd: OwnedFd,
        pagemap: OwnedFd,
        regions: Vec<PageRegion>,
    }

    /// `ioctl` with a request number of either libc flavour.
    unsafe fn ioctl<T>(fd: libc::c_int, request: u64, arg: *mut T) -> libc::c_int {
        // SAFETY: forwarded: `arg` points to the structure `request` expects.
        unsafe { libc::ioctl(fd, request as _, arg.cast::<c_void>()) }
    }

    impl Tracker {
        /// Register and write-protect `[base, base + len)` (the whole mapping of an arena).
        #[cfg(target_os = "linux")]
        pub(super) fn new(base: *mut u8, len: usize) -> Option<Tracker> {
            // SAFETY: userfaultfd takes flags only; the descriptor it returns is owned here.
            let fd = unsafe {
                libc::syscall(
                    libc::SYS_userfaultfd,
                    libc::O_CLOEXEC | libc::O_NONBLOCK | UFFD_USER_MODE_ONLY,
                )
            };
            let fd = libc::c_int::try_from(fd).ok().filter(|&fd| fd >= 0)?;
            // SAFETY: `fd` is a fresh descriptor nothing else owns.
            let uffd = unsafe { OwnedFd::from_raw_fd(fd) };
            let features = UFFD_FEATURE_WP_ASYNC | UFFD_FEATURE_WP_UNPOPULATED;
            let mut api = UffdioApi {
                api: UFFD_API,
                features,
                ioctls: 0,
            };
            let range = (base as u64, len as u64);
            let mut register = UffdioRegister {
                start: range.0,
                len: range.1,
                mode: UFFDIO_REGISTER_MODE_WP,
                ioctls: 0,
            };
            let mut protect = UffdioWriteprotect {
                start: range.0,
                len: range.1,
                mode: UFFDIO_WRITEPROTECT_MODE_WP,
            };
            // SAFETY: each ioctl gets the structure its request number names, alive across
            // the call; the range is the arena's own private anonymous mapping, so
            // protecting it affects no other memory; the open uses a NUL-terminated literal.
            let pagemap = unsafe {
                if ioctl(uffd.as_raw_fd(), UFFDIO_API, &raw mut api) != 0
                    || api.features & features != features
                    || ioctl(uffd.as_raw_fd(), UFFDIO_REGISTER, &raw mut register) != 0
                    || ioctl(uffd.as_raw_fd(), UFFDIO_WRITEPROTECT, &raw mut protect) != 0
                {
                    return None;
                }
                let pm = libc::open(
                    c"/proc/self/pagemap".as_ptr(),
                    libc::O_RDONLY | libc::O_CLOEXEC,
                );
                if pm < 0 {
                    return None;
                }
                OwnedFd::from_raw_fd(pm)
            };
            let mut t = Tracker {
                _uffd: uffd,
                pagemap,
                regions: vec![PageRegion::default(); 256],
            };
            // Check that scanning works before relying on it.
            let mut probe = Vec::new();
            t.take_written(base, 0, &mut probe).then_some(t)
        }

        /// Page-write tracking exists only on Linux.
        #[cfg(not(target_os = "linux"))]
        pub(super) fn new(_base: *mut u8, _len: usize) -> Option<Tracker> {
            None
        }

        /// Append the written pages among `[base, base + len)` to `out` as byte ranges from
        /// `base`, protecting them again. False if a scan fails.
        pub(super) fn take_written(
            &mut self,
            base: *mut u8,
            len: usize,
            out: &mut Vec<Range<usize>>,
        ) -> bool {
            let start = base as u64;
            let end = start + len.next_multiple_of(4096) as u64;
            let mut at = start;
            while at < end {
                let mut arg = PmScanArg {
                    size: size_of::<PmScanArg>() as u64,
                    flags: PM_SCAN_WP_MATCHING | PM_SCAN_CHECK_WPASYNC,
                    start: at,
                    end,
                    walk_end: 0,
                    vec: self.regions.as_mut_ptr() as u64,
                    vec_len: self.regions.len() as u64,
                    max_pages: 0,
                    category_inverted: 0,
                    category_mask: PAGE_IS_WRITTEN,
                    category_anyof_mask: 0,
                    return_mask: PAGE_IS_WRITTEN,
                };
                // SAFETY: PAGEMAP_SCAN reads `arg` and writes at most `vec_len` regions into
                // `self.regions`, which outlives the call; the range is inside the arena's
                // mapping (`len` is at most its capacity, rounded up to a page).
                let n = unsafe { ioctl(self.pagemap.as_raw_fd(), PAGEMAP_SCAN, &raw mut arg) };
                let Ok(n) = usize::try_from(n) else {
                    return false;
                };
                if n > self.regions.len() || arg.walk_end <= at || arg.walk_end > end {
                    return false;
                }
                for r in &self.regions[..n] {
                    if r.start < at || r.end > arg.walk_end || r.start >= r.end {
                        return false;
                    }
                    out.push((r.start - start) as usize..(r.end - start) as usize);
                }
                at = arg.walk_end;
            }
            true
        }
    }
}

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 { p as usize } else { 4096 }
}

/// Reserve a private anonymous mapping, zero-filled and committed lazily.
fn map(capacity: usize, fixed_address: Option<usize>) -> Result<*mut u8, ArenaError> {
    #[cfg(target_os = "linux")]
    let lazy = libc::MAP_NORESERVE;
    #[cfg(not(target_os = "linux"))]
    let lazy = 0;
    #[cfg(target_os = "linux")]
    let fixed = libc::MAP_FIXED_NOREPLACE;
    #[cfg(not(target_os = "linux"))]
    let fixed = 0;
    let (hint, extra) = match fixed_address {
        Some(a) => (a as *mut c_void, fixed),
        None => (ptr::null_mut(), 0),
    };
    // SAFETY: an anonymous private mapping with a null or hint address cannot alias existing
    // memory (MAP_FIXED_NOREPLACE fails instead of replacing a mapping).
    let p = unsafe {
        libc::mmap(
            hint,
            capacity,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | lazy | extra,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(ArenaError::Map(std::io::Error::last_os_error()));
    }
    if let Some(a) = fixed_address
        && p as usize != a
    {
        // SAFETY: `p` is the mapping just made, of `capacity` bytes, referenced nowhere.
        unsafe { libc::munmap(p, capacity) };
        return Err(ArenaError::BadAddress(a));
    }
    Ok(p.cast())
}

// ---------------------------------------------------------------------------------------------
// TLSF internals. Every function takes the arena base; offsets are byte offsets from it.
// Callers guarantee that offsets name blocks inside `[HEADER_SIZE, top]`.
// ---------------------------------------------------------------------------------------------

/// Class of a free block of `size` bytes (for insertion).
fn mapping_insert(size: usize) -> (usize, usize) {
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
fn mapping_search(size: usize) -> (usize, usize) {
    if size < LINEAR_LIMIT {
        (0, size / ALIGN)
    } else {
        let round = (1usize << (size.ilog2() - SL_LOG2)) - 1;
        mapping_insert(size + round)
    }
}

/// Block size serving a request of `n` bytes, or `None` if it can never fit.
fn block_size(n: usize) -> Option<usize> {
    let s = n.checked_add(BLOCK_HEADER + ALIGN - 1)? & !(ALIGN - 1);
    let s = s.max(MIN_BLOCK);
    (s <= MAX_CAPACITY).then_some(s)
}

#[inline]
unsafe fn rd(base: *mut u8, off: usize) -> u32 {
    // SAFETY: the caller guarantees `off` is a 4-aligned offset inside the mapping.
    unsafe { base.add(off).cast::<u32>().read() }
}

#[inline]
unsafe fn wr(base: *mut u8, off: usize, v: u32) {
    // SAFETY: the caller guarantees `off` is a 4-aligned offset inside the mapping.
    unsafe { base.add(off).cast::<u32>().write(v) }
}

#[inline]
unsafe fn rd64(base: *mut u8, off: usize) -> u64 {
    // SAFETY: the caller guarantees `off` is an 8-aligned offset inside the mapping.
    unsafe { base.add(off).cast::<u64>().read() }
}

#[inline]
unsafe fn wr64(base: *mut u8, off: usize, v: u64) {
    // SAFETY: the caller guarantees `off` is an 8-aligned offset inside the mapping.
    unsafe { base.add(off).cast::<u64>().write(v) }
}

#[inline]
unsafe fn size_of_block(base: *mut u8, b: usize) -> usize {
    // SAFETY: forwarded caller guarantee.
    (unsafe { rd(base, b) } & SIZE_MASK) as usize
}

#[inline]
fn hdr(base: *mut u8) -> *mut Header {
    base.cast()
}

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
unsafe fn tlsf_malloc(ctl: &AllocCtl, n: usize) -> *mut u8 {
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

/// Slots per slab of a class with `slot` bytes per slot.
fn slab_slots(slot: usize) -> usize {
    (4096 / slot).clamp(8, 64)
}

/// Bitmap of a full slab.
fn full_mask(slots: usize) -> u64 {
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
unsafe fn reclaim_empty_slabs(base: *mut u8) -> bool {
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
unsafe fn slab_malloc(ctl: &AllocCtl, n: usize) -> *mut u8 {
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
unsafe fn slab_free(base: *mut u8, slot: usize) {
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

/// Put block `b` (allocated) back, coalescing with free neighbours.
unsafe fn free_block(base: *mut u8, b: usize) {
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

/// Resize the allocation at `p` (of `osize` requested bytes) to `nsize > 0` bytes.
unsafe fn realloc(ctl: &AllocCtl, p: *mut u8, osize: usize, nsize: usize) -> *mut u8 {
    let base = ctl.base;
    // SAFETY: `p` was returned by this allocator and is live (Lua's contract); offsets below
    // are derived from its block header and its neighbours'.
    unsafe {
        let h = hdr(base);
        let b = p.offset_from(base) as usize - BLOCK_HEADER;
        let word = rd(base, b);
        let size = (word & SIZE_MASK) as usize;
        if word & SLAB != 0 {
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
            slab_free(base, b);
            return q;
        }
        let pf = word & PREV_FREE;
        let want = match block_size(nsize) {
            Some(w) => w,
            None => return ptr::null_mut(),
        };
        if want <= size {
            // Shrink in place; never fails (Lua relies on it).
            if size - want >= MIN_BLOCK {
                wr(base, b, want as u32 | pf);
                let rest = b + want;
                wr(base, rest, (size - want) as u32);
                // `free_block` takes the tail off `used` and counts a free: uncount it.
                free_block(base, rest);
                (*h).frees -= 1;
            }
            return p;
        }
        if ctl.inject_failure() {
            return ptr::null_mut();
        }
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
                return p;
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
                return p;
            }
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

/// Check every allocator invariant by walking the heap.
unsafe fn check_heap(base: *mut u8, capacity: usize) -> Result<(), String> {
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
        if used != (*h).used {
            return Err(format!("used {} but blocks sum to {used}", (*h).used));
        }
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
                    if f < HEADER_SIZE || f >= top {
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
        let mut listed = 0usize;
        for c in 0..SMALL_CLASSES {
            let mut s = (*h).slabs[c] as usize;
            let mut prev = 0usize;
            while s != 0 {
                if s < HEADER_SIZE || s >= top || s <= prev {
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
        // Above the high-water mark everything is zero (sample the first page past it).
        let end = (top + BLOCK_HEADER + 4096).min(capacity);
        for off in top + BLOCK_HEADER..end {
            if base.add(off).read() != 0 {
                return Err(format!("nonzero byte above the high-water mark at {off}"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Call the allocator as Lua would.
    fn alloc(a: &Arena, p: *mut u8, osize: usize, nsize: usize) -> *mut u8 {
        // SAFETY: test-only; `p` is null or a live block of `a` of `osize` requested bytes.
        unsafe { lua_alloc(a.lua_ud(), p.cast(), osize, nsize).cast() }
    }

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    #[test]
    fn classes_are_consistent() {
        for size in (MIN_BLOCK..1 << 20).step_by(8) {
            let (fl, sl) = mapping_insert(size);
            assert!(fl < FL_COUNT && sl < SL_COUNT);
            let (sfl, ssl) = mapping_search(size);
            assert!((sfl, ssl) >= (fl, sl));
            // Every block in the search class is at least `size`: its class's lower bound is.
            let lower = if sfl == 0 {
                ssl * ALIGN
            } else {
                let log = sfl as u32 + SL_LOG2 + 2;
                (1 << log) + (ssl << (log - SL_LOG2))
            };
            assert!(lower >= size, "size {size}: class lower bound {lower}");
            assert_eq!(mapping_insert(lower), (sfl, ssl));
        }
    }

    /// Random Lua-like traffic: mallocs, frees, grows, shrinks; heap checked throughout, and
    /// payloads keep their contents.
    fn traffic(a: &Arena, seed: u64, steps: usize) -> Vec<usize> {
        let mut rng = Rng(seed);
        let mut live: Vec<(*mut u8, usize, u8)> = Vec::new();
        let mut offsets = Vec::new();
        for step in 0..steps {
            let r = rng.next();
            let size = match r % 10 {
                0..=6 => 1 + (r >> 8) as usize % 120,
                7 | 8 => 1 + (r >> 8) as usize % 2000,
                _ => 1 + (r >> 8) as usize % 40_000,
            };
            let op = (r >> 40) % 4;
            if live.is_empty() || op == 0 || (op == 1 && live.len() < 200) {
                let p = alloc(a, ptr::null_mut(), 0, size);
                if !p.is_null() {
                    let tag = (step % 251) as u8;
                    // SAFETY: a fresh block of at least `size` bytes.
                    unsafe { ptr::write_bytes(p, tag, size) };
                    offsets.push(p as usize - a.base() as usize);
                    live.push((p, size, tag));
                }
            } else {
                let i = (r >> 20) as usize % live.len();
                let (p, osize, tag) = live[i];
                // SAFETY: reading back a live block.
                let ok = unsafe { std::slice::from_raw_parts(p, osize) }
                    .iter()
                    .all(|&x| x == tag);
                assert!(ok, "block contents changed");
                if op == 1 {
                    alloc(a, p, osize, 0);
                    live.swap_remove(i);
                } else {
                    let q = alloc(a, p, osize, size);
                    if !q.is_null() {
                        // SAFETY: the resized block holds `size` bytes.
                        unsafe { ptr::write_bytes(q, tag, size) };
                        offsets.push(q as usize - a.base() as usize);
                        live[i] = (q, size, tag);
                    } else {
                        assert!(size > osize, "shrinking failed");
                    }
                }
            }
            if step % 97 == 0 {
                a.check().unwrap();
            }
        }
        a.check().unwrap();
        for (p, osize, _) in live.drain(..) {
            alloc(a, p, osize, 0);
        }
        a.check().unwrap();
        offsets
    }

    #[test]
    fn random_traffic_keeps_invariants_and_coalesces_fully() {
        let a = Arena::new(8 << 20, None).unwrap();
        traffic(&a, 0x1234_5678_9abc_def1, 20_000);
        let s = a.stats();
        assert_eq!(s.used, 0);
        // SAFETY: test-only; nothing is allocated.
        unsafe { reclaim_empty_slabs(a.base()) };
        a.check().unwrap();
        // Everything freed coalesced into one free block: a request of the whole heap fits
        // without moving the high-water mark.
        let heap = s.high_water - HEADER_SIZE - 2 * BLOCK_HEADER;
        let p = alloc(&a, ptr::null_mut(), 0, heap);
        assert!(!p.is_null());
        assert_eq!(a.stats().high_water, s.high_water);
        a.check().unwrap();
    }

    #[test]
    fn freed_memory_is_zero() {
        let a = Arena::new(1 << 20, None).unwrap();
        // A block at the top, freed: the sentinel above it now holds a boundary tag. A new
        // slab then grows that free block past the old sentinel, whose bytes land in a slot.
        let big = alloc(&a, ptr::null_mut(), 0, 2000);
        // SAFETY: a fresh block of 2000 bytes.
        unsafe { ptr::write_bytes(big, 0xAB, 2000) };
        alloc(&a, big, 2000, 0);
        let small = alloc(&a, ptr::null_mut(), 0, 48);
        assert!(!small.is_null());
        a.check().unwrap();
        // Slots and blocks read zero once freed.
        let mut live = Vec::new();
        for n in [8usize, 48, 200, 256, 300, 5000, 40_000] {
            let p = alloc(&a, ptr::null_mut(), 0, n);
            // SAFETY: a fresh block of `n` bytes.
            unsafe { ptr::write_bytes(p, 0xCD, n) };
            live.push((p, n));
        }
        for (p, n) in live {
            alloc(&a, p, n, 0);
            // SAFETY: test-only: the freed bytes are still inside the arena's mapping.
            let freed = unsafe { std::slice::from_raw_parts(p.add(8), n - 8) };
            assert!(freed.iter().all(|&x| x == 0), "{n} bytes not zeroed");
            a.check().unwrap();
        }
        // The check notices a stray write into free memory.
        // SAFETY: test-only: a byte inside the arena, in the freed 5000-byte block's payload.
        unsafe { small.add(8192).write(1) };
        assert!(a.check().is_err());
    }

    #[test]
    fn same_requests_give_same_offsets() {
        let a = Arena::new(8 << 20, None).unwrap();
        let b = Arena::new(8 << 20, None).unwrap();
        assert_eq!(traffic(&a, 42, 5000), traffic(&b, 42, 5000));
        assert_eq!(a.bytes(), b.bytes());
    }

    #[test]
    fn exhaustion_returns_null_and_recovers() {
        let a = Arena::new(MIN_CAPACITY, None).unwrap();
        let mut blocks = Vec::new();
        loop {
            let p = alloc(&a, ptr::null_mut(), 0, 1000);
            if p.is_null() {
                break;
            }
            blocks.push(p);
        }
        assert!(blocks.len() > 50);
        assert!(a.stats().high_water <= a.stats().capacity);
        // A huge request fails cleanly, and so does an overflowing one.
        assert!(alloc(&a, ptr::null_mut(), 0, usize::MAX - 3).is_null());
        assert!(alloc(&a, blocks[0], 1000, 1 << 40).is_null());
        for p in blocks.drain(..) {
            alloc(&a, p, 1000, 0);
        }
        a.check().unwrap();
        assert!(!alloc(&a, ptr::null_mut(), 0, 30_000).is_null());
    }

    #[test]
    fn failure_injection_counts_requests() {
        let a = Arena::new(1 << 20, None).unwrap();
        a.set_failure(AllocFailure::Once(3));
        let r: Vec<bool> = (0..5)
            .map(|_| alloc(&a, ptr::null_mut(), 0, 64).is_null())
            .collect();
        assert_eq!(r, [false, false, true, false, false]);
        a.set_failure(AllocFailure::From(2));
        let p = alloc(&a, ptr::null_mut(), 0, 64);
        assert!(!p.is_null());
        assert!(alloc(&a, ptr::null_mut(), 0, 64).is_null());
        // Shrinking never fails, even while injecting (it may move to a smaller slot).
        assert!(!alloc(&a, p, 64, 16).is_null());
        let big = {
            a.set_failure(AllocFailure::Off);
            let q = alloc(&a, ptr::null_mut(), 0, 5000);
            a.set_failure(AllocFailure::From(1));
            q
        };
        assert!(!big.is_null());
        assert_eq!(alloc(&a, big, 5000, 100), big);
        a.set_failure(AllocFailure::Off);
        a.check().unwrap();
    }

    #[test]
    fn restore_zeroes_above_the_mark() {
        let mut a = Arena::new(1 << 20, None).unwrap();
        let p = alloc(&a, ptr::null_mut(), 0, 100);
        let snap = a.bytes().to_vec();
        for _ in 0..50 {
            let q = alloc(&a, ptr::null_mut(), 0, 3000);
            // SAFETY: fresh block of 3000 bytes.
            unsafe { ptr::write_bytes(q, 0xAB, 3000) };
        }
        alloc(&a, p, 100, 0);
        // SAFETY: `snap` is an earlier `bytes()` of this arena; no Lua here.
        unsafe { a.restore(&snap) };
        assert_eq!(a.bytes(), &snap[..]);
        a.check().unwrap();
    }

    #[test]
    fn fixed_address_is_honoured() {
        let addr = 0x3a00_0000_0000usize;
        match Arena::new(1 << 20, Some(addr)) {
            Ok(a) => assert_eq!(a.base() as usize, addr),
            // Another test may hold the address; the error must be the clean one.
            Err(e) => assert!(matches!(e, ArenaError::Map(_) | ArenaError::BadAddress(_))),
        }
        assert!(matches!(
            Arena::new(1 << 20, Some(12345)),
            Err(ArenaError::BadAddress(_))
        ));
        assert!(matches!(
            Arena::new(100, None),
            Err(ArenaError::BadCapacity(_))
        ));
    }
}
