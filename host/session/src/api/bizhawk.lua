-- BizHawk compatibility layer (run after prelude.lua for scripts written for BizHawk's Game Boy
-- cores): memory domains by BizHawk's names, mainmemory on WRAM, gui.draw*, joypad with
-- BizHawk's button names and controller argument, event.on*, userdata, savestate slots. What
-- BizHawk offers and gbhost does not raises one clear "not supported by gbhost" error.

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

local function accessors(t, fixed)
  local function pick(d) if fixed then return fixed end return dom(d) end
  for _, w in ipairs({ "u8", "s8", "u16_le", "u16_be", "s16_le", "s16_be", "u32_le", "u32_be",
                       "s32_le", "s32_be" }) do
    local r, wr = native.memory["read_" .. w], native.memory["write_" .. w]
    t["read_" .. w] = function(a, d) return r(a, pick(d)) end
    t["write_" .. w] = function(a, v, d) return wr(a, v, pick(d)) end
  end
  -- BizHawk's 24-bit accessors.
  t.read_u24_le = function(a, d) return t.read_u16_le(a, d) | (t.read_u8(a + 2, d) << 16) end
  t.read_u24_be = function(a, d) return (t.read_u16_be(a, d) << 8) | t.read_u8(a + 2, d) end
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
memory.hash_region = unsupported("memory.hash_region")

mainmemory = accessors({}, "wram")
mainmemory.getname = function() return "WRAM" end
mainmemory.getcurrentmemorydomainsize = function() return native.memory.size("wram") end

-- gui: BizHawk colours are 0xAARRGGBB or names, as gbhost's.
local g = native.gui
gui = {
  text = function(x, y, msg, fg) g.text(x, y, tostring(msg), fg) end,
  drawText = function(x, y, msg, fg, bg)
    if bg then g.box(x, y, x + 6 * #tostring(msg), y + 9, bg, bg) end
    g.text(x, y, tostring(msg), fg)
  end,
  pixelText = function(x, y, msg, fg, bg) g.pixel_text(x, y, tostring(msg), fg, bg) end,
  drawBox = function(x1, y1, x2, y2, line, fill) g.box(x1, y1, x2, y2, line, fill) end,
  drawRectangle = function(x, y, w, h, line, fill) g.box(x, y, x + w, y + h, line, fill) end,
  drawLine = function(x1, y1, x2, y2, color) g.line(x1, y1, x2, y2, color) end,
  drawPixel = function(x, y, color) g.pixel(x, y, color) end,
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

-- BizHawk libraries gbhost does not have: every use is a clear error.
for _, lib in ipairs({ "client", "forms", "comm", "movie", "tastudio", "bizstring", "nes", "snes",
                       "genesis", "memorysavestate", "sql", "gameinfo" }) do
  _G[lib] = setmetatable({}, {
    __index = function(_, k) return unsupported(lib .. "." .. tostring(k)) end,
  })
end
for _, t in ipairs({ "memory", "mainmemory", "gui", "joypad", "event", "emu", "savestate",
                     "userdata" }) do
  setmetatable(_G[t], {
    __index = function(_, k)
      error(t .. "." .. tostring(k) .. " is not supported by gbhost", 2)
    end,
  })
end
