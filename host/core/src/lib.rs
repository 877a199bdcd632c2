//! `gb-core`: the Game Boy (DMG) and the Game Boy Color (CGB), as plain data.
//!
//! The whole machine is one [`Gb`] value: `Clone`, no pointers, trait objects, `RefCell` or
//! callbacks, so a host can snapshot it by copying. The core knows nothing of Lua, windows,
//! files, threads or the wall clock; the real-time clock of MBC3 cartridges runs on emulated
//! cycles.
//!
//! Map of the crate:
//! - [`cpu`]: the SM83, talking to the rest through [`cpu::Bus`] one M-cycle at a time;
//! - [`bus`]: the memory map, clock, event scheduler, OAM DMA and interrupt registers;
//! - [`timer`], [`ppu`], [`serial`], [`joypad`], [`apu`]: the I/O blocks;
//! - [`cartridge`]: header parsing and the mappers (MBC1/2/3/5, RTC);
//! - [`power_on`]: what WRAM, HRAM and OAM hold at power-on ([`RamInit`]);
//! - [`model`]: the DMG or the CGB, and `auto`'s choice; [`frame`]: the pictures it draws;
//!   [`screen`]: their geometry (the game's 160 × 144, a border frame, screens side by side);
//! - [`cgb`]: the CGB's KEY0, KEY1, SVBK, RP and FF72-FF75; [`compat`]: the palettes the CGB
//!   boot ROM gives DMG games ([`DmgPalette`]); `cgb_boot.rs`: the CGB's post-boot state;
//!   [`hdma`]: the CGB's VRAM DMA registers;
//! - [`link`]: the other end of the serial cable: two Game Boys linked ([`link::Pair`],
//!   stepped so that every bit crosses at its cycle) and the Game Boy Printer;
//! - [`bess`]: SameBoy's BESS save states, exported and imported;
//! - [`asm`]: a small SM83 assembler (for tests and built-in ROMs) and its disassembler.
#![warn(missing_docs)]

pub mod apu;
pub mod asm;
pub mod bess;
pub mod bus;
pub mod cartridge;
pub mod cgb;
mod cgb_boot;
pub mod compat;
pub mod cpu;
pub mod frame;
pub mod frames;
pub mod gb;
pub mod hdma;
pub mod joypad;
pub mod link;
pub mod model;
pub mod power_on;
pub mod ppu;
pub mod screen;
pub mod serial;
pub mod state;
pub mod timer;
pub mod watch;

pub use bess::BessError;
pub use cartridge::Cartridge;
pub use compat::DmgPalette;
pub use cpu::Registers;
pub use frame::{ColorCorrection, Frame};
pub use frames::FrameRule;
pub use gb::{Boot, DebugStop, DebugUntil, Domain, Gb, GbError};
pub use joypad::Buttons;
pub use model::{CgbRevision, Model, ModelChoice};
pub use power_on::RamInit;
pub use state::StateError;

/// The core's version: bumped whenever what the machine does, or how frames are counted,
/// changes (a timing fix, a new rule), so that a movie recorded on another version can say so
/// when it does not replay the same. 1 is every core before the number existed; 2 counts
/// frames by [`FrameRule`] and has the timing of Gambatte's hardware tests (issue 31); 3 has
/// that second round (double speed, mode 3's fine scroll, the window at WX 166, OAM
/// DMA and the OAM scan, HDMA after an opcode fetch, LYC writes, the CGB's post-boot PPU
/// position) and cartridge RAM powered on as $FF; 4 its third round (the window with fine
/// scroll, CGB STAT and LYC writes, colour RAM held in mode 3, DMG palette writes, HDMA and
/// HALT, the serial clock after DIV writes, the interrupt dispatch's pushes); 5 its fourth
/// round (the first line after LCD on, CGB STAT/LYC off the CPU grid and at double speed,
/// HALT woken by HBlank, OAM DMA in HALT and beside HDMA, LCDC.1/LCDC.4 during mode 3, the
/// square channels' duty tables and timer restart); 6 the APU to the cycle (issue 32: the
/// frame sequencer's power-on dead step and double-speed lateness, the sweep's trigger window
/// and late calculation, the envelope's reload and zombie mode, the squares' output latch and
/// channel 1's post-boot phase, PCM12/PCM34 and the wave buffer); 7 the PCM12/PCM34 read point
/// and the CPU CGB C's read and NR43 glitches, a wave retrigger at a fetch.
pub const CORE_VERSION: u32 = 7;
