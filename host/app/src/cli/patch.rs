//! `gbhost patch apply|create`: ROM patches from the command line (`gb_session::patch` is the
//! format code): apply an IPS, UPS or BPS patch to a ROM, or create a BPS patch from a ROM and
//! its hacked version.

use std::path::PathBuf;

use anyhow::{Context, Result};

/// `gbhost patch …`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(clap::Subcommand, Debug)]
enum Cmd {
    /// Apply an IPS, UPS or BPS patch to ROM, writing OUT (UPS and BPS check their CRC32s).
    Apply {
        /// The original ROM.
        rom: PathBuf,
        /// The patch.
        patch: PathBuf,
        /// The patched ROM to write.
        out: PathBuf,
    },
    /// Create a BPS patch that turns ROM into TARGET.
    Create {
        /// The original ROM.
        rom: PathBuf,
        /// The hacked ROM.
        target: PathBuf,
        /// The patch to write (.bps).
        out: PathBuf,
    },
}

fn read(p: &PathBuf) -> Result<Vec<u8>> {
    std::fs::read(p).with_context(|| format!("cannot read '{}'", p.display()))
}

/// Run `gbhost patch …`.
pub fn run(args: &Args) -> Result<()> {
    match &args.cmd {
        Cmd::Apply { rom, patch, out } => {
            let bytes = gb_session::patch::apply(&read(rom)?, &read(patch)?)
                .with_context(|| format!("cannot apply '{}'", patch.display()))?;
            gb_session::files::write_atomic(out, &bytes)
                .with_context(|| format!("cannot write '{}'", out.display()))?;
            println!(
                "patched: {} bytes written to {}",
                bytes.len(),
                out.display()
            );
        }
        Cmd::Create { rom, target, out } => {
            let patch = gb_session::patch::create_bps(&read(rom)?, &read(target)?, "");
            gb_session::files::write_atomic(out, &patch)
                .with_context(|| format!("cannot write '{}'", out.display()))?;
            println!("created: {} bytes (BPS) in {}", patch.len(), out.display());
        }
    }
    Ok(())
}
