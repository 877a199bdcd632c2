-- A VBA-rr-style bot, written against VBA-rr's Lua API (it runs unmodified in VBA-rr and in
-- gbhost through the VBA layer): it saves a state, tries a button for a few frames, measures
-- the result, loads the state back and tries the next button, keeping the best. Its own
-- variables survive the loads (a load a script asks for does not roll the script back).

local state = savestate.create(1)
local buttons = { "a", "b", "start", "select" }
local best, best_score = nil, -1

savestate.save(state)
for round = 1, 3 do
  for _, name in ipairs(buttons) do
    for _ = 1, 8 do
      joypad.set(1, { [name] = true })
      vba.frameadvance()
    end
    local score = memory.readbyte(0xC001)
    if score > best_score then best, best_score = name, score end
    vba.print(string.format("round %d: %s scores %d", round, name, score))
    savestate.load(state)
  end
end
vba.print(string.format("best: %s (%d)", best, best_score))
gui.register(function() gui.text(0, 0, "best " .. best, 0x00FF00FF) end)
while true do vba.frameadvance() end
