//! The four waveform generators, the DACs, NR50/NR51 mixing and sample output (Pan Docs:
//! "Audio details").
//!
//! **Lazy, not per cycle.** Nothing here runs on the bus's hot path. [`Apu::catch_up`](super::Apu::catch_up) brings
//! the generators from the time they were last brought up to date to a given time, and is called
//! only where their inputs change or output is wanted: before every APU register write, before
//! every frame sequencer step (512 Hz, already a scheduled event) and at the end of each frame
//! (hosts drain the ring after a frame; draining generates nothing, so it never changes the
//! state). Between two such calls every input (frequencies, volumes, duty, panning) is
//! constant, so the loop walks from one waveform edge to the next.
//!
//! **Output rate.** One stereo sample per [`SAMPLE_PERIOD`] = 64 T-cycles: 65,536 Hz, on a grid
//! of absolute time (a sample covers `[64k, 64k + 64)`), so the stream does not depend on when
//! it is drained. Each sample is the exact mean of the mixed signal over its 64 T-cycles (a box
//! filter over the edges, not a point sample), so no pulse is lost however short, and images
//! above the 32,768 Hz Nyquist frequency are attenuated only by the box's sinc response (what
//! folds below it stays: the host's band-limited resampler cuts above the audible band, not
//! aliases already in it; `docs/audio.md`). Twice the rate would halve the box
//! filter's aliasing but double the samples every host resamples; 64 T-cycles keeps a frame at
//! about 1,097 samples.
//!
//! **Levels.** A DAC that is on maps digital 0-15 to `15 - 2 × d` (Pan Docs: the analog range is
//! inverted), off it outputs 0. A side's level is the sum of the channels NR51 sends to it, times
//! NR50's volume + 1; the mean over 64 T-cycles of at most 4 × 15 × 8 = 480 fits an `i16` as the
//! sum over the window without scaling (at most 30,720). The DC of enabled DACs is left in: the
//! host's high-pass filter (the hardware's capacitor) removes it.
//!
//! Samples go into a fixed-capacity ring ([`SampleRing`](super::SampleRing)) that hosts drain every frame; when
//! nobody drains it, the oldest samples are dropped, so it never grows.

/// T-cycles per output sample.
pub const SAMPLE_PERIOD: u64 = 64;
/// Output samples per second (4,194,304 / [`SAMPLE_PERIOD`]).
pub const SAMPLE_RATE: u32 = 65_536;

/// The duty cycles' waveforms, one bit per duty step, step 0 in bit 0 (Pan Docs: "Pulse
/// channel": 12.5, 25, 50, 75 %). The step counter starts at 0 when the APU powers on and moves
/// on before each output: 12.5 % is high at step 7 only, 25 % at 0 and 7, 50 % at 0 and 5-7,
/// 75 % at 1-6 (Gambatte's `sound/ch1_duty*_pattern_pos*`: the output frozen at each step).
pub(super) const DUTY: [u8; 4] = [0b1000_0000, 0b1000_0001, 0b1110_0001, 0b0111_1110];

/// Dots from a square's duty step to its output taking the new step's bit from the duty
/// pattern NRx1 selects then (one cycle of the APU's 1 MHz clock). Between two such latches
/// the output holds, whatever NRx1 does: Gambatte's `sound/ch1_duty0_to_duty3_pos3_*` (duty 0
/// to 3 written 1 dot before the step into step 3 and 3 dots after it change that step's
/// output, 7 and 35 dots after it do not, on both models).
pub(super) const DUTY_LATCH_DELAY: u64 = 4;

/// [`Synth::latch_at`] when no latch is pending.
pub(super) const NO_LATCH: u64 = u64::MAX;

/// Step `pos`'s bit (0-7) of duty pattern `pattern` (a [`DUTY`] entry).
#[inline]
pub(super) fn duty_bit(pattern: u8, pos: u8) -> bool {
    (pattern >> (pos & 7)) & 1 != 0
}

/// `STEPS_TO_BIT[duty][pos][bit]`: duty steps from `pos` to the first later step whose bit in
/// `DUTY[duty]` is `bit` (1-8: every pattern has both bits).
pub(super) const STEPS_TO_BIT: [[[u8; 2]; 8]; 4] = {
    let mut t = [[[0u8; 2]; 8]; 4];
    let mut d = 0;
    while d < 4 {
        let mut p = 0;
        while p < 8 {
            let mut b = 0usize;
            while b < 2 {
                let mut k = 1;
                while ((DUTY[d] >> ((p + k) & 7)) & 1) as usize != b {
                    k += 1;
                }
                t[d][p][b] = k as u8;
                b += 1;
            }
            p += 1;
        }
        d += 1;
    }
    t
};

/// The generators' phases and the partial output sample. On the DMG the CPU cannot observe
/// any of it (PCM12/PCM34 are CGB registers); channel 3's position is in [`super::WavePos`],
/// which the CPU can observe through wave RAM.
#[derive(Clone, Debug)]
pub(super) struct Synth {
    /// Generate samples (hosts may turn it off, e.g. a benchmark without audio).
    pub(super) off: bool,
    /// Time up to which the output is generated.
    pub(super) t: u64,
    /// End of the sample being accumulated (a multiple of [`SAMPLE_PERIOD`]).
    pub(super) window_end: u64,
    /// Left sum over the current window.
    pub(super) acc_l: i32,
    /// Right sum over the current window.
    pub(super) acc_r: i32,
    /// Channels 1 and 2: duty step 0-7.
    pub(super) duty_pos: [u8; 2],
    /// Channels 1 and 2: time of the next duty step.
    pub(super) square_next: [u64; 2],
    /// Channels 1 and 2: the output bit, as latched [`DUTY_LATCH_DELAY`] dots after a duty
    /// step. A trigger of a channel that was off clears it, so the output is 0 until the first
    /// step's latch whatever that step's bit (Gambatte's `sound/ch1_duty1_pattern_pos0`,
    /// `ch1_duty2_pattern_pos0`: step 0 is high in those patterns, yet silent before the first
    /// step).
    pub(super) high: [bool; 2],
    /// Channels 1 and 2: time of the latch of the last duty step, [`NO_LATCH`] once it is done
    /// (never later than the next step: a period is at least 4 dots).
    pub(super) latch_at: [u64; 2],
    /// Channel 3's sample buffer: the last byte fetched from wave RAM.
    pub(super) wave_byte: u8,
    /// Channel 3's output nibble: the buffer's nibble at the position fetched; a trigger
    /// moves the position to 0 before any fetch, which shows the buffer's high nibble
    /// (SameBoy: `current_sample_byte >> 4` at the NR34 trigger).
    pub(super) wave_sample: u8,
    /// Channel 4's LFSR (Pan Docs' convention: zeroed on trigger, XNOR feedback, bit 0 out).
    pub(super) lfsr: u16,
    /// Channel 4: time of the next LFSR clock (`u64::MAX` for clock shifts 14 and 15), the
    /// [`Synth::noise_step_at`] of the counter while the channel plays.
    pub(super) noise_next: u64,
    /// Channel 4: time of the last LFSR clock taken on the counter's schedule (not the
    /// instant ones of a trigger or an NR43 write), `u64::MAX` for none: the CPU CGB C's PCM34
    /// read glitch ([`super::Apu::pcm_outputs`]) looks at it.
    pub(super) noise_last: u64,
    /// Channel 4's free-running 14-bit counter (SameBoy's `noise_channel.counter`): its value
    /// before the increment due at [`Synth::noise_tick`]. A trigger does not reset it.
    pub(super) noise_counter: u16,
    /// Time of the counter's next increment ([`NOISE_IDLE`] while it does not count: from
    /// power-on to the first trigger, and after the DAC is turned off mid-play with NR43's
    /// divisor code not 0). Increments at and after it come every [`noise_tick_period`] dots of
    /// the NR43 in force; it may lie in the past (an anchor: [`Synth::noise_counter_to`]
    /// brings it up to a time).
    pub(super) noise_tick: u64,
    /// NR52's last power-on time modulo 8 dots: the origin of the 2 MHz alignment channel 4's
    /// trigger and NR43 writes depend on (`Apu::noise_alignment`).
    pub(super) on_phase: u8,
}

/// [`Synth::noise_tick`] while channel 4's counter does not count.
pub(super) const NOISE_IDLE: u64 = u64::MAX;

/// Dots between increments of channel 4's counter for NR43 = `nr43`: 4 × the divisor code r
/// APU cycles of 2 MHz (8r dots), 2 APU cycles (4 dots) for r = 0 (SameBoy's `divisor`).
pub(super) fn noise_tick_period(nr43: u8) -> u64 {
    match nr43 & 7 {
        0 => 4,
        r => 8 * u64::from(r),
    }
}

impl Synth {
    /// Take every increment of channel 4's counter due at or before `now` (for the NR43
    /// `nr43` in force since [`Synth::noise_tick`]), in closed form.
    pub(super) fn noise_counter_to(&mut self, now: u64, nr43: u8) {
        if self.noise_tick > now {
            return;
        }
        let p = noise_tick_period(nr43);
        let n = (now - self.noise_tick) / p + 1;
        self.noise_counter = ((u64::from(self.noise_counter) + n) & 0x3FFF) as u16;
        self.noise_tick = self.noise_tick.saturating_add(n * p);
    }

    /// Bit `shift` of channel 4's counter (0 for shifts 14 and 15: it has 14 bits).
    pub(super) fn noise_counter_bit(&self, shift: u8) -> bool {
        shift < 14 && (self.noise_counter >> shift) & 1 != 0
    }

    /// The counter bits NR43's clock shift selects as it changes from `old` to `v`: the old
    /// one, the new one, and the one selected between them (the select lines pass through
    /// `old` with `v`'s bit 7 first), with whether that intermediate bit glitches (it differs
    /// from the old and new ones, which are equal). `None` if the shift does not change.
    fn nr43_bits(&self, old: u8, v: u8) -> Option<(bool, bool, bool)> {
        if (old ^ v) & 0xF0 == 0 {
            return None;
        }
        let old_bit = self.noise_counter_bit(old >> 4);
        let new_bit = self.noise_counter_bit(v >> 4);
        let glitch_bit = self.noise_counter_bit(((old & 0x7F) | (v & 0x80)) >> 4);
        Some((
            old_bit,
            new_bit,
            old_bit == new_bit && new_bit != glitch_bit,
        ))
    }

    /// NR43's clock shift changed from `old`'s to `v`'s while channel 4 plays (the CPU CGB E,
    /// SameBoy's `nr43_write`): the LFSR steps if the selected counter bit rises; on a glitch
    /// ([`Synth::nr43_bits`]) it steps once when the bits are 1 and the new bit 7 is 0.
    pub(super) fn nr43_select(&mut self, old: u8, v: u8) {
        let Some((old_bit, new_bit, glitch)) = self.nr43_bits(old, v) else {
            return;
        };
        let steps = if glitch {
            new_bit && v & 0x80 == 0
        } else {
            !old_bit && new_bit
        };
        if steps {
            self.lfsr = lfsr_step(self.lfsr, v & 0x08 != 0);
        }
    }

    /// One of the CPU CGB C's two NR43 passes (`old` to $FF, $FF to the value written): on a
    /// glitch ([`Synth::nr43_bits`]) the LFSR steps when the bits are 0 (nothing when they are
    /// 1); a rising bit steps it in 7-bit mode whatever NR43 says (SameBoy's `nr43_write` for
    /// revisions up to CGB C; its rarer double steps are not modelled).
    pub(super) fn nr43_select_cgb_c(&mut self, old: u8, v: u8) {
        let Some((old_bit, new_bit, glitch)) = self.nr43_bits(old, v) else {
            return;
        };
        if glitch {
            if !new_bit {
                self.lfsr = lfsr_step(self.lfsr, v & 0x08 != 0);
            }
        } else if !old_bit && new_bit {
            self.lfsr = lfsr_step(self.lfsr, true);
        }
    }

    /// Time of the LFSR's next step from the counter's state: the increment that makes the
    /// counter's bit `s` (NR43's clock shift) rise, `u64::MAX` if it never does (s = 14, 15: the
    /// counter has 14 bits) or the counter does not count.
    pub(super) fn noise_step_at(&self, nr43: u8) -> u64 {
        let s = nr43 >> 4;
        if s >= 14 || self.noise_tick == NOISE_IDLE {
            return u64::MAX;
        }
        let m = 2u64 << s;
        let c = u64::from(self.noise_counter) % m;
        // Increments from c to the next value whose bits 0..=s are 1 << s.
        let k = ((1u64 << s) + m - 1 - c) % m + 1;
        self.noise_tick
            .saturating_add((k - 1) * noise_tick_period(nr43))
    }
}

impl Synth {
    /// Channel 3 fetched `byte` for sample position `pos` (high nibble at even positions).
    pub(super) fn wave_fetch(&mut self, byte: u8, pos: u8) {
        self.wave_byte = byte;
        self.wave_sample = if pos & 1 == 0 { byte >> 4 } else { byte & 0x0F };
    }

    /// NR52 power-off: the duty steps, the wave buffer and the LFSR clear (SameBoy clears
    /// all of its APU state; the duty step counter is reset only here, Gambatte's
    /// `sound/ch1_duty*_pattern_pos*`).
    pub(super) fn power_off(&mut self) {
        self.duty_pos = [0; 2];
        self.high = [false; 2];
        self.latch_at = [NO_LATCH; 2];
        self.wave_byte = 0;
        self.wave_sample = 0;
        self.lfsr = 0;
        self.noise_counter = 0;
        self.noise_tick = NOISE_IDLE;
        self.noise_next = u64::MAX;
        self.noise_last = u64::MAX;
    }
}

impl Default for Synth {
    fn default() -> Synth {
        Synth {
            off: false,
            t: 0,
            window_end: 0,
            acc_l: 0,
            acc_r: 0,
            duty_pos: [0; 2],
            square_next: [0; 2],
            high: [false; 2],
            latch_at: [NO_LATCH; 2],
            wave_byte: 0,
            wave_sample: 0,
            lfsr: 0,
            noise_next: 0,
            noise_last: u64::MAX,
            noise_counter: 0,
            noise_tick: NOISE_IDLE,
            on_phase: 0,
        }
    }
}

impl Synth {
    /// Bring square `c`'s steps and latches up to `now` in closed form, for a stretch over
    /// which its duty pattern `pattern` and its `period` are constant (between two register
    /// writes): a latch due at the same time as a step is taken first (it reads the step
    /// before).
    pub(super) fn advance_square(&mut self, c: usize, now: u64, period: u64, pattern: u8) {
        if self.latch_at[c] <= now {
            self.high[c] = duty_bit(pattern, self.duty_pos[c]);
            self.latch_at[c] = NO_LATCH;
        }
        if self.square_next[c] > now {
            return;
        }
        let steps = (now - self.square_next[c]) / period + 1;
        let last = self.square_next[c] + (steps - 1) * period;
        self.duty_pos[c] = ((u64::from(self.duty_pos[c]) + steps) & 7) as u8;
        self.square_next[c] = last + period;
        if last + DUTY_LATCH_DELAY <= now {
            self.high[c] = duty_bit(pattern, self.duty_pos[c]);
        } else {
            if steps >= 2 {
                // The step before the last was latched before the last came.
                self.high[c] = duty_bit(pattern, self.duty_pos[c].wrapping_sub(1) & 7);
            }
            self.latch_at[c] = last + DUTY_LATCH_DELAY;
        }
    }

    /// The first time after the state of square `c` (brought up to date) that its output bit
    /// changes, for a constant duty `duty` (0-3) and `period`: the pending latch if it changes
    /// the bit, else the latch of the first step whose bit differs.
    pub(super) fn square_change_at(&self, c: usize, period: u64, duty: usize) -> u64 {
        let pos = self.duty_pos[c];
        if self.latch_at[c] != NO_LATCH && duty_bit(DUTY[duty], pos) != self.high[c] {
            return self.latch_at[c];
        }
        let k = STEPS_TO_BIT[duty][usize::from(pos)][usize::from(!self.high[c])];
        self.square_next[c]
            .saturating_add(u64::from(k - 1) * period)
            .saturating_add(DUTY_LATCH_DELAY)
    }

    /// Write the generators' part of the state image (not `off`, a host setting, nor the
    /// output ring: output, like the framebuffer).
    pub(super) fn save_state(&self, w: &mut crate::state::Writer<'_>) {
        w.u64(self.t);
        w.u64(self.window_end);
        // Sums as two's complement in 64 bits.
        w.u64(i64::from(self.acc_l) as u64);
        w.u64(i64::from(self.acc_r) as u64);
        w.bytes(&self.duty_pos);
        w.u64(self.square_next[0]);
        w.u64(self.square_next[1]);
        w.bool(self.high[0]);
        w.bool(self.high[1]);
        w.u64(self.latch_at[0]);
        w.u64(self.latch_at[1]);
        w.u8(self.wave_sample);
        w.u16(self.lfsr);
        w.u64(self.noise_next);
        w.u8(self.wave_byte);
        w.u16(self.noise_counter);
        w.u64(self.noise_tick);
        w.u8(self.on_phase);
        if w.version() >= crate::state::NOISE_LAST_VERSION {
            w.u64(self.noise_last);
        }
    }

    /// Read the generators' part of the state image, checking every field.
    pub(super) fn load_state(
        &mut self,
        r: &mut crate::state::Reader<'_>,
    ) -> Result<(), crate::state::StateError> {
        use crate::state::StateError::Invalid;
        let t = r.u64()?;
        let window_end = r.u64()?;
        if window_end % SAMPLE_PERIOD != 0 || window_end <= t || window_end - t > SAMPLE_PERIOD {
            return Err(Invalid("audio sample window"));
        }
        let mut acc = [0i32; 2];
        for a in &mut acc {
            let v = r.u64()? as i64;
            if v.unsigned_abs() > ACC_MAX {
                return Err(Invalid("audio sample sum"));
            }
            *a = v as i32;
        }
        let mut duty_pos = [0u8; 2];
        for d in &mut duty_pos {
            *d = r.below(8, "duty step")?;
        }
        let square_next = [r.u64()?, r.u64()?];
        let high = [r.bool()?, r.bool()?];
        let latch_at = [r.u64()?, r.u64()?];
        for c in 0..2 {
            if latch_at[c] != NO_LATCH && latch_at[c] > square_next[c] {
                return Err(Invalid("duty latch after the next step"));
            }
        }
        let wave_sample = r.below(16, "wave sample")?;
        let lfsr = r.u16()?;
        if lfsr > 0x7FFF {
            return Err(Invalid("noise LFSR"));
        }
        let noise_next = r.u64()?;
        let wave_byte = r.u8()?;
        let noise_counter = r.u16()?;
        if noise_counter > 0x3FFF {
            return Err(Invalid("noise counter"));
        }
        let noise_tick = r.u64()?;
        let on_phase = r.below(8, "APU power-on phase")?;
        let noise_last = if r.version() >= crate::state::NOISE_LAST_VERSION {
            r.u64()?
        } else {
            u64::MAX
        };
        *self = Synth {
            off: self.off,
            t,
            window_end,
            acc_l: acc[0],
            acc_r: acc[1],
            duty_pos,
            square_next,
            wave_byte,
            high,
            latch_at,
            wave_sample,
            lfsr,
            noise_next,
            noise_last,
            noise_counter,
            noise_tick,
            on_phase,
        };
        Ok(())
    }
}

/// Largest magnitude of a window's sum (480 × 64).
const ACC_MAX: u64 = 30_720;

/// T-cycles between channel 4's LFSR clocks for NR43 = `nr43`; `u64::MAX` when it does not
/// clock (shift 14 or 15).
pub(super) fn noise_period(nr43: u8) -> u64 {
    let shift = nr43 >> 4;
    if shift >= 14 {
        return u64::MAX;
    }
    let divider = match nr43 & 7 {
        0 => 8,
        r => 16 * u64::from(r),
    };
    divider << shift
}

/// One LFSR clock: bit 15 (and bit 7 in 7-bit mode) take XNOR of bits 0 and 1, then shift.
#[inline]
pub(super) fn lfsr_step(l: u16, short: bool) -> u16 {
    let x = !(l ^ (l >> 1)) & 1;
    let mut l = (l & 0x7FFF) | (x << 15);
    if short {
        l = (l & !0x80) | (x << 7);
    }
    l >> 1
}

/// What the generators read from the registers over one catch-up (every input is constant
/// between two calls of [`Apu::catch_up`](super::Apu::catch_up)): shared by the fast catch-up, its edge-by-edge
/// reference in the tests, and [`Apu::digital_outputs`](super::Apu::digital_outputs).
#[derive(Clone, Copy, Debug)]
pub(super) struct Voices {
    /// Each channel plays.
    pub(super) on: [bool; 4],
    /// Each channel's DAC is on.
    pub(super) dac: [bool; 4],
    /// Each channel's envelope volume (the wave channel's is unused).
    pub(super) vol: [u8; 4],
    /// The squares' duty patterns as NRx1 selects them (index into `DUTY`).
    pub(super) duty_index: [usize; 2],
    /// T-cycles per square duty step.
    pub(super) sq_period: [u64; 2],
    /// T-cycles per wave sample.
    pub(super) wave_period: u64,
    /// Right shift of wave samples (4: muted).
    pub(super) wave_shift: u8,
    /// T-cycles between LFSR clocks, and its 7-bit mode.
    pub(super) noise_per: u64,
    pub(super) short: bool,
    pub(super) nr51: u8,
    pub(super) vol_l: i32,
    pub(super) vol_r: i32,
}

impl Voices {
    /// Whether NR51 sends channel `c` to either side.
    pub(super) fn routed(&self, c: usize) -> bool {
        self.nr51 & (0x11 << c) != 0
    }

    /// Whether channel `c`'s output can change the mix now (it plays, is heard, and is not
    /// silent by volume or wave shift).
    pub(super) fn live(&self, c: usize) -> bool {
        let loud = match c {
            2 => self.wave_shift < 4,
            _ => self.vol[c] > 0,
        };
        self.on[c] && loud && self.routed(c)
    }

    /// Channel `c`'s digital output 0-15 for the generators' phases in `s` (as if it played).
    pub(super) fn digital(&self, c: usize, s: &Synth) -> u8 {
        match c {
            0 | 1 if s.high[c] => self.vol[c],
            0 | 1 => 0,
            2 => s.wave_sample >> self.wave_shift,
            _ => {
                if s.lfsr & 1 != 0 {
                    self.vol[3]
                } else {
                    0
                }
            }
        }
    }

    /// Channel `c`'s DAC output: `15 - 2 × d` while it plays, 0 with the DAC off.
    pub(super) fn level(&self, c: usize, s: &Synth) -> i32 {
        if !self.dac[c] {
            return 0;
        }
        let d = if self.on[c] { self.digital(c, s) } else { 0 };
        15 - 2 * i32::from(d)
    }

    /// All four DAC outputs.
    pub(super) fn levels(&self, s: &Synth) -> [i32; 4] {
        [
            self.level(0, s),
            self.level(1, s),
            self.level(2, s),
            self.level(3, s),
        ]
    }

    /// The left and right mix of four DAC outputs (NR51 routing, NR50 volumes).
    pub(super) fn mix(&self, level: &[i32; 4]) -> (i32, i32) {
        let (mut l, mut r) = (0, 0);
        for (c, &v) in level.iter().enumerate() {
            if self.nr51 & (0x10 << c) != 0 {
                l += v;
            }
            if self.nr51 & (1 << c) != 0 {
                r += v;
            }
        }
        (l * self.vol_l, r * self.vol_r)
    }
}
