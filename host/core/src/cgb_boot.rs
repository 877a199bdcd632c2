//! The Game Boy Color as its boot ROM leaves it at 0x0100, for machines built without one
//! (Pan Docs "Power Up Sequence": "Console state after boot ROM hand-off").
//!
//! The boot ROM picks the mode from the header's CGB flag (0x0143 bit 7): CGB mode, or DMG
//! compatibility mode with KEY0 = 0x04, OPRI = 1 and the compatibility palettes
//! ([`crate::compat`]). What it leaves:
//!
//! | | CGB mode | DMG compatibility mode |
//! |---|---|---|
//! | A F B C | 0x11 0x80 0x00 0x00 | 0x11 0x80, B the title checksum (0 if not a Nintendo game), C 0x00 |
//! | D E H L | 0xFF 0x56 0x00 0x0D | 0x00 0x08, HL 0x991A for the two logo-map palettes, else 0x007C |
//! | DIV | 0x1E at the first read, the counter pinned to the M-cycle by gbc-hw-tests `sys_clocks_init_gbc_mode` | 0x26; the M-cycle depends on the header's licensee code (`sys_clocks_init_dmg_mode`'s CGB dump, Mooneye `misc/boot_div-cgbABCDE`) |
//! | P1, SC | 0xCF (both groups selected), 0x7F | 0xFF (neither), 0x7E (Mooneye `misc/boot_hwio-C`) |
//! | palettes | background all white, BCPS 0xC0; object colours not initialised (power-on noise from the seed but the first byte 0x00: Pan Docs "LCD Color Palettes") | object 0 and 1 and background 0 from the table, BCPS 0xC8, OCPS 0xD0 |
//! | VRAM | bank 0: the logo's tiles from the header (0x8010-0x819F) and ®; no tile map | the same, and the DMG's logo tile map for the two palettes that ask for it |
//!
//! Everything else as on the DMG (LCDC 0x91, BGP 0xFC, the sound registers, IF 0x01), the DMA
//! register 0x00, wave RAM 00 FF 00 FF …, OAM cleared, work RAM bank 2 cleared (the boot ROM
//! uses it). The boot ROM's duration depends on the header in compatibility mode: the licensee
//! check is modelled to the M-cycle, a Nintendo game's title checksum search and a held button
//! are not.

use crate::apu::Apu;
use crate::bus::Hardware;
use crate::cartridge::Cartridge;
use crate::compat::{self, DmgPalette};
use crate::cpu::{Cpu, CpuMode, Registers};
use crate::model::Model;
use crate::power_on::{self, RamInit};
use crate::ppu::Ppu;
use crate::timer::Timer;

/// The system counter at 0x0100 in CGB mode (gbc-hw-tests `sys_clocks_init_gbc_mode`: DIV
/// 0x1E at the first read, and the first 4 KiHz timer interrupt after the TAC write 0x25
/// `inc b` later).
const COUNTER_CGB_MODE: u16 = 0x1E9C;
/// The system counter at 0x0100 in DMG compatibility mode for a header whose licensee check
/// takes the old-licensee path to "not Nintendo" (old licensee code neither 0x33 nor 0x01:
/// gbc-hw-tests `sys_clocks_init_dmg_mode`, the timer interrupt 0x2E `inc b` after its TAC
/// write). Other headers shift it by [`licensee_check_cycles`].
const COUNTER_DMG_MODE: u16 = 0x2678;
/// Where the PPU is at 0x0100 (line, dot) in DMG compatibility mode, as on the DMG.
const PPU_LINE: u8 = 153;
/// See [`PPU_LINE`].
const PPU_DOT: u64 = 396;
/// Where the PPU is at 0x0100 in CGB mode: in VBlank, line 144 (Gambatte
/// `display_startstate/ly_dmg08_out00_cgb04c_out90`: LY reads 0x90 at the first instruction),
/// 164 dots in, so that line 0 reads mode 3 at S+252 and mode 0 at S+256 where `stat_1` and
/// `stat_2` (`_scx2`, `_scx3`, `_scx5` too) read it, 1,157 and 1,158 M-cycles after 0x0100.
const PPU_LINE_CGB_MODE: u8 = 144;
/// See [`PPU_LINE_CGB_MODE`].
const PPU_DOT_CGB_MODE: u64 = 164;

/// The CPU and the hardware of a CGB past its boot ROM, with `cart`, at time `now`: in CGB
/// mode for a cartridge whose header asks for it, else in DMG compatibility mode with the
/// palette `palette` picks.
pub(crate) fn post_boot(
    cart: Cartridge,
    init: RamInit,
    palette: DmgPalette,
    now: u64,
) -> (Cpu, Hardware) {
    let cgb_mode = cart.header().cgb_flag & 0x80 != 0;
    let compat = compat::choose(&cart.rom()[..cart.rom().len().min(0x150)], palette);
    let counter = if cgb_mode {
        COUNTER_CGB_MODE
    } else {
        COUNTER_DMG_MODE.wrapping_add_signed(licensee_check_cycles(&cart))
    };
    let mut ppu = if cgb_mode {
        Ppu::post_boot(now, PPU_LINE_CGB_MODE, PPU_DOT_CGB_MODE)
    } else {
        Ppu::post_boot(now, PPU_LINE, PPU_DOT)
    };
    let logo: [u8; 48] = std::array::from_fn(|i| cart.read_rom(0x0104 + i as u16));
    ppu.load_boot_logo_tiles(&logo);
    if !cgb_mode && compat.logo_map {
        ppu.load_boot_logo_map();
    }
    let mut apu = Apu::post_boot();
    for i in 0..16u16 {
        apu.write(0xFF30 + i, if i % 2 == 0 { 0x00 } else { 0xFF }, now);
    }
    let timer = Timer::new(now, counter);
    let mut hw = Hardware::with_model(Model::Cgb, cart, ppu, timer, apu, now);
    hw.apu.set_boot_phase(now, true);
    hw.if_ = 0x01;
    power_on::fill_cgb(init, &mut hw.wram[..], &mut hw.hram);
    hw.set_dma_register(0x00);
    let white = [0xFF, 0x7F].repeat(32);
    let mut bg = [0u8; 64];
    bg.copy_from_slice(&white);
    let regs = if cgb_mode {
        hw.cgb.key0 = hw.cartridge_cgb_flag();
        let mut obj = [0u8; 64];
        power_on::fill_obj_palettes(init, &mut obj);
        hw.ppu.set_palettes(&bg, &obj);
        hw.ppu.set_palette_specs(0x80, 0x00);
        hw.serial.restore(0x00, 0x03, now, counter);
        hw.set_cgb_mode(true);
        Registers {
            a: 0x11,
            f: 0x80,
            b: 0x00,
            c: 0x00,
            d: 0xFF,
            e: 0x56,
            h: 0x00,
            l: 0x0D,
            sp: 0xFFFE,
            pc: 0x0100,
        }
    } else {
        hw.cgb.key0 = 0x04;
        // The boot ROM deselects both button groups in compatibility mode only (P1 reads 0xFF,
        // Mooneye `misc/boot_hwio-C`; 0xCF in CGB mode, gbc-hw-tests
        // `dma_valid_sources_gbc_mode`).
        hw.joypad.restore_select(0x30);
        let mut obj = [0u8; 64];
        let put = |mem: &mut [u8; 64], at: usize, colors: &[u16; 4]| {
            for (i, c) in colors.iter().enumerate() {
                mem[at + i * 2..at + i * 2 + 2].copy_from_slice(&c.to_le_bytes());
            }
        };
        put(&mut obj, 0, &compat.palettes[0]);
        put(&mut obj, 8, &compat.palettes[1]);
        put(&mut bg, 0, &compat.palettes[2]);
        hw.ppu.set_palettes(&bg, &obj);
        hw.ppu.set_palette_specs(0x88, 0x90);
        hw.ppu.set_opri(1);
        hw.set_cgb_mode(false);
        let hl: u16 = if compat.logo_map { 0x991A } else { 0x007C };
        Registers {
            a: 0x11,
            f: 0x80,
            b: compat.checksum,
            c: 0x00,
            d: 0x00,
            e: 0x08,
            h: (hl >> 8) as u8,
            l: hl as u8,
            sp: 0xFFFE,
            pc: 0x0100,
        }
    };
    (Cpu::restored(regs, false, CpuMode::Running), hw)
}

/// How many T-cycles longer (or shorter, negative) than the old-licensee path the boot ROM's
/// licensee check runs in DMG compatibility mode, for `cart`'s header (the CGB boot ROM's
/// code, as ISSOtm's `gb-bootroms` disassembly lists it, counted in M-cycles).
///
/// The check reads the old licensee code (0x014B): not 0x33, it compares it with 0x01 (13
/// M-cycles from the `cp $33` to the branch that decides); 0x33, it compares the new
/// licensee code's first byte (0x0144) with `'0'` (12 M-cycles when that differs: Mooneye's
/// headers, `"ZZ"`) and then the second with `'1'` (21). A Nintendo game goes on to the title
/// checksum and its table search, whose length depends on where the checksum is found: not
/// modelled (taken as the old-licensee path).
fn licensee_check_cycles(cart: &Cartridge) -> i16 {
    let old = cart.read_rom(0x014B);
    let new = [cart.read_rom(0x0144), cart.read_rom(0x0145)];
    let mcycles: i16 = match (old, new) {
        (0x33, [b'0', b'1']) => 0,
        (0x33, [b'0', _]) => 21 - 13,
        (0x33, _) => 12 - 13,
        _ => 0,
    };
    mcycles * 4
}

impl Hardware {
    /// The cartridge header's CGB flag (0x0143).
    fn cartridge_cgb_flag(&self) -> u8 {
        self.cart.header().cgb_flag
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 32 KiB ROM-only cartridge with the given licensee codes (forced: no header checks).
    fn cart(old: u8, new: [u8; 2]) -> Cartridge {
        let mut rom = vec![0u8; 0x8000];
        rom[0x0144..0x0146].copy_from_slice(&new);
        rom[0x014B] = old;
        Cartridge::from_rom_forced(rom).expect("ROM-only cartridge")
    }

    #[test]
    fn licensee_check_length_follows_the_boot_rom_path() {
        // Old licensee path (gbc-hw-tests' headers): the reference.
        assert_eq!(licensee_check_cycles(&cart(0x00, *b"\0\0")), 0);
        // 0x33 with a new code not starting with '0' (Mooneye's "ZZ"): one M-cycle shorter.
        assert_eq!(licensee_check_cycles(&cart(0x33, *b"ZZ")), -4);
        // 0x33 with "0x" other than "01": the second byte is compared too.
        assert_eq!(licensee_check_cycles(&cart(0x33, *b"08")), 32);
    }

    #[test]
    fn post_boot_div_phase_depends_on_the_licensee_path() {
        let at = |c: Cartridge| {
            let now = 0x1_0000;
            let (_, hw) = post_boot(c, RamInit::Zero, DmgPalette::Auto, now);
            hw.timer.counter(now)
        };
        assert_eq!(at(cart(0x00, *b"\0\0")), COUNTER_DMG_MODE);
        assert_eq!(at(cart(0x33, *b"ZZ")), COUNTER_DMG_MODE - 4);
    }
}
