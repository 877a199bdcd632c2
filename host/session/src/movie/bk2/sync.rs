//! Gambatte's sync settings (`SyncSettings.json`): the two that decide how a movie starts
//! (`ConsoleMode`, `EnableBIOS`), read from any movie, and the explicit settings an export
//! writes.
//!
//! BizHawk stores the core's `GambatteSyncSettings` (`Emulation.Cores/Consoles/Nintendo/Gameboy/
//! Gambatte.ISettable.cs`) as `{"o":{"$type":…,field:value,…}}`, enums as their numbers
//! (Newtonsoft's default). A field that is missing keeps its `[DefaultValue]` (the constructor
//! runs `SettingsUtil.SetDefaultValues` before the JSON is applied) and unknown fields are
//! ignored, so an export can name every field of every BizHawk version it targets.

use super::error::Bk2Error;

/// The `$type` of BizHawk's Gambatte sync settings.
pub const GAMBATTE_SYNC_TYPE: &str = "BizHawk.Emulation.Cores.Nintendo.Gameboy.Gameboy+GambatteSyncSettings, BizHawk.Emulation.Cores";

/// The `$type` of BizHawk's GambatteLink sync settings (newer BizHawk writes none and
/// ignores it).
pub const GAMBATTE_LINK_SYNC_TYPE: &str = "BizHawk.Emulation.Cores.Nintendo.Gameboy.GambatteLink+GambatteLinkSyncSettings, BizHawk.Emulation.Cores";

/// The object under `o` in `SyncSettings.json`, or `None` for blank text or `{"o":null}`.
fn settings_object(text: &str) -> Result<Option<serde_json::Value>, Bk2Error> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    let bad = |why: String| Bk2Error::BadSyncSettings(why);
    let mut json: serde_json::Value =
        serde_json::from_str(text).map_err(|e| bad(format!("not JSON: {e}")))?;
    match json.get_mut("o").map(serde_json::Value::take) {
        Some(serde_json::Value::Null) => Ok(None),
        Some(o @ serde_json::Value::Object(_)) => Ok(Some(o)),
        _ => Err(bad("no `o` object".into())),
    }
}

/// The sync settings [`write()`](super::write()) stores when [`Bk2::sync_settings`](super::Bk2::sync_settings) is blank: "no settings", so
/// BizHawk's core plays with its own defaults (rather than the user's current settings).
pub const MINIMAL_SYNC_SETTINGS: &str = r#"{"o":null}"#;

/// Gambatte's `ConsoleModeType`: which console the core emulates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ConsoleMode {
    /// 0: from the ROM (the GBC for colour cartridges, through the game's `Platform`).
    #[default]
    Auto,
    /// 1: the original Game Boy.
    Gb,
    /// 2: the Game Boy Color.
    Gbc,
    /// 3: a Game Boy Color inside a Game Boy Advance (gbhost does not emulate it).
    Gba,
    /// 4: the Super Game Boy 2 (gbhost does not emulate it).
    Sgb2,
}

impl ConsoleMode {
    /// The number BizHawk writes.
    pub fn number(self) -> u8 {
        match self {
            ConsoleMode::Auto => 0,
            ConsoleMode::Gb => 1,
            ConsoleMode::Gbc => 2,
            ConsoleMode::Gba => 3,
            ConsoleMode::Sgb2 => 4,
        }
    }

    /// The mode of a JSON value: its number, or its name (a string-enum serializer).
    fn from_json(value: &serde_json::Value) -> Option<ConsoleMode> {
        let by_number = |n: u64| match n {
            0 => Some(ConsoleMode::Auto),
            1 => Some(ConsoleMode::Gb),
            2 => Some(ConsoleMode::Gbc),
            3 => Some(ConsoleMode::Gba),
            4 => Some(ConsoleMode::Sgb2),
            _ => None,
        };
        match value {
            serde_json::Value::Number(n) => n.as_u64().and_then(by_number),
            serde_json::Value::String(s) => match s.as_str() {
                "Auto" => Some(ConsoleMode::Auto),
                "GB" => Some(ConsoleMode::Gb),
                "GBC" => Some(ConsoleMode::Gbc),
                "GBA" => Some(ConsoleMode::Gba),
                "SGB2" => Some(ConsoleMode::Sgb2),
                _ => s.parse().ok().and_then(by_number),
            },
            _ => None,
        }
    }
}

/// The sync settings that decide how a Gambatte movie starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GambatteSync {
    /// `ConsoleMode`.
    pub console_mode: ConsoleMode,
    /// `EnableBIOS`: the official boot ROM runs first (BizHawk may force it anyway:
    /// [`super::boot::bios_forced`]).
    pub enable_bios: bool,
    /// `FrameLength`: 0 VBlank-driven frames (gbhost's), 1 equal-length frames (35,112 ticks
    /// each; also older BizHawk's `EqualLengthFrames true`), 2 user-defined (subframe input).
    pub frame_length: u8,
    /// `InitialTime` (older BizHawk: `RTCInitialTime`): the cartridge clock's start, in
    /// seconds.
    pub initial_time: u64,
    /// `RTCDivisorOffset`: how far the CPU clock is from 2^22 Hz for the cartridge clock.
    pub rtc_divisor_offset: i64,
    /// `MulticartCompat`: multicart wiring for MBC1 carts.
    pub multicart_compat: bool,
}

impl GambatteSync {
    /// Read the settings from `SyncSettings.json`'s text: blank or `{"o":null}` are the core's
    /// defaults (Auto, no boot ROM); JSON that does not parse, or a field of the wrong kind, is
    /// an error (guessing the console would make a movie desync).
    pub fn parse(text: &str) -> Result<GambatteSync, Bk2Error> {
        match settings_object(text)? {
            None => Ok(GambatteSync::default()),
            Some(o) => GambatteSync::from_object(&o),
        }
    }

    /// Read a linked pair's settings (GambatteLink's `GambatteLinkSyncSettings`: one
    /// Gambatte settings object per player in `_linkedSyncSettings`, four of them whatever
    /// the number of Game Boys): the first two players'. Blank or `{"o":null}`, or a
    /// missing entry, are the core's defaults.
    pub fn parse_linked(text: &str) -> Result<[GambatteSync; 2], Bk2Error> {
        let mut out = [GambatteSync::default(); 2];
        let Some(o) = settings_object(text)? else {
            return Ok(out);
        };
        let list = match o.get("_linkedSyncSettings") {
            None | Some(serde_json::Value::Null) => return Ok(out),
            Some(serde_json::Value::Array(list)) => list,
            Some(v) => {
                return Err(Bk2Error::BadSyncSettings(format!(
                    "_linkedSyncSettings {} is not a list",
                    super::text::cut(&v.to_string(), 40)
                )));
            }
        };
        for (side, value) in out.iter_mut().zip(list) {
            if !value.is_null() {
                *side = GambatteSync::from_object(value)?;
            }
        }
        Ok(out)
    }

    /// Read the fields of one settings object.
    fn from_object(settings: &serde_json::Value) -> Result<GambatteSync, Bk2Error> {
        let bad = |why: String| Bk2Error::BadSyncSettings(why);
        if !settings.is_object() {
            return Err(bad("a settings entry is not an object".into()));
        }
        let console_mode = match settings.get("ConsoleMode") {
            None => ConsoleMode::Auto,
            Some(v) => ConsoleMode::from_json(v)
                .ok_or_else(|| bad(format!("ConsoleMode {v} is not Auto, GB, GBC, GBA or SGB2")))?,
        };
        let flag = |key: &str| match settings.get(key) {
            None => Ok(false),
            Some(serde_json::Value::Bool(b)) => Ok(*b),
            Some(v) => Err(bad(format!("{key} {v} is not true or false"))),
        };
        let number = |key: &str| match settings.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_i64()
                .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
                .map(Some)
                .ok_or_else(|| bad(format!("{key} {v} is not a whole number"))),
        };
        let frame_length = match settings.get("FrameLength") {
            None => u8::from(flag("EqualLengthFrames")?),
            Some(v) => match (v.as_u64(), v.as_str()) {
                (Some(n @ 0..=2), _) => n as u8,
                (_, Some("VBlankDrivenFrames")) => 0,
                (_, Some("EqualLengthFrames")) => 1,
                (_, Some("UserDefinedFrames")) => 2,
                _ => return Err(bad(format!("FrameLength {v} is not 0, 1 or 2"))),
            },
        };
        let initial_time = match number("InitialTime")?.or(number("RTCInitialTime")?) {
            None => 0,
            Some(t) => u64::try_from(t).map_err(|_| bad(format!("InitialTime {t} is negative")))?,
        };
        Ok(GambatteSync {
            console_mode,
            enable_bios: flag("EnableBIOS")?,
            frame_length,
            initial_time,
            rtc_divisor_offset: number("RTCDivisorOffset")?.unwrap_or(0),
            multicart_compat: flag("MulticartCompat")?,
        })
    }

    /// A linked pair's settings as BizHawk's GambatteLink reads them: `players` for the
    /// first two Game Boys, the core's defaults (written out) for the other two it keeps
    /// room for.
    pub fn to_json_linked(players: [GambatteSync; 2]) -> String {
        let entry = |s: &GambatteSync| {
            let json = s.to_json();
            // The object inside `{"o":…}`.
            json["{\"o\":".len()..json.len() - 1].to_string()
        };
        let rest = entry(&GambatteSync::default());
        format!(
            r#"{{"o":{{"$type":"{ty}","_linkedSyncSettings":[{a},{b},{rest},{rest}]}}}}"#,
            ty = GAMBATTE_LINK_SYNC_TYPE,
            a = entry(&players[0]),
            b = entry(&players[1]),
        )
    }

    /// Settings that pin `console_mode`, with or without the boot ROM, every other field at
    /// the value a gbhost movie matches.
    pub fn new(console_mode: ConsoleMode, enable_bios: bool) -> GambatteSync {
        GambatteSync {
            console_mode,
            enable_bios,
            ..GambatteSync::default()
        }
    }

    /// The settings as BizHawk writes them, on one line, every field explicit: these, and
    /// the fixed ones a deterministic gbhost movie matches (cart bus pull-up of 8 cycles,
    /// emulated-time clock, no IR remote, every layer shown). [`GambatteSync::new`]'s
    /// defaults are what gbhost plays: VBlank-driven frames (one input per frame, like
    /// gbhost's), no multicart wiring, the clock from 0 with no divisor offset.
    pub fn to_json(&self) -> String {
        format!(
            concat!(
                r#"{{"o":{{"$type":"{ty}","EnableBIOS":{bios},"ConsoleMode":{mode},"#,
                r#""CartBusPullUpTime":8,"MulticartCompat":{multicart},"RealTimeRTC":false,"#,
                r#""RTCDivisorOffset":{offset},"InitialTime":{time},"EnableRemote":false,"#,
                r#""FrameLength":{frames},"DisplayBG":true,"DisplayOBJ":true,"#,
                r#""DisplayWindow":true}}}}"#
            ),
            ty = GAMBATTE_SYNC_TYPE,
            bios = self.enable_bios,
            mode = self.console_mode.number(),
            multicart = self.multicart_compat,
            offset = self.rtc_divisor_offset,
            time = self.initial_time,
            frames = self.frame_length,
        )
    }
}
