//! The debugger's console commands, typed: breakpoints (`break`, `watch r|w|rw`, `delete`,
//! `enable`, `disable`, `info break`), stepping (`si`, `next`, `finish`, `run-to`) and looking
//! (`disasm`, `bt`). Addresses are hex, `BANK:ADDR`, or a symbol of the ROM's `.sym` file
//! (`Main.loop`), resolved when the command runs. Written back by `Display` so that
//! `parse(&cmd.to_string()) == Ok(cmd)`.

use std::fmt;

use crate::console::cmd_words::quote;

/// What a `break` or `watch` command stops on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BreakKind {
    /// An instruction about to run.
    Exec,
    /// A read.
    Read,
    /// A write.
    Write,
    /// A read or a write (two breakpoints).
    Access,
    /// An interrupt taken.
    Interrupt,
    /// An `LD B,B`.
    LdBB,
}

/// A debugger command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DebugCmd {
    /// Set a breakpoint.
    Break {
        /// What it stops on.
        kind: BreakKind,
        /// Where (an address word, a range `C000..C0FF`, or a symbol), unless it needs none.
        at: Option<String>,
        /// Only when the byte read or written is this one.
        value: Option<u8>,
        /// Only when this holds.
        cond: Option<String>,
    },
    /// Remove breakpoints (by number; none: all).
    Delete(Option<u32>),
    /// Turn a breakpoint on or off.
    Enable(u32, bool),
    /// List the breakpoints.
    Info,
    /// Run N instructions.
    StepIn(u32),
    /// Run one instruction, a CALL or RST through to its return.
    Next,
    /// Run until the current routine returns.
    Finish,
    /// Run until the instruction at an address is about to run.
    RunTo(String),
    /// Disassemble N instructions (around PC, or from an address).
    Disasm(Option<String>, usize),
    /// The call stack, from the stack's contents.
    Backtrace,
    /// Write a trace of N frames' instructions to a file.
    Trace(std::path::PathBuf, u64),
}

const BREAK_USAGE: &str = "break ADDR|BANK:ADDR|SYMBOL [if COND] | break r|w|rw ADDR[..END] [=VALUE] [if COND] | break int | break ldbb";

/// Parse the words after `break` (and after `watch`, which takes `r`, `w` or `rw` first).
pub fn parse_break(args: &[String], watch: bool) -> Result<DebugCmd, String> {
    let usage = || format!("usage: {BREAK_USAGE}");
    let (mut words, cond) = match args.iter().position(|w| w == "if") {
        Some(i) => {
            let cond = args[i + 1..].join(" ");
            if cond.is_empty() {
                return Err(format!(
                    "a condition after 'if' (a == $10, [hl] > 5); {}",
                    usage()
                ));
            }
            (args[..i].to_vec(), Some(cond))
        }
        None => (args.to_vec(), None),
    };
    let kind = match words.first().map(String::as_str) {
        Some("r") => Some(BreakKind::Read),
        Some("w") => Some(BreakKind::Write),
        Some("rw" | "a") => Some(BreakKind::Access),
        Some("x") => Some(BreakKind::Exec),
        Some("int" | "interrupt") => Some(BreakKind::Interrupt),
        Some("ldbb") => Some(BreakKind::LdBB),
        _ => None,
    };
    if kind.is_some() {
        words.remove(0);
    } else if watch {
        return Err("usage: watch r|w|rw ADDR [=VALUE] [if COND] (watch ADDR alone prints a byte's changes each frame)".into());
    }
    let kind = kind.unwrap_or(BreakKind::Exec);
    let mut value = None;
    words.retain(|w| match w.strip_prefix('=') {
        Some(v) if !v.is_empty() => {
            value = Some(v.to_owned());
            false
        }
        _ => true,
    });
    let value = match value {
        Some(v) => Some(
            crate::console::cmd_words::parse_hex(&v)
                .and_then(|v| u8::try_from(v).ok())
                .ok_or_else(|| format!("bad value '={v}' (a byte: =05, =#200)"))?,
        ),
        None => None,
    };
    let needs_at = !matches!(kind, BreakKind::Interrupt | BreakKind::LdBB);
    let at = match (needs_at, words.as_slice()) {
        (true, [a]) => Some(a.clone()),
        (false, []) => None,
        _ => return Err(usage()),
    };
    if value.is_some()
        && matches!(
            kind,
            BreakKind::Exec | BreakKind::Interrupt | BreakKind::LdBB
        )
    {
        return Err("=VALUE is for r, w and rw breakpoints (the byte read or written)".into());
    }
    Ok(DebugCmd::Break {
        kind,
        at,
        value,
        cond,
    })
}

/// Parse a debugger command (`name` is its first word), or `None` when `name` is none.
pub fn parse(name: &str, args: &[String]) -> Option<Result<DebugCmd, String>> {
    let number = |what: &str| -> Result<u32, String> {
        args.first()
            .and_then(|w| w.trim_start_matches('#').parse().ok())
            .ok_or_else(|| format!("usage: {what} N (a breakpoint number: info break)"))
    };
    Some(match name {
        "break" | "b" => parse_break(args, false),
        "delete" => match args.first().map(String::as_str) {
            None | Some("all") => Ok(DebugCmd::Delete(None)),
            Some(_) => number("delete").map(|n| DebugCmd::Delete(Some(n))),
        },
        "enable" => number("enable").map(|n| DebugCmd::Enable(n, true)),
        "disable" => number("disable").map(|n| DebugCmd::Enable(n, false)),
        "info" => match args.first().map(String::as_str) {
            Some("break" | "breakpoints" | "b") => Ok(DebugCmd::Info),
            _ => Err("usage: info break".into()),
        },
        "si" | "stepi" => match args.first() {
            None => Ok(DebugCmd::StepIn(1)),
            Some(n) => n
                .parse()
                .map(DebugCmd::StepIn)
                .map_err(|_| format!("usage: si [N] ('{n}' is not a count)")),
        },
        "next" | "n" => Ok(DebugCmd::Next),
        "finish" => Ok(DebugCmd::Finish),
        "run-to" | "until" => match args {
            [a] => Ok(DebugCmd::RunTo(a.clone())),
            _ => Err("usage: run-to ADDR|SYMBOL".into()),
        },
        "disasm" | "dis" => {
            let (at, n) = match args {
                [] => (None, 10),
                [a] if a.parse::<usize>().is_ok() && a.len() <= 3 => {
                    (None, a.parse().unwrap_or(10))
                }
                [a] => (Some(a.clone()), 10),
                [a, n] => match n.parse::<usize>() {
                    Ok(n) => (Some(a.clone()), n),
                    Err(_) => return Some(Err("usage: disasm [ADDR] [N]".into())),
                },
                _ => return Some(Err("usage: disasm [ADDR] [N]".into())),
            };
            Ok(DebugCmd::Disasm(at, n.clamp(1, 1000)))
        }
        "bt" | "backtrace" => Ok(DebugCmd::Backtrace),
        "trace" => match args {
            [f] => Ok(DebugCmd::Trace(f.into(), 1)),
            [f, n] => n
                .parse()
                .map(|n| DebugCmd::Trace(f.into(), n))
                .map_err(|_| format!("usage: trace FILE [FRAMES] ('{n}' is not a count)")),
            _ => Err("usage: trace FILE [FRAMES]".into()),
        },
        _ => return None,
    })
}

impl fmt::Display for DebugCmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DebugCmd::Break {
                kind,
                at,
                value,
                cond,
            } => {
                write!(f, "break")?;
                match kind {
                    BreakKind::Exec => {}
                    BreakKind::Read => write!(f, " r")?,
                    BreakKind::Write => write!(f, " w")?,
                    BreakKind::Access => write!(f, " rw")?,
                    BreakKind::Interrupt => write!(f, " int")?,
                    BreakKind::LdBB => write!(f, " ldbb")?,
                }
                if let Some(a) = at {
                    write!(f, " {}", quote(a))?;
                }
                if let Some(v) = value {
                    write!(f, " ={v:02X}")?;
                }
                if let Some(c) = cond {
                    write!(f, " if {c}")?;
                }
                Ok(())
            }
            DebugCmd::Delete(None) => write!(f, "delete all"),
            DebugCmd::Delete(Some(n)) => write!(f, "delete {n}"),
            DebugCmd::Enable(n, true) => write!(f, "enable {n}"),
            DebugCmd::Enable(n, false) => write!(f, "disable {n}"),
            DebugCmd::Info => write!(f, "info break"),
            DebugCmd::StepIn(n) => write!(f, "si {n}"),
            DebugCmd::Next => write!(f, "next"),
            DebugCmd::Finish => write!(f, "finish"),
            DebugCmd::RunTo(a) => write!(f, "run-to {}", quote(a)),
            DebugCmd::Disasm(None, n) => write!(f, "disasm {n}"),
            DebugCmd::Disasm(Some(a), n) => write!(f, "disasm {} {n}", quote(a)),
            DebugCmd::Backtrace => write!(f, "bt"),
            DebugCmd::Trace(p, n) => write!(f, "trace {} {n}", quote(&p.to_string_lossy())),
        }
    }
}

#[cfg(test)]
mod tests;
