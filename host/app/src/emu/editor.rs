//! The app's side of the TAS editor (`gb_session::movie::Editor` is the model): opening it on
//! a movie file or over the running session, live frames through it (playback of the roll,
//! recording past its end, `tastudio.*` info before each), re-emulation advanced by a time
//! budget every tick (paused or not), seeking, saving and closing. Its `movie …` commands are
//! `editor_cmds.rs`, what the window sees of it `editor_view.rs`.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use gb_session::data::Pads;
use gb_session::movie::editor::{BranchCheck, Editor};
use gb_session::movie::{Movie, editor_file};
use gb_session::{PowerOn, Roms, Session};

use super::editor_state::OpenEditor;
use super::machine::Emu;

/// Time re-emulation may take per tick.
const ADVANCE_BUDGET: Duration = Duration::from_millis(12);

impl Emu {
    /// Open the TAS editor: on the movie at `path` (a new session at its start), or over the
    /// running session from frame 0.
    pub fn editor_open(&mut self, path: Option<&Path>) -> Result<String> {
        if self.movie.tas.is_some() {
            let msg = self.movie_stop()?;
            self.say(msg);
        }
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
        // A movie that cannot be opened leaves the open editor as it is.
        let movie = Movie::open(path)?;
        let session = movie
            .session(self.game.roms(), self.session_config())
            .with_context(|| format!("{}", path.display()))?;
        if self.game.battery.is_some() || self.game.second_battery.is_some() {
            self.save_battery();
            self.game.stop_batteries();
            self.say("battery saves are off while the TAS editor is open on a movie");
        }
        // The user's script files run on the movie too (from its first frame; they roll back
        // with it and a save keeps them).
        let scripts = self.script_files();
        self.replace_session(session);
        for (p, player) in &scripts {
            if let Err(e) = self.load_script_file_on(p, *player) {
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
        self.pacing.paused = true;
        Ok(msg)
    }

    /// Before a frame: what scripts' `tastudio.*` see (nothing to build when no script runs).
    pub(crate) fn give_editor_info(&mut self) {
        let scripts = self.session.scripts().next().is_some();
        let info = self.editor.as_ref().filter(|_| scripts).map(|o| {
            let selection = o
                .selection
                .map_or_else(Vec::new, |(a, b)| (a..=b).collect());
            o.ed.info(&self.session, selection)
        });
        self.session.set_editor_info(info);
    }

    /// A live frame while the editor is open: the roll's input (the user's past its end,
    /// recorded), then the scripts' requests.
    pub(crate) fn editor_frame(&mut self) {
        self.give_editor_info();
        self.log_host_input();
        if let Some(o) = &mut self.editor {
            let len = o.ed.roll().len();
            o.ed.run_frame(
                &mut self.session,
                Pads::pair(self.input.held, self.input.second),
            );
            o.version += 1;
            if o.ed.roll().len() != len {
                o.input_version += 1;
            }
        }
        self.ghost_sync();
        self.serve_client_requests();
        self.play_audio();
        self.after_frame();
    }

    /// Re-emulation is pending (the session is not at the editor's target, or past the
    /// frames emulated with the current input).
    pub(crate) fn editor_pending(&self) -> bool {
        self.editor.as_ref().is_some_and(|o| {
            let f = self.session.frame();
            !o.stalled && (f != o.ed.target() || f > o.ed.valid_end())
        })
    }

    /// Advance pending re-emulation by a time budget (every tick, paused or not).
    pub(crate) fn editor_pump(&mut self) {
        let t0 = Instant::now();
        let config = self.session_config();
        let check_before = self.editor.as_ref().and_then(|o| o.ed.branch_check());
        // What scripts see of the editor does not change while it re-emulates (their
        // requests then are dropped): given once, not every step (it copies the lag log).
        if self.editor_pending() {
            self.give_editor_info();
        }
        while self.editor_pending() && t0.elapsed() < ADVANCE_BUDGET {
            let Some(o) = &mut self.editor else { return };
            let len = o.ed.roll().len();
            let ghost = &mut o.ghost;
            let r = o.ed.advance_observed(&mut self.session, 4, &mut |s| {
                if let Some(g) = ghost.as_mut() {
                    g.observe(s);
                }
            });
            o.version += 1;
            if o.ed.roll().len() != len {
                o.input_version += 1;
            }
            if let Err(e) = r {
                // The history no longer holds where re-emulation must start: from the last
                // marker state before it (a new session there), else stay here until the next
                // edit or seek.
                if let Ok(Some(fresh)) =
                    o.ed.resume_from_marker(&self.session, self.game.roms(), config.clone())
                {
                    self.session = fresh;
                    let at = self.session.frame();
                    self.say(format!(
                        "TAS editor: the history no longer held the edit; re-emulating from \
                         the marker state at frame {at}"
                    ));
                    continue;
                }
                o.stalled = true;
                self.say(format!(
                    "TAS editor: re-emulation stopped at frame {}: {e} (a marker before the \
                     edit keeps a state to start from)",
                    self.session.frame()
                ));
                break;
            }
            self.session.take_client_requests();
        }
        self.ghost_sync();
        self.session.discard_audio();
        self.drain_session_console();
        let check = self.editor.as_ref().and_then(|o| o.ed.branch_check());
        if check_before == Some(BranchCheck::Pending) && check == Some(BranchCheck::Different) {
            self.say("TAS editor: the loaded branch's machine differs on arrival");
        }
        self.pacing.frames += 1;
    }

    /// Seek the editor to frame `f`: at once when green, else emulating there (the REPL
    /// waits; the window shows progress).
    pub(crate) fn editor_goto(&mut self, f: u64, wait: bool) -> Result<()> {
        self.give_editor_info();
        let Some(o) = &mut self.editor else {
            bail!("no TAS editor is open (`movie edit [FILE]`)");
        };
        o.version += 1;
        o.stalled = false;
        let f = f.clamp(o.ed.start(), o.ed.end());
        let len = o.ed.roll().len();
        let r = if wait {
            o.ed.seek_now(&mut self.session, f)
        } else {
            o.ed.seek(&mut self.session, f).map(|_| ())
        };
        if o.ed.roll().len() != len {
            o.input_version += 1;
        }
        r?;
        self.ghost_sync();
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
        let mut fresh = fresh_session(
            o.movie.as_ref(),
            self.game.roms(),
            &self.session,
            &self.settings.power,
            config,
        )?;
        editor_file::save(&mut o.ed, &mut self.session, &mut fresh, &path)
            .with_context(|| format!("cannot save {}", path.display()))?;
        o.version += 1;
        o.input_version += 1;
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
}

/// A new session at the edited movie's start: the movie's own (from its file), or power-on
/// as the edited session powered on (a linked pair's two Game Boys, each with the battery it
/// powered on with).
pub(crate) fn fresh_session(
    movie: Option<&Movie>,
    roms: Roms,
    edited: &Session,
    power: &crate::game::rom::PowerArgs,
    config: gb_session::SessionConfig,
) -> Result<Session> {
    Ok(match movie {
        Some(m) => m.session(roms, config)?,
        None => {
            let start = edited.start_params();
            let first = PowerOn {
                battery: start.battery.clone(),
                ..power.power_on(None)
            };
            match (roms.second, &start.second) {
                (Some(rom_b), Some(b)) => {
                    let second = PowerOn {
                        battery: b.battery.clone(),
                        ..power.power_on(None)
                    };
                    Session::power_on_linked((roms.first, first), (rom_b, second), config)?
                }
                _ => Session::power_on(roms.first, first, config)?,
            }
        }
    })
}
