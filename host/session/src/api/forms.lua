-- BizHawk's `forms`, `input` and window-bound `client` functions (appended to bizhawk.lua, whose
-- locals `unsupported` and `NET` it uses). A form is data in the script's arena (gbhost.ui, from
-- ui.lua): its controls, their values and callbacks roll back with the script. The app shows
-- the description as egui windows; a click, a tick, a text typed, an item chosen or a form
-- closed comes back as a logged event that updates the control here and runs its callbacks.

local ui = gbhost.ui
local touch = ui.touch

local KIND = { button = 0, checkbox = 1, label = 2, textbox = 3, dropdown = 4, picturebox = 5 }
local EVENT_CLICK, EVENT_CHECK, EVENT_TEXT, EVENT_SELECT, EVENT_CLOSE = 0, 1, 2, 3, 4
-- Most drawing commands a picture box keeps (later ones are dropped until it is cleared).
local MAX_CMDS = 4096

-- BizHawk's colours (0xAARRGGBB, "#RRGGBB", "#AARRGGBB", .NET names) as 0xAARRGGBB.
local function argb(c, default, who)
  if c == nil then return default end
  if math.type(c) == "integer" then
    if c >> 24 == 0 then return c | 0xFF000000 end
    return c & 0xFFFFFFFF
  end
  if type(c) == "number" then return argb(math.floor(c), default, who) end
  if type(c) == "string" then
    local hex = c:match("^#(%x+)$")
    if hex and #hex == 6 then return 0xFF000000 | tonumber(hex, 16) end
    if hex and #hex == 8 then return tonumber(hex, 16) end
    local named = NET[c:lower()]
    if named then return named end
  end
  error(who .. ": '" .. tostring(c) .. "' is not a colour", 3)
end

local function int(v, default, who, what)
  if v == nil then return default end
  if math.type(v) == "integer" then return v end
  if type(v) == "number" and v == v and v > -2^31 and v < 2^31 then return math.floor(v) end
  if type(v) == "string" and tonumber(v) then return int(tonumber(v), default, who, what) end
  error(who .. ": " .. what .. " must be a number, got " .. type(v), 3)
end

local function clamp(v) if v < -0x7FFFFFFF then return -0x7FFFFFFF end
  if v > 0x7FFFFFFF then return 0x7FFFFFFF end return v end

local function form_of(h, who)
  local f = ui.handles[h]
  if not f or f.controls == nil then
    error(who .. ": " .. tostring(h) .. " is not a form handle", 3)
  end
  return f
end

local function any_of(h, who)
  local o = ui.handles[h]
  if not o or (o.controls == nil and o.kind == nil) then
    error(who .. ": " .. tostring(h) .. " is not a form or control handle", 3)
  end
  return o
end

local function control_of(h, who, kind)
  local c = ui.handles[h]
  if not c or c.kind == nil or (kind and c.kind ~= kind) then
    error(who .. ": " .. tostring(h) .. " is not a " .. (kind and "picture box" or "control") ..
      " handle", 3)
  end
  return c
end

local function callback(fn, who)
  if fn ~= nil and type(fn) ~= "function" then
    error(who .. ": expected a function, got " .. type(fn), 3)
  end
  return fn
end

local function run_clicks(c)
  if c.fn then c.fn() end
  for _, fn in ipairs(c.clicks) do fn() end
end

-- A control's reaction to a user's action.
local function on_event(c)
  return function(kind, value)
    if not c.enabled then return end
    if kind == EVENT_CLICK then
      run_clicks(c)
    elseif kind == EVENT_CHECK and c.kind == KIND.checkbox then
      c.checked = value == true
      touch()
      run_clicks(c)
    elseif kind == EVENT_TEXT and type(value) == "string" then
      c.text = value
      touch()
    elseif kind == EVENT_SELECT and c.kind == KIND.dropdown then
      local item = c.items[(math.tointeger(value) or -1) + 1]
      if item then
        c.text = item
        touch()
        run_clicks(c)
      end
    end
  end
end

local function remove(list, obj)
  for i = #list, 1, -1 do if list[i] == obj then table.remove(list, i) end end
end

local function destroy_form(f)
  for _, c in ipairs(f.controls) do ui.handles[c.handle] = nil end
  ui.handles[f.handle] = nil
  remove(ui.forms, f)
  touch()
end

local function add_control(form, kind, text, x, y, w, h, who)
  local c = {
    kind = kind, form = form, text = tostring(text or ""),
    x = clamp(int(x, 0, who, "x")), y = clamp(int(y, 0, who, "y")),
    w = clamp(int(w, -1, who, "width")), h = clamp(int(h, -1, who, "height")),
    visible = true, enabled = true, checked = false, multiline = false,
    items = {}, cmds = {}, clicks = {},
  }
  c.on_event = on_event(c)
  ui.handle(c)
  form.controls[#form.controls + 1] = c
  touch()
  return c
end

local function items_of(t, who)
  if type(t) ~= "table" then error(who .. ": expected a table of items, got " .. type(t), 3) end
  local items = {}
  for _, v in pairs(t) do items[#items + 1] = tostring(v) end
  table.sort(items)
  return items
end

-- Picture boxes: drawing commands packed as api/ui.rs reads them (kind, four numbers, two
-- colours, a text): 0 text, 1 box, 2 line, 3 pixel.
local function draw(c, kind, a, b, cc, d, c1, c2, text)
  if #c.cmds >= MAX_CMDS then return end
  c.cmds[#c.cmds + 1] = string.pack("<Bi4i4i4i4I4I4s4", kind, clamp(a), clamp(b), clamp(cc),
    clamp(d), c1, c2, text or "")
  touch()
end

local function pb(h, who) return control_of(h, who, KIND.picturebox) end

forms = {
  newform = function(w, h, title, onclose)
    local who = "forms.newform"
    local f = { title = tostring(title or "Lua form"), x = -1, y = -1,
                w = clamp(int(w, 300, who, "width")), h = clamp(int(h, 200, who, "height")),
                controls = {}, onclose = callback(onclose, who) }
    f.on_event = function(kind)
      if kind == EVENT_CLOSE and ui.handles[f.handle] == f then
        destroy_form(f)
        if f.onclose then f.onclose() end
      end
    end
    ui.handle(f)
    ui.forms[#ui.forms + 1] = f
    touch()
    return f.handle
  end,
  button = function(form, caption, fn, x, y, w, h)
    local who = "forms.button"
    local c = add_control(form_of(form, who), KIND.button, caption, x, y, w, h, who)
    c.fn = callback(fn, who)
    return c.handle
  end,
  checkbox = function(form, caption, x, y)
    local who = "forms.checkbox"
    return add_control(form_of(form, who), KIND.checkbox, caption, x, y, nil, nil, who).handle
  end,
  label = function(form, caption, x, y, w, h, _fixedwidth)
    local who = "forms.label"
    return add_control(form_of(form, who), KIND.label, caption, x, y, w, h, who).handle
  end,
  textbox = function(form, caption, w, h, _boxtype, x, y, multiline, _fixedwidth, _scrollbars)
    local who = "forms.textbox"
    local c = add_control(form_of(form, who), KIND.textbox, caption, x, y, w, h, who)
    c.multiline = multiline == true
    return c.handle
  end,
  dropdown = function(form, items, x, y, w, h)
    local who = "forms.dropdown"
    local f = form_of(form, who)
    local list = items_of(items, who)
    local c = add_control(f, KIND.dropdown, list[1] or "", x, y, w, h, who)
    c.items = list
    return c.handle
  end,
  setdropdownitems = function(h, items, alphabetize)
    local who = "forms.setdropdownitems"
    local c = control_of(h, who)
    c.items = items_of(items, who)
    if alphabetize == false then
      c.items = {}
      for _, v in ipairs(items) do c.items[#c.items + 1] = tostring(v) end
    end
    c.text = c.items[1] or ""
    touch()
  end,
  pictureBox = function(form, x, y, w, h)
    local who = "forms.pictureBox"
    local c = add_control(form_of(form, who), KIND.picturebox, "", x, y, w, h, who)
    c.bg = 0
    c.fg = 0xFF000000
    c.textbg = 0
    return c.handle
  end,
  gettext = function(h)
    local o = any_of(h, "forms.gettext")
    if o.controls then return o.title end
    return o.text
  end,
  settext = function(h, text)
    local o = any_of(h, "forms.settext")
    if o.controls then o.title = tostring(text) else o.text = tostring(text) end
    touch()
  end,
  ischecked = function(h) return control_of(h, "forms.ischecked").checked end,
  setlocation = function(h, x, y)
    local who = "forms.setlocation"
    local o = any_of(h, who)
    o.x, o.y = clamp(int(x, 0, who, "x")), clamp(int(y, 0, who, "y"))
    touch()
  end,
  setsize = function(h, w, hh)
    local who = "forms.setsize"
    local o = any_of(h, who)
    o.w, o.h = clamp(int(w, 0, who, "width")), clamp(int(hh, 0, who, "height"))
    touch()
  end,
  destroy = function(h)
    local o = ui.handles[h]
    if not o then return false end
    if o.controls then destroy_form(o) return true end
    remove(o.form.controls, o)
    ui.handles[h] = nil
    touch()
    return true
  end,
  destroyall = function()
    for i = #ui.forms, 1, -1 do destroy_form(ui.forms[i]) end
  end,
  addclick = function(h, fn)
    local who = "forms.addclick"
    local c = control_of(h, who)
    if type(fn) ~= "function" then error(who .. ": expected a function, got " .. type(fn), 2) end
    c.clicks[#c.clicks + 1] = fn
  end,
  clearclicks = function(h) control_of(h, "forms.clearclicks").clicks = {} end,
  setproperty = function(h, prop, value)
    local who = "forms.setproperty"
    local o = any_of(h, who)
    local p = tostring(prop)
    if p == "Text" then
      if o.controls then o.title = tostring(value) else o.text = tostring(value) end
    elseif p == "Checked" and not o.controls then o.checked = value == true or value == "True"
      or value == "true"
    elseif p == "Visible" and not o.controls then o.visible = not (value == false or
      value == "False" or value == "false")
    elseif p == "Enabled" and not o.controls then o.enabled = not (value == false or
      value == "False" or value == "false")
    elseif p == "Left" or p == "Top" then
      local v = clamp(int(value, 0, who, p))
      if p == "Left" then o.x = v else o.y = v end
    elseif p == "Width" or p == "Height" then
      local v = clamp(int(value, 0, who, p))
      if p == "Width" then o.w = v else o.h = v end
    elseif p == "BackColor" and o.kind == KIND.picturebox then o.bg = argb(value, 0, who)
    else
      error(who .. ": property '" .. p .. "' is not supported by gbhost (Text, Checked, " ..
        "Visible, Enabled, Left, Top, Width, Height, BackColor)", 2)
    end
    touch()
  end,
  getproperty = function(h, prop)
    local who = "forms.getproperty"
    local o = any_of(h, who)
    local p = tostring(prop)
    local function b(v) if v then return "True" end return "False" end
    if p == "Text" then if o.controls then return o.title end return o.text
    elseif p == "Checked" then return b(o.checked)
    elseif p == "Visible" then return b(o.controls ~= nil or o.visible)
    elseif p == "Enabled" then return b(o.controls ~= nil or o.enabled)
    elseif p == "Left" then return tostring(o.x)
    elseif p == "Top" then return tostring(o.y)
    elseif p == "Width" then return tostring(o.w)
    elseif p == "Height" then return tostring(o.h)
    end
    error(who .. ": property '" .. p .. "' is not supported by gbhost", 2)
  end,
  -- Picture boxes.
  clear = function(h, c)
    local box = pb(h, "forms.clear")
    box.cmds = {}
    box.bg = argb(c, box.bg, "forms.clear")
    touch()
  end,
  refresh = function(h) pb(h, "forms.refresh") touch() end,
  setDefaultForegroundColor = function(h, c)
    local box = pb(h, "forms.setDefaultForegroundColor")
    box.fg = argb(c, box.fg, "forms.setDefaultForegroundColor")
  end,
  setDefaultBackgroundColor = function(h, c)
    local box = pb(h, "forms.setDefaultBackgroundColor")
    box.fill = argb(c, 0, "forms.setDefaultBackgroundColor")
  end,
  setDefaultTextBackground = function(h, c)
    local box = pb(h, "forms.setDefaultTextBackground")
    box.textbg = argb(c, 0, "forms.setDefaultTextBackground")
  end,
  drawBox = function(h, x1, y1, x2, y2, line, fill)
    local who = "forms.drawBox"
    local box = pb(h, who)
    draw(box, 1, int(x1, 0, who, "x1"), int(y1, 0, who, "y1"), int(x2, 0, who, "x2"),
      int(y2, 0, who, "y2"), argb(line, box.fg, who), argb(fill, box.fill or 0, who))
  end,
  drawRectangle = function(h, x, y, w, hh, line, fill)
    local who = "forms.drawRectangle"
    local box = pb(h, who)
    x, y = int(x, 0, who, "x"), int(y, 0, who, "y")
    draw(box, 1, x, y, x + int(w, 0, who, "width"), y + int(hh, 0, who, "height"),
      argb(line, box.fg, who), argb(fill, box.fill or 0, who))
  end,
  drawLine = function(h, x1, y1, x2, y2, c)
    local who = "forms.drawLine"
    local box = pb(h, who)
    draw(box, 2, int(x1, 0, who, "x1"), int(y1, 0, who, "y1"), int(x2, 0, who, "x2"),
      int(y2, 0, who, "y2"), argb(c, box.fg, who), 0)
  end,
  drawPixel = function(h, x, y, c)
    local who = "forms.drawPixel"
    local box = pb(h, who)
    draw(box, 3, int(x, 0, who, "x"), int(y, 0, who, "y"), 0, 0, argb(c, box.fg, who), 0)
  end,
  drawText = function(h, x, y, msg, fg, bg, size)
    local who = "forms.drawText"
    local box = pb(h, who)
    draw(box, 0, int(x, 0, who, "x"), int(y, 0, who, "y"), int(size, 12, who, "font size"), 0,
      argb(fg, box.fg, who), argb(bg, box.textbg, who), tostring(msg))
  end,
}
forms.drawString = forms.drawText
forms.picturebox = forms.pictureBox
forms.createcolor = function(r, g, b, a)
  return ((a or 255) & 0xFF) << 24 | (r & 0xFF) << 16 | (g & 0xFF) << 8 | (b & 0xFF)
end
forms.clearImageCache = function() end
forms.drawAxis = function(h, x, y, size, c)
  forms.drawLine(h, x - size, y, x + size, y, c)
  forms.drawLine(h, x, y - size, x, y + size, c)
end
local SHAPES = "picture boxes draw boxes, lines, pixels and text so far"
for _, name in ipairs({ "drawArc", "drawBezier", "drawEllipse", "drawIcon", "drawImage",
                        "drawImageRegion", "drawPie", "drawPolygon" }) do
  forms[name] = unsupported("forms." .. name, SHAPES)
end
forms.getMouseX = unsupported("forms.getMouseX", "the mouse over picture boxes is not logged yet")
forms.getMouseY = unsupported("forms.getMouseY", "the mouse over picture boxes is not logged yet")
forms.openfile = unsupported("forms.openfile", "no file dialogs for scripts: they use their own folder")
gbhost.stub_library(forms, "forms")

input = {
  get = ui.input_get,
  getmouse = ui.input_getmouse,
}
gbhost.stub_library(input, "input")

-- client: the calls about the app's window. Pausing, screenshots and reboots are requests the
-- app carries out after the frame (never on a replay); what a script reads back is its own
-- data, so replays see the same. Overlays are drawn in game pixels, so the window's size is 1
-- (one game pixel a unit) and its position 0, 0.
local paused = false
client.pause = function() paused = true gbhost.client("pause") end
client.unpause = function() paused = false gbhost.client("unpause") end
client.togglepause = function() paused = not paused gbhost.client("togglepause") end
-- What the script last asked (the user's own pauses are not the script's input).
client.ispaused = function() return paused end
client.screenshot = function(path)
  if path == nil then
    error("client.screenshot: give a path in the script's folder (\"shot.png\")", 2)
  end
  gbhost.client("screenshot", tostring(path))
end
client.getwindowsize = function() return 1 end
client.xpos = function() return 0 end
client.ypos = function() return 0 end
client.reboot_core = function() gbhost.client("reboot") end
-- Extra room around the game that overlays can draw into (negative coordinates, or past
-- 160 x 144); the client's padding is the same room here (gbhost draws no other chrome).
local function padding(who)
  return function(l, t, r, b)
    local p = {}
    for i, v in ipairs({ l or 0, t or 0, r or 0, b or 0 }) do
      local n = int(v, 0, who, "padding")
      if n < 0 or n > 1024 then error(who .. ": padding must be 0-1024 pixels", 2) end
      p[i] = n
    end
    ui.padding = p
    touch()
  end
end
client.SetGameExtraPadding = padding("client.SetGameExtraPadding")
client.SetClientExtraPadding = padding("client.SetClientExtraPadding")
client.borderwidth = function() return ui.padding[1] end
client.borderheight = function() return ui.padding[2] end

-- gui.createcanvas: a window of its own with one picture box filling it (BizHawk's LuaCanvas),
-- drawn with the picture box's calls.
local CANVAS_TODO = "canvas shapes other than boxes, lines, pixels and text are not built yet"
gui.createcanvas = function(w, h, x, y)
  local form = forms.newform(w, h, "Lua canvas")
  local box = forms.pictureBox(form, 0, 0, w, h)
  if x and y then forms.setlocation(form, x, y) end
  local fns = {
    Clear = function(color) forms.clear(box, color) end,
    Refresh = function() forms.refresh(box) end,
    SetTitle = function(title) forms.settext(form, title) end,
    SetLocation = function(px, py) forms.setlocation(form, px, py) end,
    SetDefaultForegroundColor = function(color) forms.setDefaultForegroundColor(box, color) end,
    SetDefaultBackgroundColor = function(color) forms.setDefaultBackgroundColor(box, color) end,
    SetDefaultTextBackground = function(color) forms.setDefaultTextBackground(box, color) end,
    DrawBox = function(...) forms.drawBox(box, ...) end,
    DrawRectangle = function(...) forms.drawRectangle(box, ...) end,
    DrawLine = function(...) forms.drawLine(box, ...) end,
    DrawPixel = function(...) forms.drawPixel(box, ...) end,
    DrawText = function(...) forms.drawText(box, ...) end,
    DrawAxis = function(px, py, size, color)
      forms.drawLine(box, px - size, py, px + size, py, color)
      forms.drawLine(box, px, py - size, px, py + size, color)
    end,
    ClearImageCache = function() end,
  }
  fns.DrawString = fns.DrawText
  -- Called as canvas.DrawText(...) (BizHawk's table) or canvas:DrawText(...): both work.
  local c = {}
  for name, fn in pairs(fns) do
    c[name] = function(first, ...)
      if first == c then return fn(...) end
      return fn(first, ...)
    end
  end
  for _, name in ipairs({ "DrawArc", "DrawBezier", "DrawEllipse", "DrawIcon", "DrawImage",
                          "DrawImageRegion", "DrawPie", "DrawPolygon", "GetMouseX", "GetMouseY",
                          "save_image_to_disk" }) do
    c[name] = unsupported("LuaCanvas." .. name, CANVAS_TODO)
  end
  return gbhost.stub_library(c, "LuaCanvas")
end
