//! The debugger's model: breakpoints (on execute, read, write, an interrupt taken, `LD B,B`),
//! with a bank, a value and a condition ([`expr`]), and the ways to run on from a stop
//! ([`Resume`]). The session runs them (`session/debugger.rs`): breakpoints are host
//! configuration like the scripts' bus hooks, not inputs, so a run with stops is the same run
//! as one without.

pub mod expr;

/// What a breakpoint watches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BreakOn {
    /// The instruction at the address is about to run.
    Exec,
    /// The CPU reads the address.
    Read,
    /// The CPU writes the address (the value has landed).
    Write,
    /// An interrupt is dispatched (the stop is at its vector).
    Interrupt,
    /// An `LD B,B` is about to run (the software breakpoint of test ROMs and homebrew).
    LdBB,
}

impl BreakOn {
    /// The name the REPL uses (`x`, `r`, `w`, `int`, `ldbb`).
    pub fn name(self) -> &'static str {
        match self {
            BreakOn::Exec => "x",
            BreakOn::Read => "r",
            BreakOn::Write => "w",
            BreakOn::Interrupt => "int",
            BreakOn::LdBB => "ldbb",
        }
    }
}

/// A breakpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakpoint {
    /// Its number (from 1, never reused in a session).
    pub id: u32,
    /// What it watches.
    pub on: BreakOn,
    /// First address (execute, read, write).
    pub addr: u16,
    /// Addresses watched from `addr` (1 for one address).
    pub len: u16,
    /// Only in this bank (ROM, cartridge RAM, and on the CGB VRAM and WRAM D000-DFFF).
    pub bank: Option<u16>,
    /// Only when the byte read or written is this one.
    pub value: Option<u8>,
    /// Only when this holds (its text as typed, parsed).
    pub cond: Option<(String, expr::Expr)>,
    /// Off breakpoints stay listed and do not stop.
    pub enabled: bool,
    /// Times it stopped the machine.
    pub hits: u64,
    /// A temporary one (`run-to`, `next`): removed when it stops, never listed.
    pub temporary: bool,
}

impl Breakpoint {
    /// Whether an address falls in its range.
    pub fn covers(&self, addr: u16) -> bool {
        addr.wrapping_sub(self.addr) < self.len.max(1)
    }

    /// One line for `info break`.
    pub fn describe(&self) -> String {
        let mut s = format!("#{} {}", self.id, self.on.name());
        if matches!(self.on, BreakOn::Exec | BreakOn::Read | BreakOn::Write) {
            match self.bank {
                Some(b) => s.push_str(&format!(" {b:X}:{:04X}", self.addr)),
                None => s.push_str(&format!(" {:04X}", self.addr)),
            }
            if self.len > 1 {
                s.push_str(&format!("..{:04X}", self.addr.wrapping_add(self.len - 1)));
            }
        }
        if let Some(v) = self.value {
            s.push_str(&format!(" ={v:02X}"));
        }
        if let Some((text, _)) = &self.cond {
            s.push_str(&format!(" if {text}"));
        }
        if !self.enabled {
            s.push_str(" (off)");
        }
        s.push_str(&format!(", {} hit(s)", self.hits));
        s
    }
}

/// How to run on from a stop (or from a frame boundary).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resume {
    /// Until a breakpoint or the end of the current frame.
    Continue,
    /// One instruction (`si`).
    StepIn,
    /// One instruction, running a `CALL` or `RST` through to its return (`next`).
    StepOver,
    /// Until the current routine returns (`finish`).
    StepOut,
    /// Until the instruction at this address is about to run (`run-to`).
    RunTo(u16),
}

/// Why the machine stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// The frame ended (captured into the history); nothing else stopped it.
    FrameEnd,
    /// A breakpoint.
    Break {
        /// Its number.
        id: u32,
        /// What happened, in words (`write of 03 to C0A0 (bank -)`).
        what: String,
    },
    /// A step, `next`, `finish` or `run-to` ended where asked.
    Step,
    /// `next`, `finish` or `run-to` ran this many frames without getting there and gave up.
    GaveUp(u64),
}

/// Most frames `next`, `finish` and `run-to` run before giving up.
pub const STEP_FRAMES: u64 = 600;
