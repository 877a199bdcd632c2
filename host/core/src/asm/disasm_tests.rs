//! Tests of the disassembler against the assembler: every opcode with edge operands round-trips
//! (disassemble, assemble the text at the same address, same bytes), known listings, illegal
//! opcodes, targets, windows before a PC, and random bytes.

use proptest::prelude::*;

use super::*;

/// Operand bytes worth trying: zero, one, the signed edges, the top.
const EDGES: [u8; 7] = [0x00, 0x01, 0x02, 0x7F, 0x80, 0xFE, 0xFF];

/// Addresses worth decoding at: the bottom and top of the address space (where `jr` wraps),
/// bank edges, the usual entry point.
const ADDRS: [u16; 8] = [
    0x0000, 0x0001, 0x0150, 0x3FFF, 0x7FFE, 0xC000, 0xFF80, 0xFFFD,
];

/// Decodes `bytes` at `addr` and checks that the text assembles back to them there.
fn round_trip(bytes: [u8; 3], addr: u16) -> Instruction {
    let instr = decode_bytes(&bytes, addr, addr).expect("addr is the slice's start");
    let text = instr.text();
    let back = assemble(&text, addr)
        .unwrap_or_else(|e| panic!("'{text}' at ${addr:04X} does not assemble: {e}"));
    assert_eq!(
        back,
        instr.byte_slice(),
        "'{text}' at ${addr:04X} assembles to other bytes"
    );
    instr
}

#[test]
fn every_base_opcode_round_trips_with_edge_operands() {
    let mut seen = std::collections::HashMap::new();
    for opcode in 0..=0xFFu8 {
        if opcode == 0xCB {
            continue;
        }
        for addr in ADDRS {
            for lo in EDGES {
                for hi in EDGES {
                    let instr = round_trip([opcode, lo, hi], addr);
                    assert_eq!(instr.len, instruction_length(opcode), "{opcode:02X}");
                    assert_eq!(
                        instr.is_data(),
                        ILLEGAL_OPCODES.contains(&opcode),
                        "{opcode:02X}: {instr}"
                    );
                    // Different bytes never read the same at one address.
                    let bytes = instr.byte_slice().to_vec();
                    let before = seen.insert((addr, instr.text()), bytes.clone());
                    assert!(before.is_none_or(|b| b == bytes), "{instr}");
                }
            }
        }
    }
}

#[test]
fn every_cb_opcode_round_trips() {
    let mut texts = std::collections::HashSet::new();
    for op in 0..=0xFFu8 {
        for addr in ADDRS {
            let instr = round_trip([0xCB, op, 0x00], addr);
            assert_eq!(instr.len, 2);
            assert!(!instr.is_data());
            texts.insert(instr.text());
        }
    }
    assert_eq!(texts.len(), 256, "each $CB opcode reads differently");
}

#[test]
fn every_operand_value_of_two_byte_instructions_round_trips() {
    for opcode in (0..=0xFFu8).filter(|&op| instruction_length(op) == 2 && op != 0xCB) {
        for n in 0..=0xFFu8 {
            for addr in [0x0000, 0x4000, 0xFFFE] {
                round_trip([opcode, n, 0], addr);
            }
        }
    }
}

#[test]
fn known_spellings() {
    let cases: &[(&[u8], u16, &str)] = &[
        (&[0x00], 0, "nop"),
        (&[0x01, 0x34, 0x12], 0, "ld bc, $1234"),
        (&[0x08, 0x00, 0xC0], 0, "ld [$C000], sp"),
        (&[0x10, 0x00], 0, "stop"),
        (&[0x10, 0x42], 0, "stop $42"),
        (&[0x18, 0xFE], 0x0150, "jr $0150"),
        (&[0x20, 0x05], 0x0150, "jr nz, $0157"),
        (&[0x38, 0x80], 0x0200, "jr c, $0182"),
        (&[0x22], 0, "ld [hl+], a"),
        (&[0x3A], 0, "ld a, [hl-]"),
        (&[0x36, 0x7F], 0, "ld [hl], $7F"),
        (&[0x76], 0, "halt"),
        (&[0x40], 0, "ld b, b"),
        (&[0x7E], 0, "ld a, [hl]"),
        (&[0x86], 0, "add a, [hl]"),
        (&[0x8F], 0, "adc a, a"),
        (&[0x90], 0, "sub b"),
        (&[0x9A], 0, "sbc a, d"),
        (&[0xAF], 0, "xor a"),
        (&[0xFE, 0x90], 0, "cp $90"),
        (&[0xC3, 0x50, 0x01], 0, "jp $0150"),
        (&[0xDA, 0x00, 0x40], 0, "jp c, $4000"),
        (&[0xCD, 0x34, 0x12], 0, "call $1234"),
        (&[0xC4, 0x34, 0x12], 0, "call nz, $1234"),
        (&[0xD8], 0, "ret c"),
        (&[0xD9], 0, "reti"),
        (&[0xF1], 0, "pop af"),
        (&[0xC5], 0, "push bc"),
        (&[0xFF], 0, "rst $38"),
        (&[0xE0, 0x40], 0, "ldh [$FF40], a"),
        (&[0xF0, 0x44], 0, "ldh a, [$FF44]"),
        (&[0xE2], 0, "ldh [c], a"),
        (&[0xF2], 0, "ldh a, [c]"),
        (&[0xE8, 0xFD], 0, "add sp, -$03"),
        (&[0xE8, 0x7F], 0, "add sp, $7F"),
        (&[0xF8, 0x05], 0, "ld hl, sp+$05"),
        (&[0xF8, 0x80], 0, "ld hl, sp-$80"),
        (&[0xE9], 0, "jp hl"),
        (&[0xF9], 0, "ld sp, hl"),
        (&[0xEA, 0x00, 0xC0], 0, "ld [$C000], a"),
        (&[0xFA, 0x10, 0xFF], 0, "ld a, [$FF10]"),
        (&[0xCB, 0x37], 0, "swap a"),
        (&[0xCB, 0x7E], 0, "bit 7, [hl]"),
        (&[0xCB, 0x87], 0, "res 0, a"),
        (&[0xCB, 0xFF], 0, "set 7, a"),
        (&[0xCB, 0x00], 0, "rlc b"),
        (&[0xCB, 0x3E], 0, "srl [hl]"),
    ];
    for &(bytes, addr, text) in cases {
        let instr = decode_bytes(bytes, addr, addr).unwrap();
        assert_eq!(instr.text(), text, "{bytes:02X?}");
        assert_eq!(instr.byte_slice(), bytes, "{text}");
    }
}

#[test]
fn illegal_opcodes_are_data_bytes_the_assembler_takes() {
    for op in ILLEGAL_OPCODES {
        let instr = round_trip([op, 0x12, 0x34], 0x0150);
        assert_eq!(instr.text(), format!("db ${op:02X}"));
        assert_eq!(instr.len, 1);
        assert!(instr.is_data());
        assert_eq!(instr.target, None);
    }
    let illegal = (0..=0xFFu8).filter(|&op| decode(|_| op, 0).is_data());
    assert_eq!(illegal.collect::<Vec<_>>(), ILLEGAL_OPCODES);
}

#[test]
fn a_routine_assembled_then_disassembled_reads_back_line_by_line() {
    let src = "\
Main:
    ld sp, $FFFE
    ld hl, $C000
    ld bc, $0010
.clear:
    xor a
    ld [hl+], a
    dec bc
    ld a, b
    or c
    jr nz, .clear
    ldh a, [$FF44]
    cp $90
    jr c, Main
    call Sub
    jp Main
Sub:
    push af
    swap a
    bit 3, a
    ld [$D000], a
    pop af
    ret";
    let asm = assemble_with_symbols(src, 0x0150).unwrap();
    let lines: Vec<String> = disassemble_bytes(&asm.bytes, 0x0150)
        .iter()
        .map(|i| format!("{:04X} {i}", i.addr))
        .collect();
    let expected = [
        "0150 ld sp, $FFFE",
        "0153 ld hl, $C000",
        "0156 ld bc, $0010",
        "0159 xor a",
        "015A ld [hl+], a",
        "015B dec bc",
        "015C ld a, b",
        "015D or c",
        "015E jr nz, $0159",
        "0160 ldh a, [$FF44]",
        "0162 cp $90",
        "0164 jr c, $0150",
        "0166 call $016C",
        "0169 jp $0150",
        "016C push af",
        "016D swap a",
        "016F bit 3, a",
        "0171 ld [$D000], a",
        "0174 pop af",
        "0175 ret",
    ];
    assert_eq!(lines, expected);
    assert_eq!(asm.address("Main.clear"), Some(0x0159));
    assert_eq!(asm.address("Sub"), Some(0x016C));

    // The listing assembles back to the same bytes.
    let text: Vec<String> = disassemble_bytes(&asm.bytes, 0x0150)
        .iter()
        .map(|i| i.text())
        .collect();
    assert_eq!(assemble(&text.join("\n"), 0x0150).unwrap(), asm.bytes);
}

#[test]
fn targets_name_the_address_and_what_is_done_there() {
    let target = |bytes: &[u8], addr: u16| {
        decode_bytes(bytes, addr, addr)
            .unwrap()
            .target
            .map(|t| (t.addr, t.kind))
    };
    use TargetKind::*;
    assert_eq!(target(&[0xC3, 0x50, 0x01], 0), Some((0x0150, Jump)));
    assert_eq!(target(&[0xCA, 0x00, 0x40], 0), Some((0x4000, Jump)));
    assert_eq!(target(&[0x18, 0xFE], 0x1234), Some((0x1234, Jump)));
    assert_eq!(target(&[0x30, 0x10], 0x1234), Some((0x1246, Jump)));
    assert_eq!(target(&[0xCD, 0x00, 0x20], 0), Some((0x2000, Call)));
    assert_eq!(target(&[0xDC, 0x00, 0x20], 0), Some((0x2000, Call)));
    assert_eq!(target(&[0xEF], 0x4000), Some((0x0028, Call)));
    assert_eq!(target(&[0xFA, 0xA0, 0xC0], 0), Some((0xC0A0, Read)));
    assert_eq!(target(&[0xF0, 0x00], 0), Some((0xFF00, Read)));
    assert_eq!(target(&[0xEA, 0xA0, 0xC0], 0), Some((0xC0A0, Write)));
    assert_eq!(target(&[0xE0, 0x80], 0), Some((0xFF80, Write)));
    assert_eq!(target(&[0x08, 0xF0, 0xDF], 0), Some((0xDFF0, Write)));
    assert_eq!(target(&[0x21, 0x00, 0x98], 0), Some((0x9800, Value)));
    for none in [
        &[0xE9][..],
        &[0xC9],
        &[0x3E, 0x12],
        &[0xE2],
        &[0x7E],
        &[0xCB, 0x11],
    ] {
        assert_eq!(target(none, 0), None, "{none:02X?}");
    }
}

#[test]
fn flow_says_where_the_program_goes() {
    let mut counts = std::collections::HashMap::new();
    for opcode in 0..=0xFFu8 {
        let instr = decode_bytes(&[opcode, 0, 0], 0x0150, 0x0150).unwrap();
        let flow = instr.flow();
        *counts.entry(flow).or_insert(0) += 1;
        let expected = match instr.mnemonic {
            "jp" | "jr" if instr.operands.contains(", ") => Flow::JumpIf,
            "jp" | "jr" => Flow::Jump,
            "call" if instr.operands.contains(", ") => Flow::CallIf,
            "call" | "rst" => Flow::Call,
            "ret" if !instr.operands.is_empty() => Flow::ReturnIf,
            "ret" | "reti" => Flow::Return,
            _ => Flow::Next,
        };
        assert_eq!(flow, expected, "{instr}");
    }
    assert_eq!(counts[&Flow::Jump], 3);
    assert_eq!(counts[&Flow::JumpIf], 8);
    assert_eq!(counts[&Flow::Call], 9);
    assert_eq!(counts[&Flow::CallIf], 4);
    assert_eq!(counts[&Flow::Return], 2);
    assert_eq!(counts[&Flow::ReturnIf], 4);
    // Every CB opcode goes on.
    assert!((0..=0xFFu8).all(|op| decode_bytes(&[0xCB, op], 0, 0).unwrap().flow() == Flow::Next));
}

#[test]
fn window_start_far_back_is_quick_and_exact() {
    // 5,000 `nop`s before pc: the window starts 5,000 bytes back.
    let start = window_start(|_| 0x00, 0x8000, 5000);
    assert_eq!(start, 0x8000 - 5000);
    // More than there is room for: as far back as $0000.
    assert_eq!(window_start(|_| 0x00, 0x0010, 100), 0x0000);
    assert_eq!(window_start(|_| 0x00, 0xFFFF, usize::MAX), 0xFFFF - 0xFFFF);
}

#[test]
fn jr_that_wraps_around_the_address_space_is_written_relative_to_itself() {
    let back = round_trip([0x18, 0x80, 0], 0x0000);
    assert_eq!(back.text(), "jr @-$7E");
    assert_eq!(back.target.unwrap().addr, 0xFF82);
    let ahead = round_trip([0x20, 0x7F, 0], 0xFFF0);
    assert_eq!(ahead.text(), "jr nz, @+$81");
    assert_eq!(ahead.target.unwrap().addr, 0x0071);
    // Right at the edges, still absolute.
    assert_eq!(round_trip([0x18, 0xFE, 0], 0x0000).text(), "jr $0000");
    assert_eq!(round_trip([0x18, 0x00, 0], 0xFFFD).text(), "jr $FFFF");
}

#[test]
fn a_symbol_takes_the_targets_place() {
    let names = |t: &Target| match t.addr {
        0x0150 => Some("Main".to_string()),
        0xC0A0 => Some("wPlayerHP".to_string()),
        0xFF44 => Some("rLY".to_string()),
        _ => None,
    };
    let with = |bytes: &[u8], addr: u16| decode_bytes(bytes, addr, addr).unwrap().text_with(names);
    assert_eq!(with(&[0xC2, 0x50, 0x01], 0), "jp nz, Main");
    assert_eq!(with(&[0x18, 0xFE], 0x0150), "jr Main");
    assert_eq!(with(&[0xEA, 0xA0, 0xC0], 0), "ld [wPlayerHP], a");
    assert_eq!(with(&[0xF0, 0x44], 0), "ldh a, [rLY]");
    assert_eq!(with(&[0xFA, 0xA1, 0xC0], 0), "ld a, [$C0A1]");
    assert_eq!(with(&[0xAF], 0), "xor a");
}

#[test]
fn decode_bytes_outside_or_cut_short() {
    let code = [0xCD, 0x00];
    assert!(decode_bytes(&code, 0x100, 0x0FF).is_none());
    assert!(decode_bytes(&code, 0x100, 0x102).is_none());
    assert!(decode_bytes(&[], 0, 0).is_none());
    let cut = decode_bytes(&code, 0x100, 0x100).unwrap();
    assert_eq!((cut.text(), cut.len), ("db $CD".to_string(), 1));
    assert_eq!(decode_bytes(&code, 0x100, 0x101).unwrap().text(), "nop");
    // A slice reaching $FFFF stops there.
    let top = disassemble_bytes(&[0x00; 4], 0xFFFE);
    assert_eq!(top.len(), 2);
}

#[test]
fn decode_reads_wrap_at_the_top_of_memory() {
    let mut mem = vec![0u8; 0x10000];
    mem[0xFFFF] = 0xC3;
    mem[0x0000] = 0x50;
    mem[0x0001] = 0x01;
    let instr = decode(|a| mem[usize::from(a)], 0xFFFF);
    assert_eq!(
        (instr.text(), instr.next_addr()),
        ("jp $0150".to_string(), 0x0002)
    );
}

#[test]
fn window_start_shows_the_instructions_before_pc() {
    let src = "ld hl, $C000\nld bc, $1234\nld a, [hl+]\ncall $4000\nld [$D000], a\ninc b\nret";
    let code = assemble(src, 0x0200).unwrap();
    let read = |a: u16| {
        a.checked_sub(0x0200)
            .and_then(|o| code.get(usize::from(o)))
            .copied()
            .unwrap_or(0xFF)
    };
    let starts: Vec<u16> = disassemble(read, 0x0200, 7)
        .iter()
        .map(|i| i.addr)
        .collect();
    assert_eq!(
        starts,
        [0x0200, 0x0203, 0x0206, 0x0207, 0x020A, 0x020D, 0x020E]
    );
    for (i, &pc) in starts.iter().enumerate() {
        for before in 0..=i {
            assert_eq!(
                window_start(read, pc, before),
                starts[i - before],
                "pc ${pc:04X}, {before} before"
            );
        }
    }
    // Without a start that decodes onto pc before it, the window starts at pc.
    assert_eq!(window_start(|_| 0xCD, 0x0001, 3), 0x0001);
    assert_eq!(window_start(read, 0x0000, 5), 0x0000);
}

#[test]
fn window_start_prefers_code_to_illegal_bytes() {
    // Illegal bytes everywhere, then `call $D3D3` just before pc: the runs through the
    // illegal bytes land on pc too, but the one clean run (the call alone) is kept.
    let pc = 0x1003;
    let read = |a: u16| match a {
        0x1000 => 0xCD,
        _ => 0xD3,
    };
    assert_eq!(window_start(read, pc, 2), 0x1000);
    assert_eq!(window_start(read, pc, 1), 0x1000);
}

/// At the address space's end every opcode decodes; one that fits assembles back, one that
/// would run past 0xFFFF is refused by the assembler (random addresses rarely land there).
#[test]
fn instructions_at_the_end_of_the_address_space() {
    for addr in [0xFFFDu16, 0xFFFE, 0xFFFF] {
        for op in 0..=255u8 {
            for cb in [0x00u8, 0x37, 0xFF] {
                let bytes = [op, cb, 0x12];
                let instr = decode(|a| bytes[usize::from(a.wrapping_sub(addr)) % 3], addr);
                let assembled = assemble(&instr.text(), addr);
                if u32::from(addr) + u32::from(instr.len) <= 0x1_0000 {
                    assert_eq!(
                        assembled.ok(),
                        Some(instr.byte_slice().to_vec()),
                        "{op:02X} at {addr:04X}"
                    );
                } else {
                    assert!(
                        assembled.is_err(),
                        "{op:02X} at {addr:04X} assembled past 0xFFFF"
                    );
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any bytes at any address decode without a panic, and an instruction's text assembles
    /// back to its bytes there.
    #[test]
    fn random_bytes_decode_and_round_trip(bytes in any::<[u8; 3]>(), addr in any::<u16>()) {
        let instr = decode(|a| bytes[usize::from(a.wrapping_sub(addr)) % 3], addr);
        prop_assert!((1..=3).contains(&instr.len));
        prop_assert_eq!(instr.byte_slice(), &bytes[..usize::from(instr.len)]);
        let assembled = assemble(&instr.text(), addr);
        if u32::from(addr) + u32::from(instr.len) <= 0x1_0000 {
            prop_assert_eq!(assembled.ok(), Some(instr.byte_slice().to_vec()));
        } else {
            // An instruction running past 0xFFFF decodes (the CPU's PC wraps) but is not
            // assembled there: the assembler refuses bytes past the address space's end.
            prop_assert!(assembled.is_err());
        }
    }

    /// Random memory never panics the window search, and the window lands on pc.
    #[test]
    fn random_memory_windows_land_on_pc(
        mem in proptest::collection::vec(any::<u8>(), 64),
        pc in any::<u16>(),
        before in 0usize..8,
    ) {
        let read = |a: u16| mem[usize::from(a) % mem.len()];
        let start = window_start(read, pc, before);
        prop_assert!(start <= pc);
        let mut at = start;
        let mut count = 0;
        while at < pc {
            match at.checked_add(u16::from(decode(read, at).len)) {
                Some(next) => at = next,
                None => break,
            }
            count += 1;
        }
        prop_assert_eq!(at, pc);
        prop_assert!(count <= before);
        let slice = disassemble_bytes(&mem, pc);
        prop_assert!(slice.iter().map(|i| usize::from(i.len)).sum::<usize>() <= mem.len());
    }
}
