//! The session's promises, on real gameplay (Tobu Tobu Girl from the shared ROM folder) and on
//! small ROMs built in code: replaying the log reproduces every frame byte for byte (core and
//! every script arena), seeks land exactly, scripts roll back with the game, a load a script
//! asks for does not roll it back, and reloaded code runs wherever play resumes.

use crate::common::{counter_rom, texts};
use gb_core::Buttons;
use gb_session::{DrawCmd, Session, SessionConfig};

/// The benchmark HUD (`examples/bench_hud.lua`: ~230 lines, BizHawk style).
fn hud_script() -> String {
    include_str!("../../../../examples/bench_hud.lua").to_owned()
}

fn input_bot() -> &'static str {
    include_str!("../../../../scripts/tas/input_bot.lua")
}

/// Tobu Tobu Girl, or `None` (loudly; a failure with CI=true) without the ROM folder.
fn tobu() -> Option<Vec<u8>> {
    gb_testkit::shared_rom_bytes("homebrew/tobutobugirl/tobutobugirl.gb")
}

/// User input for Tobu: Start on the title, then a fixed seeded sequence.
fn user_input(frame: u64) -> Buttons {
    match frame {
        0..=59 => Buttons(0),
        60..=64 | 120..=124 => Buttons::START,
        _ => {
            let mut x = (frame / 6).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            x ^= x >> 29;
            Buttons([0x01, 0x02, 0x11, 0x12, 0x00, 0x10][(x % 6) as usize])
        }
    }
}

fn config() -> SessionConfig {
    SessionConfig {
        desync_check: true,
        ..SessionConfig::default()
    }
}

#[test]
fn sync_test_2000_frames_with_a_hud_and_an_input_script() {
    let Some(rom) = tobu() else { return };
    let mut s = Session::new(rom, None, config()).expect("session");
    s.load_script("hud.lua", &hud_script());
    s.load_script("input_bot.lua", input_bot());
    let k = 4;
    let mut mismatches = 0;
    for f in 0..2000 {
        s.set_buttons(user_input(f));
        s.run_frame();
        if s.frame() > k {
            mismatches += s.verify_replay(s.frame() - k).expect("replay");
        }
    }
    assert_eq!(mismatches, 0, "frames that replayed differently");
    assert_eq!(s.stats().desyncs, 0);
    let errors: Vec<_> = s
        .take_console()
        .into_iter()
        .filter(|l| l.text.starts_with("error"))
        .collect();
    assert!(errors.is_empty(), "script errors: {errors:?}");
    let drawn: usize = s.draw_lists().map(|(_, d)| d.len()).sum();
    assert!(drawn >= 5, "the HUD draws ({drawn} commands)");
    assert!(s.stats().replayed >= 1996 * k, "the check really replayed");
}

#[test]
fn a_thousand_random_seeks_across_five_minutes_stay_in_sync() {
    let Some(rom) = tobu() else { return };
    let mut s = Session::new(rom, None, config()).expect("session");
    s.load_script("hud.lua", &hud_script());
    s.load_script("input_bot.lua", input_bot());
    let frames = 5 * 60 * 60;
    let mut hashes = Vec::with_capacity(frames as usize + 1);
    for f in 0..frames {
        s.set_buttons(user_input(f));
        s.run_frame();
        hashes.push(picture_hash(&s));
    }
    let (first, last) = s.history().frames().expect("history");
    assert_eq!(
        (first, last),
        (0, frames),
        "the default ring holds five minutes"
    );
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..1000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let t = 1 + x % frames;
        s.seek(t).expect("seek");
        assert_eq!(s.frame(), t);
        assert_eq!(
            picture_hash(&s),
            hashes[t as usize - 1],
            "frame {t} shows its picture"
        );
    }
    assert_eq!(s.stats().desyncs, 0, "every seek replayed exactly");
    // Stepping back from the end walks the chain and agrees too.
    s.seek(frames).expect("seek to the end");
    for _ in 0..30 {
        s.step_back().expect("step back");
    }
    assert_eq!(s.frame(), frames - 30);
    assert_eq!(s.stats().desyncs, 0);
}

fn picture_hash(s: &Session) -> u64 {
    gb_session::fnv1a(&s.picture().shades().collect::<Vec<u8>>())
}

#[test]
fn scripts_roll_back_with_the_game() {
    let mut s = Session::new(counter_rom(), None, config()).expect("session");
    s.load_script(
        "count.lua",
        "n = 0 while true do n = n + 1 gui.text(0, 0, n .. ' ' .. memory.read_u8(0xC000)) emu.frameadvance() end",
    );
    for _ in 0..100 {
        s.run_frame();
    }
    // The script ran once when loaded and once at the end of each frame.
    assert_eq!(texts(&s), ["101 100"]);
    s.seek(40).expect("seek");
    assert_eq!(texts(&s), ["41 40"], "the overlay is the one frame 40 had");
    s.run_frame();
    assert_eq!(
        texts(&s),
        ["42 41"],
        "the script resumed from its state at frame 40"
    );
    assert_eq!(
        s.history().frames().map(|h| h.1),
        Some(41),
        "the future was forgotten"
    );
    assert_eq!(s.stats().desyncs, 0);
}

#[test]
fn a_load_the_script_asks_for_does_not_roll_it_back() {
    let mut s = Session::new(counter_rom(), None, config()).expect("session");
    let bot = s.load_script(
        "bot.lua",
        r#"
        tries = 0
        emu.frameadvance()
        savestate.save("try")
        while true do
          emu.frameadvance()
          tries = tries + 1
          if tries % 10 == 0 then savestate.load("try") end
          gui.text(0, 0, tries .. " " .. memory.read_u8(0xC000))
        end
        "#,
    );
    let other = s.load_script(
        "other.lua",
        "m = 0 while true do m = m + 1 gui.text(0, 8, 'm' .. m) emu.frameadvance() end",
    );
    for _ in 0..35 {
        s.run_frame();
    }
    let by_slot = |s: &Session, slot| -> String {
        s.draw_lists()
            .find(|(sl, _)| *sl == slot)
            .and_then(|(_, d)| d.first().cloned())
            .and_then(|c| match c {
                DrawCmd::Text { text, .. } => Some(text),
                _ => None,
            })
            .unwrap_or_default()
    };
    // The bot saved after the first frame (VBlank counter 1) and loaded at tries 10, 20 and
    // 30: the game went back each time (the counter is 1 + 4 frames since the last load, and
    // the load shows at once in the same call), the bot's own counter did not.
    assert_eq!(by_slot(&s, bot), "34 5");
    // The other script was rolled back with the game at each load: it counts 4 frames since.
    assert_eq!(by_slot(&s, other), "m6");
    // And all of it replays exactly.
    assert_eq!(s.verify_replay(1).expect("replay"), 0);
}

#[test]
fn a_reload_followed_by_a_rewind_runs_the_new_code() {
    let mut s = Session::new(counter_rom(), None, config()).expect("session");
    let v1 = "n = n or 0 while true do n = n + 1 gui.text(0, 0, 'v1 ' .. n) emu.frameadvance() end";
    let v2 =
        "n = n or 0 while true do n = n + 10 gui.text(0, 0, 'v2 ' .. n) emu.frameadvance() end";
    let slot = s.load_script("hud.lua", v1);
    for _ in 0..100 {
        s.run_frame();
    }
    // Run once at load and once per frame.
    assert_eq!(texts(&s), ["v1 101"]);
    s.reload_script(slot, v2).expect("reload");
    s.run_frame();
    // The reload ran the new chunk on the old data (n = 111) before the frame, then the frame
    // ran (121): both are this frame's overlay.
    assert_eq!(texts(&s), ["v2 111", "v2 121"], "the reload kept the data");
    for _ in 0..20 {
        s.run_frame();
    }
    // Rewind to before the reload: that frame shows what the old code drew…
    s.seek(50).expect("seek");
    assert_eq!(texts(&s), ["v1 51"]);
    // …and play resumes with the new code on the data of frame 50 (n = 51 + 10 + 10).
    s.run_frame();
    assert_eq!(texts(&s), ["v2 61", "v2 71"]);
    assert_eq!(s.verify_replay(45).expect("replay"), 0);
}

#[test]
fn persist_survives_rollbacks_and_errors_are_reported_once() {
    let mut s = Session::new(counter_rom(), None, config()).expect("session");
    s.load_script(
        "p.lua",
        "while true do persist.best = math.max(persist.best or 0, emu.framecount()) emu.frameadvance() end",
    );
    s.load_script("bad.lua", "emu.frameadvance() error('boom')");
    for _ in 0..60 {
        s.run_frame();
    }
    s.seek(10).expect("seek");
    s.load_script(
        "show.lua",
        "while true do gui.text(0, 0, tostring(persist.best)) emu.frameadvance() end",
    );
    s.run_frame();
    let errors: Vec<String> = s
        .take_console()
        .into_iter()
        .map(|l| l.text)
        .filter(|t| t.starts_with("error"))
        .collect();
    assert!(
        errors.iter().any(|e| e.contains("bad.lua:1: boom")),
        "{errors:?}"
    );
    assert_eq!(texts(&s), ["nil", "nil"], "persist is per script");
    s.reload_script(
        1,
        "gui.text(0, 0, 'best ' .. persist.best) emu.frameadvance()",
    )
    .expect("reload");
    s.run_frame();
    // The first script's persist kept its best (60: the frame count when the last of frames 0-59 ended).
    assert!(texts(&s).contains(&"best 60".to_owned()), "{:?}", texts(&s));
}

#[test]
fn joypad_events_apply_at_their_cycle_and_replay_exactly() {
    let mut s = Session::new(counter_rom(), None, config()).expect("session");
    for f in 0..30 {
        let start = s.gb().cycles();
        s.set_buttons_at(Buttons(((f * 7) % 256) as u8), start + 1000 * (f % 50));
        s.run_frame();
    }
    assert_eq!(s.verify_replay(0).expect("replay"), 0);
    let with_sub_frame = s.gb().peek(0xC001);
    assert_ne!(with_sub_frame, 0, "the game saw the buttons");
}

/// On the CGB the session's picture is in colour on every frame (the core draws into the
/// buffer the session hands back, whatever it held), and the model is recorded.
#[test]
fn a_cgb_session_shows_colour_every_frame() {
    let rom = gb_core::asm::RomBuilder::new()
        .cgb_flag(0xC0)
        .program(
            r#"
                ld a, $80
                ldh [$68], a
                ld a, $1F
                ldh [$69], a
                xor a
                ldh [$69], a
            loop:
                jr loop
            "#,
        )
        .build()
        .unwrap();
    let mut s = Session::new(rom, None, SessionConfig::default()).unwrap();
    assert_eq!(s.start_params().model, gb_core::Model::Cgb);
    for _ in 0..5 {
        s.run_frame();
        assert!(s.picture().is_color(), "frame {}", s.frame());
    }
}
