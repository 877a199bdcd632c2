//! The built-in demo cartridge: `examples/demo.asm`, assembled by the project's own assembler
//! (`gb_core::asm::RomBuilder`) when `gbhost` starts with no ROM. Its overlay script is
//! `examples/demo_overlay.lua` ([`OVERLAY`]).

use anyhow::{Context, Result};
use gb_core::asm::RomBuilder;

/// The demo's assembly source.
pub const SOURCE: &str = include_str!("../../../../examples/demo.asm");

/// Where the demo's overlay is, relative to the repository's root.
pub const OVERLAY_PATH: &str = "examples/demo_overlay.lua";

/// The scripts the demo runs: its overlay.
pub const OVERLAY: (&str, &str) = (
    "demo_overlay.lua",
    include_str!("../../../../examples/demo_overlay.lua"),
);

/// The demo cartridge image.
pub fn rom() -> Result<Vec<u8>> {
    RomBuilder::new()
        .title("GBHOST DEMO")
        .program(SOURCE)
        .build()
        .context("the built-in demo cartridge does not assemble")
}

#[cfg(test)]
mod tests {
    use gb_session::{Session, SessionConfig};

    #[test]
    fn demo_runs_and_the_ball_moves() {
        let rom = super::rom().unwrap();
        let mut s = Session::new(
            rom,
            None,
            SessionConfig {
                ring_bytes: 4 << 20,
                ..SessionConfig::default()
            },
        )
        .unwrap();
        let (name, source) = super::OVERLAY;
        s.load_script(name, source);
        for _ in 0..10 {
            s.run_frame();
        }
        let x0 = s.gb().peek(0xC000);
        for _ in 0..10 {
            s.run_frame();
        }
        let x1 = s.gb().peek(0xC000);
        assert_ne!(x0, x1, "the ball moves");
        let texts: usize = s.draw_lists().map(|(_, l)| l.len()).sum();
        assert!(texts > 2, "the overlay draws");
        assert!(s.picture().shades().any(|p| p == 3), "the ball is drawn");
        assert!(s.take_console().is_empty());
    }
}
