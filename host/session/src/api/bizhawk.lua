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

local function unsupported(name)
  return function() error(name .. " is not supported by gbhost", 2) end
end

local function dom(d)
  if d == nil then return DOMAINS[current] end
  local n = DOMAINS[d]
  if not n then error("memory domain '" .. tostring(d) .. "' does not exist (gbhost has: " ..
    table.concat(DOMAIN_LIST, ", ") .. ")", 3) end
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

local function accessors(t, fixed)
  local function pick(d) if fixed then return fixed end return dom(d) end
  for _, w in ipairs({ "u8", "s8", "u16_le", "u16_be", "s16_le", "s16_be", "u32_le", "u32_be",
                       "s32_le", "s32_be" }) do
    local r, wr = native.memory["read_" .. w], native.memory["write_" .. w]
    -- One Lua call in front of the host function (these are the hot paths of HUDs).
    if fixed then
      t["read_" .. w] = function(a) return r(a, fixed) end
      t["write_" .. w] = function(a, v) return wr(a, v, fixed) end
    else
      t["read_" .. w] = function(a, d)
        if d == nil then return r(a, DOMAINS[current]) end
        return r(a, DOMAINS[d] or dom(d))
      end
      t["write_" .. w] = function(a, v, d)
        if d == nil then return wr(a, v, DOMAINS[current]) end
        return wr(a, v, DOMAINS[d] or dom(d))
      end
    end
  end
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
  t.readbyte = t.read_u8
  t.writebyte = t.write_u8
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
memory.usememorydomain = function(name)
  if DOMAINS[name] then current = name return true end
  return false
end
memory.getcurrentmemorydomain = function() return current end
memory.getmemorydomainlist = function()
  local t = {}
  for i, n in ipairs(DOMAIN_LIST) do t[i] = n end
  return t
end
memory.getmemorydomainsize = function(name) return native.memory.size(dom(name)) end

mainmemory = accessors({}, "wram")
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
  drawImage = unsupported("gui.drawImage"),
  drawEllipse = unsupported("gui.drawEllipse"),
  drawPolygon = unsupported("gui.drawPolygon"),
  drawBezier = unsupported("gui.drawBezier"),
  drawPie = unsupported("gui.drawPie"),
  drawArc = unsupported("gui.drawArc"),
  addmessage = function(msg) console.log(tostring(msg)) end,
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
  setanalog = unsupported("joypad.setanalog"),
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
  setislagged = unsupported("emu.setislagged"),
  totalexecutedcycles = unsupported("emu.totalexecutedcycles"),
  getboardname = function() return "DMG" end,
  getdisplaytype = function() return "NTSC" end,
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
console.getluafunctionslist = unsupported("console.getluafunctionslist")

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

-- BizHawk libraries gbhost does not have: looking a function up gives one that raises the
-- clear error when called.
for _, lib in ipairs({ "comm", "movie", "tastudio", "bizstring", "nes", "snes",
                       "genesis", "memorysavestate", "sql", "gameinfo" }) do
  _G[lib] = setmetatable({}, {
    __index = function(_, k) return unsupported(lib .. "." .. tostring(k)) end,
  })
end
for _, t in ipairs({ "memory", "mainmemory", "gui", "joypad", "event", "emu", "savestate",
                     "userdata", "bit", "client" }) do
  setmetatable(_G[t], {
    __index = function(_, k) return unsupported(t .. "." .. tostring(k)) end,
  })
end
