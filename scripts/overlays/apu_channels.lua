-- Each sound channel's note (or the noise channel's clock shift), volume and panning, from
-- the APU's read-only view (apu.channel): reading it changes nothing and logs nothing.
local NAMES = { "C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B" }

-- The nearest note of the equal-tempered scale, A4 = 440 Hz ("A4", "C#5").
local function note(hz)
  local n = math.floor(12 * math.log(hz / 440, 2) + 0.5) + 57 -- semitones from C0
  return NAMES[n % 12 + 1] .. (n // 12)
end

event.on_frame_end(function()
  local s = apu.state()
  gui.pixel_text(2, 2, s.powered and "APU on" or "APU off", "white", 0x80000000)
  for n = 1, 4 do
    local c = apu.channel(n)
    local volume = c.envelope and c.envelope.volume or c.wave.output_level
    local what = c.noise and ("noise " .. c.noise.clock_shift) or note(c.hz)
    local pan = (c.left and "L" or "-") .. (c.right and "R" or "-")
    local line = string.format("%d %-8s v%2d %s", n, c.playing and what or "off", volume, pan)
    gui.pixel_text(2, 2 + 7 * n, line, c.playing and "white" or "gray", 0x80000000)
  end
end)
