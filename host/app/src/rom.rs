//! Loading a ROM file (and optional boot ROM) into a [`Gb`], with clear errors.

use anyhow::{Context, Result};
use gb_core::{Cartridge, Gb};
use std::path::Path;

/// Read `path` and build a DMG around it; the header's oddities go to stderr, one line each.
pub fn load(path: &Path, boot_rom: Option<&Path>) -> Result<Gb> {
    let bytes =
        std::fs::read(path).with_context(|| format!("cannot read ROM '{}'", path.display()))?;
    let cart = Cartridge::from_rom(bytes)
        .with_context(|| format!("'{}' is not a usable Game Boy ROM", path.display()))?;
    warn(path, &cart);
    match boot_rom {
        None => Ok(Gb::new(cart)),
        Some(boot) => {
            let image = std::fs::read(boot)
                .with_context(|| format!("cannot read boot ROM '{}'", boot.display()))?;
            Gb::with_boot_rom(cart, &image)
                .with_context(|| format!("'{}' is not a usable boot ROM", boot.display()))
        }
    }
}

/// Read `path` as a ROM image for a session, checked the same way as [`load`].
pub fn read(path: &Path) -> Result<Vec<u8>> {
    let bytes =
        std::fs::read(path).with_context(|| format!("cannot read ROM '{}'", path.display()))?;
    let cart = Cartridge::from_rom(bytes.clone())
        .with_context(|| format!("'{}' is not a usable Game Boy ROM", path.display()))?;
    warn(path, &cart);
    Ok(bytes)
}

/// Read a boot ROM image (its size is checked when the machine is built).
pub fn read_boot(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("cannot read boot ROM '{}'", path.display()))
}

/// One stderr line per header oddity the core accepted (bad checksums, size codes…).
fn warn(path: &Path, cart: &Cartridge) {
    for warning in cart.warnings() {
        eprintln!("gbhost: warning: '{}': {warning}", path.display());
    }
}
