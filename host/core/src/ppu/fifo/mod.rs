//! Dot-level replay of one scanline's mode 3 (the background/window fetcher, the object
//! fetches and the two pixel shifters, Pan Docs "Rendering" and "Pixel FIFO"), for lines whose
//! registers change while they are drawn. Lines without mid-line writes take the PPU's
//! whole-line path; with no writes this replay draws exactly what that path draws, and its last
//! pixel comes a fixed time after the timeline's mode 0 (a test in `ppu/tests.rs` checks
//! both).
//!
//! The parts: [`fetcher`] (background and window tiles), [`objects`] (object matches, fetches
//! and the object FIFO), [`shifter`] (the background FIFO, palettes and the pixel's shade);
//! this module runs them dot by dot and hands each the line's register writes when it would
//! see them.
//!
//! Model (DMG). Dots are counted from S; a write's dot is the end of the CPU's M-cycle.
//! - The background fetcher starts at [`START`]; a fetch is tile number (LCDC.3 or .6, SCX,
//!   SCY, window state), tile data low, tile data high (LCDC.4 and SCY each time), read on
//!   its 2nd, 4th and 6th dots; from the 6th it pushes 8 pixels once the FIFO is empty, and
//!   the push dot is the 1st of the next fetch. It sees a write `FETCH_DELAY` dots late.
//! - The first fetch's tile is fetched again. Pixels are dropped until a counter of the dropped
//!   ones equals SCX's low bits (seen `FINE_DELAY` dots late, compared on each pixel, so a
//!   write can make it wrap), then a pixel counter runs from 0; pixels 0-7 are hidden, 8-167
//!   are the screen's 0-159. A background tile's map column is (SCX + that counter) / 8 as
//!   its number is read (see `Fetcher::map_column`). Objects and the window compare their X
//!   with this counter, so objects at X below 8 and the window at WX below 7 lose their left
//!   pixels by themselves.
//! - Objects stop the shifter at their X and are fetched while the fetcher waits: see
//!   [`objects`] (Pan Docs' penalty, the LCDC.1 cases).
//! - The shifter sees a write `OUTPUT_DELAY` dots late: each pixel picks object or
//!   background (LCDC.0, LCDC.1, the priority bit) and its palette; on the dot an LCDC write
//!   lands there, the pixel gets the old and new values ORed (the DMG's write glitch, Mealybug
//!   `m3_lcdc_bg_en_change`). A palette write shows its new value from the landing dot on
//!   (see [`OUTPUT_DELAY`]).
//! - The window starts when the counter reaches `WX + 1` (WX seen `WX_DELAY` dots late,
//!   LCDC.5 as the shifter sees it, without the glitch; with fine scroll the DMG also takes
//!   LCDC.5 from the dot before, either set starting it, and the CGB at normal speed takes
//!   WX and LCDC.5 from the dot before, LCDC.5 set on both): the FIFO is cleared and the fetcher restarts on the
//!   window's tiles a dot later, 6 dots in all (7 at WX = 0 with fine scroll). Clearing LCDC.5
//!   turns the fetcher back to the background at its next tile number read after the
//!   window's first tile, on a tile boundary; on the CGB, seen before that tile is in the
//!   FIFO, it drops the switch: the background goes on from where it stood, the dots since
//!   the start lost. Each start on a line draws the window's next
//!   row (the counter stays advanced). WX matching again on a window tile boundary, or on a
//!   background tile boundary while LCDC.5 (set at the line's start) is cleared, shifts out
//!   one extra colour-0 pixel (Mealybug `m3_wx_4_change`, `m3_lcdc_win_en_change_multiple_wx`;
//!   the second case is seen in that one ROM only).
//! - WY written with LY's value during the line makes the window eligible `WY_DELAY` dots
//!   later (CGB: `WY_DELAY_CGB`): the WY condition is checked all through the line.
//!
//! The CGB's hardware (either mode) differs in: the delays ([`FETCH_DELAY_CGB`],
//! [`OUTPUT_DELAY_CGB`], [`LCDC_OUTPUT_DELAY_CGB`], [`OBJ_SIZE_DELAY_CGB`]), no old|new glitch, objects fetched with
//! LCDC.1 clear too, the map attributes read with the tile number
//! (bank, flips, palette, priority), OAM-index object priority in CGB mode, and the LCDC.4
//! glitch (a tile data read as LCDC.4 is cleared takes the tile number as its data).
//!
//! Status on Mealybug Tearoom (24 ROMs with a DMG reference image): 19 exact; the rest are
//! off by 2 to 124 pixels, listed with what is wrong in `tests/expected-failures.tsv`. On the
//! CGB, 27 ROMs with a real CPU CGB C reference: 22 exact, the rest listed there too.

mod fetcher;
mod line;
mod objects;
mod shifter;

use fetcher::{Fetcher, TileSel};
pub use line::{LineInput, LineRegs, LineWrite};
use objects::Objects;
use shifter::{BgFifo, Palettes};

/// Dot (from S) at which the fetcher starts. Calibrated with the delays below on Mealybug
/// Tearoom (write times against pixels); it puts the last pixel 5 dots after the timeline's
/// mode 0 (STAT reads), a gap this model does not explain yet.
pub const START: u16 = 86;
/// Dots after a write until the fine scroll's discard compares with it (both models): SCX 0x60
/// written over 3 at S+84 is seen by the first pixel's comparison, at S+88 only after the
/// counter has passed 0, so 8 more pixels are dropped (Gambatte `scx_during_m3/scx_0360c0/*`,
/// `scx_0761c0/*`: 4 fails them, 5 and 6 fit both models; Mealybug `m3_scx_low_3_bits`).
const FINE_DELAY: u16 = 5;
/// The CGB's fine scroll sees SCX a dot later, 6 dots after the write (which the tests above
/// allow): on the first line after the LCD is switched on, whose mode 3 runs 2 dots late, SCX
/// 7 written over 0 at S+88 is too late on the CGB and in time on the DMG, while written
/// over 1 it is in time on both (Gambatte `enable_display/ly0_late_scx7_m3stat_scx0_2`,
/// `scx1_1`). At double speed a dot sooner, 5 dots, as the fetcher (Gambatte
/// `scx_during_m3/scx_0063c0/*_ds_*`, `scx_0360c0/*_ds_*`, `scx_m3_extend_ds_1`).
const FINE_DELAY_CGB: u16 = 6;
/// Dots after a write until the shifter sees it: palettes, LCDC.0/.1/.5 (Mealybug
/// `m3_bgp_change`, `m3_lcdc_bg_en_change`, `m3_obp0_change`). A BGP write shows the new
/// palette from the landing dot on, with no pixel of old and new ORed: Gambatte's
/// `dmgpalette_during_m3/*` (verified on a DMG-08: BGP 0xFF then 0x00, the first white pixel
/// is the landing dot's; 0x00 then 0xFF, the first black one is too). Mealybug's DMG-blob
/// screenshots (`m3_bgp_change`, `m3_bgp_change_sprites`) show an old|new pixel there
/// instead: a difference between DMG revisions; the model follows the DMG-08.
const OUTPUT_DELAY: u16 = 4;
/// Dots after a write until the window's WX comparison sees it (Mealybug `m3_wx_6_change`,
/// `m3_window_timing`).
const WX_DELAY: u16 = 6;
/// Dots after a WY write until the window's WY condition sees it: WY written with LY's value
/// during mode 3 still starts the window on this line if the pixel counter has not reached WX
/// by then (Gambatte `window/arg/late_wy_FFto2_ly2_*`: with WX 7 a write at dot 92 starts it
/// on the DMG, one at 96 does not, with SCX 0, 2 and 3; with SCX 5 one at 96 does, at 100 not:
/// only 7 fits all four).
const WY_DELAY: u16 = 7;
/// The CGB's comparison sees WY 4 dots later (the same tests: a write at 88 starts the window,
/// one at 92 does not, with SCX 0, 2 and 3; with SCX 5 at 92, not at 96).
const WY_DELAY_CGB: u16 = 11;
/// Dots after a write until the fetcher sees it (Mealybug `m3_scy_change`,
/// `m3_lcdc_tile_sel_change`, `m3_lcdc_bg_map_change`, `m3_scx_high_5_bits`).
const FETCH_DELAY: u16 = 5;
/// The CGB's PPU (either mode) sees a write 2 dots later in the fetcher and 1 dot later in
/// the shifter, without the DMG's old|new glitch (Mealybug's CPU CGB C screenshots:
/// `m3_bgp_change`, `m3_scy_change`, `m3_scx_high_5_bits`, `m3_window_timing`, where the
/// palette, scroll and window changes land 1-2 pixels to the right of the DMG's). At double
/// speed the fetcher sees a write a dot sooner, 6 dots after its M-cycle's end, while the
/// shifter and the window's WX comparison keep their delays (Gambatte's
/// `scx_during_m3/scx_0060c0/*_ds_*`, `scy/scy_during_m3_ds_*`, `bgtiledata/*_ds_*`,
/// `bgtilemap/*_ds_*`; Gambatte delays these writes by 2 CPU clocks, a dot at double speed).
const FETCH_DELAY_CGB: u16 = 7;
/// See [`FETCH_DELAY_CGB`].
const OUTPUT_DELAY_CGB: u16 = 5;
/// The CGB's object fetches see a write to LCDC.2 (object size) 8 dots late, a dot after the
/// fetcher's other LCDC bits (Mealybug's CPU CGB C `m3_lcdc_obj_size_change_scx`: with 7 a
/// row of one object is fetched at the new height where the hardware still uses the old;
/// `m3_lcdc_obj_size_change` matches with either).
const OBJ_SIZE_DELAY_CGB: u16 = 8;
/// The CGB's shifter sees an LCDC write (BG/window enable LCDC.0, object enable LCDC.1, window
/// enable LCDC.5) a dot later than a palette write: 6 dots (Mealybug's CPU CGB C
/// `m3_lcdc_bg_en_change`, `m3_lcdc_bg_en_change2`, `m3_lcdc_obj_en_change`,
/// `m3_lcdc_obj_en_change_variant`: with 5 their edges land a pixel left of the hardware's).
const LCDC_OUTPUT_DELAY_CGB: u16 = 6;
// The CGB's LCDC.4 glitch (see `Fetcher::tick`) strikes a tile data read on the dot before
// the fetcher sees the write clearing LCDC.4, i.e. while it still reads the old value: with
// that dot, cgb-acid-hell is exact and Mealybug `m3_lcdc_tile_sel_change` off by 8 pixels
// (one object's first line), against 2 and 520 without the glitch.

/// What a replayed line leaves behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineEnd {
    /// The window's line counter for the next line: one more per window start on this line.
    pub window_line: u8,
    /// The dot (from S) after the last pixel.
    pub dot: u16,
}

/// The line's register writes as one stage sees them: each `delay` dots after it lands.
struct Delayed<'a> {
    writes: &'a [LineWrite],
    next: usize,
    delay: u16,
}

impl<'a> Delayed<'a> {
    fn new(writes: &'a [LineWrite], delay: u16) -> Delayed<'a> {
        Delayed {
            writes,
            next: 0,
            delay,
        }
    }

    /// The next write this stage sees at or before `dot`, and whether it lands on `dot` itself.
    fn due(&mut self, dot: u16) -> Option<(&'a LineWrite, bool)> {
        let w = self.writes.get(self.next)?;
        let at = w.dot.saturating_add(self.delay);
        if at > dot {
            return None;
        }
        self.next += 1;
        Some((w, at == dot))
    }
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

/// Replay the line: each of the 160 pixels, a shade (objects' tagged with their palette, 4
/// for OBP0 and 8 for OBP1) or in CGB mode an RGB555 colour.
pub fn render(
    input: LineInput<'_>,
    mut regs: LineRegs,
    writes: &[LineWrite],
    shades: &mut [u16; crate::frame::WIDTH],
) -> LineEnd {
    let line_lcdc = regs.lcdc;
    let mut objects = Objects::new(&input);
    let mut pal = Palettes {
        bgp: regs.bgp,
        obp0: regs.obp0,
        obp1: regs.obp1,
    };
    let (fetch_delay, output_delay) = if input.cgb_hardware {
        (FETCH_DELAY_CGB, OUTPUT_DELAY_CGB)
    } else {
        (FETCH_DELAY, OUTPUT_DELAY)
    };
    // At double speed the fetcher sees a write a dot sooner (see `FETCH_DELAY_CGB`).
    let fetch_delay = fetch_delay - u16::from(input.double_speed);
    let mut fetch_writes = Delayed::new(writes, fetch_delay);
    // The CGB's object fetch sees LCDC.2 (object size) a dot after the rest of the fetcher.
    let late_mask: u8 = if input.cgb_hardware { 0x04 } else { 0 };
    let mut late_writes = Delayed::new(writes, OBJ_SIZE_DELAY_CGB);
    // The CGB's LCDC.4 glitch: a write clearing LCDC.4 one dot before the fetcher sees it.
    let mut tile_sel_writes = Delayed::new(writes, fetch_delay - 1);
    let mut sel_lcdc = regs.lcdc;
    let mut output_writes = Delayed::new(writes, output_delay);
    let lcdc_delay = if input.cgb_hardware {
        LCDC_OUTPUT_DELAY_CGB
    } else {
        output_delay
    };
    let mut lcdc_writes = Delayed::new(writes, lcdc_delay);
    let mut wx_writes = Delayed::new(writes, WX_DELAY);
    // At double speed the CGB's comparison sees WY as soon as the DMG's does.
    let wy_delay = if input.cgb_hardware && !input.double_speed {
        WY_DELAY_CGB
    } else {
        WY_DELAY
    };
    let mut wy_writes = Delayed::new(writes, wy_delay);
    let mut wx = regs.wx;
    let mut out_lcdc = regs.lcdc;
    let mut bg = BgFifo::default();
    let mut window_drawn = false;
    let mut window_start = usize::MAX; // the pixel count at which the window last started
    let mut window_line = regs.window_line;
    // The fine scroll: pixels are dropped until a counter of the dropped ones matches SCX's
    // low bits, seen FINE_DELAY dots late, on each pixel (so SCX written while it counts can
    // make it wrap and drop 8 more). `fine` is what it dropped, modulo 8.
    let mut discarding = true;
    let mut dropped = 0u8;
    let mut fine = regs.scx & 7;
    let mut fine_scx = regs.scx;
    let fine_delay = if input.cgb_hardware {
        FINE_DELAY_CGB - u16::from(input.double_speed)
    } else {
        FINE_DELAY
    };
    let mut fine_writes = Delayed::new(writes, fine_delay);
    let mut fetcher = Fetcher::new(input.cgb_hardware);
    let mut stall = 0u8; // dots the window switch still holds the fetcher and the shifter
    // The CGB's window switch while its first tile is fetched: the background's state and the
    // dot it started, to go back to if LCDC.5 is seen cleared meanwhile. The switch (and at
    // double speed the window's start) sees LCDC.5 cleared a dot sooner at double speed
    // (Gambatte `window/late_disable_*_ds_*`).
    let mut switching: Option<(BgFifo, Fetcher, u16)> = None;
    let mut switch_writes = Delayed::new(writes, lcdc_delay - u16::from(input.double_speed));
    let mut switch_lcdc = regs.lcdc;
    // The pixel count a dropped switch stood at: the window does not start there again.
    let mut dropped_at = usize::MAX;
    // Pixels shifted out after the discard; the first 8 are off screen (left of X = 0).
    let mut count = 0usize;
    let mut dot = START;
    // DMG: the line starts in the window (WX 166 at the line before's end), if LCDC.5 is set
    // as the fetcher reads its second tile (below).
    let mut carry = regs.window_carry;
    let mut carry_seen = false;
    while count < 168 && dot < 456 {
        // A write changing LCDC.4 on the dot before the fetcher sees it, on the CGB: clearing
        // it is the LCDC.4 glitch, setting it in CGB mode is seen already (see
        // `Fetcher::tick`).
        let mut tile_sel = TileSel::Steady;
        while let Some((w, _)) = tile_sel_writes.due(dot) {
            if w.addr != 0xFF40 {
                continue;
            }
            let changed = (sel_lcdc ^ w.value) & 0x10 != 0;
            sel_lcdc = w.value;
            if changed && input.cgb_hardware {
                tile_sel = match (w.value & 0x10 != 0, input.cgb_d) {
                    (true, _) if input.cgb => TileSel::Set,
                    (true, _) => TileSel::Steady,
                    (false, false) => TileSel::ClearedC,
                    (false, true) => TileSel::ClearedD,
                };
            }
        }
        while let Some((w, _)) = fetch_writes.due(dot) {
            if w.addr == 0xFF40 {
                regs.lcdc = (regs.lcdc & late_mask) | (w.value & !late_mask);
            } else {
                apply_fetch(&mut regs, w);
            }
        }
        // (Nothing is late on the DMG.)
        while late_mask != 0
            && let Some((w, _)) = late_writes.due(dot)
        {
            if w.addr == 0xFF40 {
                regs.lcdc = (regs.lcdc & !late_mask) | (w.value & late_mask);
            }
        }
        while let Some((w, _)) = fine_writes.due(dot) {
            if w.addr == 0xFF43 {
                fine_scx = w.value;
            }
        }
        while let Some((w, _)) = output_writes.due(dot) {
            // The new value from the landing dot on, on both models (see `OUTPUT_DELAY`).
            pal.apply(w);
        }
        while let Some((w, _)) = wy_writes.due(dot) {
            if w.addr == 0xFF4A && w.value == regs.ly {
                regs.wy_triggered = true;
            }
        }
        let prev_wx = wx;
        while let Some((w, _)) = wx_writes.due(dot) {
            if w.addr == 0xFF4B {
                wx = w.value;
            }
        }
        let prev_lcdc = out_lcdc;
        let mut pixel_lcdc = out_lcdc;
        while let Some((w, landing)) = lcdc_writes.due(dot) {
            if w.addr == 0xFF40 {
                // The DMG's write glitch: old and new ORed for one pixel.
                pixel_lcdc = if landing && !input.cgb_hardware {
                    out_lcdc | w.value
                } else {
                    w.value
                };
                out_lcdc = w.value;
            }
        }
        while let Some((w, _)) = switch_writes.due(dot) {
            if w.addr == 0xFF40 {
                switch_lcdc = w.value;
            }
        }
        if let Some((saved_bg, saved_fetcher, start)) = switching {
            if bg.has_pixels() || dot >= start + 6 {
                switching = None;
            } else if switch_lcdc & 0x20 == 0 {
                // The CGB drops the switch: the background goes on from where it stood, the
                // dots since the switch lost (Gambatte `window/late_disable_*`: LCDC.5 seen
                // cleared s dots after the window's start costs s dots, not 6).
                bg = saved_bg;
                fetcher = saved_fetcher;
                stall = 0;
                switching = None;
                dropped_at = count;
            }
        }
        // The carried window is taken as the fetcher reads its second tile's number (the
        // first tile's pixels are all off screen): LCDC.5 set up to then starts it, from the
        // window's tile 1. LCDC.5 up on the way but cleared by then still counts the line.
        if carry {
            carry_seen |= regs.lcdc & 0x20 != 0;
            if fetcher.second_tile_read() {
                carry = false;
                if regs.lcdc & 0x20 != 0 {
                    fetcher.start_carried();
                }
                window_drawn |= carry_seen;
            }
        }
        // Window start: the next pixel out is at WX - 7 (counted from the 8 hidden ones). With
        // fine scroll the DMG's comparison also takes LCDC.5 from the dot before (a clear must
        // land a dot earlier to cancel it), the CGB's at normal speed WX and LCDC.5 from the
        // dot before (Gambatte `window/late_disable_scx*`, `late_reenable_scx*`,
        // `late_wx_scx*`: docs/timing.md, "The window's start with fine scroll"). The CGB's
        // needs LCDC.5 set as its switch sees it too.
        let (win_lcdc, win_wx) = match (fine != 0, input.cgb_hardware) {
            (true, false) => (out_lcdc | prev_lcdc, wx),
            (true, true) if !input.double_speed => (out_lcdc & prev_lcdc, prev_wx),
            (_, true) => (out_lcdc & switch_lcdc, wx),
            _ => (out_lcdc, wx),
        };
        let wx = usize::from(wx);
        let win_wx = usize::from(win_wx);
        if !input.cgb_hardware
            && wx == 166
            && count == wx + 1
            && !fetcher.in_window
            && out_lcdc & 0x20 != 0
            && regs.wy_triggered
        {
            // The DMG's WX 166: no window on this line, but its line counter advances (and
            // the next line starts in it: `Ppu::window_carry`).
            window_drawn = true;
        } else if !fetcher.in_window
            && win_lcdc & 0x20 != 0
            && regs.wy_triggered
            && count == win_wx + 1
            && count != dropped_at
            && !discarding
            && bg.started()
        {
            if window_drawn {
                // A second start on the same line draws the window's next row, and the
                // counter stays advanced (Mealybug `m3_lcdc_win_en_change_multiple`).
                window_line = window_line.wrapping_add(1);
            }
            window_drawn = true;
            window_start = count;
            if input.cgb_hardware {
                switching = Some((bg, fetcher, dot));
            }
            bg.clear();
            fetcher.start_window();
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
        // An object fetch runs while the fetcher has its tile data in hand; the fetcher waits
        // for it.
        let ready = fetcher.has_tile_data();
        // The CGB fetches objects with LCDC.1 clear too (it only hides them).
        let fetch_lcdc = if input.cgb_hardware {
            out_lcdc | 0x02
        } else {
            out_lcdc
        };
        objects.abandon_if_disabled(fetch_lcdc);
        objects.fetch(&input, &regs, ready, count);
        if !(objects.fetching() && fetcher.has_tile_data()) {
            fetcher.tick(
                input.vram,
                input.cgb,
                tile_sel,
                &regs,
                window_line,
                count,
                &mut bg,
            );
        }
        // The fine scroll's counter matches SCX's low bits: the next pixel out is counted.
        if discarding && bg.has_pixels() && dropped & 7 == fine_scx & 7 {
            discarding = false;
            fine = dropped & 7;
        }
        // Object match: the shifter stops at an object's X.
        if !objects.fetching() && !discarding && bg.has_pixels() {
            objects.match_at(input.oam, count, fetch_lcdc);
        }
        if objects.fetching() {
            dot += 1;
            continue;
        }
        // Shifter: one pixel per dot once the FIFO has pixels.
        if bg.has_pixels() {
            // WX matching again while the window shows, on a window tile boundary: the DMG
            // shifts out one extra pixel of colour 0 and the FIFO waits (Mealybug
            // `m3_wx_4_change`, `m3_wx_5_change`).
            let repeat = count == wx + 1
                && if fetcher.in_window {
                    window_start != usize::MAX
                        && count != window_start
                        && count.wrapping_sub(window_start).is_multiple_of(8)
                } else {
                    // So does a match on a background tile boundary while LCDC.5, set when
                    // the line started, is cleared: the window does not start (Mealybug
                    // `m3_lcdc_win_en_change_multiple_wx`).
                    bg.at_tile_start()
                        && regs.wy_triggered
                        && line_lcdc & 0x20 != 0
                        && out_lcdc & 0x20 == 0
                };
            let bg_attr = bg.attr();
            let index = if repeat { 0 } else { bg.pop() };
            if discarding {
                dropped += 1;
            } else {
                let obj = objects.shift();
                if count >= 8 {
                    shades[count - 8] = if input.cgb {
                        shifter::color(
                            index,
                            bg_attr,
                            obj,
                            pixel_lcdc,
                            input.bg_palettes,
                            input.obj_palettes,
                        )
                    } else {
                        u16::from(shifter::shade(index, obj, pixel_lcdc, &pal))
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
