//! Runs of decoded instructions: a listing from an address, and where to start one so that it
//! shows a few instructions before the PC (the code around PC a debugger shows).
//!
//! The SM83's instructions have no alignment, so the instruction before an address is a guess.
//! [`window_start`] guesses the way debuggers usually do: of the runs of instructions from every
//! address a little before the PC, it keeps one that lands exactly on the PC, preferring runs
//! without illegal opcodes, then longer ones (runs from different starts soon fall in step, so
//! the instructions just before the PC are usually the same whichever start is kept). Each
//! run is the next instruction's run with one more in front, so all of them are scored in one
//! pass backward from the PC.

use super::disasm::{ILLEGAL_OPCODES, Instruction, decode, decode_bytes, instruction_length};

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
    // The run from each start is the run from the next instruction with one more in front,
    // so the runs are scored from pc backward: (no illegal opcode in it, instructions in it),
    // `None` when it does not land on pc.
    let mut runs: Vec<Option<(bool, usize)>> = vec![None; usize::from(pc - first)];
    let mut best: Option<(bool, usize, u16)> = None;
    for start in (first..pc).rev() {
        let opcode = read(start);
        let clean = !ILLEGAL_OPCODES.contains(&opcode);
        let next = u32::from(start) + u32::from(instruction_length(opcode));
        let run = match next.cmp(&u32::from(pc)) {
            std::cmp::Ordering::Equal => Some((clean, 1)),
            std::cmp::Ordering::Less => runs[(next - u32::from(first)) as usize]
                .map(|(rest_clean, count)| (clean && rest_clean, count + 1)),
            std::cmp::Ordering::Greater => None,
        };
        runs[usize::from(start - first)] = run;
        // Going down, `>=` keeps the earliest start among equals.
        if let Some((clean, count)) = run
            && best.is_none_or(|(c, n, _)| (clean, count) >= (c, n))
        {
            best = Some((clean, count, start));
        }
    }
    let Some((_, count, mut at)) = best else {
        return pc;
    };
    // Skip the instructions in front of the last `before`.
    for _ in 0..count.saturating_sub(before) {
        at += u16::from(instruction_length(read(at)));
    }
    at
}
