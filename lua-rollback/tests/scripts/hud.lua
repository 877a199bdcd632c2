-- A Game Boy HUD / TAS helper script, BizHawk style, used by the sync test and the benchmark.
-- It runs as one coroutine resumed once per frame by the host, and exercises closures,
-- metatables, weak tables, string formatting every frame, nested coroutines, pcall with
-- error objects, to-be-closed variables, varargs, goto, utf8, sorting and periodic full GC.

local read_u8, read_u16 = memory.read_u8, memory.read_u16_le
local text, fmt, concat = gui.text, string.format, table.concat
local floor, max, min, abs = math.floor, math.max, math.min, math.abs

----------------------------------------------------------------------------
-- RAM map (Pokemon Red-like)
----------------------------------------------------------------------------
local RAM = {
  player_y   = 0xD361, player_x  = 0xD362, map_id = 0xD35E,
  money      = 0xD347, badges    = 0xD356, party_count = 0xD163,
  party_base = 0xD16B, party_stride = 44,
  rng_add    = 0xFFD3, rng_sub   = 0xFFD4, joy = 0xFFF8,
  enemy_hp   = 0xCFE6, enemy_lvl = 0xCFF3, battle = 0xD057,
  step_count = 0xD13B, safari_steps = 0xD70D, repel = 0xD0DB,
}
local PARTY_FIELDS = {
  { name = "species", off = 0,  size = 1 },
  { name = "hp",      off = 1,  size = 2 },
  { name = "level",   off = 33, size = 1 },
  { name = "maxhp",   off = 34, size = 2 },
  { name = "atk",     off = 36, size = 2 },
  { name = "def",     off = 38, size = 2 },
  { name = "spd",     off = 40, size = 2 },
  { name = "spc",     off = 42, size = 2 },
}
local MAP_NAMES = {}
for i = 0, 247 do MAP_NAMES[i] = fmt("MAP_%02X", i) end
MAP_NAMES[0] = "PALLET TOWN"; MAP_NAMES[1] = "VIRIDIAN CITY"; MAP_NAMES[2] = "PEWTER CITY"
MAP_NAMES[12] = "ROUTE 1"; MAP_NAMES[13] = "ROUTE 2"; MAP_NAMES[51] = "VIRIDIAN FOREST"

----------------------------------------------------------------------------
-- small classes with metatables
----------------------------------------------------------------------------
local Vec2 = {}
Vec2.__index = Vec2
function Vec2.new(x, y) return setmetatable({ x = x, y = y }, Vec2) end
function Vec2.__add(a, b) return Vec2.new(a.x + b.x, a.y + b.y) end
function Vec2.__sub(a, b) return Vec2.new(a.x - b.x, a.y - b.y) end
function Vec2.__eq(a, b) return a.x == b.x and a.y == b.y end
function Vec2.__lt(a, b) return a.x < b.x or (a.x == b.x and a.y < b.y) end
function Vec2.__le(a, b) return not (b < a) end
function Vec2.__tostring(v) return fmt("(%d,%d)", v.x, v.y) end
function Vec2.__concat(a, b) return tostring(a) .. tostring(b) end
function Vec2:len1() return abs(self.x) + abs(self.y) end

local Ring = {}
Ring.__index = Ring
function Ring.new(n) return setmetatable({ n = n, i = 0, count = 0, buf = {} }, Ring) end
function Ring:push(v)
  self.i = self.i % self.n + 1
  self.buf[self.i] = v
  if self.count < self.n then self.count = self.count + 1 end
end
function Ring:get(k) -- k = 0 newest
  if k >= self.count then return nil end
  local idx = (self.i - 1 - k) % self.n + 1
  return self.buf[idx]
end
Ring.__len = function(self) return self.count end

-- Inheritance: a ring that also keeps a running sum.
local SumRing = setmetatable({}, { __index = Ring })
SumRing.__index = SumRing
SumRing.__len = Ring.__len
function SumRing.new(n)
  local r = Ring.new(n)
  r.sum = 0
  return setmetatable(r, SumRing)
end
function SumRing:push(v)
  local old = self.count == self.n and self:get(self.n - 1) or 0
  Ring.push(self, v)
  self.sum = self.sum - old + v
end
function SumRing:mean() return self.count > 0 and self.sum / self.count or 0 end

-- A read-only proxy with __index / __newindex functions and a __call.
local function readonly(t, name)
  return setmetatable({}, {
    __index = function(_, k) return t[k] end,
    __newindex = function(_, k) error({ code = "readonly", key = k, table = name }) end,
    __call = function(_, k, default) local v = t[k]; if v == nil then return default end; return v end,
    __len = function() return #t end,
  })
end
local CONST = readonly({ tile = 16, width = 160, height = 144, "a", "b", "c" }, "CONST")

----------------------------------------------------------------------------
-- helpers / closures with upvalues
----------------------------------------------------------------------------
local function bcd(addr, nbytes)
  local v = 0
  for i = 0, nbytes - 1 do
    local b = read_u8(addr + i)
    v = v * 100 + (b >> 4) * 10 + (b & 15)
  end
  return v
end

local function counter()
  local n = 0
  return function(step) n = n + (step or 1); return n end
end
local lag_frames = counter()
local input_frames = counter()

local function memoize(f)
  local cache = setmetatable({}, { __mode = "k" })
  local hits = 0
  return function(k)
    local v = cache[k]
    if v == nil then v = f(k); cache[k] = v else hits = hits + 1 end
    return v
  end, function() return hits end
end
local map_name, map_hits = memoize(function(id) return MAP_NAMES[id] or fmt("?%d", id) end)

-- Weak-valued string cache: entries vanish when the GC runs.
local label_cache = setmetatable({}, { __mode = "v" })
local label_misses = 0
local function label(kind, n)
  local key = kind .. ":" .. n
  local v = label_cache[key]
  if not v then
    label_misses = label_misses + 1
    v = { text = fmt("%s #%03d", kind:upper(), n) }
    label_cache[key] = v
  end
  return v.text
end

local function bar(cur, maxv, width)
  if maxv <= 0 then maxv = 1 end
  local n = floor(cur * width / maxv + 0.5)
  n = min(max(n, 0), width)
  return "[" .. string.rep("#", n) .. string.rep(".", width - n) .. "]"
end

local function sum(...)
  local s = 0
  for i = 1, select("#", ...) do s = s + (select(i, ...) or 0) end
  return s
end

local function read_party_member(i)
  local base = RAM.party_base + i * RAM.party_stride
  local m = {}
  for _, f in ipairs(PARTY_FIELDS) do
    if f.size == 1 then m[f.name] = read_u8(base + f.off)
    else m[f.name] = (read_u8(base + f.off) << 8) | read_u8(base + f.off + 1) end
  end
  return m
end

----------------------------------------------------------------------------
-- statistics (string keyed table: pairs() order depends on the string hash seed)
----------------------------------------------------------------------------
local stats = { steps = 0, encounters = 0, max_speed = 0, lag = 0, resets = 0, idle = 0 }
local stat_names = {}
for k in pairs(stats) do stat_names[#stat_names + 1] = k end
table.sort(stat_names)

local history = Ring.new(120)
local speeds = SumRing.new(30)
local log = {}
local log_max = 8

local function logf(...)
  log[#log + 1] = fmt(...)
  if #log > log_max then table.remove(log, 1) end
end

----------------------------------------------------------------------------
-- nested coroutine: animated status line
----------------------------------------------------------------------------
local anim = coroutine.wrap(function()
  local phases = { "|", "/", "-", "\\" }
  local k = 0
  while true do
    for _, p in ipairs(phases) do
      for _ = 1, 4 do
        k = k + 1
        coroutine.yield(p .. " " .. k)
      end
    end
  end
end)

-- A generator coroutine created and finished every few frames.
local function range_gen(n)
  return coroutine.wrap(function() for i = 1, n do coroutine.yield(i * i) end end)
end

----------------------------------------------------------------------------
-- error handling with error objects and to-be-closed variables
----------------------------------------------------------------------------
local closes = 0
local function guarded(frame)
  local ok, err = pcall(function()
    local res <close> = setmetatable({}, { __close = function() closes = closes + 1 end })
    if frame % 7 == 0 then CONST.width = 1 end -- raises a table error
    if frame % 11 == 0 then error(fmt("plain error at %d", frame), 0) end
    return frame
  end)
  if ok then return "ok" end
  if type(err) == "table" then return "E:" .. err.code .. ":" .. tostring(err.key) end
  return "E:" .. err
end

----------------------------------------------------------------------------
-- TAS luck manipulation: decide inputs from RNG bytes
----------------------------------------------------------------------------
local BUTTONS = { A = 1, B = 2, SELECT = 4, START = 8, RIGHT = 16, LEFT = 32, UP = 64, DOWN = 128 }
local plan = {}
local function plan_inputs(frame)
  local add, sub = read_u8(RAM.rng_add), read_u8(RAM.rng_sub)
  local want = (add + sub) % 7 == 0
  local mask = 0
  if want then mask = mask | BUTTONS.A end
  if frame % 16 < 8 then mask = mask | BUTTONS.RIGHT else mask = mask | BUTTONS.DOWN end
  if math.random(100) <= 3 then mask = mask | BUTTONS.B end
  plan[#plan + 1] = mask
  if #plan > 64 then
    local np = {}
    for i = 33, #plan do np[#np + 1] = plan[i] end
    plan = np
  end
  return mask
end

-- Text utilities: gsub with captures and a function, utf8, goto.
local function title_case(s)
  return (s:lower():gsub("(%a)([%w]*)", function(a, b) return a:upper() .. b end))
end
local function utf8_arrow(n)
  local arrows = { 0x2190, 0x2191, 0x2192, 0x2193 }
  return utf8.char(arrows[n % 4 + 1])
end
local function first_odd(t)
  for i = 1, #t do
    if t[i] % 2 == 1 then goto found end
    goto continue
    ::found::
    do return t[i] end
    ::continue::
  end
  return nil
end

----------------------------------------------------------------------------
-- per-frame drawing
----------------------------------------------------------------------------
local last_pos = Vec2.new(0, 0)
local last_map = -1
local gc_every = GC_EVERY or 100
local leaderboard = {}

local function draw(frame)
  local pos = Vec2.new(read_u8(RAM.player_x), read_u8(RAM.player_y))
  local map = read_u8(RAM.map_id)
  local delta = pos - last_pos
  local speed = delta:len1()
  speeds:push(speed)
  history:push(pos)
  if speed > stats.max_speed then stats.max_speed = speed end
  if pos == last_pos then stats.idle = stats.idle + 1 else stats.steps = stats.steps + 1 end
  if map ~= last_map then
    logf("f%d: entered %s", frame, title_case(map_name(map)))
    last_map = map
  end
  last_pos = pos

  local y = 0
  local function line(s) text(2, y, s); y = y + 8 end

  line(fmt("Frame %6d  Map %-16s %s", frame, map_name(map), utf8_arrow(frame)))
  line(fmt("Pos %s  d=%s  v=%d", tostring(pos), tostring(delta), speed))
  line(fmt("Money $%06d  Badges %8s", bcd(RAM.money, 3), fmt("%x", read_u8(RAM.badges))))
  local s = 0
  for k = 0, #speeds - 1 do s = s + speeds:get(k) end
  line(fmt("Avg speed %.2f (%.3f) over %d", s / max(1, #speeds), speeds:mean(), #speeds))

  local count = read_u8(RAM.party_count) % 7
  for i = 0, count - 1 do
    local m = read_party_member(i)
    local maxhp = max(1, m.maxhp)
    local hp = m.hp % (maxhp + 1)
    line(fmt("#%d L%-3d %3d/%-3d %s A%d D%d S%d %s", i + 1, m.level, hp, maxhp,
      bar(hp, maxhp, 10), m.atk, m.def, m.spd, label("mon", m.species % 32)))
  end

  local parts = {}
  for _, k in ipairs(stat_names) do parts[#parts + 1] = k .. "=" .. stats[k] end
  line(concat(parts, " "))
  -- iterate a string-keyed table with pairs() (order = hash order)
  local order = {}
  for k, v in pairs(RAM) do if v > 0xFF00 then order[#order + 1] = k end end
  line("hi-ram: " .. concat(order, ","))

  local trail = {}
  for k = 0, 9 do
    local p = history:get(k * 4)
    if p then trail[#trail + 1] = tostring(p) end
  end
  line("trail " .. concat(trail, " "))

  -- leaderboard of positions, sorted with a comparator using __lt
  leaderboard[#leaderboard + 1] = pos
  if #leaderboard > 12 then table.remove(leaderboard, 1) end
  local sorted = { table.unpack(leaderboard) }
  table.sort(sorted, function(a, b) return a < b end)
  line("best " .. (sorted[1] .. sorted[#sorted]) .. " odd " .. tostring(first_odd({ frame, frame + 1 })))

  line(fmt("RNG %02X %02X  %s  memo %d  labels %d  %s", read_u8(RAM.rng_add), read_u8(RAM.rng_sub),
    anim(), map_hits(), label_misses, guarded(frame)))
  if frame % 5 == 0 then
    local acc = {}
    for v in range_gen(frame % 9 + 1) do acc[#acc + 1] = v end
    line("squares " .. concat(acc, "+") .. "=" .. sum(table.unpack(acc)))
  end
  line(fmt("const %d x %d tile %d len %d %s", CONST.width, CONST.height, CONST("tile"), #CONST, CONST("none", "-")))
  for i, l in ipairs(log) do line(fmt("%d> %s", i, l)) end
end

----------------------------------------------------------------------------
-- main loop
----------------------------------------------------------------------------
while true do
  local frame = emu.framecount()
  draw(frame)
  local mask = plan_inputs(frame)
  if mask ~= 0 then input_frames() else lag_frames() end
  joypad.set(mask)
  if frame % 60 == 0 then
    print(fmt("minute mark %d: closes=%d inputs=%d lag=%d kb=%.1f", frame, closes,
      input_frames(0), lag_frames(0), collectgarbage("count")))
  end
  if gc_every > 0 and frame % gc_every == 0 then collectgarbage("collect") end
  emu.frameadvance()
end
