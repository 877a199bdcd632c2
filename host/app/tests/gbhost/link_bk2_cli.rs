//! A linked pair's movie as BizHawk's GambatteLink `.bk2`, through the real binary: a `.gbm`
//! of two linked Game Boys (both players' input, the cable pulled out and plugged in again)
//! exports with `--link`, names the pair's bundle SHA-1 and writes the XML bundle BizHawk
//! opens the two ROMs from; importing it gives a movie with the same input that replays to
//! the same machine hash, and exporting that again gives the same input log.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gb_core::Buttons;
use gb_session::movie::{self, FrameInput, Movie, Recorder, bk2};
use gb_session::{PowerOn, Roms, Session, SessionConfig};

use crate::common::{gbhost, text};

fn s(p: &Path) -> String {
    p.display().to_string()
}

fn config() -> SessionConfig {
    SessionConfig {
        desync_check: false,
        ..SessionConfig::default()
    }
}

/// Record `frames` frames of the pair into `out`: both players' buttons from a seeded
/// generator, the cable pulled out at frame 150 and plugged in again at 300.
fn record_pair(out: &Path, a: &[u8], b: &[u8], frames: u64) {
    let mut session = Session::power_on_linked(
        (a.to_vec(), PowerOn::default()),
        (b.to_vec(), PowerOn::default()),
        config(),
    )
    .unwrap();
    let mut rec = Recorder::create(out, &mut session, vec!["test".into()], BTreeMap::new())
        .expect("a pair records");
    let mut x = 0x9e37_79b9_u32;
    for f in 0..frames {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        // Change each player's buttons now and then, as a player would.
        if f % 7 == 0 {
            session.set_player_buttons(0, Buttons(x as u8));
        }
        if f % 11 == 3 {
            session.set_player_buttons(1, Buttons((x >> 8) as u8));
        }
        match f {
            150 => session.set_cable(false),
            300 => session.set_cable(true),
            _ => {}
        }
        session.run_frame();
        rec.after_frame(&mut session).unwrap();
    }
    rec.finish().unwrap();
}

/// The final machine hash of `movie` played on the pair, and that it did not desync.
fn final_hash(movie: &Path, roms: &Roms) -> u64 {
    let m = Movie::open(movie).unwrap();
    let (report, _) = movie::play(&m, roms.clone(), config(), |_, _| {}).unwrap();
    assert!(
        report.desync.is_none(),
        "{movie:?} desyncs: {:?}",
        report.desync
    );
    report.final_hash
}

#[test]
fn a_pairs_movie_round_trips_through_a_gambatte_link_bk2() {
    let d: PathBuf = crate::common::tmp_dir("link-bk2-cli");
    let (a, b) = (
        crate::link_cli::demo_rom_titled("GBHOST LINK"),
        crate::link_cli::demo_rom_titled("GBHOST LINK 2"),
    );
    let (rom_a, rom_b) = (d.join("a.gb"), d.join("b.gb"));
    std::fs::write(&rom_a, &a).unwrap();
    std::fs::write(&rom_b, &b).unwrap();
    let gbm = d.join("pair.gbm");
    for f in [
        "pair.gbm",
        "pair.gbm.idx",
        "back.gbm",
        "back.gbm.idx",
        "pair.xml",
        "again.xml",
    ] {
        let _ = std::fs::remove_file(d.join(f));
    }
    record_pair(&gbm, &a, &b, 480);
    let (bk, back, again) = (d.join("pair.bk2"), d.join("back.gbm"), d.join("again.bk2"));
    let convert = |from: &Path, to: &Path| {
        gbhost(&[
            "movie",
            "convert",
            "--overwrite",
            &s(from),
            &s(to),
            "--rom",
            &s(&rom_a),
            "--link",
            &s(&rom_b),
            // The demo's header would boot on hardware, so BizHawk would force the boot ROM.
            "--force",
        ])
    };

    // Without --link, the export says what is missing.
    let out = gbhost(&[
        "movie",
        "convert",
        "--overwrite",
        &s(&gbm),
        &s(&bk),
        "--rom",
        &s(&rom_a),
    ]);
    assert!(!out.status.success());
    assert!(text(&out).contains("--link ROM2"), "{}", text(&out));

    let out = convert(&gbm, &bk);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("converted: 480 frames of a linked pair"),
        "{}",
        text(&out)
    );
    let exported = bk2::read(&std::fs::read(&bk).unwrap()).unwrap();
    assert_eq!(exported.header_value("Platform"), Some("GBL"));
    assert_eq!(exported.header_value("Core"), Some("GambatteLink"));
    assert_eq!(
        exported.header_value("SHA1"),
        Some(bk2::link_sha1_hex(&a, &b).as_str())
    );
    assert!(exported.is_linked());
    assert_eq!(
        exported.consoles().unwrap(),
        vec![Some(gb_core::Model::Dmg); 2]
    );
    assert_eq!(exported.frames.len(), 480);
    // The cable's two pluggings are the toggle's two presses, at frames 150 and 300.
    let toggles: Vec<usize> = (0..exported.frames.len())
        .filter(|&i| exported.frames[i].toggle_link)
        .collect();
    assert_eq!(toggles, [150, 300]);
    assert!(
        exported
            .frames
            .iter()
            .any(|f| f.second != Buttons::default())
    );
    // The bundle BizHawk opens the pair from names both ROMs, in player order.
    let xml = std::fs::read_to_string(d.join("pair.xml")).unwrap();
    let at = |p: &Path| xml.find(&s(&std::fs::canonicalize(p).unwrap())).unwrap();
    assert!(xml.contains("System=\"GBL\""), "{xml}");
    assert!(at(&rom_a) < at(&rom_b), "{xml}");

    // Import: the same input, frame by frame, and the same machine at the end.
    let out = convert(&bk, &back);
    assert!(out.status.success(), "{}", text(&out));
    let inputs =
        |p: &Path| -> Vec<FrameInput> { Movie::open(p).unwrap().frame_inputs().unwrap().0 };
    let (original, imported) = (inputs(&gbm), inputs(&back));
    assert_eq!(original.len(), 480);
    assert_eq!(imported, original);
    assert!(original.iter().any(|f| f.buttons[1] != Buttons::default()));
    assert_eq!(original[150].cable, Some(false));
    assert_eq!(original[300].cable, Some(true));
    let roms = Roms::linked(a.clone(), b.clone());
    assert_eq!(final_hash(&back, &roms), final_hash(&gbm, &roms));

    // Export again: the same input, frame by frame.
    let out = convert(&back, &again);
    assert!(out.status.success(), "{}", text(&out));
    let again = bk2::read(&std::fs::read(&again).unwrap()).unwrap();
    assert_eq!(again.frames, exported.frames);

    // The pair's movie refuses one ROM on import too, and a one-Game-Boy .bk2 refuses a pair.
    let out = gbhost(&[
        "movie",
        "convert",
        "--overwrite",
        &s(&bk),
        &s(&back),
        "--rom",
        &s(&rom_a),
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("two linked Game Boys"),
        "{}",
        text(&out)
    );
    let single = d.join("single.bk2");
    let one = bk2::Bk2::gambatte(
        "x",
        "00",
        gb_core::Model::Dmg,
        vec![bk2::Bk2Frame::default(); 3],
    );
    std::fs::write(&single, bk2::write(&one).unwrap()).unwrap();
    let out = convert(&single, &back);
    assert!(!out.status.success());
    assert!(text(&out).contains("one Game Boy"), "{}", text(&out));
}
