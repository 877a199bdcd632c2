---@meta
-- The mGBA API as gbhost runs it, for the Lua language server (generated from host/session/src/catalog/; do not edit).

---@class mGBA.C
C = {}

---@class mGBA.CanvasLayer
CanvasLayer = {}

---@class mGBA.Gamepad
Gamepad = {}

---@class mGBA.GamepadButtonEvent
GamepadButtonEvent = {}

---@class mGBA.GamepadHatEvent
GamepadHatEvent = {}

---@class mGBA.Image
Image = {}

---@class mGBA.InputEvent
InputEvent = {}

---@class mGBA.KeyEvent
KeyEvent = {}

---@class mGBA.MouseButtonEvent
MouseButtonEvent = {}

---@class mGBA.MouseMoveEvent
MouseMoveEvent = {}

---@class mGBA.MouseWheelEvent
MouseWheelEvent = {}

---@class mGBA.Rectangle
Rectangle = {}

---@class mGBA.Size
Size = {}

---@class mGBA.StorageBucket
StorageBucket = {}

---@class mGBA.TextBuffer
TextBuffer = {}

---@class mGBA.TextRunMetrics
TextRunMetrics = {}

---@class mGBA._G
_G = {}

---@class mGBA._socket
_socket = {}

---@class mGBA.callbacks
callbacks = {}

---@class mGBA.canvas
canvas = {}

---@class mGBA.console
console = {}

---@class mGBA.emu
emu = {}

---@class mGBA.image
image = {}

---@class mGBA.input
input = {}

---@class mGBA.painter
painter = {}

---@class mGBA.socket
socket = {}

---@class mGBA.storage
storage = {}

---@class mGBA.system
system = {}

---@class mGBA.util
util = {}

--- [0.11-dev] Text alignment flags for painter
C.ALIGN = {}

--- [0.10+] Checksum kinds for emu:checksum
C.CHECKSUM = {}

--- [0.11-dev] Input event type ids
C.EV_TYPE = {}

--- [0.10+] GBA key indices
C.GBA_KEY = {}

--- [0.10+] GB key indices
C.GB_KEY = {}

--- [0.11-dev] Hat direction values
C.INPUT_DIR = {}

--- [0.11-dev] Key/button state values
C.INPUT_STATE = {}

--- [0.11-dev] Special keyboard key codes
C.KEY = {}

--- [0.11-dev] Keyboard modifier flags
C.KMOD = {}

--- [0.11-dev] Mouse button ids
C.MOUSE_BUTTON = {}

--- [0.10+] Platform ids returned by emu:platform
C.PLATFORM = {}

--- [0.10+] Savestate content flags
C.SAVESTATE = {}

--- [0.10+] Socket error codes
C.SOCKERR = {}

--- [0.11-dev] Access kinds for watchpoints
C.WATCHPOINT_TYPE = {}

--- [0.11-dev] Image backing this layer
---@param field any
function CanvasLayer:image(field) end

--- [0.11-dev] Move layer on canvas
---@param x integer
---@param y integer
function CanvasLayer:setPosition(x, y) end

--- [0.11-dev] Mark layer image as changed
function CanvasLayer:update() end

--- [0.11-dev] Layer X position
---@param field any
---@param readonly any
function CanvasLayer:x(field, readonly) end

--- [0.11-dev] Layer Y position
---@param field any
---@param readonly any
function CanvasLayer:y(field, readonly) end

--- [0.11-dev] Current axis values
---@param list any
function Gamepad:axes(list) end

--- [0.11-dev] Current button states
---@param list any
function Gamepad:buttons(list) end

--- [0.11-dev] Current hat directions
---@param list any
function Gamepad:hats(list) end

--- [0.11-dev] Internal identifier of gamepad
---@param field any
function Gamepad:internalName(field) end

--- [0.11-dev] Display name of gamepad
---@param field any
function Gamepad:visibleName(field) end

--- [0.11-dev] Button index
---@param field any
function GamepadButtonEvent:button(field) end

--- [0.11-dev] Gamepad index
---@param field any
function GamepadButtonEvent:pad(field) end

--- [0.11-dev] Button state
---@param field any
function GamepadButtonEvent:state(field) end

--- [0.11-dev] Hat direction (C.INPUT_DIR)
---@param field any
function GamepadHatEvent:direction(field) end

--- [0.11-dev] Hat index
---@param field any
function GamepadHatEvent:hat(field) end

--- [0.11-dev] Gamepad index
---@param field any
function GamepadHatEvent:pad(field) end

--- [0.11-dev] Alpha-blend image onto this one
---@param image any
---@param x integer
---@param y integer
---@param alpha? number
function Image:drawImage(image, x, y, alpha) end

--- [0.11-dev] Copy image onto this one without blending
---@param image any
---@param x integer
---@param y integer
function Image:drawImageOpaque(image, x, y) end

--- [0.11-dev] ARGB value of a pixel
---@param x integer
---@param y integer
function Image:getPixel(x, y) end

--- [0.11-dev] Image height in pixels
---@param field any
function Image:height(field) end

--- [0.11-dev] Write image to file
--- Not supported by gbhost: saving images is not built yet (draw them instead).
---@param path string
---@param format? string
function Image:save(path, format) end

--- [0.11-dev] Set a pixel's ARGB value
---@param x integer
---@param y integer
---@param color integer
function Image:setPixel(x, y, color) end

--- [0.11-dev] Image width in pixels
---@param field any
function Image:width(field) end

--- [0.11-dev] Event sequence number
---@param field any
function InputEvent:seq(field) end

--- [0.11-dev] Event type (C.EV_TYPE)
---@param field any
function InputEvent:type(field) end

--- [0.11-dev] Key code (character or C.KEY)
---@param field any
function KeyEvent:key(field) end

--- [0.11-dev] Active modifiers (C.KMOD)
---@param field any
function KeyEvent:modifiers(field) end

--- [0.11-dev] Key state (C.INPUT_STATE)
---@param field any
function KeyEvent:state(field) end

--- [0.11-dev] Button id (C.MOUSE_BUTTON)
---@param field any
function MouseButtonEvent:button(field) end

--- [0.11-dev] Mouse index
---@param field any
function MouseButtonEvent:mouse(field) end

--- [0.11-dev] Button state
---@param field any
function MouseButtonEvent:state(field) end

--- [0.11-dev] Mouse index
---@param field any
function MouseMoveEvent:mouse(field) end

--- [0.11-dev] Pointer X on screen
---@param field any
function MouseMoveEvent:x(field) end

--- [0.11-dev] Pointer Y on screen
---@param field any
function MouseMoveEvent:y(field) end

--- [0.11-dev] Mouse index
---@param field any
function MouseWheelEvent:mouse(field) end

--- [0.11-dev] Horizontal scroll amount
---@param field any
function MouseWheelEvent:x(field) end

--- [0.11-dev] Vertical scroll amount
---@param field any
function MouseWheelEvent:y(field) end

--- [0.11-dev] Center another rectangle within this one
---@param other any
function Rectangle:center(other) end

--- [0.11-dev] Duplicate rectangle
function Rectangle:copy() end

--- [0.11-dev] Height
---@param field any
function Rectangle:height(field) end

--- [0.11-dev] Shrink to overlap; false if none
---@param other any
function Rectangle:intersection(other) end

--- [0.11-dev] Dimensions as Size
function Rectangle:size() end

--- [0.11-dev] Grow to include another rectangle
---@param other any
function Rectangle:union(other) end

--- [0.11-dev] Width
---@param field any
function Rectangle:width(field) end

--- [0.11-dev] Left edge
---@param field any
function Rectangle:x(field) end

--- [0.11-dev] Top edge
---@param field any
function Rectangle:y(field) end

--- [0.11-dev] Duplicate size
function Size:copy() end

--- [0.11-dev] Height
---@param field any
function Size:height(field) end

--- [0.11-dev] Width
---@param field any
function Size:width(field) end

--- [0.11-dev] Toggle automatic flushing
---@param enable boolean
function StorageBucket:enableAutoFlush(enable) end

--- [0.11-dev] Write bucket to disk now
function StorageBucket:flush() end

--- [0.11-dev] Re-read bucket from disk
function StorageBucket:reload() end

--- [0.10+] Move cursor forward by count
---@param adv integer
function TextBuffer:advance(adv) end

--- [0.10+] Erase buffer contents
function TextBuffer:clear() end

--- [0.10+] Buffer width in characters
function TextBuffer:cols() end

--- [0.10+] Cursor column
function TextBuffer:getX() end

--- [0.10+] Cursor row
function TextBuffer:getY() end

--- [0.10+] Move cursor to column/row
---@param x integer
---@param y integer
function TextBuffer:moveCursor(x, y) end

--- [0.10+] Write text at cursor
---@param text string
function TextBuffer:print(text) end

--- [0.10+] Buffer height in characters
function TextBuffer:rows() end

--- [0.10+] Rename buffer window
---@param name string
function TextBuffer:setName(name) end

--- [0.10+] Resize buffer in characters
---@param cols integer
---@param rows integer
function TextBuffer:setSize(cols, rows) end

--- [0.11-dev] Font ascender height
function TextRunMetrics:ascender() end

--- [0.11-dev] Font descender depth
function TextRunMetrics:descender() end

--- [0.11-dev] Measured text height
function TextRunMetrics:height() end

--- [0.11-dev] Measured text width
function TextRunMetrics:width() end

--- [0.11-dev] print redirected to scripting console (0.10: stdout)
function print() end

--- [0.11-dev] warn redirected to scripting console
function warn() end

--- [0.10+] Low-level raw socket constructor (used by socket lib)
function _socket:create() end

--- [0.10+] Register handler for named event; returns id
---@param callback string
---@param function_ function
function callbacks:add(callback, function_) end

--- [0.11-dev] Register handler that fires once; returns id
---@param callback string
---@param function_ function
function callbacks:oneshot(callback, function_) end

--- [0.10+] Unregister handler by id
---@param cbid integer
function callbacks:remove(cbid) end

--- [0.11-dev] Canvas height in pixels
function canvas:height() end

--- [0.11-dev] Create overlay layer above the game screen
---@param width integer
---@param height integer
function canvas:newLayer(width, height) end

--- [0.11-dev] Game screen height on canvas
function canvas:screenHeight() end

--- [0.11-dev] Game screen width on canvas
function canvas:screenWidth() end

--- [0.11-dev] Push all layer changes to display
function canvas:update() end

--- [0.11-dev] Canvas width in pixels
function canvas:width() end

--- [0.10+] Make a named text buffer window; returns TextBuffer
---@param name? string
function console:createBuffer(name) end

--- [0.10+] Print error line
---@param msg string
function console:error(msg) end

--- [0.10+] Print informational line to scripting console
---@param msg string
function console:log(msg) end

--- [0.10+] Print warning line
---@param msg string
function console:warn(msg) end

--- [0.10+] Press one key
---@param key integer
function emu:addKey(key) end

--- [0.10+] Press keys given as bitmask
---@param keys integer
function emu:addKeys(keys) end

--- [0.10+] Load the save file matching the loaded ROM
--- Not supported by gbhost: the app opens files and resets; scripts run between frames.
function emu:autoloadSave() end

--- [0.10+] ROM checksum string (MD5/SHA1 types newer than 0.10)
---@param type? integer
function emu:checksum(type) end

--- [0.11-dev, debugger builds] Remove breakpoint/watchpoint by id
---@param cbid integer
function emu:clearBreakpoint(cbid) end

--- [0.10+] Release one key
---@param key integer
function emu:clearKey(key) end

--- [0.10+] Release keys given as bitmask
---@param keys integer
function emu:clearKeys(keys) end

--- [0.10+] Underlying core object (methods also reachable on emu)
--- Not supported by gbhost: mGBA's core object.
---@param field any
function emu:core(field) end

--- [0.11-dev, debugger builds] Current execution cycle count
function emu:currentCycle() end

--- [0.10+] Current frame number
function emu:currentFrame() end

--- [0.10+] CPU cycles per frame
function emu:frameCycles() end

--- [0.10+] CPU cycles per second
function emu:frequency() end

--- [0.10+] Product code from ROM header
function emu:getGameCode() end

--- [0.10+] Title from ROM header
function emu:getGameTitle() end

--- [0.10+] Whether one key is held
---@param key integer
function emu:getKey(key) end

--- [0.10+] Held keys as bitmask
function emu:getKeys() end

--- [0.10+] Load a ROM file into the core
--- Not supported by gbhost: the app opens files and resets; scripts run between frames.
---@param path string
function emu:loadFile(path) end

--- [0.10+] Load save data from path; temporary skips write-back
--- Not supported by gbhost: the app opens files and resets; scripts run between frames.
---@param path string
---@param temporary boolean
function emu:loadSaveFile(path, temporary) end

--- [0.10+] Restore savestate from string buffer
--- Not supported by gbhost: state buffers and files: use saveStateSlot and loadStateSlot.
---@param buffer string
---@param flags? integer
function emu:loadStateBuffer(buffer, flags) end

--- [0.10+] Load state from a file
--- Not supported by gbhost: state buffers and files: use saveStateSlot and loadStateSlot.
---@param path string
---@param flags? integer
function emu:loadStateFile(path, flags) end

--- [0.10+] Load state from numbered slot
---@param slot integer
---@param flags? integer
function emu:loadStateSlot(slot, flags) end

--- [0.10+] Table of memory domain objects keyed by short name
---@param table any
function emu:memory(table) end

--- [0.10+] Emulated platform id (see C.PLATFORM)
function emu:platform() end

--- [0.10+] Read 16-bit from system bus
---@param address integer
function emu:read16(address) end

--- [0.10+] Read 32-bit from system bus
---@param address integer
function emu:read32(address) end

--- [0.10+] Read 8-bit from system bus
---@param address integer
function emu:read8(address) end

--- [0.10+] Read bus bytes as a string
---@param address integer
---@param length integer
function emu:readRange(address, length) end

--- [0.10+] Read CPU register by name
---@param regName string
function emu:readRegister(regName) end

--- [0.10+] Reset the system and fire the reset callback
--- Not supported by gbhost: the app opens files and resets; scripts run between frames.
function emu:reset() end

--- [0.10+] Size of loaded ROM in bytes
function emu:romSize() end

--- [0.10+] Emulate until next frame
--- Not supported by gbhost: the app opens files and resets; scripts run between frames.
function emu:runFrame() end

--- [0.10+] Savestate into a string buffer
--- Not supported by gbhost: state buffers and files: use saveStateSlot and loadStateSlot.
---@param flags? integer
function emu:saveStateBuffer(flags) end

--- [0.10+] Save state to a file
--- Not supported by gbhost: state buffers and files: use saveStateSlot and loadStateSlot.
---@param path string
---@param flags? integer
function emu:saveStateFile(path, flags) end

--- [0.10+] Save state to numbered slot
---@param slot integer
---@param flags? integer
function emu:saveStateSlot(slot, flags) end

--- [0.10+] Write screenshot to file (default name if nil)
--- Not supported by gbhost: screenshots are the app's.
---@param filename? string
function emu:screenshot(filename) end

--- [0.11-dev] Screenshot returned as an image object
--- Not supported by gbhost: screenshots are the app's.
function emu:screenshotToImage() end

--- [0.11-dev, debugger builds] Call function when address executes; returns id
---@param callback function
---@param address integer
---@param segment? integer
function emu:setBreakpoint(callback, address, segment) end

--- [0.10+] Replace held keys with a bitmask
---@param keys integer
function emu:setKeys(keys) end

--- [0.11-dev, debugger builds] Watch an address range; returns id
---@param callback function
---@param minAddress integer
---@param maxAddress integer
---@param type integer
---@param segment? integer
function emu:setRangeWatchpoint(callback, minAddress, maxAddress, type, segment) end

--- [0.11-dev] Supply Lua tilt/gyro sensor callbacks
--- Not supported by gbhost: Game Boy Advance cartridge sensors.
---@param cbTable table
function emu:setRotationCallbacks(cbTable) end

--- [0.11-dev] Supply Lua solar sensor (luminance) callback
--- Not supported by gbhost: Game Boy Advance cartridge sensors.
---@param callback function
function emu:setSolarSensorCallback(callback) end

--- [0.11-dev, debugger builds] Call function on memory access; returns id
---@param callback function
---@param address integer
---@param type integer
---@param segment? integer
function emu:setWatchpoint(callback, address, type, segment) end

--- [0.10+] Execute one CPU instruction
--- Not supported by gbhost: the app opens files and resets; scripts run between frames.
function emu:step() end

--- [0.10+] Write 16-bit to system bus
---@param address integer
---@param value any
function emu:write16(address, value) end

--- [0.10+] Write 32-bit to system bus
---@param address integer
---@param value integer
function emu:write32(address, value) end

--- [0.10+] Write 8-bit to system bus
---@param address integer
---@param value any
function emu:write8(address, value) end

--- [0.10+] Write CPU register by name
---@param regName string
---@param value integer
function emu:writeRegister(regName, value) end

--- [0.10+] GB ROM bank area
---@param domain any
function emu.memory.cart0(domain) end

--- [0.10+] GB high RAM
---@param domain any
function emu.memory.hram(domain) end

--- [0.10+] GB I/O registers
---@param domain any
function emu.memory.io(domain) end

--- [0.10+] GB sprite attribute memory
---@param domain any
function emu.memory.oam(domain) end

--- [0.10+] GB cartridge external RAM
---@param domain any
function emu.memory.sram(domain) end

--- [0.10+] GB video RAM
---@param domain any
function emu.memory.vram(domain) end

--- [0.10+] GB work RAM
---@param domain any
function emu.memory.wram(domain) end

--- [0.11-dev] Load PNG image from file
---@param path string
function image.load(path) end

--- [0.11-dev] Create blank image
---@param width integer
---@param height integer
function image.new(width, height) end

--- [0.11-dev] Create painter that draws onto an image
---@param image any
function image.newPainter(image) end

--- [0.11-dev] Currently active gamepad object or nil
--- Not supported by gbhost: mGBA 0.11's input object is not built yet (input.get gives the host's keys).
---@param field any
function input:activeGamepad(field) end

--- [0.11-dev] List of host keys currently down
--- Not supported by gbhost: mGBA 0.11's input object is not built yet (input.get gives the host's keys).
function input:activeKeys() end

--- [0.11-dev] Whether a host key is currently down
--- Not supported by gbhost: mGBA 0.11's input object is not built yet (input.get gives the host's keys).
---@param key any
function input:isKeyActive(key) end

--- [0.11-dev] Sequence number of last input event
--- Not supported by gbhost: mGBA 0.11's input object is not built yet (input.get gives the host's keys).
---@param field any
function input:seq(field) end

--- [0.11-dev] Draw circle in bounding square
---@param x integer
---@param y integer
---@param diameter integer
function painter:drawCircle(x, y, diameter) end

--- [0.11-dev] Draw line with stroke settings
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
function painter:drawLine(x1, y1, x2, y2) end

--- [0.11-dev] Fill using image alpha as mask
---@param mask any
---@param x integer
---@param y integer
function painter:drawMask(mask, x, y) end

--- [0.11-dev] Draw rectangle
---@param x integer
---@param y integer
---@param width integer
---@param height integer
function painter:drawRectangle(x, y, width, height) end

--- [0.11-dev] Draw text with loaded font
--- Not supported by gbhost: text in images is not built yet (use gui.text).
---@param text string
---@param x integer
---@param y integer
---@param alignment? integer
function painter:drawText(text, x, y, alignment) end

--- [0.11-dev] Load a font file for drawText
--- Not supported by gbhost: text in images is not built yet (use gui.text).
---@param path string
function painter:loadFont(path) end

--- [0.11-dev] Toggle alpha blending when drawing
---@param enable boolean
function painter:setBlend(enable) end

--- [0.11-dev] Toggle filling shapes
---@param enable boolean
function painter:setFill(enable) end

--- [0.11-dev] Set ARGB fill color
---@param color integer
function painter:setFillColor(color) end

--- [0.11-dev] Set font size in points
--- Not supported by gbhost: text in images is not built yet (use gui.text).
---@param pt number
function painter:setFontSize(pt) end

--- [0.11-dev] Set ARGB outline color
---@param color integer
function painter:setStrokeColor(color) end

--- [0.11-dev] Set outline width (0 disables)
---@param width integer
function painter:setStrokeWidth(width) end

--- [0.11-dev] Measure text box; returns Size
--- Not supported by gbhost: text in images is not built yet (use gui.text).
---@param text string
function painter:textBoxSize(text) end

--- [0.11-dev] Measure single-line text; returns metrics object
--- Not supported by gbhost: text in images is not built yet (use gui.text).
---@param text string
function painter:textRunMetrics(text) end

--- [0.10+] Error code to message lookup
--- Not supported by gbhost: no network in the sandbox.
---@param table any
function socket.ERRORS(table) end

--- [0.10+] New TCP socket bound to address/port
--- Not supported by gbhost: no network in the sandbox.
---@param address string
---@param port integer
function socket.bind(address, port) end

--- [0.10+] New TCP socket connected to host/port
--- Not supported by gbhost: no network in the sandbox.
---@param address string
---@param port integer
function socket.connect(address, port) end

--- [0.10+] New unconnected TCP socket object
--- Not supported by gbhost: no network in the sandbox.
function socket.tcp() end

--- [0.11-dev] Write all buckets to disk
--- Not supported by gbhost: mGBA 0.11's storage buckets are not built yet (use persist).
function storage:flushAll() end

--- [0.11-dev] Get persistent data bucket by name
--- Not supported by gbhost: mGBA 0.11's storage buckets are not built yet (use persist).
---@param key string
function storage:getBucket(key) end

--- [0.11-dev] Git branch of build
---@param field any
function system.branch(field) end

--- [0.11-dev] Git commit hash of build
---@param field any
function system.commit(field) end

--- [0.11-dev] Program name, normally mGBA
---@param field any
function system.program(field) end

--- [0.11-dev] Git revision number or -1
---@param field any
function system.revision(field) end

--- [0.11-dev] Program version string
---@param field any
function system.version(field) end

--- [0.10+] List bit indices set in mask
---@param mask any
function util.expandBitmask(mask) end

--- [0.10+] Build bitmask from list of bit indices
---@param bits any
function util.makeBitmask(bits) end

--- [0.11-dev] Create Rectangle object
---@param x integer
---@param y integer
---@param width integer
---@param height integer
function util.newRectangle(x, y, width, height) end

--- [0.11-dev] Create Size object
---@param width integer
---@param height integer
function util.newSize(width, height) end
