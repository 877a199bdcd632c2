//! The debugger on a session: breakpoints on execute, read, write (with a value and a
//! condition), an interrupt taken and `LD B,B`; `si` with its cycles, `next` over a CALL,
//! `finish`, `run-to`; and the law: a run with stops in the middle of frames replays byte for
//! byte (the desync check) and forks like any other.

use gb_core::asm::{Assembly, RomBuilder};
use gb_session::debug::{BreakOn, Resume, Stopped};
use gb_session::{Session, SessionConfig};

/// Main calls `sub` (which counts at $C000) in a loop and stores A at $C001; the VBlank
/// interrupt counts at $C002; `ldbb` is an `LD B,B` the loop runs every 256 rounds.
fn program() -> Assembly {
    RomBuilder::new()
        .program(
            r#"
            xor a
            ld [$C000], a
            ld [$C001], a
            ld [$C002], a
            ld a, $01
            ldh [$FF], a
            ei
        main:
            call sub
            ld [$C001], a
            and a
            jr nz, main
        ldbb:
            ld b, b
            jr main
            org $40
        vblank:
            push af
            ld a, [$C002]
            inc a
            ld [$C002], a
            pop af
            reti
            org $0400
        sub:
            ld a, [$C000]
            inc a
            ld [$C000], a
            nop
            ret
            "#,
        )
        .build_with_symbols()
        .expect("assemble")
}

fn session(asm: &Assembly) -> Session {
    let config = SessionConfig {
        desync_check: true,
        ring_bytes: 8 << 20,
        ..SessionConfig::default()
    };
    Session::new(asm.bytes.clone(), None, config).expect("session")
}

fn at(asm: &Assembly, label: &str) -> u16 {
    asm.address(label).unwrap_or_else(|| panic!("no {label}"))
}

#[test]
fn a_write_breakpoint_stops_after_the_writing_instruction() {
    let asm = program();
    let mut s = session(&asm);
    s.run_frame();
    let id = s
        .add_breakpoint(BreakOn::Write, 0xC000, 1, None, None, None)
        .unwrap();
    let stop = s.debug(Resume::Continue);
    assert_eq!(
        stop,
        Stopped::Break {
            id,
            what: format!("write of {:02X} to C000 (bank -)", s.gb().peek(0xC000)),
        }
    );
    assert!(s.is_mid_frame());
    // The writing instruction is `ld [$C000], a` in `sub` (FA 00 C0, 3C, then EA 00 C0).
    let sub = at(&asm, "sub");
    assert_eq!(s.gb().last_debug_pc(), sub + 4);
    assert_eq!(s.gb().regs().pc, sub + 7);
    assert_eq!(s.breakpoints().next().unwrap().hits, 1);
    // Continue: the next write stops it again, one more.
    let v = s.gb().peek(0xC000);
    assert!(matches!(s.debug(Resume::Continue), Stopped::Break { .. }));
    assert_eq!(s.gb().peek(0xC000), v.wrapping_add(1));
    // Removed: the frame runs to its end.
    assert!(s.remove_breakpoint(id));
    assert_eq!(s.debug(Resume::Continue), Stopped::FrameEnd);
    assert!(!s.is_mid_frame());
}

#[test]
fn si_runs_one_instruction_with_its_cycles_and_next_runs_a_call_through() {
    let asm = program();
    let mut s = session(&asm);
    s.run_frame();
    let main = at(&asm, "main");
    let sub = at(&asm, "sub");
    s.add_breakpoint(BreakOn::Exec, main, 1, None, None, None)
        .unwrap();
    assert!(matches!(s.debug(Resume::Continue), Stopped::Break { .. }));
    assert_eq!(s.gb().regs().pc, main);
    // `call sub` takes 6 M-cycles (24 T-cycles) and lands in `sub` with the return address
    // pushed.
    let (t0, sp0) = (s.gb().cycles(), s.gb().regs().sp);
    assert_eq!(s.debug(Resume::StepIn), Stopped::Step);
    assert_eq!(s.gb().regs().pc, sub);
    assert_eq!(s.gb().regs().sp, sp0 - 2);
    assert_eq!(s.gb().cycles() - t0, 24);
    // `ld a, [$C000]`: 4 M-cycles.
    let t1 = s.gb().cycles();
    assert_eq!(s.debug(Resume::StepIn), Stopped::Step);
    assert_eq!((s.gb().regs().pc, s.gb().cycles() - t1), (sub + 3, 16));
    // `finish`: out of `sub`, to the instruction after the call.
    assert_eq!(s.debug(Resume::StepOut), Stopped::Step);
    assert_eq!((s.gb().regs().pc, s.gb().regs().sp), (main + 3, sp0));
    // Round the loop to the call again, then `next` runs it through.
    assert!(matches!(s.debug(Resume::Continue), Stopped::Break { .. }));
    let before = s.gb().peek(0xC000);
    assert_eq!(s.debug(Resume::StepOver), Stopped::Step);
    assert_eq!(s.gb().regs().pc, main + 3);
    assert_eq!(s.gb().regs().sp, sp0);
    assert_eq!(s.gb().peek(0xC000), before.wrapping_add(1), "sub ran");
    // `next` on an instruction that is no call is `si`.
    assert_eq!(s.debug(Resume::StepOver), Stopped::Step);
    assert_eq!(s.gb().regs().pc, main + 6);
    // `run-to` the `nop` in `sub`: the breakpoint at `main` comes first.
    assert!(matches!(
        s.debug(Resume::RunTo(sub + 7)),
        Stopped::Break { .. }
    ));
    assert_eq!(s.gb().regs().pc, main);
    assert!(s.remove_breakpoint(1));
    assert_eq!(s.debug(Resume::RunTo(sub + 7)), Stopped::Step);
    assert_eq!(s.gb().regs().pc, sub + 7);
    assert_eq!(s.breakpoints().count(), 0, "temporary breakpoints are gone");
}

#[test]
fn conditions_values_banks_interrupts_and_ld_b_b() {
    let asm = program();
    let mut s = session(&asm);
    s.run_frame();
    // A write of 05 to $C000 only.
    let id = s
        .add_breakpoint(
            BreakOn::Write,
            0xC000,
            1,
            None,
            None,
            Some("value == 5 && a == 5"),
        )
        .unwrap();
    s.poke(0xC000, 0);
    loop {
        match s.debug(Resume::Continue) {
            Stopped::Break { id: got, .. } => {
                assert_eq!(got, id);
                break;
            }
            Stopped::FrameEnd => continue,
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(s.gb().peek(0xC000), 5);
    s.remove_breakpoint(id);
    // The same with the value given, not a condition: 06.
    let id = s
        .add_breakpoint(BreakOn::Write, 0xC000, 1, None, Some(6), None)
        .unwrap();
    assert!(matches!(s.debug(Resume::Continue), Stopped::Break { id: got, .. } if got == id));
    assert_eq!(s.gb().peek(0xC000), 6);
    s.remove_breakpoint(id);
    // A bank that is never mapped there never stops.
    s.add_breakpoint(BreakOn::Exec, at(&asm, "sub"), 1, Some(5), None, None)
        .unwrap();
    assert_eq!(s.debug(Resume::Continue), Stopped::FrameEnd);
    // The VBlank interrupt: stopped at its vector.
    let int = s
        .add_breakpoint(BreakOn::Interrupt, 0, 1, None, None, None)
        .unwrap();
    match s.debug(Resume::Continue) {
        Stopped::Break { id, what } => {
            assert_eq!(id, int);
            assert!(what.contains("vector 0040"), "{what}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(s.gb().regs().pc, 0x0040);
    s.remove_breakpoint(int);
    // `LD B,B`: stopped before it, and stepping from it runs it.
    let ldbb = s
        .add_breakpoint(BreakOn::LdBB, 0, 1, None, None, None)
        .unwrap();
    let mut frames = 0;
    loop {
        match s.debug(Resume::Continue) {
            Stopped::FrameEnd if frames < 100 => frames += 1,
            Stopped::Break { id, .. } => {
                assert_eq!(id, ldbb);
                break;
            }
            other => panic!("{other:?} after {frames} frames"),
        }
    }
    assert_eq!(s.gb().regs().pc, at(&asm, "ldbb"));
    assert_eq!(s.debug(Resume::StepIn), Stopped::Step);
    assert_eq!(s.gb().regs().pc, at(&asm, "ldbb") + 1);
    // Interrupt and LD B,B breakpoints whose conditions never hold never stop the machine.
    s.remove_breakpoint(ldbb);
    s.add_breakpoint(BreakOn::Interrupt, 0, 1, None, None, Some("a == 256"))
        .unwrap();
    s.add_breakpoint(BreakOn::LdBB, 0, 1, None, None, Some("b == 300"))
        .unwrap();
    for _ in 0..300 {
        assert_eq!(s.debug(Resume::Continue), Stopped::FrameEnd);
    }
    // A bad condition is an error, and nothing is added.
    let n = s.breakpoints().count();
    assert!(
        s.add_breakpoint(BreakOn::Exec, 0, 1, None, None, Some("q == 1"))
            .is_err()
    );
    assert_eq!(s.breakpoints().count(), n);
}

#[test]
fn stops_and_steps_in_the_middle_of_frames_replay_byte_for_byte() {
    let asm = program();
    let mut s = session(&asm);
    for _ in 0..5 {
        s.run_frame();
    }
    let id = s
        .add_breakpoint(BreakOn::Write, 0xC001, 1, None, None, Some("a & 7 == 3"))
        .unwrap();
    let mut stops = 0;
    for round in 0..40 {
        match s.debug(Resume::Continue) {
            Stopped::Break { .. } => {
                stops += 1;
                // Step about, poke while stopped (logged at this cycle), go on.
                s.debug(Resume::StepIn);
                s.debug(Resume::StepOver);
                if round % 3 == 0 {
                    s.poke(0xC0F0, round as u8);
                }
            }
            Stopped::FrameEnd => {}
            other => panic!("{other:?}"),
        }
    }
    s.remove_breakpoint(id);
    while s.is_mid_frame() {
        s.debug(Resume::Continue);
    }
    for _ in 0..3 {
        s.run_frame();
    }
    assert!(stops > 5, "{stops} stops");
    let end = s.frame();
    let last_poke = s.gb().peek(0xC0F0);
    // The sync test: back to frame 1, every frame replayed (no debugger) and compared byte for
    // byte with its record, core and arenas.
    assert_eq!(s.verify_replay(1).unwrap(), 0);
    assert_eq!(s.frame(), end);
    // And a rewind into a stopped frame's past replays through the pokes given while stopped.
    s.seek(end - 1).unwrap();
    assert_eq!(s.stats().desyncs, 0);
    assert_eq!(s.gb().peek(0xC0F0), last_poke);
}

#[test]
fn a_trace_lists_every_instruction_in_gameboy_doctors_format() {
    let asm = program();
    let mut s = session(&asm);
    let mut out = Vec::new();
    let lines = s.trace(2, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let all: Vec<&str> = text.lines().collect();
    assert_eq!(all.len() as u64, lines);
    // The post-boot state at the entry point (`nop`, `jp $0150`).
    assert_eq!(
        all[0],
        "A:01 F:B0 B:00 C:13 D:00 E:D8 H:01 L:4D SP:FFFE PC:0100 PCMEM:00,C3,50,01"
    );
    assert!(all[1].contains("PC:0101 PCMEM:C3,50,01"), "{}", all[1]);
    assert!(all[2].contains("PC:0150 PCMEM:AF"), "{}", all[2]);
    assert_eq!(s.frame(), 2);
    // `sub` runs once per round of the loop, and each round is 5 lines of `sub` and 4 of main.
    let in_sub = all
        .iter()
        .filter(|l| l.contains(&format!("PC:{:04X}", at(&asm, "sub"))))
        .count();
    assert!(in_sub > 100, "{in_sub}");
    // Breakpoints do not stop a trace, and stay set.
    s.add_breakpoint(BreakOn::Exec, at(&asm, "sub"), 1, None, None, None)
        .unwrap();
    let more = s.trace(1, &mut std::io::sink()).unwrap();
    assert!(more > 1000);
    assert!(s.breakpoints().all(|b| b.enabled));
    // And the traced frames replay as they ran.
    assert_eq!(s.verify_replay(1).unwrap(), 0);
}

const PLAY: &str = gb_testkit::roms::TOBU_PLAY_LUA;

#[test]
fn a_write_breakpoint_in_tobu_tobu_girl_stops_by_the_clocks_store() {
    let Some(rom) = gb_testkit::roms::shared_rom_bytes("homebrew/tobutobugirl/tobutobugirl.gb")
    else {
        return;
    };
    let mut s = Session::new(rom, None, SessionConfig::default()).expect("session");
    s.load_script("play.lua", PLAY);
    for _ in 0..1300 {
        s.run_frame();
    }
    // The level's clock (seconds left) at C0B0, counted down once a second.
    let before = s.gb().peek(0xC0B0);
    let id = s
        .add_breakpoint(BreakOn::Write, 0xC0B0, 1, None, None, None)
        .unwrap();
    let mut frames = 0;
    let stop = loop {
        match s.debug(Resume::Continue) {
            Stopped::FrameEnd if frames < 120 => frames += 1,
            other => break other,
        }
    };
    assert!(
        matches!(stop, Stopped::Break { id: got, .. } if got == id),
        "{stop:?}"
    );
    assert_eq!(s.gb().peek(0xC0B0), before.wrapping_sub(1));
    // The writing instruction, as the disassembly reads it: the clock's `ld [hl], a` in bank 1
    // (after `ld hl, $C0B0`), PC past it.
    let pc = s.gb().last_debug_pc();
    let gb = s.gb();
    let text = gb_core::asm::decode(|a| gb.peek(a), pc).text();
    assert_eq!((pc, text.as_str()), (0x6B62, "ld [hl], a"));
    assert_eq!(
        gb_core::asm::decode(|a| gb.peek(a), pc - 3).text(),
        "ld hl, $C0B0"
    );
    assert_eq!(gb.bank_of(pc), Some(1));
    assert_eq!(gb.regs().pc, 0x6B63);
}

#[test]
fn after_a_rewind_the_recorded_future_replays_to_the_same_stop() {
    let asm = program();
    let mut s = session(&asm);
    // A recorded run with input and a poke in it.
    for f in 0..30u8 {
        if f == 10 {
            s.poke(0xC0F1, 0x77);
        }
        if f % 7 == 0 {
            s.set_buttons(gb_core::Buttons(f));
        }
        s.run_frame();
    }
    let end = s.frame();
    let id = s
        .add_breakpoint(
            BreakOn::Write,
            0xC000,
            1,
            None,
            None,
            Some("[$C0F1] == $77 && value == 200"),
        )
        .unwrap();
    // Back to frame 5: a debug run replays the recorded frames (not forking them) and stops
    // where a live run would.
    s.seek(5).unwrap();
    let stop = loop {
        match s.debug(Resume::Continue) {
            Stopped::FrameEnd => assert!(s.frame() < 400, "never stopped"),
            other => break other,
        }
    };
    assert!(
        matches!(stop, Stopped::Break { id: got, .. } if got == id),
        "{stop:?}"
    );
    let (frame, cycle) = (s.frame(), s.gb().cycles());
    assert_eq!(frame, 10, "the first write of 200 after the poke");
    assert!(
        frame < end,
        "the stop ({frame}) is in the recorded future (to {end})"
    );
    assert_eq!(
        s.history().frames().map(|(_, b)| b),
        Some(end),
        "the future is kept"
    );
    assert_eq!(s.gb().peek(0xC0F1), 0x77, "the recorded poke was replayed");
    // Again from further back: the same frame and cycle.
    s.seek(2).unwrap();
    while s.debug(Resume::Continue) == Stopped::FrameEnd {}
    assert_eq!((s.frame(), s.gb().cycles()), (frame, cycle));
    // New input while stopped there forks the future from this cycle: the frame goes on
    // live, and the whole run still replays byte for byte.
    s.poke(0xC0F2, 0x55);
    assert_eq!(s.history().frames().map(|(_, b)| b), Some(frame));
    s.remove_breakpoint(id);
    s.run_frame();
    for _ in 0..5 {
        s.run_frame();
    }
    assert_eq!(s.gb().peek(0xC0F2), 0x55);
    assert_eq!(s.verify_replay(1).unwrap(), 0);
    assert_eq!(s.stats().desyncs, 0);
}
