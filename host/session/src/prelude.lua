-- The minimal gbhost Lua API, run in every script VM before the script itself. The host
-- functions it wraps are registered by the session (host/session/src/api.rs); everything
-- here lives in the script's arena and so rolls back with it.

local hooks = { frame_start = {}, frame_end = {} }
local next_hook = 0
local press, release = 0, 0

local buttons = {
  right = 0x01, left = 0x02, up = 0x04, down = 0x08,
  a = 0x10, b = 0x20, select = 0x40, start = 0x80,
}

local function add_hook(list, fn, who)
  if type(fn) ~= "function" then
    error(who .. ": expected a function, got " .. type(fn), 3)
  end
  next_hook = next_hook + 1
  list[#list + 1] = { id = next_hook, fn = fn }
  return next_hook
end

event = {
  onframestart = function(fn) return add_hook(hooks.frame_start, fn, "event.onframestart") end,
  onframeend = function(fn) return add_hook(hooks.frame_end, fn, "event.onframeend") end,
  unregister = function(id)
    for _, list in pairs(hooks) do
      for i = #list, 1, -1 do
        if list[i].id == id then table.remove(list, i) return true end
      end
    end
    return false
  end,
}
event.on_frame_start = event.onframestart
event.on_frame_end = event.onframeend

emu = emu or {}
emu.frameadvance = function() coroutine.yield() end
emu.yield = emu.frameadvance

joypad = {
  set = function(t)
    if math.type(t) == "integer" then
      -- A bit mask (bit 0 Right … bit 7 Start): exactly these buttons are held.
      press, release = t & 0xFF, ~t & 0xFF
      return
    end
    if type(t) ~= "table" then error("joypad.set: expected a table of buttons or a mask", 2) end
    for k, v in pairs(t) do
      local bit = type(k) == "string" and buttons[string.lower(k)]
      if not bit then error("joypad.set: unknown button '" .. tostring(k) .. "'", 2) end
      if v == true then
        press, release = press | bit, release & ~bit
      elseif v == false then
        press, release = press & ~bit, release | bit
      end
    end
  end,
}

console = console or {}
console.log = print

persist = setmetatable({}, {
  __index = function(_, k) return gbhost.persist_get(k) end,
  __newindex = function(_, k, v) gbhost.persist_set(k, v) end,
})

local function run(list)
  for _, h in ipairs(list) do h.fn() end
end

-- Called by the session at the start of each frame: runs the frame-start hooks, then hands
-- over (and clears) the buttons scripts pressed and released for this frame.
function gbhost.frame_start()
  run(hooks.frame_start)
  local p, r = press, release
  press, release = 0, 0
  return p, r
end

-- Called by the session at the end of each frame.
function gbhost.frame_end()
  run(hooks.frame_end)
end

-- Called before a reload: the new code registers its hooks again.
function gbhost.reset_hooks()
  hooks.frame_start, hooks.frame_end = {}, {}
end
