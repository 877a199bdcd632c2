//! The user's state key: the secret that seals the scripts' portable VM images in state files
//! and movies (`lua_rollback::ImageKey`).
//!
//! Loading a VM image is loading a heap, so gbhost restores one only when it carries a MAC
//! made with this key: files the user saved themselves, in any process, restore their scripts
//! exactly; a file from anyone else (or altered) restarts its scripts from their `persist`
//! data. The key is 32 random bytes in a file readable only by the user, created on first use:
//! `$GBHOST_STATE_KEY` if set (a path), else `$XDG_CONFIG_HOME/gbhost/state.key`, else
//! `~/.config/gbhost/state.key`.
//!
//! Invariant: a key file, once created, is never replaced (two processes creating it at once
//! end up with the same one: the file appears by an exclusive link).

use std::io::Read;
use std::path::{Path, PathBuf};

pub use lua_rollback::{ImageKey, verify_image};

/// Why the key cannot be had.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// No place for the key: neither `GBHOST_STATE_KEY`, `XDG_CONFIG_HOME` nor `HOME` is set.
    #[error("no place for the state key (set GBHOST_STATE_KEY, XDG_CONFIG_HOME or HOME)")]
    NoPlace,
    /// Reading or creating the file failed.
    #[error("state key {path}: {source}")]
    Io {
        /// The key file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is not 32 bytes.
    #[error("state key {0} is not a key (32 bytes); remove it to make a new one")]
    Malformed(PathBuf),
}

/// Where this user's key lives.
pub fn key_path() -> Result<PathBuf, KeyError> {
    if let Some(p) = std::env::var_os("GBHOST_STATE_KEY") {
        return Ok(PathBuf::from(p));
    }
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))
        .ok_or(KeyError::NoPlace)?;
    Ok(config.join("gbhost").join("state.key"))
}

/// This user's key, created if there is none yet.
pub fn user_key() -> Result<ImageKey, KeyError> {
    load_or_create(&key_path()?)
}

/// The key in `path`, created (32 random bytes, mode 0600) if the file does not exist.
pub fn load_or_create(path: &Path) -> Result<ImageKey, KeyError> {
    let io = |source| KeyError::Io {
        path: path.to_owned(),
        source,
    };
    match std::fs::read(path) {
        Ok(bytes) => return parse(path, &bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io(e)),
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let mut key = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut key))
        .map_err(io)?;
    let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
    let written = (|| {
        use std::io::Write;
        let mut opts = std::fs::OpenOptions::new();
        opts.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
        let mut f = opts.open(&tmp)?;
        f.write_all(&key)?;
        f.sync_all()?;
        // An exclusive link: if another process made the key meanwhile, keep theirs.
        match std::fs::hard_link(&tmp, path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
            Err(e) => Err(e),
        }
    })();
    let _ = std::fs::remove_file(&tmp);
    written.map_err(io)?;
    parse(path, &std::fs::read(path).map_err(io)?)
}

fn parse(path: &Path, bytes: &[u8]) -> Result<ImageKey, KeyError> {
    <[u8; 32]>::try_from(bytes)
        .map(ImageKey::from_bytes)
        .map_err(|_| KeyError::Malformed(path.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_created_once_and_read_back() {
        let dir = std::env::temp_dir().join(format!("gbhost-key-{}", std::process::id()));
        let path = dir.join("sub").join("state.key");
        let _ = std::fs::remove_dir_all(&dir);
        load_or_create(&path).unwrap();
        let first = std::fs::read(&path).unwrap();
        assert_eq!(first.len(), 32);
        assert_ne!(first, [0; 32]);
        load_or_create(&path).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), first, "never replaced");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "readable by the user only");
        }
        std::fs::write(&path, b"short").unwrap();
        assert!(matches!(load_or_create(&path), Err(KeyError::Malformed(_))));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
