-- The gbhost Lua API's Lua side, run in every script VM before the script. The host functions
-- it wraps are registered from host/session/src/api/spec.rs; everything here lives in the
-- script's arena and so rolls back with it.

local hooks = {
  frame_start = {}, frame_end = {}, input_poll = {}, load_state = {}, rewind = {}, exit = {},
}
local next_hook = 0
local press, release = 0, 0

local BUTTONS = { "Right", "Left", "Up", "Down", "A", "B", "Select", "Start" }
local bit_of = {}
for i, name in ipairs(BUTTONS) do bit_of[string.lower(name)] = 1 << (i - 1) end

local function add_hook(list, fn, who)
  if type(fn) ~= "function" then
    error(who .. ": expected a function, got " .. type(fn), 3)
  end
  next_hook = next_hook + 1
  list[#list + 1] = { id = next_hook, fn = fn }
  return next_hook
end

-- Bus hooks: the session stops the core at each watched access and calls gbhost.bus.
local bus_hooks = {}
local KINDS = { read = 0, write = 1, exec = 2 }
local function add_bus(kind, fn, addr, len, bank, who)
  if type(fn) ~= "function" then error(who .. ": expected a function, got " .. type(fn), 3) end
  if math.type(addr) ~= "integer" or addr < 0 or addr > 0xFFFF then
    error(who .. ": expected an address 0x0000-0xFFFF", 3)
  end
  len = len or 1
  if math.type(len) ~= "integer" or len < 1 or len > 0x10000 then
    error(who .. ": expected a length 1-65536", 3)
  end
  if bank ~= nil and (math.type(bank) ~= "integer" or bank < 0 or bank > 0xFFFF) then
    error(who .. ": expected a bank number or nil", 3)
  end
  next_hook = next_hook + 1
  bus_hooks[#bus_hooks + 1] = { id = next_hook, kind = KINDS[kind], first = addr,
                                last = addr + len - 1, bank = bank, fn = fn }
  gbhost.watch_changed()
  return next_hook
end

event = {
  on_bus_read = function(fn, addr, len, bank)
    return add_bus("read", fn, addr, len, bank, "event.on_bus_read")
  end,
  on_bus_write = function(fn, addr, len, bank)
    return add_bus("write", fn, addr, len, bank, "event.on_bus_write")
  end,
  on_bus_exec = function(fn, addr, len, bank)
    return add_bus("exec", fn, addr, len, bank, "event.on_bus_exec")
  end,
  on_frame_start = function(fn) return add_hook(hooks.frame_start, fn, "event.on_frame_start") end,
  on_frame_end = function(fn) return add_hook(hooks.frame_end, fn, "event.on_frame_end") end,
  on_input_poll = function(fn) return add_hook(hooks.input_poll, fn, "event.on_input_poll") end,
  on_load_state = function(fn) return add_hook(hooks.load_state, fn, "event.on_load_state") end,
  on_rewind = function(fn) return add_hook(hooks.rewind, fn, "event.on_rewind") end,
  on_exit = function(fn) return add_hook(hooks.exit, fn, "event.on_exit") end,
  unregister = function(id)
    for _, list in pairs(hooks) do
      for i = #list, 1, -1 do
        if list[i].id == id then table.remove(list, i) return true end
      end
    end
    for i = #bus_hooks, 1, -1 do
      if bus_hooks[i].id == id then
        table.remove(bus_hooks, i)
        gbhost.watch_changed()
        return true
      end
    end
    return false
  end,
}
-- The names the session issue's minimal API used.
event.onframestart = event.on_frame_start
event.onframeend = event.on_frame_end

emu.frameadvance = function() coroutine.yield() end
emu.yield = emu.frameadvance
emu.getregisters = function()
  local t = {}
  for _, r in ipairs({ "a", "f", "b", "c", "d", "e", "h", "l", "af", "bc", "de", "hl", "sp", "pc" }) do
    t[r] = emu.getregister(r)
  end
  return t
end

local function buttons_table(mask)
  local t = {}
  for i, name in ipairs(BUTTONS) do t[name] = mask & (1 << (i - 1)) ~= 0 end
  return t
end

joypad = {
  set = function(t)
    if math.type(t) == "integer" then
      -- A bit mask (bit 0 Right … bit 7 Start): exactly these buttons are held.
      press, release = t & 0xFF, ~t & 0xFF
      return
    end
    if type(t) ~= "table" then error("joypad.set: expected a table of buttons or a mask", 2) end
    for k, v in pairs(t) do
      local bit = type(k) == "string" and bit_of[string.lower(k)]
      if not bit then error("joypad.set: unknown button '" .. tostring(k) .. "'", 2) end
      if v == true then
        press, release = press | bit, release & ~bit
      elseif v == false then
        press, release = press & ~bit, release | bit
      end
    end
  end,
  get = function() return buttons_table(gbhost.joypad()) end,
  getimmediate = function() return buttons_table(gbhost.joypad_user()) end,
}

memory.search = function(bytes, domain)
  local packed = gbhost.search(bytes, domain)
  local t = {}
  for i = 1, #packed, 4 do t[#t + 1] = string.unpack("<I4", packed, i) end
  return t
end

console = {}
console.log = print
console.write = function(...)
  local parts = table.pack(...)
  for i = 1, parts.n do parts[i] = tostring(parts[i]) end
  print(table.concat(parts, "", 1, parts.n))
end

persist = setmetatable({}, {
  __index = function(_, k) return gbhost.persist_get(k) end,
  __newindex = function(_, k, v) gbhost.persist_set(k, v) end,
})

local function run(list)
  for _, h in ipairs(list) do h.fn() end
end

-- Called by the session at the start of each frame: runs the frame-start and input-poll
-- hooks, then hands over (and clears) the buttons scripts pressed and released for this frame.
function gbhost.frame_start()
  run(hooks.frame_start)
  run(hooks.input_poll)
  local p, r = press, release
  press, release = 0, 0
  return p, r
end

-- Called by the session at the end of each frame.
function gbhost.frame_end()
  run(hooks.frame_end)
end

-- Called by the session for the other events: "load_state", "rewind", "exit".
function gbhost.fire(name)
  run(hooks[name] or {})
end

-- Called before a reload: the new code registers its hooks again.
function gbhost.reset_hooks()
  for k in pairs(hooks) do hooks[k] = {} end
  if #bus_hooks > 0 then bus_hooks = {} gbhost.watch_changed() end
end

-- The addresses this script watches, for the session: kind, first address, length, packed.
function gbhost.watches()
  local parts = {}
  for i, h in ipairs(bus_hooks) do
    parts[i] = string.pack("<BI2I4", h.kind, h.first, h.last - h.first + 1)
  end
  return table.concat(parts)
end

-- Called by the session at a watched access (kind 0 read, 1 write, 2 exec), with the bank
-- mapped at the address (nil where nothing is banked).
function gbhost.bus(kind, addr, value, bank)
  for _, h in ipairs(bus_hooks) do
    if h.kind == kind and addr >= h.first and addr <= h.last
        and (h.bank == nil or h.bank == bank) then
      h.fn(addr, value, bank)
    end
  end
end

-- Unknown functions of the API's tables are a clear error, not a call of nil.
local function strict(name, t)
  return setmetatable(t, {
    __index = function(_, k)
      error(string.format("%s.%s is not part of the gbhost API (see docs/lua-api.md)",
        name, tostring(k)), 2)
    end,
  })
end
for _, name in ipairs({ "memory", "emu", "joypad", "event", "gui", "console", "savestate" }) do
  strict(name, _G[name])
end
gbhost.strict = strict

-- Lua 5.1 names that BizHawk and VBA-rr scripts still use, for the compatibility layers.
function gbhost.lua51()
  unpack = unpack or table.unpack
  loadstring = loadstring or function(text, name) return load(text, name, "t") end
  table.getn = table.getn or function(t) return #t end
  table.maxn = table.maxn or function(t)
    local n = 0
    for k in pairs(t) do if math.type(k) and k > n then n = k end end
    return n
  end
  math.mod = math.mod or math.fmod
  math.pow = math.pow or function(a, b) return a ^ b end
  math.log10 = math.log10 or function(x) return math.log(x, 10) end
  string.gfind = string.gfind or string.gmatch
end

-- The sandbox has no files, processes, debug library or native code: calling one of their
-- functions is a clear error naming what was tried. Looking one up is not an error (scripts
-- take aliases at load), and `debug`'s names are nil, so that probes such as
-- `debug and debug.getmetatable` see them missing, except the ones that would reach past the
-- script's own values, which raise when called; `debug.traceback` returns the message.
for _, lib in ipairs({ "io", "os", "package", "ffi", "jit" }) do
  _G[lib] = setmetatable({}, {
    __index = function(_, k)
      return function()
        error(string.format("%s.%s is not available: gbhost scripts run in a sandbox (no " ..
          "files, processes or native code)", lib, tostring(k)), 2)
      end
    end,
  })
end
debug = {
  traceback = function(msg)
    if type(msg) ~= "string" and msg ~= nil then return msg end
    return msg or ""
  end,
}
for _, name in ipairs({ "debug", "gethook", "getinfo", "getlocal", "getregistry", "getupvalue",
                        "getuservalue", "sethook", "setlocal", "setmetatable", "setupvalue",
                        "setuservalue", "upvalueid", "upvaluejoin" }) do
  debug[name] = function()
    error("debug." .. name .. " is not available: gbhost scripts run in a sandbox (no " ..
      "files, processes or native code)", 2)
  end
end
string.dump = function()
  error("string.dump is not available: gbhost loads text chunks only", 2)
end
for _, name in ipairs({ "dofile", "loadfile" }) do
  _G[name] = function()
    error(name .. " is not available: gbhost scripts run in a sandbox (no files)", 2)
  end
end
-- `require` loads modules from the script's own folder only: the host hands their texts over
-- when the script is loaded or reloaded (`gbhost.add_module`); nothing else can be read.
local modules, loaded = {}, {}
function gbhost.add_module(name, text) modules[name] = text end
function gbhost.clear_modules() modules, loaded = {}, {} end
-- The standard libraries by their names (`local bit = require("bit")` in BizHawk scripts).
local STANDARD = { string = true, table = true, math = true, utf8 = true, coroutine = true,
                   bit = true, bit32 = true }
require = function(asked)
  if type(asked) ~= "string" then error("require: expected a module name", 2) end
  if STANDARD[asked] and _G[asked] ~= nil then return _G[asked] end
  -- "a/b" and "a/b.lua" name the same file as "a.b" (never anything outside the folder: the
  -- names are keys of the script's own modules).
  local name = asked:gsub("%.lua$", ""):gsub("[/\\]", ".")
  if loaded[name] ~= nil then return loaded[name] end
  local text = modules[name]
  if not text then
    error(string.format("module '%s' not found: require loads .lua files from the script's " ..
      "own folder only", asked), 2)
  end
  local fn, err = load(text, "@" .. name:gsub("%.", "/") .. ".lua", "t")
  if not fn then error(err, 2) end
  local result = fn(name)
  if result == nil then result = true end
  loaded[name] = result
  return result
end
