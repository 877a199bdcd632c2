-- BizHawk compatibility layer (run after prelude.lua for scripts written for BizHawk's Game Boy
-- cores): memory domains by BizHawk's names, mainmemory on WRAM, gui.draw*, joypad with
-- BizHawk's button names and controller argument, event.on*, userdata, savestate slots, the
-- `bit` library. What BizHawk offers and gbhost does not is a function that raises one clear
-- "not supported by gbhost" error when called: looking a name up never fails (scripts take
-- aliases of whole libraries at load), and a library gbhost lacks is nil, so probes work.

gbhost.lua51()

local native = {
  memory = {}, gui = gui, joypad = joypad, event = event, emu = emu, savestate = savestate,
}
for k, v in pairs(memory) do native.memory[k] = v end

local DOMAINS = {
  ["System Bus"] = "bus", ["WRAM"] = "wram", ["ROM"] = "rom", ["VRAM"] = "vram", ["OAM"] = "oam",
  ["HRAM"] = "hram", ["CartRAM"] = "cartram", ["IO"] = "io",
}
local DOMAIN_LIST = { "WRAM", "ROM", "VRAM", "OAM", "HRAM", "System Bus", "CartRAM" }
local current = "System Bus"

local unsupported = gbhost.unsupported

-- The native name of a BizHawk domain name: one of DOMAINS, or on a linked pair a player's
-- as BizHawk's link core names them ("P1 WRAM", "P2 System Bus": `p2 wram` natively).
local function native_name(d)
  local n = DOMAINS[d]
  if n then return n end
  if type(d) ~= "string" or native.emu.players() < 2 then return nil end
  local p, rest = d:match("^P([12]) (.+)$")
  if p and DOMAINS[rest] then return "p" .. p .. " " .. DOMAINS[rest] end
  return nil
end

local function domain_list()
  local t = {}
  for i, n in ipairs(DOMAIN_LIST) do t[i] = n end
  if native.emu.players() > 1 then
    for p = 1, 2 do
      for _, n in ipairs(DOMAIN_LIST) do t[#t + 1] = "P" .. p .. " " .. n end
    end
  end
  return t
end

local function dom(d)
  if d == nil then return native_name(current) end
  local n = native_name(d)
  if not n then error("memory domain '" .. tostring(d) .. "' does not exist (gbhost has: " ..
    table.concat(domain_list(), ", ") .. ")", 3) end
  return n
end

-- SHA-256 (FIPS 180-4) of a byte string, as upper-case hex.
local K256 = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}
local function sha256(msg)
  local M = 0xFFFFFFFF
  local function rotr(x, n) return ((x >> n) | (x << (32 - n))) & M end
  local h = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
              0x5be0cd19 }
  local len = #msg
  msg = msg .. "\128" .. string.rep("\0", (55 - len) % 64) .. string.pack(">I8", len * 8)
  local w = {}
  for chunk = 1, #msg, 64 do
    for i = 1, 16 do w[i] = string.unpack(">I4", msg, chunk + (i - 1) * 4) end
    for i = 17, 64 do
      local a, b = w[i - 15], w[i - 2]
      local s0 = rotr(a, 7) ~ rotr(a, 18) ~ (a >> 3)
      local s1 = rotr(b, 17) ~ rotr(b, 19) ~ (b >> 10)
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) & M
    end
    local a, b, c, d, e, f, g, hh = h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8]
    for i = 1, 64 do
      local t1 = (hh + (rotr(e, 6) ~ rotr(e, 11) ~ rotr(e, 25)) + ((e & f) ~ (~e & g)) + K256[i]
                  + w[i]) & M
      local t2 = ((rotr(a, 2) ~ rotr(a, 13) ~ rotr(a, 22)) + ((a & b) ~ (a & c) ~ (b & c))) & M
      hh, g, f, e, d, c, b, a = g, f, e, (d + t1) & M, c, b, a, (t1 + t2) & M
    end
    for i, v in ipairs({ a, b, c, d, e, f, g, hh }) do h[i] = (h[i] + v) & M end
  end
  return string.format(string.rep("%08X", 8), table.unpack(h))
end

-- Bind `t`'s accessors of every width to the host functions of `domain` (BizHawk's name):
-- a call is one host call, as fast as the native one; an explicit domain argument still wins.
local WIDTHS = { "u8", "s8", "u16_le", "u16_be", "s16_le", "s16_be", "u32_le", "u32_be",
                 "s32_le", "s32_be" }
local function bind(t, domain)
  local n = native_name(domain)
  if DOMAINS[domain] then
    local a = gbhost.accessors(n)
    for _, w in ipairs(WIDTHS) do
      t["read_" .. w], t["write_" .. w] = a["read_" .. w], a["write_" .. w]
    end
  else
    -- A linked pair's player's domain: the native calls with it named.
    for _, w in ipairs(WIDTHS) do
      local r, wr = native.memory["read_" .. w], native.memory["write_" .. w]
      t["read_" .. w] = function(a, d) return r(a, d and dom(d) or n) end
      t["write_" .. w] = function(a, v, d) return wr(a, v, d and dom(d) or n) end
    end
  end
  t.readbyte, t.writebyte = t.read_u8, t.write_u8
end

local function accessors(t, fixed)
  local function pick(d) if fixed then return native_name(fixed) end return dom(d) end
  bind(t, fixed or current)
  -- BizHawk's 24-bit accessors.
  t.read_u24_le = function(a, d) return t.read_u16_le(a, d) | (t.read_u8(a + 2, d) << 16) end
  t.read_u24_be = function(a, d) return (t.read_u16_be(a, d) << 8) | t.read_u8(a + 2, d) end
  local function s24(v) if v >= 0x800000 then return v - 0x1000000 end return v end
  t.read_s24_le = function(a, d) return s24(t.read_u24_le(a, d)) end
  t.read_s24_be = function(a, d) return s24(t.read_u24_be(a, d)) end
  t.write_u24_le = function(a, v, d)
    t.write_u16_le(a, v & 0xFFFF, d) t.write_u8(a + 2, (v >> 16) & 0xFF, d)
  end
  t.write_u24_be = function(a, v, d)
    t.write_u16_be(a, (v >> 8) & 0xFFFF, d) t.write_u8(a + 2, v & 0xFF, d)
  end
  t.write_s24_le, t.write_s24_be = t.write_u24_le, t.write_u24_be
  t.read_bytes_as_array = function(a, n, d)
    local s = native.memory.read_bytes(a, n, pick(d))
    local arr = {}
    for i = 1, #s do arr[i] = s:byte(i) end
    return arr
  end
  t.write_bytes_as_array = function(a, arr, d)
    local chars = {}
    for i, b in ipairs(arr) do chars[i] = string.char(b & 0xFF) end
    native.memory.write_bytes(a, table.concat(chars), pick(d))
  end
  t.read_bytes_as_dict = function(a, n, d)
    local s = native.memory.read_bytes(a, n, pick(d))
    local dict = {}
    for i = 1, #s do dict[a + i - 1] = s:byte(i) end
    return dict
  end
  t.readbyterange = t.read_bytes_as_dict
  -- A table of address = byte pairs, written in address order.
  t.writebyterange = function(bytes, d)
    local addrs = {}
    for a in pairs(bytes) do addrs[#addrs + 1] = a end
    table.sort(addrs)
    for _, a in ipairs(addrs) do t.write_u8(a, bytes[a] & 0xFF, d) end
  end
  -- SHA-256 of a region, upper-case hex (BizHawk's hash_region).
  t.hash_region = function(a, n, d) return sha256(native.memory.read_bytes(a, n, pick(d))) end
  t.getcurrentmemorydomainsize = function() return native.memory.size(pick(nil)) end
  return t
end

memory = accessors({})
-- The default domain of `memory`'s accessors (BizHawk's "System Bus" at first). A function
-- taken from `memory` before the change keeps the domain it had.
memory.usememorydomain = function(name)
  if native_name(name) then current = name bind(memory, name) return true end
  return false
end
memory.getcurrentmemorydomain = function() return current end
memory.getmemorydomainlist = domain_list
memory.getmemorydomainsize = function(name) return native.memory.size(dom(name)) end

mainmemory = accessors({}, "WRAM")
mainmemory.getname = function() return "WRAM" end
mainmemory.getcurrentmemorydomainsize = function() return native.memory.size("wram") end

-- gui: BizHawk colours are 0xAARRGGBB integers, "#RRGGBB"/"#AARRGGBB" strings, or .NET colour
-- names (case-insensitive), with .NET's meanings: "green" is #008000, "purple" #800080, "lime"
-- #00FF00, "transparent" clear white.
local NET = { transparent = 0x00FFFFFF }
do
  local words = {}
  for w in ([[
aliceblue F0F8FF antiquewhite FAEBD7 aqua 00FFFF aquamarine 7FFFD4 azure F0FFFF beige F5F5DC
bisque FFE4C4 black 000000 blanchedalmond FFEBCD blue 0000FF blueviolet 8A2BE2 brown A52A2A
burlywood DEB887 cadetblue 5F9EA0 chartreuse 7FFF00 chocolate D2691E coral FF7F50
cornflowerblue 6495ED cornsilk FFF8DC crimson DC143C cyan 00FFFF darkblue 00008B darkcyan 008B8B
darkgoldenrod B8860B darkgray A9A9A9 darkgreen 006400 darkkhaki BDB76B darkmagenta 8B008B
darkolivegreen 556B2F darkorange FF8C00 darkorchid 9932CC darkred 8B0000 darksalmon E9967A
darkseagreen 8FBC8B darkslateblue 483D8B darkslategray 2F4F4F darkturquoise 00CED1
darkviolet 9400D3 deeppink FF1493 deepskyblue 00BFFF dimgray 696969 dodgerblue 1E90FF
firebrick B22222 floralwhite FFFAF0 forestgreen 228B22 fuchsia FF00FF gainsboro DCDCDC
ghostwhite F8F8FF gold FFD700 goldenrod DAA520 gray 808080 green 008000 greenyellow ADFF2F
honeydew F0FFF0 hotpink FF69B4 indianred CD5C5C indigo 4B0082 ivory FFFFF0 khaki F0E68C
lavender E6E6FA lavenderblush FFF0F5 lawngreen 7CFC00 lemonchiffon FFFACD lightblue ADD8E6
lightcoral F08080 lightcyan E0FFFF lightgoldenrodyellow FAFAD2 lightgray D3D3D3 lightgreen 90EE90
lightpink FFB6C1 lightsalmon FFA07A lightseagreen 20B2AA lightskyblue 87CEFA
lightslategray 778899 lightsteelblue B0C4DE lightyellow FFFFE0 lime 00FF00 limegreen 32CD32
linen FAF0E6 magenta FF00FF maroon 800000 mediumaquamarine 66CDAA mediumblue 0000CD
mediumorchid BA55D3 mediumpurple 9370DB mediumseagreen 3CB371 mediumslateblue 7B68EE
mediumspringgreen 00FA9A mediumturquoise 48D1CC mediumvioletred C71585 midnightblue 191970
mintcream F5FFFA mistyrose FFE4E1 moccasin FFE4B5 navajowhite FFDEAD navy 000080 oldlace FDF5E6
olive 808000 olivedrab 6B8E23 orange FFA500 orangered FF4500 orchid DA70D6 palegoldenrod EEE8AA
palegreen 98FB98 paleturquoise AFEEEE palevioletred DB7093 papayawhip FFEFD5 peachpuff FFDAB9
peru CD853F pink FFC0CB plum DDA0DD powderblue B0E0E6 purple 800080 red FF0000 rosybrown BC8F8F
royalblue 4169E1 saddlebrown 8B4513 salmon FA8072 sandybrown F4A460 seagreen 2E8B57
seashell FFF5EE sienna A0522D silver C0C0C0 skyblue 87CEEB slateblue 6A5ACD slategray 708090
snow FFFAFA springgreen 00FF7F steelblue 4682B4 tan D2B48C teal 008080 thistle D8BFD8
tomato FF6347 turquoise 40E0D0 violet EE82EE wheat F5DEB3 white FFFFFF whitesmoke F5F5F5
yellow FFFF00 yellowgreen 9ACD32
  ]]):gmatch("%S+") do words[#words + 1] = w end
  for i = 1, #words, 2 do NET[words[i]] = 0xFF000000 | tonumber(words[i + 1], 16) end
end
local function color(c)
  if type(c) == "string" and c:sub(1, 1) ~= "#" then return NET[c:lower()] or c end
  return c
end
local g = native.gui
local function arc(x, y, w, h, start, sweep)
  local pts, steps = {}, math.max(2, math.ceil(math.abs(sweep) / 8))
  for k = 0, steps do
    local a = math.rad(start + sweep * k / steps)
    pts[k + 1] = { math.floor(x + w / 2 + w / 2 * math.cos(a) + 0.5),
                   math.floor(y + h / 2 + h / 2 * math.sin(a) + 0.5) }
  end
  return pts
end
gui = {
  text = function(x, y, msg, fg) g.text(x, y, tostring(msg), color(fg)) end,
  drawText = function(x, y, msg, fg, bg)
    if bg then g.box(x, y, x + 6 * #tostring(msg), y + 9, color(bg), color(bg)) end
    g.text(x, y, tostring(msg), color(fg))
  end,
  pixelText = function(x, y, msg, fg, bg)
    g.pixel_text(x, y, tostring(msg), color(fg), color(bg))
  end,
  drawBox = function(x1, y1, x2, y2, line, fill) g.box(x1, y1, x2, y2, color(line), color(fill)) end,
  drawRectangle = function(x, y, w, h, line, fill)
    g.box(x, y, x + w, y + h, color(line), color(fill))
  end,
  drawLine = function(x1, y1, x2, y2, c) g.line(x1, y1, x2, y2, color(c)) end,
  drawPixel = function(x, y, c) g.pixel(x, y, color(c)) end,
  clearGraphics = function() g.clear() end,
  cleartext = function() g.clear() end,
  -- Images of the script's folder (PNG), by the path the script gives ("img/a.png").
  drawImage = function(path, x, y, w, h) g.image(x, y, path, w, h) end,
  drawImageRegion = function(path, sx, sy, sw, sh, x, y, w, h)
    g.image_region(path, sx, sy, sw, sh, x, y, w, h)
  end,
  clearImageCache = function() end,
  drawEllipse = function(x, y, w, h, line, fill) g.ellipse(x, y, w, h, color(line), color(fill)) end,
  drawPolygon = function(points, ox, oy, line, fill)
    ox, oy = ox or 0, oy or 0
    local pts = {}
    for i, p in ipairs(points) do pts[i] = { (p[1] or p.x) + ox, (p[2] or p.y) + oy } end
    g.polygon(pts, color(line), color(fill))
  end,
  drawAxis = function(x, y, size, c)
    g.line(x - size, y, x + size, y, color(c))
    g.line(x, y - size, x, y + size, color(c))
  end,
  -- A cubic Bézier through four points, as 24 segments.
  drawBezier = function(points, c)
    local p = {}
    for i = 1, 4 do p[i] = { points[i][1] or points[i].x, points[i][2] or points[i].y } end
    local pts = {}
    for k = 0, 24 do
      local t = k / 24
      local a, b, cc, d = (1 - t) ^ 3, 3 * (1 - t) ^ 2 * t, 3 * (1 - t) * t ^ 2, t ^ 3
      pts[k + 1] = { math.floor(a * p[1][1] + b * p[2][1] + cc * p[3][1] + d * p[4][1] + 0.5),
                     math.floor(a * p[1][2] + b * p[2][2] + cc * p[3][2] + d * p[4][2] + 0.5) }
    end
    g.polyline(pts, color(c))
  end,
  -- .NET's arcs: degrees, clockwise from the x axis, on the ellipse in the box.
  drawArc = function(x, y, w, h, start, sweep, line)
    g.polyline(arc(x, y, w, h, start, sweep), color(line))
  end,
  drawPie = function(x, y, w, h, start, sweep, line, fill)
    local pts = arc(x, y, w, h, start, sweep)
    table.insert(pts, 1, { math.floor(x + w / 2 + 0.5), math.floor(y + h / 2 + 0.5) })
    g.polygon(pts, color(line), color(fill))
  end,
  addmessage = function(msg) console.log(tostring(msg)) end,
  -- One drawing surface here (the game's): the surface calls are accepted.
  DrawNew = function() end,
  DrawFinish = function() end,
  use_surface = function() end,
}
gui.drawString = gui.drawText

local NAMES = { "Right", "Left", "Up", "Down", "A", "B", "Select", "Start" }
local function bizhawk_buttons(t)
  local out = {}
  for k, v in pairs(t) do
    local name = tostring(k):gsub("^P1 ", "")
    out[name] = v
  end
  return out
end
joypad = {
  set = function(t, _controller) native.joypad.set(bizhawk_buttons(t)) end,
  setanalog = unsupported("joypad.setanalog", "the Game Boy has no analog input"),
  get = function(_controller) return native.joypad.get() end,
  getimmediate = function(_controller) return native.joypad.getimmediate() end,
  getwithmovie = function(_controller) return native.joypad.get() end,
}
local _ = NAMES

local names = {}
local function named(fn_register)
  return function(fn, name)
    local id = fn_register(fn)
    if name then names[name] = id end
    return id
  end
end
local e = native.event
event = {
  onframestart = named(e.on_frame_start),
  onframeend = named(e.on_frame_end),
  oninputpoll = named(e.on_input_poll),
  onloadstate = named(e.on_load_state),
  onexit = named(e.on_exit),
  unregisterbyid = function(id) return e.unregister(id) end,
  unregisterbyname = function(name)
    local id = names[name]
    names[name] = nil
    return id ~= nil and e.unregister(id)
  end,
  onmemoryread = function(fn, addr, name) return named(function(f) return e.on_bus_read(f, addr) end)(fn, name) end,
  onmemorywrite = function(fn, addr, name) return named(function(f) return e.on_bus_write(f, addr) end)(fn, name) end,
  onmemoryexecute = function(fn, addr, name) return named(function(f) return e.on_bus_exec(f, addr) end)(fn, name) end,
  onmemoryexecuteany = unsupported("event.onmemoryexecuteany"),
  on_bus_read = function(fn, addr, name) return named(function(f) return e.on_bus_read(f, addr) end)(fn, name) end,
  on_bus_write = function(fn, addr, name) return named(function(f) return e.on_bus_write(f, addr) end)(fn, name) end,
  on_bus_exec = function(fn, addr, name) return named(function(f) return e.on_bus_exec(f, addr) end)(fn, name) end,
  onsavestate = unsupported("event.onsavestate"),
  availableScopes = function() return { "System Bus" } end,
}

local REG = { A = "a", F = "f", B = "b", C = "c", D = "d", E = "e", H = "h", L = "l",
              PC = "pc", SP = "sp" }
local n = native.emu
emu = {
  frameadvance = n.frameadvance,
  yield = n.yield,
  framecount = n.framecount,
  getsystemid = function() if n.model() == "CGB" then return "GBC" end return "GB" end,
  getregister = function(name) return n.getregister(REG[name] or name) end,
  getregisters = function()
    local t = {}
    for big, small in pairs(REG) do t[big] = n.getregister(small) end
    return t
  end,
  setregister = function(name, v) n.setregister(REG[name] or name, v) end,
  lagcount = n.lagcount,
  islagged = n.islagged,
  setislagged = unsupported("emu.setislagged", "lag frames are measured by the core (no joypad read)"),
  totalexecutedcycles = function() return select(2, gbhost.clock()) end,
  getboardname = function() return "DMG" end,
  getdisplaytype = function() return "NTSC" end,
  -- gbhost's own: the player the script runs against (1, or 2 on a linked pair's second).
  player = n.player,
  players = n.players,
}

local s = native.savestate
savestate = {
  save = function(path) s.save(tostring(path)) end,
  load = function(path) s.load(tostring(path)) end,
  saveslot = function(slot) s.save("slot " .. tostring(slot)) end,
  loadslot = function(slot) s.load("slot " .. tostring(slot)) end,
}

local data = {}
userdata = {
  set = function(k, v) data[k] = v end,
  get = function(k) return data[k] end,
  containskey = function(k) return data[k] ~= nil end,
  remove = function(k) local had = data[k] ~= nil data[k] = nil return had end,
  clear = function() data = {} end,
  get_keys = function()
    local t = {}
    for k in pairs(data) do t[#t + 1] = k end
    table.sort(t, function(a, b) return tostring(a) < tostring(b) end)
    return t
  end,
}

console.writeline = console.log
console.clear = function() end

-- BizHawk's `bit` library: 32-bit unsigned operations (BizHawk's BitLuaLibrary).
local U32 = 0xFFFFFFFF
bit = {
  band = function(a, ...) a = a & U32 for _, b in ipairs({ ... }) do a = a & b end return a end,
  bor = function(a, ...) a = a & U32 for _, b in ipairs({ ... }) do a = a | (b & U32) end return a end,
  bxor = function(a, ...) a = a & U32 for _, b in ipairs({ ... }) do a = a ~ (b & U32) end return a end,
  bnot = function(a) return ~a & U32 end,
  lshift = function(a, n) return (a << n) & U32 end,
  rshift = function(a, n) return (a & U32) >> n end,
  -- Signed, as BizHawk's (an int shifted right).
  arshift = function(a, n)
    a = a & U32
    if a >= 0x80000000 then a = a - 0x100000000 end
    return a // (1 << n)
  end,
  rol = function(a, n) a = a & U32 n = n % 32 return ((a << n) | (a >> (32 - n))) & U32 end,
  ror = function(a, n) a = a & U32 n = n % 32 return ((a >> n) | (a << (32 - n))) & U32 end,
  check = function(a, pos) return (a >> pos) & 1 == 1 end,
  set = function(a, pos) return (a | (1 << pos)) & U32 end,
  clear = function(a, pos) return a & ~(1 << pos) end,
  byteswap_16 = function(a) return ((a & 0xFF) << 8) | ((a >> 8) & 0xFF) end,
  byteswap_32 = function(a)
    return ((a & 0xFF) << 24) | ((a & 0xFF00) << 8) | ((a >> 8) & 0xFF00) | ((a >> 24) & 0xFF)
  end,
}

-- client: what makes sense without BizHawk's window. Overlays are drawn in game pixels, so the
-- drawing area is the game's 160x144 screen with no border.
client = {
  screenwidth = function() return 160 end,
  screenheight = function() return 144 end,
  bufferwidth = function() return 160 end,
  bufferheight = function() return 144 end,
  borderwidth = function() return 0 end,
  borderheight = function() return 0 end,
  setscreenshotosd = function(_) end,
}

-- movie: the movie the app is recording or playing (its Movie menu; scripts do not start or
-- stop one). Inputs are the ones held in the session's past frames.
local MOVIE_BUTTONS = { "Up", "Down", "Left", "Right", "Start", "Select", "B", "A" }
local MNEMONIC = { Up = "U", Down = "D", Left = "L", Right = "R", Start = "S", Select = "s",
                   B = "B", A = "A" }
local BIT = { Right = 1, Left = 2, Up = 4, Down = 8, A = 16, B = 32, Select = 64, Start = 128 }
local function movie_input(frame)
  local b = gbhost.movie_input(frame)
  if b == nil then return nil end
  local t = {}
  for _, name in ipairs(MOVIE_BUTTONS) do t[name] = b & BIT[name] ~= 0 end
  t.Power = false
  return t
end
movie = {
  isloaded = function() return (gbhost.movie()) ~= "INACTIVE" end,
  mode = function() return (gbhost.movie()) end,
  filename = function() return select(2, gbhost.movie()) end,
  length = function() return select(3, gbhost.movie()) end,
  getrerecordcount = function() return select(4, gbhost.movie()) end,
  getreadonly = function() return select(5, gbhost.movie()) end,
  startsfromsavestate = function() return select(6, gbhost.movie()) > 0 end,
  startsfromsaveram = function() return false end,
  rerecordcounting = function() return true end,
  getfps = function() return 4194304 / 70224 end,
  getinput = function(frame) return movie_input(frame) or {} end,
  -- BizHawk's Game Boy log line: |UDLRSsBAP| with "." for a button not held.
  getinputasmnemonic = function(frame)
    local t = movie_input(frame)
    if not t then return "" end
    local out = {}
    for _, name in ipairs(MOVIE_BUTTONS) do out[#out + 1] = t[name] and MNEMONIC[name] or "." end
    return "|" .. table.concat(out) .. ".|"
  end,
  getheader = function()
    local _, name, _, rerecords = gbhost.movie()
    return { Core = "gbhost", GameName = native.emu.rom_title(),
             rerecordCount = tostring(rerecords), MovieFile = name }
  end,
  getcomments = function() return {} end,
  getsubtitles = function() return {} end,
  getsubtitlesasstring = function() return "" end,
  setreadonly = unsupported("movie.setreadonly", "the app's Movie menu switches read-only"),
  setrerecordcount = unsupported("movie.setrerecordcount", "the recorder counts rerecords"),
  setrerecordcounting = function() end,
  save = unsupported("movie.save", "gbhost writes the movie as it records"),
  stop = unsupported("movie.stop", "the app's Movie menu stops movies"),
  play_from_start = unsupported("movie.play_from_start", "the app's Movie menu plays movies"),
}

-- gameinfo: the ROM's header title and gbhost's hash of it (FNV-1a, not BizHawk's SHA-1: no
-- game database here).
gameinfo = {
  getromname = function() return native.emu.rom_title() end,
  getromhash = function() return native.emu.rom_hash() end,
  indatabase = function() return false end,
  getstatus = function() return "Unknown" end,
  isstatusbad = function() return false end,
  getboardtype = function() return "" end,
  getoptions = function() return {} end,
}

-- bizstring: BizHawk's string helpers.
local function plain(str) return tostring(str) end
bizstring = {
  contains = function(str, sub) return plain(str):find(plain(sub), 1, true) ~= nil end,
  startswith = function(str, sub) return plain(str):sub(1, #plain(sub)) == plain(sub) end,
  endswith = function(str, sub) return sub == "" or plain(str):sub(-#plain(sub)) == plain(sub) end,
  hex = function(n) return string.format("%X", n) end,
  octal = function(n) return string.format("%o", n) end,
  binary = function(n)
    if n == 0 then return "0" end
    local out = {}
    while n > 0 do out[#out + 1] = tostring(n & 1) n = n >> 1 end
    return string.reverse(table.concat(out))
  end,
  pad_start = function(str, len, c) str = plain(str) return string.rep(c or " ", len - #str) .. str end,
  pad_end = function(str, len, c) str = plain(str) return str .. string.rep(c or " ", len - #str) end,
  remove = function(str, pos, count) str = plain(str) return str:sub(1, pos) .. str:sub(pos + count + 1) end,
  replace = function(str, old, new)
    str, old = plain(str), plain(old)
    if old == "" then return str end
    local out, i = {}, 1
    while true do
      local a, b = str:find(old, i, true)
      if not a then break end
      out[#out + 1] = str:sub(i, a - 1) .. new
      i = b + 1
    end
    return table.concat(out) .. str:sub(i)
  end,
  split = function(str, sep)
    local out = {}
    for part in (plain(str) .. sep):gmatch("(.-)" .. sep:gsub("%p", "%%%0")) do out[#out + 1] = part end
    return out
  end,
  substring = function(str, pos, len) return plain(str):sub(pos + 1, pos + len) end,
  tolower = function(str) return plain(str):lower() end,
  toupper = function(str) return plain(str):upper() end,
  trim = function(str) return (plain(str):gsub("^%s+", ""):gsub("%s+$", "")) end,
}

-- memorysavestate: states kept in memory by id, on gbhost's savestate slots.
local next_state = 0
local kept = {}
memorysavestate = {
  savecorestate = function()
    next_state = next_state + 1
    local id = string.format("memorysavestate-%d", next_state)
    s.save(id)
    kept[id] = true
    return id
  end,
  loadcorestate = function(id) if kept[id] then s.load(id) end end,
  removestate = function(id) kept[id] = nil end,
  clearstatesfromram = function() kept = {} end,
}

-- The rest of BizHawk's surface: what gbhost can answer, and the reasons for the rest.
bit.byteswap_64 = function(a)
  local r = 0
  for _ = 1, 8 do r = (r << 8) | (a & 0xFF) a = a >> 8 end
  return r
end
local function floats(t, fixed)
  -- IEEE single-precision floats, little-endian unless `bigendian`.
  t.readfloat = function(a, bigendian, d)
    local raw = native.memory.read_bytes(a, 4, fixed or dom(d))
    return (string.unpack(bigendian and ">f" or "<f", raw))
  end
  t.writefloat = function(a, v, bigendian, d)
    native.memory.write_bytes(a, string.pack(bigendian and ">f" or "<f", v), fixed or dom(d))
  end
end
floats(memory)
floats(mainmemory, "wram")
memory.write_bytes_as_dict = function(dict, d) memory.writebyterange(dict, d) end
memorysavestate.clearstatesfrommemory = memorysavestate.clearstatesfromram
movie.getrerecordcounting = function() return true end

-- Drawing defaults: the colours a call without one uses.
local defaults = { fg = nil, bg = nil, textbg = nil }
gui.defaultForeground = function(c) defaults.fg = color(c) end
gui.defaultBackground = function(c) defaults.bg = color(c) end
gui.defaultTextBackground = function(c) defaults.textbg = color(c) end
gui.defaultPixelFont = function() end
do
  local text, pixelText, box = gui.drawText, gui.pixelText, gui.drawBox
  gui.drawText = function(x, y, msg, fg, bg, ...)
    return text(x, y, msg, fg or defaults.fg, bg or defaults.textbg, ...)
  end
  gui.drawString = gui.drawText
  gui.pixelText = function(x, y, msg, fg, bg) return pixelText(x, y, msg, fg or defaults.fg, bg or defaults.textbg) end
  gui.drawBox = function(x1, y1, x2, y2, line, fill) return box(x1, y1, x2, y2, line or defaults.fg, fill or defaults.bg) end
end
gui.drawIcon = unsupported("gui.drawIcon", ".ico files: draw PNG files with gui.drawImage")

-- A mnemonic line as movie.getinputasmnemonic gives it ("|U......A.|"): the buttons it holds.
joypad.setfrommnemonicstr = function(str)
  local t = {}
  local letters = tostring(str):gsub("|", "")
  for i, name in ipairs(MOVIE_BUTTONS) do
    local ch = letters:sub(i, i)
    if ch ~= "" and ch ~= "." and ch ~= " " then t[name] = true end
  end
  joypad.set(t)
end

event.can_use_callback_params = function() return true end
event.onconsoleclose = function(fn, name) return event.onexit(fn, name) end
local NO_ANY = "a hook needs an address (one on every instruction would stop the core at each)"
event.onmemoryexecuteany = unsupported("event.onmemoryexecuteany", NO_ANY)
event.on_bus_exec_any = unsupported("event.on_bus_exec_any", NO_ANY)
event.onsavestate = unsupported("event.onsavestate", "no hook runs when a state is saved yet")

emu.getluacore = function() return "Lua 5.4 (gbhost)" end
emu.setlagcount = unsupported("emu.setlagcount", "the lag count is measured by the core")
emu.disassemble = unsupported("emu.disassemble", "the disassembler is not open to scripts yet")
local DISPLAY = "display and speed settings belong to the app, not scripts"
for _, name in ipairs({ "displayvsync", "limitframerate", "minimizeframeskip", "setrenderplanes" }) do
  emu[name] = unsupported("emu." .. name, DISPLAY)
end

client.getversion = function() return "gbhost 0.1" end
client.get_lua_engine = function() return "Lua 5.4 (gbhost)" end
client.transformPoint = function(x, y) return { x = x, y = y } end
local CLIENT = {
  { "the app's settings are not open to scripts", "GetSoundOn", "SetSoundOn", "getconfig",
    "displaymessages", "frameskip", "speedmode", "invisibleemulation", "pause_av", "unpause_av",
    "gettargetscanlineintensity", "settargetscanlineintensity", "setwindowsize" },
  { "scripts do not open or close ROMs, instances or the app", "closerom", "openrom", "exit",
    "exitCode", "createinstance" },
  { "tool windows belong to the app", "getavailabletools", "gettool", "opencheats",
    "openhexeditor", "openramsearch", "openramwatch", "opentasstudio", "opentoolbox",
    "opentracelogger" },
  { "cheats are not built yet", "addcheat", "removecheat" },
  { "scripts never block emulation", "sleep", "exactsleep" },
  { "rewind is always on, and scripts roll back with it", "enablerewind" },
  { "it would differ between a run and its replay", "isrewinding", "isseeking", "isturbo",
    "get_approx_framerate" },
  { "the app writes battery saves", "saveram" },
  { "no clipboard for scripts", "screenshottoclipboard" },
  { "seeking is the app's timeline", "seekframe" },
  { "autohold is the app's", "clearautohold" },
}
for _, group in ipairs(CLIENT) do
  for i = 2, #group do
    if rawget(client, group[i]) == nil then
      client[group[i]] = unsupported("client." .. group[i], group[1])
    end
  end
end
console.getluafunctionslist = unsupported("console.getluafunctionslist", "not yet")

-- tastudio: the TAS editor, when open. Input changes wait until applyinputchanges, then go
-- to the editor with the frame's other requests (carried out after the frame).
local pending_changes = {}
local function frames_of(packed)
  local t = {}
  for i = 1, #(packed or "") // 8 do t[i] = string.unpack("<I8", packed, (i - 1) * 8 + 1) end
  return t
end
-- A piano-roll column: "A" or "P1 A" (player 1), "P2 A" (a linked pair's player 2: its
-- bits are the high byte of the roll's mask).
local function tas_button(name)
  local s = tostring(name)
  local shift = 0
  if s:match("^P2 ") then shift = 8 end
  local b = BIT[(s:gsub("^P[12] ", ""))]
  if not b then error("tastudio: unknown button '" .. s .. "'", 3) end
  return b << shift
end
local HOOKS = "hooks on editor actions would run outside the log: not built yet"
local LOOK = "the piano roll's look is not open to scripts yet"
tastudio = {
  engaged = function() return gbhost.tas("engaged") == true end,
  getrecording = function() return gbhost.tas("recording") == true end,
  setrecording = function(v) gbhost.tas_request("recording", v and true or false) end,
  togglerecording = function() gbhost.tas_request("recording", gbhost.tas("recording") ~= true) end,
  islag = function(f) return gbhost.tas("lag", f) end,
  setlag = unsupported("tastudio.setlag", "lag frames are measured by the core, not set"),
  hasstate = function(f) return gbhost.tas("hasstate", f) == true end,
  getmarker = function(f) return gbhost.tas("marker", f) or "" end,
  setmarker = function(f, text) gbhost.tas_request("marker", f, text or "") end,
  removemarker = function(f) gbhost.tas_request("removemarker", f) end,
  get_frames_with_markers = function() return frames_of(gbhost.tas("markers")) end,
  find_marker_on_or_before = function(f)
    local best = -1
    for _, m in ipairs(frames_of(gbhost.tas("markers"))) do if m <= f and m > best then best = m end end
    return best
  end,
  getselection = function() return frames_of(gbhost.tas("selection")) end,
  setplayback = function(f)
    if type(f) == "string" then
      -- A marker's text names its frame.
      for _, m in ipairs(frames_of(gbhost.tas("markers"))) do
        if gbhost.tas("marker", m) == f then f = m break end
      end
    end
    if math.type(f) ~= "integer" then error("tastudio.setplayback: a frame or a marker's text", 2) end
    gbhost.tas_request("playback", f)
  end,
  submitinputchange = function(f, button, value)
    pending_changes[#pending_changes + 1] = { "input", f, tas_button(button), value and true or false }
  end,
  submitinsertframes = function(f, n) pending_changes[#pending_changes + 1] = { "insert", f, n } end,
  submitdeleteframes = function(f, n) pending_changes[#pending_changes + 1] = { "delete", f, n } end,
  submitclearframes = function(f, n) pending_changes[#pending_changes + 1] = { "clear", f, n } end,
  applyinputchanges = function()
    for _, c in ipairs(pending_changes) do gbhost.tas_request(c[1], c[2], c[3], c[4]) end
    pending_changes = {}
  end,
  clearinputchanges = function() pending_changes = {} end,
  submitanalogchange = unsupported("tastudio.submitanalogchange", "the Game Boy has no analog input"),
  getbranches = function()
    local t = {}
    for i = 0, (gbhost.tas("branches") or 0) - 1 do
      local text, f = gbhost.tas("branch", i)
      t[#t + 1] = { Id = tostring(i), Frame = f, Text = text }
    end
    return t
  end,
  get_branch_index_by_id = function(id) return tonumber(id) end,
  loadbranch = function(i) gbhost.tas_request("loadbranch", i) end,
  setbranchtext = function(text, i) gbhost.tas_request("branchtext", i or 0, tostring(text)) end,
  getbranchinput = unsupported("tastudio.getbranchinput", "a branch's input is not open to scripts yet"),
  onbranchload = unsupported("tastudio.onbranchload", HOOKS),
  onbranchsave = unsupported("tastudio.onbranchsave", HOOKS),
  onbranchremove = unsupported("tastudio.onbranchremove", HOOKS),
  ongreenzoneinvalidated = unsupported("tastudio.ongreenzoneinvalidated", HOOKS),
  onqueryitembg = unsupported("tastudio.onqueryitembg", LOOK),
  onqueryitemicon = unsupported("tastudio.onqueryitemicon", LOOK),
  onqueryitemtext = unsupported("tastudio.onqueryitemtext", LOOK),
  addcolumn = unsupported("tastudio.addcolumn", LOOK),
  clearIconCache = function() end,
}

-- BizHawk libraries gbhost does not have: looking a function up gives one that raises the
-- clear error, with the reason, when called (forms.lua, appended, makes `forms` and `input`).
for _, lib in ipairs({
  { "comm", "no network, sockets or shared memory in the sandbox" },
  { "nes", "the NES core's library" },
  { "snes", "the SNES core's library" },
  { "genesis", "the Genesis core's library" },
  { "nds", "the Nintendo DS core's library" },
  { "doom", "the Doom core's library" },
  { "SQL", "no database in the sandbox" },
  { "bizsocket", "no network in the sandbox" },
  { "speech", "no speech output: console lines reach screen readers" },
}) do
  if _G[lib[1]] == nil then _G[lib[1]] = gbhost.stub_library({}, lib[1], lib[2]) end
end
for _, t in ipairs({ "memory", "mainmemory", "gui", "joypad", "event", "emu", "savestate",
                     "userdata", "bit", "client", "movie", "gameinfo", "bizstring",
                     "memorysavestate", "tastudio" }) do
  gbhost.stub_library(_G[t], t)
end
