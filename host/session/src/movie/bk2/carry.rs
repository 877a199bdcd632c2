//! What a `.bk2` holds beyond the input and that a gbhost movie has no field for — comments,
//! subtitles, TAStudio markers and lag log, and the frames that press `Power` — carried
//! through the gbhost movie's free metadata ([`MovieHeader::metadata`](crate::movie::MovieHeader)),
//! so that `.bk2 → .gbm → .bk2` gives them back.
//!
//! Keys (values are JSON but for `markers`): `bk2.comments` (an array of texts), `bk2.subtitles` (an array of
//! `Subtitles.txt` lines), `markers` (the TAS editor's: [`KEY_MARKERS`]), `bk2.lag_log` (an object
//! of frame to lag flag, as BizHawk's `LagLog`), `bk2.power` (an array of the frames whose
//! `Power` is pressed). Frames count from the movie's first frame, as in the input log.

use std::collections::BTreeMap;

use super::data::{Bk2, Bk2Frame};
use super::error::Bk2Error;
use super::notes::{LagLog, Marker, Subtitle};
use crate::movie::roll;

/// Metadata key: comments.
pub const KEY_COMMENTS: &str = "bk2.comments";
/// Metadata key: subtitles.
pub const KEY_SUBTITLES: &str = "bk2.subtitles";
/// Metadata key: markers — the key and the form gbhost's TAS editor keeps its own markers in
/// (`movie/editor_file.rs`: a line per marker, `frame<TAB>P|-<TAB>text`, `P` for pinned), so
/// that a `.bk2`'s markers open in the editor and the editor's export to a `.bk2`.
pub const KEY_MARKERS: &str = "markers";
/// Metadata key: the lag log.
pub const KEY_LAG_LOG: &str = "bk2.lag_log";
/// Metadata key: the frames that press Power.
pub const KEY_POWER: &str = "bk2.power";

/// The `.bk2`-only parts of a movie.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Carried {
    /// `Comments.txt`.
    pub comments: Vec<String>,
    /// `Subtitles.txt`.
    pub subtitles: Vec<Subtitle>,
    /// `Markers.txt`.
    pub markers: Vec<Marker>,
    /// `LagLog`, if the movie had one.
    pub lag_log: Option<LagLog>,
    /// The 0-based frames that press `Power`.
    pub power: Vec<u32>,
}

impl Carried {
    /// The parts of `movie`.
    pub fn of(movie: &Bk2) -> Carried {
        Carried {
            comments: movie.comments.clone(),
            subtitles: movie.subtitles.clone(),
            markers: movie.markers.clone(),
            lag_log: movie.lag_log.clone(),
            power: (0u32..)
                .zip(&movie.frames)
                .filter(|(_, f)| f.power)
                .map(|(i, _)| i)
                .collect(),
        }
    }

    /// Put them into `movie` (Power presses beyond its last frame are dropped).
    pub fn apply(&self, movie: &mut Bk2) {
        movie.comments.clone_from(&self.comments);
        movie.subtitles.clone_from(&self.subtitles);
        movie.markers.clone_from(&self.markers);
        movie.lag_log.clone_from(&self.lag_log);
        for &f in &self.power {
            if let Some(frame) = movie.frames.get_mut(f as usize) {
                *frame = Bk2Frame {
                    power: true,
                    ..*frame
                };
            }
        }
    }

    /// Store them in a gbhost movie's metadata (empty parts leave no key).
    pub fn to_metadata(&self, meta: &mut BTreeMap<String, String>) {
        use serde_json::{Value, json};
        let mut put = |key: &str, value: Value, empty: bool| {
            if !empty {
                meta.insert(key.to_string(), value.to_string());
            }
        };
        put(KEY_COMMENTS, json!(self.comments), self.comments.is_empty());
        let subtitles: Vec<String> = self.subtitles.iter().map(Subtitle::line).collect();
        put(KEY_SUBTITLES, json!(subtitles), subtitles.is_empty());
        if let Some(log) = &self.lag_log {
            let map: serde_json::Map<String, Value> = log
                .iter()
                .map(|(f, lag)| (f.to_string(), Value::Bool(*lag)))
                .collect();
            put(KEY_LAG_LOG, Value::Object(map), false);
        }
        put(KEY_POWER, json!(self.power), self.power.is_empty());
        if !self.markers.is_empty() {
            // The editor's format (BizHawk has no pinned markers).
            let lines: String = self
                .markers
                .iter()
                .map(|m| {
                    let marker = roll::Marker {
                        text: m.message.clone(),
                        pinned: false,
                    };
                    marker.line(u64::from(m.frame))
                })
                .collect();
            meta.insert(KEY_MARKERS.to_string(), lines);
        }
    }

    /// Read them back from a gbhost movie's metadata; a key whose value is not what
    /// [`Carried::to_metadata`] writes is an error naming it.
    pub fn from_metadata(meta: &BTreeMap<String, String>) -> Result<Carried, Bk2Error> {
        use serde_json::Value;
        let bad = |key: &'static str, why: String| Bk2Error::BadMetadata { key, why };
        // The JSON array under `key` (none: empty).
        let array = |key: &'static str| -> Result<Vec<Value>, Bk2Error> {
            match meta.get(key) {
                None => Ok(Vec::new()),
                Some(v) => match serde_json::from_str(v) {
                    Ok(Value::Array(items)) => Ok(items),
                    Ok(_) => Err(bad(key, "not a JSON array".into())),
                    Err(e) => Err(bad(key, e.to_string())),
                },
            }
        };
        let text = |key: &'static str, v: &Value| -> Result<String, Bk2Error> {
            v.as_str()
                .map(str::to_string)
                .ok_or_else(|| bad(key, format!("{v} is not a text")))
        };
        let frame = |key: &'static str, v: &Value| -> Result<u32, Bk2Error> {
            v.as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| bad(key, format!("{v} is not a frame number")))
        };
        let comments = array(KEY_COMMENTS)?
            .iter()
            .map(|v| text(KEY_COMMENTS, v))
            .collect::<Result<_, _>>()?;
        let subtitles = array(KEY_SUBTITLES)?
            .iter()
            .enumerate()
            .map(|(i, v)| {
                Subtitle::parse(&text(KEY_SUBTITLES, v)?, i + 1)
                    .map_err(|e| bad(KEY_SUBTITLES, e.to_string()))
            })
            .collect::<Result<_, _>>()?;
        let mut markers = Vec::new();
        for line in meta.get(KEY_MARKERS).map_or("", String::as_str).lines() {
            let (frame, m) = roll::Marker::parse_line(line)
                .and_then(|(f, m)| Some((u32::try_from(f).ok()?, m)))
                .ok_or_else(|| {
                    bad(
                        KEY_MARKERS,
                        format!("`{line}` is not a frame number, a pin and a text"),
                    )
                })?;
            markers.push(Marker {
                frame,
                message: m.text,
            });
        }
        let lag_log = match meta.get(KEY_LAG_LOG) {
            None => None,
            Some(v) => {
                Some(super::notes::parse_lag_log(v).map_err(|e| bad(KEY_LAG_LOG, e.to_string()))?)
            }
        };
        let power = array(KEY_POWER)?
            .iter()
            .map(|v| frame(KEY_POWER, v))
            .collect::<Result<_, _>>()?;
        Ok(Carried {
            comments,
            subtitles,
            markers,
            lag_log,
            power,
        })
    }
}
