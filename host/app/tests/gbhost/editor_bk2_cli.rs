//! A movie edited in the TAS editor, exported to BizHawk's `.bk2` through the real binary and
//! imported back: it replays in gbhost from the export with no desync, with the editor's input
//! and its markers; the export carries the lag log gbhost measured.

use std::path::Path;

use gb_core::Buttons;
use gb_session::data::Pads;
use gb_session::movie::editor::Editor;
use gb_session::movie::{FrameInput, Movie, editor_file};
use gb_session::{PowerOn, Session, SessionConfig};

use crate::common::{gbhost, text, tmp_dir};

fn s(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn an_edited_movie_survives_bk2_export_and_import_with_its_markers() {
    let Some(src) = gb_testkit::shared_rom("homebrew/tobutobugirl/tobutobugirl.gb") else {
        return;
    };
    let d = tmp_dir("editor-bk2");
    let rom = d.join("tobu.gb");
    std::fs::copy(&src, &rom).unwrap();
    let bytes = std::fs::read(&rom).unwrap();
    let start = || {
        Session::power_on(bytes.clone(), PowerOn::default(), SessionConfig::default())
            .expect("session")
    };
    // Edit: Start pressed a few times to leave the title, A painted over 300-340.
    let mut session = start();
    let mut ed = Editor::new(&session, 0, vec![Pads::default(); 600]);
    for f in [100, 160, 220] {
        ed.set(&session, f, Buttons::START);
    }
    ed.paint(&session, 300..341, Buttons::A, true);
    ed.set_marker(300, "jump", false);
    ed.set_marker(500, "landing", true);
    let gbm = d.join("edited.gbm");
    let _ = std::fs::remove_file(&gbm);
    let mut fresh = start();
    editor_file::save(&mut ed, &mut session, &mut fresh, &gbm).expect("save");
    // To .bk2 (a post-boot movie: --force, as BizHawk would run the boot ROM first) and back.
    let (bk, back) = (d.join("edited.bk2"), d.join("back.gbm"));
    for (from, to) in [(&gbm, &bk), (&bk, &back)] {
        let out = gbhost(&[
            "movie",
            "convert",
            "--overwrite",
            &s(from),
            &s(to),
            "--rom",
            &s(&rom),
            "--force",
        ]);
        assert!(out.status.success(), "{}", text(&out));
    }
    // The export carries the lag gbhost measured: a frame each.
    let exported = gb_session::movie::bk2::read(&std::fs::read(&bk).unwrap()).expect("bk2");
    let lag = exported.lag_log.expect("a lag log");
    assert_eq!(lag.len(), 600);
    assert!(
        lag.values().any(|l| *l),
        "the title screen's frames are lag frames"
    );
    let play = gbhost(&["movie", "play", &s(&rom), &s(&back)]);
    let t = text(&play);
    assert!(play.status.success() && t.contains("desync: none"), "{t}");
    let movie = Movie::open(&back).expect("open");
    let (input, _) = movie.frame_inputs().expect("input");
    let input: Vec<Pads> = input.iter().map(FrameInput::pads).collect();
    assert_eq!(&input[..], ed.roll().frames());
    let markers =
        editor_file::decode_markers(movie.header.metadata.get("markers").expect("markers kept"));
    assert_eq!(markers.get(&300).map(|m| m.text.as_str()), Some("jump"));
    assert!(
        markers
            .get(&500)
            .is_some_and(|m| m.pinned || m.text == "landing")
    );
}
