//! The catalog: a stable name for every piece of code (and static data) a VM's heap can point
//! to, so that an image names them instead of holding this process's addresses.
//!
//! Names come from two places. Our own C functions (the allocator, the hook, the trampoline,
//! the continuations…) and Lua's static empty table node are listed by the FFI layer
//! (`ffi::image::known_code`). Every other C function — the standard libraries' and the static
//! helpers they hand out (`ipairs`'s iterator, `string.gmatch`'s, `coroutine.wrap`'s,
//! `utf8.codes`'s, `pcall`'s continuation, the buffer box's `__gc`…) — is found in a scratch
//! VM built like every VM, after a short script has produced each of those helpers: a
//! breadth-first walk from the registry and the basic types' metatables names each function
//! by the first path that reaches it (keys in byte order, so the name does not depend on
//! addresses or hash order), e.g. `mt4.__index.format` or `reg[2].__catalog.gmatch#f`.
//!
//! Invariant: the catalog is the same in every process of the same build (the scratch VM and
//! the walk are deterministic), and two builds of the same image format give the same names
//! to the same functions.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use super::heap::{Heap, closure, gco, global, table, thread, udata, upval};
use crate::error::ImageError;

/// Lua run in the scratch VM so that every static helper function exists somewhere reachable.
pub(crate) const RECIPES: &str = r#"
local pco = coroutine.create(function() pcall(coroutine.yield) end)
coroutine.resume(pco)
local xco = coroutine.create(function() xpcall(coroutine.yield, print) end)
coroutine.resume(xco)
__catalog = {
  empty = {},
  ipairs = (ipairs({})),
  gmatch = string.gmatch("", ""),
  wrap = coroutine.wrap(function() end),
  codes = (utf8.codes("")),
  codes_lax = (utf8.codes("", true)),
  pcall = pco,
  xpcall = xco,
  buffer = #string.rep("x", 100000),
}
"#;

/// Names and addresses of code, both ways.
pub(crate) struct Catalog {
    names: HashMap<u64, String>,
    addresses: HashMap<String, u64>,
}

impl Catalog {
    /// The name of the code at `addr`.
    pub(crate) fn name(&self, addr: u64) -> Option<&str> {
        self.names.get(&addr).map(String::as_str)
    }

    /// The address of the code called `name` in this process.
    pub(crate) fn address(&self, name: &str) -> Option<u64> {
        self.addresses.get(name).copied()
    }

    fn add(&mut self, name: String, addr: u64) {
        if addr != 0 && !self.names.contains_key(&addr) && !self.addresses.contains_key(&name) {
            self.addresses.insert(name.clone(), addr);
            self.names.insert(addr, name);
        }
    }
}

impl Catalog {
    /// The catalog of `known` (this crate's code, by name) and of every C function reachable
    /// in a scratch VM's heap (a snapshot's bytes, mapped at `heap.base`, main thread at
    /// `main`) that ran [`RECIPES`].
    pub(crate) fn build(
        known: Vec<(&'static str, usize)>,
        heap: &Heap<'_>,
        main: u64,
    ) -> Result<Catalog, ImageError> {
        let mut cat = Catalog {
            names: HashMap::new(),
            addresses: HashMap::new(),
        };
        for (name, addr) in known {
            cat.add(name.to_owned(), addr as u64);
        }
        Walker {
            heap,
            cat: &mut cat,
            seen: HashSet::new(),
            queue: VecDeque::new(),
        }
        .run(main)?;
        Ok(cat)
    }
}

/// Something to visit, with the path that reached it.
enum Item {
    /// A `TValue` at this address.
    Value(u64),
    /// A collectable object.
    Object(u64),
}

struct Walker<'h, 'b> {
    heap: &'h Heap<'b>,
    cat: &'h mut Catalog,
    seen: HashSet<u64>,
    queue: VecDeque<(String, Item)>,
}

impl Walker<'_, '_> {
    fn run(mut self, main: u64) -> Result<(), ImageError> {
        let g = self.heap.global(main)?;
        self.queue
            .push_back(("reg".into(), Item::Value(g + global::L_REGISTRY)));
        for i in 0..global::NUM_TYPES {
            let mt = self.heap.u64(g + global::MT + 8 * i)?;
            if mt != 0 {
                self.queue.push_back((format!("mt{i}"), Item::Object(mt)));
            }
        }
        while let Some((path, item)) = self.queue.pop_front() {
            match item {
                Item::Value(at) => self.value(path, at)?,
                Item::Object(o) => self.object(path, o)?,
            }
        }
        Ok(())
    }

    fn value(&mut self, path: String, at: u64) -> Result<(), ImageError> {
        let tt = self.heap.u8(at + 8)?;
        let v = self.heap.u64(at)?;
        if tt == 0x16 {
            self.cat.add(path, v);
        } else if tt & 0x40 != 0 {
            self.queue.push_back((path, Item::Object(v)));
        }
        Ok(())
    }

    fn object(&mut self, path: String, o: u64) -> Result<(), ImageError> {
        if !self.seen.insert(o) {
            return Ok(());
        }
        let h = self.heap;
        match h.u8(o + gco::TT)? {
            0x05 => {
                let mt = h.u64(o + table::METATABLE)?;
                if mt != 0 {
                    self.queue
                        .push_back((format!("{path}#mt"), Item::Object(mt)));
                }
                let mut entries = BTreeMap::new();
                let array = h.u64(o + table::ARRAY)?;
                for i in 0..h.array_size(o)? {
                    entries.insert(format!("[{}]", i + 1).into_bytes(), array + 16 * i);
                }
                if h.u64(o + table::LASTFREE)? == 0 {
                    self.cat
                        .add("lua:dummynode".into(), h.u64(o + table::NODE)?);
                } else {
                    let node = h.u64(o + table::NODE)?;
                    for i in 0..1u64 << h.u8(o + table::LSIZENODE)? {
                        let at = node + i * table::NODE_SIZE;
                        let key = h.u64(at + table::KEY_VAL)?;
                        let name = match h.u8(at + table::KEY_TT)? {
                            0x44 | 0x54 => {
                                let mut k = b".".to_vec();
                                k.extend_from_slice(h.string(key)?);
                                k
                            }
                            0x03 => format!("[{}]", key as i64).into_bytes(),
                            _ => continue,
                        };
                        entries.insert(name, at);
                    }
                }
                for (k, at) in entries {
                    self.queue.push_back((
                        format!("{path}{}", String::from_utf8_lossy(&k)),
                        Item::Value(at),
                    ));
                }
            }
            0x26 => {
                self.cat.add(format!("{path}#f"), h.u64(o + closure::F)?);
                for i in 0..u64::from(h.u8(o + closure::NUPVALUES)?) {
                    self.queue.push_back((
                        format!("{path}#u{i}"),
                        Item::Value(o + closure::C_UPVALUES + 16 * i),
                    ));
                }
            }
            0x06 => {
                for i in 0..u64::from(h.u8(o + closure::NUPVALUES)?) {
                    let uv = h.u64(o + closure::L_UPVALS + 8 * i)?;
                    if uv != 0 {
                        let at = h.u64(uv + upval::V)?;
                        self.queue
                            .push_back((format!("{path}#u{i}"), Item::Value(at)));
                    }
                }
            }
            0x07 => {
                let mt = h.u64(o + udata::METATABLE)?;
                if mt != 0 {
                    self.queue
                        .push_back((format!("{path}#mt"), Item::Object(mt)));
                }
                for i in 0..u64::from(h.u16(o + udata::NUVALUE)?) {
                    self.queue
                        .push_back((format!("{path}#uv{i}"), Item::Value(o + udata::UV + 16 * i)));
                }
            }
            0x08 => {
                let current = h.u64(o + thread::CI)?;
                let mut ci = o + thread::BASE_CI;
                let mut depth = 0;
                loop {
                    if h.u16(ci + thread::CI_CALLSTATUS)? & thread::CIST_C != 0 {
                        self.cat
                            .add(format!("{path}#k{depth}"), h.u64(ci + thread::CI_U)?);
                    }
                    if ci == current || depth > 200 {
                        break;
                    }
                    ci = h.u64(ci + thread::CI_NEXT)?;
                    depth += 1;
                }
                let stack = h.u64(o + thread::STACK)?;
                let top = h.u64(o + thread::TOP)?;
                for i in 0..(top.saturating_sub(stack) / 16).min(1000) {
                    self.queue
                        .push_back((format!("{path}#s{i}"), Item::Value(stack + 16 * i)));
                }
            }
            _ => {}
        }
        Ok(())
    }
}
