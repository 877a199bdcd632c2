//! The APU's sound as the machine makes it: the register settings the generators run with
//! ([`Apu::voices`](super::Apu)), their clock, and the catch-up that brings them to a time and
//! fills the output ring (the generators themselves are `synth.rs`'s).

use super::ring::SampleRing;
use super::synth::{DUTY, NO_LATCH, SAMPLE_PERIOD, Voices, duty_bit, lfsr_step, noise_period};
use super::{Apu, reg};

impl Apu {
    /// T-cycles per duty step of square channel `c` (0 or 1).
    pub(super) fn square_period(&self, c: usize) -> u64 {
        (2048 - u64::from(self.frequency(c))) * 4
    }

    /// The registers' settings the generators run with until the next change.
    pub(super) fn voices(&self) -> Voices {
        let duty_index = [
            usize::from(self.regs[reg(0, 1)] >> 6),
            usize::from(self.regs[reg(1, 1)] >> 6),
        ];
        let nr43 = self.regs[reg(3, 3)];
        let nr50 = self.regs[0x14];
        Voices {
            on: std::array::from_fn(|c| self.ch[c].enabled),
            dac: std::array::from_fn(|c| self.ch[c].dac),
            vol: std::array::from_fn(|c| self.ch[c].volume),
            duty_index,
            sq_period: [self.square_period(0), self.square_period(1)],
            wave_period: self.wave_period(),
            wave_shift: match (self.regs[reg(2, 2)] >> 5) & 3 {
                0 => 4,
                s => s - 1,
            },
            noise_per: noise_period(nr43),
            short: nr43 & 0x08 != 0,
            nr51: self.regs[0x15],
            vol_l: i32::from((nr50 >> 4) & 7) + 1,
            vol_r: i32::from(nr50 & 7) + 1,
        }
    }

    /// Start the generators' clock at `now` (the machine's start time).
    pub fn start_clock(&mut self, now: u64) {
        self.synth.t = now;
        self.synth.window_end = (now / SAMPLE_PERIOD + 1) * SAMPLE_PERIOD;
        self.synth.acc_l = 0;
        self.synth.acc_r = 0;
        self.synth.square_next = [now + self.square_period(0), now + self.square_period(1)];
        self.synth.noise_next = self.synth.noise_step_at(self.regs[reg(3, 3)]);
    }

    /// Turn sample generation on or off. Off, no samples are produced, but the generators
    /// keep their phases up to date (the CGB's CPU sees them in PCM12/PCM34, so what a game
    /// reads may not depend on whether anyone listens); on again, samples start at `now`.
    pub fn set_output_enabled(&mut self, on: bool, now: u64) {
        if on != self.synth.off {
            return;
        }
        self.catch_up(now);
        self.synth.off = !on;
        if on {
            let s = &mut self.synth;
            s.t = s.t.max(now);
            s.window_end = (s.t / SAMPLE_PERIOD + 1) * SAMPLE_PERIOD;
            s.acc_l = 0;
            s.acc_r = 0;
        }
    }

    /// The output ring.
    pub fn samples(&mut self) -> &mut SampleRing {
        &mut self.out
    }

    /// Each channel's digital output 0-15 now (what the CGB's PCM12/PCM34 show; the DMG has
    /// no such registers, so this is for hosts and tests). Call [`Apu::catch_up`] first.
    pub fn digital_outputs(&self) -> [u8; 4] {
        self.outputs(&self.voices())
    }

    /// [`Apu::digital_outputs`] from the registers' `v`.
    fn outputs(&self, v: &Voices) -> [u8; 4] {
        std::array::from_fn(|c| {
            if v.on[c] {
                v.digital(c, &self.synth)
            } else {
                0
            }
        })
    }

    /// What the CGB's PCM12/PCM34 read now ([`Apu::digital_outputs`]; call [`Apu::catch_up`]
    /// first). Within an M-cycle a register write lands before a square's output latch and a
    /// read samples after it (`docs/timing.md`, "PCM12 and PCM34"), so a read sees a square's
    /// latch up to one M-cycle (`ahead`: 4 dots, 2 at double speed) after the bus's access
    /// point. With `glitch` (the CPU CGB C) a read reads 0 for a square whose output leaves 0
    /// in that M-cycle, and at normal speed for the noise channel whose LFSR clock raised its
    /// output at the read's own dot.
    pub fn pcm_outputs(&self, ahead: u64, glitch: bool) -> [u8; 4] {
        let v = self.voices();
        let mut out = self.outputs(&v);
        let s = &self.synth;
        for (c, o) in out.iter_mut().enumerate().take(2) {
            if v.on[c] && s.latch_at[c] != NO_LATCH && s.latch_at[c] <= s.t.saturating_add(ahead) {
                let high = duty_bit(DUTY[v.duty_index[c]], s.duty_pos[c]);
                let rises = high && !s.high[c];
                *o = if high && !(glitch && rises) {
                    v.vol[c]
                } else {
                    0
                };
            }
        }
        if glitch && ahead == 4 && v.on[3] && s.noise_last == s.t && s.lfsr & 1 != 0 {
            // The output bit before the clock: the LFSR's bit 0 then, from its XNOR feedback
            // (now in bit 14) and the bit shifted into bit 0.
            let was_high = (s.lfsr ^ !(s.lfsr >> 14)) & 1 != 0;
            if !was_high {
                out[3] = 0;
            }
        }
        out
    }

    /// Bring the generators up to `now`, appending finished samples to the ring.
    ///
    /// Exactly what stepping every channel edge by edge gives (`catch_up_reference` in the
    /// tests), faster: a channel whose output cannot change the mix over this stretch (not
    /// sent to either side, volume 0, wave muted) has its phase advanced on its own, in closed
    /// form for the squares and the wave channel; the loop visits only the edges of audible
    /// channels, of a square only the latches where its output bit changes, and whole samples
    /// between two edges are written as one run.
    pub fn catch_up(&mut self, now: u64) {
        if now <= self.synth.t {
            return;
        }
        let v = self.voices();
        // With output off nothing is heard: every channel only advances its phase.
        let off = self.synth.off;
        let live: [bool; 4] = std::array::from_fn(|c| !off && v.live(c));
        let (on, sq_period, wave_period) = (v.on, v.sq_period, v.wave_period);

        let s = &mut self.synth;
        let wave = &mut self.wave;
        let wave_ram = &self.wave_ram;

        // Channels that play but cannot be heard now: advance their phases to `now` alone.
        for c in 0..2 {
            if on[c] && !live[c] {
                s.advance_square(c, now, sq_period[c], DUTY[v.duty_index[c]]);
            }
        }
        if on[2] && !live[2] && wave.next <= now {
            let steps = (now - wave.next) / wave_period + 1;
            wave.pos = ((u64::from(wave.pos) + steps) % 32) as u8;
            wave.last = wave.next + (steps - 1) * wave_period;
            wave.next = wave.last + wave_period;
            s.wave_fetch(wave_ram[usize::from(wave.pos / 2)], wave.pos);
        }
        if on[3] && !live[3] {
            while s.noise_next <= now {
                s.lfsr = lfsr_step(s.lfsr, v.short);
                s.noise_last = s.noise_next;
                s.noise_next = s.noise_next.saturating_add(v.noise_per);
            }
        }
        if off {
            // No samples: the window restarts at `now`, so the image stays what a load
            // accepts (a window ending within a sample period after `t`).
            s.t = now;
            s.window_end = (now / SAMPLE_PERIOD + 1) * SAMPLE_PERIOD;
            s.acc_l = 0;
            s.acc_r = 0;
            return;
        }

        let out = &mut self.out;
        let mut level = v.levels(s);
        let (mut cl, mut cr) = v.mix(&level);
        let never = u64::MAX;
        let duty_index = v.duty_index;
        // A square's next latch that changes its output (the steps and latches between change
        // nothing; the phase is brought up to date after the loop).
        let mut sq_change = [
            if live[0] {
                s.square_change_at(0, sq_period[0], duty_index[0])
            } else {
                never
            },
            if live[1] {
                s.square_change_at(1, sq_period[1], duty_index[1])
            } else {
                never
            },
        ];
        let mut t = s.t;
        loop {
            let e2 = if live[2] { wave.next } else { never };
            let e3 = if live[3] { s.noise_next } else { never };
            let e = sq_change[0]
                .min(sq_change[1])
                .min(e2)
                .min(e3)
                .min(now)
                .max(t);
            // Whole and partial samples up to the edge, at a constant level.
            if s.window_end <= e {
                let dt = (s.window_end - t) as i32;
                out.push(((s.acc_l + cl * dt) as i16, (s.acc_r + cr * dt) as i16));
                s.acc_l = 0;
                s.acc_r = 0;
                t = s.window_end;
                s.window_end += SAMPLE_PERIOD;
                if s.window_end <= e {
                    let n = (e - s.window_end) / SAMPLE_PERIOD + 1;
                    let full = SAMPLE_PERIOD as i32;
                    out.push_repeat(((cl * full) as i16, (cr * full) as i16), n as usize);
                    t = s.window_end + (n - 1) * SAMPLE_PERIOD;
                    s.window_end += n * SAMPLE_PERIOD;
                }
            }
            let dt = (e - t) as i32;
            s.acc_l += cl * dt;
            s.acc_r += cr * dt;
            t = e;
            let mut changed = false;
            for c in 0..2 {
                if sq_change[c] <= t {
                    s.advance_square(c, t, sq_period[c], DUTY[v.duty_index[c]]);
                    level[c] = v.level(c, s);
                    sq_change[c] = s.square_change_at(c, sq_period[c], duty_index[c]);
                    changed = true;
                }
            }
            if live[2] && wave.next <= t {
                wave.pos = (wave.pos + 1) % 32;
                wave.last = wave.next;
                wave.next += wave_period;
                s.wave_fetch(wave_ram[usize::from(wave.pos / 2)], wave.pos);
                let l = v.level(2, s);
                changed |= l != level[2];
                level[2] = l;
            }
            if live[3] && s.noise_next <= t {
                s.lfsr = lfsr_step(s.lfsr, v.short);
                s.noise_last = t;
                s.noise_next = t.saturating_add(v.noise_per);
                let l = v.level(3, s);
                changed |= l != level[3];
                level[3] = l;
            }
            if changed {
                (cl, cr) = v.mix(&level);
            }
            if t >= now {
                break;
            }
        }
        // The squares' steps that changed nothing, up to now.
        for c in 0..2 {
            if live[c] {
                s.advance_square(c, now, sq_period[c], DUTY[v.duty_index[c]]);
            }
        }
        s.t = now;
    }
}
