//! The loaded game's files: the ROM and its power-on options, the patches applied as it
//! loads, its battery save and where that lives, and the built-in demo cartridge.
//! - `rom.rs`: reading a ROM (and a boot ROM) with clear errors; [`rom::PowerArgs`];
//! - `rom_patches.rs`: IPS, UPS and BPS patches picked and applied as a ROM loads;
//! - `saves.rs`: where a game's battery save lives and what it is called;
//! - `battery.rs`: the battery save read at power-on and written atomically while playing;
//! - `demo.rs`: the demo cartridge, assembled from `examples/demo.asm`.

pub(crate) mod battery;
pub(crate) mod demo;
pub(crate) mod rom;
pub(crate) mod rom_patches;
pub(crate) mod saves;
