//! Files dropped on the window open by their extension (any case): a ROM opens, a script
//! loads, a patch re-opens the current ROM with it, a state file opens as a new session of
//! the ROM (File ▸ Open state…), a movie plays read-only (a BizHawk `.bk2` is converted to a
//! `.gbm` in the temporary folder first, on the running ROM). Anything else gets a line in the
//! status bar saying what gbhost opens.

use super::GbApp;
use crate::console::command::{Command, MovieCmd, StateCmd};
use crate::emu::Cmd;
use eframe::egui;
use std::path::{Path, PathBuf};

/// What a dropped file is, by its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Rom,
    Script,
    Patch,
    State,
    Movie,
    /// A BizHawk movie (converted to a `.gbm` first).
    Bk2,
}

/// What `p` is, by its extension.
pub(super) fn kind(p: &Path) -> Option<Kind> {
    let ext = p.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        e if crate::game::rom::EXTENSIONS.contains(&e) => Kind::Rom,
        "lua" => Kind::Script,
        e if crate::game::rom_patches::EXTENSIONS.contains(&e) => Kind::Patch,
        "gbs" => Kind::State,
        "gbm" => Kind::Movie,
        "bk2" => Kind::Bk2,
        _ => return None,
    })
}

impl GbApp {
    /// Open the files dropped on the window this frame, in order.
    pub(super) fn dropped_files(&mut self, ctx: &egui::Context) {
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        });
        for p in dropped {
            self.open_dropped(p);
        }
    }

    /// Open one dropped file by its kind.
    fn open_dropped(&mut self, p: PathBuf) {
        let name = crate::game::rom_patches::file_name(&p);
        match kind(&p) {
            Some(Kind::Rom) => self.open_rom(p),
            Some(Kind::Script) => self.load_script(p, 0),
            Some(Kind::Patch) => self.send(Cmd::ApplyPatch(p)),
            Some(Kind::State) => self.run(Command::State(StateCmd::Open(p))),
            Some(Kind::Movie) => self.run(Command::Movie(MovieCmd::Play(p))),
            Some(Kind::Bk2) => self.send(Cmd::PlayBk2(p)),
            None => self.notice(format!(
                "'{name}': gbhost opens ROMs (.gb .gbc .sgb), scripts (.lua), patches (.ips .ups .bps), states (.gbs) and movies (.gbm .bk2)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_extension_in_any_case() {
        assert_eq!(kind(Path::new("a/Game.GBC")), Some(Kind::Rom));
        assert_eq!(kind(Path::new("bot.lua")), Some(Kind::Script));
        assert_eq!(kind(Path::new("tr.UPS")), Some(Kind::Patch));
        assert_eq!(kind(Path::new("s.gbs")), Some(Kind::State));
        assert_eq!(kind(Path::new("run.gbm")), Some(Kind::Movie));
        assert_eq!(kind(Path::new("run.bk2")), Some(Kind::Bk2));
        assert_eq!(kind(Path::new("notes.txt")), None);
        assert_eq!(kind(Path::new("README")), None);
    }
}
