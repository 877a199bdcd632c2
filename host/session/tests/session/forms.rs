//! Scripts' windows: BizHawk's forms and mGBA's text buffers live in the script's arena and
//! roll back with it; the user's actions on them and the host's keys and mouse are logged
//! events (codec tags 9 and 10) that reach the script identically on every replay.

use gb_session::api::{ControlKind, ScriptUi};
use gb_session::codec::{Dec, Enc, decode_kind, encode_kind};
use gb_session::data::{FormValue, HostInput};
use gb_session::{EventKind, Flavor, Session};

use crate::common::{console, session};

/// A BizHawk form with one control of each kind; the button counts clicks into the label.
const FORM: &str = r##"
local clicks = 0
local closed = false
local f = forms.newform(320, 240, "Trainer", function() closed = true print("closed") end)
local label
local button = forms.button(f, "Add", function()
  clicks = clicks + 1
  forms.settext(label, "clicks " .. clicks)
end, 10, 10, 80, 24)
local check = forms.checkbox(f, "Infinite lives", 10, 40)
local text = forms.textbox(f, "hello", 120, 20, nil, 10, 70)
local drop = forms.dropdown(f, { "Easy", "Normal", "Hard" }, 10, 100, 100, 20)
label = forms.label(f, "clicks 0", 120, 10, 100, 20)
local pic = forms.pictureBox(f, 10, 130, 160, 80)
forms.addclick(check, function() print("toggled", forms.ischecked(check)) end)
forms.clear(pic, "black")
forms.drawBox(pic, 2, 2, 40, 20, "red", "yellow")
forms.drawLine(pic, 0, 0, 159, 79, 0xFF00FF00)
forms.drawText(pic, 50, 40, "pic", "white")
forms.drawPixel(pic, 5, 70, "#FF0000")
forms.refresh(pic)
while true do
  if emu.framecount() % 10 == 0 then
    print(clicks, forms.ischecked(check), forms.gettext(text), forms.gettext(drop), closed)
  end
  emu.frameadvance()
end
"##;

fn ui(s: &Session) -> ScriptUi {
    s.windows()
        .next()
        .map(|(_, u)| u.clone())
        .unwrap_or_default()
}

fn label_text(s: &Session) -> String {
    ui(s).forms[0]
        .controls
        .iter()
        .find(|c| c.kind == ControlKind::Label)
        .map(|c| c.text.clone())
        .unwrap_or_default()
}

fn form_session() -> (Session, u32) {
    let mut s = session();
    let slot = s.load_script_as("form.lua", FORM, Flavor::BizHawk);
    s.run_frame();
    (s, slot)
}

#[test]
fn a_form_is_described_with_every_control() {
    let (mut s, _) = form_session();
    assert_eq!(console(&mut s), ["0\tfalse\thello\tEasy\tfalse"]);
    let ui = ui(&s);
    assert_eq!(ui.forms.len(), 1);
    let form = &ui.forms[0];
    assert_eq!(
        (form.title.as_str(), form.width, form.height),
        ("Trainer", 320, 240)
    );
    let kinds: Vec<ControlKind> = form.controls.iter().map(|c| c.kind).collect();
    assert_eq!(
        kinds,
        [
            ControlKind::Button,
            ControlKind::Checkbox,
            ControlKind::Textbox,
            ControlKind::Dropdown,
            ControlKind::Label,
            ControlKind::PictureBox
        ]
    );
    let drop = &form.controls[3];
    assert_eq!(drop.items, ["Easy", "Hard", "Normal"]);
    assert_eq!(drop.text, "Easy");
    let pic = &form.controls[5];
    assert_eq!(pic.background, 0xFF00_0000);
    assert_eq!(pic.drawing.len(), 4);
    assert_eq!((pic.x, pic.y, pic.width, pic.height), (10, 130, 160, 80));
}

#[test]
fn clicks_ticks_text_and_choices_run_the_script_and_roll_back() {
    let (mut s, slot) = form_session();
    for _ in 0..4 {
        s.run_frame();
    }
    let before = s.frame();
    let handles: Vec<u32> = ui(&s).forms[0].controls.iter().map(|c| c.handle).collect();
    let (button, check, text, drop) = (handles[0], handles[1], handles[2], handles[3]);
    s.form_event(slot, button, FormValue::Click);
    s.form_event(slot, button, FormValue::Click);
    s.form_event(slot, check, FormValue::Check(true));
    s.form_event(slot, text, FormValue::Text("typed".into()));
    s.form_event(slot, drop, FormValue::Select(1));
    s.run_frame();
    assert_eq!(label_text(&s), "clicks 2");
    while s.frame() < 10 {
        s.run_frame();
    }
    s.run_frame();
    let lines = console(&mut s);
    assert!(lines.contains(&"toggled\ttrue".to_owned()), "{lines:?}");
    assert!(
        lines.contains(&"2\ttrue\ttyped\tHard\tfalse".to_owned()),
        "{lines:?}"
    );
    let form = &ui(&s).forms[0];
    assert!(form.controls[1].checked);
    assert_eq!(form.controls[2].text, "typed");
    // Back before the actions: the form is as it was then.
    s.seek(before).expect("seek");
    assert_eq!(label_text(&s), "clicks 0");
    assert!(!ui(&s).forms[0].controls[1].checked);
    // And forward again through the recorded future: the actions replay exactly.
    s.seek(before + 3).expect("seek");
    assert_eq!(label_text(&s), "clicks 2");
    let end = s.frame();
    assert_eq!(s.verify_replay(1).expect("replay"), 0, "mismatches");
    assert_eq!(s.frame(), end);
}

#[test]
fn closing_a_form_runs_its_onclose_and_survives_a_rewind() {
    let (mut s, slot) = form_session();
    s.run_frame();
    let form = ui(&s).forms[0].handle;
    let at = s.frame();
    s.form_event(slot, form, FormValue::Close);
    s.run_frame();
    assert!(ui(&s).forms.is_empty());
    assert!(console(&mut s).contains(&"closed".to_owned()));
    // A second close of a form that is gone does nothing.
    s.form_event(slot, form, FormValue::Close);
    for _ in 0..20 {
        s.run_frame();
    }
    s.seek(at).expect("seek");
    assert_eq!(ui(&s).forms.len(), 1);
    s.seek(at + 2).expect("seek");
    assert!(ui(&s).forms.is_empty());
    assert_eq!(s.verify_replay(1).expect("replay"), 0);
}

#[test]
fn bad_form_arguments_are_lua_errors_and_unknown_functions_stubs() {
    let mut s = session();
    s.load_script_as(
        "bad.lua",
        r#"
        local f = forms.newform(100, 100, "x")
        print(pcall(forms.button, 999, "b", function() end))
        print(pcall(forms.button, f, "b", 5))
        print(pcall(forms.drawBox, f, 0, 0, 1, 1))
        print(pcall(forms.setproperty, f, "Opacity", 1))
        print(pcall(forms.drawLine, forms.pictureBox(f), 0, 0, 1, 1, "nocolour"))
        print(pcall(forms.openfile))
        print(forms.destroy(12345), forms.getproperty(f, "Text"))
        forms.destroyall()
        "#,
        Flavor::BizHawk,
    );
    s.run_frame();
    let lines = console(&mut s);
    let expect = [
        "forms.button: 999 is not a form handle",
        "forms.button: expected a function, got number",
        "forms.drawBox: 1 is not a picture box handle",
        "forms.setproperty: property 'Opacity' is not supported by gbhost",
        "forms.drawLine: 'nocolour' is not a colour",
        "forms.openfile is not supported by gbhost",
    ];
    for (line, want) in lines.iter().zip(expect) {
        assert!(
            line.starts_with("false\t") && line.contains(want),
            "{line} / {want}"
        );
    }
    assert_eq!(lines[6], "false\tx");
    assert!(ui(&s).forms.is_empty());
}

#[test]
fn an_mgba_buffer_is_a_panel_that_rolls_back() {
    let mut s = session();
    s.load_script_as(
        "buf.lua",
        r#"
        local buf = console:createBuffer("Status")
        buf:setSize(20, 5)
        callbacks:add("frame", function()
          local f = emu:currentFrame()
          if f % 10 == 0 then buf:print("frame " .. f .. "\n") end
          if f == 30 then buf:clear() buf:moveCursor(3, 1) buf:print("x") buf:advance(2)
            buf:print("y" .. buf:getX() .. "," .. buf:getY()) buf:setName("Renamed") end
        end)
        "#,
        Flavor::Mgba,
    );
    for _ in 0..25 {
        s.run_frame();
    }
    let b = ui(&s).buffers[0].clone();
    assert_eq!((b.name.as_str(), b.cols, b.rows), ("Status", 20, 5));
    assert_eq!(b.lines, ["frame 10", "frame 20", ""]);
    assert_eq!((b.cursor_x, b.cursor_y), (0, 2));
    for _ in 0..10 {
        s.run_frame();
    }
    let b = ui(&s).buffers[0].clone();
    assert_eq!(b.name, "Renamed");
    assert_eq!(b.lines, ["", "   x  y6,1"]);
    s.seek(21).expect("seek");
    assert_eq!(ui(&s).buffers[0].lines, ["frame 10", "frame 20", ""]);
    s.seek(35).expect("seek");
    assert_eq!(ui(&s).buffers[0].name, "Renamed");
    assert_eq!(s.verify_replay(1).expect("replay"), 0);
}

#[test]
fn host_keys_and_mouse_are_logged_only_once_read_and_replay_exactly() {
    let mut s = session();
    s.load_script_as(
        "keys.lua",
        r#"
        while true do
          if emu.framecount() >= 6 then
            local k, m = input.get(), input.getmouse()
            local names = {}
            for name in pairs(k) do names[#names + 1] = name end
            table.sort(names)
            gui.text(0, 0, table.concat(names, "+") .. " " .. m.X .. "," .. m.Y ..
              (m.Left and " L" or "") .. " w" .. m.Wheel)
          end
          emu.frameadvance()
        end
        "#,
        Flavor::BizHawk,
    );
    for _ in 0..5 {
        s.run_frame();
        assert!(!s.wants_host_input());
    }
    s.run_frame();
    assert!(s.wants_host_input());
    let input = HostInput {
        keys: vec!["Shift".into(), "A".into()],
        mouse_x: 40,
        mouse_y: -3,
        mouse_buttons: gb_session::data::window_input::mouse::LEFT,
        wheel: 2,
    };
    let logged = s.log().events().len();
    s.set_host_input(input.clone());
    s.set_host_input(input);
    assert_eq!(s.log().events().len(), logged + 1, "logged once");
    s.run_frame();
    assert_eq!(crate::common::texts(&s), ["A+Shift 40,-3 L w2"]);
    for _ in 0..5 {
        s.run_frame();
    }
    s.set_host_input(HostInput::default());
    s.run_frame();
    assert_eq!(crate::common::texts(&s), [" 0,0 w0"]);
    s.seek(8).expect("seek");
    assert_eq!(crate::common::texts(&s), ["A+Shift 40,-3 L w2"]);
    s.seek(13).expect("seek");
    assert_eq!(s.verify_replay(1).expect("replay"), 0);
}

#[test]
fn form_and_input_events_encode_with_tags_9_and_10() {
    let kinds = [
        EventKind::Form {
            slot: 3,
            control: 70_000,
            value: FormValue::Text("héllo\n".into()),
        },
        EventKind::Form {
            slot: 0,
            control: 1,
            value: FormValue::Select(2),
        },
        EventKind::Form {
            slot: 0,
            control: 1,
            value: FormValue::Check(true),
        },
        EventKind::Form {
            slot: 0,
            control: 1,
            value: FormValue::Click,
        },
        EventKind::Form {
            slot: 0,
            control: 1,
            value: FormValue::Close,
        },
        EventKind::HostInput(HostInput {
            keys: vec!["Up".into(), "Space".into()],
            mouse_x: -7,
            mouse_y: 200,
            mouse_buttons: 5,
            wheel: i32::MIN,
        }),
    ];
    for kind in kinds {
        let mut e = Enc::default();
        encode_kind(&mut e, &kind);
        let tag = if matches!(kind, EventKind::Form { .. }) {
            9
        } else {
            10
        };
        assert_eq!(e.buf[0], tag);
        let mut d = Dec::new(&e.buf);
        assert_eq!(decode_kind(&mut d).expect("decode"), kind);
        // Cut short anywhere: an error, never a panic.
        for cut in 0..e.buf.len() {
            assert!(decode_kind(&mut Dec::new(&e.buf[..cut])).is_err());
        }
    }
}

#[test]
fn client_window_calls_are_requests_from_live_frames_only() {
    use gb_session::api::ClientRequest;
    let mut s = session();
    let slot = s.load_script_as(
        "client.lua",
        r#"
        client.SetGameExtraPadding(0, 10, 40, 0)
        while true do
          local f = emu.framecount()
          if f == 2 then client.pause() print(client.ispaused()) end
          if f == 3 then client.togglepause() client.screenshot("shots/a.png") end
          if f == 4 then print(pcall(client.screenshot, "../escape.png")) end
          if f == 5 then print(client.getwindowsize(), client.xpos(), client.borderheight()) end
          gui.drawText(-20, -8, "in the padding")
          emu.frameadvance()
        end
        "#,
        Flavor::BizHawk,
    );
    for _ in 0..6 {
        s.run_frame();
    }
    assert_eq!(ui(&s).padding, [0, 10, 40, 0]);
    assert_eq!(
        s.take_client_requests(),
        [
            (slot, ClientRequest::Pause),
            (slot, ClientRequest::TogglePause),
            (slot, ClientRequest::Screenshot("shots/a.png".into())),
        ]
    );
    let lines = console(&mut s);
    assert_eq!(lines[0], "true");
    assert!(
        lines[1].starts_with("false") && lines[1].contains("outside the script's folder"),
        "{lines:?}"
    );
    assert_eq!(lines[2], "1\t0\t10");
    // Replays ask for nothing again.
    assert_eq!(s.verify_replay(1).expect("replay"), 0);
    assert!(s.take_client_requests().is_empty());
    let drawn: Vec<_> = s.draw_lists().flat_map(|(_, d)| d.to_vec()).collect();
    assert!(matches!(
        drawn[0],
        gb_session::DrawCmd::Text { x: -20, y: -8, .. }
    ));
}

#[test]
fn a_reload_replaces_the_old_codes_windows() {
    let (mut s, slot) = form_session();
    s.run_frame();
    s.reload_script(slot, &FORM.replace("\"Trainer\"", "\"Trainer 2\""))
        .expect("reload");
    s.run_frame();
    let titles: Vec<String> = ui(&s).forms.iter().map(|f| f.title.clone()).collect();
    assert_eq!(titles, ["Trainer 2"]);
    assert_eq!(s.verify_replay(1).expect("replay"), 0);
}

#[test]
fn loading_a_state_brings_its_forms_back() {
    let (mut s, slot) = form_session();
    s.run_frame();
    s.save_state("before");
    let button = ui(&s).forms[0].controls[0].handle;
    s.form_event(slot, button, FormValue::Click);
    s.run_frame();
    assert_eq!(label_text(&s), "clicks 1");
    s.load_state("before").expect("load");
    s.run_frame();
    assert_eq!(label_text(&s), "clicks 0");
    s.run_frame();
    assert_eq!(s.verify_replay(1).expect("replay"), 0);
}

#[test]
fn a_state_file_restores_a_form_exactly_in_another_session() {
    let config = |offset: usize| gb_session::SessionConfig {
        desync_check: true,
        image_key: Some(lua_rollback::ImageKey::from_bytes([9; 32])),
        scripts: gb_session::ScriptConfig {
            window_offset: offset,
            ..gb_session::ScriptConfig::default()
        },
        ..gb_session::SessionConfig::default()
    };
    let file = {
        let mut a = Session::new(crate::common::counter_rom(), None, config(700)).unwrap();
        let slot = a.load_script_as("form.lua", FORM, Flavor::BizHawk);
        a.run_frame();
        let button = ui(&a).forms[0].controls[0].handle;
        a.form_event(slot, button, FormValue::Click);
        a.run_frame();
        assert_eq!(label_text(&a), "clicks 1");
        a.state_file(0, false)
    };
    let mut b =
        Session::from_state_file(crate::common::counter_rom(), None, config(700), &file).unwrap();
    assert_eq!(b.scripts_restarted_at_start(), 0, "restored from its image");
    assert_eq!(label_text(&b), "clicks 1");
    for _ in 0..5 {
        b.run_frame();
    }
    assert_eq!(label_text(&b), "clicks 1");
    assert_eq!(b.verify_replay(b.frame() - 4).expect("replay"), 0);
}

/// A movie records the form's actions and the host's keys with the buttons: playing it back
/// runs the same callbacks (they write the game's memory here) and reads the same keys.
#[test]
fn a_movie_replays_form_actions_and_host_input() {
    use gb_session::movie::{self, Movie, Recorder};
    let dir = std::env::temp_dir().join(format!("gbhost-forms-movie-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("forms.gbm");
    let config = || gb_session::SessionConfig {
        ring_bytes: 8 << 20,
        ..gb_session::SessionConfig::default()
    };
    let source = r#"
        local f = forms.newform(100, 100, "m")
        local n = 0
        local label = forms.label(f, "0", 0, 0)
        forms.button(f, "poke", function()
          n = n + 1
          memory.write_u8(0xC0F0, n, "System Bus")
          forms.settext(label, tostring(n))
        end)
        while true do
          if input.get().Space then memory.write_u8(0xC0F1, emu.framecount() & 0xFF, "System Bus") end
          emu.frameadvance()
        end
    "#;
    let mut s = Session::new(crate::common::counter_rom(), None, config()).unwrap();
    let slot = s.load_script_as("m.lua", source, Flavor::BizHawk);
    let mut rec = Recorder::create(&path, &mut s, vec![], Default::default()).unwrap();
    for f in 0..300u64 {
        if f % 37 == 5 {
            let button = ui(&s).forms[0].controls[1].handle;
            s.form_event(slot, button, FormValue::Click);
        }
        if s.wants_host_input() {
            let keys = if f % 50 < 20 {
                vec!["Space".into()]
            } else {
                vec![]
            };
            s.set_host_input(HostInput {
                keys,
                ..HostInput::default()
            });
        }
        s.run_frame();
        rec.after_frame(&mut s).unwrap();
    }
    rec.finish().unwrap();
    assert_eq!(s.gb().peek(0xC0F0), 8);
    assert_ne!(s.gb().peek(0xC0F1), 0);
    let m = Movie::open(&path).unwrap();
    let (report, played) =
        movie::play(&m, crate::common::counter_rom(), config(), |_, _| {}).unwrap();
    assert_eq!((report.frames, report.desync), (300, None));
    assert_eq!(movie::state_hash(&played), movie::state_hash(&s));
    assert_eq!(ui(&played).forms[0].controls[0].text, "8");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bizhawk_canvas_is_a_window_drawn_with_either_call_style() {
    let mut s = crate::common::session();
    s.load_script_as(
        "canvas.lua",
        r#"
        local c = gui.createcanvas(64, 32, 5, 5)
        c.SetTitle("Graph")
        c.Clear(0xFF000000)
        c.DrawLine(0, 0, 63, 31, 0xFF00FF00)
        c:DrawText(2, 2, "hi", 0xFFFFFFFF)
        c.DrawAxis(32, 16, 4, 0xFFFF0000)
        c.Refresh()
        print(pcall(c.DrawEllipse, 0, 0, 4, 4))
        "#,
        gb_session::Flavor::BizHawk,
    );
    s.run_frame();
    let lines = crate::common::console(&mut s);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].contains("LuaCanvas.DrawEllipse is not supported by gbhost"),
        "{lines:?}"
    );
    let ui = format!("{:?}", s.scripts().next().expect("script").ui());
    assert!(ui.contains("Graph"), "{ui}");
}
