//! [`Event`] and [`EventKind`]: one outside input to the session and when it happens (the
//! entries of the event log, of state files and of movies).

use gb_core::{Buttons, Domain};

use super::flavor::Flavor;
use super::hash::SourceHash;
use super::window_input::{FormValue, HostInput};

/// One outside input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// The buttons the user holds from now on (the first player's).
    Joypad(Buttons),
    /// The buttons a later player holds from now on (`player` 1: the second Game Boy of a
    /// linked pair; the first player's are [`EventKind::Joypad`]).
    PlayerJoypad {
        /// The player, from 0 for the first (always at least 1 here).
        player: u8,
        /// The buttons held.
        buttons: Buttons,
    },
    /// The script about to load in `slot` runs against `player`'s Game Boy (logged just
    /// before its `ScriptLoad`; a load without one runs against the first player).
    ScriptPlayer {
        /// The script's slot.
        slot: u32,
        /// The player, from 0 for the first.
        player: u8,
    },
    /// The link cable is plugged in or pulled out.
    Cable {
        /// Plugged in (true) or pulled out.
        plugged: bool,
    },
    /// A write from a console or cheat (not from a script: scripts are replayed instead).
    Poke {
        /// The address.
        addr: u16,
        /// The value written.
        value: u8,
    },
    /// A write into a memory as a flat array (a console or debugger poke into a bank that is
    /// not mapped now: `poke 3:D000 12`, or a flat domain from the console's Lua).
    PokeMemory {
        /// The memory (never the ROM).
        domain: Domain,
        /// Offset in it.
        offset: u32,
        /// The value written.
        value: u8,
    },
    /// A script is loaded into slot `slot` (a fresh VM), running the source with `hash`.
    ScriptLoad {
        /// The script's slot id (unique over the session).
        slot: u32,
        /// Its name, shown to the user (a file name).
        name: String,
        /// The version of the source it runs (the text is in the session's source store).
        hash: SourceHash,
        /// The API it is written for.
        flavor: Flavor,
    },
    /// The script in `slot` re-runs a new version of its source on its current data.
    ScriptReload {
        /// The script's slot.
        slot: u32,
        /// The version it runs from now on.
        hash: SourceHash,
    },
    /// The script in `slot` is unloaded.
    ScriptUnload {
        /// The script's slot.
        slot: u32,
    },
    /// Play resumed after a rewind (the scripts' `on_rewind` hooks run).
    Resumed,
    /// The user loaded a state: the session's in-memory state number `index` (states are
    /// never changed once saved, so a replay loads the same bytes).
    LoadState {
        /// Which state.
        index: usize,
    },
    /// The `persist` table of the script in `slot` is set to `data` (encoded by
    /// `codec::encode_persist`); logged before a script a state file restarts is loaded, so it
    /// starts with the data it had.
    Persist {
        /// The script's slot (it may not be loaded yet).
        slot: u32,
        /// The encoded table.
        data: Vec<u8>,
    },
    /// The user acted on a control of a form of the script in `slot` (the script's model of
    /// the form is updated and its callbacks run).
    Form {
        /// The script's slot.
        slot: u32,
        /// The control's (or, for [`FormValue::Close`], the form's) handle.
        control: u32,
        /// What the user did.
        value: FormValue,
    },
    /// The host's keys and mouse from now on (logged only while a script reads them).
    HostInput(HostInput),
    /// The script in `slot` read the file `path` of its folder, whose bytes had hash `hash`
    /// (FNV-1a). A replay reads the file again and reports a difference.
    FileRead {
        /// The script's slot.
        slot: u32,
        /// The path, relative to the script's folder, as the script gave it.
        path: String,
        /// FNV-1a of the bytes read (of nothing: the file was missing).
        hash: u64,
    },
    /// The wall-clock time the session started at (Unix seconds): scripts' `os.time` and
    /// `os.date` count on from it in emulated time. Logged once, before the first frame.
    Clock {
        /// Unix seconds.
        unix: u64,
    },
    /// A cheat code turned on or off (its canonical text, see
    /// [`crate::tools::cheats::canonical`]): Game Genie codes patch ROM reads from now on,
    /// GameShark codes write RAM at the start of every frame.
    Cheat {
        /// The code, canonical.
        code: String,
        /// On (true) or off.
        on: bool,
    },
}

/// An event and when it happens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The frame it belongs to.
    pub frame: u64,
    /// The core cycle it applies at (at most the frame's first cycle: before the frame runs).
    pub cycle: u64,
    /// What happens.
    pub kind: EventKind,
}
