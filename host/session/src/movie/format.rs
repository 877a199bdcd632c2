//! The movie's own bytes inside the container: the header ([`MovieHeader`], with how the
//! movie starts) and each chunk's payload ([`Chunk`]: the state hash the desync detector
//! checks, a keyframe — the core image every [`KEYFRAME_CHUNKS`] chunks, or once scripts are
//! in play a state file with their portable images every [`SCRIPTED_KEYFRAME_CHUNKS`] chunks,
//! most storing their images as deltas (`keyframe`) —, the sources its script events need,
//! its events). Every field is decoded with bounds (`crate::codec`); the header is versioned.

use super::container::ChunkMeta;
use super::error::MovieError;
use crate::codec::{self, Dec, DecodeError, Enc};
use crate::data::limits::MAX_FRAME;
use crate::data::{Bundle, Event};
use crate::session::Session;
use gb_core::{DmgPalette, FrameRule, RamInit};
use std::collections::BTreeMap;

/// Frames per chunk: one emulated second (the most a crash can lose).
pub const CHUNK_FRAMES: u32 = 60;
/// Chunks between two keyframes of a movie without scripts (a keyframe every 10 seconds).
pub const KEYFRAME_CHUNKS: u64 = 10;
/// Chunk flag: the chunk holds a keyframe.
pub const FLAG_KEYFRAME: u32 = 1;
/// Version of the header payload (2: the battery RAM and the power-on RAM of a power-on
/// start; 3: the core version and the frame rule; 4: a linked pair's second player).
const HEADER_VERSION: u8 = 4;

/// The core version of a movie whose header has none (before version 3): every core before
/// the number existed.
const UNVERSIONED_CORE: u32 = 1;

/// How a movie starts.
#[derive(Clone, Debug, PartialEq)]
pub enum Start {
    /// From power-on (the post-boot state, or the boot ROM with that hash).
    PowerOn {
        /// FNV-1a of the boot ROM, if one runs.
        boot_rom_hash: Option<u64>,
        /// The battery RAM the cartridge powered on with (`.sav` layout), if any.
        battery: Option<Vec<u8>>,
        /// What work RAM, HRAM and OAM held at power-on.
        ram_init: RamInit,
        /// The compatibility palette of a DMG game on the CGB.
        dmg_palette: DmgPalette,
    },
    /// From a state file (its bytes).
    State(Vec<u8>),
}

/// How a power-on start powers a Game Boy on (the first player's in [`Start::PowerOn`], a
/// linked pair's second player's in [`SecondPlayer`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Power {
    /// FNV-1a of the boot ROM, if one runs.
    pub boot_rom_hash: Option<u64>,
    /// The battery RAM the cartridge powered on with (`.sav` layout), if any.
    pub battery: Option<Vec<u8>>,
    /// What work RAM, HRAM and OAM held at power-on.
    pub ram_init: RamInit,
    /// The compatibility palette of a DMG game on the CGB.
    pub dmg_palette: DmgPalette,
}

/// A linked pair's second player: its ROM, model and power-on. Its joypad is in the
/// movie's events as `PlayerJoypad` (player 1), beside the first player's `Joypad`: one
/// event stream, a track per player, both on the pair's common clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecondPlayer {
    /// FNV-1a hash of its ROM.
    pub rom_hash: u64,
    /// The ROM's header title.
    pub rom_title: String,
    /// Its model (`DMG`).
    pub model: String,
    /// How it powered on (for a movie from a state, what it powered on with before it).
    pub power: Power,
}

/// What a movie is of and by whom.
#[derive(Clone, Debug, PartialEq)]
pub struct MovieHeader {
    /// FNV-1a hash of the ROM image.
    pub rom_hash: u64,
    /// The ROM's header title.
    pub rom_title: String,
    /// The emulated model (`DMG`).
    pub model: String,
    /// How it starts.
    pub start: Start,
    /// The session frame it starts at (0 from power-on).
    pub start_frame: u64,
    /// Unix time the cartridge clock starts from.
    pub rtc_start: u64,
    /// Times the movie's future was cut and re-recorded.
    pub rerecords: u64,
    /// Authors, free text.
    pub authors: Vec<String>,
    /// Free metadata (a JSON object in the file).
    pub metadata: BTreeMap<String, String>,
    /// The core it was recorded on ([`gb_core::CORE_VERSION`]; 1 for movies from before the
    /// number): on another core the state checks cannot match, and playback says so.
    pub core_version: u32,
    /// Where its frames end (movies from before the rule was named: the legacy rule).
    pub frame_rule: FrameRule,
    /// A linked pair's second player (`None`: one Game Boy).
    pub second: Option<SecondPlayer>,
}

/// Write a power-on's fields (header version 2 on).
fn encode_power(
    e: &mut Enc,
    boot_rom_hash: Option<u64>,
    battery: Option<&[u8]>,
    ram: RamInit,
    palette: DmgPalette,
) {
    match boot_rom_hash {
        Some(h) => {
            e.u8(1);
            e.u64(h);
        }
        None => e.u8(0),
    }
    match battery {
        Some(b) => {
            e.u8(1);
            e.bytes(b);
        }
        None => e.u8(0),
    }
    match ram {
        RamInit::Zero => e.u8(0),
        RamInit::Pattern(seed) => {
            e.u8(1);
            e.u64(seed);
        }
    }
    e.u8(match palette {
        DmgPalette::Auto => 0,
        DmgPalette::Combo(n) => n,
    });
}

/// Read a power-on's fields as header version `v` wrote them.
fn decode_power(d: &mut Dec<'_>, v: u8) -> Result<Power, DecodeError> {
    Ok(Power {
        boot_rom_hash: match d.u8()? {
            0 => None,
            _ => Some(d.u64()?),
        },
        // Version 1 had no battery: such movies logged it as pokes.
        battery: if v >= 2 && d.u8()? != 0 {
            Some(d.bytes()?.to_vec())
        } else {
            None
        },
        // Version 1 was written when work RAM powered on as zeros.
        ram_init: match if v >= 2 { d.u8()? } else { 0 } {
            0 => RamInit::Zero,
            1 => RamInit::Pattern(d.u64()?),
            k => return Err(d.error(format!("unknown power-on RAM kind {k}"))),
        },
        dmg_palette: match if v >= 2 { d.u8()? } else { 0 } {
            0 => DmgPalette::Auto,
            n @ 1..=12 => DmgPalette::Combo(n),
            n => return Err(d.error(format!("unknown DMG palette {n}"))),
        },
    })
}

impl MovieHeader {
    /// The header's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut e = Enc::default();
        e.u8(HEADER_VERSION);
        e.u64(self.rom_hash);
        e.str(&self.rom_title);
        e.str(&self.model);
        match &self.start {
            Start::PowerOn {
                boot_rom_hash,
                battery,
                ram_init,
                dmg_palette,
            } => {
                e.u8(0);
                encode_power(
                    &mut e,
                    *boot_rom_hash,
                    battery.as_deref(),
                    *ram_init,
                    *dmg_palette,
                );
            }
            Start::State(bytes) => {
                e.u8(1);
                e.bytes(bytes);
            }
        }
        e.var(self.start_frame);
        e.var(self.rtc_start);
        e.var(self.rerecords);
        e.var(self.authors.len() as u64);
        for a in &self.authors {
            e.str(a);
        }
        let json = serde_json::to_string(&self.metadata).unwrap_or_else(|_| "{}".into());
        e.str(&json);
        e.var(u64::from(self.core_version));
        e.u8(self.frame_rule.id());
        match &self.second {
            Some(b) => {
                e.u8(1);
                e.u64(b.rom_hash);
                e.str(&b.rom_title);
                e.str(&b.model);
                let p = &b.power;
                encode_power(
                    &mut e,
                    p.boot_rom_hash,
                    p.battery.as_deref(),
                    p.ram_init,
                    p.dmg_palette,
                );
            }
            None => e.u8(0),
        }
        e.buf
    }

    /// Decode a header.
    pub fn decode(bytes: &[u8]) -> Result<MovieHeader, MovieError> {
        let mut d = Dec::new(bytes);
        let part = |source| MovieError::Decode {
            part: "header".into(),
            source,
        };
        (|| {
            let v = d.u8()?;
            if !(1..=HEADER_VERSION).contains(&v) {
                return Err(d.error(format!("header version {v} is not supported")));
            }
            let rom_hash = d.u64()?;
            let rom_title = d.str()?;
            let model = d.str()?;
            let start = match d.u8()? {
                0 => {
                    let p = decode_power(&mut d, v)?;
                    Start::PowerOn {
                        boot_rom_hash: p.boot_rom_hash,
                        battery: p.battery,
                        ram_init: p.ram_init,
                        dmg_palette: p.dmg_palette,
                    }
                }
                1 => Start::State(d.bytes()?.to_vec()),
                k => return Err(d.error(format!("unknown start kind {k}"))),
            };
            let start_frame = d.var()?;
            if start_frame > MAX_FRAME {
                return Err(d.error(format!("start frame {start_frame} is out of range")));
            }
            let rtc_start = d.var()?;
            let rerecords = d.var()?;
            let n = d.count(1)?;
            let mut authors = Vec::with_capacity(n);
            for _ in 0..n {
                authors.push(d.str()?);
            }
            let json = d.str()?;
            let metadata = serde_json::from_str(&json)
                .map_err(|e| d.error(format!("metadata is not a JSON object of texts: {e}")))?;
            let (core_version, frame_rule) = if v >= 3 {
                let core =
                    u32::try_from(d.var()?).map_err(|_| d.error("core version out of range"))?;
                let id = d.u8()?;
                let rule = FrameRule::from_id(id)
                    .ok_or_else(|| d.error(format!("unknown frame rule {id}")))?;
                (core, rule)
            } else {
                (UNVERSIONED_CORE, FrameRule::Legacy)
            };
            let second = match if v >= 4 { d.u8()? } else { 0 } {
                0 => None,
                1 => Some(SecondPlayer {
                    rom_hash: d.u64()?,
                    rom_title: d.str()?,
                    model: d.str()?,
                    power: decode_power(&mut d, v)?,
                }),
                k => return Err(d.error(format!("unknown second-player kind {k}"))),
            };
            Ok(MovieHeader {
                rom_hash,
                rom_title,
                model,
                start,
                start_frame,
                rtc_start,
                rerecords,
                authors,
                metadata,
                core_version,
                frame_rule,
                second,
            })
        })()
        .map_err(part)
    }
}

/// One decoded chunk.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Chunk {
    /// FNV-1a of the core image at the chunk's first frame.
    pub state_hash: u64,
    /// The core image there, if this chunk is a keyframe.
    pub keyframe: Option<Vec<u8>>,
    /// Bundles of the script versions its events load.
    pub sources: Vec<(u64, Bundle)>,
    /// Its events, in order.
    pub events: Vec<Event>,
}

impl Chunk {
    /// The chunk's payload.
    pub fn encode(&self, start_frame: u64) -> Vec<u8> {
        let mut e = Enc::default();
        e.u64(self.state_hash);
        e.bytes(self.keyframe.as_deref().unwrap_or(&[]));
        e.var(self.sources.len() as u64);
        for (h, b) in &self.sources {
            e.u64(*h);
            codec::encode_bundle(&mut e, b);
        }
        codec::encode_events(&mut e, &self.events, start_frame, 0);
        e.buf
    }

    /// Decode a chunk's payload; every event must lie in `[start, start + frames)`.
    pub fn decode(bytes: &[u8], meta: &ChunkMeta) -> Result<Chunk, DecodeError> {
        let mut d = Dec::new(bytes);
        let state_hash = d.u64()?;
        let key = d.bytes()?;
        let n = d.count(11)?;
        let mut sources = Vec::with_capacity(n);
        for _ in 0..n {
            let h = d.u64()?;
            sources.push((h, codec::decode_bundle(&mut d)?));
        }
        let events = codec::decode_events(&mut d, meta.start_frame, 0)?;
        let end = meta.start_frame.saturating_add(u64::from(meta.frames));
        if events
            .iter()
            .any(|e| e.frame < meta.start_frame || e.frame >= end)
        {
            return Err(d.error("an event lies outside its chunk"));
        }
        Ok(Chunk {
            state_hash,
            keyframe: (!key.is_empty()).then(|| key.to_vec()),
            sources,
            events,
        })
    }
}

/// The hash the desync detector compares: FNV-1a of the machine's image
/// ([`crate::Machine::image_hash`]).
pub fn state_hash(session: &Session) -> u64 {
    session.machine().image_hash()
}

/// The image of the session's machine (a keyframe).
pub(crate) fn core_image(session: &Session) -> Vec<u8> {
    session.machine().image()
}

/// Chunks between two keyframes once scripts are in play (every 3 seconds): replaying the
/// frames from a keyframe with scripts costs more, and a seek must land in ≤ 50 ms.
pub const SCRIPTED_KEYFRAME_CHUNKS: u64 = 3;

/// The keyframe of chunk `index`, if it gets one: the core image, every
/// [`KEYFRAME_CHUNKS`] chunks, while only the joypad and pokes have acted on the session; once
/// scripts are in play and the session has a state key, every [`SCRIPTED_KEYFRAME_CHUNKS`]
/// chunks, a whole state file (`GBHSTATE…`: the core and the scripts' portable VM images,
/// sealed with the key, their sources, and the buttons held as its log), so that a seek can
/// start there; its images are deltas from those of `base`, the last keyframe with whole
/// ones, except every [`BASE_USES`] + 1-th, which becomes the next base. Without a key it stays the core image, usable only before the first script
/// event.
pub(crate) fn keyframe(
    session: &mut Session,
    index: u64,
    base: &mut Option<KeyBase>,
) -> Option<Vec<u8>> {
    // Scripts are in play when one runs (a session started from a state keyframe has them
    // without their load events), or when one was ever loaded (a movie records no state loads).
    let scripted = session.config.image_key.is_some()
        && (session.scripts().any(|s| s.active) || session.log().script_events().next().is_some());
    if !scripted {
        return index
            .is_multiple_of(KEYFRAME_CHUNKS)
            .then(|| core_image(session));
    }
    if !index.is_multiple_of(SCRIPTED_KEYFRAME_CHUNKS) {
        return None;
    }
    let frame = session.frame();
    let mut file = session.keyframe_state();
    match base {
        Some(b) if b.uses < BASE_USES => {
            b.uses += 1;
            for i in &mut file.images {
                let delta = match (&i.image, b.images.get(&i.slot)) {
                    (Ok(image), Some(from)) => lua_rollback::image_delta(from, image).ok(),
                    _ => None,
                };
                if let Some(d) = delta {
                    i.image = Ok(d);
                    i.base = Some(b.frame);
                }
            }
        }
        _ => {
            *base = Some(KeyBase {
                frame,
                images: file
                    .images
                    .iter()
                    .filter_map(|i| Some((i.slot, i.image.clone().ok()?)))
                    .collect(),
                uses: 0,
            });
        }
    }
    Some(file.encode())
}

/// State keyframes stored against one with whole images before the next has whole images
/// again (a base every 30 seconds): a delta is a fraction of an image, and a seek reads at
/// most two keyframes.
const BASE_USES: u32 = 9;

/// A state keyframe with whole images, that the next ones store their images against.
#[derive(Debug)]
pub(crate) struct KeyBase {
    /// Its frame (the chunk's first).
    frame: u64,
    /// Its images, by script slot.
    images: BTreeMap<u32, Vec<u8>>,
    /// Keyframes stored against it so far.
    uses: u32,
}

/// Whether a keyframe is a whole state file (see [`keyframe`]) rather than a core image.
pub(crate) fn is_state_keyframe(key: &[u8]) -> bool {
    key.starts_with(&crate::state::file::MAGIC)
}
