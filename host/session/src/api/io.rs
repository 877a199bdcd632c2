//! Files and time for scripts, without breaking determinism or the sandbox: the host side of
//! the prelude's `io` and `os`.
//!
//! - **Files** are those of the script's own folder and its subfolders, and of its own data
//!   folder (`data:name`, see [`DATA_PREFIX`]), nothing else: a path is relative, has no `..`,
//!   and once symbolic links are followed it is still inside the folder ([`resolve`]). A read
//!   is an outside input: live, its bytes' hash is logged
//!   ([`crate::data::EventKind::FileRead`]); on a replay (rewind, seek, sync test) the file is
//!   read again and a difference from the logged hash is reported on the console (the replay
//!   then sees today's bytes, and may go another way). Writes are outputs: made live, skipped
//!   on replays (the run already made them), so a log file gets each line once.
//! - **Time**: `os.time` counts from the session's logged start time
//!   ([`crate::data::EventKind::Clock`]) on emulated time, `os.clock` is the emulated seconds
//!   since power-on: a rewind replays the same values. See [`Clock`].
//! - **Symbols**: `emu.symbol(name)` looks a name up in the ROM's `.sym` file, which the host
//!   hands over; the answer is an outside input too, logged and checked on replays like a
//!   file read (as `sym:NAME`).

use std::collections::VecDeque;
use std::path::{Component, Path, PathBuf};

use lua_rollback::Value;

use super::args::{bytes_arg, text_arg};
use super::context::Api;
pub use super::context::{Clock, FileIo};
use super::spec::id;
use crate::data::hash::fnv1a;

/// The biggest file a script may read or write at once.
pub const MAX_FILE_BYTES: usize = 16 << 20;

/// The prefix of a path in the script's own data folder (`data:best.txt`).
pub const DATA_PREFIX: &str = "data:";

/// The data folder's name for the script `name` (`hud.lua` has `hud`): its file stem, with
/// anything but letters, digits, `-`, `_` and `.` made `_`.
pub fn data_folder_name(name: &str) -> String {
    let stem = std::path::Path::new(name)
        .file_stem()
        .map_or_else(|| name.to_owned(), |s| s.to_string_lossy().into_owned());
    let clean: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.is_empty() || clean.chars().all(|c| c == '.') {
        "script".into()
    } else {
        clean
    }
}

/// Why a path is refused.
fn refused(path: &str, why: &str) -> String {
    format!("{path}: {why} (scripts may only use files inside their own folder)")
}

/// The file `path` names inside `folder`, or why it may not be used. The file itself need
/// not exist (a write creates it), but its folder must, inside `folder` once links are
/// followed.
pub fn resolve(folder: &Path, path: &str) -> Result<PathBuf, String> {
    let p = Path::new(path);
    if path.is_empty() || path.contains('\0') {
        return Err(refused(path, "not a file name"));
    }
    if p.is_absolute() || p.has_root() {
        return Err(refused(path, "an absolute path"));
    }
    for c in p.components() {
        match c {
            Component::Normal(_) | Component::CurDir => {}
            Component::ParentDir => return Err(refused(path, "a path out of the folder")),
            Component::RootDir | Component::Prefix(_) => {
                return Err(refused(path, "an absolute path"));
            }
        }
    }
    let root = folder
        .canonicalize()
        .map_err(|e| format!("{path}: the script's folder is not readable: {e}"))?;
    let full = root.join(p);
    // Follow links: the file if it exists, else its folder.
    let real = match full.canonicalize() {
        Ok(r) => r,
        Err(_) => {
            let parent = full.parent().unwrap_or(&root);
            let name = full
                .file_name()
                .ok_or_else(|| refused(path, "not a file name"))?;
            parent
                .canonicalize()
                .map_err(|_| format!("{path}: no such folder"))?
                .join(name)
        }
    };
    if !real.starts_with(&root) {
        return Err(refused(path, "a link out of the folder"));
    }
    Ok(real)
}

impl Api<'_> {
    /// The calling script's folder, or why it has no files.
    fn folder(&self, what: &str) -> Result<PathBuf, String> {
        self.files
            .as_ref()
            .and_then(|f| f.folders.get(&self.slot).or(f.default_folder.as_ref()))
            .cloned()
            .ok_or_else(|| {
                format!(
                    "{what}: this script was not loaded from a folder, so it has no files (a \
                     movie's scripts: play it with --script-dir)"
                )
            })
    }

    /// The file `path` names for the calling script: in its folder, or with `data:` in its
    /// own data folder (made when `create`). The outer error is raised (no files at all),
    /// the inner one returned to the script (this path is refused).
    fn locate(&self, path: &str, create: bool) -> Result<Result<PathBuf, String>, String> {
        let Some(rest) = path.strip_prefix(DATA_PREFIX) else {
            return Ok(resolve(&self.folder("io.open")?, path));
        };
        let files = self.files.as_ref();
        let (Some(root), Some(name)) = (
            files.and_then(|f| f.data_root.as_ref()),
            files.and_then(|f| f.names.get(&self.slot)),
        ) else {
            return Err("io.open: scripts have no data folder here".into());
        };
        let dir = root.join(data_folder_name(name));
        if create && let Err(e) = std::fs::create_dir_all(&dir) {
            return Ok(Err(format!("{path}: the data folder cannot be made: {e}")));
        }
        Ok(resolve(&dir, rest).map_err(|e| format!("{DATA_PREFIX}{e}")))
    }

    /// `gbhost.file_read(path)`: the bytes, or nil and why.
    /// A read of outside data (`what` names it): a read the log already holds (a replay, a
    /// movie's playback) is checked against it; a new one is logged.
    fn check_read(files: &mut FileIo, slot: u32, path: &str, hash: u64, what_read: &str) {
        let expected = files.expected.get_mut(&slot).and_then(VecDeque::pop_front);
        let what = match expected {
            Some((p, h)) if p == path && h == hash => None,
            Some((p, _)) if p == path => Some("different bytes from"),
            Some(_) => Some("a file it did not read in"),
            None if files.replaying => Some("a file it did not read in"),
            None => {
                files.reads.push((slot, path.to_owned(), hash));
                None
            }
        };
        if let Some(what) = what {
            files.warnings.push((
                slot,
                format!(
                    "replay: {what_read} {path} and found {what} the run it replays; it may go another way"
                ),
            ));
        }
    }

    /// `emu.symbol(name)`: the address (and bank) of a symbol of the ROM's `.sym` file, read
    /// like a file: logged, and checked on a replay.
    fn symbol(&mut self, name: &str, ret: &mut Vec<Value>) -> Result<(), String> {
        let slot = self.slot;
        let Some(files) = self.files.as_deref_mut() else {
            return Err("emu.symbol: no symbols here".into());
        };
        let found = files.symbols.as_ref().and_then(|s| s.lookup(name));
        let hash = found.map_or(0, |(bank, addr)| {
            (u64::from(bank) << 16 | u64::from(addr)) + 1
        });
        Self::check_read(files, slot, &format!("sym:{name}"), hash, "emu.symbol read");
        if let Some((bank, addr)) = found {
            ret.push(Value::Integer(i64::from(addr)));
            ret.push(Value::Integer(i64::from(bank)));
        } else {
            ret.push(Value::Nil);
        }
        Ok(())
    }

    fn file_read(&mut self, path: &str, ret: &mut Vec<Value>) -> Result<(), String> {
        let located = self.locate(path, false)?;
        let slot = self.slot;
        let Some(files) = self.files.as_deref_mut() else {
            return Err("io.open: no files here".into());
        };
        let read = located.and_then(|p| {
            let meta = std::fs::metadata(&p).map_err(|e| format!("{path}: {e}"))?;
            if meta.is_dir() {
                return Err(format!("{path}: is a folder"));
            }
            if meta.len() > MAX_FILE_BYTES as u64 {
                return Err(format!("{path}: larger than {} MiB", MAX_FILE_BYTES >> 20));
            }
            std::fs::read(&p).map_err(|e| format!("{path}: {e}"))
        });
        let hash = read.as_deref().map_or(0, fnv1a);
        Self::check_read(files, slot, path, hash, "io read");
        match read {
            Ok(bytes) => ret.push(Value::String(bytes)),
            Err(e) => ret.extend([Value::Nil, Value::String(e.into_bytes())]),
        }
        Ok(())
    }

    /// `gbhost.file_write(path, bytes, append)`: made live, skipped on a replay. Nil, or why
    /// it failed.
    fn file_write(&mut self, path: &str, bytes: &[u8], append: bool) -> Result<Value, String> {
        let replaying = self.files.as_ref().is_some_and(|f| f.replaying);
        let p = match self.locate(path, !replaying)? {
            Ok(p) => p,
            Err(e) => return Ok(Value::String(e.into_bytes())),
        };
        if replaying {
            return Ok(Value::Nil);
        }
        if bytes.len() > MAX_FILE_BYTES {
            return Ok(Value::String(
                format!("{path}: larger than {} MiB", MAX_FILE_BYTES >> 20).into_bytes(),
            ));
        }
        let result = if append {
            use std::io::Write;
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&p)
                .and_then(|mut f| f.write_all(bytes))
        } else {
            crate::files::write_atomic(&p, bytes)
        };
        Ok(match result {
            Ok(()) => Value::Nil,
            Err(e) => Value::String(format!("{path}: {e}").into_bytes()),
        })
    }

    /// The file and clock calls. Returns false for an id that is not one of them.
    pub(super) fn call_io(
        &mut self,
        id: u32,
        args: &[Value],
        ret: &mut Vec<Value>,
    ) -> Result<bool, String> {
        match id {
            id::FILE_READ => {
                let path = text_arg(args, 0, "io.open")?;
                self.file_read(&path, ret)?;
            }
            id::SYMBOL => {
                let name = text_arg(args, 0, "emu.symbol")?;
                self.symbol(&name, ret)?;
            }
            id::FILE_WRITE => {
                let path = text_arg(args, 0, "io.open")?;
                let bytes = bytes_arg(args, 1, "file:write")?.to_vec();
                let append = matches!(args.get(2), Some(Value::Boolean(true)));
                let v = self.file_write(&path, &bytes, append)?;
                ret.push(v);
            }
            id::CLOCK => {
                let cycles = self
                    .gb
                    .cycles()
                    .saturating_sub(self.view.clock.power_on_cycles);
                ret.push(Value::Integer(self.view.clock.start_unix as i64));
                ret.push(Value::Integer(cycles as i64));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_folder() {
        let dir = std::env::temp_dir().join(format!("gbhost-io-{}", std::process::id()));
        let inner = dir.join("script");
        std::fs::create_dir_all(inner.join("data")).unwrap();
        std::fs::write(dir.join("secret.txt"), b"x").unwrap();
        std::fs::write(inner.join("data/a.txt"), b"a").unwrap();
        assert!(resolve(&inner, "data/a.txt").is_ok());
        assert!(resolve(&inner, "./new.txt").is_ok());
        assert!(
            resolve(&inner, "../secret.txt")
                .unwrap_err()
                .contains("out of the folder")
        );
        assert!(resolve(&inner, "data/../../secret.txt").is_err());
        assert!(
            resolve(&inner, "/etc/passwd")
                .unwrap_err()
                .contains("absolute")
        );
        assert!(resolve(&inner, "").is_err());
        assert!(resolve(&inner, "nofolder/x.txt").is_err());
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.join("secret.txt"), inner.join("link.txt")).unwrap();
            std::os::unix::fs::symlink(&dir, inner.join("up")).unwrap();
            assert!(
                resolve(&inner, "link.txt")
                    .unwrap_err()
                    .contains("link out")
            );
            assert!(
                resolve(&inner, "up/secret.txt")
                    .unwrap_err()
                    .contains("link out")
            );
            assert!(
                resolve(&inner, "up/new.txt")
                    .unwrap_err()
                    .contains("link out")
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
