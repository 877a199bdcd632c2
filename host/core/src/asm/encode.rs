//! Encodes one SM83 instruction from its mnemonic and operands.
//!
//! The form chosen depends only on the operands' syntax, never on their values, so the first
//! pass knows every instruction's size before labels are resolved.

use super::parse::{Expr, Operand, R16};

/// Evaluates an expression: `Ok(None)` when it is not known yet (a forward reference in the
/// first pass).
pub(crate) type Eval<'a> = dyn FnMut(&Expr) -> Result<Option<i64>, String> + 'a;

/// The eight ALU operations in encoding order (`add` = 0 … `cp` = 7).
const ALU: [&str; 8] = ["add", "adc", "sub", "sbc", "and", "xor", "or", "cp"];
/// The eight CB rotate/shift operations in encoding order.
const CB_SHIFTS: [&str; 8] = ["rlc", "rrc", "rl", "rr", "sla", "sra", "swap", "srl"];

/// Index 0-7 of an 8-bit operand in the `r` field (6 = `[hl]`).
fn r8(op: &Operand) -> Option<u8> {
    match op {
        Operand::R8(r) => Some(*r),
        Operand::MemHl => Some(6),
        _ => None,
    }
}

/// Condition code 0-3 (nz, z, nc, c).
fn cond(op: &Operand) -> Option<u8> {
    match op {
        Operand::Cond(cc) => Some(*cc),
        Operand::R8(1) => Some(3),
        _ => None,
    }
}

/// Index of bc/de/hl/sp in the `rr` field.
fn rr_sp(op: &Operand) -> Option<u8> {
    match op {
        Operand::R16(R16::Bc) => Some(0),
        Operand::R16(R16::De) => Some(1),
        Operand::R16(R16::Hl) => Some(2),
        Operand::R16(R16::Sp) => Some(3),
        _ => None,
    }
}

/// Index of bc/de/hl/af in the `rr` field of push/pop.
fn rr_af(op: &Operand) -> Option<u8> {
    match op {
        Operand::R16(R16::Af) => Some(3),
        Operand::R16(R16::Sp) => None,
        other => rr_sp(other),
    }
}

const A: Operand = Operand::R8(7);

fn imm8(v: Option<i64>) -> Result<u8, String> {
    match v {
        None => Ok(0),
        Some(v @ -128..=255) => Ok(v as u8),
        Some(v) => Err(format!("value {v} out of 8-bit range (-128..=255)")),
    }
}

fn simm8(v: Option<i64>) -> Result<u8, String> {
    match v {
        None => Ok(0),
        Some(v @ -128..=127) => Ok(v as i8 as u8),
        Some(v) => Err(format!("value {v} out of signed 8-bit range (-128..=127)")),
    }
}

fn imm16(v: Option<i64>) -> Result<[u8; 2], String> {
    match v {
        None => Ok([0, 0]),
        Some(v @ -32768..=65535) => Ok((v as u16).to_le_bytes()),
        Some(v) => Err(format!("value {v} out of 16-bit range (-32768..=65535)")),
    }
}

/// The low byte of a high-page address: accepts $FF00-$FFFF, or $00-$FF as the offset itself.
fn high_page(v: Option<i64>) -> Result<u8, String> {
    match v {
        None => Ok(0),
        Some(v @ 0xFF00..=0xFFFF) => Ok((v & 0xFF) as u8),
        Some(v @ 0..=0xFF) => Ok(v as u8),
        Some(v) => Err(format!("ldh address ${v:X} not in $FF00-$FFFF")),
    }
}

/// Encodes an instruction at address `pc`. `Ok(None)` means "not an instruction mnemonic".
pub(crate) fn encode(
    mnemonic: &str,
    ops: &[Operand],
    pc: u32,
    eval: &mut Eval<'_>,
) -> Result<Option<Vec<u8>>, String> {
    let bytes = match (mnemonic, ops) {
        ("nop", []) => vec![0x00],
        ("halt", []) => vec![0x76],
        ("di", []) => vec![0xF3],
        ("ei", []) => vec![0xFB],
        ("reti", []) => vec![0xD9],
        ("rlca", []) => vec![0x07],
        ("rrca", []) => vec![0x0F],
        ("rla", []) => vec![0x17],
        ("rra", []) => vec![0x1F],
        ("daa", []) => vec![0x27],
        ("cpl", []) | ("cpl", [A]) => vec![0x2F],
        ("scf", []) => vec![0x37],
        ("ccf", []) => vec![0x3F],
        ("stop", []) => vec![0x10, 0x00],
        ("stop", [Operand::Imm(e)]) => vec![0x10, imm8(eval(e)?)?],

        ("ret", []) => vec![0xC9],
        ("ret", [c]) if cond(c).is_some() => vec![0xC0 | cond(c).unwrap_or(0) << 3],
        ("jp", [Operand::Imm(e)]) => op16(0xC3, eval(e)?)?,
        ("jp", [c, Operand::Imm(e)]) if cond(c).is_some() => {
            op16(0xC2 | cond(c).unwrap_or(0) << 3, eval(e)?)?
        }
        ("jp", [Operand::R16(R16::Hl) | Operand::MemHl]) => vec![0xE9],
        ("call", [Operand::Imm(e)]) => op16(0xCD, eval(e)?)?,
        ("call", [c, Operand::Imm(e)]) if cond(c).is_some() => {
            op16(0xC4 | cond(c).unwrap_or(0) << 3, eval(e)?)?
        }
        ("jr", [Operand::Imm(e)]) => vec![0x18, jr_offset(eval(e)?, pc)?],
        ("jr", [c, Operand::Imm(e)]) if cond(c).is_some() => {
            vec![0x20 | cond(c).unwrap_or(0) << 3, jr_offset(eval(e)?, pc)?]
        }
        ("rst", [Operand::Imm(e)]) => match eval(e)? {
            None => vec![0xC7],
            Some(v) if (0..=0x38).contains(&v) && v % 8 == 0 => vec![0xC7 | v as u8],
            Some(v) => {
                return Err(format!(
                    "invalid rst vector ${v:X} (must be $00, $08, … $38)"
                ));
            }
        },

        ("push", [r]) if rr_af(r).is_some() => vec![0xC5 | rr_af(r).unwrap_or(0) << 4],
        ("pop", [r]) if rr_af(r).is_some() => vec![0xC1 | rr_af(r).unwrap_or(0) << 4],

        ("inc", [r]) if r8(r).is_some() => vec![0x04 | r8(r).unwrap_or(0) << 3],
        ("dec", [r]) if r8(r).is_some() => vec![0x05 | r8(r).unwrap_or(0) << 3],
        ("inc", [r]) if rr_sp(r).is_some() => vec![0x03 | rr_sp(r).unwrap_or(0) << 4],
        ("dec", [r]) if rr_sp(r).is_some() => vec![0x0B | rr_sp(r).unwrap_or(0) << 4],

        ("add", [Operand::R16(R16::Hl), r]) if rr_sp(r).is_some() => {
            vec![0x09 | rr_sp(r).unwrap_or(0) << 4]
        }
        ("add", [Operand::R16(R16::Sp), Operand::Imm(e)]) => vec![0xE8, simm8(eval(e)?)?],
        (m, [A, src]) | (m, [src]) if ALU.contains(&m) => {
            let op = ALU.iter().position(|x| *x == m).unwrap_or(0) as u8;
            match src {
                Operand::Imm(e) => vec![0xC6 | op << 3, imm8(eval(e)?)?],
                s if r8(s).is_some() => vec![0x80 | op << 3 | r8(s).unwrap_or(0)],
                _ => return Err(invalid(m)),
            }
        }

        (m, [r]) if CB_SHIFTS.contains(&m) => {
            let op = CB_SHIFTS.iter().position(|x| *x == m).unwrap_or(0) as u8;
            let r = r8(r).ok_or_else(|| invalid(m))?;
            vec![0xCB, op << 3 | r]
        }
        ("bit" | "res" | "set", [Operand::Imm(e), r]) if r8(r).is_some() => {
            let base = match mnemonic {
                "bit" => 0x40,
                "res" => 0x80,
                _ => 0xC0,
            };
            let bit = match eval(e)? {
                None => 0,
                Some(b @ 0..=7) => b as u8,
                Some(b) => return Err(format!("bit number {b} out of range (0..=7)")),
            };
            vec![0xCB, base | bit << 3 | r8(r).unwrap_or(0)]
        }

        ("ld", [d, s]) => return ld(d, s, eval).map(Some),
        ("ldh", [d, s]) => match (d, s) {
            (Operand::Mem(e) | Operand::MemHigh(e), &A) => vec![0xE0, high_page(eval(e)?)?],
            (&A, Operand::Mem(e) | Operand::MemHigh(e)) => vec![0xF0, high_page(eval(e)?)?],
            (Operand::MemC, &A) => vec![0xE2],
            (&A, Operand::MemC) => vec![0xF2],
            _ => return Err(invalid(mnemonic)),
        },
        ("ldi", [Operand::MemHl | Operand::MemHli, A]) => vec![0x22],
        ("ldi", [A, Operand::MemHl | Operand::MemHli]) => vec![0x2A],
        ("ldd", [Operand::MemHl | Operand::MemHld, A]) => vec![0x32],
        ("ldd", [A, Operand::MemHl | Operand::MemHld]) => vec![0x3A],
        ("ldhl", [Operand::R16(R16::Sp), Operand::Imm(e)]) => vec![0xF8, simm8(eval(e)?)?],

        _ if is_mnemonic(mnemonic) => return Err(invalid(mnemonic)),
        _ => return Ok(None),
    };
    Ok(Some(bytes))
}

fn ld(d: &Operand, s: &Operand, eval: &mut Eval<'_>) -> Result<Vec<u8>, String> {
    use Operand as O;
    Ok(match (d, s) {
        (O::MemHl, O::MemHl) => {
            return Err("'ld [hl], [hl]' does not exist (that opcode is halt)".to_string());
        }
        (d, s) if r8(d).is_some() && r8(s).is_some() => {
            vec![0x40 | r8(d).unwrap_or(0) << 3 | r8(s).unwrap_or(0)]
        }
        (d, O::Imm(e)) if r8(d).is_some() => vec![0x06 | r8(d).unwrap_or(0) << 3, imm8(eval(e)?)?],
        (d, O::Imm(e)) if rr_sp(d).is_some() => op16(0x01 | rr_sp(d).unwrap_or(0) << 4, eval(e)?)?,
        (O::R16(R16::Sp), O::R16(R16::Hl)) => vec![0xF9],
        (O::R16(R16::Hl), O::SpOff(e)) => vec![0xF8, simm8(eval(e)?)?],
        (O::MemBc, &A) => vec![0x02],
        (O::MemDe, &A) => vec![0x12],
        (O::MemHli, &A) => vec![0x22],
        (O::MemHld, &A) => vec![0x32],
        (&A, O::MemBc) => vec![0x0A],
        (&A, O::MemDe) => vec![0x1A],
        (&A, O::MemHli) => vec![0x2A],
        (&A, O::MemHld) => vec![0x3A],
        (O::Mem(e), O::R16(R16::Sp)) => op16(0x08, eval(e)?)?,
        (O::Mem(e), &A) => op16(0xEA, eval(e)?)?,
        (&A, O::Mem(e)) => op16(0xFA, eval(e)?)?,
        (O::MemHigh(e), &A) => vec![0xE0, high_page(eval(e)?)?],
        (&A, O::MemHigh(e)) => vec![0xF0, high_page(eval(e)?)?],
        (O::MemC, &A) => vec![0xE2],
        (&A, O::MemC) => vec![0xF2],
        _ => return Err(invalid("ld")),
    })
}

fn op16(opcode: u8, v: Option<i64>) -> Result<Vec<u8>, String> {
    let [lo, hi] = imm16(v)?;
    Ok(vec![opcode, lo, hi])
}

fn jr_offset(target: Option<i64>, pc: u32) -> Result<u8, String> {
    let Some(target) = target else { return Ok(0) };
    let offset = target - (i64::from(pc) + 2);
    if (-128..=127).contains(&offset) {
        Ok(offset as i8 as u8)
    } else {
        Err(format!("jr target out of range ({offset})"))
    }
}

fn is_mnemonic(m: &str) -> bool {
    const OTHERS: &[&str] = &[
        "nop", "halt", "di", "ei", "reti", "rlca", "rrca", "rla", "rra", "daa", "cpl", "scf",
        "ccf", "stop", "ret", "jp", "call", "jr", "rst", "push", "pop", "inc", "dec", "bit", "res",
        "set", "ld", "ldh", "ldi", "ldd", "ldhl",
    ];
    OTHERS.contains(&m) || ALU.contains(&m) || CB_SHIFTS.contains(&m)
}

fn invalid(m: &str) -> String {
    format!("invalid operands for '{m}'")
}
