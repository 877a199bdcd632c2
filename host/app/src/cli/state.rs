//! `gbhost state save|info|export-bess|import-bess`: save-state files from the command line.
//!
//! Output contract: `save` prints `state: FILE, frame N`; `info` prints `key: value` lines;
//! `export-bess` and `import-bess` print `wrote FILE (N bytes)`. Exit 2 on a bad file, with
//! the reason.

use std::path::PathBuf;

use anyhow::{Context, Result};
use gb_session::state::file::{Meta, StateFile};
use gb_session::{Session, SessionConfig};

/// Arguments of `gbhost state`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(clap::Subcommand, Debug)]
enum Sub {
    /// Run a ROM headless for some frames (with scripts) and save a state file.
    Save {
        /// The ROM.
        rom: PathBuf,
        /// Frames to run first.
        #[arg(long, default_value_t = 600)]
        frames: u64,
        /// Scripts to load at the start (repeatable).
        #[arg(long, value_name = "FILE.lua")]
        script: Vec<PathBuf>,
        /// The state file to write (atomically).
        #[arg(long)]
        out: PathBuf,
        /// Run a second Game Boy on a link cable with this ROM (the same power-on options):
        /// the file holds the pair, and loads only into a pair of the same two games.
        #[arg(long, value_name = "ROM2")]
        link: Option<PathBuf>,
        #[command(flatten)]
        power: crate::game::rom::PowerArgs,
        #[command(flatten)]
        patch: crate::game::rom_patches::PatchArgs,
    },
    /// Print what a state file holds.
    Info {
        /// The state file.
        state: PathBuf,
    },
    /// Write a state's core as a BESS file (SameBoy's format).
    ExportBess {
        /// The ROM the state is of.
        rom: PathBuf,
        /// The gbhost state file.
        state: PathBuf,
        /// The BESS file to write.
        out: PathBuf,
        #[command(flatten)]
        patch: crate::game::rom_patches::PatchArgs,
    },
    /// Read a BESS file (from SameBoy or gbhost) into a gbhost state file.
    ImportBess {
        /// The ROM the state is of.
        rom: PathBuf,
        /// The BESS file.
        bess: PathBuf,
        /// The gbhost state file to write.
        out: PathBuf,
        #[command(flatten)]
        patch: crate::game::rom_patches::PatchArgs,
    },
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn session(
    rom: &std::path::Path,
    link: Option<&std::path::Path>,
    power: crate::game::rom::PowerArgs,
    patches: &[PathBuf],
) -> Result<Session> {
    let bytes = crate::game::rom::read(rom, power.force, patches)?;
    let config = SessionConfig {
        force_unsupported: power.force,
        desync_check: false,
        ring_bytes: 4 << 20,
        image_key: crate::state_key::get(),
        ..SessionConfig::default()
    };
    crate::scripted::power_on(rom, bytes, link, power, None, config)
}

/// Run `gbhost state …`.
pub fn run(args: &Args) -> Result<()> {
    match &args.command {
        Sub::Save {
            rom,
            frames,
            script,
            out,
            link,
            power,
            patch,
        } => {
            let mut s = session(rom, link.as_deref(), *power, &patch.patches)?;
            crate::scripted::load_scripts(&mut s, script, None)?;
            for _ in 0..*frames {
                s.run_frame();
            }
            s.state_file(now(), false).write(out)?;
            println!("state: {}, frame {}", out.display(), s.frame());
            Ok(())
        }
        Sub::Info { state } => {
            let f = StateFile::read(state)?;
            println!("rom: {} ({:016x})", f.meta.rom_title, f.meta.rom_hash);
            println!("model: {}", f.meta.model);
            if let Some(l) = &f.link {
                println!(
                    "player 2: {} ({:016x}), {} (a linked pair: load it with --link)",
                    l.rom_title, l.rom_hash, l.model
                );
            }
            println!("frame: {}", f.meta.frame);
            println!("saved: {} (unix time)", f.meta.unix_time);
            println!("build: {}", f.meta.build);
            println!("core bytes: {}", f.core.len());
            for s in &f.scripts {
                println!(
                    "script {}: {} ({:?}, {} persist keys)",
                    s.slot,
                    s.name,
                    s.flavor,
                    s.persist.len()
                );
            }
            println!("log events: {}", f.log.len());
            println!(
                "thumbnail: {}",
                if f.thumbnail.is_some() { "yes" } else { "no" }
            );
            println!(
                "script arenas: {}",
                if f.arenas.is_some() {
                    "yes (restored exactly only by the session that saved them)"
                } else {
                    "no"
                }
            );
            println!("scripts restore: {}", scripts_restore(&f));
            Ok(())
        }
        Sub::ExportBess {
            rom,
            state,
            out,
            patch,
        } => {
            let f = StateFile::read(state)?;
            // The session the file starts checks the ROM, the model and the image, as a load does.
            let bytes = crate::game::rom::read(rom, false, &patch.patches)?;
            let s = Session::from_state_file(bytes, None, SessionConfig::default(), &f)
                .with_context(|| format!("{} cannot be loaded", state.display()))?;
            let bytes = gb_core::bess::export_with_timestamp(s.gb(), f.meta.unix_time);
            gb_session::files::write_atomic(out, &bytes)
                .with_context(|| format!("cannot write {}", out.display()))?;
            println!("wrote {} ({} bytes)", out.display(), bytes.len());
            Ok(())
        }
        Sub::ImportBess {
            rom,
            bess,
            out,
            patch,
        } => {
            let data = std::fs::read(bess).with_context(|| format!("{}", bess.display()))?;
            let (model, gb) = import_bess(rom, &data, &patch.patches)
                .with_context(|| format!("{} cannot be imported", bess.display()))?;
            let mut core = Vec::new();
            gb.save_state(&mut core);
            let file = StateFile {
                meta: Meta {
                    rom_hash: gb_session::fnv1a(gb.cartridge().rom()),
                    rom_title: gb.cartridge().header().title.clone(),
                    model: model.name().into(),
                    frame: 0,
                    unix_time: now(),
                    build: concat!("gbhost ", env!("CARGO_PKG_VERSION"), " (from BESS)").into(),
                },
                core,
                scripts: Vec::new(),
                sources: Vec::new(),
                log: Vec::new(),
                thumbnail: None,
                arenas: None,
                images: Vec::new(),
                link: None,
            };
            // What was written is what a load accepts.
            Session::from_state_file(
                crate::game::rom::read(rom, false, &patch.patches)?,
                None,
                SessionConfig::default(),
                &file,
            )
            .with_context(|| {
                format!("{} converts to a state gbhost cannot load", bess.display())
            })?;
            file.write(out)?;
            println!(
                "wrote {} ({} bytes, {})",
                out.display(),
                file.encode().len(),
                model.name()
            );
            Ok(())
        }
    }
}

/// `data` imported into a machine running `rom`, of the model the file is for: the one the
/// ROM's header picks, or the other one when the file names it (a DMG game saved on a CGB).
fn import_bess(
    rom: &std::path::Path,
    data: &[u8],
    patches: &[PathBuf],
) -> Result<(gb_core::Model, gb_core::Gb)> {
    // The machine of a model (`None`: the one the header picks), as a session powers it on.
    let machine = |model: Option<gb_core::Model>| -> Result<(gb_core::Model, gb_core::Gb)> {
        let power = crate::game::rom::PowerArgs {
            model: model.map(gb_core::ModelChoice::Fixed),
            ..crate::game::rom::PowerArgs::default()
        };
        let s = session(rom, None, power, patches)?;
        Ok((s.start_params().model, s.gb().clone()))
    };
    let (auto, mut gb) = machine(None)?;
    match gb_core::bess::import(&mut gb, data) {
        Ok(()) => return Ok((auto, gb)),
        Err(gb_core::bess::BessError::WrongModel { .. }) => {}
        Err(e) => return Err(e.into()),
    }
    let other = match auto {
        gb_core::Model::Dmg => gb_core::Model::Cgb,
        gb_core::Model::Cgb => gb_core::Model::Dmg,
    };
    let (_, mut gb) = machine(Some(other))?;
    gb_core::bess::import(&mut gb, data)?;
    Ok((other, gb))
}

/// Whether a load restores `f`'s scripts exactly here, and if not, why.
fn scripts_restore(f: &StateFile) -> String {
    if f.scripts.is_empty() {
        return "no scripts".into();
    }
    let verdict = match crate::state_key::get() {
        Some(k) => f.images_sealed_with(&k),
        None => Err("no state key here".to_owned()),
    };
    match verdict {
        Ok(()) => format!(
            "exactly ({} script{}: portable images sealed with your key)",
            f.scripts.len(),
            if f.scripts.len() == 1 { "" } else { "s" }
        ),
        Err(why) => format!("restart from persist data ({why})"),
    }
}
