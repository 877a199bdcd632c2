//! The arena side of a VM: snapshots, per-frame diffs, restore, and the arena's statistics,
//! failure injection and checks.
//!
//! Invariants: all of it takes `&mut self` (or `&self`), so no Lua call is running; a restore
//! takes only a snapshot of this very arena; before a snapshot, stale copies of host stack
//! addresses are scrubbed from the arena, so that a replay from another call depth gives the
//! same bytes.
#![expect(unsafe_code, reason = "restores and scrubs the arena's raw bytes")]

use std::ffi::c_void;
use std::ptr;

use super::state::RawVm;
use crate::arena::{AllocFailure, ArenaStats};
use crate::error::Error;
use crate::snapshot::Snapshot;

/// The calling thread's stack as an address range (`pthread_getattr_np`), cached per thread.
fn thread_stack() -> Option<std::ops::Range<u64>> {
    thread_local! {
        static STACK: Option<std::ops::Range<u64>> = {
            let mut attr = std::mem::MaybeUninit::<libc::pthread_attr_t>::uninit();
            // SAFETY: pthread_getattr_np initializes `attr` on success (checked), which is
            // then read and destroyed exactly once; the out-pointers are valid locals.
            unsafe {
                if libc::pthread_getattr_np(libc::pthread_self(), attr.as_mut_ptr()) != 0 {
                    None
                } else {
                    let mut addr: *mut c_void = ptr::null_mut();
                    let mut size: libc::size_t = 0;
                    let ok = libc::pthread_attr_getstack(attr.as_ptr(), &mut addr, &mut size);
                    libc::pthread_attr_destroy(attr.as_mut_ptr());
                    (ok == 0 && size > 0).then(|| addr as u64..addr as u64 + size as u64)
                }
            }
        };
    }
    STACK.with(Clone::clone)
}

impl RawVm {
    /// Zero the stale copies of host stack addresses that Lua leaves in the arena.
    ///
    /// Lua writes only the type tag of `nil`, `false` and `true` values (`setnilvalue`,
    /// `setbfvalue`, `setbtvalue`), so a stack slot or table field holding one keeps the
    /// payload bytes of whatever was there before, and copying the value copies them too. Some
    /// of those bytes are addresses on the host's C stack: `luaL_Buffer` (used by
    /// `string.format`, `table.concat`, `string.rep`…) pushes the address of the buffer
    /// structure, which lives on the C stack, as a placeholder. Such an address depends on how
    /// deep in the host's call stack the VM was called, so two runs that do the same thing
    /// would leave different arena bytes: a replay after a restore would not be byte-identical
    /// to the first run. Before every snapshot, words whose value lies inside the calling
    /// thread's stack are zeroed: no live Lua value ever points there while no Lua call is
    /// running (light userdata pointing to the C stack exist only during the C call that made
    /// them), so only meaningless payload bytes are touched.
    fn scrub_host_addresses(&mut self) {
        if let Some(stack) = thread_stack() {
            // SAFETY: `&mut self`: no Lua call is running; see the function's docs for why
            // no word in the stack range is meaningful.
            unsafe { self.arena.scrub(stack) };
        }
    }

    /// A snapshot of the arena, reusing `snap`'s buffer.
    pub(crate) fn snapshot_into(&mut self, snap: &mut Snapshot) {
        self.scrub_host_addresses();
        snap.arena_id = self.arena.id();
        snap.seq = self.next_seq;
        self.next_seq += 1;
        snap.bytes.clear();
        snap.bytes.extend_from_slice(self.arena.bytes());
    }

    /// Encode the diff from `snap` (a snapshot of this VM) to the live arena into `out`, and
    /// advance `snap` to the live state.
    pub(crate) fn snapshot_diff(
        &mut self,
        snap: &mut Snapshot,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        if snap.arena_id != self.arena.id() {
            return Err(Error::ForeignSnapshot);
        }
        // The scrub compares the arena with the snapshot span by span anyway: the spans it
        // finds changed are all the diff has to look at (unless tracking narrows it further).
        let scrubbed = match thread_stack() {
            Some(stack) => {
                // SAFETY: as in `scrub_host_addresses`; `snap` is this arena's snapshot from
                // the previous capture, scrubbed then, so only the blocks that changed can
                // hold stale host addresses.
                unsafe {
                    self.arena
                        .scrub_changed(&snap.bytes, stack, &mut self.changed)
                };
                true
            }
            None => false,
        };
        let seq = self.next_seq;
        self.next_seq += 1;
        // With tracking, the pages written since the last scan are the only ones that can
        // differ from the snapshot the arena matched then; scanning also starts the next
        // frame's tracking, with the new snapshot as its base.
        let len = self.arena.high_water().max(snap.bytes.len());
        let scanned = self.arena.tracking() && self.arena.take_written(len, &mut self.written);
        if scanned && self.tracked_seq == Some(snap.seq) {
            snap.advance_dirty(self.arena.bytes(), seq, &self.written, out);
        } else if scrubbed {
            snap.advance_dirty(self.arena.bytes(), seq, &self.changed, out);
        } else {
            snap.advance_to(self.arena.bytes(), seq, out);
        }
        self.tracked_seq = scanned.then_some(seq);
        Ok(())
    }

    /// Whether page-write tracking is on.
    pub(crate) fn tracking_writes(&self) -> bool {
        self.arena.tracking()
    }

    /// Put the arena back to a snapshot of it.
    pub(crate) fn restore(&mut self, snap: &Snapshot) -> Result<(), Error> {
        if snap.arena_id != self.arena.id() {
            return Err(Error::ForeignSnapshot);
        }
        // SAFETY: a `Snapshot` with this arena's id holds bytes this arena really had: they are
        // made only by `snapshot_into`/`snapshot_diff` from this arena, or by decoding sealed
        // encodings of such snapshots (checked with a per-process key), and its fields are
        // private to the crate. `&mut self` means no Lua call is running. The only arena
        // pointer kept host-side is the main thread, alive in every snapshot (it is created
        // first and never freed).
        unsafe { self.arena.restore(&snap.bytes) };
        Ok(())
    }

    /// Arena statistics.
    pub(crate) fn stats(&self) -> ArenaStats {
        self.arena.stats()
    }

    /// Failure injection.
    pub(crate) fn set_failure(&mut self, failure: AllocFailure) {
        self.arena.set_failure(failure);
    }

    /// Allocation requests failed by injection since the last `set_failure`.
    pub(crate) fn injected_failures(&self) -> u64 {
        self.arena.injected_failures()
    }

    /// Check the allocator's invariants.
    pub(crate) fn check(&self) -> Result<(), String> {
        self.arena.check()
    }

    /// Base address of the arena.
    pub(crate) fn base_address(&self) -> usize {
        self.arena.base() as usize
    }
}
