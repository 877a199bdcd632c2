//! Scripts from the wild, through the real binary: one folder per layer with a script written
//! the way public BizHawk, VBA-rr and mGBA scripts are (aliases taken at load, optional
//! libraries probed, an image drawn from a PNG beside the script, a data file read, a log
//! written, a Latin-1 module), run headless under `--sync-test` (every frame rolled back and
//! replayed, byte for byte) with 0 mismatches.

use std::path::{Path, PathBuf};

use crate::common::{gbhost, text, tmp_dir};

/// A 4 × 4 PNG, opaque red.
fn png() -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, 4, 4);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().expect("png header");
        w.write_image_data(&[255, 0, 0, 255].repeat(16))
            .expect("png data");
    }
    out
}

/// A folder holding the script, its data file, its image and a Latin-1 module, and a copy
/// of a ROM (the app keeps a battery save beside its ROM).
fn folder(name: &str, script: &str) -> (PathBuf, PathBuf) {
    let dir = tmp_dir(&format!("wild-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("img")).unwrap();
    std::fs::write(dir.join("script.lua"), script).unwrap();
    std::fs::write(dir.join("route.txt"), "start=3\nsplit=Level 1\n").unwrap();
    std::fs::write(dir.join("img/marker.png"), png()).unwrap();
    // "é" in Latin-1: one byte, 0xE9, as old Windows editors saved it.
    std::fs::write(dir.join("names.lua"), b"return { hero = \"Ren\xe9\" }\n").unwrap();
    let rom = dir.join("game.gb");
    std::fs::write(
        &rom,
        gb_core::asm::rom("main: halt\n nop\n jr main").unwrap(),
    )
    .unwrap();
    (dir, rom)
}

fn run(dir: &Path, rom: &Path, api: &str) -> String {
    let script = dir.join("script.lua");
    let o = gbhost(&[
        "headless",
        rom.to_str().unwrap(),
        "--script",
        script.to_str().unwrap(),
        "--api",
        api,
        "--frames",
        "120",
        "--sync-test",
        "8",
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{api}: {t}");
    assert!(
        t.contains("sync-test: 120 frames, 0 mismatches"),
        "{api}: {t}"
    );
    assert!(
        !t.contains("replay: io read"),
        "{api}: replays read the same bytes: {t}"
    );
    t
}

#[test]
fn a_bizhawk_script_from_the_wild_runs_and_replays_exactly() {
    let (dir, rom) = folder(
        "bizhawk",
        r#"
local read_u8, read_s24_le, drawImage = memory.read_u8, memory.read_s24_le, gui.drawImage
local band, rshift = bit.band, bit.rshift
local has_forms = forms ~= nil and type(forms.newform) == "function"
local names = require("names")
local cfg = {}
for line in io.lines("route.txt") do
  local k, v = line:match("^(%w+)=(.*)$")
  cfg[k] = v
end
console.log("route " .. cfg.split .. " from " .. cfg.start .. ", hero " .. names.hero)
local log = assert(io.open("splits.log", "w"))
log:write("start ", os.date("!%Y", 0), "\n")
log:close()
memory.usememorydomain("WRAM")
while true do
  local f = emu.framecount()
  gui.drawText(0, 0, string.format("%d %d", f, band(rshift(read_u8(0), 1), 7)), "white")
  drawImage("img/marker.png", 150, 0)
  gui.drawEllipse(10, 10, 20, 10, "red", "yellow")
  if f % 50 == 0 then
    local a = io.open("splits.log", "a")
    a:write("frame ", f, "\n")
    a:close()
  end
  emu.frameadvance()
end
"#,
    );
    let t = run(&dir, &rom, "bizhawk");
    assert!(t.contains("log: route Level 1 from 3, hero René"), "{t}");
    assert_eq!(
        std::fs::read_to_string(dir.join("splits.log")).unwrap(),
        "start 1970\nframe 0\nframe 50\nframe 100\n",
        "each line once, though every frame was replayed"
    );
}

#[test]
fn a_vba_script_from_the_wild_runs_and_replays_exactly() {
    let (dir, rom) = folder(
        "vba",
        r#"
local rb, rw = memory.readbyte, memory.readwordunsigned
local names = require("names")
local f = io.open("route.txt", "r")
local first = f:read("*l")
f:close()
print("first line " .. first .. ", hero " .. names.hero)
gui.register(function()
  gui.text(0, 0, "HP " .. rb(0xC000), 0xFFFFFFFF)
  gui.image(150, 0, "img/marker.png")
end)
while true do
  if vba.framecount() % 60 == 0 then
    local out = io.open("hp.log", "a")
    out:write(string.format("%d %d\n", vba.framecount(), rw(0xC000)))
    out:close()
  end
  vba.frameadvance()
end
"#,
    );
    let t = run(&dir, &rom, "vba");
    assert!(t.contains("log: first line start=3, hero René"), "{t}");
    let hp = std::fs::read_to_string(dir.join("hp.log")).unwrap();
    assert_eq!(hp.lines().count(), 3, "frames 0, 60 and 120: {hp}");
}

#[test]
fn an_mgba_script_from_the_wild_runs_and_replays_exactly() {
    let (dir, rom) = folder(
        "mgba",
        r#"
local names = require("names")
local buf = console:createBuffer("HUD")
local route = {}
for line in io.lines("route.txt") do route[#route + 1] = line end
console:log("route has " .. #route .. " lines, hero " .. names.hero)
callbacks:add("frame", function()
  local f = emu:currentFrame()
  if f % 40 == 0 then
    buf:print(string.format("frame %d wram %d\n", f, emu.memory.wram:read8(0)))
    local out = io.open("frames.log", "a")
    out:write(f, "\n")
    out:close()
  end
end)
"#,
    );
    let t = run(&dir, &rom, "mgba");
    assert!(t.contains("log: route has 2 lines, hero René"), "{t}");
    let frames = std::fs::read_to_string(dir.join("frames.log")).unwrap();
    assert_eq!(frames, "40\n80\n120\n");
}
