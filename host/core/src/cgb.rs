//! The Game Boy Color's registers that belong to no other block (Pan Docs "CGB Registers"):
//! KEY0 (the compatibility mode the boot ROM picks), KEY1 (the speed switch), SVBK (the work
//! RAM bank), RP (the infrared port) and the undocumented FF72-FF75. VBK and the colour
//! palettes are the PPU's (`ppu/`), HDMA is `hdma.rs`, PCM12/PCM34 the APU's.
//!
//! Who sees what (Mooneye `misc/boot_hwio-C` and `misc/bits/unused_hwio-C`, run in DMG
//! compatibility mode on a CGB; SameBoy's `memory.c` for CGB mode):
//!
//! | register | CGB mode | DMG compatibility mode |
//! |---|---|---|
//! | KEY0 (FF4C) | written by the boot ROM only (locked by BANK), reads 0xFF | the same |
//! | KEY1 (FF4D) | bit 7 the current speed, bit 0 the armed switch, the rest 1 | 0xFF, writes ignored |
//! | SVBK (FF70) | bits 0-2 the bank (0 maps bank 1), the rest 1 | 0xFF, bank 1 |
//! | RP (FF56) | bits 7-6 and 0 as written, bit 1 = 1 (no light is ever received) except with bits 7-6 = 10, the rest 1 | 0xFF |
//! | FF72, FF73 | read/write | read/write |
//! | FF74 | read/write | 0xFF |
//! | FF75 | bits 4-6 read/write, the rest read 1 | the same |

/// The CGB's miscellaneous registers. On the DMG model they are never reached.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CgbRegs {
    /// KEY0 as the boot ROM wrote it (bit 2: DMG compatibility mode).
    pub(crate) key0: u8,
    /// KEY1 bit 0: a speed switch is armed (the next STOP switches).
    pub(crate) key1_armed: bool,
    /// The CPU runs at double speed (KEY1 bit 7).
    pub(crate) double_speed: bool,
    /// SVBK bits 0-2 as written.
    pub(crate) svbk: u8,
    /// RP bits 7-6 and 0 as written.
    pub(crate) rp: u8,
    /// FF72.
    pub(crate) ff72: u8,
    /// FF73.
    pub(crate) ff73: u8,
    /// FF74.
    pub(crate) ff74: u8,
    /// FF75 bits 4-6.
    pub(crate) ff75: u8,
}

impl CgbRegs {
    /// The work RAM bank mapped at 0xD000-0xDFFF (1-7; SVBK 0 maps bank 1).
    pub(crate) fn wram_bank(&self) -> usize {
        usize::from(self.svbk & 7).max(1)
    }

    /// Read FF4C-FF7F's registers of this block; `cgb_mode` false is DMG compatibility mode.
    /// `None` for addresses another block answers.
    pub(crate) fn read(&self, addr: u16, cgb_mode: bool) -> Option<u8> {
        Some(match addr {
            0xFF4C => 0xFF,
            0xFF4D if cgb_mode => {
                0x7E | (u8::from(self.double_speed) << 7) | u8::from(self.key1_armed)
            }
            // Bit 1 reads 0 ("receiving") with bits 7-6 = 10, whatever the light: the CGB of
            // gbc-hw-tests `misc_rw_registers_gbc_mode` reads 0xBC/0xBD for writes of
            // 0x80-0xBF (its GBA SP, which has no infrared port, 0xBE/0xBF).
            0xFF56 if cgb_mode && self.rp & 0xC0 == 0x80 => 0x3C | (self.rp & 0xC1),
            0xFF56 if cgb_mode => 0x3E | (self.rp & 0xC1),
            0xFF70 if cgb_mode => 0xF8 | self.svbk,
            0xFF72 => self.ff72,
            0xFF73 => self.ff73,
            0xFF74 if cgb_mode => self.ff74,
            0xFF75 => 0x8F | self.ff75,
            0xFF4D | 0xFF56 | 0xFF70 | 0xFF74 => 0xFF,
            _ => return None,
        })
    }

    /// Write FF4C-FF7F's registers of this block; true if the address is one of them.
    /// `boot_mapped`: the boot ROM still runs (KEY0 and SVBK take writes in either mode).
    pub(crate) fn write(&mut self, addr: u16, v: u8, cgb_mode: bool, boot_mapped: bool) -> bool {
        match addr {
            0xFF4C => {
                if boot_mapped {
                    self.key0 = v;
                }
            }
            0xFF4D => {
                if cgb_mode {
                    self.key1_armed = v & 1 != 0;
                }
            }
            0xFF56 => {
                if cgb_mode {
                    self.rp = v & 0xC1;
                }
            }
            0xFF70 => {
                if cgb_mode || boot_mapped {
                    self.svbk = v & 7;
                }
            }
            0xFF72 => self.ff72 = v,
            0xFF73 => self.ff73 = v,
            0xFF74 => {
                if cgb_mode {
                    self.ff74 = v;
                }
            }
            0xFF75 => self.ff75 = v & 0x70,
            _ => return false,
        }
        true
    }

    /// Append the registers to the state image.
    pub(crate) fn save_state(&self, w: &mut crate::state::Writer<'_>) {
        w.bytes(&[
            self.key0,
            u8::from(self.key1_armed),
            u8::from(self.double_speed),
            self.svbk,
            self.rp,
            self.ff72,
            self.ff73,
            self.ff74,
            self.ff75,
        ]);
    }

    /// Read the registers from the state image.
    pub(crate) fn load_state(
        &mut self,
        r: &mut crate::state::Reader<'_>,
    ) -> Result<(), crate::state::StateError> {
        self.key0 = r.u8()?;
        self.key1_armed = r.bool()?;
        self.double_speed = r.bool()?;
        self.svbk = r.below(8, "SVBK")?;
        self.rp = r.u8()? & 0xC1;
        self.ff72 = r.u8()?;
        self.ff73 = r.u8()?;
        self.ff74 = r.u8()?;
        self.ff75 = r.u8()? & 0x70;
        Ok(())
    }
}
