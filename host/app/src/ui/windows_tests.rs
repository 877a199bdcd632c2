//! Scripts' windows driven by their labels with `egui_kittest`: a BizHawk form's button,
//! checkbox and textbox reach the script (a frame later, as logged events), and an mGBA text
//! buffer is a panel of its own.

use super::GbApp;
use super::test_support::{self as support, settle};
use crate::emu::RomSource;
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use gb_session::api::ControlKind;

fn harness_with(name: &str, source: &str) -> (Harness<'static, GbApp>, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("gbhost-ui-windows-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, source).unwrap();
    let h = support::harness(RomSource::Demo, vec![path], 8 << 20, [1000.0, 700.0]);
    (h, dir)
}

fn advance(h: &mut Harness<'static, GbApp>) {
    h.get_by_label("Frame advance").click();
    settle(h);
}

/// The first form's control of `kind`.
fn control(h: &Harness<'static, GbApp>, kind: ControlKind) -> gb_session::api::Control {
    h.state().view().scripts.windows[0].1.forms[0]
        .controls
        .iter()
        .find(|c| c.kind == kind)
        .cloned()
        .expect("the control")
}

#[test]
fn a_bizhawk_form_is_a_window_whose_controls_reach_the_script() {
    let (mut h, dir) = harness_with(
        "form.lua",
        r#"
        local n = 0
        local f = forms.newform(260, 160, "Trainer")
        local label
        forms.button(f, "Add", function() n = n + 1 forms.settext(label, "clicks " .. n) end, 10, 10)
        label = forms.label(f, "clicks 0", 100, 12, 120, 20)
        forms.checkbox(f, "Infinite lives", 10, 40)
        forms.textbox(f, "hello", 120, 20, nil, 10, 70)
        local pic = forms.pictureBox(f, 10, 100, 100, 40)
        forms.drawBox(pic, 1, 1, 20, 20, "red", "yellow")
        while true do emu.frameadvance() end
        "#,
    );
    settle(&mut h);
    advance(&mut h);
    h.get_by_label("Trainer");
    h.get_by_label("clicks 0");
    h.get_by_label("Add").click();
    settle(&mut h);
    // The click is a logged event: the script runs its callback at the next frame's start.
    advance(&mut h);
    h.get_by_label("clicks 1");
    h.get_by_label("Infinite lives").click();
    settle(&mut h);
    advance(&mut h);
    assert!(control(&h, ControlKind::Checkbox).checked);
    h.query_all_by_value("hello")
        .next()
        .expect("the textbox")
        .focus();
    h.run_steps(1);
    h.query_all_by_value("hello")
        .next()
        .expect("the textbox")
        .type_text(" world");
    settle(&mut h);
    advance(&mut h);
    assert_eq!(control(&h, ControlKind::Textbox).text, "hello world");
    let pic = control(&h, ControlKind::PictureBox);
    assert_eq!(pic.drawing.len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_mgba_text_buffer_is_a_panel() {
    let (mut h, dir) = harness_with(
        "buffer.lua",
        r#"
        local buf = console:createBuffer("Status")
        callbacks:add("frame", function()
          buf:clear()
          buf:print("frame " .. emu:currentFrame() .. "\n")
          buf:print("C000 " .. emu:read8(0xC000))
        end)
        "#,
    );
    settle(&mut h);
    for _ in 0..3 {
        advance(&mut h);
    }
    h.get_by_label("Status");
    assert!(h.query_all_by_label_contains("frame 3").count() >= 1);
    let b = h.state().view().scripts.windows[0].1.buffers[0].clone();
    assert_eq!(b.lines[0], "frame 3");
    // Nothing printed on the console: the buffer is its own panel.
    assert!(
        !h.state()
            .view()
            .console
            .lines
            .iter()
            .any(|l| l.contains("frame 3")),
        "{:?}",
        h.state().view().console
    );
    h.key_press(egui::Key::Escape);
    let _ = std::fs::remove_dir_all(&dir);
}
