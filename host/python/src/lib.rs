//! `gbhost._gbhost`: gbhost's session as a Python extension module (PyO3, built by maturin;
//! the `gbhost` package around it is in `python/gbhost/`). `LinkedPair` (`pair.rs`) runs two
//! Game Boys on a link cable. The main class, [`GameBoy`]: a
//! `gb_session::Session` with its scripts, rewind history and logged input, stepped frame by
//! frame from Python with the GIL released, its screen and memory read out, its state saved
//! and loaded as bytes (the scripts with it), and movies recorded as `.gbm` files the app plays.
//!
//! Errors are Python exceptions carrying the messages the command line prints:
//! `FileNotFoundError`/`OSError` for files, `ValueError` for bad ROMs, states, names and
//! arguments, `IndexError` for addresses.

mod names;
mod pair;

use std::collections::BTreeMap;
use std::path::PathBuf;

use gb_core::apu::view::ApuView;
use gb_core::{Buttons, ModelChoice};
use gb_session::api::apu::{self, Field};
use gb_session::movie::Recorder;
use gb_session::{PowerOn, Session, SessionConfig, StateFile};
use pyo3::exceptions::{PyIndexError, PyOSError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PySlice};

use names::{GRAYS, button, domain, read_file, value_error};

/// A Game Boy (or Game Boy Color) with its Lua scripts, rewind history and logged input.
///
/// `GameBoy(rom, model="auto", boot_rom=None, scripts=None, history_mib=32, audio=False)`:
/// `rom` is a path or the ROM's bytes; `model` is `auto` (from the header), `dmg` or `cgb`;
/// `scripts` are Lua files or source texts, loaded before the first frame; `history_mib` sizes
/// the rewind history (0: none, fastest); audio is generated only with `audio=True`.
#[pyclass(unsendable, module = "gbhost._gbhost")]
pub struct GameBoy {
    session: Session,
    rom: Vec<u8>,
    boot_rom: Option<Vec<u8>>,
    config: SessionConfig,
    audio: bool,
    held: Buttons,
    recorder: Option<Recorder>,
    screen: Option<ScreenCache>,
}

/// The last `screen_bytes` answer and the picture it was made from. A picture that did not
/// change since (a menu, a text box, a test's result screen, a paused game) gets the same
/// bytes object again instead of a new conversion: Python's bytes are immutable, so handing
/// one out twice is safe, and comparing 23,040 pixels costs a fraction of converting them.
struct ScreenCache {
    pixels: Vec<u16>,
    color: bool,
    bytes: Py<PyBytes>,
}

impl GameBoy {
    fn setup(&mut self) {
        self.session.set_audio_enabled(self.audio);
        self.session.set_buttons(self.held);
    }

    fn load(&mut self, source: &str, name: Option<String>) -> PyResult<u32> {
        let path = PathBuf::from(source);
        let is_file = source.ends_with(".lua") && !source.contains('\n');
        let (name, text) = if is_file {
            let bytes = read_file(&path, "script")?;
            let name = name.unwrap_or_else(|| {
                path.file_name()
                    .map_or_else(|| source.to_owned(), |n| n.to_string_lossy().into_owned())
            });
            (name, String::from_utf8_lossy(&bytes).into_owned())
        } else {
            (
                name.unwrap_or_else(|| "script.lua".to_owned()),
                source.to_owned(),
            )
        };
        let slot = self.session.load_script(&name, &text);
        if is_file && let Some(dir) = path.parent() {
            self.session.set_script_folder(slot, dir);
        }
        Ok(slot)
    }
}

#[pymethods]
impl GameBoy {
    #[new]
    #[pyo3(signature = (rom, model = "auto", boot_rom = None, scripts = None, history_mib = 32, audio = false))]
    fn new(
        rom: &Bound<'_, PyAny>,
        model: &str,
        boot_rom: Option<PathBuf>,
        scripts: Option<Vec<String>>,
        history_mib: usize,
        audio: bool,
    ) -> PyResult<GameBoy> {
        let rom: Vec<u8> = match rom.cast::<PyBytes>() {
            Ok(b) => b.as_bytes().to_vec(),
            Err(_) => read_file(&rom.extract::<PathBuf>()?, "ROM")?,
        };
        let model = ModelChoice::parse(model)
            .ok_or_else(|| value_error(format!("no model '{model}' (auto, dmg, cgb)")))?;
        let boot_rom = match boot_rom {
            Some(p) => Some(read_file(&p, "boot ROM")?),
            None => None,
        };
        let config = SessionConfig {
            ring_bytes: history_mib.min(4096) << 20,
            image_key: gb_session::keys::user_key().ok(),
            ..SessionConfig::default()
        };
        let power = PowerOn {
            model,
            boot_rom: boot_rom.clone(),
            ..PowerOn::default()
        };
        let session = Session::power_on(rom.clone(), power, config.clone()).map_err(value_error)?;
        let mut gb = GameBoy {
            session,
            rom,
            boot_rom,
            config,
            audio,
            held: Buttons::default(),
            recorder: None,
            screen: None,
        };
        gb.setup();
        for s in scripts.unwrap_or_default() {
            gb.load(&s, None)?;
        }
        Ok(gb)
    }

    /// Run `frames` frames (the GIL released). With `render`, the last frame's picture is
    /// drawn (the others are run without one, exactly the same otherwise, as PyBoy's `tick`).
    #[pyo3(signature = (frames = 1, render = true))]
    fn step(&mut self, py: Python<'_>, frames: u32, render: bool) -> PyResult<()> {
        let session = &mut self.session;
        let recorder = &mut self.recorder;
        let held = self.held;
        py.detach(move || {
            session.set_buttons(held);
            for i in 0..frames {
                session.set_rendering(render && i + 1 == frames);
                session.run_frame();
                if let Some(r) = recorder.as_mut() {
                    r.after_frame(session).map_err(|e| e.to_string())?;
                }
            }
            Ok::<(), String>(())
        })
        .map_err(PyOSError::new_err)
    }

    /// The buttons held from the next frame on, by name (`["A", "Right"]`).
    #[getter]
    fn get_buttons(&self) -> Vec<&'static str> {
        Buttons::NAMES
            .iter()
            .filter(|(b, _)| self.held.contains(*b))
            .map(|(_, n)| *n)
            .collect()
    }

    #[setter]
    fn set_buttons(&mut self, names: Vec<String>) -> PyResult<()> {
        let mut b = Buttons::default();
        for n in &names {
            b.0 |= button(n)?.0;
        }
        self.held = b;
        Ok(())
    }

    /// Hold buttons (`press("A", "Up")`) until released.
    #[pyo3(signature = (*names))]
    fn press(&mut self, names: Vec<String>) -> PyResult<()> {
        for n in &names {
            self.held.0 |= button(n)?.0;
        }
        Ok(())
    }

    /// Let buttons go.
    #[pyo3(signature = (*names))]
    fn release(&mut self, names: Vec<String>) -> PyResult<()> {
        for n in &names {
            self.held.0 &= !button(n)?.0;
        }
        Ok(())
    }

    /// The last frame's picture as RGB bytes, 160 × 144 × 3, row by row (`screen` in the
    /// package makes it a NumPy array); the same bytes object while the picture is unchanged.
    fn screen_bytes<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let picture = self.session.picture();
        let (pixels, color) = (picture.pixels(), picture.is_color());
        if let Some(cache) = &self.screen
            && cache.color == color
            && cache.pixels[..] == pixels[..]
        {
            return Ok(cache.bytes.bind(py).clone());
        }
        let bytes = PyBytes::new_with(py, gb_core::frame::RGB888_LEN, |out| {
            picture.write_rgb888(out, &GRAYS, gb_core::ColorCorrection::Off);
            Ok(())
        })?;
        self.screen = Some(ScreenCache {
            pixels: pixels.to_vec(),
            color,
            bytes: bytes.clone().unbind(),
        });
        Ok(bytes)
    }

    /// The byte at `addr` as the CPU sees it (no side effects), or bytes of a slice.
    fn __getitem__<'py>(&self, py: Python<'py>, key: &Bound<'py, PyAny>) -> PyResult<Py<PyAny>> {
        let gb = self.session.gb();
        if let Ok(slice) = key.cast::<PySlice>() {
            let idx = slice.indices(0x10000)?;
            let mut out = Vec::new();
            let mut i = idx.start;
            while (idx.step > 0 && i < idx.stop) || (idx.step < 0 && i > idx.stop) {
                out.push(gb.peek(i as u16));
                i += idx.step;
            }
            return Ok(PyBytes::new(py, &out).into_any().unbind());
        }
        if let Ok((bank, addr)) = key.extract::<(u16, u16)>() {
            let v = gb_session::banks::peek(gb, bank, addr)
                .map_err(|e| PyIndexError::new_err(e.to_string()))?;
            return Ok(v.into_pyobject(py)?.into_any().unbind());
        }
        let addr: i64 = key.extract()?;
        let addr = u16::try_from(addr)
            .map_err(|_| PyIndexError::new_err(format!("address {addr} is not in 0-0xFFFF")))?;
        Ok(gb.peek(addr).into_pyobject(py)?.into_any().unbind())
    }

    /// Write a byte (or bytes from a slice's start) as the CPU would, logged: it lands before
    /// the next frame, and rewinds, replays and movies have it.
    fn __setitem__(&mut self, key: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let (start, bytes): (i64, Vec<u8>) = if let Ok(slice) = key.cast::<PySlice>() {
            let idx = slice.indices(0x10000)?;
            (idx.start as i64, value.extract::<Vec<u8>>()?)
        } else if let Ok((bank, addr)) = key.extract::<(u16, u16)>() {
            let (d, off) = gb_session::banks::locate(self.session.gb(), bank, addr)
                .map_err(|e| PyIndexError::new_err(e.to_string()))?;
            let v: u8 = value.extract()?;
            self.session.poke_memory(d, off as u32, v);
            return Ok(());
        } else {
            (key.extract()?, vec![value.extract::<u8>()?])
        };
        for (i, b) in bytes.iter().enumerate() {
            let a = u16::try_from(start + i as i64).map_err(|_| {
                PyIndexError::new_err(format!("address {} is not in 0-0xFFFF", start + i as i64))
            })?;
            self.session.poke(a, *b);
        }
        Ok(())
    }

    /// A memory's bytes, every bank (`rom`, `wram`, `vram`, `oam`, `hram`, `cartram`): a copy.
    fn memory_bytes<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(py, self.session.gb().domain(domain(name)?)))
    }

    /// The CPU registers by name (`a f b c d e h l sp pc`, and `af bc de hl`).
    #[getter]
    fn registers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let r = self.session.gb().regs();
        let d = PyDict::new(py);
        for (k, v) in [
            ("a", r.a),
            ("f", r.f),
            ("b", r.b),
            ("c", r.c),
            ("d", r.d),
            ("e", r.e),
            ("h", r.h),
            ("l", r.l),
        ] {
            d.set_item(k, v)?;
        }
        let pair = |h: u8, l: u8| u16::from_be_bytes([h, l]);
        d.set_item("af", pair(r.a, r.f))?;
        d.set_item("bc", pair(r.b, r.c))?;
        d.set_item("de", pair(r.d, r.e))?;
        d.set_item("hl", pair(r.h, r.l))?;
        d.set_item("sp", r.sp)?;
        d.set_item("pc", r.pc)?;
        Ok(d)
    }

    /// The APU as a whole now: `powered`, `left_volume`, `right_volume`, `vin_left`,
    /// `vin_right`, `panning` (NR51), `frame_sequencer_step`. Reading changes nothing.
    fn apu_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        apu_dict(py, &self.session.gb().apu_view(), 0)
    }

    /// Channel `n` (1-4) now, with the names of Lua's `apu.channel(n)`: `playing`, `dac`,
    /// `output` (0-15), `left`, `right`, `frequency`, `hz`, `length`, `length_enabled`, and
    /// the parts `envelope`, `pulse`, `sweep`, `wave`, `noise` as dicts (None for a channel
    /// without that part). Reading changes nothing.
    fn apu_channel<'py>(&self, py: Python<'py>, n: i64) -> PyResult<Bound<'py, PyDict>> {
        let n = usize::try_from(n)
            .ok()
            .filter(|n| (1..=4).contains(n))
            .ok_or_else(|| value_error(format!("channels are 1-4, not {n}")))?;
        apu_dict(py, &self.session.gb().apu_view(), n)
    }

    /// Frames completed.
    #[getter]
    fn frame(&self) -> u64 {
        self.session.frame()
    }

    /// Lag frames so far (frames in which the game did not read the joypad).
    #[getter]
    fn lag(&self) -> u64 {
        self.session.gb().lag_frames()
    }

    /// `dmg` or `cgb`.
    #[getter]
    fn model(&self) -> &'static str {
        match self.session.gb().model() {
            gb_core::Model::Dmg => "dmg",
            gb_core::Model::Cgb => "cgb",
        }
    }

    /// The machine and every script (their Lua state too, sealed with your state key) as a
    /// state file's bytes.
    fn save_state<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let bytes = self.session.state_file(now, true).encode();
        PyBytes::new(py, &bytes)
    }

    /// Load a state saved by `save_state` (or the app): the machine and its scripts as they
    /// were (a new timeline starts there). A state that does not read is a `ValueError`, and
    /// nothing changes.
    fn load_state(&mut self, data: &[u8]) -> PyResult<()> {
        let file = StateFile::decode(data).map_err(value_error)?;
        let session = Session::from_state_file(
            self.rom.clone(),
            self.boot_rom.as_deref(),
            self.config.clone(),
            &file,
        )
        .map_err(value_error)?;
        self.session = session;
        self.recorder = None;
        self.setup();
        Ok(())
    }

    /// Go back `frames` frames in the rewind history (at most to its start); returns the
    /// frame reached.
    fn rewind(&mut self, frames: u64) -> PyResult<u64> {
        let first = self.session.history().frames().map_or(0, |(a, _)| a);
        let t = self.session.frame().saturating_sub(frames).max(first);
        self.session.seek(t).map_err(value_error)?;
        Ok(self.session.frame())
    }

    /// Load a Lua script: a `.lua` file's path, or its source text; returns its slot.
    #[pyo3(signature = (source, name = None))]
    fn load_script(&mut self, source: &str, name: Option<String>) -> PyResult<u32> {
        self.load(source, name)
    }

    /// The scripts' console lines since the last call (`print`, errors).
    fn log(&mut self) -> Vec<String> {
        self.session
            .take_console()
            .into_iter()
            .map(|l| l.text)
            .collect()
    }

    /// Record a movie from here (power-on at frame 0) to `path` (a `.gbm` the app and `gbhost
    /// movie play` play); recording goes on with every step until `stop_movie`.
    #[pyo3(signature = (path, authors = None))]
    fn record_movie(&mut self, path: PathBuf, authors: Option<Vec<String>>) -> PyResult<()> {
        if self.recorder.is_some() {
            return Err(value_error(
                "a movie is being recorded already (stop_movie)",
            ));
        }
        // A movie's checks hash the whole machine, the sound generators too: they run while
        // recording, as on every playback.
        self.session.set_audio_enabled(true);
        let r = Recorder::create(
            &path,
            &mut self.session,
            authors.unwrap_or_default(),
            BTreeMap::new(),
        )
        .map_err(|e| PyOSError::new_err(format!("cannot record to {}: {e}", path.display())))?;
        self.recorder = Some(r);
        Ok(())
    }

    /// Finish the movie being recorded; returns its path.
    fn stop_movie(&mut self) -> PyResult<PathBuf> {
        let r = self
            .recorder
            .take()
            .ok_or_else(|| value_error("no movie is being recorded"))?;
        self.session.set_audio_enabled(self.audio);
        r.finish().map_err(|e| PyOSError::new_err(e.to_string()))
    }
}

/// The APU view's fields for `n` (0: the APU as a whole, 1-4: a channel) as a dict, with
/// gb-session's names (`part.field` as nested dicts; a channel's missing parts are None).
fn apu_dict<'py>(py: Python<'py>, view: &ApuView, n: usize) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let fields = apu::fields(view, n).ok_or_else(|| value_error(format!("no channel {n}")))?;
    for (name, value) in fields {
        let (target, key) = match name.split_once('.') {
            None => (d.clone(), name),
            Some((part, key)) => match d.get_item(part)?.and_then(|p| p.cast_into::<PyDict>().ok())
            {
                Some(sub) => (sub, key),
                None => {
                    let sub = PyDict::new(py);
                    d.set_item(part, &sub)?;
                    (sub, key)
                }
            },
        };
        match value {
            Field::Bool(b) => target.set_item(key, b)?,
            Field::Int(i) => target.set_item(key, i)?,
            Field::Float(x) => target.set_item(key, x)?,
        }
    }
    if n > 0 {
        for part in ["envelope", "pulse", "sweep", "wave", "noise"] {
            if !d.contains(part)? {
                d.set_item(part, py.None())?;
            }
        }
    }
    Ok(d)
}

/// The module.
#[pymodule]
fn _gbhost(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<GameBoy>()?;
    m.add_class::<pair::LinkedPair>()?;
    m.add_function(wrap_pyfunction!(pair::link_demo_rom, m)?)?;
    // The game's picture size, so the Python side writes it nowhere.
    m.add("SCREEN_WIDTH", gb_core::screen::GAME.width)?;
    m.add("SCREEN_HEIGHT", gb_core::screen::GAME.height)?;
    Ok(())
}
