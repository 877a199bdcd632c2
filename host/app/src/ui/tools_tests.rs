//! The tools' windows driven by their labels with `egui_kittest`, on Tobu Tobu Girl (a copy
//! in a temporary folder: the game has battery RAM): a RAM search finds the level's clock (the
//! seconds left, which the HUD's clock shows and the game's score records) in a few filters
//! while the game runs, the byte is added to the watch list and poked; a GameShark and a Game
//! Genie code change what the game does, and a rewind takes them back with the game.
//!
//! The input comes from a small script (menus, then play): the windows are what is tested.

use super::GbApp;
use super::test_support::{self as support, open, settle, step};
use crate::emu::RomSource;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use gb_core::bus::RomCheat;
use std::path::PathBuf;

/// The level's clock in Tobu Tobu Girl (`remaining_time`: 32 seconds at the start, one less
/// each 60 frames), which the search below finds.
const CLOCK: u16 = 0xC0B0;

const PLAY: &str = gb_testkit::roms::TOBU_PLAY_LUA;

struct Tobu {
    h: Harness<'static, GbApp>,
    dir: PathBuf,
}

impl Drop for Tobu {
    fn drop(&mut self) {
        self.h.state_mut().emu_mut().quit();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn tobu(name: &str) -> Option<Tobu> {
    let rom = gb_testkit::roms::shared_rom("homebrew/tobutobugirl/tobutobugirl.gb")?;
    let dir = std::env::temp_dir().join(format!("gbhost-tools-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join("tobu.gb");
    std::fs::copy(&rom, &copy).unwrap();
    let script = dir.join("play.lua");
    std::fs::write(&script, PLAY).unwrap();
    let h = support::harness(
        RomSource::File(copy),
        vec![script],
        16 << 20,
        [1200.0, 900.0],
    );
    Some(Tobu { h, dir })
}

fn peek(h: &Harness<'static, GbApp>, addr: u16) -> u8 {
    let r = h.state().emu().repl(&format!("peek {addr:04X} 1"));
    let hex = r.split_whitespace().nth(1).unwrap_or_else(|| panic!("{r}"));
    u8::from_str_radix(hex, 16).unwrap()
}

#[test]
fn a_ram_search_finds_the_clock_which_is_watched_and_poked() {
    let Some(mut t) = tobu("search") else { return };
    let h = &mut t.h;
    step(h, 1260);
    open(h, "RAM search");
    h.get_by_label("New search").click();
    settle(h);
    assert_eq!(
        h.state().view().tools.search.as_ref().unwrap().count,
        0x2000
    );
    // The clock runs down: less than before, three times, a second apart.
    h.get_by_label("<").click();
    for _ in 0..3 {
        step(h, 60);
        h.get_by_label("Filter").click();
        settle(h);
    }
    // And by exactly one each second.
    h.get_by_label("Differs by").click();
    step(h, 60);
    h.get_by_label("Filter").click();
    settle(h);
    let search = h.state().view().tools.search.clone().unwrap();
    let places: Vec<u32> = search.rows.iter().map(|c| c.offset).collect();
    assert!(
        places.contains(&u32::from(CLOCK - 0xC000)),
        "the clock is a candidate: {places:X?}"
    );
    assert!(search.count <= 4, "found in five filters: {places:X?}");
    assert_eq!(search.filters.len(), 4);
    // Pick it in the list, add it to the watch list, poke 25 into it.
    let row = format!("{CLOCK:04X}");
    h.get_by(|n| n.label().is_some_and(|l| l.starts_with(&row)))
        .click();
    h.run_steps(1);
    h.get_by_label("Add to watch").click();
    settle(h);
    let watches = h.state().view().tools.watches.clone();
    assert_eq!(watches.len(), 1);
    assert_eq!(watches[0].place, format!("{CLOCK:04X}"));
    h.get_by_label("Value").focus();
    h.run_steps(1);
    h.get_by_label("Value").type_text("25");
    h.run_steps(1);
    h.get_by_label("Poke").click();
    settle(h);
    step(h, 1);
    let now = peek(h, CLOCK);
    assert!(now == 25 || now == 24, "poked: {now}");
    // The watch window shows it live.
    open(h, "RAM watch");
    h.get_by_label(&now.to_string());
    // Undo takes the last filter back.
    h.get_by_label("Undo filter").click();
    settle(h);
    assert_eq!(
        h.state()
            .view()
            .tools
            .search
            .as_ref()
            .unwrap()
            .filters
            .len(),
        3
    );
}

#[test]
fn gameshark_and_game_genie_codes_change_the_game_and_rewind_with_it() {
    let Some(mut t) = tobu("cheats") else { return };
    let h = &mut t.h;
    step(h, 1260);
    open(h, "Cheats");
    // A bad code is refused with what is wrong with it.
    h.get_by_label("Code").focus();
    h.run_steps(1);
    h.get_by_label("Code").type_text("01G0B0C0");
    h.run_steps(1);
    h.get_by_label("Add code").click();
    h.run_steps(2);
    h.get_by_label_contains("'G' is not a hex digit");
    // GameShark: 32 written to the clock every frame: the clock never runs down.
    h.state_mut().cheat_ui_mut().clear();
    h.get_by_label("Code").focus();
    h.run_steps(1);
    h.get_by_label("Code").type_text("0120B0C0");
    h.get_by_label("Name").focus();
    h.run_steps(1);
    h.get_by_label("Name").type_text("full clock");
    h.run_steps(1);
    h.get_by_label("Add code").click();
    settle(h);
    let on_at = h.state().view().timeline.frame;
    step(h, 300);
    let clock = peek(h, CLOCK);
    assert!(
        clock >= 31,
        "the GameShark keeps the clock full: {clock}, {:?}",
        h.state().view().tools.cheats
    );
    let rows = h.state().view().tools.cheats.clone();
    assert_eq!(
        (rows[0].code.as_str(), rows[0].on, rows[0].name.as_str()),
        ("0120B0C0", true, "full clock")
    );
    // Off: the clock runs down from there.
    h.get_by_label("0120B0C0").click();
    settle(h);
    step(h, 180);
    let after_off = peek(h, CLOCK);
    assert!(after_off <= 30, "runs down again: {after_off}");
    // Game Genie: the clock's `ADD A,$FF` (bank 1, 6B5A) reads as `ADD A,$00`: it stops.
    let genie = gb_session::tools::cheats::encode_genie(RomCheat {
        addr: 0x6B5B,
        value: 0x00,
        compare: Some(0xFF),
    });
    h.get_by_label("Code").focus();
    h.run_steps(1);
    h.get_by_label("Code").type_text(&genie);
    h.run_steps(1);
    h.get_by_label("Add code").click();
    settle(h);
    let frozen = peek(h, CLOCK);
    step(h, 240);
    assert_eq!(
        peek(h, CLOCK),
        frozen,
        "the Game Genie code stops the clock"
    );
    // Rewind to before the GameShark code was turned on: no code is on there, and the
    // window's ticks say so.
    let r = h.state().emu().repl(&format!("seek {}", on_at - 10));
    assert!(!r.starts_with("error"), "{r}");
    settle(h);
    let rows = h.state().view().tools.cheats.clone();
    assert!(rows.iter().all(|c| !c.on), "{rows:?}");
    // Forward again into the recorded future: both codes are back where they were on.
    h.state().emu().repl("seek 99999");
    settle(h);
    let rows = h.state().view().tools.cheats.clone();
    assert!(rows.iter().any(|c| c.code == genie && c.on), "{rows:?}");
    assert_eq!(peek(h, CLOCK), frozen);
    assert_eq!(h.state().view().timeline.desyncs, 0);
}
