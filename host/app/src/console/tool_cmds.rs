//! The tools' console commands, typed: `search` (RAM search), `cheat` (Game Genie and
//! GameShark codes) and `ramwatch` (the watch list, BizHawk's `.wch` files). Parsed here from
//! a line's words; written back by `Display` so that `parse(&cmd.to_string()) == Ok(cmd)`, as
//! every [`crate::console::command::Command`] is.

use std::fmt;
use std::path::PathBuf;

use gb_core::Domain;
use gb_session::tools::cheats;
use gb_session::tools::search::{self, Display, Layout};

use crate::console::cmd_words::{Location, addr_word, quote};

/// A `search …` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchCmd {
    /// Start a search: every value of a memory is a candidate.
    New {
        /// The memory.
        domain: Domain,
        /// Size, display, byte order, alignment.
        layout: Layout,
    },
    /// Keep the candidates that pass a filter (its words, parsed against the machine: `@ADDR`
    /// operands name addresses).
    Filter(Vec<String>),
    /// List the candidates (at most this many).
    List(usize),
    /// Take back the last filter.
    Undo,
    /// Previous values become current ones, change counts 0.
    Reset,
    /// Show values another way.
    Show(Display),
    /// Forget the search.
    End,
}

/// A `cheat …` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheatCmd {
    /// Add a code to this ROM's list, turned on.
    Add {
        /// The code (canonical).
        code: String,
        /// What it does, as the user calls it.
        name: String,
    },
    /// Turn a code of the list on or off.
    Enable(String, bool),
    /// Remove a code from the list (turned off first).
    Remove(String),
    /// The list.
    List,
}

/// A `ramwatch …` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RamWatchCmd {
    /// Watch a value.
    Add {
        /// Where (an address on the bus, or `BANK:ADDR`, kept in its memory).
        at: Location,
        /// Its size and display.
        layout: Layout,
        /// Its name.
        name: String,
    },
    /// Remove watch N (1-based).
    Remove(usize),
    /// Poke watch N (1-based) with a value of its size.
    Poke(usize, i64),
    /// The list with the values now.
    List,
    /// Read a `.wch` file into the list (added after what is there).
    Import(PathBuf),
    /// Write the list as a `.wch` file.
    Export(PathBuf),
}

/// The memories a search can run over (the REPL names them by [`Domain::name`]).
pub const SEARCH_DOMAINS: [Domain; 5] = [
    Domain::Wram,
    Domain::Hram,
    Domain::CartRam,
    Domain::Vram,
    Domain::Oam,
];

const SEARCH_USAGE: &str = "search new [wram|hram|cartram|vram|oam] [1u|1s|1h|2u|…|4h] [be] [any] | search lt|gt|le|ge|eq|ne [VALUE|@ADDR] | search by N [VALUE|@ADDR] | search changes OP N | search list [N] | search undo | search reset | search show u|s|h | search end";

/// Parse the words after `search`.
pub fn parse_search(args: &[String]) -> Result<SearchCmd, String> {
    let usage = || format!("usage: {SEARCH_USAGE}");
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    Ok(match words.first().copied() {
        None => SearchCmd::List(20),
        Some("new") => {
            let mut rest = &words[1..];
            let domain = match rest
                .first()
                .and_then(|w| Domain::from_name(w).filter(|d| SEARCH_DOMAINS.contains(d)))
            {
                Some(d) => {
                    rest = &rest[1..];
                    d
                }
                None => Domain::Wram,
            };
            let layout = if rest.is_empty() {
                Layout::default()
            } else {
                search::parse_layout(rest).map_err(|e| e.to_string())?
            };
            SearchCmd::New { domain, layout }
        }
        Some("list") => match words.get(1) {
            None => SearchCmd::List(20),
            Some(n) => SearchCmd::List(
                n.parse()
                    .map_err(|_| format!("bad count '{n}'; {}", usage()))?,
            ),
        },
        Some("undo") if words.len() == 1 => SearchCmd::Undo,
        Some("reset") if words.len() == 1 => SearchCmd::Reset,
        Some("end") if words.len() == 1 => SearchCmd::End,
        Some("show") if words.len() == 2 => SearchCmd::Show(
            words[1]
                .chars()
                .next()
                .filter(|_| words[1].len() == 1)
                .and_then(Display::from_letter)
                .ok_or_else(usage)?,
        ),
        Some(_) => {
            // Checked now (the address operands are mapped when it runs).
            search::parse_filter(&words, &|_| Ok(0)).map_err(|e| format!("{e}; {}", usage()))?;
            SearchCmd::Filter(args.to_vec())
        }
    })
}

const CHEAT_USAGE: &str = "cheat add CODE [NAME…] | cheat on|off|remove CODE | cheat list (Game Genie ABC-DEF-GHI or ABC-DEF, GameShark 01VVAAAA)";

/// Parse the words after `cheat`.
pub fn parse_cheat(args: &[String]) -> Result<CheatCmd, String> {
    let usage = || format!("usage: {CHEAT_USAGE}");
    let code = |i: usize| -> Result<String, String> {
        let c = args.get(i).ok_or_else(usage)?;
        cheats::canonical(c).map_err(|e| e.to_string())
    };
    Ok(match args.first().map(String::as_str) {
        None | Some("list") => CheatCmd::List,
        Some("add") => CheatCmd::Add {
            code: code(1)?,
            name: args.get(2..).map(|w| w.join(" ")).unwrap_or_default(),
        },
        Some("on") if args.len() == 2 => CheatCmd::Enable(code(1)?, true),
        Some("off") if args.len() == 2 => CheatCmd::Enable(code(1)?, false),
        Some("remove") if args.len() == 2 => CheatCmd::Remove(code(1)?),
        _ => return Err(usage()),
    })
}

const RAMWATCH_USAGE: &str = "ramwatch add ADDR [1u|2s|4h…] [NAME…] | ramwatch remove N | ramwatch poke N VALUE | ramwatch list | ramwatch import|export FILE.wch";

/// Parse the words after `ramwatch`.
pub fn parse_ramwatch(args: &[String]) -> Result<RamWatchCmd, String> {
    let usage = || format!("usage: {RAMWATCH_USAGE}");
    let index = |i: usize| -> Result<usize, String> {
        args.get(i)
            .and_then(|w| w.parse::<usize>().ok())
            .filter(|&n| n >= 1)
            .ok_or_else(|| format!("a watch number (1, 2, …); {}", usage()))
    };
    Ok(match args.first().map(String::as_str) {
        None | Some("list") => RamWatchCmd::List,
        Some("add") => {
            let at = addr_word(args.get(1))?;
            let (layout, name_from) = match args.get(2) {
                Some(w) if search::parse_layout(&[w.as_str()]).is_ok() => {
                    let mut words = vec![w.as_str()];
                    if args.get(3).is_some_and(|w| w == "be") {
                        words.push("be");
                    }
                    let n = 2 + words.len();
                    (search::parse_layout(&words).map_err(|e| e.to_string())?, n)
                }
                _ => (Layout::default(), 2),
            };
            RamWatchCmd::Add {
                at,
                layout,
                name: args
                    .get(name_from..)
                    .map(|w| w.join(" "))
                    .unwrap_or_default(),
            }
        }
        Some("remove") if args.len() == 2 => RamWatchCmd::Remove(index(1)?),
        Some("poke") if args.len() == 3 => RamWatchCmd::Poke(
            index(1)?,
            search::parse_number(&args[2])
                .ok_or_else(|| format!("bad value '{}' (decimal, 0x1F or $1F)", args[2]))?,
        ),
        Some("import") if args.len() == 2 => RamWatchCmd::Import(args[1].clone().into()),
        Some("export") if args.len() == 2 => RamWatchCmd::Export(args[1].clone().into()),
        _ => return Err(usage()),
    })
}

impl fmt::Display for SearchCmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchCmd::New { domain, layout } => {
                write!(f, "search new {} {}", domain.name(), layout.short())
            }
            SearchCmd::Filter(words) => {
                write!(f, "search")?;
                words.iter().try_for_each(|w| write!(f, " {}", quote(w)))
            }
            SearchCmd::List(n) => write!(f, "search list {n}"),
            SearchCmd::Undo => write!(f, "search undo"),
            SearchCmd::Reset => write!(f, "search reset"),
            SearchCmd::Show(d) => write!(f, "search show {}", d.letter()),
            SearchCmd::End => write!(f, "search end"),
        }
    }
}

impl fmt::Display for CheatCmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheatCmd::Add { code, name } if name.is_empty() => write!(f, "cheat add {code}"),
            CheatCmd::Add { code, name } => write!(f, "cheat add {code} {}", quote(name)),
            CheatCmd::Enable(code, true) => write!(f, "cheat on {code}"),
            CheatCmd::Enable(code, false) => write!(f, "cheat off {code}"),
            CheatCmd::Remove(code) => write!(f, "cheat remove {code}"),
            CheatCmd::List => write!(f, "cheat list"),
        }
    }
}

impl fmt::Display for RamWatchCmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = |p: &PathBuf| quote(&p.to_string_lossy());
        match self {
            RamWatchCmd::Add { at, layout, name } => {
                let size = format!("{}{}", layout.size, layout.display.letter());
                write!(f, "ramwatch add {at} {size}")?;
                if layout.big_endian && layout.size > 1 {
                    write!(f, " be")?;
                }
                if !name.is_empty() {
                    write!(f, " {}", quote(name))?;
                }
                Ok(())
            }
            RamWatchCmd::Remove(n) => write!(f, "ramwatch remove {n}"),
            RamWatchCmd::Poke(n, v) => write!(f, "ramwatch poke {n} {v}"),
            RamWatchCmd::List => write!(f, "ramwatch list"),
            RamWatchCmd::Import(p) => write!(f, "ramwatch import {}", path(p)),
            RamWatchCmd::Export(p) => write!(f, "ramwatch export {}", path(p)),
        }
    }
}

#[cfg(test)]
mod tests;
