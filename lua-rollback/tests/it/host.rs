//! Safe host functions ([`Host`]): arguments and results of every type, errors with the
//! caller's position, yields through `resume_with`, panics, arena exhaustion while pushing
//! results, budgets, and snapshots around host calls.

use lua_rollback::{Error, Host, HostReturn, Resume, Value, Vm, VmConfig};

const ECHO: u32 = 0;
const FAIL: u32 = 1;
const FRAMEADVANCE: u32 = 2;
const PANIC: u32 = 3;
const READ_U8: u32 = 4;
const BIG: u32 = 5;
const COUNT: u32 = 6;

/// A test host: records what it was given, counts calls, fakes RAM.
#[derive(Default)]
struct TestHost {
    calls: u64,
    seen: Vec<(u32, Vec<Value>)>,
    /// Byte length of the string `BIG` returns.
    big: usize,
}

impl Host for TestHost {
    fn call(
        &mut self,
        id: u32,
        args: &[Value],
        ret: &mut Vec<Value>,
    ) -> Result<HostReturn, String> {
        self.calls += 1;
        match id {
            ECHO => {
                self.seen.push((id, args.to_vec()));
                ret.extend_from_slice(args);
                Ok(HostReturn::Values)
            }
            FAIL => Err(format!("bad thing {}", args.len())),
            FRAMEADVANCE => {
                ret.extend_from_slice(args);
                Ok(HostReturn::Yield)
            }
            PANIC => panic!("host bug"),
            READ_U8 => {
                let a = args.first().and_then(Value::as_integer).unwrap_or(0);
                ret.push(Value::Integer(
                    (a as u64).wrapping_mul(0x9E37_79B9) as u8 as i64
                ));
                Ok(HostReturn::Values)
            }
            BIG => {
                ret.push(Value::Integer(1));
                ret.push(Value::String(vec![b'x'; self.big]));
                Ok(HostReturn::Values)
            }
            COUNT => {
                ret.push(Value::Integer(self.calls as i64));
                Ok(HostReturn::Values)
            }
            _ => Err(format!("unknown host function {id}")),
        }
    }
}

fn vm_with(config: VmConfig) -> Vm {
    Vm::builder(config)
        .host_function("echo", ECHO)
        .host_function("host.fail", FAIL)
        .host_function("emu.frameadvance", FRAMEADVANCE)
        .host_function("host.panic", PANIC)
        .host_function("memory.read_u8", READ_U8)
        .host_function("host.big", BIG)
        .host_function("host.count", COUNT)
        .build()
        .unwrap()
}

fn vm() -> Vm {
    vm_with(VmConfig::default())
}

/// The VM still computes, allocates and calls host functions.
fn assert_usable(vm: &mut Vm, host: &mut TestHost) {
    let r = vm
        .exec_with(
            host,
            "=check",
            "local t = {} for i = 1, 200 do t[i] = tostring(i) .. 'x' end \
             collectgarbage() return #t, t[200], echo('ok', 1)",
        )
        .expect("VM unusable");
    assert_eq!(
        r,
        [
            Value::Integer(200),
            Value::from("200x"),
            Value::from("ok"),
            Value::Integer(1)
        ]
    );
    vm.check_arena().unwrap();
}

#[test]
fn arguments_of_every_type_arrive() {
    let mut vm = vm();
    let mut host = TestHost::default();
    vm.exec_with(
        &mut host,
        "=args",
        "echo(nil, true, false, -7, 2.5, 'bytes\\0and\\xffmore', math.maxinteger, '12', 3.0, \
         {}, print, echo, coroutine.create(print)) echo() echo(nil, nil)",
    )
    .unwrap();
    let want = vec![
        Value::Nil,
        Value::Boolean(true),
        Value::Boolean(false),
        Value::Integer(-7),
        Value::Number(2.5),
        Value::String(b"bytes\0and\xffmore".to_vec()),
        Value::Integer(i64::MAX),
        Value::from("12"),
        Value::Number(3.0),
        Value::Other("table"),
        Value::Other("function"),
        Value::Other("function"),
        Value::Other("thread"),
    ];
    assert_eq!(host.seen[0], (ECHO, want));
    assert_eq!(host.seen[1], (ECHO, vec![]));
    assert_eq!(host.seen[2], (ECHO, vec![Value::Nil, Value::Nil]));
}

#[test]
fn results_of_every_type_come_back() {
    let mut vm = vm();
    let mut host = TestHost::default();
    let r = vm
        .exec_with(
            &mut host,
            "=results",
            "local a, b, c, d, e, f = echo(true, -7, 2.5, 'x\\0y', {}, nil) \
             return math.type(b), math.type(c), a, b, c, d, e, f, select('#', echo(1, nil, nil))",
        )
        .unwrap();
    assert_eq!(
        r,
        [
            Value::from("integer"),
            Value::from("float"),
            Value::Boolean(true),
            Value::Integer(-7),
            Value::Number(2.5),
            Value::String(b"x\0y".to_vec()),
            Value::Nil, // a table arrives as Other("table") and goes back as nil
            Value::Nil,
            Value::Integer(3),
        ]
    );
    // Many results: the stack grows.
    let r = vm
        .exec_with(
            &mut host,
            "=many",
            "local t = {} for i = 1, 500 do t[i] = i end \
             local r = table.pack(echo(table.unpack(t))) return r.n, r[1], r[500]",
        )
        .unwrap();
    assert_eq!(
        r,
        [Value::Integer(500), Value::Integer(1), Value::Integer(500)]
    );
    // Through call_with, with Rust arguments.
    vm.exec("=f", "function twice(...) return echo(...), echo(...) end")
        .unwrap();
    let r = vm
        .call_with(&mut host, "twice", &[Value::Integer(5), Value::from("s")])
        .unwrap();
    assert_eq!(r, [Value::Integer(5), Value::Integer(5), Value::from("s")]);
}

#[test]
fn errors_carry_the_callers_position_and_pcall_catches_them() {
    let mut vm = vm();
    let mut host = TestHost::default();
    let e = vm
        .exec_with(&mut host, "@script.lua", "local x = 1\nhost.fail(1, 2)\n")
        .unwrap_err();
    match &e {
        Error::Runtime(m) => assert!(m.starts_with("script.lua:2: bad thing 2"), "{m}"),
        e => panic!("unexpected {e:?}"),
    }
    let r = vm
        .exec_with(
            &mut host,
            "=p",
            "local ok, m = pcall(host.fail) local ok2, m2 = pcall(function()\n host.fail(7)\n end) \
             return ok, m, ok2, m2, echo('after')",
        )
        .unwrap();
    assert_eq!(
        r,
        [
            Value::Boolean(false),
            // Called directly by pcall (a C function): no Lua position to give.
            Value::from("bad thing 0"),
            Value::Boolean(false),
            Value::from("p:2: bad thing 1"),
            Value::from("after"),
        ]
    );
    assert_usable(&mut vm, &mut host);
}

#[test]
fn host_sees_every_call_and_keeps_its_state() {
    let mut vm = vm();
    let mut host = TestHost::default();
    let r = vm
        .exec_with(
            &mut host,
            "=n",
            "local n for i = 1, 100 do n = host.count() end return n",
        )
        .unwrap();
    assert_eq!(r, [Value::Integer(100)]);
    vm.exec("=f", "function count() return host.count() end")
        .unwrap();
    assert_eq!(
        vm.call_with(&mut host, "count", &[]).unwrap(),
        [Value::Integer(101)]
    );
    assert_eq!(host.calls, 101);
    // Another host object for another call.
    let mut other = TestHost::default();
    assert_eq!(
        vm.call_with(&mut other, "count", &[]).unwrap(),
        [Value::Integer(1)]
    );
    assert_eq!(host.calls, 101);
}

#[test]
fn outside_a_host_call_host_functions_raise_a_clear_error() {
    let mut vm = vm();
    vm.exec("=f", "function read() return memory.read_u8(1) end")
        .unwrap();
    for e in [
        vm.call("read", &[]).unwrap_err(),
        vm.exec("=x", "return echo(1)").unwrap_err(),
    ] {
        match &e {
            Error::Runtime(m) => {
                assert!(
                    m.contains("host function called outside a host call"),
                    "{m}"
                )
            }
            e => panic!("unexpected {e:?}"),
        }
    }
    vm.spawn_function("co", "read").unwrap();
    let e = vm.resume("co", &[]).unwrap_err();
    assert!(e.to_string().contains("outside a host call"), "{e}");
    // And after a host call ended, the host is gone again.
    let mut host = TestHost::default();
    vm.call_with(&mut host, "read", &[]).unwrap();
    assert!(vm.call("read", &[]).is_err());
    let r = vm.exec("=p", "return pcall(memory.read_u8, 1)").unwrap();
    assert_eq!(
        r,
        [
            Value::Boolean(false),
            Value::from("host function called outside a host call")
        ]
    );
    assert_eq!(host.calls, 1);
}

#[test]
fn yield_from_a_coroutine_through_resume_with() {
    let mut vm = vm();
    let mut host = TestHost::default();
    vm.spawn_chunk(
        "main",
        "=main",
        "local n = 0 while true do n = n + 1 local got = emu.frameadvance(n, 'frame') \
         if got == 'stop' then return n end end",
    )
    .unwrap();
    for f in 1..=3 {
        assert_eq!(
            vm.resume_with(&mut host, "main", &[]).unwrap(),
            Resume::Yielded(vec![Value::Integer(f), Value::from("frame")])
        );
    }
    assert_eq!(
        vm.resume_with(&mut host, "main", &[Value::from("stop")])
            .unwrap(),
        Resume::Returned(vec![Value::Integer(3)])
    );
    // From the main thread, yielding is an error.
    let e = vm
        .exec_with(&mut host, "=m", "emu.frameadvance()")
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("attempt to yield from outside a coroutine"),
        "{e}"
    );
    // From inside pcall in a coroutine, the yield goes through.
    vm.spawn_chunk(
        "p",
        "=p",
        "return pcall(function() return emu.frameadvance(1) end)",
    )
    .unwrap();
    assert_eq!(
        vm.resume_with(&mut host, "p", &[]).unwrap(),
        Resume::Yielded(vec![Value::Integer(1)])
    );
    assert_eq!(
        vm.resume_with(&mut host, "p", &[Value::Integer(9)])
            .unwrap(),
        Resume::Returned(vec![Value::Boolean(true), Value::Integer(9)])
    );
    assert_usable(&mut vm, &mut host);
}

#[test]
fn a_panicking_host_is_a_lua_error() {
    let mut vm = vm();
    let mut host = TestHost::default();
    let e = vm.exec_with(&mut host, "=p", "\nhost.panic()").unwrap_err();
    assert!(
        e.to_string().starts_with("p:2: host function panicked"),
        "{e}"
    );
    let r = vm
        .exec_with(&mut host, "=p", "return pcall(host.panic)")
        .unwrap();
    assert_eq!(
        r,
        [Value::Boolean(false), Value::from("host function panicked")]
    );
    assert_usable(&mut vm, &mut host);
}

#[test]
fn arena_exhaustion_while_pushing_a_result_is_a_memory_error() {
    let mut vm = vm_with(VmConfig {
        arena_capacity: 1 << 20,
        ..VmConfig::default()
    });
    let mut host = TestHost {
        big: 4 << 20,
        ..TestHost::default()
    };
    let e = vm
        .exec_with(&mut host, "=big", "local a, s = host.big() return #s")
        .unwrap_err();
    assert!(
        matches!(&e, Error::Memory) || e.to_string().contains("not enough memory"),
        "{e:?}"
    );
    let r = vm
        .exec_with(
            &mut host,
            "=big",
            "local ok, m = pcall(host.big) return ok, m",
        )
        .unwrap();
    assert_eq!(r, [Value::Boolean(false), Value::from("not enough memory")]);
    assert_usable(&mut vm, &mut host);
    host.big = 1000;
    let r = vm
        .exec_with(&mut host, "=big", "local a, s = host.big() return a, #s")
        .unwrap();
    assert_eq!(r, [Value::Integer(1), Value::Integer(1000)]);
}

#[test]
fn budget_applies_to_scripts_calling_host_functions() {
    let mut vm = vm_with(VmConfig {
        instruction_budget: Some(100_000),
        ..VmConfig::default()
    });
    let mut host = TestHost::default();
    let e = vm
        .exec_with(
            &mut host,
            "=loop",
            "local s = 0 while true do s = s + memory.read_u8(s & 0xffff) end",
        )
        .unwrap_err();
    assert!(matches!(e, Error::Budget(100_000)), "{e:?}");
    assert!(host.calls > 1000, "{}", host.calls);
    // Caught by pcall: still ends.
    let e = vm
        .exec_with(
            &mut host,
            "=loop",
            "while true do pcall(function() while true do memory.read_u8(1) end end) end",
        )
        .unwrap_err();
    assert!(matches!(e, Error::Budget(_)), "{e:?}");
    assert_usable(&mut vm, &mut host);
}

#[test]
fn call_with_reaches_dotted_paths() {
    let mut vm = vm();
    let mut host = TestHost::default();
    vm.exec(
        "=init",
        "gbhost = { hooks = {} } function gbhost.run_hooks(x) return host.count(), x end \
         function gbhost.hooks.frame() return 'deep' end",
    )
    .unwrap();
    assert_eq!(
        vm.call_with(&mut host, "gbhost.run_hooks", &[Value::Integer(3)])
            .unwrap(),
        [Value::Integer(1), Value::Integer(3)]
    );
    assert_eq!(
        vm.call("gbhost.hooks.frame", &[]).unwrap(),
        [Value::from("deep")]
    );
    assert_eq!(
        vm.call_with(&mut host, "echo", &[Value::Integer(1)])
            .unwrap(),
        [Value::Integer(1)]
    );
    for missing in ["gbhost.nope", "gbhost.run_hooks.x", "nope.x", "gbhost"] {
        assert!(
            matches!(
                vm.call_with(&mut host, missing, &[]),
                Err(Error::NotAFunction(_))
            ),
            "{missing}"
        );
    }
    vm.spawn_function("co", "gbhost.hooks.frame").unwrap();
    assert_eq!(
        vm.resume("co", &[]).unwrap(),
        Resume::Returned(vec![Value::from("deep")])
    );
}

#[test]
fn snapshots_around_host_calls_stay_byte_exact() {
    // Host calls whose results allocate (strings) and a coroutine suspended inside a host
    // function, snapshotted and restored: every re-run gives the same values and the same
    // arena bytes (the desync check).
    let mut vm = vm();
    let mut host = TestHost {
        big: 300,
        ..TestHost::default()
    };
    vm.exec(
        "=init",
        "log = {} function step(i) \
           local a, s = host.big() local _, e = echo(i, s .. i) \
           log[#log + 1] = e .. memory.read_u8(i) return #log, e:sub(-3) end",
    )
    .unwrap();
    vm.spawn_chunk(
        "main",
        "=main",
        "local n = 0 while true do n = n + memory.read_u8(n) local r = emu.frameadvance(n) \
         if r then n = n + r end end",
    )
    .unwrap();
    const FRAMES: usize = 60;
    let mut snaps = Vec::new();
    let mut outputs = Vec::new();
    for f in 0..FRAMES {
        snaps.push(vm.snapshot());
        let mut out = vm
            .call_with(&mut host, "step", &[Value::Integer(f as i64)])
            .unwrap();
        match vm
            .resume_with(&mut host, "main", &[Value::Integer(f as i64)])
            .unwrap()
        {
            Resume::Yielded(v) => out.extend(v),
            r => panic!("{r:?}"),
        }
        vm.collect_frame().unwrap();
        outputs.push(out);
    }
    snaps.push(vm.snapshot());
    let mut again = vm.snapshot();
    for start in [0, 17, FRAMES - 1, 5, 42] {
        vm.restore(&snaps[start]).unwrap();
        vm.snapshot_into(&mut again);
        assert!(again.bytes() == snaps[start].bytes());
        for f in start..FRAMES {
            let mut out = vm
                .call_with(&mut host, "step", &[Value::Integer(f as i64)])
                .unwrap();
            match vm
                .resume_with(&mut host, "main", &[Value::Integer(f as i64)])
                .unwrap()
            {
                Resume::Yielded(v) => out.extend(v),
                r => panic!("{r:?}"),
            }
            vm.collect_frame().unwrap();
            assert_eq!(out, outputs[f], "frame {f} after restoring {start}");
            vm.snapshot_into(&mut again);
            assert!(
                again.bytes() == snaps[f + 1].bytes(),
                "arena after frame {f} (restored {start}) differs"
            );
        }
    }
    vm.check_arena().unwrap();
}

#[test]
fn errors_and_panics_between_snapshots_leave_no_trace() {
    // A failing host call that is rolled back leaves the arena as a clean run does.
    let mut vm = vm();
    let mut host = TestHost::default();
    vm.exec("=init", "function ok(i) return echo(i) end")
        .unwrap();
    let base = vm.snapshot();
    vm.call_with(&mut host, "ok", &[Value::Integer(1)]).unwrap();
    vm.collect_frame().unwrap();
    let clean = vm.snapshot();
    vm.restore(&base).unwrap();
    assert!(vm.exec_with(&mut host, "=f", "host.fail()").is_err());
    assert!(vm.exec_with(&mut host, "=p", "host.panic()").is_err());
    vm.restore(&base).unwrap();
    vm.call_with(&mut host, "ok", &[Value::Integer(1)]).unwrap();
    vm.collect_frame().unwrap();
    assert!(vm.snapshot().bytes() == clean.bytes());
}

#[test]
fn host_yields_inside_lua_coroutines_and_messages_are_not_formats() {
    let mut vm = Vm::builder(VmConfig::default())
        .host_function("emu.frameadvance", FRAMEADVANCE)
        .host_function("fail", FAIL)
        .build()
        .unwrap();
    let mut host = TestHost::default();
    // A coroutine the script itself drives: the host's yield goes to the script.
    let r = vm
        .exec_with(
            &mut host,
            "=w",
            "local co = coroutine.wrap(function(a) local b = emu.frameadvance(a + 1) return b * 2 end) \
             local y = co(1) return y, co(20)",
        )
        .unwrap();
    assert_eq!(r, [Value::Integer(2), Value::Integer(40)]);
    // A coroutine suspended in a host function finishes under a plain `resume`.
    vm.spawn_chunk("c", "=c", "return emu.frameadvance() + 1")
        .unwrap();
    assert_eq!(
        vm.resume_with(&mut host, "c", &[]).unwrap(),
        Resume::Yielded(vec![])
    );
    assert_eq!(
        vm.resume("c", &[Value::Integer(4)]).unwrap(),
        Resume::Returned(vec![Value::Integer(5)])
    );
    // Messages are bytes, not format strings.
    struct Percent;
    impl Host for Percent {
        fn call(&mut self, _: u32, _: &[Value], _: &mut Vec<Value>) -> Result<HostReturn, String> {
            Err("100% %s %d \u{e9}".into())
        }
    }
    let r = vm
        .exec_with(&mut Percent, "=m", "return pcall(function() fail() end)")
        .unwrap();
    assert_eq!(
        r,
        [Value::Boolean(false), Value::from("m:1: 100% %s %d \u{e9}")]
    );
}

/// The host-function factory makes host functions by number when asked, the same as
/// registered ones; anything but a whole number in range is an error.
#[test]
fn the_factory_makes_host_functions_on_demand() {
    let mut vm = Vm::builder(VmConfig::default())
        .host_function_factory("make")
        .build()
        .unwrap();
    let mut host = TestHost::default();
    let r = vm
        .exec_with(&mut host, "=make", "local e = make(0) return e('hi', 2)")
        .unwrap();
    assert_eq!(r, [Value::from("hi"), Value::Integer(2)]);
    assert_eq!(
        host.seen,
        [(ECHO, vec![Value::from("hi"), Value::Integer(2)])]
    );
    for bad in ["make('x')", "make(1.5)", "make(-1)", "make(1 << 40)"] {
        let e = vm.exec_with(&mut host, "=bad", bad).unwrap_err();
        assert!(
            e.to_string().contains("a host function number expected"),
            "{bad}: {e}"
        );
    }
    vm.check_arena().unwrap();
}
