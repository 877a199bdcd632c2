//! Two Game Boys on a link cable through the real binary: `gbhost headless A.gb --link B.gb`
//! with the link demo (`examples/link_demo.asm`, assembled here): the squares cross the
//! cable, the sync test over 3,000 frames with a HUD finds no mismatch, the screenshot shows
//! both screens side by side, and a pair refuses to start from a single machine's state; a
//! game printing through `--printer` gets a PNG of what it sent.

use std::path::{Path, PathBuf};

use crate::common::{gbhost, text};

fn dir() -> PathBuf {
    crate::common::tmp_dir("link-cli")
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// The link demo, assembled into a ROM file.
fn demo_rom() -> PathBuf {
    let path = dir().join("link_demo.gb");
    std::fs::write(&path, demo_rom_titled("GBHOST LINK")).unwrap();
    path
}

/// The link demo's bytes with `title` in the header (another title: another ROM, the same
/// game).
pub(crate) fn demo_rom_titled(title: &str) -> Vec<u8> {
    let source = include_str!("../../../../examples/link_demo.asm");
    gb_core::asm::RomBuilder::new()
        .title(title)
        .program(source)
        .build()
        .expect("the link demo assembles")
}

/// A HUD (BizHawk's API) on player 1 that keeps a history in Lua, makes player 1 the leader
/// and moves its square right, then down.
const HUD: &str = r#"
local seen = {}
event.onframeend(function()
  seen[#seen + 1] = memory.read_u8(0xC002)
  if #seen > 32 then table.remove(seen, 1) end
  gui.text(0, 0, "frame " .. emu.framecount() .. " other x " .. seen[#seen])
end)
while true do
  local f = emu.framecount()
  if f == 20 then joypad.set({ Start = true })
  elseif f > 40 and f < 100 then joypad.set({ Right = true })
  elseif f > 200 and f < 260 then joypad.set({ Down = true }) end
  emu.frameadvance()
end
"#;

/// A HUD (BizHawk's API) on player 2 (`--script2`): its memory reads, overlay and joypad are
/// player 2's; it moves player 2's square up from frame 300.
const HUD2: &str = r#"
local seen = {}
print("hud on player " .. emu.player() .. " of " .. emu.players())
event.onframeend(function()
  seen[#seen + 1] = memory.read_u8(0xC001)
  if #seen > 32 then table.remove(seen, 1) end
  gui.text(0, 8, "P" .. emu.player() .. " y " .. seen[#seen])
end)
while true do
  local f = emu.framecount()
  if f == 300 then print("player 2 y before " .. memory.read_u8(0xC001)) end
  if f > 300 and f < 340 then joypad.set({ Up = true }) end
  emu.frameadvance()
end
"#;

/// A `peek` line's byte (`prefix` `peek ADDR=VV`).
fn peek(t: &str, line: &str) -> u8 {
    let at = t.find(line).unwrap_or_else(|| panic!("no '{line}' in {t}"));
    let v = &t[at + line.len()..at + line.len() + 2];
    u8::from_str_radix(v, 16).unwrap()
}

#[test]
fn a_linked_pair_runs_headless_and_the_sync_test_finds_no_mismatch() {
    let rom = s(&demo_rom());
    let hud = dir().join("hud.lua");
    std::fs::write(&hud, HUD).unwrap();
    let hud2 = dir().join("hud2.lua");
    std::fs::write(&hud2, HUD2).unwrap();
    let shot = dir().join("pair.png");
    let out = gbhost(&[
        "headless",
        &rom,
        "--link",
        &rom,
        "--script",
        &s(&hud),
        "--script2",
        &s(&hud2),
        "--sync-test",
        "8",
        "--frames",
        "3000",
        "--screenshot",
        &s(&shot),
        "--peek",
        "C000",
        "--peek",
        "C001",
        "--peek",
        "C002",
        "--peek",
        "C003",
        "--peek",
        "C004",
    ]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("sync-test: 3000 frames, 0 mismatches"), "{t}");
    assert!(t.contains("link: plugged, 0 inexact exchanges"), "{t}");
    assert!(!t.contains("error"), "the HUD failed: {t}");
    // Player 1 leads and moved right and down; player 2 shows player 1's square where it is.
    assert_eq!(peek(&t, "\npeek C004="), 1, "{t}");
    assert_eq!(peek(&t, "player 2 peek C004="), 0, "{t}");
    let (x, y) = (peek(&t, "\npeek C000="), peek(&t, "\npeek C001="));
    assert!(x > 120 && y > 120, "player 1 at ({x}, {y})");
    assert_eq!(peek(&t, "player 2 peek C002="), x, "{t}");
    assert_eq!(peek(&t, "player 2 peek C003="), y, "{t}");
    // Player 2's HUD ran on player 2 and moved its square up; player 1 saw it.
    assert!(t.contains("log: hud on player 2 of 2"), "{t}");
    let before: u8 = t
        .split("log: player 2 y before ")
        .nth(1)
        .and_then(|r| r.lines().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no 'y before' line: {t}"));
    let y2 = peek(&t, "player 2 peek C001=");
    assert!(y2 < before, "player 2 moved up from {before} to {y2}");
    assert_eq!(peek(&t, "\npeek C003="), y2, "player 1 sees player 2's y");
    // Both screens, side by side: each draws a filled square and a hollow one.
    let (w, h, px) = gb_testkit::read_png_rgb(&shot).unwrap();
    assert_eq!((w, h), (320, 144));
    let black = |x0: usize| {
        (0..144)
            .flat_map(|yy| (x0..x0 + 160).map(move |xx| (xx, yy)))
            .filter(|&(xx, yy)| px[yy * 320 + xx] == [0, 0, 0])
            .count()
    };
    // A filled square is 64 pixels, a hollow one 28: apart on screen, 92 on each.
    assert_eq!(black(0), 92, "player 1's screen");
    assert_eq!(black(160), 92, "player 2's screen");
}

#[test]
fn each_players_script_draws_on_its_own_screen() {
    let rom = s(&demo_rom());
    let (one, two) = (dir().join("red.lua"), dir().join("blue.lua"));
    let hud = |argb: &str| {
        format!(
            "while true do gui.text(0, 0, 'P' .. emu.player() .. ' x ' .. \
             memory.read_u8(0xC000), {argb}) emu.frameadvance() end"
        )
    };
    std::fs::write(&one, hud("0xFFFF0000")).unwrap();
    std::fs::write(&two, hud("0xFF0000FF")).unwrap();
    let shot = dir().join("overlays.png");
    let out = gbhost(&[
        "headless",
        &rom,
        "--link",
        &rom,
        "--script",
        &s(&one),
        "--script2",
        &s(&two),
        "--frames",
        "30",
        "--overlay",
        "--screenshot",
        &s(&shot),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let (w, _, px) = gb_testkit::read_png_rgb(&shot).unwrap();
    assert_eq!(w, 320);
    let count = |colour: [u8; 3], x0: usize| {
        (0..144)
            .flat_map(|yy| (x0..x0 + 160).map(move |xx| (xx, yy)))
            .filter(|&(xx, yy)| px[yy * 320 + xx] == colour)
            .count()
    };
    let (red, blue) = ([0xFF, 0, 0], [0, 0, 0xFF]);
    assert!(count(red, 0) > 20, "player 1's text on player 1's screen");
    assert_eq!(count(red, 160), 0, "and not on player 2's");
    assert!(
        count(blue, 160) > 20,
        "player 2's text on player 2's screen"
    );
    assert_eq!(count(blue, 0), 0, "and not on player 1's");
    // A script for player 2 needs a second Game Boy.
    let out = gbhost(&["headless", &rom, "--script2", &s(&two)]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("--link"), "{}", text(&out));
}

#[test]
fn a_pair_refuses_a_state_file_and_a_bad_second_rom() {
    let rom = s(&demo_rom());
    let bad = dir().join("bad.gb");
    std::fs::write(&bad, b"not a rom").unwrap();
    let out = gbhost(&["headless", &rom, "--link", &s(&bad), "--frames", "2"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("bad.gb"), "{}", text(&out));
    let state = dir().join("one.gbs");
    let out = gbhost(&[
        "headless",
        &rom,
        "--frames",
        "2",
        "--save-state",
        &s(&state),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let out = gbhost(&["headless", &rom, "--link", &rom, "--from-state", &s(&state)]);
    assert!(!out.status.success());
    assert!(text(&out).contains("one Game Boy"), "{}", text(&out));
}

/// The lines of `t` that start with `prefix`, in order.
fn lines<'a>(t: &'a str, prefix: &str) -> Vec<&'a str> {
    t.lines().filter(|l| l.starts_with(prefix)).collect()
}

#[test]
fn a_pairs_state_file_and_movie_work_across_processes() {
    let rom = s(&demo_rom());
    let hud = dir().join("hud.lua");
    std::fs::write(&hud, HUD).unwrap();
    // A pair's state, saved by one process, and the run it continues.
    let state = dir().join("pair.gbs");
    let out = gbhost(&[
        "state",
        "save",
        &rom,
        "--link",
        &rom,
        "--frames",
        "300",
        "--out",
        &s(&state),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let info = gbhost(&["state", "info", &s(&state)]);
    assert!(
        text(&info).contains("player 2: GBHOST LINK"),
        "{}",
        text(&info)
    );
    let peeks = [
        "--peek",
        "C000",
        "--peek",
        "C002",
        "--peek",
        "C007",
        "--print-regs",
    ];
    let run = |args: &[&str]| {
        let out = gbhost(&[&["headless", &rom, "--link", &rom][..], args, &peeks].concat());
        assert!(out.status.success(), "{}", text(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let whole = run(&["--frames", "500"]);
    let resumed = run(&["--from-state", &s(&state), "--frames", "200"]);
    assert_eq!(lines(&resumed, "frames:"), ["frames: 500"]);
    for p in ["peek", "regs", "player 2 "] {
        assert_eq!(
            lines(&resumed, p),
            lines(&whole, p),
            "{p}: {resumed} vs {whole}"
        );
    }
    // Without the second ROM: refused, saying how to load it.
    let out = gbhost(&["headless", &rom, "--from-state", &s(&state)]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("--link"), "{}", text(&out));

    // A movie of the pair with a HUD on each player and both players' input, played in a
    // new process.
    let hud2 = dir().join("hud2-movie.lua");
    std::fs::write(&hud2, HUD2).unwrap();
    let movie = dir().join("pair.gbm");
    let _ = std::fs::remove_file(&movie);
    let out = gbhost(&[
        "movie",
        "record",
        &rom,
        "--link",
        &rom,
        "--out",
        &s(&movie),
        "--frames",
        "900",
        "--random-input",
        "7",
        "--script",
        &s(&hud),
        "--script2",
        &s(&hud2),
        "--overwrite",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let info = gbhost(&["movie", "info", &s(&movie)]);
    assert!(
        text(&info).contains("player 2: GBHOST LINK"),
        "{}",
        text(&info)
    );
    let shot = dir().join("movie-pair.png");
    let out = gbhost(&[
        "movie",
        "play",
        &rom,
        &s(&movie),
        "--link",
        &rom,
        "--screenshot",
        &s(&shot),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("played: 900 frames, 15 checks"),
        "{}",
        text(&out)
    );
    assert!(text(&out).contains("desync: none"), "{}", text(&out));
    let (w, h, _) = gb_testkit::read_png_rgb(&shot).unwrap();
    assert_eq!((w, h), (320, 144), "both screens");
    let out = gbhost(&["movie", "play", &rom, &s(&movie)]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("two linked Game Boys"),
        "{}",
        text(&out)
    );
}

/// A program that sends `stream` byte by byte on the internal clock, then writes $01 at
/// $DF00.
fn sender_rom(stream: &[u8]) -> Vec<u8> {
    let db: Vec<String> = stream.iter().map(|b| format!("${b:02X}")).collect();
    let src = format!(
        "di\n ld hl, data\n ld bc, {}\n.byte:\n ld a, [hl+]\n ldh [$01], a\n ld a, $81\n \
         ldh [$02], a\n.wait:\n ldh a, [$02]\n bit 7, a\n jr nz, .wait\n dec bc\n ld a, b\n \
         or c\n jr nz, .byte\n ld a, 1\n ld [$DF00], a\n.spin:\n jr .spin\ndata:\n db {}\n",
        stream.len(),
        db.join(", ")
    );
    gb_core::asm::rom(&src).expect("assemble")
}

#[test]
fn the_printer_prints_to_a_png_what_the_game_sent() {
    // Init, one band of tiles (each row's two bytes from the tile's number), an empty data
    // packet, print with palette $E4 (colour n is shade n).
    let packet = gb_core::link::Printer::packet;
    let tiles: Vec<u8> = (0..0x280usize)
        .map(|i| if (i / 16) % 3 == 0 { 0xF0 } else { 0x3C })
        .collect();
    let mut stream = packet(0x01, &[]);
    stream.extend(packet(0x04, &tiles));
    stream.extend(packet(0x04, &[]));
    stream.extend(packet(0x02, &[1, 0, 0xE4, 0x40]));
    let rom = dir().join("printing.gb");
    std::fs::write(&rom, sender_rom(&stream)).unwrap();
    let png = dir().join("printed.png");
    let out = gbhost(&[
        "headless",
        &s(&rom),
        "--frames",
        "120",
        "--printer",
        &s(&png),
        "--peek",
        "DF00",
    ]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("peek DF00=01"), "the game sent everything: {t}");
    assert!(t.contains("printed: 16 rows"), "{t}");
    let (w, h, px) = gb_testkit::read_png_rgb(&png).unwrap();
    assert_eq!((w, h), (160, 16));
    let grey = [0xFF, 0xAA, 0x55, 0x00];
    for y in 0..16usize {
        for x in 0..160usize {
            let tile = (y / 8) * 20 + x / 8;
            let row = tile * 16 + (y % 8) * 2;
            let bit = 7 - (x % 8);
            let colour = (tiles[row + 1] >> bit & 1) << 1 | (tiles[row] >> bit & 1);
            assert_eq!(
                px[y * 160 + x],
                [grey[usize::from(colour)]; 3],
                "pixel ({x}, {y})"
            );
        }
    }
}
