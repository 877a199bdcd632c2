//! Host-call benchmark: calls per second of a trivial host function, `memory.read_u8(addr)`,
//! from a Lua loop — as a safe host function ([`Host`], through the trampoline) and as a raw
//! C function, against the bare loop. Run with `cargo bench -p lua-rollback --bench host`.
#![allow(unsafe_code)]

use std::ffi::c_int;
use std::time::Instant;

use lua_rollback::{Host, HostReturn, Value, Vm, VmConfig, lua};

const CALLS: i64 = 2_000_000;
const RUNS: usize = 7;

/// Fake RAM.
struct Ram(Vec<u8>);

impl Host for Ram {
    fn call(
        &mut self,
        _id: u32,
        args: &[Value],
        ret: &mut Vec<Value>,
    ) -> Result<HostReturn, String> {
        let Some(Value::Integer(a)) = args.first() else {
            return Err("bad argument #1 (integer expected)".into());
        };
        ret.push(Value::Integer(i64::from(self.0[*a as usize & 0xffff])));
        Ok(HostReturn::Values)
    }
}

unsafe extern "C-unwind" fn raw_read_u8(l: *mut lua::lua_State) -> c_int {
    // SAFETY: called by Lua; luaL_checkinteger may raise before any Rust value is alive;
    // pushing an integer needs no allocation.
    unsafe {
        let a = lua::luaL_checkinteger(l, 1);
        lua::lua_pushinteger(l, (a as u8 ^ 0x5a).into());
        1
    }
}

const LOOP: &str =
    "function run(n) local s = 0 for i = 1, n do s = s + memory.read_u8(i) end return s end";
const BARE: &str =
    "function run(n) local s = 0 for i = 1, n do s = s + (i & 0xff) end return s end";

/// Median nanoseconds per iteration of `run(CALLS)`.
fn measure(vm: &mut Vm, ram: &mut Ram, with_host: bool) -> f64 {
    let mut ns: Vec<f64> = (0..RUNS)
        .map(|_| {
            let t = Instant::now();
            let r = if with_host {
                vm.call_with(ram, "run", &[Value::Integer(CALLS)])
            } else {
                vm.call("run", &[Value::Integer(CALLS)])
            };
            r.unwrap();
            t.elapsed().as_secs_f64() * 1e9 / CALLS as f64
        })
        .collect();
    ns.sort_by(f64::total_cmp);
    ns[RUNS / 2]
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("host-call benchmark: run it with `cargo bench -p lua-rollback --bench host`");
        return;
    }
    let config = || VmConfig {
        instruction_budget: None,
        ..VmConfig::default()
    };
    let mut ram = Ram((0..=0xffff).map(|i| (i * 7) as u8).collect());
    println!("lua-rollback host-call bench: {CALLS} calls per run, median of {RUNS} runs");

    let mut vm = Vm::new(config()).unwrap();
    vm.exec("=bare", BARE).unwrap();
    let bare = measure(&mut vm, &mut ram, false);
    println!("  bare Lua loop (no call)        {bare:6.1} ns/iteration");

    let mut vm = Vm::builder(config())
        .function("memory.read_u8", raw_read_u8)
        .build()
        .unwrap();
    vm.exec("=raw", LOOP).unwrap();
    let raw = measure(&mut vm, &mut ram, false);
    println!(
        "  raw C function                 {raw:6.1} ns/call  ({:5.1} M calls/s; {:5.1} ns over the loop)",
        1e3 / raw,
        raw - bare
    );

    let mut vm = Vm::builder(config())
        .host_function("memory.read_u8", 0)
        .build()
        .unwrap();
    vm.exec("=safe", LOOP).unwrap();
    let safe = measure(&mut vm, &mut ram, true);
    println!(
        "  safe host function (Host)      {safe:6.1} ns/call  ({:5.1} M calls/s; {:5.1} ns over the loop)",
        1e3 / safe,
        safe - bare
    );
}
