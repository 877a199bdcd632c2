//! Battery saves: the cartridge RAM (+ the common 48-byte RTC footer on MBC3+TIMER carts,
//! see `Cartridge::battery_save`) in `ROM.sav` next to the ROM.
//!
//! - Written atomically: a temporary file in the same folder, `fsync`, rename over the old
//!   file, `fsync` of the folder. A `kill -9` leaves either the old file or the new one.
//! - Written only when the bytes changed, at most every couple of seconds while playing, on
//!   exit and before another ROM is loaded.
//! - A `.sav` the cartridge refuses (wrong size, unreadable) is reported and renamed to
//!   `ROM.sav.corrupt-UNIXTIME`, so it is never overwritten silently.
//!
//! Loading goes through logged pokes (see [`load_into_session`]) because the session has no
//! battery-load call yet.

use anyhow::{Context, Result};
use gb_core::cartridge::MapperKind;
use gb_core::{Cartridge, Gb};
use gb_session::Session;
use std::path::{Path, PathBuf};

/// A cartridge's battery file.
#[derive(Debug)]
pub struct Battery {
    path: PathBuf,
    /// The bytes last written or loaded.
    last: Vec<u8>,
}

/// `game.gb` → `game.sav`.
pub fn sav_path(rom: &Path) -> PathBuf {
    rom.with_extension("sav")
}

/// Write `bytes` to `path` atomically (see `gb_session::files::write_atomic`).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    gb_session::files::write_atomic(path, bytes)
        .with_context(|| format!("cannot write '{}'", path.display()))
}

impl Battery {
    /// The battery of the ROM at `rom_path` (None when the cartridge keeps nothing), with the
    /// `.sav` loaded into `session` when there is one. The note is a line for the console.
    pub fn open(
        rom_path: &Path,
        rom: &[u8],
        session: &mut Session,
    ) -> (Option<Battery>, Option<String>) {
        let cart = session.gb().cartridge();
        if !cart.has_battery() || (cart.ram().is_empty() && !cart.has_rtc()) {
            return (None, None);
        }
        let path = sav_path(rom_path);
        let mut battery = Battery {
            path: path.clone(),
            last: cart.battery_save(session.gb().cycles()),
        };
        let data = match std::fs::read(&path) {
            Ok(d) => d,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (Some(battery), None),
            Err(e) => {
                // Unreadable: keep it, and do not write over it.
                let note = format!("battery: cannot read '{}': {e}", path.display());
                return (None, Some(note));
            }
        };
        // Check the file against a scratch cartridge of the same ROM.
        let check = Cartridge::from_rom(rom.to_vec())
            .map_err(|e| e.to_string())
            .and_then(|mut c| c.load_battery(&data, 0).map_err(|e| e.to_string()));
        if let Err(e) = check {
            let aside = set_aside(&path);
            let note = match aside {
                Ok(to) => format!(
                    "battery: '{}' is corrupt ({e}); kept as '{}', starting with empty RAM",
                    path.display(),
                    to.display()
                ),
                Err(e2) => {
                    // Could not move it: do not save over it either.
                    return (
                        None,
                        Some(format!(
                            "battery: '{}' is corrupt ({e}) and cannot be moved aside ({e2}); battery saves are off",
                            path.display()
                        )),
                    );
                }
            };
            return (Some(battery), Some(note));
        }
        load_into_session(session, &data);
        battery.last = data;
        let note = format!("battery: loaded '{}'", path.display());
        (Some(battery), Some(note))
    }

    /// Write the cartridge's battery bytes if they changed since the last write.
    pub fn save(&mut self, gb: &Gb) -> Result<()> {
        let bytes = gb.cartridge().battery_save(gb.cycles());
        if bytes == self.last {
            return Ok(());
        }
        write_atomic(&self.path, &bytes)?;
        self.last = bytes;
        Ok(())
    }
}

/// Rename a corrupt save to `NAME.corrupt-UNIXTIME`.
fn set_aside(path: &Path) -> std::io::Result<PathBuf> {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut to = path.as_os_str().to_owned();
    to.push(format!(".corrupt-{secs}"));
    let to = PathBuf::from(to);
    std::fs::rename(path, &to)?;
    Ok(to)
}

/// Load battery RAM into a fresh session through logged pokes before its first frame: enable
/// the RAM through the mapper's registers, write every bank, then put the registers back to
/// their power-on values. On MBC3+TIMER cartridges the footer's live clock registers (S, M, H,
/// DL, DH) are written through the clock's register selects too (the latched copy and the
/// timestamp are not restored). A stopgap until the session takes battery bytes as a start
/// parameter.
pub fn load_into_session(session: &mut Session, data: &[u8]) {
    let cart = session.gb().cartridge();
    let ram_len = cart.ram().len();
    let rtc = cart.has_rtc();
    let mapper = cart.header().cartridge_type.mapper;
    let ram = &data[..ram_len.min(data.len())];
    let mut pokes: Vec<(u16, u8)> = vec![(0x0000, 0x0A)];
    match mapper {
        MapperKind::Mbc2 => {
            for (i, b) in ram.iter().enumerate().take(0x200) {
                pokes.push((0xA000 + i as u16, *b | 0xF0));
            }
        }
        _ => {
            if mapper == MapperKind::Mbc1 {
                pokes.push((0x6000, 1));
            }
            for (bank, chunk) in ram.chunks(0x2000).enumerate() {
                pokes.push((0x4000, bank as u8));
                for (i, b) in chunk.iter().enumerate() {
                    pokes.push((0xA000 + i as u16, *b));
                }
            }
            if rtc && mapper == MapperKind::Mbc3 && data.len() >= ram_len + 20 {
                for i in 0..5u8 {
                    let value = data[ram_len + usize::from(i) * 4];
                    pokes.push((0x4000, 0x08 + i));
                    pokes.push((0xA000, value));
                }
            }
            pokes.push((0x4000, 0));
            if mapper == MapperKind::Mbc1 {
                pokes.push((0x6000, 0));
            }
        }
    }
    pokes.push((0x0000, 0x00));
    for (a, v) in pokes {
        session.poke(a, v);
    }
}
