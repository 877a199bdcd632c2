//! The host's keys and mouse as scripts see them (`input.get`, `input.getmouse`): BizHawk's
//! key names, the pointer in game-screen pixels. Sent to the emulation thread only while a
//! script reads them (the session logs each change as an event), and only when they change.

use eframe::egui;
use gb_session::data::HostInput;
use gb_session::data::window_input::mouse;

use super::GbApp;
use crate::emu::Cmd;

/// A key by BizHawk's name (its `DistinctKey`s: `A`, `D1`, `Up`, `Space`, `Back`, `F1`, …).
fn key_name(k: egui::Key) -> String {
    use egui::Key as K;
    let name = match k {
        K::ArrowUp => "Up",
        K::ArrowDown => "Down",
        K::ArrowLeft => "Left",
        K::ArrowRight => "Right",
        K::Backspace => "Back",
        K::Num0 => "D0",
        K::Num1 => "D1",
        K::Num2 => "D2",
        K::Num3 => "D3",
        K::Num4 => "D4",
        K::Num5 => "D5",
        K::Num6 => "D6",
        K::Num7 => "D7",
        K::Num8 => "D8",
        K::Num9 => "D9",
        K::Minus => "OemMinus",
        K::Plus | K::Equals => "OemPlus",
        K::Comma => "OemComma",
        K::Period => "OemPeriod",
        other => other.name(),
    };
    name.to_owned()
}

impl GbApp {
    /// Report the keys and mouse, if a script reads them and they changed. `screen`: where the
    /// game's picture is (its top-left corner and the scale).
    pub(super) fn host_input(&mut self, ctx: &egui::Context) {
        if !self.view.scripts.wants_host_input {
            return;
        }
        let (origin, scale) = self.script_input.screen_at;
        let input = ctx.input(|i| {
            let mut keys: Vec<String> = i.keys_down.iter().map(|k| key_name(*k)).collect();
            for (held, name) in [
                (i.modifiers.shift, "Shift"),
                (i.modifiers.ctrl, "Ctrl"),
                (i.modifiers.alt, "Alt"),
            ] {
                if held {
                    keys.push(name.to_owned());
                }
            }
            keys.sort();
            keys.dedup();
            for e in &i.raw.events {
                if let egui::Event::MouseWheel { unit, delta, .. } = e {
                    self.script_input.wheel += match unit {
                        egui::MouseWheelUnit::Line => delta.y,
                        egui::MouseWheelUnit::Page => delta.y * 3.0,
                        // About 50 points a notch.
                        egui::MouseWheelUnit::Point => delta.y / 50.0,
                    };
                }
            }
            let (x, y) = i.pointer.latest_pos().map_or((0, 0), |p| {
                (
                    ((p.x - origin.x) / scale).floor() as i32,
                    ((p.y - origin.y) / scale).floor() as i32,
                )
            });
            let mut buttons = 0;
            for (down, bit) in [
                (i.pointer.primary_down(), mouse::LEFT),
                (i.pointer.secondary_down(), mouse::RIGHT),
                (i.pointer.middle_down(), mouse::MIDDLE),
            ] {
                if down {
                    buttons |= bit;
                }
            }
            HostInput {
                keys,
                mouse_x: x,
                mouse_y: y,
                mouse_buttons: buttons,
                // .NET's units, as BizHawk reports them: 120 a notch.
                wheel: (self.script_input.wheel * 120.0).round() as i32,
            }
        });
        if input != self.script_input.sent {
            self.script_input.sent = input.clone();
            self.send(Cmd::HostInput(input));
        }
    }
}
