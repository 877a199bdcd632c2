-- Input display with frame and lag counters, for any game: the eight buttons as the game sees
-- them this frame (the user's plus any script's), the frame count and the lag frames (frames
-- in which the game did not read the joypad), drawn in the bottom-left corner.

local LAYOUT = {
  { "Up", 8, 0 }, { "Down", 8, 8 }, { "Left", 2, 4 }, { "Right", 14, 4 },
  { "Select", 24, 8 }, { "Start", 34, 8 }, { "B", 46, 4 }, { "A", 54, 4 },
}
local LABEL = { Up = "^", Down = "v", Left = "<", Right = ">", Select = "s", Start = "S",
                B = "B", A = "A" }

event.on_frame_end(function()
  local pad = joypad.get()
  local x0, y0 = 2, 126
  gui.box(x0 - 2, y0 - 2, x0 + 62, y0 + 15, "#000000", 0xA0000000)
  for _, b in ipairs(LAYOUT) do
    local name, dx, dy = b[1], b[2], b[3]
    gui.pixel_text(x0 + dx, y0 + dy, LABEL[name], pad[name] and "#FFFF00" or 0xFF606060)
  end
  local lag = emu.islagged() and " LAG" or ""
  gui.pixel_text(68, 136, string.format("%d lag %d%s", emu.framecount(), emu.lagcount(), lag),
    emu.islagged() and "red" or "white", 0xA0000000)
end)

while true do emu.frameadvance() end
