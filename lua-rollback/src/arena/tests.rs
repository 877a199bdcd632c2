//! Unit tests of the arena: size classes, random Lua-like traffic against the heap checker,
//! zeroed free memory, determinism, exhaustion, failure injection, restore, fixed addresses.
#![expect(
    unsafe_code,
    reason = "calls the allocator and inspects raw memory, as Lua does"
)]

use std::ptr;

use super::alloc::lua_alloc;
use super::layout::{
    ALIGN, BLOCK_HEADER, FL_COUNT, HEADER_SIZE, MIN_BLOCK, MIN_CAPACITY, SL_COUNT, SL_LOG2,
};
use super::slab::reclaim_empty_slabs;
use super::tlsf::{mapping_insert, mapping_search};
use super::{AllocFailure, Arena};
use crate::error::ArenaError;

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
