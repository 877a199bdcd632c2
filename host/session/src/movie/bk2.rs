//! BizHawk `.bk2` movies of Game Boy games: import and export, as a pure format module.
//!
//! Nothing here runs a game: [`read()`] turns the bytes of a `.bk2` into a [`Bk2`] (header, sync
//! settings, one [`Bk2Frame`] per input-log line), and [`write()`] turns a [`Bk2`] back into bytes
//! that BizHawk opens.
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
//!   `GB` and add `IsCGBMode 1`), `GameName`, `SHA1`, `Author`, `rerecordCount`, `Core`
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
//! not `GB` or `GBC`, movies that start from a savestate or from save RAM (they cannot be
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
//! settings explicitly ([`GambatteSync::to_json`]), [`Bk2::with_boot_rom`] the boot ROM and its
//! firmware hash, [`Bk2::with_cycles`] the length.
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

use gb_core::Buttons;

pub mod boot;
pub mod carry;
pub mod notes;
pub mod sync;

pub use boot::{bios_forced, firmware_key};
pub use carry::Carried;
pub use notes::{LagLog, Marker, Subtitle};
pub use sync::{ConsoleMode, GambatteSync};

/// Gambatte's `ClockRate`: its cycle counter ticks at 2 MiHz (half the Game Boy's 4,194,304
/// Hz T-cycle clock; `Gambatte.cs` `TICKSPERSECOND`), whatever the CPU speed.
pub const CLOCK_RATE: u64 = 2_097_152;

/// Refuse an archive entry larger than this, uncompressed (64 MiB).
pub const MAX_ENTRY_BYTES: u64 = 64 << 20;
/// Refuse an input log of more frames than this (about 46 hours at 59.7 frames a second).
pub const MAX_FRAMES: usize = 10_000_000;
/// Refuse an archive of more entries than this (a movie has about ten).
pub const MAX_ENTRIES: usize = 1000;
/// Refuse an input-log frame line longer than this (a Game Boy line is 11 to 18 characters).
pub const MAX_LINE_BYTES: usize = 256;

/// The `$type` of BizHawk's Gambatte sync settings.
pub const GAMBATTE_SYNC_TYPE: &str = "BizHawk.Emulation.Cores.Nintendo.Gameboy.Gameboy+GambatteSyncSettings, BizHawk.Emulation.Cores";

/// The sync settings [`write()`] stores when [`Bk2::sync_settings`] is blank: "no settings", so
/// BizHawk's core plays with its own defaults (rather than the user's current settings).
pub const MINIMAL_SYNC_SETTINGS: &str = r#"{"o":null}"#;

/// The LogKey of BizHawk's Gambatte core (without the `LogKey:` prefix).
pub const GAMBATTE_LOG_KEY: &str = "#Up|Down|Left|Right|Start|Select|B|A|Power|";
/// The LogKey of BizHawk's GBHawk core.
pub const GBHAWK_LOG_KEY: &str =
    "#P1 Up|P1 Down|P1 Left|P1 Right|P1 Start|P1 Select|P1 B|P1 A|P1 Power|";
/// The LogKey of BizHawk's SameBoy core (no Power button).
pub const SAMEBOY_LOG_KEY: &str = "#P1 Up|P1 Down|P1 Left|P1 Right|P1 A|P1 B|P1 Select|P1 Start|";

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

/// A `.bk2` movie of a Game Boy game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bk2 {
    /// Header.txt key/value pairs in file order.
    pub header: Vec<(String, String)>,
    /// SyncSettings.json as text (kept verbatim on import; on export we write a minimal valid one).
    ///
    /// Import drops only a byte-order mark and trailing whitespace. Export writes
    /// [`MINIMAL_SYNC_SETTINGS`] when this is blank, and joins the lines of a multi-line text
    /// with spaces (BizHawk reads only one line).
    pub sync_settings: String,
    /// One entry per frame of the input log.
    pub frames: Vec<Bk2Frame>,
    /// `Comments.txt`: one comment a line.
    pub comments: Vec<String>,
    /// `Subtitles.txt`, sorted by frame.
    pub subtitles: Vec<Subtitle>,
    /// `Markers.txt` (TAStudio's; BizHawk ignores it in a `.bk2`), sorted by frame.
    pub markers: Vec<Marker>,
    /// `LagLog` (TAStudio's), if the archive has one.
    pub lag_log: Option<LagLog>,
}

/// The input of one frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bk2Frame {
    /// The joypad buttons held during the frame.
    pub buttons: Buttons,
    /// BizHawk's `Power` button: the console is hard-reset at the start of this frame.
    pub power: bool,
}

/// Why a `.bk2` could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum Bk2Error {
    /// The bytes are not a zip archive the reader understands.
    #[error("not a readable .bk2 (zip) archive: {0}")]
    Zip(#[source] zip::result::ZipError),
    /// An entry could not be decompressed (damaged data, a wrong checksum).
    #[error("cannot read `{name}` from the archive: {source}")]
    Entry {
        /// The entry.
        name: String,
        /// What went wrong.
        #[source]
        source: std::io::Error,
    },
    /// More entries than [`MAX_ENTRIES`].
    #[error("the archive has {count} entries; a movie has at most {MAX_ENTRIES}")]
    TooManyEntries {
        /// How many the archive has.
        count: usize,
    },
    /// A required entry is missing.
    #[error("the archive has no `{0}` entry: not a BizHawk movie")]
    MissingEntry(&'static str),
    /// Two entries that BizHawk would look up under the same name.
    #[error("the archive has two entries named `{0}` (extensions aside)")]
    DuplicateEntry(&'static str),
    /// An encrypted entry.
    #[error("`{0}` is encrypted")]
    Encrypted(String),
    /// An entry larger than [`MAX_ENTRY_BYTES`] uncompressed.
    #[error("`{name}` is larger than {MAX_ENTRY_BYTES} bytes uncompressed ({size} bytes)")]
    EntryTooLarge {
        /// The entry.
        name: String,
        /// Its size as declared or as read so far.
        size: u64,
    },
    /// `Header.txt` has no `Platform`.
    #[error("Header.txt has no Platform: cannot tell that this is a Game Boy movie")]
    MissingPlatform,
    /// `Platform` is not `GB` or `GBC`.
    #[error("Platform is `{0}`: not a Game Boy movie (GB or GBC)")]
    NotGameBoy(String),
    /// The movie starts from a savestate or from save RAM.
    #[error("the movie starts from {0}; only movies that start from power-on are supported")]
    UnsupportedStart(&'static str),
    /// The input log has no LogKey and the core gives none.
    #[error("Input Log.txt has no LogKey and the Core `{0}` has no known one")]
    MissingLogKey(String),
    /// A LogKey control with no Game Boy meaning.
    #[error(
        "Input Log.txt line {line}: the LogKey control `{name}` is not a Game Boy button (a movie of another system or controller?)"
    )]
    UnknownControl {
        /// The 1-based line number.
        line: usize,
        /// The control's name.
        name: String,
    },
    /// A LogKey that names the same Game Boy button twice.
    #[error("Input Log.txt line {line}: the LogKey names `{name}` twice")]
    DuplicateControl {
        /// The 1-based line number.
        line: usize,
        /// The control's name.
        name: String,
    },
    /// A LogKey without one of the eight joypad buttons.
    #[error("Input Log.txt line {line}: the LogKey has no `{button}`, so it is not a Game Boy key")]
    MissingControl {
        /// The 1-based line number.
        line: usize,
        /// The missing button.
        button: &'static str,
    },
    /// A second LogKey, or a LogKey after the first frame line.
    #[error("Input Log.txt line {line}: {what}")]
    MisplacedLogKey {
        /// The 1-based line number.
        line: usize,
        /// What is wrong with it.
        what: &'static str,
    },
    /// A line that is neither a frame, a LogKey, nor a section marker.
    #[error("Input Log.txt line {line}: unexpected line `{text}`")]
    UnexpectedLine {
        /// The 1-based line number.
        line: usize,
        /// The line (cut to 40 characters).
        text: String,
    },
    /// A frame line longer than [`MAX_LINE_BYTES`].
    #[error(
        "Input Log.txt line {line} is {len} bytes long; a frame line has at most {MAX_LINE_BYTES}"
    )]
    LineTooLong {
        /// The 1-based line number.
        line: usize,
        /// Its length in bytes.
        len: usize,
    },
    /// A frame line with too few or too many characters for the LogKey.
    #[error(
        "Input Log.txt line {line}: `{text}` has {found} characters; the LogKey wants {expected}, like `{example}`"
    )]
    BadLineLength {
        /// The 1-based line number.
        line: usize,
        /// The line.
        text: String,
        /// Its length in characters.
        found: usize,
        /// The length a line of this LogKey has.
        expected: usize,
        /// An empty line of this LogKey.
        example: String,
    },
    /// A character that is neither `.` nor the button's mnemonic.
    #[error(
        "Input Log.txt line {line}, column {column}: `{found}` is not `.` or `{mnemonic}` (the mnemonic of {button})"
    )]
    BadChar {
        /// The 1-based line number.
        line: usize,
        /// The 1-based column, in characters.
        column: usize,
        /// The character found.
        found: char,
        /// The button's mnemonic.
        mnemonic: char,
        /// The button.
        button: &'static str,
    },
    /// An axis value that is not a number.
    #[error("Input Log.txt line {line}: the `{name}` value is not a number followed by `,`")]
    BadAxis {
        /// The 1-based line number.
        line: usize,
        /// The axis.
        name: &'static str,
    },
    /// Subframe input: an input length shorter than a whole frame.
    #[error(
        "Input Log.txt line {line}: `{name}` is {value}; only whole frames ({full}) are supported, not subframe input"
    )]
    SubframeInput {
        /// The 1-based line number.
        line: usize,
        /// The axis.
        name: &'static str,
        /// Its value.
        value: i64,
        /// The value of a whole frame.
        full: i64,
    },
    /// More frames than [`MAX_FRAMES`].
    #[error("the input log has more than {MAX_FRAMES} frames")]
    TooManyFrames,
    /// A header key that is empty or holds whitespace or control characters (export).
    #[error("header key `{0}` is empty or holds whitespace or control characters")]
    BadHeaderKey(String),
    /// A header value with a line break (export).
    #[error("the header value of `{0}` holds a line break")]
    BadHeaderValue(String),
    /// The same header key twice (export).
    #[error("the header key `{0}` appears twice")]
    DuplicateHeaderKey(String),
    /// A header `Core` this module cannot write a LogKey for (export).
    #[error("Core `{0}`: export writes movies for Gambatte, GBHawk or SameBoy")]
    UnsupportedCore(String),
    /// A frame presses Power and the core's LogKey has no Power (export).
    #[error("frame {frame} presses Power, but the {core} LogKey has no Power button")]
    PowerNotSupported {
        /// The 0-based frame index.
        frame: usize,
        /// The header's core.
        core: String,
    },
    /// `SyncSettings.json` is not what a Game Boy core writes.
    #[error("SyncSettings.json: {0}")]
    BadSyncSettings(String),
    /// The sync settings pick a console gbhost does not emulate.
    #[error("the movie runs on {0}, which gbhost does not emulate")]
    UnsupportedConsole(&'static str),
    /// A line of `Subtitles.txt`, `Markers.txt` or `LagLog` that does not parse.
    #[error("{entry} line {line}: `{text}` is not what BizHawk writes there")]
    BadNote {
        /// The entry.
        entry: &'static str,
        /// The 1-based line number.
        line: usize,
        /// The line (cut to 40 characters).
        text: String,
    },
    /// A comment, subtitle or marker that would not read back (a line break; a tab in a
    /// marker) (export).
    #[error("{entry}: `{text}` holds a line break (or, in a marker, a tab)")]
    BadNoteText {
        /// The entry.
        entry: &'static str,
        /// The text (cut to 40 characters).
        text: String,
    },
    /// A gbhost movie's `bk2.*` metadata is not what [`Carried::to_metadata`] writes.
    #[error("the movie's metadata `{key}` is damaged: {why}")]
    BadMetadata {
        /// The key.
        key: &'static str,
        /// What is wrong.
        why: String,
    },
    /// The zip writer failed (export).
    #[error("cannot write the archive: {0}")]
    Write(#[source] zip::result::ZipError),
}

impl Bk2 {
    /// A movie for BizHawk's Gambatte core, with the header BizHawk itself starts from:
    /// `MovieVersion`, `Platform GB`, `GameName`, `SHA1` (the ROM's, in hex), `Core Gambatte`,
    /// `rerecordCount 0`, and `IsCGBMode 1` on the CGB; and explicit sync settings
    /// ([`GambatteSync::to_json`]) that pin the console to `model` (`ConsoleMode` 1 GB, 2 GBC)
    /// without the boot ROM ([`Bk2::with_boot_rom`] adds it). Add keys to [`Bk2::header`] as
    /// needed (`Author`, …).
    pub fn gambatte(
        game_name: &str,
        sha1_hex: &str,
        model: gb_core::Model,
        frames: Vec<Bk2Frame>,
    ) -> Bk2 {
        let pair = |k: &str, v: &str| (k.to_string(), v.to_string());
        let mut header = vec![
            pair("MovieVersion", "BizHawk v2.0.0"),
            pair("Platform", "GB"),
            pair("GameName", game_name),
            pair("SHA1", &sha1_hex.to_ascii_uppercase()),
            pair("Core", "Gambatte"),
            pair("rerecordCount", "0"),
        ];
        let console_mode = match model {
            gb_core::Model::Dmg => ConsoleMode::Gb,
            gb_core::Model::Cgb => {
                header.push(pair("IsCGBMode", "1"));
                ConsoleMode::Gbc
            }
        };
        let sync = GambatteSync {
            console_mode,
            enable_bios: false,
        };
        Bk2 {
            header,
            sync_settings: sync.to_json(),
            frames,
            comments: Vec::new(),
            subtitles: Vec::new(),
            markers: Vec::new(),
            lag_log: None,
        }
    }

    /// The movie starting with the official boot ROM whose SHA-1 is `sha1_hex`: `EnableBIOS`
    /// true in the sync settings, and the firmware header BizHawk writes for the boot ROM it
    /// served (`GB_Firmware_World`, or `GBC_Firmware_World` when the settings pin the GBC).
    /// Sync settings that do not parse are replaced by explicit ones.
    pub fn with_boot_rom(mut self, sha1_hex: &str) -> Bk2 {
        let mut sync = GambatteSync::parse(&self.sync_settings).unwrap_or_default();
        sync.enable_bios = true;
        self.sync_settings = sync.to_json();
        let cgb = sync.console_mode == ConsoleMode::Gbc;
        self.set_header(boot::firmware_key(cgb), &sha1_hex.to_ascii_uppercase());
        self
    }

    /// The movie's length in Gambatte's clock: `CycleCount` `cycles` (ticks of
    /// [`CLOCK_RATE`]) and `ClockRate`, as BizHawk writes them once a movie has been played to
    /// its end (`Bk2Movie.IO.cs` `SetCycleValues`).
    pub fn with_cycles(mut self, cycles: u64) -> Bk2 {
        self.set_header("CycleCount", &cycles.to_string());
        self.set_header("ClockRate", &CLOCK_RATE.to_string());
        self
    }

    /// Set (or add, at the end) a header entry.
    pub fn set_header(&mut self, key: &str, value: &str) {
        match self.header.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => *v = value.to_string(),
            None => self.header.push((key.to_string(), value.to_string())),
        }
    }

    /// The model the movie runs on in BizHawk: the CGB when its header says `IsCGBMode 1` or
    /// `Platform GBC`, or its sync settings pin `ConsoleMode` 2 (GBC); the DMG when they pin 1
    /// (GB); else `None` (BizHawk chose from the ROM's header). Unreadable sync settings count
    /// as none here; [`Bk2::console`] reports them.
    pub fn model(&self) -> Option<gb_core::Model> {
        self.console().ok().flatten()
    }

    /// Like [`Bk2::model`], but an error for sync settings that do not parse and for the
    /// consoles gbhost does not emulate (`ConsoleMode` GBA or SGB2).
    pub fn console(&self) -> Result<Option<gb_core::Model>, Bk2Error> {
        let sync = GambatteSync::parse(&self.sync_settings)?;
        match sync.console_mode {
            ConsoleMode::Gba => return Err(Bk2Error::UnsupportedConsole("a GBC in a GBA")),
            ConsoleMode::Sgb2 => return Err(Bk2Error::UnsupportedConsole("the Super Game Boy 2")),
            _ => {}
        }
        if self.header_value("IsCGBMode").map(str::trim) == Some("1")
            || self.header_value("Platform").map(str::trim) == Some("GBC")
        {
            return Ok(Some(gb_core::Model::Cgb));
        }
        Ok(match sync.console_mode {
            ConsoleMode::Gb => Some(gb_core::Model::Dmg),
            ConsoleMode::Gbc => Some(gb_core::Model::Cgb),
            _ => None,
        })
    }

    /// Whether the movie starts with the official boot ROM in BizHawk, and the SHA-1 BizHawk
    /// recorded for it: `Some(hash)` when a firmware header names one (BizHawk writes it for
    /// every boot ROM it served, also one it forced, see [`bios_forced`]), `Some(None)` when
    /// only `EnableBIOS` says so, `None` when it starts from the post-boot state.
    pub fn boot_rom(&self) -> Result<Option<Option<String>>, Bk2Error> {
        if let Some(hash) = boot::FIRMWARE_KEYS
            .iter()
            .find_map(|k| self.header_value(k))
            .map(str::trim)
            .filter(|h| !h.is_empty())
        {
            return Ok(Some(Some(hash.to_ascii_uppercase())));
        }
        let sync = GambatteSync::parse(&self.sync_settings)?;
        Ok(sync.enable_bios.then_some(None))
    }

    /// The value of the first header entry named `key` (case-sensitive, as in BizHawk).
    pub fn header_value(&self, key: &str) -> Option<&str> {
        self.header
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The `rerecordCount` header value, or 0 when it is missing or not a number.
    pub fn rerecords(&self) -> u64 {
        self.header_value("rerecordCount")
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0)
    }
}

// ---------------------------------------------------------------------------------------------
// Controls: what a LogKey name means.

/// One column of an input-log line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Control {
    /// A joypad button.
    Button {
        bit: Buttons,
        mnemonic: u8,
        name: &'static str,
    },
    /// BizHawk's Power button.
    Power,
    /// A subframe axis: only its whole-frame value is accepted.
    Axis { name: &'static str, full: i64 },
}

impl Control {
    /// The control a LogKey name stands for (a `P1 ` prefix dropped, as the mnemonic lookup
    /// does).
    fn from_name(name: &str) -> Option<Control> {
        let base = name.strip_prefix("P1 ").unwrap_or(name);
        let button = |bit, mnemonic, name| {
            Some(Control::Button {
                bit,
                mnemonic,
                name,
            })
        };
        match base {
            "Up" => button(Buttons::UP, b'U', "Up"),
            "Down" => button(Buttons::DOWN, b'D', "Down"),
            "Left" => button(Buttons::LEFT, b'L', "Left"),
            "Right" => button(Buttons::RIGHT, b'R', "Right"),
            "Start" => button(Buttons::START, b'S', "Start"),
            "Select" => button(Buttons::SELECT, b's', "Select"),
            "B" => button(Buttons::B, b'B', "B"),
            "A" => button(Buttons::A, b'A', "A"),
            "Power" => Some(Control::Power),
            // Gambatte's subframe axis is not player-prefixed; GBHawk's neither.
            _ if name == "Input Length" => Some(Control::Axis {
                name: "Input Length",
                full: 35112,
            }),
            _ if name == "Input Cycle" => Some(Control::Axis {
                name: "Input Cycle",
                full: 70224,
            }),
            _ => None,
        }
    }

    /// The character this control takes in an empty line (an axis: the example value).
    fn empty_text(self) -> String {
        match self {
            Control::Button { .. } | Control::Power => ".".to_string(),
            Control::Axis { full, .. } => format!("{full:>5},"),
        }
    }
}

/// The columns of a LogKey, in order.
#[derive(Clone, Debug)]
struct Layout {
    controls: Vec<Control>,
}

impl Layout {
    /// Parse a LogKey (without `LogKey:`); `line` is its line number, for errors.
    fn parse(key: &str, line: usize) -> Result<Layout, Bk2Error> {
        let mut controls: Vec<Control> = Vec::new();
        let names = key
            .split('#')
            .flat_map(|group| group.split('|'))
            .filter(|name| !name.is_empty());
        for name in names {
            let control = Control::from_name(name).ok_or_else(|| Bk2Error::UnknownControl {
                line,
                name: cut(name, 40),
            })?;
            if controls.contains(&control) {
                return Err(Bk2Error::DuplicateControl {
                    line,
                    name: cut(name, 40),
                });
            }
            controls.push(control);
        }
        let buttons = [
            (Buttons::UP, "Up"),
            (Buttons::DOWN, "Down"),
            (Buttons::LEFT, "Left"),
            (Buttons::RIGHT, "Right"),
            (Buttons::START, "Start"),
            (Buttons::SELECT, "Select"),
            (Buttons::B, "B"),
            (Buttons::A, "A"),
        ];
        for (bit, button) in buttons {
            let present = controls
                .iter()
                .any(|c| matches!(c, Control::Button { bit: b, .. } if *b == bit));
            if !present {
                return Err(Bk2Error::MissingControl { line, button });
            }
        }
        Ok(Layout { controls })
    }

    /// The LogKey of a core named in the header (`None` or empty: Gambatte, BizHawk's default
    /// Game Boy core).
    fn key_for_core(core: Option<&str>) -> Option<&'static str> {
        match core.map(str::trim) {
            None | Some("") | Some("Gambatte") => Some(GAMBATTE_LOG_KEY),
            Some("GBHawk") => Some(GBHAWK_LOG_KEY),
            Some("SameBoy") => Some(SAMEBOY_LOG_KEY),
            Some(_) => None,
        }
    }

    /// A line with nothing pressed.
    fn empty_line(&self) -> String {
        let mut s = String::from("|");
        for c in &self.controls {
            s.push_str(&c.empty_text());
        }
        s.push('|');
        s
    }

    fn has_power(&self) -> bool {
        self.controls.contains(&Control::Power)
    }

    /// Parse one frame line (it starts with `|`). Like BizHawk, `|` between controls is
    /// skipped (so the `|.........||` of BizHawk 2.10 reads too); unlike BizHawk, a column
    /// must hold `.` or the button's own mnemonic, and the line must end right after the last
    /// control with one or more `|`.
    fn parse_line(&self, text: &str, line: usize) -> Result<Bk2Frame, Bk2Error> {
        if text.len() > MAX_LINE_BYTES {
            return Err(Bk2Error::LineTooLong {
                line,
                len: text.len(),
            });
        }
        let bytes = text.as_bytes();
        let bad_length = || {
            let example = self.empty_line();
            Bk2Error::BadLineLength {
                line,
                text: text.to_string(),
                found: text.chars().count(),
                expected: example.len(),
                example,
            }
        };
        let mut frame = Bk2Frame::default();
        let mut pos = 0;
        for &control in &self.controls {
            while bytes.get(pos) == Some(&b'|') {
                pos += 1;
            }
            let Some(&byte) = bytes.get(pos) else {
                return Err(bad_length());
            };
            match control {
                Control::Button {
                    bit,
                    mnemonic,
                    name,
                } => {
                    if byte == mnemonic {
                        frame.buttons = frame.buttons | bit;
                    } else if byte != b'.' {
                        return Err(bad_char(text, pos, line, mnemonic, name));
                    }
                    pos += 1;
                }
                Control::Power => {
                    if byte == b'P' {
                        frame.power = true;
                    } else if byte != b'.' {
                        return Err(bad_char(text, pos, line, b'P', "Power"));
                    }
                    pos += 1;
                }
                Control::Axis { name, full } => {
                    let rest = &bytes[pos..];
                    let comma = rest
                        .iter()
                        .take(16)
                        .position(|&b| b == b',')
                        .ok_or(Bk2Error::BadAxis { line, name })?;
                    let value: i64 = std::str::from_utf8(&rest[..comma])
                        .ok()
                        .and_then(|s| s.trim().parse().ok())
                        .ok_or(Bk2Error::BadAxis { line, name })?;
                    if value != full {
                        return Err(Bk2Error::SubframeInput {
                            line,
                            name,
                            value,
                            full,
                        });
                    }
                    pos += comma + 1;
                }
            }
        }
        let tail = &bytes[pos..];
        if tail.is_empty() || tail.iter().any(|&b| b != b'|') {
            return Err(bad_length());
        }
        Ok(frame)
    }

    /// Write one frame line.
    fn write_line(&self, frame: Bk2Frame, out: &mut String) {
        out.push('|');
        for &control in &self.controls {
            match control {
                Control::Button { bit, mnemonic, .. } => {
                    out.push(if frame.buttons.contains(bit) {
                        char::from(mnemonic)
                    } else {
                        '.'
                    });
                }
                Control::Power => out.push(if frame.power { 'P' } else { '.' }),
                Control::Axis { .. } => out.push_str(&control.empty_text()),
            }
        }
        out.push('|');
    }
}

/// The error for a wrong character at byte `pos` of `text`.
fn bad_char(text: &str, pos: usize, line: usize, mnemonic: u8, button: &'static str) -> Bk2Error {
    let found = text
        .get(pos..)
        .and_then(|s| s.chars().next())
        .unwrap_or(char::REPLACEMENT_CHARACTER);
    Bk2Error::BadChar {
        line,
        column: text.get(..pos).map_or(pos, |s| s.chars().count()) + 1,
        found,
        mnemonic: char::from(mnemonic),
        button,
    }
}

/// `s` cut to `n` characters (with `…` when cut), for error messages.
fn cut(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// The lines of a text: split at LF, a CR before it dropped, a leading byte-order mark dropped.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l))
}

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
        Some("GB" | "GBC") => {}
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
    movie.frames = parse_input_log(&input_text, movie.header_value("Core"))?;
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

/// `Input Log.txt`: the frames, read with the movie's LogKey (or, without one, the LogKey of
/// the header's core).
fn parse_input_log(text: &str, core: Option<&str>) -> Result<Vec<Bk2Frame>, Bk2Error> {
    let mut layout: Option<Layout> = None;
    let mut frames = Vec::new();
    for (index, line) in lines(text).enumerate() {
        let number = index + 1;
        if line.starts_with('|') {
            if frames.len() == MAX_FRAMES {
                return Err(Bk2Error::TooManyFrames);
            }
            let layout = match &mut layout {
                Some(layout) => layout,
                None => {
                    let key = Layout::key_for_core(core)
                        .ok_or_else(|| Bk2Error::MissingLogKey(cut(core.unwrap_or(""), 40)))?;
                    layout.insert(Layout::parse(key, number)?)
                }
            };
            frames.push(layout.parse_line(line, number)?);
        } else if let Some(key) = line.strip_prefix("LogKey:") {
            if !frames.is_empty() {
                return Err(Bk2Error::MisplacedLogKey {
                    line: number,
                    what: "a LogKey after the first frame",
                });
            }
            if layout.is_some() {
                return Err(Bk2Error::MisplacedLogKey {
                    line: number,
                    what: "a second LogKey",
                });
            }
            // An empty LogKey means "the core's own", as in BizHawk.
            layout = Some(if key.trim().is_empty() {
                let key = Layout::key_for_core(core)
                    .ok_or_else(|| Bk2Error::MissingLogKey(cut(core.unwrap_or(""), 40)))?;
                Layout::parse(key, number)?
            } else {
                Layout::parse(key, number)?
            });
        } else if line.trim().is_empty()
            || line == "[Input]"
            || line == "[/Input]"
            || line.starts_with("Frame ")
        {
            // Section markers; `Frame N` belongs to savestates and means nothing here.
        } else {
            return Err(Bk2Error::UnexpectedLine {
                line: number,
                text: cut(line, 40),
            });
        }
    }
    Ok(frames)
}

// ---------------------------------------------------------------------------------------------
// Writing.

/// Write a `.bk2` that BizHawk opens: its seven entries in its order, deflated, with CRLF line
/// breaks, the LogKey of the header's `Core` (Gambatte when there is none).
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
        Some("GB" | "GBC") => {}
        Some(other) => return Err(Bk2Error::NotGameBoy(cut(other, 40))),
    }

    // Input log, with the core's LogKey.
    let core = movie.header_value("Core");
    let key = Layout::key_for_core(core)
        .ok_or_else(|| Bk2Error::UnsupportedCore(cut(core.unwrap_or(""), 40)))?;
    let layout = Layout::parse(key, 0)?;
    if movie.frames.len() > MAX_FRAMES {
        return Err(Bk2Error::TooManyFrames);
    }
    if !layout.has_power()
        && let Some(frame) = movie.frames.iter().position(|f| f.power)
    {
        return Err(Bk2Error::PowerNotSupported {
            frame,
            core: core.unwrap_or("").to_string(),
        });
    }
    let mut input =
        String::with_capacity(64 + movie.frames.len() * (layout.empty_line().len() + 2));
    input.push_str("[Input]\r\nLogKey:");
    input.push_str(key);
    input.push_str("\r\n");
    for &frame in &movie.frames {
        layout.write_line(frame, &mut input);
        input.push_str("\r\n");
    }
    input.push_str("[/Input]\r\n");

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

#[cfg(test)]
mod tests {
    use super::*;

    fn layout() -> Layout {
        Layout::parse(GAMBATTE_LOG_KEY, 1).unwrap()
    }

    #[test]
    fn bk2_gambatte_line_round_trip() {
        let layout = layout();
        for bits in 0..=255u8 {
            for power in [false, true] {
                let frame = Bk2Frame {
                    buttons: Buttons(bits),
                    power,
                };
                let mut line = String::new();
                layout.write_line(frame, &mut line);
                assert_eq!(line.len(), 11);
                assert_eq!(layout.parse_line(&line, 1).unwrap(), frame);
            }
        }
    }

    #[test]
    fn bk2_mnemonics_follow_the_log_key_order() {
        let mut line = String::new();
        let all = Bk2Frame {
            buttons: Buttons(0xff),
            power: true,
        };
        layout().write_line(all, &mut line);
        assert_eq!(line, "|UDLRSsBAP|");
        let sameboy = Layout::parse(SAMEBOY_LOG_KEY, 1).unwrap();
        line.clear();
        sameboy.write_line(
            Bk2Frame {
                buttons: Buttons(0xff),
                power: false,
            },
            &mut line,
        );
        assert_eq!(line, "|UDLRABsS|");
    }

    #[test]
    fn bk2_extra_pipes_are_skipped() {
        let layout = layout();
        let a = layout.parse_line("|.......A.||", 1).unwrap();
        assert_eq!(a.buttons, Buttons::A);
        assert!(layout.parse_line("||U........|", 1).is_ok());
        assert!(matches!(
            layout.parse_line("|.........", 1),
            Err(Bk2Error::BadLineLength { .. })
        ));
        assert!(matches!(
            layout.parse_line("|..........|", 1),
            Err(Bk2Error::BadLineLength { .. })
        ));
    }

    #[test]
    fn bk2_bad_char_names_its_column() {
        let err = layout().parse_line("|U.x......|", 7).unwrap_err();
        match err {
            Bk2Error::BadChar {
                line,
                column,
                found,
                mnemonic,
                button,
            } => {
                assert_eq!(
                    (line, column, found, mnemonic, button),
                    (7, 4, 'x', 'L', "Left")
                );
            }
            other => panic!("{other}"),
        }
    }
}
