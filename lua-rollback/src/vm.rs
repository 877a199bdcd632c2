//! The safe VM API: configuration, building with host functions, running code (with or
//! without a [`Host`]), snapshots.

use std::ffi::{CString, c_void};

use crate::arena::{AllocFailure, ArenaStats};
use crate::error::Error;
use crate::ffi::{GC_FRAME, GcMode, HostBinding, HostCall, HostFn, RawConfig, RawVm};
use crate::host::Host;
use crate::portable::{self, Catalog, ImageError, ImageInfo, ImageKey};
use crate::snapshot::Snapshot;
use crate::value::{Resume, Value};

/// How a [`Vm`] is set up.
#[derive(Clone, Debug)]
pub struct VmConfig {
    /// Bytes reserved for the arena: the VM's memory cap (pages are committed only when
    /// touched, so a generous cap costs nothing until used). 64 KiB ..= 4 GiB - 4 KiB.
    pub arena_capacity: usize,
    /// Map the arena at this page-aligned address (or fail), so that addresses — and with them
    /// `tostring(table)`, `%p` and `pairs()` over table keys — are the same in every process.
    pub fixed_address: Option<usize>,
    /// Without `fixed_address`: map the arena at this slot of the portable window
    /// ([`window_address`](crate::window_address)), or at the first free slot after it, so
    /// that its images ([`Vm::export_image`]) can be restored in another process (which maps
    /// its VM at the image's address). `None`: anywhere.
    pub window_slot: Option<usize>,
    /// Lua instructions one host call (exec, call, resume, gc) may run; `None` for no limit.
    pub instruction_budget: Option<u64>,
    /// Garbage-collector mode.
    pub gc: GcMode,
    /// Seed of `math.random`.
    pub random_seed: i64,
    /// Bytes `print` may buffer between two [`Vm::take_output`] calls; the rest is dropped.
    pub output_limit: usize,
    /// Failure injection while building (tests of the init path).
    pub alloc_failure: AllocFailure,
    /// Track which arena pages are written, so that [`Vm::snapshot_diff`] compares only
    /// those instead of the whole arena (Linux 6.7+: userfaultfd write protection in
    /// asynchronous mode, read with `PAGEMAP_SCAN`; no signal handler). Where unsupported the
    /// VM silently compares everything ([`Vm::tracking_writes`] tells). The diffs are the same
    /// either way. Costs a minor page fault at the first write to each page per frame
    /// (roughly 0.5–1 µs each), which moves time from the diff into the script.
    pub track_writes: bool,
}

impl Default for VmConfig {
    fn default() -> Self {
        VmConfig {
            arena_capacity: 16 << 20,
            fixed_address: None,
            window_slot: None,
            instruction_budget: Some(10_000_000),
            gc: GcMode::Generational {
                minor_multiplier: 0,
                major_multiplier: 0,
            },
            random_seed: 0x5eed,
            output_limit: 1 << 20,
            alloc_failure: AllocFailure::Off,
            track_writes: false,
        }
    }
}

/// Builds a [`Vm`]: host functions can be registered only here, before any script runs.
pub struct VmBuilder {
    config: VmConfig,
    host: *mut c_void,
    functions: Vec<HostBinding>,
    bad_name: bool,
}

impl VmBuilder {
    /// The pointer raw host functions ([`VmBuilder::function`]) get from
    /// [`host_context`](crate::host_context). It must stay valid for as long as host functions
    /// may dereference it (the VM never does). Safe host functions
    /// ([`VmBuilder::host_function`]) do not need it.
    pub fn host_context(mut self, host: *mut c_void) -> Self {
        self.host = host;
        self
    }

    /// Register host function number `id` as the global `name`, or as `table.name` for a
    /// dotted path (the table is created if needed). When a script calls it during
    /// [`Vm::exec_with`], [`Vm::call_with`] or [`Vm::resume_with`], that call's
    /// [`Host::call`] runs with `id` and the arguments; elsewhere it raises the Lua error
    /// "host function called outside a host call". Names must not contain NUL bytes or more
    /// than one dot ([`Error::BadName`] from [`VmBuilder::build`]). This is the way to give
    /// scripts host functions; see the `Host` docs.
    pub fn host_function(self, path: &str, id: u32) -> Self {
        self.bind(path, HostCall::Id(id))
    }

    /// Register, as the global `name` or `table.name`, a function that makes host functions on
    /// demand: called with a number `id`, it returns the host function `id` (as
    /// [`VmBuilder::host_function`] registers it). For families of host functions a script
    /// may never use: only the ones asked for take room in the arena.
    pub fn host_function_factory(self, path: &str) -> Self {
        self.bind(path, HostCall::Raw(crate::ffi::host_factory))
    }

    /// Register a raw C host function as the global `name`, or as `table.name` for a dotted
    /// path (the table is created if needed). Names must not contain NUL bytes. Writing one
    /// takes `unsafe` code and the rules of the crate docs; prefer
    /// [`VmBuilder::host_function`].
    pub fn function(self, path: &str, f: HostFn) -> Self {
        self.bind(path, HostCall::Raw(f))
    }

    fn bind(mut self, path: &str, f: HostCall) -> Self {
        let (table, name) = match path.split_once('.') {
            Some((t, n)) => (Some(t), n),
            None => (None, path),
        };
        let table = table.map(CString::new).transpose();
        let name = CString::new(name);
        match (table, name) {
            (Ok(table), Ok(name)) if !name.is_empty() && !name.as_bytes().contains(&b'.') => {
                self.functions.push(HostBinding { table, name, f });
            }
            _ => self.bad_name = true,
        }
        self
    }

    /// Create the VM: reserve the arena, create the state, open the sandboxed libraries and
    /// install the host functions.
    pub fn build(self) -> Result<Vm, Error> {
        if self.bad_name {
            return Err(Error::BadName);
        }
        let c = &self.config;
        let raw = RawVm::new(&RawConfig {
            capacity: c.arena_capacity,
            fixed_address: c.fixed_address,
            window_slot: c.window_slot,
            budget: c.instruction_budget,
            gc: c.gc,
            random_seed: c.random_seed,
            output_limit: c.output_limit,
            host: self.host,
            functions: &self.functions,
            failure: c.alloc_failure,
            track_writes: c.track_writes,
        })?;
        let mut vm = Vm { raw };
        vm.raw.set_failure(AllocFailure::Off);
        Ok(vm)
    }

    /// Create the VM a portable image was made from, in its state: the arena is mapped at the
    /// image's address with its capacity (overriding the configuration's placement and
    /// capacity; [`ArenaError::BadAddress`](crate::ArenaError::BadAddress) when that range is
    /// taken), built as [`VmBuilder::build`] does, then restored from the image (see
    /// [`Vm::load_image`]). Register the same host functions as the exporting VM had.
    pub fn build_from_image(mut self, key: &ImageKey, image: &[u8]) -> Result<Vm, Error> {
        let info = portable::info(image)?;
        self.config.fixed_address = Some(info.address);
        self.config.arena_capacity = info.capacity;
        let mut vm = self.build()?;
        vm.load_image(key, image)?;
        Ok(vm)
    }
}

/// A sandboxed Lua 5.4 VM living in its own arena, that snapshots and restores byte-exactly.
///
/// Every method takes `&mut self`: no snapshot or restore can happen while Lua runs. After
/// any error the VM stays usable.
pub struct Vm {
    raw: RawVm,
}

fn cstring(s: &str) -> Result<CString, Error> {
    CString::new(s).map_err(|_| Error::BadName)
}

impl Vm {
    /// A VM without host functions.
    pub fn new(config: VmConfig) -> Result<Vm, Error> {
        Vm::builder(config).build()
    }

    /// Start building a VM.
    pub fn builder(config: VmConfig) -> VmBuilder {
        VmBuilder {
            config,
            host: std::ptr::null_mut(),
            functions: Vec::new(),
            bad_name: false,
        }
    }

    /// Compile a text chunk and run it on the main thread; returns its results. `chunkname`
    /// follows Lua's convention (`@file.lua`, `=name`). Binary chunks are refused. Host
    /// functions raise "host function called outside a host call" ([`Vm::exec_with`] gives
    /// them a host).
    pub fn exec(&mut self, chunkname: &str, source: &str) -> Result<Vec<Value>, Error> {
        self.exec_inner(None, chunkname, source)
    }

    /// [`Vm::exec`] with `host` answering the host functions the chunk calls.
    pub fn exec_with(
        &mut self,
        host: &mut dyn Host,
        chunkname: &str,
        source: &str,
    ) -> Result<Vec<Value>, Error> {
        self.exec_inner(Some(host), chunkname, source)
    }

    fn exec_inner(
        &mut self,
        host: Option<&mut dyn Host>,
        chunkname: &str,
        source: &str,
    ) -> Result<Vec<Value>, Error> {
        let name = cstring(chunkname)?;
        refuse_binary(source.as_bytes())?;
        self.raw.exec(host, &name, source.as_bytes())
    }

    /// Call the function stored at the global path `function` (`name`, or `a.b.c` through
    /// nested tables) with `args`; returns its results. Host functions raise "host function
    /// called outside a host call" ([`Vm::call_with`] gives them a host).
    pub fn call(&mut self, function: &str, args: &[Value]) -> Result<Vec<Value>, Error> {
        let f = cstring(function)?;
        self.raw.call(None, &f, args)
    }

    /// [`Vm::call`] with `host` answering the host functions the call reaches, e.g.
    /// `vm.call_with(&mut session, "gbhost.run_hooks", &[])`.
    pub fn call_with(
        &mut self,
        host: &mut dyn Host,
        function: &str,
        args: &[Value],
    ) -> Result<Vec<Value>, Error> {
        let f = cstring(function)?;
        self.raw.call(Some(host), &f, args)
    }

    /// Compile a text chunk as the body of the coroutine named `coroutine` (replacing any
    /// coroutine of that name). Nothing runs until [`Vm::resume`]. The coroutine lives in the
    /// arena, so it rolls back with the VM.
    pub fn spawn_chunk(
        &mut self,
        coroutine: &str,
        chunkname: &str,
        source: &str,
    ) -> Result<(), Error> {
        let co = cstring(coroutine)?;
        let name = cstring(chunkname)?;
        refuse_binary(source.as_bytes())?;
        self.raw.spawn_chunk(&co, &name, source.as_bytes())
    }

    /// Make the coroutine named `coroutine` run the function at the global path `function`
    /// (as in [`Vm::call`]) when resumed.
    pub fn spawn_function(&mut self, coroutine: &str, function: &str) -> Result<(), Error> {
        let co = cstring(coroutine)?;
        let f = cstring(function)?;
        self.raw.spawn_function(&co, &f)
    }

    /// Resume the named coroutine with `args`. A coroutine that returns or fails is forgotten.
    /// Host functions raise "host function called outside a host call"
    /// ([`Vm::resume_with`] gives them a host).
    pub fn resume(&mut self, coroutine: &str, args: &[Value]) -> Result<Resume, Error> {
        let co = cstring(coroutine)?;
        self.raw.resume(None, &co, args)
    }

    /// [`Vm::resume`] with `host` answering the host functions the coroutine calls. A host
    /// function returning [`HostReturn::Yield`](crate::HostReturn::Yield) suspends the
    /// coroutine: its values come out as [`Resume::Yielded`], and the next resume's arguments
    /// become the host function's results.
    pub fn resume_with(
        &mut self,
        host: &mut dyn Host,
        coroutine: &str,
        args: &[Value],
    ) -> Result<Resume, Error> {
        let co = cstring(coroutine)?;
        self.raw.resume(Some(host), &co, args)
    }

    /// A full garbage collection.
    pub fn gc_collect(&mut self) -> Result<(), Error> {
        self.raw.gc(mlua::ffi::LUA_GCCOLLECT, 0, None).map(|_| ())
    }

    /// One incremental GC step worth `kib` KiB of allocation (0: one basic step); true when a
    /// cycle finished.
    pub fn gc_step(&mut self, kib: i32) -> Result<bool, Error> {
        self.raw
            .gc(mlua::ffi::LUA_GCSTEP, kib, None)
            .map(|r| r != 0)
    }

    /// The end-of-frame collection of a rewind host: call it once per frame, after the
    /// frame's last Lua call and before taking the frame's snapshot ([`Vm::snapshot_diff`]).
    ///
    /// In generational mode (the default) this is one young collection — or a major one once
    /// memory has grown by the major multiplier since the last — so the frame's garbage is
    /// freed, and, freed memory being zeroed, leaves no trace in the arena, while old objects
    /// are not touched: the frame's diff holds little more than what the frame really changed
    /// (typically a few hundred bytes for a HUD script, against kilobytes without it). In
    /// incremental mode it finishes the current cycle, which rewrites every object's mark:
    /// prefer generational mode. The collector still also runs by itself as its mode says.
    pub fn collect_frame(&mut self) -> Result<(), Error> {
        self.raw.gc(GC_FRAME, 0, None).map(|_| ())
    }

    /// Switch the garbage collector's mode.
    pub fn set_gc_mode(&mut self, mode: GcMode) -> Result<(), Error> {
        self.raw.gc(0, 0, Some(mode)).map(|_| ())
    }

    /// Take what scripts printed since the last call.
    pub fn take_output(&mut self) -> Vec<u8> {
        self.raw.take_output()
    }

    /// A snapshot of the whole VM: the arena bytes up to the high-water mark.
    pub fn snapshot(&mut self) -> Snapshot {
        let mut s = Snapshot {
            arena_id: 0,
            seq: 0,
            bytes: Vec::new(),
        };
        self.raw.snapshot_into(&mut s);
        s
    }

    /// Like [`Vm::snapshot`], reusing `snap`'s buffer.
    pub fn snapshot_into(&mut self, snap: &mut Snapshot) {
        self.raw.snapshot_into(snap);
    }

    /// The rewind ring's per-frame step: append the sealed diff from `prev` (an earlier
    /// snapshot of this VM) to the live state to `out`, and make `prev` a snapshot of the live
    /// state. Only changed words are copied, so this costs one compare of the arena (of the
    /// pages written since the last call, with [`VmConfig::track_writes`] and `prev` the
    /// snapshot that call produced) plus work in proportion to the change.
    pub fn snapshot_diff(&mut self, prev: &mut Snapshot, out: &mut Vec<u8>) -> Result<(), Error> {
        self.raw.snapshot_diff(prev, out)
    }

    /// Whether page-write tracking ([`VmConfig::track_writes`]) is on.
    pub fn tracking_writes(&self) -> bool {
        self.raw.tracking_writes()
    }

    /// Put the VM back to `snap`, byte for byte (the arena above the snapshot's high-water
    /// mark is zeroed). Fails only for a snapshot of another VM.
    pub fn restore(&mut self, snap: &Snapshot) -> Result<(), Error> {
        self.raw.restore(snap)
    }

    /// Arena statistics.
    pub fn stats(&self) -> ArenaStats {
        self.raw.stats()
    }

    /// Make allocations fail (failure-injection tests); counts requests from now.
    pub fn set_alloc_failure(&mut self, failure: AllocFailure) {
        self.raw.set_failure(failure);
    }

    /// Allocation requests failed by injection since the last [`Vm::set_alloc_failure`].
    pub fn injected_failures(&self) -> u64 {
        self.raw.injected_failures()
    }

    /// Walk the arena and check every allocator invariant (tests and debugging).
    pub fn check_arena(&self) -> Result<(), String> {
        self.raw.check()
    }

    /// Base address of the arena.
    pub fn arena_address(&self) -> usize {
        self.raw.base_address()
    }

    /// Address of the main thread (`lua_State`), for diagnostics.
    pub fn main_thread_address(&self) -> usize {
        self.raw.main_thread() as usize
    }

    /// The VM's state as a portable image sealed with `key` (see the `portable` module docs):
    /// another process restores it exactly with [`VmBuilder::build_from_image`] or
    /// [`Vm::load_image`]. Fails ([`ImageError::Unportable`]) for a VM holding something no
    /// other process could restore (a light userdata, a table keyed by a C function). Only a
    /// VM mapped at a fixed address ([`VmConfig::window_slot`], [`VmConfig::fixed_address`])
    /// can be restored elsewhere: another process must map its VM at the same address.
    pub fn export_image(&mut self, key: &ImageKey) -> Result<Vec<u8>, Error> {
        let snap = self.snapshot();
        Ok(portable::export(
            catalog()?,
            &self.raw.image_parts(),
            snap.bytes,
            key,
        )?)
    }

    /// A hash of the VM's canonical image: equal in two processes exactly when the VMs are
    /// in the same state (addresses of code, dead stack slots and stale bytes do not count).
    pub fn image_hash(&mut self) -> Result<u64, Error> {
        let snap = self.snapshot();
        Ok(portable::hash(
            catalog()?,
            &self.raw.image_parts(),
            snap.bytes,
        )?)
    }

    /// A snapshot of this VM holding the state of a portable image sealed with `key`, for
    /// [`Vm::restore`] (e.g. in a logged load). The image must come from a VM at this VM's
    /// address, with its capacity and the same host functions.
    pub fn image_snapshot(&mut self, key: &ImageKey, image: &[u8]) -> Result<Snapshot, Error> {
        let bytes = portable::import(catalog()?, &self.raw.image_parts(), image, key)?;
        let mut s = self.snapshot();
        s.bytes = bytes;
        Ok(s)
    }

    /// Restore a portable image sealed with `key` into this VM (see [`Vm::image_snapshot`]).
    pub fn load_image(&mut self, key: &ImageKey, image: &[u8]) -> Result<(), Error> {
        let bytes = portable::import(catalog()?, &self.raw.image_parts(), image, key)?;
        self.raw.restore_image_bytes(&bytes)
    }
}

/// This process's catalog of code names (`portable::catalog`), built once: this crate's own
/// C functions, and every C function a scratch VM that ran the catalog's recipes can reach.
fn catalog() -> Result<&'static Catalog, ImageError> {
    static CATALOG: std::sync::OnceLock<Result<Catalog, String>> = std::sync::OnceLock::new();
    CATALOG
        .get_or_init(|| {
            let mut vm = Vm::new(VmConfig {
                instruction_budget: None,
                ..VmConfig::default()
            })
            .map_err(|e| e.to_string())?;
            vm.exec("=catalog", portable::catalog::RECIPES)
                .map_err(|e| e.to_string())?;
            let main = vm.main_thread_address() as u64;
            let mut snap = vm.snapshot();
            let heap = portable::heap::Heap {
                base: vm.arena_address() as u64,
                bytes: &mut snap.bytes,
            };
            Catalog::build(crate::ffi::known_code(), &heap, main).map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| ImageError::Catalog(e.clone()))
}

/// The header of a portable image (where and how large its arena was), read without checking
/// its seal: to choose where to build the VM that will load it.
pub fn image_info(image: &[u8]) -> Result<ImageInfo, Error> {
    Ok(portable::info(image)?)
}

/// Whether `image` is sealed with `key` and of this build's image format (its header, if so):
/// what a restore checks first, without a VM.
pub fn verify_image(key: &ImageKey, image: &[u8]) -> Result<ImageInfo, Error> {
    Ok(portable::verify(image, key)?)
}

fn refuse_binary(source: &[u8]) -> Result<(), Error> {
    if source.first() == mlua::ffi::LUA_SIGNATURE.first() {
        Err(Error::BinaryChunk)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::portable::heap::{Heap, gco, global, thread};
    use crate::{Vm, VmConfig};

    /// The offsets of `heap.rs` against a live state: every field read here has a value known
    /// from the C API's side.
    #[test]
    fn the_layout_matches_lua() {
        let mut vm = Vm::new(VmConfig::default()).unwrap();
        vm.exec("=t", "t = {1, 2, x = 3}").unwrap();
        let main = vm.main_thread_address() as u64;
        let mut snap = vm.snapshot();
        let heap = Heap {
            base: vm.arena_address() as u64,
            bytes: &mut snap.bytes,
        };
        let g = heap.global(main).unwrap();
        let alloc = crate::ffi::known_code()
            .into_iter()
            .find(|(n, _)| *n == "rb:alloc")
            .unwrap()
            .1 as u64;
        assert_eq!(heap.u64(g + global::FREALLOC).unwrap(), alloc);
        assert_eq!(heap.u8(main + gco::TT).unwrap(), 0x08, "a thread");
        assert_eq!(heap.u64(main + thread::CI).unwrap(), main + thread::BASE_CI);
        let string = |at: u64| {
            String::from_utf8_lossy(heap.string(heap.u64(at).unwrap()).unwrap()).into_owned()
        };
        assert_eq!(string(g + global::MEMERRMSG), "not enough memory");
        assert_eq!(string(g + global::TMNAME), "__index");
        assert_eq!(string(g + global::TMNAME + 8 * 24), "__close");
        assert_ne!(
            heap.u64(g + global::MT + 8 * 4).unwrap(),
            0,
            "strings' metatable"
        );
        assert_eq!(
            heap.u8(g + global::L_REGISTRY + 8).unwrap(),
            0x45,
            "a table"
        );
        for i in 0..global::STRCACHE_LEN {
            let s = heap.u64(g + global::STRCACHE + 8 * i).unwrap();
            assert!(matches!(heap.u8(s + gco::TT).unwrap(), 0x04 | 0x14));
        }
        assert_eq!(heap.u64(g + global::WARNF).unwrap(), 0);
        assert_eq!(heap.u64(g + global::UD_WARN).unwrap(), 0);
        // The catalog names the standard library.
        let cat = super::catalog().unwrap();
        // (BFS order: the strings' metatable reaches the string library first.)
        for f in [
            "mt4.__index.format",
            "reg._LOADED.table.sort",
            "reg._LOADED.coroutine.wrap",
            "reg[2].print",
            "reg[2].pairs",
            "reg[2].__catalog.pcall#k2",
        ] {
            assert!(cat.address(f).is_some(), "{f} is not in the catalog");
        }
        assert!(cat.address("lua:dummynode").is_some());
        assert!(cat.address("reg[2].__catalog.gmatch#f").is_some());
    }
}
