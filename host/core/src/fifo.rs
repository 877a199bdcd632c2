//! Dot-level replay of one scanline's mode 3 (the background/window fetcher and the pixel
//! shifter, Pan Docs "Rendering"), for lines whose registers change while they are drawn. Lines
//! without mid-line writes take the PPU's whole-line path; this one is exact to the dot.
//!
//! Model (DMG): the fetcher starts `START` dots after S and works in steps of two dots: tile
//! number, tile data low, tile data high, then it pushes 8 pixels once the FIFO is empty. The
//! first fetch of a line is done twice (the first result is dropped), so pixels start leaving
//! 12 dots in; the first `SCX % 8` are discarded. BGP acts on each pixel as it leaves; LCDC, SCX
//! and SCY act when the fetcher reads them. The window starts when the next pixel out is at
//! `WX - 7` (for WX below 7, at once, dropping `7 - WX` pixels): the FIFO is cleared and the
//! fetcher restarts on the window's tiles. Objects are not part of the replay: they are drawn
//! over the finished line.
//!
//! Status, measured on Mealybug Tearoom (24 ROMs with a DMG reference image): 63,401 wrong
//! pixels in all, against 79,738 for drawing each line from the registers at its end with a
//! catch-up at writes; `m2_win_en_toggle` is exact. Not yet exact: the pixel BGP mixes at a
//! switch, mid-line WX changes (`m3_wx_*_change`), window re-enables, objects.

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
    /// WX.
    pub wx: u8,
    /// The line (LY).
    pub ly: u8,
    /// The window's line counter.
    pub window_line: u8,
    /// WY matched LY at a line start this frame.
    pub wy_triggered: bool,
}

/// Dot (from S) at which the replay's fetcher starts. With the write lag in `ppu.rs` this is a
/// calibration on Mealybug Tearoom, not yet derived from the mode 3 timing (which starts at 84):
/// the two will meet when the replay is exact.
pub const START: u16 = 92;
/// Dots after a write until BGP, read as each pixel leaves, sees it, relative to the fetcher's
/// registers (Mealybug `m3_bgp_change`).
const OUTPUT_DELAY: u16 = 6;

/// Apply a write to the registers the fetcher (and LCDC's BG enable) reads: all but BGP.
fn apply_fetch(regs: &mut LineRegs, w: &LineWrite) {
    match w.addr {
        0xFF40 => regs.lcdc = w.value,
        0xFF42 => regs.scy = w.value,
        0xFF43 => regs.scx = w.value,
        0xFF4B => regs.wx = w.value,
        _ => {}
    }
}

/// Apply a write to BGP, which the shifter reads as each pixel leaves.
fn apply_output(regs: &mut LineRegs, w: &LineWrite) {
    if w.addr == 0xFF47 {
        regs.bgp = w.value;
    }
}

/// Replay the line: shades and colour indices for each of the 160 pixels; returns whether the
/// window was drawn.
pub fn render(
    vram: &[u8; 0x2000],
    mut regs: LineRegs,
    writes: &[LineWrite],
    shades: &mut [u8; 160],
    indices: &mut [u8; 160],
) -> bool {
    let mut next_fetch = 0;
    let mut next_output = 0;
    let out_adj = OUTPUT_DELAY;
    let mut fifo = [0u8; 8];
    let mut fifo_len = 0usize;
    let mut fifo_pos = 0usize;
    let mut step = 0u8; // dots into the current fetch
    let mut dummy = true;
    let mut tile_x = 0u8; // fetcher's tile counter
    let mut tile_no = 0u8;
    let mut lo = 0u8;
    let mut hi = 0u8;
    let mut in_window = false;
    let mut window_drawn = false;
    let mut discard = regs.scx & 7;
    let mut window_skip = 0usize;
    let mut lx = 0usize;
    let mut dot = START;
    while lx < 160 && dot < 456 {
        while next_fetch < writes.len() && writes[next_fetch].dot <= dot {
            apply_fetch(&mut regs, &writes[next_fetch]);
            next_fetch += 1;
        }
        while next_output < writes.len() && writes[next_output].dot + out_adj <= dot {
            apply_output(&mut regs, &writes[next_output]);
            next_output += 1;
        }
        // Window start: the next pixel out is at WX - 7.
        let wx = usize::from(regs.wx);
        if !in_window
            && regs.lcdc & 0x20 != 0
            && regs.wy_triggered
            && wx <= 166
            && (lx + 7 == wx || (lx == 0 && wx < 7 && discard == 0))
            && !dummy
        {
            in_window = true;
            window_drawn = true;
            fifo_len = 0;
            fifo_pos = 0;
            step = 0;
            tile_x = 0;
            // WX below 7: the window's first 7 - WX pixels fall off the left edge.
            window_skip = 7usize.saturating_sub(wx);
        }
        // Fetcher.
        match step {
            1 => {
                let (map, col, row) = if in_window {
                    (
                        if regs.lcdc & 0x40 != 0 {
                            0x1C00
                        } else {
                            0x1800
                        },
                        tile_x & 31,
                        regs.window_line,
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
                    regs.window_line
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
            if dummy {
                dummy = false;
            } else {
                for (i, p) in fifo.iter_mut().enumerate() {
                    let bit = 7 - i;
                    *p = ((lo >> bit) & 1) | (((hi >> bit) & 1) << 1);
                }
                fifo_len = 8;
                fifo_pos = 0;
                tile_x = tile_x.wrapping_add(1);
            }
            step = 0;
        } else {
            step = step.saturating_add(1);
        }
        // Shifter: one pixel per dot once the FIFO has pixels.
        if fifo_pos < fifo_len {
            let index = fifo[fifo_pos];
            fifo_pos += 1;
            if discard > 0 && !in_window {
                discard -= 1;
            } else if in_window && window_skip > 0 {
                window_skip -= 1;
            } else {
                if regs.lcdc & 0x01 == 0 {
                    shades[lx] = 0;
                    indices[lx] = 0;
                } else {
                    shades[lx] = (regs.bgp >> (index * 2)) & 3;
                    indices[lx] = index;
                }
                lx += 1;
            }
        }
        dot += 1;
    }
    window_drawn
}
