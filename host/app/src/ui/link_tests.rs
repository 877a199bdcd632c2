//! Two linked Game Boys in the window (the link demo on both): both screens drawn, player 2
//! on its own keys (and the Link menu swapping the controllers), the squares crossing the
//! cable, the Link menu pulling the cable out (the leader then reads $FF) and loading a script
//! on player 2 (drawn on player 2's screen).

use super::test_support::{self as support, settle, step};
use crate::emu::RomSource;
use eframe::egui;
use egui_kittest::kittest::Queryable;

/// A byte of player 1's memory, through the console's `peek`.
fn peek(h: &support::H, addr: u16) -> u8 {
    let out = h.state().emu().repl(&format!("peek {addr:04X} 1"));
    let hex = out
        .split_whitespace()
        .filter(|w| w.len() == 2)
        .find_map(|w| u8::from_str_radix(w, 16).ok());
    hex.unwrap_or_else(|| panic!("no byte in '{out}'"))
}

/// Open the Link menu unless it is open.
fn open_link_menu(h: &mut support::H) {
    if h.query_by_label("Cable plugged in").is_none() {
        h.get_by_label("Link").click();
        h.run_steps(2);
    }
}

#[test]
fn two_game_boys_side_by_side_with_their_own_keys_and_a_cable() {
    let mut h = support::harness_linked(
        RomSource::LinkDemo,
        Some(RomSource::LinkDemo),
        Vec::new(),
        8 << 20,
        [1200.0, 700.0],
    );
    settle(&mut h);
    step(&mut h, 5);
    assert!(h.state().view().screen.second.is_some(), "two screens");
    // Player 1 leads (Enter); player 2 moves down on its own key, S.
    h.key_down(egui::Key::Enter);
    settle(&mut h);
    step(&mut h, 2);
    h.key_up(egui::Key::Enter);
    h.key_down(egui::Key::S);
    settle(&mut h);
    h.get_by_label_contains("player 2 input");
    step(&mut h, 30);
    h.key_up(egui::Key::S);
    settle(&mut h);
    step(&mut h, 2);
    assert_eq!(peek(&h, 0xC004), 1, "player 1 leads");
    assert_eq!(peek(&h, 0xC001), 80, "player 1 did not move");
    let seen = peek(&h, 0xC003);
    assert!(seen > 100, "player 1 sees player 2 moved down: y {seen}");
    // Swapped controllers: the arrows now move player 2, S player 1.
    open_link_menu(&mut h);
    h.get_by_label("Swap controllers").click();
    settle(&mut h);
    h.key_down(egui::Key::S);
    settle(&mut h);
    step(&mut h, 10);
    h.key_up(egui::Key::S);
    settle(&mut h);
    step(&mut h, 2);
    assert!(peek(&h, 0xC001) > 80, "S moved player 1 down");
    // The Link menu pulls the cable out.
    open_link_menu(&mut h);
    h.get_by_label("Cable plugged in").click();
    settle(&mut h);
    step(&mut h, 2);
    let plugged = h.state().view().screen.second.as_ref().map(|s| s.plugged);
    assert_eq!(plugged, Some(false));
    h.get_by_label_contains("link cable pulled out");
    // Nothing at the other end: the leader shifts in 1s.
    assert_eq!(peek(&h, 0xC002), 0xFF, "player 1 reads $FF for x");
    assert_eq!(peek(&h, 0xC003), 0xFF, "player 1 reads $FF for y");
    // The Link menu loads a script on player 2: it reads player 2's memory and draws on
    // player 2's screen (no portal here: the path is typed).
    let dir = std::env::temp_dir().join(format!("gbhost-ui-link-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("p2.lua");
    std::fs::write(
        &script,
        "while true do gui.text(0, 0, 'P' .. emu.player() .. ' y ' .. memory.read_u8(0xC001)) \
         emu.frameadvance() end",
    )
    .unwrap();
    open_link_menu(&mut h);
    h.get_by_label("Load script on player 2…").click();
    settle(&mut h);
    h.get_by_label("Path").focus();
    h.run_steps(1);
    h.get_by_label("Path").type_text(script.to_str().unwrap());
    h.run_steps(1);
    h.get_by_label("Open").click();
    settle(&mut h);
    step(&mut h, 2);
    let screen = &h.state().view().screen;
    assert!(screen.overlays.is_empty(), "nothing on player 1's screen");
    let second = screen.second.as_ref().expect("two screens");
    let drawn = format!("{:?}", second.overlays);
    assert!(drawn.contains(&format!("P2 y {seen}")), "{drawn}");
    let listed = h.state().emu().repl("scripts");
    assert!(listed.contains("p2.lua (Running, player 2)"), "{listed}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_link_menu_links_the_same_game_and_unlinks_it_and_the_repl_links_a_file() {
    let dir = std::env::temp_dir().join(format!("gbhost-ui-relink-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let hud = dir.join("hud.lua");
    std::fs::write(
        &hud,
        "event.onframeend(function() gui.text(0, 0, 'on ' .. emu.players()) end)\n",
    )
    .unwrap();
    let mut h = support::harness(RomSource::LinkDemo, vec![hud], 8 << 20, [1200.0, 700.0]);
    settle(&mut h);
    assert!(h.state().view().screen.second.is_none(), "one Game Boy");
    // One Game Boy: the Link menu offers a second.
    h.get_by_label("Link").click();
    h.run_steps(2);
    h.get_by_label("Link the same game").click();
    settle(&mut h);
    step(&mut h, 3);
    let view = h.state().view();
    assert!(view.screen.second.is_some(), "two screens after linking");
    assert!(
        format!("{:?}", view.screen.overlays).contains("on 2"),
        "the user's script runs again, on the pair: {:?}",
        view.screen.overlays
    );
    let out = h.state().emu().repl("link");
    assert!(
        out.contains("linked: player 2 runs") && out.contains("plugged in"),
        "{out}"
    );
    assert!(h.state().emu().repl("link unplug").contains("pulled out"));
    settle(&mut h);
    // A file that is no ROM is refused and the pair goes on.
    let junk = dir.join("junk.gb");
    std::fs::write(&junk, b"not a game").unwrap();
    let out = h.state().emu().repl(&format!("link {}", junk.display()));
    assert!(out.contains("cannot link that game"), "{out}");
    settle(&mut h);
    assert!(h.state().view().screen.second.is_some(), "still a pair");
    // Unlinked from the menu: one Game Boy again, its script still there.
    open_link_menu(&mut h);
    h.get_by_label("Unlink (one Game Boy)").click();
    settle(&mut h);
    step(&mut h, 3);
    let view = h.state().view();
    assert!(view.screen.second.is_none(), "one screen after unlinking");
    assert!(
        format!("{:?}", view.screen.overlays).contains("on 1"),
        "{:?}",
        view.screen.overlays
    );
    assert!(h.state().emu().repl("link").starts_with("one Game Boy"));
    let _ = std::fs::remove_dir_all(&dir);
}
