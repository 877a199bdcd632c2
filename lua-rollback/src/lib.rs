//! Lua 5.4 VMs in fixed arenas that snapshot and roll back byte-exactly.
//!
//! A script's whole memory — globals, closures, coroutines, the GC's state — lives in one
//! arena. Snapshotting copies the arena's bytes; restoring copies them back. HUDs, trainers
//! and TAS input scripts therefore rewind with the game and never desync on rewind or
//! loadstate. This crate knows nothing of the Game Boy.
//!
//! ```
//! use lua_rollback::{Value, Vm, VmConfig};
//!
//! let mut vm = Vm::new(VmConfig::default()).unwrap();
//! vm.exec("=init", "n = 0 function tick() n = n + 1 return n end").unwrap();
//! let snap = vm.snapshot();
//! assert_eq!(vm.call("tick", &[]).unwrap(), [Value::Integer(1)]);
//! vm.restore(&snap).unwrap();
//! assert_eq!(vm.call("tick", &[]).unwrap(), [Value::Integer(1)]); // rolled back
//! ```
//!
//! # Parts
//! * **Arena** (`arena`): one `mmap` reservation per VM, committed as touched, never moving,
//!   optionally at a fixed address, with a TLSF allocator (splitting, immediate coalescing,
//!   O(1)) whose metadata lives inside the arena, and slabs for requests up to 256 bytes
//!   (freeing zeroes the freed memory, so garbage collected before a snapshot leaves no trace
//!   in the next diff).
//!   Deterministic: the same requests from the same bytes give the same addresses.
//!   [`ArenaStats`] (from [`Vm::stats`]) reports used, high-water and capacity.
//! * **VM** ([`Vm`]): a raw `lua_State` made by `mlua::ffi::lua_newstate` with the arena
//!   allocator — mlua's high-level `Lua` is never used on it (its Rust-side bookkeeping does
//!   not roll back).
//! * **Host functions** ([`Host`]): registered by name and number at build time
//!   ([`VmBuilder::host_function`]); during [`Vm::exec_with`], [`Vm::call_with`] or
//!   [`Vm::resume_with`] a script's call runs [`Host::call`] on the host object given to that
//!   method, with the arguments as [`Value`]s; it returns values, yields the coroutine
//!   ([`HostReturn::Yield`], e.g. `emu.frameadvance()`), or fails with a message that Lua
//!   raises at the caller's line. Safe code all the way: a trampoline (`ffi/host_call.rs`)
//!   does the C side.
//!   Outside those methods a host function raises "host function called outside a host call".
//!   The low-level form — raw C functions ([`HostFn`], [`VmBuilder::function`]) reaching the
//!   host through [`host_context`] — needs `unsafe` and is kept for the crate's own tests.
//! * **Snapshots** ([`Snapshot`]): the arena bytes up to the high-water mark; restore copies
//!   them back and zeroes what lies above. [`codec`] is the diff machinery of a rewind ring:
//!   word-wise XOR with zero-run coding, decodable forward from a keyframe and backward from
//!   the live state; [`Vm::snapshot_diff`] produces a frame's sealed diff while updating the
//!   previous snapshot in place ([`codec::encode_and_update`]), comparing only the 256-byte
//!   spans found different from it by the scrub that zeroes stale host stack addresses
//!   before every snapshot (`ffi/rollback.rs`). With
//!   [`VmConfig::track_writes`] (Linux 6.7+, opt-in) it compares only the pages written since
//!   the previous diff (userfaultfd write protection in asynchronous mode, read back with
//!   `PAGEMAP_SCAN`: no signal handler), giving the same bytes.
//! * **Frames**: a rewind host runs a frame's Lua calls, then [`Vm::collect_frame`] (a young
//!   collection in generational mode), then [`Vm::snapshot_diff`]. Collecting the frame's
//!   garbage before the snapshot, with freed memory zeroed, keeps a HUD script's per-frame
//!   diff under 1 KB (a few hundred bytes after zstd); without it, several KB.
//! * **Portable images** (`portable`): a VM's state that another process (another build of
//!   the same image format, with ASLR) restores exactly: [`Vm::export_image`],
//!   [`VmBuilder::build_from_image`], [`Vm::load_image`], [`Vm::image_hash`]. The design and
//!   its invariants are in the `portable` module and `docs/arena.md`.
//! * **Sandbox**: only `base` (without `dofile`, `loadfile`), `string` (without `dump`),
//!   `table`, `math`, `utf8` and `coroutine`; `load` takes text only; `print` goes to a host
//!   buffer ([`Vm::take_output`]); `math.random` is seeded at creation and `math.randomseed`
//!   needs an explicit seed. No `io`, `os`, `package`/`require`, `debug`.
//! * **Budgets**: an instruction-count hook ends a host call that runs more than
//!   [`VmConfig::instruction_budget`] instructions ([`Error::Budget`]; a script cannot catch
//!   it for long: once spent, every instruction raises); an exhausted arena is Lua's "not
//!   enough memory" ([`Error::Memory`]). The VM stays usable after either.
//!
//! # Invariants (Architecture Invariant: Lua that rolls back)
//! 1. The state is a raw `lua_State` on our allocator; mlua's `Lua` never wraps it.
//! 2. The arena is reserved once, never moves, keeps all allocator metadata inside, and is
//!    deterministic. Restore copies bytes back and zeroes above the snapshot's high-water mark.
//! 3. Pointers from the arena to the outside go only to static code (C functions, the hook,
//!    the allocator) or to host-side blocks that outlive the VM (its control block, the host
//!    context). No userdata owns Rust resources; nothing relies on `__gc` to free Rust memory
//!    (dropping a VM unmaps its arena without running finalizers). The [`Host`] object of a
//!    `*_with` call is reachable (from the control block, never from the arena) only while
//!    that call runs: a guard clears it when the call ends, also on error.
//! 4. Snapshot and restore happen only when no Lua call is on the stack: every [`Vm`] method
//!    takes `&mut self`. [`Host::call`] cannot reach the `Vm` (it is borrowed for the whole
//!    call), so host calls never nest; raw host functions must not reach it through the host
//!    context.
//! 5. Every allocating Lua API call runs inside `lua_pcall`; arena exhaustion is a Lua error,
//!    never an abort. No Rust value with a destructor is alive across a Lua API call that can
//!    raise (Lua raises with `longjmp`): the trampoline converts arguments without raising,
//!    calls the host, drops everything, then pushes results from a control-block buffer (or
//!    raises the host's message from one). A panic in [`Host::call`] is caught and becomes the
//!    Lua error "host function panicked"; a raw host function must not panic (that aborts the
//!    process, as unwinding through Lua's C frames would be unsound).
//! 6. Determinism: Lua is built with fixed `luai_makeseed` and `l_randomizePivot` (CFLAGS in
//!    the workspace's `.cargo/config.toml`; `tests/it/determinism.rs` is the canary), `math.random`
//!    is seeded at creation, and nothing reads the clock. Names from the Rust heap (globals,
//!    coroutine and chunk names) reach Lua only through `lua_pushlstring`: `lua_pushstring`,
//!    `lua_getfield` and the like file strings in a cache slot chosen by the C string's
//!    address, which would make re-runs after a restore differ byte-wise. Addresses
//!    (`tostring(table)`, `%p`, `pairs()` over table keys) agree across processes only with
//!    [`VmConfig::fixed_address`].
//! 7. Raw arena bytes — and [`Snapshot`]s and their encodings — are valid only in the process
//!    and the VM that made them (they hold addresses of code). Encodings are sealed with a
//!    per-process key and decoding refuses anything else, so a restore can only ever put back
//!    bytes the arena really had. What goes to disk is a *portable image*
//!    ([`Vm::export_image`]): the arena with every pointer out of it replaced by a name,
//!    canonical (the same state gives the same bytes in any process), and sealed with a key
//!    the host keeps per user ([`ImageKey`]); only an image whose seal verifies is restored,
//!    into a VM mapped at the image's address ([`VmConfig::window_slot`]).
//!
//! # Source files
//! Each file opens with a doc saying its one job and its invariants.
//! * `arena/` (unsafe): `mod.rs` the mapping and the `Arena` a VM holds (stats, snapshot
//!   bytes, restore, scrubbing); `layout.rs` the byte format (header, block and slot headers,
//!   sentinel); `alloc.rs` Lua's allocator function and failure injection; `tlsf.rs` the TLSF
//!   allocator; `slab.rs` slabs for small requests; `check.rs` the heap checker;
//!   `tracking.rs` page-write tracking; `tests.rs` the allocator's unit tests.
//! * `ffi/` (unsafe): `mod.rs` the state's life and the protected-call driver; `calls.rs`
//!   chunks, calls and named coroutines; `host_call.rs` the host-function trampoline and the
//!   raw host-function API; `sandbox.rs` the state's setup and replaced library functions;
//!   `budget.rs` the instruction hook; `gc.rs` collector modes and collections; `stack.rs`
//!   values across the stack; `rollback.rs` snapshots, diffs and restore; `image.rs` the FFI
//!   side of portable images.
//! * `portable/` (safe code over byte copies of an arena): `mod.rs` the image format, seal and
//!   export/import; `heap.rs` Lua 5.4.9's object layout and the walk that finds and
//!   canonicalises every pointer leaving the arena; `catalog.rs` the names of code.
//! * Safe code: `vm.rs` ([`Vm`], [`VmBuilder`], [`VmConfig`]), `host.rs` ([`Host`]),
//!   `value.rs`, `snapshot.rs` ([`Snapshot`] and its encodings), `codec.rs` ([`codec`]),
//!   `census.rs` ([`census`]: which regions and objects of an arena a diff's words fall in, a
//!   diagnostic), `error.rs`.
//! * Tests: unit tests beside the code (`arena/tests.rs`, `codec.rs`); the integration tests
//!   are one binary, `tests/it/` (API, codec chains, determinism across processes, failure
//!   injection, host functions, sandbox, sync test, page tracking), with the fake host in
//!   `tests/it/common.rs` and the HUD scripts in `tests/scripts/`.
//!
//! # Unsafe code
//! `unsafe` is confined to the files of two modules, the only ones allowed it: `arena`
//! (mapping, allocator) and `ffi` (every Lua C API call). The compiler checks both rules: the
//! workspace denies `unsafe_code`, and each of those files `expect`s it at its top, with its
//! reason (an expectation that stops being needed is itself a warning); clippy's
//! `undocumented_unsafe_blocks` (denied workspace-wide) makes every `unsafe` block and impl
//! carry a safety comment saying why it is sound.

#![deny(unsafe_op_in_unsafe_fn)]

mod arena;
pub mod census;
pub mod codec;
mod error;
mod ffi;
mod host;
mod portable;
mod snapshot;
mod value;
mod vm;

pub use arena::{AllocFailure, ArenaStats, WINDOW_SLOTS, window_address};
pub use error::{ArenaError, CodecError, Error, ImageError};
pub use ffi::{GcMode, HostFn, host_context, yield_frame};
pub use host::{Host, HostReturn};
pub use portable::{IMAGE_VERSION, ImageInfo, ImageKey, image_delta, image_from_delta};
pub use snapshot::Snapshot;
pub use value::{Resume, Value};
pub use vm::{Vm, VmBuilder, VmConfig, image_info, verify_image};

/// Lua's C API (`mlua::ffi`), for writing host functions.
pub use mlua::ffi as lua;
