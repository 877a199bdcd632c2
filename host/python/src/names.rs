//! What the module's functions share: the ROM and file reads with their errors (Python
//! exceptions with the command line's messages), buttons and memories by name, the grays DMG
//! pictures are shown in.

use gb_core::{Buttons, Domain};
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyValueError};
use pyo3::prelude::*;

/// Shades as the screen shows DMG games: the reference grays (white to black).
pub(crate) const GRAYS: [[u8; 3]; 4] = [
    [0xFF, 0xFF, 0xFF],
    [0xAA, 0xAA, 0xAA],
    [0x55, 0x55, 0x55],
    [0x00, 0x00, 0x00],
];

pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

pub(crate) fn read_file(path: &std::path::Path, what: &str) -> PyResult<Vec<u8>> {
    std::fs::read(path).map_err(|e| {
        let msg = format!("cannot read {what} {}: {e}", path.display());
        if e.kind() == std::io::ErrorKind::NotFound {
            PyFileNotFoundError::new_err(msg)
        } else {
            PyOSError::new_err(msg)
        }
    })
}

/// The buttons by BizHawk's names (any case).
pub(crate) fn button(name: &str) -> PyResult<Buttons> {
    Buttons::NAMES
        .iter()
        .find(|(_, n)| n.eq_ignore_ascii_case(name))
        .map(|(b, _)| *b)
        .ok_or_else(|| {
            value_error(format!(
                "no button '{name}' (Up, Down, Left, Right, A, B, Select, Start)"
            ))
        })
}

/// The memories by name, as the Lua API names them.
pub(crate) fn domain(name: &str) -> PyResult<Domain> {
    Domain::from_name(name).ok_or_else(|| {
        value_error(format!(
            "no memory '{name}' (rom, wram, vram, oam, hram, cartram)"
        ))
    })
}
