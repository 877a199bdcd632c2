//! Playback through `cpal`, for the desktop app: a lock-free ring (`ringbuf`) between the
//! emulation thread and the device's callback, the fill level that paces emulation by the audio
//! clock, muting with a short fade, and a silent fallback when there is no device.
//!
//! How the app uses it, once per emulated frame:
//! 1. `while out.wants_frame() { gb.run_frame(); n = gb.drain_audio(&mut buf); out.push(&buf[..n]) }`
//!    at normal speed: the device consuming samples is the clock. [`AudioOut::push`] also nudges
//!    the resampling ratio (within ±0.5 %, inaudible) to hold the ring near its target fill, so
//!    the emulator's 59.7 Hz and the device's clock never drift apart and the ring neither runs
//!    dry nor overflows.
//! 2. Fast-forward or rewind: [`AudioOut::set_muted`]`(true)`; the gain fades to 0 over
//!    [`FADE_SECONDS`] (no click), then nothing is queued; unmuting fades back in. The app paces
//!    by its own clock while muted.
//! 3. No device (or one that fails to open): [`AudioOut::open`] prints one line to stderr and
//!    returns a silent output; [`AudioOut::is_playing`] is false and the app paces by the wall
//!    clock. Nothing panics.
//!
//! On underflow the callback holds the last sample and lets it decay to 0 instead of jumping,
//! and the high-pass filter keeps the signal centred on 0, so a stall makes no click either.

use super::Pipeline;
use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use gb_core::apu::Sample;
use ringbuf::HeapRb;
use ringbuf::traits::{Consumer, Observer, Producer, Split};

/// Fade length when muting or unmuting.
pub const FADE_SECONDS: f64 = 0.010;
/// Queued audio the app aims for (enough to ride out one slow frame).
pub const TARGET_SECONDS: f64 = 0.050;
/// Ring capacity.
const RING_SECONDS: f64 = 0.250;

type Prod = ringbuf::HeapProd<[f32; 2]>;
type Cons = ringbuf::HeapCons<[f32; 2]>;

/// The emulation side: resampling, filtering, gain, and the ring's producer end.
pub struct Feeder {
    pipeline: Pipeline,
    prod: Prod,
    rate: f64,
    /// Current gain 0-1 and its target.
    gain: f32,
    target_gain: f32,
    /// Gain change per output sample while fading.
    fade_step: f32,
    /// Samples dropped because the ring was full.
    dropped: u64,
}

impl Feeder {
    /// A feeder into `prod` for a device at `rate` Hz.
    fn new(prod: Prod, rate: u32) -> Feeder {
        let rate = f64::from(rate);
        Feeder {
            pipeline: Pipeline::new(rate),
            prod,
            rate,
            gain: 1.0,
            target_gain: 1.0,
            fade_step: (1.0 / (FADE_SECONDS * rate)) as f32,
            dropped: 0,
        }
    }

    /// Samples waiting in the ring.
    fn queued(&self) -> usize {
        self.prod.occupied_len()
    }

    fn target(&self) -> usize {
        (TARGET_SECONDS * self.rate) as usize
    }

    /// Resample and queue the core's samples (see [`AudioOut::push`]).
    fn push(&mut self, samples: &[Sample]) {
        if self.gain == 0.0 && self.target_gain == 0.0 {
            return;
        }
        // Dynamic rate control: more input per output sample when the ring is too full.
        let error = (self.queued() as f64 - self.target() as f64) / self.target() as f64;
        let adjust = 1.0 + 0.005 * error.clamp(-1.0, 1.0);
        self.pipeline
            .resampler
            .set_rates(f64::from(gb_core::apu::SAMPLE_RATE) * adjust, self.rate);
        let (prod, gain, target, step, dropped) = (
            &mut self.prod,
            &mut self.gain,
            self.target_gain,
            self.fade_step,
            &mut self.dropped,
        );
        self.pipeline.process(samples, |l, r| {
            if *gain < target {
                *gain = (*gain + step).min(target);
            } else if *gain > target {
                *gain = (*gain - step).max(target);
            }
            if prod.try_push([l * *gain, r * *gain]).is_err() {
                *dropped += 1;
            }
        });
    }
}

/// What the device callback keeps between calls.
struct Drain {
    cons: Cons,
    last: [f32; 2],
}

impl Drain {
    /// Fill `data` (interleaved, `channels` per frame) from the ring; on underflow hold the
    /// last sample and let it decay.
    fn fill<T: cpal::Sample + cpal::FromSample<f32>>(&mut self, data: &mut [T], channels: usize) {
        let channels = channels.max(1);
        for frame in data.chunks_mut(channels) {
            match self.cons.try_pop() {
                Some(s) => self.last = s,
                None => {
                    self.last[0] *= 0.995;
                    self.last[1] *= 0.995;
                }
            }
            let [l, r] = self.last;
            for (i, out) in frame.iter_mut().enumerate() {
                let v = match (channels, i) {
                    (1, _) => 0.5 * (l + r),
                    (_, 0) => l,
                    (_, 1) => r,
                    _ => 0.5 * (l + r),
                };
                *out = T::from_sample(v);
            }
        }
    }
}

/// The app's audio output: playing, or silent when no device could be opened.
pub struct AudioOut {
    feeder: Feeder,
    /// The open stream (dropping it stops playback); `None` when silent.
    stream: Option<cpal::Stream>,
    /// Silent output's ring consumer, emptied on each push so pacing math stays sane.
    silent_cons: Option<Cons>,
}

impl AudioOut {
    /// Open the default output device. On failure print one line to stderr and return a silent
    /// output; never panics.
    pub fn open() -> AudioOut {
        match Self::try_open() {
            Ok(out) => out,
            Err(why) => {
                eprintln!("gbhost: no audio ({why}); running silently");
                Self::silent(48_000)
            }
        }
    }

    /// A silent output at `rate` Hz (no device).
    pub fn silent(rate: u32) -> AudioOut {
        let (prod, cons) = ring(rate);
        AudioOut {
            feeder: Feeder::new(prod, rate),
            stream: None,
            silent_cons: Some(cons),
        }
    }

    fn try_open() -> Result<AudioOut, String> {
        if let Some(why) = no_sound_system() {
            return Err(why);
        }
        let host = cpal::default_host();
        let device = host
            .default_output_device()
            .ok_or_else(|| "no output device".to_string())?;
        let supported = device
            .default_output_config()
            .map_err(|e| format!("output device: {e}"))?;
        let format = supported.sample_format();
        let config: cpal::StreamConfig = supported.into();
        let rate = config.sample_rate;
        let channels = usize::from(config.channels);
        let (prod, cons) = ring(rate);
        let mut drain = Drain {
            cons,
            last: [0.0; 2],
        };
        let on_error = |e: cpal::Error| eprintln!("gbhost: audio: {e}");
        let stream = match format {
            cpal::SampleFormat::F32 => device.build_output_stream(
                config,
                move |d: &mut [f32], _: &cpal::OutputCallbackInfo| drain.fill(d, channels),
                on_error,
                None,
            ),
            cpal::SampleFormat::I16 => device.build_output_stream(
                config,
                move |d: &mut [i16], _: &cpal::OutputCallbackInfo| drain.fill(d, channels),
                on_error,
                None,
            ),
            cpal::SampleFormat::U16 => device.build_output_stream(
                config,
                move |d: &mut [u16], _: &cpal::OutputCallbackInfo| drain.fill(d, channels),
                on_error,
                None,
            ),
            cpal::SampleFormat::I32 => device.build_output_stream(
                config,
                move |d: &mut [i32], _: &cpal::OutputCallbackInfo| drain.fill(d, channels),
                on_error,
                None,
            ),
            other => return Err(format!("unsupported sample format {other}")),
        }
        .map_err(|e| format!("opening the output stream: {e}"))?;
        stream
            .play()
            .map_err(|e| format!("starting the output stream: {e}"))?;
        Ok(AudioOut {
            feeder: Feeder::new(prod, rate),
            stream: Some(stream),
            silent_cons: None,
        })
    }

    /// Whether a device is playing (false: silent fallback; pace by the wall clock).
    pub fn is_playing(&self) -> bool {
        self.stream.is_some()
    }

    /// The device's sample rate.
    pub fn sample_rate(&self) -> u32 {
        self.feeder.rate as u32
    }

    /// Resample, filter and queue samples drained from the core (any count; no allocation).
    pub fn push(&mut self, samples: &[Sample]) {
        self.feeder.push(samples);
        if let Some(cons) = &mut self.silent_cons {
            cons.clear();
        }
    }

    /// Seconds of audio queued for the device.
    pub fn queued_seconds(&self) -> f64 {
        self.feeder.queued() as f64 / self.feeder.rate
    }

    /// Whether the app should emulate another frame now to keep the device fed (the audio clock
    /// paces emulation). Always true when silent: pace by the wall clock instead.
    pub fn wants_frame(&self) -> bool {
        !self.is_playing() || self.feeder.queued() < self.feeder.target()
    }

    /// Mute (fast-forward, rewind) or unmute, with a short fade either way.
    pub fn set_muted(&mut self, muted: bool) {
        self.feeder.target_gain = if muted { 0.0 } else { 1.0 };
    }

    /// Samples dropped because the ring was full (the app ran ahead of the device).
    pub fn dropped(&self) -> u64 {
        self.feeder.dropped
    }
}

/// On Linux, when there is visibly nothing to play on (no ALSA device node, no PulseAudio or
/// PipeWire socket, no ALSA configuration that could route elsewhere), say so without asking
/// ALSA: its library prints several lines of its own to stderr when the default device cannot
/// be opened, and silencing it would take a raw C call (the project makes those only in
/// lua-rollback). Where any of these exists, cpal is asked and a failure is still reported in
/// one line of ours (after whatever ALSA prints).
fn no_sound_system() -> Option<String> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let exists = |p: &std::path::Path| p.exists();
    if exists("/dev/snd".as_ref())
        || exists("/etc/asound.conf".as_ref())
        || std::env::var_os("PULSE_SERVER").is_some()
    {
        return None;
    }
    if let Some(home) = std::env::var_os("HOME")
        && exists(&std::path::Path::new(&home).join(".asoundrc"))
    {
        return None;
    }
    if let Some(run) = std::env::var_os("XDG_RUNTIME_DIR") {
        let run = std::path::Path::new(&run);
        if exists(&run.join("pulse/native")) || exists(&run.join("pipewire-0")) {
            return None;
        }
    }
    Some("no sound device: no /dev/snd and no sound server".into())
}

fn ring(rate: u32) -> (Prod, Cons) {
    HeapRb::<[f32; 2]>::new(((f64::from(rate) * RING_SECONDS) as usize).max(1024)).split()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 200 Hz sine at half scale: at most 0.013 between two 48 kHz samples.
    fn sine(n: usize) -> Vec<Sample> {
        (0..n)
            .map(|i| {
                let v =
                    (16_000.0 * (i as f64 * 200.0 / 65_536.0 * std::f64::consts::TAU).sin()) as i16;
                (v, v)
            })
            .collect()
    }

    fn square(n: usize) -> Vec<Sample> {
        (0..n)
            .map(|i| {
                if (i / 64) % 2 == 0 {
                    (8000, 8000)
                } else {
                    (-8000, -8000)
                }
            })
            .collect()
    }

    #[test]
    fn muting_fades_without_a_jump_and_then_queues_nothing() {
        let (prod, mut cons) = ring(48_000);
        let mut f = Feeder::new(prod, 48_000);
        let input = sine(4 * 1097);
        let chunks: Vec<&[Sample]> = input.chunks(1097).collect();
        f.push(chunks[0]);
        f.set_target_gain_for_test(0.0);
        f.push(chunks[1]);
        f.push(chunks[2]);
        let mut prev: Option<f32> = None;
        let mut max_jump = 0f32;
        let mut n = 0;
        while let Some([l, _]) = cons.try_pop() {
            if let Some(p) = prev {
                max_jump = max_jump.max((l - p).abs());
            }
            prev = Some(l);
            n += 1;
        }
        // A hard mute would jump by up to the sine's level (0.5).
        assert!(max_jump < 0.03, "jump {max_jump}");
        assert!(prev.unwrap_or(1.0).abs() < 1e-6, "ends silent");
        let before = n;
        f.push(chunks[3]);
        assert_eq!(
            cons.occupied_len(),
            0,
            "muted: nothing queued after the fade ({before})"
        );
    }

    #[test]
    fn underflow_decays_instead_of_clicking() {
        let (mut prod, cons) = ring(48_000);
        let _ = prod.try_push([0.5, -0.5]);
        let mut d = Drain {
            cons,
            last: [0.0; 2],
        };
        let mut out = [0f32; 2 * 600];
        d.fill(&mut out, 2);
        assert_eq!(out[0], 0.5);
        assert!(out[2] < 0.5 && out[2] > 0.49, "{}", out[2]);
        assert!(out[out.len() - 2].abs() < 0.05);
    }

    #[test]
    fn the_fill_level_steers_the_ratio() {
        let (prod, _cons) = ring(48_000);
        let mut f = Feeder::new(prod, 48_000);
        f.push(&square(1097));
        let empty_step = f.pipeline.resampler.step();
        // Fill the ring past its target.
        for _ in 0..20 {
            f.push(&square(1097));
        }
        assert!(f.pipeline.resampler.step() > empty_step);
        assert!(f.pipeline.resampler.step() <= 65_536.0 / 48_000.0 * 1.005 + 1e-9);
    }

    #[test]
    fn silent_output_accepts_samples_and_never_blocks_the_app() {
        let mut out = AudioOut::silent(48_000);
        assert!(!out.is_playing());
        for _ in 0..100 {
            out.push(&square(1097));
        }
        assert!(out.wants_frame());
        assert_eq!(out.dropped(), 0);
    }

    impl Feeder {
        fn set_target_gain_for_test(&mut self, g: f32) {
            self.target_gain = g;
        }
    }
}
