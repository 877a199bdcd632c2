//! CPU instruction tests: tiny ROMs assembled with `gb_core::asm`, run on the core, checking
//! registers, memory, flags and cycle counts.
//!
//! Expected values come from reference models written here (ALU, rotates, DAA) after Pan Docs
//! ("CPU Instruction Set", "Interrupts", "halt") and the gbdev opcode table, never from the
//! core. Sweeps assemble one ROM per operation that runs every case in a row and stores each
//! result pair (A, F) to WRAM at $C000 through DE, so one boot covers hundreds of cases.

use gb_core::asm::{self, Assembly, RomBuilder};
use gb_core::cartridge::Cartridge;
use gb_core::{Gb, Registers};

const Z: u8 = 0x80;
const N: u8 = 0x40;
const H: u8 = 0x20;
const C: u8 = 0x10;

/// Cycle budget for a small program.
const BUDGET: u64 = 2_000_000;

// ---------------------------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------------------------

/// Assembles `src` (at $0150) into a ROM and powers on a Game Boy with it.
fn boot_with_symbols(src: &str) -> (Gb, Assembly) {
    let assembly = match RomBuilder::new().program(src).build_with_symbols() {
        Ok(a) => a,
        Err(e) => panic!("program does not assemble: {e}\n{src}"),
    };
    let cart = Cartridge::from_rom(assembly.bytes.clone()).expect("cartridge loads");
    (Gb::new(cart), assembly)
}

fn boot(src: &str) -> Gb {
    boot_with_symbols(src).0
}

/// Runs `src` until it executes `ld b, b`.
fn run(src: &str) -> Gb {
    let mut gb = boot(src);
    assert!(
        gb.run_until_ld_b_b(BUDGET),
        "program never reached `ld b, b`:\n{src}"
    );
    gb
}

/// Runs `src` and returns the registers at its `ld b, b`.
fn regs_after(src: &str) -> Registers {
    run(src).regs()
}

/// Executes one step and returns the T-cycles it took.
fn step_cycles(gb: &mut Gb) -> u64 {
    let before = gb.cycles();
    gb.step();
    gb.cycles() - before
}

/// Steps from power-on through the header's `nop; jp $0150` to the program start.
fn to_program_start(gb: &mut Gb) {
    assert_eq!(gb.regs().pc, 0x0100);
    assert_eq!(step_cycles(gb), 4, "nop at $0100");
    assert_eq!(step_cycles(gb), 16, "jp $0150");
    assert_eq!(gb.regs().pc, 0x0150);
}

/// Steps until PC reaches `addr` (bounded).
fn step_to(gb: &mut Gb, addr: u16) {
    for _ in 0..100_000 {
        if gb.regs().pc == addr {
            return;
        }
        gb.step();
    }
    panic!(
        "PC never reached ${addr:04X} (stuck at ${:04X})",
        gb.regs().pc
    );
}

fn label(a: &Assembly, name: &str) -> u16 {
    a.address(name).unwrap_or_else(|| panic!("no label {name}"))
}

/// The 16-bit word at `addr` (little endian).
fn peek16(gb: &Gb, addr: u16) -> u16 {
    u16::from_le_bytes([gb.peek(addr), gb.peek(addr.wrapping_add(1))])
}

fn flags(f: u8) -> String {
    let bit = |m: u8, c: char| if f & m != 0 { c } else { '-' };
    format!(
        "{}{}{}{} (${f:02X})",
        bit(Z, 'Z'),
        bit(N, 'N'),
        bit(H, 'H'),
        bit(C, 'C')
    )
}

/// Sets the carry flag before a case: `scf` or `scf; ccf`.
fn set_carry(carry: bool) -> &'static str {
    if carry { "scf\n" } else { "scf\nccf\n" }
}

/// Runs every case (code that leaves a result in A and flags in F) in one ROM and returns the
/// (A, F) pairs, stored through DE from $C000. Cases may use A, BC, HL and the flags.
fn sweep(cases: &[String]) -> Vec<(u8, u8)> {
    assert!(cases.len() <= 0x1000, "results must fit in WRAM");
    let mut src = String::from("ld de, $c000\nld sp, $fffe\n");
    for case in cases {
        src.push_str(case);
        src.push_str("\nld [de], a\ninc de\npush af\npop bc\nld a, c\nld [de], a\ninc de\n");
    }
    src.push_str("ld b, b\n");
    let gb = run(&src);
    (0..cases.len())
        .map(|i| {
            let addr = 0xC000 + 2 * i as u16;
            (gb.peek(addr), gb.peek(addr + 1))
        })
        .collect()
}

/// Checks sweep results against expectations, listing every mismatch.
fn check_sweep(what: &str, labels: &[String], got: &[(u8, u8)], want: &[(u8, u8)]) {
    let mut bad = Vec::new();
    for ((label, g), w) in labels.iter().zip(got).zip(want) {
        if g != w {
            bad.push(format!(
                "{label}: got A=${:02X} F={} want A=${:02X} F={}",
                g.0,
                flags(g.1),
                w.0,
                flags(w.1)
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{what}: {} of {} cases wrong:\n{}",
        bad.len(),
        got.len(),
        bad.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// A case that loads `x` into `reg`, sets the carry, runs `instr` on it and leaves the result in
/// A. D and E are saved around the case because the sweep stores through DE (PUSH/POP DE leave
/// the flags alone).
fn reg_case(reg: &str, x: u8, carry: bool, instr: &str) -> String {
    let fetch = if reg == "a" {
        String::new()
    } else {
        format!("\nld a, {reg}")
    };
    let body = format!(
        "ld {reg}, ${x:02X}\n{}{instr} {reg}{fetch}",
        set_carry(carry)
    );
    if reg == "d" || reg == "e" {
        format!("push de\n{body}\npop de")
    } else {
        body
    }
}

/// Operand values for sweeps: nibble and sign boundaries plus a few ordinary values.
const VALUES: [u8; 14] = [
    0x00, 0x01, 0x08, 0x0F, 0x10, 0x1F, 0x3A, 0x7F, 0x80, 0x8F, 0xC6, 0xF0, 0xFE, 0xFF,
];

// ---------------------------------------------------------------------------------------------
// Reference models (Pan Docs, "CPU Instruction Set")
// ---------------------------------------------------------------------------------------------

fn flag(cond: bool, mask: u8) -> u8 {
    if cond { mask } else { 0 }
}

/// The 8-bit ALU: `op` in encoding order (add adc sub sbc and xor or cp).
fn alu_ref(op: usize, a: u8, b: u8, carry: bool) -> (u8, u8) {
    let cin = u8::from(carry);
    let (r, f) = match op {
        0 | 1 => {
            let cin = if op == 1 { cin } else { 0 };
            let wide = u16::from(a) + u16::from(b) + u16::from(cin);
            let r = wide as u8;
            let half = (a & 0xF) + (b & 0xF) + cin > 0xF;
            (r, flag(half, H) | flag(wide > 0xFF, C))
        }
        2 | 3 | 7 => {
            let cin = if op == 3 { cin } else { 0 };
            let r = a.wrapping_sub(b).wrapping_sub(cin);
            let half = (a & 0xF) < (b & 0xF) + cin;
            let borrow = u16::from(a) < u16::from(b) + u16::from(cin);
            (r, N | flag(half, H) | flag(borrow, C))
        }
        4 => (a & b, H),
        5 => (a ^ b, 0),
        6 => (a | b, 0),
        _ => unreachable!(),
    };
    let result = if op == 7 { a } else { r };
    (result, f | flag(r == 0, Z))
}

const ALU_NAMES: [&str; 8] = ["add", "adc", "sub", "sbc", "and", "xor", "or", "cp"];
const SHIFT_NAMES: [&str; 8] = ["rlc", "rrc", "rl", "rr", "sla", "sra", "swap", "srl"];

/// CB rotates and shifts: (result, carry out).
fn shift_ref(op: usize, x: u8, carry: bool) -> (u8, bool) {
    let cin = u8::from(carry);
    match op {
        0 => (x.rotate_left(1), x & 0x80 != 0),
        1 => (x.rotate_right(1), x & 1 != 0),
        2 => ((x << 1) | cin, x & 0x80 != 0),
        3 => ((x >> 1) | (cin << 7), x & 1 != 0),
        4 => (x << 1, x & 0x80 != 0),
        5 => ((x >> 1) | (x & 0x80), x & 1 != 0),
        6 => (x.rotate_left(4), false),
        7 => (x >> 1, x & 1 != 0),
        _ => unreachable!(),
    }
}

/// DAA, after the Pan Docs description: adjust by $06 and/or $60 depending on N, H, C and the
/// digits of A.
fn daa_ref(a: u8, f: u8) -> (u8, u8) {
    let (n, h, c) = (f & N != 0, f & H != 0, f & C != 0);
    let mut adjust = 0u8;
    let mut carry = c;
    let r = if n {
        if h {
            adjust += 0x06;
        }
        if c {
            adjust += 0x60;
        }
        a.wrapping_sub(adjust)
    } else {
        if h || a & 0x0F > 0x09 {
            adjust += 0x06;
        }
        if c || a > 0x99 {
            adjust += 0x60;
            carry = true;
        }
        a.wrapping_add(adjust)
    };
    (r, flag(r == 0, Z) | flag(n, N) | flag(carry, C))
}

// ---------------------------------------------------------------------------------------------
// Harness sanity
// ---------------------------------------------------------------------------------------------

#[test]
fn assembled_rom_has_a_valid_header_for_the_cartridge_parser() {
    let rom = asm::rom("ld b, b").expect("assembles");
    let cart = Cartridge::from_rom(rom).expect("loads");
    let header = cart.header();
    assert!(header.logo_ok, "logo");
    assert!(header.header_checksum_ok, "header checksum");
    assert!(header.global_checksum_ok, "global checksum");
    assert_eq!(header.title, "GBHOST TEST");
}

#[test]
fn post_boot_state_and_entry_point() {
    let mut gb = boot("ld b, b");
    let r = gb.regs();
    assert_eq!(
        (r.a, r.f, r.b, r.c, r.d, r.e, r.h, r.l, r.sp, r.pc),
        (
            0x01, 0xB0, 0x00, 0x13, 0x00, 0xD8, 0x01, 0x4D, 0xFFFE, 0x0100
        )
    );
    assert!(!gb.ime());
    to_program_start(&mut gb);
    assert!(gb.run_until_ld_b_b(BUDGET));
    assert_eq!(gb.regs().pc, 0x0151);
}

#[test]
fn stop_encodes_as_two_bytes() {
    assert_eq!(asm::assemble("stop", 0).expect("assembles"), [0x10, 0x00]);
    assert_eq!(
        asm::assemble("stop\nnop", 0).expect("assembles"),
        [0x10, 0x00, 0x00]
    );
}

// ---------------------------------------------------------------------------------------------
// 8-bit ALU
// ---------------------------------------------------------------------------------------------

/// Sweeps one ALU op with the operand in `operand_kind`: "b", "imm" or "[hl]".
fn alu_sweep(op: usize, operand_kind: &str) {
    let name = ALU_NAMES[op];
    let mut cases = Vec::new();
    let mut labels = Vec::new();
    let mut want = Vec::new();
    for a in VALUES {
        for b in VALUES {
            for carry in [false, true] {
                let setup = match operand_kind {
                    "b" => format!("ld b, ${b:02X}\n{}{name} a, b", set_carry(carry)),
                    "imm" => format!("{}{name} a, ${b:02X}", set_carry(carry)),
                    _ => format!(
                        "ld hl, $d000\nld [hl], ${b:02X}\n{}{name} a, [hl]",
                        set_carry(carry)
                    ),
                };
                cases.push(format!("ld a, ${a:02X}\n{setup}"));
                labels.push(format!("{name} ${a:02X}, ${b:02X} (carry in {carry})"));
                want.push(alu_ref(op, a, b, carry));
            }
        }
    }
    check_sweep(
        &format!("{name} a, {operand_kind}"),
        &labels,
        &sweep(&cases),
        &want,
    );
}

#[test]
fn alu_add_adc_flags() {
    for op in [0, 1] {
        alu_sweep(op, "b");
        alu_sweep(op, "imm");
        alu_sweep(op, "[hl]");
    }
}

#[test]
fn alu_sub_sbc_cp_flags() {
    for op in [2, 3, 7] {
        alu_sweep(op, "b");
        alu_sweep(op, "imm");
        alu_sweep(op, "[hl]");
    }
}

#[test]
fn alu_and_xor_or_flags() {
    for op in [4, 5, 6] {
        alu_sweep(op, "b");
        alu_sweep(op, "imm");
        alu_sweep(op, "[hl]");
    }
}

#[test]
fn alu_with_a_as_both_operands() {
    let mut cases = Vec::new();
    let mut labels = Vec::new();
    let mut want = Vec::new();
    for (op, name) in ALU_NAMES.iter().enumerate() {
        for a in VALUES {
            for carry in [false, true] {
                cases.push(format!("ld a, ${a:02X}\n{}{name} a, a", set_carry(carry)));
                labels.push(format!("{name} a=${a:02X} carry {carry}"));
                want.push(alu_ref(op, a, a, carry));
            }
        }
    }
    check_sweep("op a, a", &labels, &sweep(&cases), &want);
}

/// Half-carry edge cases named one by one, as a readable complement to the sweeps.
#[test]
fn alu_half_carry_edges() {
    // (program, A, F)
    let cases: &[(&str, u8, u8)] = &[
        ("ld a, $0F\nadd a, $01", 0x10, H),
        ("ld a, $08\nadd a, $08", 0x10, H),
        ("ld a, $F0\nadd a, $10", 0x00, Z | C),
        ("ld a, $FF\nadd a, $01", 0x00, Z | H | C),
        ("ld a, $0E\nscf\nadc a, $01", 0x10, H),
        ("ld a, $FF\nscf\nadc a, $00", 0x00, Z | H | C),
        ("ld a, $10\nsub a, $01", 0x0F, N | H),
        ("ld a, $00\nsub a, $01", 0xFF, N | H | C),
        ("ld a, $10\nscf\nsbc a, $0F", 0x00, Z | N | H),
        ("ld a, $00\nscf\nsbc a, $FF", 0x00, Z | N | H | C),
        ("ld a, $3C\ncp a, $2F", 0x3C, N | H),
        ("ld a, $3C\ncp a, $3C", 0x3C, Z | N),
        ("ld a, $3C\ncp a, $40", 0x3C, N | C),
        ("ld a, $F0\nand a, $0F", 0x00, Z | H),
        ("ld a, $FF\nscf\nxor a, $FF", 0x00, Z),
        ("ld a, $00\nscf\nor a, $00", 0x00, Z),
    ];
    for (src, a, f) in cases {
        let r = regs_after(&format!("{src}\nld b, b"));
        assert_eq!(
            (r.a, flags(r.f)),
            (*a, flags(*f)),
            "{}",
            src.replace('\n', "; ")
        );
    }
}

// ---------------------------------------------------------------------------------------------
// INC / DEC
// ---------------------------------------------------------------------------------------------

fn inc_dec_ref(dec: bool, x: u8, carry: bool) -> (u8, u8) {
    if dec {
        let r = x.wrapping_sub(1);
        (
            r,
            flag(r == 0, Z) | N | flag(x & 0xF == 0, H) | flag(carry, C),
        )
    } else {
        let r = x.wrapping_add(1);
        (
            r,
            flag(r == 0, Z) | flag(x & 0xF == 0xF, H) | flag(carry, C),
        )
    }
}

#[test]
fn inc_dec_r8_all_values() {
    for dec in [false, true] {
        let name = if dec { "dec" } else { "inc" };
        let mut cases = Vec::new();
        let mut labels = Vec::new();
        let mut want = Vec::new();
        for x in 0..=255u8 {
            for carry in [false, true] {
                // Alternate the register so every r8 encoding runs.
                let reg = ["b", "c", "d", "e", "h", "l", "a"][usize::from(x) % 7];
                cases.push(reg_case(reg, x, carry, name));
                labels.push(format!("{name} {reg}=${x:02X} carry {carry}"));
                want.push(inc_dec_ref(dec, x, carry));
            }
        }
        check_sweep(name, &labels, &sweep(&cases), &want);
    }
}

#[test]
fn inc_dec_hl_indirect() {
    for dec in [false, true] {
        let name = if dec { "dec" } else { "inc" };
        let mut cases = Vec::new();
        let mut labels = Vec::new();
        let mut want = Vec::new();
        for x in VALUES {
            for carry in [false, true] {
                cases.push(format!(
                    "ld hl, $d000\nld [hl], ${x:02X}\n{}{name} [hl]\nld a, [hl]",
                    set_carry(carry)
                ));
                labels.push(format!("{name} [hl]=${x:02X} carry {carry}"));
                want.push(inc_dec_ref(dec, x, carry));
            }
        }
        check_sweep(&format!("{name} [hl]"), &labels, &sweep(&cases), &want);
    }
}

#[test]
fn inc_dec_r16_wrap_and_leave_flags() {
    let r = regs_after(
        "ld bc, $FFFF\ninc bc\nld de, $0000\ndec de\nld hl, $00FF\ninc hl\nxor a\ninc sp\ndec sp\nld b, b",
    );
    assert_eq!((r.c, r.d, r.e, r.h, r.l), (0x00, 0xFF, 0xFF, 0x01, 0x00));
    assert_eq!(r.f, Z, "16-bit inc/dec leave flags alone");
    assert_eq!(r.sp, 0xFFFE);
}

// ---------------------------------------------------------------------------------------------
// 16-bit arithmetic
// ---------------------------------------------------------------------------------------------

#[test]
fn add_hl_rr_flags() {
    // (hl, rr value, register, expected hl, flags from a starting F of Z|N)
    let cases: &[(u16, u16, &str, u16, u8)] = &[
        (0x0FFF, 0x0001, "bc", 0x1000, Z | H),
        (0x0800, 0x0800, "de", 0x1000, Z | H),
        (0xFFFF, 0x0001, "bc", 0x0000, Z | H | C),
        (0x8000, 0x8000, "de", 0x0000, Z | C),
        (0x1234, 0x1111, "bc", 0x2345, Z),
        (0x00FF, 0x0001, "de", 0x0100, Z),
        (0x8A23, 0x8A23, "hl", 0x1446, Z | H | C),
        (0xF000, 0x0000, "sp", 0xF000, Z),
    ];
    for &(hl, v, rr, want_hl, want_f) in cases {
        let load = match rr {
            "hl" => String::new(),
            "sp" => format!("ld sp, ${v:04X}\n"),
            _ => format!("ld {rr}, ${v:04X}\n"),
        };
        // Start from Z|N set so Z is seen to be kept and N cleared.
        let src = format!(
            "ld bc, $00C0\npush bc\npop af\nld hl, ${hl:04X}\n{load}add hl, {rr}\nld sp, $fffe\nld b, b"
        );
        let r = regs_after(&src);
        let got_hl = u16::from_be_bytes([r.h, r.l]);
        assert_eq!(
            (got_hl, flags(r.f)),
            (want_hl, flags(want_f)),
            "add hl=${hl:04X}, {rr}=${v:04X}"
        );
    }
}

/// ADD SP,e and LD HL,SP+e: H and C come from the unsigned add of the low bytes; Z and N are 0.
#[test]
fn add_sp_and_ld_hl_sp_e_flags() {
    let sps = [
        0x0000u16, 0x000F, 0x00F0, 0x00FF, 0xFFFF, 0x1234, 0xFFF8, 0x8001,
    ];
    let offsets = [0i8, 1, -1, 0x0F, -16, 127, -128, 8, -8];
    for sp in sps {
        for e in offsets {
            let low = (sp & 0xFF) as u8;
            let eb = e as u8;
            let want_f = flag((low & 0xF) + (eb & 0xF) > 0xF, H)
                | flag(u16::from(low) + u16::from(eb) > 0xFF, C);
            let want = sp.wrapping_add(e as i16 as u16);

            // Start with all flags set, to see Z and N cleared.
            let set_flags = "ld bc, $00F0\npush bc\npop af\n";
            let r = regs_after(&format!(
                "{set_flags}ld sp, ${sp:04X}\nld hl, sp{e:+}\nld sp, $fffe\nld b, b"
            ));
            assert_eq!(
                (u16::from_be_bytes([r.h, r.l]), flags(r.f)),
                (want, flags(want_f)),
                "ld hl, sp{e:+} with sp=${sp:04X}"
            );

            let gb = run(&format!(
                "{set_flags}ld sp, ${sp:04X}\nadd sp, {e}\nld [$c000], sp\nld sp, $fffe\nld b, b"
            ));
            assert_eq!(
                (peek16(&gb, 0xC000), flags(gb.regs().f)),
                (want, flags(want_f)),
                "add sp, {e} with sp=${sp:04X}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// DAA
// ---------------------------------------------------------------------------------------------

/// DAA on every A and every combination of N, H, C (Z in does not matter), against the
/// reference model.
#[test]
fn daa_all_inputs() {
    let mut cases = Vec::new();
    let mut labels = Vec::new();
    let mut want = Vec::new();
    for a in 0..=255u8 {
        for f in [0x00u8, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70] {
            cases.push(format!("ld bc, ${a:02X}{f:02X}\npush bc\npop af\ndaa"));
            labels.push(format!("daa a=${a:02X} f={}", flags(f)));
            want.push(daa_ref(a, f));
        }
    }
    check_sweep("daa", &labels, &sweep(&cases), &want);
}

fn bcd(v: u8) -> u32 {
    u32::from(v >> 4) * 10 + u32::from(v & 0xF)
}

fn to_bcd(v: u32) -> u8 {
    (((v / 10) << 4) | (v % 10)) as u8
}

/// `add`/`adc`/`sub`/`sbc` then `daa` on BCD operands give the decimal result and carry.
#[test]
fn daa_after_add_and_sub_is_decimal_arithmetic() {
    let values: Vec<u8> = [
        0u32, 1, 5, 9, 10, 15, 19, 27, 38, 45, 50, 66, 75, 81, 91, 99,
    ]
    .into_iter()
    .map(to_bcd)
    .collect();
    let mut cases = Vec::new();
    let mut labels = Vec::new();
    let mut want = Vec::new();
    for &x in &values {
        for &y in &values {
            for (op, carry) in [("add", false), ("adc", true), ("sub", false), ("sbc", true)] {
                cases.push(format!(
                    "ld a, ${x:02X}\nld b, ${y:02X}\n{}{op} a, b\ndaa",
                    set_carry(carry)
                ));
                labels.push(format!("{op} ${x:02X}, ${y:02X} carry {carry}; daa"));
                let cin = u32::from(carry);
                let (dx, dy) = (bcd(x), bcd(y));
                let (r, c, n) = if op.starts_with('a') {
                    let s = dx + dy + cin;
                    (s % 100, s >= 100, false)
                } else {
                    let borrow = dx < dy + cin;
                    ((dx + 100 - dy - cin) % 100, borrow, true)
                };
                let r = to_bcd(r);
                want.push((r, flag(r == 0, Z) | flag(n, N) | flag(c, C)));
            }
        }
    }
    check_sweep("bcd add/sub + daa", &labels, &sweep(&cases), &want);
}

// ---------------------------------------------------------------------------------------------
// Rotates, shifts, SWAP, BIT, RES, SET
// ---------------------------------------------------------------------------------------------

#[test]
fn cb_rotates_and_shifts_all_values() {
    for (op, name) in SHIFT_NAMES.iter().enumerate() {
        let mut cases = Vec::new();
        let mut labels = Vec::new();
        let mut want = Vec::new();
        for x in 0..=255u8 {
            for carry in [false, true] {
                let reg = ["b", "c", "d", "e", "h", "l", "a"][usize::from(x) % 7];
                cases.push(reg_case(reg, x, carry, name));
                labels.push(format!("{name} {reg}=${x:02X} carry {carry}"));
                let (r, c) = shift_ref(op, x, carry);
                want.push((r, flag(r == 0, Z) | flag(c, C)));
            }
        }
        check_sweep(name, &labels, &sweep(&cases), &want);
    }
}

#[test]
fn cb_rotates_and_shifts_on_hl_indirect() {
    let mut cases = Vec::new();
    let mut labels = Vec::new();
    let mut want = Vec::new();
    for (op, name) in SHIFT_NAMES.iter().enumerate() {
        for x in VALUES {
            for carry in [false, true] {
                cases.push(format!(
                    "ld hl, $d000\nld [hl], ${x:02X}\n{}{name} [hl]\nld a, [hl]",
                    set_carry(carry)
                ));
                labels.push(format!("{name} [hl]=${x:02X} carry {carry}"));
                let (r, c) = shift_ref(op, x, carry);
                want.push((r, flag(r == 0, Z) | flag(c, C)));
            }
        }
    }
    check_sweep("cb shifts on [hl]", &labels, &sweep(&cases), &want);
}

/// RLCA, RLA, RRCA, RRA: like their CB forms but Z is always cleared.
#[test]
fn accumulator_rotates_clear_z() {
    let names = ["rlca", "rrca", "rla", "rra"];
    let mut cases = Vec::new();
    let mut labels = Vec::new();
    let mut want = Vec::new();
    for (i, name) in names.iter().enumerate() {
        for x in 0..=255u8 {
            for carry in [false, true] {
                // Set Z first (via the flags) so clearing it is visible.
                let c = if carry { "F0" } else { "E0" };
                cases.push(format!("ld bc, ${x:02X}{c}\npush bc\npop af\n{name}"));
                labels.push(format!("{name} a=${x:02X} carry {carry}"));
                let (r, cout) = shift_ref(i, x, carry);
                want.push((r, flag(cout, C)));
            }
        }
    }
    check_sweep("rlca/rrca/rla/rra", &labels, &sweep(&cases), &want);
}

#[test]
fn bit_sets_z_from_the_bit_and_keeps_carry() {
    let mut cases = Vec::new();
    let mut labels = Vec::new();
    let mut want = Vec::new();
    for bit in 0..8u8 {
        for x in [0x00u8, 0xFF, 1 << bit, !(1 << bit), 0x5A] {
            for carry in [false, true] {
                for target in ["c", "[hl]", "a"] {
                    let setup = match target {
                        "c" => format!("ld c, ${x:02X}"),
                        "[hl]" => format!("ld hl, $d000\nld [hl], ${x:02X}"),
                        _ => String::new(),
                    };
                    // A holds x for the store; BIT must not change it.
                    cases.push(format!(
                        "ld a, ${x:02X}\n{setup}\n{}bit {bit}, {target}",
                        set_carry(carry)
                    ));
                    labels.push(format!("bit {bit}, {target}=${x:02X} carry {carry}"));
                    let z = x & (1 << bit) == 0;
                    want.push((x, flag(z, Z) | H | flag(carry, C)));
                }
            }
        }
    }
    check_sweep("bit", &labels, &sweep(&cases), &want);
}

#[test]
fn res_and_set_change_one_bit_and_no_flags() {
    let mut cases = Vec::new();
    let mut labels = Vec::new();
    let mut want = Vec::new();
    for bit in 0..8u8 {
        for x in [0x00u8, 0xFF, 0x5A] {
            for (name, f0) in [("res", "F0"), ("set", "00")] {
                for target in ["c", "[hl]", "a"] {
                    let (setup, fetch) = match target {
                        "c" => (format!("ld c, ${x:02X}"), "\nld a, c"),
                        "[hl]" => (format!("ld hl, $d000\nld [hl], ${x:02X}"), "\nld a, [hl]"),
                        _ => (format!("ld a, ${x:02X}"), ""),
                    };
                    cases.push(format!(
                        "ld bc, $00{f0}\npush bc\npop af\n{setup}\n{name} {bit}, {target}{fetch}"
                    ));
                    labels.push(format!("{name} {bit}, {target}=${x:02X}"));
                    let r = if name == "res" {
                        x & !(1 << bit)
                    } else {
                        x | (1 << bit)
                    };
                    let f = if f0 == "F0" { 0xF0 } else { 0x00 };
                    want.push((r, f));
                }
            }
        }
    }
    check_sweep("res/set", &labels, &sweep(&cases), &want);
}

// ---------------------------------------------------------------------------------------------
// CPL, SCF, CCF
// ---------------------------------------------------------------------------------------------

#[test]
fn cpl_scf_ccf_flags() {
    let cases: &[(&str, u8, u8)] = &[
        // (start F, program, want A, want F)
        ("ld bc, $3500\npush bc\npop af\ncpl", 0xCA, N | H),
        ("ld bc, $35B0\npush bc\npop af\ncpl", 0xCA, Z | N | H | C),
        ("ld bc, $0060\npush bc\npop af\nscf", 0x00, C),
        ("ld bc, $0080\npush bc\npop af\nscf", 0x00, Z | C),
        ("ld bc, $0070\npush bc\npop af\nccf", 0x00, 0),
        ("ld bc, $00E0\npush bc\npop af\nccf", 0x00, Z | C),
    ];
    for (src, a, f) in cases {
        let r = regs_after(&format!("{src}\nld b, b"));
        assert_eq!(
            (r.a, flags(r.f)),
            (*a, flags(*f)),
            "{}",
            src.replace('\n', "; ")
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Loads, stack
// ---------------------------------------------------------------------------------------------

#[test]
fn push_pop_af_masks_low_nibble_of_f() {
    let r = regs_after("ld bc, $12FF\npush bc\npop af\npush af\npop de\nld b, b");
    assert_eq!((r.a, r.f, r.d, r.e), (0x12, 0xF0, 0x12, 0xF0));
    let r = regs_after("ld bc, $340F\npush bc\npop af\nld b, b");
    assert_eq!((r.a, r.f), (0x34, 0x00));
}

#[test]
fn push_pop_order_and_stack_pointer() {
    let gb = run("ld bc, $1234\npush bc\nld sp, $fffe\nld b, b");
    // PUSH writes the high byte at SP-1 and the low byte at SP-2.
    assert_eq!((gb.peek(0xFFFD), gb.peek(0xFFFC)), (0x12, 0x34));
    let r = regs_after("ld de, $BEEF\npush de\npop hl\nld b, b");
    assert_eq!((r.h, r.l, r.sp), (0xBE, 0xEF, 0xFFFE));
}

#[test]
fn ld_n16_sp_stores_little_endian() {
    let gb = run("ld sp, $ABCD\nld [$c000], sp\nld sp, $fffe\nld b, b");
    assert_eq!((gb.peek(0xC000), gb.peek(0xC001)), (0xCD, 0xAB));
}

#[test]
fn ld_hl_increment_decrement_forms() {
    let gb = run("
        ld hl, $c000
        ld a, $11
        ld [hl+], a
        ld a, $22
        ld [hl+], a
        ld a, $33
        ld [hl-], a
        ld a, [hl-]     ; reads $c001 (=$22), hl -> $c000
        ld c, a
        ld a, [hl+]     ; reads $c000 (=$11), hl -> $c001
        ld d, a
        ld b, b
    ");
    let r = gb.regs();
    assert_eq!(
        (gb.peek(0xC000), gb.peek(0xC001), gb.peek(0xC002)),
        (0x11, 0x22, 0x33)
    );
    assert_eq!((r.c, r.d, r.h, r.l), (0x22, 0x11, 0xC0, 0x01));
}

#[test]
fn ldh_and_c_indirect_forms() {
    let gb = run("
        ld a, $5A
        ldh [$80], a        ; $FF80
        ld c, $81
        ld a, $A5
        ldh [c], a          ; $FF81
        ld a, $3C
        ld [$ff00+$82], a   ; $FF82
        ld c, $80
        ldh a, [c]
        ld d, a
        ldh a, [$ff81]
        ld e, a
        ld a, [$ff82]       ; 3-byte absolute form
        ld h, a
        ld b, b
    ");
    let r = gb.regs();
    assert_eq!(
        (gb.peek(0xFF80), gb.peek(0xFF81), gb.peek(0xFF82)),
        (0x5A, 0xA5, 0x3C)
    );
    assert_eq!((r.d, r.e, r.h), (0x5A, 0xA5, 0x3C));
}

#[test]
fn ld_indirect_through_bc_de_and_absolute() {
    let gb = run("
        ld bc, $c010
        ld de, $c020
        ld a, $77
        ld [bc], a
        ld a, $88
        ld [de], a
        ld a, $99
        ld [$c030], a
        ld a, [bc]
        ld h, a
        ld a, [de]
        ld l, a
        ld a, [$c030]
        ld b, b
    ");
    let r = gb.regs();
    assert_eq!((r.h, r.l, r.a), (0x77, 0x88, 0x99));
}

#[test]
fn ld_r_r_copies_between_all_registers() {
    let r = regs_after(
        "
        ld a, $A1
        ld c, a
        ld d, c
        ld e, d
        ld h, e
        ld l, h
        ld a, $00
        ld a, l
        ld hl, $c000
        ld [hl], $5B
        ld e, [hl]
        ld [hl], c
        ld d, [hl]
        ld b, b
    ",
    );
    assert_eq!((r.a, r.c, r.e, r.d), (0xA1, 0xA1, 0x5B, 0xA1));
}

/// Every `ld r, r'` pair of the 49 register-to-register encodings but `ld b, b` (the
/// breakpoint that ends every test program), through a sweep.
#[test]
fn ld_r_r_all_pairs() {
    let regs = ["b", "c", "d", "e", "h", "l", "a"];
    let mut cases = Vec::new();
    let mut labels = Vec::new();
    let mut want = Vec::new();
    for (i, dst) in regs.iter().enumerate() {
        for (j, src) in regs.iter().enumerate() {
            if (*dst, *src) == ("b", "b") {
                continue; // `ld b, b` ends the sweep; it runs at the end of every test
            }
            let v = 0x11 * (i as u8 + 1) + j as u8;
            // Flags start as Z|C and must survive the loads.
            let mut body =
                format!("ld bc, $0090\npush bc\npop af\nld {src}, ${v:02X}\nld {dst}, {src}");
            if *dst != "a" {
                body.push_str(&format!("\nld a, {dst}"));
            }
            if [*dst, *src].iter().any(|r| *r == "d" || *r == "e") {
                body = format!("push de\n{body}\npop de");
            }
            cases.push(body);
            labels.push(format!("ld {dst}, {src}"));
            want.push((v, Z | C));
        }
    }
    check_sweep("ld r, r", &labels, &sweep(&cases), &want);
}

#[test]
fn ld_sp_hl_and_jp_hl_use_hl() {
    let (mut gb, a) =
        boot_with_symbols("ld hl, $D00D\nld sp, hl\nld hl, there\njp hl\nld b, b\nthere: ld b, b");
    assert!(gb.run_until_ld_b_b(BUDGET));
    assert_eq!(gb.regs().sp, 0xD00D);
    assert_eq!(gb.regs().pc, label(&a, "there") + 1);
}

/// JR offsets are signed bytes relative to the next instruction: +127 and -128 both reach.
#[test]
fn jr_reaches_both_ends_of_its_range() {
    let src = "
        jr forward          ; +127
        ds 127, $00
forward:
        jr skip
back_target:
        ld d, $BB
        ld b, b
skip:   ld b, b             ; never executed: the jr below jumps over it
        ";
    // Build the backward jump so it sits exactly 128 bytes after back_target's successor.
    let src = src.replace(
        "skip:   ld b, b             ; never executed: the jr below jumps over it",
        "skip:   ds 128 - (@ - back_target) - 2, $00\n        jr back_target",
    );
    let (mut gb, a) = boot_with_symbols(&src);
    let bytes = &a.bytes;
    let first = 0x0150;
    assert_eq!(&bytes[first..first + 2], [0x18, 0x7F]);
    let back_jr = usize::from(label(&a, "back_target")) + 128 - 2;
    assert_eq!(&bytes[back_jr..back_jr + 2], [0x18, 0x80]);
    assert!(gb.run_until_ld_b_b(BUDGET));
    assert_eq!(gb.regs().d, 0xBB);
}

// ---------------------------------------------------------------------------------------------
// Cycle counts
// ---------------------------------------------------------------------------------------------

/// T-cycles of single instructions (Pan Docs / gbdev opcode table), measured across one step.
#[test]
fn instruction_cycle_counts() {
    // (setup, instruction, cycles)
    let cases: &[(&str, &str, u64)] = &[
        ("", "nop", 4),
        ("", "ld b, c", 4),
        ("", "ld b, $12", 8),
        ("ld hl, $c000", "ld b, [hl]", 8),
        ("ld hl, $c000", "ld [hl], b", 8),
        ("ld hl, $c000", "ld [hl], $12", 12),
        ("ld hl, $c000", "ld a, [hl+]", 8),
        ("ld hl, $c000", "ld [hl-], a", 8),
        ("ld bc, $c000", "ld a, [bc]", 8),
        ("ld de, $c000", "ld [de], a", 8),
        ("", "ld a, [$c000]", 16),
        ("", "ld [$c000], a", 16),
        ("", "ldh a, [$80]", 12),
        ("", "ldh [$80], a", 12),
        ("ld c, $80", "ldh a, [c]", 8),
        ("ld c, $80", "ldh [c], a", 8),
        ("", "ld bc, $1234", 12),
        ("", "ld sp, $dff0", 12),
        ("", "ld [$c000], sp", 20),
        ("", "ld sp, hl", 8),
        ("", "ld hl, sp+1", 12),
        ("", "push bc", 16),
        ("", "pop bc", 12),
        ("", "add a, b", 4),
        ("", "add a, $01", 8),
        ("ld hl, $c000", "add a, [hl]", 8),
        ("", "inc b", 4),
        ("ld hl, $c000", "inc [hl]", 12),
        ("ld hl, $c000", "dec [hl]", 12),
        ("", "inc bc", 8),
        ("", "dec sp", 8),
        ("", "add hl, de", 8),
        ("", "add sp, 1", 16),
        ("", "daa", 4),
        ("", "cpl", 4),
        ("", "scf", 4),
        ("", "rlca", 4),
        ("", "rlc b", 8),
        ("ld hl, $c000", "rlc [hl]", 16),
        ("", "swap a", 8),
        ("", "bit 7, h", 8),
        ("ld hl, $c000", "bit 0, [hl]", 12),
        ("", "res 0, b", 8),
        ("ld hl, $c000", "res 0, [hl]", 16),
        ("ld hl, $c000", "set 7, [hl]", 16),
        ("", "di", 4),
        ("", "ei", 4),
    ];
    for (setup, instr, want) in cases {
        let (mut gb, a) = boot_with_symbols(&format!("{setup}\ntarget:\n{instr}\nld b, b"));
        step_to(&mut gb, label(&a, "target"));
        assert_eq!(step_cycles(&mut gb), *want, "{instr}");
    }
}

/// M-cycles of every base opcode, branches not taken (gbdev opcode table; blargg's
/// `instr_timing`). 0 marks opcodes not timed here: STOP, HALT, the CB prefix and the illegal
/// opcodes.
#[rustfmt::skip]
const BASE_M_CYCLES: [u8; 256] = [
    1, 3, 2, 2, 1, 1, 2, 1, 5, 2, 2, 2, 1, 1, 2, 1, // 0x
    0, 3, 2, 2, 1, 1, 2, 1, 3, 2, 2, 2, 1, 1, 2, 1, // 1x
    2, 3, 2, 2, 1, 1, 2, 1, 2, 2, 2, 2, 1, 1, 2, 1, // 2x
    2, 3, 2, 2, 3, 3, 3, 1, 2, 2, 2, 2, 1, 1, 2, 1, // 3x
    1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1, // 4x
    1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1, // 5x
    1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1, // 6x
    2, 2, 2, 2, 2, 2, 0, 2, 1, 1, 1, 1, 1, 1, 2, 1, // 7x
    1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1, // 8x
    1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1, // 9x
    1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1, // Ax
    1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1, // Bx
    2, 3, 3, 4, 3, 4, 2, 4, 2, 4, 3, 0, 3, 6, 2, 4, // Cx
    2, 3, 3, 0, 3, 4, 2, 4, 2, 4, 3, 0, 3, 0, 2, 4, // Dx
    3, 3, 2, 0, 0, 4, 2, 4, 4, 1, 4, 0, 0, 0, 2, 4, // Ex
    3, 3, 2, 1, 0, 4, 2, 4, 3, 2, 4, 1, 0, 0, 2, 4, // Fx
];

/// Extra M-cycles of a conditional branch when taken: JR cc +1, RET cc +3, JP cc +1,
/// CALL cc +3.
fn taken_extra(op: u8) -> u8 {
    match op {
        0x20 | 0x28 | 0x30 | 0x38 => 1,
        0xC0 | 0xC8 | 0xD0 | 0xD8 => 3,
        0xC2 | 0xCA | 0xD2 | 0xDA => 1,
        0xC4 | 0xCC | 0xD4 | 0xDC => 3,
        _ => 0,
    }
}

/// Whether the condition of a conditional opcode (bits 4-3: nz z nc c) holds for flags `f`.
fn condition_holds(op: u8, f: u8) -> bool {
    match (op >> 3) & 3 {
        0 => f & Z == 0,
        1 => f & Z != 0,
        2 => f & C == 0,
        _ => f & C != 0,
    }
}

/// Runs the raw bytes `code` as one instruction with all pointers at $C000 and flags `f`;
/// returns the T-cycles of that one step.
fn time_raw(code: &str, f: u8) -> u64 {
    let src = format!(
        "ld bc, $00{f:02X}\npush bc\npop af\nld bc, $c000\nld de, $c000\nld hl, $c000\ntarget: db {code}\nld b, b"
    );
    let (mut gb, a) = boot_with_symbols(&src);
    step_to(&mut gb, label(&a, "target"));
    step_cycles(&mut gb)
}

/// Every timed base opcode, with its conditional branches both taken and not taken. Operands
/// are `$00 $C0`: immediate 0, address $C000 (WRAM), JR offset 0.
#[test]
fn every_base_opcode_cycle_count() {
    let mut bad = Vec::new();
    for op in 0..=255u8 {
        let base = BASE_M_CYCLES[usize::from(op)];
        if base == 0 {
            continue;
        }
        for f in [0x00u8, 0xF0] {
            let extra = taken_extra(op);
            let want = u64::from(
                base + if extra > 0 && condition_holds(op, f) {
                    extra
                } else {
                    0
                },
            ) * 4;
            let got = time_raw(&format!("${op:02X}, $00, $C0"), f);
            if got != want {
                bad.push(format!("${op:02X} (F=${f:02X}): got {got} want {want}"));
            }
        }
    }
    assert!(bad.is_empty(), "wrong cycle counts:\n{}", bad.join("\n"));
}

/// Every CB opcode: 2 M-cycles on a register, 4 on [hl], 3 for BIT n, [hl].
#[test]
fn every_cb_opcode_cycle_count() {
    let mut bad = Vec::new();
    for op in 0..=255u8 {
        let want = match (op & 7 == 6, (0x40..0x80).contains(&op)) {
            (false, _) => 8,
            (true, true) => 12,
            (true, false) => 16,
        };
        let got = time_raw(&format!("$CB, ${op:02X}"), 0);
        if got != want {
            bad.push(format!("$CB ${op:02X}: got {got} want {want}"));
        }
    }
    assert!(bad.is_empty(), "wrong cycle counts:\n{}", bad.join("\n"));
}

/// JR, JP, CALL, RET, RST: taken and not-taken cycle counts and targets.
#[test]
fn branch_cycle_counts_and_targets() {
    let src = "
main:
s0:  xor a            ; Z=1 C=0
s1:  jr nz, fail
s2:  jr z, s3
     nop
s3:  jr s4
     nop
s4:  jp nz, fail
s5:  jp z, s6
     nop
s6:  jp s7
     nop
s7:  call nz, fail
s8:  call z, sub1
s9:  scf              ; C=1
s10: jr nc, fail
s11: jr c, s12
     nop
s12: jp nc, fail
s13: jp c, s14
     nop
s14: call nc, fail
s15: call c, sub2
s16: ld hl, s17
s16b: jp hl
     nop
s17: rst $38
s18: jr back
fwd: ld b, b
back: jr fwd

sub1:                 ; Z=1 here
     ret nz
sub1b: ret z
sub2:                 ; C=1 here
     ret nc
sub2b: ret c
fail: ld b, b

     org $38
rst38: ret
";
    let (mut gb, a) = boot_with_symbols(src);
    to_program_start(&mut gb);
    let steps: &[(&str, u64, &str)] = &[
        ("xor a", 4, "s1"),
        ("jr nz (not taken)", 8, "s2"),
        ("jr z (taken)", 12, "s3"),
        ("jr", 12, "s4"),
        ("jp nz (not taken)", 12, "s5"),
        ("jp z (taken)", 16, "s6"),
        ("jp", 16, "s7"),
        ("call nz (not taken)", 12, "s8"),
        ("call z (taken)", 24, "sub1"),
        ("ret nz (not taken)", 8, "sub1b"),
        ("ret z (taken)", 20, "s9"),
        ("scf", 4, "s10"),
        ("jr nc (not taken)", 8, "s11"),
        ("jr c (taken)", 12, "s12"),
        ("jp nc (not taken)", 12, "s13"),
        ("jp c (taken)", 16, "s14"),
        ("call nc (not taken)", 12, "s15"),
        ("call c (taken)", 24, "sub2"),
        ("ret nc (not taken)", 8, "sub2b"),
        ("ret c (taken)", 20, "s16"),
        ("ld hl, n16", 12, "s16b"),
        ("jp hl", 4, "s17"),
        ("rst $38", 16, "rst38"),
        ("ret", 16, "s18"),
        ("jr forward", 12, "back"),
        ("jr backward", 12, "fwd"),
    ];
    for (what, cycles, target) in steps {
        let at = gb.regs().pc;
        let took = step_cycles(&mut gb);
        assert_eq!(
            (took, gb.regs().pc),
            (*cycles, label(&a, target)),
            "{what} at ${at:04X}"
        );
    }
}

#[test]
fn call_and_rst_push_the_return_address() {
    let (mut gb, a) = boot_with_symbols("call sub\nafter_call: ld b, b\nsub: ld b, b");
    to_program_start(&mut gb);
    gb.step();
    assert_eq!(gb.regs().pc, label(&a, "sub"));
    assert_eq!(gb.regs().sp, 0xFFFC);
    assert_eq!(peek16(&gb, 0xFFFC), label(&a, "after_call"));

    let (mut gb, a) = boot_with_symbols("rst $08\nafter_rst: ld b, b\norg $08\nld b, b");
    to_program_start(&mut gb);
    gb.step();
    assert_eq!(gb.regs().pc, 0x0008);
    assert_eq!(gb.regs().sp, 0xFFFC);
    assert_eq!(peek16(&gb, 0xFFFC), label(&a, "after_rst"));
}

// ---------------------------------------------------------------------------------------------
// Interrupts, EI/DI, HALT
// ---------------------------------------------------------------------------------------------

/// Requests VBlank in IF and enables it in IE (IME stays as it is).
const REQUEST_VBLANK: &str = "ld a, $01\nldh [$ff], a\nldh [$0f], a\n";

#[test]
fn interrupt_after_ei_runs_after_the_next_instruction() {
    let src = format!(
        "{REQUEST_VBLANK}
ei_at: ei
next:  ld d, $11
after: ld h, $77
       ld b, b
       org $40
vblank: ld b, b
"
    );
    let (mut gb, a) = boot_with_symbols(&src);
    step_to(&mut gb, label(&a, "ei_at"));
    assert!(!gb.ime());
    assert_eq!(step_cycles(&mut gb), 4, "ei");
    assert_eq!(
        gb.regs().pc,
        label(&a, "next"),
        "no interrupt right after ei"
    );
    gb.step(); // ld d, $11 runs
    assert_eq!(gb.regs().d, 0x11);
    assert_eq!(gb.regs().pc, label(&a, "after"));
    let sp = gb.regs().sp;
    assert_eq!(step_cycles(&mut gb), 20, "dispatch takes 5 M-cycles");
    let r = gb.regs();
    assert_eq!(r.pc, 0x0040);
    assert_eq!(r.sp, sp - 2);
    assert_eq!(peek16(&gb, r.sp), label(&a, "after"), "pushed PC");
    assert!(!gb.ime(), "dispatch clears IME");
    assert_eq!(gb.peek(0xFF0F) & 0x01, 0, "dispatch clears the IF bit");
    assert_eq!(
        r.h, 0x01,
        "instruction after the interrupt point did not run"
    );
}

#[test]
fn ei_then_di_takes_no_interrupt() {
    let src = format!(
        "{REQUEST_VBLANK}
       ei
       di
       nop
main_end: ld b, b
       org $40
vblank: ld d, $40
       ld b, b
"
    );
    let (mut gb, a) = boot_with_symbols(&src);
    assert!(gb.run_until_ld_b_b(BUDGET));
    assert_eq!(gb.regs().pc, label(&a, "main_end") + 1);
    assert_eq!(gb.regs().d, 0x00, "handler not run");
    assert!(!gb.ime());
    assert_eq!(gb.peek(0xFF0F) & 0x01, 0x01, "still requested");
}

#[test]
fn reti_returns_and_enables_ime() {
    let src = format!(
        "{REQUEST_VBLANK}
       ei
       nop
back:  ld b, b
       org $40
vblank: reti
"
    );
    let (mut gb, a) = boot_with_symbols(&src);
    step_to(&mut gb, 0x0040);
    assert!(!gb.ime());
    assert_eq!(step_cycles(&mut gb), 16, "reti");
    assert_eq!(gb.regs().pc, label(&a, "back"));
    assert_eq!(gb.regs().sp, 0xFFFE);
    assert!(gb.ime(), "reti enables IME");
}

/// RETI sets IME with no delay: an interrupt requested inside the handler is dispatched right
/// after RETI (Pan Docs: RETI is like EI followed by RET, with IME set right after it).
#[test]
fn reti_has_no_ei_delay() {
    let src = "
        ld a, $05
        ldh [$ff], a        ; IE = vblank | timer
        ld a, $01
        ldh [$0f], a        ; IF = vblank
        ei
        nop
back:   ld b, b
        org $40
vblank: ld a, $04
        ldh [$0f], a        ; request timer
        reti
        org $50
timer:  ld b, b
";
    let (mut gb, a) = boot_with_symbols(src);
    step_to(&mut gb, 0x0040);
    gb.step(); // ld a
    gb.step(); // ldh
    gb.step(); // reti
    assert_eq!(gb.regs().pc, label(&a, "back"));
    assert_eq!(step_cycles(&mut gb), 20, "timer dispatch right after reti");
    assert_eq!(gb.regs().pc, 0x0050);
    assert_eq!(peek16(&gb, gb.regs().sp), label(&a, "back"));
}

#[test]
fn interrupt_priority_lowest_bit_first() {
    let src = "
        ld a, $05
        ldh [$ff], a
        ldh [$0f], a        ; vblank and timer both requested
        ei
        nop
        ld b, b
        org $40
        ld d, $40
        ld b, b
        org $50
        ld d, $50
        ld b, b
";
    let gb = run(src);
    assert_eq!(gb.regs().d, 0x40);
    assert_eq!(gb.peek(0xFF0F) & 0x05, 0x04, "timer still requested");
}

#[test]
fn halt_bug_reads_the_next_byte_twice() {
    // IME=0 with an interrupt pending: HALT does not halt and the next opcode byte is read twice.
    let src = format!("{REQUEST_VBLANK}halt\ninc c\nld b, b");
    let gb = run(&src);
    assert_eq!(gb.regs().c, 0x15, "inc c ran twice");
    assert!(!gb.is_halted());

    // `ld a, $3C` (3E 3C) runs as `ld a, $3E` then `inc a` (gambatte halt tests).
    let src = format!("{REQUEST_VBLANK}halt\nld a, $3C\nld b, b");
    let r = regs_after(&src);
    assert_eq!(r.a, 0x3F);
}

/// `ei` right before a `halt` that sees a pending interrupt: the interrupt is serviced and
/// returns to the `halt` itself (Pan Docs, "halt bug"; SameSuite `ei_delay_halt`).
#[test]
fn ei_then_halt_with_pending_interrupt_returns_to_the_halt() {
    let src = format!(
        "{REQUEST_VBLANK}
        ei
halt_at: halt
        ld b, b
        org $40
        ld b, b
"
    );
    let (mut gb, a) = boot_with_symbols(&src);
    assert!(gb.run_until_ld_b_b(BUDGET));
    let r = gb.regs();
    assert_eq!(r.pc, 0x0041, "handler ran");
    assert_eq!(
        format!("${:04X}", peek16(&gb, r.sp)),
        format!("${:04X}", label(&a, "halt_at")),
        "pushed return address: the halt itself"
    );
}

/// A bugged `halt` followed by `rst`: the pushed return address points at the `rst` itself
/// (Pan Docs, "halt bug").
#[test]
fn halt_bug_before_rst_pushes_the_rst_address() {
    let src = format!(
        "{REQUEST_VBLANK}
        halt
rst_at: rst $08
        ld b, b
        org $08
        ld b, b
"
    );
    let (mut gb, a) = boot_with_symbols(&src);
    assert!(gb.run_until_ld_b_b(BUDGET));
    let r = gb.regs();
    assert_eq!(r.pc, 0x0009, "rst target ran");
    assert_eq!(peek16(&gb, r.sp), label(&a, "rst_at"));
}

/// Timer set to overflow soon: TIMA=$F0 at 262144 Hz (16 T-cycles per tick).
const TIMER_SOON: &str = "
        xor a
        ldh [$0f], a        ; clear IF
        ld a, $04
        ldh [$ff], a        ; IE = timer
        ld a, $F0
        ldh [$05], a        ; TIMA
        ld a, $05
        ldh [$07], a        ; TAC: on, 16 T-cycles per tick
";

#[test]
fn halt_wakes_on_interrupt_and_dispatches() {
    let src = format!(
        "{TIMER_SOON}
        ei
halt_at: halt
after:  ld b, b
        org $50
timer:  ld d, $50
        ld b, b
"
    );
    let (mut gb, a) = boot_with_symbols(&src);
    step_to(&mut gb, label(&a, "halt_at"));
    gb.step();
    assert!(gb.is_halted(), "halted");
    let start = gb.cycles();
    let mut halted_steps = 0;
    loop {
        let took = step_cycles(&mut gb);
        if !gb.is_halted() {
            // The waking step may also dispatch (Pan Docs leaves the exact wake-up timing
            // open, so only the dispatch's 5 M-cycles are required).
            if gb.regs().pc != 0x0050 {
                assert_eq!(gb.regs().pc, label(&a, "after"), "woke up in place");
                assert_eq!(step_cycles(&mut gb), 20, "then dispatches");
            } else {
                assert!(took >= 20, "wake-up and dispatch took {took}");
            }
            break;
        }
        // A halted step advances whole M-cycles up to the next hardware event; here the
        // timer ticks every 16 T-cycles, so never more than that.
        assert!(
            took.is_multiple_of(4) && (4..=16).contains(&took),
            "a halted step took {took} T-cycles"
        );
        halted_steps += 1;
        assert!(halted_steps < 1000, "never woke");
    }
    assert_eq!(gb.regs().pc, 0x0050);
    // It woke because the timer fired, not at once.
    assert!(gb.cycles() - start > 100);
    assert!(gb.run_until_ld_b_b(BUDGET));
    let r = gb.regs();
    assert_eq!(r.d, 0x50, "timer handler ran");
    assert_eq!(peek16(&gb, r.sp), label(&a, "after"), "returns after halt");
}

#[test]
fn halt_with_ime_off_wakes_without_dispatch() {
    let src = format!(
        "{TIMER_SOON}
        di
        halt
        ld d, $AA
        ld b, b
        org $50
        ld d, $50
        ld b, b
"
    );
    let gb = run(&src);
    assert_eq!(gb.regs().d, 0xAA, "continued after halt, no handler");
    assert_eq!(gb.peek(0xFF0F) & 0x04, 0x04, "timer request left pending");
    assert!(!gb.ime());
}

// ---------------------------------------------------------------------------------------------
// Illegal opcodes
// ---------------------------------------------------------------------------------------------

#[test]
fn illegal_opcodes_lock_the_cpu() {
    for op in [
        0xD3u8, 0xDB, 0xDD, 0xE3, 0xE4, 0xEB, 0xEC, 0xED, 0xF4, 0xFC, 0xFD,
    ] {
        let mut gb = boot(&format!("nop\ndb ${op:02X}\nld b, b"));
        to_program_start(&mut gb);
        gb.step(); // nop
        assert!(!gb.is_locked());
        gb.step(); // the illegal opcode
        assert!(gb.is_locked(), "${op:02X} locks");
        let regs = gb.regs();
        for _ in 0..100 {
            gb.step();
        }
        assert_eq!(gb.regs(), regs, "${op:02X}: nothing moves after the lock");
        assert!(gb.is_locked());
        assert!(
            !gb.run_until_ld_b_b(10_000),
            "${op:02X}: never reaches ld b, b"
        );
    }
}
