//! The debugger in the app: its commands ([`crate::console::debug_cmds`]) on the session's model
//! (`gb_session::debug`, `Session::debug`), the ROM's symbols (its `.sym` file beside it,
//! loaded when the ROM opens), and where the machine stopped, said as a debugger says it
//! (`stopped: #1 write of 03 to C0B0 … at 6B62 Game.update+12: ld [hl], a`).
//!
//! While breakpoints are set the live loop runs frames through `Session::debug`, so a
//! breakpoint pauses the app where it hit, in the middle of a frame; resuming (or `step`)
//! finishes that frame first.

use gb_core::asm::{Flow, Instruction, decode, disassemble, window_start};
use gb_session::debug::{BreakOn, Resume, Stopped};
use gb_session::symbols::Symbols;

use super::machine::Emu;
use crate::console::debug_cmds::{BreakKind, DebugCmd};

/// Most instructions `si N` runs at once.
const MAX_STEPS: u32 = 100_000;

impl Emu {
    /// The ROM's symbols, read from `ROM.sym` beside it (said on the console).
    pub(crate) fn load_symbols(&mut self) {
        self.game.symbols = None;
        let Some(file) = self.game.rom.file() else {
            return;
        };
        let path = &file.path;
        match Symbols::beside_rom(path) {
            Ok(Some(s)) => {
                let note = format!(
                    "symbols: {} names from {}{}",
                    s.len(),
                    path.with_extension("sym").display(),
                    match s.skipped_count() {
                        0 => String::new(),
                        n => format!(" ({n} lines skipped)"),
                    }
                );
                self.game.symbols = Some(s);
                self.say(note);
                self.session.set_symbols(self.game.symbols.clone());
            }
            Ok(None) => {}
            Err(e) => self.say(format!("symbols: {e}")),
        }
    }

    /// An address a command names: a symbol, `BANK:ADDR` or hex.
    fn resolve(&self, word: &str) -> Result<(Option<u16>, u16), String> {
        if let Some((bank, addr)) = self.game.symbols.as_ref().and_then(|s| s.lookup(word)) {
            // A bank matters where a CPU address shows several.
            let banked = matches!(addr, 0x4000..=0x7FFF | 0x8000..=0xBFFF | 0xD000..=0xDFFF);
            return Ok((banked.then_some(bank), addr));
        }
        crate::console::cmd_words::addr_word(Some(&word.to_owned()))
            .map(|l| (l.bank, l.addr))
            .map_err(|e| match &self.game.symbols {
                Some(_) => format!("{e}, or a symbol of the ROM's .sym file"),
                None => format!("{e} (no .sym file beside the ROM for symbols)"),
            })
    }

    /// `ADDR` or `ADDR..END` (a range of addresses in one bank).
    fn resolve_range(&self, word: &str) -> Result<(Option<u16>, u16, u32), String> {
        match word.split_once("..") {
            Some((a, b)) => {
                let (bank, first) = self.resolve(a)?;
                let (_, last) = self.resolve(b)?;
                if last < first {
                    return Err(format!("{word}: the range ends before it starts"));
                }
                Ok((bank, first, u32::from(last - first) + 1))
            }
            None => {
                let (bank, addr) = self.resolve(word)?;
                Ok((bank, addr, 1))
            }
        }
    }

    /// A CPU address as the debugger shows it: `6B62 Game.update+12` with symbols.
    fn code_label(&self, addr: u16) -> String {
        match self
            .game
            .symbols
            .as_ref()
            .and_then(|s| s.label_in(self.session.gb(), addr))
        {
            Some(l) => format!("{addr:04X} {l}"),
            None => format!("{addr:04X}"),
        }
    }

    /// The instruction at `addr`, its target named by a symbol when there is one.
    fn instruction_text(&self, i: &Instruction) -> String {
        let gb = self.session.gb();
        match &self.game.symbols {
            Some(s) => i.text_with(|t| s.name_in(gb, t.addr).map(str::to_owned)),
            None => i.text(),
        }
    }

    /// Where the machine is: PC, its label and instruction, the frame and cycle.
    pub(crate) fn where_now(&self) -> String {
        let gb = self.session.gb();
        let pc = gb.regs().pc;
        let i = decode(|a| gb.peek(a), pc);
        format!(
            "at {}: {}  (frame {}{}, cycle {})",
            self.code_label(pc),
            self.instruction_text(&i),
            self.session.frame(),
            if self.session.is_mid_frame() {
                ", mid-frame"
            } else {
                ""
            },
            gb.cycles()
        )
    }

    /// What a stop says.
    pub(crate) fn describe_stop(&self, stop: &Stopped) -> String {
        match stop {
            Stopped::FrameEnd => format!("frame ended; {}", self.where_now()),
            Stopped::Step => self.where_now(),
            Stopped::GaveUp(n) => format!("not reached in {n} frames; {}", self.where_now()),
            Stopped::Break { id, what } => {
                let gb = self.session.gb();
                let by = if what.starts_with("read") || what.starts_with("write") {
                    let pc = gb.last_debug_pc();
                    let i = decode(|a| gb.peek(a), pc);
                    format!(" by {}: {}", self.code_label(pc), self.instruction_text(&i))
                } else {
                    String::new()
                };
                format!("stopped: #{id} {what}{by}; {}", self.where_now())
            }
        }
    }

    /// Whether the live loop must run frames through the debugger.
    pub(crate) fn debugging(&self) -> bool {
        self.session.is_mid_frame() || self.session.breakpoints().any(|b| b.enabled)
    }

    /// The live frame through the debugger: true when the frame ended, false when a
    /// breakpoint stopped it (the app pauses there and says why).
    pub(crate) fn debug_live_frame(&mut self) -> bool {
        match self.session.debug(Resume::Continue) {
            Stopped::FrameEnd => true,
            stop => {
                self.pacing.paused = true;
                // Said when the view is next published, or given as the reply of the command
                // that ran the frame (`step`).
                self.console.stop_note = Some(self.describe_stop(&stop));
                false
            }
        }
    }

    /// Stepping runs the machine outside the live loop: refused while a movie or the TAS
    /// editor is open (their frames are kept by the live loop).
    fn may_step(&self) -> Result<(), String> {
        if self.editor.is_some() {
            return Err("stepping is not available while the TAS editor is open".into());
        }
        if self.movie.tas.is_some() {
            return Err(
                "stepping is not available while a movie is open (movie stop); breakpoints still stop it"
                    .into(),
            );
        }
        Ok(())
    }

    /// Run one debugger step (`si`, `next`, `finish`, `run-to`): paused afterwards.
    fn step_debug(&mut self, resume: Resume) -> String {
        self.pacing.paused = true;
        let stop = self.session.debug(resume);
        self.after_frame();
        self.describe_stop(&stop)
    }

    /// Run a debugger command.
    pub(crate) fn apply_debug(&mut self, cmd: DebugCmd) -> Result<String, String> {
        match cmd {
            DebugCmd::Break {
                kind,
                at,
                value,
                cond,
            } => {
                let (on, second) = match kind {
                    BreakKind::Exec => (BreakOn::Exec, None),
                    BreakKind::Read => (BreakOn::Read, None),
                    BreakKind::Write => (BreakOn::Write, None),
                    BreakKind::Access => (BreakOn::Read, Some(BreakOn::Write)),
                    BreakKind::Interrupt => (BreakOn::Interrupt, None),
                    BreakKind::LdBB => (BreakOn::LdBB, None),
                };
                let (bank, addr, len) = match &at {
                    Some(w) => self.resolve_range(w)?,
                    None => (None, 0, 1),
                };
                let len = u16::try_from(len).unwrap_or(u16::MAX);
                let mut ids = Vec::new();
                for on in std::iter::once(on).chain(second) {
                    let id = self
                        .session
                        .add_breakpoint(on, addr, len, bank, value, cond.as_deref())
                        .map_err(|e| e.to_string())?;
                    ids.push(id);
                }
                let list: Vec<String> = self
                    .session
                    .breakpoints()
                    .filter(|b| ids.contains(&b.id))
                    .map(|b| b.describe())
                    .collect();
                Ok(format!("breakpoint {}", list.join("; ")))
            }
            DebugCmd::Delete(None) => {
                let ids: Vec<u32> = self.session.breakpoints().map(|b| b.id).collect();
                for id in &ids {
                    self.session.remove_breakpoint(*id);
                }
                Ok(format!("deleted {} breakpoint(s)", ids.len()))
            }
            DebugCmd::Delete(Some(id)) => {
                if self.session.remove_breakpoint(id) {
                    Ok(format!("deleted #{id}"))
                } else {
                    Err(format!("no breakpoint #{id} (info break)"))
                }
            }
            DebugCmd::Enable(id, on) => {
                if self.session.enable_breakpoint(id, on) {
                    Ok(format!("#{id} {}", if on { "on" } else { "off" }))
                } else {
                    Err(format!("no breakpoint #{id} (info break)"))
                }
            }
            DebugCmd::Info => {
                let list: Vec<String> = self.session.breakpoints().map(|b| b.describe()).collect();
                Ok(if list.is_empty() {
                    "no breakpoints".into()
                } else {
                    list.join("\n")
                })
            }
            DebugCmd::StepIn(n) => {
                self.may_step()?;
                let n = n.clamp(1, MAX_STEPS);
                for k in 1..n {
                    if let stop @ (Stopped::Break { .. } | Stopped::GaveUp(_)) =
                        self.session.debug(Resume::StepIn)
                    {
                        self.pacing.paused = true;
                        self.after_frame();
                        return Ok(format!(
                            "after {k} instruction(s): {}",
                            self.describe_stop(&stop)
                        ));
                    }
                }
                Ok(self.step_debug(Resume::StepIn))
            }
            DebugCmd::Next => {
                self.may_step()?;
                Ok(self.step_debug(Resume::StepOver))
            }
            DebugCmd::Finish => {
                self.may_step()?;
                Ok(self.step_debug(Resume::StepOut))
            }
            DebugCmd::RunTo(w) => {
                self.may_step()?;
                let (_, addr) = self.resolve(&w)?;
                Ok(self.step_debug(Resume::RunTo(addr)))
            }
            DebugCmd::Disasm(at, n) => {
                let gb = self.session.gb();
                let pc = gb.regs().pc;
                let (bank, start) = match &at {
                    Some(w) => self.resolve(w)?,
                    None => (None, window_start(|a| gb.peek(a), pc, n.min(8) / 2)),
                };
                // A bank named: read it whether it is mapped or not.
                if let Some(b) = bank {
                    gb_session::banks::peek(gb, b, start).map_err(|e| e.to_string())?;
                }
                let read = |a: u16| match bank {
                    Some(b) => gb_session::banks::peek(gb, b, a).unwrap_or(0xFF),
                    None => gb.peek(a),
                };
                let mut out = Vec::new();
                if let Some(b) = bank {
                    out.push(format!("bank {b:X}:"));
                }
                for i in disassemble(read, start, n) {
                    if let Some(name) = self
                        .game
                        .symbols
                        .as_ref()
                        .and_then(|s| s.name_in(gb, i.addr))
                    {
                        out.push(format!("{name}:"));
                    }
                    let bytes: Vec<String> =
                        i.byte_slice().iter().map(|b| format!("{b:02X}")).collect();
                    out.push(format!(
                        "{} {:04X}  {:<9} {}",
                        if i.addr == pc { ">" } else { " " },
                        i.addr,
                        bytes.join(" "),
                        self.instruction_text(&i)
                    ));
                }
                Ok(out.join("\n"))
            }
            DebugCmd::Backtrace => Ok(self.backtrace()),
            DebugCmd::Trace(path, frames) => {
                self.may_step()?;
                let frames = frames.clamp(1, 600);
                let file = std::fs::File::create(&path)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                let mut w = std::io::BufWriter::new(file);
                let t0 = std::time::Instant::now();
                let lines = self
                    .session
                    .trace(frames, &mut w)
                    .and_then(|n| std::io::Write::flush(&mut w).map(|()| n))
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                self.pacing.paused = true;
                self.after_frame();
                Ok(format!(
                    "traced {lines} instructions of {frames} frame(s) to {} in {} ms (Gameboy Doctor's format); {}",
                    path.display(),
                    t0.elapsed().as_millis(),
                    self.where_now()
                ))
            }
        }
    }

    /// The Debugger window's view: the code around PC, registers, breakpoints, stack.
    pub(crate) fn debug_view(&self) -> super::debug_view::DebugView {
        use super::debug_view::{CodeLine, DebugView};
        let gb = self.session.gb();
        let r = gb.regs();
        let start = window_start(|a| gb.peek(a), r.pc, 6);
        let breaks: Vec<u16> = self
            .session
            .breakpoints()
            .filter(|b| b.enabled && b.on == BreakOn::Exec)
            .map(|b| b.addr)
            .collect();
        let listing = disassemble(|a| gb.peek(a), start, 18)
            .iter()
            .map(|i| CodeLine {
                label: self
                    .game
                    .symbols
                    .as_ref()
                    .and_then(|s| s.name_in(gb, i.addr))
                    .map(str::to_owned),
                addr: i.addr,
                bytes: i
                    .byte_slice()
                    .iter()
                    .map(|b| format!("{b:02X}"))
                    .collect::<Vec<_>>()
                    .join(" "),
                text: self.instruction_text(i),
                is_pc: i.addr == r.pc,
                has_break: breaks.contains(&i.addr),
            })
            .collect();
        DebugView {
            at: self.where_now(),
            listing,
            // The first line of `regs`.
            regs: self
                .registers()
                .lines()
                .next()
                .unwrap_or_default()
                .to_owned(),
            breakpoints: self.session.breakpoints().map(|b| b.describe()).collect(),
            mid_frame: self.session.is_mid_frame(),
            stack: self.backtrace().lines().map(str::to_owned).collect(),
        }
    }

    /// The call stack as the stack shows it: PC, then each word on the stack that points just
    /// after a CALL or RST (a return address); other words (pushed registers) are skipped. A
    /// heuristic, as every debugger's for a CPU without frame pointers.
    fn backtrace(&self) -> String {
        let gb = self.session.gb();
        let regs = gb.regs();
        let mut out = vec![format!("#0 {}", self.code_label(regs.pc))];
        let mut sp = regs.sp;
        // The stack's region: work RAM (to its end) or high RAM.
        let end: u32 = match sp {
            0xC000..=0xDFFF => 0xE000,
            0xFF80..=0xFFFE => 0xFFFF,
            _ => u32::from(sp) + 0x80,
        };
        for _ in 0..64 {
            if u32::from(sp) + 1 >= end {
                break;
            }
            let ret = u16::from_le_bytes([gb.peek(sp), gb.peek(sp.wrapping_add(1))]);
            let call_at = [3u16, 1]
                .into_iter()
                .map(|n| ret.wrapping_sub(n))
                .find(|&at| {
                    let i = decode(|a| gb.peek(a), at);
                    matches!(i.flow(), Flow::Call | Flow::CallIf) && i.next_addr() == ret
                });
            if let Some(at) = call_at {
                let i = decode(|a| gb.peek(a), at);
                out.push(format!(
                    "#{} {} (called by {}: {}; on the stack at {sp:04X})",
                    out.len(),
                    self.code_label(ret),
                    self.code_label(at),
                    self.instruction_text(&i)
                ));
            }
            sp = sp.wrapping_add(2);
        }
        out.join("\n")
    }
}
