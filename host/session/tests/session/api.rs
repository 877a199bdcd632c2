//! The Lua API, function by function: each test checks the effect on the machine, the draw
//! list or the console, not only that the call returns. Compatibility layers at the end.

use crate::common::{console, session, texts};
use gb_core::Buttons;
use gb_session::{DrawCmd, Flavor};

/// Run `source` as a script for `frames` frames (at least one: a script starts before the
/// first frame that runs after it is loaded); returns the console lines.
fn run(source: &str, frames: u32) -> (gb_session::Session, Vec<String>) {
    let mut s = session();
    s.load_script("t.lua", source);
    for _ in 0..frames.max(1) {
        s.run_frame();
    }
    let lines = console(&mut s);
    (s, lines)
}

#[test]
fn memory_reads_in_every_width_and_domain() {
    let (s, lines) = run(
        r#"
        memory.write_bytes(0x10, "\x01\x82\x03\x84\x00", "wram")
        print(memory.read_u8(0xC010), memory.read_s8(0xC011), memory.read_u16_le(0xC010),
              memory.read_u16_be(0xC010), memory.read_s16_le(0xC010), memory.read_s16_be(0xC011),
              memory.read_u32_le(0xC010), memory.read_u32_be(0xC010), memory.read_s32_le(0xC010),
              memory.read_s32_be(0xC011, "bus"))
        print(memory.read_u8(0x10, "wram"), memory.read_u8(0x134, "rom"),
              memory.read_u8(0x40, "io"), memory.size("wram"), memory.size("cartram"),
              memory.size("rom"), memory.read_u8(0x80, "io") == memory.read_u8(0xFFFF))
        print(pcall(memory.read_u8, 0, "cartram"))
        print(pcall(memory.read_u8, 0, "nowhere"))
        "#,
        0,
    );
    assert_eq!(
        lines[0],
        "1\t-126\t33281\t386\t-32255\t-32253\t2214822401\t25297796\t-2080144895\t-2113698816"
    );
    assert_eq!(lines[1], format!("1\t{}\t145\t8192\t0\t32768\ttrue", b'G'));
    assert!(
        lines[2].starts_with("false\t") && lines[2].contains("outside the domain"),
        "{}",
        lines[2]
    );
    assert!(
        lines[3].contains("unknown memory domain 'nowhere'"),
        "{}",
        lines[3]
    );
    assert_eq!(s.gb().peek(0xC013), 0x84);
}

#[test]
fn memory_writes_land_where_they_should() {
    let (s, lines) = run(
        r#"
        memory.write_u8(0xC100, 0xAB)
        memory.write_u16_be(0xC102, 0x1234)
        memory.write_s32_le(0x0104, -2, "wram")
        memory.write_u8(0x10, 0x5A, "vram")
        memory.write_u8(0x7E, 0x77, "hram")
        print(pcall(memory.write_u8, 0x100, 1, "rom"))
        "#,
        0,
    );
    let gb = s.gb();
    assert_eq!(gb.peek(0xC100), 0xAB);
    assert_eq!((gb.peek(0xC102), gb.peek(0xC103)), (0x12, 0x34));
    assert_eq!(
        [0xC104, 0xC105, 0xC106, 0xC107].map(|a| gb.peek(a)),
        [0xFE, 0xFF, 0xFF, 0xFF]
    );
    assert_eq!(gb.domain(gb_core::Domain::Vram)[0x10], 0x5A);
    assert_eq!(gb.peek(0xFFFE), 0x77);
    assert!(lines[0].contains("the ROM is read-only"), "{lines:?}");
}

#[test]
fn search_finds_every_occurrence_in_native_code() {
    let (_, lines) = run(
        r#"
        memory.write_bytes(0x100, "gbhost", "wram")
        memory.write_bytes(0x1F00, "gbhost", "wram")
        memory.write_bytes(0x20, "\0\0\0", "hram")
        local hits = memory.search("gbhost")
        print(#hits, hits[1], hits[2], #memory.search("\0\0\0", "hram") > 0)
        "#,
        0,
    );
    assert_eq!(lines, ["2\t256\t7936\ttrue"]);
}

#[test]
fn a_scripts_ram_search_finds_the_frame_counter_and_rewinds_with_it() {
    // The counter ROM counts VBlanks at $C000; the script searches for it as a player would:
    // it went up, by one, and changed every frame.
    let source = r#"
        local s
        local step = 0
        event.on_frame_end(function()
          step = step + 1
          -- Work RAM holds power-on junk until the game's first frame clears it.
          if step == 1 then s = memory.ramsearch() return end
          s:update()
          if step == 2 then print("up", s:filter("gt")) end
          if step == 3 then print("by1", s:filter("by", 1)) end
          if step == 4 then print("every", s:filter("changes", "ge", 3)) end
          if step == 5 then
            local c = s:candidates()
            print("found", #c, c[1].addr, c[1].value - c[1].previous, s:undo(), s:count() > 1)
            local wide = memory.ramsearch({ size = 2, signed = true, domain = "hram" })
            print("hram", wide:count(), pcall(memory.ramsearch, { size = 3 }))
          end
        end)
    "#;
    let (mut s, lines) = run(source, 5);
    assert_eq!(lines[0], "up\t2", "{lines:?}");
    assert_eq!(lines[..3].len(), 3);
    assert!(lines[2].starts_with("every\t"), "{lines:?}");
    assert_eq!(lines[3], "found\t1\t0\t1\ttrue\tfalse", "{lines:?}");
    assert!(lines[4].starts_with("hram\t63\tfalse\t"), "{lines:?}");
    assert!(lines[4].contains("size must be 1, 2 or 4"), "{lines:?}");
    // The search lives in the script's memory: back two frames and forward again, the same
    // lines come out.
    s.seek(3).unwrap();
    for _ in 0..2 {
        s.run_frame();
    }
    assert_eq!(console(&mut s)[..2], lines[2..4]);
    assert_eq!(s.stats().desyncs, 0);
}

#[test]
fn debugger_functions_disassemble_and_hook_accesses() {
    // The counter ROM's VBlank handler: `push af` at $40, `ld a, [$C000]` at $41.
    let (_, lines) = run(
        r#"
        print(debugger.disasm(0x40))
        print(debugger.disasm(0x41))
        local writes = 0
        debugger.on_write(0xC000, function(addr, value) writes = writes + 1 end)
        debugger.on_exec(0x41, function(addr, opcode) if writes == 2 then print("exec", addr, opcode) end end)
        event.on_frame_end(function() if emu.framecount() == 4 then print("writes", writes) end end)
        print(pcall(debugger.disasm, 0x10000))
        "#,
        4,
    );
    assert_eq!(lines[0], "push af\t1");
    assert_eq!(lines[1], "ld a, [$C000]\t3");
    assert!(
        lines[2].starts_with("false\t") && lines[2].contains("not an address"),
        "{lines:?}"
    );
    assert!(lines.contains(&"exec\t65\t250".to_owned()), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("writes\t")), "{lines:?}");
}

#[test]
fn symbols_are_read_like_files_and_checked_on_replays() {
    let mut s = session();
    s.set_symbols(Some(gb_session::symbols::Symbols::parse(
        "; RGBDS\n00:C0A0 wPlayerHP\n03:4010 Boss.attack\n",
    )));
    s.load_script(
        "t.lua",
        r#"
        event.on_frame_end(function()
          local a, b = emu.symbol("wPlayerHP")
          local c, d = emu.symbol("Boss.attack")
          print(a, b, c, d, emu.symbol("nope"))
        end)
        "#,
    );
    for _ in 0..3 {
        s.run_frame();
    }
    let lines = console(&mut s);
    assert_eq!(lines[0], "49312\t0\t16400\t3\tnil");
    // A replay with the same symbols matches; with others it says so.
    s.seek(1).unwrap();
    s.run_frame();
    assert!(console(&mut s).iter().all(|l| !l.contains("replay:")));
    s.set_symbols(Some(gb_session::symbols::Symbols::parse(
        "00:C0A2 wPlayerHP\n",
    )));
    s.seek(2).unwrap();
    let warned = console(&mut s);
    assert!(
        warned
            .iter()
            .any(|l| l.contains("emu.symbol read sym:wPlayerHP")),
        "{warned:?}"
    );
}

#[test]
fn emu_functions_report_and_change_the_machine() {
    let (s, lines) = run(
        r#"
        print(emu.framecount(), emu.model(), emu.rom_title(), #emu.rom_hash())
        emu.frameadvance()
        print(emu.framecount())
        emu.setregister("hl", 0xBEEF)
        local r = emu.getregisters()
        print(emu.getregister("H"), r.l, r.hl, r.sp)
        print(pcall(emu.getregister, "ix"))
        "#,
        1,
    );
    assert_eq!(lines[0], "0\tDMG\tGBHOST TEST\t16");
    assert_eq!(lines[1], "1");
    assert_eq!(lines[2], "190\t239\t48879\t65534");
    assert!(lines[3].contains("no register 'ix'"));
    assert_eq!((s.gb().regs().h, s.gb().regs().l), (0xBE, 0xEF));
}

#[test]
fn lag_frames_are_frames_without_a_joypad_read() {
    // The counter ROM reads P1 in its VBlank handler: no frame lags while its interrupts run;
    // a script that stops them (IE = 0) makes every later frame a lag frame.
    let (_, lines) = run(
        r#"
        while true do
          if emu.framecount() == 5 then memory.write_u8(0xFFFF, 0) end
          print(emu.framecount(), emu.lagcount(), emu.islagged())
          emu.frameadvance()
        end
        "#,
        8,
    );
    // The post-boot VBlank request is served at once, so no frame lags until the write.
    assert_eq!(lines[1], "1\t0\tfalse");
    assert_eq!(lines[5], "5\t0\tfalse");
    assert_eq!(lines[6], "6\t1\ttrue");
    assert_eq!(lines[8], "8\t3\ttrue");
}

#[test]
fn joypad_set_get_and_the_users_buttons() {
    let mut s = session();
    s.load_script(
        "pad.lua",
        r#"
        while true do
          local f = emu.framecount()
          if f == 2 then joypad.set({A = true, Start = true}) end
          if f == 3 then joypad.set(0x01) end
          if f == 4 then joypad.set({Right = false}) end
          emu.frameadvance()
          local g, u = joypad.get(), joypad.getimmediate()
          print(f, g.A, g.Start, g.Right, u.Right, u.B)
        end
        "#,
    );
    s.set_buttons(Buttons::RIGHT | Buttons::B);
    for _ in 0..6 {
        s.run_frame();
    }
    let lines = console(&mut s);
    // Frame 2 pressed A and Start over the user's Right+B; frame 3 held exactly Right; frame 4
    // released Right; the user's own buttons never change.
    assert_eq!(
        lines,
        [
            "0\tfalse\tfalse\ttrue\ttrue\ttrue",
            "1\tfalse\tfalse\ttrue\ttrue\ttrue",
            "2\ttrue\ttrue\ttrue\ttrue\ttrue",
            "3\tfalse\tfalse\ttrue\ttrue\ttrue",
            "4\tfalse\tfalse\tfalse\ttrue\ttrue",
            "5\tfalse\tfalse\ttrue\ttrue\ttrue",
        ]
    );
}

#[test]
fn gui_functions_fill_the_draw_list() {
    let (s, _) = run(
        r##"
        event.on_frame_end(function()
          gui.text(1, 2, "hi", "#00FF00")
          gui.pixel_text(3, 4, 42, 0x80FF0000, "black")
          gui.box(0, 0, 10, 10, "red", 0x400000FF)
          gui.line(0, 0, 159, 143, 0x123456)
          gui.pixel(5, 6)
        end)
        while true do emu.frameadvance() end
        "##,
        1,
    );
    let (_, list) = s.draw_lists().next().expect("a list");
    assert_eq!(
        list,
        [
            DrawCmd::Text {
                x: 1,
                y: 2,
                text: "hi".into(),
                color: 0xFF00FF00
            },
            DrawCmd::PixelText {
                x: 3,
                y: 4,
                text: "42".into(),
                fg: 0x80FF0000,
                bg: 0xFF000000
            },
            DrawCmd::Box {
                x1: 0,
                y1: 0,
                x2: 10,
                y2: 10,
                line: 0xFFFF0000,
                fill: 0x400000FF
            },
            DrawCmd::Line {
                x1: 0,
                y1: 0,
                x2: 159,
                y2: 143,
                color: 0xFF123456
            },
            DrawCmd::Pixel {
                x: 5,
                y: 6,
                color: 0xFFFFFFFF
            },
        ]
    );
    let (s, _) = run(
        "gui.text(0, 0, 'a') gui.clear() gui.text(0, 0, 'b') print(pcall(gui.text, 0, 0, 'c', 'nocolour'))",
        0,
    );
    assert_eq!(texts(&s), ["b"]);
}

#[test]
fn event_hooks_run_at_their_moments() {
    let mut s = session();
    let slot = s.load_script(
        "hooks.lua",
        r#"
        local log = {}
        local id = event.on_frame_start(function() print("start", emu.framecount()) end)
        event.on_input_poll(function() print("poll") end)
        event.on_frame_end(function() print("end", emu.framecount()) end)
        event.on_load_state(function() print("loaded") end)
        event.on_rewind(function() print("rewound", emu.framecount()) end)
        event.on_exit(function() print("bye") end)
        while true do
          emu.frameadvance()
          if emu.framecount() == 2 then print("unregistered", event.unregister(id)) end
        end
        "#,
    );
    for _ in 0..3 {
        s.run_frame();
    }
    s.save_state("a");
    s.load_state("a").expect("load");
    s.run_frame();
    s.seek(2).expect("seek");
    s.run_frame();
    s.unload_script(slot).expect("unload");
    s.run_frame();
    let lines = console(&mut s);
    assert_eq!(
        lines,
        [
            "start\t0",
            "poll",
            "end\t1",
            "start\t1",
            "poll",
            "end\t2",
            "unregistered\ttrue",
            "poll",
            "end\t3",
            "loaded",
            "poll",
            "end\t4",
            "rewound\t2",
            "poll",
            "end\t3",
            "bye",
        ]
    );
}

#[test]
fn unknown_functions_are_a_clear_error() {
    let (_, lines) = run(
        "print(pcall(function() return memory.read_u9(0) end)) print(pcall(function() gui.circle() end))",
        0,
    );
    assert!(
        lines[0].contains("memory.read_u9 is not part of the gbhost API"),
        "{lines:?}"
    );
    assert!(
        lines[1].contains("gui.circle is not part of the gbhost API"),
        "{lines:?}"
    );
}

#[test]
fn console_functions_print_lines() {
    let (_, lines) = run(
        "console.log('a', 1, nil) console.write('b', 2, true) print('c')",
        0,
    );
    assert_eq!(lines, ["a\t1\tnil", "b2true", "c"]);
}

#[test]
fn a_reload_that_fails_keeps_the_previous_version() {
    let mut s = session();
    let slot = s.load_script(
        "r.lua",
        "n = 0 while true do n = n + 1 gui.text(0, 0, 'v1 ' .. n) emu.frameadvance() end",
    );
    s.run_frame();
    s.reload_script(slot, "this is not lua").expect("reload");
    s.run_frame();
    s.reload_script(slot, "n = 1000 error('late')")
        .expect("reload");
    s.run_frame();
    let lines = console(&mut s);
    assert!(
        lines[0].contains("the new version of r.lua was not loaded") && lines[0].contains("syntax"),
        "{lines:?}"
    );
    assert!(lines[1].contains("r.lua:1: late"), "{lines:?}");
    // The old code kept running on its own data (n was not set to 1000).
    assert_eq!(texts(&s), ["v1 4"]);
    assert_eq!(s.verify_replay(0).expect("replay"), 0);
}

#[test]
fn the_api_is_guessed_from_the_source() {
    assert_eq!(
        Flavor::detect("while true do gui.text(0,0,'x') emu.frameadvance() end"),
        Flavor::Native
    );
    assert_eq!(
        Flavor::detect("local x = mainmemory.read_u8(0) gui.drawText(0,0,x)"),
        Flavor::BizHawk
    );
    assert_eq!(
        Flavor::detect("local s = savestate.create(1) vba.frameadvance()"),
        Flavor::Vba
    );
}

#[test]
fn bizhawk_layer() {
    let mut s = session();
    s.load_script_as(
        "bh.lua",
        r#"
        memory.usememorydomain("WRAM")
        memory.writebyte(0x20, 0x99)
        memory.writebyte(0x21, 0x00)
        print(memory.getcurrentmemorydomain(), memory.readbyte(0x20), mainmemory.read_u8(0x20),
              memory.read_u8(0xC020, "System Bus"), #memory.getmemorydomainlist())
        local arr = mainmemory.read_bytes_as_array(0x20, 2)
        print(arr[1], arr[2], emu.getregister("PC") > 0, emu.getsystemid())
        userdata.set("k", 5) print(userdata.get("k"), userdata.containskey("x"))
        print(pcall(forms.openfile))
        print(pcall(event.onmemoryexecuteany, function() end))
        event.onframeend(function() gui.drawText(1, 2, "bh", 0xFFFF0000) gui.drawRectangle(0, 0, 5, 5, "white") end, "hud")
        while true do
          joypad.set({["P1 A"] = true}, 1)
          emu.frameadvance()
          if emu.framecount() == 3 then print("unreg", event.unregisterbyname("hud")) end
        end
        "#,
        Flavor::BizHawk,
    );
    for _ in 0..2 {
        s.run_frame();
    }
    let lines = console(&mut s);
    assert_eq!(lines[0], "WRAM\t153\t153\t153\t7");
    assert_eq!(lines[1], "153\t0\ttrue\tGB");
    assert_eq!(lines[2], "5\tfalse");
    assert!(
        lines[3].contains("forms.openfile is not supported by gbhost"),
        "{lines:?}"
    );
    assert!(
        lines[4].contains("event.onmemoryexecuteany is not supported by gbhost"),
        "{lines:?}"
    );
    assert_eq!(texts(&s), ["bh"]);
    assert!(s.gb().buttons().contains(Buttons::A));
    s.run_frame();
    assert_eq!(console(&mut s), ["unreg\ttrue"]);
    s.run_frame();
    assert!(texts(&s).is_empty(), "the hook is gone");
}

#[test]
fn vba_layer() {
    let mut s = session();
    s.load_script_as(
        "vba.lua",
        r#"
        memory.writeword(0xC030, 0xBEEF)
        print(memory.readbyte(0xC030), memory.readword(0xC030), memory.readbytesigned(0xC031),
              #memory.readbyterange(0xC030, 4), bit.band(0xF0, 0x3C), bit.lshift(1, 4))
        local st = savestate.create(1)
        savestate.save(st)
        gui.register(function() gui.text(0, 0, "vba " .. vba.framecount(), 0xFF000080) end)
        print(pcall(gui.popup, "x"))
        while true do
          joypad.set(1, {a = true})
          vba.frameadvance()
        end
        "#,
        Flavor::Vba,
    );
    s.run_frame();
    let lines = console(&mut s);
    assert_eq!(lines[0], "239\t48879\t-66\t4\t48\t16");
    // A popup goes to the console and is answered "ok" (nothing may stop emulation).
    assert_eq!(lines[1..], ["x", "true\tok"], "{lines:?}");
    let (_, list) = s.draw_lists().next().expect("list");
    // 0xRRGGBBAA became 0xAARRGGBB.
    assert_eq!(
        list,
        [DrawCmd::Text {
            x: 0,
            y: 0,
            text: "vba 1".into(),
            color: 0x80FF0000
        }]
    );
    assert!(s.gb().buttons().contains(Buttons::A));
}

#[test]
fn require_loads_modules_of_the_scripts_folder_only() {
    let mut s = session();
    let bundle = gb_session::Bundle {
        main: "local v = require('lib.vec') local u = require('util') \
               print(v.add(1, 2), u.twice(4), require('util') == u) \
               print(pcall(require, 'missing')) \
               print(require('lib/vec') == v, require('lib/vec.lua') == v, \
                     require('math') == math, require('string') == string) \
               emu.frameadvance()"
            .into(),
        modules: vec![
            (
                "lib.vec".into(),
                "return { add = function(a, b) return a + b end }".into(),
            ),
            (
                "util".into(),
                "print('util loaded') return { twice = function(x) return 2 * x end }".into(),
            ),
        ],
        images: Vec::new(),
    };
    let slot = s.load_bundle("main.lua", bundle.clone(), Flavor::Native);
    s.run_frame();
    let lines = console(&mut s);
    assert_eq!(lines[0], "util loaded", "a module runs once");
    assert_eq!(lines[1], "3\t8\ttrue");
    assert!(lines[2].contains("module 'missing' not found"), "{lines:?}");
    assert_eq!(
        lines[3], "true\ttrue\ttrue\ttrue",
        "slash paths and standard-library names"
    );
    // A changed module is a reload: the new text runs.
    let mut changed = bundle;
    changed.modules[1].1 = "return { twice = function(x) return 20 * x end }".into();
    s.reload_bundle(slot, changed).expect("reload");
    s.run_frame();
    assert_eq!(console(&mut s)[0], "3\t80\ttrue");
    assert_eq!(s.verify_replay(0).expect("replay"), 0);
}

#[test]
fn bus_hooks_see_reads_writes_and_instructions() {
    let mut s = session();
    s.load_script(
        "bus.lua",
        r#"
        local n = 0
        event.on_bus_write(function(addr, v) print("write", string.format("%04X", addr), v) end, 0xC000)
        event.on_bus_read(function(addr, v) print("read", string.format("%04X", addr), v) end, 0xC000, 2)
        local id = event.on_bus_exec(function(addr, op)
          n = n + 1
          print("exec", string.format("%04X %02X", addr, op), emu.getregister("pc") == addr)
        end, 0x0040)
        while true do
          emu.frameadvance()
          if emu.framecount() == 2 then event.unregister(id) end
        end
        "#,
    );
    for _ in 0..3 {
        s.run_frame();
    }
    let lines = console(&mut s);
    // The counter ROM clears $C000 at start; its VBlank handler at $40 reads $C000, writes it
    // + 1, then reads $C001.
    assert_eq!(
        &lines[..5],
        [
            "write	C000	0",
            "exec	0040 F5	true",
            "read	C000	0",
            "write	C000	1",
            "read	C001	0"
        ]
    );
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("exec")).count(),
        2,
        "{lines:?}"
    );
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("write")).count(),
        4,
        "{lines:?}"
    );
    // Hooks replay exactly, and the watches come back with the scripts on a rewind.
    assert_eq!(s.verify_replay(0).expect("replay"), 0);
    s.seek(1).expect("seek");
    s.run_frame();
    let again = console(&mut s);
    assert!(again.iter().any(|l| l.starts_with("exec")), "{again:?}");
}

#[test]
fn bus_hooks_registered_later_follow_the_timeline() {
    let mut s = session();
    s.load_script(
        "late.lua",
        r#"
        while true do
          emu.frameadvance()
          if emu.framecount() == 5 then
            event.on_bus_write(function(addr, v) print("write", v) end, 0xC000)
          end
        end
        "#,
    );
    for _ in 0..10 {
        s.run_frame();
    }
    let writes =
        |s: &mut gb_session::Session| console(s).iter().filter(|l| l.starts_with("write")).count();
    assert!(writes(&mut s) > 0);
    // After the hook was registered, a restored frame watches $C000 again...
    s.seek(8).expect("seek");
    let _ = console(&mut s);
    s.run_frame();
    assert_eq!(writes(&mut s), 1);
    // ...and before it, nothing is watched.
    s.seek(2).expect("seek");
    let _ = console(&mut s);
    s.run_frame();
    assert_eq!(writes(&mut s), 0);
    assert_eq!(s.verify_replay(0).expect("replay"), 0);
}

#[test]
fn compat_layers_reach_the_bus_hooks() {
    let mut s = session();
    s.load_script_as(
        "bh.lua",
        "event.onmemorywrite(function(a, v) console.log('bh', a, v) end, 0xC000, 'w') \
         while true do emu.frameadvance() end",
        Flavor::BizHawk,
    );
    s.load_script_as(
        "vba.lua",
        "memory.register(0xC000, function(a, v) print('vba', a, v) end) \
         while true do vba.frameadvance() end",
        Flavor::Vba,
    );
    s.run_frame();
    s.run_frame();
    assert_eq!(
        console(&mut s),
        [
            "bh\t49152\t0",
            "vba\t49152\t0",
            "bh\t49152\t1",
            "vba\t49152\t1",
            "bh\t49152\t2",
            "vba\t49152\t2"
        ]
    );
}

#[test]
fn gui_image_draws_images_of_the_scripts_folder() {
    let mut s = session();
    let image = gb_session::Image {
        width: 2,
        height: 1,
        rgba: vec![255, 0, 0, 255, 0, 0, 255, 128].into(),
    };
    let bundle = gb_session::Bundle {
        main: "gui.image(3, 4, 'dot.png') print(pcall(gui.image, 0, 0, '../x.png')) emu.frameadvance()"
            .into(),
        modules: Vec::new(),
        images: vec![("dot.png".into(), image.clone())],
    };
    s.load_bundle("img.lua", bundle, Flavor::Native);
    s.run_frame();
    let lines = console(&mut s);
    assert!(lines[0].contains("no image '../x.png'"), "{lines:?}");
    let (_, list) = s.draw_lists().next().expect("list");
    assert_eq!(list, [DrawCmd::Image { x: 3, y: 4, image }]);
}

/// Bus hooks see the bank mapped at the address, and a hook for one bank runs only for
/// accesses in it: a game that reads 0x4000 in ROM banks 1 and 2 in turn.
#[test]
fn bus_hooks_see_and_filter_banks() {
    let rom = gb_core::asm::RomBuilder::new()
        .cartridge_type(0x01)
        .rom_banks(4)
        .program(
            r#"
            loop:
                ld a, 1
                ld [$2000], a
                ld a, [$4000]
                ld a, 2
                ld [$2000], a
                ld a, [$4000]
            .wait:
                ldh a, [$44]
                cp 144
                jr nz, .wait
            .out:
                ldh a, [$44]
                cp 144
                jr z, .out
                jr loop
            "#,
        )
        .build()
        .unwrap();
    let mut s = gb_session::Session::new(rom, None, gb_session::SessionConfig::default()).unwrap();
    s.load_script(
        "hooks.lua",
        r#"
        local all, in2 = {}, 0
        event.on_bus_read(function(addr, value, bank) all[#all + 1] = bank end, 0x4000)
        event.on_bus_read(function() in2 = in2 + 1 end, 0x4000, 1, 2)
        event.on_frame_end(function()
          if emu.framecount() == 3 then print(table.concat(all, ","), in2) end
        end)
        "#,
    );
    for _ in 0..4 {
        s.run_frame();
    }
    let lines = console(&mut s);
    let line = lines.iter().find(|l| l.contains(',')).expect("printed");
    let (banks, in2) = line.split_once('\t').unwrap();
    let banks: Vec<&str> = banks.split(',').collect();
    assert!(banks.len() >= 4, "{line}");
    assert!(banks.chunks(2).all(|p| p == ["1", "2"]), "{line}");
    assert_eq!(in2.parse::<usize>().unwrap(), banks.len() / 2, "{line}");
}

/// A ROM that powers the APU up afresh and plays channel 2 (50 %, volume 15, period value
/// 0x69D: 369.2 Hz), channel 3 (wave RAM as left, 100 %, length on) and channel 4 (15-bit,
/// shift 2, divider 1), channels 1-2 to the right and everything to the left; then loops.
fn sound_rom() -> Vec<u8> {
    gb_core::asm::RomBuilder::new()
        .program(
            r#"
                xor a
                ldh [$26], a        ; NR52: off (every register cleared)
                ld a, $80
                ldh [$26], a        ; on
                ld a, $75
                ldh [$24], a        ; NR50: left 7, right 5
                ld a, $F3
                ldh [$25], a        ; NR51
                ld a, $80
                ldh [$16], a        ; NR21: 50 %
                ld a, $F0
                ldh [$17], a        ; NR22: volume 15, no envelope
                ld a, $9D
                ldh [$18], a
                ld a, $86
                ldh [$19], a        ; NR24: trigger, period value 0x69D
                ld a, $80
                ldh [$1A], a        ; NR30: DAC on
                xor a
                ldh [$1B], a        ; NR31: length 256
                ld a, $20
                ldh [$1C], a        ; NR32: 100 %
                ldh [$1D], a
                ld a, $C7
                ldh [$1E], a        ; NR34: trigger, length on, period value 0x720
                ld a, $80
                ldh [$21], a        ; NR42: volume 8
                ld a, $21
                ldh [$22], a        ; NR43: shift 2, divider 1
                ld a, $80
                ldh [$23], a        ; NR44: trigger
            loop:
                jr loop
            "#,
        )
        .build()
        .expect("rom")
}

/// `apu.state()` and `apu.channel(n)` show what the ROM set up, the same values the core's
/// view gives at that moment; reading logs nothing, and replays see the same values.
#[test]
fn apu_functions_show_the_channels_the_game_plays() {
    let config = gb_session::SessionConfig {
        desync_check: true,
        ..gb_session::SessionConfig::default()
    };
    let script = r#"
        local fields = {}
        event.on_frame_end(function()
          local s = apu.state()
          local c1, c2, c3, c4 = apu.channel(1), apu.channel(2), apu.channel(3), apu.channel(4)
          if emu.framecount() == 3 then
            print(s.powered, s.left_volume, s.right_volume, s.panning, s.frame_sequencer_step)
            print(c1.playing, c1.sweep ~= nil, c1.pulse ~= nil, c1.wave == nil)
            print(c2.playing, c2.dac, c2.frequency, string.format("%.2f", c2.hz), c2.pulse.duty,
                  c2.pulse.step, c2.envelope.volume, c2.envelope.increase, c2.left, c2.right,
                  c2.output, c2.sweep == nil)
            print(c3.playing, c3.wave.output_level, c3.wave.position, c3.wave.sample,
                  c3.length_enabled, c3.length, c3.left, c3.right, c3.envelope == nil)
            print(c4.playing, c4.noise.clock_shift, c4.noise.clock_divider, c4.noise.short,
                  c4.noise.lfsr, c4.hz, c4.envelope.volume)
            print(pcall(apu.channel, 5))
          end
        end)
    "#;
    let mut s = gb_session::Session::new(sound_rom(), None, config.clone()).expect("session");
    s.load_script("apu.lua", script);
    for _ in 0..4 {
        s.run_frame();
        if s.frame() == 3 {
            break;
        }
    }
    let view = s.gb().apu_view();
    let lines = console(&mut s);
    let [c1, c2, c3, c4] = &view.channels;
    assert_eq!(
        lines[0],
        format!("true\t7\t5\t243\t{}", view.frame_sequencer_step)
    );
    assert_eq!(lines[1], "false\ttrue\ttrue\ttrue");
    assert!(!c1.playing);
    let p2 = c2.pulse.expect("pulse");
    assert_eq!(
        lines[2],
        format!(
            "true\ttrue\t1693\t369.22\t2\t{}\t15\tfalse\ttrue\ttrue\t{}\ttrue",
            p2.step, c2.output
        )
    );
    let w = c3.wave.expect("wave");
    assert!(c3.length < 256 && c3.length > 240, "{}", c3.length);
    assert_eq!(
        lines[3],
        format!(
            "true\t1\t{}\t{}\ttrue\t{}\ttrue\tfalse\ttrue",
            w.position, w.sample, c3.length
        )
    );
    let n = c4.noise.expect("noise");
    assert_ne!(n.lfsr, 0, "the LFSR has run");
    assert_eq!(
        lines[4],
        format!("true\t2\t1\tfalse\t{}\t65536.0\t8", n.lfsr)
    );
    assert!(lines[5].contains("channels are 1-4, not 5"), "{}", lines[5]);
    // Reading is not an input: the log is what a script that reads nothing leaves.
    let mut quiet = gb_session::Session::new(sound_rom(), None, config).expect("session");
    quiet.load_script("apu.lua", "event.on_frame_end(function() end)");
    for _ in 0..3 {
        quiet.run_frame();
    }
    assert_eq!(s.log().len(), quiet.log().len());
    assert_eq!(s.verify_replay(0).expect("replay"), 0);
}
