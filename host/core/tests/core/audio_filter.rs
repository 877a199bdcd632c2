//! The core's output filter, measured: each 65,536 Hz sample is the mean of the mix over its
//! 64 T-cycles (a box filter, `apu/synth.rs`), whose response is sinc(f / 65,536 Hz), with
//! nulls at every multiple of 65,536 Hz: a pulse tone there is a constant stream, while one at
//! 32,768 Hz (the Nyquist frequency) alternates around its mean. `docs/audio.md` has the
//! whole chain's figures.

use gb_core::apu::Sample;
use gb_core::{Cartridge, Gb};

/// A ROM that plays channel 2 alone (50 % duty, volume 15, left and right, master volume 7)
/// with period value `freq`, then loops.
fn tone_rom(freq: u16) -> Vec<u8> {
    let [lo, hi] = freq.to_le_bytes();
    gb_core::asm::RomBuilder::new()
        .program(&format!(
            r#"
                xor a
                ldh [$26], a
                ld a, $80
                ldh [$26], a
                ld a, $77
                ldh [$24], a
                ld a, $22
                ldh [$25], a
                ld a, $80
                ldh [$16], a
                ld a, $F0
                ldh [$17], a
                ld a, ${lo:02X}
                ldh [$18], a
                ld a, ${:02X}
                ldh [$19], a
            loop:
                jr loop
            "#,
            0x80 | hi
        ))
        .build()
        .expect("rom")
}

/// The samples of frames 2-4 (after the channel has started).
fn samples(freq: u16) -> Vec<Sample> {
    let mut gb = Gb::new(Cartridge::from_rom(tone_rom(freq)).expect("cartridge"));
    let mut buf = vec![(0, 0); gb_core::apu::RING_CAPACITY];
    gb.run_frame();
    gb.drain_audio(&mut buf);
    let mut all = Vec::new();
    for _ in 0..3 {
        gb.run_frame();
        let n = gb.drain_audio(&mut buf);
        all.extend_from_slice(&buf[..n]);
    }
    all
}

#[test]
fn a_tone_at_the_output_rate_falls_in_the_box_filters_null() {
    // Period value 2046: a duty step every 8 T-cycles, a period of 64: 65,536 Hz.
    let s = samples(2046);
    assert!(s.len() > 3000);
    assert!(s.iter().all(|&x| x == s[0]), "not constant: {:?}", &s[..8]);
    // Its mean is the DAC's mean level, (15 + -15) / 2 = 0, times volume 8, times 64 T.
    assert_eq!(s[0], (0, 0));
}

#[test]
fn a_tone_at_half_the_output_rate_alternates() {
    // Period value 2044: a period of 128 T-cycles, 32,768 Hz (the Nyquist frequency):
    // samples alternate around the mean; high + low sum to the mean over a whole period.
    let s = samples(2044);
    let (a, b) = (s[0].0, s[1].0);
    assert_ne!(a, b);
    assert!(
        s.chunks(2)
            .all(|p| p.len() < 2 || (p[0].0, p[1].0) == (a, b)),
        "{:?}",
        &s[..8]
    );
    assert_eq!(i32::from(a) + i32::from(b), 0);
}
