//! The Debugger window driven by its labels with `egui_kittest`: a ROM with its `.sym` file
//! in a temporary folder, a breakpoint typed by symbol, Continue stopping there, Step and Step
//! out moving PC as the listing shows.

use super::test_support::{self as support, settle};
use crate::emu::RomSource;
use egui_kittest::kittest::Queryable;
use gb_core::asm::RomBuilder;
use std::time::{Duration, Instant};

#[test]
fn a_breakpoint_by_symbol_stops_and_steps_show_in_the_listing() {
    let dir = std::env::temp_dir().join(format!("gbhost-debugger-ui-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let asm = RomBuilder::new()
        .title("DEBUG")
        .program(
            "Start:\n xor a\n ld [$C000], a\nMain:\n call Count\n ld [$C001], a\n jr Main\n org $0400\nCount:\n ld a, [$C000]\n inc a\n ld [$C000], a\n ret\n",
        )
        .build_with_symbols()
        .unwrap();
    let rom = dir.join("debug.gb");
    std::fs::write(&rom, &asm.bytes).unwrap();
    let sym: String = ["Start", "Main", "Count"]
        .iter()
        .map(|n| format!("00:{:04X} {n}\n", asm.address(n).unwrap()))
        .collect();
    std::fs::write(dir.join("debug.sym"), sym).unwrap();
    let mut h = support::harness(RomSource::File(rom), Vec::new(), 8 << 20, [1200.0, 900.0]);
    settle(&mut h);
    h.get_by_label("View").click_accesskit();
    h.run_steps(2);
    h.get_by_label("Debugger").click_accesskit();
    h.run_steps(2);
    if h.query_by_label("Memory viewer").is_some() {
        h.get_by_label("View").click_accesskit();
    }
    settle(&mut h);
    h.get_by_label("Break at").focus();
    h.run_steps(1);
    h.get_by_label("Break at").type_text("Count");
    h.run_steps(1);
    h.get_by_label("Add breakpoint").click();
    settle(&mut h);
    let view = h.state().view().debug.clone().unwrap();
    assert_eq!(view.breakpoints.len(), 1, "{view:?}");
    h.get_by_label("Continue").click();
    settle(&mut h);
    let t0 = Instant::now();
    while !h.state().view().pacing.paused && t0.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
        h.run_steps(1);
    }
    settle(&mut h);
    let count = asm.address("Count").unwrap();
    let view = h.state().view().debug.clone().unwrap();
    assert!(
        view.at.contains(&format!("at {count:04X} Count:")),
        "{}",
        view.at
    );
    assert!(view.mid_frame);
    let pc_line = view.listing.iter().find(|l| l.is_pc).unwrap();
    assert_eq!((pc_line.addr, pc_line.has_break), (count, true));
    assert_eq!(pc_line.label.as_deref(), Some("Count"));
    h.get_by_label_contains(&format!(">* {count:04X}"));
    h.get_by_label("Step").click();
    settle(&mut h);
    let view = h.state().view().debug.clone().unwrap();
    assert!(view.at.contains("Count+3: inc a"), "{}", view.at);
    h.get_by_label("Step out").click();
    settle(&mut h);
    let view = h.state().view().debug.clone().unwrap();
    assert!(view.at.contains("Main+3: ld [$C001], a"), "{}", view.at);
    h.state_mut().emu_mut().quit();
    let _ = std::fs::remove_dir_all(&dir);
}
