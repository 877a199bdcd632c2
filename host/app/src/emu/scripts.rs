//! The scripts the app loaded: from their files (with the modules of their folder), reloaded
//! from them (also live, when the watcher sees a save), unloaded, enabled and disabled; and
//! the scripts a movie's playback loaded, adopted into the list.

use std::path::Path;

use anyhow::Result;
use gb_session::Flavor;

use super::machine::Emu;
use super::types::ScriptEntry;

impl Emu {
    /// Load a script file into the session (and watch it for live reload).
    pub fn load_script_file(&mut self, path: &Path) -> Result<usize> {
        self.load_script_file_on(path, 0)
    }

    /// [`Emu::load_script_file`] against `player`'s Game Boy (1: a linked pair's second).
    pub fn load_script_file_on(&mut self, path: &Path, player: usize) -> Result<usize> {
        let bundle = crate::scripted::read_bundle(path)?;
        self.session.next_script_on_player(player)?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let flavor = Flavor::detect(&bundle.main);
        let folder = crate::scripted::script_folder(path);
        let slot = self
            .session
            .load_bundle_in(&name, bundle.clone(), flavor, &folder);
        if let Some(w) = &mut self.scripts.watcher {
            w.watch(path);
        }
        self.scripts.entries.push(ScriptEntry {
            name,
            path: Some(path.to_path_buf()),
            bundle,
            slot: Some(slot),
            reloaded_at: None,
            player,
        });
        Ok(self.scripts.entries.len() - 1)
    }

    /// Reload script `i` from its file (or its kept text when built in); while rewound, the
    /// shown frame is drawn again with the new code.
    pub fn reload_script(&mut self, i: usize) -> Result<()> {
        let entry = self
            .scripts
            .entries
            .get_mut(i)
            .ok_or_else(|| anyhow::anyhow!("no script #{}", i + 1))?;
        if let Some(path) = &entry.path {
            entry.bundle = crate::scripted::read_bundle(path)?;
        }
        let Some(slot) = entry.slot else {
            return Ok(());
        };
        let bundle = entry.bundle.clone();
        let frame = self.session.frame();
        entry.reloaded_at = Some(frame);
        let name = entry.name.clone();
        let redraw =
            (self.rewound() || self.pacing.paused) && frame > 0 && self.in_history(frame - 1);
        if redraw {
            // Show this frame again as the new code draws it: back one frame, reload there
            // (a logged event: the recorded future is forgotten, as with any new input), and
            // run the frame with the inputs it had.
            self.session.seek(frame - 1)?;
            self.session.reload_bundle(slot, bundle.clone())?;
            self.session.run_frame();
            self.after_frame();
        } else {
            self.session.reload_bundle(slot, bundle.clone())?;
        }
        self.say(format!("reloaded {name} at frame {frame}"));
        Ok(())
    }

    /// The script files loaded, each with its player (to load them again in a new session).
    pub(crate) fn script_files(&self) -> Vec<(std::path::PathBuf, usize)> {
        self.scripts
            .entries
            .iter()
            .filter_map(|s| Some((s.path.clone()?, s.player)))
            .collect()
    }

    /// Unload script `i` (it leaves the list).
    pub fn unload_script(&mut self, i: usize) -> Result<()> {
        if i >= self.scripts.entries.len() {
            anyhow::bail!("no script #{}", i + 1);
        }
        let entry = self.scripts.entries.remove(i);
        if let Some(slot) = entry.slot {
            self.session.unload_script(slot)?;
        }
        if let (Some(w), Some(p)) = (&mut self.scripts.watcher, &entry.path) {
            w.unwatch(p);
        }
        Ok(())
    }

    pub(crate) fn enable_script(&mut self, i: usize, on: bool) -> Result<()> {
        let entry = self
            .scripts
            .entries
            .get_mut(i)
            .ok_or_else(|| anyhow::anyhow!("no script #{}", i + 1))?;
        match (on, entry.slot) {
            (true, None) => {
                if let Some(path) = &entry.path {
                    entry.bundle = crate::scripted::read_bundle(path)?;
                }
                let flavor = Flavor::detect(&entry.bundle.main);
                self.session.next_script_on_player(entry.player)?;
                entry.slot = Some(match &entry.path {
                    Some(path) => self.session.load_bundle_in(
                        &entry.name,
                        entry.bundle.clone(),
                        flavor,
                        &crate::scripted::script_folder(path),
                    ),
                    None => self
                        .session
                        .load_bundle(&entry.name, entry.bundle.clone(), flavor),
                });
            }
            (false, Some(slot)) => {
                entry.slot = None;
                self.session.unload_script(slot)?;
            }
            _ => {}
        }
        Ok(())
    }

    /// List the session's scripts the app did not load (a movie's; they have no file here).
    pub(crate) fn adopt_new_scripts(&mut self) {
        let known: Vec<u32> = self.scripts.entries.iter().filter_map(|s| s.slot).collect();
        let new: Vec<ScriptEntry> = self
            .session
            .scripts()
            .filter(|s| s.active && !known.contains(&s.slot))
            .map(|s| ScriptEntry {
                name: s.name.clone(),
                path: None,
                bundle: self.session.source(s.hash).cloned().unwrap_or_default(),
                slot: Some(s.slot),
                reloaded_at: None,
                player: s.player(),
            })
            .collect();
        self.scripts.entries.extend(new);
    }

    pub(crate) fn poll_watcher(&mut self) {
        let Some(w) = &mut self.scripts.watcher else {
            return;
        };
        let changed = w.changed();
        if changed.is_empty() {
            return;
        }
        // A change to the script or to a module of its folder (`require`) is a reload; the
        // watcher also reports reads (ours, when reloading), so reload only when the text of
        // the bundle changed.
        for i in 0..self.scripts.entries.len() {
            let entry = &self.scripts.entries[i];
            let (Some(path), Some(_)) = (&entry.path, entry.slot) else {
                continue;
            };
            let dir = crate::watcher::canonical(path)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default();
            if !changed.iter().any(|c| c.starts_with(&dir)) {
                continue;
            }
            let differs = crate::scripted::read_bundle(path).map_or(true, |b| b != entry.bundle);
            if differs {
                if let Err(e) = self.reload_script(i) {
                    self.say(format!("reload: {e:#}"));
                }
                self.publish();
            }
        }
    }
}
