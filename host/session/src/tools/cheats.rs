//! Cheat codes: the Game Genie's ROM patches and the GameShark's RAM writes, decoded as Pan
//! Docs describes them ("Game Genie/Shark Cheats").
//!
//! - **Game Genie** `ABC-DEF-GHI` (or `ABC-DEF`): `AB` is the new byte; the address is `FCDE`
//!   with its top digit XORed with 0xF (it must fall in the ROM, 0x0000-0x7FFF); `GI` is the
//!   compare byte, XORed with 0xBA and rotated left by two (decoded: rotated right by two,
//!   then XORed); `H` is not used by the decoder (its meaning is unknown; any digit is taken).
//!   The device answers a ROM read of the address with the new byte, only when the cartridge's
//!   byte is the compare byte (which keeps a code to the bank it was made for).
//! - **GameShark** `TTVVLLHH`: writes `VV` at address `HHLL` once per frame (the device hooks
//!   the VBlank interrupt; gbhost writes at the start of each frame, which is VBlank's start).
//!   `TT` is the type: `00` and `01` write into what is mapped at the address now; `8X` writes
//!   cartridge RAM bank `X` at 0xA000-0xBFFF whatever is mapped; `9X` writes work RAM bank `X`
//!   at 0xD000-0xDFFF (the CGB's banks; the GameShark for the Game Boy Color's convention).
//!   The address must be RAM: VRAM, cartridge RAM, work RAM, OAM or high RAM.
//!
//! Codes are kept as their canonical text (upper case, Game Genie with dashes) in the session's
//! event log: turning one on or off is an outside input like a button.

use gb_core::bus::RomCheat;
use gb_core::{Domain, Gb};

/// A decoded cheat code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cheat {
    /// A Game Genie ROM patch.
    GameGenie(RomCheat),
    /// A GameShark RAM write, made once per frame.
    GameShark {
        /// The type byte (`01`, `8X`, `9X`).
        kind: u8,
        /// The byte written.
        value: u8,
        /// The address.
        addr: u16,
    },
}

/// Why a code is not a cheat code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheatError {
    /// Neither shape.
    #[error(
        "'{0}' is not a cheat code: a Game Genie code is ABC-DEF-GHI or ABC-DEF (hex digits), a GameShark code 8 hex digits (01VVAAAA)"
    )]
    Shape(String),
    /// A character that is not a hex digit.
    #[error("'{code}': '{ch}' is not a hex digit (0-9, A-F)")]
    NotHex {
        /// The code.
        code: String,
        /// The character.
        ch: char,
    },
    /// A Game Genie address outside the ROM.
    #[error(
        "'{code}' would patch {addr:04X}, outside the ROM (a Game Genie code patches reads of 0000-7FFF: is it a code for another console?)"
    )]
    GenieNotRom {
        /// The code.
        code: String,
        /// The address it decodes to.
        addr: u16,
    },
    /// A GameShark address that is not RAM.
    #[error(
        "'{code}' writes {addr:04X}, which is not RAM (a GameShark code writes 8000-9FFF, A000-DFFF, FE00-FE9F or FF80-FFFE; the address is the last four digits, low byte first)"
    )]
    SharkNotRam {
        /// The code.
        code: String,
        /// The address it decodes to.
        addr: u16,
    },
    /// A GameShark type byte gbhost does not know.
    #[error(
        "'{code}': type {kind:02X} is unknown (00 or 01: a write where the address is mapped; 8X: cartridge RAM bank X; 9X: work RAM bank X)"
    )]
    SharkType {
        /// The code.
        code: String,
        /// The type byte.
        kind: u8,
    },
    /// A banked GameShark code whose address is not in the banked region of its type.
    #[error("'{code}': type {kind:02X} writes a bank of {region}, but {addr:04X} is not there")]
    SharkBankRegion {
        /// The code.
        code: String,
        /// The type byte.
        kind: u8,
        /// The address.
        addr: u16,
        /// The region the type banks.
        region: &'static str,
    },
}

fn hex_digits(code: &str, text: &str) -> Result<Vec<u8>, CheatError> {
    text.chars()
        .map(|c| {
            c.to_digit(16).map(|d| d as u8).ok_or(CheatError::NotHex {
                code: code.to_owned(),
                ch: c,
            })
        })
        .collect()
}

/// Decode a code, typed or pasted: Game Genie with or without dashes and spaces around it,
/// GameShark as 8 digits; any case.
pub fn parse(code: &str) -> Result<Cheat, CheatError> {
    let trimmed = code.trim();
    let compact: String = trimmed
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase();
    let has_dash = compact.contains('-');
    let digits: String = compact.chars().filter(|&c| c != '-').collect();
    match (digits.len(), has_dash) {
        (9 | 6, _) => parse_genie(trimmed, &digits),
        (8, false) => parse_shark(trimmed, &digits),
        _ => Err(CheatError::Shape(trimmed.to_owned())),
    }
}

fn parse_genie(code: &str, digits: &str) -> Result<Cheat, CheatError> {
    let d = hex_digits(code, digits)?;
    let value = (d[0] << 4) | d[1];
    let addr = (u16::from(d[5] ^ 0xF) << 12)
        | (u16::from(d[2]) << 8)
        | (u16::from(d[3]) << 4)
        | u16::from(d[4]);
    if addr >= 0x8000 {
        return Err(CheatError::GenieNotRom {
            code: code.to_owned(),
            addr,
        });
    }
    let compare = (d.len() == 9).then(|| ((d[6] << 4) | d[8]).rotate_right(2) ^ 0xBA);
    Ok(Cheat::GameGenie(RomCheat {
        addr,
        value,
        compare,
    }))
}

fn parse_shark(code: &str, digits: &str) -> Result<Cheat, CheatError> {
    let d = hex_digits(code, digits)?;
    let byte = |i: usize| (d[i] << 4) | d[i + 1];
    let (kind, value) = (byte(0), byte(2));
    let addr = u16::from_le_bytes([byte(4), byte(6)]);
    let ram = matches!(addr, 0x8000..=0xDFFF | 0xFE00..=0xFE9F | 0xFF80..=0xFFFE);
    if !ram {
        return Err(CheatError::SharkNotRam {
            code: code.to_owned(),
            addr,
        });
    }
    let region_err = |region| CheatError::SharkBankRegion {
        code: code.to_owned(),
        kind,
        addr,
        region,
    };
    match kind {
        0x00 | 0x01 => {}
        0x80..=0x8F if !(0xA000..=0xBFFF).contains(&addr) => {
            return Err(region_err("cartridge RAM (A000-BFFF)"));
        }
        0x90..=0x97 if !(0xD000..=0xDFFF).contains(&addr) => {
            return Err(region_err("work RAM (D000-DFFF)"));
        }
        0x80..=0x8F | 0x91..=0x97 => {}
        _ => {
            return Err(CheatError::SharkType {
                code: code.to_owned(),
                kind,
            });
        }
    }
    Ok(Cheat::GameShark { kind, value, addr })
}

impl Cheat {
    /// What the code does, in words (`ROM 4A17 reads 00 where it holds C8`, `CD38 = 02 each
    /// frame`).
    pub fn describe(&self) -> String {
        match *self {
            Cheat::GameGenie(RomCheat {
                addr,
                value,
                compare,
            }) => match compare {
                Some(c) => format!("ROM {addr:04X} reads {value:02X} where it holds {c:02X}"),
                None => format!("ROM {addr:04X} reads {value:02X}"),
            },
            Cheat::GameShark { kind, value, addr } => match kind {
                0x80..=0x8F => format!(
                    "cartridge RAM {:X}:{addr:04X} = {value:02X} each frame",
                    kind & 0xF
                ),
                0x91..=0x97 => format!(
                    "work RAM {:X}:{addr:04X} = {value:02X} each frame",
                    kind & 0xF
                ),
                _ => format!("{addr:04X} = {value:02X} each frame"),
            },
        }
    }

    /// Make this frame's GameShark write (nothing for a Game Genie code). A banked write into
    /// a bank this machine lacks (a cartridge with less RAM, the DMG's work RAM) does nothing.
    pub fn write(&self, gb: &mut Gb) {
        let Cheat::GameShark { kind, value, addr } = *self else {
            return;
        };
        let bank = usize::from(kind & 0xF);
        let flat = match kind {
            0x80..=0x8F => Some((Domain::CartRam, bank * 0x2000 + usize::from(addr - 0xA000))),
            0x91..=0x97 => Some((Domain::Wram, bank * 0x1000 + usize::from(addr - 0xD000))),
            _ => None,
        };
        match flat {
            Some((domain, offset)) => {
                if let Some(b) = gb.domain_mut(domain).and_then(|m| m.get_mut(offset)) {
                    *b = value;
                }
            }
            None => gb.poke(addr, value),
        }
    }
}

/// The canonical text of a code (upper case; Game Genie grouped `ABC-DEF-GHI`), or why it is
/// not one. Two spellings of one code have the same canonical text.
pub fn canonical(code: &str) -> Result<String, CheatError> {
    let cheat = parse(code)?;
    let digits: String = code
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect::<String>()
        .to_ascii_uppercase();
    Ok(match cheat {
        Cheat::GameGenie(_) if digits.len() == 9 => {
            format!("{}-{}-{}", &digits[0..3], &digits[3..6], &digits[6..9])
        }
        Cheat::GameGenie(_) => format!("{}-{}", &digits[0..3], &digits[3..6]),
        Cheat::GameShark { .. } => digits,
    })
}

/// The Game Genie code for a ROM patch (for hack authors and tests): `ABC-DEF-GHI` with a
/// compare byte, else `ABC-DEF`; the unused digit `H` is written 0. [`parse`] decodes it back
/// for every address in 0x0000-0x7FFF.
pub fn encode_genie(patch: RomCheat) -> String {
    let a = patch.addr;
    let digits = [
        patch.value >> 4,
        patch.value & 0xF,
        ((a >> 8) & 0xF) as u8,
        ((a >> 4) & 0xF) as u8,
        (a & 0xF) as u8,
        ((a >> 12) as u8 & 0xF) ^ 0xF,
    ];
    let hex = |d: &[u8]| -> String { d.iter().map(|&d| format!("{d:X}")).collect() };
    match patch.compare {
        Some(c) => {
            let enc = (c ^ 0xBA).rotate_left(2);
            format!(
                "{}-{}-{:X}0{:X}",
                hex(&digits[..3]),
                hex(&digits[3..]),
                enc >> 4,
                enc & 0xF
            )
        }
        None => format!("{}-{}", hex(&digits[..3]), hex(&digits[3..])),
    }
}

/// The cheats in effect: the codes on, in the order they were turned on, and their decoded
/// forms (decoded once, not every frame).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Active {
    /// The codes on, canonical.
    pub codes: Vec<String>,
    decoded: Vec<Cheat>,
    rom: Vec<RomCheat>,
}

impl Active {
    /// Turn `code` (canonical) on or off; false when nothing changed. A code that does not
    /// decode is never on (a log only holds codes that decoded when they were turned on).
    pub fn set(&mut self, code: &str, on: bool) -> bool {
        let at = self.codes.iter().position(|c| c == code);
        match (at, on) {
            (None, true) => {
                let Ok(cheat) = parse(code) else {
                    return false;
                };
                self.codes.push(code.to_owned());
                self.decoded.push(cheat);
            }
            (Some(i), false) => {
                self.codes.remove(i);
                self.decoded.remove(i);
            }
            _ => return false,
        }
        self.rom = self
            .decoded
            .iter()
            .filter_map(|c| match c {
                Cheat::GameGenie(r) => Some(*r),
                Cheat::GameShark { .. } => None,
            })
            .collect();
        true
    }

    /// The decoded codes, in order.
    pub fn decoded(&self) -> &[Cheat] {
        &self.decoded
    }

    /// The Game Genie codes, for [`Gb::set_rom_cheats`].
    pub fn rom_cheats(&self) -> &[RomCheat] {
        &self.rom
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_genie_codes_decode_as_pan_docs_says() {
        // Worked from Pan Docs' description: AB = 00; address F C D E = B A 1 7 → 0xBA17
        // with the top digit XORed with F → 0x4A17; GI = C9 → rotated right by 2 = 0x72,
        // XORed with BA = 0xC8 (RET Z, which the code turns into a NOP).
        assert_eq!(
            parse("00A-17B-C49"),
            Ok(Cheat::GameGenie(RomCheat {
                addr: 0x4A17,
                value: 0x00,
                compare: Some(0xC8)
            }))
        );
        // Six digits: no compare; lower case, no dashes, spaces around are fine.
        assert_eq!(
            parse("  3ea0fd "),
            Ok(Cheat::GameGenie(RomCheat {
                addr: 0x2A0F,
                value: 0x3E,
                compare: None
            }))
        );
        assert_eq!(canonical("3ea0fd").unwrap(), "3EA-0FD");
        assert_eq!(canonical("00a17bc49").unwrap(), "00A-17B-C49");
        // The compare byte's encoding round-trips for every value.
        for cmp in 0..=255u8 {
            let enc = (cmp ^ 0xBA).rotate_left(2);
            let code = format!("123-45E-{:X}0{:X}", enc >> 4, enc & 0xF);
            match parse(&code) {
                Ok(Cheat::GameGenie(r)) => assert_eq!(r.compare, Some(cmp), "{code}"),
                other => panic!("{code}: {other:?}"),
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn genie_codes_round_trip(addr in 0u16..0x8000, value: u8, compare: Option<u8>) {
            let patch = RomCheat { addr, value, compare };
            let code = encode_genie(patch);
            proptest::prop_assert_eq!(parse(&code), Ok(Cheat::GameGenie(patch)));
            proptest::prop_assert_eq!(canonical(&code), Ok(code));
        }

        #[test]
        fn any_text_decodes_or_says_why(text in "\\PC{0,14}", hexish in "[0-9A-Fa-f -]{0,12}") {
            for t in [text, hexish] {
                if let Err(e) = parse(&t) {
                    proptest::prop_assert!(!e.to_string().is_empty());
                }
            }
        }
    }

    #[test]
    fn gameshark_codes_decode_as_pan_docs_and_bizhawk_say() {
        // Pan Docs: 010238CD writes 02 at CD38.
        assert_eq!(
            parse("010238CD"),
            Ok(Cheat::GameShark {
                kind: 0x01,
                value: 0x02,
                addr: 0xCD38
            })
        );
        // BizHawk's decoder's example: 010FF6C1 → address C1F6, value 0F.
        assert_eq!(
            parse("010ff6c1"),
            Ok(Cheat::GameShark {
                kind: 0x01,
                value: 0x0F,
                addr: 0xC1F6
            })
        );
        assert!(matches!(
            parse("830510A0"),
            Ok(Cheat::GameShark { kind: 0x83, .. })
        ));
        assert!(matches!(
            parse("920510D0"),
            Ok(Cheat::GameShark { kind: 0x92, .. })
        ));
    }

    #[test]
    fn bad_codes_say_what_is_wrong() {
        let msg = |c: &str| parse(c).unwrap_err().to_string();
        assert!(msg("hello").contains("not a cheat code"));
        assert!(msg("01G238CD").contains("'G' is not a hex digit"));
        assert!(
            msg("00A-177-C49").contains("outside the ROM"),
            "{}",
            msg("00A-177-C49")
        );
        assert!(msg("01020040").contains("not RAM"));
        assert!(msg("050238CD").contains("type 05 is unknown"));
        assert!(msg("830238CD").contains("cartridge RAM"));
        assert!(msg("900510D0").contains("type 90"), "{}", msg("900510D0"));
        assert!(msg("0102-38CD").contains("not a cheat code"));
        assert!(msg("").contains("not a cheat code"));
    }

    #[test]
    fn the_active_list_keeps_order_and_skips_repeats() {
        let mut a = Active::default();
        assert!(a.set("010238CD", true));
        assert!(!a.set("010238CD", true));
        assert!(a.set("00A-17B-C49", true));
        assert_eq!(a.rom_cheats().len(), 1);
        assert!(a.set("010238CD", false));
        assert_eq!(a.codes, vec!["00A-17B-C49".to_owned()]);
    }
}
