//! The games table of `docs/conformance.md`: what users reported of real games where gbhost's
//! picture differs from other emulators', and the answer (fixed, right as it is with the
//! hardware source, or still open with what is known). Written by hand: these are findings,
//! not trials.

/// One report: the game, what was reported, the answer.
pub struct Game {
    /// The game, and its model.
    pub game: &'static str,
    /// What differs.
    pub report: &'static str,
    /// Fixed, right (and why), or open (and what is known).
    pub answer: &'static str,
}

/// The reports, in the order they came (issue 31 first).
pub const GAMES: &[Game] = &[
    Game {
        game: "every game that switches the LCD on mid-frame (the 144p Test Suite: 5 blank frames per screen change, mGBA 3)",
        report: "the frame running at the switch-on ends 70,224 dots after the previous one, then a short one ends at the first VBlank: frame-numbered input lands 1-2 frames late against mGBA and binjgb",
        answer: "right as BizHawk counts frames: frames are now defined as BizHawk's Gambatte core ends them (`FrameRule::BizHawk`, docs/timing.md \"Frames\", from BizHawk's `Gambatte.cs` and libgambatte's blit event), and BizHawk's default also ends that short frame (its frame is one `runfor` of 35,112 samples, cut short by a VBlank). What changed: while the LCD is off, frames now end where Gambatte's blank frames end (4 lines and whole frames after the switch-off), and a switch-on within 4 lines of a switch-off skips the first VBlank. mGBA and binjgb count frames otherwise; compare them by VBlank",
    },
    Game {
        game: "Headache Boy, Vcaldan (CGB)",
        report: "objects black where mGBA and binjgb show them white; the games never write OCPD",
        answer: "right now, from the hardware: the CGB boot ROM leaves object colour RAM uninitialised in CGB mode but for its first byte (Pan Docs \"LCD Color Palettes\"; Gambatte's power-on state is a CGB's dump, varied bytes). gbhost powers it on as noise from the RAM seed (it was black); white, as the peers have it, is no console's either",
    },
    Game {
        game: "gb-rem (CGB, homebrew-open)",
        report: "1,386 pixels light grey where both peers draw black",
        answer: "fixed (the palette writes were a red herring: mGBA's colour RAM holds the same $6318 after them). The letters' tile attributes differ: the game marks each of its 16 save slots used (palette 2, black) or empty (palette 1, grey) by reading the slot's first byte of cartridge RAM, $00 meaning empty. gbhost powered cartridge RAM on as $00; Gambatte (BizHawk's core), SameBoy and mGBA start it as $FF, and a new cartridge's SRAM holds garbage (Pan Docs \"Power Up Sequence\"), so slots read used there too. Cartridge RAM without a save now reads $FF (`cartridge::fresh_ram_byte`); gb-rem then matches mGBA exactly at frame 600",
    },
    Game {
        game: "Monkey Cowboys Extreme (DMG)",
        report: "torn, shifted scanlines across rows 4-34 of its star screen",
        answer: "open: the ROM is not among the shared ROMs here, not reproduced",
    },
    Game {
        game: "Pak-Man (CGB-flagged, MBC1)",
        report: "alternates blank and maze, blank at frame 3,600 with input; waits with SC = $FC (a transfer on the external clock) and IE = $09",
        answer: "open: the ROM is not among the shared ROMs here. On hardware a transfer on the external clock with nothing connected never ends (Pan Docs \"Serial Data Transfer\", \"Timeouts\": \"if there is no second Game Boy connected at all then transfer will never complete\"): no serial interrupt comes, as here",
    },
    Game {
        game: "Little Short Demo (CGB)",
        report: "ends on solid blue where the others end black",
        answer: "open: the ROM is not among the shared ROMs here, not reproduced",
    },
];

/// The table as Markdown.
pub fn table() -> String {
    let mut md = String::from(
        "## Games\n\nReports of real games whose picture differs from other emulators', and \
         the answers (`host/core/tests/conformance/games.rs`).\n\n| game | report | answer \
         |\n|---|---|---|\n",
    );
    for g in GAMES {
        let cell = |s: &str| s.replace('|', "\\|");
        md.push_str(&format!(
            "| {} | {} | {} |\n",
            cell(g.game),
            cell(g.report),
            cell(g.answer)
        ));
    }
    md.push('\n');
    md
}
