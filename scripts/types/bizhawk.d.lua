---@meta
-- The BizHawk API as gbhost runs it, for the Lua language server (generated from host/session/src/catalog/; do not edit).

---@class BizHawk.LuaCanvas
LuaCanvas = {}

---@class BizHawk.SQL
SQL = {}

---@class BizHawk._G
_G = {}

---@class BizHawk.bit
bit = {}

---@class BizHawk.bizsocket
bizsocket = {}

---@class BizHawk.bizstring
bizstring = {}

---@class BizHawk.client
client = {}

---@class BizHawk.comm
comm = {}

---@class BizHawk.console
console = {}

---@class BizHawk.doom
doom = {}

---@class BizHawk.emu
emu = {}

---@class BizHawk.event
event = {}

---@class BizHawk.forms
forms = {}

---@class BizHawk.gameinfo
gameinfo = {}

---@class BizHawk.genesis
genesis = {}

---@class BizHawk.gui
gui = {}

---@class BizHawk.input
input = {}

---@class BizHawk.joypad
joypad = {}

---@class BizHawk.mainmemory
mainmemory = {}

---@class BizHawk.memory
memory = {}

---@class BizHawk.memorysavestate
memorysavestate = {}

---@class BizHawk.movie
movie = {}

---@class BizHawk.nds
nds = {}

---@class BizHawk.nes
nes = {}

---@class BizHawk.savestate
savestate = {}

---@class BizHawk.snes
snes = {}

---@class BizHawk.speech
speech = {}

---@class BizHawk.tastudio
tastudio = {}

---@class BizHawk.userdata
userdata = {}

--- Fill canvas with color
---@param color integer|string
function LuaCanvas.Clear(color) end

--- Drop canvas image cache
function LuaCanvas.ClearImageCache() end

--- Draw arc on canvas
--- Not supported by gbhost: canvas shapes other than boxes, lines, pixels and text are not built yet.
---@param x integer
---@param y integer
---@param width integer
---@param height integer
---@param startAngle integer
---@param sweepAngle integer
---@param line? integer|string
function LuaCanvas.DrawArc(x, y, width, height, startAngle, sweepAngle, line) end

--- Draw crosshair on canvas
---@param x integer
---@param y integer
---@param size integer
---@param color? integer|string
function LuaCanvas.DrawAxis(x, y, size, color) end

--- Draw Bezier curve on canvas
--- Not supported by gbhost: canvas shapes other than boxes, lines, pixels and text are not built yet.
---@param points table
---@param color integer|string
function LuaCanvas.DrawBezier(points, color) end

--- Draw corner-to-corner rectangle on canvas
---@param x integer
---@param y integer
---@param x2 integer
---@param y2 integer
---@param line? integer|string
---@param background? integer|string
function LuaCanvas.DrawBox(x, y, x2, y2, line, background) end

--- Draw ellipse on canvas
--- Not supported by gbhost: canvas shapes other than boxes, lines, pixels and text are not built yet.
---@param x integer
---@param y integer
---@param width integer
---@param height integer
---@param line? integer|string
---@param background? integer|string
function LuaCanvas.DrawEllipse(x, y, width, height, line, background) end

--- Draw .ico on canvas
--- Not supported by gbhost: canvas shapes other than boxes, lines, pixels and text are not built yet.
---@param path string
---@param x integer
---@param y integer
---@param width? integer
---@param height? integer
function LuaCanvas.DrawIcon(path, x, y, width, height) end

--- Draw image file on canvas
--- Not supported by gbhost: canvas shapes other than boxes, lines, pixels and text are not built yet.
---@param path string
---@param x integer
---@param y integer
---@param width? integer
---@param height? integer
---@param cache? boolean
function LuaCanvas.DrawImage(path, x, y, width, height, cache) end

--- Draw part of image on canvas
--- Not supported by gbhost: canvas shapes other than boxes, lines, pixels and text are not built yet.
---@param path string
---@param sourceX integer
---@param sourceY integer
---@param sourceWidth integer
---@param sourceHeight integer
---@param destX integer
---@param destY integer
---@param destWidth? integer
---@param destHeight? integer
function LuaCanvas.DrawImageRegion(path, sourceX, sourceY, sourceWidth, sourceHeight, destX, destY, destWidth, destHeight) end

--- Draw line on canvas
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param color? integer|string
function LuaCanvas.DrawLine(x1, y1, x2, y2, color) end

--- Draw pie slice on canvas
--- Not supported by gbhost: canvas shapes other than boxes, lines, pixels and text are not built yet.
---@param x integer
---@param y integer
---@param width integer
---@param height integer
---@param startAngle integer
---@param sweepAngle integer
---@param line? integer|string
---@param background? integer|string
function LuaCanvas.DrawPie(x, y, width, height, startAngle, sweepAngle, line, background) end

--- Set one canvas pixel
---@param x integer
---@param y integer
---@param color? integer|string
function LuaCanvas.DrawPixel(x, y, color) end

--- Draw polygon on canvas
--- Not supported by gbhost: canvas shapes other than boxes, lines, pixels and text are not built yet.
---@param points table
---@param x? integer
---@param y? integer
---@param line? integer|string
---@param background? integer|string
function LuaCanvas.DrawPolygon(points, x, y, line, background) end

--- Draw rectangle on canvas
---@param x integer
---@param y integer
---@param width integer
---@param height integer
---@param line? integer|string
---@param background? integer|string
function LuaCanvas.DrawRectangle(x, y, width, height, line, background) end

--- Alias of DrawText on canvas
---@param x integer
---@param y integer
---@param message string
---@param foreColor? integer|string
---@param backColor? integer|string
---@param fontSize? integer
---@param fontFamily? string
---@param fontStyle? string
---@param horizontalAlign? string
---@param verticalAlign? string
function LuaCanvas.DrawString(x, y, message, foreColor, backColor, fontSize, fontFamily, fontStyle, horizontalAlign, verticalAlign) end

--- Draw styled text on canvas
---@param x integer
---@param y integer
---@param message string
---@param foreColor? integer|string
---@param backColor? integer|string
---@param fontSize? integer
---@param fontFamily? string
---@param fontStyle? string
---@param horizontalAlign? string
---@param verticalAlign? string
function LuaCanvas.DrawText(x, y, message, foreColor, backColor, fontSize, fontFamily, fontStyle, horizontalAlign, verticalAlign) end

--- Mouse X relative to canvas
--- Not supported by gbhost: canvas shapes other than boxes, lines, pixels and text are not built yet.
function LuaCanvas.GetMouseX() end

--- Mouse Y relative to canvas
--- Not supported by gbhost: canvas shapes other than boxes, lines, pixels and text are not built yet.
function LuaCanvas.GetMouseY() end

--- Redraw canvas
function LuaCanvas.Refresh() end

--- Default canvas fill color
---@param color integer|string
function LuaCanvas.SetDefaultBackgroundColor(color) end

--- Default canvas draw color
---@param color integer|string
function LuaCanvas.SetDefaultForegroundColor(color) end

--- Default canvas text background
---@param color integer|string
function LuaCanvas.SetDefaultTextBackground(color) end

--- Move canvas window
---@param x integer
---@param y integer
function LuaCanvas.SetLocation(x, y) end

--- Set canvas window title
---@param title string
function LuaCanvas.SetTitle(title) end

--- Save canvas contents as PNG
--- Not supported by gbhost: canvas shapes other than boxes, lines, pixels and text are not built yet.
---@param path string
function LuaCanvas.save_image_to_disk(path) end

--- Create a SQLite database file
--- Not supported by gbhost: no database in the sandbox.
---@param name string
function SQL.createdatabase(name) end

--- Open a SQLite database file
--- Not supported by gbhost: no database in the sandbox.
---@param name string
function SQL.opendatabase(name) end

--- Run a SELECT; returns rows as table
--- Not supported by gbhost: no database in the sandbox.
---@param query? string
function SQL.readcommand(query) end

--- Run a modifying SQL statement
--- Not supported by gbhost: no database in the sandbox.
---@param query? string
function SQL.writecommand(query) end

--- Global print routed to the Lua console output
---@param outputs? any
function print(outputs) end

--- Arithmetic (sign-preserving) right shift
---@param val integer
---@param amt integer
function bit.arshift(val, amt) end

--- Bitwise AND
---@param val integer
---@param amt integer
function bit.band(val, amt) end

--- Bitwise NOT
---@param val integer
function bit.bnot(val) end

--- Bitwise OR
---@param val integer
---@param amt integer
function bit.bor(val, amt) end

--- Bitwise XOR
---@param val integer
---@param amt integer
function bit.bxor(val, amt) end

--- Swap bytes of 16-bit value
---@param val integer
function bit.byteswap_16(val) end

--- Reverse bytes of 32-bit value
---@param val integer
function bit.byteswap_32(val) end

--- Reverse bytes of 64-bit value
---@param val integer
function bit.byteswap_64(val) end

--- Test whether a bit is set
---@param num integer
---@param pos integer
function bit.check(num, pos) end

--- Return value with a bit cleared
---@param num integer
---@param pos integer
function bit.clear(num, pos) end

--- Logical left shift
---@param val integer
---@param amt integer
function bit.lshift(val, amt) end

--- Rotate 32-bit value left
---@param val integer
---@param amt integer
function bit.rol(val, amt) end

--- Rotate 32-bit value right
---@param val integer
---@param amt integer
function bit.ror(val, amt) end

--- Logical right shift
---@param val integer
---@param amt integer
function bit.rshift(val, amt) end

--- Return value with a bit set
---@param num integer
---@param pos integer
function bit.set(num, pos) end

--- Old websocket lib: close socket (historic)
--- Not supported by gbhost: no network in the sandbox.
---@param id string
---@param status integer
---@param closeMessage string
function bizsocket.close(id, status, closeMessage) end

--- Old websocket lib: socket state (historic)
--- Not supported by gbhost: no network in the sandbox.
---@param id string
function bizsocket.getStatus(id) end

--- Old websocket lib: open socket, return id (historic)
--- Not supported by gbhost: no network in the sandbox.
---@param url string
function bizsocket.open(url) end

--- Old websocket lib: receive message (historic)
--- Not supported by gbhost: no network in the sandbox.
---@param id string
---@param maxRead integer
function bizsocket.receive(id, maxRead) end

--- Old websocket lib: send message (historic)
--- Not supported by gbhost: no network in the sandbox.
---@param id string
---@param content string
---@param endOfMessage boolean
function bizsocket.send(id, content, endOfMessage) end

--- Number to binary string
---@param num integer
function bizstring.binary(num) end

--- Whether substring occurs
---@param str string
---@param str2 string
function bizstring.contains(str, str2) end

--- Whether string has suffix
---@param str string
---@param str2 string
function bizstring.endswith(str, str2) end

--- Number to hex string
---@param num integer
function bizstring.hex(num) end

--- Number to octal string
---@param num integer
function bizstring.octal(num) end

--- Right-pad string to length
---@param str string
---@param length integer
---@param pad_char string
function bizstring.pad_end(str, length, pad_char) end

--- Left-pad string to length
---@param str string
---@param length integer
---@param pad_char string
function bizstring.pad_start(str, length, pad_char) end

--- Delete characters at position
---@param str string
---@param position integer
---@param count integer
function bizstring.remove(str, position, count) end

--- Replace all occurrences of substring
---@param str string
---@param str2 string
---@param replace string
function bizstring.replace(str, str2, replace) end

--- Split on single-char separator into array
---@param str string
---@param separator string
function bizstring.split(str, separator) end

--- Whether string has prefix
---@param str string
---@param str2 string
function bizstring.startswith(str, str2) end

--- Extract substring by position and length
---@param str string
---@param position integer
---@param length integer
function bizstring.substring(str, position, length) end

--- Lowercase copy
---@param str string
function bizstring.tolower(str) end

--- Uppercase copy
---@param str string
function bizstring.toupper(str) end

--- Strip surrounding whitespace
---@param str string
function bizstring.trim(str) end

--- Whether sound is enabled
--- Not supported by gbhost: the app's settings are not open to scripts.
function client.GetSoundOn() end

--- Add padding around client surface for HUD drawing
---@param left integer
---@param top integer
---@param right integer
---@param bottom integer
function client.SetClientExtraPadding(left, top, right, bottom) end

--- Add padding around emu surface for HUD drawing
---@param left integer
---@param top integer
---@param right integer
---@param bottom integer
function client.SetGameExtraPadding(left, top, right, bottom) end

--- Enable or mute sound
--- Not supported by gbhost: the app's settings are not open to scripts.
---@param enable boolean
function client.SetSoundOn(enable) end

--- Add a cheat code if the core supports it
--- Not supported by gbhost: cheats are not built yet.
---@param code string
function client.addcheat(code) end

--- Height of top letterbox/pillarbox border in pixels
function client.borderheight() end

--- Width of left letterbox/pillarbox border in pixels
function client.borderwidth() end

--- Visible height of core video output
function client.bufferheight() end

--- Visible width of core video output
function client.bufferwidth() end

--- Release every autoheld button
--- Not supported by gbhost: autohold is the app's.
function client.clearautohold() end

--- Unload the current ROM
--- Not supported by gbhost: scripts do not open or close ROMs, instances or the app.
function client.closerom() end

--- Create default instance of a named type
--- Not supported by gbhost: scripts do not open or close ROMs, instances or the app.
---@param name string
function client.createinstance(name) end

--- Toggle on-screen messages
--- Not supported by gbhost: the app's settings are not open to scripts.
---@param value boolean
function client.displaymessages(value) end

--- Turn rewind on or off
--- Not supported by gbhost: rewind is always on, and scripts roll back with it.
---@param enabled boolean
function client.enablerewind(enabled) end

--- Busy-wait precisely for some milliseconds
--- Not supported by gbhost: scripts never block emulation.
---@param millis integer
function client.exactsleep(millis) end

--- Quit the emulator
--- Not supported by gbhost: scripts do not open or close ROMs, instances or the app.
function client.exit() end

--- Quit the emulator with a process exit code
--- Not supported by gbhost: scripts do not open or close ROMs, instances or the app.
---@param exitCode integer
function client.exitCode(exitCode) end

--- Set UI frameskip amount (0 disables)
--- Not supported by gbhost: the app's settings are not open to scripts.
---@param numFrames integer
function client.frameskip(numFrames) end

--- Approximate host framerate from frame timing
--- Not supported by gbhost: it would differ between a run and its replay.
function client.get_approx_framerate() end

--- Name of the Lua engine in use
function client.get_lua_engine() end

--- List names of currently open tools
--- Not supported by gbhost: tool windows belong to the app.
function client.getavailabletools() end

--- Return the client config object
--- Not supported by gbhost: the app's settings are not open to scripts.
function client.getconfig() end

--- Current scanline filter intensity
--- Not supported by gbhost: the app's settings are not open to scripts.
function client.gettargetscanlineintensity() end

--- Get (opening if needed) a tool object by name
--- Not supported by gbhost: tool windows belong to the app.
---@param name string
function client.gettool(name) end

--- BizHawk version string
function client.getversion() end

--- Current main window zoom factor
function client.getwindowsize() end

--- Toggle emulating without display updates
--- Not supported by gbhost: the app's settings are not open to scripts.
---@param invisible boolean
function client.invisibleemulation(invisible) end

--- True when emulation is paused
function client.ispaused() end

--- True while rewinding
--- Not supported by gbhost: it would differ between a run and its replay.
function client.isrewinding() end

--- True while seeking to a frame
--- Not supported by gbhost: it would differ between a run and its replay.
function client.isseeking() end

--- True when turbo is active
--- Not supported by gbhost: it would differ between a run and its replay.
function client.isturbo() end

--- Open the Cheats window
--- Not supported by gbhost: tool windows belong to the app.
function client.opencheats() end

--- Open the Hex Editor window
--- Not supported by gbhost: tool windows belong to the app.
function client.openhexeditor() end

--- Open the RAM Search window
--- Not supported by gbhost: tool windows belong to the app.
function client.openramsearch() end

--- Open the RAM Watch window
--- Not supported by gbhost: tool windows belong to the app.
function client.openramwatch() end

--- Load a ROM file; returns success flag
--- Not supported by gbhost: scripts do not open or close ROMs, instances or the app.
---@param path string
function client.openrom(path) end

--- Open TAStudio
--- Not supported by gbhost: tool windows belong to the app.
function client.opentasstudio() end

--- Open the Toolbox window
--- Not supported by gbhost: tool windows belong to the app.
function client.opentoolbox() end

--- Open the trace logger if core supports it
--- Not supported by gbhost: tool windows belong to the app.
function client.opentracelogger() end

--- Pause emulation
function client.pause() end

--- Suspend A/V capture until unpaused
--- Not supported by gbhost: the app's settings are not open to scripts.
function client.pause_av() end

--- Restart the loaded core
function client.reboot_core() end

--- Remove a previously added cheat code
--- Not supported by gbhost: cheats are not built yet.
---@param code string
function client.removecheat(code) end

--- Flush SaveRAM to disk
--- Not supported by gbhost: the app writes battery saves.
function client.saveram() end

--- Height of the emulator drawing area
function client.screenheight() end

--- Take a screenshot, optionally to given path
---@param path? string
function client.screenshot(path) end

--- Copy a screenshot to the clipboard
--- Not supported by gbhost: no clipboard for scripts.
function client.screenshottoclipboard() end

--- Width of the emulator drawing area
function client.screenwidth() end

--- Deprecated no-op; loop with pause/unpause instead
--- Not supported by gbhost: seeking is the app's timeline.
---@param frame integer
function client.seekframe(frame) end

--- Choose whether screenshots include OSD
---@param value boolean
function client.setscreenshotosd(value) end

--- Set scanline filter intensity
--- Not supported by gbhost: the app's settings are not open to scripts.
---@param val integer
function client.settargetscanlineintensity(val) end

--- Set main window zoom factor
--- Not supported by gbhost: the app's settings are not open to scripts.
---@param size integer
function client.setwindowsize(size) end

--- Sleep for some milliseconds
--- Not supported by gbhost: scripts never block emulation.
---@param millis integer
function client.sleep(millis) end

--- Set emulation speed percentage
--- Not supported by gbhost: the app's settings are not open to scripts.
---@param percent integer
function client.speedmode(percent) end

--- Flip pause state
function client.togglepause() end

--- Map emulator-space point to client-space point
---@param x integer
---@param y integer
function client.transformPoint(x, y) end

--- Resume emulation
function client.unpause() end

--- Resume A/V capture
--- Not supported by gbhost: the app's settings are not open to scripts.
function client.unpause_av() end

--- Window x position on screen
function client.xpos() end

--- Window y position on screen
function client.ypos() end

--- List comm functions (unfinished)
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
function comm.getluafunctionslist() end

--- Perform HTTP GET, return body
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param url string
function comm.httpGet(url) end

--- Get default GET URL
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
function comm.httpGetGetUrl() end

--- Get default POST URL
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
function comm.httpGetPostUrl() end

--- Perform HTTP POST, return body
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param url string
---@param payload string
function comm.httpPost(url, payload) end

--- POST a screenshot to configured URL
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
function comm.httpPostScreenshot() end

--- Set default GET URL
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param url string
function comm.httpSetGetUrl(url) end

--- Set default POST URL
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param url string
function comm.httpSetPostUrl(url) end

--- Set HTTP timeout (ms)
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param timeout integer
function comm.httpSetTimeout(timeout) end

--- Test HTTP connectivity
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
function comm.httpTest() end

--- Test HTTP GET connectivity
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
function comm.httpTestGet() end

--- Copy emulated memory range into memory-mapped file
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param mmf_filename string
---@param addr integer
---@param length integer
---@param domain string
function comm.mmfCopyFromMemory(mmf_filename, addr, length, domain) end

--- Copy memory-mapped file contents into emulated memory
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param mmf_filename string
---@param addr integer
---@param length integer
---@param domain string
function comm.mmfCopyToMemory(mmf_filename, addr, length, domain) end

--- Get memory-mapped file name for screenshots
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
function comm.mmfGetFilename() end

--- Read string from memory-mapped file
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param mmf_filename string
---@param expectedSize integer
function comm.mmfRead(mmf_filename, expectedSize) end

--- Read bytes from memory-mapped file
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param mmf_filename string
---@param expectedSize integer
function comm.mmfReadBytes(mmf_filename, expectedSize) end

--- Write screenshot into memory-mapped file
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
function comm.mmfScreenshot() end

--- Set memory-mapped file name for screenshots
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param filename string
function comm.mmfSetFilename(filename) end

--- Write string into memory-mapped file
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param mmf_filename string
---@param outputString string
function comm.mmfWrite(mmf_filename, outputString) end

--- Write bytes into memory-mapped file
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param mmf_filename string
---@param byteArray table
function comm.mmfWriteBytes(mmf_filename, byteArray) end

--- Get socket server IP and port string
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
function comm.socketServerGetInfo() end

--- Get socket server IP
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
function comm.socketServerGetIp() end

--- Get socket server port
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
function comm.socketServerGetPort() end

--- Whether socket server connection is up
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
function comm.socketServerIsConnected() end

--- Receive a length-prefixed message from socket server
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
function comm.socketServerResponse() end

--- Send screenshot to socket server
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
function comm.socketServerScreenShot() end

--- Send screenshot and return server reply
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
function comm.socketServerScreenShotResponse() end

--- Send a string to socket server
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param SendString string
function comm.socketServerSend(SendString) end

--- Send raw bytes to socket server
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param byteArray table
function comm.socketServerSendBytes(byteArray) end

--- Set socket server IP
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param ip string
function comm.socketServerSetIp(ip) end

--- Set socket server port
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param port integer
function comm.socketServerSetPort(port) end

--- Set socket receive timeout (ms)
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param timeout integer
function comm.socketServerSetTimeout(timeout) end

--- Whether last socket operation succeeded
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
function comm.socketServerSuccessful() end

--- Close websocket with status
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param guid string
---@param status any
---@param closeMessage string
function comm.ws_close(guid, status, closeMessage) end

--- Get websocket state code
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param guid string
function comm.ws_get_status(guid) end

--- Open websocket; returns id string
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param uri string
function comm.ws_open(uri) end

--- Receive up to N bytes from websocket
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param guid string
---@param bufferCap integer
function comm.ws_receive(guid, bufferCap) end

--- Send message on websocket
--- Not supported by gbhost: no network, sockets or shared memory in the sandbox.
---@param guid string
---@param content string
---@param endOfMessage boolean
function comm.ws_send(guid, content, endOfMessage) end

--- Clear Lua console output
function console.clear() end

--- List all Lua API names
--- Not supported by gbhost: not yet.
function console.getluafunctionslist() end

--- Print values tab-separated with newline
---@param outputs? any
function console.log(outputs) end

--- Print values without newline
---@param outputs? any
function console.write(outputs) end

--- Print each value on its own line
---@param outputs? any
function console.writeline(outputs) end

--- Register callback after each Doom RNG call
--- Not supported by gbhost: the Doom core's library.
---@param luaf function
---@param name? string
function doom.onprandom(luaf, name) end

--- Disassemble instruction at address; returns text and length
--- Not supported by gbhost: the disassembler is not open to scripts yet.
---@param pc integer
---@param name? string
function emu.disassemble(pc, name) end

--- Set display vsync option
--- Not supported by gbhost: display and speed settings belong to the app, not scripts.
---@param enabled boolean
function emu.displayvsync(enabled) end

--- Yield to emulator and run one frame
function emu.frameadvance() end

--- Current frame number
function emu.framecount() end

--- Board/mapper name of the loaded ROM
function emu.getboardname() end

--- Video standard in use (NTSC/PAL etc.)
function emu.getdisplaytype() end

--- Deprecated: name of Lua engine
function emu.getluacore() end

--- Value of one CPU register or flag
---@param name string
function emu.getregister(name) end

--- Table of all CPU registers and flags
function emu.getregisters() end

--- System ID string of the loaded core
function emu.getsystemid() end

--- Whether current frame is a lag frame
function emu.islagged() end

--- Current lag frame count
function emu.lagcount() end

--- Toggle framerate throttling
--- Not supported by gbhost: display and speed settings belong to the app, not scripts.
---@param enabled boolean
function emu.limitframerate(enabled) end

--- Toggle automatic frameskip minimization
--- Not supported by gbhost: display and speed settings belong to the app, not scripts.
---@param enabled boolean
function emu.minimizeframeskip(enabled) end

--- Set the lag flag for the current frame
--- Not supported by gbhost: lag frames are measured by the core (no joypad read).
---@param value? boolean
function emu.setislagged(value) end

--- Set the lag frame count
--- Not supported by gbhost: the lag count is measured by the core.
---@param count integer
function emu.setlagcount(count) end

--- Set a CPU register value
---@param register string
---@param value integer
function emu.setregister(register, value) end

--- Enable/disable drawing of sprite/background layers
--- Not supported by gbhost: display and speed settings belong to the app, not scripts.
---@param luaParam? any
function emu.setrenderplanes(luaParam) end

--- Total CPU cycles executed so far
function emu.totalexecutedcycles() end

--- Let script run while paused, returning control briefly
function emu.yield() end

--- List memory scopes usable for on_bus_* callbacks
function event.availableScopes() end

--- Whether callbacks of a kind receive arguments
---@param subset? string
function event.can_use_callback_params(subset) end

--- Register callback before executing an address
---@param luaf function
---@param address integer
---@param name? string
---@param scope? string
function event.on_bus_exec(luaf, address, name, scope) end

--- Register callback before every executed instruction
--- Not supported by gbhost: a hook needs an address (one on every instruction would stop the core at each).
---@param luaf function
---@param name? string
---@param scope? string
function event.on_bus_exec_any(luaf, name, scope) end

--- Register callback on memory read (address or any)
---@param luaf function
---@param address? integer
---@param name? string
---@param scope? string
function event.on_bus_read(luaf, address, name, scope) end

--- Register callback on memory write (address or any)
---@param luaf function
---@param address? integer
---@param name? string
---@param scope? string
function event.on_bus_write(luaf, address, name, scope) end

--- Register callback when Lua console closes
---@param luaf function
---@param name? string
function event.onconsoleclose(luaf, name) end

--- Register callback when script stops
---@param luaf function
---@param name? string
function event.onexit(luaf, name) end

--- Register callback after each frame
---@param luaf function
---@param name? string
function event.onframeend(luaf, name) end

--- Register callback before each frame
---@param luaf function
---@param name? string
function event.onframestart(luaf, name) end

--- Register callback when core polls input
---@param luaf function
---@param name? string
function event.oninputpoll(luaf, name) end

--- Register callback after a state loads
---@param luaf function
---@param name? string
function event.onloadstate(luaf, name) end

--- Deprecated alias of on_bus_exec
---@param luaf function
---@param address integer
---@param name? string
---@param scope? string
function event.onmemoryexecute(luaf, address, name, scope) end

--- Deprecated alias of on_bus_exec_any
--- Not supported by gbhost: a hook needs an address (one on every instruction would stop the core at each).
---@param luaf function
---@param name? string
---@param scope? string
function event.onmemoryexecuteany(luaf, name, scope) end

--- Deprecated alias of on_bus_read
---@param luaf function
---@param address? integer
---@param name? string
---@param scope? string
function event.onmemoryread(luaf, address, name, scope) end

--- Deprecated alias of on_bus_write
---@param luaf function
---@param address? integer
---@param name? string
---@param scope? string
function event.onmemorywrite(luaf, address, name, scope) end

--- Register callback after a state saves
--- Not supported by gbhost: no hook runs when a state is saved yet.
---@param luaf function
---@param name? string
function event.onsavestate(luaf, name) end

--- Remove callback by returned id
---@param guid string
function event.unregisterbyid(guid) end

--- Remove first callback with given name
---@param name string
function event.unregisterbyname(name) end

--- Attach click handler to a control
---@param handle integer
---@param clickEvent function
function forms.addclick(handle, clickEvent) end

--- Create button on form; returns handle
---@param formHandle integer
---@param caption string
---@param clickEvent function
---@param x? integer
---@param y? integer
---@param width? integer
---@param height? integer
function forms.button(formHandle, caption, clickEvent, x, y, width, height) end

--- Create checkbox on form; returns handle
---@param formHandle integer
---@param caption string
---@param x? integer
---@param y? integer
function forms.checkbox(formHandle, caption, x, y) end

--- Fill picture box with color
---@param componentHandle integer
---@param color integer|string
function forms.clear(componentHandle, color) end

--- Drop picture box image cache
---@param componentHandle integer
function forms.clearImageCache(componentHandle) end

--- Remove all click handlers from control
---@param handle integer
function forms.clearclicks(handle) end

--- Build a color object for setproperty
---@param r integer
---@param g integer
---@param b integer
---@param a integer
function forms.createcolor(r, g, b, a) end

--- Close a Lua-created form
---@param handle integer
function forms.destroy(handle) end

--- Close all Lua-created forms
function forms.destroyall() end

--- Draw arc outline in picture box
--- Not supported by gbhost: picture boxes draw boxes, lines, pixels and text so far.
---@param componentHandle integer
---@param x integer
---@param y integer
---@param width integer
---@param height integer
---@param startangle integer
---@param sweepangle integer
---@param line? integer|string
function forms.drawArc(componentHandle, x, y, width, height, startangle, sweepangle, line) end

--- Draw crosshair in picture box
---@param componentHandle integer
---@param x integer
---@param y integer
---@param size integer
---@param color? integer|string
function forms.drawAxis(componentHandle, x, y, size, color) end

--- Draw Bezier curve in picture box
--- Not supported by gbhost: picture boxes draw boxes, lines, pixels and text so far.
---@param componentHandle integer
---@param points table
---@param color integer|string
function forms.drawBezier(componentHandle, points, color) end

--- Draw corner-to-corner rectangle in picture box
---@param componentHandle integer
---@param x integer
---@param y integer
---@param x2 integer
---@param y2 integer
---@param line? integer|string
---@param background? integer|string
function forms.drawBox(componentHandle, x, y, x2, y2, line, background) end

--- Draw ellipse in picture box
--- Not supported by gbhost: picture boxes draw boxes, lines, pixels and text so far.
---@param componentHandle integer
---@param x integer
---@param y integer
---@param width integer
---@param height integer
---@param line? integer|string
---@param background? integer|string
function forms.drawEllipse(componentHandle, x, y, width, height, line, background) end

--- Draw .ico file in picture box
--- Not supported by gbhost: picture boxes draw boxes, lines, pixels and text so far.
---@param componentHandle integer
---@param path string
---@param x integer
---@param y integer
---@param width? integer
---@param height? integer
function forms.drawIcon(componentHandle, path, x, y, width, height) end

--- Draw image file in picture box
--- Not supported by gbhost: picture boxes draw boxes, lines, pixels and text so far.
---@param componentHandle integer
---@param path string
---@param x integer
---@param y integer
---@param width? integer
---@param height? integer
---@param cache? boolean
function forms.drawImage(componentHandle, path, x, y, width, height, cache) end

--- Draw part of image in picture box
--- Not supported by gbhost: picture boxes draw boxes, lines, pixels and text so far.
---@param componentHandle integer
---@param path string
---@param source_x integer
---@param source_y integer
---@param source_width integer
---@param source_height integer
---@param dest_x integer
---@param dest_y integer
---@param dest_width? integer
---@param dest_height? integer
function forms.drawImageRegion(componentHandle, path, source_x, source_y, source_width, source_height, dest_x, dest_y, dest_width, dest_height) end

--- Draw line in picture box
---@param componentHandle integer
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param color? integer|string
function forms.drawLine(componentHandle, x1, y1, x2, y2, color) end

--- Draw pie slice in picture box
--- Not supported by gbhost: picture boxes draw boxes, lines, pixels and text so far.
---@param componentHandle integer
---@param x integer
---@param y integer
---@param width integer
---@param height integer
---@param startangle integer
---@param sweepangle integer
---@param line? integer|string
---@param background? integer|string
function forms.drawPie(componentHandle, x, y, width, height, startangle, sweepangle, line, background) end

--- Set one pixel in picture box
---@param componentHandle integer
---@param x integer
---@param y integer
---@param color? integer|string
function forms.drawPixel(componentHandle, x, y, color) end

--- Draw polygon in picture box
--- Not supported by gbhost: picture boxes draw boxes, lines, pixels and text so far.
---@param componentHandle integer
---@param points table
---@param x? integer
---@param y? integer
---@param line? integer|string
---@param background? integer|string
function forms.drawPolygon(componentHandle, points, x, y, line, background) end

--- Draw rectangle in picture box
---@param componentHandle integer
---@param x integer
---@param y integer
---@param width integer
---@param height integer
---@param line? integer|string
---@param background? integer|string
function forms.drawRectangle(componentHandle, x, y, width, height, line, background) end

--- Alias of drawText for picture box
---@param componentHandle integer
---@param x integer
---@param y integer
---@param message string
---@param forecolor? integer|string
---@param backcolor? integer|string
---@param fontsize? integer
---@param fontfamily? string
---@param fontstyle? string
---@param horizalign? string
---@param vertalign? string
function forms.drawString(componentHandle, x, y, message, forecolor, backcolor, fontsize, fontfamily, fontstyle, horizalign, vertalign) end

--- Draw styled text in picture box
---@param componentHandle integer
---@param x integer
---@param y integer
---@param message string
---@param forecolor? integer|string
---@param backcolor? integer|string
---@param fontsize? integer
---@param fontfamily? string
---@param fontstyle? string
---@param horizalign? string
---@param vertalign? string
function forms.drawText(componentHandle, x, y, message, forecolor, backcolor, fontsize, fontfamily, fontstyle, horizalign, vertalign) end

--- Create dropdown list; returns handle
---@param formHandle integer
---@param items table
---@param x? integer
---@param y? integer
---@param width? integer
---@param height? integer
function forms.dropdown(formHandle, items, x, y, width, height) end

--- Mouse X relative to picture box
--- Not supported by gbhost: the mouse over picture boxes is not logged yet.
---@param componentHandle integer
function forms.getMouseX(componentHandle) end

--- Mouse Y relative to picture box
--- Not supported by gbhost: the mouse over picture boxes is not logged yet.
---@param componentHandle integer
function forms.getMouseY(componentHandle) end

--- Read a control property as string
---@param handle integer
---@param property string
function forms.getproperty(handle, property) end

--- Get text (or selected item) of control
---@param handle integer
function forms.gettext(handle) end

--- Whether checkbox is checked
---@param handle integer
function forms.ischecked(handle) end

--- Create text label; returns handle
---@param formHandle integer
---@param caption string
---@param x? integer
---@param y? integer
---@param width? integer
---@param height? integer
---@param fixedWidth? boolean
function forms.label(formHandle, caption, x, y, width, height, fixedWidth) end

--- Open new dialog window; returns handle
---@param width? integer
---@param height? integer
---@param title? string
---@param onClose? function
function forms.newform(width, height, title, onClose) end

--- Show open-file dialog; returns chosen path
--- Not supported by gbhost: no file dialogs for scripts: they use their own folder.
---@param fileName? string
---@param initialDirectory? string
---@param filter? string
function forms.openfile(fileName, initialDirectory, filter) end

--- Create drawable picture box; returns handle
---@param formHandle integer
---@param x? integer
---@param y? integer
---@param width? integer
---@param height? integer
function forms.pictureBox(formHandle, x, y, width, height) end

--- Redraw picture box
---@param componentHandle integer
function forms.refresh(componentHandle) end

--- Default fill color for picture box
---@param componentHandle integer
---@param color integer|string
function forms.setDefaultBackgroundColor(componentHandle, color) end

--- Default draw color for picture box
---@param componentHandle integer
---@param color integer|string
function forms.setDefaultForegroundColor(componentHandle, color) end

--- Default text background for picture box
---@param componentHandle integer
---@param color integer|string
function forms.setDefaultTextBackground(componentHandle, color) end

--- Replace items of a dropdown
---@param handle integer
---@param items table
function forms.setdropdownitems(handle, items) end

--- Move form or control
---@param handle integer
---@param x integer
---@param y integer
function forms.setlocation(handle, x, y) end

--- Set a control property by name
---@param handle integer
---@param property string
---@param value integer|string
function forms.setproperty(handle, property, value) end

--- Resize form or control
---@param handle integer
---@param width integer
---@param height integer
function forms.setsize(handle, width, height) end

--- Set text of form or control
---@param handle integer
---@param caption string
function forms.settext(handle, caption) end

--- Create text input box; returns handle
---@param formHandle integer
---@param caption? string
---@param width? integer
---@param height? integer
---@param boxtype? string
---@param x? integer
---@param y? integer
---@param multiline? boolean
---@param fixedWidth? boolean
---@param scrollbars? string
function forms.textbox(formHandle, caption, width, height, boxtype, x, y, multiline, fixedWidth, scrollbars) end

--- Mapper/board identifier of ROM
function gameinfo.getboardtype() end

--- Table of per-game database options
function gameinfo.getoptions() end

--- Hash of loaded ROM
function gameinfo.getromhash() end

--- Name of loaded ROM
function gameinfo.getromname() end

--- Database dump status of ROM
function gameinfo.getstatus() end

--- Whether ROM is in the game database
function gameinfo.indatabase() end

--- Whether ROM's database status is bad
function gameinfo.isstatusbad() end

--- Pin an address to a fixed value (GPGX)
--- Not supported by gbhost: the Genesis core's library.
---@param address integer
---@param value integer
function genesis.add_deepfreeze_value(address, value) end

--- Remove all deep-frozen addresses (GPGX)
--- Not supported by gbhost: the Genesis core's library.
function genesis.clear_deepfreeze_list() end

--- Whether plane A is shown
--- Not supported by gbhost: the Genesis core's library.
function genesis.getlayer_bga() end

--- Whether plane B is shown
--- Not supported by gbhost: the Genesis core's library.
function genesis.getlayer_bgb() end

--- Whether window plane is shown
--- Not supported by gbhost: the Genesis core's library.
function genesis.getlayer_bgw() end

--- Show/hide plane A
--- Not supported by gbhost: the Genesis core's library.
---@param value boolean
function genesis.setlayer_bga(value) end

--- Show/hide plane B
--- Not supported by gbhost: the Genesis core's library.
---@param value boolean
function genesis.setlayer_bgb(value) end

--- Show/hide window plane
--- Not supported by gbhost: the Genesis core's library.
---@param value boolean
function genesis.setlayer_bgw(value) end

--- Deprecated: finish drawing to current surface
function gui.DrawFinish() end

--- Deprecated: switch drawing to a named surface
---@param name string
---@param clear? boolean
function gui.DrawNew(name, clear) end

--- Post a message to the OSD message area
---@param message string
function gui.addmessage(message) end

--- Erase all Lua drawings on a surface
---@param surfaceName? string
function gui.clearGraphics(surfaceName) end

--- Drop cached images used by drawImage
function gui.clearImageCache() end

--- Erase all text made with gui.text
function gui.cleartext() end

--- Open a separate drawing canvas window
---@param width integer
---@param height integer
---@param x? integer
---@param y? integer
function gui.createcanvas(width, height, x, y) end

--- Set default drawing background color
---@param color integer|string
function gui.defaultBackground(color) end

--- Set default drawing foreground color
---@param color integer|string
function gui.defaultForeground(color) end

--- Choose default font for pixelText
---@param fontfamily string
function gui.defaultPixelFont(fontfamily) end

--- Set default text background color
---@param color integer|string
function gui.defaultTextBackground(color) end

--- Draw a crosshair axis marker
---@param x integer
---@param y integer
---@param size integer
---@param color? integer|string
---@param surfaceName? string
function gui.drawAxis(x, y, size, color, surfaceName) end

--- Draw Bezier curve through four points
---@param points table
---@param color integer|string
---@param surfaceName? string
function gui.drawBezier(points, color, surfaceName) end

--- Draw rectangle between two corners
---@param x integer
---@param y integer
---@param x2 integer
---@param y2 integer
---@param line? integer|string
---@param background? integer|string
---@param surfaceName? string
function gui.drawBox(x, y, x2, y2, line, background, surfaceName) end

--- Draw ellipse in bounding box
---@param x integer
---@param y integer
---@param width integer
---@param height integer
---@param line? integer|string
---@param background? integer|string
---@param surfaceName? string
function gui.drawEllipse(x, y, width, height, line, background, surfaceName) end

--- Draw .ico file, optionally scaled
--- Not supported by gbhost: .ico files: draw PNG files with gui.drawImage.
---@param path string
---@param x integer
---@param y integer
---@param width? integer
---@param height? integer
---@param surfaceName? string
function gui.drawIcon(path, x, y, width, height, surfaceName) end

--- Draw image file, optionally scaled
---@param path string
---@param x integer
---@param y integer
---@param width? integer
---@param height? integer
---@param cache? boolean
---@param surfaceName? string
function gui.drawImage(path, x, y, width, height, cache, surfaceName) end

--- Draw part of an image file
---@param path string
---@param source_x integer
---@param source_y integer
---@param source_width integer
---@param source_height integer
---@param dest_x integer
---@param dest_y integer
---@param dest_width? integer
---@param dest_height? integer
---@param surfaceName? string
function gui.drawImageRegion(path, source_x, source_y, source_width, source_height, dest_x, dest_y, dest_width, dest_height, surfaceName) end

--- Draw a line segment
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param color? integer|string
---@param surfaceName? string
function gui.drawLine(x1, y1, x2, y2, color, surfaceName) end

--- Draw a pie slice
---@param x integer
---@param y integer
---@param width integer
---@param height integer
---@param startangle integer
---@param sweepangle integer
---@param line? integer|string
---@param background? integer|string
---@param surfaceName? string
function gui.drawPie(x, y, width, height, startangle, sweepangle, line, background, surfaceName) end

--- Set one pixel
---@param x integer
---@param y integer
---@param color? integer|string
---@param surfaceName? string
function gui.drawPixel(x, y, color, surfaceName) end

--- Draw polygon from point list, optionally offset
---@param points table
---@param offsetX? integer
---@param offsetY? integer
---@param line? integer|string
---@param background? integer|string
---@param surfaceName? string
function gui.drawPolygon(points, offsetX, offsetY, line, background, surfaceName) end

--- Draw rectangle by position and size
---@param x integer
---@param y integer
---@param width integer
---@param height integer
---@param line? integer|string
---@param background? integer|string
---@param surfaceName? string
function gui.drawRectangle(x, y, width, height, line, background, surfaceName) end

--- Draw text with font, style and alignment options
---@param x integer
---@param y integer
---@param message string
---@param forecolor? integer|string
---@param backcolor? integer|string
---@param fontsize? integer
---@param fontfamily? string
---@param fontstyle? string
---@param horizalign? string
---@param vertalign? string
---@param surfaceName? string
function gui.drawString(x, y, message, forecolor, backcolor, fontsize, fontfamily, fontstyle, horizalign, vertalign, surfaceName) end

--- Alias of drawString
---@param x integer
---@param y integer
---@param message string
---@param forecolor? integer|string
---@param backcolor? integer|string
---@param fontsize? integer
---@param fontfamily? string
---@param fontstyle? string
---@param horizalign? string
---@param vertalign? string
---@param surfaceName? string
function gui.drawText(x, y, message, forecolor, backcolor, fontsize, fontfamily, fontstyle, horizalign, vertalign, surfaceName) end

--- Draw text using built-in pixel fonts
---@param x integer
---@param y integer
---@param message string
---@param forecolor? integer|string
---@param backcolor? integer|string
---@param fontfamily? string
---@param surfaceName? string
function gui.pixelText(x, y, message, forecolor, backcolor, fontfamily, surfaceName) end

--- Draw OSD text, optionally anchored to a corner
---@param x integer
---@param y integer
---@param message string
---@param forecolor? integer|string
---@param anchor? string
function gui.text(x, y, message, forecolor, anchor) end

--- Set default surface (emucore or client)
---@param surfaceName string
function gui.use_surface(surfaceName) end

--- Table of host keys/buttons currently held
function input.get() end

--- Table of mouse position, buttons and wheel
function input.getmouse() end

--- Buttons set for the current frame
---@param controller? integer
function joypad.get(controller) end

--- Buttons the user is physically pressing now
---@param controller? integer
function joypad.getimmediate(controller) end

--- Buttons pressed including movie input
---@param controller? integer
function joypad.getwithmovie(controller) end

--- Set button states for current frame
---@param buttons table
---@param controller? integer
function joypad.set(buttons, controller) end

--- Set analog axis values for current frame
--- Not supported by gbhost: the Game Boy has no analog input.
---@param controls table
---@param controller? integer
function joypad.setanalog(controls, controller) end

--- Set input from a movie log line string
---@param inputLogEntry string
function joypad.setfrommnemonicstr(inputLogEntry) end

--- Size of main memory domain
function mainmemory.getcurrentmemorydomainsize() end

--- Name of the core's main memory domain
function mainmemory.getname() end

--- Read signed 16-bit big-endian
---@param addr integer
function mainmemory.read_s16_be(addr) end

--- Read signed 16-bit little-endian
---@param addr integer
function mainmemory.read_s16_le(addr) end

--- Read signed 24-bit big-endian
---@param addr integer
function mainmemory.read_s24_be(addr) end

--- Read signed 24-bit little-endian
---@param addr integer
function mainmemory.read_s24_le(addr) end

--- Read signed 32-bit big-endian
---@param addr integer
function mainmemory.read_s32_be(addr) end

--- Read signed 32-bit little-endian
---@param addr integer
function mainmemory.read_s32_le(addr) end

--- Read signed 8-bit
---@param addr integer
function mainmemory.read_s8(addr) end

--- Read unsigned 16-bit big-endian
---@param addr integer
function mainmemory.read_u16_be(addr) end

--- Read unsigned 16-bit little-endian
---@param addr integer
function mainmemory.read_u16_le(addr) end

--- Read unsigned 24-bit big-endian
---@param addr integer
function mainmemory.read_u24_be(addr) end

--- Read unsigned 24-bit little-endian
---@param addr integer
function mainmemory.read_u24_le(addr) end

--- Read unsigned 32-bit big-endian
---@param addr integer
function mainmemory.read_u32_be(addr) end

--- Read unsigned 32-bit little-endian
---@param addr integer
function mainmemory.read_u32_le(addr) end

--- Read unsigned 8-bit
---@param addr integer
function mainmemory.read_u8(addr) end

--- Read unsigned byte from main memory
---@param addr integer
function mainmemory.readbyte(addr) end

--- Read byte range into table
---@param addr integer
---@param length integer
function mainmemory.readbyterange(addr, length) end

--- Read 32-bit float
---@param addr integer
---@param bigendian boolean
function mainmemory.readfloat(addr, bigendian) end

--- Write signed 16-bit big-endian
---@param addr integer
---@param value integer
function mainmemory.write_s16_be(addr, value) end

--- Write signed 16-bit little-endian
---@param addr integer
---@param value integer
function mainmemory.write_s16_le(addr, value) end

--- Write signed 24-bit big-endian
---@param addr integer
---@param value integer
function mainmemory.write_s24_be(addr, value) end

--- Write signed 24-bit little-endian
---@param addr integer
---@param value integer
function mainmemory.write_s24_le(addr, value) end

--- Write signed 32-bit big-endian
---@param addr integer
---@param value integer
function mainmemory.write_s32_be(addr, value) end

--- Write signed 32-bit little-endian
---@param addr integer
---@param value integer
function mainmemory.write_s32_le(addr, value) end

--- Write signed 8-bit
---@param addr integer
---@param value integer
function mainmemory.write_s8(addr, value) end

--- Write unsigned 16-bit big-endian
---@param addr integer
---@param value integer
function mainmemory.write_u16_be(addr, value) end

--- Write unsigned 16-bit little-endian
---@param addr integer
---@param value integer
function mainmemory.write_u16_le(addr, value) end

--- Write unsigned 24-bit big-endian
---@param addr integer
---@param value integer
function mainmemory.write_u24_be(addr, value) end

--- Write unsigned 24-bit little-endian
---@param addr integer
---@param value integer
function mainmemory.write_u24_le(addr, value) end

--- Write unsigned 32-bit big-endian
---@param addr integer
---@param value integer
function mainmemory.write_u32_be(addr, value) end

--- Write unsigned 32-bit little-endian
---@param addr integer
---@param value integer
function mainmemory.write_u32_le(addr, value) end

--- Write unsigned 8-bit
---@param addr integer
---@param value integer
function mainmemory.write_u8(addr, value) end

--- Write unsigned byte to main memory
---@param addr integer
---@param value integer
function mainmemory.writebyte(addr, value) end

--- Write address->byte table
---@param memoryblock table
function mainmemory.writebyterange(memoryblock) end

--- Write 32-bit float
---@param addr integer
---@param value number
---@param bigendian boolean
function mainmemory.writefloat(addr, value, bigendian) end

--- Name of the domain Lua currently uses
function memory.getcurrentmemorydomain() end

--- Size in bytes of the domain Lua currently uses
function memory.getcurrentmemorydomainsize() end

--- List names of all memory domains of the loaded core
function memory.getmemorydomainlist() end

--- Size in bytes of a named (or current) domain
---@param name? string
function memory.getmemorydomainsize(name) end

--- Hash string of a byte range
---@param addr integer
---@param count integer
---@param domain? string
function memory.hash_region(addr, count, domain) end

--- Read bytes into a 1-indexed array table
---@param addr integer
---@param length integer
---@param domain? string
function memory.read_bytes_as_array(addr, length, domain) end

--- Read bytes into table keyed by address
---@param addr integer
---@param length integer
---@param domain? string
function memory.read_bytes_as_dict(addr, length, domain) end

--- Read signed 16-bit big-endian
---@param addr integer
---@param domain? string
function memory.read_s16_be(addr, domain) end

--- Read signed 16-bit little-endian
---@param addr integer
---@param domain? string
function memory.read_s16_le(addr, domain) end

--- Read signed 24-bit big-endian
---@param addr integer
---@param domain? string
function memory.read_s24_be(addr, domain) end

--- Read signed 24-bit little-endian
---@param addr integer
---@param domain? string
function memory.read_s24_le(addr, domain) end

--- Read signed 32-bit big-endian
---@param addr integer
---@param domain? string
function memory.read_s32_be(addr, domain) end

--- Read signed 32-bit little-endian
---@param addr integer
---@param domain? string
function memory.read_s32_le(addr, domain) end

--- Read signed 8-bit value
---@param addr integer
---@param domain? string
function memory.read_s8(addr, domain) end

--- Read unsigned 16-bit big-endian
---@param addr integer
---@param domain? string
function memory.read_u16_be(addr, domain) end

--- Read unsigned 16-bit little-endian
---@param addr integer
---@param domain? string
function memory.read_u16_le(addr, domain) end

--- Read unsigned 24-bit big-endian
---@param addr integer
---@param domain? string
function memory.read_u24_be(addr, domain) end

--- Read unsigned 24-bit little-endian
---@param addr integer
---@param domain? string
function memory.read_u24_le(addr, domain) end

--- Read unsigned 32-bit big-endian
---@param addr integer
---@param domain? string
function memory.read_u32_be(addr, domain) end

--- Read unsigned 32-bit little-endian
---@param addr integer
---@param domain? string
function memory.read_u32_le(addr, domain) end

--- Read unsigned 8-bit value
---@param addr integer
---@param domain? string
function memory.read_u8(addr, domain) end

--- Read one unsigned byte
---@param addr integer
---@param domain? string
function memory.readbyte(addr, domain) end

--- Deprecated: read bytes into 0-indexed table
---@param addr integer
---@param length integer
---@param domain? string
function memory.readbyterange(addr, length, domain) end

--- Read 32-bit float with chosen endianness
---@param addr integer
---@param bigendian boolean
---@param domain? string
function memory.readfloat(addr, bigendian, domain) end

--- Switch current domain; false if name invalid
---@param domain string
function memory.usememorydomain(domain) end

--- Write consecutive bytes starting at addr
---@param addr integer
---@param bytes table
---@param domain? string
function memory.write_bytes_as_array(addr, bytes, domain) end

--- Write bytes at addresses given as table keys
---@param addrMap table
---@param domain? string
function memory.write_bytes_as_dict(addrMap, domain) end

--- Write signed 16-bit big-endian
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_s16_be(addr, value, domain) end

--- Write signed 16-bit little-endian
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_s16_le(addr, value, domain) end

--- Write signed 24-bit big-endian
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_s24_be(addr, value, domain) end

--- Write signed 24-bit little-endian
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_s24_le(addr, value, domain) end

--- Write signed 32-bit big-endian
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_s32_be(addr, value, domain) end

--- Write signed 32-bit little-endian
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_s32_le(addr, value, domain) end

--- Write signed 8-bit value
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_s8(addr, value, domain) end

--- Write unsigned 16-bit big-endian
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_u16_be(addr, value, domain) end

--- Write unsigned 16-bit little-endian
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_u16_le(addr, value, domain) end

--- Write unsigned 24-bit big-endian
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_u24_be(addr, value, domain) end

--- Write unsigned 24-bit little-endian
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_u24_le(addr, value, domain) end

--- Write unsigned 32-bit big-endian
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_u32_be(addr, value, domain) end

--- Write unsigned 32-bit little-endian
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_u32_le(addr, value, domain) end

--- Write unsigned 8-bit value
---@param addr integer
---@param value integer
---@param domain? string
function memory.write_u8(addr, value, domain) end

--- Write one unsigned byte
---@param addr integer
---@param value integer
---@param domain? string
function memory.writebyte(addr, value, domain) end

--- Deprecated: write address->byte table
---@param memoryblock table
---@param domain? string
function memory.writebyterange(memoryblock, domain) end

--- Write 32-bit float with chosen endianness
---@param addr integer
---@param value number
---@param bigendian boolean
---@param domain? string
function memory.writefloat(addr, value, bigendian, domain) end

--- Delete all in-memory states
function memorysavestate.clearstatesfrommemory() end

--- Load an in-memory core state by id
---@param identifier string
function memorysavestate.loadcorestate(identifier) end

--- Delete an in-memory state by id
---@param identifier string
function memorysavestate.removestate(identifier) end

--- Save core state to memory; returns id string
function memorysavestate.savecorestate() end

--- Path of the loaded movie
function movie.filename() end

--- Movie comments as table
function movie.getcomments() end

--- Frame rate used for movie timing
function movie.getfps() end

--- Movie header as table
function movie.getheader() end

--- Buttons recorded on a movie frame
---@param frame integer
---@param controller? integer
function movie.getinput(frame, controller) end

--- Movie frame input as log-line string
---@param frame integer
function movie.getinputasmnemonic(frame) end

--- Whether movie is read-only
function movie.getreadonly() end

--- Movie rerecord count
function movie.getrerecordcount() end

--- Whether loadstate increments rerecords
function movie.getrerecordcounting() end

--- Movie subtitles as table
function movie.getsubtitles() end

--- Whether a movie is loaded
function movie.isloaded() end

--- Number of frames in movie
function movie.length() end

--- Movie state: PLAY, RECORD, FINISHED or INACTIVE
function movie.mode() end

--- Restart core and play movie (optionally load one)
--- Not supported by gbhost: the app's Movie menu plays movies.
---@param path? string
function movie.play_from_start(path) end

--- Write movie to disk, optionally under new name
--- Not supported by gbhost: gbhost writes the movie as it records.
---@param filename? string
function movie.save(filename) end

--- Switch read-only / read-write
--- Not supported by gbhost: the app's Movie menu switches read-only.
---@param readOnly boolean
function movie.setreadonly(readOnly) end

--- Set movie rerecord count
--- Not supported by gbhost: the recorder counts rerecords.
---@param count integer
function movie.setrerecordcount(count) end

--- Toggle rerecord counting on loadstate
---@param counting boolean
function movie.setrerecordcounting(counting) end

--- Whether movie begins from SaveRAM
function movie.startsfromsaveram() end

--- Whether movie begins from a savestate
function movie.startsfromsavestate() end

--- Stop movie, optionally discarding changes
--- Not supported by gbhost: the app's Movie menu stops movies.
---@param saveChanges? boolean
function movie.stop(saveChanges) end

--- Audio bit depth setting
--- Not supported by gbhost: the Nintendo DS core's library.
function nds.getaudiobitdepth() end

--- Gap between screens in pixels
--- Not supported by gbhost: the Nintendo DS core's library.
function nds.getscreengap() end

--- Whether screens are swapped
--- Not supported by gbhost: the Nintendo DS core's library.
function nds.getscreeninvert() end

--- Current dual-screen layout name
--- Not supported by gbhost: the Nintendo DS core's library.
function nds.getscreenlayout() end

--- Current screen rotation
--- Not supported by gbhost: the Nintendo DS core's library.
function nds.getscreenrotation() end

--- Set audio bit depth
--- Not supported by gbhost: the Nintendo DS core's library.
---@param value string
function nds.setaudiobitdepth(value) end

--- Set gap between screens
--- Not supported by gbhost: the Nintendo DS core's library.
---@param value integer
function nds.setscreengap(value) end

--- Swap screens or not
--- Not supported by gbhost: the Nintendo DS core's library.
---@param value boolean
function nds.setscreeninvert(value) end

--- Set dual-screen layout
--- Not supported by gbhost: the Nintendo DS core's library.
---@param value string
function nds.setscreenlayout(value) end

--- Set screen rotation
--- Not supported by gbhost: the Nintendo DS core's library.
---@param value string
function nds.setscreenrotation(value) end

--- Whether 8-sprites-per-line limit is lifted
--- Not supported by gbhost: the NES core's library.
function nes.getallowmorethaneightsprites() end

--- Last visible scanline setting
--- Not supported by gbhost: the NES core's library.
---@param pal? boolean
function nes.getbottomscanline(pal) end

--- Whether left/right edges are clipped
--- Not supported by gbhost: the NES core's library.
function nes.getclipleftandright() end

--- Whether background layer is shown
--- Not supported by gbhost: the NES core's library.
function nes.getdispbackground() end

--- Whether sprites are shown
--- Not supported by gbhost: the NES core's library.
function nes.getdispsprites() end

--- First visible scanline setting
--- Not supported by gbhost: the NES core's library.
---@param pal? boolean
function nes.gettopscanline(pal) end

--- Lift or restore sprite-per-line limit
--- Not supported by gbhost: the NES core's library.
---@param allow boolean
function nes.setallowmorethaneightsprites(allow) end

--- Toggle edge clipping
--- Not supported by gbhost: the NES core's library.
---@param leftandright boolean
function nes.setclipleftandright(leftandright) end

--- Show/hide background layer
--- Not supported by gbhost: the NES core's library.
---@param show boolean
function nes.setdispbackground(show) end

--- Show/hide sprites
--- Not supported by gbhost: the NES core's library.
---@param show boolean
function nes.setdispsprites(show) end

--- Set visible scanline range
--- Not supported by gbhost: the NES core's library.
---@param top integer
---@param bottom integer
---@param pal? boolean
function nes.setscanlines(top, bottom, pal) end

--- Load a savestate file
---@param path string
---@param suppressOSD? boolean
function savestate.load(path, suppressOSD) end

--- Load numbered quicksave slot 0-9
---@param slotNum integer
---@param suppressOSD? boolean
function savestate.loadslot(slotNum, suppressOSD) end

--- Save state to file path
---@param path string
---@param suppressOSD? boolean
function savestate.save(path, suppressOSD) end

--- Save state to numbered slot 0-9
---@param slotNum integer
---@param suppressOSD? boolean
function savestate.saveslot(slotNum, suppressOSD) end

--- Whether BG1 is shown
--- Not supported by gbhost: the SNES core's library.
function snes.getlayer_bg_1() end

--- Whether BG2 is shown
--- Not supported by gbhost: the SNES core's library.
function snes.getlayer_bg_2() end

--- Whether BG3 is shown
--- Not supported by gbhost: the SNES core's library.
function snes.getlayer_bg_3() end

--- Whether BG4 is shown
--- Not supported by gbhost: the SNES core's library.
function snes.getlayer_bg_4() end

--- Whether OBJ priority 1 layer is shown
--- Not supported by gbhost: the SNES core's library.
function snes.getlayer_obj_1() end

--- Whether OBJ priority 2 layer is shown
--- Not supported by gbhost: the SNES core's library.
function snes.getlayer_obj_2() end

--- Whether OBJ priority 3 layer is shown
--- Not supported by gbhost: the SNES core's library.
function snes.getlayer_obj_3() end

--- Whether OBJ priority 4 layer is shown
--- Not supported by gbhost: the SNES core's library.
function snes.getlayer_obj_4() end

--- Show/hide BG1
--- Not supported by gbhost: the SNES core's library.
---@param value boolean
function snes.setlayer_bg_1(value) end

--- Show/hide BG2
--- Not supported by gbhost: the SNES core's library.
---@param value boolean
function snes.setlayer_bg_2(value) end

--- Show/hide BG3
--- Not supported by gbhost: the SNES core's library.
---@param value boolean
function snes.setlayer_bg_3(value) end

--- Show/hide BG4
--- Not supported by gbhost: the SNES core's library.
---@param value boolean
function snes.setlayer_bg_4(value) end

--- Show/hide OBJ layer 1
--- Not supported by gbhost: the SNES core's library.
---@param value boolean
function snes.setlayer_obj_1(value) end

--- Show/hide OBJ layer 2
--- Not supported by gbhost: the SNES core's library.
---@param value boolean
function snes.setlayer_obj_2(value) end

--- Show/hide OBJ layer 3
--- Not supported by gbhost: the SNES core's library.
---@param value boolean
function snes.setlayer_obj_3(value) end

--- Show/hide OBJ layer 4
--- Not supported by gbhost: the SNES core's library.
---@param value boolean
function snes.setlayer_obj_4(value) end

--- Send text to braille display (single-commit file; maybe unreleased)
--- Not supported by gbhost: no speech output: console lines reach screen readers.
---@param text string
function speech.braille(text) end

--- Speak and braille text (single-commit file; maybe unreleased)
--- Not supported by gbhost: no speech output: console lines reach screen readers.
---@param text string
---@param interrupt? boolean
function speech.output(text, interrupt) end

--- Speak text via screen reader (single-commit file; maybe unreleased)
--- Not supported by gbhost: no speech output: console lines reach screen readers.
---@param text string
---@param interrupt? boolean
function speech.say(text, interrupt) end

--- Silence current speech (single-commit file; maybe unreleased)
--- Not supported by gbhost: no speech output: console lines reach screen readers.
function speech.stop() end

--- Add a custom column to piano roll
--- Not supported by gbhost: the piano roll's look is not open to scripts yet.
---@param name string
---@param text string
---@param width integer
function tastudio.addcolumn(name, text, width) end

--- Apply all queued edits
function tastudio.applyinputchanges() end

--- Drop cached piano-roll icons
function tastudio.clearIconCache() end

--- Discard queued edits
function tastudio.clearinputchanges() end

--- Whether TAStudio is open
function tastudio.engaged() end

--- Frame of nearest marker at or before frame
---@param frame integer
---@param branchID? string
function tastudio.find_marker_on_or_before(frame, branchID) end

--- Index of branch with given UUID, or -1
---@param id string
function tastudio.get_branch_index_by_id(id) end

--- List frames that have markers
---@param branchID? string
function tastudio.get_frames_with_markers(branchID) end

--- List branches with id, frame, text
function tastudio.getbranches() end

--- Input of a frame in a branch
--- Not supported by gbhost: a branch's input is not open to scripts yet.
---@param branchId string
---@param frame integer
function tastudio.getbranchinput(branchId, frame) end

--- Marker label on a frame
---@param frame integer
---@param branchID? string
function tastudio.getmarker(frame, branchID) end

--- Whether TAStudio is in recording mode
function tastudio.getrecording() end

--- List of selected frame indices
function tastudio.getselection() end

--- Whether frame has a greenzone state
---@param frame integer
function tastudio.hasstate(frame) end

--- Lag status of a frame (nil if unknown)
---@param frame integer
function tastudio.islag(frame) end

--- Load branch by index
---@param index integer
function tastudio.loadbranch(index) end

--- Callback when a branch loads
--- Not supported by gbhost: hooks on editor actions would run outside the log: not built yet.
---@param luaf function
function tastudio.onbranchload(luaf) end

--- Callback when a branch is removed
--- Not supported by gbhost: hooks on editor actions would run outside the log: not built yet.
---@param luaf function
function tastudio.onbranchremove(luaf) end

--- Callback when a branch is saved
--- Not supported by gbhost: hooks on editor actions would run outside the log: not built yet.
---@param luaf function
function tastudio.onbranchsave(luaf) end

--- Callback when greenzone gets invalidated
--- Not supported by gbhost: hooks on editor actions would run outside the log: not built yet.
---@param luaf function
function tastudio.ongreenzoneinvalidated(luaf) end

--- Callback supplying piano-roll cell background color
--- Not supported by gbhost: the piano roll's look is not open to scripts yet.
---@param luaf function
function tastudio.onqueryitembg(luaf) end

--- Callback supplying piano-roll cell icon path
--- Not supported by gbhost: the piano roll's look is not open to scripts yet.
---@param luaf function
function tastudio.onqueryitemicon(luaf) end

--- Callback supplying piano-roll cell text
--- Not supported by gbhost: the piano roll's look is not open to scripts yet.
---@param luaf function
function tastudio.onqueryitemtext(luaf) end

--- Delete marker on frame
---@param frame integer
function tastudio.removemarker(frame) end

--- Label an existing or next branch
---@param text string
---@param index? integer
function tastudio.setbranchtext(text, index) end

--- Set or clear lag flag for frame
--- Not supported by gbhost: lag frames are measured by the core, not set.
---@param frame integer
---@param value? boolean
function tastudio.setlag(frame, value) end

--- Add or relabel marker on frame
---@param frame integer
---@param message? string
function tastudio.setmarker(frame, message) end

--- Seek to frame number or marker name
---@param frame integer|string
function tastudio.setplayback(frame) end

--- Set TAStudio recording mode
---@param val boolean
function tastudio.setrecording(val) end

--- Queue an analog value change
--- Not supported by gbhost: the Game Boy has no analog input.
---@param frame integer
---@param button string
---@param value number
function tastudio.submitanalogchange(frame, button, value) end

--- Queue clearing frames' input
---@param frame integer
---@param number integer
function tastudio.submitclearframes(frame, number) end

--- Queue deleting frames
---@param frame integer
---@param number integer
function tastudio.submitdeleteframes(frame, number) end

--- Queue a button change
---@param frame integer
---@param button string
---@param value boolean
function tastudio.submitinputchange(frame, button, value) end

--- Queue inserting blank frames
---@param frame integer
---@param number integer
function tastudio.submitinsertframes(frame, number) end

--- Flip TAStudio recording mode
function tastudio.togglerecording() end

--- Remove all stored values
function userdata.clear() end

--- Whether a key is stored
---@param key string
function userdata.containskey(key) end

--- Fetch stored value or nil
---@param key string
function userdata.get(key) end

--- List all stored keys
function userdata.get_keys() end

--- Delete one key; true if it existed
---@param key string
function userdata.remove(key) end

--- Store a value saved with savestates
---@param name string
---@param value integer|string
function userdata.set(name, value) end
