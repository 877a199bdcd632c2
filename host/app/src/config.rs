//! The user's settings: key bindings, screen scale and recent files, in
//! `$XDG_CONFIG_HOME/gbhost/config.toml` (else `~/.config/gbhost/config.toml`; `GBHOST_CONFIG`
//! names another file). Missing keys take their defaults; a file that does not parse is
//! reported and left alone (defaults are used). `saves_dir` sends every battery save to one
//! folder (see `saves.rs`).
//!
//! Default keys follow mGBA: arrows, X = A, Z = B, Enter = Start, Backspace = Select,
//! Backtick (hold) = rewind (Shift: faster), Tab (hold) = fast-forward, P = pause,
//! N = frame advance. A linked pair's second player: W A S D, G = A, F = B, T = Start,
//! R = Select (`keys2`).

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Key names as egui spells them (`egui::Key::from_name`: "ArrowUp", "X", "Enter", "`"…).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Keys {
    /// D-pad up.
    pub up: String,
    /// D-pad down.
    pub down: String,
    /// D-pad left.
    pub left: String,
    /// D-pad right.
    pub right: String,
    /// A.
    pub a: String,
    /// B.
    pub b: String,
    /// Start.
    pub start: String,
    /// Select.
    pub select: String,
    /// Hold to rewind.
    pub rewind: String,
    /// Hold to fast-forward.
    pub fast_forward: String,
    /// Pause / resume.
    pub pause: String,
    /// One frame forward.
    pub frame_advance: String,
}

impl Default for Keys {
    fn default() -> Keys {
        Keys {
            up: "ArrowUp".into(),
            down: "ArrowDown".into(),
            left: "ArrowLeft".into(),
            right: "ArrowRight".into(),
            a: "X".into(),
            b: "Z".into(),
            start: "Enter".into(),
            select: "Backspace".into(),
            rewind: "`".into(),
            fast_forward: "Tab".into(),
            pause: "P".into(),
            frame_advance: "N".into(),
        }
    }
}

/// The second player's joypad keys (a linked pair), egui's key names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PadKeys {
    /// D-pad up.
    pub up: String,
    /// D-pad down.
    pub down: String,
    /// D-pad left.
    pub left: String,
    /// D-pad right.
    pub right: String,
    /// A.
    pub a: String,
    /// B.
    pub b: String,
    /// Start.
    pub start: String,
    /// Select.
    pub select: String,
}

impl Default for PadKeys {
    fn default() -> PadKeys {
        PadKeys {
            up: "W".into(),
            down: "S".into(),
            left: "A".into(),
            right: "D".into(),
            a: "G".into(),
            b: "F".into(),
            start: "T".into(),
            select: "R".into(),
        }
    }
}

/// Everything in the config file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// Key bindings.
    pub keys: Keys,
    /// The second player's joypad keys, for two linked Game Boys.
    pub keys2: PadKeys,
    /// Screen scale (0: the largest integer factor that fits).
    pub scale: u32,
    /// Where a linked pair's second screen stands: `auto` (beside the first or below it,
    /// whichever shows them bigger in the window), `side-by-side` or `stacked`.
    pub link_layout: String,
    /// Which player each gamepad plays on a linked pair, by the pad's name (1 or 2); a pad
    /// not named here plays player 1 when it is the first connected, else player 2.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub gamepad_players: std::collections::BTreeMap<String, u8>,
    /// Recently opened ROMs, newest first.
    pub recent_roms: Vec<PathBuf>,
    /// Recently loaded scripts, newest first.
    pub recent_scripts: Vec<PathBuf>,
    /// The model ROMs run on unless `--model` says otherwise: `auto`, `dmg` or `cgb`.
    pub model: String,
    /// How the window shows the Game Boy Color's colours: `off` (as the game set them) or
    /// `lcd` (a curve that looks like a real GBC screen).
    pub color_correction: String,
    /// The palette DMG games get on the Game Boy Color: `auto` or a button combination
    /// (`right+a`, …).
    pub dmg_palette: String,
    /// The folder every battery save goes to (none: beside the ROM, or the data folder's
    /// `saves/` when the ROM's folder is not writable).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub saves_dir: Option<PathBuf>,
}

/// Where a linked pair's second screen stands (see [`Config::link_layout`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LinkLayout {
    /// Whichever of the two shows the screens bigger in the window.
    #[default]
    Auto,
    /// Player 2's screen to the right of player 1's.
    SideBySide,
    /// Player 2's screen below player 1's.
    Stacked,
}

impl LinkLayout {
    /// Its name in the config file.
    pub fn name(self) -> &'static str {
        match self {
            LinkLayout::Auto => "auto",
            LinkLayout::SideBySide => "side-by-side",
            LinkLayout::Stacked => "stacked",
        }
    }
}

impl Config {
    /// The configured layout of a linked pair's screens (`auto` for none or an unknown one).
    pub fn link_layout(&self) -> LinkLayout {
        match self.link_layout.as_str() {
            "side-by-side" => LinkLayout::SideBySide,
            "stacked" => LinkLayout::Stacked,
            _ => LinkLayout::Auto,
        }
    }

    /// The configured model (`auto` when the file names none or an unknown one).
    pub fn model(&self) -> gb_core::ModelChoice {
        gb_core::ModelChoice::parse(&self.model).unwrap_or_default()
    }

    /// The configured DMG-game palette on the CGB (`auto` when the file names none).
    pub fn dmg_palette(&self) -> gb_core::DmgPalette {
        gb_core::DmgPalette::parse(&self.dmg_palette).unwrap_or_default()
    }

    /// The configured colour correction (`off` unless the file says `lcd`).
    pub fn color_correction(&self) -> gb_core::ColorCorrection {
        match self.color_correction.as_str() {
            "lcd" => gb_core::ColorCorrection::Lcd,
            _ => gb_core::ColorCorrection::Off,
        }
    }
}

/// Recent lists keep this many entries.
const RECENT: usize = 10;

/// `name` in the user's data folder: `$XDG_DATA_HOME/gbhost/name`, else
/// `~/.local/share/gbhost/name`; `env`, when set, names it instead.
pub fn data_dir(env: &str, name: &str) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(env) {
        return Some(PathBuf::from(p));
    }
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local").join("share"))
        })?;
    Some(base.join("gbhost").join(name))
}

/// Where the config file lives.
pub fn path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("GBHOST_CONFIG") {
        return Some(PathBuf::from(p));
    }
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("gbhost").join("config.toml"))
}

impl Config {
    /// Read the config (defaults when there is none); the string is a problem to report.
    pub fn load() -> (Config, Option<String>) {
        let Some(p) = path() else {
            return (Config::default(), None);
        };
        match std::fs::read_to_string(&p) {
            Ok(text) => match toml::from_str(&text) {
                Ok(c) => (c, None),
                Err(e) => (
                    Config::default(),
                    Some(format!(
                        "config '{}' is not valid ({}); using defaults",
                        p.display(),
                        e.message()
                    )),
                ),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Config::default(), None),
            Err(e) => (
                Config::default(),
                Some(format!("cannot read config '{}': {e}", p.display())),
            ),
        }
    }

    /// Write the config (atomically).
    pub fn save(&self) -> anyhow::Result<()> {
        let Some(p) = path() else { return Ok(()) };
        if let Some(dir) = p.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let text = toml::to_string_pretty(self)?;
        gb_session::files::write_atomic(&p, text.as_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write '{}': {e}", p.display()))
    }

    /// Put `p` first in a recent list.
    pub fn push_recent(list: &mut Vec<PathBuf>, p: PathBuf) {
        list.retain(|x| *x != p);
        list.insert(0, p);
        list.truncate(RECENT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_round_trip_and_partial_files_fill_in() {
        let c = Config::default();
        let text = toml::to_string_pretty(&c).unwrap();
        assert_eq!(toml::from_str::<Config>(&text).unwrap(), c);
        let partial: Config = toml::from_str("[keys]\na = \"K\"\n").unwrap();
        assert_eq!(partial.keys.a, "K");
        assert_eq!(partial.keys.b, "Z");
        for name in [&c.keys.up, &c.keys.a, &c.keys.rewind, &c.keys.fast_forward] {
            assert!(eframe::egui::Key::from_name(name).is_some(), "{name}");
        }
    }
}
