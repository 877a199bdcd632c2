//! The tools on the emulation thread: the RAM search (one at a time, its change counts kept
//! up every frame), the RAM watch list and the cheat list, both kept per ROM in the data
//! folder (`$XDG_DATA_HOME/gbhost/roms/<title>-<hash>/`: `watch.wch`, BizHawk's format, and
//! `cheats.tsv`; `GBHOST_ROM_DATA` names another folder). The `search`, `cheat` and `ramwatch`
//! commands run here, for the REPL and the window alike; what the windows show is built by
//! [`Emu::tools_view`].
//!
//! Cheats are the session's inputs: turning one on or off is a logged event
//! ([`gb_session::Session::set_cheat`]), so the list's ticks are what the session has on. When
//! a ROM is opened the list's enabled codes are turned on; a state file or a movie opened later
//! has the cheats its own log turns on (a movie plays back with the codes it was recorded
//! with, whatever the list says).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use gb_core::{Domain, Gb};
use gb_session::banks;
use gb_session::tools::cheats;
use gb_session::tools::search::{self, Search};
use gb_session::tools::watchlist::{self, Space, Watch};

use super::machine::Emu;
use super::tool_state::{CheatEntry, CheatRow, LIST_MAX, SearchView, ToolsView, WatchRow};
use crate::console::command::Location;
use crate::console::tool_cmds::{CheatCmd, RamWatchCmd, SearchCmd};

/// The bus address `addr` as a memory and offset, with the banks mapped now.
fn flat_of(gb: &Gb, addr: u16) -> Option<(Domain, usize)> {
    match addr {
        0x0000..=0x3FFF => Some((Domain::Rom, usize::from(addr))),
        0xC000..=0xCFFF => Some((Domain::Wram, usize::from(addr - 0xC000))),
        0xE000..=0xFDFF => flat_of(gb, addr - 0x2000),
        0xFE00..=0xFE9F => Some((Domain::Oam, usize::from(addr - 0xFE00))),
        0xFF80..=0xFFFE => Some((Domain::Hram, usize::from(addr - 0xFF80))),
        _ => {
            let bank = gb.bank_of(addr)?;
            banks::locate(gb, bank, addr).ok()
        }
    }
}

/// A location as a memory and offset: the bank it names, or the one mapped now.
fn locate(gb: &Gb, at: Location) -> Result<(Domain, usize), String> {
    match at.bank {
        Some(bank) => banks::locate(gb, bank, at.addr).map_err(|e| e.to_string()),
        None => flat_of(gb, at.addr).ok_or_else(|| {
            format!(
                "{:04X} is no memory a search or watch can use (I/O registers?)",
                at.addr
            )
        }),
    }
}

fn parse_cheat_file(text: &str) -> (Vec<CheatEntry>, Vec<String>) {
    let mut list = Vec::new();
    let mut bad = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut cols = line.splitn(3, '\t');
        let (code, on, name) = (cols.next().unwrap_or(""), cols.next(), cols.next());
        match cheats::canonical(code) {
            Ok(code) => list.push(CheatEntry {
                code,
                enabled: on.is_some_and(|o| o.trim() == "1"),
                name: name.unwrap_or("").to_owned(),
            }),
            Err(e) => bad.push(format!("line {}: {e}", n + 1)),
        }
    }
    (list, bad)
}

fn cheat_file_text(title: &str, list: &[CheatEntry]) -> String {
    let mut s =
        format!("# gbhost cheats for {title}: CODE, 1 (on at start) or 0, name; tabs between\n");
    for c in list {
        let name: String = c
            .name
            .chars()
            .filter(|&ch| ch != '\n' && ch != '\r')
            .collect();
        s.push_str(&format!("{}\t{}\t{name}\n", c.code, u8::from(c.enabled)));
    }
    s
}

impl Emu {
    /// The running ROM's folder of lists.
    fn rom_folder(&self) -> Option<PathBuf> {
        let dir = self.tools.dir.as_ref()?;
        let title: String = self
            .session
            .gb()
            .cartridge()
            .header()
            .title
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let hash = self.session.start_params().rom_hash;
        Some(dir.join(format!("{title}-{hash:016x}")))
    }

    /// A ROM was opened: read its lists and turn its enabled cheats on.
    pub(crate) fn tools_opened(&mut self) {
        self.tools.search = None;
        self.tools.watches.clear();
        self.tools.cheats.clear();
        let Some(folder) = self.rom_folder() else {
            return;
        };
        if let Ok(text) = std::fs::read_to_string(folder.join("watch.wch")) {
            match watchlist::parse_wch(&text) {
                Ok(f) => self.tools.watches = f.watches,
                Err(e) => self.say(format!("watch list {}: {e}", folder.display())),
            }
        }
        if let Ok(text) = std::fs::read_to_string(folder.join("cheats.tsv")) {
            let (list, bad) = parse_cheat_file(&text);
            for b in bad {
                self.say(format!("cheats.tsv {b} (skipped)"));
            }
            self.tools.cheats = list;
            let on: Vec<String> = self
                .tools
                .cheats
                .iter()
                .filter(|c| c.enabled)
                .map(|c| c.code.clone())
                .collect();
            for code in &on {
                let _ = self.session.set_cheat(code, true);
            }
            if !on.is_empty() {
                self.say(format!("cheats on: {}", on.join(", ")));
            }
        }
    }

    /// Write one of the ROM's lists (`file` in its folder; `what` names it in an error).
    fn save_list(&mut self, file: &str, what: &str, text: &str) {
        let Some(folder) = self.rom_folder() else {
            return;
        };
        let r = std::fs::create_dir_all(&folder)
            .and_then(|()| gb_session::files::write_atomic(&folder.join(file), text.as_bytes()));
        if let Err(e) = r {
            self.say(format!(
                "cannot save the {what} in {}: {e}",
                folder.display()
            ));
        }
    }

    fn save_watches(&mut self) {
        let text = watchlist::to_wch(&self.tools.watches);
        self.save_list("watch.wch", "watch list", &text);
    }

    fn save_cheats(&mut self) {
        let title = self.session.gb().cartridge().header().title.clone();
        let text = cheat_file_text(&title, &self.tools.cheats);
        self.save_list("cheats.tsv", "cheat list", &text);
    }

    /// After every frame run live: count the candidates' changes.
    pub(crate) fn tools_after_frame(&mut self) {
        if let Some(s) = &mut self.tools.search {
            s.observe(self.session.gb().domain(s.domain()));
        }
    }

    fn candidate_text(&self, s: &Search, c: &search::Candidate) -> String {
        let l = s.layout();
        format!(
            "{:>8}  {:>12}  {:>12}  {:>5}",
            banks::place_text(self.session.gb(), s.domain(), c.offset as usize),
            l.format(c.current),
            l.format(c.previous),
            c.changes
        )
    }

    fn search_list(&self, n: usize) -> String {
        let Some(s) = &self.tools.search else {
            return "no search (search new 1u)".into();
        };
        let mem = self.session.gb().domain(s.domain());
        let mut out = format!(
            "{} candidate(s) in {} ({})",
            s.len(),
            s.domain().name(),
            s.layout().short()
        );
        if s.is_empty() {
            return out;
        }
        out.push_str(&format!(
            "\n{:>8}  {:>12}  {:>12}  {:>5}",
            "address", "value", "previous", "chg"
        ));
        for c in s.rows(0..n, mem) {
            out.push('\n');
            out.push_str(&self.candidate_text(s, &c));
        }
        if s.len() > n {
            out.push_str(&format!(
                "\n… {} more (search list {})",
                s.len() - n,
                s.len()
            ));
        }
        out
    }

    /// Run a `search` command.
    pub(crate) fn apply_search(&mut self, cmd: SearchCmd) -> Result<String, String> {
        match cmd {
            SearchCmd::New { domain, layout } => {
                let s = Search::new(domain, layout, self.session.gb().domain(domain))
                    .map_err(|e| e.to_string())?;
                let n = s.len();
                self.tools.search = Some(s);
                Ok(format!(
                    "search: {n} candidates in {} ({}); now filter: search lt|gt|eq|ne [VALUE|@ADDR], by N, changes OP N",
                    domain.name(),
                    layout.short()
                ))
            }
            SearchCmd::Filter(words) => {
                let gb = self.session.gb();
                let s = self
                    .tools
                    .search
                    .as_mut()
                    .ok_or("no search yet (search new 1u)")?;
                let domain = s.domain();
                let words: Vec<&str> = words.iter().map(String::as_str).collect();
                let offset_of = |w: &str| -> Result<u32, String> {
                    let at = crate::console::cmd_words::addr_word(Some(&w.to_owned()))?;
                    match locate(gb, at)? {
                        (d, o) if d == domain => Ok(o as u32),
                        (d, _) => Err(format!(
                            "{at} is in {}, not in the searched {}",
                            search::domain_name(d),
                            search::domain_name(domain)
                        )),
                    }
                };
                let filter = search::parse_filter(&words, &offset_of).map_err(|e| e.to_string())?;
                let n = s.filter(filter, gb.domain(domain));
                let mut out = format!("{n} candidate(s) left ({filter})");
                if (1..=10).contains(&n) {
                    out = self.search_list(10);
                    out.insert_str(0, &format!("({filter}) "));
                }
                Ok(out)
            }
            SearchCmd::List(n) => Ok(self.search_list(n)),
            SearchCmd::Undo => {
                let s = self.tools.search.as_mut().ok_or("no search yet")?;
                if s.undo() {
                    Ok(format!("undone: {} candidate(s)", s.len()))
                } else {
                    Err("nothing to undo".into())
                }
            }
            SearchCmd::Reset => {
                let gb = self.session.gb();
                let s = self.tools.search.as_mut().ok_or("no search yet")?;
                s.reset_previous(gb.domain(s.domain()));
                Ok("previous values are the current ones; change counts 0".into())
            }
            SearchCmd::Show(d) => {
                let s = self.tools.search.as_mut().ok_or("no search yet")?;
                s.set_display(d);
                Ok(format!("values shown as {}", s.layout().short()))
            }
            SearchCmd::End => {
                self.tools.search = None;
                Ok("search ended".into())
            }
        }
    }

    /// Run a `cheat` command.
    pub(crate) fn apply_cheat(&mut self, cmd: CheatCmd) -> Result<String, String> {
        let out = match cmd {
            CheatCmd::Add { code, name } => {
                let what = cheats::parse(&code).map_err(|e| e.to_string())?.describe();
                match self.tools.cheats.iter_mut().find(|c| c.code == code) {
                    Some(c) => {
                        c.enabled = true;
                        if !name.is_empty() {
                            c.name = name;
                        }
                    }
                    None => self.tools.cheats.push(CheatEntry {
                        code: code.clone(),
                        name,
                        enabled: true,
                    }),
                }
                self.session
                    .set_cheat(&code, true)
                    .map_err(|e| e.to_string())?;
                format!(
                    "cheat {code} on ({what}; logged, from frame {})",
                    self.session.frame()
                )
            }
            CheatCmd::Enable(code, on) => {
                let entry = self
                    .tools
                    .cheats
                    .iter_mut()
                    .find(|c| c.code == code)
                    .ok_or_else(|| format!("{code} is not in the list (cheat add {code})"))?;
                entry.enabled = on;
                self.session
                    .set_cheat(&code, on)
                    .map_err(|e| e.to_string())?;
                format!(
                    "cheat {code} {} (logged, from frame {})",
                    if on { "on" } else { "off" },
                    self.session.frame()
                )
            }
            CheatCmd::Remove(code) => {
                let before = self.tools.cheats.len();
                self.tools.cheats.retain(|c| c.code != code);
                let was_on = self
                    .session
                    .set_cheat(&code, false)
                    .map_err(|e| e.to_string())?;
                if before == self.tools.cheats.len() && !was_on {
                    return Err(format!("{code} is not in the list"));
                }
                format!("cheat {code} removed")
            }
            CheatCmd::List => {
                return Ok(if self.tools.cheats.is_empty() {
                    "no cheats (cheat add CODE [NAME])".into()
                } else {
                    self.tools_view()
                        .cheats
                        .iter()
                        .map(|c| {
                            format!(
                                "[{}] {:<12} {:<32} {}",
                                if c.on { "x" } else { " " },
                                c.code,
                                c.what,
                                c.name
                            )
                        })
                        .collect::<Vec<_>>()
                        .join("\n")
                });
            }
        };
        self.save_cheats();
        Ok(out)
    }

    /// Add a watch (from the search window's "add to watch", the REPL's `ramwatch add`).
    pub(crate) fn add_watch(&mut self, w: Watch) -> String {
        let text = format!("watching {} ({})", w.place(), w.layout.short());
        self.tools.watches.push(w);
        self.save_watches();
        text
    }

    /// Log a poke of `value` at the watch's size into its place.
    pub(crate) fn poke_watch(&mut self, w: &Watch, value: i64) -> Result<String, String> {
        let bytes = w.layout.encode(value).map_err(|e| e.to_string())?;
        for (i, b) in bytes.iter().enumerate() {
            let at = w.offset as usize + i;
            match w.space {
                Space::Bus => {
                    let a = u16::try_from(at).map_err(|_| "past 0xFFFF")?;
                    self.session.poke(a, *b);
                }
                Space::Flat(Domain::Rom) => {
                    return Err(
                        "the ROM cannot be poked (a Game Genie code can patch its reads)".into(),
                    );
                }
                Space::Flat(d) => {
                    if at >= self.session.gb().domain(d).len() {
                        return Err(format!("past the end of {}", search::domain_name(d)));
                    }
                    self.session.poke_memory(d, at as u32, *b);
                }
            }
        }
        Ok(format!(
            "poked {value} into {} (logged; applies before frame {})",
            w.place(),
            self.session.frame()
        ))
    }

    /// Run a `ramwatch` command.
    pub(crate) fn apply_ramwatch(&mut self, cmd: RamWatchCmd) -> Result<String, String> {
        let nth = |list: &[Watch], n: usize| -> Result<Watch, String> {
            list.get(n - 1)
                .cloned()
                .ok_or_else(|| format!("no watch {n} (ramwatch list)"))
        };
        match cmd {
            RamWatchCmd::Add { at, layout, name } => {
                let (space, offset) = match at.bank {
                    None => (Space::Bus, u32::from(at.addr)),
                    Some(_) => {
                        let (d, o) = locate(self.session.gb(), at)?;
                        (Space::Flat(d), o as u32)
                    }
                };
                Ok(self.add_watch(Watch {
                    space,
                    offset,
                    layout,
                    name,
                }))
            }
            RamWatchCmd::Remove(n) => {
                let w = nth(&self.tools.watches, n)?;
                self.tools.watches.remove(n - 1);
                self.save_watches();
                Ok(format!("removed {} {}", w.place(), w.name))
            }
            RamWatchCmd::Poke(n, v) => {
                let w = nth(&self.tools.watches, n)?;
                self.poke_watch(&w, v)
            }
            RamWatchCmd::List => Ok(if self.tools.watches.is_empty() {
                "no watches (ramwatch add ADDR [1u] [NAME])".into()
            } else {
                self.tools_view()
                    .watches
                    .iter()
                    .enumerate()
                    .map(|(i, w)| {
                        format!(
                            "{:>3}  {:<10} {:<6} {:>12}  {}",
                            i + 1,
                            w.place,
                            w.kind,
                            w.value,
                            w.name
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            }),
            RamWatchCmd::Import(path) => {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                let f =
                    watchlist::parse_wch(&text).map_err(|e| format!("{}: {e}", path.display()))?;
                let n = f.watches.len();
                self.tools.watches.extend(f.watches);
                self.save_watches();
                let mut out = format!("imported {n} watch(es) from {}", path.display());
                for w in f.warnings {
                    out.push_str(&format!("\n  {w}"));
                }
                Ok(out)
            }
            RamWatchCmd::Export(path) => {
                export_wch(&path, &self.tools.watches)?;
                Ok(format!(
                    "wrote {} watch(es) to {}",
                    self.tools.watches.len(),
                    path.display()
                ))
            }
        }
    }

    /// What the tools' windows show now.
    pub(crate) fn tools_view(&self) -> ToolsView {
        let gb = self.session.gb();
        let search = self.tools.search.as_ref().map(|s| {
            let mem = gb.domain(s.domain());
            SearchView {
                domain: s.domain(),
                domain_len: mem.len(),
                layout: s.layout(),
                count: s.len(),
                filters: s.filters().iter().map(ToString::to_string).collect(),
                rows: Arc::new(if self.viewers.shown.search {
                    s.rows(0..LIST_MAX, mem)
                } else {
                    Vec::new()
                }),
            }
        });
        let watches = self
            .tools
            .watches
            .iter()
            .map(|w| WatchRow {
                name: w.name.clone(),
                place: match w.space {
                    Space::Bus => format!("{:04X}", w.offset),
                    Space::Flat(d) => banks::place_text(gb, d, w.offset as usize),
                },
                kind: w.layout.short(),
                value: w.show(gb),
            })
            .collect();
        let on = self.session.cheats();
        let cheats = self
            .tools
            .cheats
            .iter()
            .map(|c| CheatRow {
                code: c.code.clone(),
                name: c.name.clone(),
                on: on.contains(&c.code),
                what: cheats::parse(&c.code).map_or_else(|e| e.to_string(), |x| x.describe()),
            })
            .collect();
        ToolsView {
            search,
            watches,
            cheats,
        }
    }
}

/// Write a `.wch` file atomically.
fn export_wch(path: &Path, watches: &[Watch]) -> Result<(), String> {
    gb_session::files::write_atomic(path, watchlist::to_wch(watches).as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}
