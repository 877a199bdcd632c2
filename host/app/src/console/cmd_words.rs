//! The words console commands are made of, shared by every command family (`command.rs`,
//! `tool_cmds.rs`): addresses with an optional bank ([`Location`]), hex numbers as memory
//! editors write them, and quoting a word so that it reads back as one.

use std::fmt;

/// An address, with the bank it is in when one is named (`3:D000`: work RAM bank 3, mapped
/// or not), or as the CPU sees it now (`D000`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    /// The bank, when named.
    pub bank: Option<u16>,
    /// The address.
    pub addr: u16,
}

impl Location {
    /// An address as the CPU sees it.
    pub fn bus(addr: u16) -> Location {
        Location { bank: None, addr }
    }

    /// This location `n` bytes further, in the same bank.
    pub fn offset(self, n: u16) -> Location {
        Location {
            addr: self.addr.wrapping_add(n),
            ..self
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.bank {
            Some(b) => write!(f, "{b:X}:{:04X}", self.addr),
            None => write!(f, "{:04X}", self.addr),
        }
    }
}

/// Quote `word` if it needs it to read back as one word.
pub fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && !word
            .chars()
            .any(|c| c.is_whitespace() || c == '"' || c == '\'' || c == '\\');
    if plain {
        word.to_owned()
    } else {
        format!("\"{}\"", word.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

/// Parse an address or byte value: hexadecimal, as in memory editors (`C000`, `$C000`,
/// `0xC000`, `C000h`); `#` marks decimal (`#255`).
pub fn parse_hex(s: &str) -> Option<u32> {
    let s = s.trim().trim_start_matches('[').trim_end_matches(']');
    if let Some(d) = s.strip_prefix('#') {
        return d.parse().ok();
    }
    let h = s
        .strip_prefix('$')
        .or_else(|| s.strip_prefix("0x"))
        .or_else(|| s.strip_prefix("0X"))
        .or_else(|| s.strip_suffix('h'))
        .unwrap_or(s);
    u32::from_str_radix(h, 16).ok()
}

/// An address word (`C000`, `3:D000`, `$C000`), or why it is not one.
pub fn addr_word(s: Option<&String>) -> Result<Location, String> {
    let s = s.ok_or("missing address")?;
    let bad = || format!("bad address '{s}' (hex 0000-FFFF, e.g. C000, or BANK:ADDR, e.g. 3:D000)");
    let hex16 = |t: &str| parse_hex(t).and_then(|v| u16::try_from(v).ok());
    match s.split_once(':') {
        Some((bank, a)) => Ok(Location {
            bank: Some(hex16(bank).ok_or_else(bad)?),
            addr: hex16(a).ok_or_else(bad)?,
        }),
        None => Ok(Location::bus(hex16(s).ok_or_else(bad)?)),
    }
}
