//! The I/O registers by their Pan Docs names (0xFF00-0xFF7F and IE at 0xFFFF), and their bits
//! in words for the important ones (P1, SC, TAC, IF/IE, NR52, LCDC, STAT, the DMG palettes,
//! KEY1, VBK, HDMA5, BCPS/OCPS, OPRI, SVBK): pure functions for the I/O registers window.

/// Every address the I/O registers window lists: 0xFF00-0xFF7F, then IE.
pub fn addresses() -> impl Iterator<Item = u16> {
    (0xFF00..=0xFF7F).chain(std::iter::once(0xFFFF))
}

/// The Pan Docs name of the register at `addr` (wave RAM bytes are `WAVE0`-`WAVEF`); `None`
/// for addresses with no register.
pub fn name(addr: u16) -> Option<&'static str> {
    const WAVE: [&str; 16] = [
        "WAVE0", "WAVE1", "WAVE2", "WAVE3", "WAVE4", "WAVE5", "WAVE6", "WAVE7", "WAVE8", "WAVE9",
        "WAVEA", "WAVEB", "WAVEC", "WAVED", "WAVEE", "WAVEF",
    ];
    Some(match addr {
        0xFF00 => "P1",
        0xFF01 => "SB",
        0xFF02 => "SC",
        0xFF04 => "DIV",
        0xFF05 => "TIMA",
        0xFF06 => "TMA",
        0xFF07 => "TAC",
        0xFF0F => "IF",
        0xFF10 => "NR10",
        0xFF11 => "NR11",
        0xFF12 => "NR12",
        0xFF13 => "NR13",
        0xFF14 => "NR14",
        0xFF16 => "NR21",
        0xFF17 => "NR22",
        0xFF18 => "NR23",
        0xFF19 => "NR24",
        0xFF1A => "NR30",
        0xFF1B => "NR31",
        0xFF1C => "NR32",
        0xFF1D => "NR33",
        0xFF1E => "NR34",
        0xFF20 => "NR41",
        0xFF21 => "NR42",
        0xFF22 => "NR43",
        0xFF23 => "NR44",
        0xFF24 => "NR50",
        0xFF25 => "NR51",
        0xFF26 => "NR52",
        0xFF30..=0xFF3F => WAVE[usize::from(addr - 0xFF30)],
        0xFF40 => "LCDC",
        0xFF41 => "STAT",
        0xFF42 => "SCY",
        0xFF43 => "SCX",
        0xFF44 => "LY",
        0xFF45 => "LYC",
        0xFF46 => "DMA",
        0xFF47 => "BGP",
        0xFF48 => "OBP0",
        0xFF49 => "OBP1",
        0xFF4A => "WY",
        0xFF4B => "WX",
        0xFF4C => "KEY0",
        0xFF4D => "KEY1",
        0xFF4F => "VBK",
        0xFF50 => "BANK",
        0xFF51 => "HDMA1",
        0xFF52 => "HDMA2",
        0xFF53 => "HDMA3",
        0xFF54 => "HDMA4",
        0xFF55 => "HDMA5",
        0xFF56 => "RP",
        0xFF68 => "BCPS",
        0xFF69 => "BCPD",
        0xFF6A => "OCPS",
        0xFF6B => "OCPD",
        0xFF6C => "OPRI",
        0xFF70 => "SVBK",
        0xFF76 => "PCM12",
        0xFF77 => "PCM34",
        0xFFFF => "IE",
        _ => return None,
    })
}

/// The address of the register named `name` (case-insensitive; the tests use it).
#[cfg_attr(not(test), allow(dead_code))]
pub fn address(name: &str) -> Option<u16> {
    addresses().find(|&a| self::name(a).is_some_and(|n| n.eq_ignore_ascii_case(name)))
}

/// The names of the set bits among `names` (bit 0 first), or "none".
fn set_bits(value: u8, names: &[&str]) -> String {
    let on: Vec<&str> = names
        .iter()
        .enumerate()
        .filter(|(i, _)| value & (1 << i) != 0)
        .map(|(_, n)| *n)
        .collect();
    if on.is_empty() {
        "none".into()
    } else {
        on.join(" ")
    }
}

/// What a register's value means, in words (empty for registers shown by value only); `cgb`:
/// the machine is a Game Boy Color (SC's bit 1, the clock speed, exists only there).
pub fn describe(addr: u16, v: u8, cgb: bool) -> String {
    let bit = |b: u8| v & (1 << b) != 0;
    let on_off = |b: u8| if bit(b) { "on" } else { "off" };
    match addr {
        0xFF00 => {
            let buttons = !bit(5);
            let dpad = !bit(4);
            let names: [&str; 4] = match (buttons, dpad) {
                (true, false) => ["A", "B", "Select", "Start"],
                (false, true) => ["Right", "Left", "Up", "Down"],
                _ => ["A/Right", "B/Left", "Select/Up", "Start/Down"],
            };
            let selected = match (buttons, dpad) {
                (true, true) => "buttons+d-pad",
                (true, false) => "buttons",
                (false, true) => "d-pad",
                (false, false) => "nothing",
            };
            format!("select {selected}; pressed {}", set_bits(!v & 0x0F, &names))
        }
        0xFF02 => format!(
            "transfer {}, {} clock{}",
            on_off(7),
            if bit(0) { "internal" } else { "external" },
            if cgb && bit(1) { ", fast" } else { "" }
        ),
        0xFF07 => {
            let hz = ["4096", "262144", "65536", "16384"][usize::from(v & 3)];
            format!("timer {}, {hz} Hz", on_off(2))
        }
        0xFF0F | 0xFFFF => set_bits(v & 0x1F, &["VBlank", "LCD", "Timer", "Serial", "Joypad"]),
        0xFF26 => format!(
            "audio {}; channels on: {}",
            on_off(7),
            set_bits(v & 0x0F, &["CH1", "CH2", "CH3", "CH4"])
        ),
        0xFF40 => [
            format!("LCD {}", on_off(7)),
            format!("win map {}", if bit(6) { "9C00" } else { "9800" }),
            format!("win {}", on_off(5)),
            format!("tiles {}", if bit(4) { "8000" } else { "8800" }),
            format!("BG map {}", if bit(3) { "9C00" } else { "9800" }),
            format!("OBJ {}", if bit(2) { "8x16" } else { "8x8" }),
            format!("OBJ {}", on_off(1)),
            format!("BG/win {}", on_off(0)),
        ]
        .join(", "),
        0xFF41 => {
            let mode = ["0 HBlank", "1 VBlank", "2 OAM scan", "3 drawing"][usize::from(v & 3)];
            let ints = set_bits(v >> 3 & 0x0F, &["mode0", "mode1", "mode2", "LYC"]);
            format!(
                "mode {mode}{}; interrupts: {ints}",
                if bit(2) { ", LY=LYC" } else { "" }
            )
        }
        0xFF47..=0xFF49 => format!(
            "shades {} {} {} {}",
            v & 3,
            (v >> 2) & 3,
            (v >> 4) & 3,
            (v >> 6) & 3
        ),
        0xFF4D => format!(
            "{} speed{}",
            if bit(7) { "double" } else { "normal" },
            if bit(0) { ", switch armed" } else { "" }
        ),
        0xFF4F => format!("bank {}", v & 1),
        0xFF55 => {
            if bit(7) {
                "no HBlank DMA".into()
            } else {
                format!("HBlank DMA: {} blocks left", u16::from(v & 0x7F) + 1)
            }
        }
        0xFF68 | 0xFF6A => format!(
            "index {}{}",
            v & 0x3F,
            if bit(7) { ", auto-increment" } else { "" }
        ),
        0xFF6C => if bit(0) {
            "priority by X"
        } else {
            "priority by OAM index"
        }
        .into(),
        0xFF70 => format!("bank {}", (v & 7).max(1)),
        _ => String::new(),
    }
}

/// The flags of F as `Z N H C`, a `-` for each clear one.
pub fn flags(f: u8) -> String {
    ["Z", "N", "H", "C"]
        .iter()
        .enumerate()
        .map(|(i, n)| if f & (0x80 >> i) != 0 { *n } else { "-" })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_register_has_its_pan_docs_name() {
        let expected = [
            (0xFF00, "P1"),
            (0xFF01, "SB"),
            (0xFF02, "SC"),
            (0xFF04, "DIV"),
            (0xFF05, "TIMA"),
            (0xFF06, "TMA"),
            (0xFF07, "TAC"),
            (0xFF0F, "IF"),
            (0xFF10, "NR10"),
            (0xFF14, "NR14"),
            (0xFF16, "NR21"),
            (0xFF1A, "NR30"),
            (0xFF1E, "NR34"),
            (0xFF20, "NR41"),
            (0xFF23, "NR44"),
            (0xFF24, "NR50"),
            (0xFF25, "NR51"),
            (0xFF26, "NR52"),
            (0xFF30, "WAVE0"),
            (0xFF3F, "WAVEF"),
            (0xFF40, "LCDC"),
            (0xFF41, "STAT"),
            (0xFF42, "SCY"),
            (0xFF43, "SCX"),
            (0xFF44, "LY"),
            (0xFF45, "LYC"),
            (0xFF46, "DMA"),
            (0xFF47, "BGP"),
            (0xFF48, "OBP0"),
            (0xFF49, "OBP1"),
            (0xFF4A, "WY"),
            (0xFF4B, "WX"),
            (0xFF4D, "KEY1"),
            (0xFF4F, "VBK"),
            (0xFF51, "HDMA1"),
            (0xFF55, "HDMA5"),
            (0xFF56, "RP"),
            (0xFF68, "BCPS"),
            (0xFF69, "BCPD"),
            (0xFF6A, "OCPS"),
            (0xFF6B, "OCPD"),
            (0xFF6C, "OPRI"),
            (0xFF70, "SVBK"),
            (0xFF76, "PCM12"),
            (0xFF77, "PCM34"),
            (0xFFFF, "IE"),
        ];
        for (a, n) in expected {
            assert_eq!(name(a), Some(n), "{a:04X}");
            assert_eq!(address(n), Some(a), "{n}");
        }
        // The five sound channels' registers NR10-NR52 all named (FF15 and FF1F are not).
        let sound = (0xFF10..=0xFF26u16).filter(|&a| name(a).is_some()).count();
        assert_eq!(sound, 21);
        assert_eq!(name(0xFF03), None);
        assert_eq!(name(0xFF7F), None);
        assert_eq!(addresses().count(), 129);
        // Names are unique.
        let mut names: Vec<&str> = addresses().filter_map(name).collect();
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n);
    }

    #[test]
    fn important_registers_decode_their_bits() {
        assert_eq!(
            describe(0xFF40, 0x91, false),
            "LCD on, win map 9800, win off, tiles 8000, BG map 9800, OBJ 8x8, OBJ off, BG/win on"
        );
        assert_eq!(
            describe(0xFF40, 0b0110_1110, false),
            "LCD off, win map 9C00, win on, tiles 8800, BG map 9C00, OBJ 8x16, OBJ on, BG/win off"
        );
        assert_eq!(
            describe(0xFF41, 0b1100_0101, false),
            "mode 1 VBlank, LY=LYC; interrupts: LYC"
        );
        assert_eq!(
            describe(0xFF41, 0b0010_1011, false),
            "mode 3 drawing; interrupts: mode0 mode2"
        );
        assert_eq!(describe(0xFF07, 0x05, false), "timer on, 262144 Hz");
        assert_eq!(describe(0xFF07, 0x02, false), "timer off, 65536 Hz");
        assert_eq!(describe(0xFFFF, 0x05, false), "VBlank Timer");
        assert_eq!(describe(0xFF0F, 0xE0, false), "none");
        assert_eq!(describe(0xFF00, 0xDE, false), "select buttons; pressed A");
        assert_eq!(describe(0xFF00, 0xE7, false), "select d-pad; pressed Down");
        assert_eq!(
            describe(0xFF00, 0xFF, false),
            "select nothing; pressed none"
        );
        assert_eq!(describe(0xFF02, 0x81, false), "transfer on, internal clock");
        // Bit 1 reads 1 on the DMG: only the CGB has a fast clock.
        assert_eq!(describe(0xFF02, 0xFE, false), "transfer on, external clock");
        assert_eq!(
            describe(0xFF02, 0x83, true),
            "transfer on, internal clock, fast"
        );
        assert_eq!(
            describe(0xFF26, 0x83, false),
            "audio on; channels on: CH1 CH2"
        );
        assert_eq!(describe(0xFF47, 0xE4, false), "shades 0 1 2 3");
        assert_eq!(describe(0xFF4D, 0x81, false), "double speed, switch armed");
        assert_eq!(describe(0xFF4F, 0xFF, false), "bank 1");
        assert_eq!(describe(0xFF55, 0xFF, false), "no HBlank DMA");
        assert_eq!(describe(0xFF55, 0x03, false), "HBlank DMA: 4 blocks left");
        assert_eq!(describe(0xFF68, 0x86, false), "index 6, auto-increment");
        assert_eq!(describe(0xFF6C, 0xFE, false), "priority by OAM index");
        assert_eq!(describe(0xFF70, 0xF8, false), "bank 1");
        assert_eq!(describe(0xFF70, 0xFB, false), "bank 3");
        assert_eq!(describe(0xFF05, 0x12, false), "");
        assert_eq!(flags(0xB0), "Z - H C");
        assert_eq!(flags(0x40), "- N - -");
    }
}
