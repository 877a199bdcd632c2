-- A BizHawk-style HUD, written against BizHawk's Lua API (it runs unmodified in BizHawk's Game
-- Boy cores and in gbhost through the BizHawk layer): a frame counter, a RAM watch on WRAM and
-- the buttons held, redrawn every frame in a `while true do … emu.frameadvance() end` loop.

memory.usememorydomain("WRAM")
local watch = { 0x0000, 0x0001 }
local history = {}

while true do
  local frame = emu.framecount()
  local value = mainmemory.read_u8(watch[1])
  history[#history + 1] = value
  if #history > 4 then table.remove(history, 1) end
  gui.drawText(0, 0, string.format("frame %d", frame), 0xFFFFFFFF)
  gui.drawBox(0, 10, 60, 20, 0xFF000000, 0x80000000)
  gui.pixelText(1, 11, string.format("%02X %02X", value, memory.readbyte(watch[2])))
  local pad = joypad.get(1)
  gui.drawText(0, 24, (pad.A and "A" or "-") .. (pad.B and "B" or "-"), "yellow")
  if frame % 100 == 0 then
    console.log(string.format("frame %d: [C000] history %s", frame, table.concat(history, ",")))
  end
  userdata.set("last", value)
  emu.frameadvance()
end
