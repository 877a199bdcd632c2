//! [`Gb`]: the whole Game Boy as one plain value, and the API hosts drive it with.

use crate::apu::{Apu, Sample};
use crate::bus::Hardware;
use crate::cartridge::Cartridge;
use crate::compat::DmgPalette;
use crate::cpu::{Cpu, CpuMode, Registers};
use crate::frame::Frame;
use crate::frames::FrameRule;
use crate::joypad::Buttons;
use crate::model::{CgbRevision, Model};
use crate::power_on::{self, RamInit};
use crate::ppu::{CYCLES_PER_FRAME, Ppu};
use crate::state::StateError;
use crate::timer::Timer;

/// The system counter (DIV in its high byte) when the DMG boot ROM hands over at 0x0100
/// (Mooneye `boot_div-dmgABCmgb` pins it to the M-cycle).
const POST_BOOT_COUNTER: u16 = 0xABC8;
/// Where the PPU is when the DMG boot ROM hands over: line and dot, so line 0 starts 60 dots
/// later. gbmicrotest `poweron_stat_*`, `poweron_ly_*`, `poweron_oam_*` and `poweron_vram_*`
/// pin it to the M-cycle (STAT, LY, OAM and VRAM access read a given number of cycles after
/// $0100), inside the window Mooneye `boot_hwio-dmgABCmgb` admits.
const POST_BOOT_LINE: u8 = 153;
/// See [`POST_BOOT_LINE`].
const POST_BOOT_DOT: u64 = 396;

/// When the frame that ends now started, for the next one's deadline: VBlank itself while it
/// is on line 144 (a CPU asleep in HALT sees VBlank, at dot 2, from the M-cycle boundary 2 dots
/// earlier, and a deadline counted from there would fall just before the next VBlank), else
/// now.
fn frame_start(hw: &Hardware) -> u64 {
    hw.ppu.vblank_started().unwrap_or(hw.now)
}

/// A memory of the machine as a flat array, for debuggers and scripts (Pan Docs' names).
/// Banked memories hold every bank, bank `b` at `b` times the bank's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    /// The whole cartridge ROM, every bank (bank `b`, offset `o` at `b * 0x4000 + o`).
    Rom,
    /// Work RAM: 8 KiB on the DMG (0xC000-0xDFFF); 32 KiB on the CGB, 8 banks of 4 KiB (bank
    /// 0 is 0xC000-0xCFFF, SVBK maps one of banks 1-7 at 0xD000-0xDFFF).
    Wram,
    /// Video RAM: 8 KiB on the DMG (0x8000-0x9FFF); 16 KiB on the CGB, bank 0 then bank 1
    /// (VBK picks the one at 0x8000-0x9FFF).
    Vram,
    /// Object attribute memory, 0xFE00-0xFE9F.
    Oam,
    /// High RAM, 0xFF80-0xFFFE.
    Hram,
    /// The cartridge RAM, every bank (bank `b`, offset `o` at `b * 0x2000 + o`).
    CartRam,
}

impl Domain {
    /// Every memory, in the order the Lua API lists them.
    pub const ALL: [Domain; 6] = [
        Domain::Rom,
        Domain::Wram,
        Domain::Vram,
        Domain::Oam,
        Domain::Hram,
        Domain::CartRam,
    ];

    /// Its name in scripts, the REPL and Python (`rom`, `wram`, `vram`, `oam`, `hram`,
    /// `cartram`).
    pub fn name(self) -> &'static str {
        match self {
            Domain::Rom => "rom",
            Domain::Wram => "wram",
            Domain::Vram => "vram",
            Domain::Oam => "oam",
            Domain::Hram => "hram",
            Domain::CartRam => "cartram",
        }
    }

    /// The memory a [`Domain::name`] names, ignoring case.
    pub fn from_name(name: &str) -> Option<Domain> {
        Domain::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(name))
    }
}

/// What [`Gb::run_debug`] runs until (besides the frame's end and watchpoint hits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DebugUntil {
    /// Stop after this many steps (instructions, interrupt dispatches, or HALT waits).
    pub steps: Option<u64>,
    /// Stop when the clock reaches this cycle (at the next instruction boundary).
    pub cycle: Option<u64>,
    /// Stop before an `LD B,B` (the software breakpoint of test ROMs and homebrew) runs.
    pub ld_b_b: bool,
    /// ... except the one at this address (the host stopped there and now goes on).
    pub skip_ld_b_b_at: Option<u16>,
    /// Stop after an interrupt is dispatched (at its vector).
    pub interrupt: bool,
}

/// Why [`Gb::run_debug`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DebugStop {
    /// The frame ended.
    FrameEnd,
    /// A watchpoint was hit: the hits are in [`Gb::watch`].
    Watch,
    /// The steps asked for ran.
    Steps,
    /// The clock reached the cycle asked for.
    Cycle,
    /// An `LD B,B` is next.
    LdBB,
    /// An interrupt was dispatched.
    Interrupt,
}

/// Errors from building a [`Gb`].
#[derive(Debug, thiserror::Error)]
pub enum GbError {
    /// The boot ROM image is not the DMG's 256 bytes.
    #[error("boot ROM must be 256 bytes for the DMG, this one has {0}")]
    BootRomSize(usize),
    /// The boot ROM image is not the CGB's 2,304 bytes (0x900: 0x0000-0x00FF and
    /// 0x0200-0x08FF).
    #[error(
        "boot ROM must be 2304 bytes (0x900) for the CGB, this one has {0} (a DMG boot ROM is 256)"
    )]
    CgbBootRomSize(usize),
    /// A model this build does not emulate (no longer returned: both models are built).
    #[error("the {0} model is not emulated yet")]
    ModelNotBuilt(Model),
    /// A compatibility palette outside 1-12.
    #[error("compatibility palette {0} does not exist (the CGB boot ROM has combinations 1-12)")]
    DmgPalette(u8),
}

/// How a machine powers on, besides its cartridge: the model, what RAM holds, an optional boot
/// ROM, the compatibility palette (start parameters: a host records them, since a replay needs
/// the same).
#[derive(Clone, Copy, Debug, Default)]
pub struct Boot<'a> {
    /// The model.
    pub model: Model,
    /// What WRAM, HRAM and OAM hold at power-on.
    pub ram_init: RamInit,
    /// A boot ROM to run from 0x0000 (else the machine starts in the post-boot state): the
    /// DMG's 256 bytes, or the CGB's 0x900.
    pub boot_rom: Option<&'a [u8]>,
    /// On the CGB without a boot ROM, the compatibility palette a DMG game gets: the boot
    /// ROM's choice from the title, or a button combination held during its logo (ignored
    /// for CGB games, on the DMG, and with a boot ROM, which reads the buttons itself).
    pub dmg_palette: DmgPalette,
    /// The CGB's CPU revision (ignored on the DMG; the default is the CPU CGB C).
    pub cgb_revision: CgbRevision,
    /// Where frames end (the default: as BizHawk counts them; see [`FrameRule`]).
    pub frame_rule: FrameRule,
}

/// A DMG (DMG-CPU B) Game Boy: CPU, hardware and cartridge. Plain data, cheap to clone.
#[derive(Clone, Debug)]
pub struct Gb {
    cpu: Cpu,
    hw: Hardware,
    /// When the current frame ends at the latest: a frame's length after the last one ended
    /// (the LCD may be off: no VBlank then). The frame clock may end it earlier
    /// ([`Gb::deadline`]).
    frame_deadline: u64,
    /// Frames completed.
    frames: u64,
    /// Frames in which the game did not read the joypad (TAS "lag frames").
    lag_frames: u64,
    /// The last frame was a lag frame.
    lagged: bool,
    /// P1 reads when the current frame started.
    p1_at_frame_start: u32,
    /// How WRAM, HRAM and OAM were filled at power-on (a start parameter, not state).
    ram_init: RamInit,
    /// The model (a start parameter).
    model: Model,
}

impl Gb {
    /// A DMG in the state its boot ROM leaves it at 0x0100; no boot ROM needed. WRAM, HRAM
    /// and OAM hold the default power-on pattern ([`RamInit::default`]: the DMG-like pattern
    /// from a fixed seed, so every run is the same); see [`Gb::with_ram_init`].
    pub fn new(cart: Cartridge) -> Gb {
        Gb::with_ram_init(cart, RamInit::default())
    }

    /// [`Gb::new`] with WRAM, HRAM and OAM filled as `init` says (all zeros, or the DMG-like
    /// pattern from a seed: [`crate::power_on`]).
    pub fn with_ram_init(cart: Cartridge, init: RamInit) -> Gb {
        // Start at a time far enough from 0 that the PPU's line start is not negative.
        let now = 0x1_0000;
        let mut ppu = Ppu::post_boot(now, POST_BOOT_LINE, POST_BOOT_DOT);
        let logo: [u8; 48] = std::array::from_fn(|i| cart.read_rom(0x0104 + i as u16));
        ppu.load_boot_logo(&logo);
        let timer = Timer::new(now, POST_BOOT_COUNTER);
        let mut hw = Hardware::new(cart, ppu, timer, Apu::post_boot(), now);
        hw.apu.set_boot_phase(now, false);
        hw.if_ = 0x01;
        power_on::fill(init, &mut hw.wram[..0x2000], &mut hw.hram, &mut hw.ppu.oam);
        Gb::from_parts(Cpu::post_boot_dmg(), hw, now + CYCLES_PER_FRAME, init)
    }

    /// A DMG at power-on that runs `boot_rom` (256 bytes) from 0x0000, with the default
    /// power-on RAM pattern ([`RamInit::default`]; the boot ROM clears VRAM itself).
    pub fn with_boot_rom(cart: Cartridge, boot_rom: &[u8]) -> Result<Gb, GbError> {
        Gb::with_boot_rom_and_ram_init(cart, boot_rom, RamInit::default())
    }

    /// [`Gb::with_boot_rom`] with WRAM, HRAM and OAM filled as `init` says.
    pub fn with_boot_rom_and_ram_init(
        cart: Cartridge,
        boot_rom: &[u8],
        init: RamInit,
    ) -> Result<Gb, GbError> {
        if boot_rom.len() != 0x100 {
            return Err(GbError::BootRomSize(boot_rom.len()));
        }
        let hw_ppu = Ppu::new();
        let timer = Timer::new(0, 0);
        let mut hw = Hardware::new(cart, hw_ppu, timer, Apu::power_on(), 0);
        hw.map_boot_rom(boot_rom);
        power_on::fill(init, &mut hw.wram[..0x2000], &mut hw.hram, &mut hw.ppu.oam);
        Ok(Gb::from_parts(Cpu::default(), hw, CYCLES_PER_FRAME, init))
    }

    /// A machine of `boot.model` with `cart`, powered on as `boot` says.
    pub fn power_on(cart: Cartridge, boot: Boot<'_>) -> Result<Gb, GbError> {
        if !boot.dmg_palette.is_valid() {
            let DmgPalette::Combo(n) = boot.dmg_palette else {
                return Err(GbError::DmgPalette(0));
            };
            return Err(GbError::DmgPalette(n));
        }
        let mut gb = match (boot.model, boot.boot_rom) {
            (Model::Dmg, Some(image)) => {
                Gb::with_boot_rom_and_ram_init(cart, image, boot.ram_init)?
            }
            (Model::Dmg, None) => Gb::with_ram_init(cart, boot.ram_init),
            (Model::Cgb, Some(image)) => {
                let mut gb = Gb::cgb_with_boot_rom(cart, image, boot.ram_init)?;
                gb.hw.set_revision(boot.cgb_revision);
                gb
            }
            (Model::Cgb, None) => {
                let mut gb = Gb::cgb_post_boot(cart, boot.ram_init, boot.dmg_palette);
                gb.hw.set_revision(boot.cgb_revision);
                gb
            }
        };
        gb.set_frame_rule(boot.frame_rule);
        Ok(gb)
    }

    /// Where frames end ([`FrameRule`]): a start parameter (movies record it).
    pub fn frame_rule(&self) -> FrameRule {
        self.hw.frame_clock.rule
    }

    /// Choose where frames end from now on (a host sets it at power-on, as [`Boot`] does;
    /// the state image keeps it).
    pub fn set_frame_rule(&mut self, rule: FrameRule) {
        self.hw.frame_clock.rule = rule;
    }

    /// A CGB in the state its boot ROM leaves it at 0x0100 (see `cgb_boot.rs`): CGB mode for
    /// a cartridge whose header asks for it, else DMG compatibility mode with `palette`.
    fn cgb_post_boot(cart: Cartridge, init: RamInit, palette: DmgPalette) -> Gb {
        let now = 0x1_0000;
        let (cpu, hw) = crate::cgb_boot::post_boot(cart, init, palette, now);
        Gb::from_parts(cpu, hw, now + CYCLES_PER_FRAME, init)
    }

    /// A CGB at power-on that runs `boot_rom` (0x900 bytes: 0x0000-0x00FF and 0x0200-0x08FF)
    /// from 0x0000; the boot ROM picks the mode and palettes itself.
    fn cgb_with_boot_rom(cart: Cartridge, boot_rom: &[u8], init: RamInit) -> Result<Gb, GbError> {
        if boot_rom.len() != crate::bus::CGB_BOOT_ROM_SIZE {
            return Err(GbError::CgbBootRomSize(boot_rom.len()));
        }
        let timer = Timer::new(0, 0);
        let mut hw = Hardware::with_model(Model::Cgb, cart, Ppu::new(), timer, Apu::power_on(), 0);
        hw.map_boot_rom(boot_rom);
        power_on::fill_cgb(init, &mut hw.wram[..], &mut hw.hram);
        Ok(Gb::from_parts(Cpu::default(), hw, CYCLES_PER_FRAME, init))
    }

    /// A machine from its parts, no frame run yet.
    fn from_parts(cpu: Cpu, hw: Hardware, frame_deadline: u64, ram_init: RamInit) -> Gb {
        Gb {
            model: hw.model(),
            cpu,
            hw,
            frame_deadline,
            frames: 0,
            lag_frames: 0,
            lagged: false,
            p1_at_frame_start: 0,
            ram_init,
        }
    }

    /// The emulated model.
    pub fn model(&self) -> Model {
        self.model
    }

    /// The CGB's CPU revision ([`CgbRevision::C`] on the DMG, where it means nothing).
    pub fn cgb_revision(&self) -> CgbRevision {
        self.hw.revision()
    }

    /// Whether the machine runs in CGB mode: a CGB running a CGB game (false on the DMG, and
    /// on a CGB in DMG compatibility mode, or while its boot ROM has not chosen yet).
    pub fn cgb_mode(&self) -> bool {
        self.hw.cgb_mode()
    }

    /// Whether the CPU runs at the CGB's double speed (KEY1 bit 7).
    pub fn double_speed(&self) -> bool {
        self.hw.cgb.double_speed
    }

    /// How WRAM, HRAM and OAM were filled when this machine was built (for hosts that record
    /// start parameters: a movie or state file replays only with the same one).
    pub fn ram_init(&self) -> RamInit {
        self.ram_init
    }

    /// Execute one instruction, or one interrupt dispatch; in HALT or STOP, advance whole
    /// M-cycles up to the next hardware event (the CPU wakes on the same cycle either way).
    #[inline]
    pub fn step(&mut self) {
        self.cpu.step(&mut self.hw);
        crate::cpu::Bus::settle(&mut self.hw);
    }

    /// Run to the end of the current frame: the start of VBlank, or 70,224 T-cycles after the
    /// previous frame ended if the LCD is off. Ends on an instruction boundary.
    pub fn run_frame(&mut self) {
        while !self.run_frame_watched() {
            // Nobody looks at watchpoint hits here.
            self.hw.watch.take_hits(&mut Vec::new());
        }
    }

    /// [`Gb::run_frame`], but return early (false) when a watchpoint is hit, so the host can
    /// look at the machine ([`Gb::watch`]) before calling again; true when the frame ended.
    pub fn run_frame_watched(&mut self) -> bool {
        loop {
            let target = self.deadline();
            self.hw.set_stop_at(target);
            if self.hw.watch.any_exec {
                // Instruction watchpoints are checked by a loop of their own, so the usual
                // one pays nothing for them.
                self.cpu.run_until(&mut self.hw, |cpu, hw| {
                    hw.stop
                        || (hw.watch.exec_at(cpu.regs.pc)
                            && cpu.runs_instruction_next(hw)
                            && hw.exec_hit(cpu.regs.pc))
                });
            } else {
                self.cpu.run_until(&mut self.hw, |_, hw| hw.stop);
            }
            if let Some(ended) = self.finish_run(target) {
                return ended;
            }
        }
    }

    /// When the current frame ends at the latest, if no VBlank ends it first: its budget, or
    /// earlier a blank frame's end while the LCD is off ([`crate::frames::FrameClock`]).
    fn deadline(&self) -> u64 {
        let start = self.frame_deadline.saturating_sub(CYCLES_PER_FRAME);
        self.hw.frame_clock.deadline(start)
    }

    /// Run the current frame on as a debugger asks: until it ends, a watchpoint is hit, or
    /// one of `until`'s stops comes first (see [`DebugUntil`]). Stops are at instruction
    /// boundaries, so a run cut into pieces this way is the same run as one whole frame.
    pub fn run_debug(&mut self, until: DebugUntil) -> DebugStop {
        loop {
            if let Some(stop) = self.run_debug_once(until) {
                return stop;
            }
        }
    }

    /// [`Gb::run_debug`] up to the first stop of the run loop (`None`: a stop that was no
    /// frame's end after all, see [`Gb::finish_run`]).
    fn run_debug_once(&mut self, until: DebugUntil) -> Option<DebugStop> {
        let target = self.deadline();
        self.hw.set_stop_at(target);
        let mut steps = until.steps;
        let interrupts = self.cpu.dispatches;
        let cycle = until.cycle.unwrap_or(u64::MAX);
        let mut why = DebugStop::Watch;
        let mut last_pc = self.cpu.debug_pc;
        self.cpu.run_until(&mut self.hw, |cpu, hw| {
            if hw.stop {
                return true;
            }
            if hw.now >= cycle {
                why = DebugStop::Cycle;
                return true;
            }
            if until.interrupt && cpu.dispatches != interrupts {
                why = DebugStop::Interrupt;
                return true;
            }
            let next = cpu.runs_instruction_next(hw);
            if until.ld_b_b && next && hw.read_byte(cpu.regs.pc) == 0x40 && steps != Some(0) {
                // Stopped before it: a host resumes with one step.
                if until.skip_ld_b_b_at != Some(cpu.regs.pc) {
                    why = DebugStop::LdBB;
                    return true;
                }
            }
            if hw.watch.any_exec
                && hw.watch.exec_at(cpu.regs.pc)
                && next
                && hw.exec_hit(cpu.regs.pc)
            {
                return true;
            }
            let go = match &mut steps {
                Some(0) => {
                    why = DebugStop::Steps;
                    return true;
                }
                Some(n) => {
                    *n -= 1;
                    true
                }
                None => true,
            };
            last_pc = cpu.regs.pc;
            !go
        });
        self.cpu.debug_pc = last_pc;
        if self.hw.stop {
            return self.finish_run(target).map(|ended| {
                if ended {
                    DebugStop::FrameEnd
                } else {
                    DebugStop::Watch
                }
            });
        }
        Some(why)
    }

    /// Where the last instruction run by [`Gb::run_debug`] began: after a read or write
    /// watchpoint stop, the instruction that made the access (PC is already past it).
    pub fn last_debug_pc(&self) -> u16 {
        self.cpu.debug_pc
    }

    /// After the run loop, set to stop at `target`, stopped: end the frame if it is over
    /// (`Some(true)`), else get ready to go on: after a watchpoint hit `Some(false)`, after a
    /// stop that was no frame's end after all (see [`Gb::frame_over`]) `None`, and the
    /// caller runs on.
    fn finish_run(&mut self, target: u64) -> Option<bool> {
        let watch = !self.hw.ppu.frame_ready && self.hw.now < target;
        if self.frame_over() {
            self.end_frame();
            Some(true)
        } else {
            self.hw.clear_stop();
            watch.then_some(false)
        }
    }

    /// Whether the run loop stopped at the frame's end. A VBlank that ends no frame (the
    /// LCD came on again too soon, [`FrameRule::BizHawk`]) is passed over, and so is a blank
    /// frame's end that the LCD's switch-on cancelled after the loop was set to stop there
    /// ([`Gb::deadline`] is then later): the caller runs on.
    fn frame_over(&mut self) -> bool {
        if self.hw.ppu.frame_ready {
            if self.hw.frame_clock.vblank_ends_frame() {
                return true;
            }
            self.hw.ppu.frame_ready = false;
        }
        self.hw.now >= self.deadline()
    }

    /// The watchpoints and their hits (change watchpoints with [`Gb::add_watch`] and
    /// [`Gb::clear_watches`]).
    pub fn watch(&mut self) -> &mut crate::watch::Watch {
        &mut self.hw.watch
    }

    /// Watch `len` addresses from `addr` for `access` (see [`crate::watch`]).
    pub fn add_watch(&mut self, access: crate::watch::Access, addr: u16, len: u32) {
        self.hw.watch.add(access, addr, len);
        self.hw.watch_changed();
    }

    /// Replace the Game Genie codes (host configuration, like watchpoints: not in the state
    /// image, so a host that restores a state sets them again). ROM reads by the CPU, DMA and
    /// [`Gb::peek`] see them; [`Gb::domain`] shows the cartridge as it is.
    pub fn set_rom_cheats(&mut self, cheats: &[crate::bus::RomCheat]) {
        if self.hw.rom_cheats != cheats {
            self.hw.rom_cheats = cheats.to_vec();
            self.hw.watch_changed();
        }
    }

    /// The Game Genie codes in effect.
    pub fn rom_cheats(&self) -> &[crate::bus::RomCheat] {
        &self.hw.rom_cheats
    }

    /// Remove every watchpoint.
    pub fn clear_watches(&mut self) {
        self.hw.watch.clear();
        self.hw.watch_changed();
    }

    /// Bookkeeping when a frame ends.
    fn end_frame(&mut self) {
        self.hw.apu.catch_up(self.hw.now);
        let start = frame_start(&self.hw);
        self.hw.ppu.frame_ready = false;
        self.hw.ppu.finish_frame();
        self.lagged = self.hw.p1_reads == self.p1_at_frame_start;
        self.lag_frames += u64::from(self.lagged);
        self.p1_at_frame_start = self.hw.p1_reads;
        self.hw.clear_stop();
        self.frame_deadline = start + CYCLES_PER_FRAME;
        self.frames += 1;
    }

    /// Run until the CPU executes `LD B,B` (the test ROMs' breakpoint) or `max_cycles` T-cycles
    /// pass; true if `LD B,B` ran.
    pub fn run_until_ld_b_b(&mut self, max_cycles: u64) -> bool {
        let end = self.hw.now.saturating_add(max_cycles);
        self.cpu.ld_b_b = false;
        while self.hw.now < end {
            self.step();
            if self.cpu.ld_b_b {
                self.cpu.ld_b_b = false;
                return true;
            }
        }
        false
    }

    /// Like [`Gb::run_frame`], but stops early (returning true) when the CPU executes `LD B,B`.
    pub fn run_frame_or_ld_b_b(&mut self) -> bool {
        self.cpu.ld_b_b = false;
        loop {
            let target = self.deadline();
            self.hw.set_stop_at(target);
            self.cpu
                .run_until(&mut self.hw, |cpu, hw| hw.stop || cpu.ld_b_b);
            if self.cpu.ld_b_b {
                self.cpu.ld_b_b = false;
                return true;
            }
            if self.finish_run(target) == Some(true) {
                return false;
            }
        }
    }

    /// The CPU registers.
    pub fn regs(&self) -> Registers {
        self.cpu.regs
    }

    /// Read `addr` as the CPU would now, without advancing time or side effects.
    pub fn peek(&self, addr: u16) -> u8 {
        self.hw.read_byte(addr)
    }

    /// The CGB's colour palette RAM as it is (no side effects, no mode 3 lock): 64 bytes of
    /// background palettes (BCPS/BCPD: 8 palettes of 4 colours, each RGB555 little-endian),
    /// then 64 of object palettes (OCPS/OCPD). All 0 on the DMG. For viewers: it changes
    /// nothing.
    pub fn color_palettes(&self) -> ([u8; 64], [u8; 64]) {
        self.hw.ppu.palettes()
    }

    /// Read `addr` in `bank`, whatever is mapped now, without side effects or access blocking
    /// (a debugger's `peek 3:D000`): ROM (either half: the flat ROM at `bank * 0x4000`),
    /// cartridge RAM (`bank * 0x2000`), and on the CGB VRAM 0x8000-0x9FFF (banks 0-1) and work
    /// RAM 0xD000-0xDFFF and its echo (banks 0-7) take the bank; a bank past the memory's end
    /// reads 0xFF. Other addresses ignore it and read as [`Gb::peek`].
    pub fn peek_bank(&self, bank: u16, addr: u16) -> u8 {
        self.hw.peek_bank(bank, addr)
    }

    /// The bank mapped at `addr` now, for the addresses [`Gb::peek_bank`] banks (ROM as the
    /// mapper maps it, cartridge RAM while RAM is enabled and mapped, VRAM's VBK and work RAM's
    /// SVBK on the CGB); `None` for unbanked addresses (and on the DMG for VRAM and work
    /// RAM). Watchpoint hits carry it ([`crate::watch::Hit::bank`]).
    pub fn bank_of(&self, addr: u16) -> Option<u16> {
        self.hw.bank_of(addr)
    }

    /// The machine's clock in T-cycles (4,194,304 per second). A machine made by [`Gb::new`]
    /// (post-boot state) starts at 65,536, one made by [`Gb::with_boot_rom`] at 0; only
    /// differences matter.
    pub fn cycles(&self) -> u64 {
        self.hw.now
    }

    /// Frames completed by [`Gb::run_frame`].
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// Frames in which the game did not read the joypad (P1), since power-on.
    pub fn lag_frames(&self) -> u64 {
        self.lag_frames
    }

    /// Whether the last frame was a lag frame (no joypad read).
    pub fn lagged(&self) -> bool {
        self.lagged
    }

    /// Interrupt master enable.
    pub fn ime(&self) -> bool {
        self.cpu.ime
    }

    /// Whether the CPU is in HALT.
    pub fn is_halted(&self) -> bool {
        self.cpu.mode() == CpuMode::Halted
    }

    /// Whether the CPU executed an illegal opcode and hangs.
    pub fn is_locked(&self) -> bool {
        self.cpu.mode() == CpuMode::Locked
    }

    /// Bytes the game sent on the serial port (the most recent 64 KiB).
    pub fn serial_output(&self) -> &[u8] {
        &self.hw.serial.output
    }

    /// Set the buttons held from now on.
    pub fn set_buttons(&mut self, buttons: Buttons) {
        self.hw.set_buttons(buttons);
    }

    /// The buttons held.
    pub fn buttons(&self) -> Buttons {
        self.hw.joypad.buttons()
    }

    /// The frame being drawn (complete after [`Gb::run_frame`]): shade indices 0-3 after
    /// BGP/OBP (0 lightest) on the DMG, RGB555 colours on the CGB, row-major 160 × 144 (see
    /// [`Frame`]). The host applies the colours.
    pub fn framebuffer(&self) -> &Frame {
        &self.hw.ppu.framebuffer
    }

    /// Lines not drawn again because the buffer's row was drawn from the same VRAM, OAM,
    /// colours and registers (a still picture, see [`Frame`]), since power-on or
    /// the last BESS import: for benchmarks and tests; not part of the machine's state.
    pub fn lines_kept(&self) -> u64 {
        self.hw.ppu.lines_kept
    }

    /// Hand the completed frame to the caller without copying or allocating: `frame` and the
    /// core's buffer are swapped, and the core draws the next frame into the caller's old one.
    /// A frame run without drawing ([`Gb::set_rendering`]) hands nothing out: `frame` keeps
    /// the last picture drawn (the core's buffer holds an older one).
    pub fn swap_frame(&mut self, frame: &mut Frame) {
        if !self.rendering() {
            return;
        }
        std::mem::swap(&mut self.hw.ppu.framebuffer, frame);
        // The buffer handed in draws what this machine draws (shades or colours).
        self.hw.ppu.framebuffer.set_color(frame.is_color());
    }

    /// Move the audio generated so far into `out`, oldest first, and return how many stereo
    /// samples were written; at most [`crate::apu::RING_CAPACITY`] wait (about 7 frames), older
    /// ones are dropped. Samples come at [`crate::apu::SAMPLE_RATE`] Hz, left then right, DC
    /// included (the host applies the high-pass). Does not allocate. Every frame's audio is
    /// complete when [`Gb::run_frame`] returns; draining does not generate any (so when a host
    /// drains never changes the state image).
    pub fn drain_audio(&mut self, out: &mut [Sample]) -> usize {
        self.hw.apu.samples().drain_into(out)
    }

    /// Forget the samples waiting (after a rewind or a state load, the ring still holds the
    /// old timeline's audio: it is output, not state).
    pub fn discard_audio(&mut self) {
        self.hw.apu.samples().clear();
    }

    /// Stereo samples waiting for [`Gb::drain_audio`].
    pub fn audio_pending(&mut self) -> usize {
        self.hw.apu.samples().len()
    }

    /// Turn the picture on (the default) or off. Off, frames run with the same timing and
    /// every register as with it, and no pixel is produced (the framebuffer keeps its last
    /// picture): a bot's frames cost less. The first frame drawn after turning it on again
    /// is the frame a machine that always drew would show. Host configuration, not state.
    pub fn set_rendering(&mut self, on: bool) {
        self.hw.ppu.render = on;
    }

    /// Whether the picture is produced (see [`Gb::set_rendering`]).
    pub fn rendering(&self) -> bool {
        self.hw.ppu.render
    }

    /// Turn audio generation on (the default) or off. Off, no samples are produced; the
    /// waveform generators still keep their phases (the CGB's CPU reads them in PCM12/PCM34),
    /// so the machine runs the same either way.
    pub fn set_audio_enabled(&mut self, on: bool) {
        let now = self.hw.now;
        self.hw.apu.set_output_enabled(on, now);
        if !on {
            self.hw.apu.samples().clear();
        }
    }

    /// Each channel's digital output 0-15 now (the values the CGB shows in PCM12/PCM34; on the
    /// DMG those addresses read 0xFF).
    pub fn channel_outputs(&mut self) -> [u8; 4] {
        self.hw.apu.catch_up(self.hw.now);
        self.hw.apu.digital_outputs()
    }

    /// The APU now, read-only: power, NR50/NR51, the frame sequencer step and each channel's
    /// state (see [`crate::apu::view::ApuView`]). Reading changes nothing, not even the state image.
    pub fn apu_view(&self) -> crate::apu::view::ApuView {
        self.hw.apu.view(self.hw.now)
    }

    /// Write the machine's state as a fixed-layout image into `out` (cleared first; no
    /// allocation once `out` has grown to [`Gb::state_len`]). See [`crate::state`].
    pub fn save_state(&self, out: &mut Vec<u8>) {
        self.write_image(out, crate::state::VERSION);
    }

    /// [`Gb::save_state`] in the layout of `version` (from [`crate::state::OLDEST_VERSION`]
    /// to [`crate::state::MAPPER_SECTIONS_VERSION`]; tests write the layouts [`crate::state::VERSION`]
    /// does not).
    pub(crate) fn write_image(&self, out: &mut Vec<u8>, version: u16) {
        out.clear();
        let mut w = crate::state::Writer::new(out, version);
        w.bytes(&crate::state::MAGIC);
        w.u16(version);
        w.u8(self.model.id());
        w.u8(self.hw.revision().id());
        w.u64(self.frame_deadline);
        w.bytes(&self.hw.frame_clock.to_bytes());
        w.u64(self.frames);
        w.u64(self.lag_frames);
        w.bool(self.lagged);
        w.u32(self.p1_at_frame_start);
        self.cpu.save_state(&mut w);
        self.hw.save_state(&mut w);
    }

    /// Length of [`Gb::save_state`]'s image: fixed for a given cartridge.
    pub fn state_len(&self) -> usize {
        let mut v = Vec::new();
        self.save_state(&mut v);
        v.len()
    }

    /// Load an image written by [`Gb::save_state`] for the same ROM and model (another
    /// model's image is [`StateError::Model`], another CGB revision's [`StateError::Revision`]),
    /// by this build or an older one back to [`crate::state::OLDEST_VERSION`]. Every field is
    /// checked; on error the machine is unchanged. The framebuffer is kept as it is (it is output, not
    /// state: the next completed frame is exact).
    pub fn load_state(&mut self, data: &[u8]) -> Result<(), StateError> {
        self.read_image(data, crate::state::VERSION)
    }

    /// [`Gb::load_state`] reading the versions from [`crate::state::OLDEST_VERSION`] to
    /// `newest` (tests read the layouts [`crate::state::VERSION`] does not write yet).
    pub(crate) fn read_image(&mut self, data: &[u8], newest: u16) -> Result<(), StateError> {
        let mut r = crate::state::Reader::new(data);
        if r.take(4)? != crate::state::MAGIC {
            return Err(StateError::Magic);
        }
        let version = r.u16()?;
        if !(crate::state::OLDEST_VERSION..=newest).contains(&version) {
            return Err(StateError::Version(version));
        }
        r.set_version(version);
        let id = r.u8()?;
        let saved = Model::from_id(id).ok_or(StateError::Invalid("model"))?;
        if saved != self.model {
            return Err(StateError::Model {
                saved,
                running: self.model,
            });
        }
        let saved = CgbRevision::from_id(r.u8()?).ok_or(StateError::Invalid("CGB revision"))?;
        if saved != self.hw.revision() {
            return Err(StateError::Revision {
                saved,
                running: self.hw.revision(),
            });
        }
        // Load into a copy, so that a bad image changes nothing.
        let mut next = self.clone();
        next.frame_deadline = r.u64()?;
        next.hw.frame_clock =
            crate::frames::FrameClock::from_bytes(r.take(crate::frames::FrameClock::LEN)?)
                .ok_or(StateError::Invalid("frame clock"))?;
        next.frames = r.u64()?;
        next.lag_frames = r.u64()?;
        next.lagged = r.bool()?;
        next.p1_at_frame_start = r.u32()?;
        next.cpu.load_state(&mut r)?;
        next.hw.load_state(&mut r)?;
        *self = next;
        Ok(())
    }

    /// The CPU and the hardware, for [`crate::bess`].
    pub(crate) fn parts(&self) -> (&Cpu, &Hardware) {
        (&self.cpu, &self.hw)
    }

    /// This machine with `cpu` and `hw` in its place (a save state load, [`crate::bess`]):
    /// the frame and lag-frame counters go on, and the current frame ends one frame from
    /// `hw.now` at the latest.
    pub(crate) fn with_parts(&self, cpu: Cpu, mut hw: Hardware) -> Gb {
        // The imported machine counts frames by this one's rule (its clock came with it
        // when the file had one, else it starts as at power-on).
        hw.frame_clock = hw.frame_clock.with_rule(self.frame_rule());
        Gb {
            cpu,
            frame_deadline: frame_start(&hw) + CYCLES_PER_FRAME,
            hw,
            p1_at_frame_start: self.p1_at_frame_start,
            frames: self.frames,
            lag_frames: self.lag_frames,
            lagged: self.lagged,
            ram_init: self.ram_init,
            model: self.model,
        }
    }

    /// Run until the clock reaches `cycle` (on an instruction boundary, so possibly a few
    /// cycles past it), the current frame ends or a watchpoint is hit, whichever comes first;
    /// true if the frame ended. For input that changes in the middle of a frame.
    pub fn run_until_cycle(&mut self, cycle: u64) -> bool {
        loop {
            let target = self.deadline();
            if cycle >= target {
                return self.run_frame_watched();
            }
            self.hw.set_stop_at(target);
            if self.hw.watch.any_exec {
                self.cpu.run_until(&mut self.hw, |cpu, hw| {
                    hw.stop
                        || hw.now >= cycle
                        || (hw.watch.exec_at(cpu.regs.pc)
                            && cpu.runs_instruction_next(hw)
                            && hw.exec_hit(cpu.regs.pc))
                });
            } else {
                self.cpu
                    .run_until(&mut self.hw, |_, hw| hw.stop || hw.now >= cycle);
            }
            if !self.hw.stop {
                return false;
            }
            if let Some(ended) = self.finish_run(target) {
                return ended;
            }
        }
    }

    /// Run as one side of a linked pair ([`crate::link::Pair`]): until the clock reaches
    /// `bound` (an instruction boundary at or after it; a sleeping CPU wakes there), the frame
    /// ends, or the serial port starts or arms a transfer (the pair decides who runs next).
    /// True if the frame ended.
    pub(crate) fn run_link_slice(&mut self, bound: u64) -> bool {
        loop {
            let target = self.deadline();
            self.hw.set_stop_at(target.min(bound));
            self.cpu.run_until(&mut self.hw, |_, hw| hw.stop);
            let port_stop = self
                .hw
                .serial
                .port_mut()
                .map(|p| std::mem::take(&mut p.stop))
                .unwrap_or(false);
            if self.hw.ppu.frame_ready || self.hw.now >= target {
                if self.frame_over() {
                    self.end_frame();
                    return true;
                }
                self.hw.clear_stop();
                continue;
            }
            self.hw.clear_stop();
            if port_stop || self.hw.now >= bound {
                return false;
            }
        }
    }

    /// Attach the Game Boy Printer to the serial port (`true`) or nothing (`false`); a
    /// linked pair's port is for [`crate::link::Pair`] to change.
    pub fn attach_printer(&mut self, on: bool) {
        let device = if on {
            crate::serial::Device::Printer(Box::default())
        } else {
            crate::serial::Device::Nothing
        };
        self.hw.serial.set_device(device);
    }

    /// The printer on the serial port, if one is attached.
    pub fn printer_mut(&mut self) -> Option<&mut crate::serial::Printer> {
        match self.hw.serial.device_mut() {
            crate::serial::Device::Printer(p) => Some(p),
            _ => None,
        }
    }

    /// The serial port (a linked pair's driver reads and changes its link port).
    pub(crate) fn serial_mut(&mut self) -> &mut crate::serial::Serial {
        &mut self.hw.serial
    }

    /// The serial port, to read.
    pub(crate) fn serial(&self) -> &crate::serial::Serial {
        &self.hw.serial
    }

    /// How much output waits: serial bytes logged and audio samples (a linked pair's side
    /// run again from an earlier moment trims them back with [`Gb::trim_outputs`]).
    pub(crate) fn outputs(&mut self) -> (usize, usize) {
        (self.hw.serial.output.len(), self.hw.apu.samples().len())
    }

    /// Forget the output made after [`Gb::outputs`] said `marks`.
    pub(crate) fn trim_outputs(&mut self, marks: (usize, usize)) {
        self.hw.serial.output.truncate(marks.0);
        self.hw.apu.samples().keep_first(marks.1);
    }

    /// The scheduler's next event moved (edges were handed to the serial port).
    pub(crate) fn serial_changed(&mut self) {
        self.hw.reschedule();
    }

    /// Write `value` to `addr` as a debugger poke: no time passes, and I/O registers take the
    /// write as if the CPU made it.
    pub fn poke(&mut self, addr: u16, value: u8) {
        self.hw.write_byte(addr, value);
    }

    /// A memory domain's bytes, as they are (no side effects, no access blocking): every
    /// bank of a banked memory (see [`Domain`]).
    pub fn domain(&self, domain: Domain) -> &[u8] {
        match domain {
            Domain::Rom => self.hw.cart.rom(),
            Domain::Wram => &self.hw.wram[..self.hw.wram_len()],
            Domain::Vram => &self.hw.ppu.vram[..self.hw.vram_len()],
            Domain::Oam => &self.hw.ppu.oam,
            Domain::Hram => &self.hw.hram,
            Domain::CartRam => self.hw.cart.ram(),
        }
    }

    /// A memory domain's bytes, writable (a debugger write: nothing else happens); `None` for
    /// the ROM, which is read-only.
    pub fn domain_mut(&mut self, domain: Domain) -> Option<&mut [u8]> {
        let (wram, vram) = (self.hw.wram_len(), self.hw.vram_len());
        match domain {
            Domain::Rom => None,
            Domain::Wram => Some(&mut self.hw.wram[..wram]),
            Domain::Vram => {
                // The picture is drawn from it: lines drawn before are not kept.
                self.hw.ppu.touch();
                Some(&mut self.hw.ppu.vram[..vram])
            }
            Domain::Oam => {
                self.hw.ppu.touch();
                Some(&mut self.hw.ppu.oam)
            }
            Domain::Hram => Some(&mut self.hw.hram),
            Domain::CartRam => Some(self.hw.cart.ram_mut()),
        }
    }

    /// Set the CPU registers (a debugger write; F's low nibble is always 0).
    pub fn set_registers(&mut self, regs: Registers) {
        self.cpu.regs = Registers {
            f: regs.f & 0xF0,
            ..regs
        };
    }

    /// The cartridge (battery RAM, header).
    pub fn cartridge(&self) -> &Cartridge {
        &self.hw.cart
    }

    /// The cartridge, mutably (to load battery RAM).
    pub fn cartridge_mut(&mut self) -> &mut Cartridge {
        &mut self.hw.cart
    }
}
