//! Cartridges: the header, the memory bank controllers (mappers), cartridge RAM, the MBC3
//! real-time clock, and battery saves.
//!
//! A [`Cartridge`] is plain data (`Clone`, no pointers, mapper as an enum). The ROM is shared
//! as an `Arc<[u8]>` and is never part of a snapshot; everything else (mapper registers, RAM,
//! clock) is. The bus calls [`Cartridge::read_rom`] / [`Cartridge::write_rom`] for
//! 0x0000-0x7FFF and [`Cartridge::read_ram`] / [`Cartridge::write_ram`] for 0xA000-0xBFFF.
//! Reads are one bounds-checked index: the bank offsets are recomputed on every register
//! write, never on a read.
//!
//! Time: every call that can touch the clock takes `now`, the emulated time in T-cycles
//! (4,194,304 per second) since power-on. Nothing here reads the wall clock.
//!
//! Supported: no MBC (0x00, 0x08, 0x09), MBC1 (0x01-0x03, with MBC1M multicart detection),
//! MBC2 (0x05, 0x06), MBC3 (0x0F-0x13, MBC30 for ROMs over 2 MiB), MBC5 (0x19-0x1E). Other
//! known types are rejected with [`CartridgeError::Unsupported`], or run with a stand-in mapper
//! by [`Cartridge::from_rom_forced`] when the user insists. Header oddities a console
//! runs through (size codes, checksums) load with [`HeaderWarning`]s (module `warning`).
//!
//! Open choices, where Pan Docs leaves the behaviour open:
//! - RAM starts as $FF throughout, as on Gambatte, SameBoy and mGBA (real SRAM powers up with
//!   random contents): `fresh_ram_byte`.
//! - RAM size comes from the header's RAM size code whatever the type byte says, so an
//!   "MBC1" header declaring 8 KiB of RAM gets it; "+RAM" types with code 0 get none.
//! - A cartridge without an MBC maps only the first 8 KiB of its RAM.

mod error;
mod header;
mod licensee;
mod mapper_state;
mod mapping;
mod mbc1;
mod mbc2;
mod mbc3;
mod mbc5;
pub mod rtc;
pub(crate) mod state;
mod warning;

use std::fmt;
use std::sync::Arc;

pub use error::CartridgeError;
pub use header::{
    CartridgeType, HEADER_END, Header, LOGO_OFFSET, Licensee, MapperKind, NINTENDO_LOGO,
    RAM_BANK_SIZE, ROM_BANK_SIZE, ram_size_for_code, rom_size_for_code,
};
pub(crate) use mapping::{Mapping, RamMapping};
use mbc1::Mbc1;
use mbc2::Mbc2;
use mbc3::Mbc3;
use mbc5::Mbc5;
pub use rtc::{CYCLES_PER_SECOND, RTC_FOOTER_LEN, RTC_FOOTER_LEN_SHORT, Rtc, RtcRegister};
pub use warning::{ByteSize, HeaderWarning};

/// Size of MBC2's built-in RAM: 512 half-bytes, stored one per byte.
pub const MBC2_RAM_SIZE: usize = 512;

/// The mapper and its registers.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Mapper {
    RomOnly,
    Mbc1(Mbc1),
    Mbc2(Mbc2),
    Mbc3(Mbc3),
    Mbc5(Mbc5),
}

impl Mapper {
    /// Stable id for save states.
    fn id(&self) -> u8 {
        match self {
            Self::RomOnly => 0,
            Self::Mbc1(_) => 1,
            Self::Mbc2(_) => 2,
            Self::Mbc3(_) => 3,
            Self::Mbc5(_) => 5,
        }
    }

    /// The mapper's name, for errors.
    fn name(&self) -> &'static str {
        match self {
            Self::RomOnly => "no-MBC",
            Self::Mbc1(_) => "MBC1",
            Self::Mbc2(_) => "MBC2",
            Self::Mbc3(_) => "MBC3",
            Self::Mbc5(_) => "MBC5",
        }
    }

    fn mapping(&self) -> Mapping {
        match self {
            Self::RomOnly => Mapping {
                rom0: 0,
                rom1: 1,
                ram: RamMapping::Bank(0),
            },
            Self::Mbc1(m) => m.mapping(),
            Self::Mbc2(m) => m.mapping(),
            Self::Mbc3(m) => m.mapping(),
            Self::Mbc5(m) => m.mapping(),
        }
    }

    fn registers(&self) -> [u8; 4] {
        match self {
            Self::RomOnly => [0; 4],
            Self::Mbc1(m) => m.registers(),
            Self::Mbc2(m) => m.registers(),
            Self::Mbc3(m) => m.registers(),
            Self::Mbc5(m) => m.registers(),
        }
    }

    fn set_registers(&mut self, regs: [u8; 4]) {
        match self {
            Self::RomOnly => {}
            Self::Mbc1(m) => m.set_registers(regs),
            Self::Mbc2(m) => m.set_registers(regs),
            Self::Mbc3(m) => m.set_registers(regs),
            Self::Mbc5(m) => m.set_registers(regs),
        }
    }

    fn rtc(&self) -> Option<&Rtc> {
        match self {
            Self::Mbc3(m) => m.rtc.as_ref(),
            _ => None,
        }
    }

    fn rtc_mut(&mut self) -> Option<&mut Rtc> {
        match self {
            Self::Mbc3(m) => m.rtc.as_mut(),
            _ => None,
        }
    }
}

/// What 0xA000-0xBFFF reads and writes right now, resolved from [`RamMapping`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RamAccess {
    Open,
    Ram,
    Mbc2,
    Rtc(RtcRegister),
}

/// A cartridge: ROM, header, mapper registers, RAM and clock.
///
/// `Debug` shows the header's title and type, the mapper state and the mapped banks, not the
/// ROM and RAM bytes.
#[derive(Clone)]
pub struct Cartridge {
    rom: Arc<[u8]>,
    header: Arc<Header>,
    mapper: Mapper,
    ram: Vec<u8>,
    /// Number of ROM banks minus one (the bank count is a power of two).
    rom_bank_mask: usize,
    /// RAM length minus one (a power of two), or 0 without RAM.
    ram_mask: usize,
    /// Byte offsets into `rom` of the banks at 0x0000 and 0x4000.
    rom_offsets: [usize; 2],
    /// Byte offset into `ram` of the bank at 0xA000 (wrapped by `ram_mask` on access).
    ram_offset: usize,
    ram_access: RamAccess,
    /// The RAM's select ignores address line 14 ([`Cartridge::set_ram_ignores_a14`]).
    ram_ignores_a14: bool,
    /// What [`Cartridge::from_rom`] accepted but noticed (not part of any state).
    warnings: Arc<[HeaderWarning]>,
}

/// What a cartridge's RAM holds before any battery save is loaded: every byte $FF (on MBC2,
/// whose RAM is 4 bits wide, every nibble $F). On hardware a cartridge's SRAM holds random
/// garbage when first powered (Pan Docs, "Power Up Sequence": "external RAM in the cartridge,
/// when present, usually contains random garbage data when first powered on"); a constant
/// keeps runs deterministic, and $FF is what Gambatte (BizHawk's core: its power-on state),
/// SameBoy and mGBA start from, so movies from BizHawk start alike and a game that checks
/// its save slots for a blank value (gb-rem reads $00 as an empty slot) sees the same slots in
/// use as on those cores and, with any garbage other than $00, on a new cartridge.
fn fresh_ram_byte(mapper: &Mapper) -> u8 {
    match mapper {
        Mapper::Mbc2(_) => 0x0F,
        _ => 0xFF,
    }
}

impl Cartridge {
    /// Builds a cartridge from a whole ROM image, as a Game Boy would run it.
    ///
    /// The header's size codes are not trusted: the cartridge runs the file as it is (a
    /// bank past its end reads 0xFF; bank numbers wrap at the next power of two of the
    /// file's bank count, as address lines do). Header oddities a console runs through are
    /// listed by [`Cartridge::warnings`], one line each, for the host to show: a ROM size
    /// code that is unknown or disagrees with the file, an unknown RAM size code, RAM declared
    /// on an MBC2, an unknown cartridge type on a 32 KiB image (run without a mapper), a bad
    /// logo or checksums ([`HeaderWarning`]).
    ///
    /// Errors: a file shorter than the header; a cartridge type this core does not emulate;
    /// an unknown cartridge type on an image over 32 KiB.
    ///
    /// The cartridge is in its power-on state: RAM disabled and reading $FF throughout (see
    /// `fresh_ram_byte`; load a battery save over it), and an MBC3 clock
    /// at day 0, 00:00:00, running, as of emulated time 0 (call [`Cartridge::load_battery`]
    /// to restore a saved one).
    pub fn from_rom(rom: impl Into<Arc<[u8]>>) -> Result<Cartridge, CartridgeError> {
        Cartridge::build(rom.into(), false)
    }

    /// Like [`Cartridge::from_rom`], but a cartridge type this core does not emulate runs
    /// with a stand-in mapper ([`MapperKind::stand_in`]) instead of being refused, and says so
    /// in its [`Cartridge::warnings`] ([`HeaderWarning::StandIn`]). Whatever the missing
    /// hardware does is not there: the game may run, or stop at its first use of it. The
    /// header still names the real type, so states and saves stay tied to it.
    pub fn from_rom_forced(rom: impl Into<Arc<[u8]>>) -> Result<Cartridge, CartridgeError> {
        Cartridge::build(rom.into(), true)
    }

    fn build(rom: Arc<[u8]>, force: bool) -> Result<Cartridge, CartridgeError> {
        let (header, mut warnings) = Header::parse_with_warnings(&rom)?;
        let ty = header.cartridge_type;
        let mut kind = ty.mapper;
        if !kind.is_supported() {
            if !force {
                return Err(CartridgeError::Unsupported {
                    code: ty.code,
                    name: kind.name(),
                });
            }
            kind = kind.stand_in();
            warnings.insert(
                0,
                HeaderWarning::StandIn {
                    code: ty.code,
                    name: ty.mapper.name(),
                    stand_in: kind.name(),
                },
            );
        }

        let (mapper, ram_len) = match kind {
            MapperKind::Mbc1 => {
                let multicart = is_mbc1_multicart(&rom);
                (Mapper::Mbc1(Mbc1::new(multicart)), header.ram_size)
            }
            MapperKind::Mbc2 => (Mapper::Mbc2(Mbc2::default()), MBC2_RAM_SIZE),
            MapperKind::Mbc3 => (
                Mapper::Mbc3(Mbc3::new(rom.len(), ty.rtc, 0)),
                header.ram_size,
            ),
            MapperKind::Mbc5 => (Mapper::Mbc5(Mbc5::new(ty.rumble)), header.ram_size),
            // RomOnly; the unsupported kinds were rejected above.
            _ => (Mapper::RomOnly, header.ram_size),
        };

        // The chip the file would sit on: a power of two of banks, at least one.
        let rom_banks = rom.len().div_ceil(ROM_BANK_SIZE).max(1).next_power_of_two();
        let mut cart = Cartridge {
            rom_bank_mask: rom_banks - 1,
            ram_mask: ram_len.saturating_sub(1),
            ram: vec![fresh_ram_byte(&mapper); ram_len],
            rom,
            header: Arc::new(header),
            mapper,
            rom_offsets: [0, ROM_BANK_SIZE],
            ram_offset: 0,
            ram_access: RamAccess::Open,
            ram_ignores_a14: false,
            warnings: warnings.into(),
        };
        cart.remap();
        Ok(cart)
    }

    /// The header oddities [`Cartridge::from_rom`] accepted, in header order; empty for a
    /// clean header. Each displays as one line (e.g. "ROM size code 0x03 says 256 KiB but the
    /// file holds 32 KiB; running the file as it is").
    pub fn warnings(&self) -> &[HeaderWarning] {
        &self.warnings
    }

    /// The parsed header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The whole ROM image.
    pub fn rom(&self) -> &Arc<[u8]> {
        &self.rom
    }

    /// Reads 0x0000-0x7FFF through the current banking. Addresses above 0x7FFF are taken
    /// modulo 0x8000.
    #[inline]
    pub fn read_rom(&self, addr: u16) -> u8 {
        let base = self.rom_offsets[usize::from((addr >> 14) & 1)];
        self.rom
            .get(base + usize::from(addr & 0x3FFF))
            .copied()
            .unwrap_or(0xFF)
    }

    /// Writes 0x0000-0x7FFF: the mapper's control registers. `now` is the emulated time in
    /// T-cycles (used by the MBC3 clock latch).
    pub fn write_rom(&mut self, addr: u16, value: u8, now: u64) {
        let addr = addr & 0x7FFF;
        match &mut self.mapper {
            Mapper::RomOnly => return,
            Mapper::Mbc1(m) => m.write(addr, value),
            Mapper::Mbc2(m) => m.write(addr, value),
            Mapper::Mbc3(m) => m.write(addr, value, now),
            Mapper::Mbc5(m) => m.write(addr, value),
        }
        self.remap();
    }

    /// Reads 0xA000-0xBFFF (only the low 13 bits of `addr` matter) at emulated time `now`:
    /// 0xFF when RAM is absent or disabled; MBC2 RAM with the upper nibble set; an MBC3 clock
    /// register as latched, or running at `now` while nothing is latched.
    #[inline]
    pub fn read_ram(&self, addr: u16, now: u64) -> u8 {
        match self.ram_access {
            RamAccess::Open => 0xFF,
            RamAccess::Ram => self
                .ram
                .get((self.ram_offset | usize::from(addr & 0x1FFF)) & self.ram_mask)
                .copied()
                .unwrap_or(0xFF),
            RamAccess::Mbc2 => {
                0xF0 | self
                    .ram
                    .get(usize::from(addr & 0x01FF))
                    .copied()
                    .unwrap_or(0x0F)
            }
            RamAccess::Rtc(reg) => match &self.mapper {
                Mapper::Mbc3(m) => m.read_clock(reg, now),
                _ => 0xFF,
            },
        }
    }

    /// Reads 0xE000-0xFFFF on the cartridge bus, which only the CGB's DMA units put there
    /// (the CPU reaches work RAM and the CGB's internal I/O at those addresses): a mapper
    /// selects its RAM for A15 = 1, A14 = 0, A13 = 1, so a cartridge leaves the bus open and
    /// it reads 0xFF; one that ignores A14 ([`Cartridge::set_ram_ignores_a14`]) answers with
    /// its RAM at `addr - 0x4000`.
    #[inline]
    pub fn read_high(&self, addr: u16, now: u64) -> u8 {
        if self.ram_ignores_a14 {
            self.read_ram(addr, now)
        } else {
            0xFF
        }
    }

    /// Whether the RAM select ignores address line 14, as some flash cartridges' does
    /// (gbc-hw-tests `dma_valid_sources_gbc_mode`'s cartridge: "Copying from E000 or higher
    /// reads from SRAM at A000"). A cartridge with a real mapper does not (`false`, the
    /// default: Gambatte's `oamdma_srcE000_*`, SameBoy). A setting of the cartridge, not
    /// part of its state.
    pub fn set_ram_ignores_a14(&mut self, ignores: bool) {
        self.ram_ignores_a14 = ignores;
    }

    /// Writes 0xA000-0xBFFF (only the low 13 bits of `addr` matter); ignored when RAM is
    /// absent or disabled. `now` is the emulated time in T-cycles (for clock registers).
    #[inline]
    pub fn write_ram(&mut self, addr: u16, value: u8, now: u64) {
        match self.ram_access {
            RamAccess::Open => {}
            RamAccess::Ram => {
                let i = (self.ram_offset | usize::from(addr & 0x1FFF)) & self.ram_mask;
                if let Some(byte) = self.ram.get_mut(i) {
                    *byte = value;
                }
            }
            RamAccess::Mbc2 => {
                if let Some(byte) = self.ram.get_mut(usize::from(addr & 0x01FF)) {
                    *byte = value & 0x0F;
                }
            }
            RamAccess::Rtc(reg) => {
                if let Some(rtc) = self.mapper.rtc_mut() {
                    rtc.write(reg, value, now);
                }
            }
        }
    }

    /// The cartridge RAM (for battery saves): the header's RAM size, or 512 bytes holding one
    /// 4-bit value each for MBC2. Empty without RAM.
    pub fn ram(&self) -> &[u8] {
        &self.ram
    }

    /// Cartridge RAM (all banks, flat), for debugger writes: no mapper side effects.
    pub fn ram_mut(&mut self) -> &mut [u8] {
        &mut self.ram
    }

    /// Replaces the RAM contents; `data` must be exactly [`Cartridge::ram`]`().len()` bytes.
    pub fn load_ram(&mut self, data: &[u8]) -> Result<(), CartridgeError> {
        if data.len() != self.ram.len() {
            return Err(CartridgeError::SaveSize {
                actual: data.len(),
                expected: self.ram.len(),
            });
        }
        self.ram.copy_from_slice(data);
        Ok(())
    }

    /// The battery save file: the RAM, followed on MBC3+TIMER cartridges by the 48-byte RTC
    /// footer that VBA-M, BGB and SameBoy use:
    ///
    /// | offset | size | field |
    /// |---|---|---|
    /// | 0 | 5 × u32 LE | live S, M, H, DL, DH, as of `now` |
    /// | 20 | 5 × u32 LE | latched S, M, H, DL, DH |
    /// | 40 | u64 LE | timestamp |
    ///
    /// The timestamp is **emulated** seconds since power-on (`now / 4_194_304`), not Unix
    /// time: this core never reads the wall clock, and [`Cartridge::load_battery`] does not
    /// advance the clock from it. (Another emulator loading this file will take it for a 1970
    /// Unix time and add decades to the clock.)
    pub fn battery_save(&self, now: u64) -> Vec<u8> {
        let rtc = self.mapper.rtc().map(|rtc| rtc.synced(now));
        let mut out = Vec::with_capacity(self.ram.len() + RTC_FOOTER_LEN);
        out.extend_from_slice(&self.ram);
        if let Some(rtc) = rtc {
            for value in rtc.registers().into_iter().chain(rtc.latched()) {
                out.extend_from_slice(&u32::from(value).to_le_bytes());
            }
            out.extend_from_slice(&(now / CYCLES_PER_SECOND).to_le_bytes());
        }
        out
    }

    /// Loads a battery save: exactly the RAM, or on MBC3+TIMER cartridges the RAM followed
    /// by a 48-byte (or 44-byte, 32-bit timestamp) RTC footer (see
    /// [`Cartridge::battery_save`]). Clock values are masked to the registers' real bits;
    /// the timestamp is ignored and the clock resumes from the saved registers at `now`, with
    /// a fresh sub-second counter. Without a footer the clock is left as it is. On error
    /// nothing changes.
    pub fn load_battery(&mut self, data: &[u8], now: u64) -> Result<(), CartridgeError> {
        let ram_len = self.ram.len();
        if data.len() == ram_len {
            return self.load_ram(data);
        }
        let footer_len = data.len().checked_sub(ram_len);
        let footer_ok = matches!(footer_len, Some(RTC_FOOTER_LEN | RTC_FOOTER_LEN_SHORT));
        let (ram, footer) = match (self.mapper.rtc_mut(), footer_ok) {
            (Some(_), true) => data.split_at_checked(ram_len).unwrap_or((data, &[])),
            (Some(_), false) => {
                return Err(CartridgeError::BatterySize {
                    actual: data.len(),
                    ram: ram_len,
                });
            }
            (None, _) => {
                return Err(CartridgeError::SaveSize {
                    actual: data.len(),
                    expected: ram_len,
                });
            }
        };
        let word = |i: usize| -> u8 {
            // Only the low byte of each 32-bit field can be meaningful.
            footer.get(i * 4).copied().unwrap_or(0)
        };
        let live = [word(0), word(1), word(2), word(3), word(4)];
        let latched = [word(5), word(6), word(7), word(8), word(9)];
        self.ram.copy_from_slice(ram);
        if let Some(rtc) = self.mapper.rtc_mut() {
            rtc.restore(live, latched, now);
        }
        Ok(())
    }

    /// Whether the cartridge keeps RAM (and clock) while off, so the host should save it.
    pub fn has_battery(&self) -> bool {
        self.header.has_battery()
    }

    /// Whether the cartridge has an MBC3 real-time clock.
    pub fn has_rtc(&self) -> bool {
        self.mapper.rtc().is_some()
    }

    /// The real-time clock, if any (state as of its last sync; see [`Rtc::synced`]).
    pub fn rtc(&self) -> Option<&Rtc> {
        self.mapper.rtc()
    }

    /// Lets `seconds` of clock time pass at once at emulated time `now` (for a host that
    /// wants time to pass while the game was off, as a deterministic, logged event). Halted
    /// clocks do not move. Does nothing without a clock.
    pub fn rtc_advance(&mut self, seconds: u64, now: u64) {
        if let Some(rtc) = self.mapper.rtc_mut() {
            rtc.sync(now);
            if !rtc.halted() {
                rtc.advance_seconds(seconds);
            }
        }
    }

    /// Whether the MBC5 rumble motor is on (always false on other cartridges).
    pub fn rumble(&self) -> bool {
        match &self.mapper {
            Mapper::Mbc5(m) => m.motor(),
            _ => false,
        }
    }

    /// Whether the MBC1M multi-game wiring was detected.
    pub fn is_mbc1_multicart(&self) -> bool {
        matches!(&self.mapper, Mapper::Mbc1(m) if m.multicart())
    }

    /// The ROM banks mapped at 0x0000-0x3FFF and 0x4000-0x7FFF (for debuggers).
    pub fn rom_banks_mapped(&self) -> [usize; 2] {
        self.rom_offsets.map(|offset| offset / ROM_BANK_SIZE)
    }

    /// The RAM bank mapped at 0xA000-0xBFFF, `None` when RAM is disabled, absent, or a clock
    /// register is mapped (for debuggers).
    pub fn ram_bank_mapped(&self) -> Option<usize> {
        match self.ram_access {
            RamAccess::Ram => Some((self.ram_offset & self.ram_mask) / RAM_BANK_SIZE),
            RamAccess::Mbc2 => Some(0),
            RamAccess::Open | RamAccess::Rtc(_) => None,
        }
    }

    /// The register writes that bring a mapper from power-on to its current state, in order
    /// (BESS's MBC block, [`crate::bess`]); none without a mapper. MBC3's latch register is
    /// included last: it puts the latch bit back (a write of an odd value latches the clock
    /// of the moment, which the importer then replaces with the saved copy).
    pub(crate) fn mbc_writes(&self) -> Vec<(u16, u8)> {
        let regs = self.mapper.registers();
        let ramg = if regs[0] != 0 { 0x0A } else { 0x00 };
        match &self.mapper {
            Mapper::RomOnly => Vec::new(),
            Mapper::Mbc1(_) => vec![
                (0x0000, ramg),
                (0x2000, regs[1]),
                (0x4000, regs[2]),
                (0x6000, regs[3]),
            ],
            Mapper::Mbc2(_) => vec![(0x0000, ramg), (0x0100, regs[1])],
            Mapper::Mbc3(_) => vec![
                (0x0000, ramg),
                (0x2000, regs[1]),
                (0x4000, regs[2]),
                (0x6000, regs[3]),
            ],
            Mapper::Mbc5(_) => vec![
                (0x0000, ramg),
                (0x2000, regs[1]),
                (0x3000, regs[2]),
                (0x4000, regs[3]),
            ],
        }
    }

    /// Put the mapper's registers in their power-on state (the clock and RAM are kept).
    pub(crate) fn reset_mapper(&mut self) {
        let regs = match &self.mapper {
            Mapper::RomOnly | Mapper::Mbc1(_) => [0, 0, 0, 0],
            Mapper::Mbc2(_) | Mapper::Mbc5(_) => [0, 1, 0, 0],
            Mapper::Mbc3(_) => [0, 0, 0, 0],
        };
        self.mapper.set_registers(regs);
        self.remap();
    }

    /// Replace the clock's live and latched registers (as [`Rtc::restore`]); nothing without
    /// a clock.
    pub(crate) fn restore_rtc(&mut self, live: [u8; 5], latched: [u8; 5], now: u64) {
        if let Some(rtc) = self.mapper.rtc_mut() {
            rtc.restore(live, latched, now);
        }
    }

    /// Fill the RAM from a save state's copy of another size: extra bytes are dropped,
    /// missing ones are zeros; MBC2 keeps 4 bits per byte.
    pub(crate) fn fill_ram(&mut self, data: &[u8]) {
        let n = data.len().min(self.ram.len());
        self.ram[..n].copy_from_slice(&data[..n]);
        self.ram[n..].fill(0);
        if matches!(self.mapper, Mapper::Mbc2(_)) {
            for b in &mut self.ram {
                *b &= 0x0F;
            }
        }
    }

    /// Recomputes the offsets the read and write paths use from the mapper's registers.
    fn remap(&mut self) {
        let mapping = self.mapper.mapping();
        self.rom_offsets = [
            (mapping.rom0 & self.rom_bank_mask) * ROM_BANK_SIZE,
            (mapping.rom1 & self.rom_bank_mask) * ROM_BANK_SIZE,
        ];
        (self.ram_access, self.ram_offset) = match mapping.ram {
            RamMapping::Disabled => (RamAccess::Open, 0),
            RamMapping::Bank(_) if self.ram.is_empty() => (RamAccess::Open, 0),
            RamMapping::Bank(bank) => (
                RamAccess::Ram,
                // Wrapped to the RAM size on access; keep it small so it cannot overflow.
                (bank & 0xFF) * RAM_BANK_SIZE,
            ),
            RamMapping::Mbc2 => (RamAccess::Mbc2, 0),
            RamMapping::Rtc(reg) => (RamAccess::Rtc(reg), 0),
        };
    }
}

impl fmt::Debug for Cartridge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cartridge")
            .field("title", &self.header.title)
            .field("type", &self.header.cartridge_type_name())
            .field("rom_len", &self.rom.len())
            .field("ram_len", &self.ram.len())
            .field("mapper", &self.mapper)
            .field("rom_banks_mapped", &self.rom_banks_mapped())
            .field("ram_access", &self.ram_access)
            .field("ram_offset", &self.ram_offset)
            .finish_non_exhaustive()
    }
}

/// MBC1M detection (Pan Docs): a 1 MiB MBC1 ROM with the Nintendo logo at the start of bank
/// 0x10, where the second game's header sits.
fn is_mbc1_multicart(rom: &[u8]) -> bool {
    const BANK_0X10: usize = 0x10 * ROM_BANK_SIZE;
    rom.len() == 1024 * 1024
        && rom.get(BANK_0X10 + LOGO_OFFSET..BANK_0X10 + LOGO_OFFSET + NINTENDO_LOGO.len())
            == Some(&NINTENDO_LOGO[..])
}

#[cfg(test)]
mod tests;
