//! Failure injection and budgets: allocation failure at every allocation point, runaway loops,
//! memory bombs. Never an abort; the VM keeps working afterwards.

use crate::common::{frame, hud_vm};
use lua_rollback::{AllocFailure, Error, Resume, Value, Vm, VmConfig};

/// The VM still computes, allocates and collects correctly.
fn assert_usable(vm: &mut Vm) {
    let r = vm
        .exec(
            "=check",
            "local t = {} for i = 1, 200 do t[i] = tostring(i) .. 'x' end \
             collectgarbage() return #t, t[200]",
        )
        .expect("VM unusable");
    assert_eq!(r, [Value::Integer(200), Value::from("200x")]);
    vm.check_arena().unwrap();
}

fn is_memory_error(e: &Error) -> bool {
    match e {
        Error::Memory => true,
        Error::Runtime(m) | Error::ErrorHandling(m) => m.contains("not enough memory"),
        _ => false,
    }
}

#[test]
fn allocation_failure_at_every_point_of_the_first_frames() {
    const FRAMES: usize = 3;
    let (mut vm, host) = hud_vm(VmConfig::default());
    let base = vm.snapshot();
    let base_host = host.state();
    let reference: Vec<u64> = (0..FRAMES)
        .map(|_| frame(&mut vm, &host).unwrap())
        .collect();

    for mode in ["once", "from"] {
        let (mut clean, mut failed, mut points) = (0, 0, 0u64);
        for k in 1.. {
            vm.restore(&base).unwrap();
            host.set_state(base_host);
            vm.set_alloc_failure(match mode {
                "once" => AllocFailure::Once(k),
                _ => AllocFailure::From(k),
            });
            let mut outcome = Ok(());
            for _ in 0..FRAMES {
                if let Err(e) = frame(&mut vm, &host) {
                    outcome = Err(e);
                    break;
                }
            }
            let injected = vm.injected_failures();
            vm.set_alloc_failure(AllocFailure::Off);
            if injected == 0 {
                // k is past the last allocation of these frames: every point was covered.
                assert!(outcome.is_ok());
                break;
            }
            points += 1;
            match outcome {
                Ok(()) => clean += 1,
                Err(e) => {
                    assert!(is_memory_error(&e), "{mode} k={k}: unexpected error {e}");
                    failed += 1;
                }
            }
            vm.check_arena()
                .unwrap_or_else(|e| panic!("{mode} k={k}: {e}"));
            // The VM keeps working, and a restore brings the script fully back.
            assert_usable(&mut vm);
            if k % 50 == 1 {
                vm.restore(&base).unwrap();
                host.set_state(base_host);
                for (f, want) in reference.iter().enumerate() {
                    assert_eq!(
                        frame(&mut vm, &host).unwrap(),
                        *want,
                        "{mode} k={k} frame {f}"
                    );
                }
            }
        }
        assert!(points > 500, "{mode}: only {points} allocation points");
        assert!(failed > 0, "{mode}: no failure surfaced");
        if mode == "from" {
            // Persistent failure can never complete the frames.
            assert_eq!(clean, 0, "from: {clean} clean runs");
        }
        eprintln!("{mode}: {points} allocation points, {clean} clean, {failed} memory errors");
    }
}

#[test]
fn allocation_failure_while_building_is_an_error() {
    let mut k = 1;
    loop {
        let r = Vm::new(VmConfig {
            alloc_failure: AllocFailure::From(k),
            ..VmConfig::default()
        });
        match r {
            Ok(mut vm) => {
                assert_usable(&mut vm);
                break;
            }
            Err(e) => assert!(
                matches!(e, Error::StateCreation) || is_memory_error(&e),
                "k={k}: {e}"
            ),
        }
        k += 1;
        assert!(k < 100_000);
    }
    assert!(k > 100, "building took only {k} allocations");
}

#[test]
fn arena_too_small_is_an_error() {
    assert!(matches!(
        Vm::new(VmConfig {
            arena_capacity: 1000,
            ..VmConfig::default()
        }),
        Err(Error::Arena(_))
    ));
    // 64 KiB is a valid arena but cannot hold the standard libraries.
    match Vm::new(VmConfig {
        arena_capacity: 64 * 1024,
        ..VmConfig::default()
    }) {
        // Either it fits (and works or reports memory errors), or building fails cleanly.
        Ok(mut vm) => match vm.exec(
            "=t",
            "local t = {} for i = 1, 100 do t[i] = {} end return #t",
        ) {
            Ok(r) => assert_eq!(r, [Value::Integer(100)]),
            Err(e) => assert!(is_memory_error(&e), "{e}"),
        },
        Err(e) => assert!(
            matches!(e, Error::StateCreation) || is_memory_error(&e),
            "{e}"
        ),
    }
}

fn budget_vm() -> Vm {
    Vm::new(VmConfig {
        instruction_budget: Some(2_000_000),
        ..VmConfig::default()
    })
    .unwrap()
}

#[test]
fn runaway_loops_are_stopped() {
    let mut vm = budget_vm();
    let runaway = [
        "while true do end",
        "local function f() return f() end return f()",
        // Catching the budget error does not help: once spent, every instruction raises.
        "while true do pcall(function() while true do end end) end",
        "while true do local ok = pcall(error, 'x') end",
        "while true do coroutine.resume(coroutine.create(function() while true do end end)) end",
        "local co = coroutine.wrap(function() while true do coroutine.yield() end end) while true do co() end",
        "while true do xpcall(function() while true do end end, function(m) while true do end end) end",
        "local t = setmetatable({}, {__index = function(t, k) while true do end end}) return t.x",
        "local t = {} for i = 1, 1e4 do t[i] = i end table.sort(t, function(a, b) while true do end end)",
        "while true do string.gsub('aaa', 'a', function() end) end",
        "local co = coroutine.wrap(function() while true do xpcall(coroutine.yield, function() while true do end end) end end) while true do co() end",
    ];
    for src in runaway {
        match vm.exec("=runaway", src) {
            Err(Error::Budget(n)) => assert_eq!(n, 2_000_000),
            other => panic!("{src}: {other:?}"),
        }
        assert_usable(&mut vm);
    }
    // A call that catches its runaway coroutine's failure still reports the budget.
    assert!(matches!(
        vm.exec(
            "=c",
            "coroutine.resume(coroutine.create(function() while true do end end)) return 1"
        ),
        Err(Error::Budget(_))
    ));
    // Errors after a spent budget are reported as what they are.
    assert!(matches!(
        vm.exec("=spin", "while true do end"),
        Err(Error::Budget(_))
    ));
    assert!(matches!(vm.exec("=bad", "return +"), Err(Error::Syntax(_))));
    assert!(matches!(
        vm.exec("=spin", "while true do end"),
        Err(Error::Budget(_))
    ));
    assert!(matches!(vm.call("nope", &[]), Err(Error::NotAFunction(_))));
    assert!(matches!(
        vm.exec("=spin", "while true do end"),
        Err(Error::Budget(_))
    ));
    assert!(matches!(
        vm.exec("=err", "error('x')"),
        Err(Error::Runtime(_))
    ));
    // Within budget: fine.
    let r = vm
        .exec(
            "=ok",
            "local s = 0 for i = 1, 100000 do s = s + i end return s",
        )
        .unwrap();
    assert_eq!(r, [Value::Integer(5_000_050_000)]);
}

#[test]
fn budget_applies_per_call_and_to_coroutines() {
    let mut vm = budget_vm();
    vm.exec(
        "=init",
        "function step(n) local s = 0 for i = 1, n do s = s + i end return s end \
         function loop() local i = 0 while true do i = i + 1 if i % 1000 == 0 then coroutine.yield(i) end end end",
    )
    .unwrap();
    // Each call has its own budget: many calls just under it all succeed.
    for _ in 0..5 {
        vm.call("step", &[Value::Integer(200_000)]).unwrap();
    }
    assert!(matches!(
        vm.call("step", &[Value::Integer(100_000_000)]),
        Err(Error::Budget(_))
    ));
    vm.spawn_function("co", "loop").unwrap();
    for i in 1..=3 {
        assert_eq!(
            vm.resume("co", &[]).unwrap(),
            Resume::Yielded(vec![Value::Integer(i * 1000)])
        );
    }
    // A coroutine that never yields is stopped and forgotten.
    vm.exec("=spin", "function spin() while true do end end")
        .unwrap();
    vm.spawn_function("spin", "spin").unwrap();
    assert!(matches!(vm.resume("spin", &[]), Err(Error::Budget(_))));
    assert!(matches!(vm.resume("spin", &[]), Err(Error::NoCoroutine(_))));
    // The other coroutine is unaffected.
    assert_eq!(
        vm.resume("co", &[]).unwrap(),
        Resume::Yielded(vec![Value::Integer(4000)])
    );
    assert_usable(&mut vm);
}

#[test]
fn memory_bombs_are_stopped() {
    let mut vm = Vm::new(VmConfig {
        arena_capacity: 2 << 20,
        ..VmConfig::default()
    })
    .unwrap();
    let bombs = [
        "local t = {} while true do t[#t + 1] = ('x'):rep(1000) .. #t end",
        "return ('x'):rep(1 << 40)",
        "local s = 'x' while true do s = s .. s end",
        "local t = {} for i = 1, 1e9 do t[i] = {} end",
        "local function f(...) return f(1, ...) end return f()",
        "local co = {} while true do co[#co + 1] = coroutine.create(function() end) end",
        "return ('x'):rep(1e7, ('y'):rep(100))",
    ];
    for src in bombs {
        match vm.exec("=bomb", src) {
            Err(e) if is_memory_error(&e) => {}
            Err(Error::Runtime(m)) if m.contains("stack overflow") || m.contains("too large") => {}
            Err(Error::Budget(_)) => {}
            other => panic!("{src}: {other:?}"),
        }
        assert!(vm.stats().high_water <= vm.stats().capacity);
        assert_usable(&mut vm);
    }
    // A bomb caught by the script itself: the script recovers and goes on.
    let r = vm
        .exec(
            "=caught",
            "local t = {} local ok, err = pcall(function() while true do t[#t + 1] = ('y'):rep(500) .. #t end end) \
             t = nil collectgarbage() return ok, err",
        )
        .unwrap();
    assert_eq!(r, [Value::Boolean(false), Value::from("not enough memory")]);
    assert_usable(&mut vm);
}

#[test]
fn host_calls_report_errors_cleanly() {
    let mut vm = Vm::new(VmConfig::default()).unwrap();
    assert!(matches!(vm.exec("=bad", "return +"), Err(Error::Syntax(_))));
    assert!(matches!(vm.call("nope", &[]), Err(Error::NotAFunction(_))));
    assert!(matches!(vm.resume("nope", &[]), Err(Error::NoCoroutine(_))));
    assert!(matches!(
        vm.spawn_function("c", "nope"),
        Err(Error::NotAFunction(_))
    ));
    assert!(matches!(vm.exec("a\0b", "return 1"), Err(Error::BadName)));
    match vm.exec("=err", "error('boom')") {
        Err(Error::Runtime(m)) => assert!(m.contains("boom") && m.contains("traceback"), "{m}"),
        other => panic!("{other:?}"),
    }
    match vm.exec("=err", "error({})") {
        Err(Error::Runtime(m)) => assert!(m.contains("table"), "{m}"),
        other => panic!("{other:?}"),
    }
    vm.exec("=init", "function boom() local x = nil; return x.y end")
        .unwrap();
    vm.spawn_function("b", "boom").unwrap();
    match vm.resume("b", &[]) {
        Err(Error::Runtime(m)) => {
            assert!(m.contains("attempt to index") && m.contains("boom"), "{m}")
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(vm.resume("b", &[]), Err(Error::NoCoroutine(_))));
    // Yield outside a coroutine is an error, not a crash.
    let mut vm2 = Vm::builder(VmConfig::default())
        .function("frameadvance", lua_rollback::yield_frame)
        .build()
        .unwrap();
    assert!(matches!(
        vm2.exec("=y", "frameadvance()"),
        Err(Error::Runtime(_))
    ));
    assert_usable(&mut vm2);
    assert_usable(&mut vm);
}
