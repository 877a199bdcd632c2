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

local unsupported = gbhost.unsupported

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

-- console: the methods mGBA has, and text buffers (lines on the console, named).
local log = native.console.log
console = object("console", {
  log = function(_, msg) log(tostring(msg)) end,
  warn = function(_, msg) log("warning: " .. tostring(msg)) end,
  error = function(_, msg) log("error: " .. tostring(msg)) end,
  createBuffer = function(_, name)
    name = tostring(name or "buffer")
    local pending = ""
    return object("TextBuffer", {
      print = function(_, text)
        pending = pending .. tostring(text)
        while true do
          local line, rest = pending:match("^(.-)\n(.*)$")
          if not line then break end
          log("[" .. name .. "] " .. line)
          pending = rest
        end
      end,
      clear = function() pending = "" end,
      setName = function(_, new) name = tostring(new) end,
      setSize = function() end,
      moveCursor = function() end,
      advance = function() end,
      getX = function() return #pending end,
      getY = function() return 0 end,
      cols = function() return 80 end,
      rows = function() return 24 end,
    })
  end,
})
