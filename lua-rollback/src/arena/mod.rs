//! The arena: one fixed mapping holding a whole Lua VM, with an allocator whose metadata lives
//! entirely inside it. This module reserves the mapping and is the [`Arena`] a VM holds: its
//! statistics, the bytes a snapshot copies, restore, and the scrubbing and page-write tracking
//! that snapshots use.
//!
//! # Parts
//!
//! * `layout`: the byte format — the allocator header at offset 0, block and slot headers,
//!   the sentinel at the high-water mark — and word access at offsets.
//! * `alloc`: Lua's allocator function (`lua_Alloc`), routing requests to slabs or TLSF, and
//!   failure injection ([`AllocFailure`]).
//! * `tlsf`: the two-level segregated fit allocator (O(1), splitting, immediate coalescing).
//! * `slab`: slots of one size class for requests up to 256 bytes (most Lua objects).
//! * `check`: the heap checker behind [`Arena::check`].
//! * `tracking`: which pages were written since the last diff (userfaultfd write protection).
//!
//! # Invariants
//!
//! * The mapping is reserved once, never moves and never grows; pages are committed as they
//!   are touched. It lies anywhere, at a given address, or at a slot of the portable window
//!   ([`window_address`]: fixed addresses that portable images can be restored at). All
//!   allocator state lives in its bytes, so copying them back restores the allocator too.
//! * Deterministic: the same requests from the same arena bytes give the same addresses.
//! * Everything above the high-water mark is zero; [`Arena::restore`] zeroes what lies above
//!   the snapshot's mark, so a restored arena is byte-identical to the snapshot.
//! * **Freed memory is zero.** Freeing zeroes the payload (a slot's, or a TLSF block's past its
//!   free-list links, together with the headers a coalesced block swallows). Free memory
//!   therefore holds nothing but zeros, links and slot headers: when the host collects a
//!   frame's garbage before taking the frame's snapshot
//!   ([`Vm::collect_frame`](crate::Vm::collect_frame)), the garbage leaves no trace in the
//!   arena, and a frame-to-frame XOR diff sees only what survived the frame. [`Arena::check`]
//!   verifies it.
#![expect(unsafe_code, reason = "maps, copies and unmaps the arena's memory")]

mod alloc;
mod check;
mod ctl;
pub(crate) mod layout;
mod slab;
#[cfg(test)]
mod tests;
mod tlsf;
mod tracking;

use std::ffi::c_void;
use std::ptr::{self, NonNull};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::ArenaError;

pub(crate) use alloc::lua_alloc;
pub use ctl::AllocFailure;

use ctl::AllocCtl;
use layout::{BLOCK_HEADER, HEADER_SIZE, Header, MAGIC, MAX_CAPACITY, MIN_CAPACITY};

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

/// Start of the portable window: arenas meant to move between processes (portable images)
/// are mapped at fixed addresses from here, where a Linux process has nothing mapped (16 TiB,
/// far from the program, its heap, its libraries and its stacks).
pub const WINDOW_BASE: usize = 0x1000_0000_0000;
/// Distance between two slots of the window: the largest arena.
pub const WINDOW_STRIDE: usize = 1 << 32;
/// Slots in the window.
pub const WINDOW_SLOTS: usize = 1024;

/// The address of slot `slot` (modulo [`WINDOW_SLOTS`]) of the portable window.
pub fn window_address(slot: usize) -> usize {
    WINDOW_BASE + (slot % WINDOW_SLOTS) * WINDOW_STRIDE
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
    /// Reserve `capacity` bytes at slot `slot` of the portable window ([`window_address`]), or
    /// at the first free slot after it.
    pub(crate) fn new_in_window(capacity: usize, slot: usize) -> Result<Arena, ArenaError> {
        let mut last = ArenaError::BadAddress(window_address(slot));
        for i in 0..WINDOW_SLOTS {
            match Arena::new(capacity, Some(window_address(slot + i))) {
                Ok(a) => return Ok(a),
                Err(e @ ArenaError::BadCapacity(_)) => return Err(e),
                Err(e) => last = e,
            }
        }
        Err(last)
    }

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
        let ctl = Box::new(AllocCtl::new(base, capacity));
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
        self.ctl().set_failure(failure);
    }

    /// Allocation requests failed by injection since the last `set_failure`.
    pub(crate) fn injected_failures(&self) -> u64 {
        self.ctl().injected()
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
    /// comparing is much cheaper than testing every word. Puts into `changed` (cleared first)
    /// the byte ranges, sorted and starting at multiples of 256, outside which the scrubbed
    /// arena and `prev` (both zero-extended) agree: what the frame's diff needs to compare.
    ///
    /// # Safety
    /// As [`Arena::scrub`].
    pub(crate) unsafe fn scrub_changed(
        &mut self,
        prev: &[u8],
        host: std::ops::Range<u64>,
        changed: &mut Vec<std::ops::Range<usize>>,
    ) -> usize {
        changed.clear();
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
            let at = i * 256;
            match changed.last_mut() {
                Some(r) if r.end == at => r.end = at + span.len(),
                _ => changed.push(at..at + span.len()),
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
        if prev.len() > len {
            // Past the live mark the arena is zero: where `prev` is longer, it may differ.
            let from = len / 256 * 256;
            match changed.last_mut() {
                Some(r) if r.end >= from => r.end = prev.len(),
                _ => changed.push(from..prev.len()),
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
        unsafe { check::check_heap(self.base(), self.ctl().capacity) }
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
