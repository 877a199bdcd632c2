//! Watchpoints: bus reads, writes and instruction fetches that stop the run loop, so a host
//! (the scripts' `event.on_bus_*` hooks, a debugger) can look at the machine at that moment.
//!
//! A hit stops the CPU at the next instruction boundary: after the instruction that read or
//! wrote (the written value has landed), or before the instruction at a watched address runs.
//! Stopping and resuming at an instruction boundary changes nothing the machine does, so the
//! same run with or without watchpoints is the same run. With no watchpoint set, the cost is one
//! branch on a flag per access kind.
//!
//! Watchpoints are host configuration, not machine state: they are not in the state image; a
//! host that restores a state sets them again.

/// What kind of access hit a watchpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// A CPU read.
    Read,
    /// A CPU write (after it landed).
    Write,
    /// An instruction about to run at the address.
    Exec,
}

/// One watchpoint hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The kind of access.
    pub access: Access,
    /// The address.
    pub addr: u16,
    /// The value read or written (the opcode for an instruction).
    pub value: u8,
    /// The bank mapped at `addr` at that moment, for banked addresses (ROM, cartridge RAM,
    /// and on the CGB VRAM and work RAM 0xD000-0xDFFF): see [`crate::Gb::bank_of`].
    pub bank: Option<u16>,
}

/// Most hits kept between two stops (an instruction makes at most three accesses).
const MAX_HITS: usize = 16;

/// One bit per address.
#[derive(Clone, Debug)]
struct Bits(Box<[u64; 1024]>);

impl Bits {
    fn new() -> Bits {
        Bits(Box::new([0; 1024]))
    }

    #[inline]
    fn get(&self, addr: u16) -> bool {
        self.0[usize::from(addr >> 6)] & (1 << (addr & 63)) != 0
    }

    fn set(&mut self, addr: u16) {
        self.0[usize::from(addr >> 6)] |= 1 << (addr & 63);
    }

    fn clear(&mut self) {
        self.0.fill(0);
    }
}

/// The watchpoints and the hits since the host last took them.
#[derive(Clone, Debug)]
pub struct Watch {
    read: Bits,
    write: Bits,
    exec: Bits,
    /// Any read watchpoint is set.
    pub(crate) any_read: bool,
    /// Any write watchpoint is set.
    pub(crate) any_write: bool,
    /// Any instruction watchpoint is set.
    pub(crate) any_exec: bool,
    hits: Vec<Hit>,
    /// The instruction at this address runs once without stopping (the host has handled it).
    skip_exec: Option<u16>,
}

impl Default for Watch {
    fn default() -> Self {
        Watch {
            read: Bits::new(),
            write: Bits::new(),
            exec: Bits::new(),
            any_read: false,
            any_write: false,
            any_exec: false,
            hits: Vec::with_capacity(MAX_HITS),
            skip_exec: None,
        }
    }
}

impl Watch {
    /// Remove every watchpoint (pending hits stay).
    pub(crate) fn clear(&mut self) {
        self.read.clear();
        self.write.clear();
        self.exec.clear();
        self.any_read = false;
        self.any_write = false;
        self.any_exec = false;
    }

    /// Watch `len` addresses from `addr` (wrapping at 0xFFFF) for `access`.
    pub(crate) fn add(&mut self, access: Access, addr: u16, len: u32) {
        let bits = match access {
            Access::Read => {
                self.any_read = true;
                &mut self.read
            }
            Access::Write => {
                self.any_write = true;
                &mut self.write
            }
            Access::Exec => {
                self.any_exec = true;
                &mut self.exec
            }
        };
        for k in 0..len.min(0x10000) {
            bits.set(addr.wrapping_add(k as u16));
        }
    }

    /// Whether hits are waiting for the host.
    pub fn has_hits(&self) -> bool {
        !self.hits.is_empty()
    }

    /// Move the hits into `out` (cleared first).
    pub fn take_hits(&mut self, out: &mut Vec<Hit>) {
        out.clear();
        out.append(&mut self.hits);
    }

    /// Let the instruction at `addr` run once without stopping (after the host handled its hit).
    pub fn skip_exec_once(&mut self, addr: u16) {
        self.skip_exec = Some(addr);
    }

    fn push(&mut self, hit: Hit) {
        if self.hits.len() < MAX_HITS {
            self.hits.push(hit);
        }
    }

    /// A read of `addr` gave `value`: true if it hit.
    #[cold]
    pub(crate) fn on_read(&mut self, addr: u16, value: u8, bank: Option<u16>) -> bool {
        let hit = self.read.get(addr);
        if hit {
            self.push(Hit {
                access: Access::Read,
                addr,
                value,
                bank,
            });
        }
        hit
    }

    /// `value` was written to `addr`: true if it hit.
    #[cold]
    pub(crate) fn on_write(&mut self, addr: u16, value: u8, bank: Option<u16>) -> bool {
        let hit = self.write.get(addr);
        if hit {
            self.push(Hit {
                access: Access::Write,
                addr,
                value,
                bank,
            });
        }
        hit
    }

    /// Whether an instruction watchpoint is at `addr` (the run loop's cheap first test).
    #[inline(always)]
    pub(crate) fn exec_at(&self, addr: u16) -> bool {
        self.exec.get(addr)
    }

    /// The instruction at `addr` (opcode `opcode`) is about to run: true if it must not, yet.
    #[inline]
    pub(crate) fn on_exec(&mut self, addr: u16, opcode: u8, bank: Option<u16>) -> bool {
        if !self.exec.get(addr) {
            return false;
        }
        if self.skip_exec == Some(addr) {
            self.skip_exec = None;
            return false;
        }
        self.push(Hit {
            access: Access::Exec,
            addr,
            value: opcode,
            bank,
        });
        true
    }
}
