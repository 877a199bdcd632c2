//! A small SM83 (Game Boy CPU) assembler and disassembler, for tests and tools.
//!
//! It reads RGBDS-like source and produces bytes: [`assemble`](fn@assemble) gives a flat image starting at an
//! origin address, [`RomBuilder`] / [`rom`](fn@rom) give a complete cartridge image with a valid header.
//! The disassembler goes back: [`decode`] reads one [`Instruction`] in the assembler's own
//! spelling (assembling its text at its address gives its bytes back), [`disassemble`] a run of
//! them, [`window_start`] where to start one to show the code before a PC.
//!
//! # Syntax
//!
//! * One statement per line; `;` starts a comment. Mnemonics, registers and directives are case
//!   insensitive; labels are case sensitive.
//! * Every base and CB-prefixed instruction, in RGBDS spelling, with the common alternatives:
//!   `[hl+]`/`[hli]`/`(hl+)`, `[hl-]`/`[hld]`, `ldi`/`ldd`, `ldh [c], a`/`ld [$ff00+c], a`,
//!   `ldh a, [$ff44]`/`ldh a, [$44]`/`ld a, [$ff00+$44]`, `ld hl, sp+e8`/`ldhl sp, e8`,
//!   `jp hl`/`jp [hl]`, `add a, b`/`add b`, `stop` (encodes `$10 $00`). Memory operands may use
//!   `[ ]` or `( )`.
//! * `ld a, [n16]` always encodes the 3-byte `$FA` form, whatever the address; write `ldh` or an
//!   explicit `$ff00+` to get the 2-byte high-page form. A whole operand in `( )` is memory, so
//!   `ld a, (2 + 3)` reads address 5; `ld a, (2 + 3) * 4` is an immediate.
//! * `jr` takes the target address (usually a label), not the offset; the offset must fit in
//!   -128..=127 from the next instruction.
//! * Numbers: `$1F`, `0x1F`, `%0101`, `0b0101`, `0o17`, `31`, `'A'`; `_` may separate digits.
//! * Expressions: `+ - * / % & | ^ << >> ~`, unary `-`, parentheses, `low(x)`, `high(x)`, labels
//!   and constants, and `@` (address of the current statement).
//! * Labels: `name:` (global) and `.name:` (local, scoped to the previous global label, also
//!   reachable as `Global.name`). Forward references work everywhere except in `org`, `ds` and
//!   `section` arguments, which must be known when they are reached.
//! * Constants: `name equ expr`, `name = expr`, `def name equ expr`.
//! * Data: `db 1, $FF, "text"` (also raw bytes for illegal opcodes: `db $D3`), `dw $1234, label`,
//!   `ds count[, fill]`.
//! * Placement: `org $addr` moves the output address (forward or backward, as long as emitted
//!   bytes never overlap); `section "name", KIND[$addr]` with KIND one of `ROM0`, `ROMX`
//!   (optionally `, BANK[n]`), `VRAM`, `SRAM`, `WRAM0`, `WRAMX`, `OAM`, `HRAM`. RAM sections only
//!   reserve addresses with `ds` (for variables); a section without an address continues where the
//!   last section of that kind stopped.
//!
//! Errors carry the 1-based line number: `line 3: unknown mnemonic 'lb'`.
//!
//! # Example
//!
//! ```
//! use gb_core::asm::{assemble, rom};
//!
//! let code = assemble("loop: dec b\n jr nz, loop\n ldh [$ff80], a", 0x0150)?;
//! assert_eq!(code, [0x05, 0x20, 0xFD, 0xE0, 0x80]);
//!
//! // A whole cartridge: header, logo and checksums, program at $0150, a VBlank handler.
//! let image = rom("ei\nhalt\nld b, b\norg $40\nreti")?;
//! assert_eq!(image.len(), 0x8000);
//! assert_eq!(image[0x40], 0xD9);
//! # Ok::<(), gb_core::asm::AsmError>(())
//! ```

mod assemble;
mod disasm;
#[cfg(test)]
mod disasm_tests;
mod encode;
mod lexer;
mod listing;
mod parse;
mod rom;
#[cfg(test)]
mod tests;

pub use assemble::{AsmError, Assembly, assemble, assemble_with_symbols};
pub use disasm::{
    Flow, ILLEGAL_OPCODES, Instruction, Target, TargetKind, decode, decode_bytes,
    instruction_length,
};
pub use listing::{disassemble, disassemble_bytes, window_start};
pub use rom::{RomBuilder, rom};
