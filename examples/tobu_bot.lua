-- A bot for Tobu Tobu Girl (homebrew/tobutobugirl/tobutobugirl.gb) that plays its first level:
-- A and Start through the logos, the intro, the title and the menu (the press pattern of
-- gb_testkit's TOBU_PLAY_LUA), then, from frame 1200, it steers toward the nearest enemy at
-- or below the girl (her sprite is OAM entries 1-2, the enemies' from entry 7 on) and dashes
-- (A) when she falls low. Every frame it prints the buttons it pressed (`input FRAME
-- BUTTONS`), which examples/gameplay_movies.py types into the TAS editor to make
-- examples/tobu_gameplay.gbm. Deterministic: it reads only the machine.
--
--   gbhost headless tobutobugirl.gb --script examples/tobu_bot.lua --frames 4800
local names = { [0x01] = "Right", [0x02] = "Left", [0x10] = "A", [0x80] = "Start" }
local order = { 0x01, 0x02, 0x10, 0x80 }

local function say(f, mask)
  local t = {}
  for _, bit in ipairs(order) do
    if mask & bit ~= 0 then t[#t + 1] = names[bit] end
  end
  print(string.format("input %d %s", f, #t > 0 and table.concat(t, "+") or "."))
end

event.on_frame_start(function()
  local f = emu.framecount()
  local mask = 0
  if f < 1200 then
    if f % 60 < 3 then mask = 0x10 end
    if f % 120 == 30 then mask = mask | 0x80 end
  else
    local px = memory.read_u8(5, "OAM")
    local py = memory.read_u8(4, "OAM")
    local target, ty = nil, 1000
    for i = 7, 39 do
      local y = memory.read_u8(i * 4, "OAM")
      local x = memory.read_u8(i * 4 + 1, "OAM")
      local tile = memory.read_u8(i * 4 + 2, "OAM")
      if y > 0 and x > 0 and tile >= 0x30 and y > py - 8 and y < ty then
        target, ty = x, y
      end
    end
    if target then
      if target > px + 4 then
        mask = mask | 0x01
      elseif target < px - 4 then
        mask = mask | 0x02
      end
    end
    if py > 120 and f % 8 < 4 then mask = mask | 0x10 end
  end
  joypad.set(mask)
  say(f, mask)
end)
