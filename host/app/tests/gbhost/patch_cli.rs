//! ROM patches through the real binary: `gbhost patch create` and `apply` round-trip a hacked
//! ROM, a patch beside a ROM is applied when it runs (and said on stderr), and a patch for
//! another ROM is refused with a clear message, nothing written.

use crate::common::{gbhost, text, tmp_dir};

fn rom(title: &str) -> Vec<u8> {
    let mut rom = gb_core::asm::rom("main: halt\n nop\n jr main").expect("assemble");
    rom[0x134..0x134 + title.len()].copy_from_slice(title.as_bytes());
    rom
}

#[test]
fn patches_are_created_applied_and_found_beside_the_rom() {
    let d = tmp_dir("patch-cli");
    let (orig, hack) = (d.join("game.gb"), d.join("hack.gb"));
    std::fs::write(&orig, rom("ORIGINAL")).unwrap();
    // The hack: another title (the header checksum is only warned about).
    std::fs::write(&hack, rom("HACKED")).unwrap();
    let bps = d.join("hack.bps");
    let s = |p: &std::path::Path| p.display().to_string();
    let out = gbhost(&["patch", "create", &s(&orig), &s(&hack), &s(&bps)]);
    assert!(out.status.success(), "{}", text(&out));
    let back = d.join("back.gb");
    let out = gbhost(&["patch", "apply", &s(&orig), &s(&bps), &s(&back)]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&hack).unwrap());
    // For another ROM: refused by its CRC32, nothing written.
    let wrong = d.join("wrong.gb");
    let out = gbhost(&["patch", "apply", &s(&hack), &s(&bps), &s(&wrong)]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("source ROM does not match"),
        "{}",
        text(&out)
    );
    assert!(!wrong.exists());
    // Beside the ROM: applied when it runs.
    let beside = d.join("run");
    std::fs::create_dir_all(&beside).unwrap();
    std::fs::copy(&orig, beside.join("game.gb")).unwrap();
    std::fs::copy(&bps, beside.join("game.bps")).unwrap();
    let out = gbhost(&[
        "headless",
        &s(&beside.join("game.gb")),
        "--frames",
        "1",
        "--peek",
        "0134",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("applied the patch"), "{}", text(&out));
    assert!(
        text(&out).contains("peek 0134=48"),
        "the hack's title ('H'): {}",
        text(&out)
    );
}
