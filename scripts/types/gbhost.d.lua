---@meta
-- gbhost Lua API definitions for the Lua language server (generated from host/session/src/api/spec.rs; do not edit).

memory = {}
emu = {}
joypad = {}
event = {}
gui = {}
input = {}
console = {}
savestate = {}
apu = {}
---@type table<string|integer, nil|boolean|number|string>
persist = {}

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

---Read an unsigned 8-bit value at `addr` of `domain` (see Domains), without side effects
---@param addr integer
---@param domain? string
---@return integer
function memory.read_u8(addr, domain) end

---Write an unsigned 8-bit value at `addr`
---On the `bus` it is a write as the CPU would make it (I/O registers react); in other domains the bytes change and nothing else
---Writes to `rom` are refused
---A script's writes are replayed with it on a rewind
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_u8(addr, value, domain) end

---Read a signed 8-bit value at `addr` of `domain` (see Domains), without side effects
---@param addr integer
---@param domain? string
---@return integer
function memory.read_s8(addr, domain) end

---Write a signed 8-bit value at `addr`
---On the `bus` it is a write as the CPU would make it (I/O registers react); in other domains the bytes change and nothing else
---Writes to `rom` are refused
---A script's writes are replayed with it on a rewind
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_s8(addr, value, domain) end

---Read an unsigned 16-bit little-endian value at `addr` of `domain` (see Domains), without side effects
---@param addr integer
---@param domain? string
---@return integer
function memory.read_u16_le(addr, domain) end

---Write an unsigned 16-bit little-endian value at `addr`
---On the `bus` it is a write as the CPU would make it (I/O registers react); in other domains the bytes change and nothing else
---Writes to `rom` are refused
---A script's writes are replayed with it on a rewind
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_u16_le(addr, value, domain) end

---Read an unsigned 16-bit big-endian value at `addr` of `domain` (see Domains), without side effects
---@param addr integer
---@param domain? string
---@return integer
function memory.read_u16_be(addr, domain) end

---Write an unsigned 16-bit big-endian value at `addr`
---On the `bus` it is a write as the CPU would make it (I/O registers react); in other domains the bytes change and nothing else
---Writes to `rom` are refused
---A script's writes are replayed with it on a rewind
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_u16_be(addr, value, domain) end

---Read a signed 16-bit little-endian value at `addr` of `domain` (see Domains), without side effects
---@param addr integer
---@param domain? string
---@return integer
function memory.read_s16_le(addr, domain) end

---Write a signed 16-bit little-endian value at `addr`
---On the `bus` it is a write as the CPU would make it (I/O registers react); in other domains the bytes change and nothing else
---Writes to `rom` are refused
---A script's writes are replayed with it on a rewind
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_s16_le(addr, value, domain) end

---Read a signed 16-bit big-endian value at `addr` of `domain` (see Domains), without side effects
---@param addr integer
---@param domain? string
---@return integer
function memory.read_s16_be(addr, domain) end

---Write a signed 16-bit big-endian value at `addr`
---On the `bus` it is a write as the CPU would make it (I/O registers react); in other domains the bytes change and nothing else
---Writes to `rom` are refused
---A script's writes are replayed with it on a rewind
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_s16_be(addr, value, domain) end

---Read an unsigned 32-bit little-endian value at `addr` of `domain` (see Domains), without side effects
---@param addr integer
---@param domain? string
---@return integer
function memory.read_u32_le(addr, domain) end

---Write an unsigned 32-bit little-endian value at `addr`
---On the `bus` it is a write as the CPU would make it (I/O registers react); in other domains the bytes change and nothing else
---Writes to `rom` are refused
---A script's writes are replayed with it on a rewind
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_u32_le(addr, value, domain) end

---Read an unsigned 32-bit big-endian value at `addr` of `domain` (see Domains), without side effects
---@param addr integer
---@param domain? string
---@return integer
function memory.read_u32_be(addr, domain) end

---Write an unsigned 32-bit big-endian value at `addr`
---On the `bus` it is a write as the CPU would make it (I/O registers react); in other domains the bytes change and nothing else
---Writes to `rom` are refused
---A script's writes are replayed with it on a rewind
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_u32_be(addr, value, domain) end

---Read a signed 32-bit little-endian value at `addr` of `domain` (see Domains), without side effects
---@param addr integer
---@param domain? string
---@return integer
function memory.read_s32_le(addr, domain) end

---Write a signed 32-bit little-endian value at `addr`
---On the `bus` it is a write as the CPU would make it (I/O registers react); in other domains the bytes change and nothing else
---Writes to `rom` are refused
---A script's writes are replayed with it on a rewind
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_s32_le(addr, value, domain) end

---Read a signed 32-bit big-endian value at `addr` of `domain` (see Domains), without side effects
---@param addr integer
---@param domain? string
---@return integer
function memory.read_s32_be(addr, domain) end

---Write a signed 32-bit big-endian value at `addr`
---On the `bus` it is a write as the CPU would make it (I/O registers react); in other domains the bytes change and nothing else
---Writes to `rom` are refused
---A script's writes are replayed with it on a rewind
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_s32_be(addr, value, domain) end

---Read `n` bytes (at most 1 MiB) from `addr` as a string
---@param addr integer
---@param n integer
---@param domain? string
---@return string
function memory.read_bytes(addr, n, domain) end

---Write the bytes of a string from `addr` on
---@param addr integer
---@param bytes string
---@param domain? string
function memory.write_bytes(addr, bytes, domain) end

---Every address where `bytes` occurs in the domain (default `wram`), found in native code: a table of addresses in increasing order (at most 65,536)
---@param bytes string
---@param domain? string
---@return integer[]
function memory.search(bytes, domain) end

---Start a RAM search (the app's RAM Search and the REPL's `search`, in the script's own memory, so it rewinds with the game): every value of `domain` (default `wram`) of `size` bytes (1, 2 or 4; `signed`, `big`-endian, `aligned` to the size unless false) is a candidate
---Methods: `s:filter(op [, value])` keeps those whose value compares (`lt gt le ge eq ne` or `< > <= >= == ~=`) with their previous value or `value`; `s:filter("by", n [, value])` those that differ by exactly `n`; `s:filter("changes", op, n)` compares change counts; each returns the number left and makes the values the new previous ones
---`s:update()` counts changes (call it once per frame), `s:undo()` takes the last filter back, `s:count()`, and `s:candidates([max])` lists `{addr, value, previous, changes}` (`addr`: an offset in the domain)
---@param options? {domain: string?, size: integer?, signed: boolean?, big: boolean?, aligned: boolean?}
---@return table
function memory.ramsearch(options) end

---The size of a domain in bytes (0x10000 for `bus`)
---@param domain string
---@return integer
function memory.size(domain) end

---Frames completed on the timeline (rolls back with a rewind)
---@return integer
function emu.framecount() end

---Yield the script's main coroutine until the end of the next frame
function emu.frameadvance() end

---Same as `emu.frameadvance`
function emu.yield() end

---Lag frames since power-on: frames in which the game did not read the joypad
---@return integer
function emu.lagcount() end

---Whether the last frame was a lag frame
---@return boolean
function emu.islagged() end

---A CPU register: `a f b c d e h l af bc de hl sp pc` (any case)
---@param name string
---@return integer
function emu.getregister(name) end

---Every CPU register, by name
---@return table<string, integer>
function emu.getregisters() end

---Set a CPU register (replayed with the script on a rewind)
---@param name string
---@param value integer
function emu.setregister(name, value) end

---The emulated model: `DMG` or `CGB`
---@return string
function emu.model() end

---The title in the cartridge header
---@return string
function emu.rom_title() end

---The address and bank of a symbol of the ROM's RGBDS `.sym` file (loaded beside the ROM: `emu.symbol("wPlayerHP")`), or nil
---A lookup is read like a file: logged, and checked on a replay (a movie played without the same `.sym` says so)
---@param name string
---@return integer?, integer?
function emu.symbol(name) end

---The instruction at `addr` (on the bus, read without side effects) as the assembler writes it (`ld a, [$C0A0]`), and its length in bytes
---@param addr integer
---@return string, integer
function debugger.disasm(addr) end

---Call `fn` before the instruction at `addr` runs (in `bank` only, when given): `event.on_bus_exec` with the debugger's argument order
---Returns an id for `event.unregister`
---Scripts' hooks run the script; the machine stops for the debugger's breakpoints (`break` in the REPL), never for a script
---@param addr integer
---@param fn fun(addr: integer, opcode: integer, bank: integer?)
---@param bank? integer
---@return integer
function debugger.on_exec(addr, fn, bank) end

---Call `fn` after each CPU read of `addr` (or `len` addresses): `event.on_bus_read`
---@param addr integer
---@param fn fun(addr: integer, value: integer, bank: integer?)
---@param len? integer
---@param bank? integer
---@return integer
function debugger.on_read(addr, fn, len, bank) end

---Call `fn` after each CPU write to `addr` (or `len` addresses), once the value has landed: `event.on_bus_write`
---@param addr integer
---@param fn fun(addr: integer, value: integer, bank: integer?)
---@param len? integer
---@param bank? integer
---@return integer
function debugger.on_write(addr, fn, len, bank) end

---The ROM image's FNV-1a hash, 16 hex digits
---@return string
function emu.rom_hash() end

---The player whose Game Boy the script runs against: 1, or 2 for a script loaded on the second Game Boy of a linked pair (`--script2`, the REPL's `load FILE --player 2`, the window's Link menu)
---Every call of the script (memory, registers, the joypad, `emu.model`, `emu.rom_title`) is that player's, and its overlay is drawn on that player's screen
---@return integer
function emu.player() end

---How many Game Boys the session runs: 1, or 2 on a link cable
---@return integer
function emu.players() end

---Buttons for the next frame: `{A = true, Left = false}` presses A and releases Left whatever the user holds (absent buttons are left to the user); an integer mask (bit 0 Right … bit 7 Start) holds exactly those buttons
---@param buttons table|integer
function joypad.set(buttons) end

---The buttons the game sees this frame (the user's, with scripts' overrides)
---@return table<string, boolean>
function joypad.get() end

---The buttons the user holds, without scripts' overrides
---@return table<string, boolean>
function joypad.getimmediate() end

---Call `fn` at the start of every frame; returns an id for `event.unregister`
---@param fn function
---@return integer
function event.on_frame_start(fn) end

---Call `fn` at the end of every frame; returns an id for `event.unregister`
---@param fn function
---@return integer
function event.on_frame_end(fn) end

---Call `fn` when the frame's input is decided (at frame start, before the core runs)
---@param fn function
---@return integer
function event.on_input_poll(fn) end

---Call `fn` after a state load (the user's, or one a script asked for)
---@param fn function
---@return integer
function event.on_load_state(fn) end

---Call `fn` when play resumes after a rewind (the script was rolled back with the game)
---@param fn function
---@return integer
function event.on_rewind(fn) end

---Call `fn` when the script is unloaded
---@param fn function
---@return integer
function event.on_exit(fn) end

---Call `fn(addr, value, bank)` after each CPU read of `addr` (or of `len` addresses from it), with the value read and the bank mapped there (ROM, cartridge RAM, and on the CGB VRAM and work RAM 0xD000-0xDFFF; nil elsewhere)
---With `bank`, only accesses in that bank call it
---The core stops at the end of that instruction to run the hook; with no hooks set, nothing is checked
---@param fn fun(addr: integer, value: integer, bank: integer?)
---@param addr integer
---@param len? integer
---@param bank? integer
---@return integer
function event.on_bus_read(fn, addr, len, bank) end

---Call `fn(addr, value, bank)` after each CPU write to `addr` (or a range), once the value has landed, with the value written (`bank` as for `on_bus_read`)
---@param fn fun(addr: integer, value: integer, bank: integer?)
---@param addr integer
---@param len? integer
---@param bank? integer
---@return integer
function event.on_bus_write(fn, addr, len, bank) end

---Call `fn(addr, opcode, bank)` before the CPU runs the instruction at `addr` (or a range; with `bank`, only in that ROM bank, e.g
---one routine of a banked game): registers read and set there are the instruction's (`emu.getregister`)
---@param fn fun(addr: integer, opcode: integer, bank: integer?)
---@param addr integer
---@param len? integer
---@param bank? integer
---@return integer
function event.on_bus_exec(fn, addr, len, bank) end

---Remove a hook; true if it existed
---@param id integer
---@return boolean
function event.unregister(id) end

---Text with its top-left corner at (x, y), in screen pixels (160 × 144)
---Colours: 0xAARRGGBB (0xRRGGBB is opaque), `#RRGGBB`, `#AARRGGBB` or a name (white, black, red, green, blue, yellow, cyan, magenta, gray, clear)
---@param x integer
---@param y integer
---@param text string
---@param color? integer|string
function gui.text(x, y, text, color) end

---Text in the small pixel font, with an optional background
---@param x integer
---@param y integer
---@param text string
---@param fg? integer|string
---@param bg? integer|string
function gui.pixel_text(x, y, text, fg, bg) end

---A rectangle between two corners, outlined and optionally filled
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param line? integer|string
---@param fill? integer|string
function gui.box(x1, y1, x2, y2, line, fill) end

---A line
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param color? integer|string
function gui.line(x1, y1, x2, y2, color) end

---One pixel
---@param x integer
---@param y integer
---@param color? integer|string
function gui.pixel(x, y, color) end

---A PNG image from the script's own folder or its subfolders (`"logo.png"`, `"img/a.png"`), its top-left corner at (x, y), with its alpha; scaled (nearest pixel) to `width` × `height` when given
---@param x integer
---@param y integer
---@param file string
---@param width? integer
---@param height? integer
function gui.image(x, y, file, width, height) end

---The part `sx, sy, sw × sh` of an image (see `gui.image`) at (x, y), scaled to `width` × `height` when given (a sprite from a sheet)
---@param file string
---@param sx integer
---@param sy integer
---@param sw integer
---@param sh integer
---@param x integer
---@param y integer
---@param width? integer
---@param height? integer
function gui.image_region(file, sx, sy, sw, sh, x, y, width, height) end

---Raw pixels at (x, y): `width × height × 4` bytes, RGBA, row by row, with their alpha (an image the script computed)
---@param x integer
---@param y integer
---@param width integer
---@param height integer
---@param pixels string
function gui.rgba(x, y, width, height, pixels) end

---An image of the script's folder (see `gui.image`) as its width, height and RGBA bytes
---@param file string
---@return integer, integer, string
function gui.image_data(file) end

---An ellipse in the box (x, y, width × height), outlined and optionally filled
---@param x integer
---@param y integer
---@param width integer
---@param height integer
---@param line? integer|string
---@param fill? integer|string
function gui.ellipse(x, y, width, height, line, fill) end

---A closed polygon through `{{x, y}, …}`, outlined and optionally filled (even-odd)
---@param points integer[][]
---@param line? integer|string
---@param fill? integer|string
function gui.polygon(points, line, fill) end

---Lines through `{{x, y}, …}`, not closed
---@param points integer[][]
---@param color? integer|string
function gui.polyline(points, color) end

---Forget what this script drew this frame
function gui.clear() end

---The host's keys held, by BizHawk's names (`A`, `Shift`, `Space`, `Up`, `F1`, …) as `{Name = true}`
---Outside input: once a script has asked, the app logs the keys as events, so a replay, a rewind and a movie see the same keys
---@return table<string, boolean>
function input.get() end

---The mouse: `{X, Y, Left, Right, Middle, Wheel}`, `X`/`Y` in game-screen pixels (negative or past 160 × 144 outside the screen); logged like `input.get`
---@return table<string, integer|boolean>
function input.getmouse() end

---Print the values, separated by tabs, as one console line
---@param ... any
function console.log(...) end

---Print the values, concatenated, as one console line
---@param ... any
function console.write(...) end

---Save the machine (now) and every script (when this call returns) in memory under a slot number or name
---@param slot integer|string
function savestate.save(slot) end

---Load a state this session saved: the machine at once, the other scripts when the call returns; the calling script is not rolled back
---@param slot integer|string
function savestate.load(slot) end

---The APU as a whole now: `powered` (NR52 bit 7), `left_volume` and `right_volume` (NR50, 0-7), `vin_left`, `vin_right`, `panning` (NR51) and `frame_sequencer_step` (the step that runs next, 0-7)
---Reading changes nothing and is not an outside input (nothing is logged: a replay reads the same values)
---@return ApuState
function apu.state() end

---Channel `n` (1-4) now, in Pan Docs' terms: `playing` (NR52), `dac`, `output` (its digital output 0-15 at this instant; the CGB's PCM12/PCM34 read it, a CPU read seeing the squares' changes due in its M-cycle), `left`/`right` (NR51), `frequency` (the 11-bit period value of NRx3/NRx4), `hz` (the tone's frequency: 131,072 / (2048 - f) for channels 1-2, 65,536 / (2048 - f) for 3, the LFSR's clock rate for 4), `length` (length timer steps left) and `length_enabled`; then the parts the channel has: `envelope` {`volume`, `initial_volume`, `increase`, `pace`} (1, 2, 4), `pulse` {`duty` 0-3, `step` 0-7} (1, 2), `sweep` {`pace`, `negate`, `shift`, `shadow`, `enabled`} (1), `wave` {`output_level` 0-3, `position` 0-31, `sample`} (3), `noise` {`lfsr`, `short`, `clock_shift`, `clock_divider`} (4)
---Like `apu.state`, it changes nothing (the sound generators' phases are worked out, not run; they move only while the host generates sound: the app, `--wav` and movie recording do; `headless` without `--wav` and Python's default do not, so a script that decides inputs on `output`, `pulse.step`, `wave.sample` or `noise.lfsr` should run with sound on)
---@param n integer
---@return ApuChannel
function apu.channel(n) end
