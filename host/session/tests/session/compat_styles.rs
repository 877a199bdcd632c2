//! Scripts written in BizHawk's and VBA-rr's styles (`scripts/examples/compat/`) run
//! unmodified for 1,000 frames with the expected console output, and every frame replays
//! exactly (the sync test, rolling back 8 frames after each one).

use crate::common::{console, session, texts};

fn run_synced(name: &str, source: &str) -> (gb_session::Session, Vec<String>) {
    let mut s = session();
    s.load_script(name, source);
    let mut lines = Vec::new();
    let mut mismatches = 0;
    for _ in 0..1000 {
        s.run_frame();
        lines.extend(console(&mut s));
        if s.frame() > 8 {
            mismatches += s.verify_replay(s.frame() - 8).expect("replay");
        }
    }
    assert_eq!(mismatches, 0, "{name}: frames that replayed differently");
    (s, lines)
}

#[test]
fn a_bizhawk_style_hud_runs_unmodified() {
    let (s, lines) = run_synced(
        "bizhawk_hud.lua",
        include_str!("../../../../scripts/examples/compat/bizhawk_hud.lua"),
    );
    // The counter ROM counts VBlanks at $C000: the history is the last four frames. Frame 0
    // shows what work RAM held at power-on, before the ROM cleared it.
    assert_eq!(lines.len(), 11, "{lines:?}");
    let power_on = session().gb().peek(0xC000);
    assert_eq!(lines[0], format!("frame 0: [C000] history {power_on}"));
    assert_eq!(lines[1], "frame 100: [C000] history 97,98,99,100");
    assert_eq!(lines[10], "frame 1000: [C000] history 229,230,231,232");
    let t = texts(&s);
    assert_eq!(t[0], "frame 1000");
    assert_eq!(
        t[1], "E8 FF",
        "C000 = 232, and C001 (the buttons mixed in) is FF"
    );
}

#[test]
fn a_vba_style_bot_runs_unmodified() {
    let (s, lines) = run_synced(
        "vba_bot.lua",
        include_str!("../../../../scripts/examples/compat/vba_bot.lua"),
    );
    assert_eq!(lines.len(), 13, "{lines:?}");
    for (i, line) in lines[..12].iter().enumerate() {
        let round = i / 4 + 1;
        let name = ["a", "b", "start", "select"][i % 4];
        assert!(
            line.starts_with(&format!("round {round}: {name} scores ")),
            "{line}"
        );
    }
    // Each round starts from the same saved state, so the rounds agree.
    assert_eq!(
        lines[0..4]
            .iter()
            .map(|l| l.rsplit(' ').next())
            .collect::<Vec<_>>(),
        lines[4..8]
            .iter()
            .map(|l| l.rsplit(' ').next())
            .collect::<Vec<_>>()
    );
    assert!(lines[12].starts_with("best: "), "{}", lines[12]);
    assert!(texts(&s)[0].starts_with("best "));
}

/// Issue 18's "no death by lookup": a BizHawk script as they are written in the wild takes
/// aliases of functions gbhost lacks at load, probes optional libraries, and uses the Lua 5.1
/// names and BizHawk's `bit` library and wider accessors; only calling a missing function
/// fails, with the clear error. Every frame replays exactly.
#[test]
fn a_bizhawk_script_aliasing_missing_functions_loads_and_runs() {
    let source = r##"
local read24, pad, float = memory.read_s24_le, client.openrom, memory.read_float
local has_debug_meta = debug and debug.getmetatable
local n = table.getn({1, 2, 3}) + select('#', unpack({1, 2}))
local f = loadstring("return 40 + 2")
mainmemory.write_u24_be(0x40, 0x123456)
console.log(string.format("probe %s n %d f %d u24 %X s24 %d sha %s", tostring(has_debug_meta), n,
  f(), mainmemory.read_u24_be(0x40), read24(0xC040),
  memory.hash_region(0xC040, 3):sub(1, 8)))
console.log("bit " .. bit.rol(0x80000000, 1) .. " " .. bit.byteswap_16(0xABCD) .. " " ..
  tostring(bit.check(4, 2)))
console.log("call " .. select(2, pcall(pad, 10, 10)))
console.log("client " .. client.bufferwidth() .. "x" .. client.bufferheight() .. " " ..
  client.borderwidth())
console.log("call " .. select(2, pcall(float, 0)))
while true do
  gui.drawText(0, 0, "g", "green") gui.drawPixel(1, 1, "Purple") gui.drawLine(0, 0, 1, 1, "#123456")
  if emu.framecount() % 100 == 0 then
    console.log("frame " .. emu.framecount() .. " " .. mainmemory.read_u24_le(0x00))
  end
  emu.frameadvance()
end
"##;
    let (s, lines) = run_synced("wild_bizhawk.lua", source);
    // .NET's colour names: green is #008000, purple #800080 (opaque).
    let drawn = format!("{:?}", s.draw_lists().collect::<Vec<_>>());
    for c in [0xFF00_8000u32, 0xFF80_0080, 0xFF12_3456] {
        assert!(drawn.contains(&c.to_string()), "{c:#x} in {drawn}");
    }
    assert_eq!(
        lines[0], "probe nil n 5 f 42 u24 123456 s24 5649426 sha BF7CBE09",
        "{lines:?}"
    );
    assert_eq!(lines[1], "bit 1 52651 true");
    assert!(
        lines[2].ends_with(
            "client.openrom is not supported by gbhost: scripts do not open or close ROMs, \
             instances or the app"
        ),
        "{}",
        lines[2]
    );
    assert_eq!(lines[3], "client 160x144 0");
    assert!(
        lines[4].ends_with("memory.read_float is not supported by gbhost"),
        "{}",
        lines[4]
    );
    assert_eq!(lines.iter().filter(|l| l.starts_with("frame ")).count(), 11);
}

/// VBA-rr's memory reads by every width, unsigned and signed, as its scripts spell them.
#[test]
fn vba_memory_reads_by_every_width_and_sign() {
    let source = r#"
memory.writedword(0xC050, 0x89ABCDEF)
print(memory.readbyteunsigned(0xC050), memory.readbytesigned(0xC050),
      memory.readwordunsigned(0xC050), memory.readwordsigned(0xC050),
      memory.readshortsigned(0xC052), memory.readdwordunsigned(0xC050),
      memory.readdwordsigned(0xC050), memory.readlongsigned(0xC050),
      table.concat(memory.readbyterangesigned(0xC050, 2), ","))
while true do vba.frameadvance() end
"#;
    let (_s, lines) = run_synced("widths.lua", source);
    assert_eq!(
        lines[0],
        "239\t-17\t52719\t-12817\t-30293\t2309737967\t-1985229329\t-1985229329\t-17,-51"
    );
}

/// An mGBA script (callbacks, the `emu` object, memory domains, keys, a console buffer) runs
/// unmodified, guessed from its source, and every frame replays exactly.
#[test]
fn an_mgba_script_runs_unmodified() {
    let source = r#"
local buf = console:createBuffer("counter")
local frames = 0
callbacks:add("keysRead", function()
  if emu:currentFrame() % 2 == 0 then emu:setKeys(1 << C.GB_KEY.A) else emu:setKeys(0) end
end)
callbacks:add("frame", function()
  frames = frames + 1
  if frames % 100 == 0 then
    buf:print(string.format("frame %d C000=%d wram=%d keys=%d\n", emu:currentFrame(),
      emu:read8(0xC000), emu.memory.wram:read8(0), emu:getKeys()))
  end
end)
console:log("loaded " .. emu:platform() .. " " .. #util.expandBitmask(util.makeBitmask({0, 3})))
console:error(select(2, pcall(emu.screenshot, emu)))
"#;
    assert_eq!(gb_session::Flavor::detect(source), gb_session::Flavor::Mgba);
    let (s, lines) = run_synced("mgba.lua", source);
    assert_eq!(lines[0], "loaded 1 2");
    assert!(
        lines[1].starts_with("error: ")
            && lines[1]
                .ends_with("emu:screenshot is not supported by gbhost: screenshots are the app's"),
        "{}",
        lines[1]
    );
    // The buffer is a panel of its own (the script's windows), not console lines.
    assert!(!lines.iter().any(|l| l.contains("frame 100")), "{lines:?}");
    let (_, ui) = s.windows().next().expect("the script's windows");
    let buffer = &ui.buffers[0];
    assert_eq!(buffer.name, "counter");
    let counter: Vec<&String> = buffer.lines.iter().filter(|l| !l.is_empty()).collect();
    assert_eq!(counter.len(), 10, "{:?}", buffer.lines);
    // The counter ROM counts VBlanks at $C000 (mod 256); A is held every other frame.
    assert!(
        counter[0].starts_with("frame 100 C000=100 wram=100 "),
        "{}",
        counter[0]
    );
    assert_eq!(s.gb().peek(0xC000), (1000 % 256) as u8);
}

#[test]
fn bizhawk_shapes_and_images_from_the_folder_draw_and_replay_exactly() {
    use gb_session::{Bundle, DrawCmd, Flavor, Image};
    // A 4 × 2 sheet: left half red, right half blue.
    let mut rgba = Vec::new();
    for _row in 0..2 {
        for col in 0..4 {
            rgba.extend_from_slice(if col < 2 {
                &[255, 0, 0, 255]
            } else {
                &[0, 0, 255, 255]
            });
        }
    }
    let sheet = Image {
        width: 4,
        height: 2,
        rgba: rgba.into(),
    };
    let mut bundle = Bundle::new(
        r#"
        local drawImageRegion = gui.drawImageRegion
        while true do
          gui.drawImage("./img/sheet.png", 0, 0, 8, 4)
          drawImageRegion("img\\sheet.png", 2, 0, 2, 2, 10, 10, 6, 6)
          gui.drawEllipse(20, 20, 30, 10, "red", "yellow")
          gui.drawPolygon({{0, 0}, {10, 0}, {5, 8}}, 100, 100, "white", 0xFF00FF00)
          gui.drawAxis(80, 80, 5)
          gui.drawPie(40, 40, 20, 20, 0, 90, "white", "green")
          emu.frameadvance()
        end"#,
    );
    bundle.images.push(("img/sheet.png".into(), sheet));
    let mut s = session();
    s.load_bundle("shapes.lua", bundle, Flavor::BizHawk);
    let mut mismatches = 0;
    for _ in 0..30 {
        s.run_frame();
        if s.frame() > 8 {
            mismatches += s.verify_replay(s.frame() - 8).expect("replay");
        }
    }
    assert_eq!(mismatches, 0);
    assert!(console(&mut s).is_empty());
    let cmds: Vec<DrawCmd> = s
        .draw_lists()
        .flat_map(|(_, d)| d.iter().cloned())
        .collect();
    let images: Vec<&Image> = cmds
        .iter()
        .filter_map(|c| match c {
            DrawCmd::Image { image, .. } => Some(image),
            _ => None,
        })
        .collect();
    assert_eq!(images.len(), 2);
    // Scaled 2×: 8 × 4, red then blue.
    assert_eq!((images[0].width, images[0].height), (8, 4));
    assert_eq!(&images[0].rgba[..4], &[255, 0, 0, 255]);
    assert_eq!(&images[0].rgba[7 * 4..8 * 4], &[0, 0, 255, 255]);
    // The blue half, 3×.
    assert_eq!((images[1].width, images[1].height), (6, 6));
    assert!(images[1].rgba.chunks(4).all(|p| p == [0, 0, 255, 255]));
    // The ellipse's fill is yellow spans inside its box; the polygon's green spans are in
    // the triangle moved by (100, 100).
    let spans = |color: u32| -> Vec<(i32, i32, i32)> {
        cmds.iter()
            .filter_map(|c| match *c {
                DrawCmd::Line {
                    x1,
                    y1,
                    x2,
                    y2,
                    color: k,
                } if k == color && y1 == y2 => Some((x1, x2, y1)),
                _ => None,
            })
            .collect()
    };
    let yellow = spans(0xFFFF_FF00);
    assert!(yellow.len() >= 8, "{yellow:?}");
    assert!(
        yellow
            .iter()
            .all(|&(a, b, y)| (20..=50).contains(&a) && b <= 50 && (20..=30).contains(&y))
    );
    let widest = yellow.iter().map(|&(a, b, _)| b - a).max().unwrap();
    assert!(widest >= 26, "the middle row spans the box: {yellow:?}");
    let green = spans(0xFF00_FF00);
    assert!(!green.is_empty());
    assert!(
        green
            .iter()
            .all(|&(a, b, y)| a >= 100 && b <= 110 && (100..=108).contains(&y))
    );
}

#[test]
fn bizhawk_movie_functions_describe_the_recording_and_its_input() {
    use gb_core::Buttons;
    use gb_session::Flavor;
    let dir = std::env::temp_dir().join(format!("gbhost-movie-lua-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut s = session();
    s.load_script_as(
        "movie.lua",
        r#"
        print("before", movie.isloaded(), movie.mode())
        while true do
          local f = emu.framecount()
          if f == 5 then
            print(movie.mode(), movie.filename(), movie.length(), movie.getreadonly(),
              movie.getrerecordcount(), movie.getinputasmnemonic(3), movie.getinput(3).A,
              movie.getinputasmnemonic(99))
          end
          emu.frameadvance()
        end
        "#,
        Flavor::BizHawk,
    );
    s.run_frame();
    let mut tas = gb_session::movie::Tas::record(&dir.join("run.gbm"), &mut s).expect("record");
    for f in 1..6 {
        tas.before_frame(&mut s).expect("before");
        s.set_buttons(if f == 3 {
            Buttons::A | Buttons::UP
        } else {
            Buttons::default()
        });
        s.run_frame();
        tas.after_frame(&mut s).expect("after");
    }
    let lines = console(&mut s);
    assert_eq!(lines[0], "before\tfalse\tINACTIVE");
    // The length is what was recorded before the frame that asks.
    assert_eq!(
        lines[1],
        "RECORD\trun.gbm\t3\tfalse\t0\t|U......A.|\ttrue\t"
    );
    tas.stop().expect("stop");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bizhawk_bizstring_memorysavestate_and_reasons() {
    let mut s = session();
    s.load_script_as(
        "misc.lua",
        r#"
        print(bizstring.contains("Hello", "ell"), bizstring.startswith("Hello", "He"),
          bizstring.endswith("Hello", "lo"), bizstring.hex(255), bizstring.binary(5),
          bizstring.pad_start("7", 3, "0"), bizstring.replace("a.b.c", ".", "-"),
          table.concat(bizstring.split("a,b,,c", ","), "|"), bizstring.substring("Hello", 1, 3),
          bizstring.trim("  x  "))
        for _ = 1, 5 do emu.frameadvance() end
        local id = memorysavestate.savecorestate()
        local at = memory.read_u8(0xC000)
        emu.frameadvance() emu.frameadvance()
        memorysavestate.loadcorestate(id)
        emu.frameadvance()
        -- The machine went back two frames and ran one.
        print("back", memory.read_u8(0xC000) - at)
        print(pcall(comm.socketServerSend, "x"))
        print(pcall(joypad.setanalog, {}))
        print(emu.totalexecutedcycles() > 0)
        while true do emu.frameadvance() end
        "#,
        gb_session::Flavor::BizHawk,
    );
    for _ in 0..12 {
        s.run_frame();
    }
    let lines = console(&mut s);
    assert_eq!(
        lines[0],
        "true\ttrue\ttrue\tFF\t101\t007\ta-b-c\ta|b||c\tell\tx"
    );
    assert_eq!(lines[1], "back\t1", "{lines:?}");
    assert!(
        lines[2].contains(
            "comm.socketServerSend is not supported by gbhost: no network, sockets or shared memory"
        ),
        "{lines:?}"
    );
    assert!(lines[3].contains("the Game Boy has no analog input"));
    assert_eq!(lines[4], "true");
}

#[test]
fn the_rest_of_each_layer_answers_as_its_emulator() {
    use gb_session::Flavor;
    let cases: [(Flavor, &str, &[&str]); 3] = [
        (
            Flavor::BizHawk,
            r#"
            mainmemory.writefloat(0x100, 1.5, false)
            print(mainmemory.readfloat(0x100, false), mainmemory.read_u32_le(0x100) == 0x3FC00000)
            print(bit.byteswap_64(0x0102030405060708) == 0x0807060504030201)
            joypad.setfrommnemonicstr("|U......A.|")
            print(client.getversion(), pcall(client.sleep, 5))
            "#,
            &[
                "1.5\ttrue",
                "true",
                "gbhost 0.1\tfalse\tclient.sleep is not supported by gbhost: scripts never block emulation",
            ],
        ),
        (
            Flavor::Vba,
            r#"
            print(memory.gbromreadbyte(0x100), memory.gbromreadword(0x100))
            print(gui.parsecolor(0xFF000080))
            print(select(2, pcall(gui.image, 0, 0, "gdstring")))
            "#,
            &[
                "0\t49920",
                "255\t0\t0\t128",
                "gui.image is not supported by gbhost for gd images",
            ],
        ),
        (
            Flavor::Mgba,
            r#"
            local hits = 0
            emu:setWatchpoint(function() hits = hits + 1 end, 0xC000, C.WATCHPOINT_TYPE.WRITE)
            local once = 0
            callbacks:oneshot("frame", function() once = once + 1 end)
            callbacks:add("frame", function()
              if emu:currentFrame() == 4 then
                console:log(string.format("%d %d %s %d", hits, once, emu:getGameCode(),
                  #emu:checksum(C.CHECKSUM.CRC32)))
              end
            end)
            "#,
            // The counter ROM clears $C000, then counts each VBlank there: 5 writes.
            &["5 1 DMG- 4"],
        ),
    ];
    for (flavor, source, expected) in cases {
        let mut s = session();
        s.load_script_as("rest.lua", source, flavor);
        for _ in 0..5 {
            s.run_frame();
        }
        let lines = console(&mut s);
        for (line, want) in lines.iter().zip(expected.iter()) {
            assert!(
                line.starts_with(want),
                "{flavor:?}: {line:?} should start with {want:?}"
            );
        }
        assert_eq!(lines.len(), expected.len(), "{flavor:?}: {lines:?}");
    }
}

#[test]
fn mgba_images_painters_and_canvas_layers_draw_and_roll_back() {
    use gb_session::{DrawCmd, Flavor};
    let mut s = session();
    s.load_script_as(
        "canvas.lua",
        r#"
        local layer = canvas:newLayer(8, 4)
        layer:setPosition(10, 20)
        local p = image.newPainter(layer.image)
        p:setFill(true)
        p:setFillColor(0xFFFF0000)
        p:setStrokeWidth(0)
        p:drawRectangle(0, 0, 4, 4)
        p:setStrokeColor(0xFF0000FF)
        p:drawLine(4, 0, 7, 3)
        layer:update()
        local img = image.new(2, 2)
        img:setPixel(1, 1, 0x8000FF00)
        console:log(string.format("%X %X %d", layer.image:getPixel(0, 0), img:getPixel(1, 1),
          canvas:screenWidth()))
        callbacks:add("frame", function()
          if emu:currentFrame() == 5 then
            p:setFillColor(0xFF00FF00) p:drawRectangle(0, 0, 1, 1) layer:update()
          end
        end)
        "#,
        Flavor::Mgba,
    );
    let mut mismatches = 0;
    for _ in 0..20 {
        s.run_frame();
        if s.frame() > 8 {
            mismatches += s.verify_replay(s.frame() - 8).expect("replay");
        }
    }
    assert_eq!(mismatches, 0);
    assert_eq!(console(&mut s), ["FFFF0000 8000FF00 160"]);
    let images: Vec<(i32, i32, gb_session::Image)> = s
        .draw_lists()
        .flat_map(|(_, d)| d.iter())
        .filter_map(|c| match c {
            DrawCmd::Image { x, y, image } => Some((*x, *y, image.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(images.len(), 1, "the layer, drawn every frame");
    let (x, y, img) = &images[0];
    assert_eq!((*x, *y, img.width, img.height), (10, 20, 8, 4));
    // Green since frame 5, then red, the blue line's first pixel at (4, 0).
    assert_eq!(&img.rgba[..4], &[0, 255, 0, 255]);
    assert_eq!(&img.rgba[4..8], &[255, 0, 0, 255]);
    assert_eq!(&img.rgba[16..20], &[0, 0, 255, 255]);
    // Back before frame 5: red again (the image is in the arena and rolls back).
    s.seek(3).expect("seek");
    s.run_frame();
    let red = s
        .draw_lists()
        .flat_map(|(_, d)| d.iter())
        .any(|c| matches!(c, DrawCmd::Image { image, .. } if image.rgba[..4] == [255, 0, 0, 255]));
    assert!(red);
}
