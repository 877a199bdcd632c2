//! [`Bk2`] and [`Bk2Frame`]: a `.bk2` movie as data, and what its header and sync settings say
//! (the model, the boot ROM), with the constructors export uses.

use gb_core::Buttons;

use super::boot;
use super::error::Bk2Error;
use super::notes::{LagLog, Marker, Subtitle};
use super::sync::{ConsoleMode, GambatteSync};

/// Gambatte's `ClockRate`: its cycle counter ticks at 2 MiHz (half the Game Boy's 4,194,304
/// Hz T-cycle clock; `Gambatte.cs` `TICKSPERSECOND`), whatever the CPU speed.
pub const CLOCK_RATE: u64 = 2_097_152;

/// A `.bk2` movie of a Game Boy game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bk2 {
    /// Header.txt key/value pairs in file order.
    pub header: Vec<(String, String)>,
    /// SyncSettings.json as text (kept verbatim on import; [`Bk2::gambatte`] makes explicit
    /// ones, [`GambatteSync`] reads the fields that decide how the movie starts).
    ///
    /// Import drops only a byte-order mark and trailing whitespace. Export writes
    /// [`MINIMAL_SYNC_SETTINGS`](super::sync::MINIMAL_SYNC_SETTINGS) when this is blank, and joins the lines of a multi-line text
    /// with spaces (BizHawk reads only one line).
    pub sync_settings: String,
    /// One entry per frame of the input log.
    pub frames: Vec<Bk2Frame>,
    /// `Comments.txt`: one comment a line.
    pub comments: Vec<String>,
    /// `Subtitles.txt`, sorted by frame.
    pub subtitles: Vec<Subtitle>,
    /// `Markers.txt` (TAStudio's; BizHawk ignores it in a `.bk2`), sorted by frame.
    pub markers: Vec<Marker>,
    /// `LagLog` (TAStudio's), if the archive has one.
    pub lag_log: Option<LagLog>,
}

/// The input of one frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bk2Frame {
    /// The joypad buttons held during the frame (player 1's in a linked pair's movie).
    pub buttons: Buttons,
    /// BizHawk's `Power` button: the console is hard-reset at the start of this frame.
    pub power: bool,
    /// A linked pair's second player's buttons (`P2 …`; none in a one-Game-Boy movie).
    pub second: Buttons,
    /// A linked pair's second player's `Power`.
    pub second_power: bool,
    /// GambatteLink's `Toggle Link Connection` is held. Its press (held now and not in the
    /// frame before) plugs the cable in or pulls it out at the start of this frame
    /// (`GambatteLink.IEmulator.cs` `FrameAdvance`); the cable starts plugged in.
    pub toggle_link: bool,
}

impl Bk2Frame {
    /// Player 1's input alone (a one-Game-Boy movie's frame).
    pub fn one(buttons: Buttons, power: bool) -> Bk2Frame {
        Bk2Frame {
            buttons,
            power,
            ..Bk2Frame::default()
        }
    }

    /// Whether it holds anything only a linked pair has: player 2's input or the cable's
    /// toggle.
    pub fn is_linked_input(&self) -> bool {
        self.second != Buttons::default() || self.second_power || self.toggle_link
    }
}

impl Bk2 {
    /// A movie for BizHawk's Gambatte core, with the header BizHawk itself starts from:
    /// `MovieVersion`, `Platform GB`, `GameName`, `SHA1` (the ROM's, in hex), `Core Gambatte`,
    /// `rerecordCount 0`, and `IsCGBMode 1` on the CGB; and explicit sync settings
    /// ([`GambatteSync::to_json`]) that pin the console to `model` (`ConsoleMode` 1 GB, 2 GBC)
    /// without the boot ROM ([`Bk2::with_boot_rom`] adds it). Add keys to [`Bk2::header`] as
    /// needed (`Author`, …).
    pub fn gambatte(
        game_name: &str,
        sha1_hex: &str,
        model: gb_core::Model,
        frames: Vec<Bk2Frame>,
    ) -> Bk2 {
        let pair = |k: &str, v: &str| (k.to_string(), v.to_string());
        let mut header = vec![
            pair("MovieVersion", "BizHawk v2.0.0"),
            pair("Platform", "GB"),
            pair("GameName", game_name),
            pair("SHA1", &sha1_hex.to_ascii_uppercase()),
            pair("Core", "Gambatte"),
            pair("rerecordCount", "0"),
        ];
        let console_mode = match model {
            gb_core::Model::Dmg => ConsoleMode::Gb,
            gb_core::Model::Cgb => {
                header.push(pair("IsCGBMode", "1"));
                ConsoleMode::Gbc
            }
        };
        let sync = GambatteSync::new(console_mode, false);
        Bk2 {
            header,
            sync_settings: sync.to_json(),
            frames,
            comments: Vec::new(),
            subtitles: Vec::new(),
            markers: Vec::new(),
            lag_log: None,
        }
    }

    /// A movie for BizHawk's GambatteLink core (two linked Game Boys), with the header
    /// BizHawk starts from for it: `MovieVersion`, `Platform GBL`, `GameName`, `SHA1` (of
    /// the XML bundle BizHawk opens a pair from: [`link_sha1_hex`]), `Core GambatteLink`,
    /// `rerecordCount 0` (the link core writes no `IsCGBMode` and no `CycleCount`: it is
    /// neither a `Gameboy` nor cycle-timed), and explicit sync settings per player
    /// ([`GambatteSync::to_json_linked`]) pinning each console to its model, without the
    /// boot ROM.
    pub fn gambatte_link(
        game_name: &str,
        sha1_hex: &str,
        models: [gb_core::Model; 2],
        frames: Vec<Bk2Frame>,
    ) -> Bk2 {
        let pair = |k: &str, v: &str| (k.to_string(), v.to_string());
        let header = vec![
            pair("MovieVersion", "BizHawk v2.0.0"),
            pair("Platform", "GBL"),
            pair("GameName", game_name),
            pair("SHA1", &sha1_hex.to_ascii_uppercase()),
            pair("Core", "GambatteLink"),
            pair("rerecordCount", "0"),
        ];
        let sync = models.map(|m| {
            GambatteSync::new(
                match m {
                    gb_core::Model::Dmg => ConsoleMode::Gb,
                    gb_core::Model::Cgb => ConsoleMode::Gbc,
                },
                false,
            )
        });
        Bk2 {
            header,
            sync_settings: GambatteSync::to_json_linked(sync),
            frames,
            comments: Vec::new(),
            subtitles: Vec::new(),
            markers: Vec::new(),
            lag_log: None,
        }
    }

    /// Whether this is a linked pair's movie: `Platform GBL` (older BizHawk: `DGB`) or a
    /// link `Core` (`GambatteLink`, `DualGambatte`).
    pub fn is_linked(&self) -> bool {
        matches!(
            self.header_value("Platform").map(str::trim),
            Some("GBL" | "DGB")
        ) || is_link_core(self.header_value("Core"))
    }

    /// How many Game Boys the movie runs: 2 for a linked pair's, else 1.
    pub fn players(&self) -> usize {
        1 + usize::from(self.is_linked())
    }

    /// Each player's sync settings: a linked pair's from `_linkedSyncSettings`; a single
    /// Game Boy's as the only entry.
    pub fn syncs(&self) -> Result<Vec<GambatteSync>, Bk2Error> {
        if self.is_linked() {
            Ok(GambatteSync::parse_linked(&self.sync_settings)?.to_vec())
        } else {
            Ok(vec![GambatteSync::parse(&self.sync_settings)?])
        }
    }

    /// Each player's model as [`Bk2::console`] gives it (one entry, or two for a linked
    /// pair: from each side's `ConsoleMode`, as the link core writes no `IsCGBMode`).
    pub fn consoles(&self) -> Result<Vec<Option<gb_core::Model>>, Bk2Error> {
        if !self.is_linked() {
            return Ok(vec![self.console()?]);
        }
        self.syncs()?
            .iter()
            .map(|sync| match sync.console_mode {
                ConsoleMode::Gba => Err(Bk2Error::UnsupportedConsole("a GBC in a GBA")),
                ConsoleMode::Sgb2 => Err(Bk2Error::UnsupportedConsole("the Super Game Boy 2")),
                ConsoleMode::Gb => Ok(Some(gb_core::Model::Dmg)),
                ConsoleMode::Gbc => Ok(Some(gb_core::Model::Cgb)),
                ConsoleMode::Auto => Ok(None),
            })
            .collect()
    }

    /// The movie starting with the official boot ROM whose SHA-1 is `sha1_hex`: `EnableBIOS`
    /// true in the sync settings, and the firmware header BizHawk writes for the boot ROM it
    /// served (`GB_Firmware_World`, or `GBC_Firmware_World` when the settings pin the GBC).
    /// Sync settings that do not parse are replaced by explicit ones.
    pub fn with_boot_rom(mut self, sha1_hex: &str) -> Bk2 {
        if self.is_linked() {
            // Both Game Boys boot; BizHawk serves each the boot ROM of its console.
            let mut sync = GambatteSync::parse_linked(&self.sync_settings).unwrap_or_default();
            for side in &mut sync {
                side.enable_bios = true;
            }
            self.sync_settings = GambatteSync::to_json_linked(sync);
            let cgb = sync[0].console_mode == ConsoleMode::Gbc;
            self.set_header(boot::firmware_key(cgb), &sha1_hex.to_ascii_uppercase());
            return self;
        }
        let mut sync = GambatteSync::parse(&self.sync_settings).unwrap_or_default();
        sync.enable_bios = true;
        self.sync_settings = sync.to_json();
        let cgb = sync.console_mode == ConsoleMode::Gbc;
        self.set_header(boot::firmware_key(cgb), &sha1_hex.to_ascii_uppercase());
        self
    }

    /// The movie's length in Gambatte's clock: `CycleCount` `cycles` (ticks of
    /// [`CLOCK_RATE`]) and `ClockRate`, as BizHawk writes them once a movie has been played to
    /// its end (`Bk2Movie.IO.cs` `SetCycleValues`).
    pub fn with_cycles(mut self, cycles: u64) -> Bk2 {
        self.set_header("CycleCount", &cycles.to_string());
        self.set_header("ClockRate", &CLOCK_RATE.to_string());
        self
    }

    /// Name the CGB the way newer BizHawk does for `rom`: a game that runs in the CGB's DMG
    /// compatibility mode (its header byte `0x143` lacks bit 7, or has bits 7 and 2: Gambatte's
    /// `IsCGBDMGMode`) gets `IsCGBDMGMode 1` instead of `IsCGBMode 1`
    /// (`IGameboyCommon` in `PopulateWithDefaultHeaderValues`). Both read back as the CGB.
    pub fn name_cgb_mode_for(mut self, rom: &[u8]) -> Bk2 {
        let compat = rom.get(0x143).copied().unwrap_or(0);
        let dmg_mode = compat & 0x80 == 0 || compat & 0x84 == 0x84;
        if dmg_mode && let Some(entry) = self.header.iter_mut().find(|(k, _)| k == "IsCGBMode") {
            entry.0 = "IsCGBDMGMode".to_string();
        }
        self
    }

    /// Set (or add, at the end) a header entry.
    pub fn set_header(&mut self, key: &str, value: &str) {
        match self.header.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => *v = value.to_string(),
            None => self.header.push((key.to_string(), value.to_string())),
        }
    }

    /// The model the movie runs on in BizHawk: the CGB when its header says `IsCGBMode 1`,
    /// `IsCGBDMGMode 1` (a DMG game on the CGB, as newer BizHawk writes it) or
    /// `Platform GBC`, or its sync settings pin `ConsoleMode` 2 (GBC); the DMG when they pin 1
    /// (GB); else `None` (BizHawk chose from the ROM's header). Unreadable sync settings count
    /// as none here; [`Bk2::console`] reports them.
    pub fn model(&self) -> Option<gb_core::Model> {
        self.console().ok().flatten()
    }

    /// Like [`Bk2::model`], but an error for sync settings that do not parse and for the
    /// consoles gbhost does not emulate (`ConsoleMode` GBA or SGB2).
    pub fn console(&self) -> Result<Option<gb_core::Model>, Bk2Error> {
        if self.is_linked() {
            return Ok(self.consoles()?.first().copied().flatten());
        }
        let sync = GambatteSync::parse(&self.sync_settings)?;
        match sync.console_mode {
            ConsoleMode::Gba => return Err(Bk2Error::UnsupportedConsole("a GBC in a GBA")),
            ConsoleMode::Sgb2 => return Err(Bk2Error::UnsupportedConsole("the Super Game Boy 2")),
            _ => {}
        }
        let flag = |key| self.header_value(key).map(str::trim) == Some("1");
        if flag("IsCGBMode")
            || flag("IsCGBDMGMode")
            || self.header_value("Platform").map(str::trim) == Some("GBC")
        {
            return Ok(Some(gb_core::Model::Cgb));
        }
        Ok(match sync.console_mode {
            ConsoleMode::Gb => Some(gb_core::Model::Dmg),
            ConsoleMode::Gbc => Some(gb_core::Model::Cgb),
            _ => None,
        })
    }

    /// Whether the movie starts with the official boot ROM in BizHawk, and the SHA-1 BizHawk
    /// recorded for it: `Some(hash)` when a firmware header names one (BizHawk writes it for
    /// every boot ROM it served, also one it forced, see [`bios_forced`](super::boot::bios_forced)), `Some(None)` when
    /// only `EnableBIOS` says so, `None` when it starts from the post-boot state.
    pub fn boot_rom(&self) -> Result<Option<Option<String>>, Bk2Error> {
        if let Some(hash) = boot::FIRMWARE_KEYS
            .iter()
            .find_map(|k| self.header_value(k))
            .map(str::trim)
            .filter(|h| !h.is_empty())
        {
            return Ok(Some(Some(hash.to_ascii_uppercase())));
        }
        let bios = self.syncs()?.iter().any(|s| s.enable_bios);
        Ok(bios.then_some(None))
    }

    /// The value of the first header entry named `key` (case-sensitive, as in BizHawk).
    pub fn header_value(&self, key: &str) -> Option<&str> {
        self.header
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The `rerecordCount` header value, or 0 when it is missing or not a number.
    pub fn rerecords(&self) -> u64 {
        self.header_value("rerecordCount")
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0)
    }
}

/// The `SHA1` BizHawk writes for a linked pair: its `XmlGame` bundle's hash, the SHA-1 of the
/// ROMs' SHA-1 digests one after the other, in player order (`Client.Common/XmlGame.cs`).
pub fn link_sha1_hex(first: &[u8], second: &[u8]) -> String {
    let mut digests = Vec::with_capacity(40);
    digests.extend_from_slice(&sha1_smol::Sha1::from(first).digest().bytes());
    digests.extend_from_slice(&sha1_smol::Sha1::from(second).digest().bytes());
    sha1_smol::Sha1::from(&digests)
        .digest()
        .to_string()
        .to_ascii_uppercase()
}

/// Whether a header's `Core` is BizHawk's linked Game Boy core (`GambatteLink`; before
/// BizHawk 2.8 `DualGambatte`).
pub fn is_link_core(core: Option<&str>) -> bool {
    matches!(core.map(str::trim), Some("GambatteLink" | "DualGambatte"))
}
