-- RAM watch for any game: the bytes at the addresses below, in hex and decimal, with the ones
-- that changed this frame in yellow. Edit WATCH to follow what you need (addresses on the bus;
-- add a domain name as a third field for banked memory, e.g. { "save", 0x3A, "cartram" }).

local WATCH = {
  { "C000", 0xC000 }, { "C001", 0xC001 }, { "C002", 0xC002 }, { "C003", 0xC003 },
  { "SCY", 0xFF42 }, { "SCX", 0xFF43 }, { "LY", 0xFF44 },
}

local last = {}

event.on_frame_end(function()
  local y = 2
  gui.box(100, 0, 159, 4 + 8 * #WATCH, "#000000", 0xA0000000)
  for i, w in ipairs(WATCH) do
    local v = memory.read_u8(w[2], w[3])
    local changed = last[i] ~= nil and last[i] ~= v
    last[i] = v
    gui.pixel_text(102, y, string.format("%-4s %02X %3d", w[1], v, v), changed and "yellow" or "white")
    y = y + 8
  end
end)

while true do emu.frameadvance() end
