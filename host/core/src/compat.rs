//! The palettes the CGB boot ROM gives a DMG game in compatibility mode (Pan Docs "Power Up
//! Sequence", "Compatibility palettes"; the table is the boot ROM's, as TCRF's "Game Boy Color
//! Bootstrap ROM" notes list it per game), and the 12 the player can pick with a button
//! combination during the logo ([`DmgPalette`]).
//!
//! The choice, as the boot ROM makes it:
//! 1. A game whose licensee is not Nintendo (old licensee code 0x01, or 0x33 with the new
//!    code `"01"`) gets palette ID 0.
//! 2. Otherwise the sum of the 16 title bytes is looked up in a table of 65 checksums (the
//!    index is the ID), then in 14 more whose games are told apart by the title's fourth letter
//!    (three rows of letters: a match in row `r` gives ID `65 + column + 14 r`). Not found: 0.
//! 3. The ID picks one of 51 combinations of three palettes (object palette 0, object palette
//!    1, background palette 0), each four RGB555 colours out of one packed table. Four
//!    combinations start in the middle of a palette of that table (the boot ROM's data
//!    overlaps): they are kept, since that is what the hardware shows.
//! 4. Two checksums (0x43, 0x58) also get the DMG's logo tile map in VRAM.
//!
//! A button combination held during the logo replaces the ID's combination with one of 12
//! ([`DmgPalette::Combo`]). Either way BGP, OBP0 and OBP1 then index these colours.

/// Which compatibility palette a DMG game gets on the CGB: a start parameter, like the buttons
/// a player holds while the CGB boot ROM shows its logo.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DmgPalette {
    /// The boot ROM's choice from the title checksum (the default: no button held).
    #[default]
    Auto,
    /// One of the 12 button combinations, 1 to 12 in the order of [`DmgPalette::COMBOS`].
    Combo(u8),
}

impl DmgPalette {
    /// The 12 combinations' buttons, in the order of `Combo(1)` to `Combo(12)`.
    pub const COMBOS: [&'static str; 12] = [
        "Right", "Left", "Up", "Down", "Right+A", "Left+A", "Up+A", "Down+A", "Right+B", "Left+B",
        "Up+B", "Down+B",
    ];

    /// Parse `auto`, a number 1-12 or a combination's buttons (`right+a`, case-insensitive).
    pub fn parse(s: &str) -> Option<DmgPalette> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("auto") {
            return Some(DmgPalette::Auto);
        }
        if let Ok(n) = s.parse::<u8>() {
            return (1..=12).contains(&n).then_some(DmgPalette::Combo(n));
        }
        let key = s.to_ascii_lowercase().replace(' ', "");
        DmgPalette::COMBOS
            .iter()
            .position(|c| c.to_ascii_lowercase() == key)
            .map(|i| DmgPalette::Combo(i as u8 + 1))
    }

    /// Whether this is `Auto` or a combination 1-12.
    pub fn is_valid(self) -> bool {
        match self {
            DmgPalette::Auto => true,
            DmgPalette::Combo(n) => (1..=12).contains(&n),
        }
    }
}

impl std::fmt::Display for DmgPalette {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DmgPalette::Auto => f.write_str("auto"),
            DmgPalette::Combo(n) => match DmgPalette::COMBOS.get(usize::from(n.wrapping_sub(1))) {
                Some(name) => write!(f, "{n} ({name})"),
                None => write!(f, "{n}"),
            },
        }
    }
}

/// Title checksums of palette IDs 0-64, in ID order.
const CHECKSUMS: [u8; 65] = [
    0x00, 0x88, 0x16, 0x36, 0xD1, 0xDB, 0xF2, 0x3C, 0x8C, 0x92, 0x3D, 0x5C, 0x58, 0xC9, 0x3E, 0x70,
    0x1D, 0x59, 0x69, 0x19, 0x35, 0xA8, 0x14, 0xAA, 0x75, 0x95, 0x99, 0x34, 0x6F, 0x15, 0xFF, 0x97,
    0x4B, 0x90, 0x17, 0x10, 0x39, 0xF7, 0xF6, 0xA2, 0x49, 0x4E, 0x43, 0x68, 0xE0, 0x8B, 0xF0, 0xCE,
    0x0C, 0x29, 0xE8, 0xB7, 0x86, 0x9A, 0x52, 0x01, 0x9D, 0x71, 0x9C, 0xBD, 0x5D, 0x6D, 0x67, 0x3F,
    0x6B,
];

/// Title checksums shared by several games, told apart by the title's fourth letter.
const SHARED_CHECKSUMS: [u8; 14] = [
    0xB3, 0x46, 0x28, 0xA5, 0xC6, 0xD3, 0x27, 0x61, 0x18, 0x66, 0x6A, 0xBF, 0x0D, 0xF4,
];

/// The fourth letters, one row per 14 IDs after ID 64 (row `r`, column `c`: ID 65 + c + 14 r).
const FOURTH_LETTERS: [&[u8]; 3] = [b"BEFAARBEKEK R-", b"URAR INAILICE ", b"R"];

/// The combination of each palette ID (bit 7: the game also gets the DMG logo's tile map).
const COMBO_OF_ID: [u8; 94] = [
    0, 4, 5, 35, 34, 3, 31, 15, 10, 5, 19, 36, 0x87, 37, 30, 44, 21, 32, 31, 20, 5, 33, 13, 14, 5,
    29, 5, 18, 9, 3, 2, 26, 25, 25, 41, 42, 26, 45, 42, 45, 36, 38, 0x9A, 42, 30, 41, 34, 34, 5,
    42, 6, 5, 33, 25, 42, 42, 40, 2, 16, 25, 42, 42, 5, 0, 39, // IDs 0-64
    36, 22, 25, 6, 32, 12, 36, 11, 39, 18, 39, 24, 31, 50, // 65-78
    17, 46, 6, 27, 0, 47, 41, 41, 0, 0, 19, 34, 23, 18, // 79-92
    29, // 93
];

/// Each combination: where object palette 0, object palette 1 and background palette 0 start
/// in [`COLORS`] (in colours).
const COMBOS: [[u8; 3]; 51] = [
    [16, 16, 116],
    [72, 72, 72],
    [80, 80, 80],
    [96, 96, 96],
    [36, 36, 36],
    [0, 0, 0],
    [108, 108, 108],
    [20, 20, 20],
    [48, 48, 48],
    [104, 104, 104],
    [64, 32, 32],
    [16, 112, 112],
    [16, 8, 8],
    [12, 16, 16],
    [16, 116, 116],
    [112, 16, 112],
    [8, 68, 8],
    [64, 64, 32],
    [16, 16, 28],
    [16, 16, 72],
    [16, 16, 80],
    [76, 76, 36],
    [15, 15, 44],
    [68, 68, 8],
    [16, 16, 8],
    [16, 16, 12],
    [112, 112, 0],
    [12, 12, 0],
    [0, 0, 4],
    [72, 88, 72],
    [80, 88, 80],
    [96, 88, 96],
    [64, 88, 32],
    [68, 16, 52],
    [111, 0, 56],
    [111, 16, 60],
    [76, 91, 36],
    [64, 112, 40],
    [16, 92, 112],
    [68, 88, 8],
    [16, 0, 8],
    [16, 112, 12],
    [112, 12, 0],
    [12, 112, 16],
    [84, 112, 16],
    [12, 112, 0],
    [100, 12, 112],
    [0, 112, 32],
    [16, 12, 112],
    [112, 12, 24],
    [16, 112, 116],
];

/// The combinations of [`DmgPalette::Combo`] 1-12.
const BUTTON_COMBOS: [u8; 12] = [1, 48, 5, 8, 0, 40, 43, 3, 6, 7, 28, 49];

/// The packed colour table (30 palettes of 4 colours, RGB555).
const COLORS: [u16; 120] = [
    0x7FFF, 0x32BF, 0x00D0, 0x0000, // 0
    0x639F, 0x4279, 0x15B0, 0x04CB, // 1
    0x7FFF, 0x6E31, 0x454A, 0x0000, // 2
    0x7FFF, 0x1BEF, 0x0200, 0x0000, // 3
    0x7FFF, 0x421F, 0x1CF2, 0x0000, // 4
    0x7FFF, 0x5294, 0x294A, 0x0000, // 5
    0x7FFF, 0x03FF, 0x012F, 0x0000, // 6
    0x7FFF, 0x03EF, 0x01D6, 0x0000, // 7
    0x7FFF, 0x42B5, 0x3DC8, 0x0000, // 8
    0x7E74, 0x03FF, 0x0180, 0x0000, // 9
    0x67FF, 0x77AC, 0x1A13, 0x2D6B, // 10
    0x7ED6, 0x4BFF, 0x2175, 0x0000, // 11
    0x53FF, 0x4A5F, 0x7E52, 0x0000, // 12
    0x4FFF, 0x7ED2, 0x3A4C, 0x1CE0, // 13
    0x03ED, 0x7FFF, 0x255F, 0x0000, // 14
    0x036A, 0x021F, 0x03FF, 0x7FFF, // 15
    0x7FFF, 0x01DF, 0x0112, 0x0000, // 16
    0x231F, 0x035F, 0x00F2, 0x0009, // 17
    0x7FFF, 0x03EA, 0x011F, 0x0000, // 18
    0x299F, 0x001A, 0x000C, 0x0000, // 19
    0x7FFF, 0x027F, 0x001F, 0x0000, // 20
    0x7FFF, 0x03E0, 0x0206, 0x0120, // 21
    0x7FFF, 0x7EEB, 0x001F, 0x7C00, // 22
    0x7FFF, 0x3FFF, 0x7E00, 0x001F, // 23
    0x7FFF, 0x03FF, 0x001F, 0x0000, // 24
    0x03FF, 0x001F, 0x000C, 0x0000, // 25
    0x7FFF, 0x033F, 0x0193, 0x0000, // 26
    0x0000, 0x4200, 0x037F, 0x7FFF, // 27
    0x7FFF, 0x7E8C, 0x7C00, 0x0000, // 28
    0x7FFF, 0x1BEF, 0x6180, 0x0000, // 29
];

/// What the boot ROM decides for a DMG game's header: the title checksum (what it leaves in
/// B, 0 for a game not licensed by Nintendo), the palettes and whether the logo's tile map is
/// written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Compat {
    /// The title checksum, or 0 when the licensee is not Nintendo.
    pub(crate) checksum: u8,
    /// Object palette 0, object palette 1, background palette 0, as RGB555 colours.
    pub(crate) palettes: [[u16; 4]; 3],
    /// The game's checksum asks for the DMG logo's tile map.
    pub(crate) logo_map: bool,
}

/// The boot ROM's choice for the cartridge header `rom` (0x0100-0x014F at least; missing
/// bytes count as 0), with the player's `choice`.
pub(crate) fn choose(rom: &[u8], choice: DmgPalette) -> Compat {
    let byte = |a: usize| rom.get(a).copied().unwrap_or(0);
    let nintendo = match byte(0x14B) {
        0x01 => true,
        0x33 => byte(0x144) == b'0' && byte(0x145) == b'1',
        _ => false,
    };
    let checksum = if nintendo {
        (0x134..0x144).fold(0u8, |acc, a| acc.wrapping_add(byte(a)))
    } else {
        0
    };
    let id = if nintendo {
        palette_id(checksum, byte(0x137))
    } else {
        0
    };
    let entry = COMBO_OF_ID[id];
    let combo = match choice {
        DmgPalette::Combo(n @ 1..=12) => BUTTON_COMBOS[usize::from(n - 1)],
        _ => entry & 0x7F,
    };
    let starts = COMBOS[usize::from(combo)];
    let palette = |start: u8| -> [u16; 4] {
        std::array::from_fn(|i| COLORS[(usize::from(start) + i).min(COLORS.len() - 1)])
    };
    Compat {
        checksum,
        palettes: [palette(starts[0]), palette(starts[1]), palette(starts[2])],
        logo_map: entry & 0x80 != 0,
    }
}

/// The palette ID of a Nintendo title with this checksum and fourth letter (0: not found).
fn palette_id(checksum: u8, fourth: u8) -> usize {
    if let Some(id) = CHECKSUMS.iter().position(|&c| c == checksum) {
        return id;
    }
    let Some(column) = SHARED_CHECKSUMS.iter().position(|&c| c == checksum) else {
        return 0;
    };
    FOURTH_LETTERS
        .iter()
        .position(|row| row.get(column) == Some(&fourth))
        .map_or(0, |row| 65 + column + 14 * row)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A header with this title and licensee codes.
    fn header(title: &[u8], old: u8, new: [u8; 2]) -> Vec<u8> {
        let mut rom = vec![0; 0x150];
        rom[0x134..0x134 + title.len()].copy_from_slice(title);
        rom[0x144..0x146].copy_from_slice(&new);
        rom[0x14B] = old;
        rom
    }

    #[test]
    fn other_licensees_get_palette_0() {
        let c = choose(&header(b"DMG-ACID2", 0x00, [0, 0]), DmgPalette::Auto);
        assert_eq!(c.checksum, 0);
        assert_eq!(c.palettes[2], [0x7FFF, 0x1BEF, 0x6180, 0x0000]);
        assert_eq!(c.palettes[0], [0x7FFF, 0x421F, 0x1CF2, 0x0000]);
        assert!(!c.logo_map);
    }

    #[test]
    fn nintendo_titles_by_checksum_and_fourth_letter() {
        // TETRIS: checksum 0xDB, ID 5, combination 3 (palette 24 everywhere).
        let tetris = choose(&header(b"TETRIS", 0x01, [0, 0]), DmgPalette::Auto);
        assert_eq!(tetris.checksum, 0xDB);
        assert_eq!(tetris.palettes, [[0x7FFF, 0x03FF, 0x001F, 0x0000]; 3]);
        // SUPER MARIOLAND: checksum 0x46 shared, 'E' in row 0, ID 66, combination 22 (an
        // overlapping one: object palettes start at the last colour of palette 3).
        let sml = choose(&header(b"SUPER MARIOLAND", 0x01, [0, 0]), DmgPalette::Auto);
        assert_eq!(sml.checksum, 0x46);
        assert_eq!(sml.palettes[0], [0x0000, 0x7FFF, 0x421F, 0x1CF2]);
        assert_eq!(sml.palettes[2], [0x7ED6, 0x4BFF, 0x2175, 0x0000]);
        // The new licensee code "01" counts as Nintendo too.
        let new = choose(&header(b"TETRIS", 0x33, *b"01"), DmgPalette::Auto);
        assert_eq!(new, tetris);
    }

    #[test]
    fn a_button_combination_overrides_the_choice() {
        let up = choose(&header(b"TETRIS", 0x01, [0, 0]), DmgPalette::Combo(3));
        assert_eq!(up.palettes, [[0x7FFF, 0x32BF, 0x00D0, 0x0000]; 3]);
        assert_eq!(up.checksum, 0xDB, "B still holds the checksum");
    }

    #[test]
    fn parse_names_and_numbers() {
        assert_eq!(DmgPalette::parse("auto"), Some(DmgPalette::Auto));
        assert_eq!(DmgPalette::parse("12"), Some(DmgPalette::Combo(12)));
        assert_eq!(DmgPalette::parse("Left+B"), Some(DmgPalette::Combo(10)));
        assert_eq!(DmgPalette::parse("13"), None);
        assert_eq!(DmgPalette::Combo(5).to_string(), "5 (Right+A)");
    }
}
