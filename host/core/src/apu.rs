//! The sound registers (0xFF10-0xFF3F) as a register file: values, read-back masks and the
//! power switch in NR52. Sound generation is not emulated yet (see `docs/ARCHITECTURE.md`);
//! this keeps what games and tests read back from these registers right.

/// Bits that always read as 1, for 0xFF10-0xFF2F (Pan Docs: "Sound Controller").
const READ_MASK: [u8; 0x20] = [
    0x80, 0x3F, 0x00, 0xFF, 0xBF, // NR10-NR14
    0xFF, 0x3F, 0x00, 0xFF, 0xBF, // (FF15) NR21-NR24
    0x7F, 0xFF, 0x9F, 0xFF, 0xBF, // NR30-NR34
    0xFF, 0xFF, 0x00, 0x00, 0xBF, // (FF1F) NR41-NR44
    0x00, 0x00, 0x70, // NR50-NR52
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, // FF27-FF2F
];

/// Sound register state.
#[derive(Clone, Debug)]
pub struct Apu {
    /// 0xFF10-0xFF2F as written.
    regs: [u8; 0x20],
    /// Wave RAM, 0xFF30-0xFF3F.
    wave: [u8; 0x10],
}

impl Apu {
    /// Registers as the DMG boot ROM leaves them.
    pub fn post_boot() -> Apu {
        let mut regs = [0u8; 0x20];
        for (addr, v) in [
            (0xFF10u16, 0x80u8),
            (0xFF11, 0xBF),
            (0xFF12, 0xF3),
            (0xFF14, 0xBF),
            (0xFF16, 0x3F),
            (0xFF19, 0xBF),
            (0xFF1A, 0x7F),
            (0xFF1B, 0xFF),
            (0xFF1C, 0x9F),
            (0xFF1E, 0xBF),
            (0xFF20, 0xFF),
            (0xFF23, 0xBF),
            (0xFF24, 0x77),
            (0xFF25, 0xF3),
            (0xFF26, 0xF1),
        ] {
            regs[usize::from(addr - 0xFF10)] = v;
        }
        Apu {
            regs,
            wave: [0; 0x10],
        }
    }

    /// Registers at power-on (before a boot ROM runs).
    pub fn power_on() -> Apu {
        Apu {
            regs: [0; 0x20],
            wave: [0; 0x10],
        }
    }

    fn powered(&self) -> bool {
        self.regs[0x16] & 0x80 != 0
    }

    /// Read 0xFF10-0xFF3F.
    pub fn read(&self, addr: u16) -> u8 {
        match addr {
            0xFF10..=0xFF2F => {
                let i = usize::from(addr - 0xFF10);
                // NR52's low bits hold the channel-on flags as the boot ROM left them
                // (channel 1 stays on: its length counter is disabled).
                let v = self.regs[i];
                v | READ_MASK[i]
            }
            0xFF30..=0xFF3F => self.wave[usize::from(addr - 0xFF30)],
            _ => 0xFF,
        }
    }

    /// Write 0xFF10-0xFF3F. While NR52 bit 7 is clear, only NR52 and wave RAM are writable.
    pub fn write(&mut self, addr: u16, v: u8) {
        match addr {
            0xFF26 => {
                if v & 0x80 == 0 {
                    self.regs = [0; 0x20];
                } else {
                    self.regs[0x16] |= 0x80;
                }
            }
            0xFF10..=0xFF2F if self.powered() => self.regs[usize::from(addr - 0xFF10)] = v,
            0xFF30..=0xFF3F => self.wave[usize::from(addr - 0xFF30)] = v,
            _ => {}
        }
    }
}
