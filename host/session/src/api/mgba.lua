-- mGBA compatibility layer (run after prelude.lua for scripts written for mGBA 0.10's scripting
-- API on Game Boy games): the `emu` object (`emu:read8`, `emu:setKeys`, memory domains as
-- `emu.memory.wram`), `callbacks:add`, `console:log`/`warn`/`error`/`createBuffer`, the `C`
-- constants and `util`. mGBA scripts are driven by callbacks, not by a frame loop. What mGBA
-- offers and gbhost does not is a method that raises one clear "not supported by gbhost" error
-- when called.

gbhost.lua51()

local native = {
  memory = memory, joypad = joypad, event = event, emu = emu, savestate = savestate,
  console = console,
}

local function unsupported(name)
  return function() error(name .. " is not supported by gbhost", 2) end
end

-- An object whose missing methods raise when called, not when looked up.
local function object(name, t)
  return setmetatable(t, {
    __index = function(_, k) return unsupported(name .. ":" .. tostring(k)) end,
  })
end

C = {
  GB_KEY = { A = 0, B = 1, SELECT = 2, START = 3, RIGHT = 4, LEFT = 5, UP = 6, DOWN = 7 },
  PLATFORM = { NONE = -1, GBA = 0, GB = 1 },
  SAVESTATE = { SCREENSHOT = 1, SAVEDATA = 2, CHEATS = 4, RTC = 8, METADATA = 16, ALL = 31 },
}

util = {
  expandBitmask = function(mask)
    local t = {}
    for i = 0, 63 do if mask & (1 << i) ~= 0 then t[#t + 1] = i end end
    return t
  end,
  makeBitmask = function(list)
    local m = 0
    for _, i in ipairs(list) do m = m | (1 << i) end
    return m
  end,
}

-- Memory: the bus through `emu`, and mGBA's Game Boy domains by its names.
local m = native.memory
local read8, read16, read32 = m.read_u8, m.read_u16_le, m.read_u32_le
local write8, write16, write32, read_bytes = m.write_u8, m.write_u16_le, m.write_u32_le,
  m.read_bytes
local function accessors(t, domain)
  t.read8 = function(_, a) return read8(a, domain) end
  t.read16 = function(_, a) return read16(a, domain) end
  t.read32 = function(_, a) return read32(a, domain) end
  t.write8 = function(_, a, v) write8(a, v & 0xFF, domain) end
  t.write16 = function(_, a, v) write16(a, v & 0xFFFF, domain) end
  t.write32 = function(_, a, v) write32(a, v & 0xFFFFFFFF, domain) end
  t.readRange = function(_, a, n) return read_bytes(a, n, domain) end
  return t
end
local DOMAINS = { cart0 = "rom", wram = "wram", sram = "cartram", vram = "vram", oam = "oam",
                  io = "io", hram = "hram" }
local memory_domains = {}
for name, domain in pairs(DOMAINS) do
  local d = accessors({}, domain)
  d.name = function() return name end
  d.size = function() return m.size(domain) end
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

-- Callbacks by mGBA's event names; the ones gbhost has no such moment for are kept and never
-- called.
local e = native.event
local ids = {}
local next_id = 0
callbacks = object("callbacks", {
  add = function(_, name, fn)
    next_id = next_id + 1
    if name == "frame" then
      ids[next_id] = e.on_frame_end(fn)
    elseif name == "keysRead" then
      ids[next_id] = e.on_input_poll(fn)
    end
    return next_id
  end,
  remove = function(_, id)
    local native_id = ids[id]
    ids[id] = nil
    if native_id then e.unregister(native_id) end
  end,
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
