//! Shared test host: a fake Game Boy whose RAM is a pure function of its state, with the host
//! functions the HUD script uses — as safe host functions ([`script_vm`], the default) and as
//! raw C functions ([`raw_script_vm`], the low-level API).
#![expect(
    unsafe_code,
    reason = "raw C host functions: the low-level API under test"
)]

use std::cell::{Cell, RefCell};
use std::ffi::c_int;

use lua_rollback::{
    GcMode, HostReturn, Resume, Value, Vm, VmBuilder, VmConfig, host_context, lua, yield_frame,
};

/// The HUD script of the sync test and the benchmark.
pub const HUD: &str = include_str!("../scripts/hud.lua");

/// Emulator-side state (outside the arena; rolled back by the test together with the arena).
#[derive(Default)]
pub struct Host {
    pub frame: Cell<u64>,
    pub emu_acc: Cell<u64>,
    pub input: Cell<u8>,
    pub out: RefCell<Vec<u8>>,
}

/// The part of `Host` a snapshot must carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostState {
    pub frame: u64,
    pub emu_acc: u64,
    pub input: u8,
}

impl Host {
    pub fn new() -> Box<Host> {
        let h = Box::<Host>::default();
        h.emu_acc.set(0x1234_5678);
        h
    }

    pub fn state(&self) -> HostState {
        HostState {
            frame: self.frame.get(),
            emu_acc: self.emu_acc.get(),
            input: self.input.get(),
        }
    }

    pub fn set_state(&self, s: HostState) {
        self.frame.set(s.frame);
        self.emu_acc.set(s.emu_acc);
        self.input.set(s.input);
    }

    /// Fake RAM: a pure function of the emulator state and the address.
    pub fn read_u8(&self, addr: u64) -> u8 {
        let frame = self.frame.get();
        let acc = self.emu_acc.get();
        let x = match addr {
            0xD360..=0xD362 => (frame / 8).wrapping_mul(addr).wrapping_add(acc & 3),
            0xD347..=0xD349 => frame / 60 + addr,
            0xD16B..=0xD2FF => (frame / 30).wrapping_mul(31).wrapping_add(addr * 7),
            _ => {
                let mut z = frame.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    ^ addr.wrapping_mul(0xBF58_476D_1CE4_E5B9)
                    ^ acc;
                z ^= z >> 31;
                z
            }
        };
        x as u8
    }

    /// The emulator runs a frame; input influences its state like a game's RNG.
    pub fn end_frame(&self) {
        let acc = self.emu_acc.get();
        self.emu_acc.set(
            acc.wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(u64::from(self.input.get()) + 1),
        );
        self.frame.set(self.frame.get() + 1);
    }
}

/// Ids of the safe host functions.
const READ_U8: u32 = 0;
const READ_U16_LE: u32 = 1;
const FRAMECOUNT: u32 = 2;
const FRAMEADVANCE: u32 = 3;
const GUI_TEXT: u32 = 4;
const JOYPAD_SET: u32 = 5;

/// Argument `i` (0-based) as an integer, like `luaL_checkinteger` (floats with an exact
/// integer value are accepted).
fn int_arg(args: &[Value], i: usize) -> Result<i64, String> {
    match args.get(i) {
        Some(Value::Integer(v)) => Ok(*v),
        Some(Value::Number(n)) if n.fract() == 0.0 && n.abs() < 9.2e18 => Ok(*n as i64),
        _ => Err(format!("bad argument #{} (integer expected)", i + 1)),
    }
}

/// The safe host functions: [`Host`] seen through a shared reference (its state is in cells).
pub struct Calls<'a>(pub &'a Host);

impl lua_rollback::Host for Calls<'_> {
    fn call(
        &mut self,
        id: u32,
        args: &[Value],
        ret: &mut Vec<Value>,
    ) -> Result<HostReturn, String> {
        let h = self.0;
        match id {
            READ_U8 => {
                let a = int_arg(args, 0)? as u64;
                ret.push(Value::Integer(i64::from(h.read_u8(a))));
            }
            READ_U16_LE => {
                let a = int_arg(args, 0)? as u64;
                let v = u16::from(h.read_u8(a)) | u16::from(h.read_u8(a + 1)) << 8;
                ret.push(Value::Integer(i64::from(v)));
            }
            FRAMECOUNT => ret.push(Value::Integer(h.frame.get() as i64)),
            FRAMEADVANCE => return Ok(HostReturn::Yield),
            GUI_TEXT => {
                let x = int_arg(args, 0)?;
                let y = int_arg(args, 1)?;
                let s = match args.get(2) {
                    Some(Value::String(s)) => s.clone(),
                    Some(Value::Integer(i)) => i.to_string().into_bytes(),
                    _ => return Err("bad argument #3 (string expected)".into()),
                };
                let mut out = h.out.borrow_mut();
                out.extend_from_slice(&(x as i32).to_le_bytes());
                out.extend_from_slice(&(y as i32).to_le_bytes());
                out.extend_from_slice(&s);
                out.push(0);
            }
            JOYPAD_SET => h.input.set(int_arg(args, 0)? as u8),
            _ => return Err(format!("no host function {id}")),
        }
        Ok(HostReturn::Values)
    }
}

/// The host of the calling VM.
///
/// # Safety
/// `l` must be a state of a VM built by `hud_vm`, whose `Host` is alive.
unsafe fn host<'a>(l: *mut lua::lua_State) -> &'a Host {
    // SAFETY: `hud_vm` set the host context to a `Host` that outlives the VM's calls.
    unsafe { &*host_context(l).cast::<Host>() }
}

unsafe extern "C-unwind" fn read_u8(l: *mut lua::lua_State) -> c_int {
    // SAFETY: called by Lua; luaL_checkinteger may raise before any Rust value is alive.
    unsafe {
        let a = lua::luaL_checkinteger(l, 1) as u64;
        lua::lua_pushinteger(l, lua::lua_Integer::from(host(l).read_u8(a)));
        1
    }
}

unsafe extern "C-unwind" fn read_u16_le(l: *mut lua::lua_State) -> c_int {
    // SAFETY: as in `read_u8`.
    unsafe {
        let a = lua::luaL_checkinteger(l, 1) as u64;
        let h = host(l);
        let v = u16::from(h.read_u8(a)) | u16::from(h.read_u8(a + 1)) << 8;
        lua::lua_pushinteger(l, lua::lua_Integer::from(v));
        1
    }
}

unsafe extern "C-unwind" fn framecount(l: *mut lua::lua_State) -> c_int {
    // SAFETY: called by Lua; pushing an integer into the guaranteed free slots.
    unsafe {
        lua::lua_pushinteger(l, host(l).frame.get() as lua::lua_Integer);
        1
    }
}

unsafe extern "C-unwind" fn gui_text(l: *mut lua::lua_State) -> c_int {
    // SAFETY: called by Lua; every call that can raise happens before the host's buffer is
    // borrowed, and the borrow ends before returning.
    unsafe {
        let x = lua::luaL_checkinteger(l, 1);
        let y = lua::luaL_checkinteger(l, 2);
        let mut len = 0usize;
        let s = lua::luaL_checklstring(l, 3, &mut len);
        let bytes = std::slice::from_raw_parts(s.cast::<u8>(), len);
        let mut out = host(l).out.borrow_mut();
        out.extend_from_slice(&(x as i32).to_le_bytes());
        out.extend_from_slice(&(y as i32).to_le_bytes());
        out.extend_from_slice(bytes);
        out.push(0);
        0
    }
}

unsafe extern "C-unwind" fn joypad_set(l: *mut lua::lua_State) -> c_int {
    // SAFETY: called by Lua; luaL_checkinteger may raise before any Rust value is alive.
    unsafe {
        let v = lua::luaL_checkinteger(l, 1);
        host(l).input.set(v as u8);
        0
    }
}

/// The GC modes the sync test covers.
pub fn gc_modes() -> [(&'static str, GcMode); 2] {
    [
        (
            "incremental",
            GcMode::Incremental {
                pause: 0,
                step_multiplier: 0,
                step_size: 0,
            },
        ),
        (
            "generational",
            GcMode::Generational {
                minor_multiplier: 0,
                major_multiplier: 0,
            },
        ),
    ]
}

/// A VM with the HUD host functions, its host, and the HUD script spawned as coroutine
/// "main" (not yet resumed).
pub fn hud_vm(config: VmConfig) -> (Vm, Box<Host>) {
    script_vm(config, "@hud.lua", HUD)
}

/// A VM with the HUD host functions (safe ones, answered by [`Calls`]), its host, and
/// `source` spawned as coroutine "main".
pub fn script_vm(config: VmConfig, chunkname: &str, source: &str) -> (Vm, Box<Host>) {
    let host = Host::new();
    let mut vm = hud_builder(config).build().expect("build VM");
    vm.spawn_chunk("main", chunkname, source)
        .expect("load script");
    (vm, host)
}

/// A builder with the HUD's safe host functions (answered by [`Calls`]).
pub fn hud_builder(config: VmConfig) -> VmBuilder {
    Vm::builder(config)
        .host_function("memory.read_u8", READ_U8)
        .host_function("memory.read_u16_le", READ_U16_LE)
        .host_function("emu.framecount", FRAMECOUNT)
        .host_function("emu.frameadvance", FRAMEADVANCE)
        .host_function("gui.text", GUI_TEXT)
        .host_function("joypad.set", JOYPAD_SET)
}

/// [`script_vm`] with the host functions as raw C functions reaching the host through
/// `host_context`.
pub fn raw_script_vm(config: VmConfig, chunkname: &str, source: &str) -> (Vm, Box<Host>) {
    let host = Host::new();
    let ptr = std::ptr::from_ref::<Host>(&host).cast_mut().cast();
    let mut vm = raw_builder(config, ptr).build().expect("build VM");
    vm.spawn_chunk("main", chunkname, source)
        .expect("load script");
    (vm, host)
}

/// A builder with the HUD's host functions as raw C functions reaching `host` (a `Host`).
pub fn raw_builder(config: VmConfig, host: *mut std::ffi::c_void) -> VmBuilder {
    Vm::builder(config)
        .host_context(host)
        .function("memory.read_u8", read_u8)
        .function("memory.read_u16_le", read_u16_le)
        .function("emu.framecount", framecount)
        .function("emu.frameadvance", yield_frame)
        .function("gui.text", gui_text)
        .function("joypad.set", joypad_set)
}

/// Run one frame: resume the script, end the emulated frame; returns a hash of everything the
/// frame produced (drawn text, printed text, input). Works for both kinds of VM (raw host
/// functions ignore the [`Calls`] host).
pub fn frame(vm: &mut Vm, host: &Host) -> Result<u64, lua_rollback::Error> {
    host.out.borrow_mut().clear();
    let r = vm.resume_with(&mut Calls(host), "main", &[]);
    host.end_frame();
    match r? {
        Resume::Yielded(_) => {}
        Resume::Returned(_) => panic!("script ended"),
    }
    let printed = vm.take_output();
    let mut h = fnv(&host.out.borrow());
    h ^= fnv(&printed).rotate_left(17);
    h ^= u64::from(host.input.get()).rotate_left(7);
    Ok(h)
}

/// FNV-1a.
pub fn fnv(b: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &x in b {
        h = (h ^ u64::from(x)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// xorshift64.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}
