//! Unit tests of the assembler: every opcode's encoding, labels, expressions, directives,
//! errors, and cartridge images.

use super::*;

/// Every legal base opcode except the $CB prefix, in opcode order, written from the opcode table
/// (Pan Docs, gbdev opcode table). Each line is assembled alone at $0000, so `jr $07` is offset
/// +5.
const BASE: &[(&str, &[u8])] = &[
    ("nop", &[0x00]),
    ("ld bc, $1234", &[0x01, 0x34, 0x12]),
    ("ld [bc], a", &[0x02]),
    ("inc bc", &[0x03]),
    ("inc b", &[0x04]),
    ("dec b", &[0x05]),
    ("ld b, $12", &[0x06, 0x12]),
    ("rlca", &[0x07]),
    ("ld [$1234], sp", &[0x08, 0x34, 0x12]),
    ("add hl, bc", &[0x09]),
    ("ld a, [bc]", &[0x0A]),
    ("dec bc", &[0x0B]),
    ("inc c", &[0x0C]),
    ("dec c", &[0x0D]),
    ("ld c, $12", &[0x0E, 0x12]),
    ("rrca", &[0x0F]),
    ("stop", &[0x10, 0x00]),
    ("ld de, $1234", &[0x11, 0x34, 0x12]),
    ("ld [de], a", &[0x12]),
    ("inc de", &[0x13]),
    ("inc d", &[0x14]),
    ("dec d", &[0x15]),
    ("ld d, $12", &[0x16, 0x12]),
    ("rla", &[0x17]),
    ("jr $07", &[0x18, 0x05]),
    ("add hl, de", &[0x19]),
    ("ld a, [de]", &[0x1A]),
    ("dec de", &[0x1B]),
    ("inc e", &[0x1C]),
    ("dec e", &[0x1D]),
    ("ld e, $12", &[0x1E, 0x12]),
    ("rra", &[0x1F]),
    ("jr nz, $07", &[0x20, 0x05]),
    ("ld hl, $1234", &[0x21, 0x34, 0x12]),
    ("ld [hl+], a", &[0x22]),
    ("inc hl", &[0x23]),
    ("inc h", &[0x24]),
    ("dec h", &[0x25]),
    ("ld h, $12", &[0x26, 0x12]),
    ("daa", &[0x27]),
    ("jr z, $07", &[0x28, 0x05]),
    ("add hl, hl", &[0x29]),
    ("ld a, [hl+]", &[0x2A]),
    ("dec hl", &[0x2B]),
    ("inc l", &[0x2C]),
    ("dec l", &[0x2D]),
    ("ld l, $12", &[0x2E, 0x12]),
    ("cpl", &[0x2F]),
    ("jr nc, $07", &[0x30, 0x05]),
    ("ld sp, $1234", &[0x31, 0x34, 0x12]),
    ("ld [hl-], a", &[0x32]),
    ("inc sp", &[0x33]),
    ("inc [hl]", &[0x34]),
    ("dec [hl]", &[0x35]),
    ("ld [hl], $12", &[0x36, 0x12]),
    ("scf", &[0x37]),
    ("jr c, $07", &[0x38, 0x05]),
    ("add hl, sp", &[0x39]),
    ("ld a, [hl-]", &[0x3A]),
    ("dec sp", &[0x3B]),
    ("inc a", &[0x3C]),
    ("dec a", &[0x3D]),
    ("ld a, $12", &[0x3E, 0x12]),
    ("ccf", &[0x3F]),
    ("ld b, b", &[0x40]),
    ("ld b, c", &[0x41]),
    ("ld b, d", &[0x42]),
    ("ld b, e", &[0x43]),
    ("ld b, h", &[0x44]),
    ("ld b, l", &[0x45]),
    ("ld b, [hl]", &[0x46]),
    ("ld b, a", &[0x47]),
    ("ld c, b", &[0x48]),
    ("ld c, c", &[0x49]),
    ("ld c, d", &[0x4A]),
    ("ld c, e", &[0x4B]),
    ("ld c, h", &[0x4C]),
    ("ld c, l", &[0x4D]),
    ("ld c, [hl]", &[0x4E]),
    ("ld c, a", &[0x4F]),
    ("ld d, b", &[0x50]),
    ("ld d, c", &[0x51]),
    ("ld d, d", &[0x52]),
    ("ld d, e", &[0x53]),
    ("ld d, h", &[0x54]),
    ("ld d, l", &[0x55]),
    ("ld d, [hl]", &[0x56]),
    ("ld d, a", &[0x57]),
    ("ld e, b", &[0x58]),
    ("ld e, c", &[0x59]),
    ("ld e, d", &[0x5A]),
    ("ld e, e", &[0x5B]),
    ("ld e, h", &[0x5C]),
    ("ld e, l", &[0x5D]),
    ("ld e, [hl]", &[0x5E]),
    ("ld e, a", &[0x5F]),
    ("ld h, b", &[0x60]),
    ("ld h, c", &[0x61]),
    ("ld h, d", &[0x62]),
    ("ld h, e", &[0x63]),
    ("ld h, h", &[0x64]),
    ("ld h, l", &[0x65]),
    ("ld h, [hl]", &[0x66]),
    ("ld h, a", &[0x67]),
    ("ld l, b", &[0x68]),
    ("ld l, c", &[0x69]),
    ("ld l, d", &[0x6A]),
    ("ld l, e", &[0x6B]),
    ("ld l, h", &[0x6C]),
    ("ld l, l", &[0x6D]),
    ("ld l, [hl]", &[0x6E]),
    ("ld l, a", &[0x6F]),
    ("ld [hl], b", &[0x70]),
    ("ld [hl], c", &[0x71]),
    ("ld [hl], d", &[0x72]),
    ("ld [hl], e", &[0x73]),
    ("ld [hl], h", &[0x74]),
    ("ld [hl], l", &[0x75]),
    ("halt", &[0x76]),
    ("ld [hl], a", &[0x77]),
    ("ld a, b", &[0x78]),
    ("ld a, c", &[0x79]),
    ("ld a, d", &[0x7A]),
    ("ld a, e", &[0x7B]),
    ("ld a, h", &[0x7C]),
    ("ld a, l", &[0x7D]),
    ("ld a, [hl]", &[0x7E]),
    ("ld a, a", &[0x7F]),
    ("add a, b", &[0x80]),
    ("add a, c", &[0x81]),
    ("add a, d", &[0x82]),
    ("add a, e", &[0x83]),
    ("add a, h", &[0x84]),
    ("add a, l", &[0x85]),
    ("add a, [hl]", &[0x86]),
    ("add a, a", &[0x87]),
    ("adc a, b", &[0x88]),
    ("adc a, c", &[0x89]),
    ("adc a, d", &[0x8A]),
    ("adc a, e", &[0x8B]),
    ("adc a, h", &[0x8C]),
    ("adc a, l", &[0x8D]),
    ("adc a, [hl]", &[0x8E]),
    ("adc a, a", &[0x8F]),
    ("sub a, b", &[0x90]),
    ("sub a, c", &[0x91]),
    ("sub a, d", &[0x92]),
    ("sub a, e", &[0x93]),
    ("sub a, h", &[0x94]),
    ("sub a, l", &[0x95]),
    ("sub a, [hl]", &[0x96]),
    ("sub a, a", &[0x97]),
    ("sbc a, b", &[0x98]),
    ("sbc a, c", &[0x99]),
    ("sbc a, d", &[0x9A]),
    ("sbc a, e", &[0x9B]),
    ("sbc a, h", &[0x9C]),
    ("sbc a, l", &[0x9D]),
    ("sbc a, [hl]", &[0x9E]),
    ("sbc a, a", &[0x9F]),
    ("and a, b", &[0xA0]),
    ("and a, c", &[0xA1]),
    ("and a, d", &[0xA2]),
    ("and a, e", &[0xA3]),
    ("and a, h", &[0xA4]),
    ("and a, l", &[0xA5]),
    ("and a, [hl]", &[0xA6]),
    ("and a, a", &[0xA7]),
    ("xor a, b", &[0xA8]),
    ("xor a, c", &[0xA9]),
    ("xor a, d", &[0xAA]),
    ("xor a, e", &[0xAB]),
    ("xor a, h", &[0xAC]),
    ("xor a, l", &[0xAD]),
    ("xor a, [hl]", &[0xAE]),
    ("xor a, a", &[0xAF]),
    ("or a, b", &[0xB0]),
    ("or a, c", &[0xB1]),
    ("or a, d", &[0xB2]),
    ("or a, e", &[0xB3]),
    ("or a, h", &[0xB4]),
    ("or a, l", &[0xB5]),
    ("or a, [hl]", &[0xB6]),
    ("or a, a", &[0xB7]),
    ("cp a, b", &[0xB8]),
    ("cp a, c", &[0xB9]),
    ("cp a, d", &[0xBA]),
    ("cp a, e", &[0xBB]),
    ("cp a, h", &[0xBC]),
    ("cp a, l", &[0xBD]),
    ("cp a, [hl]", &[0xBE]),
    ("cp a, a", &[0xBF]),
    ("ret nz", &[0xC0]),
    ("pop bc", &[0xC1]),
    ("jp nz, $1234", &[0xC2, 0x34, 0x12]),
    ("jp $1234", &[0xC3, 0x34, 0x12]),
    ("call nz, $1234", &[0xC4, 0x34, 0x12]),
    ("push bc", &[0xC5]),
    ("add a, $12", &[0xC6, 0x12]),
    ("rst $00", &[0xC7]),
    ("ret z", &[0xC8]),
    ("ret", &[0xC9]),
    ("jp z, $1234", &[0xCA, 0x34, 0x12]),
    ("call z, $1234", &[0xCC, 0x34, 0x12]),
    ("call $1234", &[0xCD, 0x34, 0x12]),
    ("adc a, $12", &[0xCE, 0x12]),
    ("rst $08", &[0xCF]),
    ("ret nc", &[0xD0]),
    ("pop de", &[0xD1]),
    ("jp nc, $1234", &[0xD2, 0x34, 0x12]),
    ("call nc, $1234", &[0xD4, 0x34, 0x12]),
    ("push de", &[0xD5]),
    ("sub a, $12", &[0xD6, 0x12]),
    ("rst $10", &[0xD7]),
    ("ret c", &[0xD8]),
    ("reti", &[0xD9]),
    ("jp c, $1234", &[0xDA, 0x34, 0x12]),
    ("call c, $1234", &[0xDC, 0x34, 0x12]),
    ("sbc a, $12", &[0xDE, 0x12]),
    ("rst $18", &[0xDF]),
    ("ldh [$12], a", &[0xE0, 0x12]),
    ("pop hl", &[0xE1]),
    ("ldh [c], a", &[0xE2]),
    ("push hl", &[0xE5]),
    ("and a, $12", &[0xE6, 0x12]),
    ("rst $20", &[0xE7]),
    ("add sp, $12", &[0xE8, 0x12]),
    ("jp hl", &[0xE9]),
    ("ld [$1234], a", &[0xEA, 0x34, 0x12]),
    ("xor a, $12", &[0xEE, 0x12]),
    ("rst $28", &[0xEF]),
    ("ldh a, [$12]", &[0xF0, 0x12]),
    ("pop af", &[0xF1]),
    ("ldh a, [c]", &[0xF2]),
    ("di", &[0xF3]),
    ("push af", &[0xF5]),
    ("or a, $12", &[0xF6, 0x12]),
    ("rst $30", &[0xF7]),
    ("ld hl, sp+$12", &[0xF8, 0x12]),
    ("ld sp, hl", &[0xF9]),
    ("ld a, [$1234]", &[0xFA, 0x34, 0x12]),
    ("ei", &[0xFB]),
    ("cp a, $12", &[0xFE, 0x12]),
    ("rst $38", &[0xFF]),
];

/// The 11 opcodes the SM83 does not define.
const ILLEGAL: [u8; 11] = [
    0xD3, 0xDB, 0xDD, 0xE3, 0xE4, 0xEB, 0xEC, 0xED, 0xF4, 0xFC, 0xFD,
];

fn asm(src: &str) -> Vec<u8> {
    match assemble(src, 0) {
        Ok(bytes) => bytes,
        Err(e) => panic!("{src:?}: {e}"),
    }
}

fn err(src: &str) -> String {
    match assemble(src, 0) {
        Ok(bytes) => panic!("{src:?} assembled to {bytes:02X?}, expected an error"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn every_base_opcode_encodes_as_in_the_table() {
    for (src, expected) in BASE {
        assert_eq!(asm(src), *expected, "{src}");
        assert_eq!(asm(&src.to_uppercase()), *expected, "{src} in upper case");
    }
}

#[test]
fn base_table_covers_all_245_legal_opcodes() {
    let mut seen = [false; 256];
    for (src, bytes) in BASE {
        assert!(!seen[bytes[0] as usize], "{src}: opcode listed twice");
        seen[bytes[0] as usize] = true;
    }
    seen[0xCB] = true; // the prefix, covered by the CB test
    let missing: Vec<usize> = (0..256).filter(|&op| !seen[op]).collect();
    let illegal: Vec<usize> = ILLEGAL.iter().map(|&op| op as usize).collect();
    assert_eq!(missing, illegal);
    assert_eq!(BASE.len() + 1, 245);
}

#[test]
fn every_cb_opcode_encodes_by_its_structure() {
    let regs = ["b", "c", "d", "e", "h", "l", "[hl]", "a"];
    let shifts = ["rlc", "rrc", "rl", "rr", "sla", "sra", "swap", "srl"];
    for op in 0..=255u8 {
        let r = regs[usize::from(op & 7)];
        let y = (op >> 3) & 7;
        let src = match op >> 6 {
            0 => format!("{} {r}", shifts[usize::from(y)]),
            1 => format!("bit {y}, {r}"),
            2 => format!("res {y}, {r}"),
            _ => format!("set {y}, {r}"),
        };
        assert_eq!(asm(&src), [0xCB, op], "{src}");
        assert_eq!(asm(&src.to_uppercase()), [0xCB, op], "{src} in upper case");
    }
}

#[test]
fn alternative_spellings() {
    let cases: &[(&str, &[u8])] = &[
        ("ld a, (hli)", &[0x2A]),
        ("ld a, (hl+)", &[0x2A]),
        ("ld a, [hli]", &[0x2A]),
        ("ldi a, [hl]", &[0x2A]),
        ("ld (hld), a", &[0x32]),
        ("ldd [hl], a", &[0x32]),
        ("ldd a, [hl]", &[0x3A]),
        ("ldi [hl], a", &[0x22]),
        ("ld a, (bc)", &[0x0A]),
        ("ld (hl), $12", &[0x36, 0x12]),
        ("ld [c], a", &[0xE2]),
        ("ld [$ff00+c], a", &[0xE2]),
        ("ld ($FF00+C), a", &[0xE2]),
        ("ld a, [$ff00+c]", &[0xF2]),
        ("ldh a, [$ff00+c]", &[0xF2]),
        ("ldh a, [$ff44]", &[0xF0, 0x44]),
        ("ldh a, [$44]", &[0xF0, 0x44]),
        ("ld a, [$ff00+$44]", &[0xF0, 0x44]),
        ("ld [$ff00 + 68], a", &[0xE0, 0x44]),
        ("ldh [$ff80], a", &[0xE0, 0x80]),
        ("ld a, [$ff44]", &[0xFA, 0x44, 0xFF]),
        ("ld hl, sp-2", &[0xF8, 0xFE]),
        ("ld hl, sp + 127", &[0xF8, 0x7F]),
        ("ld hl, sp-128", &[0xF8, 0x80]),
        ("ldhl sp, -2", &[0xF8, 0xFE]),
        ("add sp, -1", &[0xE8, 0xFF]),
        ("jp [hl]", &[0xE9]),
        ("jp (hl)", &[0xE9]),
        ("add b", &[0x80]),
        ("sub b", &[0x90]),
        ("cp $12", &[0xFE, 0x12]),
        ("and [hl]", &[0xA6]),
        ("xor a", &[0xAF]),
        ("cpl a", &[0x2F]),
        ("stop 0", &[0x10, 0x00]),
        ("stop", &[0x10, 0x00]),
        ("rst 0", &[0xC7]),
        ("rst 56", &[0xFF]),
        ("LD A, [HL+]", &[0x2A]),
        ("Ld  B ,C", &[0x41]),
        ("ld a, -1", &[0x3E, 0xFF]),
        ("ld bc, -1", &[0x01, 0xFF, 0xFF]),
        ("db $D3", &[0xD3]),
    ];
    for (src, expected) in cases {
        assert_eq!(asm(src), *expected, "{src}");
    }
}

#[test]
fn number_formats() {
    assert_eq!(
        asm("db $1F, 0x1F, %00011111, 0b11111, 31, 0o37, 'A'"),
        [31, 31, 31, 31, 31, 31, 65]
    );
    assert_eq!(
        asm("db -1, -128, 255, %1010_1010"),
        [0xFF, 0x80, 0xFF, 0xAA]
    );
    assert_eq!(
        asm("dw $1234, -2, 65535"),
        [0x34, 0x12, 0xFE, 0xFF, 0xFF, 0xFF]
    );
}

#[test]
fn expressions() {
    assert_eq!(asm("ld a, 2 + 3 * 4"), [0x3E, 14]);
    assert_eq!(asm("ld a, (2 + 3) * 4"), [0x3E, 20]);
    assert_eq!(asm("ld a, 7 % 3"), [0x3E, 1]);
    assert_eq!(asm("ld a, %101 + 1"), [0x3E, 6]);
    assert_eq!(asm("ld a, 1 << 4 | 1"), [0x3E, 0x11]);
    assert_eq!(asm("ld a, $F0 >> 4 & 3"), [0x3E, 3]);
    assert_eq!(asm("ld a, ~$0F & $FF"), [0x3E, 0xF0]);
    assert_eq!(asm("ld a, $FF ^ $0F"), [0x3E, 0xF0]);
    assert_eq!(asm("ld a, -(3 - 5)"), [0x3E, 2]);
    assert_eq!(asm("ld a, 100 / 7"), [0x3E, 14]);
    assert_eq!(
        asm("db low($1234), high($1234), LOW(-1)"),
        [0x34, 0x12, 0xFF]
    );
    // A bracketed operand that is the whole operand is memory.
    assert_eq!(asm("ld a, (2 + 3)"), [0xFA, 5, 0]);
    // `@` is the address of the current statement.
    assert_eq!(asm("nop\njr @"), [0x00, 0x18, 0xFE]);
    assert_eq!(asm("nop\ndw @, @ + 2"), [0x00, 0x01, 0x00, 0x03, 0x00]);
}

#[test]
fn labels_and_forward_references() {
    let src = "
start:
    jp end          ; forward reference
    ld hl, end - start
    db high(end), low(end)
end:
    jr start
";
    let a = assemble_with_symbols(src, 0x150).expect("assembles");
    assert_eq!(
        a.bytes,
        [0xC3, 0x58, 0x01, 0x21, 0x08, 0x00, 0x01, 0x58, 0x18, 0xF6]
    );
    assert_eq!(a.address("start"), Some(0x150));
    assert_eq!(a.address("end"), Some(0x158));
}

#[test]
fn local_labels_are_scoped_to_the_previous_global() {
    let src = "
first:
.loop:
    dec b
    jr nz, .loop
second:
    nop
.loop:
    jr .loop
    jp first.loop
    jr .done
.done::
";
    let a = assemble_with_symbols(src, 0).expect("assembles");
    assert_eq!(a.address("first.loop"), Some(0));
    assert_eq!(a.address("second.loop"), Some(4));
    assert_eq!(a.address("second.done"), Some(11));
    assert_eq!(
        a.bytes,
        [
            0x05, 0x20, 0xFD, 0x00, 0x18, 0xFE, 0xC3, 0x00, 0x00, 0x18, 0x00
        ]
    );
}

#[test]
fn constants() {
    let src = "
COUNT equ 5
def NEXT equ COUNT + 1
    LAST = NEXT * 2
    ld a, COUNT
    ld b, NEXT
    ld c, LAST
    ld d, LATER   ; constants may be used before their definition
LATER equ $42
";
    assert_eq!(asm(src), [0x3E, 5, 0x06, 6, 0x0E, 12, 0x16, 0x42]);
}

#[test]
fn data_directives() {
    assert_eq!(asm("db \"AB\", 0, \"\\n\""), [0x41, 0x42, 0x00, 0x0A]);
    assert_eq!(asm("ds 3, $AA\nds 2"), [0xAA, 0xAA, 0xAA, 0x00, 0x00]);
    assert_eq!(asm("N equ 2\nds N * 2, 1"), [1, 1, 1, 1]);
    assert_eq!(
        asm("db 1 ; comment with \"quote\"\n; only a comment\n\ndb 2"),
        [1, 2]
    );
    assert_eq!(asm("db \"a;b\""), [b'a', b';', b'b']);
}

#[test]
fn org_moves_forward_and_backward_without_overlap() {
    assert_eq!(
        assemble("nop\norg $105\nnop", 0x100).expect("assembles"),
        [0, 0, 0, 0, 0, 0]
    );
    assert_eq!(
        assemble("org $104\ndb 4\norg $101\ndb 1", 0x100).expect("assembles"),
        [0, 1, 0, 0, 4]
    );
}

#[test]
fn ram_sections_reserve_addresses() {
    let src = "
section \"vars\", wram0[$c000]
counter: ds 1
buffer:  ds 16
section \"hram\", HRAM
fast: ds 2
section \"code\", rom0
    ld a, [buffer]
    ldh [fast], a
section \"more vars\", wram0
after: ds 1
";
    let a = assemble_with_symbols(src, 0x150).expect("assembles");
    assert_eq!(a.address("counter"), Some(0xC000));
    assert_eq!(a.address("buffer"), Some(0xC001));
    assert_eq!(a.address("fast"), Some(0xFF80));
    assert_eq!(a.address("after"), Some(0xC011));
    assert_eq!(a.bytes, [0xFA, 0x01, 0xC0, 0xE0, 0x80]);
}

#[test]
fn error_messages_carry_line_numbers() {
    assert_eq!(err("nop\n\nlb a, 1"), "line 3: unknown mnemonic 'lb'");
    assert_eq!(
        err("back:\nds 198\njr back"),
        "line 3: jr target out of range (-200)"
    );
    assert_eq!(
        err("nop\njr far\nds 200\nfar:"),
        "line 2: jr target out of range (200)"
    );
    assert_eq!(err("nop\njp loop"), "line 2: undefined label 'loop'");
    assert_eq!(err("x:\n.a:\ny:\njr .a"), "line 4: undefined label 'y.a'");
    assert_eq!(
        err("ld a, 300"),
        "line 1: value 300 out of 8-bit range (-128..=255)"
    );
    assert_eq!(
        err("add sp, 128"),
        "line 1: value 128 out of signed 8-bit range (-128..=127)"
    );
    assert_eq!(
        err("ld [hl], [hl]"),
        "line 1: 'ld [hl], [hl]' does not exist (that opcode is halt)"
    );
    assert_eq!(err("a1:\na1:"), "line 2: duplicate label 'a1'");
    assert_eq!(err("bit 8, a"), "line 1: bit number 8 out of range (0..=7)");
    assert_eq!(
        err("rst $39"),
        "line 1: invalid rst vector $39 (must be $00, $08, … $38)"
    );
    assert_eq!(
        err("ld b, [de]"),
        "line 1: invalid operands for 'ld': b, [de]"
    );
    assert_eq!(err("push sp"), "line 1: invalid operands for 'push': sp");
    assert_eq!(err("nop nop"), "line 1: invalid operands for 'nop': nop");
    assert_eq!(err("db \"abc"), "line 1: unterminated string");
    assert_eq!(err("ld a, 12ab"), "line 1: invalid number '12ab'");
    assert_eq!(err("ld a, 1 +"), "line 1: expression ends too early");
    assert_eq!(
        err("ld a, b + 1"),
        "line 1: register 'b' cannot be used in an expression"
    );
    assert_eq!(
        err("a: nop"),
        "line 1: 'a' is a reserved word and cannot be a label"
    );
    assert_eq!(err("ld a, 1/0"), "line 1: division by zero");
    assert_eq!(
        err("ds later\nlater:"),
        "line 1: ds count must not use labels defined later"
    );
    assert_eq!(
        err("org $10\nnop\norg $10\nnop"),
        "line 4: overlaps bytes already placed at $0010"
    );
}

#[test]
fn errors_below_origin_and_in_ram() {
    let e = assemble("org $ff\nnop", 0x100).expect_err("below origin");
    assert_eq!(
        e.to_string(),
        "line 2: address $00FF is below the origin $0100"
    );
    let e = assemble("section \"v\", wram0\nnop", 0).expect_err("ram");
    assert_eq!(
        e,
        AsmError {
            line: 2,
            message: "cannot emit bytes in a RAM section (use ds to reserve space)".to_string()
        }
    );
    let e = assemble("section \"v\", wram0[$8000]", 0).expect_err("range");
    assert_eq!(
        e.to_string(),
        "line 1: section address $8000 outside Wram0 ($C000-$CFFF)"
    );
}

/// The header checksum, written differently from the builder: `-(sum + 25) mod 256`.
fn independent_header_checksum(rom: &[u8]) -> u8 {
    let sum: u32 = rom[0x134..=0x14C].iter().map(|&b| u32::from(b)).sum();
    ((256 - (sum + 25) % 256) % 256) as u8
}

#[test]
fn rom_header_is_valid() {
    let rom = rom("ld b, b").expect("builds");
    assert_eq!(rom.len(), 0x8000);
    assert_eq!(&rom[0x100..0x104], [0x00, 0xC3, 0x50, 0x01]);
    assert_eq!(rom[0x104..0x134], rom::NINTENDO_LOGO);
    // Spot check against Pan Docs ("The Cartridge Header").
    assert_eq!(&rom[0x104..0x108], [0xCE, 0xED, 0x66, 0x66]);
    assert_eq!(&rom[0x130..0x134], [0xBB, 0xB9, 0x33, 0x3E]);
    assert_eq!(&rom[0x134..0x13F], b"GBHOST TEST");
    assert_eq!(rom[0x147], 0x00);
    assert_eq!(rom[0x148], 0x00);
    assert_eq!(rom[0x149], 0x00);
    assert_eq!(rom[0x150], 0x40);
    assert_eq!(rom[0x151], 0xFF, "unused space is padded with $FF");
    assert_eq!(rom[0x14D], independent_header_checksum(&rom));
    let sum = rom
        .iter()
        .enumerate()
        .filter(|(i, _)| !(0x14E..=0x14F).contains(i))
        .map(|(_, &b)| u64::from(b))
        .sum::<u64>();
    assert_eq!(
        u64::from(u16::from_be_bytes([rom[0x14E], rom[0x14F]])),
        sum % 0x10000
    );
}

#[test]
fn rom_builder_options() {
    let rom = RomBuilder::new()
        .title("BANKS")
        .cartridge_type(0x03)
        .rom_banks(8)
        .ram_size_code(0x02)
        .program(
            "section \"b5\", romx[$4000], bank[5]\ndb $55\nsection \"b1\", romx[$4001]\ndb $11",
        )
        .build()
        .expect("builds");
    assert_eq!(rom.len(), 8 * 0x4000);
    assert_eq!(&rom[0x134..0x13A], b"BANKS\0");
    assert_eq!(rom[0x147], 0x03);
    assert_eq!(rom[0x148], 0x02);
    assert_eq!(rom[0x149], 0x02);
    assert_eq!(rom[5 * 0x4000], 0x55);
    assert_eq!(rom[0x4001], 0x11);
    assert_eq!(rom[0x14D], independent_header_checksum(&rom));
}

#[test]
fn rom_program_can_place_vectors() {
    let a = RomBuilder::new()
        .program("main: ei\n org $40\nvblank: reti\n org 0\n rst0: jp main\n")
        .build_with_symbols()
        .expect("builds");
    assert_eq!(a.address("main"), Some(0x150));
    assert_eq!(a.bytes[0x150], 0xFB);
    assert_eq!(a.bytes[0x40], 0xD9);
    assert_eq!(&a.bytes[0..3], [0xC3, 0x50, 0x01]);
}

#[test]
fn rom_builder_errors() {
    let e = RomBuilder::new()
        .rom_banks(3)
        .build()
        .expect_err("bad banks");
    assert_eq!(e.line, 0);
    let e = RomBuilder::new()
        .title("THIS TITLE IS TOO LONG")
        .build()
        .expect_err("long title");
    assert_eq!(e.line, 0);
    let e = rom("nop\norg $14F\nnop").expect_err("header overlap");
    assert_eq!(
        e.to_string(),
        "line 3: overlaps the cartridge header ($0100-$014F)"
    );
    let e = rom("section \"x\", romx[$7FFF], bank[1]\ndw 0").expect_err("bank overflow");
    assert_eq!(
        e.to_string(),
        "line 2: ROMX section overflows its bank (past $7FFF)"
    );
    let e = rom("section \"x\", romx[$4000], bank[2]\nnop").expect_err("bank beyond ROM");
    assert_eq!(
        e.to_string(),
        "line 2: address $8000 is outside the ROM (2 banks)"
    );
}

#[test]
fn bad_input_never_panics() {
    let inputs = [
        "",
        "\n\n",
        ":",
        "::",
        "[",
        "]",
        "ld",
        "ld a,",
        "ld ,a",
        "ld a,,b",
        "jr",
        "db",
        "dw ,",
        "ds",
        "org",
        "section",
        "section \"x\"",
        "section \"x\", romx[1]",
        "'",
        "''",
        "'ab'",
        "$",
        "%",
        "0x",
        "0b2",
        "ld a, [",
        "ld a, ]",
        "ld a, ((1)",
        "db low(",
        "x equ",
        "= 3",
        "def",
        "ld hl, sp+",
        "ld hl, sp+[1]",
        "jp hl+1",
        "ld a, [hl+1]",
        "ld a, $ffffffffffffffffff",
        "ld a, 1 << 99",
        "\u{1F600}",
        "ld \u{e9}, 1",
        "bit -1, a",
        "rst -8",
        "jr 1, 2, 3",
    ];
    for src in inputs {
        let _ = assemble(src, 0);
        let _ = assemble(src, 0xFFFF);
        let _ = rom(src);
    }
}
