//! The memory calls: reads and writes in every width, sign and byte order, byte strings,
//! search, domain sizes; on the bus (side-effect-free reads, CPU-like writes), the I/O page,
//! or a flat domain (ROM, WRAM, VRAM, OAM, HRAM, cartridge RAM).

use gb_core::{Domain, Gb};
use lua_rollback::Value;

use super::args::{address, bytes_arg, int, type_name};
use super::context::Api;
use super::spec::{FIXED, READ, WIDTHS, WRITE, id};
use crate::data::EventKind;

/// Where a memory access goes: the bus (side-effect-free reads, CPU-like writes) or a flat
/// domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Space {
    Bus,
    Io,
    Flat(Domain),
}

/// The domains by name (matched without regard to case: BizHawk's "WRAM" and "System Bus" are
/// these too).
const SPACES: [(&str, Space); 10] = [
    ("bus", Space::Bus),
    ("system bus", Space::Bus),
    ("wram", Space::Flat(Domain::Wram)),
    ("io", Space::Io),
    ("rom", Space::Flat(Domain::Rom)),
    ("vram", Space::Flat(Domain::Vram)),
    ("oam", Space::Flat(Domain::Oam)),
    ("hram", Space::Flat(Domain::Hram)),
    ("cartram", Space::Flat(Domain::CartRam)),
    ("sram", Space::Flat(Domain::CartRam)),
];

/// The spaces of [`super::spec::FIXED_DOMAINS`], in its order (a test keeps them so).
const FIXED_SPACES: [Space; 8] = [
    Space::Bus,
    Space::Io,
    Space::Flat(Domain::Rom),
    Space::Flat(Domain::Wram),
    Space::Flat(Domain::Vram),
    Space::Flat(Domain::Oam),
    Space::Flat(Domain::Hram),
    Space::Flat(Domain::CartRam),
];

/// A domain of one player's Game Boy: `player` `None` is the calling script's own (a name
/// without prefix), `Some(p)` player `p`'s (0: the first), named with BizHawk's link-core
/// prefix `P1 `/`P2 ` (`p2 wram`, `P2 System Bus`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Target {
    player: Option<usize>,
    sp: Space,
}

/// The domain named by `args[i]` (no name: `default`, on the caller's own Game Boy).
fn target(args: &[Value], i: usize, default: Space, what: &str) -> Result<Target, String> {
    let (player, name) = match args.get(i) {
        Some(Value::String(s))
            if s.len() > 3 && s[0].eq_ignore_ascii_case(&b'p') && s[2] == b' ' =>
        {
            match s[1] {
                b'1' => (Some(0), &s[3..]),
                b'2' => (Some(1), &s[3..]),
                _ => (None, &s[..]),
            }
        }
        _ => (None, &[][..]),
    };
    let sp = match player {
        Some(_) => space_named(name, what)?,
        None => space(args, i, default, what)?,
    };
    Ok(Target { player, sp })
}

fn space(args: &[Value], i: usize, default: Space, what: &str) -> Result<Space, String> {
    let name = match args.get(i) {
        None | Some(Value::Nil) => return Ok(default),
        Some(Value::String(s)) => s,
        other => {
            return Err(format!(
                "bad argument #{} to '{what}' (domain name expected, got {})",
                i + 1,
                type_name(other)
            ));
        }
    };
    space_named(name, what)
}

/// The domain called `name` (no allocation on the way to a known name: scripts pass one on
/// every call).
fn space_named(name: &[u8], what: &str) -> Result<Space, String> {
    SPACES
        .iter()
        .find(|(n, _)| n.as_bytes().eq_ignore_ascii_case(name))
        .map(|&(_, sp)| sp)
        .ok_or_else(|| {
            format!(
                "{what}: unknown memory domain '{}' (bus, rom, wram, vram, oam, hram, io, cartram; \
                 on a linked pair also p1 or p2 and one of them: p2 wram)",
                String::from_utf8_lossy(name)
            )
        })
}

fn space_len(gb: &Gb, sp: Space) -> usize {
    match sp {
        Space::Bus => 0x10000,
        Space::Io => 0x81,
        Space::Flat(d) => gb.domain(d).len(),
    }
}

/// The bus address of offset `a` in the `io` domain (0x80 is IE, 0xFFFF).
fn io_addr(a: usize) -> u16 {
    if a == 0x80 { 0xFFFF } else { 0xFF00 + a as u16 }
}

fn peek(gb: &Gb, sp: Space, a: usize) -> Option<u8> {
    match sp {
        Space::Bus => u16::try_from(a).ok().map(|a| gb.peek(a)),
        Space::Io => (a <= 0x80).then(|| gb.peek(io_addr(a))),
        Space::Flat(d) => gb.domain(d).get(a).copied(),
    }
}

fn poke(gb: &mut Gb, sp: Space, a: usize, v: u8, what: &str) -> Result<(), String> {
    let out = || format!("{what}: address {a:#x} is outside the domain");
    match sp {
        Space::Bus => gb.poke(u16::try_from(a).map_err(|_| out())?, v),
        Space::Io if a <= 0x80 => gb.poke(io_addr(a), v),
        Space::Io => return Err(out()),
        Space::Flat(d) => {
            let mem = gb
                .domain_mut(d)
                .ok_or_else(|| format!("{what}: the ROM is read-only"))?;
            *mem.get_mut(a).ok_or_else(out)? = v;
        }
    }
    Ok(())
}

/// Most bytes `memory.read_bytes` returns at once.
const MAX_READ: usize = 1 << 20;
/// Most addresses `memory.search` returns.
const MAX_HITS: usize = 65_536;

/// The accessors' names, by index in `WIDTHS` (static, so a call allocates nothing).
const READ_NAMES: [&str; 10] = [
    "memory.read_u8",
    "memory.read_s8",
    "memory.read_u16_le",
    "memory.read_u16_be",
    "memory.read_s16_le",
    "memory.read_s16_be",
    "memory.read_u32_le",
    "memory.read_u32_be",
    "memory.read_s32_le",
    "memory.read_s32_be",
];
/// See [`READ_NAMES`].
const WRITE_NAMES: [&str; 10] = [
    "memory.write_u8",
    "memory.write_s8",
    "memory.write_u16_le",
    "memory.write_u16_be",
    "memory.write_s16_le",
    "memory.write_s16_be",
    "memory.write_u32_le",
    "memory.write_u32_be",
    "memory.write_s32_le",
    "memory.write_s32_be",
];

impl Api<'_> {
    /// The Game Boy `t` names: the caller's own, or a linked pair's player (the other one
    /// when it is not the caller's).
    fn gb_of(&self, t: Target, what: &str) -> Result<&Gb, String> {
        match t.player {
            None => Ok(self.gb),
            Some(p) if p == self.view.player => Ok(self.gb),
            Some(p) => self.other.as_deref().ok_or_else(|| no_player(p, what)),
        }
    }

    /// [`Api::gb_of`], to write into (a script's writes are replayed with it: no event).
    fn gb_of_mut(&mut self, t: Target, what: &str) -> Result<&mut Gb, String> {
        match t.player {
            None => Ok(self.gb),
            Some(p) if p == self.view.player => Ok(self.gb),
            Some(p) => self.other.as_deref_mut().ok_or_else(|| no_player(p, what)),
        }
    }

    fn read(&self, id: u32, args: &[Value]) -> Result<i64, String> {
        let wi = (id - READ) as usize;
        let (_, n, signed, _) = WIDTHS[wi];
        // The common case first: one byte on the bus.
        if n == 1
            && args.len() < 2
            && let Some(Value::Integer(a)) = args.first()
            && let Ok(a) = u16::try_from(*a)
        {
            let v = self.gb.peek(a);
            return Ok(if signed {
                i64::from(v as i8)
            } else {
                i64::from(v)
            });
        }
        self.read_in(wi, Space::Bus, args)
    }

    /// Read width `wi` at `args[0]` in `args[1]`'s domain, or in `default`.
    fn read_in(&self, wi: usize, default: Space, args: &[Value]) -> Result<i64, String> {
        let (_, n, signed, big) = WIDTHS[wi];
        let what = READ_NAMES[wi];
        let a = address(args, 0, what)?;
        let t = target(args, 1, default, what)?;
        let (gb, sp) = (self.gb_of(t, what)?, t.sp);
        let mut v: u32 = 0;
        for k in 0..n {
            // The bus wraps at 0x10000; other domains end.
            let at = if sp == Space::Bus {
                (a + k) & 0xFFFF
            } else {
                a + k
            };
            let b = peek(gb, sp, at)
                .ok_or_else(|| format!("{what}: address {at:#x} is outside the domain"))?;
            let shift = if big { 8 * (n - 1 - k) } else { 8 * k };
            v |= u32::from(b) << shift;
        }
        Ok(match (n, signed) {
            (1, true) => i64::from(v as u8 as i8),
            (2, true) => i64::from(v as u16 as i16),
            (4, true) => i64::from(v as i32),
            _ => i64::from(v),
        })
    }

    /// Write width `wi` of `args[1]` at `args[0]` in `args[2]`'s domain, or in `default`.
    fn write_in(&mut self, wi: usize, default: Space, args: &[Value]) -> Result<(), String> {
        let (_, n, _, big) = WIDTHS[wi];
        let what = WRITE_NAMES[wi];
        let a = address(args, 0, what)?;
        let v = int(args, 1, what)?;
        let t = target(args, 2, default, what)?;
        for k in 0..n {
            let at = if t.sp == Space::Bus {
                (a + k) & 0xFFFF
            } else {
                a + k
            };
            let shift = if big { 8 * (n - 1 - k) } else { 8 * k };
            self.store(t, at, (v >> shift) as u8, what)?;
        }
        Ok(())
    }

    /// A [`FIXED`] accessor: its domain is the default, a method skips its object.
    pub(super) fn call_fixed(
        &mut self,
        id: u32,
        args: &[Value],
        ret: &mut Vec<Value>,
    ) -> Result<(), String> {
        let x = id - FIXED;
        let args = if x & 512 != 0 {
            args.get(1..).unwrap_or(&[])
        } else {
            args
        };
        let wi = (x & 15) as usize;
        let Some(&default) = FIXED_SPACES.get(((x >> 5) & 15) as usize) else {
            return Err(format!("unknown host function {id}"));
        };
        if wi >= WIDTHS.len() {
            return Err(format!("unknown host function {id}"));
        }
        if x & 16 != 0 {
            self.write_in(wi, default, args)
        } else {
            // One byte of the bus or a flat domain: the HUDs' hot path.
            if wi == 0
                && args.len() < 2
                && let Some(Value::Integer(a)) = args.first()
            {
                let b = match default {
                    Space::Bus => u16::try_from(*a).ok().map(|a| self.gb.peek(a)),
                    Space::Flat(d) => usize::try_from(*a)
                        .ok()
                        .and_then(|a| self.gb.domain(d).get(a).copied()),
                    Space::Io => None,
                };
                if let Some(b) = b {
                    ret.push(Value::Integer(i64::from(b)));
                    return Ok(());
                }
            }
            ret.push(Value::Integer(self.read_in(wi, default, args)?));
            Ok(())
        }
    }

    /// Write one byte: into the machine for scripts, as a poke to log for the console.
    fn store(&mut self, t: Target, a: usize, v: u8, what: &str) -> Result<(), String> {
        let sp = t.sp;
        if self.pokes.is_none() {
            return poke(self.gb_of_mut(t, what)?, sp, a, v, what);
        }
        // The console's writes are logged as pokes, and a poke event is player 1's.
        if t.player.is_some_and(|p| p != 0) {
            return Err(format!(
                "{what}: the console writes into player 1's Game Boy only (it reads both)"
            ));
        }
        let Some(pokes) = &mut self.pokes else {
            return Ok(());
        };
        let kind = match sp {
            Space::Flat(domain) => {
                if a >= space_len(self.gb, sp) {
                    return Err(format!("{what}: address {a:#x} is outside the domain"));
                }
                if domain == Domain::Rom {
                    return Err(format!("{what}: the ROM is read-only"));
                }
                EventKind::PokeMemory {
                    domain,
                    offset: a as u32,
                    value: v,
                }
            }
            _ => EventKind::Poke {
                addr: bus_address(sp, a)
                    .ok_or_else(|| format!("{what}: address {a:#x} is outside the domain"))?,
                value: v,
            },
        };
        pokes.push(kind);
        Ok(())
    }

    /// The memory calls. Returns false for an id that is not one of them.
    pub(super) fn call_memory(
        &mut self,
        id: u32,
        args: &[Value],
        ret: &mut Vec<Value>,
    ) -> Result<bool, String> {
        match id {
            _ if (READ..READ + WIDTHS.len() as u32).contains(&id) => {
                ret.push(Value::Integer(self.read(id, args)?));
            }
            _ if (WRITE..WRITE + WIDTHS.len() as u32).contains(&id) => {
                self.write_in((id - WRITE) as usize, Space::Bus, args)?
            }
            id::READ_BYTES => {
                let what = "memory.read_bytes";
                let a = address(args, 0, what)?;
                let n = int(args, 1, what)?.clamp(0, MAX_READ as i64) as usize;
                let t = target(args, 2, Space::Bus, what)?;
                let (gb, sp) = (self.gb_of(t, what)?, t.sp);
                let len = space_len(gb, sp);
                let bytes: Vec<u8> = (a..a.saturating_add(n).min(len))
                    .filter_map(|at| peek(gb, sp, at))
                    .collect();
                ret.push(Value::String(bytes));
            }
            id::WRITE_BYTES => {
                let what = "memory.write_bytes";
                let a = address(args, 0, what)?;
                let bytes = bytes_arg(args, 1, what)?.to_vec();
                let t = target(args, 2, Space::Bus, what)?;
                for (k, b) in bytes.into_iter().enumerate() {
                    self.store(t, a + k, b, what)?;
                }
            }
            id::SEARCH => {
                let what = "memory.search";
                let needle = bytes_arg(args, 0, what)?.to_vec();
                let t = target(args, 1, Space::Flat(Domain::Wram), what)?;
                let (gb, sp) = (self.gb_of(t, what)?, t.sp);
                let hay: Vec<u8> = match sp {
                    Space::Flat(d) => gb.domain(d).to_vec(),
                    _ => (0..space_len(gb, sp))
                        .filter_map(|a| peek(gb, sp, a))
                        .collect(),
                };
                let mut packed = Vec::new();
                if !needle.is_empty() {
                    for (a, w) in hay.windows(needle.len()).enumerate() {
                        if w == needle.as_slice() {
                            packed.extend_from_slice(&(a as u32).to_le_bytes());
                            if packed.len() / 4 >= MAX_HITS {
                                break;
                            }
                        }
                    }
                }
                ret.push(Value::String(packed));
            }
            id::DOMAIN_SIZE => {
                let t = target(args, 0, Space::Bus, "memory.size")?;
                let gb = self.gb_of(t, "memory.size")?;
                ret.push(Value::Integer(space_len(gb, t.sp) as i64));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// The error for a player the machine does not have.
fn no_player(p: usize, what: &str) -> String {
    format!(
        "{what}: there is no player {} here (p1/p2 domains reach a linked pair's Game Boys)",
        p + 1
    )
}

/// Where offset `a` of the bus or the I/O page is on the bus.
fn bus_address(sp: Space, a: usize) -> Option<u16> {
    match sp {
        Space::Bus => u16::try_from(a).ok(),
        Space::Io if a <= 0x80 => Some(io_addr(a)),
        Space::Io | Space::Flat(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::spec::FIXED_DOMAINS;
    use super::*;

    #[test]
    fn the_fixed_spaces_are_the_fixed_domains_in_order() {
        for (i, name) in FIXED_DOMAINS.iter().enumerate() {
            let args = [Value::String(name.as_bytes().into())];
            assert_eq!(
                space(&args, 0, Space::Io, "test"),
                Ok(FIXED_SPACES[i]),
                "{name}"
            );
        }
    }
}
