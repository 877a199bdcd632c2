//! `--patch FILE` through the real binary: patches apply in the order given and replace the
//! automatic one beside the ROM; a bad patch is an error naming it, with nothing written; a
//! state saved on a patched ROM belongs to the patched ROM only.

use crate::common::{gbhost, text, tmp_dir};
use std::path::Path;

fn rom() -> Vec<u8> {
    gb_core::asm::rom("main: halt\n nop\n jr main").expect("assemble")
}

/// An IPS patch writing `bytes` at `offset`.
fn ips(offset: u32, bytes: &[u8]) -> Vec<u8> {
    let mut p = b"PATCH".to_vec();
    p.extend_from_slice(&offset.to_be_bytes()[1..]);
    p.extend_from_slice(&(bytes.len() as u16).to_be_bytes());
    p.extend_from_slice(bytes);
    p.extend_from_slice(b"EOF");
    p
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn patches_apply_in_order_and_replace_the_one_beside_the_rom() {
    let d = tmp_dir("patch-flag-order");
    let game = d.join("game.gb");
    std::fs::write(&game, rom()).unwrap();
    std::fs::write(d.join("game.ips"), ips(0x134, b"A")).unwrap();
    std::fs::write(d.join("one.ips"), ips(0x134, b"BB")).unwrap();
    std::fs::write(d.join("two.ips"), ips(0x135, b"C")).unwrap();
    let peek = |extra: &[&str]| {
        let g = s(&game);
        let mut args = vec!["headless", &*g, "--frames", "1"];
        args.extend_from_slice(&["--peek", "0134", "--peek", "0135"]);
        args.extend_from_slice(extra);
        let out = gbhost(&args);
        assert!(out.status.success(), "{}", text(&out));
        text(&out)
    };
    let auto = peek(&[]);
    assert!(auto.contains("peek 0134=41"), "the automatic patch: {auto}");
    let (one, two) = (s(&d.join("one.ips")), s(&d.join("two.ips")));
    let both = peek(&["--patch", &one, "--patch", &two]);
    assert!(
        both.contains("peek 0134=42") && both.contains("peek 0135=43"),
        "one, then two over it: {both}"
    );
    assert!(both.contains("--patch replaces it"), "{both}");
}

#[test]
fn a_bad_patch_is_refused_by_name_and_nothing_is_written() {
    let d = tmp_dir("patch-flag-bad");
    let game = d.join("game.gb");
    std::fs::write(&game, rom()).unwrap();
    std::fs::write(d.join("junk.bps"), b"BPS1 but not really").unwrap();
    let state = d.join("out.gbs");
    let _ = std::fs::remove_file(&state);
    let out = gbhost(&[
        "state",
        "save",
        &s(&game),
        "--frames",
        "1",
        "--out",
        &s(&state),
        "--patch",
        &s(&d.join("junk.bps")),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("junk.bps") && text(&out).contains("damaged"),
        "{}",
        text(&out)
    );
    assert!(!state.exists(), "nothing written");
}

#[test]
fn a_state_of_the_patched_rom_needs_the_patch() {
    let d = tmp_dir("patch-flag-state");
    let game = d.join("game.gb");
    std::fs::write(&game, rom()).unwrap();
    let patch = d.join("hack.ips");
    std::fs::write(&patch, ips(0x134, b"HACK")).unwrap();
    let state = d.join("hack.gbs");
    let _ = std::fs::remove_file(&state);
    let out = gbhost(&[
        "state",
        "save",
        &s(&game),
        "--frames",
        "5",
        "--out",
        &s(&state),
        "--patch",
        &s(&patch),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let load = |extra: &[&str]| {
        let g = s(&game);
        let st = s(&state);
        let mut args = vec!["headless", &g, "--frames", "1", "--from-state", &st];
        args.extend_from_slice(extra);
        gbhost(&args)
    };
    let plain = load(&[]);
    assert!(!plain.status.success(), "the unpatched ROM refuses it");
    let p = s(&patch);
    let patched = load(&["--patch", &p]);
    assert!(patched.status.success(), "{}", text(&patched));
    assert!(text(&patched).contains("frames: 6"), "{}", text(&patched));
}

/// A movie recorded on a patched ROM (with its authors and description) plays only with the
/// patch.
#[test]
fn a_movie_of_the_patched_rom_needs_the_patch() {
    let d = tmp_dir("patch-flag-movie");
    let game = d.join("game.gb");
    std::fs::write(&game, rom()).unwrap();
    let patch = d.join("hack.ips");
    std::fs::write(&patch, ips(0x134, b"HACK")).unwrap();
    let movie = d.join("hack.gbm");
    let (g, p, m) = (s(&game), s(&patch), s(&movie));
    let out = gbhost(&[
        "movie",
        "record",
        &g,
        "--patch",
        &p,
        "--out",
        &m,
        "--frames",
        "60",
        "--overwrite",
        "--author",
        "Ann",
        "--description",
        "a patched run",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let info = gbhost(&["movie", "info", &m]);
    assert!(text(&info).contains("authors: Ann"), "{}", text(&info));
    assert!(
        text(&info).contains("meta description: a patched run"),
        "{}",
        text(&info)
    );
    let plain = gbhost(&["movie", "play", &g, &m]);
    assert!(!plain.status.success(), "the unpatched ROM refuses it");
    let patched = gbhost(&["movie", "play", &g, &m, "--patch", &p]);
    assert!(patched.status.success(), "{}", text(&patched));
    assert!(
        text(&patched).contains("desync: none"),
        "{}",
        text(&patched)
    );
}

#[test]
fn patch_without_a_rom_is_refused() {
    let out = gbhost(&["run", "--no-window", "--patch", "x.ips"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("--patch needs a ROM"), "{}", text(&out));
}
