//! Runs of decoded instructions: a listing from an address, and where to start one so that it
//! shows a few instructions before the PC (the code around PC a debugger shows).
//!
//! The SM83's instructions have no alignment, so the instruction before an address is a guess.
//! [`window_start`] guesses the way debuggers usually do: it decodes forward from every address
//! a little before the PC and keeps a start whose instructions land exactly on the PC,
//! preferring the longest run without illegal opcodes (runs from different starts soon fall in
//! step, so the instructions just before the PC are usually the same whichever start is kept).

use super::disasm::{Instruction, decode, decode_bytes};

/// The longest SM83 instruction, in bytes.
const MAX_LEN: u16 = 3;

/// Decodes `count` instructions one after the other from `addr` (wrapping at `$FFFF`).
///
/// ```
/// use gb_core::asm::{assemble, disassemble};
///
/// let code = assemble("ld a, $10\nldh [$FF40], a\nret", 0x0150)?;
/// let read = |a: u16| code.get(usize::from(a - 0x0150)).copied().unwrap_or(0);
/// let lines: Vec<String> = disassemble(read, 0x0150, 3).iter().map(|i| i.text()).collect();
/// assert_eq!(lines, ["ld a, $10", "ldh [$FF40], a", "ret"]);
/// # Ok::<(), gb_core::asm::AsmError>(())
/// ```
pub fn disassemble(mut read: impl FnMut(u16) -> u8, addr: u16, count: usize) -> Vec<Instruction> {
    let mut out = Vec::with_capacity(count);
    let mut at = addr;
    for _ in 0..count {
        let instr = decode(&mut read, at);
        at = instr.next_addr();
        out.push(instr);
    }
    out
}

/// Decodes all of `bytes`, which hold memory from address `base` on; an instruction the slice
/// cuts short at its end is data bytes.
///
/// ```
/// use gb_core::asm::disassemble_bytes;
///
/// let lines: Vec<String> = disassemble_bytes(&[0xAF, 0xC9, 0xCB], 0x4000)
///     .iter()
///     .map(|i| i.text())
///     .collect();
/// assert_eq!(lines, ["xor a", "ret", "db $CB"]);
/// ```
pub fn disassemble_bytes(bytes: &[u8], base: u16) -> Vec<Instruction> {
    let mut out = Vec::new();
    let mut offset = 0usize;
    while offset < bytes.len() {
        let Ok(delta) = u16::try_from(offset) else {
            break;
        };
        // A slice that runs past $FFFF: stop rather than wrap onto its own start.
        let Some(addr) = base.checked_add(delta) else {
            break;
        };
        let Some(instr) = decode_bytes(bytes, base, addr) else {
            break;
        };
        offset += usize::from(instr.len);
        out.push(instr);
    }
    out
}

/// A plausible address to start a listing at so that it shows about `before` instructions
/// before `pc` and then `pc` itself. Returns `pc` when no start before it decodes onto it.
/// It looks no further back than `$0000` (no wrapping).
///
/// ```
/// use gb_core::asm::{assemble, disassemble, window_start};
///
/// let code = assemble("ld hl, $C000\nld a, [hl+]\nld [$D000], a\ninc b\nret", 0x0200)?;
/// let read = |a: u16| code.get(usize::from(a.wrapping_sub(0x0200))).copied().unwrap_or(0);
/// let pc = 0x0207; // `inc b`
/// let start = window_start(read, pc, 2);
/// assert_eq!(start, 0x0203); // `ld a, [hl+]`, then `ld [$D000], a`
/// let shown = disassemble(read, start, 4);
/// assert_eq!(shown[2].addr, pc);
/// # Ok::<(), gb_core::asm::AsmError>(())
/// ```
pub fn window_start(mut read: impl FnMut(u16) -> u8, pc: u16, before: usize) -> u16 {
    if before == 0 {
        return pc;
    }
    // Look back far enough for `before` instructions of the longest kind, and a little more
    // so that runs from different starts fall in step.
    let reach = u16::try_from(before.saturating_add(4))
        .unwrap_or(u16::MAX)
        .saturating_mul(MAX_LEN);
    let first = pc.saturating_sub(reach);
    // The best run so far: (no illegal opcode in it, instructions before pc, its boundaries).
    let mut best: Option<(bool, usize, Vec<u16>)> = None;
    for start in first..pc {
        let mut at = start;
        let mut starts = Vec::new();
        let mut clean = true;
        while at < pc {
            let instr = decode(&mut read, at);
            clean &= !instr.is_data();
            starts.push(at);
            match at.checked_add(u16::from(instr.len)) {
                Some(next) => at = next,
                None => break,
            }
        }
        if at != pc {
            continue;
        }
        let better = match &best {
            None => true,
            Some((best_clean, best_count, _)) => (clean, starts.len()) > (*best_clean, *best_count),
        };
        if better {
            best = Some((clean, starts.len(), starts));
        }
    }
    match best {
        Some((_, _, starts)) => starts[starts.len().saturating_sub(before)],
        None => pc,
    }
}
