//! Tests of the sound generators: the fast catch-up against a plain edge-by-edge one (kept here
//! as the reference), the LFSR and the noise clock; the frame sequencer (power-on, the sweep);
//! the squares' trigger delays and output latch; and of the envelope: its reload on a
//! trigger against the frame sequencer, the frame sequencer's restart on power-on, and NRx2
//! writes while a channel plays (zombie mode).

use super::synth::{DUTY, DUTY_LATCH_DELAY, NO_LATCH, duty_bit, lfsr_step, noise_period};
use super::{Apu, FS_PERIOD, RING_CAPACITY, SAMPLE_PERIOD, WriteClock, zombie_volume};

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
                    s.high[c] = duty_bit(DUTY[v.duty_index[c]], s.duty_pos[c]);
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
                s.wave_fetch(wave_ram[usize::from(wave.pos / 2)], wave.pos);
                level[2] = v.level(2, s);
                changed = true;
            }
            if on[3] && s.noise_next <= t {
                s.lfsr = lfsr_step(s.lfsr, v.short);
                s.noise_last = t;
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
fn the_cgb_c_passes_nr43_through_ff_and_steps_a_rise_in_7_bit_mode() {
    // Counter 0b10: shift 0 selects 0, shift 1 selects 1. NR43 $00 to $10 raises the selected
    // bit. The CPU CGB E steps the LFSR once with the width written (15 bits: from 0, XNOR
    // feedback 1 into bit 14); the CPU CGB C's two passes ($00 to $FF: bit 0 to "bit 15",
    // both 0, the intermediate bit 8 also 0; $FF to $10: a rise) step it once in 7-bit mode
    // (bits 14 and 6), as SameBoy's `nr43_write` for revisions up to CGB C.
    let mut apu = Apu::power_on();
    apu.synth.noise_counter = 0b10;
    apu.synth.lfsr = 0;
    apu.synth.nr43_select(0x00, 0x10);
    assert_eq!(apu.synth.lfsr, 0x4000, "CGB E");
    apu.synth.lfsr = 0;
    apu.synth.nr43_select_cgb_c(0x00, 0xFF);
    assert_eq!(apu.synth.lfsr, 0, "the first pass changes nothing here");
    apu.synth.nr43_select_cgb_c(0xFF, 0x10);
    assert_eq!(apu.synth.lfsr, 0x4040, "CGB C");
    // A glitch (old and new bits equal, the intermediate one differing): the CPU CGB C steps
    // when they are 0 (counter bit 8 set, bits 0 and 1 clear: $00 to $10 through $80), the
    // CGB E does not.
    apu.synth.noise_counter = 1 << 8;
    apu.synth.lfsr = 0;
    apu.synth.nr43_select(0x00, 0x10);
    assert_eq!(apu.synth.lfsr, 0, "CGB E: no step");
    apu.synth.nr43_select_cgb_c(0x00, 0xFF);
    assert_eq!(
        apu.synth.lfsr, 0x4040,
        "CGB C: the glitch of the first pass, width $FF's"
    );
}

#[test]
fn noise_does_not_clock_with_shift_14_or_15() {
    assert_eq!(noise_period(0xE0), u64::MAX);
    assert_eq!(noise_period(0xF7), u64::MAX);
    assert_eq!(noise_period(0x00), 8);
    assert_eq!(noise_period(0x01), 16);
    assert_eq!(noise_period(0x23), 48 << 2);
}

/// An APU powered on at `t0` with channel 1 at volume 15, frequency 0x7C0 (a duty step every
/// 256 dots) and duty `duty`, sent to both sides; not triggered.
fn square_at(t0: u64, duty: u8) -> Apu {
    let mut apu = Apu::power_on();
    apu.start_clock(t0);
    for (addr, v) in [
        (0xFF26u16, 0x80u8),
        (0xFF24, 0x77),
        (0xFF25, 0x11),
        (0xFF11, duty << 6),
        (0xFF12, 0xF0),
        (0xFF13, 0xC0),
    ] {
        apu.write(addr, v, t0);
    }
    apu
}

/// Channel 1's duty step after bringing the generators to `t`.
fn step_at(apu: &mut Apu, t: u64) -> u8 {
    apu.catch_up(t);
    apu.synth.duty_pos[0]
}

/// Channel 1's digital output at `t`.
fn output_at(apu: &mut Apu, t: u64) -> u8 {
    apu.catch_up(t);
    apu.digital_outputs()[0]
}

const NORMAL: WriteClock = WriteClock {
    lag: 2,
    fs_next: u64::MAX,
    mcycle: 4,
};

#[test]
fn a_trigger_from_off_steps_a_period_and_7_dots_after_the_edge_at_normal_speed() {
    let t0 = 4000;
    let mut apu = square_at(t0, 0);
    apu.write_at(0xFF14, 0x87, t0, NORMAL);
    // The edge 2 dots before the trigger, + 256 + 7.
    assert_eq!(step_at(&mut apu, t0 + 260), 0);
    assert_eq!(step_at(&mut apu, t0 + 261), 1);
    assert_eq!(step_at(&mut apu, t0 + 261 + 255), 1);
    assert_eq!(step_at(&mut apu, t0 + 261 + 256), 2);
}

#[test]
fn a_trigger_from_off_steps_8_dots_after_the_edge_at_double_speed() {
    for lag in [0, 2] {
        let t0 = 4000;
        let mut apu = square_at(t0, 0);
        let clock = WriteClock {
            lag,
            fs_next: u64::MAX,
            mcycle: 2,
        };
        apu.write_at(0xFF14, 0x87, t0, clock);
        let step = t0 - lag + 256 + 8;
        assert_eq!(step_at(&mut apu, step - 1), 0, "lag {lag}");
        assert_eq!(step_at(&mut apu, step), 1, "lag {lag}");
    }
}

#[test]
fn a_retrigger_while_playing_steps_4_dots_after_the_edge_and_keeps_the_step() {
    let t0 = 4000;
    let mut apu = square_at(t0, 0);
    apu.write_at(0xFF14, 0x87, t0, NORMAL);
    let r = t0 + 261 + 3 * 256 + 100;
    assert_eq!(step_at(&mut apu, r), 4);
    apu.write_at(0xFF14, 0x87, r, NORMAL);
    assert_eq!(step_at(&mut apu, r - 2 + 256 + 3), 4);
    assert_eq!(step_at(&mut apu, r - 2 + 256 + 4), 5);
}

#[test]
fn the_output_takes_the_duty_written_before_the_latch_4_dots_after_the_step() {
    let t0 = 4000;
    let step3 = t0 + 261 + 2 * 256;
    // Duty 0 is low at step 3, duty 3 high. Written 3 dots after the step into 3: that step
    // shows duty 3.
    let mut apu = square_at(t0, 0);
    apu.write_at(0xFF14, 0x87, t0, NORMAL);
    apu.write(0xFF11, 0xC0, step3 + 3);
    assert_eq!(output_at(&mut apu, step3 + 3), 0, "before the latch");
    assert_eq!(output_at(&mut apu, step3 + 4), 15, "at the latch");
    // Written at the latch: the step keeps duty 0's bit until the next step's latch.
    let mut apu = square_at(t0, 0);
    apu.write_at(0xFF14, 0x87, t0, NORMAL);
    apu.write(0xFF11, 0xC0, step3 + 4);
    assert_eq!(output_at(&mut apu, step3 + 200), 0);
    assert_eq!(output_at(&mut apu, step3 + 256 + 3), 0);
    assert_eq!(output_at(&mut apu, step3 + 256 + 4), 15);
}

#[test]
fn a_trigger_from_off_is_silent_until_its_first_latch_and_a_retrigger_keeps_the_level() {
    let t0 = 4000;
    // Duty 1 is high at step 0 and 7; power-on leaves step 0.
    let mut apu = square_at(t0, 1);
    apu.write_at(0xFF14, 0x87, t0, NORMAL);
    assert_eq!(output_at(&mut apu, t0 + 100), 0);
    // Six steps on: step 6 (low), then 7 (high) at its latch.
    let step7 = t0 + 261 + 6 * 256;
    assert_eq!(output_at(&mut apu, step7 + 3), 0);
    assert_eq!(output_at(&mut apu, step7 + 4), 15);
    // A retrigger while it plays keeps the high level.
    apu.write_at(0xFF14, 0x87, step7 + 20, NORMAL);
    assert_eq!(output_at(&mut apu, step7 + 24), 15);
}

#[test]
fn a_latch_due_at_a_retrigger_is_still_taken() {
    let t0 = 4000;
    let mut apu = square_at(t0, 0);
    apu.write_at(0xFF14, 0x87, t0, NORMAL);
    let step7 = t0 + 261 + 6 * 256;
    // Retriggered 2 dots after the step into 7 (double speed): step 7's latch still comes.
    let clock = WriteClock {
        lag: 0,
        fs_next: u64::MAX,
        mcycle: 2,
    };
    apu.write_at(0xFF14, 0x80, step7 + 2, clock);
    assert_eq!(output_at(&mut apu, step7 + 3), 0);
    assert_eq!(output_at(&mut apu, step7 + 4), 15);
}

#[test]
fn power_off_resets_the_step_and_the_latched_output() {
    let t0 = 4000;
    let mut apu = square_at(t0, 0);
    apu.write_at(0xFF14, 0x87, t0, NORMAL);
    let step7 = t0 + 261 + 6 * 256;
    assert_eq!(output_at(&mut apu, step7 + 4), 15);
    apu.write(0xFF26, 0x00, step7 + 8);
    assert_eq!(apu.synth.duty_pos[0], 0);
    assert!(!apu.synth.high[0]);
}

#[test]
fn the_boot_rom_leaves_channel_1_playing_its_second_note() {
    let now = 0x1_0000;
    // The DMG: step 2, steps 26 dots on and every 252 (NR13 0xC1).
    let mut apu = Apu::post_boot();
    apu.start_clock(now);
    apu.set_boot_phase(now, false);
    assert_eq!(apu.square_period(0), 252);
    assert_eq!(step_at(&mut apu, now + 25), 2);
    assert_eq!(step_at(&mut apu, now + 26), 3);
    // Gambatte's ch1_init_pos_1/_2: a retrigger 132 M-cycles on finds step 4, 133 step 5.
    assert_eq!(step_at(&mut apu, now + 4 * 132), 4);
    assert_eq!(step_at(&mut apu, now + 4 * 133), 5);
    assert!(apu.synth.high[0] || apu.synth.latch_at[0] != super::NO_LATCH);
    // The CGB: step 6, high, the next step 150 dots on; 163 M-cycles on step 0, 164 step 1.
    let mut apu = Apu::post_boot();
    apu.start_clock(now);
    apu.set_boot_phase(now, true);
    assert!(apu.synth.high[0]);
    assert_eq!(step_at(&mut apu, now + 149), 6);
    assert_eq!(step_at(&mut apu, now + 150), 7);
    assert_eq!(step_at(&mut apu, now + 4 * 163), 0);
    assert_eq!(step_at(&mut apu, now + 4 * 164), 1);
}

/// Dots between frame sequencer steps.
const STEP: u64 = 8192;

/// A powered APU with channel 2 triggered at dot 100, its length counter on at `length`
/// (1-64), NR52's power-on written with the frame sequencer's counter bit `fs_bit_high`.
fn apu_with_ch2_length(length: u8, fs_bit_high: bool) -> Apu {
    let mut apu = Apu::power_on();
    apu.write_nr52_at(0x80, 0, fs_bit_high);
    apu.write(0xFF16, 64 - length, 10);
    apu.write(0xFF17, 0xF0, 20);
    apu.write(0xFF19, 0xC7, 100);
    apu
}

#[test]
fn power_on_with_the_counter_bit_high_skips_the_first_step() {
    // Bit low: the first step (step 0) clocks the length counter: 2 → 1, then step 2: off.
    let mut apu = apu_with_ch2_length(2, false);
    apu.frame_sequencer(STEP);
    apu.frame_sequencer(2 * STEP);
    assert_eq!(apu.read(0xFF26, 2 * STEP) & 2, 2, "on after steps 0 and 1");
    apu.frame_sequencer(3 * STEP);
    assert_eq!(apu.read(0xFF26, 3 * STEP) & 2, 0, "off after step 2");

    // Bit high: the next step is the dead one, so enabling the length counter on the
    // trigger clocks it at once (2 → 1); the dead step does nothing; step 0 stops it.
    let mut apu = apu_with_ch2_length(2, true);
    apu.frame_sequencer(STEP);
    assert_eq!(
        apu.read(0xFF26, STEP) & 2,
        2,
        "the dead step clocks nothing"
    );
    apu.frame_sequencer(2 * STEP);
    assert_eq!(
        apu.read(0xFF26, 2 * STEP) & 2,
        0,
        "step 0 after the dead step"
    );
}

/// A powered APU (next step: 0) with channel 1 triggered at dot `at`, `to_step` dots before
/// the next step, with NR10 = 0x20 (period 2, add, shift 0: the first calculation
/// overflows), after `steps` frame sequencer steps at `STEP`, `2 * STEP`, ….
fn apu_with_ch1_sweep(steps: u64, at: u64, to_step: u64) -> Apu {
    let mut apu = Apu::power_on();
    apu.write(0xFF26, 0x80, 0);
    apu.write(0xFF10, 0x20, 4);
    apu.write(0xFF12, 0xF0, 8);
    for k in 1..=steps {
        apu.frame_sequencer(k * STEP);
    }
    apu.write_at(
        0xFF14,
        0x87,
        at,
        WriteClock {
            fs_next: at + to_step,
            ..WriteClock::NONE
        },
    );
    apu
}

#[test]
fn sweep_calculation_lands_four_dots_after_its_step() {
    // Triggered before step 0: the timer (2) runs out on step 6 (the second sweep step).
    let mut apu = apu_with_ch1_sweep(0, 100, STEP - 100);
    for k in 1..=6 {
        apu.frame_sequencer(k * STEP);
        assert_eq!(apu.next_event(), u64::MAX, "no calculation before step 6");
    }
    apu.frame_sequencer(7 * STEP);
    let due = 7 * STEP + 4;
    assert_eq!(apu.next_event(), due);
    assert_eq!(apu.read(0xFF26, 7 * STEP) & 1, 1, "still on at the step");
    apu.run_sweep(due);
    assert_eq!(
        apu.read(0xFF26, due) & 1,
        0,
        "the overflow stops it 4 dots later"
    );
    assert_eq!(apu.next_event(), u64::MAX);
}

#[test]
fn sweep_calculation_is_skipped_if_nr10_period_is_cleared_before_it() {
    let mut apu = apu_with_ch1_sweep(0, 100, STEP - 100);
    for k in 1..=7 {
        apu.frame_sequencer(k * STEP);
    }
    apu.write(0xFF10, 0x00, 7 * STEP + 2);
    apu.run_sweep(7 * STEP + 4);
    assert_eq!(apu.read(0xFF26, 7 * STEP + 4) & 1, 1);
}

#[test]
fn trigger_just_before_a_sweep_step_does_not_count_it() {
    // After steps 0 and 1 the next is step 2, a sweep step.
    let at = 3 * STEP - 8;
    // 8 dots before: step 2 counts (timer 2 → 1), step 6 runs the calculation.
    let mut apu = apu_with_ch1_sweep(2, at, 8);
    for k in 3..=7 {
        apu.frame_sequencer(k * STEP);
    }
    assert_eq!(apu.next_event(), 7 * STEP + 4);
    // 4 dots before: step 2 is not counted, step 6 only counts down.
    let mut apu = apu_with_ch1_sweep(2, at + 4, 4);
    for k in 3..=7 {
        apu.frame_sequencer(k * STEP);
    }
    assert_eq!(apu.next_event(), u64::MAX);
    // The next sweep step (step 2 again) runs it.
    for k in 8..=11 {
        apu.frame_sequencer(k * STEP);
    }
    assert_eq!(apu.next_event(), 11 * STEP + 4);
}

#[test]
fn frame_sequencer_lateness_flips_per_switch_to_double_speed_and_resets_on_power_on() {
    let mut apu = Apu::power_on();
    apu.write(0xFF26, 0x80, 0);
    assert!(!apu.fs_late());
    apu.switched_to_double_speed();
    assert!(apu.fs_late());
    apu.switched_to_double_speed();
    assert!(!apu.fs_late());
    apu.switched_to_double_speed();
    apu.write(0xFF26, 0x00, 10);
    apu.write(0xFF26, 0x80, 20);
    assert!(!apu.fs_late(), "power-on realigns");
}

/// An APU driven as the bus drives it: frame sequencer steps every [`FS_PERIOD`] dots from
/// `fs_next`, and writes that know when the next step falls.
struct Rig {
    apu: Apu,
    now: u64,
    fs_next: u64,
}

impl Rig {
    /// A powered DMG APU at time 0x10000 whose next step, step `step`, falls `to_step` dots on.
    fn new(step: u8, to_step: u64) -> Rig {
        let mut apu = Apu::post_boot();
        let now = 0x1_0000;
        apu.start_clock(now);
        apu.fs_step = step;
        Rig {
            apu,
            now,
            fs_next: now + to_step,
        }
    }

    /// Run to `t`, frame sequencer steps at or before it first (as the bus does).
    fn run_to(&mut self, t: u64) {
        while self.fs_next <= t {
            self.apu.frame_sequencer(self.fs_next);
            self.fs_next += FS_PERIOD;
        }
        self.now = t;
    }

    /// Run `dots` on.
    fn run(&mut self, dots: u64) {
        self.run_to(self.now + dots);
    }

    /// Run to the next frame sequencer step that is step `step`, inclusive.
    fn run_through_step(&mut self, step: u8) {
        while self.apu.fs_step != step {
            self.run_to(self.fs_next);
        }
        self.run_to(self.fs_next);
    }

    fn write(&mut self, addr: u16, v: u8) {
        let clock = WriteClock {
            lag: 0,
            fs_next: self.fs_next,
            mcycle: 4,
        };
        self.apu.write_at(addr, v, self.now, clock);
    }

    /// Channel 2 triggered with NR22 = `nr22`.
    fn trigger_ch2(&mut self, nr22: u8) {
        self.write(0xFF17, nr22);
        self.write(0xFF19, 0x87);
    }

    fn vol2(&self) -> u8 {
        self.apu.ch[1].volume
    }

    /// Step 7s from now until channel 2's volume first changes (none in 20: `None`).
    fn step7s_to_first_volume_step(&mut self) -> Option<u32> {
        let v = self.vol2();
        for n in 1..=20 {
            self.run_through_step(7);
            if self.vol2() != v {
                return Some(n);
            }
        }
        None
    }
}

/// A trigger whose next frame sequencer step is step 7 reloads the envelope timer one higher
/// (Pan Docs "Obscure Behavior"): the first volume step skips that step 7.
#[test]
fn a_trigger_before_step_7_waits_one_more_envelope_period() {
    for period in 1..=3u8 {
        // Next step 7, 1000 dots away.
        let mut r = Rig::new(7, 1000);
        r.trigger_ch2(0x08 | period);
        assert_eq!(r.step7s_to_first_volume_step(), Some(u32::from(period) + 1));
        // Next step 3: no extra period.
        let mut r = Rig::new(3, 1000);
        r.trigger_ch2(0x08 | period);
        assert_eq!(r.step7s_to_first_volume_step(), Some(u32::from(period)));
    }
}

/// The trigger sees the frame sequencer 4 dots ahead (Gambatte's
/// `ch2_init_reset_env_counter_timing_9`/`_11`): 4 dots before step 6 is already "before step
/// 7"; 4 dots before step 7 is already past it, and that step 7 then clocks the new timer.
#[test]
fn the_trigger_sees_the_frame_sequencer_4_dots_ahead() {
    let first = |step: u8, to_step: u64| {
        let mut r = Rig::new(step, to_step);
        r.trigger_ch2(0x09);
        r.step7s_to_first_volume_step()
    };
    assert_eq!(first(6, 8), Some(1), "8 dots before step 6");
    assert_eq!(first(6, 4), Some(2), "4 dots before step 6");
    assert_eq!(first(7, 8), Some(2), "8 dots before step 7");
    assert_eq!(first(7, 4), Some(1), "4 dots before step 7");
    // And the step 7 itself lands at its own dot: a read just before sees the old volume.
    let mut r = Rig::new(7, 4);
    r.trigger_ch2(0x09);
    r.run(3);
    assert_eq!(r.vol2(), 0);
    r.run(1);
    assert_eq!(r.vol2(), 1);
}

/// A period of 0 counts as 8 for the timer (Pan Docs "Obscure Behavior"): the timer runs on
/// while NRx2 says 0, and a period written later steps the volume when it runs out.
#[test]
fn an_envelope_period_of_0_counts_as_8() {
    let mut r = Rig::new(3, 1000);
    r.trigger_ch2(0x80);
    for _ in 0..3 {
        r.run_through_step(7);
    }
    assert_eq!(r.vol2(), 8, "period 0: no volume steps");
    // Period 1, decrease: the write itself (old period 0, still updating) adds 1.
    r.write(0xFF17, 0x81);
    assert_eq!(r.vol2(), 9);
    // The timer, reloaded with 8 at the trigger, has 5 step 7s left.
    assert_eq!(r.step7s_to_first_volume_step(), Some(5));
    assert_eq!(r.vol2(), 8);
}

/// The envelope stops at 0 going down and 15 going up, until the next trigger.
#[test]
fn the_envelope_stops_at_its_limits() {
    let mut r = Rig::new(3, 1000);
    r.trigger_ch2(0xE9);
    r.run_through_step(7);
    assert_eq!((r.vol2(), r.apu.ch[1].env_stopped), (15, false));
    r.run_through_step(7);
    assert_eq!((r.vol2(), r.apu.ch[1].env_stopped), (15, true));
    r.trigger_ch2(0x21);
    assert!(!r.apu.ch[1].env_stopped, "a trigger restarts it");
    r.run_through_step(7);
    r.run_through_step(7);
    assert_eq!(r.vol2(), 0);
    assert!(
        !r.apu.ch[1].env_stopped,
        "stops only on the step that finds 0"
    );
    r.run_through_step(7);
    assert!(r.apu.ch[1].env_stopped);
}

/// Zombie mode on channels 1, 2 and 4: writing $08 over $08 (increase, period 0) while the
/// channel plays adds 1 to the volume (Pan Docs: "the only useful consistent behavior"),
/// 16 such writes come back to the start; once the envelope stopped, it adds nothing; with
/// the channel off nothing changes.
#[test]
fn zombie_mode_steps_the_volume_of_a_playing_channel() {
    for (nrx2, nrx4) in [(0xFF12u16, 0xFF14u16), (0xFF17, 0xFF19), (0xFF21, 0xFF23)] {
        let c = usize::from((nrx2 - 0xFF10) / 5);
        let mut r = Rig::new(3, 1000);
        r.write(nrx2, 0x58);
        r.write(nrx4, 0x80);
        r.write(nrx2, 0x58);
        assert_eq!(r.apu.ch[c].volume, 6, "channel {c}");
        for _ in 0..16 {
            r.write(nrx2, 0x08);
        }
        assert_eq!(
            r.apu.ch[c].volume, 6,
            "channel {c}: 16 increments wrap around"
        );
        // Stopped at 15 (period 1), then period 0: no increment.
        r.write(nrx2, 0xF9);
        r.write(nrx4, 0x80);
        r.run_through_step(7);
        assert!(r.apu.ch[c].env_stopped);
        r.write(nrx2, 0xF8);
        r.write(nrx2, 0xF8);
        assert_eq!(r.apu.ch[c].volume, 15, "channel {c}: stopped");
        // Off: the write only sets the register.
        r.write(0xFF25, 0);
        r.write(nrx2, 0x00);
        r.write(nrx2, 0x58);
        r.write(nrx2, 0x08);
        assert!(!r.apu.ch[c].enabled);
        assert_eq!(r.apu.ch[c].volume, 15, "channel {c}: off");
    }
}

/// Pan Docs' zombie rules against SameBoy's formulation for the DMG and CGB C: the write
/// acts as two, the old value to $FF and $FF to the new, each with the single-write rules
/// (a new period with an old one of 0 ticks the volume in the new direction, unless stopped;
/// $x8 over $x8 ticks; a mode change to increase gives 15 - v from an old period of 0, else
/// 14 - v, and no tick; to decrease, 16 - v). Every volume, old and new value, both states.
#[test]
fn zombie_rules_match_the_two_write_formulation() {
    fn single(v: u8, old: u8, new: u8, stopped: bool) -> u8 {
        let mut v = v;
        let mut tick = new & 7 != 0 && old & 7 == 0 && !stopped;
        if new & 0xF == 8 && old & 0xF == 8 && !stopped {
            tick = true;
        }
        if (new ^ old) & 8 != 0 {
            if new & 8 != 0 {
                v = if old & 7 == 0 && !stopped {
                    v ^ 0xF
                } else {
                    14u8.wrapping_sub(v) & 0xF
                };
                tick = false;
            } else {
                v = 16u8.wrapping_sub(v) & 0xF;
            }
        }
        if tick {
            v = if new & 8 != 0 {
                v + 1
            } else {
                v.wrapping_sub(1)
            } & 0xF;
        }
        v
    }
    for v in 0..16u8 {
        for old in 0..=0xFFu8 {
            for new in (0..=0xFFu8).filter(|n| n & 0xF8 != 0) {
                for stopped in [false, true] {
                    let two = single(single(v, old, 0xFF, stopped), 0xFF, new, stopped);
                    assert_eq!(
                        zombie_volume(v, old, new, stopped),
                        two,
                        "v {v} old {old:02X} new {new:02X} stopped {stopped}"
                    );
                }
            }
        }
    }
}
