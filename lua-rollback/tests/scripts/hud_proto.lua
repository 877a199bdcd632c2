-- The research prototype's HUD script, copied verbatim from the shared research folder
-- (shared/research/lua-proto/lua/hud.lua, 234 lines, below) so that the rollback benchmark
-- compares with the figures in shared/research/lua-rollback.md without reading outside the
-- repository. The sync test's own, larger HUD is hud.lua beside this file.
-- Typical Game Boy HUD / TAS helper script (BizHawk style).
-- Runs as ONE coroutine resumed once per frame by the host.

local read_u8, read_u16 = memory.read_u8, memory.read_u16_le
local text, fmt, concat = gui.text, string.format, table.concat

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
function Vec2.__tostring(v) return fmt("(%d,%d)", v.x, v.y) end
function Vec2:len1() return math.abs(self.x) + math.abs(self.y) end

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

local function bar(cur, max, width)
  if max <= 0 then max = 1 end
  local n = math.floor(cur * width / max + 0.5)
  if n > width then n = width end
  if n < 0 then n = 0 end
  return "[" .. string.rep("#", n) .. string.rep(".", width - n) .. "]"
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
-- statistics (string keyed table: pairs() order depends on string hash seed)
----------------------------------------------------------------------------
local stats = { steps = 0, encounters = 0, max_speed = 0, lag = 0, resets = 0, idle = 0 }
local stat_names = {}
for k in pairs(stats) do stat_names[#stat_names + 1] = k end
table.sort(stat_names)

local history = Ring.new(120)
local speeds = Ring.new(30)
local log = {}
local log_max = 8

local function logf(...)
  log[#log + 1] = fmt(...)
  if #log > log_max then table.remove(log, 1) end
end

----------------------------------------------------------------------------
-- nested coroutine: blinking / animated status line
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

----------------------------------------------------------------------------
-- per-frame drawing
----------------------------------------------------------------------------
local last_pos = Vec2.new(0, 0)
local last_map = -1
local gc_every = GC_EVERY or 0

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
    logf("f%d: entered %s", frame, map_name(map))
    last_map = map
  end
  last_pos = pos

  local y = 0
  local function line(s) text(2, y, s); y = y + 8 end

  line(fmt("Frame %6d  Map %-16s", frame, map_name(map)))
  line(fmt("Pos %s  d=%s  v=%d", tostring(pos), tostring(delta), speed))
  line(fmt("Money $%06d  Badges %8s", bcd(RAM.money, 3), fmt("%x", read_u8(RAM.badges))))
  local sum = 0
  for k = 0, #speeds - 1 do sum = sum + speeds:get(k) end
  line(fmt("Avg speed %.2f over %d", sum / math.max(1, #speeds), #speeds))

  local count = read_u8(RAM.party_count) % 7
  for i = 0, count - 1 do
    local m = read_party_member(i)
    local maxhp = math.max(1, m.maxhp)
    local hp = m.hp % (maxhp + 1)
    line(fmt("#%d L%-3d %3d/%-3d %s A%d D%d S%d", i + 1, m.level, hp, maxhp, bar(hp, maxhp, 10), m.atk, m.def, m.spd))
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

  line(fmt("RNG %02X %02X  %s  memo hits %d", read_u8(RAM.rng_add), read_u8(RAM.rng_sub), anim(), map_hits()))
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
  if gc_every > 0 and frame % gc_every == 0 then collectgarbage("collect") end
  emu.frameadvance()
end
