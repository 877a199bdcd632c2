-- An mGBA-style status panel, written against mGBA's scripting API (it runs unmodified in
-- mGBA and in gbhost, where each text buffer is a panel of the app): a buffer rewritten every
-- frame with a cursor moved to fixed places, and a log buffer that grows. Both live in the
-- script: rewinding brings their text back as it was.

local status = console:createBuffer("Status")
local log = console:createBuffer("Log")
status:setSize(32, 6)
log:setSize(48, 8)
local last = -1

callbacks:add("frame", function()
  local frame = emu:currentFrame()
  status:clear()
  status:print(string.format("frame   %8d\n", frame))
  status:print(string.format("C000    %8d\n", emu:read8(0xC000)))
  status:print(string.format("keys    %8s\n", string.format("%02X", emu:getKeys())))
  status:moveCursor(0, 4)
  status:print("title   " .. emu:getGameTitle())
  local value = emu.memory.wram:read8(0)
  if value ~= last and frame % 30 == 0 then
    log:print(string.format("[%d] WRAM 0000: %d -> %d\n", frame, last, value))
    last = value
  end
end)
console:log("status panel ready")
