//! The text lumps around the input log: `Comments.txt`, `Subtitles.txt`, and the TAStudio
//! lumps `Markers.txt` and `LagLog`, read and written as BizHawk does.
//!
//! - `Comments.txt`: one comment a line; blank lines skipped (`BasicMovieInfo.LoadFields`).
//! - `Subtitles.txt`: `subtitle FRAME X Y DURATION COLOR MESSAGE` a line, `COLOR` eight hex
//!   digits (`Client.Common/movie/Subtitle.cs` `ToString`); read by splitting at spaces, the
//!   message being the rest, trimmed (`SubtitleList.AddFromString`). BizHawk drops a line it
//!   cannot parse; here it is an error naming the line.
//! - `Markers.txt`: `FRAME<TAB>MESSAGE` a line (`tasproj/TasMovieMarker.cs`). Only a `.tasproj`
//!   has it: `Bk2Movie` neither writes nor reads it, so BizHawk ignores it in a `.bk2`.
//! - `LagLog` (no extension): two lines of JSON, `{"frame":lagged,…}` for the frames emulated
//!   and the same for those invalidated since (`tasproj/TasLagLog.cs` `Save`). Also
//!   `.tasproj`-only: a plain `.bk2` carries no lag information at all (lag is recomputed by
//!   playing). The first line is kept; the second is TAStudio's undo state.

use std::collections::BTreeMap;

use super::error::Bk2Error;
use super::text::{cut, lines};

/// One subtitle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subtitle {
    /// The frame it appears on (0-based, from the movie's start).
    pub frame: u32,
    /// Left edge, in screen pixels.
    pub x: i32,
    /// Top edge, in screen pixels.
    pub y: i32,
    /// Frames it stays.
    pub duration: i32,
    /// `AARRGGBB`.
    pub color: u32,
    /// The text (one line, no leading or trailing spaces).
    pub message: String,
}

/// A TAStudio marker: a frame with a note.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marker {
    /// The frame (0-based, from the movie's start).
    pub frame: u32,
    /// The note (one line, no tab).
    pub message: String,
}

/// Frames known to lag (`true`) or not (`false`), by 0-based frame.
pub type LagLog = BTreeMap<u32, bool>;

impl Subtitle {
    /// Parse one line of `Subtitles.txt` (`line`: its number, for errors).
    pub fn parse(text: &str, line: usize) -> Result<Subtitle, Bk2Error> {
        let bad = || Bk2Error::BadNote {
            entry: "Subtitles.txt",
            line,
            text: cut(text, 40),
        };
        let mut parts = text.splitn(7, ' ');
        let _word = parts.next();
        let mut field = || parts.next().ok_or_else(bad);
        let frame = field()?.parse().map_err(|_| bad())?;
        let x = field()?.parse().map_err(|_| bad())?;
        let y = field()?.parse().map_err(|_| bad())?;
        let duration = field()?.parse().map_err(|_| bad())?;
        let color = u32::from_str_radix(field()?, 16).map_err(|_| bad())?;
        let message = parts.next().unwrap_or("").trim().to_string();
        Ok(Subtitle {
            frame,
            x,
            y,
            duration,
            color,
            message,
        })
    }

    /// The line BizHawk writes for it.
    pub fn line(&self) -> String {
        format!(
            "subtitle {} {} {} {} {:08X} {}",
            self.frame, self.x, self.y, self.duration, self.color, self.message
        )
    }
}

/// `Comments.txt`: its non-blank lines.
pub fn parse_comments(text: &str) -> Vec<String> {
    lines(text)
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// `Subtitles.txt`: its subtitles, sorted as BizHawk sorts them (by frame, then `y`).
pub fn parse_subtitles(text: &str) -> Result<Vec<Subtitle>, Bk2Error> {
    let mut subtitles = Vec::new();
    for (i, l) in lines(text).enumerate() {
        if !l.trim().is_empty() {
            subtitles.push(Subtitle::parse(l, i + 1)?);
        }
    }
    subtitles.sort_by_key(|s| (s.frame, s.y));
    Ok(subtitles)
}

/// `Markers.txt`: its markers, by frame (a later marker on the same frame replaces the note,
/// as TAStudio's list does).
pub fn parse_markers(text: &str) -> Result<Vec<Marker>, Bk2Error> {
    let mut markers: BTreeMap<u32, String> = BTreeMap::new();
    for (i, l) in lines(text).enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        let bad = || Bk2Error::BadNote {
            entry: "Markers.txt",
            line: i + 1,
            text: cut(l, 40),
        };
        let (frame, message) = l.split_once('\t').ok_or_else(bad)?;
        let frame: u32 = frame.trim().parse().map_err(|_| bad())?;
        // TasMovieMarker keeps the text up to a second tab.
        let message = message.split('\t').next().unwrap_or("").to_string();
        markers.insert(frame, message);
    }
    Ok(markers
        .into_iter()
        .map(|(frame, message)| Marker { frame, message })
        .collect())
}

/// `LagLog`: its first line, a JSON object of frame numbers to lag flags.
pub fn parse_lag_log(text: &str) -> Result<LagLog, Bk2Error> {
    let first = lines(text).find(|l| !l.trim().is_empty()).unwrap_or("{}");
    let bad = || Bk2Error::BadNote {
        entry: "LagLog",
        line: 1,
        text: cut(first, 40),
    };
    let map: BTreeMap<String, bool> = serde_json::from_str(first).map_err(|_| bad())?;
    map.into_iter()
        .map(|(k, v)| Ok((k.trim().parse().map_err(|_| bad())?, v)))
        .collect()
}

/// Refuse a note that would not read back: a line break (any note), a tab (a marker).
pub(super) fn check_text(entry: &'static str, text: &str, tab: bool) -> Result<(), Bk2Error> {
    if text.contains(['\r', '\n']) || (tab && text.contains('\t')) {
        return Err(Bk2Error::BadNoteText {
            entry,
            text: cut(text, 40),
        });
    }
    Ok(())
}

/// The text of a lump: each line then CRLF, then the CRLF of BizHawk's final `WriteLine`.
pub(super) fn lump(lines: impl Iterator<Item = String>) -> String {
    let mut out = String::new();
    for l in lines {
        out.push_str(&l);
        out.push_str("\r\n");
    }
    out.push_str("\r\n");
    out
}

/// `LagLog`'s text: the log, then an empty history.
pub(super) fn lag_log_text(log: &LagLog) -> String {
    let map: serde_json::Map<String, serde_json::Value> = log
        .iter()
        .map(|(f, lag)| (f.to_string(), serde_json::Value::Bool(*lag)))
        .collect();
    format!("{}\r\n{{}}\r\n", serde_json::Value::Object(map))
}
