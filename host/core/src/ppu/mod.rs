//! The PPU: LCD registers, VRAM and OAM, mode/LY/STAT timing, and a scanline renderer.
//!
//! Timing is event-driven: the PPU keeps the time of its next transition and the bus calls
//! [`Ppu::run_events`] when that time is reached (or later, in one batch, while no STAT
//! interrupt source is enabled: `Ppu::wake_at`), so nothing runs per dot. The timeline, with
//! the hardware references for each edge, is in `docs/timing.md`; in short, dots counted from
//! the point S where LY changes, a CPU access at time `t` seeing every change at or before `t`:
//!
//! | dot | what happens |
//! |---|---|
//! | S | LY changes (the LY=LYC flag reads 0 for an M-cycle), STAT reads mode 0, OAM reads blocked, the OAM interrupt source pulses (lines 1-144) |
//! | S+2 | line 144: VBlank (mode 1, IF bit 0, the VBlank source); line 0: VBlank ends, the OAM pulse |
//! | S+4 | STAT reads mode 2 (lines 0-143); LY is compared with LYC; OAM writes blocked |
//! | S+80 | VRAM reads blocked; OAM writes land again for one M-cycle |
//! | S+84 | STAT reads mode 3; VRAM and OAM blocked for reads and writes |
//! | S+253+p | mode 0 for STAT, VRAM and OAM (p: SCX, window and object penalties; +2 on the first line after the LCD is switched on); the line is drawn if nothing was written |
//! | S+254+p | the HBlank interrupt source (mode 0 starts half a dot before dot 254) |
//! | S+258+p | else the line is replayed (its last pixel in the replay's time) |
//!
//! Lines 145-153 are mode 1; on line 153 LY reads 0 from S+4, compared with LYC from S+12.
//! The CGB differs in a few edges (mode 2 from S+2, mode 3 from S+82, OAM writes blocked from
//! S, LY's AND in the dot before S, objects fetched with LCDC.1 clear, mode 0 a dot later at
//! double speed, a 1-dot hold at the switch back to normal speed): `docs/timing.md`, "The
//! CGB".
//! The first line after the LCD is switched on starts as if S had been 4 dots before the LCDC
//! write, with no OAM scan (no objects) and no interrupt source: mode 0 until mode 3, OAM
//! writes blocked from S+82, and mode 3 an ordinary one run 2 dots late (its end, the CGB's
//! VRAM and colour RAM blocks, the replay's view of mid-line writes).
//!
//! Pixels are produced a whole line at a time when its last pixel is out (tile rows decoded 8
//! pixels at once, objects drawn over them). A line whose LCDC, SCX, SCY, BGP, OBP0, OBP1 or WX
//! is written while it is drawn is instead replayed dot by dot (`ppu/fifo`: fetcher,
//! object fetches, shifters) with the writes at their dots; 19 of Mealybug Tearoom's 24 DMG
//! screenshots are exact (the module docs have the model).

use crate::frame::Frame;
mod cgb;
mod cram;
mod event;
mod fifo;
mod lanes;
mod oam_bug;
mod objects;
mod registers;
mod render;
mod render_cgb;
mod scan_cache;
mod state;
#[cfg(test)]
mod tests;
mod timeline;

use event::{Event, SRC_VBLANK};

/// The CGB's dot (from S) from which CPU reads and writes of VRAM are blocked at normal speed
/// (a dot earlier at double speed): not S+80 for reads as on the DMG, nor mode 3's S+82
/// (Gambatte `vram_m3/preread_*`, `prewrite_lcdoffset*`: a read or write at S+82 gets
/// through, one at S+83 does not; at double speed one at S+81 does, one at S+82 does not).
const CGB_VRAM_BLOCK: u64 = 83;

/// The CGB's dot (from S) from which CPU reads and writes of colour RAM (BCPD, OCPD) are
/// blocked at normal speed (a dot earlier at double speed), a dot after VRAM (Gambatte
/// `cgbpal_m3/cgbpal_read_m3start_*`, `cgbpal_write_m3start_*`, `cgbpal_m3start_*`: an access
/// at S+83 gets through, one at S+84 does not; at double speed one at S+82 does, one at S+83
/// does not).
const CGB_CRAM_BLOCK: u64 = 84;

pub use crate::frame::{HEIGHT, WIDTH};
/// Dots (T-cycles) per scanline.
pub const DOTS_PER_LINE: u64 = 456;
/// T-cycles per frame: 154 lines of 456 dots.
pub const CYCLES_PER_FRAME: u64 = DOTS_PER_LINE * 154;
/// Interrupt flag bits the PPU can request.
pub const IRQ_VBLANK: u8 = 0x01;
/// LCD STAT interrupt flag bit.
pub const IRQ_STAT: u8 = 0x02;
/// Register writes remembered per line for the FIFO replay; a line with more falls back to
/// whole-line drawing.
const MAX_LINE_WRITES: usize = 24;

/// PPU state: registers, memories and the timing state machine.
#[derive(Clone, Debug)]
pub struct Ppu {
    /// Video RAM, 0x8000-0x9FFF: bank 0, then bank 1 (the CGB's; VBK picks the one the CPU
    /// sees, the CGB-mode renderer reads both).
    pub vram: Box<[u8; 0x4000]>,
    /// VBK bit 0: the VRAM bank the CPU sees (always 0 outside CGB mode).
    vbk: u8,
    /// The hardware is a CGB (no DMG STAT write glitch, colour output).
    cgb: bool,
    /// The CGB is a CPU CGB D (see [`crate::CgbRevision`]).
    cgb_d: bool,
    /// The CPU runs at the CGB's double speed (set by the bus): STAT's reads then see mode 0 a
    /// dot later (see `timeline.rs`).
    double_speed: bool,
    /// CGB mode: BG attributes, colour palettes, object priority by OAM index (false on the
    /// DMG and in the CGB's DMG compatibility mode).
    cgb_mode: bool,
    /// The CGB's colour palettes (also used in DMG compatibility mode, through BGP/OBP).
    cram: cram::ColorRam,
    /// The background palettes as colour lanes for the CGB renderer (a cache).
    bg_lanes: lanes::PaletteCache,
    /// OPRI (0xFF6C) bit 0: objects ordered by X as on the DMG (1) or by OAM index (0).
    opri: u8,
    /// Object attribute memory, 0xFE00-0xFE9F.
    pub oam: [u8; 0xA0],
    /// LCDC (0xFF40).
    pub lcdc: u8,
    /// STAT interrupt enable bits 3-6 (0xFF41); mode and LYC flag are derived.
    stat_enable: u8,
    /// SCY (0xFF42).
    pub scy: u8,
    /// SCX (0xFF43).
    pub scx: u8,
    /// LY (0xFF44) as the CPU reads it.
    ly: u8,
    /// The line being processed (differs from `ly` on line 153 after dot 4).
    line: u8,
    /// LYC (0xFF45).
    pub lyc: u8,
    /// BGP (0xFF47).
    pub bgp: u8,
    /// OBP0 (0xFF48).
    pub obp0: u8,
    /// OBP1 (0xFF49).
    pub obp1: u8,
    /// WY (0xFF4A).
    pub wy: u8,
    /// WX (0xFF4B).
    pub wx: u8,
    /// Current mode as STAT reads it (and as VRAM/OAM blocking follows), 0-3.
    mode: u8,
    /// The STAT interrupt sources other than LY=LYC that are active now, as their STAT enable
    /// bits (`SRC_HBLANK`, `SRC_VBLANK`, `SRC_OAM` in `timeline.rs`): they are not the mode STAT reads
    /// (see `docs/timing.md`).
    sources: u8,
    /// LY == LYC as last compared.
    lyc_equal: bool,
    /// The STAT interrupt line (the OR of the enabled sources), for edge detection.
    stat_line: bool,
    /// When the STAT line last fell (`u64::MAX`: not since power-on): a rise in the same dot
    /// is no edge (see [`Ppu::update_stat`]).
    stat_fell: u64,
    /// When LY's change last cleared a set LY=LYC flag (`u64::MAX`: never).
    lyc_cleared: u64,
    /// The CGB's LYC write on its way to the LY=LYC comparison: the value and the dot it
    /// lands (`u64::MAX`: none; see `registers.rs`).
    lyc_pending: (u8, u64),
    /// The CGB's STAT write reaches the interrupt line 2 CPU clocks late for some enables (2
    /// dots, 1 at double speed; see `registers.rs`): the bits still enabled there, those not
    /// yet enabled, and the dot the written value takes over (`u64::MAX`: none).
    stat_held: (u8, u8, u64),
    /// The interrupt a landed CGB LYC write raised, requested a dot later (`u64::MAX`: none;
    /// see [`Ppu::land_lyc`]).
    lyc_irq_at: u64,
    /// The CGB's STAT write that lowers the interrupt line only past the comparison it was
    /// made just before: its enables (already in STAT) and the dot the line is updated
    /// (`u64::MAX`: none; see `registers.rs`).
    stat_pending: (u8, u64),
    /// Time of dot 0 of the current line.
    line_start: u64,
    /// From when to when the running OAM DMA (restarts included) holds OAM for the OAM scan
    /// (`[from, until)`: its first byte to the M-cycle after its last): the scan reads no
    /// object then; `(0, 0)` before any transfer. The bus's DMA keeps it
    /// here, its only copy, and saves it in the state image after the DMA's own fields.
    pub(crate) oam_dma_busy: (u64, u64),
    /// OAM as it was when the running OAM DMA copied its first byte: what the OAM scan reads
    /// for the entries it reads before that ([`Ppu::oam_scan`]). The bus's DMA sets it and
    /// saves it after [`Ppu::oam_dma_busy`].
    pub(crate) oam_before_dma: [u8; 0xA0],
    /// The last write that changed LCDC.2 (the object size): when, and LCDC before it. The
    /// OAM scan's entries read before that time used the old size ([`Ppu::oam_scan`]).
    size_change: (u64, u8),
    /// Time of the next event.
    next: u64,
    /// The next event.
    event: Event,
    /// The first line after the LCD is switched on has no OAM scan (mode 0 instead of 2).
    first_line: bool,
    /// The CPU cannot read OAM.
    oam_read_blocked: bool,
    /// The CPU cannot write OAM.
    oam_write_blocked: bool,
    /// The CPU cannot read VRAM.
    vram_read_blocked: bool,
    /// The CPU cannot write VRAM.
    vram_write_blocked: bool,
    /// Window line counter: lines of the window drawn so far this frame.
    window_line: u8,
    /// LY equalled WY at the start of a line this frame: the window may show from then on
    /// (Pan Docs "Window": the WY condition).
    wy_triggered: bool,
    /// DMG: WX 166 met the pixel counter at the line's last pixel with the WY condition met,
    /// which starts no window there but makes the next line drawn (the next frame's line 0
    /// after line 143) start in the window from its first pixel, if LCDC.5 is set then
    /// (`docs/timing.md`, "WX 166"). Set as mode 0 starts.
    window_carry: bool,
    /// DMG, outside mode 3: the window's latch is up with WX 166's carry pending (LCDC.5 set
    /// at the next line's start or while the carry waits), for a start the line counter has
    /// not counted yet. Each time it falls (LCDC.5 cleared, the next line starts) the counter
    /// advances ([`Ppu::window_latch_falls`]); the latch still up as mode 3 starts is the
    /// line's carried window, which the line counts itself (`docs/timing.md`, "WX 166").
    window_latch: bool,
    /// Falls of [`Ppu::window_latch`] not yet added to the window line counter (added as the
    /// next line starts and as mode 3 starts).
    window_latch_falls: u8,
    /// When [`Event::HBlankIrqEarly`] is scheduled: the dot mode 0 starts at after it.
    hblank_end: u64,
    /// The registers as mode 3 of the current line started, for the FIFO replay.
    line_regs: fifo::LineRegs,
    /// Register writes during mode 3 of the current line (replayed by [`fifo`]).
    line_writes: [fifo::LineWrite; MAX_LINE_WRITES],
    /// How many entries of `line_writes` are used.
    line_write_count: u8,
    /// Whether the window was drawn on the current line (it advances the window line counter).
    window_drawn: bool,
    /// Pixels are produced (host configuration, not state: off, lines are timed and the
    /// window line counter kept exactly as drawing would, and no pixel is written).
    pub(crate) render: bool,
    /// The objects found by the OAM scan for the current line (OAM indices, in OAM order).
    line_sprites: [u8; 10],
    /// How many entries of `line_sprites` are used.
    line_sprite_count: u8,
    /// The OAM scan's objects for every line while OAM holds still (derived, not saved).
    scan_cache: scan_cache::ScanCache,
    /// Set when a frame's last visible line is done (VBlank starts); the host clears it.
    pub frame_ready: bool,
    /// CGB mode: an HBlank of lines 0-143 started (for HDMA; the bus clears it).
    pub(crate) hblank_started: bool,
    /// When the last HBlank of lines 0-143 started (the dot STAT reads mode 0 from): for HDMA
    /// (with `hblank_started`) and the colour RAM's lock, which outlasts mode 3.
    pub(crate) hblank_at: u64,
    /// The first frame after the LCD is switched on is not shown: it stays blank (Pan Docs
    /// "LCDC.7").
    blank_frame: bool,
    /// Shade indices 0-3 after the palette (0 lightest), row-major 160 × 144.
    pub framebuffer: Frame,
    /// Rows drawn since the host last took a frame (output bookkeeping, not in the state
    /// image): rows the LCD did not draw are blank in the frame handed out.
    rows_drawn: [u64; 3],
    /// Names what lines are drawn from (VRAM, OAM, colour RAM and the registers as they are):
    /// unique in the process, taken anew after any of them changed (see
    /// [`Ppu::line_tag`]). Derived data, not in the state image.
    inputs_id: u64,
    /// Something lines are drawn from changed since `inputs_id` was taken
    /// ([`Ppu::touch`]).
    inputs_changed: bool,
    /// Lines found drawn already (their row's tag matched) since power-on: output
    /// bookkeeping for benchmarks and tests, not state.
    pub(crate) lines_kept: u64,
}

impl Ppu {
    /// A PPU with the LCD off and everything zeroed (power-on with a boot ROM).
    pub fn new() -> Ppu {
        Ppu {
            vram: Box::new([0; 0x4000]),
            vbk: 0,
            cgb: false,
            cgb_d: false,
            double_speed: false,
            cgb_mode: false,
            cram: cram::ColorRam::default(),
            bg_lanes: lanes::PaletteCache::default(),
            opri: 0,
            oam: [0; 0xA0],
            lcdc: 0,
            stat_enable: 0,
            scy: 0,
            scx: 0,
            ly: 0,
            line: 0,
            lyc: 0,
            bgp: 0,
            obp0: 0,
            obp1: 0,
            wy: 0,
            wx: 0,
            mode: 0,
            sources: 0,
            lyc_equal: false,
            stat_line: false,
            stat_fell: u64::MAX,
            lyc_cleared: u64::MAX,
            lyc_pending: (0, u64::MAX),
            stat_held: (0, 0, u64::MAX),
            lyc_irq_at: u64::MAX,
            stat_pending: (0, u64::MAX),
            line_start: 0,
            oam_dma_busy: (0, 0),
            oam_before_dma: [0; 0xA0],
            size_change: (0, 0),
            next: u64::MAX,
            event: Event::Off,
            first_line: false,
            oam_read_blocked: false,
            oam_write_blocked: false,
            vram_read_blocked: false,
            vram_write_blocked: false,
            window_line: 0,
            wy_triggered: false,
            window_carry: false,
            window_latch: false,
            window_latch_falls: 0,
            hblank_end: 0,
            line_regs: fifo::LineRegs {
                lcdc: 0,
                scy: 0,
                scx: 0,
                bgp: 0,
                obp0: 0,
                obp1: 0,
                wx: 0,
                ly: 0,
                window_line: 0,
                wy_triggered: false,
                window_carry: false,
            },
            line_writes: [fifo::LineWrite {
                dot: 0,
                addr: 0,
                value: 0,
            }; MAX_LINE_WRITES],
            line_write_count: 0,
            window_drawn: false,
            render: true,
            line_sprites: [0; 10],
            line_sprite_count: 0,
            scan_cache: scan_cache::ScanCache::default(),
            frame_ready: false,
            hblank_started: false,
            hblank_at: 0,
            blank_frame: false,
            framebuffer: Frame::default(),
            rows_drawn: [0; 3],
            inputs_id: 0,
            inputs_changed: true,
            lines_kept: 0,
        }
    }

    /// The PPU as the DMG boot ROM leaves it: LCD on, BGP 0xFC, `dot` dots into line `line`
    /// (S counts as dot 0) at time `now`.
    pub fn post_boot(now: u64, line: u8, dot: u64) -> Ppu {
        let mut ppu = Ppu::new();
        ppu.lcdc = 0x91;
        ppu.bgp = 0xFC;
        // The boot ROM leaves the object palettes alone: they read 0xFF (gbmicrotest
        // `poweron_obp0_000`, `poweron_obp1_000`).
        ppu.obp0 = 0xFF;
        ppu.obp1 = 0xFF;
        // Start at S of the line before, then play the events up to `now`.
        let start = now - dot;
        ppu.line = if line == 0 { 153 } else { line.min(153) - 1 };
        ppu.ly = ppu.line;
        ppu.mode = if ppu.line >= 144 { 1 } else { 0 };
        ppu.sources = if ppu.mode == 1 { SRC_VBLANK } else { 0 };
        ppu.event = Event::LineStart;
        ppu.next = start;
        ppu.line_start = start - DOTS_PER_LINE;
        ppu.run_events(now);
        ppu.stat_line = ppu.stat_sources();
        ppu.frame_ready = false;
        ppu
    }

    /// Leave VRAM as the DMG boot ROM does: the cartridge's 48-byte logo (header 0x0104) as
    /// tiles 1-24, each nibble doubled to 8 pixels on two rows, the ® as tile 0x19 (both on
    /// bit plane 0), and the tile map rows at 0x9904 and 0x9924 plus 0x9910. Games may draw
    /// these leftovers: Mealybug `m3_scx_low_3_bits` shows the ® tile without loading it.
    pub fn load_boot_logo(&mut self, logo: &[u8]) {
        self.load_boot_logo_tiles(logo);
        self.load_boot_logo_map();
    }

    /// The tiles of [`Ppu::load_boot_logo`] without the tile map (the CGB boot ROM writes the
    /// map only for the two compatibility palettes that ask for it).
    pub fn load_boot_logo_tiles(&mut self, logo: &[u8]) {
        /// The ® tile's rows, from the boot ROM.
        const REGISTERED: [u8; 8] = [0x3C, 0x42, 0xB9, 0xA5, 0xB9, 0xA5, 0x42, 0x3C];
        self.touch();
        let double = |nibble: u8| {
            (0..4).fold(0u8, |acc, bit| {
                if nibble & (1 << bit) != 0 {
                    acc | (0b11 << (bit * 2))
                } else {
                    acc
                }
            })
        };
        // Each nibble becomes two rows, so each logo byte fills four rows from 0x8010 on.
        for (i, &byte) in logo.iter().take(48).enumerate() {
            for (half, nibble) in [(0, byte >> 4), (1, byte & 0x0F)] {
                let row = 0x10 + i * 8 + half * 4;
                self.vram[row] = double(nibble);
                self.vram[row + 2] = double(nibble);
            }
        }
        for (i, &b) in REGISTERED.iter().enumerate() {
            self.vram[0x190 + i * 2] = b;
        }
    }

    /// The tile map of [`Ppu::load_boot_logo`].
    pub fn load_boot_logo_map(&mut self) {
        self.touch();
        for i in 0..12u8 {
            self.vram[0x1904 + usize::from(i)] = i + 1;
            self.vram[0x1924 + usize::from(i)] = i + 13;
        }
        self.vram[0x1910] = 0x19;
    }

    /// Time of the next event, `u64::MAX` while the LCD is off.
    #[inline]
    pub fn next_event(&self) -> u64 {
        self.next
            .min(self.lyc_pending.1)
            .min(self.stat_held.2)
            .min(self.lyc_irq_at)
            .min(self.stat_pending.1)
    }

    /// The current mode (0 HBlank, 1 VBlank, 2 OAM scan, 3 drawing).
    #[inline]
    pub fn mode(&self) -> u8 {
        self.mode
    }

    pub(super) fn lcd_on(&self) -> bool {
        self.lcdc & 0x80 != 0
    }

    /// LCDC.5: the window is enabled (the WY condition is only met while it is).
    pub(super) fn window_enabled(&self) -> bool {
        self.lcdc & 0x20 != 0
    }

    /// Whether a CPU read of VRAM at time `now` gets through.
    #[inline]
    pub fn vram_readable(&self, now: u64) -> bool {
        !self.vram_read_blocked || self.cgb_vram_open(now)
    }

    /// Whether a CPU write to VRAM at time `now` lands.
    #[inline]
    pub fn vram_writable(&self, now: u64) -> bool {
        !self.vram_write_blocked || self.cgb_vram_open(now)
    }

    /// The CGB blocks VRAM a dot after mode 3 starts for STAT (S+83), at double speed from
    /// mode 3 (S+82), and not from S+80 as the DMG does reads; on the first line after the
    /// LCD is switched on 2 dots later (see `docs/timing.md`).
    #[inline]
    fn cgb_vram_open(&self, now: u64) -> bool {
        self.cgb
            && self.mode == 3
            && now
                < self.line_start + CGB_VRAM_BLOCK + self.first_line_delay()
                    - u64::from(self.double_speed)
    }

    /// Whether a CPU read of OAM at time `now` gets through. At double speed the CGB blocks
    /// reads a dot after S, not at S (Gambatte `oam_access/preread_ds_*`: a read at S gets
    /// through, one at S+1 or S+2 does not).
    #[inline]
    pub fn oam_readable(&self, now: u64) -> bool {
        !self.oam_read_blocked || (self.double_speed && now <= self.line_start)
    }

    /// Whether a CPU write to OAM lands now.
    #[inline]
    pub fn oam_writable(&self) -> bool {
        !self.oam_write_blocked
    }

    /// Something lines are drawn from changed: VRAM, OAM, the colour RAM, a register, the
    /// mode. Rows drawn before no longer match a line drawn from now on (the still-line rule,
    /// `render.rs`).
    #[inline]
    pub(crate) fn touch(&mut self) {
        self.inputs_changed = true;
    }

    /// Write VRAM byte `i` (both banks: 0-0x3FFF) for the CPU or a DMA.
    #[inline]
    pub(crate) fn set_vram(&mut self, i: usize, v: u8) {
        if self.vram[i] != v {
            self.vram[i] = v;
            self.touch();
        }
    }

    /// Write OAM byte `i` (0-0x9F) for the CPU or a DMA.
    #[inline]
    pub(crate) fn set_oam(&mut self, i: usize, v: u8) {
        if self.oam[i] != v {
            self.oam[i] = v;
            self.touch();
        }
    }
}

impl Default for Ppu {
    fn default() -> Self {
        Ppu::new()
    }
}
