---@meta
-- The VBA-rr API as gbhost runs it, for the Lua language server (generated from host/session/src/catalog/; do not edit).

---@class VBA-rr._G
_G = {}

---@class VBA-rr.avi
avi = {}

---@class VBA-rr.bit
bit = {}

---@class VBA-rr.emu
emu = {}

---@class VBA-rr.gui
gui = {}

---@class VBA-rr.input
input = {}

---@class VBA-rr.joypad
joypad = {}

---@class VBA-rr.math
math = {}

---@class VBA-rr.memory
memory = {}

---@class VBA-rr.movie
movie = {}

---@class VBA-rr.savestate
savestate = {}

---@class VBA-rr.sound
sound = {}

---@class VBA-rr.vba
vba = {}

--- Legacy global bitwise AND
---@param a number
function AND(a) end

--- Legacy: build mask with given bit positions set
---@param pos integer
function BIT(pos) end

--- Legacy global bitwise OR
---@param a number
function OR(a) end

--- Legacy shift; positive right, negative left
---@param x number
---@param n integer
function SHIFT(x, n) end

--- Legacy global bitwise XOR
---@param a number
function XOR(a) end

--- Pointer address of a Lua object (global)
---@param value any
function addressof(value) end

--- Shallow copy of a table (global)
---@param t table
function copytable(t) end

--- Print values to Lua console (global)
function print() end

--- Readable string of any value incl. tables (global override)
---@param value any
function tostring(value) end

--- Frames written to AVI so far
--- Not supported by gbhost: video dumping belongs to the app, not scripts.
function avi.framecount() end

--- Pause AVI recording
--- Not supported by gbhost: video dumping belongs to the app, not scripts.
function avi.pause() end

--- Resume AVI recording
--- Not supported by gbhost: video dumping belongs to the app, not scripts.
function avi.resume() end

--- Arithmetic right shift
---@param x number
---@param n integer
function bit.arshift(x, n) end

--- Bitwise AND of arguments
---@param x number
function bit.band(x) end

--- Bitwise NOT
---@param x number
function bit.bnot(x) end

--- Bitwise OR of arguments
---@param x number
function bit.bor(x) end

--- Reverse byte order of 32-bit value
---@param x number
function bit.bswap(x) end

--- Bitwise XOR of arguments
---@param x number
function bit.bxor(x) end

--- Logical left shift
---@param x number
---@param n integer
function bit.lshift(x, n) end

--- Rotate left
---@param x number
---@param n integer
function bit.rol(x, n) end

--- Rotate right
---@param x number
---@param n integer
function bit.ror(x, n) end

--- Logical right shift
---@param x number
---@param n integer
function bit.rshift(x, n) end

--- Normalize number to signed 32-bit
---@param x number
function bit.tobit(x) end

--- Hex string of value (n digits; negative for uppercase)
---@param x number
---@param n? integer
function bit.tohex(x, n) end

--- Whether a game is loaded and running
function emu.emulating() end

--- Yield script until next frame is emulated
function emu.frameadvance() end

--- Current frame counter (movie-aware)
function emu.framecount() end

--- Number of lag frames so far
function emu.lagcount() end

--- Whether last frame was a lag frame
function emu.lagged() end

--- Show an on-screen message
---@param msg string
function emu.message(msg) end

--- Pause emulation and yield the script
function emu.pause() end

--- Print values to the Lua console
function emu.print() end

--- Set callback run after each frame
---@param func function
function emu.registerafter(func) end

--- Set callback run before each frame
---@param func function
function emu.registerbefore(func) end

--- Set callback run on power-off/ROM close
---@param func function
function emu.registerclose(func) end

--- Set callback run when script stops
---@param func function
function emu.registerexit(func) end

--- Set callback run after loading a state
---@param func function
function emu.registerloaded(func) end

--- Set callback run before loading a state
--- Not supported by gbhost: no hook runs at that moment in gbhost.
---@param func function
function emu.registerloading(func) end

--- Set callback run on power-on/ROM start
--- Not supported by gbhost: no hook runs at that moment in gbhost.
---@param func function
function emu.registerrun(func) end

--- Set callback run after saving a state
--- Not supported by gbhost: no hook runs at that moment in gbhost.
---@param func function
function emu.registersaved(func) end

--- Set callback run before saving a state
--- Not supported by gbhost: no hook runs at that moment in gbhost.
---@param func function
function emu.registersaving(func) end

--- Change how a joypad's buttons show in input display
--- Not supported by gbhost: the input display is the app's.
---@param which integer
---@param mapping table
function emu.remapinputdisplay(which, mapping) end

--- Draw filled/outlined rectangle
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param fill? integer|string
---@param outline? integer|string
function gui.box(x1, y1, x2, y2, fill, outline) end

--- Alias of box
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param fill? integer|string
---@param outline? integer|string
function gui.drawbox(x1, y1, x2, y2, fill, outline) end

--- Alias of gdoverlay
---@param dx? integer
---@param dy integer
---@param gdimage string
function gui.drawimage(dx, dy, gdimage) end

--- Alias of line
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param color? any
---@param skipfirst? boolean
function gui.drawline(x1, y1, x2, y2, color, skipfirst) end

--- Alias of pixel
---@param x integer
---@param y integer
---@param color? any
function gui.drawpixel(x, y, color) end

--- Alias of box
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param fill? integer|string
---@param outline? integer|string
function gui.drawrect(x1, y1, x2, y2, fill, outline) end

--- Alias of text
---@param x integer
---@param y integer
---@param msg string
---@param fg? integer|string
---@param outline? integer|string
function gui.drawtext(x, y, msg, fg, outline) end

--- Draw a gd-format image on screen
--- Not supported by gbhost: gd images: draw PNG files with gui.image.
---@param dx? integer
---@param dy integer
---@param gdimage string
---@param sx? any
---@param sy any
---@param sw any
---@param sh any
---@param alpha? number
function gui.gdoverlay(dx, dy, gdimage, sx, sy, sw, sh, alpha) end

--- Capture screen as gd-format image string
--- Not supported by gbhost: gd images: draw PNG files with gui.image.
function gui.gdscreenshot() end

--- Read screen pixel color as r, g, b
--- Not supported by gbhost: the screen is not readable by scripts yet.
---@param x integer
---@param y integer
function gui.getpixel(x, y) end

--- Alias of gdoverlay
---@param dx? integer
---@param dy integer
---@param gdimage string
function gui.image(dx, dy, gdimage) end

--- Draw a line
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param color? any
---@param skipfirst? boolean
function gui.line(x1, y1, x2, y2, color, skipfirst) end

--- Set global drawing opacity (0-1)
---@param alpha number
function gui.opacity(alpha) end

--- Split a color into r, g, b, a
---@param color any
function gui.parsecolor(color) end

--- Draw one pixel
---@param x integer
---@param y integer
---@param color? any
function gui.pixel(x, y, color) end

--- Show a message box (ok/yesno/yesnocancel); returns answer
---@param message string
---@param type? string
function gui.popup(message, type) end

--- Alias of getpixel
--- Not supported by gbhost: the screen is not readable by scripts yet.
---@param x integer
---@param y integer
function gui.readpixel(x, y) end

--- Alias of box
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param fill? integer|string
---@param outline? integer|string
function gui.rect(x1, y1, x2, y2, fill, outline) end

--- Set callback used to draw the GUI each frame
---@param func function
function gui.register(func) end

--- Alias of pixel
---@param x integer
---@param y integer
---@param color? any
function gui.setpixel(x, y, color) end

--- Draw outlined text on screen
---@param x integer
---@param y integer
---@param msg string
---@param fg? integer|string
---@param outline? integer|string
function gui.text(x, y, msg, fg, outline) end

--- Set drawing transparency on 0 (opaque) to 4 (invisible) scale
---@param level number
function gui.transparency(level) end

--- Alias of pixel
---@param x integer
---@param y integer
---@param color? any
function gui.writepixel(x, y, color) end

--- Table of host keyboard/mouse state and cursor position
function input.get() end

--- Alias of get
function input.read() end

--- Table of all buttons and their state
---@param which integer
---@param type? string
function joypad.get(which, type) end

--- Table of only pressed buttons
---@param which integer
---@param type? string
function joypad.getdown(which, type) end

--- Table of only released buttons
---@param which integer
---@param type? string
function joypad.getup(which, type) end

--- Alias of get
---@param which integer
---@param type? string
function joypad.read(which, type) end

--- Alias of getdown
---@param which integer
---@param type? string
function joypad.readdown(which, type) end

--- Alias of getup
---@param which integer
---@param type? string
function joypad.readup(which, type) end

--- Force button states for next frame
---@param which integer
---@param buttons table
---@param type? string
function joypad.set(which, buttons, type) end

--- Alias of set
---@param which integer
---@param buttons table
---@param type? string
function joypad.write(which, buttons, type) end

--- Replaced with SFMT-based RNG
---@param m? any
---@param n any
function math.random(m, n) end

--- Seed the SFMT-based RNG
---@param seed number
function math.randomseed(seed) end

--- Read unsigned 8-bit from GB cartridge ROM
---@param addr integer
function memory.gbromreadbyte(addr) end

--- Read GB ROM bytes as a string
---@param addr integer
---@param length integer
function memory.gbromreadbyterange(addr, length) end

--- Read signed 8-bit from GB ROM
---@param addr integer
function memory.gbromreadbytesigned(addr) end

--- Alias of gbromreadbyte
---@param addr integer
function memory.gbromreadbyteunsigned(addr) end

--- Read unsigned 32-bit from GB ROM
---@param addr integer
function memory.gbromreaddword(addr) end

--- Read signed 32-bit from GB ROM
---@param addr integer
function memory.gbromreaddwordsigned(addr) end

--- Alias of gbromreaddword
---@param addr integer
function memory.gbromreaddwordunsigned(addr) end

--- Alias of gbromreaddword
---@param addr integer
function memory.gbromreadlong(addr) end

--- Alias of gbromreaddwordsigned
---@param addr integer
function memory.gbromreadlongsigned(addr) end

--- Alias of gbromreaddword
---@param addr integer
function memory.gbromreadlongunsigned(addr) end

--- Alias of gbromreadword
---@param addr integer
function memory.gbromreadshort(addr) end

--- Alias of gbromreadwordsigned
---@param addr integer
function memory.gbromreadshortsigned(addr) end

--- Alias of gbromreadword
---@param addr integer
function memory.gbromreadshortunsigned(addr) end

--- Read unsigned 16-bit from GB ROM
---@param addr integer
function memory.gbromreadword(addr) end

--- Read signed 16-bit from GB ROM
---@param addr integer
function memory.gbromreadwordsigned(addr) end

--- Alias of gbromreadword
---@param addr integer
function memory.gbromreadwordunsigned(addr) end

--- Read CPU register by (optionally qualified) name
---@param name string
function memory.getregister(name) end

--- Read unsigned 8-bit from bus
---@param addr integer
function memory.readbyte(addr) end

--- Read bytes as a Lua string
---@param addr integer
---@param length integer
function memory.readbyterange(addr, length) end

--- Read signed 8-bit from bus
---@param addr integer
function memory.readbytesigned(addr) end

--- Alias of readbyte
---@param addr integer
function memory.readbyteunsigned(addr) end

--- Read unsigned 32-bit from bus
---@param addr integer
function memory.readdword(addr) end

--- Read signed 32-bit from bus
---@param addr integer
function memory.readdwordsigned(addr) end

--- Alias of readdword
---@param addr integer
function memory.readdwordunsigned(addr) end

--- Alias of readdword
---@param addr integer
function memory.readlong(addr) end

--- Alias of readdwordsigned
---@param addr integer
function memory.readlongsigned(addr) end

--- Alias of readdword
---@param addr integer
function memory.readlongunsigned(addr) end

--- Alias of readword
---@param addr integer
function memory.readshort(addr) end

--- Alias of readwordsigned
---@param addr integer
function memory.readshortsigned(addr) end

--- Alias of readword
---@param addr integer
function memory.readshortunsigned(addr) end

--- Read unsigned 16-bit from bus
---@param addr integer
function memory.readword(addr) end

--- Read signed 16-bit from bus
---@param addr integer
function memory.readwordsigned(addr) end

--- Alias of readword
---@param addr integer
function memory.readwordunsigned(addr) end

--- Alias of registerwrite
---@param addr integer
---@param size? integer
---@param func function
function memory.register(addr, size, func) end

--- Hook execution at an address range (nil clears)
---@param addr integer
---@param size? integer
---@param func function
function memory.registerexec(addr, size, func) end

--- Alias of registerexec
---@param addr integer
---@param size? integer
---@param func function
function memory.registerexecute(addr, size, func) end

--- Hook reads from an address range (nil clears)
---@param addr integer
---@param size? integer
---@param func function
function memory.registerread(addr, size, func) end

--- Alias of registerexec
---@param addr integer
---@param size? integer
---@param func function
function memory.registerrun(addr, size, func) end

--- Hook writes to an address range (nil clears)
---@param addr integer
---@param size? integer
---@param func function
function memory.registerwrite(addr, size, func) end

--- Write CPU register by name
---@param name string
---@param value integer
function memory.setregister(name, value) end

--- Write 8-bit to bus
---@param addr integer
---@param value integer
function memory.writebyte(addr, value) end

--- Write 32-bit to bus
---@param addr integer
---@param value integer
function memory.writedword(addr, value) end

--- Alias of writedword
---@param addr integer
---@param value integer
function memory.writelong(addr, value) end

--- Alias of writeword
---@param addr integer
---@param value integer
function memory.writeshort(addr, value) end

--- Write 16-bit to bus
---@param addr integer
---@param value integer
function memory.writeword(addr, value) end

--- Whether a movie is open
function movie.active() end

--- Movie author string
--- Not supported by gbhost: gbhost movies keep no author field for scripts yet.
function movie.author() end

--- Alias of stop
--- Not supported by gbhost: the app's Movie menu stops movies.
function movie.close() end

--- Current frame number (same as emu.framecount)
function movie.framecount() end

--- Alias of author
--- Not supported by gbhost: gbhost movies keep no author field for scripts yet.
function movie.getauthor() end

--- Alias of name
function movie.getname() end

--- Total frames in movie
function movie.length() end

--- Movie mode string ("record"/"playback") or nil
function movie.mode() end

--- Movie file name
function movie.name() end

--- Whether a movie is playing back
function movie.playing() end

--- Whether a movie is recording
function movie.recording() end

--- Movie rerecord count
function movie.rerecordcount() end

--- Query or toggle rerecord counting
---@param counting? boolean
function movie.rerecordcounting(counting) end

--- Set movie rerecord count
--- Not supported by gbhost: the recorder counts rerecords.
---@param count integer
function movie.setrerecordcount(count) end

--- Stop the current movie
--- Not supported by gbhost: the app's Movie menu stops movies.
function movie.stop() end

--- Make a savestate object (anonymous or slot-bound)
---@param slot? integer
function savestate.create(slot) end

--- Restore state from the object
---@param state integer|string
function savestate.load(state) end

--- Save current state into the object
---@param state integer|string
function savestate.save(state) end

--- Table of current sound channel/register state
--- Not supported by gbhost: sound channel state is not exposed yet.
function sound.get() end

--- Same as emu.emulating (legacy name)
function vba.emulating() end

--- Same as emu.frameadvance (legacy name)
function vba.frameadvance() end

--- Same as emu.framecount (legacy name)
function vba.framecount() end

--- Same as emu.lagcount (legacy name)
function vba.lagcount() end

--- Same as emu.lagged (legacy name)
function vba.lagged() end

--- Same as emu.message (legacy name)
---@param msg string
function vba.message(msg) end

--- Same as emu.pause (legacy name)
function vba.pause() end

--- Same as emu.print (legacy name)
function vba.print() end

--- Same as emu.registerafter (legacy name)
---@param func function
function vba.registerafter(func) end

--- Same as emu.registerbefore (legacy name)
---@param func function
function vba.registerbefore(func) end

--- Same as emu.registerclose (legacy name)
---@param func function
function vba.registerclose(func) end

--- Same as emu.registerexit (legacy name)
---@param func function
function vba.registerexit(func) end

--- Same as emu.registerloaded (legacy name)
---@param func function
function vba.registerloaded(func) end

--- Same as emu.registerloading (legacy name)
--- Not supported by gbhost: no hook runs at that moment in gbhost.
---@param func function
function vba.registerloading(func) end

--- Same as emu.registerrun (legacy name)
--- Not supported by gbhost: no hook runs at that moment in gbhost.
---@param func function
function vba.registerrun(func) end

--- Same as emu.registersaved (legacy name)
--- Not supported by gbhost: no hook runs at that moment in gbhost.
---@param func function
function vba.registersaved(func) end

--- Same as emu.registersaving (legacy name)
--- Not supported by gbhost: no hook runs at that moment in gbhost.
---@param func function
function vba.registersaving(func) end

--- Same as emu.remapinputdisplay (legacy name)
--- Not supported by gbhost: the input display is the app's.
---@param which integer
---@param mapping table
function vba.remapinputdisplay(which, mapping) end
