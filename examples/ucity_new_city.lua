-- An input script for uCity (homebrew/ucity/ucity.gbc, a Game Boy Color game): from power-on
-- through the title, the menu (Random Map), a city name, a generated map, into a new city.
-- One button press per line of the plan, on the frame it names; deterministic, so a run with
-- it is the same every time (and rewinds with the game, as every script does).
--
--   gbhost headless ucity.gbc --script examples/ucity_new_city.lua --frames 3200 --screenshot city.png
local plan = {
  [950] = "Start",  -- the title: press any key
  [1100] = "Down",  -- the menu: Random Map
  [1150] = "A",
  [1400] = "A",     -- the city's name: "AAA"
  [1450] = "A",
  [1500] = "A",
  [1550] = "Start", -- end of the name
  [1800] = "A",     -- draw a map
  [2300] = "Start", -- play it
  [2700] = "A",
  [3000] = "A",
}
while true do
  local button = plan[emu.framecount()]
  if button then joypad.set({ [button] = true }) end
  emu.frameadvance()
end
