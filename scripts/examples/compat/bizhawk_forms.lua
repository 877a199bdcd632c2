-- A BizHawk-style trainer window, written against BizHawk's `forms` (it runs unmodified in
-- BizHawk and in gbhost, where the form is a window of the app): a button that counts, a
-- checkbox that freezes a WRAM byte, a textbox and a dropdown the HUD shows, and a picture box
-- with a little graph of the divider register (DIV, 0xFF04) sampled every frame. The form lives in the script: rewinding brings back the
-- form as it was, and every click is replayed with the game.

memory.usememorydomain("WRAM")
local form = forms.newform(300, 250, "Trainer", function() console.log("trainer closed") end)
local presses = 0
local status = forms.label(form, "presses: 0", 100, 12, 180, 20)
forms.button(form, "Press me", function()
  presses = presses + 1
  forms.settext(status, "presses: " .. presses)
end, 10, 10, 80, 24)
local freeze = forms.checkbox(form, "Freeze WRAM 0000", 10, 42)
local name = forms.textbox(form, "Player", 120, 20, nil, 10, 70)
local speed = forms.dropdown(form, { "Slow", "Normal", "Fast" }, 140, 70, 100, 20)
local graph = forms.pictureBox(form, 10, 100, 280, 140)
local frozen
local history = {}

while true do
  local value = mainmemory.read_u8(0x0000)
  if forms.ischecked(freeze) then
    frozen = frozen or value
    mainmemory.write_u8(0x0000, frozen)
  else
    frozen = nil
  end
  history[#history + 1] = memory.read_u8(0xFF04, "System Bus")
  if #history > 56 then table.remove(history, 1) end
  forms.clear(graph, 0xFF101820)
  forms.drawRectangle(graph, 0, 0, 279, 139, "gray")
  forms.drawText(graph, 4, 4, "DIV " .. history[#history] .. "  WRAM 0000 " .. value, "white")
  for i = 2, #history do
    forms.drawLine(graph, (i - 2) * 5, 135 - history[i - 1] // 2, (i - 1) * 5,
      135 - history[i] // 2, "lime")
  end
  forms.drawBox(graph, 250, 110, 270, 130, "red", "yellow")
  forms.drawPixel(graph, 260, 100, "white")
  forms.refresh(graph)
  gui.drawText(0, 0, forms.gettext(name) .. " (" .. forms.gettext(speed) .. ")", "white")
  emu.frameadvance()
end
