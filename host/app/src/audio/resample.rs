//! From the core's sample stream (65,536 Hz, `i16` stereo with the DACs' DC) to a device's:
//! a band-limited resampler and the DMG's output high-pass filter.
//!
//! [`Resampler`] is a windowed-sinc interpolator for any ratio: a kernel of `2 × HALF_TAPS`
//! taps (Blackman window) tabulated at `PHASES` fractional positions, with linear interpolation
//! between neighbouring phases. Its cutoff is 42 % of the lower of the two rates (20.2 kHz for
//! 48 kHz out), so what the core's box filter let through above the output's Nyquist frequency
//! is removed instead of folding back. The ratio can change at any time (dynamic rate control to
//! follow the audio clock; playing at another pitch).
//!
//! [`HighPass`] is the capacitor on the DMG's output (Pan Docs, "Audio details": per sample
//! `out = in - cap; cap = in - out × charge`, with `charge = 0.999958^(4194304 / rate)`), which
//! takes out the DC that enabled DACs add.
//!
//! Neither allocates after construction: output goes to a callback.

use gb_core::apu::Sample;

/// Kernel half-width in input samples.
const HALF_TAPS: usize = 24;
/// Taps per phase.
const TAPS: usize = 2 * HALF_TAPS;
/// Tabulated fractional positions (plus one for interpolation).
const PHASES: usize = 256;

/// A band-limited stereo resampler (see the module docs).
#[derive(Clone, Debug)]
pub struct Resampler {
    /// `(PHASES + 1) × TAPS` coefficients.
    table: Box<[f32]>,
    /// The last `TAPS` input samples, twice over (a window is always contiguous).
    hist: Box<[[f32; 2]; 2 * TAPS]>,
    /// Where the next input goes in `hist` (0..TAPS).
    head: usize,
    /// Input samples per output sample.
    step: f64,
    /// Position of the next output, in input samples after the window's centre.
    pos: f64,
}

/// sin(πx)/(πx).
fn sinc(x: f64) -> f64 {
    if x.abs() < 1e-12 {
        1.0
    } else {
        let px = std::f64::consts::PI * x;
        px.sin() / px
    }
}

impl Resampler {
    /// A resampler from `input_hz` to `output_hz`; the cutoff is set by the lower of the two.
    pub fn new(input_hz: f64, output_hz: f64) -> Resampler {
        // Cutoff as a fraction of the input rate.
        let fc = 0.42 * output_hz.min(input_hz) / input_hz;
        let mut table = vec![0f32; (PHASES + 1) * TAPS].into_boxed_slice();
        for p in 0..=PHASES {
            let frac = p as f64 / PHASES as f64;
            let row = &mut table[p * TAPS..(p + 1) * TAPS];
            let mut sum = 0.0;
            let mut coeffs = [0f64; TAPS];
            for (j, c) in coeffs.iter_mut().enumerate() {
                // Tap j holds input sample (centre - HALF_TAPS + 1 + j); the output sits at
                // centre + frac.
                let t = j as f64 - (HALF_TAPS as f64 - 1.0) - frac;
                let u = t / HALF_TAPS as f64;
                let w = if u.abs() >= 1.0 {
                    0.0
                } else {
                    0.42 + 0.5 * (std::f64::consts::PI * u).cos()
                        + 0.08 * (2.0 * std::f64::consts::PI * u).cos()
                };
                *c = 2.0 * fc * sinc(2.0 * fc * t) * w;
                sum += *c;
            }
            for (r, c) in row.iter_mut().zip(coeffs) {
                *r = (c / sum) as f32;
            }
        }
        Resampler {
            table,
            hist: Box::new([[0.0; 2]; 2 * TAPS]),
            head: 0,
            step: input_hz / output_hz,
            pos: 0.0,
        }
    }

    /// Change the ratio (a host following the audio clock nudges it by a fraction of a percent;
    /// fast-forward at pitch multiplies the input rate).
    pub fn set_rates(&mut self, input_hz: f64, output_hz: f64) {
        self.step = input_hz / output_hz;
    }

    /// Input samples consumed per output sample.
    #[cfg(test)]
    pub fn step(&self) -> f64 {
        self.step
    }

    /// Feed `input` (in full scale `i16`); `emit` receives each output sample as `f32` in
    /// -1..1, left then right.
    pub fn process(&mut self, input: &[Sample], mut emit: impl FnMut(f32, f32)) {
        for &(l, r) in input {
            let x = [f32::from(l) / 32768.0, f32::from(r) / 32768.0];
            self.hist[self.head] = x;
            self.hist[self.head + TAPS] = x;
            self.head = (self.head + 1) % TAPS;
            // The window hist[head..head + TAPS] now ends with the newest sample; its centre
            // (tap HALF_TAPS - 1) is the input sample the next outputs are measured from.
            while self.pos < 1.0 {
                let phase = self.pos * PHASES as f64;
                let p = (phase as usize).min(PHASES - 1);
                let mix = (phase - p as f64) as f32;
                let a = &self.table[p * TAPS..(p + 1) * TAPS];
                let b = &self.table[(p + 1) * TAPS..(p + 2) * TAPS];
                let window = &self.hist[self.head..self.head + TAPS];
                let (mut yl, mut yr) = (0f32, 0f32);
                for ((&ca, &cb), s) in a.iter().zip(b).zip(window) {
                    let c = ca + (cb - ca) * mix;
                    yl += c * s[0];
                    yr += c * s[1];
                }
                emit(yl, yr);
                self.pos += self.step;
            }
            self.pos -= 1.0;
        }
    }
}

/// The DMG's output capacitor: a first-order high-pass, per stereo side.
#[derive(Clone, Debug)]
pub struct HighPass {
    charge: f32,
    cap: [f32; 2],
}

impl HighPass {
    /// The DMG's filter at `rate` Hz.
    pub fn dmg(rate: f64) -> HighPass {
        HighPass {
            charge: 0.999_958f64.powf(4_194_304.0 / rate) as f32,
            cap: [0.0; 2],
        }
    }

    /// Filter one stereo sample.
    #[inline]
    pub fn apply(&mut self, l: f32, r: f32) -> (f32, f32) {
        let ol = l - self.cap[0];
        self.cap[0] = l - ol * self.charge;
        let or = r - self.cap[1];
        self.cap[1] = r - or * self.charge;
        (ol, or)
    }
}

/// Convert to `i16`, clamping.
pub fn to_i16(x: f32) -> i16 {
    (x * 32767.0).round().clamp(-32768.0, 32767.0) as i16
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(freq: f64, rate: f64, n: usize, amp: f64) -> Vec<Sample> {
        (0..n)
            .map(|i| {
                let v = (amp * (2.0 * std::f64::consts::PI * freq * i as f64 / rate).sin()) as i16;
                (v, v)
            })
            .collect()
    }

    fn resample(input: &[Sample], from: f64, to: f64) -> Vec<f32> {
        let mut r = Resampler::new(from, to);
        let mut out = Vec::new();
        r.process(input, |l, _| out.push(l));
        out
    }

    fn rms(x: &[f32]) -> f64 {
        (x.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>() / x.len() as f64).sqrt()
    }

    #[test]
    fn output_count_follows_the_ratio() {
        let out = resample(&vec![(0, 0); 65_536], 65_536.0, 48_000.0);
        assert!((47_990..=48_010).contains(&out.len()), "{}", out.len());
    }

    #[test]
    fn passband_tone_keeps_its_level_and_frequency() {
        let out = resample(
            &tone(1000.0, 65_536.0, 65_536, 16_000.0),
            65_536.0,
            48_000.0,
        );
        let body = &out[1000..out.len() - 1000];
        let want = 16_000.0 / 32768.0 / 2f64.sqrt();
        assert!((rms(body) / want - 1.0).abs() < 0.01, "rms {}", rms(body));
        // 1 kHz at 48 kHz: a zero crossing upward every 48 samples.
        let ups = body
            .windows(2)
            .filter(|w| w[0] < 0.0 && w[1] >= 0.0)
            .count();
        assert!((ups as f64 - body.len() as f64 / 48.0).abs() < 2.0, "{ups}");
    }

    #[test]
    fn tones_above_the_output_nyquist_are_removed_not_folded() {
        // 30 kHz would fold to 18 kHz at 48 kHz without the band limit.
        let out = resample(
            &tone(30_000.0, 65_536.0, 65_536, 16_000.0),
            65_536.0,
            48_000.0,
        );
        let body = &out[1000..out.len() - 1000];
        assert!(rms(body) < 0.005, "rms {}", rms(body));
    }

    /// The figures `docs/audio.md` gives, measured: flat to 15 kHz, -3 dB near 19.45 kHz,
    /// at least 70 dB down from 24 kHz (the output's Nyquist frequency) to 32,768 Hz.
    #[test]
    fn the_pass_band_and_stop_band_are_as_documented() {
        let level = |freq: f64| {
            let out = resample(&tone(freq, 65_536.0, 65_536, 16_000.0), 65_536.0, 48_000.0);
            let body = &out[1000..out.len() - 1000];
            20.0 * (rms(body) / (16_000.0 / 32768.0 / 2f64.sqrt())).log10()
        };
        assert!(level(15_000.0).abs() < 0.05, "{}", level(15_000.0));
        assert!((level(19_450.0) + 3.0).abs() < 0.5, "{}", level(19_450.0));
        for f in [24_000.0, 26_000.0, 28_000.0, 32_000.0] {
            assert!(level(f) < -70.0, "{f} Hz: {} dB", level(f));
        }
    }

    #[test]
    fn the_high_pass_cuts_at_28_hz_at_48_khz() {
        let gain = |freq: f64| {
            let mut hp = HighPass::dmg(48_000.0);
            let mut out = Vec::new();
            for i in 0..96_000 {
                let x = (2.0 * std::f64::consts::PI * freq * f64::from(i) / 48_000.0).sin() as f32;
                out.push(hp.apply(x, x).0);
            }
            20.0 * (rms(&out[48_000..]) * 2f64.sqrt()).log10()
        };
        assert!((gain(28.0) + 3.0).abs() < 0.3, "{}", gain(28.0));
        assert!(gain(100.0) > -0.5, "{}", gain(100.0));
    }

    #[test]
    fn high_pass_removes_dc() {
        let mut hp = HighPass::dmg(48_000.0);
        let mut last = (0.0, 0.0);
        for _ in 0..48_000 {
            last = hp.apply(0.5, -0.25);
        }
        assert!(last.0.abs() < 1e-3 && last.1.abs() < 1e-3, "{last:?}");
    }
}
