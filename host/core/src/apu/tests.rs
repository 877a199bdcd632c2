//! Tests of the sound generators: the fast catch-up against a plain edge-by-edge one (kept here
//! as the reference), the LFSR and the noise clock.

use super::synth::{DUTY_LATCH_DELAY, NO_LATCH, duty_bit, lfsr_step, noise_period};
use super::{Apu, RING_CAPACITY, SAMPLE_PERIOD};

impl Apu {
    /// The straightforward version of [`Apu::catch_up`]: one loop step per edge of any
    /// channel and per sample. Tests check that the fast one matches it bit for bit.
    fn catch_up_reference(&mut self, now: u64) {
        if self.synth.off || now <= self.synth.t {
            return;
        }
        let v = self.voices();
        let (on, sq_period, wave_period) = (v.on, v.sq_period, v.wave_period);
        let s = &mut self.synth;
        let wave = &mut self.wave;
        let wave_ram = &self.wave_ram;
        let out = &mut self.out;
        let mut level = v.levels(s);
        let (mut cl, mut cr) = v.mix(&level);
        let never = u64::MAX;
        let mut t = s.t;
        loop {
            let e0 = if on[0] {
                s.square_next[0].min(s.latch_at[0])
            } else {
                never
            };
            let e1 = if on[1] {
                s.square_next[1].min(s.latch_at[1])
            } else {
                never
            };
            let e2 = if on[2] { wave.next } else { never };
            let e3 = if on[3] { s.noise_next } else { never };
            let e = e0.min(e1).min(e2).min(e3).min(s.window_end).min(now).max(t);
            let dt = (e - t) as i32;
            s.acc_l += cl * dt;
            s.acc_r += cr * dt;
            t = e;
            if t == s.window_end {
                out.push((s.acc_l as i16, s.acc_r as i16));
                s.acc_l = 0;
                s.acc_r = 0;
                s.window_end += SAMPLE_PERIOD;
            }
            let mut changed = false;
            for c in 0..2 {
                // A latch due with a step reads the step before.
                if on[c] && s.latch_at[c] <= t {
                    s.high[c] = duty_bit(v.duty[c], s.duty_pos[c]);
                    s.latch_at[c] = NO_LATCH;
                    level[c] = v.level(c, s);
                    changed = true;
                }
                if on[c] && s.square_next[c] <= t {
                    s.duty_pos[c] = (s.duty_pos[c] + 1) & 7;
                    s.square_next[c] = t + sq_period[c];
                    s.latch_at[c] = t + DUTY_LATCH_DELAY;
                }
            }
            if on[2] && wave.next <= t {
                wave.pos = (wave.pos + 1) % 32;
                wave.last = wave.next;
                wave.next += wave_period;
                let byte = wave_ram[usize::from(wave.pos / 2)];
                s.wave_sample = if wave.pos & 1 == 0 {
                    byte >> 4
                } else {
                    byte & 0x0F
                };
                level[2] = v.level(2, s);
                changed = true;
            }
            if on[3] && s.noise_next <= t {
                s.lfsr = lfsr_step(s.lfsr, v.short);
                s.noise_next = t.saturating_add(v.noise_per);
                level[3] = v.level(3, s);
                changed = true;
            }
            if changed {
                (cl, cr) = v.mix(&level);
            }
            if t >= now {
                break;
            }
        }
        s.t = now;
    }
}

/// Random register writes and frame sequencer steps, the fast catch-up against the
/// reference one: the same samples and the same state, bit for bit.
#[test]
fn fast_catch_up_matches_the_reference() {
    let mut x: u64 = 0x1234_5678_9abc_def1;
    let mut rnd = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    for round in 0..40 {
        let mut fast = Apu::post_boot();
        fast.start_clock(1000);
        let mut slow = fast.clone();
        let mut now = 1000u64;
        let mut next_fs = 8192u64;
        let (mut got, mut want) = (Vec::new(), Vec::new());
        let mut buf = vec![(0, 0); RING_CAPACITY];
        for _ in 0..400 {
            now += rnd(if round % 2 == 0 { 3000 } else { 300 });
            while next_fs <= now {
                fast.catch_up(next_fs);
                slow.catch_up_reference(next_fs);
                fast.frame_sequencer(next_fs);
                slow.frame_sequencer(next_fs);
                next_fs += 8192;
            }
            fast.catch_up(now);
            slow.catch_up_reference(now);
            let addr = match rnd(10) {
                0..3 => 0xFF10 + rnd(0x17) as u16,
                3 => 0xFF30 + rnd(16) as u16,
                4 => 0xFF24 + rnd(2) as u16,
                // Triggers, with the DAC on most of the time.
                _ => [0xFF14, 0xFF19, 0xFF1E, 0xFF23][rnd(4) as usize],
            };
            let v = match addr {
                0xFF14 | 0xFF19 | 0xFF1E | 0xFF23 => 0x80 | rnd(256) as u8,
                _ => rnd(256) as u8,
            };
            if rnd(8) == 0 {
                for a in [0xFF12u16, 0xFF17, 0xFF21] {
                    let v = 0xF0 | rnd(16) as u8;
                    fast.write(a, v, now);
                    slow.write(a, v, now);
                }
            }
            fast.write(addr, v, now);
            slow.write(addr, v, now);
            let n = fast.samples().drain_into(&mut buf);
            got.extend_from_slice(&buf[..n]);
            let n = slow.samples().drain_into(&mut buf);
            want.extend_from_slice(&buf[..n]);
        }
        if let Some(i) = (0..got.len().min(want.len())).find(|&i| got[i] != want[i]) {
            panic!(
                "round {round}: sample {i} of {}: {:?} vs {:?}; around: {:?} vs {:?}",
                got.len(),
                got[i],
                want[i],
                &got[i.saturating_sub(2)..(i + 3).min(got.len())],
                &want[i.saturating_sub(2)..(i + 3).min(want.len())]
            );
        }
        assert_eq!(got.len(), want.len(), "round {round}");
        assert_eq!(
            format!("{:?} {:?}", fast.synth, fast.wave),
            format!("{:?} {:?}", slow.synth, slow.wave),
            "round {round}"
        );
        let distinct: std::collections::BTreeSet<_> = got.iter().collect();
        assert!(distinct.len() > 10, "round {round}: the test makes sound");
    }
}

#[test]
fn lfsr_15_bit_has_period_32767_and_7_bit_127() {
    for (short, period) in [(false, 32767), (true, 127)] {
        let mut l = 0u16;
        // Skip into the cycle, then measure.
        for _ in 0..200 {
            l = lfsr_step(l, short);
        }
        let start = l;
        let mut n = 0;
        loop {
            l = lfsr_step(l, short);
            n += 1;
            if l == start || n > 40_000 {
                break;
            }
        }
        assert_eq!(n, period, "short={short}");
    }
}

#[test]
fn noise_does_not_clock_with_shift_14_or_15() {
    assert_eq!(noise_period(0xE0), u64::MAX);
    assert_eq!(noise_period(0xF7), u64::MAX);
    assert_eq!(noise_period(0x00), 8);
    assert_eq!(noise_period(0x01), 16);
    assert_eq!(noise_period(0x23), 48 << 2);
}
