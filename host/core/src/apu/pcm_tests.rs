//! What the CGB's PCM12 (0xFF76: channel 1 low nibble, channel 2 high) and PCM34 (0xFF77:
//! channel 3 low, channel 4 high) show, M-cycle by M-cycle, on the APU alone (Pan Docs
//! "FF76 — PCM12", "FF77 — PCM34": each channel's current digital output, 0 while it is off).
//!
//! The expected values are SameBoy's model (`Core/apu.c`: the PCM registers read
//! `samples[]`, which changes only where `update_sample` is called, masked by `is_active`),
//! with the timing the core already takes from Gambatte's hardware tests (the squares' first
//! duty step a period and 6 dots after a trigger at normal speed; the wave channel's first
//! fetch a period and 6 dots after it). SameBoy's APU runs two 2 MHz ticks per M-cycle at
//! normal speed, and its writes and reads land at the same point of an M-cycle, so a read
//! `k` M-cycles after a write there sees `2k` ticks: the counts below are the same in both.
//! A write or read here is at `now` (a multiple of 4, the end of the CPU's M-cycle), as the
//! bus makes them at normal speed, and a read goes through [`Apu::pcm_outputs`] as the bus's
//! does: it sees the squares' latches of its M-cycle, and with the CPU CGB C's read glitch
//! (`pcm`, the default revision) or without it (`pcm_rev(…, false)`, the CPU CGB D and E,
//! which the noise rules follow). `docs/timing.md`, "PCM12 and PCM34", says how these counts
//! were checked against SameBoy's model of each revision.

use super::Apu;

/// Trigger time of every test (a multiple of 4, well past power-on).
const T: u64 = 4000;

/// A powered CGB APU with its generators' clock started at 0.
fn cgb_apu() -> Apu {
    let mut apu = Apu::power_on();
    apu.set_cgb(true);
    apu.start_clock(0);
    apu.write(0xFF26, 0x80, 100);
    apu
}

/// A register write at `now`, as the bus makes it (its lag behind the APU's 1 MHz clock).
fn write(apu: &mut Apu, addr: u16, v: u8, now: u64) {
    let lag = apu.clock_lag(now);
    let clock = super::WriteClock {
        lag,
        fs_next: u64::MAX,
        mcycle: 4,
    };
    apu.write_at(addr, v, now, clock);
}

/// PCM12 and PCM34 read at `now` by the CPU CGB C at normal speed (the bus's read).
fn pcm(apu: &mut Apu, now: u64) -> (u8, u8) {
    pcm_rev(apu, now, true)
}

/// PCM12 and PCM34 read at `now` at normal speed, with the CPU CGB C's read glitch or not
/// (the CPU CGB D and E).
fn pcm_rev(apu: &mut Apu, now: u64, cgb_c: bool) -> (u8, u8) {
    apu.catch_up(now);
    let o = apu.pcm_outputs(4, cgb_c);
    (o[0] | (o[1] << 4), o[2] | (o[3] << 4))
}

/// Channel 1 at volume 15, duty 3 (75 %: high at steps 1-6), frequency 0x7C0 (a duty step
/// every 256 dots, 64 M-cycles), triggered at `T` from off.
fn square_75(apu: &mut Apu) {
    write(apu, 0xFF11, 0xC0, T - 16);
    write(apu, 0xFF12, 0xF0, T - 12);
    write(apu, 0xFF13, 0xC0, T - 8);
    write(apu, 0xFF14, 0x87, T);
}

#[test]
fn a_square_triggered_from_off_shows_0_until_its_first_duty_step() {
    // The first step comes a period and 5 dots after this trigger (from power-on's clock
    // phase), its output latched 4 dots later, at T + 265 (`docs/timing.md`, "Square
    // channels": Gambatte's hardware-verified `ch1_duty0_to_duty3_pos3_*` and
    // `ch1_duty0_pos6_to_pos7_timing_*`): step 1 of duty 3, high, volume 15. A read samples
    // after the latches of its M-cycle, so the CPU CGB E reads it at M-cycle 66 (T + 264, as
    // SameBoy's model has it); the CPU CGB C's read glitch hides the rise for that M-cycle.
    for (cgb_c, first) in [(false, 66), (true, 67)] {
        let mut apu = cgb_apu();
        square_75(&mut apu);
        for k in 0..first {
            assert_eq!(
                pcm_rev(&mut apu, T + 4 * k, cgb_c).0,
                0x00,
                "{k} M-cycles after the trigger (CGB C: {cgb_c})"
            );
        }
        assert_eq!(pcm_rev(&mut apu, T + 4 * first, cgb_c).0, 0x0F);
        // The next step, 64 M-cycles later, is step 2: still high.
        assert_eq!(pcm_rev(&mut apu, T + 4 * (first + 64), cgb_c).0, 0x0F);
    }
}

#[test]
fn a_duty_write_shows_at_the_next_duty_step_not_at_once() {
    // An NR11 write changes no output; the next step's latch (T + 521) reads the new duty
    // (Gambatte's `ch1_duty0_to_duty3_pos3_*`; SameBoy alike at its step). Duty 0 (12.5 %) is
    // low at step 2: the fall shows in the read of the latch's M-cycle (130, ending at T + 520,
    // on both revisions: the CGB C's glitch hides only rises).
    let mut apu = cgb_apu();
    square_75(&mut apu);
    assert_eq!(pcm(&mut apu, T + 4 * 70).0, 0x0F, "step 1 of duty 3");
    write(&mut apu, 0xFF11, 0x00, T + 4 * 80);
    assert_eq!(pcm(&mut apu, T + 4 * 81).0, 0x0F, "the duty write alone");
    assert_eq!(
        pcm(&mut apu, T + 4 * 129).0,
        0x0F,
        "an M-cycle before step 2's latch"
    );
    assert_eq!(pcm(&mut apu, T + 4 * 130).0, 0x00, "step 2 of duty 0");
}

#[test]
fn a_duty_write_in_the_m_cycle_of_the_latch_still_counts() {
    // Within an M-cycle the write lands before the latch and the read after it: NR11 written
    // in the M-cycle whose read first shows step 2 (ending at T + 520, the latch at T + 521)
    // gives step 2 the new duty (Gambatte's `ch1_duty0_to_duty3_pos3_0` and `_1`: a write 3
    // dots after the step counts), and that same M-cycle's read already shows it.
    let mut apu = cgb_apu();
    square_75(&mut apu);
    write(&mut apu, 0xFF11, 0x00, T + 4 * 130);
    assert_eq!(pcm(&mut apu, T + 4 * 130).0, 0x00, "step 2 of duty 0");
    let mut apu = cgb_apu();
    square_75(&mut apu);
    write(&mut apu, 0xFF11, 0x00, T + 4 * 131);
    assert_eq!(pcm(&mut apu, T + 4 * 131).0, 0x0F, "step 2 of duty 3");
}

#[test]
fn a_retrigger_while_playing_keeps_the_latched_bit_and_shows_the_new_volume_at_once() {
    // A retrigger of a playing channel does not re-read NR11: the latched bit stays until the
    // next latch (Gambatte's hardware-verified plain `ch1_duty0_to_duty3_pos3`; SameBoy
    // re-reads the duty here, which that test refutes); NR12's volume shows at once.
    let mut apu = cgb_apu();
    square_75(&mut apu);
    assert_eq!(pcm(&mut apu, T + 4 * 70).0, 0x0F, "step 1 of duty 3");
    write(&mut apu, 0xFF11, 0x40, T + 4 * 80); // duty 1 (25 %): low at step 1
    write(&mut apu, 0xFF14, 0x87, T + 4 * 81);
    assert_eq!(
        pcm(&mut apu, T + 4 * 81).0,
        0x0F,
        "step 1, latched from duty 3"
    );
    write(&mut apu, 0xFF11, 0xC0, T + 4 * 82);
    write(&mut apu, 0xFF12, 0x80, T + 4 * 83); // volume 8 from the next trigger on
    write(&mut apu, 0xFF14, 0x87, T + 4 * 84);
    assert_eq!(
        pcm(&mut apu, T + 4 * 84).0,
        0x08,
        "step 1 of duty 3 at volume 8"
    );
}

#[test]
fn channel_2_shows_in_the_high_nibble_and_a_channel_off_shows_0() {
    // Pan Docs "FF76 — PCM12": channel 2 in bits 4-7. NR22 with the DAC off (bits 3-7 clear)
    // turns the channel off (SameBoy: `is_active` false, the PCM nibble 0).
    let mut apu = cgb_apu();
    write(&mut apu, 0xFF16, 0xC0, T - 16);
    write(&mut apu, 0xFF17, 0xA0, T - 12);
    write(&mut apu, 0xFF18, 0xC0, T - 8);
    write(&mut apu, 0xFF19, 0x87, T);
    assert_eq!(pcm(&mut apu, T + 4 * 66).0, 0x00);
    assert_eq!(pcm(&mut apu, T + 4 * 67).0, 0xA0);
    write(&mut apu, 0xFF17, 0x00, T + 4 * 70);
    assert_eq!(pcm(&mut apu, T + 4 * 70).0, 0x00, "DAC off");
}

/// Channel 3 at 100 % volume, frequency 0x7F0 (a sample every 32 dots, 8 M-cycles), wave RAM
/// 0x12, 0x34, 0x56, …, triggered at `T`.
fn wave(apu: &mut Apu) {
    for i in 0..16u16 {
        write(
            apu,
            0xFF30 + i,
            0x12u8.wrapping_add((0x22 * i) as u8),
            T - 100,
        );
    }
    write(apu, 0xFF1A, 0x80, T - 16);
    write(apu, 0xFF1C, 0x20, T - 12);
    write(apu, 0xFF1D, 0xF0, T - 8);
    write(apu, 0xFF1E, 0x87, T);
}

#[test]
fn the_wave_channel_shows_its_buffer_from_the_trigger_and_each_fetch_after() {
    // SameBoy's NR34 trigger: position 0, the output `(current_sample_byte >> 4) >> shift`
    // at once (the buffer is 0 after power-on); the first fetch after
    // `sample_countdown` = 15 + 3 ticks, i.e. 19 ticks: 10 M-cycles. It reads position 1,
    // byte 0's low nibble.
    let mut apu = cgb_apu();
    wave(&mut apu);
    for k in 0..=9 {
        assert_eq!(
            pcm(&mut apu, T + 4 * k).1,
            0x00,
            "{k} M-cycles after the trigger"
        );
    }
    assert_eq!(pcm(&mut apu, T + 4 * 10).1, 0x02);
    assert_eq!(pcm(&mut apu, T + 4 * 17).1, 0x02);
    assert_eq!(
        pcm(&mut apu, T + 4 * 18).1,
        0x03,
        "position 2: byte 1's high nibble"
    );
    assert_eq!(pcm(&mut apu, T + 4 * 26).1, 0x04, "position 3");
    // A retrigger now shows the buffer's (byte 1's) high nibble, not the nibble playing.
    write(&mut apu, 0xFF1E, 0x87, T + 4 * 30);
    assert_eq!(pcm(&mut apu, T + 4 * 30).1, 0x03);
    // NR32 shifts it at once (SameBoy: `update_wave_sample` on the write): 50 %.
    write(&mut apu, 0xFF1C, 0x40, T + 4 * 31);
    assert_eq!(pcm(&mut apu, T + 4 * 31).1, 0x01);
    // Its first fetch is again 10 M-cycles after the trigger: position 1, byte 0's low.
    assert_eq!(pcm(&mut apu, T + 4 * 39).1, 0x01);
    assert_eq!(pcm(&mut apu, T + 4 * 40).1, 0x01, "2 >> 1");
    // NR30's DAC off stops the channel: 0.
    write(&mut apu, 0xFF1A, 0x00, T + 4 * 41);
    assert_eq!(pcm(&mut apu, T + 4 * 41).1, 0x00);
}

#[test]
fn power_off_clears_the_wave_buffer() {
    // SameBoy clears its whole APU state on NR52 power-off: a trigger after power-on shows
    // the cleared buffer's high nibble, 0, not what was fetched before.
    let mut apu = cgb_apu();
    wave(&mut apu);
    assert_eq!(pcm(&mut apu, T + 4 * 18).1, 0x03);
    write(&mut apu, 0xFF26, 0x00, T + 4 * 20);
    assert_eq!(pcm(&mut apu, T + 4 * 20), (0, 0), "APU off");
    write(&mut apu, 0xFF26, 0x80, T + 4 * 21);
    write(&mut apu, 0xFF1A, 0x80, T + 4 * 22);
    write(&mut apu, 0xFF1C, 0x20, T + 4 * 23);
    write(&mut apu, 0xFF1E, 0x87, T + 4 * 24);
    assert_eq!(pcm(&mut apu, T + 4 * 24).1, 0x00);
}

#[test]
fn the_noise_channel_shows_its_volume_while_lfsr_bit_0_is_1() {
    // SameBoy's `update_lfsr`: `lfsr & 1 ? current_volume : 0`, from LFSR 0 at the trigger
    // (0 at once). In 7-bit mode the XNOR feedback fills bits 6 and 14 with 1s, so bit 0 is
    // 1 from the 7th clock on. NR43 0x08: divisor code 0, shift 0, a clock every 8 dots.
    let mut apu = cgb_apu();
    write(&mut apu, 0xFF21, 0x90, T - 8);
    write(&mut apu, 0xFF22, 0x08, T - 4);
    write(&mut apu, 0xFF23, 0x80, T);
    assert_eq!(pcm(&mut apu, T).1, 0x00);
    let seen: std::collections::BTreeSet<u8> =
        (1..100).map(|k| pcm(&mut apu, T + 4 * k).1).collect();
    assert_eq!(
        seen,
        [0x00, 0x90].into(),
        "bit 0 at 0 and 1, in the high nibble"
    );
    write(&mut apu, 0xFF21, 0x00, T + 4 * 100);
    assert_eq!(pcm(&mut apu, T + 4 * 100).1, 0x00, "DAC off");
}

#[test]
fn what_pcm_shows_does_not_depend_on_audio_output() {
    // The generators keep their phases with output off: the CPU reads the same PCM values
    // (a machine that behaves differently when nobody listens would not be deterministic).
    let run = |audio: bool| {
        let mut apu = cgb_apu();
        apu.set_output_enabled(audio, 0);
        square_75(&mut apu);
        wave(&mut apu);
        (0..400u64)
            .map(|k| {
                if k == 150 {
                    apu.set_output_enabled(!audio, T + 4 * k);
                }
                pcm(&mut apu, T + 4 * k)
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(run(true), run(false));
}

/// A powered CGB APU, NR52's power-on at dot 96 (a multiple of 8: `T` is then at 2 MHz
/// alignment 0, `T + 4` at 2).
fn cgb_apu_noise() -> Apu {
    let mut apu = Apu::power_on();
    apu.set_cgb(true);
    apu.start_clock(0);
    apu.write(0xFF26, 0x80, 96);
    apu
}

/// Channel 4 at volume 15 with NR43 = `nr43`, triggered at `at` (its DAC on from `at - 8`).
fn noise(apu: &mut Apu, nr43: u8, at: u64) {
    write(apu, 0xFF21, 0xF0, at - 8);
    write(apu, 0xFF22, nr43, at - 4);
    write(apu, 0xFF23, 0x80, at);
}

/// The first M-cycle (counted from `at`) at which PCM34 shows channel 4 high, within `limit`,
/// as the CPU CGB E reads it (the noise rules are SameBoy's for the CGB E; the CPU CGB C's read
/// glitch hides each rise for one M-cycle: `the_cgb_c_reads_a_noise_rise_an_m_cycle_late`).
fn first_high(apu: &mut Apu, at: u64, limit: u64) -> Option<u64> {
    (0..limit).find(|&k| pcm_rev(apu, at + 4 * k, false).1 != 0)
}

// The noise tests below use the 7-bit LFSR: from 0 (a trigger clears it) its bit 0, the
// output, is 0 after steps 1-6 (each shifts a 1 into bits 6 and 14) and 1 after step 7 (bits 0
// and 1 differ: XNOR 0), so the M-cycle PCM34 turns 0xF0 times step 7. SameBoy's model
// (`docs/timing.md`, "Noise channel"): the free-running 14-bit counter increments every
// 4 r APU cycles (2 for r = 0; an APU cycle is 2 dots), the LFSR steps at each increment that
// makes the counter's bit s (NR43's shift) rise, and a trigger makes the first increment come
// after a countdown: at 2 MHz alignment 0 (T, T + 8, ... from `cgb_apu_noise`'s power-on) 6 cycles for r = 0, 4r + 6 - 4 for
// r ≥ 2, 10 for r = 1 from off; at alignment 2 (T + 4, ...) 4r + 6 - 2 for r ≥ 1.

#[test]
fn the_cgb_c_reads_a_noise_rise_an_m_cycle_late() {
    // r = 0, s = 0: step 7 lands at T + 60, the read's own dot (M-cycle 15). The CPU CGB C reads
    // 0 for a channel whose LFSR clock raised its output at the read's dot (SameBoy's
    // `pcm_mask`, revisions up to CGB C, normal speed), so it sees the rise at M-cycle 16.
    let mut apu = cgb_apu_noise();
    noise(&mut apu, 0x08, T);
    assert_eq!(pcm_rev(&mut apu, T + 4 * 15, true).1, 0x00);
    assert_eq!(pcm_rev(&mut apu, T + 4 * 15, false).1, 0xF0);
    assert_eq!(pcm_rev(&mut apu, T + 4 * 16, true).1, 0xF0);
}

#[test]
fn the_first_lfsr_step_follows_the_trigger_by_the_counters_countdown() {
    // r = 0, s = 0, first trigger since power-on (the counter stood at 0): increments at
    // T + 12 + 4j make the counter j + 1; bit 0 rises at odd values, so step n is at
    // T + 12 + 8(n - 1), step 7 at T + 60 (M-cycle 15). A full period after the trigger
    // (the model before) would put it at T + 56.
    let mut apu = cgb_apu_noise();
    noise(&mut apu, 0x08, T);
    assert_eq!(first_high(&mut apu, T, 100), Some(15));
    // r = 1: increments every 8 dots from T + 20 (10 APU cycles), steps every 16: step 7 at
    // T + 20 + 96 = T + 116 (M-cycle 29).
    let mut apu = cgb_apu_noise();
    noise(&mut apu, 0x09, T);
    assert_eq!(first_high(&mut apu, T, 100), Some(29));
    // r = 2: increments every 16 dots from T + 20 (14 - 4 cycles), steps every 32: step 7 at
    // T + 20 + 192 = T + 212 (M-cycle 53).
    let mut apu = cgb_apu_noise();
    noise(&mut apu, 0x0A, T);
    assert_eq!(first_high(&mut apu, T, 100), Some(53));
}

#[test]
fn the_delay_after_a_trigger_depends_on_the_2_mhz_alignment() {
    // Triggered an M-cycle later (alignment 2): r = 1 counts down 10 - 2 = 8 cycles (16
    // dots), step 7 at +16 + 96 = +112 (M-cycle 28, one sooner than at alignment 0); r = 2
    // 14 - 2 = 12 cycles (24 dots), step 7 at +24 + 192 = +216 (M-cycle 54, one later).
    let at = T + 4;
    let mut apu = cgb_apu_noise();
    noise(&mut apu, 0x09, at);
    assert_eq!(first_high(&mut apu, at, 100), Some(28));
    let mut apu = cgb_apu_noise();
    noise(&mut apu, 0x0A, at);
    assert_eq!(first_high(&mut apu, at, 100), Some(54)); // The alignment counts from NR52's power-on (SameBoy's `GB_apu_init` zeroes it): powered
    // on at dot 100 instead of 96, a trigger at T is at alignment 2, as T + 4 was above.
    let mut apu = cgb_apu();
    noise(&mut apu, 0x09, T);
    assert_eq!(first_high(&mut apu, T, 100), Some(28));
}

#[test]
fn a_retrigger_does_not_reset_the_counter() {
    // NR43 0x1A: r = 2, s = 1. Triggered at T: increments at T + 20 + 16j (counter j + 1),
    // bit 1 rises at counter 2 mod 4. Retriggered at U = T + 216 (alignment 0): 13
    // increments taken (the 14th is due at T + 228), the countdown is again 10 cycles, so the
    // counter reaches 14 (a rising bit 1) at U + 20 and steps every 64 dots from there: step
    // 7 at U + 20 + 384 = U + 404 (M-cycle 101). From a counter at 0 (the first trigger's
    // case) the first rise needs 2 increments: M-cycle 105.
    let mut apu = cgb_apu_noise();
    noise(&mut apu, 0x1A, T);
    assert_eq!(first_high(&mut apu, T, 200), Some(105));
    let mut apu = cgb_apu_noise();
    noise(&mut apu, 0x1A, T);
    let u = T + 216;
    write(&mut apu, 0xFF23, 0x80, u);
    assert_eq!(pcm(&mut apu, u).1, 0x00, "the LFSR cleared");
    assert_eq!(first_high(&mut apu, u, 200), Some(101));
}

#[test]
fn an_nr43_write_that_raises_the_selected_counter_bit_steps_the_lfsr() {
    // NR43 0x0A (r = 2, s = 0) triggered at T: increments at T + 20 + 16j, steps at odd
    // counter values, every 32 dots from T + 20: step 6 at T + 180, step 7 at T + 212. At
    // W = T + 200 the counter is 12 (0b1100). Switching to s = 2 (0x2A) selects a 1 where
    // bit 0 was 0: the LFSR steps at the write (step 7 now, PCM34 0xF0 at W).
    let w = T + 200;
    let mut apu = cgb_apu_noise();
    noise(&mut apu, 0x0A, T);
    assert_eq!(pcm(&mut apu, w - 4).1, 0x00);
    write(&mut apu, 0xFF22, 0x2A, w);
    assert_eq!(pcm(&mut apu, w).1, 0xF0, "stepped at the write");
    // To s = 1 (0x1A) instead: bit 1 of 12 is 0, no step; the next rise of bit 1 is at 14,
    // T + 228 (M-cycle 7 after W).
    let mut apu = cgb_apu_noise();
    noise(&mut apu, 0x0A, T);
    write(&mut apu, 0xFF22, 0x1A, w);
    assert_eq!(first_high(&mut apu, w, 100), Some(7));
    // Unchanged, step 7 at T + 212 (M-cycle 3 after W).
    let mut apu = cgb_apu_noise();
    noise(&mut apu, 0x0A, T);
    assert_eq!(first_high(&mut apu, w, 100), Some(3));
}

#[test]
fn a_divisor_change_keeps_the_pending_increment() {
    // NR43 0x08 (r = 0, s = 0) at T: increments every 4 dots from T + 12, so at W = T + 40
    // one has just been taken (counter 8, the 8th at T + 40). Writing r = 2 (0x0A) there
    // reloads the countdown with 4 × 2 + 2 cycles (alignment 0: SameBoy's table 2, 1, 0, 3):
    // the next increment at W + 20 makes 9 (bit 0 rises): step 5 (4 were taken at counters 1,
    // 3, 5, 7), then increments every 16 dots, steps every 32: step 7 at W + 20 + 64 = W + 84
    // (M-cycle 21).
    let w = T + 40;
    let mut apu = cgb_apu_noise();
    noise(&mut apu, 0x08, T);
    write(&mut apu, 0xFF22, 0x0A, w);
    assert_eq!(first_high(&mut apu, w, 100), Some(21));
}

#[test]
fn clock_shifts_14_and_15_never_step_the_lfsr() {
    // The counter has 14 bits: bit 14 or 15 never rises.
    let mut apu = cgb_apu_noise();
    noise(&mut apu, 0xE8, T);
    assert_eq!(first_high(&mut apu, T, 2000), None);
}

#[test]
fn a_divisor_change_before_the_first_increment_keeps_the_triggers_countdown() {
    // NR43 0x0A triggered at T: the first increment at T + 20. r = 3 (0x0B) written at T + 4
    // (no increment taken there) leaves it at T + 20 (SameBoy: 8 APU cycles left of the
    // countdown), step 1 there, then increments every 24 dots, steps every 48: step 7 at
    // T + 20 + 288 = T + 308 (M-cycle 77). A reload at the write would give T + 316.
    let mut apu = cgb_apu_noise();
    noise(&mut apu, 0x0A, T);
    write(&mut apu, 0xFF22, 0x0B, T + 4);
    assert_eq!(first_high(&mut apu, T, 200), Some(77));
}

#[test]
fn the_dac_off_stops_the_counter_until_the_next_trigger() {
    // NR43 0x1A (r = 2, s = 1) at T: increments at T + 20 + 16j (counter j + 1). NR42 = 0 at
    // T + 40 (counter 2, the next increment 6 APU cycles away): the channel and the counter
    // stop. DAC on and a trigger at U = T + 400 (alignment 0, from off): the countdown of 10
    // cycles makes the counter 3 at U + 20, then 4, 5, and 6 (bit 1 rises) at U + 68: step 1
    // there, step 7 at U + 68 + 384 = U + 452 (M-cycle 113). Had it counted on (24 at U, 25
    // at U + 20, 26 at U + 36: a rise), step 7 would be at U + 420 (M-cycle 105).
    let mut apu = cgb_apu_noise();
    noise(&mut apu, 0x1A, T);
    write(&mut apu, 0xFF21, 0x00, T + 40);
    assert_eq!(apu.synth.noise_tick, super::NOISE_IDLE);
    let u = T + 400;
    noise(&mut apu, 0x1A, u);
    assert_eq!(pcm(&mut apu, u).1, 0x00);
    assert_eq!(first_high(&mut apu, u, 200), Some(113));
}

#[test]
fn a_width_switch_while_playing_takes_effect_at_the_next_step() {
    // NR43 0x00 (15-bit, r = 0, s = 0) at T: steps at T + 12 + 8(n - 1). After step 3 (T + 28)
    // the LFSR is 0x7000. NR43 0x08 (7-bit, same clock: no step, and the increment taken at
    // the write's dot reloads 2 cycles, the same rate) at T + 32: from step 4 on each step
    // also sets bit 6, so bits 6..1 are 1 after step 9 and bit 0 after step 10, at T + 84
    // (M-cycle 21). Without the switch: step 15, M-cycle 31.
    let mut apu = cgb_apu_noise();
    noise(&mut apu, 0x00, T);
    write(&mut apu, 0xFF22, 0x08, T + 32);
    assert_eq!(first_high(&mut apu, T, 100), Some(21));
    let mut apu = cgb_apu_noise();
    noise(&mut apu, 0x00, T);
    assert_eq!(first_high(&mut apu, T, 100), Some(31));
}
