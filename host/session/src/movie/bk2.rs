//! BizHawk `.bk2` movies of Game Boy games: import and export, as a pure format module.
//!
//! Nothing here runs a game: [`read()`] turns the bytes of a `.bk2` into a [`Bk2`] (header, sync
//! settings, one [`Bk2Frame`] per input-log line), and [`write()`] turns a [`Bk2`] back into bytes
//! that BizHawk opens.
//!
//! This file reads and writes the archive; the folder beside it holds the parts:
//! [`data`] (the [`Bk2`] value and what its header and sync settings say), [`input_log`] (the
//! LogKeys and frame lines), [`notes`] (comments, subtitles, markers, lag log), [`sync`]
//! (Gambatte's sync settings), [`boot`] (when BizHawk forces the boot ROM), [`carry`] (the
//! `.bk2`-only parts in a gbhost movie's metadata), [`error`] and [`limits`].
//!
//! # The format, as BizHawk's source has it
//!
//! Paths are in the `TASEmulators/BizHawk` repository, under `src/`; `Client.Common/` stands for
//! `BizHawk.Client.Common/`, `Emulation.Cores/` for `BizHawk.Emulation.Cores/` and so on.
//!
//! - **Container.** A zip archive (`Client.Common/savestates/ZipStateSaver.cs`,
//!   `ZipStateLoader.cs`). Each part is an entry named after a "lump"
//!   (`Client.Common/savestates/BinaryStateLump.cs`): `BizState 1.0` (the container's sub-version,
//!   `2`), `BizVersion.txt` (the emulator's version), `Header.txt`, `Comments.txt`,
//!   `Subtitles.txt`, `SyncSettings.json`, `Input Log.txt`; movies that start from a savestate or
//!   from save RAM add `Core.bin` / `CoreText.txt` / `Framebuffer.bmp` / `MovieSaveRam.bin`. The
//!   loader finds an entry by its name with the extension (from the last `.`) cut off and `\`
//!   turned into `/`, so `Header.txt` is looked up as `Header`. Only `Header` and `Input Log` are
//!   required (`Client.Common/movie/BasicMovieInfo.cs` `LoadFields`,
//!   `Client.Common/movie/bk2/Bk2Movie.IO.cs` `LoadBk2Fields`); text lumps are never
//!   zstd-compressed. Writing is the order above (`Bk2Movie.IO.cs` `AddBk2Lumps`), each text
//!   written with `WriteLine`, so it ends with a line break (CRLF on Windows, where most movies are
//!   made).
//! - **`Header.txt`.** One `key value` pair a line, split at the first space; blank lines are
//!   skipped and the first of two equal keys wins (`BasicMovieInfo.cs`, `movie/bk2/Bk2Header.cs`).
//!   Keys (`Client.Common/movie/HeaderKeys.cs`): `MovieVersion` (`BizHawk v2.0.0`), `emuVersion`,
//!   `OriginalEmuVersion`, `Platform` (`GB`; older movies of colour games say `GBC`; newer ones say
//!   `GB` and add `IsCGBMode 1`, or `IsCGBDMGMode 1` for a DMG game on the CGB), `GameName`, `SHA1`, `Author`, `rerecordCount`, `Core`
//!   (`Gambatte`, `GBHawk`, `SameBoy`: `Emulation.Cores/CoreNames.cs`), `BoardName`, `CycleCount`,
//!   `ClockRate`, `StartsFromSavestate`, `StartsFromSaveRam`, firmware hashes such as
//!   `GB_Firmware_World` (`Client.Common/movie/conversions/MovieConversionExtensions.cs`
//!   `PopulateWithDefaultHeaderValues`). Unknown keys are kept here.
//! - **`SyncSettings.json`.** The core's sync settings as `{"o":{"$type":…,…}}` on one line;
//!   BizHawk keeps the last non-blank line (`Bk2Movie.IO.cs`) and, when the text is blank, plays
//!   with the user's current settings after a warning (`Client.EmuHawk/MainForm.cs`
//!   `CoreSyncSettings`). `{"o":null}` deserializes to no settings, so the core uses its defaults
//!   (`Client.Common/config/ConfigService.cs` `LoadWithType`).
//! - **`Input Log.txt`.** `[Input]`, then `LogKey:` and the key, then one line per frame starting
//!   with `|`, then `[/Input]` (`Client.Common/movie/bk2/Bk2Movie.InputLog.cs`). Other lines are
//!   ignored by BizHawk; `Frame N` lines appear only in savestates. The key lists the controls in
//!   order: each group (console, then each player) starts with `#` and every name ends with `|`
//!   (`Client.Common/movie/bk2/Bk2LogEntryGenerator.cs` `GenerateLogKey`, groups from
//!   `Emulation.Common/Base Implementations/ControllerDefinition.cs` `GenOrderedControls`, empty
//!   groups left out). A frame line is `|`, then per group one character per button (its mnemonic
//!   when pressed, `.` when not) or, per axis, the value padded to 5 characters and a `,`, then
//!   `|`. Mnemonics come from `Client.Common/movie/bk2/Bk2MnemonicLookup.cs`: `Up` `U`, `Down` `D`,
//!   `Left` `L`, `Right` `R`, `Start` `S`, `Select` `s`, `Power` `P`, and one-letter names (`A`,
//!   `B`) stand for themselves; a `P1 ` prefix is dropped first. When playing, BizHawk takes the
//!   control order from the movie's own LogKey, skips every `|`, and counts any character but `.`
//!   as pressed (`Client.Common/movie/bk2/Bk2Controller.cs` `SetFromMnemonic`).
//! - **The cores' keys.** Gambatte (`Emulation.Cores/Consoles/Nintendo/Gameboy/Gambatte.cs`,
//!   `GbController`): `LogKey:#Up|Down|Left|Right|Start|Select|B|A|Power|`, so a frame is
//!   `|UDLRSsBAP|` with `.` for each button up. `Power` hard-resets the console at the start of
//!   that frame (`FrameAdvancePrep`). Gambatte's subframe mode (`SubGbController`) puts an axis
//!   `Input Length` (0–35112, neutral 35112 = a whole frame) first: `|35112,UDLRSsBAP|`. GBHawk
//!   (`Emulation.Cores/Consoles/Nintendo/GBHawk/GBHawkControllers.cs`, `StandardControls`) names
//!   the same nine buttons `P1 Up` … `P1 Power`, so its lines look the same; its subframe variant
//!   adds `Input Cycle` (neutral 70224, `GBHawk/GBHawkControllerDeck.cs`). BizHawk's SameBoy core
//!   (`Emulation.Cores/Consoles/Nintendo/Gameboy/Sameboy.cs`) has `P1 Up|P1 Down|P1 Left|P1
//!   Right|P1 A|P1 B|P1 Select|P1 Start|` and no Power: `|UDLRABsS|`.
//! - **A linked pair** (`Emulation.Cores/Consoles/Nintendo/Gameboy/GambatteLink.cs`, core
//!   `GambatteLink`, system `GBL`; before BizHawk 2.8 `DualGambatte` on `DGB`): the buttons
//!   are `P1 Up`, `P1 Down`, `P1 Left`, `P1 Right`, `P1 A`, `P1 B`, `P1 Select`, `P1 Start`,
//!   `P1 Power`, the same for `P2`, and the console's `Toggle Link Connection` (mnemonic `L`,
//!   `Bk2MnemonicLookup.cs`'s `GBL` overrides), so the key is [`GAMBATTE_LINK_LOG_KEY`] and
//!   a frame `|.|UDLRABsSP|UDLRABsSP|`. A press of the toggle (held, and not the frame
//!   before) flips the cable at the frame's start; the cable starts connected
//!   (`GambatteLink.IEmulator.cs` `FrameAdvance`). Each frame runs both Game Boys 35,112
//!   ticks, whatever their `FrameLength`. The sync settings are `GambatteLinkSyncSettings`:
//!   `_linkedSyncSettings`, four Gambatte settings objects, one per possible player
//!   (`GambatteLink.ISettable.cs`). BizHawk opens a pair from an XML bundle
//!   (`Client.Common/XmlGame.cs`), whose hash, the movie's `SHA1`, is the SHA-1 of the
//!   ROMs' SHA-1 digests in order ([`link_sha1_hex`]); the link core is no `Gameboy`, so
//!   BizHawk writes no `IsCGBMode` and, not cycle-timed, no `CycleCount` for it.
//! - **A known variant.** BizHawk 2.10 and 2.11 wrote an extra `|` for an empty controller group,
//!   so Gambatte lines read `|.........||` (TASEmulators/BizHawk issue 4550, fixed in 2.11.1).
//!   Reading skips `|` between controls as BizHawk does, so both forms load.
//!
//! - **Around the input.** `Comments.txt`, `Subtitles.txt`, and TAStudio's `Markers.txt` and
//!   `LagLog`: [`notes`]. A plain `.bk2` has no lag log (BizHawk recounts lag by playing);
//!   only a `.tasproj` does.
//! - **Length.** When a movie is saved at its end on a core with cycle timing, BizHawk writes
//!   `CycleCount` and `ClockRate` (`Bk2Movie.IO.cs` `SetCycleValues`); Gambatte's clock runs at
//!   [`CLOCK_RATE`], 2 MiHz, not the 4 MiHz T-cycle clock (`Gambatte.cs` `TICKSPERSECOND`,
//!   `CycleCount`), and a new Gambatte movie starts with `CycleCount 0`.
//!
//! # What this module does with it
//!
//! [`read()`] checks every length (entries over [`MAX_ENTRY_BYTES`] uncompressed, more than
//! [`MAX_ENTRIES`] entries, more than [`MAX_FRAMES`] frames, lines over [`MAX_LINE_BYTES`] are
//! refused), accepts CRLF and LF and a UTF-8 byte-order mark, and maps the LogKey's controls by
//! name, so Gambatte, GBHawk and SameBoy movies all load. It is stricter than BizHawk where
//! strictness finds damage: a frame line must hold exactly one character per button, each `.` or
//! that button's mnemonic, and an unknown line is an error naming its number; so is a
//! subtitle, marker or lag-log line that does not parse. It refuses movies whose `Platform` is
//! not `GB`, `GBC` or a pair's `GBL`/`DGB`, movies that start from a savestate or from save RAM (they cannot be
//! played from power-on), LogKeys that name a control with no Game Boy meaning or lack one of
//! the eight buttons, and subframe input that is not a whole frame. It keeps comments,
//! subtitles, markers, the lag log and every `Power` press ([`Bk2Frame::power`]); [`Carried`]
//! moves them through a gbhost movie's metadata. [`Bk2::console`] and [`Bk2::boot_rom`] say
//! how the movie starts ([`sync`]): on which console (GBA and SGB2 modes are refused), and
//! whether with the boot ROM.
//!
//! [`write()`] produces the entries BizHawk writes, in its order, deflated, CRLF line breaks, the
//! LogKey of the header's `Core` (Gambatte when there is none) and one `|…|` line per frame,
//! then `Markers.txt` and `LagLog` when there are markers or a lag log. The archive is
//! deterministic (every entry is dated 1980-01-01). [`Bk2::gambatte`] writes Gambatte's sync
//! settings explicitly ([`GambatteSync::to_json`]), [`Bk2::gambatte_link`] a linked pair's
//! ([`GambatteSync::to_json_linked`]), [`Bk2::with_boot_rom`] the boot ROM and its firmware
//! hash, [`Bk2::with_cycles`] the length.
//!
//! # The boot ROM, and what export does about it
//!
//! gbhost movies start either in the post-boot state or with a boot ROM the user supplied.
//! BizHawk's Gambatte has `EnableBIOS`, but since 2.9.2 it runs the boot ROM for *every* movie
//! of a cartridge whose header would boot on hardware ([`bios_forced`]), so a post-boot movie
//! played there starts about 2.5 seconds late and desyncs at once. The choices were to write
//! `EnableBIOS false` and hope, to shift the input by the boot ROM's length (no: its length
//! depends on the boot ROM and model, and the post-boot state differs from what the boot ROM
//! leaves anyway), or to refuse. A TAS author who exports wants a file that syncs, or to be
//! told why it cannot; a file that silently desyncs costs hours. So `gbhost movie convert`
//! refuses to export a post-boot movie of such a cartridge, saying why, and `--force` writes
//! it anyway with `EnableBIOS false` and a warning (BizHawk before 2.9.2 plays it as written;
//! a cartridge with a bad header is never forced, so its movies export without a refusal). A movie that started with
//! a boot ROM exports `EnableBIOS true` and the boot ROM's SHA-1 under
//! [`firmware_key`] (`GB_Firmware_World` / `GBC_Firmware_World`), which BizHawk checks
//! against the user's firmware. On import, a firmware header or `EnableBIOS true` means the
//! movie needs the boot ROM.

use std::io::{Cursor, Read, Write};

pub mod boot;
pub mod carry;
pub mod data;
pub mod error;
pub mod input_log;
pub mod limits;
pub mod notes;
pub mod sync;
mod text;

pub use boot::{bios_forced, firmware_key};
pub use carry::Carried;
pub use data::{Bk2, Bk2Frame, CLOCK_RATE, is_link_core, link_sha1_hex};
pub use error::Bk2Error;
pub use input_log::{GAMBATTE_LINK_LOG_KEY, GAMBATTE_LOG_KEY, GBHAWK_LOG_KEY, SAMEBOY_LOG_KEY};
pub use limits::{MAX_ENTRIES, MAX_ENTRY_BYTES, MAX_FRAMES, MAX_LINE_BYTES};
pub use notes::{LagLog, Marker, Subtitle};
pub use sync::{
    ConsoleMode, GAMBATTE_LINK_SYNC_TYPE, GAMBATTE_SYNC_TYPE, GambatteSync, MINIMAL_SYNC_SETTINGS,
};

use text::{cut, lines};

/// Entry names, in the order BizHawk writes them.
const ENTRY_ZIP_VERSION: &str = "BizState 1.0";
const ENTRY_EMU_VERSION: &str = "BizVersion.txt";
const ENTRY_HEADER: &str = "Header.txt";
const ENTRY_COMMENTS: &str = "Comments.txt";
const ENTRY_SUBTITLES: &str = "Subtitles.txt";
const ENTRY_SYNC_SETTINGS: &str = "SyncSettings.json";
const ENTRY_INPUT: &str = "Input Log.txt";
/// TAStudio's entries: `Bk2Movie` ignores them, a `.tasproj` has them.
const ENTRY_MARKERS: &str = "Markers.txt";
const ENTRY_LAG_LOG: &str = "LagLog";

// ---------------------------------------------------------------------------------------------
// Reading.

/// Read a `.bk2` movie of a Game Boy game.
///
/// Every error says what is wrong and, for the input log, on which line. No input makes this
/// panic, and its memory stays within a few times [`MAX_ENTRY_BYTES`].
pub fn read(bytes: &[u8]) -> Result<Bk2, Bk2Error> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(Bk2Error::Zip)?;
    if archive.len() > MAX_ENTRIES {
        return Err(Bk2Error::TooManyEntries {
            count: archive.len(),
        });
    }

    // Find the entries the way BizHawk does: by name without its extension.
    let wanted = [
        ("Header", ENTRY_HEADER),
        ("Input Log", ENTRY_INPUT),
        ("SyncSettings", ENTRY_SYNC_SETTINGS),
        ("Comments", ENTRY_COMMENTS),
        ("Subtitles", ENTRY_SUBTITLES),
        ("Markers", ENTRY_MARKERS),
        ("LagLog", ENTRY_LAG_LOG),
    ];
    let mut found: [Option<usize>; 7] = [None; 7];
    for index in 0..archive.len() {
        // A name the zip reader cannot decode is not one of ours.
        let Some(Ok(name)) = archive.name_for_index(index) else {
            continue;
        };
        let name = name.replace('\\', "/");
        let stem = name.rfind('.').map_or(name.as_str(), |i| &name[..i]);
        for (slot, (wanted_stem, full_name)) in found.iter_mut().zip(wanted) {
            if stem == wanted_stem {
                if slot.is_some() {
                    return Err(Bk2Error::DuplicateEntry(full_name));
                }
                *slot = Some(index);
            }
        }
    }
    let [
        header_index,
        input_index,
        sync_index,
        comments_index,
        subtitles_index,
        markers_index,
        lag_index,
    ] = found;
    let header_index = header_index.ok_or(Bk2Error::MissingEntry(ENTRY_HEADER))?;
    let input_index = input_index.ok_or(Bk2Error::MissingEntry(ENTRY_INPUT))?;

    let header_text = read_entry(&mut archive, header_index)?;
    let header = parse_header(&header_text);
    drop(header_text);
    let sync_settings = match sync_index {
        Some(index) => {
            let text = read_entry(&mut archive, index)?;
            let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
            text.trim_end().to_string()
        }
        None => String::new(),
    };

    let mut text_of = |index: Option<usize>| match index {
        Some(index) => read_entry(&mut archive, index).map(Some),
        None => Ok(None),
    };
    let comments = text_of(comments_index)?
        .map(|t| notes::parse_comments(&t))
        .unwrap_or_default();
    let subtitles = match text_of(subtitles_index)? {
        Some(t) => notes::parse_subtitles(&t)?,
        None => Vec::new(),
    };
    let markers = match text_of(markers_index)? {
        Some(t) => notes::parse_markers(&t)?,
        None => Vec::new(),
    };
    let lag_log = match text_of(lag_index)? {
        Some(t) => Some(notes::parse_lag_log(&t)?),
        None => None,
    };

    let mut movie = Bk2 {
        header,
        sync_settings,
        frames: Vec::new(),
        comments,
        subtitles,
        markers,
        lag_log,
    };
    match movie.header_value("Platform").map(str::trim) {
        None | Some("") => return Err(Bk2Error::MissingPlatform),
        Some("GB" | "GBC" | "GBL" | "DGB") => {}
        Some(other) => return Err(Bk2Error::NotGameBoy(cut(other, 40))),
    }
    let is_true = |key| {
        movie
            .header_value(key)
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("true") || v.trim() == "1")
    };
    if is_true("StartsFromSavestate") {
        return Err(Bk2Error::UnsupportedStart("a savestate"));
    }
    if is_true("StartsFromSaveRam") {
        return Err(Bk2Error::UnsupportedStart("save RAM"));
    }

    let input_text = read_entry(&mut archive, input_index)?;
    movie.frames = input_log::parse(&input_text, movie.header_value("Core"))?;
    Ok(movie)
}

/// Decompress entry `index` as text (invalid UTF-8 replaced, as .NET's reader does), refusing
/// more than [`MAX_ENTRY_BYTES`].
fn read_entry(
    archive: &mut zip::ZipArchive<Cursor<&[u8]>>,
    index: usize,
) -> Result<String, Bk2Error> {
    let mut entry = archive.by_index(index).map_err(Bk2Error::Zip)?;
    let name = String::from_utf8_lossy(entry.name_raw()).into_owned();
    if entry.encrypted() {
        return Err(Bk2Error::Encrypted(name));
    }
    if entry.size() > MAX_ENTRY_BYTES {
        return Err(Bk2Error::EntryTooLarge {
            name,
            size: entry.size(),
        });
    }
    // The declared size may lie: read one byte past the limit to catch that.
    let mut data = Vec::new();
    let read = (&mut entry)
        .take(MAX_ENTRY_BYTES + 1)
        .read_to_end(&mut data);
    if let Err(source) = read {
        return Err(Bk2Error::Entry { name, source });
    }
    if data.len() as u64 > MAX_ENTRY_BYTES {
        return Err(Bk2Error::EntryTooLarge {
            name,
            size: data.len() as u64,
        });
    }
    Ok(match String::from_utf8(data) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// `Header.txt`: `key value` lines; blank lines skipped; the first of equal keys kept. A line
/// without a space is a key with an empty value (BizHawk drops it; keeping it lets an empty
/// value survive a round trip).
fn parse_header(text: &str) -> Vec<(String, String)> {
    let mut header: Vec<(String, String)> = Vec::new();
    for line in lines(text) {
        let line = line.trim_start_matches(' ');
        if line.trim().is_empty() {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        if !header.iter().any(|(k, _)| k == key) {
            header.push((key.to_string(), value.to_string()));
        }
    }
    header
}

// ---------------------------------------------------------------------------------------------
// Writing.

/// Write a `.bk2` that BizHawk opens: its seven entries in its order (then `Markers.txt` and
/// `LagLog` when the movie has markers or a lag log), deflated, with CRLF line breaks, the
/// LogKey of the header's `Core` (Gambatte when there is none).
///
/// The header must name `Platform` `GB` or `GBC` (a movie of another platform would not load
/// as a Game Boy movie), keys must be single words without control characters, values
/// single-line, and no key may appear twice.
pub fn write(movie: &Bk2) -> Result<Vec<u8>, Bk2Error> {
    // Header: checked so that it reads back as written.
    let mut header_text = String::new();
    for (i, (key, value)) in movie.header.iter().enumerate() {
        let bad_char = |c: char| c.is_whitespace() || c.is_control() || c == '\u{feff}';
        if key.is_empty() || key.chars().any(bad_char) {
            return Err(Bk2Error::BadHeaderKey(cut(key, 40)));
        }
        if value.contains(['\r', '\n']) {
            return Err(Bk2Error::BadHeaderValue(cut(key, 40)));
        }
        if movie.header[..i].iter().any(|(k, _)| k == key) {
            return Err(Bk2Error::DuplicateHeaderKey(cut(key, 40)));
        }
        header_text.push_str(key);
        header_text.push(' ');
        header_text.push_str(value);
        header_text.push_str("\r\n");
    }
    header_text.push_str("\r\n");
    match movie.header_value("Platform").map(str::trim) {
        None | Some("") => return Err(Bk2Error::MissingPlatform),
        Some("GB" | "GBC" | "GBL" | "DGB") => {}
        Some(other) => return Err(Bk2Error::NotGameBoy(cut(other, 40))),
    }

    // Input log, with the core's LogKey.
    let input = input_log::write(&movie.frames, movie.header_value("Core"))?;

    // Sync settings: one line, as BizHawk reads one line.
    let sync = if movie.sync_settings.trim().is_empty() {
        MINIMAL_SYNC_SETTINGS.to_string()
    } else if movie.sync_settings.contains(['\r', '\n']) {
        movie
            .sync_settings
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        movie.sync_settings.clone()
    };

    // Comments, subtitles and markers: checked so that they read back.
    for c in &movie.comments {
        notes::check_text(ENTRY_COMMENTS, c, false)?;
    }
    for t in &movie.subtitles {
        notes::check_text(ENTRY_SUBTITLES, &t.message, false)?;
    }
    for m in &movie.markers {
        notes::check_text(ENTRY_MARKERS, &m.message, true)?;
    }
    let mut subtitles = movie.subtitles.clone();
    subtitles.sort_by_key(|t| (t.frame, t.y));
    let mut markers = movie.markers.clone();
    markers.sort_by_key(|m| m.frame);

    let mut entries: Vec<(&str, String)> = vec![
        (ENTRY_ZIP_VERSION, "2\r\n".to_string()),
        (
            ENTRY_EMU_VERSION,
            format!("gbhost {}\r\n", env!("CARGO_PKG_VERSION")),
        ),
        (ENTRY_HEADER, header_text),
        (
            ENTRY_COMMENTS,
            notes::lump(
                movie
                    .comments
                    .iter()
                    .filter(|c| !c.trim().is_empty())
                    .cloned(),
            ),
        ),
        (
            ENTRY_SUBTITLES,
            notes::lump(subtitles.iter().map(Subtitle::line)),
        ),
        (ENTRY_SYNC_SETTINGS, format!("{sync}\r\n")),
        (ENTRY_INPUT, input),
    ];
    // TAStudio's lumps, only when there is something to keep (BizHawk ignores them here).
    if !markers.is_empty() {
        entries.push((
            ENTRY_MARKERS,
            notes::lump(
                markers
                    .iter()
                    .map(|m| format!("{}\t{}", m.frame, m.message)),
            ),
        ));
    }
    if let Some(log) = &movie.lag_log {
        entries.push((ENTRY_LAG_LOG, notes::lag_log_text(log)));
    }
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(6));
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (name, text) in entries {
        zip.start_file(name, options).map_err(Bk2Error::Write)?;
        zip.write_all(text.as_bytes())
            .map_err(|e| Bk2Error::Write(e.into()))?;
    }
    Ok(zip.finish().map_err(Bk2Error::Write)?.into_inner())
}
