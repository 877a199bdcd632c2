-- A TAS input script (coroutine style): a seeded pseudo-random walk of button presses, one decision per
-- frame, written as a coroutine (BizHawk style). Deterministic: the same frames get the same
-- buttons on every run and after every rewind. Its state (the generator, the counters) lives
-- in the script's arena, so a rewind rolls it back with the game.

local seed = 12345
local function rand(n)
  -- xorshift32, kept in 32 bits
  seed = seed ~ ((seed << 13) & 0xFFFFFFFF)
  seed = seed ~ (seed >> 17)
  seed = seed ~ ((seed << 5) & 0xFFFFFFFF)
  return seed % n
end

local held = {}
local presses = 0
local phase = "waiting"

-- One frame, with the bot's status on screen.
local function advance()
  gui.text(0, 136, string.format("bot: %s, %d changes", phase, presses), "#FFFF00")
  emu.frameadvance()
end

-- Title and menu: press Start a few times, then play.
for _ = 1, 100 do advance() end
phase = "menus"
for _ = 1, 3 do
  joypad.set({ Start = true })
  advance()
  for _ = 1, 40 do advance() end
end

phase = "playing"
while true do
  if rand(8) == 0 then
    local dir = rand(3)
    held = { Left = dir == 0, Right = dir == 1, A = rand(2) == 0 }
    presses = presses + 1
  end
  joypad.set(held)
  advance()
end
