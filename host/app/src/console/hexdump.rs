//! Hex dumps as memory viewers show them: 16 bytes a line, the address, the bytes, and the
//! printable ones as text (the REPL's `peek` and the window's memory viewer).

use std::fmt::Write as _;

/// Format `bytes` from `start` as hex dump lines of 16.
pub fn hexdump(start: u16, bytes: &[u8]) -> String {
    hexdump_at(u32::from(start), 4, bytes)
}

/// [`hexdump`] with offsets of `digits` hex digits (domains larger than 64 KiB).
pub fn hexdump_at(start: u32, digits: usize, bytes: &[u8]) -> String {
    let mut out = String::new();
    for (row, chunk) in bytes.chunks(16).enumerate() {
        let addr = start.wrapping_add((row * 16) as u32);
        let hex: Vec<String> = chunk.iter().map(|b| format!("{b:02X}")).collect();
        let text: String = chunk
            .iter()
            .map(|&b| {
                if (0x20..0x7F).contains(&b) {
                    b as char
                } else {
                    '.'
                }
            })
            .collect();
        let _ = writeln!(out, "{addr:0digits$X}: {:<47}  {text}", hex.join(" "));
    }
    out.trim_end().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dump() {
        assert_eq!(
            hexdump(0xC000, b"AB"),
            "C000: 41 42                                            AB"
        );
    }
}
