//! Battery saves: the cartridge RAM (+ the common 48-byte RTC footer on MBC3+TIMER carts,
//! see `Cartridge::battery_save`) in `ROM.sav` next to the ROM, or where `saves.rs` says
//! (a configured folder, the data folder when the ROM's is not writable; a patched game's
//! save is named after its patches).
//!
//! - Written atomically: a temporary file in the same folder, `fsync`, rename over the old
//!   file, `fsync` of the folder. A `kill -9` leaves either the old file or the new one.
//! - Written only when the bytes changed, at most every couple of seconds while playing, on
//!   exit and before another ROM is loaded.
//! - A `.sav` the cartridge refuses (wrong size, unreadable) is reported and renamed to
//!   `ROM.sav.corrupt-UNIXTIME`, so it is never overwritten silently.
//!
//! - Loaded as a start parameter of the session (`gb_session::PowerOn::battery`): the
//!   cartridge powers on holding it, as a battery keeps it; nothing is replayed into it.
//!
//! Only files and their bytes are handled here; the cartridge RAM itself is the core's.

use anyhow::{Context, Result};
use gb_core::{Cartridge, Gb};
use std::path::{Path, PathBuf};

/// A cartridge's battery file.
#[derive(Debug)]
pub struct Battery {
    path: PathBuf,
    /// Where to write instead if writing at `path` fails (see [`crate::game::saves::Place`]).
    fallback: Option<PathBuf>,
    /// The bytes last written or loaded.
    last: Vec<u8>,
}

/// `game.gb` → `game.sav` (an unpatched game's save beside it).
#[cfg(test)]
pub fn sav_path(rom: &Path) -> PathBuf {
    rom.with_extension("sav")
}

/// Write `bytes` to `path` atomically (see `gb_session::files::write_atomic`).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    gb_session::files::write_atomic(path, bytes)
        .with_context(|| format!("cannot write '{}'", path.display()))
}

/// What [`Battery::open`] found.
#[derive(Debug, Default)]
pub struct Opened {
    /// The battery file to keep writing (None: the cartridge keeps nothing, or its file must
    /// not be written over).
    pub battery: Option<Battery>,
    /// The bytes to power on with (a `.sav` the cartridge accepts).
    pub data: Option<Vec<u8>>,
    /// A line for the console.
    pub note: Option<String>,
    /// Why the save is not beside the ROM (for the status bar too).
    pub place_note: Option<String>,
}

impl Battery {
    /// The battery of the ROM image `rom` whose save is at `place` (see [`crate::game::saves`]):
    /// its `.sav`, checked against the cartridge (a refused file is set aside). The session
    /// is then powered on with [`Opened::data`].
    /// `place` is asked only for a cartridge with a battery.
    pub fn open(place: impl FnOnce() -> crate::game::saves::Place, rom: &[u8]) -> Opened {
        let Ok(cart) = Cartridge::from_rom_forced(rom.to_vec()) else {
            return Opened::default();
        };
        if !cart.has_battery() || (cart.ram().is_empty() && !cart.has_rtc()) {
            return Opened::default();
        }
        let place = place();
        let opened = Battery::open_at(&place, cart);
        Opened {
            place_note: place.note,
            ..opened
        }
    }

    /// [`Battery::open`] once the place is known.
    fn open_at(place: &crate::game::saves::Place, cart: Cartridge) -> Opened {
        let path = place.path.clone();
        let battery = Battery {
            path: path.clone(),
            fallback: place.fallback.clone(),
            last: cart.battery_save(0),
        };
        let read = match &place.read_from {
            Some(from) if !path.exists() => from.clone(),
            _ => path.clone(),
        };
        let data = match std::fs::read(&read) {
            Ok(d) => d,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Opened {
                    battery: Some(battery),
                    ..Opened::default()
                };
            }
            Err(e) => {
                // Unreadable: keep it, and do not write over it.
                let note = format!("battery: cannot read '{}': {e}", read.display());
                return Opened {
                    note: Some(note),
                    ..Opened::default()
                };
            }
        };
        let mut check = cart;
        if let Err(e) = check.load_battery(&data, 0) {
            if read != path {
                // Read-only beside the ROM: leave it there; saves start empty elsewhere.
                return Opened {
                    battery: Some(battery),
                    data: None,
                    note: Some(format!(
                        "battery: '{}' is corrupt ({e}); starting with empty RAM",
                        read.display()
                    )),
                    ..Opened::default()
                };
            }
            return match set_aside(&path) {
                Ok(to) => Opened {
                    battery: Some(battery),
                    data: None,
                    note: Some(format!(
                        "battery: '{}' is corrupt ({e}); kept as '{}', starting with empty RAM",
                        path.display(),
                        to.display()
                    )),
                    ..Opened::default()
                },
                // Could not move it: do not save over it either.
                Err(e2) => Opened {
                    note: Some(format!(
                        "battery: '{}' is corrupt ({e}) and cannot be moved aside ({e2}); battery saves are off",
                        path.display()
                    )),
                    ..Opened::default()
                },
            };
        }
        Opened {
            battery: Some(Battery {
                path: path.clone(),
                fallback: place.fallback.clone(),
                last: data.clone(),
            }),
            data: Some(data),
            note: Some(if read == path {
                format!("battery: loaded '{}'", path.display())
            } else {
                format!(
                    "battery: loaded '{}' (read-only); saving to '{}'",
                    read.display(),
                    path.display()
                )
            }),
            ..Opened::default()
        }
    }

    /// Write the cartridge's battery bytes if they changed since the last write. When the
    /// ROM's folder refuses the file after all, the save goes to the data folder from then on;
    /// the returned line says so.
    pub fn save(&mut self, gb: &Gb) -> Result<Option<String>> {
        let bytes = gb.cartridge().battery_save(gb.cycles());
        if bytes == self.last {
            return Ok(None);
        }
        let mut note = None;
        if let Err(e) = write_to(&self.path, &bytes) {
            let Some(fallback) = self.fallback.take() else {
                return Err(e);
            };
            write_to(&fallback, &bytes)?;
            note = Some(format!(
                "battery: '{}' is not writable ({e:#}): saves in '{}' from now on",
                self.path.display(),
                fallback.display()
            ));
            self.path = fallback;
        }
        self.last = bytes;
        Ok(note)
    }
}

/// Write a save file atomically, making its folder first.
fn write_to(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the saves folder '{}'", dir.display()))?;
    }
    write_atomic(path, bytes)
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

#[cfg(test)]
mod tests {
    use super::*;
    use gb_core::asm::RomBuilder;
    use gb_session::{PowerOn, Session, SessionConfig};

    fn place(rom: &Path) -> crate::game::saves::Place {
        crate::game::saves::Place {
            path: sav_path(rom),
            read_from: None,
            note: None,
            fallback: None,
        }
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gbhost-bat-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A cartridge with battery RAM (and an MBC3 clock for `cart_type` 0x10) that loops.
    fn rom(cart_type: u8, ram_code: u8) -> Vec<u8> {
        RomBuilder::new()
            .title("BATTERY")
            .cartridge_type(cart_type)
            .ram_size_code(ram_code)
            .program("loop:\n halt\n nop\n jr loop\n")
            .build()
            .expect("assemble")
    }

    fn session(rom: &[u8], data: Option<Vec<u8>>) -> Session {
        let power = PowerOn {
            battery: data,
            ..PowerOn::default()
        };
        let config = SessionConfig {
            ring_bytes: 1 << 20,
            ..SessionConfig::default()
        };
        Session::power_on(rom.to_vec(), power, config).expect("session")
    }

    /// A `.sav` in the layout every earlier version wrote (RAM, then the MBC3 clock's 48-byte
    /// footer: five live registers, five latched ones as u32, a u64 timestamp) loads: RAM and
    /// live clock registers as saved, and nothing is logged for it.
    #[test]
    fn an_old_sav_with_a_clock_footer_still_loads() {
        let dir = temp_dir("rtc");
        let rom_path = dir.join("clock.gb");
        let bytes = rom(0x10, 0x03);
        std::fs::write(&rom_path, &bytes).unwrap();
        let mut sav: Vec<u8> = (0..32 * 1024).map(|i| (i * 7 + 3) as u8).collect();
        for v in [12u32, 34, 5, 6, 1, 0, 0, 0, 0, 0] {
            sav.extend_from_slice(&v.to_le_bytes());
        }
        sav.extend_from_slice(&1_700_000_000u64.to_le_bytes());
        std::fs::write(sav_path(&rom_path), &sav).unwrap();
        let opened = Battery::open(|| place(&rom_path), &bytes);
        assert!(opened.note.as_deref().is_some_and(|n| n.contains("loaded")));
        let s = session(&bytes, opened.data);
        assert_eq!(s.log().len(), 0, "no event is logged for the battery");
        let cart = s.gb().cartridge();
        assert_eq!(cart.ram(), &sav[..32 * 1024]);
        let rtc = cart.rtc().expect("clock");
        assert_eq!(rtc.registers(), [12, 34, 5, 6, 1]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A `.sav` the cartridge refuses is set aside and the session starts empty.
    #[test]
    fn a_corrupt_sav_is_set_aside() {
        let dir = temp_dir("corrupt");
        let rom_path = dir.join("game.gb");
        let bytes = rom(0x1B, 0x02);
        std::fs::write(&rom_path, &bytes).unwrap();
        std::fs::write(sav_path(&rom_path), [1, 2, 3]).unwrap();
        let opened = Battery::open(|| place(&rom_path), &bytes);
        assert!(opened.data.is_none());
        assert!(opened.battery.is_some());
        assert!(opened.note.is_some_and(|n| n.contains("corrupt")));
        assert!(!sav_path(&rom_path).exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
