//! The window driven by its labels with `egui_kittest` (no display, no GPU): the demo opens,
//! pause and frame advance, rewind held on its key, the timeline scrubbed, a script loaded,
//! failing in the panel, and unloaded.

use super::GbApp;
use super::test_support::{self as support, settle};
use crate::emu::RomSource;
use eframe::egui;
use eframe::egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::time::{Duration, Instant};

fn harness() -> Harness<'static, GbApp> {
    harness_with(Vec::new())
}

fn harness_with(scripts: Vec<std::path::PathBuf>) -> Harness<'static, GbApp> {
    support::harness(RomSource::Demo, scripts, 8 << 20, [1000.0, 700.0])
}

fn frame(h: &Harness<'static, GbApp>) -> u64 {
    h.state().view().timeline.frame
}

fn overlay_texts(h: &Harness<'static, GbApp>) -> Vec<String> {
    h.state()
        .view()
        .screen
        .overlays
        .iter()
        .flat_map(|(_, l)| l.iter())
        .filter_map(|c| match c {
            gb_session::DrawCmd::Text { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn demo_pause_and_frame_advance() {
    let mut h = harness();
    settle(&mut h);
    assert_eq!(frame(&h), 0);
    h.get_by_label("demo_overlay.lua").hover();
    for _ in 0..3 {
        h.get_by_label("Frame advance").click();
        settle(&mut h);
    }
    assert_eq!(frame(&h), 3);
    assert!(overlay_texts(&h).iter().any(|t| t.starts_with("frame 3")));
    h.get_by_label("Resume").click();
    settle(&mut h);
    std::thread::sleep(Duration::from_millis(300));
    h.get_by_label("Pause").click();
    settle(&mut h);
    let f = frame(&h);
    assert!(f > 6, "ran while resumed: {f}");
    h.get_by_label_contains("paused");
}

#[test]
fn hold_rewind_then_scrub_the_timeline() {
    let mut h = harness();
    h.state().emu().repl("step 200");
    settle(&mut h);
    assert_eq!(frame(&h), 200);
    h.key_down(egui::Key::Backtick);
    settle(&mut h);
    let t0 = Instant::now();
    while frame(&h) > 170 && t0.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
        h.run_steps(1);
    }
    h.get_by_label_contains("rewinding");
    h.key_up(egui::Key::Backtick);
    settle(&mut h);
    let f = frame(&h);
    assert!(f < 200 && f > 0, "rewound to {f}");
    // The timeline covers the whole history: scrub to frame 50.
    h.get_by_role(Role::Slider).set_value_accesskit(50.0);
    settle(&mut h);
    assert_eq!(frame(&h), 50);
    assert!(
        overlay_texts(&h).iter().any(|t| t.starts_with("frame 50")),
        "{:?}",
        overlay_texts(&h)
    );
    // Frame advance while rewound walks the recorded future.
    h.get_by_label("Frame advance").click();
    settle(&mut h);
    assert_eq!(frame(&h), 51);
    assert_eq!(h.state().view().timeline.history.map(|(_, b)| b), Some(200));
}

#[test]
fn load_a_failing_script_see_the_error_and_unload_it() {
    let mut h = harness();
    let dir = std::env::temp_dir().join(format!("gbhost-ui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.lua");
    std::fs::write(&path, "local x = 1\nerror('boom at two')\n").unwrap();
    h.get_by_label("Script path").focus();
    h.run_steps(1);
    h.get_by_label("Script path")
        .type_text(path.to_str().unwrap());
    h.run_steps(1);
    h.get_by_label("Load script").click();
    settle(&mut h);
    h.get_by_label("Frame advance").click();
    settle(&mut h);
    h.get_by_label("broken.lua");
    // In the scripts panel (and on the console).
    assert!(h.query_all_by_label_contains("boom at two").count() >= 1);
    let status = h.state().view().scripts.rows[1].status.clone();
    assert!(
        status.starts_with("error:") && status.contains(":2:"),
        "{status}"
    );
    h.get_by_label("Unload broken.lua").click();
    settle(&mut h);
    assert!(h.query_by_label("broken.lua").is_none());
    assert_eq!(h.state().view().scripts.rows.len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn memory_viewer_shows_a_domain() {
    let mut h = harness();
    settle(&mut h);
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_label("Memory viewer").click();
    settle(&mut h);
    h.get_by_label("VRAM").click();
    settle(&mut h);
    let (domain, start, bytes, size) = h.state().view().memory.clone();
    assert_eq!(domain, Some(gb_core::Domain::Vram));
    assert_eq!((start, bytes.len(), size), (0, 0x100, 0x2000));
    h.get_by_label("page >").click();
    settle(&mut h);
    assert_eq!(h.state().view().memory.1, 0x100);
    // Work RAM by banks: bank 1 (0xD000-0xDFFF on the DMG) starts at offset 0x1000.
    h.get_by_label("WRAM").click();
    settle(&mut h);
    h.get_by_label("#1").click();
    settle(&mut h);
    let (domain, start, _, size) = h.state().view().memory.clone();
    assert_eq!(
        (domain, start, size),
        (Some(gb_core::Domain::Wram), 0x1000, 0x2000)
    );
}

/// Type a line into the console panel.
fn console(h: &mut Harness<'static, GbApp>, line: &str) {
    h.get_by_label("Console").focus();
    h.run_steps(1);
    h.get_by_label("Console").type_text(line);
    h.run_steps(1);
    h.key_press(egui::Key::Enter);
    settle(h);
}

/// Live reload in the window: rewound through the console panel, the overlay script is edited
/// on disk and the shown frame is drawn again by the new code, with the panel saying so.
#[test]
fn live_reload_while_rewound_redraws_the_window() {
    let dir = std::env::temp_dir().join(format!("gbhost-ui-live-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("hud.lua");
    std::fs::write(
        &path,
        "event.onframeend(function() gui.text(0, 9, 'v1 ' .. emu.framecount()) end)\n",
    )
    .unwrap();
    let mut h = harness_with(vec![path.clone()]);
    console(&mut h, "step 100");
    console(&mut h, "rewind 30");
    assert_eq!(frame(&h), 70);
    assert!(overlay_texts(&h).contains(&"v1 70".to_owned()));
    h.get_by_label_contains("rewound: 30 frames");
    std::fs::write(
        &path,
        "event.onframeend(function() gui.text(0, 9, 'v2 ' .. emu.framecount()) end)\n",
    )
    .unwrap();
    let t0 = Instant::now();
    while !overlay_texts(&h).contains(&"v2 70".to_owned()) {
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "{:?}",
            overlay_texts(&h)
        );
        std::thread::sleep(Duration::from_millis(20));
        h.run_steps(1);
    }
    assert_eq!(frame(&h), 70);
    h.run_steps(2);
    h.get_by_label("reloaded at frame 70");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Choose `item` in `menu` and type `path` into the path dialog it opens.
fn menu_path(h: &mut Harness<'static, GbApp>, menu: &str, item: &str, path: &std::path::Path) {
    h.get_by_label(menu).click();
    h.run_steps(2);
    h.get_by_label(item).click();
    settle(h);
    h.get_by_label("Path").focus();
    h.run_steps(1);
    h.get_by_label("Path")
        .type_text(&path.display().to_string());
    h.run_steps(1);
    h.get_by_label("Open").click();
    settle(h);
}

/// A state path with spaces, from the menu's dialog and from the console panel: each writes
/// exactly that file (a typed command is parsed once, with quotes; the menu builds the
/// command itself, with no line in between).
#[test]
fn state_files_with_spaces_in_their_paths() {
    let dir = std::env::temp_dir().join(format!("gbhost-ui-space-{}", std::process::id()));
    let sub = dir.join("dir with space");
    std::fs::create_dir_all(&sub).unwrap();
    let from_menu = sub.join("a.gbs");
    let from_console = sub.join("b.gbs");
    let mut h = harness();
    settle(&mut h);
    h.get_by_label("Frame advance").click();
    settle(&mut h);
    menu_path(&mut h, "State", "Save state file…", &from_menu);
    assert!(
        from_menu.is_file(),
        "the menu wrote {}",
        from_menu.display()
    );
    console(
        &mut h,
        &format!("state save \"{}\"", from_console.display()),
    );
    assert!(
        from_console.is_file(),
        "the console wrote {}",
        from_console.display()
    );
    assert!(
        !dir.join("dir").exists(),
        "nothing was written at the first word"
    );
    // Loading it back from the menu moves nothing off the timeline and says so.
    menu_path(&mut h, "State", "Load state file…", &from_menu);
    let console_text = h.state().view().console.lines.join("\n");
    assert!(
        console_text.contains("scripts restored exactly"),
        "{console_text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// File → Open state…: a state saved with a script opens as a new session whose script goes
/// on from its own memory (its VM restored exactly from the file's image), not from the start.
#[test]
fn open_a_state_file_and_the_script_goes_on_exactly() {
    let dir = std::env::temp_dir().join(format!("gbhost-ui-open-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("counter.lua");
    std::fs::write(
        &script,
        "local n = 0\nwhile true do n = n + 1 gui.text(0, 0, 'count ' .. n) emu.frameadvance() end\n",
    )
    .unwrap();
    let state = dir.join("counter.gbs");
    let mut h = harness_with(vec![script]);
    settle(&mut h);
    for _ in 0..6 {
        h.get_by_label("Frame advance").click();
        settle(&mut h);
    }
    let count = |h: &Harness<'static, GbApp>| {
        overlay_texts(h)
            .iter()
            .find_map(|t| t.strip_prefix("count ")?.parse::<u64>().ok())
            .expect("the counter is drawn")
    };
    let saved = count(&h);
    assert!(saved > 3, "{saved}");
    console(&mut h, &format!("state save {}", state.display()));
    for _ in 0..4 {
        h.get_by_label("Frame advance").click();
        settle(&mut h);
    }
    assert_eq!(count(&h), saved + 4);
    menu_path(&mut h, "File", "Open state…", &state);
    h.get_by_label("Frame advance").click();
    settle(&mut h);
    let said = h.state().view().console.lines.clone();
    assert!(
        said.iter().any(|l| l.contains("scripts restored exactly")),
        "{said:?}"
    );
    assert_eq!(
        count(&h),
        saved + 1,
        "the script's local went on from the file"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
