//! Objects in mode 3: the shifter stops when its pixel counter reaches an object's X (objects
//! in X order, then OAM order); the object's fetch counts [`OBJ_FETCH`] dots while the
//! background fetcher has its tile data in hand, from the dot after the match, reading the
//! tile data low on the 4th and high on the 6th (LCDC.2 each time), and the shifter runs again
//! on the 6th: Pan Docs' penalty, `6 + max(0, 5 - offset in tile)`. LCDC.1 (as the shifter
//! sees it) clear at the match skips the object; seen cleared later, while the shifter waits
//! for the background fetcher or for the object's fetch, it ends the wait there: the shifter
//! runs on that dot, the object not drawn (see [`Objects::abandon_if_disabled`]). Object
//! pixels merge into the object FIFO, where pixels of objects fetched earlier win.

use super::line::{LineInput, LineRegs};

/// Dots an object fetch counts once the background fetcher has its tile data (Pan Docs
/// "Mode 3 length"; Mooneye `intr_2_mode0_timing_sprites`).
const OBJ_FETCH: u8 = 6;

/// One pixel of the object FIFO.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ObjPixel {
    /// Colour index 0-3 (0: transparent).
    pub(super) index: u8,
    /// OAM attributes (palette in bit 4, priority in bit 7; CGB mode: colour palette in
    /// bits 0-2).
    pub(super) attr: u8,
    /// The object's OAM index (CGB mode: the lower one wins a pixel).
    pub(super) oam: u8,
}

/// The line's objects, the fetch in progress and the object FIFO.
#[derive(Clone, Copy, Debug)]
pub(super) struct Objects {
    /// OAM indices in fetch order: by X, then OAM index.
    order: [u8; 10],
    /// How many entries of `order` are used.
    count: usize,
    /// The next object to match.
    next: usize,
    /// The fetch in progress: dots left, and the OAM index.
    fetch: Option<(u8, u8)>,
    /// The fetched tile data low.
    lo: u8,
    /// The fetched tile data high.
    hi: u8,

    /// The object FIFO.
    fifo: [ObjPixel; 8],
}

impl Objects {
    /// The objects the OAM scan found, in fetch order.
    pub(super) fn new(input: &LineInput<'_>) -> Objects {
        let mut order = [0u8; 10];
        let count = input.objects.len().min(10);
        order[..count].copy_from_slice(&input.objects[..count]);
        order[..count].sort_by_key(|&i| (input.oam[usize::from(i) * 4 + 1], i));
        Objects {
            order,
            count,
            next: 0,
            fetch: None,
            lo: 0,
            hi: 0,
            fifo: [ObjPixel::default(); 8],
        }
    }

    /// An object fetch is in progress (the shifter waits).
    pub(super) fn fetching(&self) -> bool {
        self.fetch.is_some()
    }

    /// LCDC.1 as the shifter sees it is clear (`lcdc`): the object's wait (for the background
    /// fetcher's tile data) or fetch in progress is abandoned, and the shifter runs on this
    /// dot. Measured on a DMG-08 (Gambatte `sprites/late_disable_*`, `sprite_late_disable_*`,
    /// `sprite_late_late_disable_*`, objects at X 8 and 0x18-0x1B, SCX 0): mode 3 is shorter
    /// by the dots from the one the shifter sees the write on (4 after it) to the fetch's end,
    /// whether that dot falls in the wait or in the fetch; seen on the dot the fetch would
    /// start, it saves the fetch's 6 (Mealybug `m3_lcdc_obj_en_change_variant`). The CGB
    /// fetches objects with LCDC.1 clear too.
    pub(super) fn abandon_if_disabled(&mut self, lcdc: u8) {
        if lcdc & 0x02 == 0 {
            self.fetch = None;
        }
    }

    /// One dot of the fetch in progress, which counts only while `ready`; on its last dot the
    /// object's pixels merge into the object FIFO (`count`: the shifter's pixel counter; pixels
    /// left of the screen's edge are dropped).
    pub(super) fn fetch(
        &mut self,
        input: &LineInput<'_>,
        regs: &LineRegs,
        ready: bool,
        count: usize,
    ) {
        let Some((left, i)) = self.fetch else {
            return;
        };
        if !ready {
            return;
        }
        // The object's tile data, low then high, each with LCDC.2 as it is then (Mealybug
        // `m3_lcdc_obj_size_change` mixes the two heights' rows).
        if left == 3 {
            self.lo = object_row(input, regs, i).0;
        }
        if left == 1 {
            self.hi = object_row(input, regs, i).1;
        }
        if left > 1 {
            self.fetch = Some((left - 1, i));
            return;
        }
        self.fetch = None;
        let attr = input.oam[usize::from(i) * 4 + 3];
        let x = usize::from(input.oam[usize::from(i) * 4 + 1]);
        let skip = count.saturating_sub(x);
        // In CGB mode a lower OAM index wins a pixel over an object fetched earlier (unless
        // OPRI asks for the DMG's order, where the earlier one wins).
        let by_index = input.cgb && !input.dmg_order;
        for (k, slot) in self.fifo.iter_mut().enumerate() {
            let px = k + skip;
            if px >= 8 {
                break;
            }
            let bit = 7 - px;
            let index = ((self.lo >> bit) & 1) | (((self.hi >> bit) & 1) << 1);
            if slot.index == 0 || (by_index && index != 0 && i < slot.oam) {
                *slot = ObjPixel {
                    index,
                    attr,
                    oam: i,
                };
            }
        }
    }

    /// The shifter's counter is at `count`: the next object at that X (or left of it) starts
    /// a fetch, or is skipped while LCDC.1 is clear.
    pub(super) fn match_at(&mut self, oam: &[u8; 0xA0], count: usize, lcdc: u8) {
        while self.next < self.count {
            let i = self.order[self.next];
            let x = usize::from(oam[usize::from(i) * 4 + 1]);
            if x > count {
                break;
            }
            self.next += 1;
            if lcdc & 0x02 != 0 {
                self.fetch = Some((OBJ_FETCH, i));
                break;
            }
        }
    }

    /// Shift the object FIFO by one pixel: the pixel that leaves.
    pub(super) fn shift(&mut self) -> ObjPixel {
        let obj = self.fifo[0];
        self.fifo.copy_within(1.., 0);
        self.fifo[7] = ObjPixel::default();
        obj
    }
}

/// Object `i`'s tile data on this line (low, high, already X-flipped) and its attributes, with
/// the height LCDC.2 gives now (8 × 8 takes the row modulo 8: Mealybug
/// `m3_lcdc_obj_size_change`).
fn object_row(input: &LineInput<'_>, regs: &LineRegs, i: u8) -> (u8, u8, u8) {
    let o = usize::from(i) * 4;
    let oam = input.oam;
    let (y, mut tile, attr) = (oam[o], oam[o + 2], oam[o + 3]);
    let height: u8 = if regs.lcdc & 0x04 != 0 { 16 } else { 8 };
    let mut row = regs.ly.wrapping_add(16).wrapping_sub(y) & 15;
    if attr & 0x40 != 0 {
        row = (height - 1).wrapping_sub(row) & 15;
    }
    if height == 16 {
        tile &= 0xFE;
    } else {
        row &= 7;
    }
    // CGB mode: the tile's bank is attribute bit 3.
    let bank = if input.cgb {
        usize::from(attr & 0x08) << 10
    } else {
        0
    };
    let addr = bank + usize::from(tile) * 16 + usize::from(row) * 2;
    let (mut lo, mut hi) = (input.vram[addr], input.vram[addr + 1]);
    if attr & 0x20 != 0 {
        lo = lo.reverse_bits();
        hi = hi.reverse_bits();
    }
    (lo, hi, attr)
}
