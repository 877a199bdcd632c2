//! [`Bk2Error`]: why a `.bk2` could not be read or written, each case saying what and where.

use super::limits::{MAX_ENTRIES, MAX_ENTRY_BYTES, MAX_FRAMES, MAX_LINE_BYTES};

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
    /// `Platform` is not `GB`, `GBC`, or a linked pair's `GBL` (older BizHawk: `DGB`).
    #[error("Platform is `{0}`: not a Game Boy movie (GB, GBC, or GBL for a linked pair)")]
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
    #[error(
        "Input Log.txt line {line}: the LogKey has no `P{player} {button}`, so it is not a Game Boy key"
    )]
    MissingControl {
        /// The 1-based line number.
        line: usize,
        /// The player (1, or 2 in a linked pair's key) whose button is missing.
        player: u8,
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
    #[error("Core `{0}`: export writes movies for Gambatte, GambatteLink, GBHawk or SameBoy")]
    UnsupportedCore(String),
    /// A frame presses Power and the core's LogKey has no Power (export).
    #[error("frame {frame} presses Power, but the {core} LogKey has no Power button")]
    PowerNotSupported {
        /// The 0-based frame index.
        frame: usize,
        /// The header's core.
        core: String,
    },
    /// A frame holds player 2's input or toggles the cable, and the core's LogKey is one
    /// Game Boy's (export).
    #[error(
        "frame {frame} has input of a linked pair (player 2's buttons or the cable), but the {core} LogKey is one Game Boy's (GambatteLink's has both)"
    )]
    LinkNotSupported {
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
    /// A gbhost movie's `bk2.*` metadata is not what [`Carried::to_metadata`](super::carry::Carried::to_metadata) writes.
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
