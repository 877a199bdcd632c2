//! Console commands, typed. A REPL line (the terminal's or the console panel's) is parsed once
//! into a [`Command`]; the window's menus build `Command`s directly; the emulation thread runs
//! both the same way (`Emu::apply`). Nothing here touches the machine.
//!
//! A line is words separated by spaces; a word with spaces is quoted (`"my states/a.gbs"` or
//! `'…'`; in double quotes `\"` and `\\` escape). The first word names the command; a line
//! whose first word is no command is Lua, kept as typed. [`Command`]'s `Display` writes the
//! line back, quoted where needed, so `parse(&cmd.to_string()) == Ok(cmd)`.

use std::fmt;
use std::path::PathBuf;

use gb_core::Buttons;
use gb_session::data::Pads;
use gb_session::movie::EndAction;

pub use crate::console::cmd_words::{Location, parse_hex};
use crate::console::cmd_words::{addr_word as addr, quote};

/// The commands, for help and tab completion: name and help line.
pub const COMMANDS: &[(&str, &str)] = &[
    (
        "peek",
        "peek ADDR [N]        show N bytes (default 16) from ADDR (hex; BANK:ADDR for a bank, e.g. 3:D000)",
    ),
    (
        "poke",
        "poke ADDR VAL...     write bytes from ADDR (logged pokes, applied before the next frame)",
    ),
    ("regs", "regs                 CPU registers"),
    (
        "step",
        "step [N]             run N frames (default 1) and stay paused",
    ),
    ("pause", "pause                pause emulation"),
    (
        "resume",
        "resume               resume emulation (forks the timeline if rewound)",
    ),
    (
        "rewind",
        "rewind [N]           go back N frames (default 60; paused there)",
    ),
    (
        "seek",
        "seek FRAME           show FRAME of the history (paused there)",
    ),
    (
        "frame",
        "frame                the timeline position and history",
    ),
    (
        "watch",
        "watch ADDR | watch -ADDR | watch   print when a byte changes (each frame) / stop / list; watch r|w|rw ADDR [=VAL] [if COND]: stop on the access",
    ),
    (
        "break",
        "break ADDR|BANK:ADDR|SYMBOL [if COND] | break r|w|rw ADDR[..END] [=VAL] [if COND] | break int | break ldbb   breakpoints (COND: a == $10 && [hl] > 5)",
    ),
    ("delete", "delete N | delete all   remove breakpoints"),
    ("enable", "enable N                turn a breakpoint on"),
    ("disable", "disable N               turn a breakpoint off"),
    ("info", "info break              list the breakpoints"),
    ("si", "si [N]                  run N instructions (1)"),
    (
        "next",
        "next                    one instruction, a CALL or RST run through",
    ),
    (
        "finish",
        "finish                  run until the current routine returns",
    ),
    (
        "run-to",
        "run-to ADDR|SYMBOL      run until the instruction there",
    ),
    (
        "disasm",
        "disasm [ADDR] [N]       disassemble N instructions (around PC, or from ADDR)",
    ),
    (
        "bt",
        "bt                      the call stack (return addresses on the stack)",
    ),
    (
        "trace",
        "trace FILE [FRAMES]     write every instruction run (Gameboy Doctor's format) for FRAMES frames (1)",
    ),
    (
        "search",
        "search new [wram|hram|cartram|vram|oam] [1u|2s|4h…] [be] [any] | lt|gt|le|ge|eq|ne [VALUE|@ADDR] | by N | changes OP N | list [N] | undo | reset | show u|s|h | end   RAM search",
    ),
    (
        "cheat",
        "cheat add CODE [NAME] | on|off|remove CODE | list   Game Genie (ABC-DEF-GHI) and GameShark (01VVAAAA) codes, kept per ROM",
    ),
    (
        "ramwatch",
        "ramwatch add ADDR [1u|2s|4h…] [NAME] | remove N | poke N VALUE | list | import|export FILE.wch   the RAM watch list, kept per ROM",
    ),
    (
        "link",
        "link [FILE | same | off | plug | unplug]   a second Game Boy on the link cable: FILE's game or the same one (the game starts again as a pair), off (one Game Boy), the cable in or out; alone: what is linked",
    ),
    (
        "load",
        "load SCRIPT [--player 2]   load a Lua script file (on a linked pair's second Game Boy with --player 2)",
    ),
    (
        "reload",
        "reload [SCRIPT|N]    reload a script from its file",
    ),
    ("unload", "unload SCRIPT|N      unload a script"),
    ("scripts", "scripts              list loaded scripts"),
    (
        "state",
        "state save|load SLOT save or load a state: 0-9 (files per ROM), a path (.gbs; quote it if it has spaces), or a name (in memory); state export-bess|import-bess FILE (SameBoy's format)",
    ),
    (
        "movie",
        "movie record FILE [--here] | play FILE | rw | ro | undo | stop | end pause|record|stop | info; TAS editor: movie edit [FILE] | set F BTNS | paint F T BTNS on|off | pattern F T BTNS ON OFF | insert F [N] [BTNS] | delete F [T] | clone F T | clear F T | paste F BTNS... | undo | redo | marker F [TEXT] | marker -F | branch save [NAME]|load N|list|diff A B | goto F | save [FILE] | close | ghost branch N|FILE|off (ranges F..=T; BTNS like A+B+Up, . for none)",
    ),
    (
        "help",
        "help                 this list; anything else is Lua (e.g. memory.read_u8(0xC000))",
    ),
    ("quit", "quit                 leave gbhost"),
];

/// Where a state goes or comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateTarget {
    /// A numbered slot of this ROM (0-9), a file in the state folder.
    Slot(u8),
    /// A state file at a path.
    File(PathBuf),
    /// A state kept in memory under a name.
    Memory(String),
}

/// A `state …` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateCmd {
    /// Save the state.
    Save(StateTarget),
    /// Load a state.
    Load(StateTarget),
    /// Open a state file as a new session (its scripts restored exactly when they can be).
    Open(PathBuf),
    /// Write the machine as a BESS file (SameBoy's format).
    ExportBess(PathBuf),
    /// Load a BESS file.
    ImportBess(PathBuf),
}

/// A `movie …` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MovieCmd {
    /// Record a new movie: from power-on, or from the current frame (`here`).
    Record {
        /// The new file.
        path: PathBuf,
        /// From the current frame.
        here: bool,
    },
    /// Play a movie read-only from its start.
    Play(PathBuf),
    /// Switch to read-write (a rerecord from here).
    ReadWrite,
    /// Switch to read-only.
    ReadOnly,
    /// Undo the last rerecord.
    Undo,
    /// Close the movie.
    Stop,
    /// What a read-only movie does at its end.
    End(EndAction),
    /// The open movie's status (or the TAS editor's).
    Info,
    /// Open the TAS editor: on a movie file, or over the current session from frame 0.
    Edit(Option<PathBuf>),
    /// Set one frame's buttons.
    Set {
        /// The frame.
        frame: u64,
        /// Its buttons (every player's).
        buttons: Pads,
    },
    /// Press (`on`) or release buttons over frames `from..=to`.
    Paint {
        /// First frame.
        from: u64,
        /// Last frame (included).
        to: u64,
        /// The buttons.
        buttons: Pads,
        /// Press or release.
        on: bool,
    },
    /// Autofire over frames `from..=to`: `on` frames pressed, `off` released.
    Pattern {
        /// First frame.
        from: u64,
        /// Last frame (included).
        to: u64,
        /// The buttons.
        buttons: Pads,
        /// Frames pressed.
        on: u64,
        /// Frames released.
        off: u64,
    },
    /// Insert `n` frames of `buttons` before `frame`.
    Insert {
        /// Where.
        frame: u64,
        /// How many.
        n: u64,
        /// Their buttons.
        buttons: Pads,
    },
    /// Delete frames `from..=to`.
    Delete {
        /// First frame.
        from: u64,
        /// Last frame (included).
        to: u64,
    },
    /// Insert a copy of frames `from..=to` after them.
    Clone {
        /// First frame.
        from: u64,
        /// Last frame (included).
        to: u64,
    },
    /// Release every button over frames `from..=to`.
    Clear {
        /// First frame.
        from: u64,
        /// Last frame (included).
        to: u64,
    },
    /// Paste input over the frames from `frame`.
    Paste {
        /// Where.
        frame: u64,
        /// The input, a frame each.
        input: Vec<Pads>,
    },
    /// Redo the last undone edit.
    Redo,
    /// Put a marker on a frame.
    Marker {
        /// The frame.
        frame: u64,
        /// Its text.
        text: String,
    },
    /// Remove a frame's marker.
    RemoveMarker(u64),
    /// A branch command.
    Branch(BranchCmd),
    /// Seek the editor to a frame (emulating to it if needed).
    Goto(u64),
    /// Save the editor's movie (to its file, or to a new one).
    Save(Option<PathBuf>),
    /// Close the TAS editor.
    Close,
    /// Race a ghost: a branch, another movie, or none.
    Ghost(GhostSource),
}

/// What `movie ghost` runs beside the edited session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GhostSource {
    /// Branch N (0-based).
    Branch(usize),
    /// A movie file of the same ROM.
    Movie(PathBuf),
    /// No ghost.
    Off,
}

/// A `movie branch …` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BranchCmd {
    /// Save the input, markers and frame as a branch.
    Save(Option<String>),
    /// Load branch N (0-based).
    Load(usize),
    /// List the branches.
    List,
    /// The first frame where two branches differ.
    Diff(usize, usize),
}

/// Parse buttons: names joined by `+` (`A+B+Up`, any case; `U D L R S s` too), `.` for none.
pub fn parse_buttons(s: &str) -> Result<Buttons, String> {
    if s == "." || s == "-" {
        return Ok(Buttons::default());
    }
    let mut b = 0u8;
    for part in s.split('+') {
        let one = match part {
            "S" => Some(Buttons::START),
            "s" => Some(Buttons::SELECT),
            "U" | "u" => Some(Buttons::UP),
            "D" | "d" => Some(Buttons::DOWN),
            "L" | "l" => Some(Buttons::LEFT),
            "R" | "r" => Some(Buttons::RIGHT),
            _ => Buttons::NAMES
                .iter()
                .find(|(_, n)| n.eq_ignore_ascii_case(part))
                .map(|(m, _)| *m),
        };
        b |= one
            .ok_or_else(|| format!("bad button '{part}' (A B Select Start Up Down Left Right, joined by +; . for none)"))?
            .0;
    }
    Ok(Buttons(b))
}

/// Every player's buttons: player 1's as [`parse_buttons`] reads them, then, for a linked
/// pair's player 2, `/` and its buttons (`A+Up/B`, `./Start`; none after the `/`: released).
pub fn parse_pads(s: &str) -> Result<Pads, String> {
    let mut parts = s.split('/');
    let first = parse_buttons(parts.next().unwrap_or("."))?;
    let second = match parts.next() {
        Some("") | None => Buttons::default(),
        Some(p) => parse_buttons(p)?,
    };
    if parts.next().is_some() {
        return Err(format!(
            "'{s}': two players at most (player 1's buttons/player 2's)"
        ));
    }
    Ok(Pads::pair(first, second))
}

/// Every player's buttons as `movie` commands write them: player 1's (`Up+A`), and `/` then
/// player 2's when it holds any (`Up+A/B`).
pub fn pads_text(p: Pads) -> String {
    if p.player(1) == Buttons::default() {
        buttons_text(p.player(0))
    } else {
        format!(
            "{}/{}",
            buttons_text(p.player(0)),
            buttons_text(p.player(1))
        )
    }
}

/// Buttons as `movie` commands write them (`Up+A`, `.` for none).
pub fn buttons_text(b: Buttons) -> String {
    let names: Vec<&str> = Buttons::NAMES
        .iter()
        .filter(|(m, _)| b.contains(*m))
        .map(|(_, n)| *n)
        .collect();
    if names.is_empty() {
        ".".into()
    } else {
        names.join("+")
    }
}

/// One console command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// The command list.
    Help,
    /// A hex dump of `len` bytes from `addr`.
    Peek {
        /// First address.
        addr: Location,
        /// Bytes to show.
        len: u32,
    },
    /// Logged pokes from `addr`.
    Poke {
        /// First address.
        addr: Location,
        /// The bytes.
        bytes: Vec<u8>,
    },
    /// The CPU registers.
    Regs,
    /// Run frames and stay paused.
    Step(u64),
    /// Pause.
    Pause,
    /// Resume.
    Resume,
    /// Go back this many frames.
    Rewind(u64),
    /// Show a frame of the history.
    Seek(u64),
    /// The timeline position.
    Frame,
    /// Watch a byte.
    Watch(Location),
    /// Stop watching a byte.
    Unwatch(Location),
    /// List the watched bytes.
    Watches,
    /// Load a script file, against a player's Game Boy (0: the first; 1: a linked pair's
    /// second).
    Load(PathBuf, usize),
    /// Reload a script (by name or number; the only one when absent).
    Reload(Option<String>),
    /// Unload a script (by name or number).
    Unload(String),
    /// List the scripts.
    Scripts,
    /// A state command.
    State(StateCmd),
    /// A movie command.
    Movie(MovieCmd),
    /// A RAM search command.
    Search(crate::console::tool_cmds::SearchCmd),
    /// A debugger command.
    Debug(crate::console::debug_cmds::DebugCmd),
    /// A cheat command.
    Cheat(crate::console::tool_cmds::CheatCmd),
    /// A RAM watch list command.
    RamWatch(crate::console::tool_cmds::RamWatchCmd),
    /// A link cable command.
    Link(crate::console::link_cmds::LinkCmd),
    /// Lua, as typed.
    Lua(String),
    /// Leave gbhost.
    Quit,
}

/// Split a line into words: spaces separate, quotes group (see the module docs).
pub fn words(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let Some(&first) = chars.peek() else {
            return Ok(out);
        };
        let mut word = String::new();
        if first == '"' || first == '\'' {
            chars.next();
            loop {
                match chars.next() {
                    None => return Err(format!("unclosed {first} in: {line}")),
                    Some(c) if c == first => break,
                    Some('\\') if first == '"' => match chars.next() {
                        Some(c @ ('"' | '\\')) => word.push(c),
                        Some(c) => {
                            word.push('\\');
                            word.push(c);
                        }
                        None => return Err(format!("unclosed \" in: {line}")),
                    },
                    Some(c) => word.push(c),
                }
            }
            if chars.peek().is_some_and(|c| !c.is_whitespace()) {
                return Err(format!("a quoted word must end at a space: {line}"));
            }
        } else {
            while let Some(c) = chars.next_if(|c| !c.is_whitespace()) {
                word.push(c);
            }
        }
        out.push(word);
    }
}

/// Parse a count: decimal, or hex with `$` / `0x` / `h` (or hex digits that are not all
/// decimal ones: `ff`).
pub fn parse_num(s: &str) -> Option<u64> {
    let s = s.trim().trim_start_matches('[').trim_end_matches(']');
    if let Some(h) = s
        .strip_prefix('$')
        .or_else(|| s.strip_prefix("0x"))
        .or_else(|| s.strip_prefix("0X"))
        .or_else(|| s.strip_suffix('h'))
    {
        return u64::from_str_radix(h, 16).ok();
    }
    s.parse().ok().or_else(|| u64::from_str_radix(s, 16).ok())
}

fn count(s: Option<&String>, default: u64) -> Result<u64, String> {
    match s {
        None => Ok(default),
        Some(s) => parse_num(s).ok_or_else(|| format!("bad number '{s}'")),
    }
}

/// The state target a word names: 0-9 a slot, a path (with a `/` or ending in `.gbs`) a
/// file, anything else a name in memory.
fn target(word: &str) -> StateTarget {
    match word.parse::<u8>() {
        Ok(n) if n <= 9 => StateTarget::Slot(n),
        _ if word.contains('/') || word.ends_with(".gbs") => StateTarget::File(word.into()),
        _ => StateTarget::Memory(word.to_owned()),
    }
}

/// Refuse words beyond the `n` a command takes (so `state save my states/a.gbs` is an error,
/// not a save to `my`).
fn at_most(args: &[String], n: usize, usage: &str) -> Result<(), String> {
    if args.len() > n {
        return Err(format!(
            "too many words ({}); usage: {usage} (quote a path that has spaces: \"my states/a.gbs\")",
            args.len()
        ));
    }
    Ok(())
}

/// Parse one console line.
pub fn parse(line: &str) -> Result<Command, String> {
    let line = line.trim();
    let name = line.split_whitespace().next().unwrap_or("");
    let known = COMMANDS.iter().any(|(n, _)| *n == name)
        || matches!(
            name,
            "?" | "x"
                | "registers"
                | "s"
                | "continue"
                | "c"
                | "back"
                | "exit"
                | "q"
                | "b"
                | "n"
                | "stepi"
                | "until"
                | "dis"
                | "backtrace"
        );
    if !known {
        return Ok(Command::Lua(line.to_owned()));
    }
    let all = words(line)?;
    let args = &all[1..];
    let arg = |i: usize| args.get(i);
    Ok(match name {
        "help" | "?" => Command::Help,
        "peek" | "x" => {
            at_most(args, 2, "peek ADDR [N]")?;
            Command::Peek {
                addr: addr(arg(0))?,
                len: count(arg(1), 16)?.clamp(1, 0x10000) as u32,
            }
        }
        "poke" => {
            let a = addr(arg(0))?;
            if args.len() < 2 {
                return Err("usage: poke ADDR VAL...".into());
            }
            let bytes = args[1..]
                .iter()
                .map(|s| {
                    parse_hex(s)
                        .and_then(|v| u8::try_from(v).ok())
                        .ok_or_else(|| format!("bad byte '{s}' (hex 00-FF, or #0-#255)"))
                })
                .collect::<Result<_, _>>()?;
            Command::Poke { addr: a, bytes }
        }
        "regs" | "registers" => Command::Regs,
        "step" | "s" => {
            at_most(args, 1, "step [N]")?;
            Command::Step(count(arg(0), 1)?.min(100_000))
        }
        "pause" => Command::Pause,
        "resume" | "continue" | "c" => Command::Resume,
        "rewind" | "back" => {
            at_most(args, 1, "rewind [N]")?;
            Command::Rewind(count(arg(0), 60)?)
        }
        "seek" => {
            at_most(args, 1, "seek FRAME")?;
            Command::Seek(count(Some(arg(0).ok_or("usage: seek FRAME")?), 0)?)
        }
        "frame" => Command::Frame,
        "watch" if args.len() > 1 => {
            Command::Debug(crate::console::debug_cmds::parse_break(args, true)?)
        }
        "watch" => match arg(0) {
            None => Command::Watches,
            Some(s) => match s.strip_prefix('-') {
                Some(rest) => Command::Unwatch(addr(Some(&rest.to_owned()))?),
                None => Command::Watch(addr(Some(s))?),
            },
        },
        "load" => {
            const USAGE: &str = "usage: load SCRIPT [--player 1|2]";
            let player = match args.get(1..) {
                None | Some([]) => 0,
                Some([flag, n]) if flag == "--player" => match n.as_str() {
                    "1" => 0,
                    "2" => 1,
                    _ => return Err(format!("'{n}' is not a player: 1 or 2")),
                },
                Some(_) => return Err(USAGE.to_owned()),
            };
            Command::Load(arg(0).ok_or(USAGE)?.into(), player)
        }
        "reload" => {
            at_most(args, 1, "reload [SCRIPT|N]")?;
            Command::Reload(arg(0).cloned())
        }
        "unload" => {
            at_most(args, 1, "unload SCRIPT|N")?;
            Command::Unload(arg(0).ok_or("usage: unload SCRIPT|N")?.clone())
        }
        "scripts" => Command::Scripts,
        "state" => Command::State(parse_state(args)?),
        "movie" => Command::Movie(parse_movie(args)?),
        "search" => Command::Search(crate::console::tool_cmds::parse_search(args)?),
        other if let Some(d) = crate::console::debug_cmds::parse(other, args) => Command::Debug(d?),
        "cheat" => Command::Cheat(crate::console::tool_cmds::parse_cheat(args)?),
        "ramwatch" => Command::RamWatch(crate::console::tool_cmds::parse_ramwatch(args)?),
        "link" => Command::Link(crate::console::link_cmds::parse_link(args)?),
        _ => Command::Quit,
    })
}

fn parse_state(args: &[String]) -> Result<StateCmd, String> {
    const USAGE: &str = "state save|load SLOT | state open|export-bess|import-bess FILE";
    at_most(args, 2, USAGE)?;
    let what = args.get(1).ok_or(format!("usage: {USAGE}"))?;
    Ok(match args[0].as_str() {
        "save" => StateCmd::Save(target(what)),
        "load" => StateCmd::Load(target(what)),
        "open" => StateCmd::Open(what.into()),
        "export-bess" => StateCmd::ExportBess(what.into()),
        "import-bess" => StateCmd::ImportBess(what.into()),
        _ => return Err(format!("usage: {USAGE}")),
    })
}

fn parse_movie(args: &[String]) -> Result<MovieCmd, String> {
    const USAGE: &str = "movie record FILE [--here] | play FILE | rw | ro | undo | stop | end pause|record|stop | info";
    let usage = || format!("usage: {USAGE}");
    let first = args.first().map(String::as_str);
    let n = args.len();
    Ok(match (first, n) {
        (Some("record"), 2) => MovieCmd::Record {
            path: args[1].clone().into(),
            here: false,
        },
        (Some("record"), 3) if args[2] == "--here" => MovieCmd::Record {
            path: args[1].clone().into(),
            here: true,
        },
        (Some("play"), 2) => MovieCmd::Play(args[1].clone().into()),
        (Some("rw"), 1) => MovieCmd::ReadWrite,
        (Some("ro"), 1) => MovieCmd::ReadOnly,
        (Some("undo"), 1) => MovieCmd::Undo,
        (Some("redo"), 1) => MovieCmd::Redo,
        (Some("edit"), 1) => MovieCmd::Edit(None),
        (Some("edit"), 2) => MovieCmd::Edit(Some(args[1].clone().into())),
        (Some("save"), 1) => MovieCmd::Save(None),
        (Some("save"), 2) => MovieCmd::Save(Some(args[1].clone().into())),
        (Some("close"), 1) => MovieCmd::Close,
        (Some("goto"), 2) => MovieCmd::Goto(frame(&args[1])?),
        (Some("set"), 3) => MovieCmd::Set {
            frame: frame(&args[1])?,
            buttons: parse_pads(&args[2])?,
        },
        (Some("paint"), 5) => MovieCmd::Paint {
            from: frame(&args[1])?,
            to: frame(&args[2])?,
            buttons: parse_pads(&args[3])?,
            on: match args[4].as_str() {
                "on" => true,
                "off" => false,
                _ => return Err("usage: movie paint FROM TO BUTTONS on|off".into()),
            },
        },
        (Some("pattern"), 6) => MovieCmd::Pattern {
            from: frame(&args[1])?,
            to: frame(&args[2])?,
            buttons: parse_pads(&args[3])?,
            on: frame(&args[4])?.max(1),
            off: frame(&args[5])?,
        },
        (Some("insert"), 2..=4) => MovieCmd::Insert {
            frame: frame(&args[1])?,
            n: args.get(2).map_or(Ok(1), |a| frame(a))?,
            buttons: args.get(3).map_or(Ok(Pads::default()), |a| parse_pads(a))?,
        },
        (Some("delete"), 2 | 3) => {
            let from = frame(&args[1])?;
            MovieCmd::Delete {
                from,
                to: args.get(2).map_or(Ok(from), |a| frame(a))?,
            }
        }
        (Some("clone"), 3) => MovieCmd::Clone {
            from: frame(&args[1])?,
            to: frame(&args[2])?,
        },
        (Some("clear"), 3) => MovieCmd::Clear {
            from: frame(&args[1])?,
            to: frame(&args[2])?,
        },
        (Some("paste"), 3..) => MovieCmd::Paste {
            frame: frame(&args[1])?,
            input: args[2..]
                .iter()
                .map(|a| parse_pads(a))
                .collect::<Result<_, _>>()?,
        },
        (Some("marker"), 2) if args[1].starts_with('-') => {
            MovieCmd::RemoveMarker(frame(&args[1][1..])?)
        }
        (Some("marker"), 2 | 3) => MovieCmd::Marker {
            frame: frame(&args[1])?,
            text: args.get(2).cloned().unwrap_or_default(),
        },
        (Some("branch"), _) => MovieCmd::Branch(parse_branch(&args[1..])?),
        (Some("ghost"), 2) if args[1] == "off" => MovieCmd::Ghost(GhostSource::Off),
        (Some("ghost"), 2) => MovieCmd::Ghost(GhostSource::Movie(args[1].clone().into())),
        (Some("ghost"), 3) if args[1] == "branch" => {
            MovieCmd::Ghost(GhostSource::Branch(args[2].parse().map_err(|_| {
                format!(
                    "bad branch '{}'; usage: movie ghost branch N | FILE | off",
                    args[2]
                )
            })?))
        }
        (Some("stop"), 1) => MovieCmd::Stop,
        (Some("end"), 2) => {
            MovieCmd::End(EndAction::parse(&args[1]).ok_or("usage: movie end pause|record|stop")?)
        }
        (Some("info") | None, _) if n <= 1 => MovieCmd::Info,
        _ => return Err(usage()),
    })
}

/// A frame number (decimal).
fn frame(s: &str) -> Result<u64, String> {
    s.parse()
        .map_err(|_| format!("bad frame '{s}' (a decimal number)"))
}

fn parse_branch(args: &[String]) -> Result<BranchCmd, String> {
    const USAGE: &str = "usage: movie branch save [NAME] | load N | list | diff A B";
    let n = |s: &String| {
        s.parse::<usize>()
            .map_err(|_| format!("bad branch '{s}'; {USAGE}"))
    };
    Ok(match (args.first().map(String::as_str), args.len()) {
        (Some("save"), 1) => BranchCmd::Save(None),
        (Some("save"), 2) => BranchCmd::Save(Some(args[1].clone())),
        (Some("load"), 2) => BranchCmd::Load(n(&args[1])?),
        (Some("list") | None, 0 | 1) => BranchCmd::List,
        (Some("diff"), 3) => BranchCmd::Diff(n(&args[1])?, n(&args[2])?),
        _ => return Err(USAGE.into()),
    })
}

impl fmt::Display for StateTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateTarget::Slot(n) => write!(f, "{n}"),
            StateTarget::File(p) => write!(f, "{}", quote(&p.to_string_lossy())),
            StateTarget::Memory(name) => write!(f, "{}", quote(name)),
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = |p: &PathBuf| quote(&p.to_string_lossy());
        match self {
            Command::Help => write!(f, "help"),
            Command::Peek { addr, len } => write!(f, "peek {addr} {len}"),
            Command::Poke { addr, bytes } => {
                write!(f, "poke {addr}")?;
                bytes.iter().try_for_each(|b| write!(f, " {b:02X}"))
            }
            Command::Regs => write!(f, "regs"),
            Command::Step(n) => write!(f, "step {n}"),
            Command::Pause => write!(f, "pause"),
            Command::Resume => write!(f, "resume"),
            Command::Rewind(n) => write!(f, "rewind {n}"),
            Command::Seek(t) => write!(f, "seek {t}"),
            Command::Frame => write!(f, "frame"),
            Command::Watch(a) => write!(f, "watch {a}"),
            Command::Unwatch(a) => write!(f, "watch -{a}"),
            Command::Watches => write!(f, "watch"),
            Command::Load(p, 0) => write!(f, "load {}", path(p)),
            Command::Load(p, n) => write!(f, "load {} --player {}", path(p), n + 1),
            Command::Reload(None) => write!(f, "reload"),
            Command::Reload(Some(s)) => write!(f, "reload {}", quote(s)),
            Command::Unload(s) => write!(f, "unload {}", quote(s)),
            Command::Scripts => write!(f, "scripts"),
            Command::State(StateCmd::Save(t)) => write!(f, "state save {t}"),
            Command::State(StateCmd::Load(t)) => write!(f, "state load {t}"),
            Command::State(StateCmd::Open(p)) => write!(f, "state open {}", path(p)),
            Command::State(StateCmd::ExportBess(p)) => write!(f, "state export-bess {}", path(p)),
            Command::State(StateCmd::ImportBess(p)) => write!(f, "state import-bess {}", path(p)),
            Command::Search(c) => write!(f, "{c}"),
            Command::Debug(c) => write!(f, "{c}"),
            Command::Cheat(c) => write!(f, "{c}"),
            Command::RamWatch(c) => write!(f, "{c}"),
            Command::Link(c) => write!(f, "{c}"),
            Command::Movie(m) => match m {
                MovieCmd::Record { path: p, here } => {
                    write!(f, "movie record {}", path(p))?;
                    if *here {
                        write!(f, " --here")?;
                    }
                    Ok(())
                }
                MovieCmd::Play(p) => write!(f, "movie play {}", path(p)),
                MovieCmd::ReadWrite => write!(f, "movie rw"),
                MovieCmd::ReadOnly => write!(f, "movie ro"),
                MovieCmd::Undo => write!(f, "movie undo"),
                MovieCmd::Stop => write!(f, "movie stop"),
                MovieCmd::End(a) => write!(f, "movie end {}", a.name()),
                MovieCmd::Info => write!(f, "movie info"),
                MovieCmd::Edit(None) => write!(f, "movie edit"),
                MovieCmd::Edit(Some(p)) => write!(f, "movie edit {}", path(p)),
                MovieCmd::Set { frame, buttons } => {
                    write!(f, "movie set {frame} {}", pads_text(*buttons))
                }
                MovieCmd::Paint {
                    from,
                    to,
                    buttons,
                    on,
                } => write!(
                    f,
                    "movie paint {from} {to} {} {}",
                    pads_text(*buttons),
                    if *on { "on" } else { "off" }
                ),
                MovieCmd::Pattern {
                    from,
                    to,
                    buttons,
                    on,
                    off,
                } => write!(
                    f,
                    "movie pattern {from} {to} {} {on} {off}",
                    pads_text(*buttons)
                ),
                MovieCmd::Insert { frame, n, buttons } => {
                    write!(f, "movie insert {frame} {n} {}", pads_text(*buttons))
                }
                MovieCmd::Delete { from, to } => write!(f, "movie delete {from} {to}"),
                MovieCmd::Clone { from, to } => write!(f, "movie clone {from} {to}"),
                MovieCmd::Clear { from, to } => write!(f, "movie clear {from} {to}"),
                MovieCmd::Paste { frame, input } => {
                    write!(f, "movie paste {frame}")?;
                    input
                        .iter()
                        .try_for_each(|b| write!(f, " {}", pads_text(*b)))
                }
                MovieCmd::Redo => write!(f, "movie redo"),
                MovieCmd::Marker { frame, text } if text.is_empty() => {
                    write!(f, "movie marker {frame}")
                }
                MovieCmd::Marker { frame, text } => {
                    write!(f, "movie marker {frame} {}", quote(text))
                }
                MovieCmd::RemoveMarker(frame) => write!(f, "movie marker -{frame}"),
                MovieCmd::Branch(BranchCmd::Save(None)) => write!(f, "movie branch save"),
                MovieCmd::Branch(BranchCmd::Save(Some(n))) => {
                    write!(f, "movie branch save {}", quote(n))
                }
                MovieCmd::Branch(BranchCmd::Load(n)) => write!(f, "movie branch load {n}"),
                MovieCmd::Branch(BranchCmd::List) => write!(f, "movie branch list"),
                MovieCmd::Branch(BranchCmd::Diff(a, b)) => {
                    write!(f, "movie branch diff {a} {b}")
                }
                MovieCmd::Goto(t) => write!(f, "movie goto {t}"),
                MovieCmd::Save(None) => write!(f, "movie save"),
                MovieCmd::Save(Some(p)) => write!(f, "movie save {}", path(p)),
                MovieCmd::Close => write!(f, "movie close"),
                MovieCmd::Ghost(GhostSource::Off) => write!(f, "movie ghost off"),
                MovieCmd::Ghost(GhostSource::Branch(n)) => write!(f, "movie ghost branch {n}"),
                MovieCmd::Ghost(GhostSource::Movie(p)) => write!(f, "movie ghost {}", path(p)),
            },
            Command::Lua(code) => write!(f, "{code}"),
            Command::Quit => write!(f, "quit"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buttons_and_editor_commands() {
        assert_eq!(
            parse_buttons("A+b+up"),
            Ok(Buttons::A | Buttons::B | Buttons::UP)
        );
        assert_eq!(parse_buttons("."), Ok(Buttons::default()));
        assert_eq!(parse_buttons("S+s"), Ok(Buttons::START | Buttons::SELECT));
        assert!(parse_buttons("A+Q").is_err());
        assert_eq!(buttons_text(Buttons::A | Buttons::UP), "Up+A");
        // A linked pair's player 2 after a '/'.
        assert_eq!(
            parse_pads("A+Up/B"),
            Ok(Pads::pair(Buttons::A | Buttons::UP, Buttons::B))
        );
        assert_eq!(parse_pads("./Start"), Ok(Pads::of(1, Buttons::START)));
        assert_eq!(parse_pads("A/"), Ok(Pads::of(0, Buttons::A)));
        assert!(parse_pads("A/B/A").is_err(), "two players at most");
        assert!(parse_pads("A/Q").is_err());
        for p in [
            Pads::pair(Buttons::A, Buttons::DOWN),
            Pads::of(0, Buttons::B),
        ] {
            assert_eq!(parse_pads(&pads_text(p)), Ok(p));
        }
        assert_eq!(pads_text(Pads::of(1, Buttons::A)), "./A");
        assert_eq!(
            parse("movie delete 5"),
            Ok(Command::Movie(MovieCmd::Delete { from: 5, to: 5 }))
        );
        assert_eq!(
            parse("movie insert 5"),
            Ok(Command::Movie(MovieCmd::Insert {
                frame: 5,
                n: 1,
                buttons: Buttons::default().into()
            }))
        );
        assert!(parse("movie paint 1 2 A maybe").is_err());
        assert!(parse("movie set x A").is_err());
        assert!(parse("movie branch load x").is_err());
        assert_eq!(
            parse("movie ghost branch 2"),
            Ok(Command::Movie(MovieCmd::Ghost(GhostSource::Branch(2))))
        );
        assert!(parse("movie ghost branch x").is_err());
        for line in [
            "movie ghost off",
            "movie ghost branch 0",
            "movie ghost 'old run.gbm'",
        ] {
            let cmd = parse(line).expect(line);
            assert_eq!(parse(&cmd.to_string()), Ok(cmd));
        }
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_hex("$C000"), Some(0xC000));
        assert_eq!(parse_hex("0xff"), Some(0xFF));
        assert_eq!(parse_hex("c000"), Some(0xC000));
        assert_eq!(parse_hex("8000"), Some(0x8000));
        assert_eq!(parse_hex("#255"), Some(255));
        assert_eq!(parse_num("60"), Some(60));
        assert_eq!(parse_num("$10"), Some(0x10));
        assert_eq!(parse_hex("zz"), None);
    }

    #[test]
    fn quoted_paths_are_one_word() {
        assert_eq!(
            parse(r#"state save "dir with space/a.gbs""#),
            Ok(Command::State(StateCmd::Save(StateTarget::File(
                "dir with space/a.gbs".into()
            ))))
        );
        assert_eq!(
            parse("state load 'it''s/x.gbs'"),
            Err("a quoted word must end at a space: state load 'it''s/x.gbs'".into())
        );
        assert_eq!(
            words(r#"a "b \"c\" \\ d" 'e f'"#),
            Ok(vec!["a".into(), r#"b "c" \ d"#.into(), "e f".into()])
        );
        assert!(parse(r#"load "unclosed.lua"#).is_err());
    }

    #[test]
    fn extra_words_are_refused_not_dropped() {
        let e = parse("state save my states/a.gbs").unwrap_err();
        assert!(e.contains("too many words") && e.contains("quote"), "{e}");
        assert!(parse("movie record a b c").is_err());
    }

    #[test]
    fn targets_and_lua() {
        assert_eq!(
            parse("state save 3"),
            Ok(Command::State(StateCmd::Save(StateTarget::Slot(3))))
        );
        assert_eq!(
            parse("state load boss"),
            Ok(Command::State(StateCmd::Load(StateTarget::Memory(
                "boss".into()
            ))))
        );
        assert_eq!(
            parse("memory.read_u8(0xC000) .. 'state save x'"),
            Ok(Command::Lua(
                "memory.read_u8(0xC000) .. 'state save x'".into()
            ))
        );
        assert_eq!(
            parse("peek c000"),
            Ok(Command::Peek {
                addr: Location::bus(0xC000),
                len: 16
            })
        );
        assert_eq!(
            parse("peek 3:d000 4"),
            Ok(Command::Peek {
                addr: Location {
                    bank: Some(3),
                    addr: 0xD000
                },
                len: 4
            })
        );
        assert!(parse("peek 3:zz").is_err());
    }

    /// Every command reads back from the line it writes.
    #[test]
    fn display_round_trips() {
        use crate::console::link_cmds::LinkCmd;
        let all = [
            Command::Help,
            Command::Link(LinkCmd::Status),
            Command::Link(LinkCmd::Cable(false)),
            Command::Link(LinkCmd::Same),
            Command::Link(LinkCmd::Off),
            Command::Link(LinkCmd::Open("my roms/blue.gb".into())),
            Command::Peek {
                addr: Location::bus(0xFF40),
                len: 3,
            },
            Command::Peek {
                addr: Location {
                    bank: Some(0x1F),
                    addr: 0x4000,
                },
                len: 3,
            },
            Command::Poke {
                addr: Location::bus(0xC000),
                bytes: vec![1, 0xFF],
            },
            Command::Poke {
                addr: Location {
                    bank: Some(2),
                    addr: 0xD123,
                },
                bytes: vec![7],
            },
            Command::Regs,
            Command::Step(5),
            Command::Pause,
            Command::Resume,
            Command::Rewind(60),
            Command::Seek(100),
            Command::Frame,
            Command::Watch(Location::bus(0xC001)),
            Command::Unwatch(Location {
                bank: Some(1),
                addr: 0x8001,
            }),
            Command::Watches,
            Command::Load("my scripts/hud \"v2\".lua".into(), 0),
            Command::Load("p2.lua".into(), 1),
            Command::Reload(None),
            Command::Reload(Some("hud.lua".into())),
            Command::Unload("2".into()),
            Command::Scripts,
            Command::State(StateCmd::Save(StateTarget::Slot(0))),
            Command::State(StateCmd::Save(StateTarget::File(
                "dir with space/a.gbs".into(),
            ))),
            Command::State(StateCmd::Load(StateTarget::Memory("boss fight".into()))),
            Command::State(StateCmd::ExportBess("out dir/x.bess".into())),
            Command::State(StateCmd::ImportBess("x.bess".into())),
            Command::Movie(MovieCmd::Record {
                path: "a b.gbm".into(),
                here: true,
            }),
            Command::Movie(MovieCmd::Record {
                path: "a.gbm".into(),
                here: false,
            }),
            Command::Movie(MovieCmd::Play("a.gbm".into())),
            Command::Movie(MovieCmd::ReadWrite),
            Command::Movie(MovieCmd::ReadOnly),
            Command::Movie(MovieCmd::Undo),
            Command::Movie(MovieCmd::Stop),
            Command::Movie(MovieCmd::End(EndAction::Record)),
            Command::Movie(MovieCmd::Info),
            Command::Movie(MovieCmd::Edit(None)),
            Command::Movie(MovieCmd::Edit(Some("my movies/a.gbm".into()))),
            Command::Movie(MovieCmd::Set {
                frame: 12,
                buttons: (Buttons::A | Buttons::UP).into(),
            }),
            Command::Movie(MovieCmd::Set {
                frame: 0,
                buttons: (Buttons::default()).into(),
            }),
            Command::Movie(MovieCmd::Paint {
                from: 100,
                to: 120,
                buttons: Buttons::A.into(),
                on: true,
            }),
            Command::Movie(MovieCmd::Paint {
                from: 1,
                to: 2,
                buttons: (Buttons::START | Buttons::SELECT).into(),
                on: false,
            }),
            Command::Movie(MovieCmd::Pattern {
                from: 5,
                to: 50,
                buttons: (Buttons::B).into(),
                on: 1,
                off: 2,
            }),
            Command::Movie(MovieCmd::Insert {
                frame: 7,
                n: 3,
                buttons: Buttons::RIGHT.into(),
            }),
            Command::Movie(MovieCmd::Delete { from: 4, to: 9 }),
            Command::Movie(MovieCmd::Clone { from: 4, to: 9 }),
            Command::Movie(MovieCmd::Clear { from: 4, to: 9 }),
            Command::Movie(MovieCmd::Paste {
                frame: 3,
                input: vec![
                    Buttons::A.into(),
                    Pads::default(),
                    (Buttons::DOWN | Buttons::LEFT).into(),
                ],
            }),
            Command::Movie(MovieCmd::Redo),
            Command::Movie(MovieCmd::Marker {
                frame: 30,
                text: "boss \"door\"".into(),
            }),
            Command::Movie(MovieCmd::Marker {
                frame: 31,
                text: String::new(),
            }),
            Command::Movie(MovieCmd::RemoveMarker(30)),
            Command::Movie(MovieCmd::Branch(BranchCmd::Save(None))),
            Command::Movie(MovieCmd::Branch(BranchCmd::Save(Some("fast route".into())))),
            Command::Movie(MovieCmd::Branch(BranchCmd::Load(2))),
            Command::Movie(MovieCmd::Branch(BranchCmd::List)),
            Command::Movie(MovieCmd::Branch(BranchCmd::Diff(0, 1))),
            Command::Movie(MovieCmd::Goto(77)),
            Command::Movie(MovieCmd::Save(None)),
            Command::Movie(MovieCmd::Save(Some("out/b c.gbm".into()))),
            Command::Movie(MovieCmd::Close),
            Command::Lua("print(1 + 1)".into()),
            Command::Quit,
        ];
        for cmd in all {
            let line = cmd.to_string();
            assert_eq!(parse(&line), Ok(cmd), "{line}");
        }
    }
}
