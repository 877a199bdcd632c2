//! The PPU: LCD registers, VRAM and OAM, mode/LY/STAT timing, and a scanline renderer.
//!
//! Timing is event-driven: the PPU keeps the time of its next transition and the bus calls
//! [`Ppu::run_events`] when that time is reached, so nothing runs per dot. The timeline, with
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
//! | S+254+p | mode 0 and the HBlank interrupt source (p: SCX and object penalties; +2 on the first line after the LCD is switched on); the line is drawn if nothing was written |
//! | S+258+p(+1) | else the line is replayed (its last pixel in the replay's time; +1 with objects) |
//!
//! Lines 145-153 are mode 1; on line 153 LY reads 0 from S+4, compared with LYC from S+12.
//! The first line after the LCD is switched on starts as if S had been 4 dots before the LCDC
//! write, with no OAM scan and no interrupt source: mode 0 until mode 3.
//!
//! Pixels are produced a whole line at a time when its last pixel is out (tile rows decoded 8
//! pixels at once, objects drawn over them). A line whose LCDC, SCX, SCY, BGP, OBP0, OBP1 or WX
//! is written while it is drawn is instead replayed dot by dot ([`crate::fifo`]: fetcher,
//! object fetches, shifters) with the writes at their dots; 19 of Mealybug Tearoom's 24 DMG
//! screenshots are exact (the module docs have the model).

/// Screen width in pixels.
pub const WIDTH: usize = 160;
/// Screen height in pixels.
pub const HEIGHT: usize = 144;
/// Dots (T-cycles) per scanline.
pub const DOTS_PER_LINE: u64 = 456;
/// T-cycles per frame: 154 lines of 456 dots.
pub const CYCLES_PER_FRAME: u64 = DOTS_PER_LINE * 154;

/// Dot (from S) at which STAT reads mode 3 (see the module docs).
const MODE3_START: u64 = 84;
/// Dot (from S) at which LY is compared with LYC; on line 144 VBlank starts there, on line 0
/// it ends (GateBoy: the VBlank signal is LY delayed by 2 dots).
const COMPARE_DOT: u64 = 2;
/// Dot (from S) at which STAT reads mode 2 on lines 0-143.
const MODE2_START: u64 = 4;
/// Dot (from S) at which VRAM is blocked.
const VRAM_BLOCK: u64 = 80;
/// Register writes remembered per line for the FIFO replay; a line with more falls back to
/// whole-line drawing.
const MAX_LINE_WRITES: usize = 24;

/// Dots from mode 0 to the line's last pixel in the FIFO replay's time (the line is drawn then,
/// and register writes until then still reach it): [`crate::fifo::START`] plus 172 dots (12
/// before the first pixel, 160 pixels), minus [`MODE0_START`]. The replay's object stalls are
/// Pan Docs' penalties, as the timeline's are.
const DRAW_DELAY: u64 = crate::fifo::START as u64 + 172 - MODE0_START;

/// Dots from S to the end of mode 3 with no penalties, as STAT, VRAM and OAM see it. Mode 0
/// starts half a dot before dot 254 (GateBoy: the pixel counter reaches 167 in an odd phase):
/// a STAT read, which ANDs two half-dot samples, sees the falling mode bits from dot 253,
/// the interrupt logic, which samples IF once, sees the HBlank source from dot 254
/// ([`HBLANK_IRQ_DELAY`]). So with the fine scroll STAT reads mode 0 at S+256 for SCX 0-3 and
/// at S+260 for SCX 4-7 (gbmicrotest `ppu_sprite0_scx*`), while the interrupt groups SCX 0-2,
/// 3-6 and 7 (`hblank_int_scx*`). The first line after the LCD is switched on ends mode 3
/// [`FIRST_LINE_DELAY`] dots later.
const MODE0_START: u64 = 253;
/// Dots from mode 0 (as STAT reads it) to the HBlank interrupt source.
const HBLANK_IRQ_DELAY: u64 = 1;
/// The first line after the LCD is switched on starts mode 3 2 dots later than other lines
/// (GateBoy: its OAM scan ends at dot 83, not 81), so mode 0 comes 2 dots later too: the
/// interrupt groups SCX 0, 1-4 and 5-7 there (gbmicrotest `int_hblank_nops_scx*`).
const FIRST_LINE_DELAY: u64 = 2;

/// The HBlank STAT interrupt source (its STAT enable bit): from the end of mode 3 to the end
/// of the line, never on the first line after the LCD is switched on.
const SRC_HBLANK: u8 = 0x08;
/// The VBlank STAT interrupt source: from line 144 dot 2 to the end of line 153.
const SRC_VBLANK: u8 = 0x10;
/// The OAM STAT interrupt source: a pulse over the first M-cycle of lines 0-144 (2 dots on
/// line 144, where VBlank masks it), not a level over mode 2.
const SRC_OAM: u8 = 0x20;

/// Interrupt flag bits the PPU can request.
pub const IRQ_VBLANK: u8 = 0x01;
/// LCD STAT interrupt flag bit.
pub const IRQ_STAT: u8 = 0x02;

/// What the next scheduled PPU event does (dots from S, see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    /// S of the next line.
    LineStart,
    /// S+2: LY is compared with LYC. On line 144 VBlank starts (mode 1, the VBlank
    /// interrupt; the OAM source's pulse ends), on line 0 it ends (the OAM pulse starts); on
    /// line 153 LY reads 0 from here.
    Compare,
    /// S+4 on lines 0-143: STAT reads mode 2, OAM writes are blocked, the OAM pulse ends.
    Mode2,
    /// S+80: VRAM is blocked.
    VramBlock,
    /// S+84: mode 3.
    Mode3,
    /// S+253+p: mode 0 (STAT, VRAM and OAM), and unless that is on an M-cycle boundary the
    /// HBlank interrupt source.
    HBlank,
    /// S+254+p when mode 0 started on an M-cycle boundary: the HBlank interrupt source.
    HBlankIrq,
    /// S+264+p: the line is drawn (its pixels are all out, [`crate::fifo::START`]).
    Draw,
    /// S+6 on line 153: the LY=LYC flag reads 0 for one M-cycle.
    Line153Blank,
    /// S+10 on line 153: LY (now 0) is compared with LYC.
    Line153Compare,
    /// The LCD is off: nothing is scheduled.
    Off,
}

/// PPU state: registers, memories and the timing state machine.
#[derive(Clone, Debug)]
pub struct Ppu {
    /// Video RAM, 0x8000-0x9FFF.
    pub vram: Box<[u8; 0x2000]>,
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
    /// bits ([`SRC_HBLANK`], [`SRC_VBLANK`], [`SRC_OAM`]): they are not the mode STAT reads
    /// (see `docs/timing.md`).
    sources: u8,
    /// LY == LYC as last compared.
    lyc_equal: bool,
    /// The STAT interrupt line (the OR of the enabled sources), for edge detection.
    stat_line: bool,
    /// Time of dot 0 of the current line.
    line_start: u64,
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
    /// The registers as mode 3 of the current line started, for the FIFO replay.
    line_regs: crate::fifo::LineRegs,
    /// Register writes during mode 3 of the current line (replayed by [`crate::fifo`]).
    line_writes: [crate::fifo::LineWrite; MAX_LINE_WRITES],
    /// How many entries of `line_writes` are used.
    line_write_count: u8,
    /// Whether the window was drawn on the current line (it advances the window line counter).
    window_drawn: bool,
    /// Per pixel of the current line, non-zero where the background/window colour index is not 0
    /// (for object priority).
    line_index: [u8; WIDTH],
    /// The objects found by the OAM scan for the current line (OAM indices, in OAM order).
    line_sprites: [u8; 10],
    /// How many entries of `line_sprites` are used.
    line_sprite_count: u8,
    /// Set when a frame's last visible line is done (VBlank starts); the host clears it.
    pub frame_ready: bool,
    /// The first frame after the LCD is switched on is not shown: it stays blank (Pan Docs
    /// "LCDC.7").
    blank_frame: bool,
    /// Shade indices 0-3 after the palette (0 lightest), row-major 160 × 144.
    pub framebuffer: Box<[u8; WIDTH * HEIGHT]>,
    /// Rows drawn since the host last took a frame (output bookkeeping, not in the state
    /// image): rows the LCD did not draw are blank in the frame handed out.
    rows_drawn: [u64; 3],
}

impl Ppu {
    /// A PPU with the LCD off and everything zeroed (power-on with a boot ROM).
    pub fn new() -> Ppu {
        Ppu {
            vram: Box::new([0; 0x2000]),
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
            line_start: 0,
            next: u64::MAX,
            event: Event::Off,
            first_line: false,
            oam_read_blocked: false,
            oam_write_blocked: false,
            vram_read_blocked: false,
            vram_write_blocked: false,
            window_line: 0,
            wy_triggered: false,
            line_regs: crate::fifo::LineRegs {
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
            },
            line_writes: [crate::fifo::LineWrite {
                dot: 0,
                addr: 0,
                value: 0,
            }; MAX_LINE_WRITES],
            line_write_count: 0,
            window_drawn: false,
            line_index: [0; WIDTH],
            line_sprites: [0; 10],
            line_sprite_count: 0,
            frame_ready: false,
            blank_frame: false,
            framebuffer: Box::new([0; WIDTH * HEIGHT]),
            rows_drawn: [0; 3],
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
        /// The ® tile's rows, from the boot ROM.
        const REGISTERED: [u8; 8] = [0x3C, 0x42, 0xB9, 0xA5, 0xB9, 0xA5, 0x42, 0x3C];
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
    }

    /// When VBlank started (line 144, dot 2), while the PPU is on line 144 in VBlank.
    pub(crate) fn vblank_started(&self) -> Option<u64> {
        (self.lcd_on() && self.line == 144 && self.mode == 1)
            .then_some(self.line_start + COMPARE_DOT)
    }

    /// The current mode (0 HBlank, 1 VBlank, 2 OAM scan, 3 drawing).
    #[inline]
    pub fn mode(&self) -> u8 {
        self.mode
    }

    fn lcd_on(&self) -> bool {
        self.lcdc & 0x80 != 0
    }

    /// Dots mode 3 lasts beyond 172 on the current line: the SCX fine scroll, 6 when the window
    /// shows, plus each object's
    /// fetch (Pan Docs "Mode 3 length", the OBJ penalty algorithm): objects are fetched in X
    /// order; each costs 6 dots, and the first one whose leftmost pixel lies in a given
    /// background tile also waits for that tile's fetch, `max(0, 5 - offset in tile)` dots.
    /// Objects at X 0 follow the same rule (Mooneye `intr_2_mode0_timing_sprites`: ten of them
    /// cost 65 dots, not 110; one object at X=4 adds one M-cycle, at X=3 two; gbmicrotest
    /// `sprite4_*` with SCX 0-7).
    fn mode3_penalty(&self) -> u64 {
        let scx = u16::from(self.scx);
        // Switching the fetcher to the window costs 6 dots (Pan Docs "Mode 3 length").
        let window = if self.lcdc & 0x01 != 0 && self.window_on_line() {
            6
        } else {
            0
        };
        let fine = u64::from(self.scx & 7) + window;
        if self.lcdc & 0x02 == 0 {
            return fine;
        }
        let mut dots = 0;
        let n = self.line_objects().len();
        let list = self.line_sprites;
        let mut xs = [0u8; 10];
        for (x, &i) in xs.iter_mut().zip(&list[..n]) {
            *x = self.oam[usize::from(i) * 4 + 1];
        }
        let xs = &mut xs[..n];
        xs.sort_unstable();
        // Tiles already waited for, by index in fetch order (X + fine scroll) / 8.
        let mut waited: u32 = 0;
        for &x in xs.iter() {
            let x = u16::from(x);
            if x >= 168 {
                // Never reached by the fetcher.
                continue;
            }
            let tile = (x + (scx & 7)) >> 3;
            if waited & (1 << tile) == 0 {
                waited |= 1 << tile;
                let offset = (x + scx) & 7;
                dots += u64::from(5u16.saturating_sub(offset));
            }
            dots += 6;
        }
        fine + dots
    }

    /// The objects the OAM scan found on this line (OAM indices, in OAM order).
    fn line_objects(&self) -> &[u8] {
        let n = usize::from(self.line_sprite_count).min(self.line_sprites.len());
        &self.line_sprites[..n]
    }

    /// Whether mode 3 fetches an object on this line (LCDC.1 set, an object at X below 168).
    #[cfg(test)]
    fn fetches_objects(&self) -> bool {
        self.lcdc & 0x02 != 0
            && self
                .line_objects()
                .iter()
                .any(|&i| self.oam[usize::from(i) * 4 + 1] < 168)
    }

    /// The OAM scan's result for this line: up to 10 objects, kept for mode 3 and drawing.
    /// With LCDC.1 clear it is skipped (no objects) until a write sets the bit during mode 3
    /// ([`Ppu::record_write`] scans then: OAM is locked, so the result is the same).
    fn oam_scan(&mut self, lcdc: u8) {
        if lcdc & 0x02 == 0 {
            self.line_sprite_count = 0;
            return;
        }
        let height = if lcdc & 0x04 != 0 { 16 } else { 8 };
        let (list, n) = self.sprites_on_line(height);
        self.line_sprites = list;
        self.line_sprite_count = n as u8;
    }

    /// The OAM indices of up to 10 sprites on the current line, in OAM order.
    fn sprites_on_line(&self, height: u8) -> ([u8; 10], usize) {
        let mut found = [0u8; 10];
        let mut n = 0;
        // An object covers the line when Y <= LY + 16 < Y + height; LY + 16 is at least 16,
        // so one wrapping subtraction tests both sides.
        let y = self.line.wrapping_add(16);
        for (i, entry) in self.oam.chunks_exact(4).enumerate() {
            if y.wrapping_sub(entry[0]) < height {
                found[n] = i as u8;
                n += 1;
                if n == 10 {
                    break;
                }
            }
        }
        (found, n)
    }

    /// Whether the window shows on the current line: enabled, WY triggered this frame, WX on
    /// screen (0-166).
    fn window_on_line(&self) -> bool {
        self.lcdc & 0x20 != 0 && self.wy_triggered && self.wx <= 166
    }

    /// The sources of the STAT interrupt line, ORed.
    fn stat_sources(&self) -> bool {
        let e = self.stat_enable;
        (self.lyc_equal && e & 0x40 != 0) || self.sources & e != 0
    }

    /// Re-evaluate the STAT line; a rising edge requests the interrupt. While the LCD is off the
    /// comparison clock is stopped: the line keeps its state (Mooneye `stat_lyc_onoff`).
    fn update_stat(&mut self) -> u8 {
        if !self.lcd_on() {
            return 0;
        }
        let line = self.stat_sources();
        let rising = line && !self.stat_line;
        self.stat_line = line;
        if rising { IRQ_STAT } else { 0 }
    }

    fn compare_lyc(&mut self) {
        self.lyc_equal = self.ly == self.lyc;
    }

    /// Process every event due at or before `now`; returns the interrupt flags to request.
    pub fn run_events(&mut self, now: u64) -> u8 {
        let mut irq = 0;
        while self.next <= now {
            let at = self.next;
            let s = self.line_start;
            match self.event {
                Event::Off => break,
                Event::LineStart => {
                    self.line_start = at;
                    self.line_write_count = 0;
                    self.window_drawn = false;
                    self.first_line = false;
                    self.line = if self.line >= 153 { 0 } else { self.line + 1 };
                    // The comparison is invalid for the M-cycle after LY changes; line 0
                    // keeps the LY 0 line 153 already shows (gbmicrotest `poweron_stat_006`).
                    if self.ly != self.line {
                        self.lyc_equal = false;
                    }
                    self.ly = self.line;
                    // Every line reads mode 0 for its first M-cycle, line 0 after VBlank too
                    // (gbmicrotest `poweron_stat_006`); the OAM source pulses on lines 0-144,
                    // from dot 2 on line 0 (VBlank masks it until then).
                    self.mode = 0;
                    self.sources = match self.line {
                        0 => SRC_VBLANK,
                        1..=144 => SRC_OAM,
                        _ => SRC_VBLANK,
                    };
                    if self.line < 144 {
                        self.wy_triggered |= self.wy == self.line;
                        self.oam_read_blocked = true;
                        if self.line == 0 {
                            self.window_line = 0;
                            self.wy_triggered = self.wy == 0;
                        }
                    } else if self.line > 144 {
                        self.mode = 1;
                    }
                    self.schedule(Event::Compare, at + COMPARE_DOT);
                }
                Event::Compare => {
                    // LY as the line started, compared with LYC in phase B of the M-cycle
                    // (GateBoy's ROPO latch): reads see it from S+4, a HALT wakes for its
                    // interrupt in the M-cycle that ends at S+4.
                    self.lyc_equal = self.line == self.lyc;
                    match self.line {
                        // VBlank ends, and line 0's OAM pulse starts.
                        0 => self.sources = SRC_OAM,
                        144 => {
                            self.mode = 1;
                            self.sources = SRC_VBLANK;
                            irq |= IRQ_VBLANK;
                            self.frame_ready = true;
                            self.blank_frame = false;
                            self.clear_line_scratch();
                        }
                        // LY reads 0 from here (an M-cycle before LYC sees it).
                        153 => self.ly = 0,
                        _ => {}
                    }
                    if self.line < 144 {
                        self.schedule(Event::Mode2, s + MODE2_START);
                    } else if self.line == 153 {
                        self.schedule(Event::Line153Blank, s + COMPARE_DOT + 4);
                    } else {
                        self.schedule(Event::LineStart, s + DOTS_PER_LINE);
                    }
                }
                Event::Mode2 => {
                    self.sources &= !SRC_OAM;
                    self.mode = 2;
                    self.oam_write_blocked = true;
                    self.schedule(Event::VramBlock, s + VRAM_BLOCK);
                }
                Event::VramBlock => {
                    // For one M-cycle OAM takes writes again (Mooneye lcdon_write_timing-GS).
                    self.vram_read_blocked = true;
                    self.oam_write_blocked = false;
                    self.schedule(Event::Mode3, s + MODE3_START);
                }
                Event::Mode3 => {
                    self.mode = 3;
                    self.set_blocked(true);
                    self.oam_scan(self.lcdc);
                    self.line_write_count = 0;
                    self.line_regs = self.line_regs_now();
                    let first = if self.first_line { FIRST_LINE_DELAY } else { 0 };
                    let end = s + MODE0_START + first + self.mode3_penalty();
                    self.schedule(Event::HBlank, end);
                }
                Event::HBlank => {
                    self.mode = 0;
                    self.set_blocked(false);
                    if at + HBLANK_IRQ_DELAY <= now {
                        self.hblank_source(at);
                    } else {
                        // The source would be seen an M-cycle too early: it rises in the next.
                        self.schedule(Event::HBlankIrq, at + HBLANK_IRQ_DELAY);
                    }
                }
                Event::HBlankIrq => self.hblank_source(at - HBLANK_IRQ_DELAY),
                Event::Draw => {
                    self.render_line();
                    self.schedule(Event::LineStart, s + DOTS_PER_LINE);
                }
                Event::Line153Blank => {
                    self.lyc_equal = false;
                    self.schedule(Event::Line153Compare, s + COMPARE_DOT + 8);
                }
                Event::Line153Compare => {
                    self.compare_lyc();
                    self.schedule(Event::LineStart, s + DOTS_PER_LINE);
                }
            }
            irq |= self.update_stat();
        }
        irq
    }

    /// The HBlank interrupt source rises, for a mode 0 that started at `mode0`; the line is
    /// drawn now, or scheduled to be (the FIFO replay) when registers were written during it.
    fn hblank_source(&mut self, mode0: u64) {
        self.sources = SRC_HBLANK;
        if self.line_write_count == 0 {
            // Nothing written while drawing: the line is drawn now, so the fast path keeps one
            // event per mode. A write in the next DRAW_DELAY dots would have reached the
            // replay's last pixels; it is not seen.
            self.render_line();
            self.schedule(Event::LineStart, self.line_start + DOTS_PER_LINE);
        } else {
            self.schedule(Event::Draw, mode0 + DRAW_DELAY);
        }
    }

    /// The registers a line starts mode 3 with (the dot-level replay's starting point).
    fn line_regs_now(&self) -> crate::fifo::LineRegs {
        crate::fifo::LineRegs {
            lcdc: self.lcdc,
            scy: self.scy,
            scx: self.scx,
            bgp: self.bgp,
            obp0: self.obp0,
            obp1: self.obp1,
            wx: self.wx,
            ly: self.line,
            window_line: self.window_line,
            wy_triggered: self.wy_triggered,
        }
    }

    fn set_blocked(&mut self, blocked: bool) {
        self.oam_read_blocked = blocked;
        self.oam_write_blocked = blocked;
        self.vram_read_blocked = blocked;
        self.vram_write_blocked = blocked;
    }

    fn schedule(&mut self, event: Event, at: u64) {
        self.event = event;
        self.next = at;
    }

    /// Read a PPU register (0xFF40-0xFF4B, except DMA at 0xFF46).
    pub fn read_register(&self, addr: u16) -> u8 {
        match addr {
            0xFF40 => self.lcdc,
            0xFF41 => {
                let mode = if self.lcd_on() { self.mode } else { 0 };
                0x80 | self.stat_enable | (u8::from(self.lyc_equal) << 2) | mode
            }
            0xFF42 => self.scy,
            0xFF43 => self.scx,
            0xFF44 => self.ly,
            0xFF45 => self.lyc,
            0xFF47 => self.bgp,
            0xFF48 => self.obp0,
            0xFF49 => self.obp1,
            0xFF4A => self.wy,
            0xFF4B => self.wx,
            _ => 0xFF,
        }
    }

    /// Write a PPU register; returns the interrupt flags to request.
    pub fn write_register(&mut self, addr: u16, v: u8, now: u64) -> u8 {
        if matches!(addr, 0xFF40 | 0xFF42 | 0xFF43 | 0xFF47..=0xFF49 | 0xFF4B) {
            self.record_write(addr, v, now);
        }
        match addr {
            0xFF40 => {
                let was_on = self.lcd_on();
                self.lcdc = v;
                if was_on && !self.lcd_on() {
                    self.ly = 0;
                    self.line = 0;
                    self.mode = 0;
                    self.sources = 0;
                    self.set_blocked(false);
                    self.event = Event::Off;
                    self.next = u64::MAX;
                    // The LY=LYC flag keeps its value; only that source stays on the line.
                    self.stat_line = self.lyc_equal && self.stat_enable & 0x40 != 0;
                    self.framebuffer.fill(0);
                } else if !was_on && self.lcd_on() {
                    // Line 0 runs as if S was 4 dots ago, with no OAM scan.
                    self.blank_frame = true;
                    self.line = 0;
                    self.ly = 0;
                    self.line_start = now - 4;
                    self.first_line = true;
                    self.window_line = 0;
                    self.wy_triggered = self.wy == 0;
                    // No OAM scan and no HBlank source until mode 3 (gbmicrotest
                    // `int_hblank_nops_scx0`): the line reads mode 0 but is not in HBlank.
                    self.mode = 0;
                    self.sources = 0;
                    self.schedule(Event::Mode3, self.line_start + MODE3_START);
                    self.compare_lyc();
                    return self.update_stat();
                }
                0
            }
            0xFF41 => {
                // DMG quirk: a STAT write acts for one cycle as if every source were enabled.
                self.stat_enable = 0x78;
                let mut irq = self.update_stat();
                self.stat_enable = v & 0x78;
                irq |= self.update_stat();
                irq
            }
            0xFF42 => {
                self.scy = v;
                0
            }
            0xFF43 => {
                self.scx = v;
                0
            }
            0xFF45 => {
                self.lyc = v;
                if self.lcd_on() {
                    self.compare_lyc();
                    self.update_stat()
                } else {
                    0
                }
            }
            0xFF47 => {
                self.bgp = v;
                0
            }
            0xFF48 => {
                self.obp0 = v;
                0
            }
            0xFF49 => {
                self.obp1 = v;
                0
            }
            0xFF4A => {
                self.wy = v;
                0
            }
            0xFF4B => {
                self.wx = v;
                0
            }
            _ => 0,
        }
    }

    /// The OAM row (0-19) the OAM scan reads at `now`, if it is running (Pan Docs: "OAM
    /// Corruption Bug": one 8-byte row per M-cycle during mode 2).
    pub fn oam_scan_row(&self, now: u64) -> Option<usize> {
        if !self.lcd_on() || self.first_line || self.line >= HEIGHT as u8 {
            return None;
        }
        // The scan reads row 0 in the M-cycle that starts at S.
        let dot = now.checked_sub(self.line_start)?;
        if dot >= 80 {
            return None;
        }
        Some((dot / 4) as usize)
    }

    /// The DMG OAM corruption after a CPU write (or IDU address) during the OAM scan: the row's
    /// first word becomes `((a ^ c) & (b ^ c)) ^ c` and its other words copy the row before.
    pub fn oam_bug_write(&mut self, row: usize) {
        self.oam_bug_corrupt(row, |a, b, c| ((a ^ c) & (b ^ c)) ^ c);
    }

    /// The DMG OAM corruption after a CPU read during the OAM scan: `b | (a & c)`.
    pub fn oam_bug_read(&mut self, row: usize) {
        self.oam_bug_corrupt(row, |a, b, c| b | (a & c));
    }

    /// A read while the IDU changes the register (read and write in one M-cycle).
    pub fn oam_bug_read_idu(&mut self, row: usize) {
        if (4..19).contains(&row) {
            // Word operations are bitwise, so they work byte by byte.
            for byte in 0..2 {
                let a = self.oam[(row - 2) * 8 + byte];
                let b = self.oam[(row - 1) * 8 + byte];
                let c = self.oam[row * 8 + byte];
                let d = self.oam[(row - 1) * 8 + 4 + byte];
                self.oam[(row - 1) * 8 + byte] = (b & (a | c | d)) | (a & c & d);
            }
            let (prev, rest) = self.oam.split_at_mut(row * 8);
            let source: [u8; 8] = prev[(row - 1) * 8..row * 8].try_into().unwrap_or([0; 8]);
            rest[..8].copy_from_slice(&source);
            prev[(row - 2) * 8..(row - 1) * 8].copy_from_slice(&source);
        }
        self.oam_bug_read(row);
    }

    fn oam_bug_corrupt(&mut self, row: usize, first: impl Fn(u8, u8, u8) -> u8) {
        if row == 0 || row >= 20 {
            return;
        }
        let r = row * 8;
        let p = r - 8;
        for byte in 0..2 {
            let a = self.oam[r + byte];
            let b = self.oam[p + byte];
            let c = self.oam[p + 4 + byte];
            self.oam[r + byte] = first(a, b, c);
        }
        self.oam.copy_within(p + 2..p + 8, r + 2);
    }

    /// Whether a CPU read of VRAM gets through now.
    #[inline]
    pub fn vram_readable(&self) -> bool {
        !self.vram_read_blocked
    }

    /// Whether a CPU write to VRAM lands now.
    #[inline]
    pub fn vram_writable(&self) -> bool {
        !self.vram_write_blocked
    }

    /// Whether a CPU read of OAM gets through now.
    #[inline]
    pub fn oam_readable(&self) -> bool {
        !self.oam_read_blocked
    }

    /// Whether a CPU write to OAM lands now.
    #[inline]
    pub fn oam_writable(&self) -> bool {
        !self.oam_write_blocked
    }

    /// VBlank starts: the last line's scratch data (its colour indices, objects and register
    /// writes) is dead until the next frame's first line writes it again. Clearing it changes
    /// nothing the machine does, and keeps frame-end snapshots free of leftovers that differ
    /// every frame (smaller rewind diffs).
    fn clear_line_scratch(&mut self) {
        self.line_index = [0; WIDTH];
        self.line_sprites = [0; 10];
        self.line_sprite_count = 0;
        if self.line_write_count == 0 {
            for w in &mut self.line_writes {
                *w = crate::fifo::LineWrite {
                    dot: 0,
                    addr: 0,
                    value: 0,
                };
            }
        }
    }

    /// A frame is handed out: rows the LCD did not draw since the last one (it was off, or
    /// switched on part-way) are blank, as on the screen, whatever the buffer held before.
    pub fn finish_frame(&mut self) {
        for y in 0..HEIGHT {
            if self.rows_drawn[y / 64] & (1 << (y % 64)) == 0 {
                self.framebuffer[y * WIDTH..(y + 1) * WIDTH].fill(0);
            }
        }
        self.rows_drawn = [0; 3];
    }

    /// Render the current line into the framebuffer from the registers as they are now.
    ///
    /// Background and window tiles are decoded 8 pixels at a time as byte lanes of a `u64`
    /// ([`spread`]), and BGP is applied with lane masks, so a line costs a few hundred
    /// operations rather than a few per pixel.
    fn render_line(&mut self) {
        let y = usize::from(self.line);
        if y >= HEIGHT {
            return;
        }
        let row_start = y * WIDTH;
        self.rows_drawn[y / 64] |= 1 << (y % 64);
        if self.blank_frame {
            self.framebuffer[row_start..row_start + WIDTH].fill(0);
            return;
        }
        if self.line_write_count == 0 || self.line_write_count as usize > MAX_LINE_WRITES {
            self.render_whole_line(row_start);
            if self.lcdc & 0x02 != 0 {
                self.render_sprites(row_start);
            }
        } else {
            let mut shades = [0u8; WIDTH];
            let writes = &self.line_writes[..usize::from(self.line_write_count)];
            let input = crate::fifo::LineInput {
                vram: &self.vram,
                oam: &self.oam,
                objects: self.line_objects(),
            };
            let end = crate::fifo::render(input, self.line_regs, writes, &mut shades);
            self.window_line = end.window_line;
            self.window_drawn = false;
            self.framebuffer[row_start..row_start + WIDTH].copy_from_slice(&shades);
        }
        self.line_write_count = 0;
        if self.window_drawn {
            self.window_line = self.window_line.wrapping_add(1);
        }
    }

    /// Draw background and window for the whole line from the registers as they are now.
    fn render_whole_line(&mut self, row_start: usize) {
        // Colour index per pixel (for sprite priority), and the shades.
        let mut opaque = [0u8; WIDTH + 16];
        let mut shades = [0u8; WIDTH + 16];
        let lcdc = self.lcdc;
        if lcdc & 0x01 != 0 {
            let pal = Palette::new(self.bgp);
            let fine = usize::from(self.scx & 7);
            // The window covers the line from screen x = WX - 7 (clipped at the left edge).
            let window_visible = self.window_on_line();
            let start = if window_visible {
                usize::from(self.wx).saturating_sub(7)
            } else {
                WIDTH
            };
            // Background tiles: only those showing left of the window.
            let bg_tiles = (start + fine).div_ceil(8);
            let map = if lcdc & 0x08 != 0 { 0x1C00 } else { 0x1800 };
            let py = self.line.wrapping_add(self.scy);
            let first = self.scx / 8;
            for t in 0..bg_tiles {
                let col = first.wrapping_add(t as u8) & 31;
                let (lo, hi) = self.tile_row(map, col, py);
                let at = t * 8;
                shades[at..at + 8].copy_from_slice(&pal.apply(lo, hi).to_le_bytes());
                opaque[at..at + 8].copy_from_slice(&(lo | hi).to_le_bytes());
            }
            if fine != 0 {
                shades.copy_within(fine..fine + WIDTH, 0);
                opaque.copy_within(fine..fine + WIDTH, 0);
            }
            if window_visible {
                let map = if lcdc & 0x40 != 0 { 0x1C00 } else { 0x1800 };
                let wy = self.window_line;
                let skip = (7usize).saturating_sub(usize::from(self.wx));
                let n = WIDTH - start;
                let mut wshades = [0u8; WIDTH + 16];
                let mut wopaque = [0u8; WIDTH + 16];
                for t in 0..(skip + n).div_ceil(8) {
                    let (lo, hi) = self.tile_row(map, t as u8, wy);
                    let at = t * 8;
                    wshades[at..at + 8].copy_from_slice(&pal.apply(lo, hi).to_le_bytes());
                    wopaque[at..at + 8].copy_from_slice(&(lo | hi).to_le_bytes());
                }
                shades[start..WIDTH].copy_from_slice(&wshades[skip..skip + n]);
                opaque[start..WIDTH].copy_from_slice(&wopaque[skip..skip + n]);
                self.window_drawn = true;
            }
        }
        self.framebuffer[row_start..row_start + WIDTH].copy_from_slice(&shades[..WIDTH]);
        self.line_index.copy_from_slice(&opaque[..WIDTH]);
    }

    /// Remember a register write made during mode 3, for the FIFO replay of this line.
    fn record_write(&mut self, addr: u16, v: u8, now: u64) {
        let drawing = self.mode == 3 || self.event == Event::Draw;
        if !drawing || !self.lcd_on() || self.blank_frame || self.line >= HEIGHT as u8 {
            return;
        }
        if addr == 0xFF40 && v & 0x02 != 0 && self.line_regs.lcdc & 0x02 == 0 {
            // Objects switched on mid-line: the OAM scan skipped at mode 3 is done now.
            self.oam_scan(self.line_regs.lcdc | 0x02);
        }
        let dot = now.saturating_sub(self.line_start).min(455) as u16;
        let n = usize::from(self.line_write_count);
        if n < MAX_LINE_WRITES {
            self.line_writes[n] = crate::fifo::LineWrite {
                dot,
                addr,
                value: v,
            };
        }
        // Past the log's size the line falls back to whole-line drawing.
        self.line_write_count = self.line_write_count.saturating_add(1);
    }

    /// The two bit planes of row `y % 8` of the tile at column `col`, row `y / 8` of tile map
    /// `map`, spread to byte lanes (leftmost pixel in the lowest byte).
    #[inline]
    fn tile_row(&self, map: usize, col: u8, y: u8) -> (u64, u64) {
        let tile = self.vram[map + usize::from(y / 8) * 32 + usize::from(col & 31)];
        let base = if self.lcdc & 0x10 != 0 {
            usize::from(tile) * 16
        } else {
            0x1000usize.wrapping_add_signed(isize::from(tile as i8) * 16)
        };
        let addr = (base + usize::from(y % 8) * 2) & 0x1FFE;
        (spread(self.vram[addr]), spread(self.vram[addr + 1]))
    }

    /// Draw the line's objects over the background and window already in the framebuffer,
    /// with the colour indices in `line_index` for the OBJ-to-BG priority bit.
    fn render_sprites(&mut self, row_start: usize) {
        let height = if self.lcdc & 0x04 != 0 { 16 } else { 8 };
        let n = self.line_objects().len();
        // Lower X wins, then lower OAM index. The winner's pixel is the object pixel even when
        // the background hides it (priority bit): objects behind it never show there.
        let mut order: [u8; 10] = self.line_sprites;
        let order = &mut order[..n];
        order.sort_by_key(|&i| (self.oam[usize::from(i) * 4 + 1], i));
        let mut claimed = [false; WIDTH];
        for &i in order.iter() {
            let o = usize::from(i) * 4;
            let sy = self.oam[o];
            let sx = self.oam[o + 1];
            let mut tile = self.oam[o + 2];
            let attr = self.oam[o + 3];
            let mut row = self.line.wrapping_add(16).wrapping_sub(sy);
            if attr & 0x40 != 0 {
                row = height - 1 - row;
            }
            if height == 16 {
                tile &= 0xFE;
            }
            let addr = usize::from(tile) * 16 + usize::from(row) * 2;
            let lo = self.vram[addr];
            let hi = self.vram[addr + 1];
            let palette = if attr & 0x10 != 0 {
                self.obp1
            } else {
                self.obp0
            };
            for px in 0..8u8 {
                let x = i16::from(sx) - 8 + i16::from(px);
                if !(0..WIDTH as i16).contains(&x) {
                    continue;
                }
                let bit = if attr & 0x20 != 0 { px } else { 7 - px };
                let idx = ((lo >> bit) & 1) | (((hi >> bit) & 1) << 1);
                if idx == 0 {
                    continue;
                }
                let x = x as usize;
                if claimed[x] {
                    continue;
                }
                claimed[x] = true;
                if attr & 0x80 != 0 && self.line_index[x] != 0 {
                    continue;
                }
                self.framebuffer[row_start + x] = (palette >> (idx * 2)) & 3;
            }
        }
    }
}

/// [`spread`] for every byte, built at compile time.
const SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut v = 0;
    while v < 256 {
        let mut lanes = 0u64;
        let mut i = 0;
        while i < 8 {
            if (v >> (7 - i)) & 1 != 0 {
                lanes |= 0xFF << (i * 8);
            }
            i += 1;
        }
        table[v] = lanes;
        v += 1;
    }
    table
};

/// Spread the 8 bits of a tile plane byte to 8 byte lanes of 0x00/0xFF, bit 7 (the leftmost
/// pixel) in the lowest lane.
#[inline]
fn spread(bits: u8) -> u64 {
    SPREAD[usize::from(bits)]
}

/// A DMG palette register expanded to byte-lane masks, to map 8 colour indices at once.
struct Palette {
    shades: [u64; 4],
}

impl Palette {
    fn new(reg: u8) -> Palette {
        let lane = |i: u8| u64::from((reg >> (i * 2)) & 3) * 0x0101_0101_0101_0101;
        Palette {
            shades: [lane(0), lane(1), lane(2), lane(3)],
        }
    }

    /// Shades of 8 pixels from their spread bit planes.
    #[inline]
    fn apply(&self, lo: u64, hi: u64) -> u64 {
        (self.shades[0] & !hi & !lo)
            | (self.shades[1] & !hi & lo)
            | (self.shades[2] & hi & !lo)
            | (self.shades[3] & hi & lo)
    }
}

impl Default for Ppu {
    fn default() -> Self {
        Ppu::new()
    }
}

impl Event {
    /// Stable id for the state image.
    fn id(self) -> u8 {
        match self {
            Event::LineStart => 0,
            Event::Compare => 1,
            Event::VramBlock => 2,
            Event::Mode3 => 3,
            Event::Mode2 => 4,
            Event::HBlank => 5,
            Event::Line153Blank => 6,
            Event::Line153Compare => 7,
            Event::Off => 8,
            Event::Draw => 9,
            Event::HBlankIrq => 10,
        }
    }

    fn from_id(id: u8) -> Option<Event> {
        Some(match id {
            0 => Event::LineStart,
            1 => Event::Compare,
            2 => Event::VramBlock,
            3 => Event::Mode3,
            4 => Event::Mode2,
            5 => Event::HBlank,
            6 => Event::Line153Blank,
            7 => Event::Line153Compare,
            8 => Event::Off,
            9 => Event::Draw,
            10 => Event::HBlankIrq,
            _ => return None,
        })
    }
}

impl Ppu {
    /// Put the PPU where LY (0xFF44) and STAT's mode name in the frame, for a save state that
    /// keeps no dot (BESS, [`crate::bess`]). The registers, VRAM and OAM are set first; the
    /// framebuffer is kept. `stat` gives the interrupt enables, the LY=LYC flag and the mode.
    ///
    /// Each (LY, mode) pair is placed at the first dot where the CPU sees it, with the events
    /// from there on scheduled as usual: VBlank lines 145-153 at dot 0 (LY just changed, the
    /// LY=LYC comparison 2 dots ahead), line 144 at dot 0 with VBlank begun (where a frame
    /// ends: a CPU in HALT sees VBlank from there), mode 2 at dot 4, mode 3 at dot 84, mode 0
    /// right when it starts (dot 254 plus the line's penalty, the line already drawn), and LY 0
    /// in mode 1 at dot 4 of line 153. A mode that cannot go with LY (a mode 1 on a
    /// visible line, modes 0, 2 and 3 in VBlank) is taken from LY alone. The window line
    /// counter, which no register shows, is estimated from WY, WX and LCDC as they are now.
    /// `ly` must be at most 153.
    pub(crate) fn restore_position(&mut self, stat: u8, ly: u8, now: u64) {
        let mut fresh = Ppu::new();
        std::mem::swap(&mut fresh.vram, &mut self.vram);
        std::mem::swap(&mut fresh.framebuffer, &mut self.framebuffer);
        fresh.rows_drawn = self.rows_drawn;
        fresh.oam = self.oam;
        fresh.lcdc = self.lcdc;
        fresh.scy = self.scy;
        fresh.scx = self.scx;
        fresh.lyc = self.lyc;
        fresh.bgp = self.bgp;
        fresh.obp0 = self.obp0;
        fresh.obp1 = self.obp1;
        fresh.wy = self.wy;
        fresh.wx = self.wx;
        *self = fresh;
        self.stat_enable = stat & 0x78;
        self.lyc_equal = stat & 0x04 != 0;
        if !self.lcd_on() {
            // As after the LCD is switched off: the flag keeps its value.
            self.stat_line = self.lyc_equal && self.stat_enable & 0x40 != 0;
            return;
        }
        let ly = ly.min(153);
        let visible = ly < HEIGHT as u8;
        let mode = match stat & 3 {
            1 if ly == 0 => 1,
            _ if !visible => 1,
            1 => 2,
            m => m,
        };
        self.ly = ly;
        self.line = ly;
        self.mode = mode;
        self.sources = match mode {
            0 => SRC_HBLANK,
            1 => SRC_VBLANK,
            _ => 0,
        };
        if visible {
            let window = self.lcdc & 0x21 == 0x21 && self.wx <= 166 && self.wy <= ly;
            self.wy_triggered = self.wy <= ly;
            self.window_line = if window { ly - self.wy } else { 0 };
        }
        let dot = match mode {
            1 if ly == 0 => {
                // Line 153 reads LY 0 from dot 4.
                self.line = 153;
                self.event = Event::Line153Blank;
                4
            }
            1 if ly == 144 => {
                // VBlank has started: where a frame ends.
                self.event = Event::LineStart;
                0
            }
            1 => {
                self.event = Event::Compare;
                0
            }
            2 => {
                self.oam_read_blocked = true;
                self.oam_write_blocked = true;
                self.event = Event::VramBlock;
                4
            }
            3 => {
                self.set_blocked(true);
                self.oam_scan(self.lcdc);
                self.line_regs = self.line_regs_now();
                self.event = Event::HBlank;
                MODE3_START
            }
            _ => {
                self.oam_scan(self.lcdc);
                let end = MODE0_START + self.mode3_penalty();
                if self.window_on_line() && self.lcdc & 0x01 != 0 {
                    self.window_line = self.window_line.wrapping_add(1);
                }
                self.event = Event::LineStart;
                end
            }
        };
        self.line_start = now - dot;
        let s = self.line_start;
        self.next = match self.event {
            Event::Line153Blank => s + COMPARE_DOT + 4,
            Event::Compare => s + COMPARE_DOT,
            Event::VramBlock => s + VRAM_BLOCK,
            Event::HBlank => s + MODE0_START + self.mode3_penalty(),
            _ => s + DOTS_PER_LINE,
        };
        self.stat_line = self.stat_sources();
    }
}

impl Ppu {
    /// Append the PPU's part of the state image (not the framebuffer: see [`crate::state`]).
    pub(crate) fn save_state(&self, w: &mut crate::state::Writer<'_>) {
        w.bytes(&self.vram[..]);
        w.bytes(&self.oam);
        w.bytes(&[
            self.lcdc,
            self.stat_enable,
            self.scy,
            self.scx,
            self.ly,
            self.line,
            self.lyc,
            self.bgp,
            self.obp0,
            self.obp1,
            self.wy,
            self.wx,
            self.mode,
            self.sources,
        ]);
        for flag in [
            self.lyc_equal,
            self.stat_line,
            self.first_line,
            self.oam_read_blocked,
            self.oam_write_blocked,
            self.vram_read_blocked,
            self.vram_write_blocked,
            self.wy_triggered,
            self.window_drawn,
            self.frame_ready,
            self.blank_frame,
        ] {
            w.bool(flag);
        }
        w.u64(self.line_start);
        w.u64(self.next);
        w.u8(self.event.id());
        w.u8(self.window_line);
        let lr = &self.line_regs;
        w.bytes(&[
            lr.lcdc,
            lr.scy,
            lr.scx,
            lr.bgp,
            lr.obp0,
            lr.obp1,
            lr.wx,
            lr.ly,
            lr.window_line,
        ]);
        w.bool(lr.wy_triggered);
        for lw in &self.line_writes {
            w.u16(lw.dot);
            w.u16(lw.addr);
            w.u8(lw.value);
        }
        w.u8(self.line_write_count);
        w.bytes(&self.line_index);
        w.bytes(&self.line_sprites);
        w.u8(self.line_sprite_count);
    }

    /// Read the PPU's part of the state image; `now` is the machine's clock, for the checks.
    pub(crate) fn load_state(
        &mut self,
        r: &mut crate::state::Reader<'_>,
        now: u64,
    ) -> Result<(), crate::state::StateError> {
        use crate::state::StateError::Invalid;
        r.bytes(&mut self.vram[..])?;
        r.bytes(&mut self.oam)?;
        let mut regs = [0; 14];
        r.bytes(&mut regs)?;
        [
            self.lcdc,
            self.stat_enable,
            self.scy,
            self.scx,
            self.ly,
            self.line,
            self.lyc,
            self.bgp,
            self.obp0,
            self.obp1,
            self.wy,
            self.wx,
            self.mode,
            self.sources,
        ] = regs;
        self.stat_enable &= 0x78;
        if self.ly > 153
            || self.line > 153
            || self.mode > 3
            || self.sources & !(SRC_HBLANK | SRC_VBLANK | SRC_OAM) != 0
        {
            return Err(Invalid("PPU line or mode"));
        }
        for flag in [
            &mut self.lyc_equal,
            &mut self.stat_line,
            &mut self.first_line,
            &mut self.oam_read_blocked,
            &mut self.oam_write_blocked,
            &mut self.vram_read_blocked,
            &mut self.vram_write_blocked,
            &mut self.wy_triggered,
            &mut self.window_drawn,
            &mut self.frame_ready,
            &mut self.blank_frame,
        ] {
            *flag = r.bool()?;
        }
        self.line_start = r.u64()?;
        self.next = r.u64()?;
        self.event = Event::from_id(r.u8()?).ok_or(Invalid("PPU event"))?;
        let on = self.event != Event::Off;
        // The timeline only ever looks a line and a bit ahead of and behind `now`.
        if on && (self.line_start > now || now - self.line_start > 2 * DOTS_PER_LINE) {
            return Err(Invalid("PPU line start"));
        }
        if on && (self.next < self.line_start || self.next - self.line_start > 2 * DOTS_PER_LINE) {
            return Err(Invalid("PPU event time"));
        }
        self.window_line = r.u8()?;
        let mut lr = [0; 9];
        r.bytes(&mut lr)?;
        let [lcdc, scy, scx, bgp, obp0, obp1, wx, ly, window_line] = lr;
        self.line_regs = crate::fifo::LineRegs {
            lcdc,
            scy,
            scx,
            bgp,
            obp0,
            obp1,
            wx,
            ly: ly.min(143),
            window_line,
            wy_triggered: r.bool()?,
        };
        for lw in &mut self.line_writes {
            lw.dot = r.u16()?;
            lw.addr = r.u16()?;
            lw.value = r.u8()?;
            if lw.addr != 0 && !(0xFF40..=0xFF4B).contains(&lw.addr) {
                return Err(Invalid("PPU line write register"));
            }
            if u64::from(lw.dot) >= DOTS_PER_LINE {
                return Err(Invalid("PPU line write dot"));
            }
        }
        self.line_write_count = r.below(MAX_LINE_WRITES as u8 + 1, "PPU line write count")?;
        r.bytes(&mut self.line_index)?;
        r.bytes(&mut self.line_sprites)?;
        if self.line_sprites.iter().any(|&i| i >= 40) {
            return Err(Invalid("PPU object index"));
        }
        self.line_sprite_count = r.below(11, "PPU object count")?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_puts_bit7_in_lane0_and_widens() {
        for v in 0..=255u8 {
            let lanes = spread(v).to_le_bytes();
            for (i, &lane) in lanes.iter().enumerate() {
                let bit = (v >> (7 - i)) & 1;
                assert_eq!(
                    lane,
                    if bit == 1 { 0xFF } else { 0 },
                    "value {v:#04x} lane {i}"
                );
            }
        }
    }

    /// The FIFO replay with no writes draws exactly what the whole-line path draws, for random
    /// tiles, maps, scroll, window position, palettes and objects.
    #[test]
    fn fifo_replay_without_writes_matches_the_whole_line_path() {
        let mut seed = 0x9E37_79B9u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        for case in 0..600 {
            let mut ppu = Ppu::new();
            for b in ppu.vram.iter_mut() {
                *b = next() as u8;
            }
            ppu.lcdc = 0x81 | (next() as u8 & 0x7E);
            ppu.scx = next() as u8;
            ppu.scy = next() as u8;
            ppu.bgp = next() as u8;
            ppu.obp0 = next() as u8;
            ppu.obp1 = next() as u8;
            ppu.wx = (next() % 180) as u8;
            ppu.line = (next() % 144) as u8;
            ppu.window_line = (next() % 144) as u8;
            ppu.wy_triggered = next() & 1 == 0;
            // Objects near the line, X often equal or close to each other.
            let base_x = (next() % 176) as u8;
            for (i, b) in ppu.oam.iter_mut().enumerate() {
                let r = next() as u8;
                *b = match i % 4 {
                    0 => ppu.line.wrapping_add(16).wrapping_sub(r % 20),
                    1 if r & 1 == 0 => base_x.wrapping_add(r % 12),
                    _ => r,
                };
            }
            ppu.oam_scan(ppu.lcdc);
            let regs = crate::fifo::LineRegs {
                lcdc: ppu.lcdc,
                scy: ppu.scy,
                scx: ppu.scx,
                bgp: ppu.bgp,
                obp0: ppu.obp0,
                obp1: ppu.obp1,
                wx: ppu.wx,
                ly: ppu.line,
                window_line: ppu.window_line,
                wy_triggered: ppu.wy_triggered,
            };
            let row = usize::from(ppu.line) * WIDTH;
            ppu.render_whole_line(row);
            if ppu.lcdc & 0x02 != 0 {
                ppu.render_sprites(row);
            }
            let whole = ppu.framebuffer[row..row + WIDTH].to_vec();
            let mut shades = [0u8; WIDTH];
            let input = crate::fifo::LineInput {
                vram: &ppu.vram,
                oam: &ppu.oam,
                objects: ppu.line_objects(),
            };
            let end = crate::fifo::render(input, regs, &[], &mut shades);
            // The replay's last pixel comes DRAW_DELAY dots after the timeline's mode 0. Lines
            // with both objects and the window are not compared: the timeline's penalty
            // ignores how the window moves the tiles.
            let objects = ppu.fetches_objects();
            let window = ppu.lcdc & 0x01 != 0 && ppu.window_on_line();
            if !(objects && window) {
                assert_eq!(
                    u64::from(end.dot),
                    MODE0_START + ppu.mode3_penalty() + DRAW_DELAY + 1,
                    "case {case}: mode 3 length, {regs:?}"
                );
            }
            assert_eq!(
                &shades[..],
                &whole[..],
                "case {case}: {regs:?}\nfifo  {shades:?}\nwhole {whole:?}\nobjects {:?}",
                ppu.line_objects()
                    .iter()
                    .map(|&i| &ppu.oam[usize::from(i) * 4..usize::from(i) * 4 + 4])
                    .collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn palette_maps_each_index() {
        let pal = Palette::new(0b11_10_01_00);
        // Pixels with indices 0,1,2,3,0,1,2,3.
        let lo = spread(0b0101_0101);
        let hi = spread(0b0011_0011);
        assert_eq!(pal.apply(lo, hi).to_le_bytes(), [0, 1, 2, 3, 0, 1, 2, 3]);
    }
}
