//! A read-only view of the APU for hosts and scripts ([`ApuView`], [`ChannelView`]): what each
//! channel is doing now, in Pan Docs' names ("Audio Registers", "Audio details").
//!
//! Reading changes nothing and takes no time: the view is computed from `&Apu`. The
//! generators are lazy (brought up to date only on register writes, frame sequencer steps and
//! frame ends), so the phases they would have now (duty step, wave position and sample
//! buffer, LFSR) are worked out on copies, the way [`Apu::catch_up`] would move them; the
//! state image is the same before and after a read (a test checks it). Everything else
//! (lengths, envelopes, sweep) changes only on frame sequencer steps, which the scheduler runs
//! on time, so it is current as stored.

use super::synth::{Synth, noise_period};
use super::{Apu, WavePos, reg};

/// The whole APU now: power, master volume, the frame sequencer and the four channels.
#[derive(Clone, Debug, PartialEq)]
pub struct ApuView {
    /// The APU is on (NR52 bit 7, "Audio on/off").
    pub powered: bool,
    /// NR50 bits 4-6, "Left volume" (0-7: the mix is multiplied by this + 1).
    pub left_volume: u8,
    /// NR50 bits 0-2, "Right volume" (0-7).
    pub right_volume: u8,
    /// NR50 bit 7, "Mix VIN left" (the cartridge's audio input; gbhost mixes none).
    pub vin_left: bool,
    /// NR50 bit 3, "Mix VIN right".
    pub vin_right: bool,
    /// NR51 as written ("Sound panning": bits 4-7 left, 0-3 right, channel 1 in bits 4 and 0).
    pub panning: u8,
    /// The frame sequencer step that runs next (0-7; Pan Docs "DIV-APU": lengths on even
    /// steps, sweep on 2 and 6, envelopes on 7).
    pub frame_sequencer_step: u8,
    /// Channels 1-4 (index 0-3).
    pub channels: [ChannelView; 4],
}

/// One channel now. Parts that only some channels have are `Some` for those channels.
#[derive(Clone, Debug, PartialEq)]
pub struct ChannelView {
    /// The channel number, 1-4.
    pub number: u8,
    /// The channel is on (NR52 bits 0-3, "CHn on?"): triggered, and not turned off since by
    /// its length timer, sweep overflow or DAC.
    pub playing: bool,
    /// Its DAC is on (NRx2 bits 3-7 not all 0; NR30 bit 7 for channel 3).
    pub dac: bool,
    /// Its digital output now, 0-15 (what the CGB's PCM12/PCM34 show; 0 while it does not
    /// play). The DAC turns `d` into `15 - 2d` before mixing.
    pub output: u8,
    /// NR51 sends it to the left output.
    pub left: bool,
    /// NR51 sends it to the right output.
    pub right: bool,
    /// The 11-bit period value of NRx3/NRx4 (Pan Docs' "period"; the "frequency" of older
    /// documents); channel 1's sweep rewrites it. 0 for channel 4, which has none.
    pub frequency: u16,
    /// The tone's frequency in Hz that `frequency` gives: 131,072 / (2048 - f) for the pulse
    /// channels (8 duty steps), 65,536 / (2048 - f) for the wave channel (32 samples); for the
    /// noise channel the LFSR's clock rate, 262,144 / (r × 2^s) with r = 0 counted as 0.5 (0
    /// when clock shifts 14 and 15 stop it).
    pub hz: f64,
    /// The length timer: steps left (of 64, 256 for channel 3) before it turns the channel
    /// off, counted at 256 Hz while `length_enabled`.
    pub length: u16,
    /// NRx4 bit 6, "Length enable".
    pub length_enabled: bool,
    /// The volume envelope (channels 1, 2 and 4).
    pub envelope: Option<EnvelopeView>,
    /// The duty (channels 1 and 2).
    pub pulse: Option<PulseView>,
    /// The period sweep (channel 1).
    pub sweep: Option<SweepView>,
    /// Wave RAM playback (channel 3).
    pub wave: Option<WaveView>,
    /// The LFSR (channel 4).
    pub noise: Option<NoiseView>,
}

/// A volume envelope (NRx2 and the envelope's current volume).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnvelopeView {
    /// The current volume, 0-15 (set from `initial_volume` at a trigger, moved by the
    /// envelope at 64 Hz).
    pub volume: u8,
    /// NRx2 bits 4-7, "Initial volume".
    pub initial_volume: u8,
    /// NRx2 bit 3, "Env dir": the volume rises (true) or falls.
    pub increase: bool,
    /// NRx2 bits 0-2, "Sweep pace": envelope steps every `pace` 64 Hz ticks (0: none).
    pub pace: u8,
}

/// A pulse channel's waveform (NRx1 bits 6-7 and the duty step counter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PulseView {
    /// NRx1 bits 6-7, "Wave duty": 0-3 for 12.5, 25, 50 and 75 %.
    pub duty: u8,
    /// The duty step counter now, 0-7 (which bit of the duty pattern plays).
    pub step: u8,
}

/// Channel 1's period sweep (NR10 and its internal state).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SweepView {
    /// NR10 bits 4-6, "Pace": sweep steps every `pace` 128 Hz ticks (0: none).
    pub pace: u8,
    /// NR10 bit 3, "Direction": true subtracts ("decrease"), false adds.
    pub negate: bool,
    /// NR10 bits 0-2, "Individual step": the shift of each calculation.
    pub shift: u8,
    /// The shadow period value the calculations start from (copied at a trigger).
    pub shadow: u16,
    /// The sweep's internal enable flag (set at a trigger if pace or shift is non-zero).
    pub enabled: bool,
}

/// Channel 3's playback (NR32 and where it is in wave RAM).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaveView {
    /// NR32 bits 5-6, "Output level": 0 mute, 1 100 %, 2 50 %, 3 25 %.
    pub output_level: u8,
    /// The sample index it reads, 0-31 (two per byte of wave RAM, high nibble first).
    pub position: u8,
    /// The sample buffer: the last 4-bit sample fetched.
    pub sample: u8,
}

/// Channel 4's LFSR and clock (NR43).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoiseView {
    /// The LFSR's 15 bits now (bit 0 is the output: a 1 sounds the envelope's volume).
    pub lfsr: u16,
    /// NR43 bit 3, "LFSR width": true for the short 7-bit mode.
    pub short: bool,
    /// NR43 bits 4-7, "Clock shift".
    pub clock_shift: u8,
    /// NR43 bits 0-2, "Clock divider".
    pub clock_divider: u8,
}

impl Apu {
    /// The APU as it is at `now` (the machine's clock), without changing anything.
    pub fn view(&self, now: u64) -> ApuView {
        let (synth, wave) = self.generators_at(now);
        let nr50 = self.regs[0x14];
        ApuView {
            powered: self.powered(),
            left_volume: (nr50 >> 4) & 7,
            right_volume: nr50 & 7,
            vin_left: nr50 & 0x80 != 0,
            vin_right: nr50 & 0x08 != 0,
            panning: self.regs[0x15],
            frame_sequencer_step: self.fs_step,
            channels: std::array::from_fn(|c| self.channel_view(c, &synth, &wave)),
        }
    }

    /// The generators' phases at `now`: a copy of the APU brought up to `now` as
    /// [`Apu::catch_up`] brings it, generating no samples (the phases move all the same), and
    /// channel 3's position as the CPU sees it.
    fn generators_at(&self, now: u64) -> (Synth, WavePos) {
        let mut copy = self.clone();
        copy.synth.off = true;
        copy.catch_up(now);
        let wave = if self.ch[2].enabled {
            self.wave_at(now)
        } else {
            self.wave.clone()
        };
        (copy.synth, wave)
    }

    /// Channel `c` (0-3) with the generators' phases `s` and channel 3's position `wave`.
    fn channel_view(&self, c: usize, s: &Synth, wave: &WavePos) -> ChannelView {
        let chan = &self.ch[c];
        let voices = self.voices();
        let nr51 = self.regs[0x15];
        let frequency = if c == 3 { 0 } else { self.frequency(c) };
        let nrx1 = self.regs[reg(c, 1)];
        let nrx2 = self.regs[reg(c, 2)];
        let nr43 = self.regs[reg(3, 3)];
        let hz = match c {
            0 | 1 => 131_072.0 / f64::from(2048 - frequency),
            2 => 65_536.0 / f64::from(2048 - frequency),
            _ => match noise_period(nr43) {
                u64::MAX => 0.0,
                p => 4_194_304.0 / p as f64,
            },
        };
        ChannelView {
            number: c as u8 + 1,
            playing: chan.enabled,
            dac: chan.dac,
            output: if chan.enabled {
                voices.digital(c, s)
            } else {
                0
            },
            left: nr51 & (0x10 << c) != 0,
            right: nr51 & (1 << c) != 0,
            frequency,
            hz,
            length: chan.length,
            length_enabled: chan.length_enabled,
            envelope: (c != 2).then_some(EnvelopeView {
                volume: chan.volume,
                initial_volume: nrx2 >> 4,
                increase: nrx2 & 0x08 != 0,
                pace: nrx2 & 7,
            }),
            pulse: (c < 2).then(|| PulseView {
                duty: nrx1 >> 6,
                step: s.duty_pos[c],
            }),
            sweep: (c == 0).then_some(SweepView {
                pace: (self.regs[0] >> 4) & 7,
                negate: self.regs[0] & 0x08 != 0,
                shift: self.regs[0] & 7,
                shadow: self.sweep.shadow,
                enabled: self.sweep.enabled,
            }),
            wave: (c == 2).then_some(WaveView {
                output_level: (nrx2 >> 5) & 3,
                position: wave.pos,
                sample: s.wave_sample,
            }),
            noise: (c == 3).then_some(NoiseView {
                lfsr: s.lfsr,
                short: nr43 & 0x08 != 0,
                clock_shift: nr43 >> 4,
                clock_divider: nr43 & 7,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A powered APU with every channel triggered: channel 1 with a sweep, 2 at 75 % duty, 3
    /// playing a ramp at 50 %, 4 in 7-bit mode; all four to both sides at volume 7.
    fn playing() -> (Apu, u64) {
        let mut apu = Apu::power_on();
        let mut now = 1_000;
        apu.start_clock(now);
        let mut w = |apu: &mut Apu, addr: u16, v: u8| {
            now += 4;
            apu.write(addr, v, now);
        };
        w(&mut apu, 0xFF26, 0x80);
        w(&mut apu, 0xFF24, 0x77);
        w(&mut apu, 0xFF25, 0xFF);
        for (i, addr) in (0xFF30u16..0xFF40).enumerate() {
            w(&mut apu, addr, (i as u8 * 2) << 4 | (i as u8 * 2 + 1));
        }
        w(&mut apu, 0xFF10, 0x1A); // pace 1, subtract, shift 2
        w(&mut apu, 0xFF11, 0x80 | 10); // 50 %, length 54
        w(&mut apu, 0xFF12, 0xF3); // volume 15, falling, pace 3
        w(&mut apu, 0xFF13, 0x00);
        w(&mut apu, 0xFF14, 0x87); // frequency 0x700, trigger
        w(&mut apu, 0xFF16, 0xC0);
        w(&mut apu, 0xFF17, 0xA8); // volume 10, rising
        w(&mut apu, 0xFF18, 0x83);
        w(&mut apu, 0xFF19, 0xC6); // frequency 0x683, length on, trigger
        w(&mut apu, 0xFF1A, 0x80);
        w(&mut apu, 0xFF1C, 0x40); // 50 %
        w(&mut apu, 0xFF1D, 0x00);
        w(&mut apu, 0xFF1E, 0x87);
        w(&mut apu, 0xFF21, 0xF0);
        w(&mut apu, 0xFF22, 0x29); // shift 2, 7-bit, divider 1
        w(&mut apu, 0xFF23, 0x80);
        (apu, now)
    }

    fn image(apu: &Apu) -> Vec<u8> {
        let mut out = Vec::new();
        apu.save_state(&mut crate::state::Writer::new(
            &mut out,
            crate::state::VERSION,
        ));
        out
    }

    #[test]
    fn the_view_reads_the_registers_and_counters_in_pan_docs_terms() {
        let (apu, now) = playing();
        let v = apu.view(now);
        assert!(v.powered);
        assert_eq!((v.left_volume, v.right_volume, v.panning), (7, 7, 0xFF));
        let [c1, c2, c3, c4] = &v.channels;
        assert!(
            v.channels
                .iter()
                .all(|c| c.playing && c.dac && c.left && c.right)
        );
        assert_eq!((c1.number, c1.frequency, c1.length), (1, 0x700, 54));
        assert_eq!(c1.hz, 131_072.0 / 256.0);
        assert_eq!(
            c1.sweep,
            Some(SweepView {
                pace: 1,
                negate: true,
                shift: 2,
                shadow: 0x700,
                enabled: true,
            })
        );
        assert_eq!(
            c1.envelope,
            Some(EnvelopeView {
                volume: 15,
                initial_volume: 15,
                increase: false,
                pace: 3,
            })
        );
        assert_eq!(c2.pulse.map(|p| p.duty), Some(3));
        assert_eq!(
            c2.envelope.map(|e| (e.volume, e.increase)),
            Some((10, true))
        );
        assert!(c2.length_enabled && !c1.length_enabled);
        assert_eq!(c3.length, 256);
        assert_eq!(c3.wave.map(|w| w.output_level), Some(2));
        assert_eq!(c3.hz, 65_536.0 / 256.0);
        assert_eq!(
            c4.noise.map(|n| (n.short, n.clock_shift, n.clock_divider)),
            Some((true, 2, 1))
        );
        assert_eq!(c4.hz, 262_144.0 / 4.0);
        assert!(c1.wave.is_none() && c3.pulse.is_none() && c3.envelope.is_none());
    }

    /// At any time the view shows the outputs and phases a catch-up would give, and reading it
    /// leaves the state image as it was.
    #[test]
    fn the_view_is_what_a_catch_up_gives_and_changes_nothing() {
        let (apu, start) = playing();
        let mut caught = apu.clone();
        for k in 1..3_000u64 {
            let now = start + k * 7;
            let before = image(&apu);
            let v = apu.view(now);
            assert_eq!(image(&apu), before, "reading changed the state at {now}");
            caught.catch_up(now);
            let want = caught.digital_outputs();
            let got: Vec<u8> = v.channels.iter().map(|c| c.output).collect();
            assert_eq!(got, want, "outputs at {now}");
            assert_eq!(v.channels[0].pulse.unwrap().step, caught.synth.duty_pos[0]);
            assert_eq!(v.channels[1].pulse.unwrap().step, caught.synth.duty_pos[1]);
            let w = v.channels[2].wave.unwrap();
            assert_eq!(
                (w.position, w.sample),
                (caught.wave.pos, caught.synth.wave_sample)
            );
            assert_eq!(v.channels[3].noise.unwrap().lfsr, caught.synth.lfsr);
        }
        // The generators really moved over that stretch.
        assert_ne!(caught.synth.lfsr, apu.synth.lfsr);
        assert_ne!(caught.wave.pos, apu.wave.pos);
    }

    #[test]
    fn a_channel_off_shows_zero_and_a_powered_off_apu_shows_nothing_playing() {
        let (mut apu, mut now) = playing();
        now += 4;
        apu.write(0xFF12, 0x00, now); // channel 1's DAC off
        let v = apu.view(now);
        assert!(!v.channels[0].playing && !v.channels[0].dac);
        assert_eq!(v.channels[0].output, 0);
        now += 4;
        apu.write(0xFF26, 0x00, now);
        let v = apu.view(now);
        assert!(!v.powered);
        assert!(v.channels.iter().all(|c| !c.playing && c.output == 0));
        assert_eq!(v.channels[3].hz, 262_144.0 / 0.5);
    }
}
