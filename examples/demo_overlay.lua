-- The demo cartridge's overlay (gbhost with no ROM runs it). It reads the ball from WRAM and
-- keeps a trail of its last positions in a Lua table: rewind, and the trail rewinds with the
-- ball, because the script's whole state rolls back with the game. Edit this file while the
-- game is rewound and the frame is drawn again with the new code.

-- A global, so a reload keeps it (the new code runs on the script's data).
trail = trail or {}

event.on_frame_end(function()
  local x, y = memory.read_u8(0xC000), memory.read_u8(0xC001)
  trail[#trail + 1] = { x, y }
  if #trail > 16 then table.remove(trail, 1) end
  for i, p in ipairs(trail) do
    gui.text(p[1] + 2, p[2] + 1, ".", 0xFF2080FF)
  end
  gui.text(x + 10, y, string.format("%d,%d", x, y), 0xFFD02020)
  gui.text(1, 135, string.format("frame %d  bounces %d", emu.framecount(), memory.read_u8(0xC005)),
    0xFF000000)
end)

while true do
  emu.frameadvance()
end
