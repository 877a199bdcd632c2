//! The debugger on the session: breakpoints set and removed, and [`Session::debug`], which
//! runs the machine until a breakpoint, the end of the frame, or the end of a step, stopping
//! in the middle of a frame when it must.
//!
//! **Determinism.** A stop is at an instruction boundary, and the core runs the same whether
//! it is cut there or not; breakpoints are host configuration (the core's watchpoint set, with
//! the scripts' bus hooks), never inputs, and the scripts are only called for the accesses they
//! watch, so a debugged run and its replay call the same Lua. The frame under way is kept
//! (`Session::in_frame`); input given while stopped (a poke, buttons) is logged at the cycle
//! of the stop, which is an instruction boundary the replay stops at too. A rewind from a stop
//! goes back to a frame boundary and replays from there; [`Session::run_frame`] finishes a
//! frame a debugger stopped.

use gb_core::watch::Access;

use super::Session;
use super::run::{Run, call_len};
use crate::debug::expr::{Expr, Reg};
use crate::debug::{BreakOn, Breakpoint, Resume, STEP_FRAMES, Stopped};

impl Session {
    /// Add a breakpoint; returns its number. A condition that does not parse is an error and
    /// nothing is added.
    #[allow(clippy::too_many_arguments)]
    pub fn add_breakpoint(
        &mut self,
        on: BreakOn,
        addr: u16,
        len: u16,
        bank: Option<u16>,
        value: Option<u8>,
        cond: Option<&str>,
    ) -> Result<u32, crate::debug::expr::ExprError> {
        let cond = match cond {
            Some(text) => Some((text.to_owned(), crate::debug::expr::parse(text)?)),
            None => None,
        };
        let id = self.debugger.add(Breakpoint {
            id: 0,
            on,
            addr,
            len: len.max(1),
            bank,
            value,
            cond,
            enabled: true,
            hits: 0,
            temporary: false,
        });
        self.apply_watches();
        Ok(id)
    }

    /// Remove breakpoint `id`; false when there is none.
    pub fn remove_breakpoint(&mut self, id: u32) -> bool {
        let before = self.debugger.breakpoints.len();
        self.debugger
            .breakpoints
            .retain(|b| b.id != id || b.temporary);
        let removed = self.debugger.breakpoints.len() != before;
        self.apply_watches();
        removed
    }

    /// Turn breakpoint `id` on or off; false when there is none.
    pub fn enable_breakpoint(&mut self, id: u32, on: bool) -> bool {
        let found = self
            .debugger
            .breakpoints
            .iter_mut()
            .find(|b| b.id == id && !b.temporary)
            .map(|b| b.enabled = on)
            .is_some();
        self.apply_watches();
        found
    }

    /// The breakpoints (temporary ones left out).
    pub fn breakpoints(&self) -> impl Iterator<Item = &Breakpoint> {
        self.debugger.breakpoints.iter().filter(|b| !b.temporary)
    }

    /// Whether a debugger holds the machine in the middle of a frame.
    pub fn is_mid_frame(&self) -> bool {
        self.debugger.in_frame.is_some()
    }

    /// Set the core's watchpoints: the scripts' bus hooks (as they last said) and the
    /// breakpoints on. Runs no Lua.
    pub(crate) fn apply_watches(&mut self) {
        let scripts = self.scripts.watches.iter().copied();
        self.machine
            .set_watches(scripts.chain(self.debugger.watches()));
    }

    /// The breakpoint a core watchpoint hit stops at, if any (its hit count goes up).
    pub(crate) fn breakpoint_hit(&mut self, hit: &gb_core::watch::Hit) -> Option<Stopped> {
        let on = match hit.access {
            Access::Exec => BreakOn::Exec,
            Access::Read => BreakOn::Read,
            Access::Write => BreakOn::Write,
        };
        let gb = self.machine.gb();
        let b = self.debugger.breakpoints.iter_mut().find(|b| {
            b.enabled
                && b.on == on
                && b.covers(hit.addr)
                && (b.bank.is_none() || b.bank == hit.bank)
                && (b.value.is_none() || b.value == Some(hit.value) || on == BreakOn::Exec)
                && b.cond.as_ref().is_none_or(|(_, e)| e.holds(gb, hit.value))
        })?;
        b.hits += 1;
        if b.temporary {
            return Some(Stopped::Step);
        }
        let bank = hit
            .bank
            .map_or_else(|| "-".to_owned(), |b| format!("{b:X}"));
        let what = match on {
            BreakOn::Exec => format!("execute {:04X} (bank {bank})", hit.addr),
            BreakOn::Read => format!(
                "read of {:02X} from {:04X} (bank {bank})",
                hit.value, hit.addr
            ),
            _ => format!(
                "write of {:02X} to {:04X} (bank {bank})",
                hit.value, hit.addr
            ),
        };
        Some(Stopped::Break { id: b.id, what })
    }

    /// The stop at an interrupt or `LD B,B` (`on`), named by the breakpoint on it whose
    /// condition holds; `None` when none does (the run goes on).
    pub(crate) fn special_stop(&mut self, on: BreakOn) -> Option<Stopped> {
        let gb = self.machine.gb();
        let b = self.debugger.breakpoints.iter_mut().find(|b| {
            b.enabled && b.on == on && b.cond.as_ref().is_none_or(|(_, e)| e.holds(gb, 0))
        })?;
        b.hits += 1;
        let pc = gb.regs().pc;
        let what = if on == BreakOn::LdBB {
            format!("LD B,B at {pc:04X}")
        } else {
            format!("interrupt taken: vector {pc:04X}")
        };
        Some(Stopped::Break { id: b.id, what })
    }

    /// Run the machine as `resume` says: until a breakpoint, the end of the current frame
    /// (`Continue`; the frame is captured into the history), or the end of the step. A stop
    /// in the middle of a frame keeps the frame under way; the next call (or
    /// [`Session::run_frame`]) goes on from there. `next`, `finish` and `run-to` run through
    /// frames, up to [`STEP_FRAMES`] of them.
    pub fn debug(&mut self, resume: Resume) -> Stopped {
        let regs = self.machine.gb().regs();
        let mut resume = resume;
        if resume == Resume::StepOver {
            match call_len(self.machine.gb().peek(regs.pc)) {
                Some(len) => self.add_temporary(regs.pc.wrapping_add(len), Some(regs.sp)),
                None => resume = Resume::StepIn,
            }
        }
        if let Resume::RunTo(addr) = resume {
            self.add_temporary(addr, None);
        }
        let mut run = Run::new(
            resume,
            &regs,
            self.debugger.any_on(BreakOn::LdBB),
            self.debugger.any_on(BreakOn::Interrupt),
        );
        let mut frames = 0;
        let stopped = loop {
            let mut f = match self.debugger.in_frame.take() {
                Some(f) => f,
                None => {
                    // Rewound: the recorded future is replayed (its input with it), so a
                    // breakpoint stops at the cycle it stopped at before; new input forks it.
                    let replay = self.timeline.rewound();
                    if !replay {
                        self.fork();
                    }
                    self.timeline.replaying = replay;
                    let mut f = self.frame_begin();
                    self.timeline.replaying = false;
                    f.replay = replay;
                    f
                }
            };
            self.timeline.replaying = f.replay;
            let core = self.frame_core(&mut f, Some(&mut run));
            self.timeline.replaying = false;
            match core {
                Some(stop) => {
                    self.debugger.in_frame = Some(f);
                    break stop;
                }
                None => {
                    self.end_under_way(f);
                    frames += 1;
                    match resume {
                        Resume::Continue => break Stopped::FrameEnd,
                        Resume::StepIn if run.stepped => break Stopped::Step,
                        _ if frames >= STEP_FRAMES => break Stopped::GaveUp(frames),
                        _ => {}
                    }
                }
            }
        };
        if self.debugger.breakpoints.iter().any(|b| b.temporary) {
            self.debugger.breakpoints.retain(|b| !b.temporary);
            self.apply_watches();
        }
        stopped
    }

    /// A temporary execute breakpoint at `addr` (when the stack pointer is at least `sp`).
    fn add_temporary(&mut self, addr: u16, sp: Option<u16>) {
        let cond = sp.map(|sp| {
            (
                format!("sp >= {sp:#06X}"),
                Expr::Binary(
                    ">=",
                    Box::new(Expr::Reg(Reg::Sp)),
                    Box::new(Expr::Num(i64::from(sp))),
                ),
            )
        });
        self.debugger.breakpoints.push(Breakpoint {
            id: 0,
            on: BreakOn::Exec,
            addr,
            len: 1,
            bank: None,
            value: None,
            cond,
            enabled: true,
            hits: 0,
            temporary: true,
        });
        self.apply_watches();
    }
}

impl Session {
    /// Run `frames` frames from here (a frame under way first finishes, counted as one),
    /// writing one line per instruction the CPU runs, before it runs, in Gameboy Doctor's
    /// format (`A:01 F:B0 B:00 C:13 D:00 E:D8 H:01 L:4D SP:FFFE PC:0100 PCMEM:00,C3,13,02`),
    /// which binjgb's and other emulators' traces can be compared with. Interrupt dispatches
    /// and HALT waits are not instructions: no line. Breakpoints do not stop a trace. Returns
    /// the lines written.
    pub fn trace(&mut self, frames: u64, out: &mut dyn std::io::Write) -> std::io::Result<u64> {
        let end = self.timeline.frame + frames.max(1);
        let mut lines = 0;
        // Set aside for the trace (the core's watchpoints go with them), put back after.
        let kept = std::mem::take(&mut self.debugger.breakpoints);
        self.apply_watches();
        let result = (|| {
            while self.timeline.frame < end {
                let gb = self.machine.gb();
                let r = gb.regs();
                let dispatch = gb.ime() && gb.peek(0xFF0F) & gb.peek(0xFFFF) & 0x1F != 0;
                if !gb.is_halted() && !dispatch {
                    let m = |k: u16| gb.peek(r.pc.wrapping_add(k));
                    writeln!(
                        out,
                        "A:{:02X} F:{:02X} B:{:02X} C:{:02X} D:{:02X} E:{:02X} H:{:02X} L:{:02X} SP:{:04X} PC:{:04X} PCMEM:{:02X},{:02X},{:02X},{:02X}",
                        r.a,
                        r.f,
                        r.b,
                        r.c,
                        r.d,
                        r.e,
                        r.h,
                        r.l,
                        r.sp,
                        r.pc,
                        m(0),
                        m(1),
                        m(2),
                        m(3)
                    )?;
                    lines += 1;
                }
                self.debug(Resume::StepIn);
            }
            Ok(lines)
        })();
        self.debugger.breakpoints = kept;
        self.apply_watches();
        result
    }
}
