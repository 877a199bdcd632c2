//! When BizHawk runs the boot ROM whatever a movie's sync settings say.
//!
//! Since BizHawk 2.9.2 (TASEmulators/BizHawk issue 3763), Gambatte loads the official boot ROM
//! whenever a movie records or plays (`DeterministicEmulation`) and the cartridge could boot
//! on hardware: its header checksum passes and its Nintendo logo matches (the whole logo for
//! the DMG's boot ROM, its top half for the CGB's) — `ForceBios` in
//! `Emulation.Cores/Consoles/Nintendo/Gameboy/Gambatte.cs`. `EnableBIOS false` then does not
//! keep the boot ROM out, so a movie that gbhost made from the post-boot state starts about
//! two and a half seconds late there.

/// The Nintendo logo a boot ROM compares with the cartridge's bytes `0x104..0x134`.
const LOGO: [u8; 48] = [
    0xCE, 0xED, 0x66, 0x66, 0xCC, 0x0D, 0x00, 0x0B, 0x03, 0x73, 0x00, 0x83, 0x00, 0x0C, 0x00, 0x0D,
    0x00, 0x08, 0x11, 0x1F, 0x88, 0x89, 0x00, 0x0E, 0xDC, 0xCC, 0x6E, 0xE6, 0xDD, 0xDD, 0xD9, 0x99,
    0xBB, 0xBB, 0x67, 0x63, 0x6E, 0x0E, 0xEC, 0xCC, 0xDD, 0xDC, 0x99, 0x9F, 0xBB, 0xB9, 0x33, 0x3E,
];

/// Whether a boot ROM would boot `rom` (the cartridge's header checksum and logo pass): then
/// BizHawk ≥ 2.9.2 runs the boot ROM for every movie of it. `cgb`: the console is a CGB
/// (whose boot ROM checks only the logo's top half). A ROM too short for a header: `false`.
pub fn bios_forced(rom: &[u8], cgb: bool) -> bool {
    let Some(header) = rom.get(0x104..0x14E) else {
        return false;
    };
    let checksum = header[0x134 - 0x104..=0x14C - 0x104]
        .iter()
        .fold(0u8, |x, &b| x.wrapping_sub(b).wrapping_sub(1));
    if checksum != header[0x14D - 0x104] {
        return false;
    }
    let logo_len = if cgb { LOGO.len() / 2 } else { LOGO.len() };
    header[..logo_len] == LOGO[..logo_len]
}

/// The header key under which BizHawk records the boot ROM it served (`{system}_Firmware_{id}`,
/// `MovieConversionExtensions.PopulateWithDefaultHeaderValues`): `GB_Firmware_World` on the
/// DMG, `GBC_Firmware_World` on the CGB.
pub fn firmware_key(cgb: bool) -> &'static str {
    if cgb {
        "GBC_Firmware_World"
    } else {
        "GB_Firmware_World"
    }
}

/// Every Game Boy firmware key BizHawk may write (the AGB and SGB2 ones belong to consoles
/// gbhost does not emulate).
pub const FIRMWARE_KEYS: [&str; 4] = [
    "GB_Firmware_World",
    "GBC_Firmware_World",
    "GBC_Firmware_AGB",
    "GB_Firmware_SGB2",
];
