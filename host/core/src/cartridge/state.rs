//! The cartridge's part of the state image, and each mapper's own part of it.
//!
//! Two layouts, told apart by the image's version ([`StateLayout::of`]):
//! - [`StateLayout::Fixed`], versions before [`crate::state::MAPPER_SECTIONS_VERSION`]: the
//!   mapper id (1 byte), 4 register bytes, the MBC3 clock (24 bytes, zeros without a clock),
//!   then the RAM. Only the total length is checked, so no mapper can hold more.
//! - [`StateLayout::Sections`], from that version on: the mapper id (1 byte), the mapper's own
//!   state as a sized section (a u32 LE length, then that many bytes, written and read by the
//!   mapper: [`MapperState`]), then the RAM as a sized section (u32 LE length, the bytes).
//!   Nothing follows. A new mapper (MBC7's EEPROM, HuC3's clock, the camera's registers)
//!   brings its own section of whatever size it needs; the cartridge's code does not change.
//!
//! Each mapper's own part is [`MapperState`] (module `mapper_state`).
//!
//! Either way every length is checked against this cartridge before anything changes, and a
//! mismatch is an error naming the part ([`CartridgeError::StateSize`]), never a panic. For a
//! given cartridge the part has the same length at the same offset every time, so the rewind
//! history's frame-to-frame diffs stay small.

use super::error::CartridgeError;
use super::mapper_state::{MapperState, exact};
use super::rtc::{RTC_STATE_LEN, Rtc};
use super::{Cartridge, Mapper};

/// Length of the [`StateLayout::Fixed`] part before the RAM bytes: the mapper id, 4 register
/// bytes and the clock.
const FIXED_LEN: usize = 1 + 4 + RTC_STATE_LEN;

/// Length of a section's length field (u32 LE).
const SIZE_LEN: usize = 4;

/// How the cartridge's part of a state image is laid out (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StateLayout {
    /// Versions before [`crate::state::MAPPER_SECTIONS_VERSION`]: id, 4 registers, clock, RAM.
    Fixed,
    /// From [`crate::state::MAPPER_SECTIONS_VERSION`] on: id, the mapper's sized section, the
    /// RAM's sized section.
    Sections,
}

impl StateLayout {
    /// The layout images of `version` have.
    pub(crate) const fn of(version: u16) -> StateLayout {
        if version >= crate::state::MAPPER_SECTIONS_VERSION {
            StateLayout::Sections
        } else {
            StateLayout::Fixed
        }
    }

    /// The layout [`crate::state::VERSION`] writes.
    pub(crate) const CURRENT: StateLayout = StateLayout::of(crate::state::VERSION);
}

impl MapperState for Mapper {
    fn state_len(&self) -> usize {
        match self {
            Self::RomOnly => 0,
            Self::Mbc1(m) => m.state_len(),
            Self::Mbc2(m) => m.state_len(),
            Self::Mbc3(m) => m.state_len(),
            Self::Mbc5(m) => m.state_len(),
        }
    }

    fn write_state(&self, out: &mut Vec<u8>) {
        match self {
            Self::RomOnly => {}
            Self::Mbc1(m) => m.write_state(out),
            Self::Mbc2(m) => m.write_state(out),
            Self::Mbc3(m) => m.write_state(out),
            Self::Mbc5(m) => m.write_state(out),
        }
    }

    fn read_state(&mut self, data: &[u8]) -> Result<(), CartridgeError> {
        match self {
            Self::RomOnly => exact::<0>(data, self.name()).map(|_| ()),
            Self::Mbc1(m) => m.read_state(data),
            Self::Mbc2(m) => m.read_state(data),
            Self::Mbc3(m) => m.read_state(data),
            Self::Mbc5(m) => m.read_state(data),
        }
    }
}

/// Reads the parts of a [`StateLayout::Sections`] image, failing on a short one.
struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], CartridgeError> {
        let (head, rest) = self
            .0
            .split_at_checked(n)
            .ok_or(CartridgeError::State("the cartridge part ends early"))?;
        self.0 = rest;
        Ok(head)
    }

    /// A sized section: a u32 LE length, then that many bytes.
    fn section(&mut self) -> Result<&'a [u8], CartridgeError> {
        let size = exact::<SIZE_LEN>(self.take(SIZE_LEN)?, "section size")?;
        let len = usize::try_from(u32::from_le_bytes(size))
            .map_err(|_| CartridgeError::State("a section is too long"))?;
        self.take(len)
    }
}

/// Appends a sized section holding what `write` appends.
fn write_section(out: &mut Vec<u8>, write: impl FnOnce(&mut Vec<u8>)) {
    let at = out.len();
    out.extend_from_slice(&[0; SIZE_LEN]);
    write(out);
    let len = out.len() - at - SIZE_LEN;
    let len = u32::try_from(len).unwrap_or(u32::MAX);
    out[at..at + SIZE_LEN].copy_from_slice(&len.to_le_bytes());
}

impl Cartridge {
    /// Length of [`Cartridge::write_state`]'s output; fixed for a given cartridge.
    pub fn state_len(&self) -> usize {
        self.state_len_as(StateLayout::CURRENT)
    }

    /// Appends the cartridge's mutable state as the state image of [`crate::state::VERSION`]
    /// holds it (see the module docs: the mapper id, then the mapper's own state and the RAM
    /// as sized sections, or, before [`crate::state::MAPPER_SECTIONS_VERSION`], 4 register
    /// bytes, 24 clock bytes and the RAM), in a layout fixed for a given cartridge so
    /// consecutive states diff well. The ROM is not included.
    pub fn write_state(&self, out: &mut Vec<u8>) {
        self.write_state_as(out, StateLayout::CURRENT);
    }

    /// Restores a state written by [`Cartridge::write_state`] for the same ROM. Checks the
    /// mapper id and every length, masks every register to its width; on error nothing
    /// changes.
    pub fn read_state(&mut self, data: &[u8]) -> Result<(), CartridgeError> {
        self.read_state_as(data, StateLayout::CURRENT)
    }

    /// Length of the state part in `layout`; fixed for a given cartridge.
    pub(crate) fn state_len_as(&self, layout: StateLayout) -> usize {
        match layout {
            StateLayout::Fixed => FIXED_LEN + self.ram.len(),
            StateLayout::Sections => {
                1 + SIZE_LEN + self.mapper.state_len() + SIZE_LEN + self.ram.len()
            }
        }
    }

    /// Appends the state part in `layout` (see the module docs). The ROM is not included.
    pub(crate) fn write_state_as(&self, out: &mut Vec<u8>, layout: StateLayout) {
        out.push(self.mapper.id());
        match layout {
            StateLayout::Fixed => {
                out.extend_from_slice(&self.mapper.registers());
                let rtc = self.mapper.rtc().map(Rtc::to_state).unwrap_or_default();
                out.extend_from_slice(&rtc);
                out.extend_from_slice(&self.ram);
            }
            StateLayout::Sections => {
                write_section(out, |out| self.mapper.write_state(out));
                write_section(out, |out| out.extend_from_slice(&self.ram));
            }
        }
    }

    /// Restores a state part in `layout` written for the same ROM. Checks the mapper id and
    /// every length; on error nothing changes.
    pub(crate) fn read_state_as(
        &mut self,
        data: &[u8],
        layout: StateLayout,
    ) -> Result<(), CartridgeError> {
        match layout {
            StateLayout::Fixed => self.read_fixed(data),
            StateLayout::Sections => self.read_sections(data),
        }
    }

    fn read_fixed(&mut self, data: &[u8]) -> Result<(), CartridgeError> {
        if data.len() != self.state_len_as(StateLayout::Fixed) {
            return Err(CartridgeError::State("wrong length"));
        }
        let (fixed, ram) = data
            .split_at_checked(FIXED_LEN)
            .ok_or(CartridgeError::State("wrong length"))?;
        let (&id, rest) = fixed
            .split_first()
            .ok_or(CartridgeError::State("wrong length"))?;
        if id != self.mapper.id() {
            return Err(CartridgeError::State("different mapper"));
        }
        let (regs, rtc) = rest
            .split_first_chunk::<4>()
            .ok_or(CartridgeError::State("wrong length"))?;
        let rtc: &[u8; RTC_STATE_LEN] = rtc
            .try_into()
            .map_err(|_| CartridgeError::State("wrong length"))?;
        self.mapper.set_registers(*regs);
        if let Some(clock) = self.mapper.rtc_mut() {
            clock.load_state(rtc);
        }
        self.ram.copy_from_slice(ram);
        self.remap();
        Ok(())
    }

    fn read_sections(&mut self, data: &[u8]) -> Result<(), CartridgeError> {
        let mut cursor = Cursor(data);
        let &[id] = cursor.take(1)? else {
            return Err(CartridgeError::State("the cartridge part ends early"));
        };
        if id != self.mapper.id() {
            return Err(CartridgeError::State("different mapper"));
        }
        let mapper = cursor.section()?;
        let ram = cursor.section()?;
        if !cursor.0.is_empty() {
            return Err(CartridgeError::State("bytes left over after the RAM"));
        }
        let size_error = |part, actual, expected| CartridgeError::StateSize {
            part,
            actual,
            expected,
        };
        if mapper.len() != self.mapper.state_len() {
            return Err(size_error(
                self.mapper.name(),
                mapper.len(),
                self.mapper.state_len(),
            ));
        }
        if ram.len() != self.ram.len() {
            return Err(size_error("RAM", ram.len(), self.ram.len()));
        }
        // Every size is right: the mapper's own checks cannot fail after it starts changing.
        self.mapper.read_state(mapper)?;
        self.ram.copy_from_slice(ram);
        self.remap();
        Ok(())
    }
}
