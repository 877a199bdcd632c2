//! The public API: values in and out, coroutines, GC control, statistics, restore semantics.

use lua_rollback::{GcMode, Resume, Value, Vm, VmConfig};

#[test]
fn values_round_trip_through_calls() {
    let mut vm = Vm::new(VmConfig::default()).unwrap();
    vm.exec("=init", "function echo(...) return ... end function kinds() return {}, print, coroutine.create(print) end")
        .unwrap();
    let args = [
        Value::Nil,
        Value::Boolean(true),
        Value::Integer(-7),
        Value::Number(2.5),
        Value::String(b"bytes\0and\xffmore".to_vec()),
        Value::Integer(i64::MAX),
    ];
    assert_eq!(vm.call("echo", &args).unwrap(), args);
    assert_eq!(
        vm.call("echo", &[Value::Other("table")]).unwrap(),
        [Value::Nil]
    );
    assert_eq!(
        vm.call("kinds", &[]).unwrap(),
        [
            Value::Other("table"),
            Value::Other("function"),
            Value::Other("thread")
        ]
    );
    assert_eq!(
        vm.exec("=n", "return 1 // 0.0, 3 // 2").unwrap()[1],
        Value::Integer(1)
    );
    assert_eq!(Value::from("x").as_str(), Some("x"));
    assert_eq!(Value::from(5i64).as_integer(), Some(5));
}

#[test]
fn coroutines_take_arguments_and_finish() {
    let mut vm = Vm::new(VmConfig::default()).unwrap();
    vm.exec(
        "=init",
        "function acc(a) local total = a while true do local x = coroutine.yield(total) if x == nil then return 'done', total end total = total + x end end",
    )
    .unwrap();
    vm.spawn_function("acc", "acc").unwrap();
    assert_eq!(
        vm.resume("acc", &[Value::Integer(10)]).unwrap(),
        Resume::Yielded(vec![Value::Integer(10)])
    );
    assert_eq!(
        vm.resume("acc", &[Value::Integer(5)]).unwrap(),
        Resume::Yielded(vec![Value::Integer(15)])
    );
    assert_eq!(
        vm.resume("acc", &[]).unwrap(),
        Resume::Returned(vec![Value::from("done"), Value::Integer(15)])
    );
    assert!(vm.resume("acc", &[]).is_err());
    // A chunk as a coroutine, replaced by a new one of the same name.
    vm.spawn_chunk("c", "=c", "coroutine.yield(1) return 2")
        .unwrap();
    assert_eq!(
        vm.resume("c", &[]).unwrap(),
        Resume::Yielded(vec![Value::Integer(1)])
    );
    vm.spawn_chunk("c", "=c", "return 3").unwrap();
    assert_eq!(
        vm.resume("c", &[]).unwrap(),
        Resume::Returned(vec![Value::Integer(3)])
    );
}

#[test]
fn coroutines_roll_back_with_the_arena() {
    let mut vm = Vm::new(VmConfig::default()).unwrap();
    vm.spawn_chunk(
        "n",
        "=n",
        "local i = 0 while true do i = i + 1 coroutine.yield(i) end",
    )
    .unwrap();
    vm.resume("n", &[]).unwrap();
    let snap = vm.snapshot();
    let ahead: Vec<_> = (0..3).map(|_| vm.resume("n", &[]).unwrap()).collect();
    vm.restore(&snap).unwrap();
    let again: Vec<_> = (0..3).map(|_| vm.resume("n", &[]).unwrap()).collect();
    assert_eq!(ahead, again);
    // A coroutine made after the snapshot is gone after restoring it.
    vm.spawn_chunk("late", "=late", "coroutine.yield()")
        .unwrap();
    vm.restore(&snap).unwrap();
    assert!(vm.resume("late", &[]).is_err());
    // Restoring a snapshot taken with a lower high-water mark shrinks the arena back.
    vm.exec(
        "=big",
        "big = {} for i = 1, 20000 do big[i] = tostring(i) end",
    )
    .unwrap();
    assert!(vm.stats().high_water > snap.len());
    vm.restore(&snap).unwrap();
    assert_eq!(vm.stats().high_water, snap.len());
    assert_eq!(vm.exec("=b", "return big").unwrap(), [Value::Nil]);
    vm.check_arena().unwrap();
}

#[test]
fn gc_control_and_statistics() {
    for gc in [
        GcMode::Incremental {
            pause: 150,
            step_multiplier: 200,
            step_size: 10,
        },
        GcMode::Generational {
            minor_multiplier: 10,
            major_multiplier: 50,
        },
        GcMode::Manual,
    ] {
        let mut vm = Vm::new(VmConfig {
            gc,
            ..VmConfig::default()
        })
        .unwrap();
        vm.exec(
            "=garbage",
            "for i = 1, 20000 do local t = {i, tostring(i)} end",
        )
        .unwrap();
        let before = vm.stats();
        vm.gc_collect().unwrap();
        let after = vm.stats();
        assert!(after.used < before.used, "{gc:?}: {before:?} -> {after:?}");
        assert!(after.used <= after.high_water && after.high_water <= after.capacity);
        assert!(after.allocations > 1000 && after.frees > 1000);
        vm.gc_step(0).unwrap();
        vm.set_gc_mode(GcMode::Generational {
            minor_multiplier: 0,
            major_multiplier: 0,
        })
        .unwrap();
        vm.check_arena().unwrap();
    }
}

#[test]
fn same_script_same_arena_bytes_in_two_vms_at_a_fixed_address() {
    // Determinism within a process: two VMs at the same fixed address, fed the same calls,
    // hold identical arena bytes.
    let run = || {
        let mut vm = Vm::new(VmConfig {
            fixed_address: Some(0x6b6b_0000_0000),
            ..VmConfig::default()
        })
        .unwrap();
        vm.exec(
            "=s",
            "t = {} for i = 1, 500 do t[tostring(i)] = {i, math.random()} end collectgarbage()",
        )
        .unwrap();
        vm.snapshot().bytes().to_vec()
    };
    let a = run();
    let b = run();
    assert!(a == b, "arena bytes differ between identical runs");
}
