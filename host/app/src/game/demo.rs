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

/// The link-cable demo's assembly source: two copies on a cable each move a square and show
/// the other's.
pub const LINK_SOURCE: &str = include_str!("../../../../examples/link_demo.asm");

/// The link-cable demo cartridge image.
pub fn link_rom() -> Result<Vec<u8>> {
    RomBuilder::new()
        .title("GBHOST LINK")
        .program(LINK_SOURCE)
        .build()
        .context("the built-in link demo does not assemble")
}

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
    use gb_core::Buttons;
    use gb_session::{PowerOn, Session, SessionConfig};

    #[test]
    fn two_link_demos_carry_each_others_square() {
        let rom = super::link_rom().unwrap();
        let mut s = Session::power_on_linked(
            (rom.clone(), PowerOn::default()),
            (rom, PowerOn::default()),
            SessionConfig {
                ring_bytes: 4 << 20,
                ..SessionConfig::default()
            },
        )
        .unwrap();
        let run = |s: &mut Session, n: u32| {
            for _ in 0..n {
                s.run_frame();
            }
        };
        run(&mut s, 10);
        // Player 1 leads; player 2 moves right, player 1 down.
        s.set_buttons(Buttons::START);
        run(&mut s, 2);
        s.set_buttons(Buttons::DOWN);
        s.set_player_buttons(1, Buttons::RIGHT);
        run(&mut s, 30);
        let p1 = s.machine().player(0).unwrap();
        let p2 = s.machine().player(1).unwrap();
        assert_eq!(p1.peek(0xC004), 1, "player 1 leads");
        assert_eq!(p2.peek(0xC004), 0, "player 2 waits");
        assert!(p1.peek(0xC001) > 100, "player 1 moved down");
        assert!(p2.peek(0xC000) > 100, "player 2 moved right");
        // Each has the other's square from this frame or the one before.
        assert!(
            p1.peek(0xC002).abs_diff(p2.peek(0xC000)) <= 1,
            "player 1 sees player 2's x"
        );
        assert!(
            p2.peek(0xC003).abs_diff(p1.peek(0xC001)) <= 1,
            "player 2 sees player 1's y"
        );
        assert!(p2.peek(0xC007) > 20, "exchanges every frame");
        // Rewinding brings both back, player 2's buttons with them.
        let shot = s.machine().image();
        run(&mut s, 5);
        s.seek(s.frame() - 5).unwrap();
        assert!(
            s.machine().image() == shot,
            "the pair's image after a seek back"
        );
        // Pulling the cable stops the exchanges.
        s.set_cable(false);
        run(&mut s, 1);
        let n = s.machine().player(1).unwrap().peek(0xC007);
        run(&mut s, 10);
        assert_eq!(
            s.machine().player(1).unwrap().peek(0xC007),
            n,
            "no exchange unplugged"
        );
        assert_eq!(s.machine().pair().unwrap().inexact(), Default::default());
        // A movie of the pair names both players.
        let dir = std::env::temp_dir().join(format!("gbhost-link-movie-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("pair.gbm");
        let rec =
            gb_session::movie::Recorder::create(&path, &mut s, Vec::new(), Default::default())
                .expect("a pair records");
        rec.finish().unwrap();
        let movie = gb_session::movie::Movie::open(&path).unwrap();
        assert_eq!(movie.players(), 2);
        std::fs::remove_dir_all(&dir).ok();
    }

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
