//! RAM search, as BizHawk's RAM Search and VBA-rr's have it: start with every value of a
//! memory (one domain, every bank of it), then filter the candidates by comparing each one's
//! current value with its previous value, a given value, the value at another address, or with
//! how many times it changed, until the few that behave like the lives counter are left.
//!
//! The model is plain data over byte slices: the caller hands in the domain's bytes
//! ([`gb_core::Gb::domain`]) at each step, so the REPL, the app's window and tests share it and
//! no emulation state is touched. A candidate's *previous* value is its value at the last
//! filter (or at the start); its *change count* counts the frames at which its value differed
//! from the frame before, while the caller calls [`Search::observe`] once per frame.
//!
//! Filtering is one pass over the candidates with the comparison chosen once outside the loop:
//! 8 KiB of work RAM filters in a few microseconds (`cargo bench -p gb-session --bench search`).

use gb_core::Domain;

/// Most filters [`Search::undo`] can take back.
pub const UNDO_DEPTH: usize = 64;

/// How a value is shown and compared: unsigned, signed (two's complement) or hexadecimal
/// (compared as unsigned).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Display {
    /// Unsigned decimal.
    #[default]
    Unsigned,
    /// Signed decimal (two's complement of the size).
    Signed,
    /// Hexadecimal (unsigned).
    Hex,
}

impl Display {
    /// BizHawk's letter for it (`u`, `s`, `h`), as in `.wch` files and the REPL's `1u`.
    pub fn letter(self) -> char {
        match self {
            Display::Unsigned => 'u',
            Display::Signed => 's',
            Display::Hex => 'h',
        }
    }

    /// The display a letter names.
    pub fn from_letter(c: char) -> Option<Display> {
        match c.to_ascii_lowercase() {
            'u' => Some(Display::Unsigned),
            's' => Some(Display::Signed),
            'h' => Some(Display::Hex),
            _ => None,
        }
    }
}

/// How the bytes of a memory are read as values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Bytes per value: 1, 2 or 4.
    pub size: u8,
    /// How values are shown and compared.
    pub display: Display,
    /// Multi-byte values are big-endian (the Game Boy's own order is little).
    pub big_endian: bool,
    /// Values start only at multiples of their size (BizHawk's "check misaligned" off).
    pub aligned: bool,
}

impl Default for Layout {
    fn default() -> Layout {
        Layout {
            size: 1,
            display: Display::Unsigned,
            big_endian: false,
            aligned: true,
        }
    }
}

impl Layout {
    /// The raw value (zero-extended) of the `size` bytes at `offset`, or `None` past the end.
    #[inline(always)]
    pub fn raw(&self, mem: &[u8], offset: usize) -> Option<u32> {
        let b = mem.get(offset..offset + usize::from(self.size))?;
        Some(match (b.len(), self.big_endian) {
            (1, _) => u32::from(b[0]),
            (2, false) => u32::from(u16::from_le_bytes([b[0], b[1]])),
            (2, true) => u32::from(u16::from_be_bytes([b[0], b[1]])),
            (_, false) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            (_, true) => u32::from_be_bytes([b[0], b[1], b[2], b[3]]),
        })
    }

    /// A raw value as a number: sign-extended when the display is signed.
    #[inline(always)]
    pub fn value(&self, raw: u32) -> i64 {
        if self.display != Display::Signed {
            return i64::from(raw);
        }
        match self.size {
            1 => i64::from(raw as u8 as i8),
            2 => i64::from(raw as u16 as i16),
            _ => i64::from(raw as i32),
        }
    }

    /// A raw value as the display shows it (`0x` and the size's digits for hex).
    pub fn format(&self, raw: u32) -> String {
        match self.display {
            Display::Hex => format!("0x{:0w$X}", raw, w = usize::from(self.size) * 2),
            _ => self.value(raw).to_string(),
        }
    }

    /// The raw bytes of `value` at this size and order (for a poke), or why it does not fit.
    pub fn encode(&self, value: i64) -> Result<Vec<u8>, SearchError> {
        let bits = u32::from(self.size) * 8;
        let (lo, hi) = if self.display == Display::Signed {
            (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
        } else {
            (0, (1i64 << bits) - 1)
        };
        // A negative number for an unsigned value is taken as its two's complement, as a
        // user typing -1 for 0xFF means.
        if value < -(1i64 << (bits - 1)) || value > hi.max((1i64 << bits) - 1) {
            return Err(SearchError::DoesNotFit {
                value,
                size: self.size,
                lo,
                hi,
            });
        }
        let raw = (value as u64 & ((1u64 << bits) - 1)) as u32;
        let le = raw.to_le_bytes();
        let mut v = le[..usize::from(self.size)].to_vec();
        if self.big_endian {
            v.reverse();
        }
        Ok(v)
    }

    /// The REPL's short name: size and display letter, then `be` and `any` when set
    /// (`1u`, `2s be`, `4h any`).
    pub fn short(&self) -> String {
        let mut s = format!("{}{}", self.size, self.display.letter());
        if self.big_endian && self.size > 1 {
            s.push_str(" be");
        }
        if !self.aligned && self.size > 1 {
            s.push_str(" any");
        }
        s
    }
}

/// A comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `≤`
    Le,
    /// `≥`
    Ge,
    /// `=`
    Eq,
    /// `≠`
    Ne,
    /// The two differ by exactly this much, up or down.
    DiffersBy(u32),
}

impl Op {
    #[inline(always)]
    fn test(self, a: i64, b: i64) -> bool {
        match self {
            Op::Lt => a < b,
            Op::Gt => a > b,
            Op::Le => a <= b,
            Op::Ge => a >= b,
            Op::Eq => a == b,
            Op::Ne => a != b,
            Op::DiffersBy(n) => a.abs_diff(b) == u64::from(n),
        }
    }

    /// The symbol shown (`<`, `≠`, `±5`).
    pub fn symbol(self) -> String {
        match self {
            Op::Lt => "<".into(),
            Op::Gt => ">".into(),
            Op::Le => "≤".into(),
            Op::Ge => "≥".into(),
            Op::Eq => "=".into(),
            Op::Ne => "≠".into(),
            Op::DiffersBy(n) => format!("±{n}"),
        }
    }

    /// The comparison a REPL word names: `lt gt le ge eq ne` or the symbols `< > <= >= = == !=`
    /// (`by N` is parsed by [`parse_filter`]).
    pub fn from_word(w: &str) -> Option<Op> {
        Some(match w.to_ascii_lowercase().as_str() {
            "lt" | "<" => Op::Lt,
            "gt" | ">" => Op::Gt,
            "le" | "<=" | "≤" => Op::Le,
            "ge" | ">=" | "≥" => Op::Ge,
            "eq" | "=" | "==" => Op::Eq,
            "ne" | "!=" | "≠" | "<>" => Op::Ne,
            _ => return None,
        })
    }
}

/// What each candidate's current value is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// Its own previous value (at the last filter).
    Previous,
    /// A number (in the layout's display: negative only when signed).
    Value(i64),
    /// The current value at another offset of the same memory.
    Address(u32),
    /// Not the value: the candidate's change count is compared with this number.
    Changes(u32),
}

/// One filter: keep the candidates for which `current op operand` holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filter {
    /// The comparison.
    pub op: Op,
    /// What the value is compared with.
    pub operand: Operand,
}

impl std::fmt::Display for Filter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.operand {
            Operand::Previous => write!(f, "value {} previous", self.op.symbol()),
            Operand::Value(v) => write!(f, "value {} {v}", self.op.symbol()),
            Operand::Address(a) => write!(f, "value {} value at offset {a:#X}", self.op.symbol()),
            Operand::Changes(n) => write!(f, "changes {} {n}", self.op.symbol()),
        }
    }
}

/// Why a search or filter could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// A size that is not 1, 2 or 4 bytes, or an unknown display letter.
    #[error(
        "'{0}' is not a search size: write 1, 2 or 4 bytes and u (unsigned), s (signed) or h (hex), e.g. 1u, 2s, 4h"
    )]
    BadLayout(String),
    /// A word of the filter was not understood.
    #[error("{0}")]
    BadFilter(String),
    /// A value does not fit the size.
    #[error("{value} does not fit {size} byte(s) (from {lo} to {hi})")]
    DoesNotFit {
        /// The value.
        value: i64,
        /// The size in bytes.
        size: u8,
        /// The smallest value.
        lo: i64,
        /// The largest value.
        hi: i64,
    },
    /// The memory is empty (no cartridge RAM on this cartridge).
    #[error("the {0} is empty on this machine")]
    EmptyDomain(&'static str),
}

/// One candidate as shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Its offset in the domain.
    pub offset: u32,
    /// Its value now (raw: read with [`Layout::value`] or [`Layout::format`]).
    pub current: u32,
    /// Its value at the last filter.
    pub previous: u32,
    /// Frames at which it changed since the search began.
    pub changes: u32,
}

/// The candidates and their values, as kept for an undo.
#[derive(Clone, Debug, Default)]
struct Set {
    offsets: Vec<u32>,
    previous: Vec<u32>,
    changes: Vec<u32>,
}

/// A RAM search over one domain.
#[derive(Clone, Debug)]
pub struct Search {
    domain: Domain,
    layout: Layout,
    set: Set,
    /// Each candidate's value at the last [`Search::observe`] (for the change counts).
    seen: Vec<u32>,
    /// Earlier sets, with whether a filter (not a removal) made the next one.
    undo: Vec<(Set, Vec<u32>, bool)>,
    /// The filters applied so far, for the list's title.
    history: Vec<Filter>,
}

/// A domain's name in messages.
pub fn domain_name(d: Domain) -> &'static str {
    match d {
        Domain::Rom => "ROM",
        Domain::Wram => "work RAM",
        Domain::Vram => "video RAM",
        Domain::Oam => "OAM",
        Domain::Hram => "high RAM",
        Domain::CartRam => "cartridge RAM",
    }
}

impl Search {
    /// Every value of `mem` (the bytes of `domain`) is a candidate; each one's previous value
    /// is its value now.
    pub fn new(domain: Domain, layout: Layout, mem: &[u8]) -> Result<Search, SearchError> {
        if ![1, 2, 4].contains(&layout.size) {
            return Err(SearchError::BadLayout(layout.size.to_string()));
        }
        let size = usize::from(layout.size);
        if mem.len() < size {
            return Err(SearchError::EmptyDomain(domain_name(domain)));
        }
        let step = if layout.aligned { size } else { 1 };
        let offsets: Vec<u32> = (0..=mem.len() - size)
            .step_by(step)
            .map(|o| o as u32)
            .collect();
        let previous: Vec<u32> = offsets
            .iter()
            .map(|&o| layout.raw(mem, o as usize).unwrap_or(0))
            .collect();
        Ok(Search {
            domain,
            layout,
            seen: previous.clone(),
            set: Set {
                changes: vec![0; offsets.len()],
                offsets,
                previous,
            },
            undo: Vec::new(),
            history: Vec::new(),
        })
    }

    /// The memory searched.
    pub fn domain(&self) -> Domain {
        self.domain
    }

    /// How values are read.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Show (and compare) values another way: same size and byte order, another display. The
    /// candidates stay.
    pub fn set_display(&mut self, display: Display) {
        self.layout.display = display;
    }

    /// Candidates left.
    pub fn len(&self) -> usize {
        self.set.offsets.len()
    }

    /// No candidate left.
    pub fn is_empty(&self) -> bool {
        self.set.offsets.is_empty()
    }

    /// The filters applied since the start (undone ones removed).
    pub fn filters(&self) -> &[Filter] {
        &self.history
    }

    /// Filters that [`Search::undo`] can take back.
    pub fn undo_depth(&self) -> usize {
        self.undo.len()
    }

    /// Candidate `i` (in offset order) with its value now in `mem`.
    pub fn get(&self, i: usize, mem: &[u8]) -> Option<Candidate> {
        let offset = *self.set.offsets.get(i)?;
        Some(Candidate {
            offset,
            current: self.layout.raw(mem, offset as usize).unwrap_or(0),
            previous: self.set.previous[i],
            changes: self.set.changes[i],
        })
    }

    /// Candidates `range` (clamped), for a list that shows only the visible rows.
    pub fn rows(&self, range: std::ops::Range<usize>, mem: &[u8]) -> Vec<Candidate> {
        let end = range.end.min(self.len());
        (range.start.min(end)..end)
            .filter_map(|i| self.get(i, mem))
            .collect()
    }

    /// Count changes: call once per frame with the memory's bytes then. A candidate whose value
    /// differs from the last call's gets one more change.
    pub fn observe(&mut self, mem: &[u8]) {
        let layout = self.layout;
        for ((&o, seen), changes) in self
            .set
            .offsets
            .iter()
            .zip(&mut self.seen)
            .zip(&mut self.set.changes)
        {
            let now = layout.raw(mem, o as usize).unwrap_or(0);
            if now != *seen {
                *seen = now;
                *changes = changes.saturating_add(1);
            }
        }
    }

    /// Keep the candidates that pass `filter` against `mem` (the domain's bytes now); their
    /// previous values become their current ones. Returns how many are left. The filter can
    /// be taken back with [`Search::undo`].
    pub fn filter(&mut self, filter: Filter, mem: &[u8]) -> usize {
        let layout = self.layout;
        let op = filter.op;
        let value = |o: u32| layout.value(layout.raw(mem, o as usize).unwrap_or(0));
        let mut next = Set {
            offsets: Vec::with_capacity(self.len() / 4),
            previous: Vec::with_capacity(self.len() / 4),
            changes: Vec::with_capacity(self.len() / 4),
        };
        let mut seen = Vec::with_capacity(self.len() / 4);
        let mut keep = |i: usize, now: u32, next: &mut Set| {
            next.offsets.push(self.set.offsets[i]);
            next.previous.push(now);
            next.changes.push(self.set.changes[i]);
            seen.push(now);
        };
        // One loop per operand, so the branch on it is taken once.
        match filter.operand {
            Operand::Previous => {
                for (i, (&o, &p)) in self.set.offsets.iter().zip(&self.set.previous).enumerate() {
                    let now = layout.raw(mem, o as usize).unwrap_or(0);
                    if op.test(layout.value(now), layout.value(p)) {
                        keep(i, now, &mut next);
                    }
                }
            }
            Operand::Value(v) => {
                for (i, &o) in self.set.offsets.iter().enumerate() {
                    let now = layout.raw(mem, o as usize).unwrap_or(0);
                    if op.test(layout.value(now), v) {
                        keep(i, now, &mut next);
                    }
                }
            }
            Operand::Address(a) => {
                let other = value(a);
                for (i, &o) in self.set.offsets.iter().enumerate() {
                    let now = layout.raw(mem, o as usize).unwrap_or(0);
                    if op.test(layout.value(now), other) {
                        keep(i, now, &mut next);
                    }
                }
            }
            Operand::Changes(n) => {
                for (i, (&o, &c)) in self.set.offsets.iter().zip(&self.set.changes).enumerate() {
                    if op.test(i64::from(c), i64::from(n)) {
                        let now = layout.raw(mem, o as usize).unwrap_or(0);
                        keep(i, now, &mut next);
                    }
                }
            }
        }
        let old = std::mem::replace(&mut self.set, next);
        let old_seen = std::mem::replace(&mut self.seen, seen);
        self.push_undo(old, old_seen, true);
        self.history.push(filter);
        self.len()
    }

    /// Drop candidates by offset (BizHawk's "remove selected"); undoable.
    pub fn remove(&mut self, offsets: &[u32]) -> usize {
        let gone: std::collections::HashSet<u32> = offsets.iter().copied().collect();
        let mut next = Set::default();
        let mut seen = Vec::new();
        for (i, &o) in self.set.offsets.iter().enumerate() {
            if !gone.contains(&o) {
                next.offsets.push(o);
                next.previous.push(self.set.previous[i]);
                next.changes.push(self.set.changes[i]);
                seen.push(self.seen[i]);
            }
        }
        let removed = self.len() - next.offsets.len();
        if removed > 0 {
            let old = std::mem::replace(&mut self.set, next);
            let old_seen = std::mem::replace(&mut self.seen, seen);
            self.push_undo(old, old_seen, false);
        }
        removed
    }

    /// Every candidate's previous value becomes its current one and its change count 0
    /// (BizHawk's "set previous to current" and "clear change counts").
    pub fn reset_previous(&mut self, mem: &[u8]) {
        let layout = self.layout;
        for ((&o, p), c) in self
            .set
            .offsets
            .iter()
            .zip(&mut self.set.previous)
            .zip(&mut self.set.changes)
        {
            *p = layout.raw(mem, o as usize).unwrap_or(0);
            *c = 0;
        }
        self.seen.clone_from(&self.set.previous);
    }

    fn push_undo(&mut self, old: Set, seen: Vec<u32>, filtered: bool) {
        if self.undo.len() == UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.undo.push((old, seen, filtered));
    }

    /// Take back the last filter (or removal): its candidates come back with the values they
    /// had before it. Returns false when there is nothing to undo.
    pub fn undo(&mut self) -> bool {
        match self.undo.pop() {
            Some((set, seen, filtered)) => {
                if filtered {
                    self.history.pop();
                }
                self.set = set;
                self.seen = seen;
                true
            }
            None => false,
        }
    }
}

/// Parse a layout as the REPL writes it: `1u`, `2s`, `4h`, then optional words `be` (big
/// endian), `le`, `any` (misaligned values too) in any order.
pub fn parse_layout(words: &[&str]) -> Result<Layout, SearchError> {
    let first = words.first().copied().unwrap_or("1u");
    let mut chars = first.chars();
    let size = chars
        .next()
        .and_then(|c| c.to_digit(10))
        .filter(|d| [1, 2, 4].contains(d))
        .ok_or_else(|| SearchError::BadLayout(first.to_owned()))? as u8;
    let rest: String = chars.collect();
    let display = match rest.as_str() {
        "" => Display::Unsigned,
        s if s.chars().count() == 1 => Display::from_letter(s.chars().next().unwrap_or('?'))
            .ok_or_else(|| SearchError::BadLayout(first.to_owned()))?,
        _ => return Err(SearchError::BadLayout(first.to_owned())),
    };
    let mut layout = Layout {
        size,
        display,
        ..Layout::default()
    };
    for w in words.iter().skip(1) {
        match w.to_ascii_lowercase().as_str() {
            "be" | "big" => layout.big_endian = true,
            "le" | "little" => layout.big_endian = false,
            "any" | "misaligned" | "unaligned" => layout.aligned = false,
            "aligned" => layout.aligned = true,
            other => {
                return Err(SearchError::BadLayout(format!(
                    "{first} {other} (after the size: be, le or any)"
                )));
            }
        }
    }
    Ok(layout)
}

/// Parse a number as users type it: decimal (`-5`, `100`), or hex with `0x`, `$` or a trailing
/// `h` (`0x1F`, `$1F`, `1Fh`).
pub fn parse_number(s: &str) -> Option<i64> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s),
    };
    let hex = body
        .strip_prefix("0x")
        .or_else(|| body.strip_prefix("0X"))
        .or_else(|| body.strip_prefix('$'))
        .or_else(|| body.strip_suffix('h').or_else(|| body.strip_suffix('H')));
    let v = match hex {
        Some(h) => i64::from_str_radix(h, 16).ok()?,
        None => body.parse::<i64>().ok()?,
    };
    Some(if neg { -v } else { v })
}

/// Parse a filter as the REPL writes it, after `search`:
/// - `lt`, `gt`, `le`, `ge`, `eq`, `ne` (or `<`, `>`, `<=`, `>=`, `=`, `!=`) alone: against
///   the previous value;
/// - followed by a number: against that value (`eq 5`, `lt 0x10`);
/// - followed by `@OFFSET` (hex): against the value at that offset of the domain (`ne @1A2`);
/// - `changes OP N`: the change count (`changes gt 0`, `changes eq 3`);
/// - `by N` (alone: against the previous value, or `by N VALUE`, `by N @OFFSET`): differs by
///   exactly N.
///
/// `offset_of` turns the text after `@` into a domain offset (the REPL accepts CPU addresses
/// such as `@C0A0` and `@3:D000`).
pub fn parse_filter(
    words: &[&str],
    offset_of: &dyn Fn(&str) -> Result<u32, String>,
) -> Result<Filter, SearchError> {
    let bad = |m: String| SearchError::BadFilter(m);
    let Some(&first) = words.first() else {
        return Err(bad(
            "a filter: lt, gt, le, ge, eq, ne [VALUE | @ADDR], by N, changes OP N".into(),
        ));
    };
    let number = |w: &str| {
        parse_number(w).ok_or_else(|| bad(format!("'{w}' is not a number (decimal, 0x1F or $1F)")))
    };
    let operand = |rest: &[&str]| -> Result<Operand, SearchError> {
        match rest {
            [] => Ok(Operand::Previous),
            [w] => match w.strip_prefix('@') {
                Some(a) => offset_of(a).map(Operand::Address).map_err(bad),
                None => number(w).map(Operand::Value),
            },
            _ => Err(bad(format!(
                "too many words after the comparison: {}",
                rest.join(" ")
            ))),
        }
    };
    if first.eq_ignore_ascii_case("changes") || first.eq_ignore_ascii_case("changed") {
        let (op, n) = match &words[1..] {
            [] => (Op::Gt, 0),
            [op, n] => (
                Op::from_word(op).ok_or_else(|| bad(format!("'{op}' is not a comparison")))?,
                number(n)?,
            ),
            _ => return Err(bad("changes OP N (changes gt 0, changes eq 2)".into())),
        };
        let n =
            u32::try_from(n).map_err(|_| bad(format!("a change count is not negative ({n})")))?;
        return Ok(Filter {
            op,
            operand: Operand::Changes(n),
        });
    }
    if first.eq_ignore_ascii_case("by") {
        let n = words
            .get(1)
            .ok_or_else(|| bad("by N: the difference".into()))
            .and_then(|w| number(w))?;
        let n = u32::try_from(n.unsigned_abs()).map_err(|_| bad(format!("{n} is too large")))?;
        return Ok(Filter {
            op: Op::DiffersBy(n),
            operand: operand(&words[2..])?,
        });
    }
    let op = Op::from_word(first).ok_or_else(|| {
        bad(format!(
            "'{first}' is not a filter: lt, gt, le, ge, eq, ne [VALUE | @ADDR], by N, changes OP N"
        ))
    })?;
    Ok(Filter {
        op,
        operand: operand(&words[1..])?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(size: u8, display: Display) -> Layout {
        Layout {
            size,
            display,
            ..Layout::default()
        }
    }

    fn no_addr(_: &str) -> Result<u32, String> {
        Err("no addresses here".into())
    }

    #[test]
    fn a_counter_is_found_by_its_changes() {
        let mut mem = vec![0u8; 64];
        mem[10] = 3;
        let mut s = Search::new(Domain::Hram, Layout::default(), &mem).unwrap();
        assert_eq!(s.len(), 64);
        // Lives go from 3 to 2: "less than previous" keeps it and whatever else fell.
        mem[10] = 2;
        mem[20] = 9; // something that went up
        assert_eq!(
            s.filter(
                Filter {
                    op: Op::Lt,
                    operand: Operand::Previous
                },
                &mem
            ),
            1
        );
        assert_eq!(s.get(0, &mem).unwrap().offset, 10);
        assert_eq!(s.get(0, &mem).unwrap().previous, 2);
        // Undo brings every candidate back, with the values they had.
        assert!(s.undo());
        assert_eq!(s.len(), 64);
        assert_eq!(s.get(10, &mem).unwrap().previous, 3);
        assert!(!s.undo());
    }

    #[test]
    fn values_addresses_and_differences() {
        let mut mem = vec![0u8; 16];
        mem[3] = 100;
        mem[4] = 105;
        mem[5] = 95;
        let mut s = Search::new(Domain::Hram, Layout::default(), &mem).unwrap();
        assert_eq!(
            s.filter(
                Filter {
                    op: Op::Ge,
                    operand: Operand::Value(95)
                },
                &mem
            ),
            3
        );
        // Values at another offset: offset 3 holds 100.
        let n = s.filter(
            Filter {
                op: Op::Gt,
                operand: Operand::Address(3),
            },
            &mem,
        );
        assert_eq!(n, 1);
        assert_eq!(s.get(0, &mem).unwrap().offset, 4);
        s.undo();
        mem[3] = 110;
        mem[4] = 100;
        mem[5] = 100;
        // 100 → 110 (+10), 105 → 100 (-5), 95 → 100 (+5): differs by 5 keeps two.
        assert_eq!(
            s.filter(
                Filter {
                    op: Op::DiffersBy(5),
                    operand: Operand::Previous
                },
                &mem
            ),
            2
        );
        let offsets: Vec<u32> = s.rows(0..10, &mem).iter().map(|c| c.offset).collect();
        assert_eq!(offsets, vec![4, 5]);
    }

    #[test]
    fn change_counts_count_frames_that_changed() {
        let mut mem = vec![0u8; 8];
        let mut s = Search::new(Domain::Hram, Layout::default(), &mem).unwrap();
        for f in 0..5u8 {
            mem[1] = f; // changes at frames 1..4
            mem[2] = f / 2; // changes at frames 2 and 4
            s.observe(&mem);
        }
        assert_eq!(s.get(1, &mem).unwrap().changes, 4);
        assert_eq!(s.get(2, &mem).unwrap().changes, 2);
        assert_eq!(
            s.filter(
                Filter {
                    op: Op::Eq,
                    operand: Operand::Changes(2)
                },
                &mem
            ),
            1
        );
        assert_eq!(s.get(0, &mem).unwrap().offset, 2);
        s.undo();
        assert_eq!(
            s.filter(
                Filter {
                    op: Op::Gt,
                    operand: Operand::Changes(0)
                },
                &mem
            ),
            2
        );
        s.reset_previous(&mem);
        assert_eq!(s.get(0, &mem).unwrap().changes, 0);
    }

    #[test]
    fn sizes_signs_and_byte_orders() {
        let mem = [0x34, 0x12, 0xFF, 0xFF, 0x00, 0x80];
        let le = layout(2, Display::Unsigned);
        assert_eq!(le.raw(&mem, 0), Some(0x1234));
        let be = Layout {
            big_endian: true,
            ..le
        };
        assert_eq!(be.raw(&mem, 0), Some(0x3412));
        let signed = layout(2, Display::Signed);
        assert_eq!(signed.value(signed.raw(&mem, 2).unwrap()), -1);
        assert_eq!(signed.value(signed.raw(&mem, 4).unwrap()), -32768);
        assert_eq!(layout(2, Display::Hex).format(0x1234), "0x1234");
        assert_eq!(layout(4, Display::Unsigned).raw(&mem, 0), Some(0xFFFF_1234));
        assert_eq!(le.raw(&mem, 5), None, "a value may not run past the end");
        // Aligned 2-byte values start at even offsets; misaligned ones everywhere.
        let s = Search::new(Domain::Hram, le, &mem).unwrap();
        assert_eq!(s.len(), 3);
        let s = Search::new(
            Domain::Hram,
            Layout {
                aligned: false,
                ..le
            },
            &mem,
        )
        .unwrap();
        assert_eq!(s.len(), 5);
        // A signed search compares as signed: -1 < 0.
        let mut s = Search::new(Domain::Hram, signed, &mem).unwrap();
        assert_eq!(
            s.filter(
                Filter {
                    op: Op::Lt,
                    operand: Operand::Value(0)
                },
                &mem
            ),
            2
        );
    }

    #[test]
    fn encoding_a_value_for_a_poke() {
        assert_eq!(
            layout(2, Display::Unsigned).encode(0x1234),
            Ok(vec![0x34, 0x12])
        );
        let be = Layout {
            big_endian: true,
            ..layout(2, Display::Unsigned)
        };
        assert_eq!(be.encode(0x1234), Ok(vec![0x12, 0x34]));
        assert_eq!(layout(1, Display::Signed).encode(-1), Ok(vec![0xFF]));
        assert_eq!(layout(1, Display::Unsigned).encode(-1), Ok(vec![0xFF]));
        assert!(layout(1, Display::Unsigned).encode(256).is_err());
        assert!(layout(1, Display::Signed).encode(-129).is_err());
    }

    #[test]
    fn the_repl_words_parse() {
        assert_eq!(
            parse_layout(&["2s", "be"]).unwrap(),
            Layout {
                size: 2,
                display: Display::Signed,
                big_endian: true,
                aligned: true
            }
        );
        assert!(parse_layout(&["3u"]).is_err());
        assert!(parse_layout(&["1x"]).is_err());
        let f = |w: &str| parse_filter(&w.split(' ').collect::<Vec<_>>(), &no_addr);
        assert_eq!(
            f("lt").unwrap(),
            Filter {
                op: Op::Lt,
                operand: Operand::Previous
            }
        );
        assert_eq!(
            f("eq 5").unwrap(),
            Filter {
                op: Op::Eq,
                operand: Operand::Value(5)
            }
        );
        assert_eq!(
            f("ne $1F").unwrap(),
            Filter {
                op: Op::Ne,
                operand: Operand::Value(31)
            }
        );
        assert_eq!(
            f("by 3").unwrap(),
            Filter {
                op: Op::DiffersBy(3),
                operand: Operand::Previous
            }
        );
        assert_eq!(
            f("changes gt 0").unwrap(),
            Filter {
                op: Op::Gt,
                operand: Operand::Changes(0)
            }
        );
        let at = |w: &str| -> Result<u32, String> {
            u32::from_str_radix(w, 16).map_err(|e| e.to_string())
        };
        assert_eq!(
            parse_filter(&["ge", "@1A"], &at).unwrap(),
            Filter {
                op: Op::Ge,
                operand: Operand::Address(0x1A)
            }
        );
        assert!(f("frob").is_err());
        assert!(f("eq five").is_err());
        assert!(f("ne @C000").is_err());
    }

    #[test]
    fn undo_is_bounded_and_removal_is_undoable() {
        let mem = vec![1u8; 300];
        let mut s = Search::new(Domain::Wram, Layout::default(), &mem).unwrap();
        assert_eq!(s.remove(&[0, 1, 2]), 3);
        assert_eq!(s.len(), 297);
        for _ in 0..UNDO_DEPTH + 5 {
            s.filter(
                Filter {
                    op: Op::Eq,
                    operand: Operand::Previous,
                },
                &mem,
            );
        }
        assert_eq!(s.undo_depth(), UNDO_DEPTH);
        while s.undo() {}
        assert_eq!(s.len(), 297, "the oldest steps fell off the undo stack");
    }
}
