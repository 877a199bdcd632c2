-- Trainer for Tobu Tobu Girl (homebrew by Tangram Games, MIT + CC BY 4.0): finds the game's
-- save data in cartridge RAM by its "TOBUTOBU" signature (memory.search, in native code),
-- switches on the game's hidden dash counter, and shows the best time and score of each level.
-- The save data layout is the one in the game's source (ram.c): 2 bytes per record (seconds,
-- score), 10 bytes per level at 0, 16, 32 and 48; byte 58 shows the dash counter.

local base

local function find()
  local hits = memory.search("TOBUTOBU", "cartram")
  if hits[1] then base = hits[1] - 120 end
end

event.on_frame_end(function()
  if not base then
    find()
    if not base then
      gui.pixel_text(2, 2, "waiting for save data", "yellow", 0xA0000000)
      return
    end
    console.log(string.format("save data found at cartram %04X", base))
  end
  if memory.read_u8(base + 58, "cartram") ~= 1 then
    memory.write_u8(base + 58, 1, "cartram")
  end
  for level = 1, 4 do
    local at = base + (level - 1) * 16
    local secs, score = memory.read_u8(at, "cartram"), memory.read_u8(at + 1, "cartram")
    gui.pixel_text(2, 2 + (level - 1) * 7,
      string.format("L%d best %3ds %3d", level, secs, score), "white", 0xA0000000)
  end
end)

while true do emu.frameadvance() end
