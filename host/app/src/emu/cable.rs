//! The `link …` command on the emulation thread: what is linked, the cable in or out, and a
//! second Game Boy linked or taken away — the running game starts again (a pair powers on
//! together: two machines already running cannot be joined without inventing a state for the
//! one that was not there), with the user's scripts loaded again on their players, as
//! `run A.gb --link B.gb` would start it. A second game that cannot be used leaves the running
//! game as it was.

use anyhow::{Result, bail};

use super::machine::Emu;
use super::types::RomSource;
use crate::console::link_cmds::LinkCmd;

impl Emu {
    /// Run a `link …` command.
    pub(crate) fn apply_link(&mut self, cmd: LinkCmd) -> Result<String> {
        match cmd {
            LinkCmd::Status => Ok(self.link_status()),
            LinkCmd::Cable(on) => {
                let Some(pair) = self.session.machine().pair() else {
                    bail!("no second Game Boy is linked (`link FILE` or `link same`)");
                };
                if pair.plugged() == on {
                    return Ok(format!(
                        "the cable is already {}",
                        if on { "plugged in" } else { "pulled out" }
                    ));
                }
                self.session.set_cable(on);
                Ok(if on {
                    "link cable plugged in (from the next frame)".into()
                } else {
                    "link cable pulled out (from the next frame)".into()
                })
            }
            LinkCmd::Open(path) => {
                if !path.is_file() {
                    bail!("{}: no such ROM file", path.display());
                }
                self.relink(Some(RomSource::File(path)))
            }
            LinkCmd::Same => {
                let same = self.game.rom.clone();
                self.relink(Some(same))
            }
            LinkCmd::Off => {
                if self.settings.link.is_none() {
                    return Ok("one Game Boy already".into());
                }
                self.relink(None)
            }
        }
    }

    /// What is linked.
    fn link_status(&self) -> String {
        let m = self.session.machine();
        match (m.pair(), m.player(1)) {
            (Some(pair), Some(p2)) => format!(
                "linked: player 2 runs {:?} ({}), cable {}",
                p2.cartridge().header().title,
                p2.model().name(),
                if pair.plugged() {
                    "plugged in"
                } else {
                    "pulled out"
                }
            ),
            _ => "one Game Boy (`link FILE` or `link same` links a second)".into(),
        }
    }

    /// Start the running game again with `link` as player 2's game (`None`: alone).
    fn relink(&mut self, link: Option<RomSource>) -> Result<String> {
        if self.movie.tas.is_some() {
            let msg = self.movie_stop()?;
            self.say(msg);
        }
        let paths = self.script_files();
        let before = std::mem::replace(&mut self.settings.link, link);
        let rom = self.game.rom.clone();
        if let Err(e) = self.open(&rom) {
            self.settings.link = before;
            return Err(e.context("cannot link that game; the running one goes on"));
        }
        for (p, player) in paths {
            // A script on player 2 of a pair now gone runs on player 1.
            let player = player.min(self.session.machine().players() - 1);
            if let Err(e) = self.load_script_file_on(&p, player) {
                self.say(format!("{}: {e:#}", p.display()));
            }
        }
        Ok(format!("{}; the game started again", self.link_status()))
    }
}
