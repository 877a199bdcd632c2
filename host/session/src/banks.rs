//! Banked addresses as debuggers write them, `bank:addr` (`3:D000` is 0xD000 in work RAM bank
//! 3, mapped or not): which memory and offset they name ([`locate`]). The REPL's `peek`,
//! `poke` and `watch` take them; the memory is read and written as a flat domain (every bank
//! of it: 8 or 32 KiB of work RAM, 8 or 16 KiB of video RAM, the whole ROM and cartridge RAM),
//! so a bank need not be mapped to be seen or changed.

use gb_core::{Domain, Gb};

/// Why a banked address names nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BankError {
    /// The address is in a region without banks (I/O, OAM, HRAM, echo RAM).
    #[error(
        "{addr:04X} has no banks (banked: ROM 4000-7FFF, VRAM 8000-9FFF, cartridge RAM A000-BFFF, WRAM D000-DFFF)"
    )]
    NoBanks {
        /// The address.
        addr: u16,
    },
    /// The bank is not in the memory (on this model, with this cartridge).
    #[error("bank {bank} of {region} does not exist here ({banks} banks)")]
    NoSuchBank {
        /// The bank asked for.
        bank: u16,
        /// The region (`WRAM`, …).
        region: &'static str,
        /// How many banks there are.
        banks: usize,
    },
}

/// The memory and offset of `addr` in `bank`. Work RAM's bank 0 is 0xC000-0xCFFF: 0xD000-0xDFFF
/// takes banks 1 and up (1 only on the DMG); 0xC000-0xCFFF takes only bank 0.
pub fn locate(gb: &Gb, bank: u16, addr: u16) -> Result<(Domain, usize), BankError> {
    let (domain, region, size, base) = match addr {
        0x0000..=0x3FFF => (Domain::Rom, "ROM", 0x4000, 0x0000),
        0x4000..=0x7FFF => (Domain::Rom, "ROM", 0x4000, 0x4000),
        0x8000..=0x9FFF => (Domain::Vram, "VRAM", 0x2000, 0x8000),
        0xA000..=0xBFFF => (Domain::CartRam, "cartridge RAM", 0x2000, 0xA000),
        0xC000..=0xCFFF => {
            if bank != 0 {
                return Err(BankError::NoSuchBank {
                    bank,
                    region: "WRAM C000-CFFF",
                    banks: 1,
                });
            }
            return Ok((Domain::Wram, usize::from(addr - 0xC000)));
        }
        0xD000..=0xDFFF => (Domain::Wram, "WRAM", 0x1000, 0xD000),
        _ => return Err(BankError::NoBanks { addr }),
    };
    let len = gb.domain(domain).len();
    let banks = len / size;
    let in_range = |b: usize| b < banks && (domain != Domain::Wram || b >= 1);
    if !in_range(usize::from(bank)) {
        return Err(BankError::NoSuchBank {
            bank,
            region,
            banks,
        });
    }
    Ok((domain, usize::from(bank) * size + usize::from(addr - base)))
}

/// Where offset `offset` of `domain` is, as a debugger writes it: the CPU address, and the
/// bank when the memory has more than one bank a CPU address can show (`None` for bank 0 of
/// ROM 0x0000-0x3FFF, work RAM 0xC000-0xCFFF, the DMG's one switchable work RAM bank, and
/// memories without banks). `None` past the memory's end.
pub fn place(gb: &Gb, domain: Domain, offset: usize) -> Option<(Option<u16>, u16)> {
    place_in(domain, gb.domain(domain).len(), offset)
}

/// [`place`] for a memory of `len` bytes (no machine needed: a window formats rows with it).
pub fn place_in(domain: Domain, len: usize, offset: usize) -> Option<(Option<u16>, u16)> {
    if offset >= len {
        return None;
    }
    let banked = |size: usize, base: u16, first: usize| {
        let bank = offset / size;
        let addr = base + (offset % size) as u16;
        // One bank that can be there: no bank to name.
        let choices = len / size - first;
        Some(((choices > 1).then_some(bank as u16), addr))
    };
    match domain {
        Domain::Rom if offset < 0x4000 => Some((None, offset as u16)),
        Domain::Rom => banked(0x4000, 0x4000, 1),
        Domain::Vram => banked(0x2000, 0x8000, 0),
        Domain::CartRam => banked(0x2000, 0xA000, 0),
        Domain::Wram if offset < 0x1000 => Some((None, 0xC000 + offset as u16)),
        Domain::Wram => banked(0x1000, 0xD000, 1),
        Domain::Oam => Some((None, 0xFE00 + offset as u16)),
        Domain::Hram => Some((None, 0xFF80 + offset as u16)),
    }
}

/// [`place`] as text: `C0A2`, `3:D010`.
pub fn place_text(gb: &Gb, domain: Domain, offset: usize) -> String {
    place_text_in(domain, gb.domain(domain).len(), offset)
}

/// [`place_text`] for a memory of `len` bytes.
pub fn place_text_in(domain: Domain, len: usize, offset: usize) -> String {
    match place_in(domain, len, offset) {
        Some((Some(b), a)) => format!("{b:X}:{a:04X}"),
        Some((None, a)) => format!("{a:04X}"),
        None => "?".into(),
    }
}

/// The byte at `addr` of `bank`.
pub fn peek(gb: &Gb, bank: u16, addr: u16) -> Result<u8, BankError> {
    let (domain, offset) = locate(gb, bank, addr)?;
    Ok(gb.domain(domain).get(offset).copied().unwrap_or(0xFF))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gb_core::asm::RomBuilder;
    use gb_core::{Cartridge, Gb};

    fn gb(ram_code: u8) -> Gb {
        let rom = RomBuilder::new()
            .cartridge_type(0x1B)
            .rom_banks(8)
            .ram_size_code(ram_code)
            .program("loop:\n jr loop\n")
            .build()
            .unwrap();
        Gb::new(Cartridge::from_rom(rom).unwrap())
    }

    #[test]
    fn banks_name_offsets_of_the_flat_memories() {
        let g = gb(0x03);
        assert_eq!(locate(&g, 5, 0x4123), Ok((Domain::Rom, 5 * 0x4000 + 0x123)));
        assert_eq!(
            locate(&g, 3, 0xA010),
            Ok((Domain::CartRam, 3 * 0x2000 + 0x10))
        );
        assert_eq!(locate(&g, 0, 0x8001), Ok((Domain::Vram, 1)));
        assert_eq!(locate(&g, 1, 0xD002), Ok((Domain::Wram, 0x1002)));
        assert_eq!(locate(&g, 0, 0xC002), Ok((Domain::Wram, 2)));
        // The DMG has one switchable WRAM bank and one VRAM bank.
        assert!(matches!(
            locate(&g, 2, 0xD000),
            Err(BankError::NoSuchBank { banks: 2, .. })
        ));
        assert!(matches!(
            locate(&g, 0, 0xD000),
            Err(BankError::NoSuchBank { .. })
        ));
        assert!(matches!(
            locate(&g, 1, 0x8000),
            Err(BankError::NoSuchBank { banks: 1, .. })
        ));
        assert!(matches!(
            locate(&g, 8, 0x4000),
            Err(BankError::NoSuchBank { banks: 8, .. })
        ));
        assert_eq!(
            locate(&g, 0, 0xFF44),
            Err(BankError::NoBanks { addr: 0xFF44 })
        );
        assert!(matches!(
            locate(&gb(0x00), 0, 0xA000),
            Err(BankError::NoSuchBank { banks: 0, .. })
        ));
    }

    #[test]
    fn places_are_where_locate_finds_them() {
        let g = gb(0x03);
        for (domain, len) in [
            (Domain::Rom, 8 * 0x4000),
            (Domain::Wram, 0x2000),
            (Domain::Vram, 0x2000),
            (Domain::CartRam, 4 * 0x2000),
        ] {
            for offset in (0..len).step_by(0x7F3) {
                let (bank, addr) = place(&g, domain, offset).unwrap();
                let bank = bank.unwrap_or(match (domain, addr) {
                    (Domain::Rom, 0x4000..) | (Domain::Wram, 0xD000..) => 1,
                    _ => 0,
                });
                assert_eq!(
                    locate(&g, bank, addr),
                    Ok((domain, offset)),
                    "{domain:?} {offset:#X}"
                );
            }
        }
        assert_eq!(
            place_text(&g, Domain::Wram, 0x10A2),
            "D0A2",
            "the DMG has one bank there"
        );
        assert_eq!(place_text(&g, Domain::CartRam, 0x2010), "1:A010");
        assert_eq!(place_text(&g, Domain::Hram, 2), "FF82");
        assert_eq!(place(&g, Domain::Hram, 0x7F), None);
    }

    #[test]
    fn peeks_read_banks_that_are_not_mapped() {
        let mut g = gb(0x03);
        g.domain_mut(Domain::CartRam).unwrap()[2 * 0x2000 + 7] = 0x5A;
        assert_eq!(peek(&g, 2, 0xA007), Ok(0x5A));
        assert_ne!(
            g.peek(0xA007),
            0x5A,
            "bank 0 is the one mapped (and RAM is disabled)"
        );
    }
}
