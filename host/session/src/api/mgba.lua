-- mGBA compatibility layer (run after prelude.lua for scripts written for mGBA 0.10's scripting
-- API on Game Boy games): the `emu` object (`emu:read8`, `emu:setKeys`, memory domains as
-- `emu.memory.wram`), `callbacks:add`, `console:log`/`warn`/`error`/`createBuffer`, the `C`
-- constants and `util`. mGBA scripts are driven by callbacks, not by a frame loop. What mGBA
-- offers and gbhost does not is a method that raises one clear "not supported by gbhost" error
-- when called.

gbhost.lua51()

local native_gui = gui
local native = {
  memory = memory, joypad = joypad, event = event, emu = emu, savestate = savestate,
  console = console,
}

local unsupported = gbhost.unsupported

-- An object whose missing methods raise when called, not when looked up.
local function object(name, t) return gbhost.stub_library(t, name, nil, ":") end

C = {
  GB_KEY = { A = 0, B = 1, SELECT = 2, START = 3, RIGHT = 4, LEFT = 5, UP = 6, DOWN = 7 },
  PLATFORM = { NONE = -1, GBA = 0, GB = 1 },
  SAVESTATE = { SCREENSHOT = 1, SAVEDATA = 2, CHEATS = 4, RTC = 8, METADATA = 16, ALL = 31 },
  GBA_KEY = { A = 0, B = 1, SELECT = 2, START = 3, RIGHT = 4, LEFT = 5, UP = 6, DOWN = 7, R = 8,
              L = 9 },
  CHECKSUM = { CRC32 = 0 },
  WATCHPOINT_TYPE = { WRITE = 1, READ = 2, RW = 3, WRITE_CHANGE = 5 },
  SOCKERR = { UNKNOWN_ERROR = -1, OK = 0, AGAIN = 1, ADDRESS_IN_USE = 2, CONNECTION_REFUSED = 3,
              DENIED = 4, FAILED = 5, NETWORK_UNREACHABLE = 6, NOT_FOUND = 7, NO_DATA = 8,
              OUT_OF_MEMORY = 9, TIMEOUT = 10, UNSUPPORTED = 11 },
}
-- mGBA 0.11's input, painter and event constants, by name (gbhost sends no input events and
-- has no painter: the values only let scripts that name them load).
local function enum(names)
  local t = {}
  for i, n in ipairs(names) do t[n] = i - 1 end
  return t
end
C.ALIGN = { LEFT = 1, HCENTER = 2, RIGHT = 4, TOP = 16, VCENTER = 32, BOTTOM = 64, BASELINE = 128 }
C.EV_TYPE = enum({ "NONE", "KEY", "MOUSE_BUTTON", "MOUSE_MOVE", "MOUSE_WHEEL", "GAMEPAD_BUTTON",
                   "TRIGGER" })
C.INPUT_DIR = enum({ "NONE", "NORTH", "EAST", "SOUTH", "WEST", "UP", "RIGHT", "DOWN", "LEFT",
                     "NORTHEAST", "NORTHWEST", "SOUTHEAST", "SOUTHWEST" })
C.INPUT_STATE = enum({ "UP", "DOWN", "HELD" })
C.KEY = enum({ "NONE", "BACKSPACE", "TAB", "ENTER", "ESCAPE", "DELETE", "PAGE_UP", "PAGE_DOWN",
               "HOME", "END", "INSERT", "UP", "DOWN", "LEFT", "RIGHT" })
for i = 1, 24 do C.KEY["F" .. i] = 0x100 + i end
C.KMOD = { NONE = 0, LSHIFT = 1, RSHIFT = 2, SHIFT = 3, LCONTROL = 4, RCONTROL = 8, CONTROL = 12,
           LALT = 16, RALT = 32, ALT = 48, LSUPER = 64, RSUPER = 128, SUPER = 192,
           CAPS_LOCK = 256, NUM_LOCK = 512, SCROLL_LOCK = 1024 }
C.MOUSE_BUTTON = enum({ "PRIMARY", "SECONDARY", "MIDDLE" })

util = {
  expandBitmask = function(mask)
    local t = {}
    for i = 0, 63 do if mask & (1 << i) ~= 0 then t[#t + 1] = i end end
    return t
  end,
  newRectangle = function(x, y, w, h) return { x = x, y = y, width = w, height = h } end,
  newSize = function(w, h) return { width = w, height = h } end,
  makeBitmask = function(list)
    local m = 0
    for _, i in ipairs(list) do m = m | (1 << i) end
    return m
  end,
}

-- Memory: the bus through `emu`, and mGBA's Game Boy domains by its names.
local m = native.memory
local read_bytes = m.read_bytes
-- The accessors are the host functions bound to the domain, as methods (`emu:read8(a)` is one
-- host call, no Lua in front of it); values written are cut to the width, as mGBA does.
local function accessors(t, domain)
  local a = gbhost.accessors(domain, true)
  t.read8, t.read16, t.read32 = a.read_u8, a.read_u16_le, a.read_u32_le
  t.write8, t.write16, t.write32 = a.write_u8, a.write_u16_le, a.write_u32_le
  t.readRange = function(_, addr, n) return read_bytes(addr, n, domain) end
  return t
end
local DOMAINS = { cart0 = "rom", wram = "wram", sram = "cartram", vram = "vram", oam = "oam",
                  io = "io", hram = "hram" }
local memory_domains = {}
for name, domain in pairs(DOMAINS) do
  local d = accessors({}, domain)
  d.name = function() return name end
  d.size = function() return m.size(domain) end
  -- Where the domain is on the bus (mGBA's base and bound), 0 for the ones that are not.
  local BASE = { wram = 0xC000, vram = 0x8000, oam = 0xFE00, io = 0xFF00, hram = 0xFF80,
                 sram = 0xA000, cart0 = 0 }
  d.base = function() return BASE[name] or 0 end
  d.bound = function() return (BASE[name] or 0) + m.size(domain) end
  memory_domains[name] = object("memory." .. name, d)
end

-- Keys the script holds (mGBA's key bits), pressed again at every frame's start by a hook
-- installed when the script first sets one (scripts that never do cost nothing per frame).
local KEY_NAMES = { [0] = "A", "B", "Select", "Start", "Right", "Left", "Up", "Down" }
local keys = 0
local hooked = false
local function hold(mask)
  keys = mask & 0xFF
  if hooked then return end
  hooked = true
  native.event.on_frame_start(function()
    if keys ~= 0 then
      local t = {}
      for bit, name in pairs(KEY_NAMES) do if keys & (1 << bit) ~= 0 then t[name] = true end end
      native.joypad.set(t)
    end
  end)
end

local n = native.emu
emu = accessors({}, "bus")
emu.memory = memory_domains
emu.getGameTitle = function() return n.rom_title() end
emu.currentFrame = function() return n.framecount() end
emu.frameCycles = function() return 70224 end
emu.frequency = function() return 4194304 end
emu.platform = function() return C.PLATFORM.GB end
emu.romSize = function() return m.size("rom") end
emu.setKeys = function(_, mask) hold(mask) end
emu.addKey = function(_, key) hold(keys | (1 << key)) end
emu.clearKey = function(_, key) hold(keys & ~(1 << key)) end
emu.getKeys = function()
  local held = native.joypad.get()
  local mask = keys
  for bit, name in pairs(KEY_NAMES) do if held[name] then mask = mask | (1 << bit) end end
  return mask
end
emu.getKey = function(self, key) return (self:getKeys() >> key) & 1 end
emu.saveStateSlot = function(_, slot) native.savestate.save("slot " .. tostring(slot)) return true end
emu.loadStateSlot = function(_, slot) native.savestate.load("slot " .. tostring(slot)) return true end
emu = object("emu", emu)

-- Callbacks by mGBA's event names: "frame" at every frame's end, "keysRead" when the game
-- reads the joypad, "stop" and "shutdown" when the script is unloaded. The ones gbhost has no
-- such moment for are kept and never called (`gbhost.mgba_events` says which, for the docs).
local e = native.event
local ON = { frame = e.on_frame_end, keysRead = e.on_input_poll, stop = e.on_exit,
             shutdown = e.on_exit }
gbhost.mgba_events = { frame = true, keysRead = true, stop = true, shutdown = true,
                       reset = false, start = false, crashed = false, sleep = false,
                       savedataUpdated = false, alarm = false, rumble = false, key = false,
                       mouseButton = false, mouseMove = false, mouseWheel = false,
                       gamepadButton = false, gamepadHat = false, trigger = false }
-- mGBA's ids (callbacks, watchpoints, breakpoints share one count), each the list of gbhost
-- hooks it stands for.
local ids = {}
local next_id = 0
local function new_id(hooks)
  next_id = next_id + 1
  ids[next_id] = hooks
  return next_id
end
local function unhook(_, id)
  local hooks = ids[id]
  ids[id] = nil
  for _, h in ipairs(hooks or {}) do e.unregister(h) end
  return hooks ~= nil
end
callbacks = object("callbacks", {
  add = function(_, name, fn)
    local on = ON[name]
    return new_id(on and { on(fn) } or {})
  end,
  remove = unhook,
})

-- console: the methods mGBA has, and text buffers: a grid of text with a cursor, kept in the
-- script's arena (gbhost.ui, from ui.lua) and shown by the app in a window of its own.
local ui = gbhost.ui
-- Lines a buffer keeps (the oldest scroll away).
local SCROLLBACK = 1000
local log = native.console.log
local function count(v, default, who)
  if v == nil then return default end
  local n = math.tointeger(v)
  if not n or n < 0 or n > 0xFFFF then
    error(who .. ": expected a number 0-65535, got " .. tostring(v), 3)
  end
  return n
end
local function new_buffer(name)
  local b = { name = tostring(name or "buffer"), cols = 80, rows = 24, x = 0, y = 0, lines = {} }
  ui.handle(b)
  ui.buffers[#ui.buffers + 1] = b
  ui.touch()
  -- Put `s` (no newline) at the cursor, wrapping at the buffer's width.
  local function put(s)
    while #s > 0 do
      if b.x >= b.cols and b.cols > 0 then b.x, b.y = 0, b.y + 1 end
      local room = b.cols > 0 and b.cols - b.x or #s
      local part = s:sub(1, room)
      s = s:sub(room + 1)
      while #b.lines <= b.y do b.lines[#b.lines + 1] = "" end
      local line = b.lines[b.y + 1]
      if #line < b.x then line = line .. string.rep(" ", b.x - #line) end
      b.lines[b.y + 1] = line:sub(1, b.x) .. part .. line:sub(b.x + #part + 1)
      b.x = b.x + #part
    end
  end
  local function scroll()
    while b.y >= SCROLLBACK do
      table.remove(b.lines, 1)
      b.y = b.y - 1
    end
  end
  return object("TextBuffer", {
    print = function(_, text)
      text = tostring(text)
      local first = true
      for piece in (text .. "\n"):gmatch("(.-)\n") do
        if not first then b.x, b.y = 0, b.y + 1 scroll() end
        first = false
        put(piece)
      end
      while #b.lines <= b.y do b.lines[#b.lines + 1] = "" end
      ui.touch()
    end,
    clear = function()
      b.lines, b.x, b.y = {}, 0, 0
      ui.touch()
    end,
    setName = function(_, new) b.name = tostring(new) ui.touch() end,
    setSize = function(_, cols, rows)
      b.cols = count(cols, b.cols, "TextBuffer:setSize")
      b.rows = count(rows, b.rows, "TextBuffer:setSize")
      ui.touch()
    end,
    moveCursor = function(_, x, y)
      b.x = count(x, b.x, "TextBuffer:moveCursor")
      b.y = math.min(count(y, b.y, "TextBuffer:moveCursor"), SCROLLBACK - 1)
      ui.touch()
    end,
    advance = function(_, n)
      b.x = b.x + count(n, 1, "TextBuffer:advance")
      if b.cols > 0 then
        b.y = b.y + b.x // b.cols
        b.x = b.x % b.cols
        scroll()
      end
      ui.touch()
    end,
    getX = function() return b.x end,
    getY = function() return b.y end,
    cols = function() return b.cols end,
    rows = function() return b.rows end,
  })
end
console = object("console", {
  log = function(_, msg) log(tostring(msg)) end,
  warn = function(_, msg) log("warning: " .. tostring(msg)) end,
  error = function(_, msg) log("error: " .. tostring(msg)) end,
  createBuffer = function(_, name) return new_buffer(name) end,
})

-- The rest of mGBA's emu and callbacks.
rawset(emu, "addKeys", function(_, mask) hold(keys | mask) end)
rawset(emu, "clearKeys", function(_, mask) hold(keys & ~mask) end)
rawset(emu, "currentCycle", function() return select(2, gbhost.clock()) end)
rawset(emu, "readRegister", function(_, name) return n.getregister(string.lower(name)) end)
rawset(emu, "writeRegister", function(_, name, v) n.setregister(string.lower(name), v) end)
-- CRC32 of the ROM (mGBA's C.CHECKSUM.CRC32).
local crc_table
rawset(emu, "checksum", function(_, kind)
  if kind ~= nil and kind ~= C.CHECKSUM.CRC32 then error("emu:checksum: only CRC32", 2) end
  if not crc_table then
    crc_table = {}
    for i = 0, 255 do
      local c = i
      for _ = 1, 8 do c = (c & 1 == 1) and (0xEDB88320 ~ (c >> 1)) or (c >> 1) end
      crc_table[i] = c
    end
  end
  local data, crc = read_bytes(0, m.size("rom"), "rom"), 0xFFFFFFFF
  for i = 1, #data do crc = crc_table[(crc ~ data:byte(i)) & 0xFF] ~ (crc >> 8) end
  return string.pack("<I4", crc ~ 0xFFFFFFFF)
end)
-- Watchpoints and breakpoints on gbhost's bus hooks (the callback gets no arguments, as
-- mGBA's); the id clears either.
local WATCH = { [C.WATCHPOINT_TYPE.WRITE] = "write", [C.WATCHPOINT_TYPE.READ] = "read",
                [C.WATCHPOINT_TYPE.WRITE_CHANGE] = "write" }
local function watch(fn, first, last, kind)
  local hooks = {}
  local wrapped = function() fn() end
  if kind == C.WATCHPOINT_TYPE.RW then
    hooks[1] = e.on_bus_read(wrapped, first, last - first + 1)
    hooks[2] = e.on_bus_write(wrapped, first, last - first + 1)
  else
    local on = WATCH[kind or C.WATCHPOINT_TYPE.WRITE] == "read" and e.on_bus_read or e.on_bus_write
    hooks[1] = on(wrapped, first, last - first + 1)
  end
  return new_id(hooks)
end
rawset(emu, "setWatchpoint", function(_, fn, addr, kind) return watch(fn, addr, addr, kind) end)
rawset(emu, "setRangeWatchpoint", function(_, fn, lo, hi, kind) return watch(fn, lo, hi - 1, kind) end)
rawset(emu, "setBreakpoint", function(_, fn, addr)
  return new_id({ e.on_bus_exec(function() fn() end, addr) })
end)
rawset(emu, "clearBreakpoint", unhook)
rawset(emu, "clearWatchpoint", unhook)
rawset(callbacks, "oneshot", function(self, name, fn)
  local id
  id = self:add(name, function(...) self:remove(id) return fn(...) end)
  return id
end)
local NOT_SCRIPTS = "the app opens files and resets; scripts run between frames"
for _, name in ipairs({ "reset", "runFrame", "step", "loadFile", "loadSaveFile", "autoloadSave" }) do
  rawset(emu, name, unsupported("emu:" .. name, NOT_SCRIPTS))
end
for _, name in ipairs({ "saveStateBuffer", "loadStateBuffer", "saveStateFile", "loadStateFile" }) do
  rawset(emu, name, unsupported("emu:" .. name, "state buffers and files: use saveStateSlot and loadStateSlot"))
end
for _, name in ipairs({ "screenshot", "screenshotToImage" }) do
  rawset(emu, name, unsupported("emu:" .. name, "screenshots are the app's"))
end
for _, name in ipairs({ "setRotationCallbacks", "setSolarSensorCallback" }) do
  rawset(emu, name, unsupported("emu:" .. name, "Game Boy Advance cartridge sensors"))
end
rawset(emu, "core", unsupported("emu:core", "mGBA's core object"))
rawset(emu, "getGameCode", function()
  -- The CGB game code of the header (0x13F-0x142), mGBA's "DMG-" or "CGB-" and four letters.
  local code = read_bytes(0x13F, 4, "rom"):gsub("[^%w]", "")
  local cgb = m.read_u8(0x143, "rom") & 0x80 ~= 0
  return (cgb and "CGB-" or "DMG-") .. code
end)

-- mGBA 0.11's images, painters and canvas layers. An image is its pixels (0xAARRGGBB, row by
-- row) in the script's arena, so it rolls back with the script; a layer shows its image over
-- the game at its position from its last update on, drawn at every frame's end.
local Image = {}
Image.__index = Image
local function new_image(w, h, fill)
  w, h = math.tointeger(w), math.tointeger(h)
  if not w or not h or w < 0 or h < 0 or w * h > 1 << 20 then
    error("image.new: width and height must be whole numbers, at most 1M pixels", 3)
  end
  local px = {}
  for i = 1, w * h do px[i] = fill or 0 end
  return setmetatable({ width = w, height = h, px = px }, Image)
end
function Image:getPixel(x, y)
  if x < 0 or y < 0 or x >= self.width or y >= self.height then return 0 end
  return self.px[y * self.width + x + 1]
end
function Image:setPixel(x, y, c)
  if x < 0 or y < 0 or x >= self.width or y >= self.height then return end
  self.px[y * self.width + x + 1] = c & 0xFFFFFFFF
end
-- `src` over `dst`, both 0xAARRGGBB, `alpha` scaling the source's.
local function blend(dst, src, alpha)
  local a = ((src >> 24) & 0xFF) * (alpha or 1) / 255
  if a >= 1 then return src end
  if a <= 0 then return dst end
  local function ch(shift)
    local d, s2 = (dst >> shift) & 0xFF, (src >> shift) & 0xFF
    return math.floor(s2 * a + d * (1 - a) + 0.5) << shift
  end
  local da = (dst >> 24) & 0xFF
  local oa = math.floor(255 * a + da * (1 - a) + 0.5)
  return (oa << 24) | ch(16) | ch(8) | ch(0)
end
function Image:drawImage(img, x, y, alpha)
  for j = 0, img.height - 1 do
    for i = 0, img.width - 1 do
      local tx, ty = x + i, y + j
      if tx >= 0 and ty >= 0 and tx < self.width and ty < self.height then
        local k = ty * self.width + tx + 1
        self.px[k] = blend(self.px[k], img.px[j * img.width + i + 1], alpha)
      end
    end
  end
end
function Image:drawImageOpaque(img, x, y)
  for j = 0, img.height - 1 do
    for i = 0, img.width - 1 do self:setPixel(x + i, y + j, img.px[j * img.width + i + 1]) end
  end
end
Image.save = unsupported("Image:save", "saving images is not built yet (draw them instead)")
-- The image as RGBA bytes (what gui.rgba draws).
function Image:rgba()
  local out, chr = {}, string.char
  for k, c in ipairs(self.px) do
    out[k] = chr((c >> 16) & 0xFF, (c >> 8) & 0xFF, c & 0xFF, (c >> 24) & 0xFF)
  end
  return table.concat(out)
end

local Painter = {}
Painter.__index = Painter
function Painter:setFill(on) self.fill = on and true or false end
function Painter:setFillColor(c) self.fillc = c & 0xFFFFFFFF end
function Painter:setStrokeColor(c) self.strokec = c & 0xFFFFFFFF end
function Painter:setStrokeWidth(w) self.strokew = math.max(0, math.floor(w)) end
function Painter:setBlend(on) self.blend = on and true or false end
function Painter:plot(x, y, c)
  local img = self.img
  if x < 0 or y < 0 or x >= img.width or y >= img.height then return end
  local k = y * img.width + x + 1
  img.px[k] = self.blend and blend(img.px[k], c) or c
end
function Painter:drawRectangle(x, y, w, h)
  for j = 0, h - 1 do
    for i = 0, w - 1 do
      local edge = i < self.strokew or j < self.strokew or i >= w - self.strokew
        or j >= h - self.strokew
      if edge and self.strokew > 0 then self:plot(x + i, y + j, self.strokec)
      elseif self.fill then self:plot(x + i, y + j, self.fillc) end
    end
  end
end
function Painter:drawLine(x1, y1, x2, y2)
  local dx, dy = math.abs(x2 - x1), -math.abs(y2 - y1)
  local sx, sy = x1 < x2 and 1 or -1, y1 < y2 and 1 or -1
  local err = dx + dy
  while true do
    self:plot(x1, y1, self.strokec)
    if x1 == x2 and y1 == y2 then break end
    local e2 = 2 * err
    if e2 >= dy then err = err + dy x1 = x1 + sx end
    if e2 <= dx then err = err + dx y1 = y1 + sy end
  end
end
function Painter:drawCircle(x, y, d)
  local r = d / 2
  local cx, cy = x + r, y + r
  for j = 0, d - 1 do
    for i = 0, d - 1 do
      local dist = math.sqrt((x + i + 0.5 - cx) ^ 2 + (y + j + 0.5 - cy) ^ 2)
      if dist <= r then
        if self.strokew > 0 and dist > r - self.strokew then self:plot(x + i, y + j, self.strokec)
        elseif self.fill then self:plot(x + i, y + j, self.fillc) end
      end
    end
  end
end
function Painter:drawMask(mask, x, y)
  for j = 0, mask.height - 1 do
    for i = 0, mask.width - 1 do
      local a = (mask.px[j * mask.width + i + 1] >> 24) & 0xFF
      if a > 0 then
        self:plot(x + i, y + j, (self.fillc & 0xFFFFFF) | ((((self.fillc >> 24) * a) // 255) << 24))
      end
    end
  end
end
for _, name in ipairs({ "drawText", "loadFont", "setFontSize", "textBoxSize", "textRunMetrics" }) do
  Painter[name] = unsupported("painter:" .. name, "text in images is not built yet (use gui.text)")
end

image = {
  new = function(w, h) return new_image(w, h) end,
  load = function(path)
    local w, h, bytes = native_gui.image_data(path)
    local img = new_image(w, h)
    for k = 1, w * h do
      local r, g, b, a = bytes:byte(k * 4 - 3, k * 4)
      img.px[k] = (a << 24) | (r << 16) | (g << 8) | b
    end
    return img
  end,
  newPainter = function(img)
    if getmetatable(img) ~= Image then error("image.newPainter: expected an image", 2) end
    return setmetatable({ img = img, fill = true, fillc = 0xFFFFFFFF, strokec = 0xFF000000,
                          strokew = 0, blend = true }, Painter)
  end,
}
gbhost.stub_library(image, "image")

local Layer = {}
Layer.__index = Layer
local layers = {}
local function draw_layers()
  for _, l in ipairs(layers) do
    if l.shown then native_gui.rgba(l.x, l.y, l.image.width, l.image.height, l.shown) end
  end
end
function Layer:setPosition(x, y) self.x, self.y = math.floor(x), math.floor(y) end
function Layer:update() self.shown = self.image:rgba() end
function Layer:invalidate() self:update() end
function Layer:setVisible(on) if not on then self.shown = nil else self:update() end end
canvas = {
  newLayer = function(_, w, h)
    if #layers == 0 then e.on_frame_end(draw_layers) end
    local l = setmetatable({ image = new_image(w, h), x = 0, y = 0 }, Layer)
    layers[#layers + 1] = l
    return l
  end,
  width = function() return 160 end,
  height = function() return 144 end,
  screenWidth = function() return 160 end,
  screenHeight = function() return 144 end,
  update = function() for _, l in ipairs(layers) do l:update() end end,
}
gbhost.stub_library(canvas, "canvas", nil, ":")

-- mGBA 0.11's libraries gbhost does not have: their functions can be looked up and raise the
-- reason when called.
for _, lib in ipairs({
  { "socket", "no network in the sandbox" },
  { "storage", "mGBA 0.11's storage buckets are not built yet (use persist)" },
}) do
  _G[lib[1]] = gbhost.stub_library(_G[lib[1]] or {}, lib[1], lib[2], ":")
end
-- mGBA 0.11's input object is not there; gbhost's input.get and input.getmouse are.
input = gbhost.stub_library({ get = input and input.get, getmouse = input and input.getmouse },
  "input", "mGBA 0.11's input object is not built yet (input.get gives the host's keys)", ":")
-- What program runs the script.
system = object("system", { program = "gbhost", version = "0.1", branch = "", commit = "",
                            revision = 0 })
