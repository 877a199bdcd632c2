//! The console: REPL lines evaluated on the emulation thread, for the terminal REPL and the
//! window's console panel alike.
//!
//! A line is a meta-command (`peek`, `poke`, `regs`, `step`, `pause`, `resume`, `rewind`,
//! `seek`, `watch`, `load`, `reload`, `state`, `help`) or else Lua, evaluated in a dedicated
//! console VM ([`Console`]) with the native memory API. The console VM is not part of the
//! rollback; its writes go through `Session::poke`, so they are logged events like any poke.

use crate::emu::Emu;
use gb_session::Session;
use lua_rollback::{Host, HostReturn, Value, Vm, VmConfig};
use std::fmt::Write as _;
use std::path::Path;

/// The meta-commands, for help and tab completion.
pub const COMMANDS: &[(&str, &str)] = &[
    (
        "peek",
        "peek ADDR [N]        show N bytes (default 16) from ADDR (addresses, bytes: hex)",
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
        "rewind N             go back N frames (paused there)",
    ),
    (
        "seek",
        "seek FRAME           show FRAME of the history (paused there)",
    ),
    (
        "watch",
        "watch ADDR | watch -ADDR | watch   print when a byte changes / stop / list",
    ),
    ("load", "load SCRIPT          load a Lua script file"),
    (
        "reload",
        "reload [SCRIPT|N]    reload a script from its file",
    ),
    ("unload", "unload SCRIPT|N      unload a script"),
    ("scripts", "scripts              list loaded scripts"),
    (
        "state",
        "state save|load SLOT save or load a state: 0-9 (files per ROM), a path (.gbs), or a name (in memory); state export-bess|import-bess FILE (SameBoy's format)",
    ),
    (
        "movie",
        "movie record FILE [--here] | play FILE | rw | ro | undo | stop | end pause|record|stop | info",
    ),
    (
        "frame",
        "frame                the timeline position and history",
    ),
    (
        "help",
        "help                 this list; anything else is Lua (e.g. memory.read_u8(0xC000))",
    ),
    ("quit", "quit                 leave gbhost"),
];

/// Host function ids of the console VM.
mod id {
    pub const READ_U8: u32 = 1;
    pub const WRITE_U8: u32 = 2;
    pub const FRAMECOUNT: u32 = 3;
    pub const READ_U16: u32 = 4;
}

/// The console's Lua VM.
pub struct Console {
    vm: Vm,
}

impl Console {
    /// A fresh console VM.
    pub fn new() -> anyhow::Result<Console> {
        let vm = Vm::builder(VmConfig {
            arena_capacity: 8 << 20,
            instruction_budget: Some(50_000_000),
            ..VmConfig::default()
        })
        .host_function("memory.read_u8", id::READ_U8)
        .host_function("memory.write_u8", id::WRITE_U8)
        .host_function("memory.read_u16_le", id::READ_U16)
        .host_function("emu.framecount", id::FRAMECOUNT)
        .build()
        .map_err(|e| anyhow::anyhow!("cannot create the console Lua VM: {e}"))?;
        Ok(Console { vm })
    }

    /// Evaluate `code`: as an expression first (`return CODE`), else as a statement.
    pub fn eval(&mut self, session: &mut Session, code: &str) -> String {
        let mut host = ConsoleHost { session };
        let expr = format!("return {code}");
        let result = match self.vm.exec_with(&mut host, "=console", &expr) {
            Ok(v) => Ok(v),
            Err(e) if e.to_string().contains("syntax error") || e.to_string().contains("near") => {
                self.vm.exec_with(&mut host, "=console", code)
            }
            Err(e) => Err(e),
        };
        let mut out = String::from_utf8_lossy(&self.vm.take_output()).into_owned();
        match result {
            Ok(values) => {
                let shown: Vec<String> = values.iter().map(show).collect();
                if !shown.is_empty() {
                    out.push_str(&shown.join("\t"));
                }
            }
            Err(e) => {
                out.push_str(&format!("error: {e}"));
            }
        }
        out.trim_end().to_owned()
    }
}

fn show(v: &Value) -> String {
    match v {
        Value::Nil => "nil".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => {
            if (0..=0xFFFF).contains(i) && *i > 9 {
                format!("{i} (0x{i:X})")
            } else {
                i.to_string()
            }
        }
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("{:?}", String::from_utf8_lossy(s)),
        Value::Other(t) => format!("<{t}>"),
    }
}

struct ConsoleHost<'a> {
    session: &'a mut Session,
}

fn arg_addr(args: &[Value], i: usize) -> Result<u16, String> {
    match args.get(i) {
        Some(Value::Integer(a)) => {
            u16::try_from(*a).map_err(|_| format!("address {a:#x} is outside 0x0000-0xFFFF"))
        }
        _ => Err(format!("bad argument #{}: integer address expected", i + 1)),
    }
}

impl Host for ConsoleHost<'_> {
    fn call(
        &mut self,
        id: u32,
        args: &[Value],
        ret: &mut Vec<Value>,
    ) -> Result<HostReturn, String> {
        let gb = self.session.gb();
        match id {
            id::READ_U8 => ret.push(Value::Integer(i64::from(gb.peek(arg_addr(args, 0)?)))),
            id::READ_U16 => {
                let a = arg_addr(args, 0)?;
                let v = u16::from_le_bytes([gb.peek(a), gb.peek(a.wrapping_add(1))]);
                ret.push(Value::Integer(i64::from(v)));
            }
            id::WRITE_U8 => {
                let a = arg_addr(args, 0)?;
                let v = match args.get(1) {
                    Some(Value::Integer(v)) => *v as u8,
                    _ => return Err("bad argument #2: integer value expected".into()),
                };
                self.session.poke(a, v);
            }
            id::FRAMECOUNT => ret.push(Value::Integer(self.session.frame() as i64)),
            _ => return Err("unknown host function".into()),
        }
        Ok(HostReturn::Values)
    }
}

/// Parse an address or byte value: hexadecimal, as in memory editors (`C000`, `$C000`,
/// `0xC000`, `C000h`); `#` marks decimal (`#255`).
pub fn parse_hex(s: &str) -> Option<u32> {
    let s = s.trim().trim_start_matches('[').trim_end_matches(']');
    if let Some(d) = s.strip_prefix('#') {
        return d.parse().ok();
    }
    let h = s
        .strip_prefix('$')
        .or_else(|| s.strip_prefix("0x"))
        .or_else(|| s.strip_prefix("0X"))
        .or_else(|| s.strip_suffix('h'))
        .unwrap_or(s);
    u32::from_str_radix(h, 16).ok()
}

/// Parse a count: decimal, or hex with `$` / `0x`.
pub fn parse_num(s: &str) -> Option<u32> {
    let s = s.trim().trim_start_matches('[').trim_end_matches(']');
    if let Some(h) = s
        .strip_prefix('$')
        .or_else(|| s.strip_prefix("0x"))
        .or_else(|| s.strip_prefix("0X"))
        .or_else(|| s.strip_suffix('h'))
    {
        return u32::from_str_radix(h, 16).ok();
    }
    if s.chars().all(|c| c.is_ascii_digit()) {
        return s.parse().ok();
    }
    if s.chars().all(|c| c.is_ascii_hexdigit()) {
        return u32::from_str_radix(s, 16).ok();
    }
    None
}

fn parse_addr(s: Option<&str>) -> Result<u16, String> {
    let s = s.ok_or("missing address")?;
    parse_hex(s)
        .and_then(|v| u16::try_from(v).ok())
        .ok_or_else(|| format!("bad address '{s}' (hex 0000-FFFF, e.g. C000)"))
}

/// Format `bytes` from `start` as hex dump lines of 16.
pub fn hexdump(start: u16, bytes: &[u8]) -> String {
    hexdump_at(u32::from(start), 4, bytes)
}

/// [`hexdump`] with offsets of `digits` hex digits (domains larger than 64 KiB).
pub fn hexdump_at(start: u32, digits: usize, bytes: &[u8]) -> String {
    let mut out = String::new();
    for (row, chunk) in bytes.chunks(16).enumerate() {
        let addr = start.wrapping_add((row * 16) as u32);
        let hex: Vec<String> = chunk.iter().map(|b| format!("{b:02X}")).collect();
        let text: String = chunk
            .iter()
            .map(|&b| {
                if (0x20..0x7F).contains(&b) {
                    b as char
                } else {
                    '.'
                }
            })
            .collect();
        let _ = writeln!(out, "{addr:0digits$X}: {:<47}  {text}", hex.join(" "));
    }
    out.trim_end().to_owned()
}

fn find_script(emu: &Emu, arg: Option<&str>) -> Result<usize, String> {
    match arg {
        None if emu.scripts.len() == 1 => Ok(0),
        None => Err("which script? (name or number; see 'scripts')".into()),
        Some(a) => {
            if let Ok(n) = a.parse::<usize>()
                && (1..=emu.scripts.len()).contains(&n)
            {
                return Ok(n - 1);
            }
            emu.scripts
                .iter()
                .position(|s| {
                    s.name == a
                        || s.path
                            .as_deref()
                            .is_some_and(|p| p == Path::new(a) || p.ends_with(a))
                })
                .ok_or_else(|| format!("no script '{a}' (see 'scripts')"))
        }
    }
}

/// Evaluate one console line on the emulation thread; returns what to print.
pub fn exec(emu: &mut Emu, line: &str) -> String {
    match exec_inner(emu, line.trim()) {
        Ok(s) => s,
        Err(e) => format!("error: {e}"),
    }
}

fn exec_inner(emu: &mut Emu, line: &str) -> Result<String, String> {
    let mut words = line.split_whitespace();
    let Some(cmd) = words.next() else {
        return Ok(String::new());
    };
    let args: Vec<&str> = words.collect();
    let arg = |i: usize| args.get(i).copied();
    let count = |i: usize, default: u64| -> Result<u64, String> {
        match arg(i) {
            None => Ok(default),
            Some(s) => s
                .parse()
                .ok()
                .or_else(|| parse_num(s).map(u64::from))
                .ok_or_else(|| format!("bad number '{s}'")),
        }
    };
    match cmd {
        "help" | "?" => Ok(COMMANDS
            .iter()
            .map(|(_, h)| *h)
            .collect::<Vec<_>>()
            .join("\n")),
        "peek" | "x" => {
            let a = parse_addr(arg(0))?;
            let n = count(1, 16)?.clamp(1, 0x10000) as usize;
            let gb = emu.session.gb();
            let bytes: Vec<u8> = (0..n).map(|i| gb.peek(a.wrapping_add(i as u16))).collect();
            Ok(hexdump(a, &bytes))
        }
        "poke" => {
            let a = parse_addr(arg(0))?;
            if args.len() < 2 {
                return Err("usage: poke ADDR VAL...".into());
            }
            let mut vals = Vec::new();
            for s in &args[1..] {
                let v = parse_hex(s)
                    .and_then(|v| u8::try_from(v).ok())
                    .ok_or_else(|| format!("bad byte '{s}' (hex 00-FF, or #0-#255)"))?;
                vals.push(v);
            }
            for (i, v) in vals.iter().enumerate() {
                emu.session.poke(a.wrapping_add(i as u16), *v);
            }
            Ok(format!(
                "poked {} byte(s) at {a:04X} (logged; applies before frame {})",
                vals.len(),
                emu.session.frame()
            ))
        }
        "regs" | "registers" => {
            let gb = emu.session.gb();
            let r = gb.regs();
            let flag = |bit: u8, c: char| if r.f & bit != 0 { c } else { '-' };
            Ok(format!(
                "A={:02X} F={:02X} [{}{}{}{}] B={:02X} C={:02X} D={:02X} E={:02X} H={:02X} L={:02X} SP={:04X} PC={:04X}  IME={} {}\n[PC] {}",
                r.a,
                r.f,
                flag(0x80, 'Z'),
                flag(0x40, 'N'),
                flag(0x20, 'H'),
                flag(0x10, 'C'),
                r.b,
                r.c,
                r.d,
                r.e,
                r.h,
                r.l,
                r.sp,
                r.pc,
                u8::from(gb.ime()),
                if gb.is_halted() { "halted" } else { "" },
                (0..4u16)
                    .map(|i| format!("{:02X}", gb.peek(r.pc.wrapping_add(i))))
                    .collect::<Vec<_>>()
                    .join(" ")
            ))
        }
        "step" | "s" | "next" => {
            let n = count(0, 1)?.min(100_000);
            emu.paused = true;
            for _ in 0..n {
                emu.advance();
            }
            Ok(format!("frame {}", emu.session.frame()))
        }
        "pause" => {
            emu.paused = true;
            Ok(format!("paused at frame {}", emu.session.frame()))
        }
        "resume" | "continue" | "c" => {
            emu.paused = false;
            Ok(format!("running from frame {}", emu.session.frame()))
        }
        "rewind" | "back" => {
            let n = count(0, 60)?;
            emu.paused = true;
            let t = emu
                .seek(emu.session.frame().saturating_sub(n))
                .map_err(|e| e.to_string())?;
            Ok(format!(
                "at frame {t} (paused; 'resume' plays on from here)"
            ))
        }
        "seek" => {
            let t = count(0, 0)?;
            emu.paused = true;
            let t = emu.seek(t).map_err(|e| e.to_string())?;
            Ok(format!("at frame {t} (paused)"))
        }
        "movie" => {
            let r = match (arg(0), arg(1)) {
                (Some("record"), Some(path)) => {
                    let here = arg(2) == Some("--here");
                    emu.movie_record(Path::new(path), !here)
                }
                (Some("play"), Some(path)) => emu.movie_play(Path::new(path)),
                (Some("rw"), None) => emu.movie_read_write(),
                (Some("ro"), None) => emu.movie_read_only(),
                (Some("undo"), None) => emu.movie_undo(),
                (Some("stop"), None) => emu.movie_stop(),
                (Some("end"), Some(a)) => match crate::tas::EndAction::parse(a) {
                    Some(action) => {
                        emu.end_action = action;
                        Ok(format!("at a movie's end: {a}"))
                    }
                    None => return Err("usage: movie end pause|record|stop".into()),
                },
                (Some("info") | None, None) => Ok(match emu.movie_view() {
                    None => "no movie".to_owned(),
                    Some(m) => format!(
                        "{} {} frame {}/{} rerecords {}{}{}",
                        m.name,
                        if m.read_only { "read-only" } else { "read-write" },
                        emu.session.frame().saturating_sub(m.start),
                        m.length,
                        m.rerecords,
                        if m.ended { " (ended)" } else { "" },
                        m.desync.map_or(String::new(), |f| format!(" desync at frame {f}"))
                    ),
                }),
                _ => return Err(
                    "usage: movie record FILE [--here] | play FILE | rw | ro | undo | stop | end pause|record|stop | info"
                        .into(),
                ),
            };
            r.map_err(|e| format!("{e:#}"))
        }
        "frame" => Ok(match emu.session.history().frames() {
            Some((a, b)) => format!(
                "frame {} (history {a}..={b}, {:.1} MiB)",
                emu.session.frame(),
                emu.session.history().used_bytes() as f64 / 1048576.0
            ),
            None => format!("frame {}", emu.session.frame()),
        }),
        "watch" => match arg(0) {
            None => Ok(if emu.watches.is_empty() {
                "no watches".into()
            } else {
                emu.watches
                    .iter()
                    .map(|(a, v)| format!("[{a:04X}] = {v:02X}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            }),
            Some(s) if s.starts_with('-') => {
                let a = parse_addr(Some(&s[1..]))?;
                emu.watches.retain(|(w, _)| *w != a);
                Ok(format!("stopped watching {a:04X}"))
            }
            Some(s) => {
                let a = parse_addr(Some(s))?;
                let v = emu.session.gb().peek(a);
                if !emu.watches.iter().any(|(w, _)| *w == a) {
                    emu.watches.push((a, v));
                }
                Ok(format!("watching [{a:04X}] = {v:02X}"))
            }
        },
        "load" => {
            let p = arg(0).ok_or("usage: load SCRIPT")?;
            let i = emu
                .load_script_file(Path::new(p))
                .map_err(|e| format!("{e:#}"))?;
            Ok(format!("loaded #{} {}", i + 1, emu.scripts[i].name))
        }
        "reload" => {
            let i = find_script(emu, arg(0))?;
            emu.reload_script(i).map_err(|e| format!("{e:#}"))?;
            Ok(String::new())
        }
        "unload" => {
            let i = find_script(emu, arg(0))?;
            let name = emu.scripts[i].name.clone();
            emu.unload_script(i).map_err(|e| format!("{e:#}"))?;
            Ok(format!("unloaded {name}"))
        }
        "scripts" => Ok(emu
            .scripts
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let status = s
                    .slot
                    .and_then(|slot| emu.session.scripts().find(|x| x.slot == slot))
                    .map_or("disabled".to_owned(), |x| format!("{:?}", x.status()));
                format!("#{} {} ({status})", i + 1, s.name)
            })
            .collect::<Vec<_>>()
            .join("\n")),
        "state" if matches!(arg(0), Some("export-bess" | "import-bess")) => {
            let path = Path::new(arg(1).ok_or("usage: state export-bess|import-bess FILE")?);
            let r = if arg(0) == Some("export-bess") {
                emu.bess_export(path)
            } else {
                emu.bess_import(path)
            };
            r.map_err(|e| format!("{e:#}"))
        }
        "state" => {
            let slot = arg(1).ok_or("usage: state save|load SLOT")?;
            let on_disk = slot.parse::<u8>().is_ok_and(|n| n <= 9)
                || slot.contains('/')
                || slot.ends_with(".gbs");
            if on_disk {
                let r = match arg(0) {
                    Some("save") => emu.state_save(slot),
                    Some("load") => emu.state_load(slot),
                    _ => return Err("usage: state save|load SLOT".into()),
                };
                return r.map_err(|e| format!("{e:#}"));
            }
            match arg(0) {
                Some("save") => {
                    emu.session.save_state(slot);
                    Ok(format!(
                        "saved slot {slot} at frame {}",
                        emu.session.frame()
                    ))
                }
                Some("load") => {
                    if emu.movie_view().is_some() {
                        return Err("an in-memory state is not on the movie's timeline; save \
                                    and load a state file instead (`state save 1`, `state load \
                                    1`), which moves to its frame"
                            .into());
                    }
                    emu.session.load_state(slot).map_err(|e| e.to_string())?;
                    if emu.paused {
                        emu.live_frame();
                    }
                    Ok(format!("loaded slot {slot}"))
                }
                _ => Err("usage: state save|load SLOT".into()),
            }
        }
        _ => {
            let (console, session) = emu.console_vm();
            Ok(console.eval(session, line))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn dump() {
        assert_eq!(
            hexdump(0xC000, b"AB"),
            "C000: 41 42                                            AB"
        );
    }
}
