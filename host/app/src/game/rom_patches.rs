//! ROM patches applied as a ROM loads (IPS, UPS, BPS: `gb_session::patch`), and the rule
//! that picks them:
//!
//! - `--patch FILE` (repeatable) names patches, applied in the order given, each to the
//!   output of the one before;
//! - with no `--patch`, a patch beside the ROM is applied automatically, as mGBA does:
//!   `game.ips`, `game.ups` or `game.bps` for `game.gb` (the first that exists, in that
//!   order);
//! - an explicit `--patch` **replaces** the automatic one (mGBA's rule too): the patch beside
//!   the ROM is then not applied, and stderr says it was skipped.
//!
//! A patch that cannot be read or does not apply is an error naming the file and what is
//! wrong; nothing runs on a half-patched ROM and nothing is written (the ROM file is never
//! changed). What was applied is said on stderr and kept ([`Patched::applied`]) for the app's
//! status bar and for naming the game's battery save (`saves.rs`).

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// The extensions of patch files, in the order the automatic patch is looked for.
pub const EXTENSIONS: [&str; 3] = ["ips", "ups", "bps"];

/// `--patch`, flattened into every command that loads a ROM.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct PatchArgs {
    /// Apply this IPS, UPS or BPS patch to the ROM as it loads, in memory (repeatable: applied
    /// in the order given). Without --patch a patch beside the ROM (`game.ips`, `.ups` or
    /// `.bps` for `game.gb`) is applied automatically; an explicit --patch replaces that one.
    /// States and movies belong to the patched ROM; its battery save is `game+PATCH.sav`.
    #[arg(long = "patch", value_name = "FILE")]
    pub patches: Vec<PathBuf>,
}

/// A ROM image after its patches.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Patched {
    /// The patched bytes.
    pub bytes: Vec<u8>,
    /// The patches applied, in order (empty: the ROM as it is).
    pub applied: Vec<PathBuf>,
    /// The patch was the automatic one beside the ROM.
    pub automatic: bool,
}

impl Patched {
    /// One line for the status bar and console: `patched: game.ips (beside the ROM)`, or
    /// None when nothing was applied.
    pub fn note(&self) -> Option<String> {
        if self.applied.is_empty() {
            return None;
        }
        let names: Vec<String> = self.applied.iter().map(|p| file_name(p)).collect();
        Some(format!(
            "patched: {}{}",
            names.join(" + "),
            if self.automatic {
                " (beside the ROM)"
            } else {
                ""
            }
        ))
    }
}

/// A path's file name (the whole path when it has none).
pub fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The patch beside `rom` that would be applied automatically, if there is one.
pub fn beside(rom: &Path) -> Option<PathBuf> {
    EXTENSIONS
        .iter()
        .map(|ext| rom.with_extension(ext))
        .find(|p| p.is_file())
}

/// Apply the patches to the ROM `bytes` read from `rom`: `explicit` in order, or (when it is
/// empty) the one beside the ROM. Says on stderr what was applied (and an automatic patch
/// that an explicit one replaced).
pub fn apply(rom: &Path, bytes: Vec<u8>, explicit: &[PathBuf]) -> Result<Patched> {
    let auto = beside(rom);
    let (list, automatic) = if explicit.is_empty() {
        (auto.into_iter().collect::<Vec<_>>(), true)
    } else {
        if let Some(a) = auto.filter(|a| !explicit.contains(a)) {
            eprintln!(
                "gbhost: not applying '{}' beside the ROM: --patch replaces it",
                a.display()
            );
        }
        (explicit.to_vec(), false)
    };
    let mut bytes = bytes;
    for patch in &list {
        bytes = apply_one(rom, &bytes, patch, automatic)?;
        eprintln!(
            "gbhost: applied the patch '{}' to '{}'",
            patch.display(),
            rom.display()
        );
    }
    Ok(Patched {
        bytes,
        automatic: automatic && !list.is_empty(),
        applied: list,
    })
}

/// One patch applied to `bytes`, with an error naming the patch and what is wrong.
fn apply_one(rom: &Path, bytes: &[u8], patch: &Path, automatic: bool) -> Result<Vec<u8>> {
    let data = std::fs::read(patch)
        .with_context(|| format!("cannot read the patch '{}'", patch.display()))?;
    gb_session::patch::apply(bytes, &data).with_context(|| {
        if automatic {
            format!(
                "the patch '{}' beside the ROM does not apply (move it away to run the ROM as it is)",
                patch.display()
            )
        } else {
            format!(
                "the patch '{}' does not apply to '{}'",
                patch.display(),
                rom.display()
            )
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("gbhost-patches-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// An IPS that writes `bytes` at `offset`.
    fn ips(offset: u32, bytes: &[u8]) -> Vec<u8> {
        let mut p = b"PATCH".to_vec();
        p.extend_from_slice(&offset.to_be_bytes()[1..]);
        p.extend_from_slice(&(bytes.len() as u16).to_be_bytes());
        p.extend_from_slice(bytes);
        p.extend_from_slice(b"EOF");
        p
    }

    #[test]
    fn explicit_patches_apply_in_order_and_replace_the_one_beside_the_rom() {
        let d = dir("order");
        let rom = d.join("game.gb");
        std::fs::write(&rom, [0u8; 16]).unwrap();
        std::fs::write(d.join("game.ips"), ips(0, &[9])).unwrap();
        std::fs::write(d.join("a.ips"), ips(1, &[1, 1])).unwrap();
        std::fs::write(d.join("b.ips"), ips(2, &[2])).unwrap();
        let auto = apply(&rom, vec![0; 16], &[]).unwrap();
        assert_eq!(auto.bytes[..3], [9, 0, 0]);
        assert!(auto.automatic);
        assert_eq!(auto.note().unwrap(), "patched: game.ips (beside the ROM)");
        let both = apply(&rom, vec![0; 16], &[d.join("a.ips"), d.join("b.ips")]).unwrap();
        assert_eq!(
            both.bytes[..3],
            [0, 1, 2],
            "in order, the automatic one not applied"
        );
        assert!(!both.automatic);
        assert_eq!(both.note().unwrap(), "patched: a.ips + b.ips");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_bad_patch_is_an_error_naming_it() {
        let d = dir("bad");
        let rom = d.join("game.gb");
        std::fs::write(d.join("junk.ips"), b"not a patch").unwrap();
        let e = format!(
            "{:#}",
            apply(&rom, vec![0; 16], &[d.join("junk.ips")]).unwrap_err()
        );
        assert!(e.contains("junk.ips") && e.contains("not a patch"), "{e}");
        let e = format!(
            "{:#}",
            apply(&rom, vec![0; 16], &[d.join("missing.bps")]).unwrap_err()
        );
        assert!(
            e.contains("cannot read the patch") && e.contains("missing.bps"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&d);
    }
}
