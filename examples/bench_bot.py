"""The bot farm's speed: attempts per second with 1 and 2 Ray workers on Tobu Tobu Girl (the
first level, 600 frames per attempt), and Ray's start-up time (its fixed cost), one run each.

    pip install "./host/python[bot]"
    python examples/bench_bot.py ../shared/roms/homebrew/tobutobugirl/tobutobugirl.gb
"""

import sys

import gbhost
from gbhost import bot


def level_start(rom: bytes) -> bytes:
    gb = gbhost.GameBoy(rom, history_mib=0)
    for f in range(1, 1261):
        held = []
        if f < 1200 and f % 60 < 3:
            held.append("A")
        if f < 1200 and f % 120 == 30:
            held.append("Start")
        gb.buttons = held
        gb.step(1, render=False)
    return gb.save_state()


if len(sys.argv) < 2:
    sys.exit(__doc__)
rom = open(sys.argv[1], "rb").read()
start = level_start(rom)
rates = {}
for workers in (1, 2):
    r = bot.search(rom, frames=600, objectives=["(112 - u8(0xFF42)) % 256"], attempts=120,
                   workers=workers, state=start, hold=8, seed=1, progress=False)
    rates[workers] = r.rate
    print(f"workers {workers}: {r.rate:.1f} attempts/s ({r.rate * 600:.0f} frames/s), "
          f"Ray start-up {r.startup:.1f} s, best {r.score} (#{r.attempt})")
print(f"2 workers / 1: {rates[2] / rates[1]:.2f}x")
