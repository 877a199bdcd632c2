//! A frame under way and a debug run under way: the plain state the frame loop
//! (`frame.rs`), the hits (`hooks.rs`) and the debugger (`debugger.rs`) share, kept below them
//! so that none of them names another.

use gb_core::{DebugStop, DebugUntil, Gb, Registers};

use crate::machine::Machine;

use crate::data::Event;
use crate::debug::{BreakOn, Resume, Stopped};

/// Why a debug run is over, as [`Run::after`] sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Over {
    /// Stopped for good (a step ran).
    Stopped(Stopped),
    /// At an interrupt or an `LD B,B`: over only if a breakpoint on it holds
    /// ([`crate::Session`] decides).
    At(BreakOn),
}

/// A frame under way: its events, those from `next` on not applied yet. Kept by the session
/// while a debugger holds the machine in the middle of a frame.
#[derive(Clone, Debug, Default)]
pub(crate) struct InFrame {
    pub(crate) events: Vec<Event>,
    pub(crate) next: usize,
    /// A frame of the recorded future, replayed (a debugger run while rewound): it ends by
    /// moving the history's cursor on, not by a capture.
    pub(crate) replay: bool,
}

/// `CALL` and `RST` opcodes: `next` runs them through.
pub(crate) fn call_len(opcode: u8) -> Option<u16> {
    match opcode {
        0xCD | 0xC4 | 0xCC | 0xD4 | 0xDC => Some(3),
        op if op & 0xC7 == 0xC7 => Some(1),
        _ => None,
    }
}

/// `RET`, `RETI` and `RET cc`: what `finish` waits for.
fn is_return(opcode: u8) -> bool {
    matches!(opcode, 0xC9 | 0xD9 | 0xC0 | 0xC8 | 0xD0 | 0xD8)
}

/// One debug run: what it waits for, kept across the core's stops.
pub(crate) struct Run {
    resume: Resume,
    /// Steps left (`si`).
    steps: Option<u64>,
    /// The stack pointer when the run began (`next`, `finish`).
    sp0: u16,
    /// The instruction the run began at: an `LD B,B` breakpoint there does not stop it again.
    pc0: u16,
    /// `finish`: the opcode about to run at the last single step.
    last_op: Option<u8>,
    /// Any `LD B,B` / interrupt breakpoint is on.
    ld_b_b: bool,
    interrupt: bool,
    /// A step ran (`si` across a frame's end).
    pub(crate) stepped: bool,
    /// An `LD B,B` here does not stop the run (no breakpoint's condition held at it).
    pass_ld_b_b: Option<u16>,
}

impl Run {
    /// A run as `resume` says, from the registers now; whether `LD B,B` and interrupt
    /// breakpoints are on.
    pub(crate) fn new(resume: Resume, regs: &Registers, ld_b_b: bool, interrupt: bool) -> Run {
        Run {
            resume,
            steps: matches!(resume, Resume::StepIn | Resume::StepOut).then_some(1),
            sp0: regs.sp,
            pc0: regs.pc,
            last_op: None,
            ld_b_b,
            interrupt,
            stepped: false,
            pass_ld_b_b: None,
        }
    }

    /// Run the core on once (until `due`, the next sub-frame event's cycle).
    pub(crate) fn core(&mut self, machine: &mut Machine, due: Option<u64>) -> DebugStop {
        let single = matches!(self.resume, Resume::StepIn | Resume::StepOut);
        let gb = machine.gb();
        if single {
            self.last_op = Some(gb.peek(gb.regs().pc));
        }
        let before = gb.cycles();
        let until = DebugUntil {
            steps: if single { self.steps } else { None },
            cycle: due,
            ld_b_b: self.ld_b_b,
            skip_ld_b_b_at: self
                .pass_ld_b_b
                .filter(|&a| a == gb.regs().pc)
                .or(Some(self.pc0).filter(|_| gb.regs().pc == self.pc0)),
            interrupt: self.interrupt,
        };
        let stop = machine.run_debug(until);
        // Every step moves the clock: the step ran if time passed.
        if single && self.steps == Some(1) && machine.cycles() != before {
            self.steps = Some(0);
            self.stepped = true;
        }
        stop
    }

    /// Go on past the `LD B,B` the machine stopped before (no breakpoint wanted it).
    pub(crate) fn pass_here(&mut self, gb: &Gb) {
        self.pass_ld_b_b = Some(gb.regs().pc);
    }

    /// After the core stopped (and its hits were served): whether the run is over.
    pub(crate) fn after(&mut self, gb: &Gb, stop: DebugStop) -> Option<Over> {
        match self.resume {
            Resume::StepIn if self.steps == Some(0) => Some(Over::Stopped(Stopped::Step)),
            Resume::StepOut
                if self.steps == Some(0)
                    && self.last_op.is_some_and(is_return)
                    && gb.regs().sp > self.sp0 =>
            {
                Some(Over::Stopped(Stopped::Step))
            }
            _ => match stop {
                DebugStop::LdBB => Some(Over::At(BreakOn::LdBB)),
                DebugStop::Interrupt => Some(Over::At(BreakOn::Interrupt)),
                _ => {
                    if self.resume == Resume::StepOut {
                        // On to the next instruction.
                        self.steps = Some(1);
                    }
                    None
                }
            },
        }
    }
}
