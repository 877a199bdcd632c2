//! Cartridge images: header, logo, checksums, and the program placed around them.

use super::assemble::{AsmError, Assembly, Image, assemble_chunks};

/// The logo bitmap the boot ROM checks at $0104-$0133.
pub(crate) const NINTENDO_LOGO: [u8; 48] = [
    0xCE, 0xED, 0x66, 0x66, 0xCC, 0x0D, 0x00, 0x0B, 0x03, 0x73, 0x00, 0x83, 0x00, 0x0C, 0x00, 0x0D,
    0x00, 0x08, 0x11, 0x1F, 0x88, 0x89, 0x00, 0x0E, 0xDC, 0xCC, 0x6E, 0xE6, 0xDD, 0xDD, 0xD9, 0x99,
    0xBB, 0xBB, 0x67, 0x63, 0x6E, 0x0E, 0xEC, 0xCC, 0xDD, 0xDC, 0x99, 0x9F, 0xBB, 0xB9, 0x33, 0x3E,
];

/// Where the program starts by default, right after the header.
const PROGRAM_START: u32 = 0x0150;
const HEADER: std::ops::Range<usize> = 0x0100..0x0150;

/// Builds a cartridge image around an assembled program.
///
/// Defaults: 32 KiB ROM-only cartridge (type $00, 2 banks, no RAM), title `"GBHOST TEST"`,
/// unused bytes `$FF`. The image has the Nintendo logo at $0104, the entry point
/// `nop; jp $0150` at $0100, and correct header ($014D) and global ($014E-$014F) checksums. The
/// program is assembled at $0150 and may use `org` (or `section`) to place code elsewhere, such
/// as RST targets at $0000-$0038 or interrupt vectors at $0040-$0060, and `section "x",
/// ROMX[$4000], BANK[n]` for switchable banks; it may not overlap the header ($0100-$014F).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RomBuilder {
    title: String,
    cartridge_type: u8,
    rom_banks: u32,
    ram_size_code: u8,
    cgb_flag: u8,
    licensee: u8,
    pad: u8,
    program: String,
}

impl Default for RomBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl RomBuilder {
    /// A 32 KiB ROM-only cartridge with an empty program.
    pub fn new() -> Self {
        Self {
            title: "GBHOST TEST".to_string(),
            cartridge_type: 0x00,
            rom_banks: 2,
            ram_size_code: 0x00,
            cgb_flag: 0x00,
            licensee: 0x00,
            pad: 0xFF,
            program: String::new(),
        }
    }

    /// Sets the title ($0134-$0143): at most 16 ASCII characters.
    pub fn title(mut self, title: &str) -> Self {
        self.title = title.to_string();
        self
    }

    /// Sets the cartridge type byte ($0147), e.g. $01 for MBC1.
    pub fn cartridge_type(mut self, cartridge_type: u8) -> Self {
        self.cartridge_type = cartridge_type;
        self
    }

    /// Sets the ROM size in 16 KiB banks: a power of two from 2 to 512. The ROM size code
    /// ($0148) follows from it.
    pub fn rom_banks(mut self, banks: u32) -> Self {
        self.rom_banks = banks;
        self
    }

    /// Sets the RAM size code ($0149): 0 none, 2 8 KiB, 3 32 KiB, 4 128 KiB, 5 64 KiB.
    pub fn ram_size_code(mut self, code: u8) -> Self {
        self.ram_size_code = code;
        self
    }

    /// Sets the CGB flag ($0143): $80 for a game that also runs on the CGB in CGB mode, $C0
    /// for a CGB-only one; $00 (the default) runs in DMG compatibility mode on a CGB. The title
    /// then has at most 15 characters.
    pub fn cgb_flag(mut self, flag: u8) -> Self {
        self.cgb_flag = flag;
        self
    }

    /// Sets the old licensee code ($014B; default $00): $01 is Nintendo, which the CGB boot
    /// ROM gives a compatibility palette by title.
    pub fn licensee(mut self, code: u8) -> Self {
        self.licensee = code;
        self
    }

    /// Sets the byte that fills unused ROM space (default $FF).
    pub fn pad_byte(mut self, pad: u8) -> Self {
        self.pad = pad;
        self
    }

    /// Sets the program source, assembled at $0150.
    pub fn program(mut self, src: &str) -> Self {
        self.program = src.to_string();
        self
    }

    /// Assembles the program and builds the image.
    pub fn build(self) -> Result<Vec<u8>, AsmError> {
        self.build_with_symbols().map(|a| a.bytes)
    }

    /// Like [`RomBuilder::build`], also returning the program's symbols.
    pub fn build_with_symbols(self) -> Result<Assembly, AsmError> {
        if !(2..=512).contains(&self.rom_banks) || !self.rom_banks.is_power_of_two() {
            return Err(AsmError::new(
                0,
                format!(
                    "rom_banks must be a power of two from 2 to 512, not {}",
                    self.rom_banks
                ),
            ));
        }
        let max_title = if self.cgb_flag == 0 { 16 } else { 15 };
        if self.title.len() > max_title || !self.title.is_ascii() {
            return Err(AsmError::new(
                0,
                format!(
                    "title must be at most {max_title} ASCII characters: {:?}",
                    self.title
                ),
            ));
        }
        let (chunks, symbols) = assemble_chunks(&self.program, PROGRAM_START, true)?;

        let size = self.rom_banks as usize * 0x4000;
        let mut image = Image::new(size, self.pad);
        // The header region is reserved before the program is placed.
        image.used[HEADER].fill(true);
        for chunk in &chunks {
            let offset = chunk.phys as usize;
            if offset + chunk.bytes.len() > size {
                return Err(AsmError::new(
                    chunk.line,
                    format!(
                        "address ${offset:04X} is outside the ROM ({} banks)",
                        self.rom_banks
                    ),
                ));
            }
            if (offset..offset + chunk.bytes.len()).any(|i| HEADER.contains(&i)) {
                return Err(AsmError::new(
                    chunk.line,
                    "overlaps the cartridge header ($0100-$014F)",
                ));
            }
            image.place(offset, chunk, 0)?;
        }

        let rom = &mut image.bytes;
        rom[HEADER].fill(0);
        rom[0x100..0x104].copy_from_slice(&[0x00, 0xC3, 0x50, 0x01]);
        rom[0x104..0x134].copy_from_slice(&NINTENDO_LOGO);
        rom[0x134..0x134 + self.title.len()].copy_from_slice(self.title.as_bytes());
        if self.cgb_flag != 0 {
            rom[0x143] = self.cgb_flag;
        }
        rom[0x14B] = self.licensee;
        rom[0x147] = self.cartridge_type;
        rom[0x148] = self.rom_banks.trailing_zeros() as u8 - 1;
        rom[0x149] = self.ram_size_code;
        rom[0x14A] = 0x01; // destination: overseas
        rom[0x14D] = header_checksum(rom);
        let global = global_checksum(rom);
        rom[0x14E..0x150].copy_from_slice(&global.to_be_bytes());
        Ok(Assembly {
            bytes: image.bytes,
            symbols,
        })
    }
}

/// The header checksum the boot ROM verifies: over $0134-$014C, `x = x - byte - 1`.
fn header_checksum(rom: &[u8]) -> u8 {
    rom[0x134..0x14D]
        .iter()
        .fold(0u8, |x, b| x.wrapping_sub(*b).wrapping_sub(1))
}

/// The global checksum: the 16-bit sum of every byte except $014E-$014F.
fn global_checksum(rom: &[u8]) -> u16 {
    rom.iter()
        .enumerate()
        .filter(|(i, _)| *i != 0x14E && *i != 0x14F)
        .fold(0u16, |sum, (_, b)| sum.wrapping_add(u16::from(*b)))
}

/// Builds a default 32 KiB ROM-only cartridge around `src`:
/// `RomBuilder::new().program(src).build()`.
pub fn rom(src: &str) -> Result<Vec<u8>, AsmError> {
    RomBuilder::new().program(src).build()
}
