//! Everything but the CPU: the memory map, the clock and the event scheduler, OAM DMA, and
//! the interrupt registers. It implements [`Bus`] for the CPU.
//!
//! Time is kept in T-cycles (`now`, 4 per M-cycle). Each CPU access first advances the clock
//! one M-cycle, then reads or writes, so an access "at" time `t` sees every hardware event due
//! at or before `t`. Components (timer, PPU, serial, DMA) publish the time of their next event;
//! [`Hardware::tick`] only compares `now` with the earliest of them, so a plain M-cycle costs an
//! add and a compare. OAM DMA publishes only its start and its end: the bytes between are
//! copied, each at its own time, when something could see them and when the run loop stops
//! ([`Bus::settle`]). The PPU, while no STAT interrupt source is enabled and no DMA needs its
//! edges, publishes only its next VBlank (`Hardware::ppu_wake`): its events left behind run
//! before any CPU access off the fast paths and at every stop (`Hardware::catch_up`). Which
//! edge each event and access lands on is in `docs/timing.md`.

use crate::apu::{Apu, FS_PERIOD, WriteClock};
use crate::cartridge::Cartridge;
use crate::cgb::CgbRegs;
use crate::cpu::Bus;
use crate::hdma::{Due, Hdma, Sleep, Start};
use crate::joypad::{Buttons, FILTER_MCYCLES, Joypad};
use crate::model::{CgbRevision, Model};
use crate::ppu::Ppu;
use crate::serial::Serial;
use crate::timer::Timer;

/// Which OAM corruption an access causes.
#[derive(Clone, Copy, Debug)]
enum OamBug {
    Read,
    Write,
    ReadIdu,
}

/// How long the CGB's speed switch holds the CPU in HALT when no interrupt wakes it, in system
/// counter ticks (the timer runs at the new speed meanwhile): gbc-hw-tests
/// `speed_change_timing_coarse` (TIMA counts 0x80 4,096 Hz ticks across the switch, both ways)
/// and `speed_change_timing_fine` (the phase).
const SPEED_SWITCH_TICKS: u64 = 0x20000;
/// Dots the PPU is held by a switch back to normal speed with the LCD on (`Ppu::delay`).
const SPEED_SWITCH_PPU_DELAY: u64 = 1;
/// Dots the CPU, OAM DMA and the system counter (reset, at 0) stand still after a switch to
/// double speed, while the PPU runs on (Gambatte's `speedchange_ly44_*`, `speedchange_div_*`).
const SPEED_SWITCH_HOLD_TO_DOUBLE: u64 = 4;
/// The same going back to normal speed: with the PPU's 1-dot hold the CPU's M-cycles then
/// fall 1 dot before S, S+4, … (gbc-hw-tests `ly_timings_*_gbc_mode`; Gambatte's
/// `speedchange2_ly44_*`).
const SPEED_SWITCH_HOLD_TO_NORMAL: u64 = 2;
/// Dots the CPU stalls per 16-byte block of VRAM DMA, at either speed (Pan Docs "Transfer
/// Timings": 8 M-cycles at normal speed, 16 at double speed).
const HDMA_BLOCK_DOTS: u64 = 32;
/// Extra M-cycles a VRAM DMA stalls the CPU for, besides its blocks' time (gbc-hw-tests
/// `gdma_timing_fine`, `hdma_timing_fine`).
const HDMA_START_MCYCLES: u64 = 1;
/// Dots from an HBlank's start (STAT's mode 0) to the HBlank DMA's request: an opcode fetch
/// ending then or later is followed by the block (Gambatte `dma/hdma_start_*`, SCX 0-5).
const HDMA_REQUEST_DELAY: u64 = 2;
/// Work RAM on the CGB: 8 banks of 4 KiB (the DMG uses the first two).
pub const WRAM_SIZE: usize = 0x8000;
/// The length of a CGB boot ROM image (0x0000-0x00FF and 0x0200-0x08FF; the cartridge
/// header shows through at 0x0100-0x01FF).
pub const CGB_BOOT_ROM_SIZE: usize = 0x900;

/// Interrupt flag bits (IF/IE).
pub mod irq {
    /// VBlank.
    pub const VBLANK: u8 = 0x01;
    /// LCD STAT.
    pub const STAT: u8 = 0x02;
    /// Timer overflow.
    pub const TIMER: u8 = 0x04;
    /// Serial transfer complete.
    pub const SERIAL: u8 = 0x08;
    /// Joypad line fell.
    pub const JOYPAD: u8 = 0x10;
}

/// OAM DMA state (Pan Docs: "OAM DMA Transfer").
#[derive(Clone, Debug)]
pub struct Dma {
    /// The last value written to 0xFF46.
    reg: u8,
    /// Source address of the running transfer.
    source: u16,
    /// Next byte to copy (0-159) while active.
    index: u8,
    /// A transfer is running: OAM is unreachable for the CPU.
    active: bool,
    /// Time of the next byte copy, `u64::MAX` when idle.
    next: u64,
    /// A write to 0xFF46 starts a transfer from `pending_source` at `start_at`.
    start_at: u64,
    /// Source of the pending transfer.
    pending_source: u16,
    /// The byte the last copy put on the bus (what the CPU sees on a bus conflict).
    last_byte: u8,
    /// The bus the running transfer reads from (see [`bus_of`]).
    source_bus: u8,
}

impl Dma {
    fn new() -> Dma {
        Dma {
            reg: 0xFF,
            source: 0,
            index: 0,
            active: false,
            next: u64::MAX,
            start_at: u64::MAX,
            pending_source: 0,
            last_byte: 0xFF,
            source_bus: 0,
        }
    }

    fn next_event(&self) -> u64 {
        self.next.min(self.start_at)
    }

    /// When the scheduler must run the transfer: a pending start, or the step after the last
    /// byte that ends it. The bytes between are copied when something can see them
    /// ([`Hardware::dma_catch_up`]), at their own times, so nothing differs but the work.
    fn sync_event(&self, mcycle: u64) -> u64 {
        let end = if self.active && self.next != u64::MAX {
            self.next + u64::from(0xA0 - self.index.min(0xA0)) * mcycle
        } else {
            self.next
        };
        end.min(self.start_at)
    }
}

/// The address OAM DMA really reads for `addr`: sources from 0xE000 up reach work RAM on the
/// DMG; on the CGB they go out on the cartridge bus, where only a cartridge whose RAM ignores
/// A14 answers, with its RAM at `addr - 0x4000` ([`Cartridge::read_high`]).
fn dma_source(addr: u16, cgb: bool) -> u16 {
    match addr {
        0xE000.. if cgb => addr - 0x4000,
        0xE000.. => addr - 0x2000,
        _ => addr,
    }
}

/// Where 0xFEA0-0xFEFF lands in the CGB's extra OAM (Pan Docs "FEA0–FEFF range": "On CGB
/// revisions 0-D, this area is a unique RAM area, but is masked with a revision-specific
/// value"). The CPU CGB C ignores address bits 3 and 4, so the 96 addresses reach 24 bytes
/// (0xFEA0-0xFEA7, 0xFEC0-0xFEC7, 0xFEE0-0xFEE7): cgb-acid-hell writes 0xFEA0 and 0xFEB8 and
/// refuses to run unless they alias, as SameBoy has it for revisions 0 to C. The CPU CGB D
/// has 0xFEA0-0xFEBF as 32 bytes of their own and folds 0xFEC0-0xFEFF onto 0xFEF0-0xFEFF
/// (address bits 4 and 5 set), as the CGB of gbc-hw-tests `oam_echo_ram_read*` reads back
/// (SameBoy's CGB D).
fn extra_oam_index(addr: u16, revision: CgbRevision) -> usize {
    let low = match revision {
        CgbRevision::C => addr & 0xE7,
        CgbRevision::D if addr & 0xFF >= 0xC0 => addr | 0xF0,
        CgbRevision::D => addr,
    };
    usize::from(low & 0xFF).saturating_sub(0xA0)
}

/// Which physical bus an address is on, for OAM DMA conflicts: 0 the external bus
/// (cartridge, and on the DMG work RAM), 1 the video bus, 2 the CPU's internal one (OAM, I/O,
/// HRAM), 3 the CGB's work RAM bus (gbc-hw-tests `dma_timing_*`: on the CGB a DMA from work
/// RAM hides work RAM from the CPU, not the cartridge's RAM).
fn bus_of(addr: u16, cgb: bool) -> u8 {
    match addr {
        0x8000..=0x9FFF => 1,
        0xFE00..=0xFFFF => 2,
        0xC000..=0xFDFF if cgb => 3,
        _ => 0,
    }
}

/// The whole machine except the CPU. Plain data: `Clone`, no pointers to elsewhere.
#[derive(Clone, Debug)]
pub struct Hardware {
    /// T-cycles since power-on.
    pub now: u64,
    /// Earliest time any component has an event.
    next_event: u64,
    /// Earliest event of everything but the PPU (the deadline included): most events are the
    /// PPU's alone, and [`Hardware::process_events`] then needs nothing else.
    others_next: u64,
    /// The cartridge (ROM, RAM, mapper, RTC).
    pub cart: Cartridge,
    /// The boot ROM, mapped at 0x0000-0x00FF (and 0x0200-0x08FF for the CGB's 0x900 bytes)
    /// until 0xFF50 is written.
    boot_rom: Option<Box<[u8]>>,
    /// Work RAM: bank 0 at 0xC000-0xCFFF, bank 1 (the CGB: SVBK's bank) at 0xD000-0xDFFF;
    /// the DMG has banks 0 and 1 only.
    pub wram: Box<[u8; WRAM_SIZE]>,
    /// Where 0xC000-0xCFFF and 0xD000-0xDFFF start in `wram` (SVBK's bank for the second).
    wram_offsets: [usize; 2],
    /// The model.
    model: Model,
    /// The CGB's CPU revision (C on the DMG, where it means nothing).
    revision: CgbRevision,
    /// CGB mode (false on the DMG and in the CGB's DMG compatibility mode).
    cgb_mode: bool,
    /// The CGB's KEY0, KEY1, SVBK, RP and FF72-FF75.
    pub(crate) cgb: CgbRegs,
    /// T-cycles (dots) per CPU M-cycle: 4, or 2 at the CGB's double speed.
    mcycle: u64,
    /// When the speed switch's HALT ends by itself (`u64::MAX`: no switch under way).
    speed_switch_end: u64,
    /// The earlier of `stop_at`, `speed_switch_end` and now if a DMA stall waits, for the
    /// scheduler (they change rarely, so it pays one comparison instead of three).
    deadline: u64,
    /// The CGB's VRAM DMA.
    pub(crate) hdma: Hdma,
    /// Dots the CPU stalls for a VRAM DMA, from its next M-cycle on (0: none).
    dma_stall: u64,
    /// The CPU sleeps in HALT (HBlank DMA waits for it to wake).
    in_halt: bool,
    /// A VRAM DMA stall is running (a block due meanwhile lengthens it).
    in_stall: bool,
    /// Dots into an M-cycle at which HALT samples IE & IF: phase C (2) on the DMG; the CGB
    /// samples at the M-cycle's start (0: a request wakes it only if made by the end of the
    /// previous M-cycle; SameBoy checks before its HALT cycle on the CGB, after half of it on
    /// the DMG; gbc-hw-tests `ly_timings_*_dmg_mode`, `stat_timings_*` CGB dumps).
    halt_lead: u64,
    /// The DMG: the first M-cycle end at which a sleeping CPU may wake for a PPU or serial
    /// request, two M-cycles after HALT's (a request in the M-cycle after HALT's counts as
    /// pending at HALT, one in the next wakes the CPU an M-cycle late: Gambatte's
    /// `halt/late_m0int_halt_m0stat_scx3_2b`, `late_m0irq_halt_m0stat_scx3_2b`). 0: none.
    halt_wake_from: u64,
    /// High RAM, 0xFF80-0xFFFE.
    pub hram: [u8; 0x7F],
    /// The CGB's RAM at 0xFEA0-0xFEFF (see [`extra_oam_index`]; unused on the DMG, where the
    /// range reads 0).
    pub(crate) extra_oam: [u8; 0x60],
    /// The PPU.
    pub ppu: Ppu,
    /// Timer and divider.
    pub timer: Timer,
    /// Serial port.
    pub serial: Serial,
    /// Joypad.
    pub joypad: Joypad,
    /// Sound registers.
    pub apu: Apu,
    /// OAM DMA.
    pub dma: Dma,
    /// IF (0xFF0F), low 5 bits.
    pub if_: u8,
    /// IE (0xFFFF).
    pub ie: u8,
    /// No boot ROM overlay, no DMA, no read watchpoint, and work RAM bank 1 at 0xD000 (always
    /// on the DMG): ROM, work RAM and HRAM reads, and work RAM writes, take the fast path.
    plain_reads: bool,
    /// `plain_reads` but for DMA (what changes rarely: boot ROM, read watchpoints, the bank).
    plain_base: bool,
    /// The run loop should stop: a frame ended or `stop_at` passed. Hosts clear it.
    pub stop: bool,
    /// Time at which `stop` is raised even without a frame end.
    stop_at: u64,
    /// Time of the next frame sequencer step (falling edge of system counter bit 12).
    apu_fs_next: u64,
    /// CPU reads of P1 (0xFF00) so far, wrapping.
    pub p1_reads: u32,
    /// Watchpoints (host configuration, not in the state image).
    pub watch: crate::watch::Watch,
    /// Where frames end ([`crate::frames`]): told of every LCD switch. Saved with the
    /// [`crate::Gb`]'s part of the image.
    pub(crate) frame_clock: crate::frames::FrameClock,
    /// Game Genie codes: ROM reads they replace (host configuration, not in the state image;
    /// set with [`crate::Gb::set_rom_cheats`]). Any code turns the read fast path off.
    pub(crate) rom_cheats: Vec<RomCheat>,
}

/// A ROM read replaced, as a Game Genie does it: a read of `addr` (0x0000-0x7FFF, whatever
/// bank is mapped) yields `value`, when the byte the cartridge gives is `compare` (or always,
/// without one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RomCheat {
    /// The CPU address, 0x0000-0x7FFF.
    pub addr: u16,
    /// The byte read instead.
    pub value: u8,
    /// Only when the cartridge's byte is this one (which keeps the code to one bank).
    pub compare: Option<u8>,
}

impl Hardware {
    /// Runs the PPU's events up to `until` (ahead of `now`, where nothing else sees them yet)
    /// and takes their interrupt requests.
    fn ppu_requests_by(&mut self, until: u64) {
        if self.ppu.next_event() <= until {
            self.if_ |= self.ppu.run_events(until);
            if self.ppu.hblank_started {
                self.hblank_dma();
            }
            if self.ppu.frame_ready {
                self.stop = true;
            }
            self.reschedule();
        }
    }

    /// Build the hardware of a DMG around a cartridge; the caller sets the start state of
    /// each part.
    pub fn new(cart: Cartridge, ppu: Ppu, timer: Timer, apu: Apu, now: u64) -> Hardware {
        Hardware::with_model(Model::Dmg, cart, ppu, timer, apu, now)
    }

    /// Build the hardware of `model` around a cartridge, in CGB mode on the CGB (the boot ROM
    /// or the post-boot setup may switch to DMG compatibility mode); the caller sets the start
    /// state of each part.
    pub fn with_model(
        model: Model,
        cart: Cartridge,
        ppu: Ppu,
        timer: Timer,
        apu: Apu,
        now: u64,
    ) -> Hardware {
        let mut hw = Hardware {
            now,
            next_event: 0,
            others_next: 0,
            cart,
            boot_rom: None,
            wram: Box::new([0; WRAM_SIZE]),
            wram_offsets: [0, 0x1000],
            model,
            revision: CgbRevision::C,
            cgb_mode: false,
            cgb: CgbRegs::default(),
            mcycle: 4,
            speed_switch_end: u64::MAX,
            deadline: u64::MAX,
            hdma: Hdma::new(),
            dma_stall: 0,
            in_halt: false,
            in_stall: false,
            halt_lead: if model == Model::Cgb { 0 } else { 2 },
            halt_wake_from: 0,
            hram: [0; 0x7F],
            extra_oam: [0; 0x60],
            ppu,
            timer,
            serial: Serial::default(),
            joypad: Joypad::default(),
            apu,
            dma: Dma::new(),
            if_: 0,
            ie: 0,
            plain_reads: true,
            plain_base: true,
            stop: false,
            stop_at: u64::MAX,
            apu_fs_next: 0,
            p1_reads: 0,
            watch: crate::watch::Watch::default(),
            frame_clock: crate::frames::FrameClock::default(),
            rom_cheats: Vec::new(),
        };
        hw.apu_fs_next = hw.next_fs_edge();
        hw.apu.start_clock(now);
        hw.set_cgb_mode(model == Model::Cgb);
        hw.reschedule();
        hw
    }

    /// The model.
    pub fn model(&self) -> Model {
        self.model
    }

    /// The CGB's CPU revision.
    pub fn revision(&self) -> CgbRevision {
        self.revision
    }

    /// Make the CGB this revision (on the DMG the revision stays C).
    pub(crate) fn set_revision(&mut self, revision: CgbRevision) {
        if self.model == Model::Cgb {
            self.revision = revision;
            self.ppu.set_cgb_d(revision == CgbRevision::D);
            self.apu.set_cgb_c(revision == CgbRevision::C);
        }
    }

    /// Whether the machine runs in CGB mode (a CGB, not in DMG compatibility mode).
    pub fn cgb_mode(&self) -> bool {
        self.cgb_mode
    }

    /// Switch between CGB mode and DMG compatibility mode (what KEY0 says when BANK locks it;
    /// always off on the DMG).
    pub(crate) fn set_cgb_mode(&mut self, on: bool) {
        self.cgb_mode = on && self.model == Model::Cgb;
        self.ppu.set_model(self.model == Model::Cgb, self.cgb_mode);
        self.apu.set_cgb(self.model == Model::Cgb);
        self.apu
            .set_cgb_c(self.model == Model::Cgb && self.revision == CgbRevision::C);
        self.serial.set_cgb(self.cgb_mode, self.timer.rate());
        self.update_banks();
    }

    /// Recompute what SVBK maps (bank 1 outside CGB mode).
    pub(crate) fn update_banks(&mut self) {
        let bank = if self.cgb_mode || (self.model == Model::Cgb && self.boot_rom.is_some()) {
            self.cgb.wram_bank()
        } else {
            1
        };
        self.wram_offsets = [0, bank * 0x1000];
        self.plain_base = self.boot_rom.is_none()
            && !self.watch.any_read
            && self.wram_offsets[1] == 0x1000
            && self.rom_cheats.is_empty();
        self.reschedule();
    }

    /// The index in [`Hardware::wram`] of the work RAM (or echo RAM) address `addr`, with the
    /// bank mapped now.
    #[inline(always)]
    pub(crate) fn wram_index(&self, addr: u16) -> usize {
        (self.wram_offsets[usize::from((addr >> 12) & 1)] | usize::from(addr & 0x0FFF))
            & (WRAM_SIZE - 1)
    }

    /// The bank mapped now at `addr`, for the banked parts of the memory map: ROM (either
    /// half, as the mapper maps it), cartridge RAM (while RAM, not a clock register, is mapped),
    /// and on the CGB VRAM (VBK) and work RAM at 0xD000-0xDFFF and its echo (SVBK). `None`
    /// elsewhere.
    pub fn bank_of(&self, addr: u16) -> Option<u16> {
        let cgb = self.model == Model::Cgb;
        match addr {
            0x0000..=0x7FFF => Some(self.cart.rom_banks_mapped()[usize::from(addr >> 14)] as u16),
            0x8000..=0x9FFF if cgb => Some(u16::from(self.ppu.vram_bank())),
            0xA000..=0xBFFF => self.cart.ram_bank_mapped().map(|b| b as u16),
            0xD000..=0xDFFF | 0xF000..=0xFDFF if cgb => {
                Some((self.wram_offsets[1] / 0x1000) as u16)
            }
            _ => None,
        }
    }

    /// Read `addr` in `bank` without side effects or access blocking (a debugger's banked
    /// read): ROM, cartridge RAM and on the CGB VRAM and work RAM at 0xD000-0xDFFF (and its
    /// echo) take the bank, whatever is mapped (0xFF past the memory's end; 0xC000-0xCFFF is
    /// bank 0); other addresses read as [`Hardware::read_byte`] does.
    pub fn peek_bank(&self, bank: u16, addr: u16) -> u8 {
        let cgb = self.model == Model::Cgb;
        let flat = |mem: &[u8], size: usize, offset: u16| {
            mem.get(usize::from(bank) * size + usize::from(offset))
                .copied()
                .unwrap_or(0xFF)
        };
        match addr {
            0x0000..=0x7FFF => flat(self.cart.rom(), 0x4000, addr & 0x3FFF),
            0x8000..=0x9FFF if cgb => flat(&self.ppu.vram[..], 0x2000, addr & 0x1FFF),
            0xA000..=0xBFFF if !self.cart.ram().is_empty() => {
                flat(self.cart.ram(), 0x2000, addr & 0x1FFF)
            }
            0xD000..=0xDFFF | 0xF000..=0xFDFF if cgb => flat(&self.wram[..], 0x1000, addr & 0x0FFF),
            _ => self.read_byte(addr),
        }
    }

    /// The work RAM address the CPU reaches for `addr`: on the CGB, while OAM DMA reads the
    /// cartridge's bus, work RAM's address line 12 follows the DMA's source address, so
    /// 0xD000 reaches 0xC000 and the other way round (gbc-hw-tests
    /// `dma_valid_sources_gbc_mode`: a DMA from 0x0000-0xAFFF or 0xE000-0xEFFF shows 0xC000's
    /// bytes at 0xD000, one from 0xB000 or 0xF000 up 0xD000's at 0xC000).
    #[inline]
    fn wram_address(&self, addr: u16) -> u16 {
        if self.dma.active && self.dma.source_bus == 0 && self.model == Model::Cgb {
            (addr & !0x1000) | (self.dma.source & 0x1000)
        } else {
            addr
        }
    }

    /// How many bytes of [`Hardware::wram`] the model has: 8 KiB on the DMG, 32 KiB on the
    /// CGB.
    pub fn wram_len(&self) -> usize {
        match self.model {
            Model::Dmg => 0x2000,
            Model::Cgb => WRAM_SIZE,
        }
    }

    /// How many bytes of the PPU's VRAM the model has: 8 KiB on the DMG, 16 KiB on the CGB.
    pub fn vram_len(&self) -> usize {
        match self.model {
            Model::Dmg => 0x2000,
            Model::Cgb => 0x4000,
        }
    }

    /// Run the CPU, the timer, the serial clock and OAM DMA at double speed or at normal speed
    /// from now on (the speed switch, a save state load).
    pub(crate) fn set_speed(&mut self, double: bool) {
        self.cgb.double_speed = double;
        self.ppu.set_double_speed(double);
        let rate: u16 = if double { 2 } else { 1 };
        let old = self.mcycle;
        self.mcycle = 4 / u64::from(rate);
        // OAM DMA counts CPU M-cycles: what it still waits for is as many at the new speed.
        let now = self.now;
        let rescale = |t: u64| {
            if t == u64::MAX || t <= now {
                t
            } else {
                now + (t - now) / old * (4 / u64::from(rate))
            }
        };
        self.dma.next = rescale(self.dma.next);
        self.dma.start_at = rescale(self.dma.start_at);
        if self.dma.active && self.dma.next != u64::MAX {
            let left = u64::from(0xA0 - self.dma.index.min(0xA0));
            self.ppu.oam_dma_busy.1 = self.dma.next + left * self.mcycle;
        }
        self.timer.set_rate(self.now, rate);
        self.serial.set_cgb(self.cgb_mode, rate);
        self.apu_fs_next = self.next_fs_edge();
        self.reschedule();
    }

    /// The length of the model's boot ROM image: 0x100 bytes on the DMG, 0x900 on the CGB.
    pub fn boot_rom_len(&self) -> usize {
        match self.model {
            Model::Dmg => 0x100,
            Model::Cgb => CGB_BOOT_ROM_SIZE,
        }
    }

    /// T-cycles per CPU M-cycle now: 4, or 2 at double speed.
    #[inline]
    pub fn mcycle(&self) -> u64 {
        self.mcycle
    }

    /// The first CPU M-cycle boundary at or after `t` (`now` is one; an M-cycle is 4 or 2
    /// dots, a power of two).
    #[inline]
    fn boundary_at_or_after(&self, t: u64) -> u64 {
        let m = self.mcycle - 1;
        self.now + ((t.saturating_sub(self.now) + m) & !m)
    }

    /// Set when the speed switch's HALT ends (`u64::MAX`: none).
    fn set_speed_switch_end(&mut self, at: u64) {
        self.speed_switch_end = at;
        self.update_deadline();
        self.reschedule();
    }

    /// Recompute [`Hardware::deadline`].
    fn update_deadline(&mut self) {
        let stall = if self.dma_stall != 0 {
            self.now
        } else {
            u64::MAX
        };
        self.deadline = self.stop_at.min(self.speed_switch_end).min(stall);
    }

    /// Recompute the earliest pending event (and the read fast-path flag).
    #[inline]
    pub(crate) fn reschedule(&mut self) {
        self.plain_reads = self.plain_base && !self.dma.active && self.hdma.due == Due::Nothing;
        self.others_next = self
            .deadline
            .min(self.apu_fs_next)
            .min(self.apu.next_event())
            .min(self.timer.next_event())
            .min(self.serial.next_event())
            .min(self.dma.sync_event(self.mcycle))
            .min(self.joypad.next_event());
        self.next_event = self.others_next.min(self.ppu_wake());
    }

    /// [`Hardware::reschedule`] when only the PPU's events ran (nothing else's schedule moved).
    #[inline]
    fn ppu_rescheduled(&mut self) {
        self.next_event = self.others_next.min(self.ppu_wake());
    }

    /// When the scheduler must run the PPU: [`Ppu::wake_at`] (its next event only while a
    /// STAT source can request an interrupt, else the next VBlank), but every event on time
    /// while an OAM DMA is pending or running (the OAM scan sees its bytes as they land) or
    /// an HBlank DMA waits for HBlanks. Events left behind are run by
    /// [`Hardware::ppu_catch_up`] before the CPU touches anything the PPU owns.
    #[inline]
    fn ppu_wake(&self) -> u64 {
        if self.dma.active || self.dma.start_at != u64::MAX || self.hdma.hblank {
            self.ppu.next_event()
        } else {
            self.ppu.wake_at()
        }
    }

    /// Bring what runs lazily up to now: the OAM DMA's bytes, then the PPU's events (which see
    /// them). A transfer that ended here still has its end event due, which reschedules at
    /// the next M-cycle.
    fn catch_up(&mut self) {
        self.dma_catch_up();
        self.ppu_catch_up();
    }

    /// Run the PPU's events left behind (see [`Hardware::ppu_wake`]) up to now, before an
    /// access that could see or change its state: everything off the read and write fast
    /// paths (VRAM, OAM, the I/O registers), the OAM bug, the speed switch, and every stop.
    #[inline]
    fn ppu_catch_up(&mut self) {
        if self.ppu.next_event() <= self.now {
            self.run_events();
        }
    }

    /// Advance the clock one M-cycle and run the events due.
    #[inline(always)]
    pub fn tick(&mut self) {
        self.now += self.mcycle;
        if self.now >= self.next_event {
            self.run_events();
        }
    }

    #[cold]
    fn run_events(&mut self) {
        self.process_events();
    }

    /// Whether OAM DMA holds the bus `addr` is on (the CPU sees its byte, its writes are
    /// dropped); called only while a transfer runs.
    #[cold]
    #[inline(never)]
    fn dma_conflict(&self, addr: u16) -> bool {
        bus_of(addr, self.model == Model::Cgb) == self.dma.source_bus
    }

    /// Run the events due now.
    #[inline(always)]
    fn process_events(&mut self) {
        let now = self.now;
        if self.dma.active {
            // The PPU's events see the bytes copied before this M-cycle (at `now` the PPU goes
            // first, as when every byte was an event).
            self.run_dma(now.saturating_sub(1));
        }
        if self.others_next > now {
            // Only the PPU is due, the usual case: nothing else to look at unless its events
            // started an HBlank (VRAM DMA) or ended a frame.
            self.if_ |= self.ppu.run_events(now);
            if !self.ppu.hblank_started && !self.ppu.frame_ready {
                self.ppu_rescheduled();
                return;
            }
        }
        if self.timer.next_event() <= now && self.timer.run_events(now) {
            self.if_ |= irq::TIMER;
        }
        if self.ppu.next_event() <= now {
            self.if_ |= self.ppu.run_events(now);
        }
        if self.ppu.hblank_started {
            self.hblank_dma();
        }
        if self.serial.next_event() <= now && self.serial.run_events(now) {
            self.if_ |= irq::SERIAL;
        }
        if self.dma.next_event() <= now {
            self.run_dma(now);
        }
        if self.joypad.next_event() <= now && self.joypad.run_events(now) {
            self.if_ |= irq::JOYPAD;
        }
        while self.apu_fs_next <= now {
            self.apu.frame_sequencer(self.apu_fs_next);
            self.apu_fs_next += FS_PERIOD;
        }
        let sweep_at = self.apu.next_event();
        if sweep_at <= now {
            self.apu.run_sweep(sweep_at);
        }
        // One comparison for the rare things: the frame's deadline, a VRAM DMA stall due (the
        // deadline is then now), the speed switch's end (`halt_wait` sees it).
        if self.ppu.frame_ready || now >= self.deadline {
            self.deadline_reached(now);
        }
        self.reschedule();
    }

    /// [`Hardware::deadline`] (or a frame's end) is reached: stop the run loop at the frame's
    /// deadline, stall the CPU for a VRAM DMA (not while it sleeps in HALT, nor inside a stall
    /// already running, which adds the new one to its own).
    #[cold]
    #[inline(never)]
    fn deadline_reached(&mut self, now: u64) {
        if self.ppu.frame_ready || now >= self.stop_at {
            self.stop = true;
        }
        if self.dma_stall != 0 && !self.in_halt && !self.in_stall {
            self.run_stall();
        }
    }

    /// The CPU stalls for a VRAM DMA: time runs, from event to event, for
    /// [`Hardware::dma_stall`] dots with no CPU access.
    #[cold]
    #[inline(never)]
    fn run_stall(&mut self) {
        self.in_stall = true;
        let mut end = self.now;
        loop {
            if self.dma_stall != 0 {
                // The stall, or an HBlank block that came due during it and follows at once.
                end += self.dma_stall;
                self.dma_stall = 0;
                self.update_deadline();
                self.reschedule();
            }
            if self.now >= end {
                self.in_stall = false;
                return;
            }
            // Past the frame's deadline the next event is behind: one M-cycle at a time.
            let next = self.next_event.max(self.now + self.mcycle);
            self.now = self.boundary_at_or_after(next.min(end));
            if self.now >= self.next_event {
                self.process_events();
            }
        }
    }

    /// An HBlank started (CGB mode): the HBlank DMA copies a block, unless the CPU is in HALT
    /// (the wake-up looks at the HBlank it lands in, [`Hardware::hdma_sleep`]). A request in
    /// HALT's first M-cycle still counts as made before it (the halted CPU reads the next
    /// opcode then): its block follows the wake-up's fetch (Gambatte
    /// `dma/hdma_late_m3halt_m2unhalt_scx1_2`).
    fn hblank_dma(&mut self) {
        self.ppu.hblank_started = false;
        if !self.hdma.hblank {
            return;
        }
        // Dot 255 + p at either speed (STAT's mode 0 comes a dot later at double speed).
        let late = u64::from(self.cgb.double_speed);
        let at = self.ppu.hblank_at + HDMA_REQUEST_DELAY - late;
        if at <= self.hdma.busy_until {
            // The DMA is still copying a block: the request is lost.
            return;
        }
        if !self.in_halt || at <= self.hdma.sleep_at + self.mcycle {
            self.hdma.due = Due::Block;
            self.hdma.due_at = at;
            self.reschedule();
        }
    }

    /// The CPU goes to sleep (HALT, the speed switch): note whether an HBlank DMA's HBlank
    /// runs now (Gambatte `dma/hdma_late_m0halt_*`: halted in the HBlank whose block was just
    /// copied, the CPU woken in a later HBlank gets no block; halted in mode 2, it does).
    /// `halt`: a HALT, whose first M-cycle still takes an HBlank request
    /// ([`Hardware::hblank_dma`]); the speed switch's sleep has none.
    fn hdma_sleep(&mut self, halt: bool) {
        if self.hdma.sleep == Sleep::Awake && self.hdma.hblank {
            let high = self.ppu.in_hblank_period(self.now, self.mcycle);
            self.hdma.sleep = if high { Sleep::High } else { Sleep::Low };
            self.hdma.sleep_at = if halt { self.now } else { 0 };
        }
    }

    /// [`Hardware::run_due_hdma`] with no stall (the CPU is paused anyway).
    fn run_due_hdma_hidden(&mut self) {
        let stall = self.dma_stall;
        self.in_stall = true;
        // The CPU sleeps through the block: OAM DMA stands still, the block does not meet it.
        self.in_halt = true;
        self.run_due_hdma();
        self.in_halt = false;
        self.in_stall = false;
        self.dma_stall = stall;
        self.update_deadline();
        self.reschedule();
    }

    /// A VRAM DMA copy waits for the CPU's next opcode fetch.
    fn hdma_due(&mut self, due: Due) {
        self.hdma.due = due;
        self.hdma.due_at = self.now;
        self.reschedule();
    }

    /// The CPU fetched an opcode with a VRAM DMA due: copy it now and stall the CPU for it
    /// before the instruction runs.
    #[cold]
    #[inline(never)]
    fn run_due_hdma(&mut self) {
        let due = std::mem::replace(&mut self.hdma.due, Due::Nothing);
        match due {
            Due::Nothing => {}
            // A block requested is copied even if HDMA5 stopped the transfer since.
            Due::Block => self.hdma_block(),
            Due::Woken => {
                self.hdma_block();
                self.dma_stall -= self.mcycle;
            }
            Due::General => loop {
                // Every block now; the last sets HDMA5 to 0xFF.
                self.hdma_block();
                if self.hdma.blocks == 0x7F {
                    break;
                }
            },
        }
        if self.dma_stall != 0 && !self.in_stall {
            self.run_stall();
        }
        self.reschedule();
    }

    /// Copy one 16-byte block of VRAM DMA and stall the CPU for it.
    fn hdma_block(&mut self) {
        let bank = self.ppu.vram_bank_offset();
        let src = self.hdma.src;
        let mut bytes = [0; 16];
        for byte in &mut bytes {
            *byte = self.hdma_read(self.hdma.src);
            self.ppu
                .set_vram(bank + usize::from(self.hdma.dst & 0x1FFF), *byte);
            self.hdma.src = self.hdma.src.wrapping_add(1);
            self.hdma.dst = self.hdma.dst.wrapping_add(1);
        }
        if self.dma.active && !self.in_halt {
            self.oam_dma_under_hdma(src, &bytes);
        }
        let overflow = self.hdma.dst == 0;
        self.hdma.block_done(overflow);
        self.hdma.busy_until = self.now + HDMA_BLOCK_DOTS;
        if self.dma_stall == 0 {
            self.dma_stall = HDMA_START_MCYCLES * self.mcycle;
        }
        self.dma_stall += HDMA_BLOCK_DOTS;
        self.update_deadline();
    }

    /// An OAM DMA runs while a VRAM DMA block (copied from `now` on, a byte every 2 dots)
    /// holds the bus: each of its steps in the block's time takes the VRAM DMA's byte on the
    /// bus and writes it to OAM at that byte's source address's low byte (0xFEA0-0xFEFF's RAM
    /// from 0xA0 up); its own byte is not copied (Gambatte `oamdma/oamdmasrcC000_hdmasrc0000`:
    /// OAM 0x0B reads the ROM's byte 0x0B; `dma/hdma_transition_oamdma_*`). The steps are run
    /// here, ahead of time: the CPU stalls through the block and sees none of them.
    fn oam_dma_under_hdma(&mut self, src: u16, bytes: &[u8; 16]) {
        self.dma_catch_up();
        let end = self.now + HDMA_BLOCK_DOTS;
        while self.dma.active && self.dma.next <= end && self.dma.start_at > self.dma.next {
            let t = self.dma.next;
            if self.dma.index >= 0xA0 {
                self.dma.active = false;
                self.dma.next = u64::MAX;
                break;
            }
            // The byte under way at the step: byte k is on the bus in (now + 2k, now + 2k + 2].
            let k = ((t - self.now).div_ceil(2).max(1) - 1).min(15) as usize;
            let byte = bytes[k];
            let p = src.wrapping_add(k as u16) & 0xFF;
            if p < 0xA0 {
                self.ppu.set_oam(usize::from(p), byte);
            } else if self.model == Model::Cgb {
                self.extra_oam[extra_oam_index(0xFE00 | p, self.revision)] = byte;
            }
            self.dma.last_byte = byte;
            self.dma.index += 1;
            self.dma.next = t + self.mcycle;
        }
    }

    /// What VRAM DMA reads at `addr`: ROM, cartridge RAM and work RAM; from 0xE000 up the
    /// cartridge bus ([`Cartridge::read_high`]: 0xFF, or on gbc-hw-tests' cartridge its RAM at
    /// `addr - 0x4000`: `hdma_valid_sources`, 0xE000, 0xFE00, 0xFFE0 copy 0xA000, 0xBE00,
    /// 0xBFE0); VRAM is no source (what the bus held; 0xFF here).
    fn hdma_read(&self, addr: u16) -> u8 {
        match addr {
            0x0000..=0x7FFF => self.rom_read(addr),
            0xA000..=0xBFFF => self.cart.read_ram(addr, self.now),
            0xC000..=0xDFFF => self.wram[self.wram_index(addr)],
            0xE000..=0xFFFF => self.cart.read_high(addr, self.now),
            _ => 0xFF,
        }
    }

    /// A write to HDMA1-HDMA5 (CGB mode).
    fn write_hdma(&mut self, addr: u16, v: u8) {
        let running = self.hdma.hblank;
        match self.hdma.write(addr, v) {
            Start::Nothing => {
                // A stop before the HBlank's request cancels that block (Gambatte
                // `dma/hdma_late_disable_scx3_*`: a stop at dot 256 with the request at 258
                // gets no block, one at 260 does; `_ds_*`: 254 against 255, 256).
                let stopped = running && !self.hdma.hblank;
                if stopped && self.hdma.due == Due::Block && self.now < self.hdma.due_at {
                    self.hdma.due = Due::Nothing;
                }
            }
            Start::General => self.hdma_due(Due::General),
            Start::HBlank => {
                // In an HBlank by the sample of HALT (Gambatte `dma/hdma_late_enable_*`: a
                // write at dot 452 gets a block, one at 453 not; at double speed 454, 455).
                if !self.ppu.lcd_is_on() || self.ppu.in_hblank_period(self.now, self.mcycle) {
                    self.hdma_due(Due::Block);
                }
            }
        }
    }

    /// The DMG OAM corruption bug: an access (or IDU address) in 0xFE00-0xFEFF while the PPU
    /// scans OAM corrupts the row it is reading.
    #[cold]
    fn oam_bug(&mut self, kind: OamBug) {
        if self.dma.active || self.model == Model::Cgb {
            return;
        }
        let Some(row) = self.ppu.oam_scan_row(self.now) else {
            return;
        };
        match kind {
            OamBug::Read => self.ppu.oam_bug_read(row),
            OamBug::Write => self.ppu.oam_bug_write(row),
            OamBug::ReadIdu => self.ppu.oam_bug_read_idu(row),
        }
    }

    /// The CPU is about to run the instruction at `pc`: true (and the run loop stops) if an
    /// instruction watchpoint is there.
    pub(crate) fn exec_hit(&mut self, pc: u16) -> bool {
        self.dma_catch_up();
        if self.watch.on_exec(pc, self.read_byte(pc), self.bank_of(pc)) {
            self.stop = true;
            return true;
        }
        false
    }

    /// The watchpoints changed: the read fast path is on only without read watchpoints.
    pub(crate) fn watch_changed(&mut self) {
        self.update_banks();
    }

    /// Map a boot ROM (0x100 bytes, or a CGB's 0x900) over 0x0000-0x00FF (and 0x0200-0x08FF)
    /// until 0xFF50 is written.
    pub fn map_boot_rom(&mut self, image: &[u8]) {
        self.boot_rom = Some(image.into());
        self.update_banks();
    }

    /// The boot ROM image while it is mapped (BANK, 0xFF50, not written yet).
    pub(crate) fn boot_rom(&self) -> Option<&[u8]> {
        self.boot_rom.as_deref()
    }

    /// Set DMA (0xFF46) as it reads, without starting a transfer (a save state load).
    pub(crate) fn set_dma_register(&mut self, v: u8) {
        self.dma.reg = v;
    }

    /// After a save state load has set the parts one by one (BESS, [`crate::bess`]): the frame
    /// sequencer's next step follows the new system counter, and the scheduler is recomputed.
    pub(crate) fn resync(&mut self) {
        self.apu_fs_next = self.next_fs_edge();
        self.reschedule();
    }

    /// Raise [`Hardware::stop`] at `at` at the latest (a frame's deadline).
    pub fn set_stop_at(&mut self, at: u64) {
        self.stop_at = at;
        self.update_deadline();
        if self.now >= at {
            self.stop = true;
        }
        self.reschedule();
    }

    /// Lower [`Hardware::stop`] and forget the deadline.
    pub fn clear_stop(&mut self) {
        self.stop = false;
        self.stop_at = u64::MAX;
        self.update_deadline();
        self.reschedule();
    }

    /// OAM DMA timeline for a write at M-cycle 0: M1 setup (OAM still reachable, a previous
    /// transfer keeps running), M2 first byte copied and OAM blocked, M161 last byte, M162 OAM
    /// reachable again (Mooneye `oam_dma_start`, `oam_dma_timing`).
    #[inline]
    fn run_dma(&mut self, now: u64) {
        while self.dma.next_event() <= now {
            let at = self.dma.next_event();
            if self.dma.start_at == at {
                self.dma.source = self.dma.pending_source;
                let cgb = self.model == Model::Cgb;
                self.dma.source_bus = bus_of(dma_source(self.dma.source, cgb), cgb);
                self.dma.start_at = u64::MAX;
                self.dma.index = 0;
                // The OAM scan loses OAM from the DMA's first byte and reads it again in the
                // M-cycle after its last (the CPU an M-cycle later); a restart keeps it.
                let from = if self.dma.active {
                    self.ppu.oam_dma_busy.0
                } else {
                    self.ppu.oam_before_dma = self.ppu.oam;
                    at
                };
                self.ppu.oam_dma_busy = (from, at + 0xA0 * self.mcycle);
                self.dma.active = true;
                self.dma.next = at;
            }
            if self.dma.next == at {
                let i = self.dma.index;
                if i < 0xA0 {
                    let byte = self.dma_read(self.dma.source.wrapping_add(u16::from(i)), at);
                    self.dma.last_byte = byte;
                    self.ppu.set_oam(usize::from(i), byte);
                    self.dma.index += 1;
                    self.dma.next = at + self.mcycle;
                } else {
                    self.dma.active = false;
                    self.dma.next = u64::MAX;
                }
            }
        }
    }

    /// A CPU write to the bus OAM DMA is reading: it does not reach its address, but its data
    /// meets the byte the DMA moves in this M-cycle (the one copied last, at or before now), and
    /// what OAM takes depends on who drives the bus. The DMG: from work RAM the two drivers fight
    /// and 0 wins (the byte ANDed with the data), from the cartridge or VRAM the CPU's data
    /// alone. The CGB: the CPU's data, except from VRAM, where OAM takes 0 (Gambatte's
    /// `oamdma_src*_busypush*` tests, DMG-CPU B and CGB C).
    #[cold]
    #[inline(never)]
    fn dma_conflict_write(&mut self, v: u8) {
        let Some(i) = self.dma.index.checked_sub(1) else {
            return;
        };
        let cgb = self.model == Model::Cgb;
        let source = dma_source(self.dma.source, cgb);
        let byte = match (cgb, self.dma.source_bus) {
            (false, _) if source >= 0xC000 => self.dma.last_byte & v,
            (true, 1) => 0,
            (true, 3) => return,
            _ => v,
        };
        self.dma.last_byte = byte;
        self.ppu.set_oam(usize::from(i), byte);
    }

    /// A CPU read of VRAM while OAM DMA reads VRAM, on the CGB: the CPU gets the byte the DMA
    /// moves, and OAM takes 0 in its place (Gambatte's `oamdma_src8000_busypop*` CGB C results:
    /// the byte copied in the M-cycle of the pop reads back 0).
    #[cold]
    #[inline(never)]
    fn dma_conflict_read_vram(&mut self) -> u8 {
        let v = self.dma.last_byte;
        if let Some(i) = self.dma.index.checked_sub(1) {
            self.dma.last_byte = 0;
            self.ppu.set_oam(usize::from(i), 0);
        }
        v
    }

    /// Copy the OAM DMA bytes due by now: before a CPU write while a transfer runs (a bank
    /// switch changes what it reads next), and whenever the run loop stops.
    #[inline]
    pub(crate) fn dma_catch_up(&mut self) {
        if self.dma.active {
            self.run_dma(self.now);
        }
    }

    /// The cartridge's ROM at `addr` (0x0000-0x7FFF) as the bus sees it: through the Game
    /// Genie, which sits between the cartridge and the bus.
    #[inline]
    fn rom_read(&self, addr: u16) -> u8 {
        let v = self.cart.read_rom(addr);
        if self.rom_cheats.is_empty() {
            return v;
        }
        self.rom_cheats
            .iter()
            .find(|c| c.addr == addr && c.compare.is_none_or(|cmp| cmp == v))
            .map_or(v, |c| c.value)
    }

    /// What OAM DMA reads at `addr` at time `at`: the bus without the PPU's access blocking.
    fn dma_read(&self, addr: u16, at: u64) -> u8 {
        match dma_source(addr, self.model == Model::Cgb) {
            0x0000..=0x7FFF => self.rom_read(addr),
            0x8000..=0x9FFF => {
                self.ppu.vram[self.ppu.vram_bank_offset() + usize::from(addr & 0x1FFF)]
            }
            0xA000..=0xBFFF if addr >= 0xE000 => self.cart.read_high(addr, at),
            0xA000..=0xBFFF => self.cart.read_ram(addr, at),
            _ => self.wram[self.wram_index(addr)],
        }
    }

    /// Read `addr` as the CPU sees it now, without advancing time or side effects.
    #[inline]
    pub fn read_byte(&self, addr: u16) -> u8 {
        if self.dma.active && self.dma_conflict(addr) {
            return self.dma.last_byte;
        }
        match addr {
            0x0000..=0x7FFF => {
                if let Some(boot) = &self.boot_rom
                    && (addr < 0x0100 || (addr >= 0x0200 && usize::from(addr) < boot.len()))
                {
                    return boot[usize::from(addr)];
                }
                self.rom_read(addr)
            }
            0x8000..=0x9FFF => {
                if self.ppu.vram_readable(self.now) {
                    self.ppu.vram[self.ppu.vram_bank_offset() + usize::from(addr & 0x1FFF)]
                } else {
                    0xFF
                }
            }
            0xA000..=0xBFFF => self.cart.read_ram(addr, self.now),
            0xC000..=0xFDFF => self.wram[self.wram_index(self.wram_address(addr))],
            0xFE00..=0xFEFF => {
                if self.dma.active || !self.ppu.oam_readable(self.now) {
                    0xFF
                } else if addr < 0xFEA0 {
                    self.ppu.oam[usize::from(addr & 0xFF)]
                } else if self.model == Model::Cgb {
                    self.extra_oam[extra_oam_index(addr, self.revision)]
                } else {
                    0x00
                }
            }
            0xFF80..=0xFFFE => self.hram[usize::from(addr & 0x7F)],
            0xFFFF => self.ie,
            _ => self.read_io(addr),
        }
    }

    /// Read an I/O register (0xFF00-0xFF7F) as the CPU sees it now, whatever OAM DMA does.
    pub(crate) fn read_io(&self, addr: u16) -> u8 {
        match addr {
            0xFF00 => self.joypad.read(),
            0xFF01 => self.serial.read_sb(),
            0xFF02 => self.serial.read_sc(),
            0xFF04 => self.timer.read_div(self.now),
            0xFF05 => self.timer.read_tima(),
            0xFF06 => self.timer.read_tma(),
            0xFF07 => self.timer.read_tac(),
            0xFF0F => 0xE0 | self.if_,
            0xFF10..=0xFF3F => self.apu.read(addr, self.now),
            0xFF46 => self.dma.reg,
            0xFF40..=0xFF4B => self.ppu.read_register_at(addr, self.now),
            0xFF4C..=0xFF7F if self.model == Model::Cgb => self.read_cgb_io(addr),
            _ => 0xFF,
        }
    }

    /// Read the CGB's registers at 0xFF4C-0xFF7F.
    #[cold]
    fn read_cgb_io(&self, addr: u16) -> u8 {
        if let Some(v) = self.ppu.read_cgb_register(addr, self.now) {
            return v;
        }
        if let Some(v) = self.cgb.read(addr, self.cgb_mode) {
            return v;
        }
        match addr {
            0xFF51..=0xFF55 if self.cgb_mode => self.hdma.read(addr),
            0xFF76 | 0xFF77 => {
                // The CPU's reads bring the generators up to now first (`read_now`).
                let ahead = if self.cgb.double_speed { 2 } else { 4 };
                let out = self.apu.pcm_outputs(ahead, self.revision == CgbRevision::C);
                let (lo, hi) = if addr == 0xFF76 { (0, 1) } else { (2, 3) };
                out[lo] | (out[hi] << 4)
            }
            _ => 0xFF,
        }
    }

    /// Write `addr` as the CPU does now (time does not advance).
    #[inline]
    pub fn write_byte(&mut self, addr: u16, v: u8) {
        self.dma_catch_up();
        if self.dma.active && self.dma_conflict(addr) {
            self.dma_conflict_write(v);
            return;
        }
        match addr {
            0x0000..=0x7FFF => self.cart.write_rom(addr, v, self.now),
            0x8000..=0x9FFF => {
                if self.ppu.vram_writable(self.now) {
                    let i = self.ppu.vram_bank_offset() + usize::from(addr & 0x1FFF);
                    self.ppu.set_vram(i, v);
                }
            }
            0xA000..=0xBFFF => self.cart.write_ram(addr, v, self.now),
            0xC000..=0xFDFF => {
                let i = if self.plain_reads {
                    // Bank 1 at 0xD000 and no DMA: the index is the offset.
                    usize::from(addr & 0x1FFF)
                } else {
                    self.wram_index(self.wram_address(addr))
                };
                self.wram[i] = v;
            }
            0xFE00..=0xFE9F => {
                if !self.dma.active && self.ppu.oam_writable() {
                    self.ppu.set_oam(usize::from(addr & 0xFF), v);
                }
            }
            0xFEA0..=0xFEFF => {
                if self.model == Model::Cgb && !self.dma.active && self.ppu.oam_writable() {
                    self.extra_oam[extra_oam_index(addr, self.revision)] = v;
                }
            }
            0xFF80..=0xFFFE => self.hram[usize::from(addr & 0x7F)] = v,
            0xFFFF => self.ie = v,
            0xFF40 => {
                let was_on = self.ppu.lcd_is_on();
                self.write_io(addr, v);
                match (was_on, self.ppu.lcd_is_on()) {
                    (true, false) => self.frame_clock.lcd_off(self.now),
                    (false, true) => self.frame_clock.lcd_on(self.now),
                    _ => {}
                }
                self.reschedule();
            }
            _ => {
                self.write_io(addr, v);
                self.reschedule();
            }
        }
    }

    #[inline(never)]
    fn write_io(&mut self, addr: u16, v: u8) {
        let now = self.now;
        match addr {
            0xFF00 => {
                self.joypad.write(v, now, FILTER_MCYCLES * self.mcycle);
                self.reschedule();
            }
            0xFF01 => self.serial.write_sb(v, now),
            0xFF02 => {
                let counter = self.timer.counter(now);
                self.serial.write_sc(v, now, counter);
                if self.serial.port().is_some_and(|p| p.stop) {
                    self.stop = true;
                }
            }
            0xFF04 => {
                self.counter_reset(now);
                self.run_timer_now();
            }
            0xFF05 => self.timer.write_tima(now, v),
            0xFF06 => self.timer.write_tma(now, v),
            0xFF07 => {
                self.timer.write_tac(now, v);
                self.run_timer_now();
            }
            0xFF0F => {
                // An HBlank request a dot after the write's M-cycle is overwritten too.
                self.hblank_request_a_dot_on(now);
                self.if_ = v & 0x1F;
            }
            0xFF26 => {
                let fs_bit = 0x1000 << (self.timer.rate() - 1);
                let high = self.timer.counter(now).wrapping_add(4) & fs_bit != 0;
                let was_on = self.apu.powered();
                self.apu.write_nr52_at(v, now, high);
                if self.apu.powered() != was_on {
                    // Power-on realigns the APU's clock with the CPU (`Apu::fs_late`).
                    self.apu_fs_next = self.next_fs_edge();
                }
            }
            0xFF10..=0xFF3F => {
                let clock = WriteClock {
                    lag: self.apu.clock_lag(now),
                    fs_next: self.apu_fs_next,
                    mcycle: self.mcycle,
                };
                self.apu.write_at(addr, v, now, clock);
            }
            0xFF46 => {
                self.dma.reg = v;
                self.dma.pending_source = u16::from(v) << 8;
                self.dma.start_at = now + 2 * self.mcycle;
                // A running transfer takes the new page at once: its byte in the setup M-cycle
                // comes from there, and the CPU meets the DMA on the new page's bus (Gambatte's
                // `oamdma_src8000_srcchange0000_busyinc`; SameBoy's source register too).
                if self.dma.active {
                    self.dma.source = self.dma.pending_source;
                    let cgb = self.model == Model::Cgb;
                    self.dma.source_bus = bus_of(dma_source(self.dma.source, cgb), cgb);
                }
            }
            0xFF40 if self.hdma.hblank && self.cgb_mode => {
                // Switching the LCD off outside HBlank drops the PPU into mode 0: an HBlank
                // DMA sees an HBlank start and copies a block (gbc-hw-tests `hdma_start_3`).
                let outside_hblank = self.ppu.lcd_is_on() && self.ppu.mode() != 0;
                self.if_ |= self.ppu.write_register(addr, v, now);
                if outside_hblank && !self.ppu.lcd_is_on() {
                    self.hdma_due(Due::Block);
                }
            }
            0xFF45 => {
                // An LYC write lowering the LY=LYC source lands after an HBlank source rising a
                // dot after its M-cycle: the line stays up, no edge.
                self.hblank_request_a_dot_on(now);
                self.if_ |= self.ppu.write_register(addr, v, now);
            }
            0xFF40..=0xFF4B => self.if_ |= self.ppu.write_register(addr, v, now),
            0xFF50 if v & 1 != 0 && self.boot_rom.is_some() => {
                self.boot_rom = None;
                self.update_banks();
                if self.model == Model::Cgb {
                    // BANK locks KEY0: bit 2 is DMG compatibility mode (Pan Docs "KEY0").
                    self.set_cgb_mode(self.cgb.key0 & 0x04 == 0);
                }
            }
            0xFF4C..=0xFF7F if self.model == Model::Cgb => self.write_cgb_io(addr, v),
            _ => {}
        }
    }

    /// Write the CGB's registers at 0xFF4C-0xFF7F.
    #[cold]
    fn write_cgb_io(&mut self, addr: u16, v: u8) {
        let boot = self.boot_rom.is_some();
        if self.ppu.write_cgb_register(addr, v, boot, self.now) {
            return;
        }
        if (0xFF51..=0xFF55).contains(&addr) {
            if self.cgb_mode {
                self.write_hdma(addr, v);
            }
        } else if self.cgb.write(addr, v, self.cgb_mode, boot) {
            self.update_banks();
        }
    }

    /// The first frame sequencer step after now: a falling edge of system counter bit 12 (13
    /// at double speed), [`Hardware::fs_lag`] later.
    fn next_fs_edge(&self) -> u64 {
        let rate = u64::from(self.timer.rate());
        let period = FS_PERIOD * rate;
        let lag = self.fs_lag();
        let phase = u64::from(self.timer.counter(self.now.saturating_sub(lag))) % period;
        self.now + (period - phase).div_ceil(rate)
    }

    /// Dots from a falling edge of the frame sequencer's counter bit to the step the CPU sees:
    /// 1 at double speed when the APU's clock is on the other half of the CPU's M-cycle
    /// ([`Apu::fs_late`]), else 0.
    fn fs_lag(&self) -> u64 {
        u64::from(self.cgb.double_speed && self.apu.fs_late())
    }

    /// The system counter is reset (DIV write, STOP): the timer, serial clock and frame
    /// sequencer see it; bit 12 (13 at double speed) falling clocks the frame sequencer once
    /// more.
    fn counter_reset(&mut self, now: u64) {
        let fs_bit = 0x1000 << (self.timer.rate() - 1);
        let counter = self.timer.counter(now);
        if counter & fs_bit != 0 {
            self.apu.frame_sequencer(now);
        }
        self.timer.write_div(now);
        self.serial.counter_reset(now, counter);
        self.apu_fs_next = now + FS_PERIOD + self.fs_lag();
    }

    /// Run timer events a register write made due in the current M-cycle.
    fn run_timer_now(&mut self) {
        if self.timer.next_event() <= self.now && self.timer.run_events(self.now) {
            self.if_ |= irq::TIMER;
        }
    }

    /// A CPU read in the M-cycle that just ended. Fast paths for the common cases (opcode
    /// fetches from ROM, work RAM, the stack); everything else, including DMA conflicts, the boot
    /// ROM overlay and the OAM corruption (of kind `oam_bug`), goes through `read_byte`.
    #[inline(always)]
    fn read_now(&mut self, addr: u16, oam_bug: OamBug) -> u8 {
        if self.plain_reads {
            if addr < 0x8000 {
                return self.cart.read_rom(addr);
            }
            if (0xC000..0xE000).contains(&addr) {
                // Bank 1 is mapped at 0xD000 (`plain_reads`): the index is the offset.
                return self.wram[usize::from(addr & 0x1FFF)];
            }
            if (0xFF80..0xFFFF).contains(&addr) {
                return self.hram[usize::from(addr & 0x7F)];
            }
        } else if (0xFF80..0xFFFF).contains(&addr) && !self.watch.any_read {
            // HRAM while the fast path is off for something that cannot reach it: an OAM DMA
            // (games wait for one running from HRAM), the boot ROM, a work RAM bank.
            return self.hram[usize::from(addr & 0x7F)];
        }
        self.ppu_catch_up();
        if self.dma.active && self.dma_conflict(addr) {
            // The DMA's bus shows the byte it moves now; nothing else a read sees depends on
            // how far the transfer is (OAM reads 0xFF while it runs).
            self.run_dma(self.now);
            if self.dma.active && self.dma.source_bus == 1 && self.model == Model::Cgb {
                let v = self.dma_conflict_read_vram();
                if self.watch.any_read && self.watch.on_read(addr, v, self.bank_of(addr)) {
                    self.stop = true;
                }
                return v;
            }
        }
        if addr & 0xFF00 == 0xFE00 {
            self.oam_bug(oam_bug);
        }
        if addr == 0xFF00 {
            // The game polled the joypad: frames without a poll are "lag frames" to TASers.
            self.p1_reads = self.p1_reads.wrapping_add(1);
        } else if addr | 1 == 0xFF77 && self.model == Model::Cgb {
            // PCM12/PCM34 show the channels' outputs now.
            self.apu.catch_up(self.now);
        }
        let v = self.read_byte(addr);
        // Read watchpoints turn the fast path above off, so they cost nothing when unused.
        if self.watch.any_read && self.watch.on_read(addr, v, self.bank_of(addr)) {
            self.stop = true;
        }
        v
    }

    /// Change the buttons held, requesting the joypad interrupt when a line falls.
    pub fn set_buttons(&mut self, buttons: Buttons) {
        self.joypad
            .set_buttons(buttons, self.now, FILTER_MCYCLES * self.mcycle);
        self.reschedule();
    }
}

impl Bus for Hardware {
    #[inline(always)]
    fn fetch(&mut self, addr: u16) -> u8 {
        self.tick();
        // A VRAM DMA due turns the fast path off (`reschedule`), so the usual fetch pays
        // nothing for it.
        debug_assert!(!self.plain_reads || self.hdma.due == Due::Nothing);
        if self.plain_reads {
            return self.read_now(addr, OamBug::Read);
        }
        let v = self.read_now(addr, OamBug::Read);
        if self.hdma.due != Due::Nothing && self.now >= self.hdma.due_at {
            self.run_due_hdma();
        }
        v
    }

    #[inline(always)]
    fn read(&mut self, addr: u16) -> u8 {
        self.tick();
        self.read_now(addr, OamBug::Read)
    }

    fn idle_idu(&mut self, addr: u16) {
        self.tick();
        if addr & 0xFF00 == 0xFE00 {
            self.ppu_catch_up();
            self.oam_bug(OamBug::Write);
        }
    }

    #[inline(always)]
    fn read_idu(&mut self, addr: u16) -> u8 {
        self.tick();
        self.read_now(addr, OamBug::ReadIdu)
    }

    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8) {
        self.tick();
        if (0xFF80..0xFFFF).contains(&addr) {
            // HRAM: never behind an OAM DMA's bus, nothing else to do.
            self.hram[usize::from(addr & 0x7F)] = value;
        } else if self.plain_reads && (0xC000..0xE000).contains(&addr) {
            // Work RAM with bank 1 at 0xD000 and no DMA, as `write_byte` does it.
            self.wram[usize::from(addr & 0x1FFF)] = value;
        } else {
            self.ppu_catch_up();
            if addr & 0xFF00 == 0xFE00 {
                self.oam_bug(OamBug::Write);
            }
            self.write_byte(addr, value);
        }
        if self.watch.any_write && self.watch.on_write(addr, value, self.bank_of(addr)) {
            self.stop = true;
        }
    }

    #[inline(always)]
    fn idle(&mut self) {
        self.tick();
    }

    /// Jump to the first M-cycle boundary at or after the next event: nothing the CPU can see
    /// changes before it, so this wakes a halted CPU on exactly the cycle that ticking one
    /// M-cycle at a time would. Inside a frame run (a deadline is set) it keeps going from event
    /// to event until an interrupt is pending or the run must stop.
    fn idle_until_event(&mut self) {
        loop {
            if self.next_event == u64::MAX || self.next_event <= self.now + 4 {
                self.tick();
            } else {
                // `now` moves in whole M-cycles.
                self.now = self.boundary_at_or_after(self.next_event);
                self.run_events();
            }
            if self.stop_at == u64::MAX || self.stop || self.pending_interrupts() != 0 {
                return;
            }
        }
    }

    /// HALT waits for `IE & IF` at phase C of an M-cycle (2 dots in; GateBoy's `halt_latch`),
    /// while a dispatch looks at IF late in the fetch: requests the PPU and the serial port make
    /// by the next M-cycle's phase C wake the CPU for it, the timer's only if made by the end of
    /// this one. While the CPU sleeps nothing it can see changes between events, so whole
    /// M-cycles without events are skipped.
    fn halt_wait(&mut self) -> bool {
        self.hdma_sleep(true);
        self.in_halt = true;
        let frozen = self.freeze_dma();
        let wake = self.halt_wait_inner();
        if let Some(frozen) = frozen {
            self.thaw_dma(frozen, wake);
        }
        self.in_halt = false;
        if wake {
            // HBlank DMA resumes with the CPU: waking in an HBlank that HALT did not begin in
            // copies its block, before the wake-up's opcode fetch, the CPU stalled from it
            // (Gambatte `dma/hdma_transition_halt_hdmadst_unhalt`: the fetch reads the
            // block's first byte). A block requested before HALT and still due follows the
            // wake-up's fetch instead, whatever the mode then (`hdma_late_m3halt_m2unhalt_*`).
            let slept = std::mem::replace(&mut self.hdma.sleep, Sleep::Awake);
            // Read only while asleep (and then only with an HBlank DMA running).
            self.hdma.sleep_at = 0;
            let requested = self.hdma.due == Due::Block;
            if requested {
                self.hdma.due = Due::Woken;
            }
            if slept == Sleep::Low
                && !requested
                && self.hdma.hblank
                && self.ppu.in_hblank_period(self.now, self.mcycle)
            {
                self.hdma_block();
                self.reschedule();
            }
        }
        wake
    }

    /// A block requested before HALT and not copied yet: without a dispatch, the wake-up's
    /// fetch repeats the byte after HALT and the block's stall is an M-cycle shorter
    /// (Gambatte's model: the byte read in HALT's first M-cycle runs, then is fetched again;
    /// `dma/hdma_late_m3halt_m2unhalt_inc_*`: an `INC A` there runs twice,
    /// `hdma_late_m3halt_m2unhalt_ly_*`: LY read after it as without the repeat). A dispatch
    /// takes the full stall (`hdma_late_ei_m3halt_m2unhalt_ly_*`).
    ///
    /// The byte that runs is the one HALT's first M-cycle read, not what the wake-up's fetch
    /// reads: that M-cycle ends at or after the HBlank DMA's request, so in mode 0, with VRAM
    /// open, and nothing has written memory since (the CPU asleep, the block not copied): VRAM
    /// as it is, even if the PPU blocks it now (Gambatte `dma/hdma_transition_7fffhalt_inc_m3unhalt`:
    /// HALT at 0x7FFF, woken in mode 3, runs the `INC A` at 0x8000 once, then reads 0xFF).
    fn wake_refetches(&mut self, dispatch: bool, pc: u16) -> Option<u8> {
        if self.hdma.due != Due::Woken {
            return None;
        }
        if dispatch {
            self.hdma.due = Due::Block;
            return None;
        }
        Some(match pc {
            0x8000..=0x9FFF => {
                self.ppu.vram[self.ppu.vram_bank_offset() + usize::from(pc & 0x1FFF)]
            }
            _ => self.read_byte(pc),
        })
    }

    #[inline(always)]
    fn pending_interrupts(&self) -> u8 {
        self.ie & self.if_ & 0x1F
    }

    fn acknowledge_interrupt(&mut self, bit: u8) {
        self.if_ &= !(1 << bit);
    }

    /// A PPU request (mode 0's) made by the end of the dispatch's last M-cycle still takes
    /// part in the vector's choice (Gambatte's
    /// `irq_precedence/late_m0irq_vs_tima_scx2_1`, `scx3_1`). The next M-cycle pushes PC low
    /// to the stack, not to a PPU register (SP in I/O space excepted).
    fn vector_sees_ppu(&mut self, next_push: u16) {
        if (0xFF00..0xFF80).contains(&next_push) {
            return;
        }
        self.ppu_requests_by(self.now + self.mcycle);
    }

    fn halt_begins(&mut self) {
        self.run_dma_in_halt_entry();
    }

    fn halt_sees_ppu(&mut self) {
        if self.model == Model::Dmg {
            self.halt_wake_from = self.now + 2 * self.mcycle;
        }
        // An HBlank DMA's request is timed against the sleep, which has not begun.
        if self.hdma.hblank {
            return;
        }
        self.ppu_requests_by(self.now + self.mcycle);
    }

    /// The acknowledge holds IF's bit clear past the dispatch (Gambatte's `late_retrigger`
    /// tests, `docs/timing.md`): a PPU request (VBlank, STAT) made by half an M-cycle after its
    /// last M-cycle, on the CGB a timer request made by the end of the M-cycle after it, and a
    /// serial request made by half an M-cycle after it (the CGB: the whole M-cycle after it;
    /// Gambatte's `serial/start_wait_trigger_int8_read_if_*`) is dropped. The next M-cycle is
    /// the handler's opcode fetch, which reads no register: running the PPU's, the timer's or
    /// the serial port's events that early changes nothing else.
    fn acknowledge_held(&mut self, bit: u8) {
        let now = self.now;
        let cgb = self.model == Model::Cgb;
        match bit {
            0 | 1 => self.ppu_requests_by(now + self.mcycle / 2),
            2 if cgb => {
                let until = now + self.mcycle;
                if self.timer.next_event() <= until && self.timer.run_events(until) {
                    self.if_ |= irq::TIMER;
                    self.reschedule();
                }
            }
            3 => {
                let until = now + if cgb { self.mcycle } else { self.mcycle / 2 };
                if self.serial.next_event() <= until && self.serial.run_events(until) {
                    self.if_ |= irq::SERIAL;
                    self.reschedule();
                }
            }
            _ => return,
        }
        self.if_ &= !(1 << bit);
    }

    fn stop(&mut self) {
        let now = self.now;
        self.counter_reset(now);
        self.reschedule();
    }

    fn joypad_wake(&self) -> bool {
        self.joypad.any_line_low()
    }

    fn speed_switch_armed(&self) -> bool {
        self.cgb_mode && self.cgb.key1_armed
    }

    fn settle(&mut self) {
        self.catch_up();
    }

    /// The CGB's speed switch (Pan Docs "FF4D — KEY1", "Using the STOP Instruction"): DIV is
    /// reset, then the CPU, the timer, the serial clock and OAM DMA run at the other speed
    /// (the PPU, the APU and HDMA keep their pace in dots). Without an interrupt pending the
    /// CPU then sits in HALT for `SPEED_SWITCH_TICKS` (0x20000) counter ticks unless an interrupt
    /// wakes it earlier (`docs/timing.md`).
    fn switch_speed(&mut self, halt: bool, operand: u16) -> Option<u8> {
        // The bytes copied and the PPU's edges so far keep the old speed's spacing.
        self.catch_up();
        if halt {
            // STOP's second M-cycle still copies OAM DMA's byte, as HALT's first M-cycle
            // (`halt_begins`), but the transfer's next byte then waits an M-cycle (Gambatte's
            // `oamdma/oamdma_late_speedchange_stat_*`: a last byte due then releases OAM for
            // the OAM scan in the switch; `oamdmasrcC0_speedchange_readC000`: the bytes after
            // the switch keep their times).
            self.run_dma_in_halt_entry();
            let frozen = self.freeze_dma();
            self.tick();
            if let Some(frozen) = frozen {
                self.thaw_dma(frozen, false);
            }
            self.catch_up();
        }
        if halt && self.hdma.due == Due::Block && self.hdma.due_at > self.now {
            // Requested after STOP's second M-cycle (in the clock's hold): the CPU is asleep
            // for it, the request is lost (Gambatte `dma/hdma_late_m3speedchange_*_scx2_1`,
            // `_scx2_ds_1`).
            self.hdma.due = Due::Nothing;
        }
        let hidden = halt && self.hdma.due != Due::Nothing;
        let mut refetch = false;
        // STOP's operand as its second M-cycle reads it, before the block lands.
        let operand_byte = self.read_byte(operand);
        if hidden {
            // A VRAM DMA still waiting for an opcode fetch is copied as the switch begins,
            // its stall hidden in the switch's pause but for one M-cycle after it (Gambatte
            // `dma/hdma_late_m3speedchange_ly_*`: LY read after the switch). An HBlank block
            // copied so, going to double speed, ends the HBlank DMA with HDMA5 as it was but
            // bit 7 set (`hdma_transition_speedchange_hdmalen*`, `hdma_late_m3speedchange_hdma5_*`).
            refetch = self.hdma.due == Due::Block;
            let ends = refetch && !self.cgb.double_speed;
            let blocks = self.hdma.blocks;
            self.run_due_hdma_hidden();
            if ends {
                self.hdma.blocks = blocks;
                self.hdma.hblank = false;
            }
        }
        let now = self.now;
        let fs_bit = 0x1000 << (self.timer.rate() - 1);
        let counter = self.timer.counter(now);
        if counter & fs_bit != 0 {
            self.apu.frame_sequencer(now);
        }
        let serial_edges = self.serial.edges_after_reset(now, counter);
        self.timer.speed_switch_reset(now);
        let double = !self.cgb.double_speed;
        self.cgb.key1_armed = false;
        if double {
            self.apu.switched_to_double_speed();
        }
        self.set_speed(double);
        if !double {
            self.ppu.delay(SPEED_SWITCH_PPU_DELAY);
            self.apu.delay(now, SPEED_SWITCH_PPU_DELAY);
        }
        // The CPU's clock and the system counter stand while the clock switches.
        let hold = if double {
            SPEED_SWITCH_HOLD_TO_DOUBLE
        } else {
            SPEED_SWITCH_HOLD_TO_NORMAL
        };
        let start = now + hold;
        self.timer.hold_reset_until(start);
        self.serial.restart_after_reset(start, serial_edges);
        self.apu_fs_next = start + FS_PERIOD + self.fs_lag();
        self.reschedule();
        let frozen = self.freeze_dma();
        // An HBlank in the hold finds the CPU asleep, as in the HALT after it.
        if halt {
            self.hdma_sleep(false);
        }
        self.in_halt = halt;
        self.now = start;
        if self.now >= self.next_event {
            self.run_events();
        }
        self.in_halt = false;
        if let Some(frozen) = frozen {
            self.thaw_dma(frozen, false);
        }
        let rate: u64 = if double { 2 } else { 1 };
        if halt {
            self.set_speed_switch_end(start + SPEED_SWITCH_TICKS / rate);
        }
        if hidden && !refetch {
            self.dma_stall += HDMA_START_MCYCLES * self.mcycle;
            self.update_deadline();
        }
        self.reschedule();
        refetch.then_some(operand_byte)
    }
}

/// An OAM DMA paused while the CPU halts: when the pause began and the transfer's times.
#[derive(Clone, Copy)]
struct FrozenDma {
    since: u64,
    next: u64,
    start_at: u64,
}

impl Hardware {
    /// OAM DMA does not advance while the CPU is in HALT (the speed switch's pause included):
    /// its next byte and any pending start wait for the wake-up (SameBoy; gbc-hw-tests
    /// `dma_copy_during_halt_speed`: a CPU woken from HALT reads the byte after the ones it
    /// saw before halting, on the DMG and the CGB). `None` when no transfer runs or waits, or
    /// when its bytes are all copied: it then releases OAM at its time, the CPU asleep or not.
    fn freeze_dma(&mut self) -> Option<FrozenDma> {
        self.dma_catch_up();
        // A transfer whose bytes are all copied releases OAM at its time, asleep or not.
        if self.dma.next_event() == u64::MAX
            || (self.dma.index >= 0xA0 && self.dma.start_at == u64::MAX)
        {
            return None;
        }
        let frozen = FrozenDma {
            since: self.now,
            next: self.dma.next,
            start_at: self.dma.start_at,
        };
        self.dma.next = u64::MAX;
        self.dma.start_at = u64::MAX;
        self.reschedule();
        Some(frozen)
    }

    /// Resume a transfer [`Hardware::freeze_dma`] paused, its times moved by the pause. When
    /// the CPU wakes, the M-cycle that ends now is its opcode fetch: the pause ends an M-cycle
    /// earlier (the byte HALT's first M-cycle copied, [`Hardware::run_dma_in_halt_entry`], was
    /// this M-cycle's, so the next follows the fetch) (when this call slept no longer than that, because
    /// an earlier call for the same HALT returned at a frame's end, the pause is negative:
    /// the byte is caught up now). Splitting a HALT over calls gives the same times.
    fn thaw_dma(&mut self, frozen: FrozenDma, wake: bool) {
        let slept = (self.now - frozen.since) as i64;
        let pause = if wake {
            slept - self.mcycle as i64
        } else {
            slept
        };
        let later = |t: u64| {
            if t == u64::MAX {
                t
            } else {
                t.saturating_add_signed(pause)
            }
        };
        self.dma.next = later(frozen.next);
        self.dma.start_at = later(frozen.start_at);
        if self.dma.active {
            self.ppu.oam_dma_busy.1 = later(self.ppu.oam_dma_busy.1);
        }
        self.reschedule();
    }

    /// An IF or LYC write at `now` lands after an HBlank source that rises a dot after its
    /// M-cycle (SCX 3's at S+257 against a write at S+256: `docs/timing.md`, "The STAT
    /// interrupt"): run the PPU to that dot first when its HBlank source is up by then.
    fn hblank_request_a_dot_on(&mut self, now: u64) {
        if self.ppu.hblank_source_at(now + 1) {
            self.ppu_requests_by(now + 1);
        }
    }

    /// HALT's first M-cycle is still one of OAM DMA's: its byte (or a start due then) is copied
    /// before the pause, so a last byte copied then releases OAM for the PPU's OAM scan while
    /// the CPU sleeps (Gambatte's `oamdma/oamdma_late_halt_stat_*`, DMG-CPU B and CPU CGB C).
    fn run_dma_in_halt_entry(&mut self) {
        if self.dma.next_event() != u64::MAX {
            self.run_dma(self.now + self.mcycle);
        }
    }

    /// [`Bus::halt_wait`] proper.
    fn halt_wait_inner(&mut self) -> bool {
        loop {
            let lead = self.halt_lead;
            let phase_c = self.now + lead;
            if self.ppu.next_event() <= phase_c {
                self.if_ |= self.ppu.run_events(phase_c);
                if self.ppu.hblank_started {
                    self.hblank_dma();
                    self.reschedule();
                } else {
                    self.ppu_rescheduled();
                }
                if self.ppu.frame_ready {
                    self.stop = true;
                }
            }
            if self.serial.next_event() <= phase_c && self.serial.run_events(phase_c) {
                self.if_ |= irq::SERIAL;
                self.reschedule();
            }
            let pending = self.pending_interrupts();
            if pending != 0
                && self.now < self.halt_wake_from
                && pending & (irq::TIMER | irq::JOYPAD) == 0
            {
                // The DMG's HALT does not sample a PPU or serial request in the M-cycle after
                // the one it counted as pending at HALT: the next M-cycle is the earliest wake.
                self.tick();
                if self.stop_at == u64::MAX || self.stop {
                    return false;
                }
                continue;
            }
            if pending != 0 {
                // A frame that just ended is handed out first, the CPU still asleep: the next
                // call wakes it with nothing changed.
                let wake = !(self.stop && self.stop_at != u64::MAX);
                if wake && self.speed_switch_end != u64::MAX {
                    self.set_speed_switch_end(u64::MAX);
                }
                return wake;
            }
            if self.now >= self.speed_switch_end {
                // The speed switch is over: the CPU leaves HALT by itself.
                self.set_speed_switch_end(u64::MAX);
                return true;
            }
            if self.next_event == u64::MAX || self.next_event <= self.now + self.mcycle + lead {
                self.tick();
            } else {
                // The first M-cycle boundary whose next phase C is at or after the next event:
                // the check above then sees it. `now` moves in whole M-cycles.
                self.now = self.boundary_at_or_after(self.next_event - lead);
                self.run_events();
            }
            if self.stop_at == u64::MAX || self.stop {
                return false;
            }
        }
    }
}

impl Dma {
    fn save_state(&self, w: &mut crate::state::Writer<'_>) {
        w.u8(self.reg);
        w.u16(self.source);
        w.u8(self.index);
        w.bool(self.active);
        w.u64(self.next);
        w.u64(self.start_at);
        w.u16(self.pending_source);
        w.u8(self.last_byte);
        w.u8(self.source_bus);
    }

    fn load_state(
        &mut self,
        r: &mut crate::state::Reader<'_>,
    ) -> Result<(), crate::state::StateError> {
        self.reg = r.u8()?;
        self.source = r.u16()?;
        self.index = r.below(0xA1, "OAM DMA index")?;
        self.active = r.bool()?;
        self.next = r.u64()?;
        self.start_at = r.u64()?;
        self.pending_source = r.u16()?;
        self.last_byte = r.u8()?;
        self.source_bus = r.below(4, "OAM DMA source bus")?;
        Ok(())
    }
}

impl Hardware {
    /// Append everything but the CPU to the state image (see [`crate::state`]).
    pub(crate) fn save_state(&self, w: &mut crate::state::Writer<'_>) {
        w.u64(self.now);
        w.u8(self.if_);
        w.u8(self.ie);
        w.bool(self.stop);
        w.u64(self.stop_at);
        w.u64(self.apu_fs_next);
        w.u32(self.p1_reads);
        w.bytes(&self.wram[..self.wram_len()]);
        w.bytes(&self.hram);
        self.ppu.save_state(w, self.now, self.vram_len());
        self.timer.save_state(w);
        self.serial.save_state(w);
        self.joypad.save_state(w);
        self.apu.save_state(w);
        self.dma.save_state(w);
        // When the transfer holds OAM: the PPU's OAM scan keeps it (the DMA's part of the image).
        // A hold that ended a line or more ago can meet no OAM scan again: written as none
        // (the image stays the same from frame to frame, which the rewind history's diffs
        // keep small).
        let hold_matters = self
            .ppu
            .oam_dma_busy
            .1
            .saturating_add(crate::ppu::DOTS_PER_LINE)
            > self.now;
        if hold_matters {
            w.u64(self.ppu.oam_dma_busy.0);
            w.u64(self.ppu.oam_dma_busy.1);
            w.bytes(&self.ppu.oam_before_dma);
        } else {
            w.u64(0);
            w.u64(0);
            w.bytes(&[0; 0xA0]);
        }
        w.bool(self.cgb_mode);
        self.cgb.save_state(w);
        w.u64(self.speed_switch_end);
        w.bytes(&self.extra_oam);
        self.hdma.save_state(w);
        w.u64(self.dma_stall);
        // Relative to now (0: past), so the image stays the same from frame to frame.
        w.u8(self.halt_wake_from.saturating_sub(self.now).min(8) as u8);
        let boot_len = self.boot_rom_len();
        match &self.boot_rom {
            Some(rom) => {
                w.bool(true);
                w.bytes(rom);
            }
            None => {
                w.bool(false);
                w.bytes(&vec![0; boot_len]);
            }
        }
        let layout = crate::cartridge::state::StateLayout::of(w.version());
        self.cart.write_state_as(w.vec(), layout);
    }

    /// Read what [`Hardware::save_state`] wrote. On error `self` may be half-loaded: the caller
    /// loads into a copy.
    pub(crate) fn load_state(
        &mut self,
        r: &mut crate::state::Reader<'_>,
    ) -> Result<(), crate::state::StateError> {
        self.now = r.u64()?;
        self.if_ = r.u8()? & 0x1F;
        self.ie = r.u8()?;
        self.stop = r.bool()?;
        self.stop_at = r.u64()?;
        self.apu_fs_next = r.u64()?;
        self.p1_reads = r.u32()?;
        let wram_len = self.wram_len();
        r.bytes(&mut self.wram[..wram_len])?;
        r.bytes(&mut self.hram)?;
        self.ppu.load_state(r, self.now, self.vram_len())?;
        self.timer.load_state(r)?;
        self.serial.load_state(r)?;
        self.joypad.load_state(r)?;
        self.apu.load_state(r, self.now)?;
        self.dma.load_state(r)?;
        self.ppu.oam_dma_busy = (r.u64()?, r.u64()?);
        r.bytes(&mut self.ppu.oam_before_dma)?;
        let cgb_mode = r.bool()?;
        self.cgb.load_state(r)?;
        self.speed_switch_end = r.u64()?;
        r.bytes(&mut self.extra_oam)?;
        self.hdma.load_state(r)?;
        self.dma_stall = r.u64()?;
        let wake_in = r.below(9, "HALT's first wake")?;
        self.halt_wake_from = if wake_in == 0 {
            0
        } else {
            self.now + u64::from(wake_in)
        };
        if self.dma_stall > 0x10000 {
            return Err(crate::state::StateError::Invalid("VRAM DMA stall"));
        }
        self.update_deadline();
        if self.model == Model::Dmg && (cgb_mode || self.cgb != CgbRegs::default()) {
            return Err(crate::state::StateError::Invalid("CGB registers on a DMG"));
        }
        let mapped = r.bool()?;
        let image = r.take(self.boot_rom_len())?;
        self.boot_rom = mapped.then(|| image.into());
        let layout = crate::cartridge::state::StateLayout::of(r.version());
        self.cart
            .read_state_as(r.rest(), layout)
            .map_err(|e| crate::state::StateError::Cartridge(e.to_string()))?;
        self.set_cgb_mode(cgb_mode);
        self.mcycle = if self.cgb.double_speed { 2 } else { 4 };
        self.ppu.set_double_speed(self.cgb.double_speed);
        self.reschedule();
        Ok(())
    }
}
