//! The app's side of the TAS editor (`gb_session::movie::Editor` is the model): opening it on
//! a movie file or over the running session, live frames through it (playback of the roll,
//! recording past its end), scripts' `tastudio.*` changes, re-emulation advanced by a budget
//! every tick (paused or not), saving, and the `movie …` editing commands. What the window
//! sees of it is [`EditorView`], rebuilt only when the editor changed.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use gb_session::movie::editor::{BranchCheck, Editor};
use gb_session::movie::{Movie, editor_file};
use gb_session::{PowerOn, Session};

use super::editor_state::OpenEditor;
use super::machine::Emu;
use super::types::{BranchView, EditorView};
use crate::command::{BranchCmd, MovieCmd};

/// Time re-emulation may take per tick.
const ADVANCE_BUDGET: Duration = Duration::from_millis(12);

/// Frames `from..=to` as a range.
fn span(from: u64, to: u64) -> Range<u64> {
    from.min(to)..from.max(to).saturating_add(1)
}

/// A branch's picture as RGB888 (shades in the window's DMG green, or RGB555 colours).
fn thumbnail_rgb(pixels: &[u16]) -> Vec<u8> {
    let shades = pixels.iter().all(|p| *p <= 3);
    let mut out = Vec::with_capacity(pixels.len() * 3);
    for &p in pixels {
        if shades {
            out.extend_from_slice(&super::publish::DMG_GREEN[usize::from(p & 3)]);
        } else {
            let c = |v: u16| ((v & 31) * 255 / 31) as u8;
            out.extend_from_slice(&[c(p), c(p >> 5), c(p >> 10)]);
        }
    }
    out
}

impl Emu {
    /// Open the TAS editor: on the movie at `path` (a new session at its start), or over the
    /// running session from frame 0.
    pub fn editor_open(&mut self, path: Option<&Path>) -> Result<String> {
        if self.tas.is_some() {
            let msg = self.movie_stop()?;
            self.say(msg);
        }
        self.editor = None;
        let Some(path) = path else {
            let ed = Editor::from_session(&self.session, 0);
            let n = ed.end();
            self.editor = Some(OpenEditor::new(ed, None, None));
            let held = match self.session.history().frames() {
                Some((0, _)) | None => String::new(),
                Some((first, _)) => format!(
                    "; the history holds frames from {first} on: edits before it cannot be \
                     emulated again"
                ),
            };
            return Ok(format!(
                "TAS editor over this session: {n} frames (frame {}){held}",
                self.session.frame()
            ));
        };
        let movie = Movie::open(path).with_context(|| format!("{}", path.display()))?;
        let session = movie
            .session(self.rom_bytes.clone(), self.session_config())
            .with_context(|| format!("{}", path.display()))?;
        if self.battery.is_some() {
            self.save_battery();
            self.battery = None;
            self.say("battery saves are off while the TAS editor is open on a movie");
        }
        // The user's script files run on the movie too (from its first frame; they roll back
        // with it and a save keeps them).
        let scripts: Vec<PathBuf> = self.scripts.iter().filter_map(|s| s.path.clone()).collect();
        self.replace_session(session);
        for p in &scripts {
            if let Err(e) = self.load_script_file(p) {
                self.say(format!("{}: {e:#}", p.display()));
            }
        }
        let ed = editor_file::open(&movie, path, &self.session)
            .with_context(|| format!("{}", path.display()))?;
        let msg = format!(
            "TAS editor on {}: {} frames, {} markers, {} branches",
            path.display(),
            ed.roll().len(),
            ed.markers().count(),
            ed.branches().len()
        );
        self.editor = Some(OpenEditor::new(ed, Some(path.to_owned()), Some(movie)));
        self.paused = true;
        Ok(msg)
    }

    /// Before a frame: what scripts' `tastudio.*` see.
    pub(crate) fn give_editor_info(&mut self) {
        let info = self
            .editor
            .as_ref()
            .map(|o| o.ed.info(&self.session, Vec::new()));
        self.session.set_editor_info(info);
    }

    /// A live frame while the editor is open: the roll's input (the user's past its end,
    /// recorded), then the scripts' requests.
    pub(crate) fn editor_frame(&mut self) {
        self.give_editor_info();
        self.log_host_input();
        if let Some(o) = &mut self.editor {
            o.ed.run_frame(&mut self.session, self.held);
            o.version += 1;
        }
        self.serve_client_requests();
        self.play_audio();
        self.after_frame();
    }

    /// Re-emulation is pending (the session is not at the editor's target, or past the
    /// frames emulated with the current input).
    pub(crate) fn editor_pending(&self) -> bool {
        self.editor.as_ref().is_some_and(|o| {
            let f = self.session.frame();
            f != o.ed.target() || f > o.ed.valid_end()
        })
    }

    /// Advance pending re-emulation by a time budget (every tick, paused or not).
    pub(crate) fn editor_pump(&mut self) {
        let t0 = Instant::now();
        while self.editor_pending() && t0.elapsed() < ADVANCE_BUDGET {
            self.give_editor_info();
            let Some(o) = &mut self.editor else { return };
            let r = o.ed.advance(&mut self.session, 4);
            o.version += 1;
            if let Err(e) = r {
                // The history no longer holds where re-emulation must start: stay here.
                let f = self.session.frame();
                if let Some(o) = &mut self.editor {
                    let _ = o.ed.seek(&mut self.session, f);
                }
                self.say(format!("TAS editor: {e}"));
                break;
            }
            self.session.take_client_requests();
        }
        self.session.discard_audio();
        self.drain_session_console();
        if !self.editor_pending()
            && let Some(check) = self.editor.as_ref().and_then(|o| o.ed.branch_check())
            && check == BranchCheck::Different
        {
            self.say("TAS editor: the loaded branch's machine differs on arrival");
        }
        self.fps_count += 1;
    }

    /// Seek the editor to frame `f`: at once when green, else emulating there (the REPL
    /// waits; the window shows progress).
    fn editor_goto(&mut self, f: u64, wait: bool) -> Result<()> {
        self.give_editor_info();
        let Some(o) = &mut self.editor else {
            bail!("no TAS editor is open (`movie edit [FILE]`)");
        };
        o.version += 1;
        let f = f.clamp(o.ed.start(), o.ed.end());
        if wait {
            o.ed.seek_now(&mut self.session, f)?;
        } else {
            o.ed.seek(&mut self.session, f)?;
        }
        self.session.take_client_requests();
        self.session.discard_audio();
        self.drain_session_console();
        self.check_watches();
        Ok(())
    }

    /// One frame forward in the editor: through the greenzone, else a live frame.
    pub(crate) fn editor_step(&mut self) {
        let next = self.session.frame() + 1;
        let green = self
            .editor
            .as_ref()
            .is_some_and(|o| o.ed.is_green(&self.session, next));
        if green {
            if let Err(e) = self.editor_goto(next, true) {
                self.say(format!("TAS editor: {e:#}"));
            }
        } else {
            self.editor_frame();
        }
    }

    /// Seek (the timeline, `seek`, the window's frame clicks) while the editor is open.
    pub(crate) fn editor_seek(&mut self, f: u64) -> Result<u64> {
        self.editor_goto(f, false)?;
        Ok(f)
    }

    /// Close the editor (unsaved edits are dropped).
    pub fn editor_close(&mut self) -> Result<String> {
        if self.editor.take().is_none() {
            bail!("no TAS editor is open");
        }
        self.session.set_editor_info(None);
        Ok("TAS editor closed".into())
    }

    /// Save the editor's movie to `path` (or the file it came from) and its branches beside
    /// it.
    pub fn editor_save(&mut self, path: Option<&Path>) -> Result<String> {
        let config = self.session_config();
        let Some(o) = &mut self.editor else {
            bail!("no TAS editor is open");
        };
        let path = match (path, &o.path) {
            (Some(p), _) => p.to_owned(),
            (None, Some(p)) => p.clone(),
            (None, None) => bail!("save to which file? `movie save FILE`"),
        };
        let mut fresh = match &o.movie {
            Some(m) => m.session(self.rom_bytes.clone(), config)?,
            None => {
                let power = PowerOn {
                    battery: self.session.start_params().battery.clone(),
                    ..self.power.power_on(None)
                };
                Session::power_on(self.rom_bytes.clone(), power, config)?
            }
        };
        editor_file::save(&mut o.ed, &mut self.session, &mut fresh, &path)
            .with_context(|| format!("cannot save {}", path.display()))?;
        o.version += 1;
        let frames = o.ed.roll().len();
        let branches = o.ed.branches().len();
        o.path = Some(path.clone());
        o.movie = Movie::open(&path).ok();
        self.session.take_client_requests();
        self.session.discard_audio();
        self.drain_session_console();
        Ok(format!(
            "saved {frames} frames to {} ({branches} branches beside it)",
            path.display()
        ))
    }

    /// The editor's state, for `movie info`.
    fn editor_info_text(&self, o: &OpenEditor) -> String {
        let ed = &o.ed;
        let markers: Vec<String> = ed
            .markers()
            .map(|(f, m)| format!("{f} {:?}", m.text))
            .collect();
        let branches: Vec<String> = ed
            .branches()
            .iter()
            .enumerate()
            .map(|(i, b)| format!("#{i} {:?} at {}", b.name, b.frame))
            .collect();
        format!(
            "TAS editor{}: frame {} of {}..{} ({} frames), greenzone to {}, lag frames {}, \
             target {}{}\nmarkers: {}\nbranches: {}",
            o.path
                .as_ref()
                .map_or(String::new(), |p| format!(" on {}", p.display())),
            self.session.frame(),
            ed.start(),
            ed.end(),
            ed.roll().len(),
            ed.valid_end(),
            ed.lag_count(),
            ed.target(),
            if self.editor_pending() {
                " (re-emulating)"
            } else {
                ""
            },
            if markers.is_empty() {
                "none".into()
            } else {
                markers.join(", ")
            },
            if branches.is_empty() {
                "none".into()
            } else {
                branches.join(", ")
            },
        )
    }

    /// Run a `movie …` command of the editor; None: not an editor command (or the editor is
    /// closed and the command has its plain meaning).
    pub(crate) fn apply_editor(&mut self, cmd: &MovieCmd) -> Option<Result<String>> {
        match cmd {
            MovieCmd::Edit(p) => return Some(self.editor_open(p.as_deref())),
            MovieCmd::Save(p) => return Some(self.editor_save(p.as_deref())),
            MovieCmd::Close => return Some(self.editor_close()),
            MovieCmd::Undo | MovieCmd::Info if self.editor.is_none() => return None,
            MovieCmd::Record { .. } | MovieCmd::Play(_) => {
                if self.editor.is_some() {
                    let _ = self.editor_close();
                }
                return None;
            }
            MovieCmd::ReadWrite | MovieCmd::ReadOnly | MovieCmd::Stop | MovieCmd::End(_) => {
                return None;
            }
            _ => {}
        }
        Some(self.editor_edit(cmd))
    }

    fn editor_edit(&mut self, cmd: &MovieCmd) -> Result<String> {
        if let MovieCmd::Info = cmd
            && let Some(o) = &self.editor
        {
            return Ok(self.editor_info_text(o));
        }
        if let MovieCmd::Goto(f) = cmd {
            self.editor_goto(*f, true)?;
            return Ok(format!("at frame {}", self.session.frame()));
        }
        let session = &mut self.session;
        let Some(o) = &mut self.editor else {
            bail!("no TAS editor is open (`movie edit [FILE]`)");
        };
        let ed = &mut o.ed;
        o.version += 1;
        let changed = |first: Option<u64>| match first {
            Some(f) => format!("changed from frame {f}"),
            None => "no change".to_owned(),
        };
        let msg = match cmd {
            MovieCmd::Set { frame, buttons } => changed(ed.set(session, *frame, *buttons)),
            MovieCmd::Paint {
                from,
                to,
                buttons,
                on,
            } => changed(ed.paint(session, span(*from, *to), *buttons, *on)),
            MovieCmd::Pattern {
                from,
                to,
                buttons,
                on,
                off,
            } => changed(ed.pattern(session, span(*from, *to), *buttons, *on, *off)),
            MovieCmd::Insert { frame, n, buttons } => {
                changed(ed.insert(session, *frame, *n, *buttons))
            }
            MovieCmd::Delete { from, to } => changed(ed.delete(session, span(*from, *to))),
            MovieCmd::Clone { from, to } => changed(ed.clone_frames(session, span(*from, *to))),
            MovieCmd::Clear { from, to } => changed(ed.clear(session, span(*from, *to))),
            MovieCmd::Paste { frame, input } => {
                changed(ed.paste(session, *frame, input.clone(), false))
            }
            MovieCmd::Undo => match ed.undo(session) {
                Some(f) => format!("undone (from frame {f})"),
                None if ed.roll().can_undo_redo().0 => "undone".into(),
                None => bail!("nothing to undo"),
            },
            MovieCmd::Redo => match ed.redo(session) {
                Some(f) => format!("redone (from frame {f})"),
                None if ed.roll().can_undo_redo().1 => "redone".into(),
                None => bail!("nothing to redo"),
            },
            MovieCmd::Marker { frame, text } => {
                if *frame < ed.start() {
                    bail!("frame {frame} is before the movie's start ({})", ed.start());
                }
                ed.set_marker(*frame, text, false);
                format!("marker at frame {frame}")
            }
            MovieCmd::RemoveMarker(frame) => {
                if !ed.remove_marker(*frame) {
                    bail!("no marker at frame {frame}");
                }
                format!("removed the marker of frame {frame}")
            }
            MovieCmd::Branch(b) => match b {
                BranchCmd::Save(name) => {
                    let name = name
                        .clone()
                        .unwrap_or_else(|| format!("branch {}", ed.branches().len()));
                    let i = ed.save_branch(session, &name);
                    format!("saved branch #{i} {name:?} at frame {}", session.frame())
                }
                BranchCmd::Load(i) => {
                    let Some(b) = ed.branches().get(*i) else {
                        bail!("no branch #{i} ({} branches)", ed.branches().len());
                    };
                    let (name, frame) = (b.name.clone(), b.frame);
                    ed.load_branch(session, *i)?;
                    format!("loading branch #{i} {name:?}: to frame {frame}")
                }
                BranchCmd::List => {
                    if ed.branches().is_empty() {
                        "no branches".into()
                    } else {
                        ed.branches()
                            .iter()
                            .enumerate()
                            .map(|(i, b)| {
                                format!(
                                    "#{i} {:?} frame {} ({} frames)",
                                    b.name,
                                    b.frame,
                                    b.frames.len()
                                )
                            })
                            .collect::<Vec<_>>()
                            .join("\n")
                    }
                }
                BranchCmd::Diff(a, b) => {
                    let n = ed.branches().len();
                    if *a >= n || *b >= n {
                        bail!("no such branch ({n} branches)");
                    }
                    match ed.branch_diff(*a, *b) {
                        Some(f) => format!("branches #{a} and #{b} differ from frame {f}"),
                        None => format!("branches #{a} and #{b} have the same input"),
                    }
                }
            },
            _ => bail!("not a TAS editor command"),
        };
        // The REPL waits for re-emulation; the window's ticks advance it otherwise.
        let wait = matches!(cmd, MovieCmd::Branch(BranchCmd::Load(_)));
        if wait {
            let f = o.ed.target();
            self.editor_goto(f, true)?;
            let check = self.editor.as_ref().and_then(|o| o.ed.branch_check());
            return Ok(format!(
                "{msg}; at frame {} ({})",
                self.session.frame(),
                match check {
                    Some(BranchCheck::Same) => "the machine matches the branch",
                    Some(BranchCheck::Different) => "the machine differs from the branch",
                    _ => "not checked",
                }
            ));
        }
        Ok(msg)
    }

    /// The editor as the window sees it (rebuilt only when it changed).
    pub(crate) fn editor_view(&mut self) -> Option<EditorView> {
        let pending = self.editor_pending();
        let frame = self.session.frame();
        let held = self.session.history().frames();
        let o = self.editor.as_mut()?;
        if let Some(c) = &o.cache
            && c.version == o.version
        {
            let mut c = c.clone();
            c.held = held;
            c.pending = pending.then(|| c.target.abs_diff(frame));
            return Some(c);
        }
        let ed = &o.ed;
        let old_branches = o.cache.as_ref().map(|c| Arc::clone(&c.branches));
        let same_branches = old_branches.as_ref().is_some_and(|b| {
            b.len() == ed.branches().len()
                && b.iter()
                    .zip(ed.branches())
                    .all(|(v, b)| v.name == b.name && v.frame == b.frame && v.hash == b.hash)
        });
        let branches = match old_branches {
            Some(b) if same_branches => b,
            _ => Arc::new(
                ed.branches()
                    .iter()
                    .map(|b| BranchView {
                        name: b.name.clone(),
                        frame: b.frame,
                        hash: b.hash,
                        thumbnail: Arc::new(thumbnail_rgb(&b.thumbnail)),
                    })
                    .collect(),
            ),
        };
        let (can_undo, can_redo) = ed.roll().can_undo_redo();
        let view = EditorView {
            version: o.version,
            path: o.path.clone(),
            start: ed.start(),
            frames: Arc::new(ed.roll().frames().to_vec()),
            lag: Arc::new(
                (ed.start()..ed.valid_end().min(ed.end()))
                    .map(|f| ed.lagged(f))
                    .collect(),
            ),
            lag_count: ed.lag_count(),
            markers: Arc::new(
                ed.markers()
                    .map(|(f, m)| (f, m.text.clone()))
                    .collect::<BTreeMap<u64, String>>(),
            ),
            valid_end: ed.valid_end(),
            target: ed.target(),
            held,
            pending: pending.then(|| ed.target().abs_diff(frame)),
            can_undo,
            can_redo,
            recording: ed.recording(),
            branches,
        };
        o.cache = Some(view.clone());
        Some(view)
    }
}
