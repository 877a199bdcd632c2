//! [`Debugger`]: the debugger's breakpoints and the frame it stopped in the middle of. The
//! breakpoints are host configuration, never inputs: they become core watchpoints beside the
//! scripts' bus hooks (whose hits alone call scripts), so a debugged run and its replay call
//! the same Lua. Running the machine under them is the session's `debugger.rs`.

use gb_core::watch::Access;

use crate::debug::{BreakOn, Breakpoint};
use crate::session::run::InFrame;

/// The debugger's state.
#[derive(Debug, Default)]
pub(crate) struct Debugger {
    /// The breakpoints, temporary ones (a step's) included.
    pub(crate) breakpoints: Vec<Breakpoint>,
    /// The last breakpoint number given.
    pub(crate) next_break: u32,
    /// The frame a debugger stopped in the middle of.
    pub(crate) in_frame: Option<InFrame>,
}

impl Debugger {
    /// Add `b` under a new number; returns it.
    pub(crate) fn add(&mut self, mut b: Breakpoint) -> u32 {
        self.next_break += 1;
        b.id = self.next_break;
        self.breakpoints.push(b);
        self.next_break
    }

    /// The core watchpoints the breakpoints on need (kind, address, length).
    pub(crate) fn watches(&self) -> impl Iterator<Item = (Access, u16, u32)> + '_ {
        self.breakpoints
            .iter()
            .filter(|b| b.enabled)
            .filter_map(|b| {
                let access = match b.on {
                    BreakOn::Exec => Access::Exec,
                    BreakOn::Read => Access::Read,
                    BreakOn::Write => Access::Write,
                    BreakOn::Interrupt | BreakOn::LdBB => return None,
                };
                Some((access, b.addr, u32::from(b.len.max(1))))
            })
    }

    /// Whether a breakpoint on `on` is enabled.
    pub(crate) fn any_on(&self, on: BreakOn) -> bool {
        self.breakpoints.iter().any(|b| b.enabled && b.on == on)
    }
}
