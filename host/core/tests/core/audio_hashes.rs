//! Audio golden test: the GBT Player example ROMs (music players, no input needed) run for a
//! fixed number of frames, and the hash of the core's own sample stream (65,536 Hz, before any
//! host resampling, so a resampler change cannot move it) is compared with
//! `tests/audio-hashes.tsv`. The stream must also not be silent, and must change over the run
//! (music, not a tone). Re-record on purpose with `GBHOST_RECORD_AUDIO_HASHES=1`; each run is
//! also written as a WAV (at the core's rate) under the target directory to listen to.

use gb_core::apu::{SAMPLE_RATE, Sample};
use gb_core::{Cartridge, Gb};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Frames per run (10 seconds).
const FRAMES: u32 = 600;

const ROMS: &[(&str, &str)] = &[
    ("effects_test", "homebrew/gbt-player/effects_test.gb"),
    ("instr_test", "homebrew/gbt-player/instr_test.gb"),
    ("range_test", "homebrew/gbt-player/range_test.gb"),
];

fn hashes_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/audio-hashes.tsv")
}

/// FNV-1a, 64 bits, over the samples as little-endian i16 pairs.
fn fnv1a(samples: &[Sample]) -> u64 {
    gb_testkit::fnv1a(
        samples
            .iter()
            .flat_map(|&(l, r)| l.to_le_bytes().into_iter().chain(r.to_le_bytes())),
    )
}

/// Root mean square of the left channel after removing its mean (the DACs' DC).
fn rms_ac(samples: &[Sample]) -> f64 {
    let n = samples.len().max(1) as f64;
    let mean = samples.iter().map(|s| f64::from(s.0)).sum::<f64>() / n;
    (samples
        .iter()
        .map(|s| (f64::from(s.0) - mean).powi(2))
        .sum::<f64>()
        / n)
        .sqrt()
}

/// Run a ROM, draining the audio every frame as a host does.
fn run(rom: Vec<u8>) -> Vec<Sample> {
    let mut gb = Gb::new(Cartridge::from_rom(rom).expect("cartridge"));
    let mut buf = vec![(0, 0); gb_core::apu::RING_CAPACITY];
    let mut all = Vec::new();
    for _ in 0..FRAMES {
        gb.run_frame();
        let n = gb.drain_audio(&mut buf);
        all.extend_from_slice(&buf[..n]);
    }
    all
}

/// A 16-bit stereo WAV at the core's rate.
fn write_wav(path: &Path, samples: &[Sample]) {
    let data_len = (samples.len() * 4) as u32;
    let mut b = Vec::with_capacity(44 + samples.len() * 4);
    b.extend_from_slice(b"RIFF");
    b.extend_from_slice(&(36 + data_len).to_le_bytes());
    b.extend_from_slice(b"WAVEfmt ");
    b.extend_from_slice(&16u32.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&2u16.to_le_bytes());
    b.extend_from_slice(&SAMPLE_RATE.to_le_bytes());
    b.extend_from_slice(&(SAMPLE_RATE * 4).to_le_bytes());
    b.extend_from_slice(&4u16.to_le_bytes());
    b.extend_from_slice(&16u16.to_le_bytes());
    b.extend_from_slice(b"data");
    b.extend_from_slice(&data_len.to_le_bytes());
    for &(l, r) in samples {
        b.extend_from_slice(&l.to_le_bytes());
        b.extend_from_slice(&r.to_le_bytes());
    }
    let _ = std::fs::write(path, b);
}

fn load_expected() -> BTreeMap<String, u64> {
    let text = std::fs::read_to_string(hashes_file()).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut f = l.split('\t');
            let name = f.next()?.to_string();
            let hash = u64::from_str_radix(f.next()?.trim_start_matches("0x"), 16).ok()?;
            Some((name, hash))
        })
        .collect()
}

#[test]
fn gbt_player_audio_matches_the_recorded_hashes() {
    let root = gb_testkit::rom_root();
    let ci = gb_testkit::ci();
    let record = std::env::var_os("GBHOST_RECORD_AUDIO_HASHES").is_some();
    let expected = load_expected();
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("audio-hashes");
    let _ = std::fs::create_dir_all(&out_dir);
    let mut recorded = format!(
        "# Audio hashes (FNV-1a 64 of the core's {SAMPLE_RATE} Hz i16 stereo stream, {FRAMES} \
         frames from power-on), with statistics for the eye.\n\
         # Written by GBHOST_RECORD_AUDIO_HASHES=1 cargo test -p gb-core --test audio_hashes\n\
         # name\thash\tsamples\trms_left\n"
    );
    let mut failures = Vec::new();
    for &(name, rel) in ROMS {
        let path = root.join(rel);
        let Ok(rom) = std::fs::read(&path) else {
            assert!(!ci, "CI=true but {} is missing", path.display());
            eprintln!("*** SKIPPED {name}: {} not found ***", path.display());
            continue;
        };
        let samples = run(rom);
        write_wav(&out_dir.join(format!("{name}.wav")), &samples);
        // About 1,097 samples per frame (65,536 Hz at 59.7 frames per second).
        let per_frame = samples.len() as f64 / f64::from(FRAMES);
        assert!(
            (1090.0..1100.0).contains(&per_frame),
            "{name}: {per_frame:.1} samples per frame"
        );
        let rms = rms_ac(&samples);
        eprintln!("{name}: {} samples, RMS {rms:.0}", samples.len());
        assert!(rms > 500.0, "{name}: nearly silent (RMS {rms:.0})");
        // Music changes: the RMS of each second differs across the run.
        let seconds: Vec<u64> = samples
            .chunks(SAMPLE_RATE as usize)
            .map(|c| rms_ac(c) as u64)
            .collect();
        let distinct: std::collections::BTreeSet<u64> = seconds.iter().map(|r| r / 50).collect();
        assert!(
            distinct.len() > 2,
            "{name}: the level barely changes: {seconds:?}"
        );
        let hash = fnv1a(&samples);
        recorded.push_str(&format!(
            "{name}\t{hash:016x}\t{}\t{rms:.0}\n",
            samples.len()
        ));
        match expected.get(name) {
            Some(&want) if want == hash => {}
            Some(&want) => failures.push(format!("{name}: hash {hash:016x}, recorded {want:016x}")),
            None => failures.push(format!("{name}: no recorded hash")),
        }
    }
    if record {
        std::fs::write(hashes_file(), recorded).expect("write audio-hashes.tsv");
        eprintln!("recorded {}", hashes_file().display());
        return;
    }
    assert!(
        failures.is_empty(),
        "audio hashes changed (WAVs written under {}; re-record on purpose with \
         GBHOST_RECORD_AUDIO_HASHES=1):\n{}",
        out_dir.display(),
        failures.join("\n")
    );
}

/// Rewind and the sync test cover audio: a state saved mid-song and loaded into a fresh machine
/// (mid-frame too) produces exactly the samples the original goes on to produce, and saving and
/// reloading every frame changes nothing.
#[test]
fn audio_state_survives_save_and_load() {
    let path = gb_testkit::rom_root().join(ROMS[0].1);
    let Ok(rom) = std::fs::read(&path) else {
        assert!(
            !gb_testkit::ci(),
            "CI=true but {} is missing",
            path.display()
        );
        eprintln!("*** SKIPPED: {} not found ***", path.display());
        return;
    };
    let fresh = || Gb::new(Cartridge::from_rom(rom.clone()).expect("cartridge"));
    let mut buf = vec![(0, 0); gb_core::apu::RING_CAPACITY];
    let mut collect = |gb: &mut Gb, frames: u32, out: &mut Vec<Sample>| {
        for _ in 0..frames {
            gb.run_frame();
            let n = gb.drain_audio(&mut buf);
            out.extend_from_slice(&buf[..n]);
        }
    };
    let mut a = fresh();
    let mut skip = Vec::new();
    collect(&mut a, 100, &mut skip);
    // Stop mid-frame, in the middle of a sample window.
    a.run_until_cycle(a.cycles() + 30_001);
    // What `a` generated before the save (up to its last catch-up) is not part of what
    // follows: drain it. The ring is output, not state.
    let mut before = vec![(0, 0); gb_core::apu::RING_CAPACITY];
    let _ = a.drain_audio(&mut before);
    let mut image = Vec::new();
    a.save_state(&mut image);
    let mut b = fresh();
    b.load_state(&image).expect("load");
    let (mut sa, mut sb) = (Vec::new(), Vec::new());
    collect(&mut a, 120, &mut sa);
    collect(&mut b, 120, &mut sb);
    assert!(rms_ac(&sa) > 500.0);
    assert!(sa == sb, "audio after a load differs");

    // Sync test: save and load every frame.
    let mut plain = fresh();
    let mut synced = fresh();
    let (mut sp, mut ss) = (Vec::new(), Vec::new());
    for _ in 0..200 {
        collect(&mut plain, 1, &mut sp);
        collect(&mut synced, 1, &mut ss);
        synced.save_state(&mut image);
        let mut again = fresh();
        again.load_state(&image).expect("load");
        let mut image2 = Vec::new();
        again.save_state(&mut image2);
        assert_eq!(image, image2, "image round trip");
        synced = again;
    }
    assert!(sp == ss, "audio with a reload every frame differs");
}

/// PCM12/PCM34 are CGB registers: the DMG reads 0xFF there; the channels' digital outputs are
/// still there for hosts. A 50 % square at volume 15 on channel 2 shows 0 and 15 in turn.
#[test]
fn pcm_registers_read_ff_and_channel_outputs_follow_the_square() {
    let rom = gb_core::asm::rom(
        r#"
            ld a, $80
            ldh [$26], a
            ld a, $80
            ldh [$16], a
            ld a, $F0
            ldh [$17], a
            ld a, $00
            ldh [$18], a
            ld a, $84
            ldh [$19], a
        .forever:
            jr .forever
        "#,
    )
    .expect("assemble");
    let mut gb = Gb::new(Cartridge::from_rom(rom).expect("cartridge"));
    gb.run_frame();
    assert_eq!(gb.peek(0xFF76), 0xFF);
    assert_eq!(gb.peek(0xFF77), 0xFF);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..2000 {
        gb.step();
        let out = gb.channel_outputs();
        assert_eq!(
            out[0], 0,
            "channel 1 is silent after the boot sound: {out:?}"
        );
        seen.insert(out[1]);
    }
    assert_eq!(seen, [0u8, 15].into_iter().collect());
}
