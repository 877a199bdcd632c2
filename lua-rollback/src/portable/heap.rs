//! Lua 5.4.9's heap as bytes: the object layouts a portable image depends on, and the walk
//! that finds every pointer leaving the arena.
//!
//! The walk reads a *copy* of an arena (a byte buffer and the address it was mapped at), never
//! the live arena, so it is safe code: every read is bounds-checked and a malformed buffer is
//! an [`ImageError::Corrupt`], never an out-of-bounds access. It follows only pointers into the
//! arena; the fields that point out of it are handed to a visitor ([`Ext`]), which exports them
//! as names or imports them as this process's addresses. On the way it canonicalises the bytes
//! that differ between two processes without meaning anything:
//!
//! * the payload of `nil`, `false` and `true` values (Lua writes only their tag, so the payload
//!   keeps whatever was there: stale addresses);
//! * the stack above each thread's top (dead slots) and the `CallInfo`s past the current one
//!   (Lua initialises both before use);
//! * the string cache of the C API (`g->strcache`, indexed by the *address* of C strings):
//!   every entry becomes the memory-error message, as `luaS_init` leaves it.
//!
//! Refused (no image can be made, [`ImageError::Unportable`]): light userdata in a live value,
//! and tables keyed by a light C function (their hash position depends on the function's
//! address, so the table would be wrong in another process).
//!
//! The offsets below are those of Lua 5.4.9 (`lobject.h`, `lstate.h`) on a 64-bit target with
//! the default `luaconf.h` (8-byte pointers, `lua_Number` a double, `LUA_EXTRASPACE` one
//! pointer); `LAYOUT_ID` in the image header changes whenever they do. `tests/it/image.rs`
//! checks them against a live state.

use crate::error::ImageError;

/// Bytes of a `TValue` (and of a stack slot).
const TVALUE: u64 = 16;
/// Extra slots Lua keeps above `stack_last` (`EXTRA_STACK`).
const EXTRA_STACK: u64 = 5;

// Type tags (`lua.h`, `lobject.h`): the low 4 bits are the type, bits 4-5 the variant.
const VFALSE: u8 = 0x01;
const VTRUE: u8 = 0x11;
const VLIGHTUSERDATA: u8 = 0x02;
const VLCF: u8 = 0x16;
const VTABLE: u8 = 0x05;
const VSHRSTR: u8 = 0x04;
const VLNGSTR: u8 = 0x14;
const VLCL: u8 = 0x06;
const VCCL: u8 = 0x26;
const VUSERDATA: u8 = 0x07;
const VTHREAD: u8 = 0x08;
const VUPVAL: u8 = 0x09;
const VPROTO: u8 = 0x0a;

/// Common header of a collectable object: `next`, `tt`.
pub(crate) mod gco {
    pub const NEXT: u64 = 0;
    pub const TT: u64 = 8;
}

/// `TString`.
pub(crate) mod tstring {
    pub const SHRLEN: u64 = 11;
    pub const LNGLEN: u64 = 16;
    pub const CONTENTS: u64 = 24;
}

/// `Table` and its `Node`s.
pub(crate) mod table {
    pub const FLAGS: u64 = 10;
    pub const LSIZENODE: u64 = 11;
    pub const ALIMIT: u64 = 12;
    pub const ARRAY: u64 = 16;
    pub const NODE: u64 = 24;
    pub const LASTFREE: u64 = 32;
    pub const METATABLE: u64 = 40;
    /// Bytes of a `Node`.
    pub const NODE_SIZE: u64 = 24;
    /// A node's key tag and key value.
    pub const KEY_TT: u64 = 9;
    pub const KEY_VAL: u64 = 16;
    /// `flags` bit: `alimit` is not the real size of the array part.
    pub const BITRAS: u8 = 0x80;
}

/// `CClosure` and `LClosure`.
pub(crate) mod closure {
    pub const NUPVALUES: u64 = 10;
    pub const F: u64 = 24;
    pub const C_UPVALUES: u64 = 32;
    pub const L_UPVALS: u64 = 32;
}

/// `UpVal`.
pub(crate) mod upval {
    pub const V: u64 = 16;
    pub const VALUE: u64 = 24;
}

/// `Udata`.
pub(crate) mod udata {
    pub const NUVALUE: u64 = 10;
    pub const METATABLE: u64 = 24;
    pub const UV: u64 = 40;
}

/// `Proto`.
pub(crate) mod proto {
    pub const SIZEK: u64 = 20;
    pub const K: u64 = 56;
}

/// `lua_State` (a thread) and its `CallInfo`s.
pub(crate) mod thread {
    /// The extra space (`LUA_EXTRASPACE`) lies just before the state.
    pub const EXTRA: u64 = 8;
    pub const STATUS: u64 = 10;
    /// `status` of a suspended coroutine.
    pub const LUA_YIELD: u8 = 1;
    pub const TOP: u64 = 16;
    pub const L_G: u64 = 24;
    pub const CI: u64 = 32;
    pub const STACK_LAST: u64 = 40;
    pub const STACK: u64 = 48;
    pub const ERROR_JMP: u64 = 88;
    pub const BASE_CI: u64 = 96;
    pub const HOOK: u64 = 160;
    /// `CallInfo` fields and size.
    pub const CI_NEXT: u64 = 24;
    pub const CI_U: u64 = 32;
    pub const CI_U2: u64 = 56;
    pub const CI_CALLSTATUS: u64 = 62;
    pub const CI_SIZE: u64 = 64;
    /// `callstatus` bit: the call runs a C function.
    pub const CIST_C: u16 = 1 << 1;
}

/// `global_State`.
pub(crate) mod global {
    pub const FREALLOC: u64 = 0;
    pub const UD: u64 = 8;
    pub const L_REGISTRY: u64 = 64;
    pub const NILVALUE: u64 = 80;
    pub const ALLGC: u64 = 112;
    pub const FINOBJ: u64 = 128;
    pub const TOBEFNZ: u64 = 176;
    pub const FIXEDGC: u64 = 184;
    pub const PANIC: u64 = 256;
    pub const MAINTHREAD: u64 = 264;
    pub const MEMERRMSG: u64 = 272;
    #[cfg(test)]
    pub const TMNAME: u64 = 280;
    pub const MT: u64 = 480;
    /// Basic types with a metatable slot (`LUA_NUMTYPES`).
    pub const NUM_TYPES: u64 = 9;
    pub const STRCACHE: u64 = 552;
    /// Entries of the string cache (`STRCACHE_N * STRCACHE_M`).
    pub const STRCACHE_LEN: u64 = 106;
    pub const WARNF: u64 = 1400;
    pub const UD_WARN: u64 = 1408;
}

/// A pointer field that leaves the arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ext {
    /// Code: a C function, a continuation, a hook, the allocator (null allowed).
    Code,
    /// The static empty node of tables without a hash part (`dummynode`).
    DummyNode,
    /// A thread's extra space: the host's control block.
    Control,
    /// The allocator's `ud`: the host's allocator context.
    AllocUd,
}

/// An arena copy: its bytes and the address they were mapped at.
pub(crate) struct Heap<'a> {
    pub(crate) bytes: &'a mut [u8],
    pub(crate) base: u64,
}

impl Heap<'_> {
    /// The buffer offset of `len` bytes at `addr`, if they lie inside it.
    fn at(&self, addr: u64, len: u64) -> Result<usize, ImageError> {
        addr.checked_sub(self.base)
            .filter(|o| {
                o.checked_add(len)
                    .is_some_and(|e| e <= self.bytes.len() as u64)
            })
            .map(|o| o as usize)
            .ok_or(ImageError::Corrupt("a pointer leaves the arena"))
    }

    pub(crate) fn u8(&self, addr: u64) -> Result<u8, ImageError> {
        Ok(self.bytes[self.at(addr, 1)?])
    }

    pub(crate) fn u16(&self, addr: u64) -> Result<u16, ImageError> {
        let o = self.at(addr, 2)?;
        Ok(u16::from_le_bytes([self.bytes[o], self.bytes[o + 1]]))
    }

    pub(crate) fn u32(&self, addr: u64) -> Result<u32, ImageError> {
        let o = self.at(addr, 4)?;
        let mut b = [0; 4];
        b.copy_from_slice(&self.bytes[o..o + 4]);
        Ok(u32::from_le_bytes(b))
    }

    pub(crate) fn u64(&self, addr: u64) -> Result<u64, ImageError> {
        let o = self.at(addr, 8)?;
        let mut b = [0; 8];
        b.copy_from_slice(&self.bytes[o..o + 8]);
        Ok(u64::from_le_bytes(b))
    }

    pub(crate) fn set_u64(&mut self, addr: u64, v: u64) -> Result<(), ImageError> {
        let o = self.at(addr, 8)?;
        self.bytes[o..o + 8].copy_from_slice(&v.to_le_bytes());
        Ok(())
    }

    fn zero(&mut self, addr: u64, len: u64) -> Result<(), ImageError> {
        let o = self.at(addr, len)?;
        self.bytes[o..o + len as usize].fill(0);
        Ok(())
    }

    /// Whether `addr` lies inside the arena copy.
    pub(crate) fn contains(&self, addr: u64) -> bool {
        self.at(addr, 1).is_ok()
    }

    /// The global state of the VM whose main thread is at `main`.
    pub(crate) fn global(&self, main: u64) -> Result<u64, ImageError> {
        let g = self.u64(main + thread::L_G)?;
        if self.u64(g + global::MAINTHREAD)? != main {
            return Err(ImageError::Corrupt(
                "the main thread is not the global state's",
            ));
        }
        Ok(g)
    }

    /// The size of a table's array part (`luaH_realasize`).
    pub(crate) fn array_size(&self, t: u64) -> Result<u64, ImageError> {
        let limit = u64::from(self.u32(t + table::ALIMIT)?);
        let flags = self.u8(t + table::FLAGS)?;
        if flags & table::BITRAS == 0 || limit & limit.wrapping_sub(1) == 0 {
            Ok(limit)
        } else {
            Ok(limit.next_power_of_two())
        }
    }

    /// The contents of the string object at `s`.
    pub(crate) fn string(&self, s: u64) -> Result<&[u8], ImageError> {
        let short = self.u8(s + tstring::SHRLEN)?;
        let len = if short == 0xff {
            self.u64(s + tstring::LNGLEN)?
        } else {
            u64::from(short)
        };
        let o = self.at(s + tstring::CONTENTS, len)?;
        Ok(&self.bytes[o..o + len as usize])
    }
}

/// What the walk does with a pointer that leaves the arena: called with the field's address.
pub(crate) type Visit<'v> = dyn FnMut(&mut Heap<'_>, u64, Ext) -> Result<(), ImageError> + 'v;

/// Walk the whole heap of the VM whose main thread is at `main`: canonicalise it in place and
/// hand every pointer leaving the arena to `visit` (in a fixed order: the same heap gives the
/// same sequence of calls).
pub(crate) fn walk(
    heap: &mut Heap<'_>,
    main: u64,
    visit: &mut Visit<'_>,
) -> Result<(), ImageError> {
    let g = heap.global(main)?;
    visit(heap, g + global::FREALLOC, Ext::Code)?;
    visit(heap, g + global::UD, Ext::AllocUd)?;
    visit(heap, g + global::PANIC, Ext::Code)?;
    visit(heap, g + global::WARNF, Ext::Code)?;
    if heap.u64(g + global::UD_WARN)? != 0 {
        return Err(ImageError::Unportable(
            "a warning function with host data".into(),
        ));
    }
    value(heap, g + global::L_REGISTRY, visit)?;
    value(heap, g + global::NILVALUE, visit)?;
    let memerr = heap.u64(g + global::MEMERRMSG)?;
    for i in 0..global::STRCACHE_LEN {
        heap.set_u64(g + global::STRCACHE + 8 * i, memerr)?;
    }
    // Every collectable object, the main thread included, is on exactly one of these lists; a
    // list longer than the arena has room for objects is a cycle.
    let limit = heap.bytes.len() / 16;
    for list in [
        global::ALLGC,
        global::FINOBJ,
        global::TOBEFNZ,
        global::FIXEDGC,
    ] {
        let mut o = heap.u64(g + list)?;
        let mut n = 0;
        while o != 0 {
            object(heap, o, visit)?;
            o = heap.u64(o + gco::NEXT)?;
            n += 1;
            if n > limit {
                return Err(ImageError::Corrupt("an object list loops"));
            }
        }
    }
    Ok(())
}

/// One `TValue` at `at`.
fn value(heap: &mut Heap<'_>, at: u64, visit: &mut Visit<'_>) -> Result<(), ImageError> {
    match heap.u8(at + 8)? {
        VLCF => visit(heap, at, Ext::Code),
        VLIGHTUSERDATA => Err(ImageError::Unportable(
            "a light userdata (a host pointer) is alive in the VM".into(),
        )),
        t if t & 0x0f == 0 || t == VFALSE || t == VTRUE => heap.set_u64(at, 0),
        _ => Ok(()),
    }
}

/// `n` consecutive `TValue`s from `at`.
fn values(heap: &mut Heap<'_>, at: u64, n: u64, visit: &mut Visit<'_>) -> Result<(), ImageError> {
    if n > 0 {
        heap.at(
            at,
            n.checked_mul(TVALUE).ok_or(ImageError::Corrupt("size"))?,
        )?;
    }
    for i in 0..n {
        value(heap, at + i * TVALUE, visit)?;
    }
    Ok(())
}

fn object(heap: &mut Heap<'_>, o: u64, visit: &mut Visit<'_>) -> Result<(), ImageError> {
    match heap.u8(o + gco::TT)? {
        VTABLE => {
            let asize = heap.array_size(o)?;
            let array = heap.u64(o + table::ARRAY)?;
            values(heap, array, asize, visit)?;
            if heap.u64(o + table::LASTFREE)? == 0 {
                // No hash part: `node` is Lua's static empty node.
                return visit(heap, o + table::NODE, Ext::DummyNode);
            }
            let node = heap.u64(o + table::NODE)?;
            let lsize = heap.u8(o + table::LSIZENODE)?;
            if lsize >= 40 {
                return Err(ImageError::Corrupt("a table's hash part is too large"));
            }
            let n = 1u64 << lsize;
            heap.at(node, n * table::NODE_SIZE)?;
            for i in 0..n {
                let at = node + i * table::NODE_SIZE;
                value(heap, at, visit)?;
                match heap.u8(at + table::KEY_TT)? {
                    VLCF | VLIGHTUSERDATA => {
                        return Err(ImageError::Unportable(
                            "a table is keyed by a C function or a light userdata \
                             (its place in the table depends on the process)"
                                .into(),
                        ));
                    }
                    t if t & 0x0f == 0 || t == VFALSE || t == VTRUE => {
                        heap.set_u64(at + table::KEY_VAL, 0)?;
                    }
                    _ => {}
                }
            }
            Ok(())
        }
        VCCL => {
            visit(heap, o + closure::F, Ext::Code)?;
            let n = u64::from(heap.u8(o + closure::NUPVALUES)?);
            values(heap, o + closure::C_UPVALUES, n, visit)
        }
        VUPVAL => {
            // Closed: `v` points at its own value. Open: at a stack slot (walked with its thread).
            if heap.u64(o + upval::V)? == o + upval::VALUE {
                value(heap, o + upval::VALUE, visit)?;
            }
            Ok(())
        }
        VUSERDATA => {
            let n = u64::from(heap.u16(o + udata::NUVALUE)?);
            values(heap, o + udata::UV, n, visit)
        }
        VTHREAD => thread_state(heap, o, visit),
        VPROTO => {
            let n = u64::from(heap.u32(o + proto::SIZEK)?);
            let k = heap.u64(o + proto::K)?;
            values(heap, k, n, visit)
        }
        VSHRSTR | VLNGSTR | VLCL => Ok(()),
        _ => Err(ImageError::Corrupt("an object of unknown type")),
    }
}

/// A thread: its extra space and hook, its live stack, its live `CallInfo`s; dead slots and
/// spare `CallInfo`s are zeroed.
fn thread_state(heap: &mut Heap<'_>, l: u64, visit: &mut Visit<'_>) -> Result<(), ImageError> {
    let extra = l
        .checked_sub(thread::EXTRA)
        .ok_or(ImageError::Corrupt("thread address"))?;
    visit(heap, extra, Ext::Control)?;
    visit(heap, l + thread::HOOK, Ext::Code)?;
    if heap.u64(l + thread::ERROR_JMP)? != 0 {
        return Err(ImageError::Unportable(
            "a thread is inside a protected call".into(),
        ));
    }
    let stack = heap.u64(l + thread::STACK)?;
    let top = heap.u64(l + thread::TOP)?;
    let end = heap
        .u64(l + thread::STACK_LAST)?
        .checked_add(EXTRA_STACK * TVALUE)
        .ok_or(ImageError::Corrupt("stack"))?;
    if !(stack <= top && top <= end) || (top - stack) % TVALUE != 0 || (end - top) % TVALUE != 0 {
        return Err(ImageError::Corrupt("a thread's stack bounds"));
    }
    values(heap, stack, (top - stack) / TVALUE, visit)?;
    heap.zero(top, end - top)?;
    let current = heap.u64(l + thread::CI)?;
    // Only a suspended thread resumes its C calls (through their continuations); in any other
    // thread (idle, finished, dead with an error) a C call's continuation field is stale.
    let suspended = heap.u8(l + thread::STATUS)? == thread::LUA_YIELD;
    let mut ci = l + thread::BASE_CI;
    let mut live = true;
    let limit = heap.bytes.len() as u64 / thread::CI_SIZE;
    for _ in 0..=limit {
        if live {
            if heap.u16(ci + thread::CI_CALLSTATUS)? & thread::CIST_C != 0 {
                if suspended {
                    visit(heap, ci + thread::CI_U, Ext::Code)?;
                } else {
                    heap.zero(ci + thread::CI_U, thread::CI_U2 - thread::CI_U)?;
                }
            }
        } else {
            heap.zero(ci, 16)?;
            heap.zero(ci + thread::CI_U, thread::CI_SIZE - thread::CI_U)?;
        }
        if ci == current {
            live = false;
        }
        ci = heap.u64(ci + thread::CI_NEXT)?;
        if ci == 0 {
            return if live {
                Err(ImageError::Corrupt(
                    "a thread's current call is not in its list",
                ))
            } else {
                Ok(())
            };
        }
    }
    Err(ImageError::Corrupt("a thread's call list loops"))
}
