//! RAM watch: a list of named values shown live (address, size, display, byte order), kept per
//! ROM and exchanged with BizHawk as `.wch` files.
//!
//! A `.wch` file is text: an optional `SystemID GB` line, then one watch per line with five
//! tabs: `ADDRESS  SIZE  TYPE  BIGENDIAN  DOMAIN  NOTES` (address in hex, size `b`/`w`/`d` or
//! `S` for a separator, type `u`/`s`/`h`, big-endian `0`/`1`, the domain by BizHawk's name for
//! its Game Boy cores: `WRAM`, `HRAM`, `VRAM`, `OAM`, `CartRAM`, `ROM`, `System Bus`, and
//! GBHawk's `Main RAM`, `Zero Page RAM`, `Cart RAM`). Separators and BizHawk's display types
//! gbhost does not have (binary, fixed point, float) are read as what comes closest and
//! reported, never silently changed.

use gb_core::{Domain, Gb};

use super::search::{Display, Layout};

/// Where a watch reads: the CPU's bus (what is mapped now, read without side effects) or a
/// flat memory (every bank).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// The CPU's address space, 0x0000-0xFFFF.
    Bus,
    /// A memory as a flat array.
    Flat(Domain),
}

impl Space {
    /// The name BizHawk gives it in `.wch` files.
    pub fn wch_name(self) -> &'static str {
        match self {
            Space::Bus => "System Bus",
            Space::Flat(Domain::Wram) => "WRAM",
            Space::Flat(Domain::Hram) => "HRAM",
            Space::Flat(Domain::Vram) => "VRAM",
            Space::Flat(Domain::Oam) => "OAM",
            Space::Flat(Domain::CartRam) => "CartRAM",
            Space::Flat(Domain::Rom) => "ROM",
        }
    }

    /// The space a `.wch` domain name (BizHawk's Gambatte, SameBoy and GBHawk cores) or a
    /// gbhost domain name (`wram`, `bus`, …) names, ignoring case.
    pub fn from_name(name: &str) -> Option<Space> {
        let name = name.trim().to_ascii_lowercase();
        Some(match name.as_str() {
            "system bus" | "bus" => Space::Bus,
            "main ram" => Space::Flat(Domain::Wram),
            "zero page ram" => Space::Flat(Domain::Hram),
            "cart ram" | "sram" => Space::Flat(Domain::CartRam),
            other => Space::Flat(Domain::from_name(other)?),
        })
    }
}

/// One watched value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Watch {
    /// Where it is read.
    pub space: Space,
    /// Its address on the bus or offset in the memory.
    pub offset: u32,
    /// Size, display and byte order (`aligned` is not used).
    pub layout: Layout,
    /// The user's name for it (BizHawk's notes).
    pub name: String,
}

impl Watch {
    /// The bytes it covers now.
    fn bytes(&self, gb: &Gb) -> Option<Vec<u8>> {
        let n = usize::from(self.layout.size);
        let start = self.offset as usize;
        match self.space {
            Space::Bus => (0..n)
                .map(|k| u16::try_from(start + k).ok().map(|a| gb.peek(a)))
                .collect(),
            Space::Flat(d) => gb.domain(d).get(start..start + n).map(<[u8]>::to_vec),
        }
    }

    /// Its raw value now, or `None` when it lies past the end of its memory (no cartridge RAM).
    pub fn read(&self, gb: &Gb) -> Option<u32> {
        let b = self.bytes(gb)?;
        self.layout.raw(&b, 0)
    }

    /// Its value now as the display shows it (`-` when it cannot be read).
    pub fn show(&self, gb: &Gb) -> String {
        self.read(gb)
            .map_or_else(|| "-".to_owned(), |raw| self.layout.format(raw))
    }

    /// Where it is, as the list shows it: `C0A2` on the bus, `WRAM 00A2` in a memory.
    pub fn place(&self) -> String {
        match self.space {
            Space::Bus => format!("{:04X}", self.offset),
            Space::Flat(_) => format!("{} {:04X}", self.space.wch_name(), self.offset),
        }
    }
}

/// Why a `.wch` file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    /// The text has no watch line at all (not a watch file).
    #[error(
        "no watch in this file (a .wch line is ADDRESS, SIZE, TYPE, BIGENDIAN, DOMAIN, NOTES separated by tabs)"
    )]
    Empty,
}

/// A `.wch` file read: the watches, and what could not be kept as it was (line by line).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WchFile {
    /// The watches, in file order.
    pub watches: Vec<Watch>,
    /// One message per line skipped or changed.
    pub warnings: Vec<String>,
}

/// Read a `.wch` file's text. Lines that are not watches are skipped with a warning; a file
/// with no watch at all is an error.
pub fn parse_wch(text: &str) -> Result<WchFile, WatchError> {
    let mut out = WchFile::default();
    for (n, line) in text.lines().enumerate() {
        let n = n + 1;
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with("SystemID") || line.starts_with("Domain") {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        // Files from other emulators carry a position number first (six columns of data).
        let cols = match cols.len() {
            6 => &cols[..],
            7 => &cols[1..],
            // A count line some emulators write first.
            1 if line.trim().parse::<u32>().is_ok() => continue,
            _ => {
                out.warnings.push(format!(
                    "line {n}: skipped (expected 6 tab-separated columns, found {})",
                    cols.len()
                ));
                continue;
            }
        };
        let Ok(offset) = u32::from_str_radix(cols[0].trim(), 16) else {
            out.warnings.push(format!(
                "line {n}: skipped ('{}' is not a hex address)",
                cols[0]
            ));
            continue;
        };
        let size = match cols[1].trim() {
            "b" => 1,
            "w" => 2,
            "d" => 4,
            "S" => {
                out.warnings.push(format!(
                    "line {n}: a separator (gbhost's list has none): skipped"
                ));
                continue;
            }
            other => {
                out.warnings.push(format!(
                    "line {n}: skipped (size '{other}' is not b, w or d)"
                ));
                continue;
            }
        };
        let display = match cols[2].trim() {
            "u" => Display::Unsigned,
            "s" => Display::Signed,
            "h" => Display::Hex,
            other => {
                out.warnings.push(format!(
                    "line {n}: display '{other}' (binary, fixed point or float) is shown as hex"
                ));
                Display::Hex
            }
        };
        let big_endian = cols[3].trim() == "1";
        let Some(space) = Space::from_name(cols[4]) else {
            out.warnings.push(format!(
                "line {n}: skipped (memory '{}' is not a Game Boy domain gbhost knows)",
                cols[4]
            ));
            continue;
        };
        out.watches.push(Watch {
            space,
            offset,
            layout: Layout {
                size,
                display,
                big_endian,
                aligned: true,
            },
            name: cols[5].to_owned(),
        });
    }
    if out.watches.is_empty() {
        return Err(WatchError::Empty);
    }
    Ok(out)
}

/// A `.wch` file's text for `watches` (BizHawk reads it; so does [`parse_wch`]).
pub fn to_wch(watches: &[Watch]) -> String {
    let mut s = String::from("SystemID GB\n");
    for w in watches {
        let size = match w.layout.size {
            1 => 'b',
            2 => 'w',
            _ => 'd',
        };
        // Tabs and newlines in a name would break the line.
        let name: String = w
            .name
            .chars()
            .map(|c| {
                if c == '\t' || c == '\n' || c == '\r' {
                    ' '
                } else {
                    c
                }
            })
            .collect();
        s.push_str(&format!(
            "{:04X}\t{size}\t{}\t{}\t{}\t{name}\n",
            w.offset,
            w.layout.display.letter(),
            u8::from(w.layout.big_endian),
            w.space.wch_name(),
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn watch(space: Space, offset: u32, size: u8, display: Display, name: &str) -> Watch {
        Watch {
            space,
            offset,
            layout: Layout {
                size,
                display,
                big_endian: false,
                aligned: true,
            },
            name: name.into(),
        }
    }

    #[test]
    fn a_bizhawk_file_is_read() {
        // As BizHawk 2.9 writes one for Gambatte (a separator, a GBHawk domain, CRLF ends).
        let text = "SystemID GB\r\n00A2\tb\tu\t0\tWRAM\tHeight\r\n\
                    0010\tw\th\t1\tHRAM\tTimer\r\n\
                    0000\tS\t_\t0\t\t\r\n\
                    0200\td\ts\t0\tMain RAM\tScore (signed)\r\n\
                    0003\tb\tf\t0\tCartRAM\tfloat?\r\n\
                    0004\tb\tu\t0\tBGPRAM\tpalette\r\n";
        let f = parse_wch(text).unwrap();
        assert_eq!(f.watches.len(), 4);
        assert_eq!(
            f.watches[0],
            watch(
                Space::Flat(Domain::Wram),
                0xA2,
                1,
                Display::Unsigned,
                "Height"
            )
        );
        assert!(f.watches[1].layout.big_endian);
        assert_eq!(f.watches[1].layout.size, 2);
        assert_eq!(f.watches[2].space, Space::Flat(Domain::Wram));
        assert_eq!(f.watches[2].layout.display, Display::Signed);
        assert_eq!(f.watches[3].layout.display, Display::Hex);
        assert_eq!(f.warnings.len(), 3, "{:?}", f.warnings);
        assert!(f.warnings.iter().any(|w| w.contains("BGPRAM")));
    }

    #[test]
    fn a_list_round_trips() {
        let list = vec![
            watch(Space::Bus, 0xC0A2, 1, Display::Unsigned, "height"),
            watch(
                Space::Flat(Domain::CartRam),
                0x2010,
                4,
                Display::Hex,
                "save\tslot",
            ),
        ];
        let text = to_wch(&list);
        let back = parse_wch(&text).unwrap();
        assert!(back.warnings.is_empty());
        assert_eq!(back.watches[0], list[0]);
        assert_eq!(back.watches[1].name, "save slot");
        assert_eq!(back.watches[1].layout, list[1].layout);
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(parse_wch("").is_err());
        assert!(parse_wch("hello\nworld\t\t\n\u{0}\u{1}").is_err());
        let f = parse_wch("zz\tb\tu\t0\tWRAM\tx\n10\tb\tu\t0\tWRAM\tok\n").unwrap();
        assert_eq!(f.watches.len(), 1);
        assert_eq!(f.warnings.len(), 1);
    }
}
