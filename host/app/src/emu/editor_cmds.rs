//! The TAS editor's `movie …` commands on the emulation thread (`movie edit`, `set`, `paint`,
//! `pattern`, `insert`, `delete`, `clone`, `clear`, `paste`, `undo`, `redo`, `marker`,
//! `branch …`, `goto`, `save`, `close`, `info`), from the REPL, the console panel and the
//! window alike. Edits return at once (re-emulation goes on every tick); `goto` and a branch
//! load wait until they arrive.

use std::ops::Range;

use anyhow::{Result, bail};
use gb_session::movie::MAX_FRAME_LIST;
use gb_session::movie::editor::BranchCheck;

use super::editor_state::OpenEditor;
use super::machine::Emu;
use crate::console::command::{BranchCmd, MovieCmd};

/// Frames `from..=to` as a range.
fn span(from: u64, to: u64) -> Range<u64> {
    from.min(to)..from.max(to).saturating_add(1)
}

/// Refuse an edit that would make the roll longer than a movie may be
/// ([`MAX_FRAME_LIST`] frames), or a marker past the roll's end.
fn check_size(cmd: &MovieCmd, start: u64, end: u64) -> Result<()> {
    let len = end - start;
    let grows_to = match cmd {
        MovieCmd::Set { frame, .. } => frame.saturating_add(1).saturating_sub(start),
        MovieCmd::Paint { from, to, .. } | MovieCmd::Pattern { from, to, .. } => {
            from.max(to).saturating_add(1).saturating_sub(start)
        }
        MovieCmd::Insert { n, .. } => len.saturating_add(*n),
        MovieCmd::Clone { from, to } => len.saturating_add(from.abs_diff(*to) + 1),
        MovieCmd::Paste { input, .. } => len.saturating_add(input.len() as u64),
        MovieCmd::Marker { frame, .. } if *frame > end => {
            bail!("frame {frame} is past the roll's end ({end})")
        }
        _ => 0,
    };
    if grows_to > MAX_FRAME_LIST {
        bail!("the roll would be longer than {MAX_FRAME_LIST} frames");
    }
    Ok(())
}

impl Emu {
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
            MovieCmd::Ghost(source) => return Some(self.editor_ghost(source)),
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
        check_size(cmd, ed.start(), ed.end())?;
        o.version += 1;
        o.input_version += 1;
        o.stalled = false;
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
            MovieCmd::Paste { frame, input } => changed(ed.paste(session, *frame, input.clone())),
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
                    // A branch is saved where the playback is headed: pending re-emulation
                    // ends first (else it would catch the machine half way there).
                    let target = ed.target();
                    ed.seek_now(session, target)?;
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
        // A cursor past a shortened roll comes back to its end (re-emulating past it would
        // record empty input there).
        if o.ed.target() > o.ed.end() {
            let end = o.ed.end();
            o.ed.seek(&mut self.session, end)?;
        }
        // A branch load waits until it arrives; edits are re-emulated tick by tick.
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
}
