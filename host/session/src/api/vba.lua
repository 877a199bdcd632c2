-- VBA-rr / FCEUX compatibility layer (run after prelude.lua for scripts written for VBA-rr):
-- memory.readbyte & co., joypad.set(port, t) with lowercase names, gui with 0xRRGGBBAA colours,
-- vba.* (and emu.*), savestate objects, gui.register. What VBA-rr offers and gbhost does not
-- raises one clear "not supported by gbhost" error.

gbhost.lua51()

local native = {
  memory = {}, gui = gui, joypad = joypad, emu = emu, savestate = savestate, event = event,
}
for k, v in pairs(memory) do native.memory[k] = v end
local m = native.memory

local unsupported = gbhost.unsupported

memory = {
  -- The host functions themselves (the bus is their default domain): native speed.
  readbyte = m.read_u8,
  readbytesigned = m.read_s8,
  readword = m.read_u16_le,
  readwordsigned = m.read_s16_le,
  readdword = m.read_u32_le,
  readdwordsigned = m.read_s32_le,
  readbyterange = function(a, n)
    local s = m.read_bytes(a, n)
    local t = {}
    for i = 1, #s do t[i] = s:byte(i) end
    return t
  end,
  writebyte = function(a, v) m.write_u8(a, v) end,
  writeword = function(a, v) m.write_u16_le(a, v) end,
  writedword = function(a, v) m.write_u32_le(a, v) end,
  -- VBA-rr's memory callbacks: (address, [size,] function); the function gets the address
  -- and the value.
  register = function(a, size, fn)
    if fn == nil then fn, size = size, 1 end
    return native.event.on_bus_write(fn, a, size)
  end,
  registerread = function(a, size, fn)
    if fn == nil then fn, size = size, 1 end
    return native.event.on_bus_read(fn, a, size)
  end,
  registerexec = function(a, size, fn)
    if fn == nil then fn, size = size, 1 end
    return native.event.on_bus_exec(fn, a, size)
  end,
  getregister = function(name) return native.emu.getregister(name) end,
  setregister = function(name, v) native.emu.setregister(name, v) end,
}
memory.registerwrite = memory.register
memory.readshort = memory.readword
memory.writeshort = memory.writeword
memory.readlong = memory.readdword
memory.writelong = memory.writedword
-- Every width by its unsigned and signed names, as VBA-rr and FCEUX spell them.
for _, w in ipairs({ { "byte", "u8", "s8" }, { "word", "u16_le", "s16_le" },
                     { "short", "u16_le", "s16_le" }, { "dword", "u32_le", "s32_le" },
                     { "long", "u32_le", "s32_le" } }) do
  memory["read" .. w[1] .. "unsigned"] = m["read_" .. w[2]]
  memory["read" .. w[1] .. "signed"] = m["read_" .. w[3]]
end
memory.readbyterangesigned = function(a, n)
  local t = memory.readbyterange(a, n)
  for i, v in ipairs(t) do if v >= 0x80 then t[i] = v - 0x100 end end
  return t
end

-- 0xRRGGBBAA to gbhost's 0xAARRGGBB, its alpha scaled by gui.opacity; names and "#RRGGBB"
-- strings pass through.
local opacity = 1.0
local function col(c)
  if math.type(c) == "integer" then
    local a = math.floor((c & 0xFF) * opacity + 0.5)
    return (a << 24) | ((c >> 8) & 0xFFFFFF)
  end
  return c
end

local g = native.gui
local registered
gui = {
  text = function(x, y, s, c) g.text(x, y, tostring(s), col(c)) end,
  box = function(x1, y1, x2, y2, fill, outline) g.box(x1, y1, x2, y2, col(outline or fill), col(fill)) end,
  line = function(x1, y1, x2, y2, c) g.line(x1, y1, x2, y2, col(c)) end,
  pixel = function(x, y, c) g.pixel(x, y, col(c)) end,
  register = function(fn)
    if registered then native.event.unregister(registered) registered = nil end
    if fn then registered = native.event.on_frame_end(fn) end
  end,
  gdoverlay = unsupported("gui.gdoverlay", "gd images: draw PNG files with gui.image"),
  gdscreenshot = unsupported("gui.gdscreenshot", "gd images: draw PNG files with gui.image"),
  -- No modal dialog may stop emulation: the message goes to the console, the answer is "ok".
  popup = function(msg) console.log(tostring(msg)) return "ok" end,
  -- Opacity of what is drawn next, 0 to 1; transparency 0 (opaque) to 4 (invisible).
  opacity = function(a) opacity = math.max(0, math.min(1, a)) end,
  transparency = function(t) opacity = math.max(0, math.min(1, 1 - t / 4)) end,
  clearuncommitted = function() g.clear() end,
}
gui.drawtext = gui.text
gui.drawbox = gui.box
gui.drawline = gui.line
gui.drawpixel = gui.pixel
gui.rect = gui.box
gui.drawrect = gui.box

joypad = {
  set = function(_port, t) native.joypad.set(t) end,
  get = function(_port)
    local t = {}
    for k, v in pairs(native.joypad.get()) do t[string.lower(k)] = v end
    return t
  end,
}
joypad.read = joypad.get
joypad.write = joypad.set
-- The buttons held (getdown) or not held (getup), as true entries.
joypad.getdown = function(port)
  local t = {}
  for k, v in pairs(joypad.get(port)) do if v then t[k] = true end end
  return t
end
joypad.getup = function(port)
  local t = {}
  for k, v in pairs(joypad.get(port)) do if not v then t[k] = true end end
  return t
end
joypad.readdown, joypad.readup = joypad.getdown, joypad.getup

local e = native.emu
vba = {
  frameadvance = e.frameadvance,
  framecount = e.framecount,
  pause = function() end,
  speedmode = function() end,
  message = function(s) console.log(tostring(s)) end,
  print = function(...) console.log(...) end,
  lagcount = e.lagcount,
  lagged = e.islagged,
  emulating = function() return true end,
  registerbefore = function(fn) native.event.on_frame_start(fn) end,
  registerafter = function(fn) native.event.on_frame_end(fn) end,
  registerexit = function(fn) native.event.on_exit(fn) end,
}
emu = vba

local s = native.savestate
local next_state = 0
savestate = {
  create = function(slot)
    if slot == nil then
      next_state = next_state + 1
      return { name = "anonymous " .. next_state }
    end
    return { name = "slot " .. tostring(slot) }
  end,
  save = function(st) s.save(type(st) == "table" and st.name or tostring(st)) end,
  load = function(st) s.load(type(st) == "table" and st.name or tostring(st)) end,
}

-- What VBA-rr has and gbhost does not: looking it up gives a function that raises the clear
-- error when called (scripts alias functions at load).
for _, t in ipairs({ "memory", "gui", "joypad", "vba", "savestate" }) do
  gbhost.stub_library(_G[t], t)
end
-- LuaBitOp, which VBA-rr scripts use for bit twiddling, on Lua 5.4's operators.
bit = {
  band = function(a, ...) for _, b in ipairs({ ... }) do a = a & b end return a end,
  bor = function(a, ...) for _, b in ipairs({ ... }) do a = a | b end return a end,
  bxor = function(a, ...) for _, b in ipairs({ ... }) do a = a ~ b end return a end,
  bnot = function(a) return ~a end,
  lshift = function(a, n) return (a << n) & 0xFFFFFFFF end,
  rshift = function(a, n) return (a & 0xFFFFFFFF) >> n end,
  arshift = function(a, n) return a >> n end,
  tohex = function(a, n) return string.format("%0" .. (n or 8) .. "x", a & 0xFFFFFFFF) end,
  -- LuaBitOp's results are signed 32-bit numbers.
  tobit = function(a)
    a = a & 0xFFFFFFFF
    if a >= 0x80000000 then return a - 0x100000000 end
    return a
  end,
  rol = function(a, n) a = a & 0xFFFFFFFF n = n % 32 return ((a << n) | (a >> (32 - n))) & 0xFFFFFFFF end,
  ror = function(a, n) a = a & 0xFFFFFFFF n = n % 32 return ((a >> n) | (a << (32 - n))) & 0xFFFFFFFF end,
  bswap = function(a)
    return ((a & 0xFF) << 24) | ((a & 0xFF00) << 8) | ((a >> 8) & 0xFF00) | ((a >> 24) & 0xFF)
  end,
}
-- VBA-rr's helper globals.
BIT = function(...)
  local m = 0
  for _, pos in ipairs({ ... }) do m = m | (1 << pos) end
  return m
end
copytable = function(t)
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  return c
end
-- The value's address in the script's memory (the arena's, the same on every run).
addressof = function(v)
  local hex = tostring(v):match("0x(%x+)")
  return hex and tonumber(hex, 16) or 0
end
AND, OR, XOR = bit.band, bit.bor, bit.bxor
SHIFT = function(a, n) if n >= 0 then return a >> n end return a << -n end

-- movie: the movie the app records or plays (see gbhost.movie).
local function mv(i) return (select(i, gbhost.movie())) end
movie = {
  active = function() return mv(1) ~= "INACTIVE" end,
  recording = function() return mv(1) == "RECORD" end,
  playing = function() return mv(1) == "PLAY" end,
  mode = function()
    local m = mv(1)
    if m == "INACTIVE" then return nil end
    return ({ RECORD = "record", PLAY = "playback", FINISHED = "finished" })[m]
  end,
  length = function() return mv(3) end,
  name = function() return mv(2) end,
  rerecordcount = function() return mv(4) end,
  readonly = function() return mv(5) end,
  framecount = function() return e.framecount() end,
  rerecordcounting = function() return true end,
  setreadonly = unsupported("movie.setreadonly", "the app's Movie menu switches read-only"),
  setrerecordcount = unsupported("movie.setrerecordcount", "the recorder counts rerecords"),
  stop = unsupported("movie.stop", "the app's Movie menu stops movies"),
}
movie.getname, movie.getreadonly, movie.close = movie.name, movie.readonly, movie.stop

-- The rest of VBA-rr's surface.
local rom = gbhost.accessors("rom")
for _, w in ipairs({ { "byte", "u8", "s8" }, { "word", "u16_le", "s16_le" },
                     { "short", "u16_le", "s16_le" }, { "dword", "u32_le", "s32_le" },
                     { "long", "u32_le", "s32_le" } }) do
  -- The cartridge ROM by offset (all banks), as VBA-rr's gbromread*.
  memory["gbromread" .. w[1]] = rom["read_" .. w[2]]
  memory["gbromread" .. w[1] .. "unsigned"] = rom["read_" .. w[2]]
  memory["gbromread" .. w[1] .. "signed"] = rom["read_" .. w[3]]
end
memory.gbromreadbyterange = function(a, n)
  local str = m.read_bytes(a, n, "rom")
  local t = {}
  for i = 1, #str do t[i] = str:byte(i) end
  return t
end
memory.registerexecute, memory.registerrun = memory.registerexec, memory.registerexec
for _, t in ipairs({ vba }) do
  t.registerclose = function(fn) native.event.on_exit(fn) end
  t.registerloaded = function(fn) native.event.on_load_state(fn) end
  local NO_HOOK = "no hook runs at that moment in gbhost"
  t.registerloading = unsupported("emu.registerloading", NO_HOOK)
  t.registersaved = unsupported("emu.registersaved", NO_HOOK)
  t.registersaving = unsupported("emu.registersaving", NO_HOOK)
  t.registerrun = unsupported("emu.registerrun", NO_HOOK)
  t.remapinputdisplay = unsupported("emu.remapinputdisplay", "the input display is the app's")
end
-- Colours as VBA-rr parses them: r, g, b, a.
gui.parsecolor = function(c)
  c = col(c)
  if math.type(c) ~= "integer" then return 255, 255, 255, 255 end
  return (c >> 16) & 0xFF, (c >> 8) & 0xFF, c & 0xFF, (c >> 24) & 0xFF
end
gui.setpixel, gui.writepixel = gui.pixel, gui.pixel
-- An image: a PNG file of the script's folder by name (gd image strings are not supported).
gui.image = function(x, y, img)
  if type(img) == "string" and img:lower():match("%.png$") then return g.image(x, y, img) end
  error("gui.image is not supported by gbhost for gd images: give a PNG file of the script's folder", 2)
end
gui.drawimage = gui.image
gui.getpixel = unsupported("gui.getpixel", "the screen is not readable by scripts yet")
gui.readpixel = unsupported("gui.readpixel", "the screen is not readable by scripts yet")
movie.author = unsupported("movie.author", "gbhost movies keep no author field for scripts yet")
movie.getauthor = movie.author

for _, lib in ipairs({
  { "sound", "sound channel state is not exposed yet" },
  { "avi", "video dumping belongs to the app, not scripts" },
}) do
  _G[lib[1]] = gbhost.stub_library({}, lib[1], lib[2])
end
-- input.get: the host's keys by VBA-rr's names (letters and digits as they are, the others in
-- lower case: "shift", "space", "enter"), and the mouse as xmouse, ymouse and *click.
local host_input = input
input = {
  get = function()
    local t = {}
    for k in pairs(host_input.get()) do
      local name = k:match("^D(%d)$") or (#k == 1 and k) or k:lower()
      if name == "return" then name = "enter" end
      t[name] = true
    end
    local m = host_input.getmouse()
    t.xmouse, t.ymouse = m.X, m.Y
    if m.Left then t.leftclick = true end
    if m.Right then t.rightclick = true end
    if m.Middle then t.middleclick = true end
    return t
  end,
}
input.read = input.get
gbhost.stub_library(input, "input")
gbhost.stub_library(movie, "movie")
