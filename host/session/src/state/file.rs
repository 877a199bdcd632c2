//! Save-state files: a session's state on disk, sectioned and versioned (SameBoy's and
//! Gambatte's lesson: a state format must survive its own evolution and hostile files).
//!
//! Layout (integers little-endian):
//!
//! ```text
//! "GBHSTATE"  u16 version  u16 0
//! section*    tag: 4 ASCII bytes, len: u32, payload: len bytes
//! "END "      len 8, payload: FNV-1a 64 of every byte before this section
//! ```
//!
//! Sections (each at most once; a reader skips tags it does not know, so later versions can
//! add sections; a missing required one is an error):
//!
//! | tag | what | encoding (`codec.rs`) |
//! |---|---|---|
//! | `META` | ROM hash and title, model, frame, Unix time, the writing build | u64, text, text, var, var, text |
//! | `CORE` | the core's own state image (`gb_core::state`, itself versioned and checked) | raw |
//! | `SCRP` | the loaded scripts: slot, name, API, source hash, `persist` table | count, then each |
//! | `SRCS` | the source bundle of every hash the scripts and the log name | count, (u64, bundle)* |
//! | `LOG ` | the session's event log since power-on | `encode_events` from (0, 0) |
//! | `THMB` | the picture of a DMG: 160×144 shades, 4 pixels a byte (optional) | 5,760 bytes |
//! | `THMC` | the picture of a CGB: 160×144 RGB555 colours, u16 each (optional) | 46,080 bytes |
//! | `ARNA` | the scripts' arenas, valid only in the session that wrote them (optional) | token, (slot, arena address, keyframe)* |
//! | `PIMG` | the scripts' portable VM images, sealed with the saving user's key (optional) | count, (slot, status, since, zstd(image), zstd(delta from a movie keyframe's image) or why none)* |
//! | `SPLY` | the players of scripts that run against a later player than the first (optional) | count, (slot, player)* |
//! | `LINK` | a linked pair's second player: its ROM hash and title, its model (only in a pair's file; `META` names the first player, `CORE` holds the pair's image) | u64, text, text |
//!
//! A script VM's arena holds raw pointers into itself and into this process's code, so `ARNA`
//! is restored only by the session (in the same process) that saved it, into the very VM it
//! came from. `PIMG` holds each script's *portable image* (`lua_rollback::Vm::export_image`,
//! see docs/arena.md): the arena with the pointers to code named, sealed with a key kept per
//! user, restored exactly by any process of that user into a VM mapped at the image's address.
//! Without a usable image (another user's file, a damaged one, a VM that could not be saved
//! portably, another image format) the scripts restart at the loaded frame with their
//! `persist` data and their `on_load_state` hooks run (`Session::load_state_file` says which
//! happened, and why).

use std::collections::BTreeMap;

use lua_rollback::Value;

use crate::codec::{self, Dec, DecodeError, Enc};
use crate::data::{Bundle, Event, Flavor, SourceHash};

/// The file's first bytes.
pub const MAGIC: [u8; 8] = *b"GBHSTATE";
/// The format version this build writes and reads.
pub const VERSION: u16 = 1;
/// The picture's size in pixels.
const PIXELS: usize = gb_core::screen::GAME.pixels();

/// The picture a state file keeps (for slot previews, and on screen until the first frame).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Thumbnail {
    /// A DMG picture: shades 0-3, row-major.
    Shades(Vec<u8>),
    /// A CGB picture: RGB555 colours, row-major.
    Colors(Vec<u16>),
}

/// Why a state file cannot be read or used.
#[derive(Debug, thiserror::Error)]
pub enum StateFileError {
    /// Not a gbhost state file.
    #[error("not a gbhost state file (its first bytes are not GBHSTATE)")]
    Magic,
    /// Written by a newer (or unknown) version of the format.
    #[error("state file format version {0} is not supported (this build reads version {VERSION})")]
    Version(u16),
    /// The file ends inside a section or before the end mark.
    #[error("the state file is truncated (it ends at byte {0} inside a section)")]
    Truncated(usize),
    /// The checksum does not match: the file was damaged.
    #[error("the state file is damaged (checksum mismatch)")]
    Checksum,
    /// A section is missing.
    #[error("the state file has no {0} section")]
    Missing(&'static str),
    /// A section appears twice.
    #[error("the state file has two {0} sections")]
    Duplicate(String),
    /// A section's contents do not decode.
    #[error("the state file's {section} section is invalid: {source}")]
    Section {
        /// The section's tag.
        section: String,
        /// What was wrong.
        source: DecodeError,
    },
    /// The state is of another game.
    #[error(
        "this state is of another ROM ('{title}', hash {theirs:016x}; the loaded ROM's is {ours:016x})"
    )]
    ForeignRom {
        /// The state's ROM title.
        title: String,
        /// The state's ROM hash.
        theirs: u64,
        /// The loaded ROM's hash.
        ours: u64,
    },
    /// The state is of two linked Game Boys and the session runs one, or the reverse.
    #[error("{}", players_message(*theirs, *ours))]
    Players {
        /// Game Boys in the state (1, or 2 for a linked pair).
        theirs: usize,
        /// Game Boys the session runs.
        ours: usize,
    },
    /// The second player of a linked pair's state runs another game.
    #[error(
        "player 2 of this state runs another ROM ('{title}', hash {theirs:016x}; the linked ROM's is {ours:016x})"
    )]
    ForeignSecondRom {
        /// The state's second ROM title.
        title: String,
        /// The state's second ROM hash.
        theirs: u64,
        /// The session's second ROM hash.
        ours: u64,
    },
    /// The state was saved on another model.
    #[error(
        "this state was saved on the {theirs} model; this session runs the {ours} (start it with that model to load it)"
    )]
    ForeignModel {
        /// The state's model (as the file names it).
        theirs: String,
        /// The session's model.
        ours: gb_core::Model,
    },
    /// The state names a model gbhost does not emulate.
    #[error("this state was saved on a model gbhost does not emulate ('{0}')")]
    UnknownModel(String),
    /// The core refused the image.
    #[error("the state's core image is invalid: {0}")]
    Core(#[from] gb_core::StateError),
    /// A script of the state cannot be restored exactly (where that is required).
    #[error("the state's scripts cannot be restored exactly: {0}")]
    Inexact(String),
    /// Reading or writing the file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
}

/// What the state is of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meta {
    /// FNV-1a hash of the ROM image.
    pub rom_hash: u64,
    /// The ROM's header title.
    pub rom_title: String,
    /// The emulated model (`DMG`).
    pub model: String,
    /// The session frame the state was saved at.
    pub frame: u64,
    /// When it was saved (Unix seconds).
    pub unix_time: u64,
    /// The build that wrote it (`gbhost 0.1.0`).
    pub build: String,
}

/// What error [`StateFileError::Players`] says.
fn players_message(theirs: usize, ours: usize) -> String {
    if theirs > ours {
        "this state is of two linked Game Boys: load it into a linked session (give the \
         second player's ROM with --link)"
            .to_owned()
    } else {
        format!("this state is of one Game Boy: it cannot load into a linked pair ({ours} players)")
    }
}

/// A linked pair's second player, as its state file names it (`LINK`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkMeta {
    /// FNV-1a hash of the second player's ROM.
    pub rom_hash: u64,
    /// Its header title.
    pub rom_title: String,
    /// Its model (`DMG`).
    pub model: String,
}

/// One script of the state.
#[derive(Clone, Debug, PartialEq)]
pub struct SavedScript {
    /// Its slot in the session.
    pub slot: u32,
    /// Its name (a file name).
    pub name: String,
    /// The API it is written for.
    pub flavor: Flavor,
    /// The source version it runs (its bundle is in [`StateFile::sources`]).
    pub hash: SourceHash,
    /// Its `persist` table.
    pub persist: BTreeMap<Vec<u8>, Value>,
    /// The player whose Game Boy it runs against (0: the first; `SPLY` names the others).
    pub player: u8,
}

/// The script arenas, for an exact restore in the session that saved them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arenas {
    /// The saving session's token (process nonce and session id).
    pub token: (u64, u64),
    /// Each script's slot, arena address and arena keyframe (`Snapshot::encode_keyframe`).
    pub slots: Vec<(u32, u64, Vec<u8>)>,
}

/// A script's exact state: its portable VM image and the status the session keeps beside it.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptImage {
    /// The script's slot.
    pub slot: u32,
    /// Running, finished or failed at the saved frame.
    pub status: crate::data::Status,
    /// The frame its status began.
    pub since: u64,
    /// The image (`lua_rollback::Vm::export_image`), or why there is none.
    pub image: Result<Vec<u8>, String>,
    /// Only in movie keyframes: `image` is a delta (`lua_rollback::image_delta`) from the
    /// image of the same slot in the movie's keyframe at this frame.
    pub base: Option<u64>,
}

/// The key a script's image is sealed with: the user's key bound to the game, the script's
/// slot and its source version, so that an image moved to another game's file or to another
/// script is refused.
pub fn script_key(
    key: &lua_rollback::ImageKey,
    rom_hash: u64,
    slot: u32,
    source: SourceHash,
) -> lua_rollback::ImageKey {
    key.bind(
        format!("gbhost script: rom {rom_hash:016x} slot {slot} source {source:016x}").as_bytes(),
    )
}

/// Largest portable image a state file may hold once decompressed.
const MAX_IMAGE: usize = 256 << 20;

/// A decoded state file.
#[derive(Clone, Debug, PartialEq)]
pub struct StateFile {
    /// What it is of.
    pub meta: Meta,
    /// The core image.
    pub core: Vec<u8>,
    /// The loaded scripts.
    pub scripts: Vec<SavedScript>,
    /// The bundle of every source hash the scripts and the log name.
    pub sources: Vec<(SourceHash, Bundle)>,
    /// The event log since power-on.
    pub log: Vec<Event>,
    /// The picture at the saved frame, if saved.
    pub thumbnail: Option<Thumbnail>,
    /// The arenas, if saved.
    pub arenas: Option<Arenas>,
    /// The scripts' portable images (empty when the file has none).
    pub images: Vec<ScriptImage>,
    /// A linked pair's second player (`None`: the state is of one Game Boy).
    pub link: Option<LinkMeta>,
}

fn section(out: &mut Vec<u8>, tag: &[u8; 4], payload: &[u8]) {
    out.extend_from_slice(tag);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(payload);
}

impl StateFile {
    /// The file's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());

        let mut e = Enc::default();
        e.u64(self.meta.rom_hash);
        e.str(&self.meta.rom_title);
        e.str(&self.meta.model);
        e.var(self.meta.frame);
        e.var(self.meta.unix_time);
        e.str(&self.meta.build);
        section(&mut out, b"META", &e.buf);

        section(&mut out, b"CORE", &self.core);

        let mut e = Enc::default();
        e.var(self.scripts.len() as u64);
        for s in &self.scripts {
            e.var(u64::from(s.slot));
            e.str(&s.name);
            codec::encode_flavor(&mut e, s.flavor);
            e.u64(s.hash);
            codec::encode_persist(&mut e, &s.persist);
        }
        section(&mut out, b"SCRP", &e.buf);

        let later: Vec<&SavedScript> = self.scripts.iter().filter(|s| s.player > 0).collect();
        if !later.is_empty() {
            let mut e = Enc::default();
            e.var(later.len() as u64);
            for s in later {
                e.var(u64::from(s.slot));
                e.u8(s.player);
            }
            section(&mut out, b"SPLY", &e.buf);
        }

        let mut e = Enc::default();
        e.var(self.sources.len() as u64);
        for (hash, bundle) in &self.sources {
            e.u64(*hash);
            codec::encode_bundle(&mut e, bundle);
        }
        section(&mut out, b"SRCS", &e.buf);

        let mut e = Enc::default();
        codec::encode_events(&mut e, &self.log, 0, 0);
        section(&mut out, b"LOG ", &e.buf);

        match &self.thumbnail {
            Some(Thumbnail::Shades(t)) => {
                let mut packed = vec![0u8; PIXELS / 4];
                for (i, &p) in t.iter().take(PIXELS).enumerate() {
                    packed[i / 4] |= (p & 3) << (2 * (i % 4));
                }
                section(&mut out, b"THMB", &packed);
            }
            Some(Thumbnail::Colors(t)) => {
                let bytes: Vec<u8> = t
                    .iter()
                    .take(PIXELS)
                    .flat_map(|c| c.to_le_bytes())
                    .collect();
                section(&mut out, b"THMC", &bytes);
            }
            None => {}
        }

        if let Some(a) = &self.arenas {
            let mut e = Enc::default();
            e.u64(a.token.0);
            e.u64(a.token.1);
            e.var(a.slots.len() as u64);
            for (slot, addr, key) in &a.slots {
                e.var(u64::from(*slot));
                e.u64(*addr);
                e.bytes(key);
            }
            section(&mut out, b"ARNA", &e.buf);
        }

        if !self.images.is_empty() {
            let mut e = Enc::default();
            e.var(self.images.len() as u64);
            for i in &self.images {
                e.var(u64::from(i.slot));
                match &i.status {
                    crate::data::Status::Running => e.u8(0),
                    crate::data::Status::Finished => e.u8(1),
                    crate::data::Status::Failed(m) => {
                        e.u8(2);
                        e.str(m);
                    }
                }
                e.var(i.since);
                match (&i.image, i.base) {
                    (Ok(image), None) => {
                        e.u8(1);
                        e.bytes(&zstd::bulk::compress(image, 3).unwrap_or_default());
                    }
                    (Ok(delta), Some(base)) => {
                        e.u8(2);
                        e.var(base);
                        e.bytes(&zstd::bulk::compress(delta, 3).unwrap_or_default());
                    }
                    (Err(why), _) => {
                        e.u8(0);
                        e.str(why);
                    }
                }
            }
            section(&mut out, b"PIMG", &e.buf);
        }

        if let Some(l) = &self.link {
            let mut e = Enc::default();
            e.u64(l.rom_hash);
            e.str(&l.rom_title);
            e.str(&l.model);
            section(&mut out, b"LINK", &e.buf);
        }

        let sum = crate::data::fnv1a(&out);
        section(&mut out, b"END ", &sum.to_le_bytes());
        out
    }

    /// Decode a state file, checking everything; unknown sections are skipped.
    pub fn decode(bytes: &[u8]) -> Result<StateFile, StateFileError> {
        let sections = split_sections(bytes)?;
        let get = |tag: &'static [u8; 4], name: &'static str| {
            sections
                .get(tag)
                .copied()
                .ok_or(StateFileError::Missing(name))
        };
        let bad = |tag: &str| {
            let section = tag.to_owned();
            move |source| StateFileError::Section { section, source }
        };
        let meta = decode_meta(&mut Dec::new(get(b"META", "META")?)).map_err(bad("META"))?;
        let core = get(b"CORE", "CORE")?.to_vec();
        let mut scripts =
            decode_scripts(&mut Dec::new(get(b"SCRP", "SCRP")?)).map_err(bad("SCRP"))?;
        if let Some(p) = sections.get(b"SPLY") {
            decode_players(&mut Dec::new(p), &mut scripts).map_err(bad("SPLY"))?;
        }
        let sources = decode_sources(&mut Dec::new(get(b"SRCS", "SRCS")?)).map_err(bad("SRCS"))?;
        let log =
            decode_log(&mut Dec::new(get(b"LOG ", "LOG")?), meta.frame).map_err(bad("LOG"))?;
        let shades = sections
            .get(b"THMB")
            .map(|p| decode_thumbnail(p))
            .transpose()
            .map_err(bad("THMB"))?;
        let colors = sections
            .get(b"THMC")
            .map(|p| decode_color_thumbnail(p))
            .transpose()
            .map_err(bad("THMC"))?;
        let thumbnail = colors
            .map(Thumbnail::Colors)
            .or(shades.map(Thumbnail::Shades));
        let arenas = sections
            .get(b"ARNA")
            .map(|p| decode_arenas(&mut Dec::new(p)))
            .transpose()
            .map_err(bad("ARNA"))?;
        let images = sections
            .get(b"PIMG")
            .map(|p| decode_images(&mut Dec::new(p)))
            .transpose()
            .map_err(bad("PIMG"))?
            .unwrap_or_default();
        let link = sections
            .get(b"LINK")
            .map(|p| decode_link(&mut Dec::new(p)))
            .transpose()
            .map_err(bad("LINK"))?;
        Ok(StateFile {
            link,
            meta,
            core,
            scripts,
            sources,
            log,
            thumbnail,
            arenas,
            images,
        })
    }

    /// Whether every script of the file has a portable image sealed with `key` in a format
    /// this build reads (what an exact restore needs first); otherwise why not, per script.
    pub fn images_sealed_with(&self, key: &lua_rollback::ImageKey) -> Result<(), String> {
        let mut why = Vec::new();
        for s in &self.scripts {
            let verdict = match self.images.iter().find(|i| i.slot == s.slot) {
                None => Err("no portable image".to_owned()),
                Some(i) if i.base.is_some() => Err("a movie keyframe's delta image".to_owned()),
                Some(i) => match &i.image {
                    Err(e) => Err(e.clone()),
                    Ok(image) => lua_rollback::verify_image(
                        &script_key(key, self.meta.rom_hash, s.slot, s.hash),
                        image,
                    )
                    .map(|_| ())
                    .map_err(|e| e.to_string()),
                },
            };
            if let Err(e) = verdict {
                why.push(format!("'{}': {e}", s.name));
            }
        }
        if why.is_empty() {
            Ok(())
        } else {
            Err(why.join("; "))
        }
    }

    /// Read and decode a state file.
    pub fn read(path: &std::path::Path) -> Result<StateFile, StateFileError> {
        let bytes = std::fs::read(path).map_err(|source| StateFileError::Io {
            path: path.display().to_string(),
            source,
        })?;
        StateFile::decode(&bytes)
    }

    /// Write the file atomically: a temporary file beside it, flushed to disk, renamed over it.
    pub fn write(&self, path: &std::path::Path) -> Result<(), StateFileError> {
        crate::files::write_atomic(path, &self.encode()).map_err(|source| StateFileError::Io {
            path: path.display().to_string(),
            source,
        })
    }
}

/// Check the magic, the version and the closing checksum, and cut the sections out (each tag
/// at most once).
fn split_sections(bytes: &[u8]) -> Result<BTreeMap<[u8; 4], &[u8]>, StateFileError> {
    if bytes.len() < 12 || bytes[..8] != MAGIC {
        return Err(StateFileError::Magic);
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION {
        return Err(StateFileError::Version(version));
    }
    let mut at = 12;
    let mut sections = BTreeMap::new();
    loop {
        if bytes.len() - at < 8 {
            return Err(StateFileError::Truncated(bytes.len()));
        }
        let tag: [u8; 4] = [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]];
        let len = u32::from_le_bytes([bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]])
            as usize;
        if bytes.len() - at - 8 < len {
            return Err(StateFileError::Truncated(bytes.len()));
        }
        let payload = &bytes[at + 8..at + 8 + len];
        if &tag == b"END " {
            let sum = crate::data::fnv1a(&bytes[..at]);
            if len != 8 || payload != sum.to_le_bytes() {
                return Err(StateFileError::Checksum);
            }
            return Ok(sections);
        }
        if sections.insert(tag, payload).is_some() {
            return Err(StateFileError::Duplicate(tag_name(&tag)));
        }
        at += 8 + len;
    }
}

/// A section's content that decodes but cannot be (not tied to a byte of it).
fn invalid(what: String) -> DecodeError {
    DecodeError { what, at: 0 }
}

fn decode_meta(d: &mut Dec<'_>) -> Result<Meta, DecodeError> {
    let meta = Meta {
        rom_hash: d.u64()?,
        rom_title: d.str()?,
        model: d.str()?,
        frame: d.var()?,
        unix_time: d.var()?,
        build: d.str()?,
    };
    if meta.frame > crate::data::limits::MAX_FRAME {
        return Err(invalid(format!("frame {} is out of range", meta.frame)));
    }
    Ok(meta)
}

/// Give the scripts of `SPLY` their players.
fn decode_players(d: &mut Dec<'_>, scripts: &mut [SavedScript]) -> Result<(), DecodeError> {
    let n = d.count(2)?;
    for _ in 0..n {
        let slot = d.var32()?;
        let player = d.u8()?;
        if player == 0 || usize::from(player) >= crate::machine::Machine::MAX_PLAYERS {
            return Err(d.error(format!("player {player} is not a later player")));
        }
        let s = scripts
            .iter_mut()
            .find(|s| s.slot == slot)
            .ok_or_else(|| d.error(format!("no script in slot {slot}")))?;
        s.player = player;
    }
    Ok(())
}

fn decode_link(d: &mut Dec<'_>) -> Result<LinkMeta, DecodeError> {
    Ok(LinkMeta {
        rom_hash: d.u64()?,
        rom_title: d.str()?,
        model: d.str()?,
    })
}

fn decode_scripts(d: &mut Dec<'_>) -> Result<Vec<SavedScript>, DecodeError> {
    let n = d.count(12)?;
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        v.push(SavedScript {
            slot: d.var32()?,
            name: d.str()?,
            flavor: codec::decode_flavor(d)?,
            hash: d.u64()?,
            persist: codec::decode_persist(d)?,
            player: 0,
        });
    }
    Ok(v)
}

fn decode_sources(d: &mut Dec<'_>) -> Result<Vec<(SourceHash, Bundle)>, DecodeError> {
    let n = d.count(11)?;
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        let hash = d.u64()?;
        v.push((hash, codec::decode_bundle(d)?));
    }
    Ok(v)
}

/// The log, every event of it before the state's frame.
fn decode_log(d: &mut Dec<'_>, frame: u64) -> Result<Vec<Event>, DecodeError> {
    let log = codec::decode_events(d, 0, 0)?;
    if let Some(e) = log.iter().find(|e| e.frame >= frame) {
        return Err(invalid(format!(
            "an event of frame {} is not before the state's frame {frame}",
            e.frame
        )));
    }
    Ok(log)
}

/// The picture: 4 shades a byte.
fn decode_thumbnail(p: &[u8]) -> Result<Vec<u8>, DecodeError> {
    if p.len() != PIXELS / 4 {
        return Err(invalid(format!("{} bytes, not {}", p.len(), PIXELS / 4)));
    }
    Ok((0..PIXELS)
        .map(|i| (p[i / 4] >> (2 * (i % 4))) & 3)
        .collect())
}

/// The colour picture: RGB555, little-endian.
fn decode_color_thumbnail(p: &[u8]) -> Result<Vec<u16>, DecodeError> {
    if p.len() != PIXELS * 2 {
        return Err(invalid(format!("{} bytes, not {}", p.len(), PIXELS * 2)));
    }
    Ok(p.chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]) & 0x7FFF)
        .collect())
}

fn decode_arenas(d: &mut Dec<'_>) -> Result<Arenas, DecodeError> {
    let token = (d.u64()?, d.u64()?);
    let n = d.count(10)?;
    let mut slots = Vec::with_capacity(n);
    for _ in 0..n {
        slots.push((d.var32()?, d.u64()?, d.bytes()?.to_vec()));
    }
    Ok(Arenas { token, slots })
}

fn decode_images(d: &mut Dec<'_>) -> Result<Vec<ScriptImage>, DecodeError> {
    let n = d.count(4)?;
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        let slot = d.var32()?;
        let status = match d.u8()? {
            0 => crate::data::Status::Running,
            1 => crate::data::Status::Finished,
            2 => crate::data::Status::Failed(d.str()?),
            k => return Err(invalid(format!("unknown script status {k}"))),
        };
        let since = d.var()?;
        let mut base = None;
        let unpack = |b: &[u8]| {
            zstd::bulk::decompress(b, MAX_IMAGE)
                .map_err(|e| invalid(format!("an image does not decompress: {e}")))
        };
        let image = match d.u8()? {
            1 => Ok(unpack(d.bytes()?)?),
            2 => {
                base = Some(d.var()?);
                Ok(unpack(d.bytes()?)?)
            }
            0 => Err(d.str()?),
            k => return Err(invalid(format!("unknown image kind {k}"))),
        };
        if v.iter().any(|i: &ScriptImage| i.slot == slot) {
            return Err(invalid(format!("script slot {slot} has two images")));
        }
        v.push(ScriptImage {
            slot,
            status,
            since,
            image,
            base,
        });
    }
    Ok(v)
}

fn tag_name(tag: &[u8; 4]) -> String {
    String::from_utf8_lossy(tag).trim_end().to_owned()
}

/// The file of numbered slot `slot` (0-9) for the ROM with `rom_hash`, under `dir`.
pub fn slot_path(dir: &std::path::Path, rom_hash: u64, slot: u8) -> std::path::PathBuf {
    dir.join(format!("{rom_hash:016x}"))
        .join(format!("slot{slot}.gbs"))
}
