//! The machine's state as a fixed-layout byte image, for rewind snapshots and save states.
//!
//! [`Gb::save_state`](crate::Gb::save_state) writes every field that affects emulation, in
//! the same order and at the same offset every time (for a given cartridge), so the XOR of
//! two consecutive images is mostly zeros and compresses to almost nothing.
//! [`Gb::load_state`](crate::Gb::load_state) reads one back into a machine running the same
//! ROM. Loading never trusts the bytes: lengths, enum ids and indices are checked, and on any
//! error the machine is left as it was.
//!
//! Not in the image: the ROM (the host keeps it), the framebuffer and the serial output log
//! (outputs: the next completed frame after a load is exact) and derived caches (the
//! scheduler's next event, fast-path flags), which are recomputed on load. Times that can no
//! longer matter (an OAM DMA's hold of OAM that ended a line ago and the OAM it saved, the
//! STAT line's last fall and the LY=LYC flag's last clear older than a line) are written as
//! none, so that the image of a still game is the same from frame to frame (the rewind
//! history stores frame-to-frame diffs).
//!
//! Layout: a 4-byte magic `GBst`, a format version (u16, little-endian), the model (a stable
//! id: 0 DMG, 1 CGB) and the CGB revision (0 C, 1 D; 0 on the DMG): an image is loaded only on
//! its model and revision. Then the frame bookkeeping (the frame's deadline, the frame clock:
//! [`crate::frames`], the counters; version 8 added the clock), and
//! the parts in order (version 9 added PPU, OAM DMA and HDMA fields: the OAM scan's view of
//! an OAM DMA, the object size's last change, the window carried past WX 166, the LYC
//! write in flight, the HBlank block due; version 10 added the PPU's mode-0 start while colour
//! RAM is still held, the CGB's STAT write held or pending and its LYC interrupt a dot late,
//! and the HDMA's view of the CPU's sleep and of the block being copied; version 11 added
//! the CPU's byte latched across a sleep, the DMG's first HALT wake-up, and the APU's 1 MHz
//! clock phase and its square channels' silence after a trigger, the window's latch carried
//! past WX 166 and its falls; version 12 the APU's: each envelope's stop at 0 or 15, the
//! sweep's calculation due, the frame sequencer's double-speed lateness, the squares' latched
//! output and its time in place of their silence flags, the wave channel's buffer byte, and the
//! noise channel's free-running counter, its next tick and the APU's phase since power-on): CPU,
//! clock and interrupt registers, work RAM (8 KiB on the DMG, 32 on the CGB), high RAM, PPU
//! (VRAM 8 or 16 KiB, VBK, the colour palettes, OPRI), timer, serial, joypad, APU, OAM DMA,
//! CGB mode and the CGB registers (KEY0, KEY1, SVBK, RP, FF72-FF75), the speed switch, the RAM
//! at 0xFEA0-0xFEFF, HDMA, the boot ROM
//! overlay (0x100 bytes on the DMG, 0x900 on the CGB), then the cartridge's own state
//! ([`Cartridge::write_state`](crate::Cartridge::write_state)): from
//! [`MAPPER_SECTIONS_VERSION`] on, the mapper id and two sized sections (the mapper's own
//! state, which each mapper writes and reads itself, and the RAM), before it a fixed 4 register
//! bytes, 24 clock bytes and the RAM. Integers are little-endian; enums are written as stable
//! one-byte ids.
//!
//! Versions: the loader reads every version from [`OLDEST_VERSION`] to [`VERSION`]; a part
//! whose layout changed reads the image's version (`Reader::version`) and branches on it,
//! and the writer writes [`VERSION`]'s layout (`Writer::version`). A layout change names the
//! version that brings it (as [`MAPPER_SECTIONS_VERSION`] does) and takes effect when
//! [`VERSION`] reaches it.

/// Why a state image cannot be loaded.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum StateError {
    /// The image does not start with the magic bytes.
    #[error("not a gbhost core state (bad magic)")]
    Magic,
    /// The image was written by another format version.
    #[error(
        "core state format version {0} is not supported (this build reads versions {OLDEST_VERSION} to {VERSION})"
    )]
    Version(u16),
    /// The image ends early or has bytes left over.
    #[error("core state has the wrong length")]
    Length,
    /// A field holds a value the machine can never be in.
    #[error("core state is corrupt: {0}")]
    Invalid(&'static str),
    /// The cartridge part does not fit this cartridge.
    #[error("core state does not fit this cartridge: {0}")]
    Cartridge(String),
    /// The image was saved on another model.
    #[error("the core state was saved on the {saved} model; this machine is a {running}")]
    Model {
        /// The model in the image.
        saved: crate::model::Model,
        /// This machine's model.
        running: crate::model::Model,
    },
    /// The image was saved on another CGB revision.
    #[error("the core state was saved on a {saved}; this machine is a {running}")]
    Revision {
        /// The revision in the image.
        saved: crate::model::CgbRevision,
        /// This machine's revision.
        running: crate::model::CgbRevision,
    },
}

/// Magic bytes at the start of an image.
pub const MAGIC: [u8; 4] = *b"GBst";
/// Format version of the image: what [`Gb::save_state`](crate::Gb::save_state) writes.
pub const VERSION: u16 = 13;

/// The oldest version [`Gb::load_state`](crate::Gb::load_state) reads: it reads every version
/// from this one to [`VERSION`], each in its own layout (the parts branch on the image's
/// version).
pub const OLDEST_VERSION: u16 = 12;

/// The first version whose cartridge part is sized sections: the mapper's own state (each
/// mapper writes and reads its own, of any size) and the RAM, each a u32 length and its
/// bytes. Older images hold a fixed 4 register bytes and a 24-byte clock (the `cartridge`
/// module's `state.rs`).
pub const MAPPER_SECTIONS_VERSION: u16 = 13;

/// The first version whose APU part ends with the noise channel's last scheduled LFSR clock
/// (the CPU CGB C's PCM34 read glitch); older images load with none.
pub const NOISE_LAST_VERSION: u16 = 13;

/// Appends fields to an image of one version.
pub(crate) struct Writer<'a> {
    out: &'a mut Vec<u8>,
    version: u16,
}

impl<'a> Writer<'a> {
    /// A writer appending to `out` the layout of `version` (at most [`VERSION`]).
    pub(crate) fn new(out: &'a mut Vec<u8>, version: u16) -> Writer<'a> {
        Writer { out, version }
    }

    /// The version whose layout is written.
    pub(crate) fn version(&self) -> u16 {
        self.version
    }

    pub(crate) fn u8(&mut self, v: u8) {
        self.out.push(v);
    }

    pub(crate) fn bool(&mut self, v: bool) {
        self.out.push(u8::from(v));
    }

    pub(crate) fn u16(&mut self, v: u16) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn u32(&mut self, v: u32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn u64(&mut self, v: u64) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn bytes(&mut self, v: &[u8]) {
        self.out.extend_from_slice(v);
    }

    /// The vector being written (for parts with their own writer, like the cartridge).
    pub(crate) fn vec(&mut self) -> &mut Vec<u8> {
        self.out
    }
}

/// Reads fields from an image, checking that it does not end early.
pub(crate) struct Reader<'a> {
    data: &'a [u8],
    version: u16,
}

impl<'a> Reader<'a> {
    /// A reader over `data`, taken for an image of [`VERSION`] until
    /// [`Reader::set_version`] says what the header holds.
    pub(crate) fn new(data: &'a [u8]) -> Reader<'a> {
        Reader {
            data,
            version: VERSION,
        }
    }

    /// The version of the image being read, whose layout the parts read.
    pub(crate) fn version(&self) -> u16 {
        self.version
    }

    /// Read the rest as an image of `version` (once the header has been checked).
    pub(crate) fn set_version(&mut self, version: u16) {
        self.version = version;
    }

    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], StateError> {
        let (head, rest) = self.data.split_at_checked(n).ok_or(StateError::Length)?;
        self.data = rest;
        Ok(head)
    }

    pub(crate) fn u8(&mut self) -> Result<u8, StateError> {
        Ok(self.take(1)?[0])
    }

    pub(crate) fn bool(&mut self) -> Result<bool, StateError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(StateError::Invalid("a flag is neither 0 nor 1")),
        }
    }

    pub(crate) fn u16(&mut self) -> Result<u16, StateError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    pub(crate) fn u32(&mut self) -> Result<u32, StateError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub(crate) fn u64(&mut self) -> Result<u64, StateError> {
        let mut b = [0; 8];
        b.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(b))
    }

    /// Fill `dst` from the image.
    pub(crate) fn bytes(&mut self, dst: &mut [u8]) -> Result<(), StateError> {
        dst.copy_from_slice(self.take(dst.len())?);
        Ok(())
    }

    /// A byte that must be below `limit`.
    pub(crate) fn below(&mut self, limit: u8, what: &'static str) -> Result<u8, StateError> {
        let v = self.u8()?;
        if v < limit {
            Ok(v)
        } else {
            Err(StateError::Invalid(what))
        }
    }

    /// Everything not read yet.
    pub(crate) fn rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.data)
    }
}

#[cfg(test)]
mod tests;
