//! Where a diff's bytes come from: a census of the words that differ between two snapshots of
//! one arena, by the allocator region and the Lua object they fall in (a diagnostic for the
//! rewind ring's size; nothing else depends on it).
//!
//! The newer snapshot's bytes are parsed as the arena's byte format (`arena/layout.rs`): the
//! allocator header, TLSF blocks (free, slab containers, plain), slab headers, slot headers and
//! slot payloads. A payload that holds a Lua object starts with its GC header (`next` pointer,
//! then the type tag and the mark byte), so it is named by the tag it carries; blocks that hold
//! no object (a table's array or hash part, a thread's stack, a function's code) are named by
//! size, and the tag guess may be wrong for them. Each differing word costs what the codec
//! spends on it: one mask byte plus its nonzero XOR bytes.
//!
//! Safe code over byte slices: a malformed snapshot gives meaningless labels, never a panic.

use std::collections::BTreeMap;

use crate::arena::layout::{BLOCK_HEADER, FREE, HEADER_SIZE, SIZE_MASK, SLAB, SLAB_SLOTS};

/// Changed words of one kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Words that differ.
    pub words: u64,
    /// What the codec spends on them (a mask byte plus the nonzero XOR bytes of each word).
    pub coded: u64,
}

impl Tally {
    fn add(&mut self, xor: u64) {
        self.words += 1;
        self.coded += 1 + u64::from((0..8).filter(|i| (xor >> (8 * i)) & 0xff != 0).count() as u8);
    }
}

/// The census of one diff: tallies by label, and by the block (its offset) the words fell in.
#[derive(Clone, Debug, Default)]
pub struct Census {
    /// By region and object kind (`"slot payload: table: word 0 (next)"`...).
    pub by_kind: BTreeMap<String, Tally>,
    /// By block offset: (block size, label, tally).
    pub by_block: BTreeMap<usize, (usize, String, Tally)>,
}

impl Census {
    /// Add another census to this one.
    pub fn merge(&mut self, other: &Census) {
        for (k, t) in &other.by_kind {
            let e = self.by_kind.entry(k.clone()).or_default();
            e.words += t.words;
            e.coded += t.coded;
        }
        for (b, (size, label, t)) in &other.by_block {
            let e = self
                .by_block
                .entry(*b)
                .or_insert_with(|| (*size, label.clone(), Tally::default()));
            e.2.words += t.words;
            e.2.coded += t.coded;
        }
    }

    /// Total over every kind.
    pub fn total(&self) -> Tally {
        self.by_kind.values().fold(Tally::default(), |a, t| Tally {
            words: a.words + t.words,
            coded: a.coded + t.coded,
        })
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    b.get(at..at + 4)
        .map_or(0, |s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    b.get(at..at + 8).map_or(0, |s| {
        u64::from_le_bytes([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]])
    })
}

/// Lua 5.4's name for the type tag of a GC header.
fn lua_type(tt: u8) -> &'static str {
    match tt {
        0x04 => "short string",
        0x14 => "long string",
        0x05 => "table",
        0x06 => "Lua closure",
        0x26 => "C closure",
        0x07 => "userdata",
        0x08 => "thread",
        0x09 => "upvalue",
        0x0a => "prototype",
        _ => "no object",
    }
}

/// One region of the arena, ending at `end`, its block, its label, and where a Lua object in
/// it starts (for the word-within-object split).
struct Region {
    end: usize,
    block: usize,
    block_size: usize,
    label: String,
    object: Option<usize>,
}

/// Cut the arena bytes into labelled regions, in address order.
fn regions(b: &[u8]) -> Vec<Region> {
    let mut out = vec![Region {
        end: HEADER_SIZE,
        block: 0,
        block_size: HEADER_SIZE,
        label: "arena header".into(),
        object: None,
    }];
    let top = b.len().saturating_sub(BLOCK_HEADER);
    let mut at = HEADER_SIZE;
    while at < top {
        let word = u32_at(b, at);
        let size = (word & SIZE_MASK) as usize;
        if size == 0 {
            break;
        }
        let end = (at + size).min(b.len());
        let push = |out: &mut Vec<Region>, s: usize, e: usize, label: String, obj| {
            debug_assert!(s <= e);
            out.push(Region {
                end: e,
                block: at,
                block_size: size,
                label,
                object: obj,
            });
        };
        if word & FREE != 0 {
            push(&mut out, at, end, "free block".into(), None);
        } else if word & SLAB != 0 {
            push(&mut out, at, at + SLAB_SLOTS, "slab header".into(), None);
            let slots = u32_at(b, at + 12) as usize;
            let bitmap = u64_at(b, at + 16);
            let slot = (u32_at(b, at + 8) as usize + 1) * 8 + BLOCK_HEADER;
            for i in 0..slots {
                let s = at + SLAB_SLOTS + i * slot;
                push(&mut out, s, s + BLOCK_HEADER, "slot header".into(), None);
                let p = s + BLOCK_HEADER;
                if bitmap & (1 << i) == 0 {
                    push(&mut out, p, s + slot, "free slot".into(), None);
                } else {
                    let tt = b.get(p + 8).copied().unwrap_or(0);
                    let label = format!("slot {}: {}", slot - BLOCK_HEADER, lua_type(tt));
                    push(&mut out, p, s + slot, label, Some(p));
                }
            }
            let used = SLAB_SLOTS + slots * slot;
            if used < size {
                push(&mut out, at + used, end, "slab tail".into(), None);
            }
        } else {
            push(&mut out, at, at + BLOCK_HEADER, "block header".into(), None);
            let p = at + BLOCK_HEADER;
            let tt = b.get(p + 8).copied().unwrap_or(0);
            let label = format!("block: {}", lua_type(tt));
            push(&mut out, p, end, label, Some(p));
        }
        at += size;
    }
    out.push(Region {
        end: usize::MAX,
        block: top,
        block_size: 0,
        label: "sentinel and above".into(),
        object: None,
    });
    out
}

/// The census of the words that differ between `prev` and `cur` (two snapshots' bytes of one
/// arena), labelled by `cur`'s layout.
pub fn diff(prev: &[u8], cur: &[u8]) -> Census {
    let regions = regions(cur);
    let mut census = Census::default();
    let words = prev.len().max(cur.len()).div_ceil(8);
    for w in 0..words {
        let xor = u64_at(prev, w * 8) ^ u64_at(cur, w * 8);
        if xor == 0 {
            continue;
        }
        let at = w * 8;
        let i = regions.partition_point(|r| r.end <= at);
        let Some(r) = regions.get(i) else { continue };
        let field = match r.object {
            Some(_) if r.label.ends_with("no object") => "",
            Some(o) => match at - o {
                0 => ": word 0 (next)",
                8 => ": word 1 (tag, marks)",
                _ => ": body",
            },
            None => "",
        };
        let label = format!("{}{field}", r.label);
        census.by_kind.entry(label).or_default().add(xor);
        census
            .by_block
            .entry(r.block)
            .or_insert_with(|| (r.block_size, r.label.clone(), Tally::default()))
            .2
            .add(xor);
    }
    census
}
