//! Running console commands on the emulation thread: [`Emu::apply`] carries out one
//! [`Command`] (parsed from a REPL line, or built by a menu) and says what happened, for the
//! terminal REPL and the window's console panel alike. Lua goes to the session's console
//! (`Session::eval_console`: the scripts' API, writes logged as pokes).

use std::path::Path;

use super::machine::Emu;
use crate::console::command::{COMMANDS, Command, MovieCmd, StateCmd, StateTarget};
use crate::console::hexdump::hexdump;

impl Emu {
    /// Parse and run one console line; returns what to print (errors as `error: …`).
    pub fn apply_line(&mut self, line: &str) -> String {
        match crate::console::command::parse(line) {
            Ok(cmd) => self.apply(cmd),
            Err(e) => format!("error: {e}"),
        }
    }

    /// Run one command; returns what to print (errors as `error: …`).
    pub fn apply(&mut self, cmd: Command) -> String {
        match self.apply_inner(cmd) {
            Ok(s) => s,
            Err(e) => format!("error: {e}"),
        }
    }

    /// The script a command names: its number in the list, or its name or path; the only
    /// one when none is named.
    fn find_script(&self, arg: Option<&str>) -> Result<usize, String> {
        match arg {
            None if self.scripts.entries.len() == 1 => Ok(0),
            None => Err("which script? (name or number; see 'scripts')".into()),
            Some(a) => {
                if let Ok(n) = a.parse::<usize>()
                    && (1..=self.scripts.entries.len()).contains(&n)
                {
                    return Ok(n - 1);
                }
                self.scripts
                    .entries
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

    fn apply_inner(&mut self, cmd: Command) -> Result<String, String> {
        let err = |e: anyhow::Error| format!("{e:#}");
        match cmd {
            Command::Help => Ok(COMMANDS
                .iter()
                .map(|(_, h)| *h)
                .collect::<Vec<_>>()
                .join("\n")),
            Command::Peek { addr, len } => {
                // A banked dump stops at the end of its bank's window.
                let bytes: Vec<u8> = (0..len)
                    .map_while(|i| self.read_at(addr.offset(i as u16)).ok())
                    .collect();
                if bytes.is_empty() {
                    return self.read_at(addr).map(|_| String::new());
                }
                let dump = hexdump(addr.addr, &bytes);
                Ok(match addr.bank {
                    None => dump,
                    Some(b) => dump
                        .lines()
                        .map(|l| format!("{b:X}:{l}"))
                        .collect::<Vec<_>>()
                        .join("\n"),
                })
            }
            Command::Poke { addr, bytes } => {
                for (i, v) in bytes.iter().enumerate() {
                    self.poke_at(addr.offset(i as u16), *v)?;
                }
                Ok(format!(
                    "poked {} byte(s) at {addr} (logged; applies before frame {})",
                    bytes.len(),
                    self.session.frame()
                ))
            }
            Command::Regs => Ok(self.registers()),
            Command::Step(n) => {
                self.pacing.paused = true;
                for _ in 0..n {
                    self.advance();
                    // A breakpoint stopped the frame: stay there and say where.
                    if let Some(note) = self.console.stop_note.take() {
                        return Ok(note);
                    }
                }
                Ok(format!("frame {}", self.session.frame()))
            }
            Command::Pause => {
                self.pacing.paused = true;
                Ok(format!("paused at frame {}", self.session.frame()))
            }
            Command::Resume => {
                self.pacing.paused = false;
                Ok(format!("running from frame {}", self.session.frame()))
            }
            Command::Rewind(n) => {
                self.pacing.paused = true;
                let t = self
                    .seek(self.session.frame().saturating_sub(n))
                    .map_err(err)?;
                Ok(format!(
                    "at frame {t} (paused; 'resume' plays on from here)"
                ))
            }
            Command::Seek(t) => {
                self.pacing.paused = true;
                let t = self.seek(t).map_err(err)?;
                Ok(format!("at frame {t} (paused)"))
            }
            Command::Frame => Ok(match self.session.history().frames() {
                Some((a, b)) => format!(
                    "frame {} (history {a}..={b}, {:.1} MiB)",
                    self.session.frame(),
                    self.session.history().used_bytes() as f64 / 1048576.0
                ),
                None => format!("frame {}", self.session.frame()),
            }),
            Command::Search(c) => self.apply_search(c),
            Command::Debug(c) => self.apply_debug(c),
            Command::Cheat(c) => self.apply_cheat(c),
            Command::RamWatch(c) => self.apply_ramwatch(c),
            Command::Link(c) => self.apply_link(c).map_err(err),
            Command::Watch(a) => {
                let v = self.read_at(a)?;
                if !self.console.watches.iter().any(|(w, _)| *w == a) {
                    self.console.watches.push((a, v));
                }
                Ok(format!("watching [{a}] = {v:02X}"))
            }
            Command::Unwatch(a) => {
                self.console.watches.retain(|(w, _)| *w != a);
                Ok(format!("stopped watching {a}"))
            }
            Command::Watches => Ok(if self.console.watches.is_empty() {
                "no watches".into()
            } else {
                self.console
                    .watches
                    .iter()
                    .map(|(a, v)| format!("[{a}] = {v:02X}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            }),
            Command::Load(p, player) => {
                let i = self.load_script_file_on(&p, player).map_err(err)?;
                Ok(format!(
                    "loaded #{} {}",
                    i + 1,
                    self.scripts.entries[i].name
                ))
            }
            Command::Reload(which) => {
                let i = self.find_script(which.as_deref())?;
                self.reload_script(i).map_err(err)?;
                Ok(String::new())
            }
            Command::Unload(which) => {
                let i = self.find_script(Some(&which))?;
                let name = self.scripts.entries[i].name.clone();
                self.unload_script(i).map_err(err)?;
                Ok(format!("unloaded {name}"))
            }
            Command::Scripts => Ok(self.script_list()),
            Command::State(s) => self.apply_state(s),
            Command::Movie(m) => self.apply_movie(m).map_err(err),
            Command::Lua(code) => Ok(self.session.eval_console(&code)),
            Command::Quit => {
                self.link.quit = true;
                Ok("bye".into())
            }
        }
    }

    /// The CPU registers and flags, then the bytes at PC (`regs`; the Debugger's first line).
    pub(crate) fn registers(&self) -> String {
        let gb = self.session.gb();
        let r = gb.regs();
        let flag = |bit: u8, c: char| if r.f & bit != 0 { c } else { '-' };
        let at_pc: Vec<String> = (0..4u16)
            .map(|i| format!("{:02X}", gb.peek(r.pc.wrapping_add(i))))
            .collect();
        format!(
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
            at_pc.join(" ")
        )
    }

    fn script_list(&self) -> String {
        self.scripts
            .entries
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let script = s
                    .slot
                    .and_then(|slot| self.session.scripts().find(|x| x.slot == slot));
                let status = script.map_or("disabled".to_owned(), |x| format!("{:?}", x.status()));
                // On a linked pair, whose Game Boy the script runs against.
                let on = match script.map(|x| x.player()) {
                    Some(p) if p > 0 => format!(", player {}", p + 1),
                    _ => String::new(),
                };
                format!("#{} {} ({status}{on})", i + 1, s.name)
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn apply_state(&mut self, cmd: StateCmd) -> Result<String, String> {
        let err = |e: anyhow::Error| format!("{e:#}");
        if self.editor.is_some() && matches!(cmd, StateCmd::Load(_) | StateCmd::ImportBess(_)) {
            return Err(
                "a state would change the machine outside the TAS editor's input: use \
                        its branches (`movie branch save|load`), or `movie close` first"
                    .into(),
            );
        }
        match cmd {
            StateCmd::ExportBess(p) => self.bess_export(&p).map_err(err),
            StateCmd::Open(p) => self.state_open(&p).map_err(err),
            StateCmd::ImportBess(p) => self.bess_import(&p).map_err(err),
            StateCmd::Save(StateTarget::Memory(name)) => {
                self.session.save_state(&name);
                Ok(format!(
                    "saved slot {name} at frame {}",
                    self.session.frame()
                ))
            }
            StateCmd::Load(StateTarget::Memory(name)) => {
                if self.movie.tas.is_some() {
                    return Err(
                        "an in-memory state is not on the movie's timeline; save and \
                                load a state file instead (`state save 1`, `state load 1`), \
                                which moves to its frame"
                            .into(),
                    );
                }
                self.session.load_state(&name).map_err(|e| e.to_string())?;
                if self.pacing.paused {
                    self.live_frame();
                }
                Ok(format!("loaded slot {name}"))
            }
            StateCmd::Save(target) => self.state_save(&target).map_err(err),
            StateCmd::Load(target) => self.state_load(&target).map_err(err),
        }
    }

    fn apply_movie(&mut self, cmd: MovieCmd) -> anyhow::Result<String> {
        if let Some(r) = self.apply_editor(&cmd) {
            return r;
        }
        match cmd {
            MovieCmd::Record { path, here } => self.movie_record(&path, !here),
            MovieCmd::Play(path) => self.movie_play(&path),
            MovieCmd::ReadWrite => self.movie_read_write(),
            MovieCmd::ReadOnly => self.movie_read_only(),
            MovieCmd::Undo => self.movie_undo(),
            MovieCmd::Stop => self.movie_stop(),
            MovieCmd::End(action) => {
                self.movie.end_action = action;
                Ok(format!("at a movie's end: {}", action.name()))
            }
            MovieCmd::Info => Ok(match self.movie.tas.as_ref().map(|t| t.view()) {
                None => "no movie".to_owned(),
                Some(m) => format!(
                    "{} {} frame {}/{} rerecords {}{}{}",
                    m.name,
                    if m.read_only {
                        "read-only"
                    } else {
                        "read-write"
                    },
                    self.session.frame().saturating_sub(m.start),
                    m.length,
                    m.rerecords,
                    if m.ended { " (ended)" } else { "" },
                    m.desync
                        .map_or(String::new(), |f| format!(" desync at frame {f}"))
                ),
            }),
            _ => anyhow::bail!("no TAS editor is open (`movie edit [FILE]`)"),
        }
    }
}
