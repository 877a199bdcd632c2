//! Byte encoding of the session's portable data: events, script bundles and `persist` values.
//! Used by state files (`statefile.rs`) and movies (`movie.rs`).
//!
//! Integers are LEB128 varints unless named fixed-width (little-endian); byte strings and texts
//! are a varint length then the bytes. Every enum has stable ids (listed at each `encode_*`
//! below); a decoder meets an unknown id with an error, never a guess. Every length and count
//! read is checked against the bytes left before anything is allocated, so hostile input costs
//! at most its own size.

use std::collections::BTreeMap;
use std::sync::Arc;

use gb_core::{Buttons, Domain};
use lua_rollback::Value;

use crate::data::{Bundle, Event, EventKind, Flavor, FormValue, HostInput, Image};

/// Why bytes do not decode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} at byte {at}")]
pub struct DecodeError {
    /// What was wrong (`"unexpected end"`, `"unknown event id 9"`, ...).
    pub what: String,
    /// Offset in the decoded bytes.
    pub at: usize,
}

/// Largest image side a bundle may hold (pixels).
const MAX_IMAGE_SIDE: u32 = 4096;

/// An encoder: appends to a byte vector.
#[derive(Debug, Default)]
pub struct Enc {
    /// The bytes so far.
    pub buf: Vec<u8>,
}

impl Enc {
    /// One byte.
    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    /// Fixed-width little-endian u16.
    pub fn u16(&mut self, v: u16) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Fixed-width little-endian u32.
    pub fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Fixed-width little-endian u64.
    pub fn u64(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// A LEB128 varint.
    pub fn var(&mut self, mut v: u64) {
        loop {
            let byte = (v & 0x7F) as u8;
            v >>= 7;
            if v == 0 {
                self.buf.push(byte);
                return;
            }
            self.buf.push(byte | 0x80);
        }
    }

    /// A length-prefixed byte string.
    pub fn bytes(&mut self, v: &[u8]) {
        self.var(v.len() as u64);
        self.buf.extend_from_slice(v);
    }

    /// A length-prefixed UTF-8 text.
    pub fn str(&mut self, v: &str) {
        self.bytes(v.as_bytes());
    }
}

/// A decoder over a byte slice.
#[derive(Debug)]
pub struct Dec<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Dec<'a> {
    /// Decode `data` from its start.
    pub fn new(data: &'a [u8]) -> Dec<'a> {
        Dec { data, pos: 0 }
    }

    /// An error at the current offset.
    pub fn error(&self, what: impl Into<String>) -> DecodeError {
        DecodeError {
            what: what.into(),
            at: self.pos,
        }
    }

    /// Bytes not yet decoded.
    pub fn left(&self) -> usize {
        self.data.len() - self.pos
    }

    /// Whether everything was decoded.
    pub fn is_empty(&self) -> bool {
        self.left() == 0
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        if n > self.left() {
            return Err(self.error(format!(
                "unexpected end ({n} bytes needed, {} left)",
                self.left()
            )));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// One byte.
    pub fn u8(&mut self) -> Result<u8, DecodeError> {
        Ok(self.take(1)?[0])
    }

    /// Fixed-width little-endian u16.
    pub fn u16(&mut self) -> Result<u16, DecodeError> {
        Ok(u16::from_le_bytes(
            self.take(2)?.try_into().unwrap_or([0; 2]),
        ))
    }

    /// Fixed-width little-endian u32.
    pub fn u32(&mut self) -> Result<u32, DecodeError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().unwrap_or([0; 4]),
        ))
    }

    /// Fixed-width little-endian u64.
    pub fn u64(&mut self) -> Result<u64, DecodeError> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().unwrap_or([0; 8]),
        ))
    }

    /// A LEB128 varint (at most 10 bytes, no overflow).
    pub fn var(&mut self) -> Result<u64, DecodeError> {
        let mut v = 0u64;
        for shift in (0..70).step_by(7) {
            let byte = self.u8()?;
            let part = u64::from(byte & 0x7F);
            if shift == 63 && part > 1 {
                return Err(self.error("varint overflows 64 bits"));
            }
            v |= part << shift;
            if byte & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(self.error("varint longer than 10 bytes"))
    }

    /// A varint that must fit in a `u32`.
    pub fn var32(&mut self) -> Result<u32, DecodeError> {
        let v = self.var()?;
        u32::try_from(v).map_err(|_| self.error(format!("{v} does not fit in 32 bits")))
    }

    /// A count of items each at least `min_size` bytes long: refused when the bytes left could
    /// not hold them (so a hostile count allocates nothing).
    pub fn count(&mut self, min_size: usize) -> Result<usize, DecodeError> {
        let n = self.var()?;
        let fits = usize::try_from(n)
            .ok()
            .filter(|&n| n.saturating_mul(min_size.max(1)) <= self.left());
        fits.ok_or_else(|| self.error(format!("count {n} exceeds the bytes left")))
    }

    /// A length-prefixed byte string.
    pub fn bytes(&mut self) -> Result<&'a [u8], DecodeError> {
        let n = self.count(1)?;
        self.take(n)
    }

    /// A length-prefixed UTF-8 text.
    pub fn str(&mut self) -> Result<String, DecodeError> {
        let at = self.pos;
        let b = self.bytes()?;
        String::from_utf8(b.to_vec()).map_err(|_| DecodeError {
            what: "text is not UTF-8".into(),
            at,
        })
    }
}

/// Encode a script's API: ids 0 native, 1 BizHawk, 2 VBA-rr.
pub fn encode_flavor(e: &mut Enc, f: Flavor) {
    e.u8(match f {
        Flavor::Native => 0,
        Flavor::BizHawk => 1,
        Flavor::Vba => 2,
        Flavor::Mgba => 3,
    });
}

/// Decode a script's API (see [`encode_flavor`]).
pub fn decode_flavor(d: &mut Dec<'_>) -> Result<Flavor, DecodeError> {
    let id = d.u8()?;
    Ok(match id {
        0 => Flavor::Native,
        1 => Flavor::BizHawk,
        2 => Flavor::Vba,
        3 => Flavor::Mgba,
        _ => return Err(d.error(format!("unknown script API id {id}"))),
    })
}

/// Most keys a [`HostInput`] may name (more in a file is an error).
const MAX_HOST_KEYS: u64 = 128;

fn zigzag(v: i32) -> u64 {
    u64::from(((v << 1) ^ (v >> 31)) as u32)
}

fn unzigzag(d: &mut Dec<'_>) -> Result<i32, DecodeError> {
    let z = d.var32()?;
    Ok(((z >> 1) as i32) ^ -((z & 1) as i32))
}

/// Encode a user's action on a form: 0 click, 1 check (then 0 or 1), 2 text (then the text),
/// 3 select (then the index), 4 close.
pub fn encode_form_value(e: &mut Enc, v: &FormValue) {
    match v {
        FormValue::Click => e.u8(0),
        FormValue::Check(b) => {
            e.u8(1);
            e.u8(u8::from(*b));
        }
        FormValue::Text(t) => {
            e.u8(2);
            e.str(t);
        }
        FormValue::Select(i) => {
            e.u8(3);
            e.var(u64::from(*i));
        }
        FormValue::Close => e.u8(4),
    }
}

/// Decode a user's action on a form (see [`encode_form_value`]).
pub fn decode_form_value(d: &mut Dec<'_>) -> Result<FormValue, DecodeError> {
    let id = d.u8()?;
    Ok(match id {
        0 => FormValue::Click,
        1 => FormValue::Check(d.u8()? != 0),
        2 => FormValue::Text(d.str()?),
        3 => FormValue::Select(d.var32()?),
        4 => FormValue::Close,
        _ => return Err(d.error(format!("unknown form action id {id}"))),
    })
}

/// Encode the host's keys and mouse: the key count and names, then x, y (zigzag), buttons,
/// wheel (zigzag).
pub fn encode_host_input(e: &mut Enc, v: &HostInput) {
    e.var(v.keys.len() as u64);
    for k in &v.keys {
        e.str(k);
    }
    e.var(zigzag(v.mouse_x));
    e.var(zigzag(v.mouse_y));
    e.u8(v.mouse_buttons);
    e.var(zigzag(v.wheel));
}

/// Decode the host's keys and mouse (see [`encode_host_input`]).
pub fn decode_host_input(d: &mut Dec<'_>) -> Result<HostInput, DecodeError> {
    let n = d.var()?;
    if n > MAX_HOST_KEYS {
        return Err(d.error(format!("{n} keys held (at most {MAX_HOST_KEYS})")));
    }
    let mut keys = Vec::new();
    for _ in 0..n {
        keys.push(d.str()?);
    }
    Ok(HostInput {
        keys,
        mouse_x: unzigzag(d)?,
        mouse_y: unzigzag(d)?,
        mouse_buttons: d.u8()?,
        wheel: unzigzag(d)?,
    })
}

/// Encode one event's kind. Ids: 0 joypad, 1 poke, 2 script load, 3 script reload, 4 script
/// unload, 5 resumed, 6 load state, 7 persist, 8 poke into a memory (domain ids: 0 WRAM,
/// 1 VRAM, 2 OAM, 3 HRAM, 4 cartridge RAM, 5 ROM: read-only, applied as nothing), 9 a form
/// action (slot, control, [`encode_form_value`]), 10 the host's keys and mouse
/// ([`encode_host_input`]), 11 a script's file read, 12 the start time, 13 a cheat, 14 a
/// later player's joypad (the player, 1 for the second, and the buttons), 15 the link cable
/// plugged in (1) or pulled out (0).
pub fn encode_kind(e: &mut Enc, kind: &EventKind) {
    match kind {
        EventKind::Joypad(b) => {
            e.u8(0);
            e.u8(b.0);
        }
        EventKind::Poke { addr, value } => {
            e.u8(1);
            e.u16(*addr);
            e.u8(*value);
        }
        EventKind::ScriptLoad {
            slot,
            name,
            hash,
            flavor,
        } => {
            e.u8(2);
            e.var(u64::from(*slot));
            e.str(name);
            e.u64(*hash);
            encode_flavor(e, *flavor);
        }
        EventKind::ScriptReload { slot, hash } => {
            e.u8(3);
            e.var(u64::from(*slot));
            e.u64(*hash);
        }
        EventKind::ScriptUnload { slot } => {
            e.u8(4);
            e.var(u64::from(*slot));
        }
        EventKind::Resumed => e.u8(5),
        EventKind::LoadState { index } => {
            e.u8(6);
            e.var(*index as u64);
        }
        EventKind::Persist { slot, data } => {
            e.u8(7);
            e.var(u64::from(*slot));
            e.bytes(data);
        }
        EventKind::PokeMemory {
            domain,
            offset,
            value,
        } => {
            e.u8(8);
            e.u8(match domain {
                Domain::Wram => 0,
                Domain::Vram => 1,
                Domain::Oam => 2,
                Domain::Hram => 3,
                Domain::CartRam => 4,
                Domain::Rom => 5,
            });
            e.var(u64::from(*offset));
            e.u8(*value);
        }
        EventKind::Form {
            slot,
            control,
            value,
        } => {
            e.u8(9);
            e.var(u64::from(*slot));
            e.var(u64::from(*control));
            encode_form_value(e, value);
        }
        EventKind::HostInput(input) => {
            e.u8(10);
            encode_host_input(e, input);
        }
        EventKind::FileRead { slot, path, hash } => {
            e.u8(11);
            e.var(u64::from(*slot));
            e.str(path);
            e.u64(*hash);
        }
        EventKind::Clock { unix } => {
            e.u8(12);
            e.var(*unix);
        }
        EventKind::PlayerJoypad { player, buttons } => {
            e.u8(14);
            e.u8(*player);
            e.u8(buttons.0);
        }
        EventKind::Cable { plugged } => {
            e.u8(15);
            e.u8(u8::from(*plugged));
        }
        EventKind::ScriptPlayer { slot, player } => {
            e.u8(16);
            e.var(u64::from(*slot));
            e.u8(*player);
        }
        EventKind::Cheat { code, on } => {
            e.u8(13);
            e.str(code);
            e.u8(u8::from(*on));
        }
    }
}

/// Decode one event's kind (see [`encode_kind`]).
pub fn decode_kind(d: &mut Dec<'_>) -> Result<EventKind, DecodeError> {
    let id = d.u8()?;
    Ok(match id {
        0 => EventKind::Joypad(Buttons(d.u8()?)),
        1 => EventKind::Poke {
            addr: d.u16()?,
            value: d.u8()?,
        },
        2 => EventKind::ScriptLoad {
            slot: d.var32()?,
            name: d.str()?,
            hash: d.u64()?,
            flavor: decode_flavor(d)?,
        },
        3 => EventKind::ScriptReload {
            slot: d.var32()?,
            hash: d.u64()?,
        },
        4 => EventKind::ScriptUnload { slot: d.var32()? },
        5 => EventKind::Resumed,
        6 => EventKind::LoadState {
            index: usize::try_from(d.var()?).map_err(|_| d.error("state index too large"))?,
        },
        7 => EventKind::Persist {
            slot: d.var32()?,
            data: d.bytes()?.to_vec(),
        },
        8 => EventKind::PokeMemory {
            domain: match d.u8()? {
                0 => Domain::Wram,
                1 => Domain::Vram,
                2 => Domain::Oam,
                3 => Domain::Hram,
                4 => Domain::CartRam,
                5 => Domain::Rom,
                k => return Err(d.error(format!("unknown memory domain {k}"))),
            },
            offset: d.var32()?,
            value: d.u8()?,
        },
        9 => EventKind::Form {
            slot: d.var32()?,
            control: d.var32()?,
            value: decode_form_value(d)?,
        },
        10 => EventKind::HostInput(decode_host_input(d)?),
        11 => EventKind::FileRead {
            slot: d.var32()?,
            path: d.str()?,
            hash: d.u64()?,
        },
        12 => EventKind::Clock { unix: d.var()? },
        13 => EventKind::Cheat {
            code: d.str()?,
            on: d.u8()? != 0,
        },
        14 => EventKind::PlayerJoypad {
            player: match d.u8()? {
                p @ 1..=3 => p,
                p => return Err(d.error(format!("player {p} is not a later player"))),
            },
            buttons: Buttons(d.u8()?),
        },
        15 => EventKind::Cable {
            plugged: match d.u8()? {
                0 => false,
                1 => true,
                v => return Err(d.error(format!("cable state {v}"))),
            },
        },
        16 => EventKind::ScriptPlayer {
            slot: d.var32()?,
            player: match d.u8()? {
                p if usize::from(p) < crate::machine::Machine::MAX_PLAYERS => p,
                p => return Err(d.error(format!("player {p} is out of range"))),
            },
        },
        _ => return Err(d.error(format!("unknown event id {id}"))),
    })
}

/// Encode events as deltas from `(frame, cycle)`: each is the frame delta, the cycle delta
/// from the previous event's cycle (or from `cycle`; zigzag-coded, as an event aligned to a
/// frame's start may carry cycle 0), and the kind. Frames must never decrease.
pub fn encode_events(e: &mut Enc, events: &[Event], mut frame: u64, mut cycle: u64) {
    e.var(events.len() as u64);
    for ev in events {
        e.var(ev.frame.wrapping_sub(frame));
        let delta = ev.cycle.wrapping_sub(cycle) as i64;
        e.var(((delta << 1) ^ (delta >> 63)) as u64);
        frame = ev.frame;
        cycle = ev.cycle;
        encode_kind(e, &ev.kind);
    }
}

/// Decode what [`encode_events`] wrote (with the same `frame` and `cycle`).
pub fn decode_events(
    d: &mut Dec<'_>,
    mut frame: u64,
    mut cycle: u64,
) -> Result<Vec<Event>, DecodeError> {
    // An event takes at least 3 bytes.
    let n = d.count(3)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        frame = frame
            .checked_add(d.var()?)
            .ok_or_else(|| d.error("frame overflows"))?;
        let z = d.var()?;
        cycle = cycle.wrapping_add(((z >> 1) as i64 ^ -((z & 1) as i64)) as u64);
        let kind = decode_kind(d)?;
        out.push(Event { frame, cycle, kind });
    }
    Ok(out)
}

/// Encode a script bundle: main text, modules (name, text), images (name, width, height, RGBA).
pub fn encode_bundle(e: &mut Enc, b: &Bundle) {
    e.str(&b.main);
    e.var(b.modules.len() as u64);
    for (name, text) in &b.modules {
        e.str(name);
        e.str(text);
    }
    e.var(b.images.len() as u64);
    for (name, img) in &b.images {
        e.str(name);
        e.u32(img.width);
        e.u32(img.height);
        e.bytes(&img.rgba);
    }
}

/// Decode a bundle (see [`encode_bundle`]); image sizes are checked against their pixels.
pub fn decode_bundle(d: &mut Dec<'_>) -> Result<Bundle, DecodeError> {
    let main = d.str()?;
    let n = d.count(2)?;
    let mut modules = Vec::with_capacity(n);
    for _ in 0..n {
        modules.push((d.str()?, d.str()?));
    }
    let n = d.count(10)?;
    let mut images = Vec::with_capacity(n);
    for _ in 0..n {
        let name = d.str()?;
        let (width, height) = (d.u32()?, d.u32()?);
        if width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE {
            return Err(d.error(format!("image {name} is too large ({width}x{height})")));
        }
        let rgba = d.bytes()?;
        if rgba.len() as u64 != u64::from(width) * u64::from(height) * 4 {
            return Err(d.error(format!("image {name}: pixel bytes do not match its size")));
        }
        images.push((
            name,
            Image {
                width,
                height,
                rgba: Arc::from(rgba),
            },
        ));
    }
    Ok(Bundle {
        main,
        modules,
        images,
    })
}

/// Encode a `persist` table. Value ids: 0 nil, 1 false, 2 true, 3 integer, 4 float, 5 string
/// (other values are never stored in `persist`; they encode as nil).
pub fn encode_persist(e: &mut Enc, map: &BTreeMap<Vec<u8>, Value>) {
    e.var(map.len() as u64);
    for (k, v) in map {
        e.bytes(k);
        match v {
            Value::Boolean(false) => e.u8(1),
            Value::Boolean(true) => e.u8(2),
            Value::Integer(i) => {
                e.u8(3);
                e.u64(*i as u64);
            }
            Value::Number(f) => {
                e.u8(4);
                e.u64(f.to_bits());
            }
            Value::String(s) => {
                e.u8(5);
                e.bytes(s);
            }
            Value::Nil | Value::Other(_) => e.u8(0),
        }
    }
}

/// Decode a `persist` table (see [`encode_persist`]).
pub fn decode_persist(d: &mut Dec<'_>) -> Result<BTreeMap<Vec<u8>, Value>, DecodeError> {
    let n = d.count(2)?;
    let mut map = BTreeMap::new();
    for _ in 0..n {
        let k = d.bytes()?.to_vec();
        let id = d.u8()?;
        let v = match id {
            0 => Value::Nil,
            1 => Value::Boolean(false),
            2 => Value::Boolean(true),
            3 => Value::Integer(d.u64()? as i64),
            4 => Value::Number(f64::from_bits(d.u64()?)),
            5 => Value::String(d.bytes()?.to_vec()),
            _ => return Err(d.error(format!("unknown value id {id}"))),
        };
        if v != Value::Nil {
            map.insert(k, v);
        }
    }
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_events() -> Vec<Event> {
        vec![
            Event {
                frame: 0,
                cycle: 65_536,
                kind: EventKind::Clock {
                    unix: 1_795_000_000,
                },
            },
            Event {
                frame: 0,
                cycle: 65_536,
                kind: EventKind::Cheat {
                    code: "00A-17B-C49".into(),
                    on: true,
                },
            },
            Event {
                frame: 0,
                cycle: 65_536,
                kind: EventKind::ScriptLoad {
                    slot: 1,
                    name: "hud.lua".into(),
                    hash: 0xDEAD_BEEF_1234,
                    flavor: Flavor::BizHawk,
                },
            },
            Event {
                frame: 3,
                cycle: 70_000,
                kind: EventKind::Joypad(Buttons::A),
            },
            Event {
                frame: 3,
                cycle: 70_100,
                kind: EventKind::Poke {
                    addr: 0xC000,
                    value: 7,
                },
            },
            Event {
                frame: 3,
                cycle: 70_101,
                kind: EventKind::PokeMemory {
                    domain: gb_core::Domain::Vram,
                    offset: 0x2ABC,
                    value: 9,
                },
            },
            Event {
                frame: 4,
                cycle: 80_000,
                kind: EventKind::FileRead {
                    slot: 1,
                    path: "data/route.txt".into(),
                    hash: 0x1234_5678_9ABC_DEF0,
                },
            },
            Event {
                frame: 900,
                cycle: 9_999_999,
                kind: EventKind::Persist {
                    slot: 1,
                    data: vec![1, 2, 3],
                },
            },
            Event {
                frame: 901,
                cycle: 10_000_000,
                kind: EventKind::Resumed,
            },
            Event {
                frame: 902,
                cycle: 0,
                kind: EventKind::Joypad(Buttons::START),
            },
        ]
    }

    #[test]
    fn events_round_trip() {
        let mut e = Enc::default();
        encode_events(&mut e, &sample_events(), 0, 65_536);
        let mut d = Dec::new(&e.buf);
        assert_eq!(decode_events(&mut d, 0, 65_536).unwrap(), sample_events());
        assert!(d.is_empty());
    }

    #[test]
    fn varints_round_trip_and_refuse_overflow() {
        for v in [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            let mut e = Enc::default();
            e.var(v);
            assert_eq!(Dec::new(&e.buf).var().unwrap(), v);
        }
        assert!(Dec::new(&[0xFF; 11]).var().is_err());
        assert!(
            Dec::new(&[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])
                .var()
                .is_err()
        );
    }

    #[test]
    fn bundle_and_persist_round_trip() {
        let b = Bundle {
            main: "print(1)".into(),
            modules: vec![("m".into(), "return 2".into())],
            images: vec![(
                "a.png".into(),
                Image {
                    width: 1,
                    height: 2,
                    rgba: Arc::from(&[1u8, 2, 3, 4, 5, 6, 7, 8][..]),
                },
            )],
        };
        let mut e = Enc::default();
        encode_bundle(&mut e, &b);
        assert_eq!(decode_bundle(&mut Dec::new(&e.buf)).unwrap(), b);
        let mut p = BTreeMap::new();
        p.insert(b"best".to_vec(), Value::Integer(-5));
        p.insert(b"name".to_vec(), Value::String(b"x".to_vec()));
        p.insert(b"ok".to_vec(), Value::Boolean(true));
        p.insert(b"f".to_vec(), Value::Number(1.5));
        let mut e = Enc::default();
        encode_persist(&mut e, &p);
        assert_eq!(decode_persist(&mut Dec::new(&e.buf)).unwrap(), p);
    }

    /// Hostile bytes: every prefix and many bit flips of valid encodings decode or fail,
    /// never panic, and never allocate beyond their size.
    #[test]
    fn hostile_bytes_never_panic() {
        let mut e = Enc::default();
        encode_events(&mut e, &sample_events(), 0, 0);
        let good = e.buf;
        for n in 0..good.len() {
            let _ = decode_events(&mut Dec::new(&good[..n]), 0, 0);
        }
        let mut x = 0x1234_5678_9abc_def1u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut bad = good.clone();
            let i = (x as usize) % bad.len();
            bad[i] ^= 1 << ((x >> 32) % 8);
            let _ = decode_events(&mut Dec::new(&bad), 0, 0);
            let _ = decode_bundle(&mut Dec::new(&bad));
            let _ = decode_persist(&mut Dec::new(&bad));
        }
        // A count that claims more than the bytes hold is refused at once.
        let mut e = Enc::default();
        e.var(u64::MAX / 2);
        assert!(decode_events(&mut Dec::new(&e.buf), 0, 0).is_err());
    }
}
