//! [`LoadedGame`]: the running ROM as the thread keeps it — where it came from, its patched
//! image, what the status bar says of its files, its battery save and the ROM's symbols —
//! and [`Settings`], how every ROM opened powers on and is shown.

use std::time::Instant;

use super::types::RomSource;
use super::view::GameView;
use crate::game::battery::Battery;

/// The running ROM and its files.
pub(crate) struct LoadedGame {
    /// Where the ROM came from.
    pub(crate) rom: RomSource,
    /// The image running, its patches applied.
    pub(crate) bytes: Vec<u8>,
    /// The second player's image, when two Game Boys are linked.
    pub(crate) second: Option<Vec<u8>>,
    /// What the status bar says about the ROM's files (patches, saves folder).
    pub(crate) notes: Vec<String>,
    /// The title shown.
    pub(crate) title: String,
    /// The battery save, for a cartridge with one.
    pub(crate) battery: Option<Battery>,
    /// A linked pair's second player's battery save, for a cartridge with one.
    pub(crate) second_battery: Option<Battery>,
    /// When the battery save was last written.
    pub(crate) battery_at: Instant,
    /// The ROM's symbols (its `.sym` file), for the debugger.
    pub(crate) symbols: Option<gb_session::symbols::Symbols>,
}

impl Default for LoadedGame {
    fn default() -> LoadedGame {
        LoadedGame {
            rom: RomSource::Demo,
            bytes: Vec::new(),
            second: None,
            notes: Vec::new(),
            title: String::new(),
            battery: None,
            second_battery: None,
            battery_at: Instant::now(),
            symbols: None,
        }
    }
}

/// How the machine powers on and how its colours are shown (every ROM opened, every reset).
pub(crate) struct Settings {
    /// How the machine powers on.
    pub(crate) power: crate::game::rom::PowerArgs,
    /// How CGB colours are shown.
    pub(crate) correction: gb_core::ColorCorrection,
    /// The rewind ring's size.
    pub(crate) ring_bytes: usize,
    /// The second player's game on the link cable, if one is linked.
    pub(crate) link: Option<RomSource>,
}

impl LoadedGame {
    /// The images a session of this game runs: the ROM, and the second player's if linked.
    pub(crate) fn roms(&self) -> gb_session::Roms {
        gb_session::Roms {
            first: self.bytes.clone(),
            second: self.second.clone(),
        }
    }

    /// What the window shows of the game and the settings it runs with.
    pub(crate) fn view(&self, settings: &Settings) -> GameView {
        GameView {
            title: self.title.clone(),
            notes: self.notes.clone(),
            model_choice: settings.power.model.unwrap_or_default(),
            correction: settings.correction,
            dmg_palette: settings.power.dmg_palette,
            force: settings.power.force,
        }
    }

    /// Write each player's battery save if its cartridge has one and its RAM changed: what
    /// to say about it (where the saves went, or why they could not be written), if anything.
    pub(crate) fn save_battery(&mut self, machine: &gb_session::Machine) -> Option<String> {
        let mut said = Vec::new();
        let batteries = [&mut self.battery, &mut self.second_battery];
        for (p, battery) in batteries.into_iter().enumerate() {
            let (Some(b), Some(gb)) = (battery.as_mut(), machine.player(p)) else {
                continue;
            };
            let whose = if p == 0 { "" } else { "player 2's " };
            match b.save(gb) {
                Ok(None) => {}
                Ok(Some(note)) => {
                    // Where the user's saves went matters outside the window too.
                    eprintln!("gbhost: {whose}{note}");
                    said.push(format!("{whose}{note}"));
                }
                Err(e) => said.push(format!("{whose}battery save: {e:#}")),
            }
        }
        self.battery_at = Instant::now();
        (!said.is_empty()).then(|| said.join("; "))
    }

    /// Stop writing battery saves (a movie's or the editor's cartridge RAM is not the
    /// player's).
    pub(crate) fn stop_batteries(&mut self) {
        self.battery = None;
        self.second_battery = None;
    }
}
