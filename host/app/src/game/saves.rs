//! Where a game's battery save lives, and what it is called.
//!
//! **Name.** `game.gb` saves to `game.sav` (mGBA's convention). A patched game saves to
//! `game+PATCH.sav`, with the file stem of each patch applied, in order (`game.gb --patch
//! tr.ips --patch fix.bps` → `game+tr+fix.sav`; the automatic `game.ips` → `game+game.sav`),
//! so a hack's save never overwrites the unpatched game's, and two hacks of one game keep
//! two saves. A hack's new version under the same patch name keeps its save.
//!
//! **Folder**, the first that applies:
//! 1. the config key `saves_dir` (every battery save goes there; created when needed);
//! 2. the ROM's folder, when gbhost can write there (asked of the kernel: nothing is
//!    written to find out);
//! 3. the data folder: `$XDG_DATA_HOME/gbhost/saves/` (else `~/.local/share/gbhost/saves/`;
//!    `GBHOST_SAVES_DIR` names another), said on the console and in the status bar. A save
//!    already beside the ROM in a folder that is read-only is loaded from there when the data
//!    folder has none yet, and written to the data folder from then on. Saves there are known
//!    by file name only: two ROMs of one name in two read-only folders share one.
//!
//! **Player 2** of a linked pair saves where its own ROM's save goes, except when both
//! players run one ROM file: then `game.p2.sav` ([`for_player_2`]).
//!
//! Only where is decided here; reading and writing (atomically) are `battery.rs`.

use std::path::{Path, PathBuf};

/// The environment variable that names the fallback saves folder (tests use it).
pub const SAVES_ENV: &str = "GBHOST_SAVES_DIR";

/// Where a game's battery save is read and written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The file written (and read, when it exists).
    pub path: PathBuf,
    /// A file to read the save from when `path` does not exist yet (a save beside a ROM in
    /// a read-only folder).
    pub read_from: Option<PathBuf>,
    /// Why the save is not beside the ROM, for the console and status bar.
    pub note: Option<String>,
    /// Where the save goes instead when writing beside the ROM fails after all (a folder the
    /// kernel said was writable but is not: a special file system, a read-only mount).
    pub fallback: Option<PathBuf>,
}

/// The battery file's name for `rom` with `patches` applied (see the module docs).
pub fn file_name(rom: &Path, patches: &[PathBuf]) -> String {
    let stem = |p: &Path| {
        p.file_stem()
            .map_or_else(|| "game".to_owned(), |s| s.to_string_lossy().into_owned())
    };
    let mut name = stem(rom);
    for p in patches {
        name.push('+');
        name.push_str(&stem(p));
    }
    name.push_str(".sav");
    name
}

/// The fallback folder for saves beside a ROM gbhost cannot write: `GBHOST_SAVES_DIR`, else
/// `$XDG_DATA_HOME/gbhost/saves`, else `~/.local/share/gbhost/saves`.
pub fn data_saves_dir() -> Option<PathBuf> {
    crate::config::data_dir(SAVES_ENV, "saves")
}

/// Whether gbhost can create files in `dir`: asked of the kernel (`access(2)` with `W_OK`
/// and `X_OK`), so nothing is written into the folder to find out.
pub fn writable(dir: &Path) -> bool {
    use rustix::fs::{Access, access};
    access(dir, Access::WRITE_OK | Access::EXEC_OK).is_ok()
}

/// Where the battery save of `rom` (with `patches`) goes: see the module docs.
/// `saves_dir` is the configured folder.
pub fn locate(rom: &Path, patches: &[PathBuf], saves_dir: Option<&Path>) -> Place {
    let folder = rom
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    decide(
        &folder,
        &file_name(rom, patches),
        saves_dir,
        || writable(&folder),
        data_saves_dir(),
    )
}

/// Where a linked pair's second player's save goes, given where its own ROM's would
/// (`place`) and player 1's (`first`): the same, unless that is player 1's file (both run
/// one ROM file), then `game.p2.sav` beside it (each folder and fallback the same way), so
/// that two copies of one game keep two saves.
pub fn for_player_2(place: Place, first: Option<&Place>) -> Place {
    if first.is_none_or(|f| f.path != place.path) {
        return place;
    }
    let p2 = |p: &Path| {
        let stem = p
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        p.with_file_name(format!("{stem}.p2.sav"))
    };
    Place {
        path: p2(&place.path),
        // Player 1's save beside a read-only ROM is not player 2's.
        read_from: place.read_from.as_deref().map(p2),
        note: place.note,
        fallback: place.fallback.as_deref().map(p2),
    }
}

/// [`locate`] with its facts given: the ROM's folder, the file name, the configured folder,
/// whether the ROM's folder is writable (asked only when it matters), and the data folder.
fn decide(
    rom_dir: &Path,
    name: &str,
    saves_dir: Option<&Path>,
    rom_dir_writable: impl FnOnce() -> bool,
    data_dir: Option<PathBuf>,
) -> Place {
    if let Some(dir) = saves_dir {
        return Place {
            path: dir.join(name),
            read_from: None,
            note: None,
            fallback: None,
        };
    }
    let beside = rom_dir.join(name);
    if rom_dir_writable() {
        return Place {
            path: beside,
            read_from: None,
            note: None,
            fallback: data_dir.map(|d| d.join(name)),
        };
    }
    let Some(dir) = data_dir else {
        // Nowhere else to go: keep the old place (writes will fail and say so).
        return Place {
            path: beside,
            read_from: None,
            fallback: None,
            note: Some(format!(
                "the ROM's folder '{}' is not writable and there is no data folder (HOME is unset): battery saves will fail",
                rom_dir.display()
            )),
        };
    };
    let path = dir.join(name);
    let read_from = (!path.exists() && beside.is_file()).then_some(beside);
    Place {
        fallback: None,
        note: Some(format!(
            "saves in '{}' (the ROM's folder is not writable)",
            dir.display()
        )),
        path,
        read_from,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("gbhost-saves-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn patched_games_save_under_their_patches_names() {
        let rom = Path::new("/games/Tobu.gb");
        assert_eq!(file_name(rom, &[]), "Tobu.sav");
        assert_eq!(
            file_name(rom, &[PathBuf::from("tr.ips"), PathBuf::from("x/fix.bps")]),
            "Tobu+tr+fix.sav"
        );
        assert_eq!(
            file_name(rom, &[PathBuf::from("/games/Tobu.ips")]),
            "Tobu+Tobu.sav"
        );
    }

    #[test]
    fn the_configured_folder_wins_then_the_roms_then_the_data_folder() {
        let roms = Path::new("/roms");
        let data = Some(PathBuf::from("/data/saves"));
        let mine = Path::new("/mine");
        let p = decide(
            roms,
            "g.sav",
            Some(mine),
            || panic!("not asked"),
            data.clone(),
        );
        assert_eq!(p.path, mine.join("g.sav"));
        let p = decide(roms, "g.sav", None, || true, data.clone());
        assert_eq!((p.path, p.note), (roms.join("g.sav"), None));
        let p = decide(roms, "g.sav", None, || false, data);
        assert_eq!(p.path, Path::new("/data/saves/g.sav"));
        assert!(p.note.unwrap().contains("/data/saves"));
    }

    /// A save beside a ROM in a folder gbhost cannot write is read from there until the data
    /// folder has one.
    #[test]
    fn a_read_only_save_beside_the_rom_is_read_until_one_is_written() {
        let d = dir("ro");
        std::fs::write(d.join("g.sav"), [1]).unwrap();
        let data = d.join("data");
        let p = decide(&d, "g.sav", None, || false, Some(data.clone()));
        assert_eq!(p.read_from, Some(d.join("g.sav")));
        std::fs::create_dir_all(&data).unwrap();
        std::fs::write(data.join("g.sav"), [2]).unwrap();
        let p = decide(&d, "g.sav", None, || false, Some(data));
        assert_eq!(p.read_from, None);
        let _ = std::fs::remove_dir_all(&d);
    }

    /// A folder with mode 0555 is not writable, except for root, whom chmod does not stop
    /// (then only the writable case is checked).
    #[cfg(unix)]
    #[test]
    fn a_read_only_folder_is_found_unwritable() {
        use std::os::unix::fs::PermissionsExt;
        let d = dir("probe");
        assert!(writable(&d));
        std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o555)).unwrap();
        let probe = d.join("root-check");
        let privileged = std::fs::write(&probe, b"x").is_ok();
        if privileged {
            let _ = std::fs::remove_file(&probe);
            eprintln!("running as root: chmod 0555 does not block writes; skipped");
        } else {
            assert!(!writable(&d));
        }
        assert!(!writable(&d.join("no-such-folder")));
        std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o755)).unwrap();
        let _ = std::fs::remove_dir_all(&d);
    }
}
