-- The gbhost Lua API's Lua side, run in every script VM before the script. The host functions
-- it wraps are registered from host/session/src/api/spec.rs; everything here lives in the
-- script's arena and so rolls back with it.

-- The accessors bound to one domain in Rust (spec.rs's FIXED), handed out to the
-- compatibility layers: `gbhost.accessors("wram")` gives `read_u8(addr)` & co. reading WRAM,
-- `gbhost.accessors("bus", true)` the same as methods (`obj:read_u8(addr)`), each one host
-- call with no Lua in front of it. They are made when a layer asks (`_gbmake`, the host
-- function factory), so scripts that never use them carry none in their arena. The lists are
-- spec.rs's FIXED_DOMAINS and WIDTHS, in order (a test there keeps them so).
local make_host = _gbmake
_gbmake = nil
local FIXED_DOMAINS = { "bus", "io", "rom", "wram", "vram", "oam", "hram", "cartram" }
local FIXED_WIDTHS = { "u8", "s8", "u16_le", "u16_be", "s16_le", "s16_be", "u32_le", "u32_be",
                       "s32_le", "s32_be" }
function gbhost.accessors(domain, method)
  local d
  for i, name in ipairs(FIXED_DOMAINS) do if name == domain then d = i - 1 end end
  if not d then error("gbhost.accessors: unknown domain '" .. tostring(domain) .. "'", 2) end
  local t, base = {}, 1000 + (method and 512 or 0) + d * 32
  for i, w in ipairs(FIXED_WIDTHS) do
    t["read_" .. w] = make_host(base + i - 1)
    t["write_" .. w] = make_host(base + 16 + i - 1)
  end
  return t
end

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
local player = emu.player
local function add_bus(kind, fn, addr, len, bank, who)
  if player() > 1 then
    error(who .. ": bus hooks run only for scripts on player 1 (this one runs on player " ..
      player() .. ")", 3)
  end
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

-- The APU's read-only view: gbhost.apu(n) answers name/value pairs (n = 0: the APU as a
-- whole, 1-4: a channel); a name "part.field" is a field of the sub-table `part`.
local function apu_table(n)
  local kv = table.pack(gbhost.apu(n))
  local t = {}
  for i = 1, kv.n, 2 do
    local name, value = kv[i], kv[i + 1]
    local part, field = string.match(name, "^([%w_]+)%.([%w_]+)$")
    if part then
      t[part] = t[part] or {}
      t[part][field] = value
    else
      t[name] = value
    end
  end
  return t
end
apu = {
  state = function() return apu_table(0) end,
  channel = function(n)
    if math.type(n) ~= "integer" or n < 1 or n > 4 then
      error("apu.channel: channels are 1-4, not " .. tostring(n), 2)
    end
    return apu_table(n)
  end,
}

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

-- RAM search in the script's own memory (so it rewinds with the game): the same model as the
-- app's RAM Search window and the REPL's `search` (see `memory.ramsearch` in lua-api.md).
do
  local ops = {
    lt = function(a, b) return a < b end, gt = function(a, b) return a > b end,
    le = function(a, b) return a <= b end, ge = function(a, b) return a >= b end,
    eq = function(a, b) return a == b end, ne = function(a, b) return a ~= b end,
  }
  ops["<"], ops[">"], ops["<="], ops[">="], ops["=="], ops["~="], ops["!="] =
    ops.lt, ops.gt, ops.le, ops.ge, ops.eq, ops.ne, ops.ne

  local Search = {}
  Search.__index = Search

  local function fmt_of(o)
    local size = o.size or 1
    if size ~= 1 and size ~= 2 and size ~= 4 then
      error("memory.ramsearch: size must be 1, 2 or 4", 3)
    end
    local f = (o.big and ">" or "<") .. (o.signed and "i" or "I") .. size
    return size, f
  end

  local function values(self)
    local mem = memory.read_bytes(0, self.len, self.domain)
    local fmt = self.fmt
    return function(off) return (string.unpack(fmt, mem, off + 1)) end
  end

  memory.ramsearch = function(o)
    o = o or {}
    local domain = o.domain or "wram"
    local size, fmt = fmt_of(o)
    local len = memory.size(domain)
    local step = (o.aligned == false) and 1 or size
    local self = setmetatable({
      domain = domain, size = size, fmt = fmt, len = len,
      offsets = {}, previous = {}, changes = {}, seen = {}, undos = {},
    }, Search)
    local at = values(self)
    for off = 0, len - size, step do
      local n = #self.offsets + 1
      local v = at(off)
      self.offsets[n], self.previous[n], self.changes[n], self.seen[n] = off, v, 0, v
    end
    return self
  end

  function Search:count() return #self.offsets end

  -- Count changes: call once per frame (e.g. in event.on_frame_end).
  function Search:update()
    local at = values(self)
    local seen, changes = self.seen, self.changes
    for i, off in ipairs(self.offsets) do
      local v = at(off)
      if v ~= seen[i] then seen[i] = v changes[i] = changes[i] + 1 end
    end
  end

  -- filter(op [, value]): op is lt gt le ge eq ne (or < > <= >= == ~=), against the previous
  -- value or `value`; filter("by", n [, value]): differs by exactly n; filter("changes", op, n).
  -- Returns the candidates left.
  function Search:filter(op, a, b)
    local test, against, by, on_changes
    if op == "by" then
      by = math.tointeger(a) or error("ramsearch:filter('by', N): N must be an integer", 2)
      against = b
    elseif op == "changes" then
      on_changes = true
      test = ops[a] or error("ramsearch:filter('changes', OP, N): unknown comparison '" .. tostring(a) .. "'", 2)
      against = math.tointeger(b) or error("ramsearch:filter('changes', OP, N): N must be an integer", 2)
    else
      test = ops[op] or error("ramsearch:filter: unknown comparison '" .. tostring(op) .. "' (lt gt le ge eq ne, by, changes)", 2)
      against = a
    end
    local at = values(self)
    local keep = { offsets = {}, previous = {}, changes = {}, seen = {} }
    for i, off in ipairs(self.offsets) do
      local v = at(off)
      local ok
      if on_changes then
        ok = test(self.changes[i], against)
      else
        local other = against or self.previous[i]
        if by then ok = math.abs(v - other) == by else ok = test(v, other) end
      end
      if ok then
        local n = #keep.offsets + 1
        keep.offsets[n], keep.previous[n], keep.changes[n], keep.seen[n] = off, v, self.changes[i], v
      end
    end
    local undos = self.undos
    undos[#undos + 1] = { offsets = self.offsets, previous = self.previous, changes = self.changes, seen = self.seen }
    if #undos > 16 then table.remove(undos, 1) end
    self.offsets, self.previous, self.changes, self.seen = keep.offsets, keep.previous, keep.changes, keep.seen
    return #self.offsets
  end

  -- Take back the last filter; false when there is none.
  function Search:undo()
    local u = table.remove(self.undos)
    if not u then return false end
    self.offsets, self.previous, self.changes, self.seen = u.offsets, u.previous, u.changes, u.seen
    return true
  end

  -- The candidates (at most `max`, default all): {addr, value, previous, changes} each, `addr`
  -- an offset in the domain.
  function Search:candidates(max)
    local at = values(self)
    local out = {}
    for i, off in ipairs(self.offsets) do
      if max and i > max then break end
      out[i] = { addr = off, value = at(off), previous = self.previous[i], changes = self.changes[i] }
    end
    return out
  end
end

-- The debugger's names for the bus hooks (the machine stops for the REPL's breakpoints; a
-- script's hooks run the script).
debugger = debugger or {}
debugger.on_exec = function(addr, fn, bank) return event.on_bus_exec(fn, addr, 1, bank) end
debugger.on_read = function(addr, fn, len, bank) return event.on_bus_read(fn, addr, len, bank) end
debugger.on_write = function(addr, fn, len, bank) return event.on_bus_write(fn, addr, len, bank) end

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

-- Shapes, drawn as lines (so every renderer draws them alike): outlines connect row to row,
-- fills are horizontal spans.
local line = gui.line
function gui.ellipse(x, y, w, h, stroke, fill)
  if w < 0 then x, w = x + w, -w end
  if h < 0 then y, h = y + h, -h end
  local rx, ry = w / 2, h / 2
  local cx, cy = x + rx, y + ry
  local pl, pr
  for row = 0, h do
    local dy = ry > 0 and (y + row - cy) / ry or 0
    local hw = rx * math.sqrt(math.max(0, 1 - dy * dy))
    local l, r = math.floor(cx - hw + 0.5), math.floor(cx + hw + 0.5)
    if r > x + w then r = x + w end
    if fill and r - l >= 2 then line(l + 1, y + row, r - 1, y + row, fill) end
    if stroke ~= false then
      if pl then
        line(pl, y + row - 1, l, y + row, stroke)
        line(pr, y + row - 1, r, y + row, stroke)
      else
        line(l, y, r, y, stroke)
      end
    end
    pl, pr = l, r
  end
  if stroke ~= false and pl then line(pl, y + h, pr, y + h, stroke) end
end
local function points_of(points, who)
  if type(points) ~= "table" then error(who .. ": expected a table of {x, y} points", 3) end
  local pts = {}
  for i, p in ipairs(points) do
    local px, py = p[1] or p.x, p[2] or p.y
    if math.type(px) == nil or math.type(py) == nil then
      error(who .. ": point " .. i .. " is not {x, y}", 3)
    end
    pts[i] = { math.floor(px), math.floor(py) }
  end
  return pts
end
function gui.polyline(points, color)
  local pts = points_of(points, "gui.polyline")
  for i = 2, #pts do line(pts[i - 1][1], pts[i - 1][2], pts[i][1], pts[i][2], color) end
end
function gui.polygon(points, stroke, fill)
  local pts = points_of(points, "gui.polygon")
  local n = #pts
  if n == 0 then return end
  if fill then
    local miny, maxy = math.huge, -math.huge
    for _, p in ipairs(pts) do miny, maxy = math.min(miny, p[2]), math.max(maxy, p[2]) end
    for yy = miny, maxy do
      -- Crossings of the row's centre line, even-odd.
      local xs, c = {}, yy + 0.5
      for i = 1, n do
        local a, b = pts[i], pts[i % n + 1]
        if (a[2] <= c) ~= (b[2] <= c) then
          xs[#xs + 1] = a[1] + (c - a[2]) * (b[1] - a[1]) / (b[2] - a[2])
        end
      end
      table.sort(xs)
      for k = 1, #xs - 1, 2 do
        local l, r = math.ceil(xs[k] - 0.5), math.floor(xs[k + 1] - 0.5)
        if r >= l then line(l, yy, r, yy, fill) end
      end
    end
  end
  if stroke ~= false then
    for i = 1, n do
      local a, b = pts[i], pts[i % n + 1]
      line(a[1], a[2], b[1], b[2], stroke)
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
for _, name in ipairs({ "memory", "emu", "joypad", "event", "gui", "console", "savestate", "apu" }) do
  strict(name, _G[name])
end
gbhost.strict = strict

-- What a compatibility layer's emulator offers and gbhost does not: a function that raises one
-- clear error when called ("X is not supported by gbhost: why"). Looking it up never fails.
-- `gbhost.stubs` maps each such function to its reason (the API docs' status column).
gbhost.stubs = setmetatable({}, { __mode = "k" })
function gbhost.unsupported(name, why)
  local fn = function()
    error(name .. " is not supported by gbhost" .. (why and (": " .. why) or ""), 2)
  end
  gbhost.stubs[fn] = why or ""
  return fn
end
-- Make every name `t` lacks a stub ("lib.name", or "lib:name" with `sep` ":"), with `why`.
function gbhost.stub_library(t, lib, why, sep)
  local mt = getmetatable(t) or {}
  mt.__index = function(_, k) return gbhost.unsupported(lib .. (sep or ".") .. tostring(k), why) end
  return setmetatable(t, mt)
end

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
  -- The script's command-line arguments: none.
  arg = arg or { n = 0 }
end

-- The sandbox has no processes, debug library or native code, and no files but those of the
-- script's own folder (`io` below): calling one of their functions is a clear error naming
-- what was tried. Looking one up is not an error (scripts take aliases at load), and
-- `debug`'s names are nil, so that probes such as `debug and debug.getmetatable` see them
-- missing, except the ones that would reach past the script's own values, which raise when
-- called; `debug.traceback` returns the message.
local function sandboxed(lib, t)
  return setmetatable(t or {}, {
    __index = function(_, k)
      return function()
        error(string.format("%s.%s is not available: gbhost scripts run in a sandbox (no " ..
          "processes or native code; files only inside the script's folder)", lib, tostring(k)), 2)
      end
    end,
  })
end
for _, lib in ipairs({ "package", "ffi", "jit" }) do _G[lib] = sandboxed(lib) end

-- Time on the emulated clock (see api/io.rs): os.time counts from the session's logged start
-- time, os.clock from power-on, both in emulated seconds, so a rewind replays the same values.
-- Dates are UTC (a replay on another machine must see the same text).
local clock = gbhost.clock
local HZ = 4194304
local function days_from_civil(y, m, d)
  if m <= 2 then y = y - 1 end
  local era = y // 400
  local yoe = y - era * 400
  local doy = (153 * ((m + 9) % 12) + 2) // 5 + d - 1
  return era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468
end
local function civil_from_days(z)
  z = z + 719468
  local era = z // 146097
  local doe = z - era * 146097
  local yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
  local doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
  local mp = (5 * doy + 2) // 153
  local d = doy - (153 * mp + 2) // 5 + 1
  local m = mp < 10 and mp + 3 or mp - 9
  local y = yoe + era * 400
  if m <= 2 then y = y + 1 end
  return y, m, d
end
local function now()
  local start, cycles = clock()
  return start + cycles // HZ
end
local function date_table(t)
  local days, secs = t // 86400, t % 86400
  local y, m, d = civil_from_days(days)
  return { year = y, month = m, day = d, hour = secs // 3600, min = secs % 3600 // 60,
           sec = secs % 60, wday = (days + 4) % 7 + 1,
           yday = days - days_from_civil(y, 1, 1) + 1, isdst = false }
end
local DAYS = { "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday" }
local MONTHS = { "January", "February", "March", "April", "May", "June", "July", "August",
                 "September", "October", "November", "December" }
local function strftime(fmt, t)
  local function conv(c)
    if c == "a" then return DAYS[t.wday]:sub(1, 3)
    elseif c == "A" then return DAYS[t.wday]
    elseif c == "b" or c == "h" then return MONTHS[t.month]:sub(1, 3)
    elseif c == "B" then return MONTHS[t.month]
    elseif c == "c" then return strftime("%a %b %e %H:%M:%S %Y", t)
    elseif c == "C" then return string.format("%02d", t.year // 100)
    elseif c == "d" then return string.format("%02d", t.day)
    elseif c == "D" or c == "x" then return strftime("%m/%d/%y", t)
    elseif c == "e" then return string.format("%2d", t.day)
    elseif c == "F" then return strftime("%Y-%m-%d", t)
    elseif c == "H" then return string.format("%02d", t.hour)
    elseif c == "I" then return string.format("%02d", (t.hour + 11) % 12 + 1)
    elseif c == "j" then return string.format("%03d", t.yday)
    elseif c == "m" then return string.format("%02d", t.month)
    elseif c == "M" then return string.format("%02d", t.min)
    elseif c == "n" then return "\n"
    elseif c == "p" then return t.hour < 12 and "AM" or "PM"
    elseif c == "r" then return strftime("%I:%M:%S %p", t)
    elseif c == "R" then return strftime("%H:%M", t)
    elseif c == "S" then return string.format("%02d", t.sec)
    elseif c == "t" then return "\t"
    elseif c == "T" or c == "X" then return strftime("%H:%M:%S", t)
    elseif c == "u" then return tostring((t.wday + 5) % 7 + 1)
    elseif c == "w" then return tostring(t.wday - 1)
    elseif c == "y" then return string.format("%02d", t.year % 100)
    elseif c == "Y" then return tostring(t.year)
    elseif c == "z" then return "+0000"
    elseif c == "Z" then return "UTC"
    elseif c == "%" then return "%"
    end
    error("bad argument #1 to 'date' (invalid conversion specifier '%" .. c .. "')", 4)
  end
  return (fmt:gsub("%%(.)", conv))
end
os = sandboxed("os", {
  time = function(t)
    if t == nil then return now() end
    if type(t) ~= "table" then error("bad argument #1 to 'time' (table expected)", 2) end
    local function field(k, default)
      local v = t[k]
      if v == nil then
        if default == nil then error("field '" .. k .. "' missing in date table", 3) end
        return default
      end
      return math.tointeger(v) or error("field '" .. k .. "' is not an integer", 3)
    end
    local y, m = field("year"), field("month")
    y, m = y + (m - 1) // 12, (m - 1) % 12 + 1
    return days_from_civil(y, m, 1) * 86400 + (field("day") - 1) * 86400 + field("hour", 12) * 3600
      + field("min", 0) * 60 + field("sec", 0)
  end,
  clock = function()
    local _, cycles = clock()
    return cycles / HZ
  end,
  date = function(fmt, t)
    fmt = fmt or "%c"
    t = t or now()
    if fmt:sub(1, 1) == "!" then fmt = fmt:sub(2) end
    local tt = date_table(math.tointeger(t) or math.floor(t))
    if fmt:sub(1, 2) == "*t" then return tt end
    return strftime(fmt, tt)
  end,
  difftime = function(a, b) return (a - (b or 0)) * 1.0 end,
  getenv = function() return nil end,
  setlocale = function(l) if l == nil or l == "" or l == "C" then return "C" end return nil end,
})

-- Files of the script's own folder (see api/io.rs): a read is logged and checked on replays; a
-- write is made live and skipped on replays. Writes go to the file at once (no buffering), so
-- a crash loses nothing; "+" modes keep the file in memory and write it whole.
local file_read, file_write = gbhost.file_read, gbhost.file_write
local File = {}
File.__index = File
File.__name = "FILE*"
local function check_open(f, who)
  if getmetatable(f) ~= File then error("bad argument #1 to '" .. who .. "' (FILE* expected)", 3) end
  if f.closed then error("attempt to use a closed file", 3) end
end
local function read_one(f, fmt)
  local data, pos = f.data, f.pos
  if math.type(fmt) == "integer" then
    if pos > #data and fmt > 0 then return nil end
    f.pos = pos + fmt
    return data:sub(pos, pos + fmt - 1)
  end
  fmt = tostring(fmt):gsub("^%*", ""):sub(1, 1)
  if fmt == "a" then f.pos = #data + 1 return data:sub(pos) end
  if pos > #data then return nil end
  if fmt == "l" or fmt == "L" then
    local e = data:find("\n", pos, true)
    local line = data:sub(pos, (e or #data + 1) - 1)
    f.pos = (e or #data) + 1
    if fmt == "L" and e then line = line .. "\n" end
    return line
  end
  if fmt == "n" then
    local s, e = data:find("^%s*[-+]?[%w%.]+", pos)
    if not s then return nil end
    f.pos = e + 1
    return tonumber(data:sub(s, e))
  end
  error("bad argument #1 to 'read' (invalid format)", 3)
end
function File:read(...)
  check_open(self, "read")
  if not self.readable then return nil, self.path .. ": not open for reading" end
  local fmts, out = table.pack(...), {}
  if fmts.n == 0 then fmts = { "l", n = 1 } end
  for i = 1, fmts.n do
    out[i] = read_one(self, fmts[i])
    if out[i] == nil then return table.unpack(out, 1, i) end
  end
  return table.unpack(out, 1, fmts.n)
end
function File:lines(...)
  check_open(self, "lines")
  local fmts = table.pack(...)
  return function() return self:read(table.unpack(fmts, 1, fmts.n)) end
end
function File:write(...)
  check_open(self, "write")
  if not self.writable then return nil, self.path .. ": not open for writing" end
  local parts = {}
  for i, v in ipairs({ ... }) do
    if type(v) ~= "string" and type(v) ~= "number" then
      error("bad argument #" .. i .. " to 'write' (string expected, got " .. type(v) .. ")", 2)
    end
    parts[i] = tostring(v)
  end
  local s = table.concat(parts)
  local err
  if self.whole then
    self.data = self.data:sub(1, self.pos - 1) .. s .. self.data:sub(self.pos + #s)
    self.pos = self.pos + #s
    err = file_write(self.path, self.data, false)
  else
    err = file_write(self.path, s, true)
  end
  if err then return nil, err end
  return self
end
function File:seek(whence, offset)
  check_open(self, "seek")
  whence, offset = whence or "cur", offset or 0
  local base = ({ set = 0, cur = self.pos - 1, ["end"] = #self.data })[whence]
  if not base then error("bad argument #1 to 'seek' (invalid option '" .. tostring(whence) .. "')", 2) end
  local at = base + offset
  if at < 0 then return nil, "Invalid argument", 22 end
  self.pos = at + 1
  return at
end
function File:close() check_open(self, "close") self.closed = true return true end
function File:flush() check_open(self, "flush") return self end
function File:setvbuf() return true end
File.__tostring = function(f)
  return f.closed and "file (closed)" or "file (" .. f.path .. ")"
end

local function open(path, mode)
  if type(path) ~= "string" then
    error("bad argument #1 to 'open' (string expected, got " .. type(path) .. ")", 3)
  end
  mode = mode or "r"
  local kind, plus = mode:match("^([rwa])(%+?)b?$")
  if not kind then error("bad argument #2 to 'open' (invalid mode '" .. tostring(mode) .. "')", 3) end
  local f = setmetatable({ path = path, pos = 1, data = "", closed = false,
                           readable = kind == "r" or plus == "+", writable = kind ~= "r" or plus == "+",
                           whole = plus == "+" }, File)
  if kind == "r" or (kind == "a" and plus == "+") then
    local data, err = file_read(path)
    if not data then
      if kind == "r" then return nil, err, 2 end
      data = ""
    end
    f.data = data
    if kind == "a" then f.pos = #data + 1 end
  end
  if kind == "w" then
    local err = file_write(path, "", false)
    if err then return nil, err, 2 end
  end
  return f
end

-- The console as standard output: io.write's text goes to it line by line.
local pending = ""
local stdout = setmetatable({ path = "stdout", pos = 1, data = "", closed = false,
                              readable = false, writable = true }, File)
function stdout:write(...)
  local parts = {}
  for i, v in ipairs({ ... }) do parts[i] = tostring(v) end
  pending = pending .. table.concat(parts)
  while true do
    local e = pending:find("\n", 1, true)
    if not e then break end
    console.log(pending:sub(1, e - 1))
    pending = pending:sub(e + 1)
  end
  return self
end
function stdout:flush() if pending ~= "" then console.log(pending) pending = "" end return self end
local output = stdout
io = sandboxed("io", {
  open = function(path, mode) return open(path, mode) end,
  lines = function(path, ...)
    if path == nil then error("io.lines: gbhost scripts have no standard input", 2) end
    local f, err = open(path, "r")
    if not f then error(err, 2) end
    local fmts = table.pack(...)
    return function()
      local v = f:read(table.unpack(fmts, 1, fmts.n))
      if v == nil then f:close() end
      return v
    end
  end,
  close = function(f) return (f or output):close() end,
  read = function() return nil end,
  write = function(...) return output:write(...) end,
  output = function(f)
    if type(f) == "string" then output = assert(open(f, "w"))
    elseif f ~= nil then output = f end
    return output
  end,
  input = function() error("io.input: gbhost scripts have no standard input", 2) end,
  type = function(f)
    if getmetatable(f) ~= File then return nil end
    return f.closed and "closed file" or "file"
  end,
  stdout = stdout,
  stderr = stdout,
})
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
-- `require` loads modules from the script's own folder only: the host hands their texts over
-- when the script is loaded or reloaded (`gbhost.add_module`); nothing else can be read.
local modules, loaded = {}, {}
function gbhost.add_module(name, text) modules[name] = text end
function gbhost.clear_modules() modules, loaded = {}, {} end
-- `loadfile` and `dofile` of a .lua file beside the script: the module texts, as `require`
-- sees them (so a replay runs the same code).
local function module_of(path)
  if type(path) ~= "string" then return nil end
  local name = path:gsub("^%./", ""):gsub("%.lua$", ""):gsub("[/\\]", ".")
  return name, modules[name]
end
loadfile = function(path, mode, env)
  local name, text = module_of(path)
  if not text then
    return nil, string.format("cannot open %s: loadfile reads .lua files of the script's own " ..
      "folder only", tostring(path))
  end
  if mode ~= nil and not tostring(mode):find("t", 1, true) then
    return nil, "attempt to load a text chunk (mode is '" .. tostring(mode) .. "')"
  end
  return load(text, "@" .. name:gsub("%.", "/") .. ".lua", "t", env or _ENV)
end
dofile = function(path)
  local fn, err = loadfile(path)
  if not fn then error(err, 2) end
  return fn()
end
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
