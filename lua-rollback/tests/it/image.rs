//! Portable images: a VM exported mid-run (its HUD coroutine suspended in
//! `emu.frameadvance()`) continues exactly in a new VM — in this process and in another one
//! (ASLR on, so every address of code differs) — and tampered or foreign images are refused.
//!
//! Each test maps its arenas at a window slot of its own (tests share one process).

use std::process::Command;

use lua_rollback::{Error, ImageError, ImageKey, Vm, VmConfig, image_info, window_address};

use crate::common::{Host, HostState, Rng, frame, hud_builder, raw_builder, script_vm};

const CHILD_ENV: &str = "LUA_ROLLBACK_IMAGE_CHILD";

fn key(b: u8) -> ImageKey {
    ImageKey::from_bytes([b; 32])
}

fn config(slot: usize) -> VmConfig {
    VmConfig {
        window_slot: Some(slot),
        ..VmConfig::default()
    }
}

/// Run `n` frames; the per-frame output hashes.
fn run(vm: &mut Vm, host: &Host, n: usize) -> Vec<u64> {
    (0..n).map(|_| frame(vm, host).expect("frame")).collect()
}

/// What the two halves of a run must agree on.
#[derive(Debug, PartialEq)]
struct Tail {
    frames: Vec<u64>,
    image_hash: u64,
}

#[test]
fn an_image_continues_exactly_in_a_new_vm() {
    let (mut a, host) = script_vm(config(40), "@hud.lua", crate::common::HUD);
    run(&mut a, &host, 300);
    let image = a.export_image(&key(1)).unwrap();
    let at_export = host.state();
    let hash_at_export = a.image_hash().unwrap();
    let expected = Tail {
        frames: run(&mut a, &host, 300),
        image_hash: a.image_hash().unwrap(),
    };
    let addr = a.arena_address();
    drop(a);

    let info = image_info(&image).unwrap();
    assert_eq!(info.address, addr);
    assert_eq!(addr, window_address(40));
    let mut b = hud_builder(config(41))
        .build_from_image(&key(1), &image)
        .unwrap();
    assert_eq!(b.arena_address(), addr, "built where the image says");
    assert_eq!(b.image_hash().unwrap(), hash_at_export);
    let host = Host::new();
    host.set_state(at_export);
    let got = Tail {
        frames: run(&mut b, &host, 300),
        image_hash: b.image_hash().unwrap(),
    };
    assert_eq!(got, expected);
    b.check_arena().unwrap();
}

#[test]
fn raw_host_functions_are_named_by_their_path() {
    let host = Host::new();
    let ptr = std::ptr::from_ref::<Host>(&host).cast_mut().cast();
    let mut a = raw_builder(config(44), ptr).build().unwrap();
    a.spawn_chunk("main", "@hud.lua", crate::common::HUD)
        .unwrap();
    run(&mut a, &host, 120);
    let image = a.export_image(&key(2)).unwrap();
    let at_export = host.state();
    let expected = run(&mut a, &host, 120);
    drop(a);
    host.set_state(at_export);
    let mut b = raw_builder(config(45), ptr)
        .build_from_image(&key(2), &image)
        .unwrap();
    assert_eq!(run(&mut b, &host, 120), expected);
    // A VM without those raw functions cannot take the image.
    drop(b);
    match hud_builder(config(46)).build_from_image(&key(2), &image) {
        Err(Error::Image(ImageError::UnknownCode(name))) => {
            assert!(name.starts_with("raw:"), "{name}");
        }
        other => panic!(
            "expected an unknown-code error, got {:?}",
            other.map(|_| ())
        ),
    }
}

#[test]
fn tampered_foreign_and_misplaced_images_are_refused() {
    let (mut a, host) = script_vm(config(48), "@hud.lua", crate::common::HUD);
    run(&mut a, &host, 60);
    let image = a.export_image(&key(3)).unwrap();
    let before = a.image_hash().unwrap();
    // Another user's key.
    assert!(matches!(
        a.image_snapshot(&key(4), &image),
        Err(Error::Image(ImageError::Foreign))
    ));
    // Every single flipped bit (sampled) and every truncation (sampled) is refused, and the VM
    // is untouched.
    let mut rng = Rng(0x1234_5678);
    for _ in 0..300 {
        let mut bad = image.clone();
        let i = (rng.next() % bad.len() as u64) as usize;
        bad[i] ^= 1 << (rng.next() % 8);
        assert!(a.load_image(&key(3), &bad).is_err(), "flipped byte {i}");
        let cut = (rng.next() % image.len() as u64) as usize;
        assert!(
            a.load_image(&key(3), &image[..cut]).is_err(),
            "cut at {cut}"
        );
    }
    assert_eq!(a.image_hash().unwrap(), before);
    assert_eq!(frame(&mut a, &host).map(|_| ()).ok(), Some(()));
    // Another format version, sealed with the right key: refused for its version.
    let mut other_version = image[..image.len() - 32].to_vec();
    other_version[4] ^= 0x7f;
    let mac = blake3::keyed_hash(&[3; 32], &other_version);
    other_version.extend_from_slice(mac.as_bytes());
    assert!(matches!(
        a.image_snapshot(&key(3), &other_version),
        Err(Error::Image(ImageError::Version { .. }))
    ));
    // A key bound to a context seals images only for that context.
    let bound = a.export_image(&key(3).bind(b"game A, script 1")).unwrap();
    assert!(
        a.image_snapshot(&key(3).bind(b"game A, script 1"), &bound)
            .is_ok()
    );
    for other in [
        key(3),
        key(3).bind(b"game A, script 2"),
        key(4).bind(b"game A, script 1"),
    ] {
        assert!(matches!(
            a.image_snapshot(&other, &bound),
            Err(Error::Image(ImageError::Foreign))
        ));
    }
    // The right image, but for a VM at another address.
    let (mut other, _) = script_vm(config(49), "@hud.lua", crate::common::HUD);
    assert!(matches!(
        other.load_image(&key(3), &image),
        Err(Error::Image(ImageError::Placement { .. }))
    ));
}

/// Images re-sealed with the right key after random damage (what a user could do to their
/// own files) still never make the decoder read out of bounds or panic: the walk is checked
/// safe code. (The damaged images are only decoded, never loaded.)
#[test]
fn the_decoder_survives_damaged_images_sealed_with_the_key() {
    let (mut a, host) = script_vm(config(52), "@hud.lua", crate::common::HUD);
    run(&mut a, &host, 30);
    let image = a.export_image(&key(5)).unwrap();
    // Decode the payload once to damage real structure: flip bytes inside the body.
    let mut rng = Rng(0xfeed);
    let body = image.len() - 32;
    let mut refused = 0;
    for _ in 0..200 {
        let mut bad = image[..body].to_vec();
        for _ in 0..1 + rng.next() % 4 {
            let i = (rng.next() % body as u64) as usize;
            bad[i] = rng.next() as u8;
        }
        let mac = blake3::keyed_hash(&[5; 32], &bad);
        bad.extend_from_slice(mac.as_bytes());
        if a.image_snapshot(&key(5), &bad).is_err() {
            refused += 1;
        }
    }
    assert!(refused > 0, "some damage must be detected");
}

#[test]
fn an_image_round_trips_through_a_delta_from_an_earlier_one() {
    let (mut a, host) = script_vm(config(58), "@hud.lua", crate::common::HUD);
    run(&mut a, &host, 60);
    let base = a.export_image(&key(8)).unwrap();
    run(&mut a, &host, 180);
    let image = a.export_image(&key(8)).unwrap();
    let delta = lua_rollback::image_delta(&base, &image).unwrap();
    let z = |b: &[u8]| zstd::bulk::compress(b, 3).unwrap().len();
    assert!(
        z(&delta) * 2 < z(&image),
        "a delta is much smaller than its image"
    );
    assert_eq!(
        lua_rollback::image_from_delta(&base, &delta).unwrap(),
        image
    );
    // From another base: an image whose seal does not verify.
    let wrong = lua_rollback::image_from_delta(&image, &delta).unwrap_or_default();
    assert!(a.image_snapshot(&key(8), &wrong).is_err());
}

#[test]
fn a_table_keyed_by_a_c_function_is_not_portable() {
    let mut vm = Vm::new(config(54)).unwrap();
    vm.exec("=t", "names = {} names[print] = 'print'").unwrap();
    match vm.export_image(&key(6)) {
        Err(Error::Image(ImageError::Unportable(why))) => assert!(why.contains("keyed"), "{why}"),
        other => panic!("expected unportable, got {:?}", other.map(|_| ())),
    }
    vm.exec("=t", "names = nil collectgarbage()").unwrap();
    vm.export_image(&key(6)).unwrap();
}

#[test]
fn every_library_helper_survives_an_image() {
    // Iterators, wrapped coroutines, pcall continuations, buffers: each left alive across the
    // export, then used after the import.
    let src = r#"
        local it, st, i0 = ipairs({10, 20, 30})
        local gm = string.gmatch("a1b2c3", "%a%d")
        local cw = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end)
        local cs = utf8.codes("héllo")
        local co = coroutine.create(function(x)
          local ok, v = pcall(function() return coroutine.yield(x) + 1 end)
          local ok2, w = xpcall(function() return coroutine.yield(v) * 2 end, debug and debug.traceback or print)
          return w
        end)
        local big = string.rep("ab", 5000)
        assert(select(2, coroutine.resume(co, 1)) == 1)
        function step()
          local out = {}
          local _, v = it(st, i0); out[#out + 1] = v
          out[#out + 1] = gm()
          out[#out + 1] = cw()
          local _, c = cs("héllo", 0); out[#out + 1] = c
          local _, r = coroutine.resume(co, 41); out[#out + 1] = r
          local _, r2 = coroutine.resume(co, r); out[#out + 1] = r2
          out[#out + 1] = #big
          return table.concat(out, ",")
        end
    "#;
    let mut a = Vm::new(config(56)).unwrap();
    a.exec("=s", src).unwrap();
    let image = a.export_image(&key(7)).unwrap();
    let step = |vm: &mut Vm| {
        vm.call("step", &[]).unwrap()[0]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let expected = [step(&mut a), step(&mut a)];
    assert_eq!(expected[0], "10,a1,1,104,42,84,10000");
    assert_eq!(
        expected[1],
        "10,b2,2,104,cannot resume dead coroutine,cannot resume dead coroutine,10000"
    );
    drop(a);
    let mut b = Vm::builder(config(57))
        .build_from_image(&key(7), &image)
        .unwrap();
    assert_eq!([step(&mut b), step(&mut b)], expected);
}

// ---- Across processes --------------------------------------------------------------------

fn child_name() -> String {
    match module_path!().split_once("::") {
        Some((_, m)) => format!("{m}::child"),
        None => "child".into(),
    }
}

fn hex(s: HostState) -> String {
    format!("{}:{}:{}", s.frame, s.emu_acc, s.input)
}

fn unhex(s: &str) -> HostState {
    let v: Vec<u64> = s.split(':').map(|x| x.parse().unwrap()).collect();
    HostState {
        frame: v[0],
        emu_acc: v[1],
        input: v[2] as u8,
    }
}

/// Runs only as a child process. `run N FILE`: run N frames, export to FILE, print the host
/// state. `resume N FILE STATE`: build from FILE, run N frames. Both print the frames' hashes
/// and the final image hash.
#[test]
fn child() {
    let Some(cmd) = std::env::var_os(CHILD_ENV) else {
        return;
    };
    let cmd = cmd.into_string().unwrap();
    let args: Vec<&str> = cmd.split(' ').collect();
    let n: usize = args[1].parse().unwrap();
    let (mut vm, host) = if args[0] == "run" {
        script_vm(config(60), "@hud.lua", crate::common::HUD)
    } else {
        let image = std::fs::read(args[2]).unwrap();
        let vm = hud_builder(config(61))
            .build_from_image(&key(9), &image)
            .unwrap();
        let host = Host::new();
        host.set_state(unhex(args[3]));
        (vm, host)
    };
    let mut out = Vec::new();
    if args[0] == "run" {
        run(&mut vm, &host, n);
        std::fs::write(args[2], vm.export_image(&key(9)).unwrap()).unwrap();
        out.push(hex(host.state()));
        out.push(format!("{:x}", vm.image_hash().unwrap()));
        out.push(format!("{:x}", vm.main_thread_address()));
        let tail = run(&mut vm, &host, n);
        out.push(format!("{tail:?}"));
    } else {
        out.push(format!("{:x}", vm.image_hash().unwrap()));
        out.push(format!("{:x}", vm.main_thread_address()));
        let tail = run(&mut vm, &host, n);
        out.push(format!("{tail:?}"));
    }
    out.push(format!("{:x}", vm.image_hash().unwrap()));
    println!("IMAGE<{}>", out.join("|"));
}

fn run_child(cmd: &str) -> Vec<String> {
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", &child_name(), "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, cmd)
        .output()
        .unwrap();
    assert!(out.status.success(), "child failed: {out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let start = stdout.find("IMAGE<").expect("no output") + 6;
    let end = stdout[start..].find('>').unwrap() + start;
    stdout[start..end].split('|').map(str::to_owned).collect()
}

#[test]
fn an_image_continues_exactly_in_another_process() {
    let dir = std::env::temp_dir().join(format!("lrb-image-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("hud.lrpi");
    let file = file.to_str().unwrap();
    // Process A: 200 frames, export, then 200 more (the reference for the second half).
    let a = run_child(&format!("run 200 {file}"));
    // Process B: import, 200 frames.
    let b = run_child(&format!("resume 200 {file} {}", a[0]));
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(b[0], a[1], "image hash right after the import");
    assert_eq!(b[1], a[2], "main thread at the same address");
    assert_eq!(b[2], a[3], "every frame's output");
    assert_eq!(b[3], a[4], "image hash at the end");
}
