//! The Lua API, described once: every function scripts can call, its parameters, results and
//! documentation. From this table come the host-function registrations ([`register`]), the
//! reference `docs/lua-api.md` ([`markdown`]) and the LuaLS definitions
//! `scripts/types/gbhost.d.lua` ([`luals`]); a test fails when the generated files are stale.
//!
//! Functions with a host id are answered in Rust (`api/mod.rs`); the others are written in Lua
//! (`prelude.lua`) on top of them, and are documented here all the same.

use lua_rollback::VmBuilder;

/// One API function.
#[derive(Clone, Debug)]
pub struct Function {
    /// Dotted name (`memory.read_u8`).
    pub name: String,
    /// Parameters: name and LuaLS type (`integer`, `string?` for optional ones).
    pub params: Vec<(&'static str, &'static str)>,
    /// Result type, LuaLS syntax; empty for none.
    pub returns: &'static str,
    /// What it does.
    pub doc: String,
    /// The host function id, or `None` when written in Lua.
    pub host: Option<u32>,
}

/// Widths of the memory accessors: suffix, bytes, signed, big-endian.
pub const WIDTHS: [(&str, usize, bool, bool); 10] = [
    ("u8", 1, false, false),
    ("s8", 1, true, false),
    ("u16_le", 2, false, false),
    ("u16_be", 2, false, true),
    ("s16_le", 2, true, false),
    ("s16_be", 2, true, true),
    ("u32_le", 4, false, false),
    ("u32_be", 4, false, true),
    ("s32_le", 4, true, false),
    ("s32_be", 4, true, true),
];

/// Host ids of the memory reads: `READ + index in WIDTHS`.
pub const READ: u32 = 100;
/// Host ids of the memory writes: `WRITE + index in WIDTHS`.
pub const WRITE: u32 = 200;

/// Host ids of the accessors bound to one domain (what the compatibility layers call, so a
/// call through them costs what the native call costs): `FIXED + method * 512 + domain * 32 +
/// write * 16 + index in WIDTHS`, `domain` an index in [`FIXED_DOMAINS`]. A method variant
/// skips its first argument (the object of `emu:read8(addr)`); the domain is the default, an
/// explicit domain argument still wins. They are not registered: the prelude makes them on
/// demand through the host-function factory `_gbmake` (`gbhost.accessors`).
pub const FIXED: u32 = 1000;
/// The domains of the [`FIXED`] accessors, by index.
pub const FIXED_DOMAINS: [&str; 8] = ["bus", "io", "rom", "wram", "vram", "oam", "hram", "cartram"];

/// Host function ids (the memory accessors excepted), named after their functions.
#[allow(missing_docs)]
pub mod id {
    pub const FRAMECOUNT: u32 = 1;
    pub const TEXT: u32 = 2;
    pub const PERSIST_GET: u32 = 3;
    pub const PERSIST_SET: u32 = 4;
    pub const SAVE: u32 = 5;
    pub const LOAD: u32 = 6;
    pub const READ_BYTES: u32 = 7;
    pub const WRITE_BYTES: u32 = 8;
    pub const SEARCH: u32 = 9;
    pub const GETREGISTER: u32 = 10;
    pub const SETREGISTER: u32 = 11;
    pub const MODEL: u32 = 12;
    pub const ROM_TITLE: u32 = 13;
    pub const ROM_HASH: u32 = 14;
    pub const JOYPAD_GET: u32 = 15;
    pub const JOYPAD_IMMEDIATE: u32 = 16;
    pub const PIXEL_TEXT: u32 = 17;
    pub const BOX: u32 = 18;
    pub const LINE: u32 = 19;
    pub const PIXEL: u32 = 20;
    pub const CLEAR: u32 = 21;
    pub const DOMAIN_SIZE: u32 = 22;
    pub const LAGCOUNT: u32 = 23;
    pub const ISLAGGED: u32 = 24;
    pub const WATCH_CHANGED: u32 = 25;
    pub const IMAGE: u32 = 26;
    pub const FILE_READ: u32 = 27;
    pub const FILE_WRITE: u32 = 28;
    pub const CLOCK: u32 = 29;
    pub const IMAGE_REGION: u32 = 30;
    pub const MOVIE: u32 = 31;
    pub const MOVIE_INPUT: u32 = 32;
    pub const RGBA: u32 = 33;
    pub const IMAGE_DATA: u32 = 34;
    pub const TAS: u32 = 35;
    pub const TAS_REQUEST: u32 = 36;
    pub const DISASM: u32 = 37;
    pub const SYMBOL: u32 = 38;
    pub const APU: u32 = 39;
    pub const PLAYER: u32 = 40;
    pub const PLAYERS: u32 = 41;
    // Scripts' windows and the app's window (60-69).
    pub const UI_CHANGED: u32 = 60;
    pub const INPUT_USED: u32 = 61;
    pub const CLIENT: u32 = 62;
}

const DOMAIN_DOC: &str = "`domain` is one of `bus` (the default: the CPU's view, read without side effects), \
`rom`, `wram`, `vram`, `oam`, `hram`, `io` (0xFF00-0xFF7F and 0xFFFF on the bus) and `cartram`; \
`rom` and `cartram` are flat over every bank (bank `b`, offset `o` at `b * 0x4000 + o` and `b * 0x2000 + o`). \
On a linked pair `p1 ` or `p2 ` before a name reaches that player's Game Boy (`p2 wram`; the script's own without it), \
as BizHawk's link core names its domains; the console reads both and writes player 1's only.";

fn f(
    name: &str,
    params: &[(&'static str, &'static str)],
    returns: &'static str,
    doc: &str,
    host: Option<u32>,
) -> Function {
    Function {
        name: name.to_owned(),
        params: params.to_vec(),
        returns,
        doc: doc.to_owned(),
        host,
    }
}

/// Every function of the native API, grouped by table.
pub fn functions() -> Vec<Function> {
    let mut v = Vec::new();
    for (i, &(suffix, bytes, signed, big)) in WIDTHS.iter().enumerate() {
        let what = format!(
            "{} {}-bit{}",
            if signed { "a signed" } else { "an unsigned" },
            bytes * 8,
            match (bytes, big) {
                (1, _) => String::new(),
                (_, true) => " big-endian".to_owned(),
                _ => " little-endian".to_owned(),
            }
        );
        v.push(f(
            &format!("memory.read_{suffix}"),
            &[("addr", "integer"), ("domain", "string?")],
            "integer",
            &format!(
                "Read {what} value at `addr` of `domain` (see Domains), without side effects."
            ),
            Some(READ + i as u32),
        ));
        v.push(f(
            &format!("memory.write_{suffix}"),
            &[
                ("addr", "integer"),
                ("value", "integer"),
                ("domain", "string?"),
            ],
            "",
            &format!(
                "Write {what} value at `addr`. On the `bus` it is a write as the CPU would make \
                 it (I/O registers react); in other domains the bytes change and nothing else. \
                 Writes to `rom` are refused. A script's writes are replayed with it on a rewind."
            ),
            Some(WRITE + i as u32),
        ));
    }
    v.extend([
        f("memory.read_bytes", &[("addr", "integer"), ("n", "integer"), ("domain", "string?")], "string",
          "Read `n` bytes (at most 1 MiB) from `addr` as a string.", Some(id::READ_BYTES)),
        f("memory.write_bytes", &[("addr", "integer"), ("bytes", "string"), ("domain", "string?")], "",
          "Write the bytes of a string from `addr` on.", Some(id::WRITE_BYTES)),
        f("memory.search", &[("bytes", "string"), ("domain", "string?")], "integer[]",
          "Every address where `bytes` occurs in the domain (default `wram`), found in native code: \
           a table of addresses in increasing order (at most 65,536).", None),
        f("memory.ramsearch", &[("options", "{domain: string?, size: integer?, signed: boolean?, big: boolean?, aligned: boolean?}?")], "table",
          "Start a RAM search (the app's RAM Search and the REPL's `search`, in the script's own \
           memory, so it rewinds with the game): every value of `domain` (default `wram`) of \
           `size` bytes (1, 2 or 4; `signed`, `big`-endian, `aligned` to the size unless false) \
           is a candidate. Methods: `s:filter(op [, value])` keeps those whose value compares \
           (`lt gt le ge eq ne` or `< > <= >= == ~=`) with their previous value or `value`; \
           `s:filter(\"by\", n [, value])` those that differ by exactly `n`; \
           `s:filter(\"changes\", op, n)` compares change counts; each returns the number left \
           and makes the values the new previous ones. `s:update()` counts changes (call it \
           once per frame), `s:undo()` takes the last filter back, `s:count()`, and \
           `s:candidates([max])` lists `{addr, value, previous, changes}` (`addr`: an offset in \
           the domain).", None),
        f("memory.size", &[("domain", "string")], "integer",
          "The size of a domain in bytes (0x10000 for `bus`).", Some(id::DOMAIN_SIZE)),
        f("emu.framecount", &[], "integer",
          "Frames completed on the timeline (rolls back with a rewind).", Some(id::FRAMECOUNT)),
        f("emu.frameadvance", &[], "",
          "Yield the script's main coroutine until the end of the next frame.", None),
        f("emu.yield", &[], "", "Same as `emu.frameadvance`.", None),
        f("emu.lagcount", &[], "integer",
          "Lag frames since power-on: frames in which the game did not read the joypad.",
          Some(id::LAGCOUNT)),
        f("emu.islagged", &[], "boolean",
          "Whether the last frame was a lag frame.", Some(id::ISLAGGED)),
        f("emu.getregister", &[("name", "string")], "integer",
          "A CPU register: `a f b c d e h l af bc de hl sp pc` (any case).", Some(id::GETREGISTER)),
        f("emu.getregisters", &[], "table<string, integer>",
          "Every CPU register, by name.", None),
        f("emu.setregister", &[("name", "string"), ("value", "integer")], "",
          "Set a CPU register (replayed with the script on a rewind).", Some(id::SETREGISTER)),
        f("emu.model", &[], "string", "The emulated model: `DMG` or `CGB`.", Some(id::MODEL)),
        f("emu.rom_title", &[], "string", "The title in the cartridge header.", Some(id::ROM_TITLE)),
        f("emu.symbol", &[("name", "string")], "integer?, integer?",
          "The address and bank of a symbol of the ROM's RGBDS `.sym` file (loaded beside the \
           ROM: `emu.symbol(\"wPlayerHP\")`), or nil. A lookup is read like a file: logged, and \
           checked on a replay (a movie played without the same `.sym` says so).", Some(id::SYMBOL)),
        f("debugger.disasm", &[("addr", "integer")], "string, integer",
          "The instruction at `addr` (on the bus, read without side effects) as the assembler \
           writes it (`ld a, [$C0A0]`), and its length in bytes.", Some(id::DISASM)),
        f("debugger.on_exec", &[("addr", "integer"), ("fn", "fun(addr: integer, opcode: integer, bank: integer?)"), ("bank", "integer?")], "integer",
          "Call `fn` before the instruction at `addr` runs (in `bank` only, when given): \
           `event.on_bus_exec` with the debugger's argument order. Returns an id for \
           `event.unregister`. Scripts' hooks run the script; the machine stops for the \
           debugger's breakpoints (`break` in the REPL), never for a script.", None),
        f("debugger.on_read", &[("addr", "integer"), ("fn", "fun(addr: integer, value: integer, bank: integer?)"), ("len", "integer?"), ("bank", "integer?")], "integer",
          "Call `fn` after each CPU read of `addr` (or `len` addresses): `event.on_bus_read`.", None),
        f("debugger.on_write", &[("addr", "integer"), ("fn", "fun(addr: integer, value: integer, bank: integer?)"), ("len", "integer?"), ("bank", "integer?")], "integer",
          "Call `fn` after each CPU write to `addr` (or `len` addresses), once the value has \
           landed: `event.on_bus_write`.", None),
        f("emu.rom_hash", &[], "string",
          "The ROM image's FNV-1a hash, 16 hex digits.", Some(id::ROM_HASH)),
        f("emu.player", &[], "integer",
          "The player whose Game Boy the script runs against: 1, or 2 for a script loaded on \
           the second Game Boy of a linked pair (`--script2`, the REPL's `load FILE --player 2`, \
           the window's Link menu). Every call of the script (memory, registers, the joypad, `emu.model`, \
           `emu.rom_title`) is that player's, and its overlay is drawn on that player's screen.",
          Some(id::PLAYER)),
        f("emu.players", &[], "integer",
          "How many Game Boys the session runs: 1, or 2 on a link cable.", Some(id::PLAYERS)),
        f("joypad.set", &[("buttons", "table|integer")], "",
          "Buttons for the next frame: `{A = true, Left = false}` presses A and releases Left \
           whatever the user holds (absent buttons are left to the user); an integer mask \
           (bit 0 Right … bit 7 Start) holds exactly those buttons.", None),
        f("joypad.get", &[], "table<string, boolean>",
          "The buttons the game sees this frame (the user's, with scripts' overrides).", None),
        f("joypad.getimmediate", &[], "table<string, boolean>",
          "The buttons the user holds, without scripts' overrides.", None),
        f("event.on_frame_start", &[("fn", "function")], "integer",
          "Call `fn` at the start of every frame; returns an id for `event.unregister`.", None),
        f("event.on_frame_end", &[("fn", "function")], "integer",
          "Call `fn` at the end of every frame; returns an id for `event.unregister`.", None),
        f("event.on_input_poll", &[("fn", "function")], "integer",
          "Call `fn` when the frame's input is decided (at frame start, before the core runs).", None),
        f("event.on_load_state", &[("fn", "function")], "integer",
          "Call `fn` after a state load (the user's, or one a script asked for).", None),
        f("event.on_rewind", &[("fn", "function")], "integer",
          "Call `fn` when play resumes after a rewind (the script was rolled back with the game).", None),
        f("event.on_exit", &[("fn", "function")], "integer",
          "Call `fn` when the script is unloaded.", None),
        f("event.on_bus_read", &[("fn", "fun(addr: integer, value: integer, bank: integer?)"), ("addr", "integer"), ("len", "integer?"), ("bank", "integer?")], "integer",
          "Call `fn(addr, value, bank)` after each CPU read of `addr` (or of `len` addresses from \
           it), with the value read and the bank mapped there (ROM, cartridge RAM, and on the \
           CGB VRAM and work RAM 0xD000-0xDFFF; nil elsewhere). With `bank`, only accesses in \
           that bank call it. The core stops at the end of that instruction to run the hook; \
           with no hooks set, nothing is checked.", None),
        f("event.on_bus_write", &[("fn", "fun(addr: integer, value: integer, bank: integer?)"), ("addr", "integer"), ("len", "integer?"), ("bank", "integer?")], "integer",
          "Call `fn(addr, value, bank)` after each CPU write to `addr` (or a range), once the \
           value has landed, with the value written (`bank` as for `on_bus_read`).", None),
        f("event.on_bus_exec", &[("fn", "fun(addr: integer, opcode: integer, bank: integer?)"), ("addr", "integer"), ("len", "integer?"), ("bank", "integer?")], "integer",
          "Call `fn(addr, opcode, bank)` before the CPU runs the instruction at `addr` (or a \
           range; with `bank`, only in that ROM bank, e.g. one routine of a banked game): \
           registers read and set there are the instruction's (`emu.getregister`).", None),
        f("event.unregister", &[("id", "integer")], "boolean",
          "Remove a hook; true if it existed.", None),
        f("gui.text", &[("x", "integer"), ("y", "integer"), ("text", "string"), ("color", "integer|string?")], "",
          "Text with its top-left corner at (x, y), in screen pixels (160 × 144). Colours: \
           0xAARRGGBB (0xRRGGBB is opaque), `#RRGGBB`, `#AARRGGBB` or a name (white, black, red, \
           green, blue, yellow, cyan, magenta, gray, clear).", Some(id::TEXT)),
        f("gui.pixel_text", &[("x", "integer"), ("y", "integer"), ("text", "string"), ("fg", "integer|string?"), ("bg", "integer|string?")], "",
          "Text in the small pixel font, with an optional background.", Some(id::PIXEL_TEXT)),
        f("gui.box", &[("x1", "integer"), ("y1", "integer"), ("x2", "integer"), ("y2", "integer"), ("line", "integer|string?"), ("fill", "integer|string?")], "",
          "A rectangle between two corners, outlined and optionally filled.", Some(id::BOX)),
        f("gui.line", &[("x1", "integer"), ("y1", "integer"), ("x2", "integer"), ("y2", "integer"), ("color", "integer|string?")], "",
          "A line.", Some(id::LINE)),
        f("gui.pixel", &[("x", "integer"), ("y", "integer"), ("color", "integer|string?")], "",
          "One pixel.", Some(id::PIXEL)),
        f("gui.image", &[("x", "integer"), ("y", "integer"), ("file", "string"), ("width", "integer?"), ("height", "integer?")], "",
          "A PNG image from the script's own folder or its subfolders (`\"logo.png\"`, \
           `\"img/a.png\"`), its top-left corner at (x, y), with its alpha; scaled (nearest \
           pixel) to `width` × `height` when given.", Some(id::IMAGE)),
        f("gui.image_region", &[("file", "string"), ("sx", "integer"), ("sy", "integer"), ("sw", "integer"), ("sh", "integer"), ("x", "integer"), ("y", "integer"), ("width", "integer?"), ("height", "integer?")], "",
          "The part `sx, sy, sw × sh` of an image (see `gui.image`) at (x, y), scaled to `width` × \
           `height` when given (a sprite from a sheet).", Some(id::IMAGE_REGION)),
        f("gui.rgba", &[("x", "integer"), ("y", "integer"), ("width", "integer"), ("height", "integer"), ("pixels", "string")], "",
          "Raw pixels at (x, y): `width × height × 4` bytes, RGBA, row by row, with their alpha \
           (an image the script computed).", Some(id::RGBA)),
        f("gui.image_data", &[("file", "string")], "integer, integer, string",
          "An image of the script's folder (see `gui.image`) as its width, height and RGBA \
           bytes.", Some(id::IMAGE_DATA)),
        f("gui.ellipse", &[("x", "integer"), ("y", "integer"), ("width", "integer"), ("height", "integer"), ("line", "integer|string?"), ("fill", "integer|string?")], "",
          "An ellipse in the box (x, y, width × height), outlined and optionally filled.", None),
        f("gui.polygon", &[("points", "integer[][]"), ("line", "integer|string?"), ("fill", "integer|string?")], "",
          "A closed polygon through `{{x, y}, …}`, outlined and optionally filled (even-odd).", None),
        f("gui.polyline", &[("points", "integer[][]"), ("color", "integer|string?")], "",
          "Lines through `{{x, y}, …}`, not closed.", None),
        f("gui.clear", &[], "", "Forget what this script drew this frame.", Some(id::CLEAR)),
        f("input.get", &[], "table<string, boolean>",
          "The host's keys held, by BizHawk's names (`A`, `Shift`, `Space`, `Up`, `F1`, …) as \
           `{Name = true}`. Outside input: once a script has asked, the app logs the keys as \
           events, so a replay, a rewind and a movie see the same keys.", None),
        f("input.getmouse", &[], "table<string, integer|boolean>",
          "The mouse: `{X, Y, Left, Right, Middle, Wheel}`, `X`/`Y` in game-screen pixels \
           (negative or past 160 × 144 outside the screen); logged like `input.get`.", None),
        f("console.log", &[("...", "any")], "",
          "Print the values, separated by tabs, as one console line.", None),
        f("console.write", &[("...", "any")], "",
          "Print the values, concatenated, as one console line.", None),
        f("savestate.save", &[("slot", "integer|string")], "",
          "Save the machine (now) and every script (when this call returns) in memory under a \
           slot number or name.", Some(id::SAVE)),
        f("savestate.load", &[("slot", "integer|string")], "",
          "Load a state this session saved: the machine at once, the other scripts when the call \
           returns; the calling script is not rolled back.", Some(id::LOAD)),
        f("apu.state", &[], "ApuState",
          "The APU as a whole now: `powered` (NR52 bit 7), `left_volume` and `right_volume` \
           (NR50, 0-7), `vin_left`, `vin_right`, `panning` (NR51) and `frame_sequencer_step` \
           (the step that runs next, 0-7). Reading changes nothing and is not an outside input \
           (nothing is logged: a replay reads the same values).", None),
        f("apu.channel", &[("n", "integer")], "ApuChannel",
          "Channel `n` (1-4) now, in Pan Docs' terms: `playing` (NR52), `dac`, `output` (its \
           digital output 0-15 at this instant; the CGB's PCM12/PCM34 read it, a CPU read seeing \
           the squares' changes due in its M-cycle), `left`/`right` (NR51), \
           `frequency` (the 11-bit period value of NRx3/NRx4), `hz` (the tone's frequency: \
           131,072 / (2048 - f) for channels 1-2, 65,536 / (2048 - f) for 3, the LFSR's clock \
           rate for 4), `length` (length timer steps left) and `length_enabled`; then the parts \
           the channel has: `envelope` {`volume`, `initial_volume`, `increase`, `pace`} (1, 2, \
           4), `pulse` {`duty` 0-3, `step` 0-7} (1, 2), `sweep` {`pace`, `negate`, `shift`, \
           `shadow`, `enabled`} (1), `wave` {`output_level` 0-3, `position` 0-31, `sample`} (3), \
           `noise` {`lfsr`, `short`, `clock_shift`, `clock_divider`} (4). Like `apu.state`, \
           it changes nothing (the sound generators' phases are worked out, not run; they move \
           only while the host generates sound: the app, `--wav` and movie recording do; \
           `headless` without `--wav` and Python's default do not, so a script that decides \
           inputs on `output`, `pulse.step`, `wave.sample` or `noise.lfsr` should run with \
           sound on).", None),
        f("gbhost.apu", &[("n", "integer")], "any",
          "Internal: the APU view as name/value pairs (0: `apu.state`, 1-4: `apu.channel`; \
           `part.field` names nest).", Some(id::APU)),
        f("gbhost.persist_get", &[("key", "string|integer")], "any",
          "Internal: the `persist` table's read (use `persist.key`).", Some(id::PERSIST_GET)),
        f("gbhost.persist_set", &[("key", "string|integer"), ("value", "any")], "",
          "Internal: the `persist` table's write (use `persist.key = value`).", Some(id::PERSIST_SET)),
        f("gbhost.search", &[("bytes", "string"), ("domain", "string?")], "string",
          "Internal: `memory.search`'s native part (addresses as packed 32-bit integers).", Some(id::SEARCH)),
        f("gbhost.joypad", &[("immediate", "boolean")], "integer",
          "Internal: `joypad.get`'s native part.", Some(id::JOYPAD_GET)),
        f("gbhost.watch_changed", &[], "",
          "Internal: a script's bus hooks changed.", Some(id::WATCH_CHANGED)),
        f("gbhost.joypad_user", &[], "integer",
          "Internal: `joypad.getimmediate`'s native part.", Some(id::JOYPAD_IMMEDIATE)),
        f("gbhost.file_read", &[("path", "string")], "string?, string?",
          "Internal: `io`'s reads (a file of the script's folder; logged, checked on replays).", Some(id::FILE_READ)),
        f("gbhost.file_write", &[("path", "string"), ("bytes", "string"), ("append", "boolean")], "string?",
          "Internal: `io`'s writes (made live, skipped on replays); nil or why it failed.", Some(id::FILE_WRITE)),
        f("gbhost.movie", &[], "string, string, integer, integer, boolean, integer",
          "Internal: the open movie (mode INACTIVE, PLAY, RECORD or FINISHED; file name; \
           length; rerecords; read-only; start frame).", Some(id::MOVIE)),
        f("gbhost.movie_input", &[("frame", "integer")], "integer?",
          "Internal: the buttons held in a past frame (bit 0 Right … bit 7 Start), nil for a \
           frame not run yet.", Some(id::MOVIE_INPUT)),
        f("gbhost.tas", &[("what", "string"), ("n", "integer?")], "any",
          "Internal: the TAS editor for `tastudio.*` (engaged, recording, start, marker N, lag N, \
           hasstate N, selection, markers, branches, branch N).", Some(id::TAS)),
        f("gbhost.tas_request", &[("what", "string"), ("a", "any"), ("b", "any"), ("c", "any")], "",
          "Internal: a `tastudio.*` change, carried out by the app after the frame.", Some(id::TAS_REQUEST)),
        f("gbhost.clock", &[], "integer, integer",
          "Internal: the logged start time (Unix seconds) and the cycles since power-on.", Some(id::CLOCK)),
        f("gbhost.ui_changed", &[], "",
          "Internal: the script's windows (forms, text buffers) changed.", Some(id::UI_CHANGED)),
        f("gbhost.input_used", &[], "",
          "Internal: the script reads the host's keys or mouse.", Some(id::INPUT_USED)),
        f("gbhost.client", &[("what", "string"), ("arg", "string?")], "",
          "Internal: a request to the app's window (`client.pause`, …).", Some(id::CLIENT)),
    ]);
    v
}

/// Register every host function on a VM being built.
pub fn register(mut builder: VmBuilder) -> VmBuilder {
    for func in functions() {
        if let Some(id) = func.host {
            builder = builder.host_function(&func.name, id);
        }
    }
    // The FIXED accessors, made when a compatibility layer asks for them.
    builder.host_function_factory("_gbmake")
}

/// The reference, `docs/lua-api.md`.
pub fn markdown() -> String {
    let mut out = String::from(
        "# The gbhost Lua API\n\n\
         Generated from `host/session/src/api/spec.rs` and, for the compatibility tables at the \
         end, `host/session/src/catalog/` (`GBHOST_UPDATE_API_DOCS=1 cargo test -p gb-session \
         --test session -- api_docs` rewrites it). LuaLS definitions for editor completion: \
         `scripts/types/gbhost.d.lua`, and `bizhawk.d.lua`, `vba.d.lua`, `mgba.d.lua` for the \
         layers. What rolls back and when: [rewind.md](rewind.md).\n\n\
         Also: `persist`, a per-script table kept across rollbacks (nil, booleans, numbers, \
         strings); `print` goes to the console like `console.log`; `require(\"a.b\")` (or \
         `\"a/b\"`), `dofile` and `loadfile` load `.lua` files from the script's own folder \
         (`require(\"math\")` and the other standard libraries' names give the library); \
         files not UTF-8 are read as Latin-1.\n\n\
         **Files and time.** `io.open`, `io.lines`, `io.write`, `io.output` and file objects \
         (`read` with `l`, `L`, `n`, `a` or a count, `lines`, `write`, `seek`, `close`) work on \
         the files of the script's own folder and its subfolders, and of its own data folder \
         (`data:best.txt`: made on the first write, under `$XDG_DATA_HOME/gbhost/script-data/\
         <script name>/`, or `GBHOST_SCRIPT_DATA`), and nothing else: absolute paths, `..` and \
         links leading out are refused with a clear message. Reading a file is \
         an outside input: its hash is logged, and a replay (rewind, seek, sync test, movie) \
         reads the file again and says so on the console if the bytes differ. Writing is an \
         output: done live, skipped on replays, so a log file gets each line once; `w` and `a` \
         write at once, `+` modes rewrite the whole file. `io.write` prints to the console. \
         `os.time()` is the session's start time (logged once, before the first frame) plus the \
         emulated seconds, `os.clock()` the emulated seconds since power-on, `os.date` formats \
         in UTC, `os.difftime`, `os.getenv` (always nil) and `os.setlocale` (\"C\") are there: \
         a rewind replays the same values, on any machine. No processes (`os.execute`, \
         `os.exit`, `os.remove`), native code (`package.loadlib`) or binary chunks. Calling a \
         function the API does not have is an error naming it.\n\n\
         Scripts written for BizHawk, VBA-rr or mGBA run through compatibility layers (chosen \
         from the source, or with `--api bizhawk|vba|mgba|native`); every function of each \
         emulator's API is listed with its status at the end of this page. Their `movie.*` \
         describe the movie the app records or plays: that is not an input of the log, so \
         draw with it rather than decide inputs on it. BizHawk's `forms` are windows in the app and mGBA's `console:createBuffer` text \
         panels: their controls, values and callbacks live in the script and roll back with \
         it, and what the user does in them (a click, a tick, a text typed, an item chosen, a \
         form closed) is a logged event, applied at the next frame's start. \
         `client.pause`/`unpause`/`togglepause` are requests to the app (`ispaused` is what the \
         script last asked), `client.screenshot(path)` writes a PNG in the script's folder, \
         `client.reboot_core` power-cycles, `client.SetGameExtraPadding`/\
         `SetClientExtraPadding` make room around the game that overlays draw into. A name gbhost \
         lacks can be looked up (scripts take aliases at load) and raises one error saying so, \
         with the reason, when called; a sandboxed library's names are nil in \
         `debug` (so `debug and debug.getmetatable` probes work) and raise when called in \
         `package` (and `os`'s process functions).\n\n\
         ## Domains\n\n",
    );
    out.push_str(DOMAIN_DOC);
    out.push('\n');
    let mut table = String::new();
    for func in functions() {
        if func.name.starts_with("gbhost.") {
            continue;
        }
        let t = func.name.split('.').next().unwrap_or("");
        if t != table {
            out.push_str(table_notes(&table));
            out.push_str(&format!("\n## `{t}`\n\n"));
            table = t.to_owned();
        }
        let params: Vec<String> = func
            .params
            .iter()
            .map(|(n, ty)| format!("{n}: {ty}"))
            .collect();
        let ret = if func.returns.is_empty() {
            String::new()
        } else {
            format!(" → {}", func.returns)
        };
        out.push_str(&format!(
            "- `{}({})`{ret}: {}\n",
            func.name,
            params.join(", "),
            func.doc
        ));
    }
    out.push_str(table_notes(&table));
    out
}

/// Text after a table's functions in the reference (an example), or nothing.
fn table_notes(table: &str) -> &'static str {
    match table {
        "apu" => APU_EXAMPLE,
        _ => "",
    }
}

/// The `apu` table's example: the shipped `scripts/overlays/apu_channels.lua`.
const APU_EXAMPLE: &str = concat!(
    "\nA HUD with each channel's note, volume and panning \
     (`scripts/overlays/apu_channels.lua`):\n\n```lua\n",
    include_str!("../../../../scripts/overlays/apu_channels.lua"),
    "```\n"
);

/// The LuaLS definitions, `scripts/types/gbhost.d.lua`.
pub fn luals() -> String {
    let mut out = String::from(
        "---@meta\n-- gbhost Lua API definitions for the Lua language server (generated from \
         host/session/src/api/spec.rs; do not edit).\n\n",
    );
    for t in [
        "memory",
        "emu",
        "joypad",
        "event",
        "gui",
        "input",
        "console",
        "savestate",
        "apu",
    ] {
        out.push_str(&format!("{t} = {{}}\n"));
    }
    out.push_str("---@type table<string|integer, nil|boolean|number|string>\npersist = {}\n\n");
    out.push_str(APU_LUALS_CLASSES);
    for func in functions() {
        if func.name.starts_with("gbhost.") {
            continue;
        }
        out.push('\n');
        for line in func.doc.split(". ") {
            out.push_str(&format!("---{}\n", line.trim_end_matches('.')));
        }
        for (n, ty) in &func.params {
            if *n == "..." {
                out.push_str("---@param ... any\n");
            } else if let Some(ty) = ty.strip_suffix('?') {
                out.push_str(&format!("---@param {n}? {ty}\n"));
            } else {
                out.push_str(&format!("---@param {n} {ty}\n"));
            }
        }
        if !func.returns.is_empty() {
            out.push_str(&format!("---@return {}\n", func.returns));
        }
        let names: Vec<&str> = func.params.iter().map(|(n, _)| *n).collect();
        out.push_str(&format!(
            "function {}({}) end\n",
            func.name,
            names.join(", ")
        ));
    }
    out
}

/// The LuaLS classes of `apu.state()` and `apu.channel(n)` (in `scripts/types/gbhost.d.lua`;
/// a test in `api/apu.rs` checks that every field it returns is declared here).
pub(super) const APU_LUALS_CLASSES: &str = "\
---The APU as a whole (`apu.state()`)
---@class ApuState
---@field powered boolean NR52 bit 7: the APU is on
---@field left_volume integer NR50 bits 4-6 (0-7; the mix is multiplied by this + 1)
---@field right_volume integer NR50 bits 0-2 (0-7)
---@field vin_left boolean NR50 bit 7 (VIN to the left; gbhost mixes no VIN)
---@field vin_right boolean NR50 bit 3
---@field panning integer NR51 (bits 4-7 left, 0-3 right; channel 1 in bits 4 and 0)
---@field frame_sequencer_step integer The frame sequencer step that runs next (0-7)

---A volume envelope (NRx2 and the current volume)
---@class ApuEnvelope
---@field volume integer The current volume, 0-15
---@field initial_volume integer NRx2 bits 4-7
---@field increase boolean NRx2 bit 3: the volume rises
---@field pace integer NRx2 bits 0-2: steps every `pace` 64 Hz ticks (0: none)

---A pulse channel's duty
---@class ApuPulse
---@field duty integer NRx1 bits 6-7: 0-3 for 12.5, 25, 50, 75 %
---@field step integer The duty step now, 0-7

---Channel 1's period sweep
---@class ApuSweep
---@field pace integer NR10 bits 4-6 (steps every `pace` 128 Hz ticks; 0: none)
---@field negate boolean NR10 bit 3: subtracts
---@field shift integer NR10 bits 0-2
---@field shadow integer The shadow period value the calculations start from
---@field enabled boolean The sweep's internal enable flag

---Channel 3's playback
---@class ApuWave
---@field output_level integer NR32 bits 5-6: 0 mute, 1 100 %, 2 50 %, 3 25 %
---@field position integer The sample index in wave RAM, 0-31
---@field sample integer The sample buffer (the last 4-bit sample fetched)

---Channel 4's LFSR
---@class ApuNoise
---@field lfsr integer The LFSR's 15 bits (bit 0 is the output)
---@field short boolean NR43 bit 3: 7-bit mode
---@field clock_shift integer NR43 bits 4-7
---@field clock_divider integer NR43 bits 0-2

---One channel now (`apu.channel(n)`)
---@class ApuChannel
---@field number integer 1-4
---@field playing boolean NR52 bit n-1: the channel is on
---@field dac boolean Its DAC is on
---@field output integer Its digital output, 0-15 (PCM12/PCM34; 0 while off)
---@field left boolean NR51 sends it left
---@field right boolean NR51 sends it right
---@field frequency integer The 11-bit period value of NRx3/NRx4 (0 for channel 4)
---@field hz number The tone's frequency in Hz (channel 4: the LFSR's clock rate)
---@field length integer Length timer steps left before it turns the channel off
---@field length_enabled boolean NRx4 bit 6
---@field envelope ApuEnvelope? Channels 1, 2, 4
---@field pulse ApuPulse? Channels 1, 2
---@field sweep ApuSweep? Channel 1
---@field wave ApuWave? Channel 3
---@field noise ApuNoise? Channel 4
";

#[cfg(test)]
mod tests;
