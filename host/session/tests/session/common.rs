//! Shared by the session's integration tests: a small ROM built in code and helpers.

use gb_session::{DrawCmd, Session, SessionConfig};

/// A ROM that counts VBlanks at $C000 (VBlank interrupt) and mixes the action buttons into
/// $C001; "GBHOST TEST" in the header.
pub fn counter_rom() -> Vec<u8> {
    let mut rom = gb_core::asm::rom(
        r#"
            xor a               ; the counters start at 0 (work RAM powers up with junk)
            ld [$C000], a
            ld [$C001], a
            ld a, $01
            ldh [$FF], a        ; IE = VBlank
            ei
        main:
            halt
            nop
            jr main
            org $40
            push af
            ld a, [$C000]
            inc a
            ld [$C000], a
            ld a, $10
            ldh [$00], a        ; select the action buttons
            ldh a, [$00]
            ld b, a
            ld a, [$C001]
            xor b
            rlca
            ld [$C001], a
            pop af
            reti
        "#,
    )
    .expect("assemble");
    rom[0x134..0x134 + 11].copy_from_slice(b"GBHOST TEST");
    rom[0x14D] = rom[0x134..0x14D]
        .iter()
        .fold(0u8, |x, &b| x.wrapping_sub(b).wrapping_sub(1));
    rom
}

/// A session on the counter ROM with the desync check on.
pub fn session() -> Session {
    let config = SessionConfig {
        desync_check: true,
        ..SessionConfig::default()
    };
    Session::new(counter_rom(), None, config).expect("session")
}

/// The texts of every overlay.
pub fn texts(s: &Session) -> Vec<String> {
    s.draw_lists()
        .flat_map(|(_, d)| d.iter())
        .filter_map(|c| match c {
            DrawCmd::Text { text, .. } | DrawCmd::PixelText { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

/// Every console line since the last call.
pub fn console(s: &mut Session) -> Vec<String> {
    s.take_console().into_iter().map(|l| l.text).collect()
}
