//! Decodes one SM83 instruction from memory into the text the assembler reads back.
//!
//! The spelling is the assembler's own (RGBDS-like, lower case), so `disasm` and `asm` agree:
//! assembling an [`Instruction`]'s text at its address gives back its bytes, for every base and
//! `$CB` opcode and every operand. The choices that make that hold:
//!
//! * `stop` is two bytes (`stop` when the second is `$00`, else `stop $nn`);
//! * the high page is `ldh [$FFnn], a` / `ldh a, [$FFnn]`, and `ldh [c], a` / `ldh a, [c]`;
//! * `jr` is written with its absolute target (`jr nz, $0150`), as the assembler takes it; a
//!   target that wraps around the 64 KiB address space (a `jr` near `$0000` or `$FFFF`) is
//!   written relative to the instruction's own address instead (`jr @-$7E`);
//! * signed offsets are signed: `add sp, -$03`, `ld hl, sp+$05`;
//! * the eleven opcodes the SM83 does not have (`$D3 $DB $DD $E3 $E4 $EB $EC $ED $F4 $FC $FD`)
//!   are one data byte, `db $D3`.
//!
//! Memory is read through a closure (`FnMut(u16) -> u8`, addresses wrapping at 16 bits), or
//! from a slice with [`decode_bytes`].

use std::fmt;

/// The 8-bit operands in encoding order (6 is the byte at HL).
const R8: [&str; 8] = ["b", "c", "d", "e", "h", "l", "[hl]", "a"];
/// The 16-bit register pairs of `ld rr, n16`, `inc`, `dec`, `add hl`.
const RP: [&str; 4] = ["bc", "de", "hl", "sp"];
/// The 16-bit register pairs of `push` and `pop`.
const RP_AF: [&str; 4] = ["bc", "de", "hl", "af"];
/// Condition codes in encoding order.
const CC: [&str; 4] = ["nz", "z", "nc", "c"];
/// The eight ALU operations in encoding order.
const ALU: [&str; 8] = ["add", "adc", "sub", "sbc", "and", "xor", "or", "cp"];
/// The eight `$CB` rotates and shifts in encoding order.
const CB_SHIFTS: [&str; 8] = ["rlc", "rrc", "rl", "rr", "sla", "sra", "swap", "srl"];

/// The opcodes the SM83 does not decode (they lock the CPU up).
pub const ILLEGAL_OPCODES: [u8; 11] = [
    0xD3, 0xDB, 0xDD, 0xE3, 0xE4, 0xEB, 0xEC, 0xED, 0xF4, 0xFC, 0xFD,
];

/// What an instruction does with the address in its operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TargetKind {
    /// `jp`, `jp cc`, `jr`, `jr cc`: the program may continue there.
    Jump,
    /// `call`, `call cc`, `rst`: a subroutine there is called.
    Call,
    /// `ld a, [n16]`, `ldh a, [n8]`: the byte there is read.
    Read,
    /// `ld [n16], a`, `ld [n16], sp`, `ldh [n8], a`: the byte (or word) there is written.
    Write,
    /// `ld rr, n16`: a 16-bit value that is often an address (a pointer being set up).
    Value,
}

/// Where the program goes after an instruction, for stepping over calls and out of routines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Flow {
    /// On to the next instruction (everything below, and `halt`, `stop`, data bytes).
    Next,
    /// Always elsewhere: `jp n16`, `jr e8`, `jp hl` (its target is not in the bytes).
    Jump,
    /// Elsewhere or on, by a condition: `jp cc, n16`, `jr cc, e8`.
    JumpIf,
    /// A subroutine, then back to the next instruction: `call n16`, `rst`.
    Call,
    /// A subroutine or on, by a condition: `call cc, n16`.
    CallIf,
    /// Back to the caller: `ret`, `reti`.
    Return,
    /// Back to the caller or on, by a condition: `ret cc`.
    ReturnIf,
}

/// An address an instruction names, with what it does there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Target {
    /// The address (for `jr`, already computed from the offset; for `ldh`, in `$FF00-$FFFF`).
    pub addr: u16,
    /// What the instruction does with it.
    pub kind: TargetKind,
}

/// One decoded instruction (or one data byte, for an illegal opcode).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Instruction {
    /// The address of its first byte.
    pub addr: u16,
    /// Its length in bytes, 1 to 3.
    pub len: u8,
    /// Its bytes; only the first `len` are meaningful, the others are 0.
    pub bytes: [u8; 3],
    /// The mnemonic in lower case (`"jp"`), or `"db"` for a data byte.
    pub mnemonic: &'static str,
    /// The operands as the assembler reads them (`"nz, $0150"`), empty for none.
    pub operands: String,
    /// The address the operands name, if any.
    pub target: Option<Target>,
    /// Where the target's number is in `operands`, so a caller can put a name in its place.
    target_span: Option<(usize, usize)>,
}

impl Instruction {
    /// Whether this is a data byte (an illegal opcode, or an instruction cut short by the end
    /// of a slice) rather than an instruction.
    pub fn is_data(&self) -> bool {
        self.mnemonic == "db"
    }

    /// Where the program goes after it.
    ///
    /// ```
    /// use gb_core::asm::{Flow, decode_bytes};
    ///
    /// let flow = |bytes: &[u8]| decode_bytes(bytes, 0, 0).unwrap().flow();
    /// assert_eq!(flow(&[0xCD, 0x00, 0x40]), Flow::Call);
    /// assert_eq!(flow(&[0xC0]), Flow::ReturnIf);
    /// assert_eq!(flow(&[0x3C]), Flow::Next);
    /// ```
    pub fn flow(&self) -> Flow {
        match self.bytes[0] {
            _ if self.is_data() => Flow::Next,
            0x18 | 0xC3 | 0xE9 => Flow::Jump,
            0x20 | 0x28 | 0x30 | 0x38 | 0xC2 | 0xCA | 0xD2 | 0xDA => Flow::JumpIf,
            0xCD | 0xC7 | 0xCF | 0xD7 | 0xDF | 0xE7 | 0xEF | 0xF7 | 0xFF => Flow::Call,
            0xC4 | 0xCC | 0xD4 | 0xDC => Flow::CallIf,
            0xC9 | 0xD9 => Flow::Return,
            0xC0 | 0xC8 | 0xD0 | 0xD8 => Flow::ReturnIf,
            _ => Flow::Next,
        }
    }

    /// Its bytes, `len` of them.
    pub fn byte_slice(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// The address just after it (wrapping at `$FFFF`).
    pub fn next_addr(&self) -> u16 {
        self.addr.wrapping_add(u16::from(self.len))
    }

    /// The whole text, `"jp nz, $0150"`: the same as `to_string()`.
    pub fn text(&self) -> String {
        self.to_string()
    }

    /// The text with the target's number replaced by what `name` gives for it (a symbol,
    /// `Main.loop`), or unchanged when it gives `None`.
    ///
    /// ```
    /// use gb_core::asm::decode_bytes;
    ///
    /// let jp = decode_bytes(&[0xC3, 0x50, 0x01], 0x0100, 0x0100).unwrap();
    /// let text = jp.text_with(|t| (t.addr == 0x0150).then(|| "Main".to_string()));
    /// assert_eq!(text, "jp Main");
    /// ```
    pub fn text_with(&self, name: impl FnOnce(&Target) -> Option<String>) -> String {
        let (Some(target), Some((start, end))) = (&self.target, self.target_span) else {
            return self.text();
        };
        match name(target) {
            Some(name) => format!(
                "{} {}{name}{}",
                self.mnemonic,
                &self.operands[..start],
                &self.operands[end..]
            ),
            None => self.text(),
        }
    }
}

impl fmt::Display for Instruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.operands.is_empty() {
            f.write_str(self.mnemonic)
        } else {
            write!(f, "{} {}", self.mnemonic, self.operands)
        }
    }
}

/// Operands being put together, remembering where the target's number goes.
struct Ops {
    text: String,
    target: Option<Target>,
    span: Option<(usize, usize)>,
}

impl Ops {
    fn new() -> Self {
        Self {
            text: String::new(),
            target: None,
            span: None,
        }
    }

    fn push(mut self, s: &str) -> Self {
        self.text.push_str(s);
        self
    }

    /// Appends the target's text (`number`) and records it.
    fn target(mut self, number: &str, addr: u16, kind: TargetKind) -> Self {
        let start = self.text.len();
        self.text.push_str(number);
        self.span = Some((start, self.text.len()));
        self.target = Some(Target { addr, kind });
        self
    }
}

fn hex8(v: u8) -> String {
    format!("${v:02X}")
}

fn hex16(v: u16) -> String {
    format!("${v:04X}")
}

/// A signed byte as `$05` or `-$03`.
fn signed8(v: u8) -> String {
    let v = v as i8;
    if v < 0 {
        format!("-${:02X}", v.unsigned_abs())
    } else {
        format!("${v:02X}")
    }
}

/// How many bytes the instruction starting with `opcode` takes.
pub fn instruction_length(opcode: u8) -> u8 {
    match opcode {
        0x01 | 0x11 | 0x21 | 0x31 | 0x08 | 0xC2 | 0xC3 | 0xC4 | 0xCA | 0xCC | 0xCD | 0xD2
        | 0xD4 | 0xDA | 0xDC | 0xEA | 0xFA => 3,
        0x06 | 0x0E | 0x16 | 0x1E | 0x26 | 0x2E | 0x36 | 0x3E | 0x10 | 0x18 | 0x20 | 0x28
        | 0x30 | 0x38 | 0xC6 | 0xCE | 0xD6 | 0xDE | 0xE6 | 0xEE | 0xF6 | 0xFE | 0xCB | 0xE0
        | 0xF0 | 0xE8 | 0xF8 => 2,
        _ => 1,
    }
}

/// Decodes the instruction at `addr`, reading memory through `read` (addresses wrap at
/// `$FFFF`). Every byte decodes to something: an illegal opcode is `db $nn`.
///
/// ```
/// use gb_core::asm::{TargetKind, decode};
///
/// let rom = [0x20, 0xFB]; // at $0150: jr nz, back 5 bytes from $0152
/// let i = decode(|a| rom[usize::from(a - 0x0150)], 0x0150);
/// assert_eq!(i.text(), "jr nz, $014D");
/// assert_eq!(i.len, 2);
/// assert_eq!(i.target.map(|t| (t.addr, t.kind)), Some((0x014D, TargetKind::Jump)));
/// ```
pub fn decode(mut read: impl FnMut(u16) -> u8, addr: u16) -> Instruction {
    let opcode = read(addr);
    let len = instruction_length(opcode);
    let mut bytes = [opcode, 0, 0];
    for i in 1..len {
        bytes[usize::from(i)] = read(addr.wrapping_add(u16::from(i)));
    }
    decode_full(addr, bytes, len)
}

/// Decodes the instruction at `addr` from `bytes`, which hold memory from address `base` on.
/// `None` when `addr` is not in the slice; an instruction the slice cuts short is one data
/// byte (`db $CD`).
///
/// ```
/// use gb_core::asm::decode_bytes;
///
/// let code = [0x3E, 0x10, 0xCD];
/// assert_eq!(decode_bytes(&code, 0xC000, 0xC000).unwrap().text(), "ld a, $10");
/// assert_eq!(decode_bytes(&code, 0xC000, 0xC002).unwrap().text(), "db $CD");
/// assert!(decode_bytes(&code, 0xC000, 0xC003).is_none());
/// ```
pub fn decode_bytes(bytes: &[u8], base: u16, addr: u16) -> Option<Instruction> {
    let offset = usize::from(addr.checked_sub(base)?);
    let opcode = *bytes.get(offset)?;
    let len = instruction_length(opcode);
    match bytes.get(offset..offset + usize::from(len)) {
        Some(found) => {
            let mut buf = [0; 3];
            buf[..found.len()].copy_from_slice(found);
            Some(decode_full(addr, buf, len))
        }
        None => Some(data_byte(addr, opcode)),
    }
}

/// A one-byte `db`.
fn data_byte(addr: u16, byte: u8) -> Instruction {
    Instruction {
        addr,
        len: 1,
        bytes: [byte, 0, 0],
        mnemonic: "db",
        operands: hex8(byte),
        target: None,
        target_span: None,
    }
}

/// Decodes an instruction whose `len` bytes are all in `bytes`.
fn decode_full(addr: u16, bytes: [u8; 3], len: u8) -> Instruction {
    let [opcode, n, hi] = bytes;
    let n16 = u16::from_le_bytes([n, hi]);
    let y = usize::from(opcode >> 3 & 7);
    let z = usize::from(opcode & 7);
    let p = y >> 1;
    let o = Ops::new;
    let (mnemonic, ops): (&'static str, Ops) = match opcode {
        0x00 => ("nop", o()),
        0x08 => (
            "ld",
            o().push("[")
                .target(&hex16(n16), n16, TargetKind::Write)
                .push("], sp"),
        ),
        0x10 if n == 0 => ("stop", o()),
        0x10 => ("stop", o().push(&hex8(n))),
        0x18 => ("jr", jr_target(o(), addr, n)),
        0x20 | 0x28 | 0x30 | 0x38 => ("jr", jr_target(o().push(CC[y - 4]).push(", "), addr, n)),
        0x01 | 0x11 | 0x21 | 0x31 => (
            "ld",
            o().push(RP[p])
                .push(", ")
                .target(&hex16(n16), n16, TargetKind::Value),
        ),
        0x09 | 0x19 | 0x29 | 0x39 => ("add", o().push("hl, ").push(RP[p])),
        0x02 => ("ld", o().push("[bc], a")),
        0x12 => ("ld", o().push("[de], a")),
        0x22 => ("ld", o().push("[hl+], a")),
        0x32 => ("ld", o().push("[hl-], a")),
        0x0A => ("ld", o().push("a, [bc]")),
        0x1A => ("ld", o().push("a, [de]")),
        0x2A => ("ld", o().push("a, [hl+]")),
        0x3A => ("ld", o().push("a, [hl-]")),
        0x03 | 0x13 | 0x23 | 0x33 => ("inc", o().push(RP[p])),
        0x0B | 0x1B | 0x2B | 0x3B => ("dec", o().push(RP[p])),
        0x00..=0x3F if z == 4 => ("inc", o().push(R8[y])),
        0x00..=0x3F if z == 5 => ("dec", o().push(R8[y])),
        0x00..=0x3F if z == 6 => ("ld", o().push(R8[y]).push(", ").push(&hex8(n))),
        0x07 => ("rlca", o()),
        0x0F => ("rrca", o()),
        0x17 => ("rla", o()),
        0x1F => ("rra", o()),
        0x27 => ("daa", o()),
        0x2F => ("cpl", o()),
        0x37 => ("scf", o()),
        0x3F => ("ccf", o()),
        0x76 => ("halt", o()),
        0x40..=0x7F => ("ld", o().push(R8[y]).push(", ").push(R8[z])),
        0x80..=0xBF => alu(y, R8[z]),
        0xC0 | 0xC8 | 0xD0 | 0xD8 => ("ret", o().push(CC[y])),
        0xC9 => ("ret", o()),
        0xD9 => ("reti", o()),
        0xC1 | 0xD1 | 0xE1 | 0xF1 => ("pop", o().push(RP_AF[p])),
        0xC5 | 0xD5 | 0xE5 | 0xF5 => ("push", o().push(RP_AF[p])),
        0xC2 | 0xCA | 0xD2 | 0xDA => (
            "jp",
            o().push(CC[y])
                .push(", ")
                .target(&hex16(n16), n16, TargetKind::Jump),
        ),
        0xC3 => ("jp", o().target(&hex16(n16), n16, TargetKind::Jump)),
        0xC4 | 0xCC | 0xD4 | 0xDC => (
            "call",
            o().push(CC[y])
                .push(", ")
                .target(&hex16(n16), n16, TargetKind::Call),
        ),
        0xCD => ("call", o().target(&hex16(n16), n16, TargetKind::Call)),
        0xC6 | 0xCE | 0xD6 | 0xDE | 0xE6 | 0xEE | 0xF6 | 0xFE => alu(y, &hex8(n)),
        0xC7 | 0xCF | 0xD7 | 0xDF | 0xE7 | 0xEF | 0xF7 | 0xFF => {
            let vector = opcode & 0x38;
            (
                "rst",
                o().target(&hex8(vector), u16::from(vector), TargetKind::Call),
            )
        }
        0xCB => cb(n),
        0xE0 => {
            let at = 0xFF00 | u16::from(n);
            (
                "ldh",
                o().push("[")
                    .target(&hex16(at), at, TargetKind::Write)
                    .push("], a"),
            )
        }
        0xF0 => {
            let at = 0xFF00 | u16::from(n);
            (
                "ldh",
                o().push("a, [")
                    .target(&hex16(at), at, TargetKind::Read)
                    .push("]"),
            )
        }
        0xE2 => ("ldh", o().push("[c], a")),
        0xF2 => ("ldh", o().push("a, [c]")),
        0xE8 => ("add", o().push("sp, ").push(&signed8(n))),
        0xF8 => {
            let off = signed8(n);
            let sep = if off.starts_with('-') { "" } else { "+" };
            ("ld", o().push("hl, sp").push(sep).push(&off))
        }
        0xE9 => ("jp", o().push("hl")),
        0xF9 => ("ld", o().push("sp, hl")),
        0xEA => (
            "ld",
            o().push("[")
                .target(&hex16(n16), n16, TargetKind::Write)
                .push("], a"),
        ),
        0xFA => (
            "ld",
            o().push("a, [")
                .target(&hex16(n16), n16, TargetKind::Read)
                .push("]"),
        ),
        0xF3 => ("di", o()),
        0xFB => ("ei", o()),
        // The eleven illegal opcodes, and nothing else, are left.
        _ => return data_byte(addr, opcode),
    };
    Instruction {
        addr,
        len,
        bytes,
        mnemonic,
        operands: ops.text,
        target: ops.target,
        target_span: ops.span,
    }
}

/// An ALU operation on `a` with `src`: `add a, b`, `adc a, b`, `sbc a, b` name `a`, the others
/// do not (`sub b`, `cp $10`), as RGBDS code is usually written.
fn alu(op: usize, src: &str) -> (&'static str, Ops) {
    let ops = match op {
        0 | 1 | 3 => Ops::new().push("a, ").push(src),
        _ => Ops::new().push(src),
    };
    (ALU[op], ops)
}

/// A `$CB`-prefixed instruction from its second byte.
fn cb(op: u8) -> (&'static str, Ops) {
    let y = usize::from(op >> 3 & 7);
    let r = R8[usize::from(op & 7)];
    let bit = |m| (m, Ops::new().push(&y.to_string()).push(", ").push(r));
    match op >> 6 {
        0 => (CB_SHIFTS[y], Ops::new().push(r)),
        1 => bit("bit"),
        2 => bit("res"),
        _ => bit("set"),
    }
}

/// A `jr`'s target after `ops` (which holds the condition, if any): the absolute address, or
/// `@±n` (relative to the instruction) when it wraps around the address space.
fn jr_target(ops: Ops, addr: u16, offset: u8) -> Ops {
    let delta = i32::from(offset as i8) + 2;
    let to = i32::from(addr) + delta;
    let wrapped = to as u16;
    if (0..=0xFFFF).contains(&to) {
        ops.target(&hex16(wrapped), wrapped, TargetKind::Jump)
    } else {
        let text = if delta < 0 {
            format!("@-${:02X}", delta.unsigned_abs())
        } else {
            format!("@+${delta:02X}")
        };
        ops.target(&text, wrapped, TargetKind::Jump)
    }
}
