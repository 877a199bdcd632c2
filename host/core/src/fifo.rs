//! Dot-level replay of one scanline's mode 3 (the background/window fetcher, the object
//! fetches and the two pixel shifters, Pan Docs "Rendering" and "Pixel FIFO"), for lines whose
//! registers change while they are drawn. Lines without mid-line writes take the PPU's
//! whole-line path; with no writes this replay draws exactly what that path draws, and its last
//! pixel comes a fixed time after the timeline's mode 0 (a test in `ppu.rs` checks both).
//!
//! Model (DMG). Dots are counted from S; a write's dot is the end of the CPU's M-cycle.
//! - The background fetcher starts at [`START`]; a fetch is tile number (LCDC.3 or .6, SCX,
//!   SCY, window state), tile data low, tile data high (LCDC.4 and SCY each time), read on
//!   its 2nd, 4th and 6th dots; from the 6th it pushes 8 pixels once the FIFO is empty, and
//!   the push dot is the 1st of the next fetch. It sees a write `FETCH_DELAY` dots late.
//! - The first fetch's tile is fetched again. After `SCX % 8` discarded pixels (SCX's low bits
//!   latched at `SCX_LATCH`) a pixel counter runs from 0; pixels 0-7 are hidden, 8-167 are
//!   the screen's 0-159. Objects and the window compare their X with this counter, so objects
//!   at X below 8 and the window at WX below 7 lose their left pixels by themselves.
//! - An object stops the shifter when the counter reaches its X; its fetch counts 6 dots while
//!   the background fetcher has its tile data in hand, from the dot after the match, reading
//!   the tile data low on the 4th and high on the 6th (LCDC.2 each time), and the shifter runs
//!   again on the 6th. That is Pan Docs' penalty, `6 + max(0, 5 - offset in tile)`. LCDC.1
//!   (as the shifter sees it) clear at the match skips the object; clear when its fetch
//!   would start drops it after the wait, with no fetch. Object pixels merge into the object
//!   FIFO, where pixels of objects fetched earlier win.
//! - The shifter sees a write `OUTPUT_DELAY` dots late: each pixel picks object or
//!   background (LCDC.0, LCDC.1, the priority bit) and its palette; on the dot a BGP, OBP or
//!   LCDC write lands there, the pixel gets the old and new values ORed (the DMG's write
//!   glitch, Mealybug `m3_bgp_change`, `m3_lcdc_bg_en_change`).
//! - The window starts when the counter reaches `WX + 1` (WX seen `WX_DELAY` dots late,
//!   LCDC.5 as the shifter sees it, without the glitch): the FIFO is cleared and the fetcher restarts on the
//!   window's tiles a dot later, 6 dots in all (7 at WX = 0 with fine scroll). Clearing LCDC.5
//!   turns the fetcher back to the background at its next tile number read after the
//!   window's first tile, on a tile boundary. Each start on a line draws the window's next
//!   row (the counter stays advanced). WX matching again on a window tile boundary, or on a
//!   background tile boundary while LCDC.5 (set at the line's start) is cleared, shifts out
//!   one extra colour-0 pixel (Mealybug `m3_wx_4_change`, `m3_lcdc_win_en_change_multiple_wx`;
//!   the second case is seen in that one ROM only).
//!
//! Status on Mealybug Tearoom (24 ROMs with a DMG reference image): 19 exact; the rest are
//! off by 2 to 124 pixels, listed with what is wrong in `tests/expected-failures.tsv`.

/// A register write during the line: its dot (from S), address and value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineWrite {
    /// Dot, counted from S, at which the write takes effect.
    pub dot: u16,
    /// The register (0xFF40-0xFF4B).
    pub addr: u16,
    /// The value written.
    pub value: u8,
}

/// The registers the fetcher and the shifter read.
#[derive(Clone, Copy, Debug)]
pub struct LineRegs {
    /// LCDC.
    pub lcdc: u8,
    /// SCY.
    pub scy: u8,
    /// SCX.
    pub scx: u8,
    /// BGP.
    pub bgp: u8,
    /// OBP0.
    pub obp0: u8,
    /// OBP1.
    pub obp1: u8,
    /// WX.
    pub wx: u8,
    /// The line (LY).
    pub ly: u8,
    /// The window's line counter.
    pub window_line: u8,
    /// WY matched LY at a line start this frame.
    pub wy_triggered: bool,
}

/// What the replay needs besides the registers: VRAM, OAM and the OAM scan's result.
#[derive(Clone, Copy, Debug)]
pub struct LineInput<'a> {
    /// Video RAM.
    pub vram: &'a [u8; 0x2000],
    /// Object attribute memory.
    pub oam: &'a [u8; 0xA0],
    /// The objects the OAM scan found on this line (OAM indices, in OAM order).
    pub objects: &'a [u8],
}

/// Dot (from S) at which the fetcher starts. Calibrated with the delays below on Mealybug
/// Tearoom (write times against pixels); it puts the last pixel 6 dots after the timeline's
/// mode 0 (Mooneye's STAT reads), a gap this model does not explain yet.
pub const START: u16 = 86;
/// Last write dot whose SCX low bits the fine-scroll discard uses: a write ending at 88 counts,
/// one at 92 does not (Mealybug `m3_scx_low_3_bits`).
const SCX_LATCH: u16 = 84;
/// Dots an object fetch counts once the background fetcher has its tile data (Pan Docs
/// "Mode 3 length"; Mooneye `intr_2_mode0_timing_sprites`).
const OBJ_FETCH: u8 = 6;
/// Dots after a write until the shifter sees it: palettes, LCDC.0/.1/.5 (Mealybug
/// `m3_bgp_change`, `m3_lcdc_bg_en_change`, `m3_obp0_change`).
const OUTPUT_DELAY: u16 = 4;
/// Dots after a write until the window's WX comparison sees it (Mealybug `m3_wx_6_change`,
/// `m3_window_timing`).
const WX_DELAY: u16 = 6;
/// Dots after a write until the fetcher sees it (Mealybug `m3_scy_change`,
/// `m3_lcdc_tile_sel_change`, `m3_lcdc_bg_map_change`, `m3_scx_high_5_bits`).
const FETCH_DELAY: u16 = 5;

/// One pixel of the object FIFO.
#[derive(Clone, Copy, Debug, Default)]
struct ObjPixel {
    /// Colour index 0-3 (0: transparent).
    index: u8,
    /// OAM attributes (palette in bit 4, priority in bit 7).
    attr: u8,
}

/// Apply a write to the registers the fetcher reads: all but the palettes.
fn apply_fetch(regs: &mut LineRegs, w: &LineWrite) {
    match w.addr {
        0xFF40 => regs.lcdc = w.value,
        0xFF42 => regs.scy = w.value,
        0xFF43 => regs.scx = w.value,
        _ => {}
    }
}

/// The palettes as the shifter reads them.
#[derive(Clone, Copy, Debug)]
struct Palettes {
    bgp: u8,
    obp0: u8,
    obp1: u8,
}

/// Apply a palette write to `pal`; `glitch` gets the palettes for the pixel leaving at the
/// write's dot (old and new ORed).
fn apply_output(pal: &mut Palettes, w: &LineWrite, glitch: &mut Palettes) {
    let reg = match w.addr {
        0xFF47 => (&mut pal.bgp, &mut glitch.bgp),
        0xFF48 => (&mut pal.obp0, &mut glitch.obp0),
        0xFF49 => (&mut pal.obp1, &mut glitch.obp1),
        _ => return,
    };
    *reg.1 = *reg.0 | w.value;
    *reg.0 = w.value;
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
    let addr = usize::from(tile) * 16 + usize::from(row) * 2;
    let (mut lo, mut hi) = (input.vram[addr], input.vram[addr + 1]);
    if attr & 0x20 != 0 {
        lo = lo.reverse_bits();
        hi = hi.reverse_bits();
    }
    (lo, hi, attr)
}

/// What a replayed line leaves behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineEnd {
    /// The window's line counter for the next line: one more per window start on this line.
    pub window_line: u8,
    /// The dot (from S) after the last pixel.
    pub dot: u16,
}

/// Replay the line: shades for each of the 160 pixels.
pub fn render(
    input: LineInput<'_>,
    mut regs: LineRegs,
    writes: &[LineWrite],
    shades: &mut [u8; 160],
) -> LineEnd {
    let vram = input.vram;
    let line_lcdc = regs.lcdc;
    // Objects in fetch order: by X, then OAM index.
    let mut objects = [0u8; 10];
    let n_objects = input.objects.len().min(10);
    objects[..n_objects].copy_from_slice(&input.objects[..n_objects]);
    let objects = &mut objects[..n_objects];
    objects.sort_by_key(|&i| (input.oam[usize::from(i) * 4 + 1], i));
    let mut next_object = 0usize;
    let mut obj_fifo = [ObjPixel::default(); 8];
    // Object fetch in progress: dots left, and the OAM index.
    let mut obj_fetch: Option<(u8, u8)> = None;
    let (mut obj_lo, mut obj_hi) = (0u8, 0u8);

    let mut pal = Palettes {
        bgp: regs.bgp,
        obp0: regs.obp0,
        obp1: regs.obp1,
    };
    let mut next_fetch = 0;
    let mut next_output = 0;
    let mut next_lcdc = 0;
    let mut next_wx = 0;
    let mut wx = regs.wx;
    let mut out_lcdc = regs.lcdc;
    let mut fifo = [0u8; 8];
    let mut fifo_len = 0usize;
    let mut fifo_pos = 0usize;
    let mut step = 0u8; // dots into the current fetch
    let mut first = true; // the first fetch: its tile is fetched again
    let mut tile_x = 0u8; // fetcher's tile counter
    let mut tile_no = 0u8;
    let mut lo = 0u8;
    let mut hi = 0u8;
    let mut in_window = false;
    let mut window_drawn = false;
    let mut window_start = usize::MAX; // the pixel count at which the window last started
    let mut window_line = regs.window_line;
    // SCX's low bits are latched at SCX_LATCH (Mealybug `m3_scx_low_3_bits`).
    let mut discard = writes
        .iter()
        .rfind(|w| w.addr == 0xFF43 && w.dot <= SCX_LATCH)
        .map_or(regs.scx, |w| w.value)
        & 7;
    let fine = discard;
    let mut stall = 0u8; // dots the window switch still holds the fetcher and the shifter
    // Pixels shifted out after the discard; the first 8 are off screen (left of X = 0).
    let mut count = 0usize;
    let mut dot = START;
    while count < 168 && dot < 456 {
        while next_fetch < writes.len() && writes[next_fetch].dot.saturating_add(FETCH_DELAY) <= dot
        {
            apply_fetch(&mut regs, &writes[next_fetch]);
            next_fetch += 1;
        }
        let mut glitch = pal;
        let mut glitched = false;
        while next_output < writes.len()
            && writes[next_output].dot.saturating_add(OUTPUT_DELAY) <= dot
        {
            glitched |= writes[next_output].dot.saturating_add(OUTPUT_DELAY) == dot;
            apply_output(&mut pal, &writes[next_output], &mut glitch);
            next_output += 1;
        }
        let out_pal = if glitched { glitch } else { pal };
        while next_wx < writes.len() && writes[next_wx].dot.saturating_add(WX_DELAY) <= dot {
            if writes[next_wx].addr == 0xFF4B {
                wx = writes[next_wx].value;
            }
            next_wx += 1;
        }
        let mut pixel_lcdc = out_lcdc;
        while next_lcdc < writes.len() && writes[next_lcdc].dot.saturating_add(OUTPUT_DELAY) <= dot
        {
            let w = &writes[next_lcdc];
            if w.addr == 0xFF40 {
                // The same glitch as the palettes': old and new ORed for one pixel.
                pixel_lcdc = if w.dot.saturating_add(OUTPUT_DELAY) == dot {
                    out_lcdc | w.value
                } else {
                    w.value
                };
                out_lcdc = w.value;
            }
            next_lcdc += 1;
        }
        // Window start: the next pixel out is at WX - 7 (counted from the 8 hidden ones).
        let wx = usize::from(wx);
        if !in_window
            && out_lcdc & 0x20 != 0
            && regs.wy_triggered
            && count == wx + 1
            && discard == 0
            && fifo_len > 0
        {
            if window_drawn {
                // A second start on the same line draws the window's next row, and the
                // counter stays advanced (Mealybug `m3_lcdc_win_en_change_multiple`).
                window_line = window_line.wrapping_add(1);
            }
            in_window = true;
            window_drawn = true;
            window_start = count;
            fifo_len = 0;
            fifo_pos = 0;
            step = 0;
            tile_x = 0;
            first = false;
            // The fetcher restarts on the next dot: the switch costs 6 dots in all (Pan Docs
            // "Mode 3 length"; Mealybug `m3_window_timing`), one more for WX = 0 with fine
            // scroll (Mealybug `m3_window_timing_wx_0`).
            if wx == 0 && fine != 0 {
                stall = 1;
            }
            dot += 1;
            continue;
        }
        if stall > 0 {
            stall -= 1;
            dot += 1;
            continue;
        }
        // An object fetch counts down while the fetcher has its tile data, from the dot after
        // the match; on the dot it ends the shifter runs again.
        if let Some((left, _)) = obj_fetch
            && step >= 6
            && left == OBJ_FETCH
            && out_lcdc & 0x02 == 0
        {
            obj_fetch = None;
        }
        if let Some((left, i)) = obj_fetch
            && step >= 6
        {
            // The object's tile data, low then high, each with LCDC.2 as it is then
            // (Mealybug `m3_lcdc_obj_size_change` mixes the two heights' rows).
            if left == 3 {
                obj_lo = object_row(&input, &regs, i).0;
            }
            if left == 1 {
                obj_hi = object_row(&input, &regs, i).1;
            }
            if left <= 1 {
                obj_fetch = None;
                let (olo, ohi, attr) = (obj_lo, obj_hi, input.oam[usize::from(i) * 4 + 3]);
                let x = usize::from(input.oam[usize::from(i) * 4 + 1]);
                // Pixels left of the screen's edge are dropped.
                let skip = count.saturating_sub(x);
                for (k, slot) in obj_fifo.iter_mut().enumerate() {
                    let px = k + skip;
                    if px >= 8 {
                        break;
                    }
                    let bit = 7 - px;
                    let index = ((olo >> bit) & 1) | (((ohi >> bit) & 1) << 1);
                    if slot.index == 0 {
                        *slot = ObjPixel { index, attr };
                    }
                }
            } else {
                obj_fetch = Some((left - 1, i));
            }
        }
        // Fetcher: steps 1, 3 and 5 read; from 5 on it pushes once the FIFO is empty (the push
        // dot is step 0 of the next fetch). It waits, tile data in hand, while an object is
        // fetched.
        if !(obj_fetch.is_some() && step >= 6) {
            match step {
                1 => {
                    if in_window && tile_x != 0 && regs.lcdc & 0x20 == 0 {
                        // The window was switched off: after its first tile, the next tile is
                        // the background's, on a tile boundary (Mealybug
                        // `m3_lcdc_win_en_change_multiple_wx`).
                        in_window = false;
                        let x = count + (fifo_len - fifo_pos);
                        tile_x = ((x + usize::from(regs.scx & 7)) / 8) as u8;
                    }
                    let (map, col, row) = if in_window {
                        (
                            if regs.lcdc & 0x40 != 0 {
                                0x1C00
                            } else {
                                0x1800
                            },
                            tile_x & 31,
                            window_line,
                        )
                    } else {
                        (
                            if regs.lcdc & 0x08 != 0 {
                                0x1C00
                            } else {
                                0x1800
                            },
                            (regs.scx >> 3).wrapping_add(tile_x) & 31,
                            regs.ly.wrapping_add(regs.scy),
                        )
                    };
                    tile_no = vram[map + usize::from(row / 8) * 32 + usize::from(col)];
                }
                3 | 5 => {
                    let row = if in_window {
                        window_line
                    } else {
                        regs.ly.wrapping_add(regs.scy)
                    };
                    let base = if regs.lcdc & 0x10 != 0 {
                        usize::from(tile_no) * 16
                    } else {
                        0x1000usize.wrapping_add_signed(isize::from(tile_no as i8) * 16)
                    };
                    let addr = (base + usize::from(row % 8) * 2) & 0x1FFE;
                    if step == 3 {
                        lo = vram[addr];
                    } else {
                        hi = vram[addr + 1];
                    }
                }
                _ => {}
            }
            if step >= 5 && fifo_pos >= fifo_len {
                for (i, p) in fifo.iter_mut().enumerate() {
                    let bit = 7 - i;
                    *p = ((lo >> bit) & 1) | (((hi >> bit) & 1) << 1);
                }
                fifo_len = 8;
                fifo_pos = 0;
                if first {
                    first = false;
                } else {
                    tile_x = tile_x.wrapping_add(1);
                }
                step = 1;
            } else if step < 6 {
                step += 1;
            }
        }
        // An object whose fetch would start with LCDC.1 clear is dropped: the shifter only
        // waited for the background fetcher (Mealybug `m3_lcdc_obj_en_change_variant`).
        if let Some((left, _)) = obj_fetch
            && step >= 6
            && left == OBJ_FETCH
            && out_lcdc & 0x02 == 0
        {
            obj_fetch = None;
        }
        // Object match: the shifter stops at an object's X.
        if obj_fetch.is_none() && discard == 0 && fifo_pos < fifo_len {
            while next_object < objects.len() {
                let i = objects[next_object];
                let x = usize::from(input.oam[usize::from(i) * 4 + 1]);
                if x > count {
                    break;
                }
                next_object += 1;
                if out_lcdc & 0x02 != 0 {
                    obj_fetch = Some((OBJ_FETCH, i));
                    break;
                }
            }
        }
        if obj_fetch.is_some() {
            dot += 1;
            continue;
        }
        // Shifter: one pixel per dot once the FIFO has pixels.
        if fifo_pos < fifo_len {
            // WX matching again while the window shows, on a window tile boundary: the DMG
            // shifts out one extra pixel of colour 0 and the FIFO waits (Mealybug
            // `m3_wx_4_change`, `m3_wx_5_change`).
            let repeat = count == wx + 1
                && if in_window {
                    count != window_start && count.wrapping_sub(window_start).is_multiple_of(8)
                } else {
                    // So does a match on a background tile boundary while LCDC.5, set when
                    // the line started, is cleared: the window does not start (Mealybug
                    // `m3_lcdc_win_en_change_multiple_wx`).
                    fifo_pos == 0
                        && regs.wy_triggered
                        && line_lcdc & 0x20 != 0
                        && out_lcdc & 0x20 == 0
                };
            let index = if repeat { 0 } else { fifo[fifo_pos] };
            if !repeat {
                fifo_pos += 1;
            }
            if discard > 0 {
                discard -= 1;
            } else {
                let obj = obj_fifo[0];
                obj_fifo.copy_within(1.., 0);
                obj_fifo[7] = ObjPixel::default();
                if count >= 8 {
                    let bg = if pixel_lcdc & 0x01 == 0 { 0 } else { index };
                    let obj_shows = obj.index != 0
                        && pixel_lcdc & 0x02 != 0
                        && !(obj.attr & 0x80 != 0 && bg != 0);
                    shades[count - 8] = if obj_shows {
                        let p = if obj.attr & 0x10 != 0 {
                            out_pal.obp1
                        } else {
                            out_pal.obp0
                        };
                        (p >> (obj.index * 2)) & 3
                    } else {
                        (out_pal.bgp >> (bg * 2)) & 3
                    };
                }
                count += 1;
            }
        }
        dot += 1;
    }
    LineEnd {
        window_line: window_line.wrapping_add(u8::from(window_drawn)),
        dot,
    }
}
