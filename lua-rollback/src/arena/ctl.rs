//! [`AllocCtl`], the allocator's host-side context (what `lua_Alloc`'s `ud` points to): the
//! arena's mapping and the failure-injection counters tests set ([`AllocFailure`]). It holds no
//! allocator state (that lives inside the arena), lives outside the arena (it is not rolled
//! back), at a stable address, for as long as the arena.

use std::cell::Cell;

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
pub(super) struct AllocCtl {
    /// Base address of the arena's mapping.
    pub(super) base: *mut u8,
    /// Bytes in the mapping.
    pub(super) capacity: usize,
    /// Failure injection state; requests counted since it was set.
    failure: Cell<AllocFailure>,
    /// Requests seen since `failure` was set.
    requests: Cell<u64>,
    /// Requests failed by injection since `failure` was set.
    injected: Cell<u64>,
}

impl AllocCtl {
    /// The context of an arena mapped at `base`, `capacity` bytes long; no failure injection.
    pub(super) fn new(base: *mut u8, capacity: usize) -> AllocCtl {
        AllocCtl {
            base,
            capacity,
            failure: Cell::new(AllocFailure::Off),
            requests: Cell::new(0),
            injected: Cell::new(0),
        }
    }

    /// Set failure injection; the request count starts over.
    pub(super) fn set_failure(&self, failure: AllocFailure) {
        self.failure.set(failure);
        self.requests.set(0);
        self.injected.set(0);
    }

    /// Requests failed by injection since the last [`AllocCtl::set_failure`].
    pub(super) fn injected(&self) -> u64 {
        self.injected.get()
    }

    /// Decide whether this (growing) request fails by injection.
    pub(super) fn inject_failure(&self) -> bool {
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
