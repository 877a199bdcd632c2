//! Loading a ROM file (and optional boot ROM) into a [`Gb`], with clear errors, and the
//! power-on options every command that runs a ROM takes ([`PowerArgs`]). Patches are applied
//! as the ROM is read (`rom_patches.rs`).

use crate::game::rom_patches::Patched;
use anyhow::{Context, Result};
use gb_core::{Boot, Cartridge, DmgPalette, Gb, ModelChoice, RamInit};
use std::path::{Path, PathBuf};

/// The extensions of ROM files, for file dialogs and files dropped on the window (a ROM
/// given by path may have any name).
pub const EXTENSIONS: [&str; 5] = ["gb", "gbc", "sgb", "cgb", "dmg"];

/// How the machine powers on (flattened into every command that runs a ROM).
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct PowerArgs {
    /// What work RAM, HRAM and OAM hold at power-on: `pattern` (like hardware: mostly random
    /// bits with structure, from a fixed seed), `zero`, `random` (a new seed each run, printed
    /// on stderr so the run can be repeated), or a seed (decimal or 0x-hex). Movies record it.
    #[arg(long, value_name = "pattern|zero|random|SEED", default_value = "pattern", value_parser = parse_ram_init)]
    pub ram_init: RamInit,
    /// The model: `auto` (the Game Boy Color for cartridges whose header asks for it, else the
    /// original Game Boy; the default, or the app's configured one), `dmg` or `cgb`.
    #[arg(long, value_name = "auto|dmg|cgb", value_parser = parse_model)]
    pub model: Option<ModelChoice>,
    /// On the Game Boy Color, the palette a DMG game gets: `auto` (what the CGB's boot ROM
    /// picks from the title) or one of the 12 button combinations held at power-on (`1`-`12`
    /// or its buttons: `right`, `left+a`, `down+b`, …).
    #[arg(long, value_name = "auto|1-12|BUTTONS", default_value = "auto", value_parser = parse_dmg_palette)]
    pub dmg_palette: DmgPalette,
    /// Run a cartridge whose type gbhost does not emulate (MBC6, MBC7, Pocket Camera, HuC1,
    /// HuC3, TAMA5, MMM01) anyway, with the emulated mapper whose banking is closest; what
    /// only the real one does is missing. Without it such a ROM is refused (exit 2).
    #[arg(long)]
    pub force: bool,
}

/// Parse `--dmg-palette`.
pub fn parse_dmg_palette(s: &str) -> Result<DmgPalette, String> {
    DmgPalette::parse(s).ok_or_else(|| {
        format!(
            "'{s}' is not auto, 1-12 or one of {}",
            DmgPalette::COMBOS.join(", ").to_ascii_lowercase()
        )
    })
}

/// Parse `--model`.
pub fn parse_model(s: &str) -> Result<ModelChoice, String> {
    ModelChoice::parse(s).ok_or_else(|| format!("'{s}' is not auto, dmg or cgb"))
}

impl PowerArgs {
    /// The session's power-on parameters: these, with `boot_rom` if one runs.
    pub fn power_on(self, boot_rom: Option<Vec<u8>>) -> gb_session::PowerOn {
        gb_session::PowerOn {
            boot_rom,
            ram_init: self.ram_init,
            model: self.model.unwrap_or_default(),
            dmg_palette: self.dmg_palette,
            ..gb_session::PowerOn::default()
        }
    }
}

/// Parse `--ram-init`: `pattern`, `zero`, `random` (a seed drawn now and printed) or a seed.
pub fn parse_ram_init(s: &str) -> Result<RamInit, String> {
    match s {
        "pattern" | "default" => Ok(RamInit::default()),
        "zero" | "zeros" => Ok(RamInit::Zero),
        "random" => {
            let seed = random_seed();
            eprintln!(
                "gbhost: power-on RAM from seed {seed:#018x} (--ram-init {seed:#x} repeats it)"
            );
            Ok(RamInit::Pattern(seed))
        }
        _ => {
            let parsed = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => s.parse(),
            };
            parsed
                .map(RamInit::Pattern)
                .map_err(|_| format!("'{s}' is not pattern, zero, random or a seed number"))
        }
    }
}

/// A seed from the clock and the process (a power-on is not a secret: it only has to differ).
fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.write_u32(std::process::id());
    h.finish()
}

/// The cartridge in `bytes` (read from `path`), with a stand-in mapper for a type gbhost does
/// not emulate if `force`; a refused type's error says how to force it.
pub fn cartridge(path: &Path, bytes: Vec<u8>, force: bool) -> Result<Cartridge> {
    let built = if force {
        Cartridge::from_rom_forced(bytes)
    } else {
        Cartridge::from_rom(bytes)
    };
    built.map_err(|e| {
        let hint = match e {
            gb_core::cartridge::CartridgeError::Unsupported { .. } => {
                "; --force (in the app: Model ▸ Run unsupported cartridges) runs it with a stand-in mapper"
            }
            _ => "",
        };
        anyhow::anyhow!(
            "'{}' is not a usable Game Boy ROM: {e}{hint}",
            path.display()
        )
    })
}

/// Read `path`, apply its patches (`patches`, else the one beside it: see
/// [`crate::game::rom_patches`]) and build the machine around it; the header's oddities go to
/// stderr, one line each.
pub fn load(
    path: &Path,
    boot_rom: Option<&Path>,
    power: PowerArgs,
    patches: &[PathBuf],
) -> Result<Gb> {
    let bytes = read(path, power.force, patches)?;
    let cart = cartridge(path, bytes, power.force)?;
    let image = boot_rom
        .map(|b| {
            std::fs::read(b).with_context(|| format!("cannot read boot ROM '{}'", b.display()))
        })
        .transpose()?;
    let boot = Boot {
        model: power.model.unwrap_or_default().resolve(&cart),
        ram_init: power.ram_init,
        boot_rom: image.as_deref(),
        dmg_palette: power.dmg_palette,
        cgb_revision: gb_core::CgbRevision::default(),
        frame_rule: gb_core::FrameRule::default(),
    };
    Gb::power_on(cart, boot).with_context(|| format!("'{}' cannot be run", path.display()))
}

/// Read `path` as a ROM image for a session, patched (see [`read_patched`]) and checked the
/// same way as [`load`] (a type gbhost does not emulate only with `force`).
pub fn read(path: &Path, force: bool, patches: &[PathBuf]) -> Result<Vec<u8>> {
    Ok(read_patched(path, force, patches)?.bytes)
}

/// Read `path` as a ROM image with its patches applied: `patches` in order, or (none given)
/// the one beside the ROM; checked as a cartridge (a type gbhost does not emulate only with
/// `force`). Also says which patches were applied.
pub fn read_patched(path: &Path, force: bool, patches: &[PathBuf]) -> Result<Patched> {
    let bytes =
        std::fs::read(path).with_context(|| format!("cannot read ROM '{}'", path.display()))?;
    let patched = crate::game::rom_patches::apply(path, bytes, patches)?;
    let cart = cartridge(path, patched.bytes.clone(), force)?;
    warn(path, &cart);
    Ok(patched)
}

/// Read a boot ROM image (its size is checked when the machine is built).
pub fn read_boot(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("cannot read boot ROM '{}'", path.display()))
}

/// What a user should know about a cartridge that runs: the header oddities the core
/// accepted (bad checksums, size codes…) and hardware it asks for that gbhost does not
/// emulate (the Super Game Boy's borders and palettes).
pub fn notes(cart: &Cartridge) -> Vec<String> {
    let mut out: Vec<String> = cart.warnings().iter().map(ToString::to_string).collect();
    if cart.header().sgb_flag == 0x03 {
        out.push(
            "the game has Super Game Boy features (borders, palettes); gbhost does not emulate \
             the Super Game Boy, so it runs as on a Game Boy without them"
                .to_owned(),
        );
    }
    out
}

/// One stderr line per [`notes`] line.
fn warn(path: &Path, cart: &Cartridge) {
    for note in notes(cart) {
        eprintln!("gbhost: warning: '{}': {note}", path.display());
    }
}
