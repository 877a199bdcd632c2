//! The TAS editor's ghost (`gb_session::movie::ghost::Ghost`): a second machine running a
//! branch or another movie of the same ROM, frame-locked with the edited session — opened by
//! `movie ghost branch N|FILE|off`, fingerprinted after every frame the editor runs, brought to
//! the edited session's frame after every frame, seek and re-emulation step.

use std::path::Path;

use anyhow::{Context, Result, bail};
use gb_session::EventKind;
use gb_session::movie::ghost::Ghost;
use gb_session::movie::{FrameInput, Movie};

use super::machine::Emu;
use crate::console::command::GhostSource;

impl Emu {
    /// Open (or close) the ghost.
    pub fn editor_ghost(&mut self, source: &GhostSource) -> Result<String> {
        let config = self.session_config();
        let Some(o) = &self.editor else {
            bail!("no TAS editor is open (`movie edit [FILE]`)");
        };
        let ghost = match source {
            GhostSource::Off => None,
            GhostSource::Branch(i) => {
                let Some(b) = o.ed.branches().get(*i) else {
                    bail!("no branch #{i} (`movie branch list`)");
                };
                let start = super::editor::fresh_session(
                    o.movie.as_ref(),
                    self.game.roms(),
                    &self.session,
                    &self.settings.power,
                    config,
                )?;
                // The cable's pluggings of the edited run (a branch holds buttons only).
                let cable = self
                    .session
                    .log()
                    .events()
                    .iter()
                    .filter(|e| matches!(e.kind, EventKind::Cable { .. }))
                    .cloned()
                    .collect();
                Some(
                    Ghost::new(
                        &format!("branch #{i} {}", b.name),
                        start,
                        o.ed.start(),
                        b.frames.clone(),
                    )
                    .with_events(cable),
                )
            }
            GhostSource::Movie(path) => Some(self.ghost_of_movie(path)?),
        };
        let msg = match &ghost {
            Some(g) => format!("ghost: {} races the edited run", g.name()),
            None => "ghost: off".to_owned(),
        };
        if let Some(o) = &mut self.editor {
            o.ghost = ghost;
            o.version += 1;
        }
        self.ghost_sync();
        Ok(msg)
    }

    fn ghost_of_movie(&self, path: &Path) -> Result<Ghost> {
        let movie = Movie::open(path).with_context(|| format!("{}", path.display()))?;
        let (inputs, _) = movie.frame_inputs()?;
        let input = inputs.iter().map(FrameInput::pads).collect();
        let start = movie
            .session(self.game.roms(), self.session_config())
            .with_context(|| format!("{}", path.display()))?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        Ok(Ghost::new(&name, start, movie.header.start_frame, input)
            .with_events(movie.cable_events()?))
    }

    /// Bring the ghost to the edited session's frame, fingerprinting the edited machine there
    /// (and forgetting its fingerprints past the frames emulated with its current input).
    pub(crate) fn ghost_sync(&mut self) {
        let frame = self.session.frame();
        let Some(o) = &mut self.editor else { return };
        let valid = o.ed.valid_end();
        let Some(g) = &mut o.ghost else { return };
        g.invalidate_main_from(valid);
        // The machine shown (after a frame, a seek or a step) is the edited run's.
        if frame <= valid {
            g.observe(&self.session);
        }
        if let Err(e) = g.follow(frame) {
            o.ghost = None;
            o.version += 1;
            self.say(format!("ghost: stopped ({e})"));
        }
    }
}
