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
//!
//! A linked pair's movie converts with `--link ROM2` to and from BizHawk's GambatteLink
//! `.bk2` (`pair_to_bk2`; import in [`to_gbm`]): both players' buttons, the cable's pluggings as
//! presses of `Toggle Link Connection`, each side's model, the pair's bundle SHA-1, and, on
//! export, the XML bundle BizHawk opens the two ROMs from.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, bail};
use gb_session::movie::bk2::{self, Bk2, Bk2Frame, Carried};
use gb_session::movie::{self, Movie, Recorder};
use gb_session::{Roms, Session, SessionConfig};

/// What `convert` was given besides the two files.
pub struct Options<'a> {
    /// The ROM.
    pub rom: Option<&'a Path>,
    /// A linked pair's second player's ROM.
    pub link: Option<&'a Path>,
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
    let roms = match (&movie.header.second, o.link) {
        (Some(_), Some(path)) => Roms::linked(rom, crate::game::rom::read(path, o.force, &[])?),
        (Some(_), None) => bail!(
            "the movie is of two linked Game Boys: give player 2's ROM with --link ROM2 \
             (the .bk2 names both)"
        ),
        (None, Some(_)) => bail!("the movie is of one Game Boy: --link is for a linked pair's"),
        (None, None) => Roms::from(rom),
    };
    if let Err(e) = movie.check_roms(&roms) {
        refuse(o.force, &e.to_string())?;
    }
    if roms.second.is_some() {
        return pair_to_bk2(&movie, roms, rom_path, output, o);
    }
    let rom = roms.first;
    let model = movie.model()?;
    warn_frame_rule(&movie);
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
    let bk2 = Bk2::gambatte(
        &movie.header.rom_title,
        &sha1_hex(&rom),
        model,
        frames
            .iter()
            .map(|&buttons| Bk2Frame::one(buttons, false))
            .collect(),
    )
    .name_cgb_mode_for(&rom);
    let (mut bk2, boot_image) = start_and_header(bk2, &movie, boot_rom, &[(&rom, model)], o)?;
    carried.apply(&mut bk2);
    match play_through(&movie, Roms::from(rom), boot_image) {
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

/// The start and header every export shares: the boot ROM the movie started with (its hash
/// checked, its SHA-1 in the header; returned, for the play-through), or for a post-boot
/// movie the refusal when BizHawk would boot `carts` (each ROM with its model) through the
/// boot ROM anyway; then the rerecord count and the authors.
fn start_and_header(
    mut bk2: Bk2,
    movie: &Movie,
    boot_rom: Option<u64>,
    carts: &[(&[u8], gb_core::Model)],
    o: &Options<'_>,
) -> Result<(Bk2, Option<Vec<u8>>)> {
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
            for (player, &(rom, model)) in carts.iter().enumerate() {
                if bk2::bios_forced(rom, model == gb_core::Model::Cgb) {
                    let whose = if carts.len() > 1 {
                        format!("player {}'s", player + 1)
                    } else {
                        "this".to_string()
                    };
                    refuse(
                        o.force,
                        &format!(
                            "the movie starts in the post-boot state, but BizHawk 2.9.2 and \
                             later run the boot ROM first for every movie of {whose} \
                             cartridge (its header would boot on hardware), so there it would \
                             start ~2.5 s late and desync; only a movie that starts with the \
                             boot ROM exports faithfully"
                        ),
                    )?;
                }
            }
        }
    }
    bk2.set_header("rerecordCount", &movie.header.rerecords.to_string());
    if !movie.header.authors.is_empty() {
        bk2.set_header("Author", &movie.header.authors.join(", "));
    }
    Ok((bk2, boot_image))
}

/// Player 2's model in a linked pair's movie.
fn second_model(movie: &Movie) -> Result<gb_core::Model> {
    let name = movie
        .header
        .second
        .as_ref()
        .map_or("", |b| b.model.as_str());
    gb_core::Model::from_name(name)
        .with_context(|| format!("the movie's player 2 has an unknown model `{name}`"))
}

/// A linked pair's `.gbm` → BizHawk's GambatteLink `.bk2`: both players' buttons, the
/// cable's pluggings as `Toggle Link Connection` presses, each side's model in its sync
/// settings, the bundle's SHA-1, the lag log of the pair; and the XML bundle BizHawk opens
/// the two ROMs from, beside the `.bk2` (`OUT.xml`), unless one is there already.
fn pair_to_bk2(
    movie: &Movie,
    roms: Roms,
    rom_path: &Path,
    output: &Path,
    o: &Options<'_>,
) -> Result<()> {
    let Some(second) = roms.second.as_deref() else {
        bail!("the movie is of one Game Boy");
    };
    let models = [movie.model()?, second_model(movie)?];
    warn_frame_rule(movie);
    let (inputs, lost) = movie.frame_inputs()?;
    if lost > 0 {
        eprintln!(
            "warning: {lost} events have no .bk2 form (sub-frame joypad changes and pluggings \
             are moved to the next frame start; pokes and scripts are dropped)"
        );
    }
    // The cable starts plugged in, in gbhost's pair as in GambatteLink; a plugging that
    // changes it is a press of the toggle in that frame, and a press needs a frame without
    // it before (BizHawk toggles on the press, not while it is held).
    let mut plugged = true;
    let mut frames = Vec::with_capacity(inputs.len());
    for (i, input) in inputs.iter().enumerate() {
        let toggle = input.cable.is_some_and(|p| p != plugged);
        if toggle {
            plugged = !plugged;
            if frames.last().is_some_and(|f: &Bk2Frame| f.toggle_link) {
                refuse(
                    o.force,
                    &format!(
                        "frames {} and {i} both plug or unplug the cable, and BizHawk's toggle \
                         needs a frame between two presses",
                        i - 1
                    ),
                )?;
            }
        }
        frames.push(Bk2Frame {
            second: input.buttons[1],
            toggle_link: toggle,
            ..Bk2Frame::one(input.buttons[0], false)
        });
    }
    let boot_rom = match &movie.header.start {
        movie::Start::PowerOn { boot_rom_hash, .. } => {
            let second_boot = movie
                .header
                .second
                .as_ref()
                .and_then(|b| b.power.boot_rom_hash);
            if *boot_rom_hash != second_boot {
                bail!(
                    "the two Game Boys started with different boot ROMs (or only one with a \
                     boot ROM), and a GambatteLink movie boots both alike"
                );
            }
            *boot_rom_hash
        }
        movie::Start::State(_) => {
            refuse(
                o.force,
                "the movie starts from a state, and a .bk2 of it would start at power-on",
            )?;
            None
        }
    };
    let title_b = movie
        .header
        .second
        .as_ref()
        .map_or("", |b| b.rom_title.as_str());
    let name = format!("{} + {}", movie.header.rom_title, title_b);
    let carried = Carried::from_metadata(&movie.header.metadata)?;
    let bk2 = Bk2::gambatte_link(
        &name,
        &bk2::link_sha1_hex(&roms.first, second),
        models,
        frames,
    );
    let (mut bk2, boot_image) = start_and_header(
        bk2,
        movie,
        boot_rom,
        &[(&roms.first, models[0]), (second, models[1])],
        o,
    )?;
    carried.apply(&mut bk2);
    // GambatteLink is not cycle-timed: BizHawk writes no CycleCount for it.
    match play_through(movie, roms.clone(), boot_image) {
        Ok((_, lag)) => {
            if bk2.lag_log.is_none() {
                bk2.lag_log = Some(lag);
            }
        }
        Err(e) => eprintln!("warning: no lag log ({e:#})"),
    }
    let bytes = bk2::write(&bk2)?;
    gb_session::files::write_atomic(output, &bytes)?;
    let bundle = output.with_extension("xml");
    match o.link {
        Some(link) if !bundle.exists() => {
            gb_session::files::write_atomic(
                &bundle,
                xml_bundle(&name, rom_path, link)?.as_bytes(),
            )?;
            println!(
                "wrote {}: BizHawk opens the pair from it (File > Open ROM), then plays the movie",
                bundle.display()
            );
        }
        _ => eprintln!(
            "note: {} exists and was kept; BizHawk opens a pair from such an XML bundle",
            bundle.display()
        ),
    }
    eprintln!(
        "warning: GambatteLink's frames are 35,112 of its ticks each, and gbhost's pair frames \
         end at player 1's VBlank; where a game turns its LCD off the input may land on other \
         frames there"
    );
    println!("converted: {} frames of a linked pair", bk2.frames.len());
    Ok(())
}

/// BizHawk's XML bundle of a linked pair (`Client.Common/XmlGame.cs`): system `GBL`, the two
/// ROMs by their full paths, in player order.
fn xml_bundle(name: &str, first: &Path, second: &Path) -> Result<String> {
    let escape = |t: &str| {
        t.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    let full = |p: &Path| -> Result<String> {
        let p = std::fs::canonicalize(p).with_context(|| format!("{}", p.display()))?;
        Ok(escape(&p.to_string_lossy()))
    };
    Ok(format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n\
         <BizHawk-XMLGame System=\"GBL\" Name=\"{}\">\r\n  <LoadAssets>\r\n\
         \x20   <Asset FileName=\"{}\" />\r\n    <Asset FileName=\"{}\" />\r\n\
         \x20 </LoadAssets>\r\n</BizHawk-XMLGame>\r\n",
        escape(name),
        full(first)?,
        full(second)?
    ))
}

/// Warn when the movie counts frames by the legacy rule.
fn warn_frame_rule(movie: &Movie) {
    if movie.header.frame_rule != gb_core::FrameRule::BizHawk {
        eprintln!(
            "warning: the movie counts frames by the {} rule (recorded before core version \
             2); BizHawk counts them otherwise while the LCD is off, so where the game switches \
             it off the .bk2's input may land on other frames in BizHawk",
            movie.header.frame_rule
        );
    }
}

/// The movie's length in Gambatte's clock ([`bk2::CLOCK_RATE`]: its T-cycles from its start
/// to the end of its last frame, halved) and its lag frames (frame from the movie's start →
/// lagged), found by playing it (with the desync detector, and with the boot ROM it started
/// with).
/// A linked pair's frame lags when both Game Boys' do (GambatteLink's `IsLagFrame`).
fn play_through(
    movie: &Movie,
    roms: Roms,
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
                boot_rom: Some(boot_rom.clone()),
                battery: battery.clone(),
                ram_init: *ram_init,
                dmg_palette: *dmg_palette,
                model: gb_core::ModelChoice::Fixed(movie.model()?),
                frame_rule: movie.header.frame_rule,
            };
            match (roms.second, &movie.header.second) {
                (Some(rom_b), Some(b)) => {
                    let power_b = gb_session::PowerOn {
                        boot_rom: Some(boot_rom),
                        battery: b.power.battery.clone(),
                        ram_init: b.power.ram_init,
                        dmg_palette: b.power.dmg_palette,
                        model: gb_core::ModelChoice::Fixed(second_model(movie)?),
                        frame_rule: movie.header.frame_rule,
                    };
                    Session::power_on_linked((roms.first, power), (rom_b, power_b), config(true))?
                }
                _ => Session::power_on(roms.first, power, config(true))?,
            }
        }
        _ => movie.session(roms, config(true))?,
    };
    let start = session.gb().cycles();
    let mut feeder = movie::Feeder::new();
    let mut lag = bk2::LagLog::new();
    let mut f = 0u32;
    while feeder.feed(movie, &mut session)? == movie::Feed::Playing {
        session.run_frame();
        let lagged = (0..session.machine().players())
            .all(|p| session.machine().player(p).is_some_and(|gb| gb.lagged()));
        lag.insert(f, lagged);
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
    let second = match (bk2.is_linked(), o.link) {
        (true, Some(path)) => Some(crate::game::rom::read(path, o.force, &[])?),
        (true, None) => bail!(
            "the movie is of two linked Game Boys (BizHawk's {}): give player 2's ROM with \
             --link ROM2",
            bk2.header_value("Core").unwrap_or("GambatteLink")
        ),
        (false, Some(_)) => bail!(
            "the movie is of one Game Boy (Core {}), and this is a linked pair",
            bk2.header_value("Core").unwrap_or("Gambatte")
        ),
        (false, None) => None,
    };
    match bk2
        .header_value("SHA1")
        .map(str::trim)
        .filter(|h| !h.is_empty())
    {
        Some(theirs) => {
            // A pair's SHA-1 is its XML bundle's, of both ROMs.
            let ours = match &second {
                Some(b) => bk2::link_sha1_hex(&rom, b),
                None => sha1_hex(&rom),
            };
            if !theirs.eq_ignore_ascii_case(&ours) {
                refuse(
                    o.force,
                    &match o.link.filter(|_| second.is_some()) {
                        Some(link) => format!(
                            "the movie was made on a pair whose bundle has SHA-1 {theirs}, and \
                             {} with {} give {ours}",
                            rom_path.display(),
                            link.display()
                        ),
                        None => format!(
                            "the movie was made on a ROM with SHA-1 {theirs}, and {} has SHA-1 \
                             {ours}",
                            rom_path.display()
                        ),
                    },
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
    let models = bk2.consoles()?;
    let syncs = bk2.syncs()?;
    if second.is_some() {
        // GambatteLink runs each side 35,112 ticks a frame whatever its FrameLength says.
        eprintln!(
            "warning: GambatteLink's frames are 35,112 of its ticks each, and gbhost's pair \
             frames end at player 1's VBlank; where a game turns its LCD off the input may land \
             on other frames here"
        );
    } else if syncs[0].frame_length != 0 {
        refuse(
            o.force,
            "the movie's frames are of equal length (Gambatte's FrameLength 1 or 2), and \
             gbhost's end at VBlank (FrameLength 0): its input would land on other frames",
        )?;
    }
    for (player, sync) in syncs.iter().enumerate() {
        let whose = if second.is_some() {
            format!("player {}'s", player + 1)
        } else {
            "the movie's".to_string()
        };
        if sync.initial_time != 0 || sync.rtc_divisor_offset != 0 {
            eprintln!(
                "warning: {whose} cartridge clock starts at {} s with divisor offset {}; \
                 gbhost's does not follow these, so a game that reads its clock may desync",
                sync.initial_time, sync.rtc_divisor_offset
            );
        }
        if sync.multicart_compat {
            eprintln!("warning: {whose} MulticartCompat wiring is not emulated by gbhost");
        }
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
    if let Some(f) = (1..bk2.frames.len()).find(|&f| bk2.frames[f].second_power) {
        refuse(
            o.force,
            &format!(
                "frame {f} presses player 2's Power (a reset), and a gbhost movie has no reset \
                 event: playing it here would not reset"
            ),
        )?;
    }
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
    let power = |model: Option<&Option<gb_core::Model>>| gb_session::PowerOn {
        model: model
            .copied()
            .flatten()
            .map_or(gb_core::ModelChoice::Auto, gb_core::ModelChoice::Fixed),
        boot_rom: boot_rom.clone(),
        ..gb_session::PowerOn::default()
    };
    let mut session = match second {
        Some(b) => Session::power_on_linked(
            (rom, power(models.first())),
            (b, power(models.get(1))),
            config(o.force),
        )?,
        None => Session::power_on(rom, power(models.first()), config(o.force))?,
    };
    let mut meta = BTreeMap::new();
    meta.insert("converted_from".to_owned(), input.display().to_string());
    carried.to_metadata(&mut meta);
    let authors = bk2
        .header_value("Author")
        .map(|a| vec![a.to_owned()])
        .unwrap_or_default();
    let mut rec = Recorder::create(output, &mut session, authors, meta)?;
    let total = bk2.frames.len();
    // GambatteLink toggles the cable on the toggle's press, at the frame's start.
    let mut toggle_held = false;
    for (i, f) in bk2.frames.iter().enumerate() {
        session.set_buttons(f.buttons);
        session.set_player_buttons(1, f.second);
        if f.toggle_link && !toggle_held {
            let plugged = session.machine().pair().is_some_and(|p| p.plugged());
            session.set_cable(!plugged);
        }
        toggle_held = f.toggle_link;
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
