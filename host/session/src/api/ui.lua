-- Script windows (run after prelude.lua in every script VM): the data of the windows a script
-- opens, BizHawk's forms and mGBA's text buffers, kept here in the arena so that they roll
-- back with the script. The host never holds them: it asks for their description
-- (`gbhost.ui_view`) after a frame in which they changed (`gbhost.ui_changed` tells it, once),
-- and shows it; what the user does in them comes back as logged events (`gbhost.form_event`).
-- The host's keys and mouse arrive the same way (`gbhost.host_input`).

local ui = {
  forms = {},     -- open forms, in creation order
  buffers = {},   -- text buffers, in creation order
  handles = {},   -- handle -> form, control or buffer
  next = 0,
  dirty = false,
  padding = { 0, 0, 0, 0 },  -- extra drawing room around the game (left, top, right, bottom)
}
gbhost.ui = ui

-- Mark the windows changed: the host asks for their description at the frame's end.
function ui.touch()
  if not ui.dirty then
    ui.dirty = true
    gbhost.ui_changed()
  end
end

-- A new handle for `obj` (handles are never reused within a script's life).
function ui.handle(obj)
  ui.next = ui.next + 1
  ui.handles[ui.next] = obj
  obj.handle = ui.next
  return ui.next
end

-- The description the host shows (every window, packed little-endian; api/ui.rs reads it).
function gbhost.ui_view()
  ui.dirty = false
  local out = { string.pack("<I4", #ui.forms) }
  for _, f in ipairs(ui.forms) do
    out[#out + 1] = string.pack("<I4s4i4i4i4i4I4", f.handle, f.title, f.x, f.y, f.w, f.h,
      #f.controls)
    for _, c in ipairs(f.controls) do
      local flags = (c.visible and 1 or 0) | (c.enabled and 2 or 0) | (c.checked and 4 or 0)
        | (c.multiline and 8 or 0)
      out[#out + 1] = string.pack("<I4Bi4i4i4i4BI4s4I4", c.handle, c.kind, c.x, c.y, c.w, c.h,
        flags, c.bg or 0, c.text, #c.items)
      for _, item in ipairs(c.items) do out[#out + 1] = string.pack("<s4", item) end
      out[#out + 1] = string.pack("<I4", #c.cmds)
      for _, cmd in ipairs(c.cmds) do out[#out + 1] = cmd end
    end
  end
  out[#out + 1] = string.pack("<I4", #ui.buffers)
  for _, b in ipairs(ui.buffers) do
    out[#out + 1] = string.pack("<I4s4I4I4I4I4I4", b.handle, b.name, b.cols, b.rows, b.x, b.y,
      #b.lines)
    for _, line in ipairs(b.lines) do out[#out + 1] = string.pack("<s4", line) end
  end
  local p = ui.padding
  out[#out + 1] = string.pack("<I4I4I4I4", p[1], p[2], p[3], p[4])
  return table.concat(out)
end

-- A user's action on control `handle` (kind: 0 click, 1 check, 2 text, 3 select, 4 close).
-- Controls destroyed since the action was taken ignore it.
function gbhost.form_event(handle, kind, value)
  local obj = ui.handles[handle]
  if obj and obj.on_event then obj.on_event(kind, value) end
end

-- A reload runs the new code on the script's data, and the new code opens its windows again
-- (as it registers its hooks again): the old ones go with the old hooks.
local reset_hooks = gbhost.reset_hooks
function gbhost.reset_hooks()
  reset_hooks()
  if #ui.forms > 0 or #ui.buffers > 0 or ui.padding[1] + ui.padding[2] + ui.padding[3]
      + ui.padding[4] > 0 then
    ui.forms, ui.buffers, ui.handles, ui.padding = {}, {}, {}, { 0, 0, 0, 0 }
    ui.touch()
  end
end

-- The host's keys and mouse (logged while a script reads them; the same on every replay).
local host = { keys = {}, x = 0, y = 0, buttons = 0, wheel = 0 }
function gbhost.host_input(keys, x, y, buttons, wheel)
  local held = {}
  for k in keys:gmatch("[^\n]+") do held[k] = true end
  host.keys, host.x, host.y, host.buttons, host.wheel = held, x, y, buttons, wheel
end
-- `input.get()`: the keys held, as a table of name = true.
function ui.input_get()
  gbhost.input_used()
  local t = {}
  for k in pairs(host.keys) do t[k] = true end
  return t
end
-- `input.getmouse()`: the pointer in game-screen pixels and its buttons.
function ui.input_getmouse()
  gbhost.input_used()
  return { X = host.x, Y = host.y, Left = host.buttons & 1 ~= 0, Right = host.buttons & 2 ~= 0,
           Middle = host.buttons & 4 ~= 0, Wheel = host.wheel, XButton1 = false,
           XButton2 = false }
end
input = gbhost.strict("input", { get = ui.input_get, getmouse = ui.input_getmouse })
