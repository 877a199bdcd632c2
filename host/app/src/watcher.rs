//! Live reload: watch loaded script files and report which changed.
//!
//! Editors often save by writing a new file and renaming it over the old one, which ends a
//! watch on the file itself; so the parent folder is watched and events are filtered by path
//! (see `../shared/research/desktop-stack.md`); a change to any `.lua` file there (a module
//! the script may `require`) counts too. Subfolders are not watched (a script in a large
//! folder must not cost a recursive watch): their modules are read again at the next reload.
//! Events are debounced (50 ms).

use notify_debouncer_mini::notify::RecursiveMode;
use notify_debouncer_mini::{DebounceEventResult, Debouncer, new_debouncer};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// Watches script files through their folders.
pub struct Watcher {
    debouncer: Debouncer<notify_debouncer_mini::notify::RecommendedWatcher>,
    rx: Receiver<DebounceEventResult>,
    /// Canonical file path → the path the app knows it by.
    files: BTreeMap<PathBuf, PathBuf>,
    dirs: BTreeSet<PathBuf>,
}

/// The canonical form of `p` (itself when it cannot be resolved).
pub fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

impl Watcher {
    /// A watcher with nothing watched (fails when inotify is unavailable).
    pub fn new() -> notify_debouncer_mini::notify::Result<Watcher> {
        let (tx, rx) = channel();
        let debouncer = new_debouncer(Duration::from_millis(50), tx)?;
        Ok(Watcher {
            debouncer,
            rx,
            files: BTreeMap::new(),
            dirs: BTreeSet::new(),
        })
    }

    /// Watch `path` (through its folder).
    pub fn watch(&mut self, path: &Path) {
        let c = canonical(path);
        if let Some(dir) = c.parent().map(Path::to_path_buf)
            && !self.dirs.contains(&dir)
            && self
                .debouncer
                .watcher()
                .watch(&dir, RecursiveMode::NonRecursive)
                .is_ok()
        {
            self.dirs.insert(dir);
        }
        self.files.insert(c, path.to_path_buf());
    }

    /// Stop reporting `path`.
    pub fn unwatch(&mut self, path: &Path) {
        self.files.remove(&canonical(path));
    }

    /// Forget every file.
    pub fn clear(&mut self) {
        self.files.clear();
    }

    /// The `.lua` files that changed in the watched folders since the last call, canonical;
    /// empty when no watched script remains.
    pub fn changed(&mut self) -> Vec<PathBuf> {
        let mut out = BTreeSet::new();
        while let Ok(result) = self.rx.try_recv() {
            let Ok(events) = result else { continue };
            for e in events {
                let p = canonical(&e.path);
                if p.extension().is_some_and(|x| x == "lua")
                    && self.dirs.iter().any(|d| p.starts_with(d))
                {
                    out.insert(p);
                }
            }
        }
        if self.files.is_empty() {
            return Vec::new();
        }
        out.into_iter().collect()
    }
}
