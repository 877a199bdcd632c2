//! `gbhost movie convert`: gbhost movies (`.gbm`) to BizHawk movies (`.bk2`) and back, with
//! the checks that make the result play the same there (the format itself is
//! `gb_session::movie::bk2`).
//!
//! Export needs the ROM: the `.bk2` names it by SHA-1, and its `CycleCount` comes from playing
//! the movie to its end (gbhost's T-cycles from the movie's first frame to the end of its last,
//! halved into Gambatte's 2 MiHz clock; frames × 70,224 would be wrong whenever the LCD is off
//! or a frame is cut short); the same playback measures each frame's lag, written as the
//! `LagLog` (unless the movie kept BizHawk's own). A movie that started with a boot ROM needs `--boot-rom` (its
//! SHA-1 goes in the header BizHawk checks); a post-boot movie of a cartridge BizHawk would
//! boot through the boot ROM anyway is refused without `--force` (see the `bk2` module's
//! docs). Import checks the `.bk2`'s SHA-1 against the ROM, honours its console and boot ROM
//! or refuses with the reason (GBA and SGB2 modes; equal-length frames), warns about sync
//! settings gbhost does not follow (the cartridge clock's start and divisor, multicart wiring),
//! and keeps its comments, subtitles, markers, lag log and Power presses in the new movie's
//! metadata (`bk2::Carried`). `--force` overrides the refusals that have a meaning (a ROM or
//! boot ROM mismatch, an unexportable start, equal-length frames, Power presses gbhost cannot
//! replay as resets).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, bail};
use gb_session::movie::bk2::{self, Bk2, Bk2Frame, Carried, GambatteSync};
use gb_session::movie::{self, Movie, Recorder};
use gb_session::{Session, SessionConfig};

/// What `convert` was given besides the two files.
pub struct Options<'a> {
    /// The ROM.
    pub rom: Option<&'a Path>,
    /// The boot ROM the movie starts with, if any.
    pub boot_rom: Option<&'a Path>,
    /// Convert despite a refusal that `--force` overrides.
    pub force: bool,
    /// Patches for the ROM (none: the one beside it, if any).
    pub patches: &'a [std::path::PathBuf],
}

/// The SHA-1 of `bytes`, upper-case hex (as BizHawk writes it).
fn sha1_hex(bytes: &[u8]) -> String {
    sha1_smol::Sha1::from(bytes)
        .digest()
        .to_string()
        .to_ascii_uppercase()
}

/// Stop with `why`, or with `--force` only warn.
fn refuse(force: bool, why: &str) -> Result<()> {
    if force {
        eprintln!("warning (--force): {why}");
        Ok(())
    } else {
        bail!("{why} (--force converts anyway)")
    }
}

fn config(force: bool) -> SessionConfig {
    SessionConfig {
        desync_check: false,
        ring_bytes: 16 << 20,
        image_key: crate::state_key::get(),
        force_unsupported: force,
        ..SessionConfig::default()
    }
}

/// `.gbm` → `.bk2`.
pub fn to_bk2(input: &Path, output: &Path, o: &Options<'_>) -> Result<()> {
    let Some(rom_path) = o.rom else {
        bail!(
            "converting to .bk2 needs --rom ROM: BizHawk finds the game by the ROM's SHA-1, and \
             the movie's length in cycles comes from playing it"
        );
    };
    let movie = Movie::open(input).with_context(|| format!("{}", input.display()))?;
    let rom = crate::game::rom::read(rom_path, o.force, o.patches)?;
    if let Err(e) = movie.check_rom(&rom) {
        refuse(o.force, &e.to_string())?;
    }
    let model = movie.model()?;
    let cgb = model == gb_core::Model::Cgb;
    if movie.header.frame_rule != gb_core::FrameRule::BizHawk {
        eprintln!(
            "warning: the movie counts frames by the {} rule (recorded before core version \
             2); BizHawk counts them otherwise while the LCD is off, so where the game switches \
             it off the .bk2's input may land on other frames in BizHawk",
            movie.header.frame_rule
        );
    }
    let (frames, lost) = movie.frame_buttons()?;
    if lost > 0 {
        eprintln!(
            "warning: {lost} events have no .bk2 form (sub-frame joypad changes are moved \
             to the next frame start; pokes and scripts are dropped)"
        );
    }
    let boot_rom = match &movie.header.start {
        movie::Start::PowerOn { boot_rom_hash, .. } => *boot_rom_hash,
        movie::Start::State(_) => {
            refuse(
                o.force,
                "the movie starts from a state, and a .bk2 of it would start at power-on",
            )?;
            None
        }
    };
    let carried = Carried::from_metadata(&movie.header.metadata)?;
    let mut bk2 = Bk2::gambatte(
        &movie.header.rom_title,
        &sha1_hex(&rom),
        model,
        frames
            .iter()
            .map(|&buttons| Bk2Frame {
                buttons,
                power: false,
            })
            .collect(),
    )
    .name_cgb_mode_for(&rom);
    let mut boot_image = None;
    match (boot_rom, o.boot_rom) {
        (Some(hash), Some(path)) => {
            let image = crate::game::rom::read_boot(path)?;
            if gb_session::fnv1a(&image) != hash {
                refuse(
                    o.force,
                    &format!(
                        "{} is not the boot ROM the movie started with",
                        path.display()
                    ),
                )?;
            }
            bk2 = bk2.with_boot_rom(&sha1_hex(&image));
            boot_image = Some(image);
        }
        (Some(_), None) => bail!(
            "the movie starts with a boot ROM: give it with --boot-rom FILE (BizHawk checks its \
             SHA-1)"
        ),
        (None, _) => {
            if bk2::bios_forced(&rom, cgb) {
                refuse(
                    o.force,
                    "the movie starts in the post-boot state, but BizHawk 2.9.2 and later run \
                     the boot ROM first for every movie of this cartridge (its header would boot \
                     on hardware), so there it would start ~2.5 s late and desync; only a movie \
                     that starts with the boot ROM exports faithfully",
                )?;
            }
        }
    }
    bk2.set_header("rerecordCount", &movie.header.rerecords.to_string());
    if !movie.header.authors.is_empty() {
        bk2.set_header("Author", &movie.header.authors.join(", "));
    }
    carried.apply(&mut bk2);
    match play_through(&movie, rom, boot_image) {
        Ok((cycles, lag)) => {
            bk2 = bk2.with_cycles(cycles);
            // The lag log gbhost measured, unless the movie kept BizHawk's own.
            if bk2.lag_log.is_none() {
                bk2.lag_log = Some(lag);
            }
        }
        Err(e) => eprintln!("warning: no CycleCount or lag log ({e:#})"),
    }
    let bytes = bk2::write(&bk2)?;
    gb_session::files::write_atomic(output, &bytes)?;
    eprintln!(
        "warning: BizHawk's Game Boy cores time input differently; the movie may desync there"
    );
    println!("converted: {} frames", frames.len());
    Ok(())
}

/// The movie's length in Gambatte's clock ([`bk2::CLOCK_RATE`]: its T-cycles from its start
/// to the end of its last frame, halved) and its lag frames (frame from the movie's start →
/// lagged), found by playing it (with the desync detector, and with the boot ROM it started
/// with).
fn play_through(
    movie: &Movie,
    rom: Vec<u8>,
    boot_rom: Option<Vec<u8>>,
) -> Result<(u64, bk2::LagLog)> {
    let mut session = match (&movie.header.start, boot_rom) {
        (
            movie::Start::PowerOn {
                battery,
                ram_init,
                dmg_palette,
                ..
            },
            Some(boot_rom),
        ) => {
            let power = gb_session::PowerOn {
                boot_rom: Some(boot_rom),
                battery: battery.clone(),
                ram_init: *ram_init,
                dmg_palette: *dmg_palette,
                model: gb_core::ModelChoice::Fixed(movie.model()?),
                frame_rule: movie.header.frame_rule,
            };
            Session::power_on(rom, power, config(true))?
        }
        _ => movie.session(rom, config(true))?,
    };
    let start = session.gb().cycles();
    let mut feeder = movie::Feeder::new();
    let mut lag = bk2::LagLog::new();
    let mut f = 0u32;
    while feeder.feed(movie, &mut session)? == movie::Feed::Playing {
        session.run_frame();
        lag.insert(f, session.gb().lagged());
        f = f.saturating_add(1);
    }
    if let Some(d) = feeder.desync {
        bail!("the movie desyncs in gbhost at frame {}", d.frame);
    }
    Ok((session.gb().cycles().saturating_sub(start) / 2, lag))
}

/// `.bk2` → `.gbm`.
pub fn to_gbm(input: &Path, output: &Path, o: &Options<'_>) -> Result<()> {
    let Some(rom_path) = o.rom else {
        bail!("converting to .gbm needs --rom ROM (the movie is played to record it)");
    };
    let bk2 = bk2::read(&std::fs::read(input)?)
        .with_context(|| format!("{} is not a usable .bk2", input.display()))?;
    let rom = crate::game::rom::read(rom_path, o.force, o.patches)?;
    match bk2
        .header_value("SHA1")
        .map(str::trim)
        .filter(|h| !h.is_empty())
    {
        Some(theirs) => {
            let ours = sha1_hex(&rom);
            if !theirs.eq_ignore_ascii_case(&ours) {
                refuse(
                    o.force,
                    &format!(
                        "the movie was made on a ROM with SHA-1 {theirs}, and {} has SHA-1 {ours}",
                        rom_path.display()
                    ),
                )?;
            }
        }
        None => eprintln!("warning: the movie names no ROM (no SHA1): it may be of another game"),
    }
    if bk2.sync_settings.trim().is_empty() {
        eprintln!(
            "warning: the movie has no sync settings (BizHawk would play it with the user's \
             own): assuming Gambatte's defaults"
        );
    }
    let model = bk2.console()?;
    let sync = GambatteSync::parse(&bk2.sync_settings)?;
    if sync.frame_length != 0 {
        refuse(
            o.force,
            "the movie's frames are of equal length (Gambatte's FrameLength 1 or 2), and \
             gbhost's end at VBlank (FrameLength 0): its input would land on other frames",
        )?;
    }
    if sync.initial_time != 0 || sync.rtc_divisor_offset != 0 {
        eprintln!(
            "warning: the movie's cartridge clock starts at {} s with divisor offset {}; gbhost's \
             does not follow these, so a game that reads its clock may desync",
            sync.initial_time, sync.rtc_divisor_offset
        );
    }
    if sync.multicart_compat {
        eprintln!("warning: the movie uses MulticartCompat wiring, which gbhost does not emulate");
    }
    let boot_rom = match bk2.boot_rom()? {
        None => None,
        Some(hash) => {
            let Some(path) = o.boot_rom else {
                bail!(
                    "the movie starts with the official boot ROM (its firmware header or \
                     EnableBIOS say so): give it with --boot-rom FILE"
                );
            };
            let image = crate::game::rom::read_boot(path)?;
            if let Some(theirs) = hash
                && !theirs.eq_ignore_ascii_case(&sha1_hex(&image))
            {
                refuse(
                    o.force,
                    &format!(
                        "the movie's boot ROM has SHA-1 {theirs}, and {} has SHA-1 {}",
                        path.display(),
                        sha1_hex(&image)
                    ),
                )?;
            }
            Some(image)
        }
    };
    let carried = Carried::of(&bk2);
    if let Some(&f) = carried.power.iter().find(|&&f| f > 0) {
        refuse(
            o.force,
            &format!(
                "frame {f} presses Power (a reset), and a gbhost movie has no reset event: \
                 playing it here would not reset"
            ),
        )?;
    }
    eprintln!("warning: a .bk2 made by another core may desync in gbhost (input timing differs)");
    let power = gb_session::PowerOn {
        model: model.map_or(gb_core::ModelChoice::Auto, gb_core::ModelChoice::Fixed),
        boot_rom,
        ..gb_session::PowerOn::default()
    };
    let mut session = Session::power_on(rom, power, config(o.force))?;
    let mut meta = BTreeMap::new();
    meta.insert("converted_from".to_owned(), input.display().to_string());
    carried.to_metadata(&mut meta);
    let authors = bk2
        .header_value("Author")
        .map(|a| vec![a.to_owned()])
        .unwrap_or_default();
    let mut rec = Recorder::create(output, &mut session, authors, meta)?;
    let total = bk2.frames.len();
    for (i, f) in bk2.frames.iter().enumerate() {
        session.set_buttons(f.buttons);
        session.run_frame();
        rec.after_frame(&mut session)?;
        if (i + 1) % 600 == 0 {
            eprintln!("frame {}/{total}", i + 1);
        }
    }
    rec.set_rerecords(bk2.rerecords())?;
    let path = rec.finish()?;
    gb_session::movie::container::compact(&path, &path, 19)?;
    println!("converted: {total} frames");
    Ok(())
}
