//! The background/window fetcher (Pan Docs "Pixel FIFO": Get Tile, Get Tile Data Low, Get
//! Tile Data High, Push): a fetch reads the tile number on its 2nd dot (LCDC.3 or .6, SCX,
//! SCY, the window's state), the tile data low and high on its 4th and 6th (LCDC.4 and SCY
//! each time), and from the 6th pushes 8 pixels once the background FIFO is empty, the push
//! dot being the 1st of the next fetch. The line's first tile is fetched twice.

use super::line::LineRegs;
use super::shifter::BgFifo;

/// Whether a write clearing LCDC.4 lands on this dot, on the CGB's hardware (see
/// [`Fetcher::tick`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TileSel {
    /// No such write (or not a CGB).
    Steady,
    /// On the CPU CGB C (and earlier revisions).
    ClearedC,
    /// On the CPU CGB D.
    ClearedD,
    /// A write setting LCDC.4, in CGB mode: the read already takes the new value.
    Set,
}

/// The fetcher's state.
#[derive(Clone, Copy, Debug)]
pub(super) struct Fetcher {
    /// Dots into the current fetch (1-6; it stays at 6 while it waits to push).
    step: u8,
    /// The line's first fetch: its tile is fetched again.
    first: bool,
    /// Tile column counter (of the background map from SCX / 8, or of the window from 0).
    tile_x: u8,
    /// The tile number read on step 1.
    tile_no: u8,
    /// Tile data low, read on step 3.
    lo: u8,
    /// Tile data high, read on step 5.
    hi: u8,
    /// CGB mode: the tile's attributes (VRAM bank 1 at the map entry), read with the number.
    attr: u8,
    /// Fetching the window's tiles.
    pub(super) in_window: bool,
    /// The background came back after the window: its columns count on from there.
    resumed: bool,
    /// The CGB's hardware: the map column is taken a pixel earlier (see
    /// [`Fetcher::map_column`]).
    cgb_hardware: bool,
    /// The pixel counter when the last tile was pushed.
    push_count: usize,
}

impl Default for Fetcher {
    fn default() -> Fetcher {
        Fetcher {
            step: 0,
            first: true,
            tile_x: 0,
            tile_no: 0,
            lo: 0,
            hi: 0,
            attr: 0,
            in_window: false,
            resumed: false,
            cgb_hardware: false,
            push_count: 0,
        }
    }
}

impl Fetcher {
    /// A fetcher for a line on the CGB's hardware or the DMG's.
    pub(super) fn new(cgb_hardware: bool) -> Fetcher {
        Fetcher {
            cgb_hardware,
            ..Fetcher::default()
        }
    }

    /// The window starts: the fetcher restarts on its first tile (the FIFO was cleared).
    pub(super) fn start_window(&mut self) {
        self.in_window = true;
        self.step = 0;
        self.tile_x = 0;
        self.first = false;
    }

    /// The background's map column: SCX plus the pixel counter as the tile number is read,
    /// divided by 8 (SameBoy; Gambatte's `(scx + xpos + 1 - cgb) / 8` at the tile's start).
    /// The CGB takes the counter a pixel earlier, but not before the pixel at which the last
    /// tile was pushed (SameBoy: not during an object fetch). SCX's low bits written
    /// mid-line thus carry into the column or borrow from it, and a fine scroll that wrapped
    /// (see `fifo::render`) restarts it (Gambatte `scx_during_m3/*`). The background resumed
    /// after the window counts tiles on from where it resumed.
    fn map_column(&self, scx: u8, count: usize) -> u8 {
        if self.resumed {
            return (scx >> 3).wrapping_add(self.tile_x) & 31;
        }
        let pos = if self.cgb_hardware {
            count.saturating_sub(1).max(self.push_count)
        } else {
            count
        };
        ((usize::from(scx) + pos) / 8 % 32) as u8
    }

    /// The line starts in the window (the DMG's WX 166 on the line before): from its tile 1,
    /// as the second fetch (the first fetch's tile, fetched again, is off screen anyway).
    pub(super) fn start_carried(&mut self) {
        self.in_window = true;
        self.tile_x = 1;
    }

    /// The fetcher reads the line's second tile number on this dot (the first tile's number
    /// is read again: `first` is spent, no tile pushed since).
    pub(super) fn second_tile_read(&self) -> bool {
        !self.first && self.step == 1 && self.tile_x == 0 && !self.in_window
    }

    /// The fetch has its tile data in hand (an object fetch can run now).
    pub(super) fn has_tile_data(&self) -> bool {
        self.step >= 6
    }

    /// One dot: the reads of steps 1, 3 and 5, and from step 5 on the push into `bg` once it
    /// is empty. `count` is the shifter's pixel counter.
    ///
    /// `tile_sel`: on the CGB's hardware, a write clearing LCDC.4 lands on this dot. On a tile
    /// data read that is the CGB's LCDC.4 glitch (Mealybug's PPU notes, "TILE_SEL (bit 4)"):
    /// the read uses LCDC.4's old value, and "on all CGB revisions, excluding CPU CGB D,
    /// resetting `TILE_SEL` on the same T-cycle as a bitplane data read will cause the tile
    /// index to be instead used as the data for that bitplane" (tile numbers 0x00-0x7F here,
    /// as SameBoy has it; Mealybug `m3_lcdc_tile_sel_change`, cgb-acid-hell), while "on CPU CGB
    /// D, resetting `TILE_SEL` on the same T-cycle as the bitplane 1 data read will cause the
    /// PPU to instead read the bitplane data from the address for bitplane 0".
    #[allow(clippy::too_many_arguments)]
    pub(super) fn tick(
        &mut self,
        vram: &[u8; 0x4000],
        cgb: bool,
        tile_sel: TileSel,
        regs: &LineRegs,
        window_line: u8,
        count: usize,
        bg: &mut BgFifo,
    ) {
        match self.step {
            1 => {
                if self.in_window && self.tile_x != 0 && regs.lcdc & 0x20 == 0 {
                    // The window was switched off: after its first tile, the next tile is the
                    // background's, on a tile boundary (Mealybug
                    // `m3_lcdc_win_en_change_multiple_wx`).
                    self.in_window = false;
                    let x = count + bg.remaining();
                    self.tile_x = ((x + usize::from(regs.scx & 7)) / 8) as u8;
                    self.resumed = true;
                }
                let (map, col, row) = if self.in_window {
                    (
                        if regs.lcdc & 0x40 != 0 {
                            0x1C00
                        } else {
                            0x1800
                        },
                        self.tile_x & 31,
                        window_line,
                    )
                } else {
                    (
                        if regs.lcdc & 0x08 != 0 {
                            0x1C00
                        } else {
                            0x1800
                        },
                        self.map_column(regs.scx, count),
                        regs.ly.wrapping_add(regs.scy),
                    )
                };
                let entry = map + usize::from(row / 8) * 32 + usize::from(col);
                self.tile_no = vram[entry];
                // CGB mode: the attributes are in bank 1 at the same address.
                self.attr = if cgb { vram[0x2000 + entry] } else { 0 };
            }
            3 | 5 => {
                let row = if self.in_window {
                    window_line
                } else {
                    regs.ly.wrapping_add(regs.scy)
                };
                let base = if regs.lcdc & 0x10 != 0 || tile_sel != TileSel::Steady {
                    usize::from(self.tile_no) * 16
                } else {
                    0x1000usize.wrapping_add_signed(isize::from(self.tile_no as i8) * 16)
                };
                let row = if self.attr & 0x40 != 0 {
                    7 - row % 8
                } else {
                    row % 8
                };
                let bank = usize::from(self.attr & 0x08) << 10;
                let addr = bank + ((base + usize::from(row) * 2) & 0x1FFE);
                let data = match tile_sel {
                    TileSel::ClearedC if self.tile_no < 0x80 => self.tile_no,
                    TileSel::ClearedD => vram[addr],
                    _ => vram[addr + usize::from(self.step == 5)],
                };
                if self.step == 3 {
                    self.lo = data;
                } else {
                    self.hi = data;
                }
            }
            _ => {}
        }
        if self.step >= 5 && !bg.has_pixels() {
            if self.attr & 0x20 != 0 {
                bg.push(self.lo.reverse_bits(), self.hi.reverse_bits(), self.attr);
            } else {
                bg.push(self.lo, self.hi, self.attr);
            }
            self.push_count = count;
            if self.first {
                self.first = false;
            } else {
                self.tile_x = self.tile_x.wrapping_add(1);
            }
            self.step = 1;
        } else if self.step < 6 {
            self.step += 1;
        }
    }
}
