//! [`LinkedPair`]: two Game Boys on a link cable as one session (one log, one rewind
//! history over both), for two-agent bots (`gbhost.pettingzoo`).

use gb_core::{Buttons, ModelChoice};
use gb_session::{PowerOn, Session, SessionConfig};
use pyo3::exceptions::{PyIndexError, PyOSError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::names::{GRAYS, button, read_file, value_error};

/// Two Game Boys on a link cable.
///
/// `LinkedPair(rom1, rom2, model="auto", history_mib=32)`: each ROM a path or its bytes;
/// `model` is for both (`auto` chooses for each ROM). Player 0 is the first, 1 the second.
#[pyclass(unsendable, module = "gbhost._gbhost")]
pub struct LinkedPair {
    session: Session,
    held: [Buttons; 2],
}

/// A ROM given as bytes or a path.
fn rom_bytes(rom: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    match rom.cast::<PyBytes>() {
        Ok(b) => Ok(b.as_bytes().to_vec()),
        Err(_) => read_file(&rom.extract::<std::path::PathBuf>()?, "ROM"),
    }
}

/// The player index checked: 0 or 1.
fn player(p: usize) -> PyResult<usize> {
    if p < 2 {
        Ok(p)
    } else {
        Err(PyIndexError::new_err(format!(
            "player {p}: a pair has players 0 and 1"
        )))
    }
}

#[pymethods]
impl LinkedPair {
    #[new]
    #[pyo3(signature = (rom1, rom2, model = "auto", history_mib = 32))]
    fn new(
        rom1: &Bound<'_, PyAny>,
        rom2: &Bound<'_, PyAny>,
        model: &str,
        history_mib: usize,
    ) -> PyResult<LinkedPair> {
        let model = ModelChoice::parse(model)
            .ok_or_else(|| value_error(format!("no model '{model}' (auto, dmg, cgb)")))?;
        let power = PowerOn {
            model,
            ..PowerOn::default()
        };
        let config = SessionConfig {
            ring_bytes: history_mib.min(4096) << 20,
            ..SessionConfig::default()
        };
        let mut session = Session::power_on_linked(
            (rom_bytes(rom1)?, power.clone()),
            (rom_bytes(rom2)?, power),
            config,
        )
        .map_err(value_error)?;
        session.set_audio_enabled(false);
        Ok(LinkedPair {
            session,
            held: [Buttons::default(); 2],
        })
    }

    /// Run `frames` of the first player's frames (the GIL released); with `render`, the
    /// last two are drawn (the second player's frames end inside the first's: its last
    /// whole picture began in the frame before).
    #[pyo3(signature = (frames = 1, render = true))]
    fn step(&mut self, py: Python<'_>, frames: u32, render: bool) -> PyResult<()> {
        let session = &mut self.session;
        let held = self.held;
        py.detach(move || {
            session.set_buttons(held[0]);
            session.set_player_buttons(1, held[1]);
            for i in 0..frames {
                session.set_rendering(render && i + 2 >= frames);
                session.run_frame();
            }
        });
        Ok(())
    }

    /// Hold exactly these buttons (by name: `["A", "Right"]`) on `player`'s joypad from the
    /// next frame on.
    fn set_buttons(&mut self, player_index: usize, names: Vec<String>) -> PyResult<()> {
        let p = player(player_index)?;
        let mut b = Buttons::default();
        for n in &names {
            b.0 |= button(n)?.0;
        }
        self.held[p] = b;
        Ok(())
    }

    /// `player`'s last picture as RGB bytes, 160 × 144 × 3, row by row.
    fn screen_bytes<'py>(
        &self,
        py: Python<'py>,
        player_index: usize,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let p = player(player_index)?;
        let picture = self
            .session
            .machine()
            .player_picture(p)
            .ok_or_else(|| PyOSError::new_err("no picture"))?;
        PyBytes::new_with(py, gb_core::frame::RGB888_LEN, |out| {
            picture.write_rgb888(out, &GRAYS, gb_core::ColorCorrection::Off);
            Ok(())
        })
    }

    /// The byte at `addr` of `player`'s bus, as its CPU sees it (no side effects).
    fn peek(&self, player_index: usize, addr: u32) -> PyResult<u8> {
        let p = player(player_index)?;
        let addr = u16::try_from(addr)
            .map_err(|_| PyIndexError::new_err(format!("address {addr} is not in 0-0xFFFF")))?;
        let gb = self.session.machine().player(p).expect("both players");
        Ok(gb.peek(addr))
    }

    /// Frames completed (the first player's).
    #[getter]
    fn frame(&self) -> u64 {
        self.session.frame()
    }

    /// Whether the cable is plugged in; setting it plugs or pulls it from the next frame.
    #[getter]
    fn get_plugged(&self) -> bool {
        self.session.machine().pair().is_some_and(|p| p.plugged())
    }

    #[setter]
    fn set_plugged(&mut self, on: bool) {
        self.session.set_cable(on);
    }

    /// Exchanges the cable could not make exact (0 expected).
    #[getter]
    fn inexact(&self) -> u64 {
        self.session.machine().pair().map_or(0, |p| {
            let i = p.inexact();
            i.mispredicted + i.late
        })
    }

    /// FNV-1a of the pair's state image: equal exactly when two pairs are in the same state.
    fn state_hash(&self) -> u64 {
        self.session.machine().image_hash()
    }

    /// Go back `frames` frames (as far as the history reaches); both machines and the cable
    /// rewind together. Returns the frame reached.
    fn rewind(&mut self, frames: u64) -> PyResult<u64> {
        let first = self.session.history().frames().map_or(0, |(a, _)| a);
        let t = self.session.frame().saturating_sub(frames).max(first);
        self.session.seek(t).map_err(value_error)?;
        Ok(self.session.frame())
    }
}

/// The link demo cartridge (`examples/link_demo.asm`, built by gbhost's assembler): two
/// copies on a cable each move a square with the d-pad and show the other's; START makes a
/// side clock the cable. Its WRAM: $C000/$C001 this side's square, $C002/$C003 the other's,
/// $C004 1 when leading.
#[pyfunction]
pub fn link_demo_rom(py: Python<'_>) -> PyResult<Bound<'_, PyBytes>> {
    let rom = gb_core::asm::RomBuilder::new()
        .title("GBHOST LINK")
        .program(include_str!("../../../examples/link_demo.asm"))
        .build()
        .map_err(value_error)?;
    Ok(PyBytes::new(py, &rom))
}
