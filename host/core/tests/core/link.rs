//! Two Game Boys on a link cable ([`gb_core::link::Pair`]), with programs built in code: the
//! bytes each side receives in every clock mode and speed, when a transfer completes on each
//! side, the roles swapped mid-session, the cable pulled mid-byte, and a pair's state image.

use crate::no_render::machine as power_on;
use gb_core::link::{Inexact, Pair, Printer};
use gb_core::{Gb, Model, ModelChoice, asm};

/// Bytes each program exchanges.
const BYTES: u8 = 8;

/// How a side takes part: the SC value of its first `swap` bytes and of the rest.
#[derive(Clone, Copy)]
struct Role {
    first: u8,
    rest: u8,
    swap: u8,
}

impl Role {
    /// The same SC for every byte.
    fn always(sc: u8) -> Role {
        Role {
            first: sc,
            rest: sc,
            swap: BYTES,
        }
    }
}

/// A program that sends `send`, `send + 1`, … (one byte per transfer, SC as `role` says,
/// waiting about 4,000 dots before each byte it clocks itself, so the other side is ready),
/// keeps each byte received at $C000 on, then writes $01 at $C100. `double`: switch the CGB
/// to double speed first.
fn program(send: u8, role: Role, double: bool) -> Vec<u8> {
    program_waiting_first(send, role, double, false)
}

/// [`program`], but `wait_first`: wait on the external clock (SC = $80) for about three
/// frames before the first byte, then go on as `role` says.
fn program_waiting_first(send: u8, role: Role, double: bool, wait_first: bool) -> Vec<u8> {
    let speed = if double {
        "ld a, $01\n ldh [$4D], a\n stop"
    } else {
        "nop"
    };
    let wait = if wait_first {
        "ld a, $80\n ldh [$02], a\n ld d, 48\n .outer:\n ld e, 0\n .inner:\n dec e\n jr nz, .inner\n dec d\n jr nz, .outer\n xor a\n ldh [$02], a"
    } else {
        "nop"
    };
    let src = format!(
        r#"
            di
            {speed}
            {wait}
            xor a
            ldh [$0F], a
            ldh [$FF], a
            ld hl, $C000
            ld b, ${send:02X}
            ld c, 0
        .byte:
            ld a, b
            ldh [$01], a
            ld a, c
            cp {swap}
            ld a, ${first:02X}
            jr c, .chosen
            ld a, ${rest:02X}
        .chosen:
            ld d, a
            and 1
            jr z, .start
            ld e, 255
        .delay:
            dec e
            jr nz, .delay
        .start:
            ds 16, 0            ; NOPs: an instruction boundary every M-cycle around the start
            ld a, d
            ldh [$02], a
            ds 1100, 0          ; and while it shifts
        .wait:
            ldh a, [$02]
            bit 7, a
            jr nz, .wait
            ldh a, [$01]
            ld [hl+], a
            inc b
            inc c
            ld a, c
            cp {BYTES}
            jp nz, .byte
            ld a, $01
            ld [$C100], a
        .spin:
            jr .spin
        "#,
        swap = role.swap,
        first = role.first,
        rest = role.rest,
    );
    asm::RomBuilder::new()
        .cgb_flag(0x80)
        .program(&src)
        .build()
        .expect("assemble")
}

fn gb(model: Model, send: u8, role: Role, double: bool) -> Gb {
    power_on(&program(send, role, double), ModelChoice::Fixed(model))
}

/// What a side received (the bytes at $C000).
fn received(gb: &Gb) -> Vec<u8> {
    (0..u16::from(BYTES)).map(|i| gb.peek(0xC000 + i)).collect()
}

/// Run until both sides wrote $01 at $C100, at most `frames` frames.
fn run_to_end(pair: &mut Pair, frames: u32) {
    for _ in 0..frames {
        if pair.gb(0).peek(0xC100) == 1 && pair.gb(1).peek(0xC100) == 1 {
            return;
        }
        pair.run_until(None);
    }
    panic!(
        "the exchange did not finish: player 1 got {:02X?}, player 2 {:02X?}",
        received(pair.gb(0)),
        received(pair.gb(1))
    );
}

fn sequence(from: u8) -> Vec<u8> {
    (0..BYTES).map(|i| from.wrapping_add(i)).collect()
}

#[test]
fn bytes_cross_in_every_clock_mode_and_speed() {
    // (models, the master's SC, double speed)
    let cases = [
        ([Model::Dmg, Model::Dmg], 0x81, false),
        ([Model::Cgb, Model::Cgb], 0x81, false),
        ([Model::Cgb, Model::Cgb], 0x83, false),
        ([Model::Cgb, Model::Cgb], 0x81, true),
        ([Model::Cgb, Model::Cgb], 0x83, true),
        ([Model::Dmg, Model::Cgb], 0x81, false),
        ([Model::Cgb, Model::Dmg], 0x81, false),
    ];
    for (models, sc, double) in cases {
        let what = format!("{models:?} SC {sc:02X} double {double}");
        let master = gb(models[0], 0x10, Role::always(sc), double);
        let slave = gb(models[1], 0xA0, Role::always(0x80), double);
        let mut pair = Pair::new(master, slave);
        run_to_end(&mut pair, 120);
        assert_eq!(received(pair.gb(0)), sequence(0xA0), "{what}: master got");
        assert_eq!(received(pair.gb(1)), sequence(0x10), "{what}: slave got");
        assert_eq!(pair.inexact(), Inexact::default(), "{what}: exact");
    }
}

#[test]
fn roles_swap_mid_session() {
    let a = Role {
        first: 0x81,
        rest: 0x80,
        swap: 4,
    };
    let b = Role {
        first: 0x80,
        rest: 0x81,
        swap: 4,
    };
    for model in [Model::Dmg, Model::Cgb] {
        let mut pair = Pair::new(gb(model, 0x20, a, false), gb(model, 0x60, b, false));
        run_to_end(&mut pair, 120);
        assert_eq!(
            received(pair.gb(0)),
            sequence(0x60),
            "{model}: player 1 got"
        );
        assert_eq!(
            received(pair.gb(1)),
            sequence(0x20),
            "{model}: player 2 got"
        );
        assert_eq!(pair.inexact(), Inexact::default(), "{model}: exact");
    }
}

/// Step the pair 4 dots at a time until `done` holds; the pair's cycle it first held at.
fn step_until(pair: &mut Pair, limit: u64, done: impl Fn(&Pair) -> bool) -> u64 {
    let start = pair.cycles();
    while !done(pair) {
        assert!(pair.cycles() - start < limit, "not within {limit} dots");
        let next = pair.cycles() + 4;
        pair.run_until(Some(next));
    }
    pair.cycles()
}

/// Step the pair 4 dots at a time until `done` holds, watching player `p`'s clock: its
/// cycles before the step in which `done` first held and after it (the moment lies
/// between).
fn bracket(pair: &mut Pair, p: usize, limit: u64, done: impl Fn(&Pair) -> bool) -> (u64, u64) {
    let start = pair.gb(p).cycles();
    let mut before = start;
    while !done(pair) {
        assert!(
            pair.gb(p).cycles() - start < limit,
            "not within {limit} dots"
        );
        before = pair.gb(p).cycles();
        let next = pair.cycles() + 4;
        pair.run_until(Some(next));
    }
    (before, pair.gb(p).cycles())
}

#[test]
fn a_transfer_completes_on_both_sides_at_the_eighth_edge() {
    // 8 bits at 8,192 Hz: 4,096 dots at normal speed, less the counter's phase at the start
    // (the first shift on the second edge of the shift clock's select bit: 7.5 to 8 periods);
    // at the CGB's fast clock 32 times faster; at double speed half.
    let cases = [
        (Model::Dmg, 0x81, false, 4096),
        (Model::Cgb, 0x81, false, 4096),
        (Model::Cgb, 0x83, false, 128),
        (Model::Cgb, 0x81, true, 2048),
        (Model::Cgb, 0x83, true, 64),
    ];
    for (model, sc, double, dots) in cases {
        let what = format!("{model} SC {sc:02X} double {double}");
        let mut pair = Pair::new(
            gb(model, 0x10, Role::always(sc), double),
            gb(model, 0xA0, Role::always(0x80), double),
        );
        let busy = |p: usize| move |pair: &Pair| pair.gb(p).peek(0xFF02) & 0x80 != 0;
        let idle = |p: usize| move |pair: &Pair| pair.gb(p).peek(0xFF02) & 0x80 == 0;
        // The slave arms at once; the master after its delay.
        bracket(&mut pair, 1, 1 << 20, busy(1));
        let started = bracket(&mut pair, 0, 1 << 20, busy(0));
        let done = bracket(&mut pair, 0, 2 * dots, idle(0));
        let slave_done = if idle(1)(&pair) {
            (0, pair.gb(1).cycles())
        } else {
            bracket(&mut pair, 1, 64, idle(1))
        };
        // The transfer took between these two (each moment is known to a step).
        let (shortest, longest) = (done.0 - started.1, done.1 - started.0);
        let (least, most) = (dots - dots / 16 + 1, dots);
        assert!(
            shortest <= most && longest >= least,
            "{what}: took {shortest}..{longest} dots, want {least}..{most}"
        );
        // The slave completed at the same edge: within the master's bracket, give or take
        // the step.
        assert!(
            slave_done.1 + 4 >= done.0 && slave_done.0 <= done.1 + 4,
            "{what}: the slave completed in {}..{}, the master in {}..{}",
            slave_done.0,
            slave_done.1,
            done.0,
            done.1
        );
        // Each stores what it got after its NOPs (and then writes its next byte to SB).
        pair.run_until(Some(pair.cycles() + 6000));
        assert_eq!(pair.gb(0).peek(0xC000), 0xA0, "{what}: master got");
        assert_eq!(pair.gb(1).peek(0xC000), 0x10, "{what}: slave got");
    }
}

#[test]
fn pulling_the_cable_mid_byte_leaves_ones_on_the_master_and_the_slave_waiting() {
    let mut pair = Pair::new(
        gb(Model::Dmg, 0x10, Role::always(0x81), false),
        gb(Model::Dmg, 0x00, Role::always(0x80), false),
    );
    let started = step_until(&mut pair, 1 << 20, |p| p.gb(0).peek(0xFF02) & 0x80 != 0);
    // Half the byte: four edges of 512 dots, and a little.
    pair.run_until(Some(started + 4 * 512 + 100));
    pair.set_plugged(false);
    assert!(!pair.plugged());
    step_until(&mut pair, 8192, |p| p.gb(0).peek(0xFF02) & 0x80 == 0);
    // The slave sent $00: four 0 bits, then nothing (1s).
    assert_eq!(pair.gb(0).peek(0xFF01), 0x0F, "master got");
    for _ in 0..10 {
        pair.run_until(None);
    }
    let slave = pair.gb(1);
    assert_ne!(slave.peek(0xFF02) & 0x80, 0, "the slave still waits");
    // It shifted in the master's first four bits ($10 = 0001_0000): 0001.
    assert_eq!(slave.peek(0xFF01), 0x01, "slave's SB");
    assert_eq!(pair.inexact(), Inexact::default());
}

#[test]
fn a_pair_state_mid_transfer_replays_the_same() {
    let mut pair = Pair::new(
        gb(Model::Cgb, 0x10, Role::always(0x83), false),
        gb(Model::Cgb, 0xA0, Role::always(0x80), false),
    );
    let started = step_until(&mut pair, 1 << 20, |p| p.gb(0).peek(0xFF02) & 0x80 != 0);
    pair.run_until(Some(started + 50));
    let mut image = Vec::new();
    pair.save_state(&mut image);
    let run = |pair: &mut Pair| {
        for _ in 0..30 {
            pair.run_until(None);
        }
        let mut out = Vec::new();
        pair.save_state(&mut out);
        (out, received(pair.gb(0)), received(pair.gb(1)))
    };
    let first = run(&mut pair);
    pair.load_state(&image).expect("the pair's image loads");
    let again = run(&mut pair);
    assert!(first == again, "the same run after loading");
    assert_eq!(first.1, sequence(0xA0));
    // A single machine's state is refused, and changes nothing.
    let mut single = Vec::new();
    pair.gb(0).save_state(&mut single);
    let before = {
        let mut v = Vec::new();
        pair.save_state(&mut v);
        v
    };
    assert!(pair.load_state(&single).is_err());
    assert!(pair.load_state(&image[..image.len() - 3]).is_err());
    let mut after = Vec::new();
    pair.save_state(&mut after);
    assert!(before == after, "a refused image changes nothing");
}

#[test]
fn two_internal_clocks_each_shift_in_the_other_line() {
    // Both clock on their own (the same program, so their edges fall together): each reads
    // the other's line at its own edges and gets the other's bytes.
    for model in [Model::Dmg, Model::Cgb] {
        let mut pair = Pair::new(
            gb(model, 0x30, Role::always(0x81), false),
            gb(model, 0xC0, Role::always(0x81), false),
        );
        run_to_end(&mut pair, 120);
        assert_eq!(
            received(pair.gb(0)),
            sequence(0xC0),
            "{model}: player 1 got"
        );
        assert_eq!(
            received(pair.gb(1)),
            sequence(0x30),
            "{model}: player 2 got"
        );
        assert_eq!(pair.inexact(), Inexact::default(), "{model}: exact");
    }
}

#[test]
fn the_printer_prints_the_tiles_a_program_sends() {
    // One band of 20 × 2 tiles: each tile's rows from its index (a pattern the paper shows).
    let tiles: Vec<u8> = (0..0x280u32).map(|i| (i * 7 + i / 16) as u8).collect();
    let mut stream = Printer::packet(0x01, &[]);
    stream.extend(Printer::packet(0x04, &tiles));
    stream.extend(Printer::packet(0x04, &[]));
    stream.extend(Printer::packet(0x02, &[1, 0x00, 0xE4, 0x40]));
    stream.extend(Printer::packet(0x0F, &[]));
    let db: Vec<String> = stream.iter().map(|b| format!("${b:02X}")).collect();
    let src = format!(
        r#"
            di
            ld hl, data
            ld de, $C000
            ld bc, {len}
        .byte:
            ld a, [hl+]
            ldh [$01], a
            ld a, $81
            ldh [$02], a
        .wait:
            ldh a, [$02]
            bit 7, a
            jr nz, .wait
            ldh a, [$01]
            ld [de], a
            inc de
            dec bc
            ld a, b
            or c
            jr nz, .byte
            ld a, 1
            ld [$DF00], a
        .spin:
            jr .spin
        data:
            db {db}
        "#,
        len = stream.len(),
        db = db.join(", "),
    );
    let rom = asm::rom(&src).expect("assemble");
    let mut gb = power_on(&rom, ModelChoice::Fixed(Model::Dmg));
    gb.attach_printer(true);
    for _ in 0..600 {
        if gb.peek(0xDF00) == 1 {
            break;
        }
        gb.run_frame();
    }
    assert_eq!(gb.peek(0xDF00), 1, "the program sent every byte");
    // The replies: each packet's last two bytes are $81 and the status.
    let replies: Vec<u8> = (0..stream.len() as u16)
        .map(|i| gb.peek(0xC000 + i))
        .collect();
    let mut at = 0;
    let mut statuses = Vec::new();
    for len in [0usize, 0x280, 0, 4, 0] {
        at += 10 + len;
        assert_eq!(replies[at - 2], 0x81, "alive after packet ending at {at}");
        statuses.push(replies[at - 1]);
    }
    // Init, data, empty data, print answer the status they found; the query sees printing.
    assert_eq!(statuses, [0x00, 0x00, 0x08, 0x08, 0x06]);
    let paper = gb.printer_mut().expect("a printer").take_paper();
    assert_eq!(paper.rows(), 16);
    for y in 0..16usize {
        for x in 0..160usize {
            let tile = (y / 8) * 20 + x / 8;
            let row = tile * 16 + (y % 8) * 2;
            let bit = 7 - (x % 8);
            let colour = (tiles[row + 1] >> bit & 1) << 1 | (tiles[row] >> bit & 1);
            // Palette $E4: colour n is shade n.
            assert_eq!(paper.shades[y * 160 + x], colour, "pixel ({x}, {y})");
        }
    }
}

#[test]
fn a_side_that_ran_ahead_while_both_waited_is_run_again_when_the_other_starts_clocking() {
    // Player 1 waits from the start; player 2 waits about three frames, then clocks. Player
    // 1 ran ahead to its frame's end meanwhile and must be run again from before player 2's
    // first edge.
    for model in [Model::Dmg, Model::Cgb] {
        let p1 = program(0x10, Role::always(0x80), false);
        let p2 = program_waiting_first(0xA0, Role::always(0x81), false, true);
        let mut pair = Pair::new(
            power_on(&p1, ModelChoice::Fixed(model)),
            power_on(&p2, ModelChoice::Fixed(model)),
        );
        run_to_end(&mut pair, 120);
        assert_eq!(
            received(pair.gb(0)),
            sequence(0xA0),
            "{model}: player 1 got"
        );
        assert_eq!(
            received(pair.gb(1)),
            sequence(0x10),
            "{model}: player 2 got"
        );
        assert_eq!(pair.inexact(), Inexact::default(), "{model}: exact");
        assert!(pair.reruns() > 0, "{model}: player 1 was run again");
        // Far fewer turns than a lockstep would take (about 300 a frame).
        let per_frame = pair.turns() / u64::from(pair.gb(0).frames().max(1) as u32);
        assert!(per_frame < 100, "{model}: {per_frame} turns a frame");
    }
}
