//! The Game Boy Color through the real binary, as a user runs it, on uCity (a CGB-only game):
//! the sync test with a HUD script finds no mismatch over 3,000 frames (into a city), a movie recorded in one process plays
//! back in another with every state check equal, and a state saved in one process continues
//! frame-identically in another; a state or movie of the other model is refused.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{gbhost, text};

fn dir() -> PathBuf {
    crate::common::tmp_dir("cgb-cli")
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

fn ucity() -> Option<String> {
    gb_testkit::shared_rom("homebrew/ucity/ucity.gbc").map(|p| s(&p))
}

/// The input plan that takes uCity from power-on into a new city.
fn plan() -> String {
    s(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/ucity_new_city.lua"))
}

/// A HUD in BizHawk's API that keeps a history in Lua (so its arena changes every frame) and
/// presses uCity's buttons through the title and menu.
const HUD: &str = r#"
local seen = {}
local plan = { [950] = "Start", [1100] = "Down", [1150] = "A", [1400] = "A", [1550] = "Start",
  [1800] = "A", [2300] = "Start", [2700] = "A" }
event.onframeend(function()
  seen[#seen + 1] = memory.read_u8(0xD000) + 256 * memory.read_u8(0xC100)
  if #seen > 64 then table.remove(seen, 1) end
  gui.text(0, 0, emu.getsystemid() .. " " .. emu.framecount() .. " " .. seen[#seen])
end)
while true do
  local b = plan[emu.framecount()]
  if b then joypad.set({ [b] = true }) end
  emu.frameadvance()
end
"#;

#[test]
fn the_sync_test_on_ucity_finds_no_mismatch() {
    let Some(rom) = ucity() else { return };
    let hud = dir().join("hud.lua");
    std::fs::write(&hud, HUD).unwrap();
    let shot = dir().join("hud.png");
    let out = gbhost(&[
        "headless",
        &rom,
        "--model",
        "cgb",
        "--script",
        &s(&hud),
        "--sync-test",
        "5",
        "--frames",
        "3000",
        "--screenshot",
        &s(&shot),
        "--overlay",
    ]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("sync-test: 3000 frames, 0 mismatches"), "{t}");
    assert!(!t.contains("error"), "the HUD failed: {t}");
    // The picture is in colour: more than four distinct colours, not greys only.
    let (_, _, px) = gb_testkit::read_png_rgb(&shot).unwrap();
    let mut colours: Vec<[u8; 3]> = px.clone();
    colours.sort_unstable();
    colours.dedup();
    assert!(colours.len() > 4, "{} colours", colours.len());
    assert!(
        px.iter().any(|p| p[0] != p[1] || p[1] != p[2]),
        "greys only"
    );
}

#[test]
fn a_ucity_movie_plays_back_in_another_process() {
    let Some(rom) = ucity() else { return };
    let movie = s(&dir().join("ucity.gbm"));
    let rec = gbhost(&[
        "movie",
        "record",
        &rom,
        "--overwrite",
        "--out",
        &movie,
        "--frames",
        "3000",
        "--script",
        &plan(),
        "--random-input",
        "16",
    ]);
    assert!(rec.status.success(), "{}", text(&rec));
    let info = text(&gbhost(&["movie", "info", &movie]));
    assert!(info.contains("model: CGB"), "{info}");
    let play = gbhost(&["movie", "play", &rom, &movie]);
    let out = text(&play);
    assert!(play.status.success(), "{out}");
    assert!(out.contains("played: 3000 frames, 50 checks"), "{out}");
    assert!(out.contains("desync: none"), "{out}");
    // The same movie on the DMG is refused with the reason.
    let dmg = gbhost(&["movie", "play", &rom, &movie, "--model", "dmg"]);
    assert_eq!(dmg.status.code(), Some(2), "{}", text(&dmg));
    assert!(text(&dmg).contains("CGB"), "{}", text(&dmg));
}

#[test]
fn a_ucity_state_continues_frame_identically_in_another_process() {
    let Some(rom) = ucity() else { return };
    let d = dir();
    let peeks = [
        "--peek", "C000", "--peek", "D000", "--peek", "FF44", "--peek", "FF4F",
    ];
    let plan = plan();
    // One process runs 3,200 frames from power-on...
    let mut args = vec![
        "headless",
        &rom,
        "--script",
        &plan,
        "--frames",
        "3200",
        "--print-regs",
    ];
    let whole_png = s(&d.join("whole.png"));
    args.extend(["--screenshot", &whole_png]);
    args.extend(peeks);
    let whole = gbhost(&args);
    assert!(whole.status.success(), "{}", text(&whole));
    // ...another saves a state at frame 2,000 of the same run...
    let state = s(&d.join("city.gbs"));
    let saved = gbhost(&[
        "state", "save", &rom, "--script", &plan, "--frames", "2000", "--out", &state,
    ]);
    assert!(saved.status.success(), "{}", text(&saved));
    let info = text(&gbhost(&["state", "info", &state]));
    assert!(info.contains("model: CGB"), "{info}");
    // ...and a third continues it for 1,200 frames: the same machine at frame 3,200.
    let split_png = s(&d.join("split.png"));
    let mut args = vec![
        "headless",
        &rom,
        "--from-state",
        &state,
        "--frames",
        "1200",
        "--print-regs",
        "--screenshot",
        &split_png,
    ];
    args.extend(peeks);
    let split = gbhost(&args);
    assert!(split.status.success(), "{}", text(&split));
    let stdout = |o: &Output| String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        stdout(&whole).starts_with("frames: 3200\n"),
        "{}",
        stdout(&whole)
    );
    assert_eq!(stdout(&whole), stdout(&split));
    assert_eq!(
        std::fs::read(&whole_png).unwrap(),
        std::fs::read(&split_png).unwrap()
    );
    // The state on the DMG is refused.
    let dmg = gbhost(&["headless", &rom, "--from-state", &state, "--model", "dmg"]);
    assert_eq!(dmg.status.code(), Some(2), "{}", text(&dmg));
    assert!(
        text(&dmg).contains("saved on the CGB; it cannot run on the DMG"),
        "{}",
        text(&dmg)
    );
}

#[test]
fn a_ucity_state_round_trips_through_bess_and_runs_on() {
    let Some(rom) = ucity() else { return };
    let d = dir();
    let state = s(&d.join("bess-src.gbs"));
    let saved = gbhost(&["state", "save", &rom, "--frames", "1600", "--out", &state]);
    assert!(saved.status.success(), "{}", text(&saved));
    let bess = s(&d.join("city.bess"));
    let out = gbhost(&["state", "export-bess", &rom, &state, &bess]);
    assert!(out.status.success(), "{}", text(&out));
    let back = s(&d.join("bess-back.gbs"));
    let out = gbhost(&["state", "import-bess", &rom, &bess, &back]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("CGB"), "{}", text(&out));
    let info = text(&gbhost(&["state", "info", &back]));
    assert!(info.contains("model: CGB"), "{info}");
    let again = s(&d.join("city-again.bess"));
    let out = gbhost(&["state", "export-bess", &rom, &back, &again]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        std::fs::read(&bess).unwrap(),
        std::fs::read(&again).unwrap()
    );
    // Both states run on to the same machine (the frame counter aside: a BESS file has none).
    let run = |from: &str, png: &str| {
        let o = gbhost(&[
            "headless",
            &rom,
            "--from-state",
            from,
            "--frames",
            "300",
            "--print-regs",
            "--peek",
            "D000",
            "--peek",
            "FF4F",
            "--screenshot",
            png,
        ]);
        assert!(o.status.success(), "{}", text(&o));
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        let rest = out.split_once('\n').map(|(_, r)| r.to_owned());
        (rest, std::fs::read(png).unwrap())
    };
    let a = run(&state, &s(&d.join("bess-a.png")));
    let b = run(&back, &s(&d.join("bess-b.png")));
    assert_eq!(a, b);
    // A DMG game saved on the CGB imports as a CGB state even though its header picks the DMG.
    if let Some(tobu) =
        gb_testkit::shared_rom("homebrew/tobutobugirl/tobutobugirl.gb").map(|p| s(&p))
    {
        let st = s(&d.join("tobu-cgb.gbs"));
        let o = gbhost(&[
            "state", "save", &tobu, "--model", "cgb", "--frames", "200", "--out", &st,
        ]);
        assert!(o.status.success(), "{}", text(&o));
        let bess = s(&d.join("tobu-cgb.bess"));
        let o = gbhost(&["state", "export-bess", &tobu, &st, &bess]);
        assert!(o.status.success(), "{}", text(&o));
        let back = s(&d.join("tobu-cgb-back.gbs"));
        let o = gbhost(&["state", "import-bess", &tobu, &bess, &back]);
        assert!(o.status.success(), "{}", text(&o));
        let info = text(&gbhost(&["state", "info", &back]));
        assert!(info.contains("model: CGB"), "{info}");
    }
}
