//! The SM83 CPU: registers, the fetch/decode/execute loop and interrupt dispatch.
//!
//! The CPU reaches the rest of the machine only through [`Bus`], where every call is exactly one
//! M-cycle (4 T-cycles): [`Bus::read`] and [`Bus::write`] for memory accesses and [`Bus::idle`] for
//! the internal cycles some instructions spend. So each access lands on its exact M-cycle, and the
//! timing tests (Blargg's `instr_timing`/`mem_timing`, Mooneye's `*_timing`) follow from the
//! instruction bodies alone. Decoding is one explicit `match` per opcode table.
//!
//! Interrupts are checked at the end of each opcode fetch, which then becomes the first
//! M-cycle of the dispatch; HALT wakes on requests made by phase C of an M-cycle (the bus's
//! [`Bus::halt_wait`]). `docs/timing.md` has these edges with their hardware references.

/// Flag bit masks of the F register (Pan Docs: "CPU Registers and Flags").
pub mod flags {
    /// Zero flag.
    pub const Z: u8 = 0x80;
    /// Subtraction flag (BCD).
    pub const N: u8 = 0x40;
    /// Half-carry flag (BCD).
    pub const H: u8 = 0x20;
    /// Carry flag.
    pub const C: u8 = 0x10;
}
use flags::{C, H, N, Z};

/// The machine the CPU drives. Every access (`read`, `write`, `idle` and their IDU forms)
/// takes exactly one M-cycle; the waits (`halt_wait`, `idle_until_event`) as many as they
/// need; the queries, `acknowledge_interrupt` and `settle` none.
pub trait Bus {
    /// Advance one M-cycle, then read `addr`.
    fn read(&mut self, addr: u16) -> u8;
    /// [`Bus::read`] of an opcode (the M-cycle the CPU also checks for interrupts in): the
    /// CGB's VRAM DMA takes the bus only after one (`docs/timing.md`, "VRAM DMA").
    fn fetch(&mut self, addr: u16) -> u8 {
        self.read(addr)
    }
    /// Advance one M-cycle, then write `value` to `addr`.
    fn write(&mut self, addr: u16, value: u8);
    /// Advance one M-cycle with no memory access.
    fn idle(&mut self);
    /// Advance one M-cycle in which the 16-bit increment/decrement unit (IDU) puts `addr` on the
    /// address bus without a memory access (`INC rr`, `DEC rr`, the SP update before a push).
    /// On the DMG this can corrupt OAM (Pan Docs: "OAM Corruption Bug").
    fn idle_idu(&mut self, addr: u16) {
        let _ = addr;
        self.idle();
    }
    /// Like [`Bus::read`], while the IDU also increments or decrements the register that held
    /// `addr` (`LD A,[HL+]`, `LD A,[HL-]`, the first read of a pop).
    fn read_idu(&mut self, addr: u16) -> u8 {
        self.read(addr)
    }
    /// Advance whole M-cycles with no memory access up to the next hardware event (at least
    /// one M-cycle), for a CPU that can only be woken by one (STOP).
    fn idle_until_event(&mut self) {
        self.idle();
    }
    /// HALT: true when an interrupt request wakes the CPU for the next M-cycle (which is then an
    /// opcode fetch); else advance whole M-cycles without memory accesses, at least one, and
    /// return false when the run loop must look (a frame ended) or nothing else can happen.
    fn halt_wait(&mut self) -> bool {
        if self.pending_interrupts() != 0 {
            return true;
        }
        self.idle();
        false
    }
    /// Right after [`Bus::halt_wait`] woke the CPU at `pc` (`dispatch`: an interrupt is to be
    /// dispatched): `Some(opcode)` when the wake-up's opcode fetch leaves PC where it is, as the
    /// halt bug does, and runs `opcode`, the byte HALT read before the sleep, instead of what
    /// it reads (the CGB's VRAM DMA; no time passes).
    fn wake_refetches(&mut self, _dispatch: bool, _pc: u16) -> Option<u8> {
        None
    }
    /// The requested and enabled interrupts, `IE & IF & 0x1F` (no time passes).
    fn pending_interrupts(&self) -> u8;
    /// Clear bit `bit` of IF as the CPU acknowledges that interrupt (no time passes).
    fn acknowledge_interrupt(&mut self, bit: u8);
    /// HALT with nothing pending: a PPU request made by the end of the next M-cycle counts as
    /// pending at HALT (with IME 0 the halt bug, with IME 1 a dispatch that returns to the
    /// HALT; `docs/timing.md`). No time passes.
    fn halt_sees_ppu(&mut self) {}
    /// The CPU has just entered HALT (the HALT opcode's fetch is over): OAM DMA still runs in
    /// HALT's first M-cycle (`docs/timing.md`, "OAM DMA's buses"). No time passes.
    fn halt_begins(&mut self) {}
    /// The dispatch has pushed PC high and is about to choose its vector: a PPU request
    /// (VBlank, STAT) made by the end of the dispatch's last M-cycle still counts
    /// (`docs/timing.md`, "The CPU side"); `next_push` is where PC low goes next. No time
    /// passes.
    fn vector_sees_ppu(&mut self, _next_push: u16) {}
    /// The dispatch's last M-cycle has passed (the next is the handler's opcode fetch): the
    /// acknowledge of `bit` still holds that flag clear for a while, so a request for it made
    /// since [`Bus::acknowledge_interrupt`] or in that hold is dropped (how long it holds
    /// depends on the source: `docs/timing.md`, "The CPU side"). No time passes.
    fn acknowledge_held(&mut self, bit: u8) {
        let _ = bit;
    }
    /// The CPU enters STOP mode: the hardware resets DIV (the CPU then waits for a joypad
    /// press).
    fn stop(&mut self);
    /// Whether a joypad line is low, which wakes the CPU from STOP (no time passes).
    fn joypad_wake(&self) -> bool;
    /// Whether the next STOP switches the CPU's speed (the CGB's KEY1 bit 0; no time passes).
    fn speed_switch_armed(&self) -> bool {
        false
    }
    /// STOP switches the speed (the CGB): DIV is reset, the speed toggles, and with `halt` the
    /// CPU sits in HALT until an interrupt or the switch's end ([`Bus::halt_wait`] wakes it).
    /// `operand`: STOP's second byte's address. Returns `Some(byte)` when that byte's fetch
    /// is then repeated as an opcode fetch that runs `byte`, STOP's operand as read before the
    /// switch (a VRAM DMA block was waiting for an opcode fetch: `docs/timing.md`).
    fn switch_speed(&mut self, _halt: bool, _operand: u16) -> Option<u8> {
        None
    }
    /// The run loop stopped (no time passes): bring up to now whatever the machine keeps
    /// lazily, so everything it holds can be looked at or saved.
    fn settle(&mut self) {}
}

/// What the CPU is doing between instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CpuMode {
    /// Fetching and executing instructions.
    #[default]
    Running,
    /// Waiting in HALT for an interrupt request.
    Halted,
    /// In STOP mode, waiting for a joypad press.
    Stopped,
    /// Executed an illegal opcode: the CPU hangs until reset (time still passes).
    Locked,
}

/// A copy of the register file, for hosts and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Registers {
    /// Accumulator.
    pub a: u8,
    /// Flags (Z N H C in bits 7..4; the low nibble is always 0).
    pub f: u8,
    /// B.
    pub b: u8,
    /// C.
    pub c: u8,
    /// D.
    pub d: u8,
    /// E.
    pub e: u8,
    /// H.
    pub h: u8,
    /// L.
    pub l: u8,
    /// Stack pointer.
    pub sp: u16,
    /// Program counter.
    pub pc: u16,
}

/// The SM83 core: registers plus the interrupt master enable and halt state.
#[derive(Clone, Debug, Default)]
pub struct Cpu {
    /// The register file.
    pub regs: Registers,
    /// Interrupt master enable.
    pub ime: bool,
    /// EI was executed by the previous instruction: IME turns on after the current one.
    pub(crate) ei_pending: bool,
    /// IME was turned on by an EI just before the current instruction.
    ei_just_enabled: bool,
    /// Running, halted, stopped or locked.
    pub(crate) mode: CpuMode,
    /// HALT was executed with IME=0 and an interrupt pending: the next opcode byte is read
    /// twice (the "halt bug").
    pub(crate) halt_bug: bool,
    /// The opcode the next opcode fetch runs instead of the byte it reads: a byte read before
    /// a sleep that a VRAM DMA block waited through (HALT's next byte, STOP's operand).
    pub(crate) latched: Option<u8>,
    /// Any of: not running, EI pending, halt bug; the next step takes [`Cpu::step_slow`].
    slow: bool,
    /// Set when the CPU executes `LD B,B` (0x40), the debug breakpoint of test ROMs; hosts clear it.
    pub ld_b_b: bool,
    /// Interrupt dispatches so far, wrapping: what a debugger's "interrupt taken" breakpoint
    /// watches. An observer, not state: not in the state image.
    pub dispatches: u32,
    /// Where the last instruction a debug run ran began (see `Gb::run_debug`); an observer,
    /// not in the state image.
    pub debug_pc: u16,
}

/// The opcode `match`: each listed group's opcodes get an arm of their own that calls the
/// group's method with the opcode as a constant (`self.op_ld::<B, 0x41>(bus)`), so the
/// register, pair or condition it names is folded away: one jump per instruction, no second
/// `match` on operand bits. The other opcodes' arms follow as written.
macro_rules! dispatch {
    ($self:ident, $bus:ident, $op:ident, $($name:ident [$($x:literal),* $(,)?])*
     { $($rest:tt)* }) => {
        match $op {
            $($($x => $self.$name::<B, $x>($bus),)*)*
            $($rest)*
        }
    };
}

mod ops;

/// Decoded 8-bit register operand (bits 2..0 or 5..3 of an opcode). 6 is `(HL)`.
const R_HL_IND: u8 = 6;

impl Cpu {
    /// A CPU in the state the DMG boot ROM leaves it at 0x0100 (Pan Docs: "Power Up Sequence").
    pub fn post_boot_dmg() -> Cpu {
        Cpu {
            regs: Registers {
                a: 0x01,
                f: 0xB0,
                b: 0x00,
                c: 0x13,
                d: 0x00,
                e: 0xD8,
                h: 0x01,
                l: 0x4D,
                sp: 0xFFFE,
                pc: 0x0100,
            },
            ..Cpu::default()
        }
    }

    /// A CPU with these registers, IME and mode, between two instructions, with no EI pending
    /// and no halt bug (a save state that keeps neither: BESS, [`crate::bess`]).
    pub(crate) fn restored(regs: Registers, ime: bool, mode: CpuMode) -> Cpu {
        Cpu {
            regs: Registers {
                f: regs.f & 0xF0,
                ..regs
            },
            ime,
            mode,
            slow: mode != CpuMode::Running,
            ..Cpu::default()
        }
    }

    /// Run one step: one instruction, one interrupt dispatch, or (in HALT/STOP) the M-cycles up
    /// to the next hardware event.
    ///
    /// The CPU looks for interrupts at the end of each opcode fetch (Pan Docs "Interrupts";
    /// GateBoy: IF is latched late in the fetch M-cycle): a request that lands during the fetch
    /// turns it into the first M-cycle of the dispatch, and the opcode is dropped. So a request
    /// that the instruction before missed (it read IF a little earlier) is still taken before
    /// the next instruction (gbmicrotest `line_144_oam_int_b`, `hblank_int_scx*_if_b`).
    #[inline(always)]
    pub fn step<B: Bus>(&mut self, bus: &mut B) {
        if self.slow {
            self.step_slow(bus);
            return;
        }
        // A byte latched across a sleep keeps the CPU on the slow path until it is used.
        debug_assert!(self.latched.is_none());
        let op = bus.fetch(self.regs.pc);
        if self.ime && bus.pending_interrupts() != 0 {
            self.dispatch(bus);
            return;
        }
        self.regs.pc = self.regs.pc.wrapping_add(1);
        self.execute(op, bus);
    }

    /// Whether the next step must take [`Cpu::step`]'s slow path: not running, IME about to
    /// turn on, the halt bug, or a byte latched across a sleep.
    fn needs_slow(&self) -> bool {
        self.mode != CpuMode::Running || self.ei_pending || self.halt_bug || self.latched.is_some()
    }

    /// Running, halted, stopped or locked.
    pub fn mode(&self) -> CpuMode {
        self.mode
    }

    /// Whether the next step runs the instruction at PC (running, no interrupt to take).
    /// (A request landing during the opcode fetch still turns it into a dispatch.)
    pub fn runs_instruction_next<B: Bus>(&self, bus: &B) -> bool {
        self.mode == CpuMode::Running && !(self.ime && bus.pending_interrupts() != 0)
    }

    /// Run steps until `done` says so (checked before each step), then [`Bus::settle`].
    #[inline]
    pub fn run_until<B: Bus>(&mut self, bus: &mut B, mut done: impl FnMut(&Cpu, &mut B) -> bool) {
        while !done(self, bus) {
            self.step(bus);
        }
        bus.settle();
    }

    /// [`Cpu::step`] when anything unusual is going on: HALT, STOP, a lock-up, an interrupt to
    /// dispatch, IME about to turn on, the halt bug, or a byte latched across a sleep.
    #[cold]
    #[inline(never)]
    fn step_slow<B: Bus>(&mut self, bus: &mut B) {
        self.step_slow_inner(bus);
        self.slow = self.needs_slow();
    }

    fn step_slow_inner<B: Bus>(&mut self, bus: &mut B) {
        match self.mode {
            CpuMode::Running => {}
            CpuMode::Halted => {
                if !bus.halt_wait() {
                    return;
                }
                self.mode = CpuMode::Running;
                let dispatch = self.ime && bus.pending_interrupts() != 0;
                if let Some(op) = bus.wake_refetches(dispatch, self.regs.pc) {
                    self.halt_bug = true;
                    self.latched = Some(op);
                }
            }
            CpuMode::Stopped => {
                if bus.joypad_wake() {
                    self.mode = CpuMode::Running;
                } else {
                    bus.idle_until_event();
                    return;
                }
            }
            CpuMode::Locked => {
                bus.idle();
                return;
            }
        }
        let mut op = bus.fetch(self.regs.pc);
        if let Some(latched) = self.latched.take() {
            op = latched;
        }
        if self.ime && bus.pending_interrupts() != 0 {
            self.dispatch(bus);
            return;
        }
        // IME turns on after the check at the end of this fetch (EI's one-instruction delay).
        self.ei_just_enabled = self.ei_pending;
        if self.ei_pending {
            self.ei_pending = false;
            self.ime = true;
        }
        if self.halt_bug {
            self.halt_bug = false;
        } else {
            self.regs.pc = self.regs.pc.wrapping_add(1);
        }
        self.execute(op, bus);
        self.ei_just_enabled = false;
    }

    /// Interrupt dispatch after the opcode fetch that saw the request (its opcode is dropped and
    /// PC stays): 4 more M-cycles, 5 in all, PC pushed in the last two (Gambatte's
    /// `oamdma_src0000_busyint0002`: the pushes meet an OAM DMA an M-cycle after RST's would).
    /// The vector is chosen after the high byte of PC is pushed, so a push that lands on IE
    /// (SP=0x0000) can cancel it (Mooneye `ie_push`): PC becomes 0.
    fn dispatch<B: Bus>(&mut self, bus: &mut B) {
        self.dispatches = self.dispatches.wrapping_add(1);
        self.ime = false;
        // A halt bug's repeated byte is the dropped opcode: PC is pushed as it is.
        self.halt_bug = false;
        bus.idle_idu(self.regs.sp);
        bus.idle();
        let pc = self.regs.pc;
        self.regs.sp = self.regs.sp.wrapping_sub(1);
        bus.write(self.regs.sp, (pc >> 8) as u8);
        bus.vector_sees_ppu(self.regs.sp.wrapping_sub(1));
        let pending = bus.pending_interrupts();
        let bit = pending.trailing_zeros() as u8;
        if pending != 0 {
            bus.acknowledge_interrupt(bit);
        }
        self.regs.sp = self.regs.sp.wrapping_sub(1);
        bus.write(self.regs.sp, pc as u8);
        if pending == 0 {
            self.regs.pc = 0x0000;
        } else {
            self.regs.pc = 0x0040 + 8 * u16::from(bit);
            bus.acknowledge_held(bit);
        }
    }

    #[inline(always)]
    fn imm8<B: Bus>(&mut self, bus: &mut B) -> u8 {
        let v = bus.read(self.regs.pc);
        self.regs.pc = self.regs.pc.wrapping_add(1);
        v
    }

    #[inline(always)]
    fn imm16<B: Bus>(&mut self, bus: &mut B) -> u16 {
        let lo = self.imm8(bus);
        let hi = self.imm8(bus);
        u16::from_le_bytes([lo, hi])
    }

    #[inline(always)]
    fn hl(&self) -> u16 {
        u16::from_be_bytes([self.regs.h, self.regs.l])
    }
    #[inline(always)]
    fn set_hl(&mut self, v: u16) {
        [self.regs.h, self.regs.l] = v.to_be_bytes();
    }
    #[inline(always)]
    fn bc(&self) -> u16 {
        u16::from_be_bytes([self.regs.b, self.regs.c])
    }
    #[inline(always)]
    fn de(&self) -> u16 {
        u16::from_be_bytes([self.regs.d, self.regs.e])
    }

    /// Read a 16-bit register pair by its opcode index (0 BC, 1 DE, 2 HL, 3 SP).
    #[inline(always)]
    fn rp(&self, idx: u8) -> u16 {
        match idx & 3 {
            0 => self.bc(),
            1 => self.de(),
            2 => self.hl(),
            _ => self.regs.sp,
        }
    }
    #[inline(always)]
    fn set_rp(&mut self, idx: u8, v: u16) {
        let [hi, lo] = v.to_be_bytes();
        match idx & 3 {
            0 => (self.regs.b, self.regs.c) = (hi, lo),
            1 => (self.regs.d, self.regs.e) = (hi, lo),
            2 => (self.regs.h, self.regs.l) = (hi, lo),
            _ => self.regs.sp = v,
        }
    }

    /// Read an 8-bit operand by its opcode index; `(HL)` costs a read cycle.
    #[inline(always)]
    fn r8<B: Bus>(&mut self, bus: &mut B, idx: u8) -> u8 {
        match idx & 7 {
            0 => self.regs.b,
            1 => self.regs.c,
            2 => self.regs.d,
            3 => self.regs.e,
            4 => self.regs.h,
            5 => self.regs.l,
            R_HL_IND => bus.read(self.hl()),
            _ => self.regs.a,
        }
    }
    #[inline(always)]
    fn set_r8<B: Bus>(&mut self, bus: &mut B, idx: u8, v: u8) {
        match idx & 7 {
            0 => self.regs.b = v,
            1 => self.regs.c = v,
            2 => self.regs.d = v,
            3 => self.regs.e = v,
            4 => self.regs.h = v,
            5 => self.regs.l = v,
            R_HL_IND => bus.write(self.hl(), v),
            _ => self.regs.a = v,
        }
    }

    #[inline(always)]
    fn condition(&self, cc: u8) -> bool {
        let f = self.regs.f;
        match cc & 3 {
            0 => f & Z == 0,
            1 => f & Z != 0,
            2 => f & C == 0,
            _ => f & C != 0,
        }
    }

    #[inline(always)]
    fn push<B: Bus>(&mut self, bus: &mut B, v: u16) {
        let [hi, lo] = v.to_be_bytes();
        self.regs.sp = self.regs.sp.wrapping_sub(1);
        bus.write(self.regs.sp, hi);
        self.regs.sp = self.regs.sp.wrapping_sub(1);
        bus.write(self.regs.sp, lo);
    }

    #[inline(always)]
    fn pop<B: Bus>(&mut self, bus: &mut B) -> u16 {
        let lo = bus.read_idu(self.regs.sp);
        self.regs.sp = self.regs.sp.wrapping_add(1);
        let hi = bus.read(self.regs.sp);
        self.regs.sp = self.regs.sp.wrapping_add(1);
        u16::from_le_bytes([lo, hi])
    }

    /// The 8-bit ALU: op index from bits 5..3 of 0x80-0xBF / 0xC6-0xFE.
    #[inline(always)]
    fn alu(&mut self, op: u8, v: u8) {
        let a = self.regs.a;
        match op & 7 {
            0 | 1 => {
                let carry = u8::from(op & 7 == 1 && self.regs.f & C != 0);
                let r = u16::from(a) + u16::from(v) + u16::from(carry);
                let res = r as u8;
                let mut f = 0;
                if res == 0 {
                    f |= Z;
                }
                if (a & 0xF) + (v & 0xF) + carry > 0xF {
                    f |= H;
                }
                if r > 0xFF {
                    f |= C;
                }
                self.regs.a = res;
                self.regs.f = f;
            }
            2 | 3 | 7 => {
                let carry = u8::from(op & 7 == 3 && self.regs.f & C != 0);
                let r = i16::from(a) - i16::from(v) - i16::from(carry);
                let res = r as u8;
                let mut f = N;
                if res == 0 {
                    f |= Z;
                }
                if i16::from(a & 0xF) - i16::from(v & 0xF) - i16::from(carry) < 0 {
                    f |= H;
                }
                if r < 0 {
                    f |= C;
                }
                if op & 7 != 7 {
                    self.regs.a = res;
                }
                self.regs.f = f;
            }
            4 => {
                self.regs.a = a & v;
                self.regs.f = if self.regs.a == 0 { Z | H } else { H };
            }
            5 => {
                self.regs.a = a ^ v;
                self.regs.f = if self.regs.a == 0 { Z } else { 0 };
            }
            _ => {
                self.regs.a = a | v;
                self.regs.f = if self.regs.a == 0 { Z } else { 0 };
            }
        }
    }

    fn inc8(&mut self, v: u8) -> u8 {
        let r = v.wrapping_add(1);
        let mut f = self.regs.f & C;
        if r == 0 {
            f |= Z;
        }
        if v & 0xF == 0xF {
            f |= H;
        }
        self.regs.f = f;
        r
    }

    fn dec8(&mut self, v: u8) -> u8 {
        let r = v.wrapping_sub(1);
        let mut f = (self.regs.f & C) | N;
        if r == 0 {
            f |= Z;
        }
        if v & 0xF == 0 {
            f |= H;
        }
        self.regs.f = f;
        r
    }

    /// SP plus a signed offset, with the flags of `ADD SP,e` / `LD HL,SP+e` (from the low byte).
    fn sp_plus_e(&mut self, e: u8) -> u16 {
        let sp = self.regs.sp;
        let mut f = 0;
        if (sp & 0xF) + u16::from(e & 0xF) > 0xF {
            f |= H;
        }
        if (sp & 0xFF) + u16::from(e) > 0xFF {
            f |= C;
        }
        self.regs.f = f;
        sp.wrapping_add(e as i8 as u16)
    }

    fn daa(&mut self) {
        let mut a = self.regs.a;
        let f = self.regs.f;
        let mut carry = f & C != 0;
        if f & N == 0 {
            if carry || a > 0x99 {
                a = a.wrapping_add(0x60);
                carry = true;
            }
            if f & H != 0 || a & 0x0F > 0x09 {
                a = a.wrapping_add(0x06);
            }
        } else {
            if carry {
                a = a.wrapping_sub(0x60);
            }
            if f & H != 0 {
                a = a.wrapping_sub(0x06);
            }
        }
        let mut nf = f & N;
        if a == 0 {
            nf |= Z;
        }
        if carry {
            nf |= C;
        }
        self.regs.a = a;
        self.regs.f = nf;
    }

    /// Rotates and shifts of the CB table (0x00-0x3F), op index from bits 5..3.
    #[inline(always)]
    fn rot(&mut self, op: u8, v: u8) -> u8 {
        let carry_in = self.regs.f & C != 0;
        let (r, carry_out) = match op & 7 {
            0 => (v.rotate_left(1), v & 0x80 != 0),
            1 => (v.rotate_right(1), v & 1 != 0),
            2 => ((v << 1) | u8::from(carry_in), v & 0x80 != 0),
            3 => ((v >> 1) | (u8::from(carry_in) << 7), v & 1 != 0),
            4 => (v << 1, v & 0x80 != 0),
            5 => ((v >> 1) | (v & 0x80), v & 1 != 0),
            6 => (v.rotate_left(4), false),
            _ => (v >> 1, v & 1 != 0),
        };
        let mut f = 0;
        if r == 0 {
            f |= Z;
        }
        if carry_out {
            f |= C;
        }
        self.regs.f = f;
        r
    }

    /// Execute one opcode whose byte was just fetched.
    #[inline(always)]
    fn execute<B: Bus>(&mut self, op: u8, bus: &mut B) {
        dispatch!(
            self,
            bus,
            op,
            op_ld [0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4A, 0x4B, 0x4C, 0x4D, 0x4E, 0x4F, 0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x5B, 0x5C, 0x5D, 0x5E, 0x5F, 0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x6B, 0x6C, 0x6D, 0x6E, 0x6F, 0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x77, 0x78, 0x79, 0x7A, 0x7B, 0x7C, 0x7D, 0x7E, 0x7F]
            op_alu [0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8A, 0x8B, 0x8C, 0x8D, 0x8E, 0x8F, 0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0x9B, 0x9C, 0x9D, 0x9E, 0x9F, 0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xAB, 0xAC, 0xAD, 0xAE, 0xAF, 0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xBB, 0xBC, 0xBD, 0xBE, 0xBF]
            op_ld16 [0x01, 0x11, 0x21, 0x31]
            op_inc16 [0x03, 0x13, 0x23, 0x33]
            op_dec16 [0x0B, 0x1B, 0x2B, 0x3B]
            op_add_hl [0x09, 0x19, 0x29, 0x39]
            op_inc8 [0x04, 0x0C, 0x14, 0x1C, 0x24, 0x2C, 0x34, 0x3C]
            op_dec8 [0x05, 0x0D, 0x15, 0x1D, 0x25, 0x2D, 0x35, 0x3D]
            op_ld_n [0x06, 0x0E, 0x16, 0x1E, 0x26, 0x2E, 0x36, 0x3E]
            op_rot_a [0x07, 0x0F, 0x17, 0x1F]
            op_jr_cc [0x20, 0x28, 0x30, 0x38]
            op_alu_n [0xC6, 0xCE, 0xD6, 0xDE, 0xE6, 0xEE, 0xF6, 0xFE]
            op_ret_cc [0xC0, 0xC8, 0xD0, 0xD8]
            op_pop [0xC1, 0xD1, 0xE1]
            op_push [0xC5, 0xD5, 0xE5]
            op_jp_cc [0xC2, 0xCA, 0xD2, 0xDA]
            op_call_cc [0xC4, 0xCC, 0xD4, 0xDC]
            op_rst [0xC7, 0xCF, 0xD7, 0xDF, 0xE7, 0xEF, 0xF7, 0xFF]
            {
                0x00 => {}
                0x02 => bus.write(self.bc(), self.regs.a),
                0x12 => bus.write(self.de(), self.regs.a),
                0x22 => {
                    let hl = self.hl();
                    bus.write(hl, self.regs.a);
                    self.set_hl(hl.wrapping_add(1));
                }
                0x32 => {
                    let hl = self.hl();
                    bus.write(hl, self.regs.a);
                    self.set_hl(hl.wrapping_sub(1));
                }
                0x0A => self.regs.a = bus.read(self.bc()),
                0x1A => self.regs.a = bus.read(self.de()),
                0x2A => {
                    let hl = self.hl();
                    self.regs.a = bus.read_idu(hl);
                    self.set_hl(hl.wrapping_add(1));
                }
                0x3A => {
                    let hl = self.hl();
                    self.regs.a = bus.read_idu(hl);
                    self.set_hl(hl.wrapping_sub(1));
                }
                0x08 => {
                    let addr = self.imm16(bus);
                    let [hi, lo] = self.regs.sp.to_be_bytes();
                    bus.write(addr, lo);
                    bus.write(addr.wrapping_add(1), hi);
                }
                0x10 => {
                    // Pan Docs, "Using the STOP Instruction". With an interrupt pending STOP
                    // is one byte (the next one runs as an opcode), else two. A button held
                    // and selected: no STOP mode and no DIV reset; HALT mode unless an
                    // interrupt is pending. Else, with a speed switch armed (CGB): DIV reset,
                    // the speed changes, HALT mode until the switch is over unless an
                    // interrupt is pending. Else STOP mode, DIV reset.
                    let pending = bus.pending_interrupts() != 0;
                    let switch = !bus.joypad_wake() && bus.speed_switch_armed();
                    if !pending {
                        if !switch {
                            bus.read(self.regs.pc);
                        }
                        self.regs.pc = self.regs.pc.wrapping_add(1);
                    }
                    if bus.joypad_wake() {
                        if !pending {
                            self.mode = CpuMode::Halted;
                            self.slow = true;
                        }
                    } else if bus.speed_switch_armed() {
                        let operand = self.regs.pc.wrapping_sub(1);
                        if let Some(op) = bus.switch_speed(!pending, operand) {
                            self.regs.pc = operand;
                            self.latched = Some(op);
                            self.slow = true;
                        }
                        if !pending {
                            self.mode = CpuMode::Halted;
                            self.slow = true;
                        }
                    } else {
                        bus.stop();
                        self.mode = CpuMode::Stopped;
                        self.slow = true;
                    }
                }
                0x18 => {
                    let e = self.imm8(bus) as i8;
                    self.regs.pc = self.regs.pc.wrapping_add(e as u16);
                    bus.idle();
                }
                0x27 => self.daa(),
                0x2F => {
                    self.regs.a = !self.regs.a;
                    self.regs.f |= N | H;
                }
                0x37 => self.regs.f = (self.regs.f & Z) | C,
                0x3F => self.regs.f = (self.regs.f & Z) | ((self.regs.f & C) ^ C),
                0x40 => self.ld_b_b = true,
                0x76 => {
                    self.slow = true;
                    if bus.pending_interrupts() == 0 {
                        bus.halt_sees_ppu();
                    }
                    if bus.pending_interrupts() == 0 {
                        self.mode = CpuMode::Halted;
                        bus.halt_begins();
                    } else if !self.ime {
                        // The halt bug: HALT ends at once and the next byte is read twice.
                        self.halt_bug = true;
                    } else {
                        // IME 1 with an interrupt pending at HALT (`EI; HALT`, or a PPU request
                        // made in the M-cycle after HALT's fetch): it is serviced at once and
                        // returns to the HALT, which runs again (Pan Docs: "halt bug";
                        // Gambatte's `halt/late_m0int_halt_m0stat_scx2_3a`, `scx3_3a`).
                        self.regs.pc = self.regs.pc.wrapping_sub(1);
                    }
                }
                0xC9 => {
                    self.regs.pc = self.pop(bus);
                    bus.idle();
                }
                0xD9 => {
                    self.regs.pc = self.pop(bus);
                    bus.idle();
                    self.ime = true;
                }
                0xF1 => {
                    let [a, f] = self.pop(bus).to_be_bytes();
                    self.regs.a = a;
                    self.regs.f = f & 0xF0;
                }
                0xF5 => {
                    bus.idle_idu(self.regs.sp);
                    let v = u16::from_be_bytes([self.regs.a, self.regs.f]);
                    self.push(bus, v);
                }
                0xC3 => {
                    self.regs.pc = self.imm16(bus);
                    bus.idle();
                }
                0xE9 => self.regs.pc = self.hl(),
                0xCD => {
                    let addr = self.imm16(bus);
                    bus.idle_idu(self.regs.sp);
                    self.push(bus, self.regs.pc);
                    self.regs.pc = addr;
                }
                0xCB => self.execute_cb(bus),
                0xE0 => {
                    let n = self.imm8(bus);
                    bus.write(0xFF00 | u16::from(n), self.regs.a);
                }
                0xF0 => {
                    let n = self.imm8(bus);
                    self.regs.a = bus.read(0xFF00 | u16::from(n));
                }
                0xE2 => bus.write(0xFF00 | u16::from(self.regs.c), self.regs.a),
                0xF2 => self.regs.a = bus.read(0xFF00 | u16::from(self.regs.c)),
                0xEA => {
                    let addr = self.imm16(bus);
                    bus.write(addr, self.regs.a);
                }
                0xFA => {
                    let addr = self.imm16(bus);
                    self.regs.a = bus.read(addr);
                }
                0xE8 => {
                    let e = self.imm8(bus);
                    self.regs.sp = self.sp_plus_e(e);
                    bus.idle();
                    bus.idle();
                }
                0xF8 => {
                    let e = self.imm8(bus);
                    let v = self.sp_plus_e(e);
                    self.set_hl(v);
                    bus.idle();
                }
                0xF9 => {
                    self.regs.sp = self.hl();
                    bus.idle();
                }
                0xF3 => {
                    self.ime = false;
                    self.ei_pending = false;
                }
                0xFB => {
                    self.ei_pending = true;
                    self.slow = true;
                }
                // Illegal: the CPU locks up.
                0xD3 | 0xDB | 0xDD | 0xE3 | 0xE4 | 0xEB | 0xEC | 0xED | 0xF4 | 0xFC | 0xFD => {
                    self.mode = CpuMode::Locked;
                    self.slow = true;
                }
            }
        )
    }
}

impl Cpu {
    /// Append the CPU's part of the state image.
    pub(crate) fn save_state(&self, w: &mut crate::state::Writer<'_>) {
        let r = &self.regs;
        w.bytes(&[r.a, r.f, r.b, r.c, r.d, r.e, r.h, r.l]);
        w.u16(r.sp);
        w.u16(r.pc);
        w.bool(self.ime);
        w.bool(self.ei_pending);
        w.bool(self.ei_just_enabled);
        w.u8(match self.mode {
            CpuMode::Running => 0,
            CpuMode::Halted => 1,
            CpuMode::Stopped => 2,
            CpuMode::Locked => 3,
        });
        w.bool(self.halt_bug);
        w.bool(self.ld_b_b);
        w.bool(self.latched.is_some());
        w.u8(self.latched.unwrap_or(0));
    }

    /// Read the CPU's part of the state image.
    pub(crate) fn load_state(
        &mut self,
        r: &mut crate::state::Reader<'_>,
    ) -> Result<(), crate::state::StateError> {
        let mut b = [0; 8];
        r.bytes(&mut b)?;
        let [a, f, b_, c, d, e, h, l] = b;
        self.regs = Registers {
            a,
            f: f & 0xF0,
            b: b_,
            c,
            d,
            e,
            h,
            l,
            sp: r.u16()?,
            pc: r.u16()?,
        };
        self.ime = r.bool()?;
        self.ei_pending = r.bool()?;
        self.ei_just_enabled = r.bool()?;
        self.mode = match r.below(4, "CPU mode")? {
            0 => CpuMode::Running,
            1 => CpuMode::Halted,
            2 => CpuMode::Stopped,
            _ => CpuMode::Locked,
        };
        self.halt_bug = r.bool()?;
        self.ld_b_b = r.bool()?;
        let latched = r.bool()?;
        let op = r.u8()?;
        self.latched = latched.then_some(op);
        self.slow = self.needs_slow();
        Ok(())
    }
}
