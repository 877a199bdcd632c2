//! Where frames end when a game switches the LCD off and on ([`FrameRule`], `docs/timing.md`
//! "Frames"): a ROM built here switches the LCD off at VBlank, waits, and switches it on again;
//! each frame's end is checked against the rule.

use gb_core::{Boot, Cartridge, FrameRule, Gb, asm};

/// A frame's length in dots.
const FRAME: u64 = 70_224;
/// After a switch-off, dots until BizHawk's Gambatte takes the screen as blank.
const BLANK_AFTER: u64 = 4 * 456;
/// The most an instruction runs past a deadline (the run loop stops on instruction boundaries).
const SLACK: u64 = 24;

/// At VBlank: LCD off, wait `count` loops of 28 dots, LCD on, spin.
fn rom(count: u16) -> Vec<u8> {
    asm::rom(&format!(
        r#"
        .wait:
            ldh a, [$44]
            cp 144
            jr nz, .wait
            xor a
            ldh [$40], a
            ld bc, {count}
        .delay:
            dec bc
            ld a, b
            or c
            jr nz, .delay
            ld a, $91
            ldh [$40], a
        .forever:
            jr .forever
        "#
    ))
    .expect("assemble")
}

fn machine(count: u16, rule: FrameRule) -> Gb {
    let cart = Cartridge::from_rom(rom(count)).expect("cartridge");
    Gb::power_on(
        cart,
        Boot {
            frame_rule: rule,
            ..Boot::default()
        },
    )
    .expect("power on")
}

/// When the LCD went off and came on again (the clock right after each `LDH [$40], A`),
/// stepping instruction by instruction.
fn switches(count: u16) -> (u64, u64) {
    let mut gb = machine(count, FrameRule::BizHawk);
    let mut lcd = gb.peek(0xFF40) & 0x80 != 0;
    let mut times = Vec::new();
    while times.len() < 2 {
        gb.step();
        let now = gb.peek(0xFF40) & 0x80 != 0;
        if now != lcd {
            times.push(gb.cycles());
            lcd = now;
        }
        assert!(gb.cycles() < 2_000_000, "the ROM switched the LCD twice");
    }
    (times[0], times[1])
}

/// The clock at the end of each of the first `n` frames.
fn frame_ends(count: u16, rule: FrameRule, n: usize) -> Vec<u64> {
    let mut gb = machine(count, rule);
    let start = gb.cycles();
    let mut ends = vec![start];
    for _ in 0..n {
        gb.run_frame();
        ends.push(gb.cycles());
    }
    ends
}

fn lengths(ends: &[u64]) -> Vec<u64> {
    ends.windows(2).map(|w| w[1] - w[0]).collect()
}

/// Whether some frame ended within an instruction after `at`.
fn ends_at(ends: &[u64], at: u64) -> bool {
    ends.iter().any(|&e| (at..at + SLACK).contains(&e))
}

#[test]
fn bizhawk_blank_frames_follow_the_switch_off_and_vblank_follows_the_switch_on() {
    // Off for about 2.4 frames.
    let (off, on) = switches(6_000);
    let ends = frame_ends(6_000, FrameRule::BizHawk, 8);
    let len = lengths(&ends);
    println!("LCD off at {off}, on at {on}; frame ends {ends:?}; lengths {len:?}");
    assert!(
        len.iter().all(|&l| l <= FRAME + SLACK),
        "no frame is longer than 70,224 dots"
    );
    // While the LCD is off, blank frames end 4 lines and k frames after the switch-off.
    let mut k = 1;
    while off + BLANK_AFTER + k * FRAME < on {
        assert!(
            ends_at(&ends, off + BLANK_AFTER + k * FRAME),
            "a blank frame ends 4 lines and {k} frame(s) after the LCD went off"
        );
        k += 1;
    }
    assert!(k > 1, "the LCD was off long enough for a blank frame");
    // After the switch-on, VBlank ends a frame again: the last two are whole frames.
    let n = len.len();
    assert_eq!(len[n - 1], FRAME, "frames run VBlank to VBlank again");
    assert_eq!(len[n - 2], FRAME);
}

#[test]
fn bizhawk_a_quick_off_and_on_ends_no_frame_at_the_first_vblank() {
    // Off for 560 dots, less than 4 lines.
    let (off, on) = switches(20);
    assert!(on - off < BLANK_AFTER);
    let ends = frame_ends(20, FrameRule::BizHawk, 6);
    let legacy = frame_ends(20, FrameRule::Legacy, 6);
    println!("LCD off at {off}, on at {on}; BizHawk {ends:?}, legacy {legacy:?}");
    // The LCD's first VBlank after the switch-on: line 144 (line 0 starts 4 dots before the
    // switch-on; VBlank is 2 dots into line 144's first M-cycle, give or take an instruction).
    let vblank = on - 4 + 144 * 456;
    assert!(
        ends_at(&legacy, vblank - 4),
        "the legacy rule ends a frame there"
    );
    assert!(
        !ends
            .iter()
            .any(|&e| (vblank - 8..vblank + SLACK).contains(&e)),
        "BizHawk's rule ends none there"
    );
    // The next VBlank ends one under both rules.
    assert!(ends_at(&ends, vblank - 4 + FRAME) && ends_at(&legacy, vblank - 4 + FRAME));
    assert!(lengths(&ends).iter().all(|&l| l <= FRAME + SLACK));
}

#[test]
fn legacy_frames_run_a_frame_from_the_last_end_while_the_lcd_is_off() {
    let (off, on) = switches(6_000);
    let ends = frame_ends(6_000, FrameRule::Legacy, 8);
    let len = lengths(&ends);
    println!("LCD off at {off}, on at {on}; frame ends {ends:?}; lengths {len:?}");
    // Every frame that starts with the LCD off is a whole frame long (give or take the
    // instruction that overran the one before), until the frame the LCD came on in.
    for w in ends.windows(2) {
        if w[0] > off && w[1] < on {
            assert!(
                (FRAME - SLACK..=FRAME + SLACK).contains(&(w[1] - w[0])),
                "{w:?}"
            );
        }
    }
    // The rules differ while the LCD is off: the legacy rule has no frame end at the first
    // blank frame.
    assert!(!ends_at(&ends, off + BLANK_AFTER + FRAME));
}

#[test]
fn the_rule_is_part_of_the_state() {
    let mut a = machine(6_000, FrameRule::Legacy);
    a.run_frame();
    let mut image = Vec::new();
    a.save_state(&mut image);
    let mut b = machine(6_000, FrameRule::BizHawk);
    b.load_state(&image).expect("load");
    assert_eq!(b.frame_rule(), FrameRule::Legacy);
    for _ in 0..6 {
        a.run_frame();
        b.run_frame();
        assert_eq!(a.cycles(), b.cycles());
    }
}
