//! Symbols from RGBDS `.sym` files: names for banked addresses, both ways.
//!
//! The format is rgblink's `-n` output: one symbol a line, `BB:AAAA Name` (bank and address in
//! hex, any number of digits that fit 16 bits, either case), `;` starting a comment, blank
//! lines. Names are taken as written, with their `.` (local labels, `Main.loop`) and any `@`,
//! `#`, `$` or `_`. Lines that do not read are skipped and listed ([`Symbols::skipped`]), never
//! an error: a half-broken file still names what it can. [`Symbols::beside_rom`] loads
//! `<stem>.sym` beside a ROM.
//!
//! Banks follow rgblink's numbering: ROM `0000-3FFF` is bank 0 and `4000-7FFF` the ROM bank
//! mapped there; VRAM, cartridge RAM and work RAM `D000-DFFF` take their mapped bank; every other
//! address is bank 0. A lookup that finds nothing in the mapped bank tries bank 0 (rgblink's
//! `-t` and `-w` put `4000-7FFF` and `D000-DFFF` in bank 0).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use gb_core::Gb;

/// The largest `.sym` file read (the biggest games' are a few MiB).
pub const MAX_SYM_FILE: u64 = 64 << 20;

/// How many skipped lines are kept with their reasons (the rest are only counted).
const MAX_SKIPPED_KEPT: usize = 100;

/// One symbol: a name for an address in a bank.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Symbol {
    /// The name as written (`Main.loop`).
    pub name: String,
    /// The bank (0 for unbanked memory).
    pub bank: u16,
    /// The CPU address.
    pub addr: u16,
}

impl Symbol {
    /// Whether it is a local label (`Main.loop`).
    pub fn is_local(&self) -> bool {
        self.name.contains('.')
    }
}

/// A line of a `.sym` file that was skipped, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedLine {
    /// Its 1-based line number.
    pub line: usize,
    /// Why it was skipped.
    pub reason: String,
}

/// Why a `.sym` file could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum SymbolsError {
    /// Reading the file failed.
    #[error("reading {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The file is larger than [`MAX_SYM_FILE`].
    #[error("{path} is {len} bytes, more than a symbol file's {MAX_SYM_FILE}")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        len: u64,
    },
}

/// The symbols of one game, looked up by name or by address.
#[derive(Debug, Clone, Default)]
pub struct Symbols {
    /// Every symbol, in file order.
    list: Vec<Symbol>,
    /// Exact name → the first symbol of that name.
    by_name: HashMap<String, usize>,
    /// Lower-case name → the first symbol of that name in any case.
    by_lower: HashMap<String, usize>,
    /// (bank, address) → the symbols there, global labels first, then in file order.
    by_place: BTreeMap<(u16, u16), Vec<usize>>,
    /// The skipped lines kept (the first [`MAX_SKIPPED_KEPT`]).
    skipped: Vec<SkippedLine>,
    /// How many lines were skipped in all.
    skipped_count: usize,
}

impl Symbols {
    /// Reads the text of a `.sym` file. Lines that do not read are skipped (see
    /// [`Symbols::skipped`]); this never fails.
    ///
    /// ```
    /// use gb_session::symbols::Symbols;
    ///
    /// let syms = Symbols::parse("; rgblink\n00:0150 Main\n00:0153 Main.loop\n01:4000 Bank1Code\n");
    /// assert_eq!(syms.lookup("Main.loop"), Some((0, 0x0153)));
    /// assert_eq!(syms.name_at(0x4000, Some(1)), Some("Bank1Code"));
    /// assert_eq!(syms.label_at(0x0155, None).as_deref(), Some("Main.loop+2"));
    /// ```
    pub fn parse(text: &str) -> Self {
        let mut syms = Self::default();
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
        for (i, line) in text.lines().enumerate() {
            match parse_line(line) {
                Ok(None) => {}
                Ok(Some(symbol)) => syms.add(symbol),
                Err(reason) => {
                    syms.skipped_count += 1;
                    if syms.skipped.len() < MAX_SKIPPED_KEPT {
                        syms.skipped.push(SkippedLine {
                            line: i + 1,
                            reason,
                        });
                    }
                }
            }
        }
        for indices in syms.by_place.values_mut() {
            let list = &syms.list;
            indices.sort_by_key(|&i| (list[i].is_local(), i));
        }
        syms
    }

    /// Reads the `.sym` file at `path` (not valid UTF-8 is read lossily).
    pub fn load(path: &Path) -> Result<Self, SymbolsError> {
        let io = |source| SymbolsError::Io {
            path: path.to_path_buf(),
            source,
        };
        let len = std::fs::metadata(path).map_err(io)?.len();
        if len > MAX_SYM_FILE {
            return Err(SymbolsError::TooLarge {
                path: path.to_path_buf(),
                len,
            });
        }
        let bytes = std::fs::read(path).map_err(io)?;
        Ok(Self::parse(&String::from_utf8_lossy(&bytes)))
    }

    /// The symbols beside a ROM: `<stem>.sym` (or `<stem>.SYM`) in the ROM's folder.
    /// `Ok(None)` when there is none.
    ///
    /// ```no_run
    /// use gb_session::symbols::Symbols;
    ///
    /// if let Some(syms) = Symbols::beside_rom("games/tobutobugirl.gb".as_ref())? {
    ///     println!("{} symbols, {} lines skipped", syms.len(), syms.skipped_count());
    /// }
    /// # Ok::<(), gb_session::symbols::SymbolsError>(())
    /// ```
    pub fn beside_rom(rom: &Path) -> Result<Option<Self>, SymbolsError> {
        for ext in ["sym", "SYM"] {
            let path = rom.with_extension(ext);
            if path != rom && path.is_file() {
                return Self::load(&path).map(Some);
            }
        }
        Ok(None)
    }

    fn add(&mut self, symbol: Symbol) {
        let i = self.list.len();
        self.by_name.entry(symbol.name.clone()).or_insert(i);
        self.by_lower.entry(symbol.name.to_lowercase()).or_insert(i);
        self.by_place
            .entry((symbol.bank, symbol.addr))
            .or_default()
            .push(i);
        self.list.push(symbol);
    }

    /// How many symbols there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Every symbol, in file order.
    pub fn iter(&self) -> impl Iterator<Item = &Symbol> {
        self.list.iter()
    }

    /// The first skipped lines with their reasons (at most 100; [`Symbols::skipped_count`]
    /// counts them all).
    pub fn skipped(&self) -> &[SkippedLine] {
        &self.skipped
    }

    /// How many lines were skipped.
    pub fn skipped_count(&self) -> usize {
        self.skipped_count
    }

    /// The symbol named `name`: exactly, else ignoring case (the first in the file of the
    /// names that match).
    pub fn get(&self, name: &str) -> Option<&Symbol> {
        let i = match self.by_name.get(name) {
            Some(&i) => i,
            None => *self.by_lower.get(&name.to_lowercase())?,
        };
        self.list.get(i)
    }

    /// Where `name` is, `(bank, addr)`: exactly, else ignoring case.
    pub fn lookup(&self, name: &str) -> Option<(u16, u16)> {
        self.get(name).map(|s| (s.bank, s.addr))
    }

    /// The symbols at `addr` with `mapped` the bank mapped there (as [`Gb::bank_of`] says;
    /// `None` for none), global labels first; bank 0's when the mapped bank has none there.
    pub fn all_at(&self, addr: u16, mapped: Option<u16>) -> impl Iterator<Item = &Symbol> {
        let bank = bank_for(addr, mapped);
        let found = self
            .by_place
            .get(&(bank, addr))
            .or_else(|| self.by_place.get(&(0, addr)));
        found
            .into_iter()
            .flatten()
            .filter_map(|&i| self.list.get(i))
    }

    /// The name at `addr` with `mapped` the bank mapped there (a global label before a local
    /// one at the same place).
    pub fn name_at(&self, addr: u16, mapped: Option<u16>) -> Option<&str> {
        self.all_at(addr, mapped).next().map(|s| s.name.as_str())
    }

    /// [`Symbols::name_at`] with the bank `gb` maps at `addr` now.
    pub fn name_in(&self, gb: &Gb, addr: u16) -> Option<&str> {
        self.name_at(addr, gb.bank_of(addr))
    }

    /// The nearest symbol at or below `addr` in the same bank and memory region (ROM bank,
    /// VRAM, cartridge RAM, a work RAM half, HRAM, …), and how far `addr` is past it.
    pub fn nearest(&self, addr: u16, mapped: Option<u16>) -> Option<(&Symbol, u16)> {
        let start = region_start(addr);
        let in_bank = |bank: u16| {
            let (&(_, at), indices) = self.by_place.range((bank, start)..=(bank, addr)).last()?;
            let symbol = self.list.get(*indices.first()?)?;
            Some((symbol, addr - at))
        };
        in_bank(bank_for(addr, mapped)).or_else(|| in_bank(0))
    }

    /// `addr` as a label for a disassembly: `Main.loop`, or `Main.loop+3` past the nearest
    /// symbol (the offset in the assembler's spelling: decimal below 10, else `$1A`).
    pub fn label_at(&self, addr: u16, mapped: Option<u16>) -> Option<String> {
        let (symbol, offset) = self.nearest(addr, mapped)?;
        Some(match offset {
            0 => symbol.name.clone(),
            1..=9 => format!("{}+{offset}", symbol.name),
            _ => format!("{}+${offset:X}", symbol.name),
        })
    }

    /// [`Symbols::label_at`] with the bank `gb` maps at `addr` now.
    pub fn label_in(&self, gb: &Gb, addr: u16) -> Option<String> {
        self.label_at(addr, gb.bank_of(addr))
    }
}

/// The bank a `.sym` file gives `addr` when `mapped` is the bank mapped there: 0 for ROM
/// `0000-3FFF` and unbanked memory; the mapped bank for ROM `4000-7FFF` (1 when unknown),
/// VRAM, cartridge RAM (0 when unknown) and work RAM `D000-DFFF` (1 when unknown, as on the
/// DMG).
pub fn bank_for(addr: u16, mapped: Option<u16>) -> u16 {
    match addr {
        0x4000..=0x7FFF | 0xD000..=0xDFFF => mapped.unwrap_or(1),
        0x8000..=0xBFFF => mapped.unwrap_or(0),
        _ => 0,
    }
}

/// The first address of the memory region `addr` is in.
fn region_start(addr: u16) -> u16 {
    match addr {
        0x0000..=0x3FFF => 0x0000,
        0x4000..=0x7FFF => 0x4000,
        0x8000..=0x9FFF => 0x8000,
        0xA000..=0xBFFF => 0xA000,
        0xC000..=0xCFFF => 0xC000,
        0xD000..=0xDFFF => 0xD000,
        0xE000..=0xFDFF => 0xE000,
        0xFE00..=0xFEFF => 0xFE00,
        0xFF00..=0xFF7F => 0xFF00,
        0xFF80..=0xFFFE => 0xFF80,
        0xFFFF => 0xFFFF,
    }
}

/// One line: `Ok(None)` for a blank or comment line.
fn parse_line(line: &str) -> Result<Option<Symbol>, String> {
    let code = line.split(';').next().unwrap_or("").trim();
    if code.is_empty() {
        return Ok(None);
    }
    let mut words = code.split_whitespace();
    let (Some(place), Some(name)) = (words.next(), words.next()) else {
        return Err("expected 'BB:AAAA Name'".into());
    };
    if words.next().is_some() {
        return Err("more than a place and a name".into());
    }
    let (bank, addr) = place
        .split_once(':')
        .ok_or_else(|| format!("'{place}' is not 'bank:address'"))?;
    let hex = |digits: &str, what: &str| {
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("{what} '{digits}' is not hexadecimal"));
        }
        // Leading zeros do not count against the 16 bits.
        match digits.trim_start_matches('0') {
            "" => Ok(0),
            significant => u16::from_str_radix(significant, 16)
                .map_err(|_| format!("{what} '{digits}' is larger than $FFFF")),
        }
    };
    Ok(Some(Symbol {
        name: name.to_string(),
        bank: hex(bank, "bank")?,
        addr: hex(addr, "address")?,
    }))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A `.sym` file as rgblink writes it, with the oddities this reader must take.
    const SYM: &str = "\
; File generated by rgblink
00:0000 RST_00
00:0150 Main
00:0150 Main.init
00:0153 Main.loop
00:0160 _Main@helper
01:4000 Bank1Code
01:4010 Bank1Code.inner
02:4000 Bank2Code
00:8000 vTiles
01:8000 vTilesBank1
00:a000 sSave
00:c000 wVar
00:C0A0 wPlayerHP
01:d000 wBank1
03:D000 wBank3
00:ff80 hFrame
";

    #[test]
    fn names_are_found_exactly_then_ignoring_case() {
        let syms = Symbols::parse(SYM);
        assert_eq!(syms.len(), 16);
        assert!(syms.skipped().is_empty(), "{:?}", syms.skipped());
        assert_eq!(syms.lookup("Main.loop"), Some((0, 0x0153)));
        assert_eq!(syms.lookup("wPlayerHP"), Some((0, 0xC0A0)));
        assert_eq!(syms.lookup("wplayerhp"), Some((0, 0xC0A0)));
        assert_eq!(syms.lookup("BANK2CODE"), Some((2, 0x4000)));
        assert_eq!(syms.lookup("_Main@helper"), Some((0, 0x0160)));
        assert_eq!(syms.lookup("wBank3"), Some((3, 0xD000)));
        assert_eq!(syms.lookup("Nowhere"), None);
        assert_eq!(syms.lookup(""), None);
    }

    #[test]
    fn exact_case_wins_over_another_case() {
        let syms = Symbols::parse("00:0100 loop\n00:0200 Loop\n");
        assert_eq!(syms.lookup("Loop"), Some((0, 0x0200)));
        assert_eq!(syms.lookup("loop"), Some((0, 0x0100)));
        assert_eq!(syms.lookup("LOOP"), Some((0, 0x0100)));
    }

    #[test]
    fn addresses_are_named_in_the_bank_mapped_there() {
        let syms = Symbols::parse(SYM);
        // ROM 0000-3FFF is bank 0 whatever is said mapped.
        assert_eq!(syms.name_at(0x0153, None), Some("Main.loop"));
        assert_eq!(syms.name_at(0x0153, Some(5)), Some("Main.loop"));
        // A global label before a local one at the same place.
        assert_eq!(syms.name_at(0x0150, None), Some("Main"));
        let both: Vec<&str> = syms.all_at(0x0150, None).map(|s| s.name.as_str()).collect();
        assert_eq!(both, ["Main", "Main.init"]);
        // ROM 4000-7FFF: the mapped bank; bank 1 when unknown.
        assert_eq!(syms.name_at(0x4000, Some(1)), Some("Bank1Code"));
        assert_eq!(syms.name_at(0x4000, Some(2)), Some("Bank2Code"));
        assert_eq!(syms.name_at(0x4000, None), Some("Bank1Code"));
        assert_eq!(syms.name_at(0x4000, Some(3)), None);
        // VRAM, cartridge RAM, work RAM.
        assert_eq!(syms.name_at(0x8000, Some(0)), Some("vTiles"));
        assert_eq!(syms.name_at(0x8000, Some(1)), Some("vTilesBank1"));
        assert_eq!(syms.name_at(0x8000, None), Some("vTiles"));
        assert_eq!(syms.name_at(0xA000, None), Some("sSave"));
        assert_eq!(syms.name_at(0xC000, Some(3)), Some("wVar"));
        assert_eq!(syms.name_at(0xD000, None), Some("wBank1"));
        assert_eq!(syms.name_at(0xD000, Some(3)), Some("wBank3"));
        assert_eq!(syms.name_at(0xFF80, None), Some("hFrame"));
        assert_eq!(syms.name_at(0x0151, None), None);
    }

    #[test]
    fn bank_zero_stands_in_when_the_mapped_bank_has_nothing() {
        // rgblink -t (32 KiB, no banks) and -w (DMG work RAM in one piece) write bank 0.
        let syms = Symbols::parse("00:4000 Upper\n00:D000 wHigh\n");
        assert_eq!(syms.name_at(0x4000, Some(1)), Some("Upper"));
        assert_eq!(syms.name_at(0xD000, None), Some("wHigh"));
        assert_eq!(syms.label_at(0x4003, Some(1)).as_deref(), Some("Upper+3"));
    }

    #[test]
    fn labels_are_the_nearest_symbol_below_plus_an_offset() {
        let syms = Symbols::parse(SYM);
        assert_eq!(syms.label_at(0x0153, None).as_deref(), Some("Main.loop"));
        assert_eq!(syms.label_at(0x0156, None).as_deref(), Some("Main.loop+3"));
        assert_eq!(syms.label_at(0x015F, None).as_deref(), Some("Main.loop+$C"));
        assert_eq!(syms.label_at(0x0152, None).as_deref(), Some("Main+2"));
        assert_eq!(
            syms.label_at(0x4012, Some(1)).as_deref(),
            Some("Bank1Code.inner+2")
        );
        assert_eq!(
            syms.label_at(0x4012, Some(2)).as_deref(),
            Some("Bank2Code+$12")
        );
        let (symbol, offset) = syms.nearest(0x4012, Some(2)).unwrap();
        assert_eq!(
            (symbol.name.as_str(), symbol.bank, offset),
            ("Bank2Code", 2, 0x12)
        );
        // Never across a region's start: $4000 in bank 3 has nothing, bank 0's symbols end
        // at $3FFF.
        assert_eq!(syms.label_at(0x4005, Some(3)), None);
        assert_eq!(syms.label_at(0xC0A4, None).as_deref(), Some("wPlayerHP+4"));
        assert_eq!(syms.label_at(0xD010, Some(2)), None);
        assert_eq!(syms.label_at(0xFF90, None).as_deref(), Some("hFrame+$10"));
        assert_eq!(syms.label_at(0xFF40, None), None);
    }

    #[test]
    fn whitespace_case_and_comments_are_tolerated() {
        let text = "\u{FEFF}; header\r\n\r\n   00:0150\tMain   \r\n\t0:50 Low ; trailing\n\
                    0001:4abc Mixed\n  ;; only a comment\n";
        let syms = Symbols::parse(text);
        assert!(syms.skipped().is_empty(), "{:?}", syms.skipped());
        assert_eq!(syms.lookup("Main"), Some((0, 0x0150)));
        assert_eq!(syms.lookup("Low"), Some((0, 0x0050)));
        assert_eq!(syms.lookup("Mixed"), Some((1, 0x4ABC)));
    }

    #[test]
    fn lines_that_do_not_read_are_skipped_with_a_reason() {
        let text = "00:0150 Main\n\
                    garbage\n\
                    00:0160\n\
                    0160 NoBank\n\
                    xx:0160 BadBank\n\
                    00:01G0 BadAddr\n\
                    00:10000 TooFar\n\
                    10000:0000 TooManyBanks\n\
                    00:0170 Two Names\n\
                    :0170 Empty\n\
                    00:0180 Fine\n";
        let syms = Symbols::parse(text);
        let names: Vec<&str> = syms.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["Main", "Fine"]);
        let lines: Vec<usize> = syms.skipped().iter().map(|s| s.line).collect();
        assert_eq!(lines, [2, 3, 4, 5, 6, 7, 8, 9, 10]);
        assert_eq!(syms.skipped_count(), 9);
        assert!(
            syms.skipped()[5].reason.contains("larger than $FFFF"),
            "{:?}",
            syms.skipped()[5]
        );
        assert!(syms.skipped()[3].reason.contains("not hexadecimal"));
    }

    #[test]
    fn skipped_lines_are_counted_past_the_ones_kept() {
        let syms = Symbols::parse(&"nope\n".repeat(150));
        assert_eq!(syms.skipped().len(), MAX_SKIPPED_KEPT);
        assert_eq!(syms.skipped_count(), 150);
        assert!(syms.is_empty());
    }

    #[test]
    fn the_sym_file_beside_a_rom_is_loaded() {
        let dir = std::env::temp_dir().join(format!("gbhost-symbols-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let rom = dir.join("game.gb");
        std::fs::write(&rom, [0u8; 16]).unwrap();
        assert!(Symbols::beside_rom(&rom).unwrap().is_none());
        std::fs::write(dir.join("game.sym"), SYM).unwrap();
        let syms = Symbols::beside_rom(&rom).unwrap().unwrap();
        assert_eq!(syms.lookup("Main"), Some((0, 0x0150)));
        // Not UTF-8: read lossily, the good lines kept.
        std::fs::write(dir.join("game.sym"), b"00:0150 Main\n\xFF\xFE junk\n").unwrap();
        let syms = Symbols::beside_rom(&rom).unwrap().unwrap();
        assert_eq!((syms.len(), syms.skipped_count()), (1, 1));
        // A folder named like the file is not a file.
        let other = dir.join("other.gbc");
        std::fs::create_dir_all(dir.join("other.sym")).unwrap();
        assert!(Symbols::beside_rom(&other).unwrap().is_none());
        assert!(matches!(
            Symbols::load(&dir.join("missing.sym")),
            Err(SymbolsError::Io { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn names_in_a_machine_use_its_mapped_banks() {
        let rom = gb_core::asm::rom("halt").unwrap();
        let gb = Gb::new(gb_core::Cartridge::from_rom(rom).unwrap());
        let syms = Symbols::parse(SYM);
        assert_eq!(syms.name_in(&gb, 0x4000), Some("Bank1Code"));
        assert_eq!(syms.label_in(&gb, 0x0155).as_deref(), Some("Main.loop+2"));
        assert_eq!(syms.name_in(&gb, 0xD000), Some("wBank1"));
    }

    #[test]
    fn a_sym_files_labels_appear_in_a_disassembly() {
        use gb_core::asm::{assemble_with_symbols, disassemble_bytes};

        let src = "Main:\n ld hl, wCounter\n.clear:\n xor a\n ld [hl+], a\n dec b\n\
                   jr nz, .clear\n ldh a, [$FF44]\n call Sub\n jp Main\n\
                   Sub:\n ld [wCounter], a\n ret\n\
                   section \"vars\", WRAM0[$C0A0]\nwCounter: ds 1";
        let asm = assemble_with_symbols(src, 0x0150).unwrap();
        // The .sym file rgblink would write for it.
        let sym: String = ["Main", "Main.clear", "Sub", "wCounter"]
            .iter()
            .map(|name| format!("00:{:04x} {name}\n", asm.address(name).unwrap()))
            .collect();
        let syms = Symbols::parse(&format!("; File generated by rgblink\n{sym}"));
        let lines: Vec<String> = disassemble_bytes(&asm.bytes, 0x0150)
            .iter()
            .map(|i| {
                let here = syms.label_at(i.addr, None).unwrap_or_default();
                let text = i.text_with(|t| syms.name_at(t.addr, None).map(str::to_string));
                format!("{here:12} {text}")
            })
            .collect();
        assert_eq!(
            lines,
            [
                "Main         ld hl, wCounter",
                "Main.clear   xor a",
                "Main.clear+1 ld [hl+], a",
                "Main.clear+2 dec b",
                "Main.clear+3 jr nz, Main.clear",
                "Main.clear+5 ldh a, [$FF44]",
                "Main.clear+7 call Sub",
                "Main.clear+$A jp Main",
                "Sub          ld [wCounter], a",
                "Sub+3        ret",
            ]
        );
    }

    proptest! {
        /// Random text never panics, and what is kept reads back.
        #[test]
        fn random_text_never_panics(text in "(?s).{0,400}") {
            let syms = Symbols::parse(&text);
            prop_assert!(syms.len() + syms.skipped_count() <= text.lines().count());
            for s in syms.iter() {
                prop_assert!(syms.lookup(&s.name).is_some());
                let _ = syms.label_at(s.addr, Some(s.bank));
            }
        }

        /// Lines made of the format's own pieces, shuffled, never panic either.
        #[test]
        fn random_sym_like_lines_never_panic(
            lines in proptest::collection::vec("[0-9a-fA-F:; .@_xG\\t]{0,14}", 0..40),
            addr in any::<u16>(),
            bank in proptest::option::of(any::<u16>()),
        ) {
            let syms = Symbols::parse(&lines.join("\n"));
            let _ = syms.label_at(addr, bank);
            let _ = syms.name_at(addr, bank);
        }
    }
}
