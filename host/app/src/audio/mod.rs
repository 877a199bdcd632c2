//! Audio on the host side: the core's 65,536 Hz stream turned into a device's.
//!
//! - [`resample`]: the band-limited resampler and the DMG's high-pass filter;
//! - [`wav`]: `headless --wav`, a 48 kHz stereo 16-bit file written atomically;
//! - [`output`]: `cpal` playback for the desktop app (ring, pacing, mute fades, silent fallback).
//!
//! The core knows no device: it only fills its sample ring, which hosts drain every frame with
//! `Gb::drain_audio`.

pub mod output;
pub mod resample;
pub mod wav;

use anyhow::Result;
use gb_core::apu::{RING_CAPACITY, SAMPLE_RATE, Sample};
use resample::{HighPass, Resampler, to_i16};
use wav::WavWriter;

/// Rate of `headless --wav` files.
pub const WAV_RATE: u32 = 48_000;

/// The core's samples to a device rate: resample, then high-pass.
#[derive(Clone, Debug)]
pub struct Pipeline {
    /// The resampler (its ratio may be nudged by playback).
    pub resampler: Resampler,
    high_pass: HighPass,
}

impl Pipeline {
    /// A pipeline from the core's rate to `rate` Hz.
    pub fn new(rate: f64) -> Pipeline {
        Pipeline {
            resampler: Resampler::new(f64::from(SAMPLE_RATE), rate),
            high_pass: HighPass::dmg(rate),
        }
    }

    /// Process `input`; `emit` gets each output sample (-1..1, left, right).
    pub fn process(&mut self, input: &[Sample], mut emit: impl FnMut(f32, f32)) {
        let hp = &mut self.high_pass;
        self.resampler.process(input, |l, r| {
            let (l, r) = hp.apply(l, r);
            emit(l, r);
        });
    }
}

/// `--wav`: the core's samples through the app's pipeline into a WAV file at [`WAV_RATE`].
pub struct WavOut {
    wav: WavWriter,
    pipeline: Pipeline,
    buf: Vec<Sample>,
}

impl WavOut {
    /// Start writing `path`.
    pub fn create(path: &std::path::Path) -> Result<WavOut> {
        Ok(WavOut {
            wav: WavWriter::create(path, WAV_RATE)?,
            pipeline: Pipeline::new(f64::from(WAV_RATE)),
            buf: vec![(0, 0); RING_CAPACITY],
        })
    }

    /// Move samples into the file: `drain` fills the scratch buffer (`Gb::drain_audio` or the
    /// session's) and returns how many it wrote.
    pub fn drain(&mut self, drain: impl FnOnce(&mut [Sample]) -> usize) -> Result<()> {
        let n = drain(&mut self.buf);
        let mut result = Ok(());
        let wav = &mut self.wav;
        self.pipeline.process(&self.buf[..n], |l, r| {
            if result.is_ok() {
                result = wav.push(to_i16(l), to_i16(r));
            }
        });
        result
    }

    /// Patch the header and move the file into place.
    pub fn finish(self) -> Result<()> {
        self.wav.finish()
    }

    /// Give up: remove the temporary file.
    pub fn abandon(self) {
        self.wav.abandon();
    }
}
