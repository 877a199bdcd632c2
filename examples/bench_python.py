"""gbhost's Python module against PyBoy, side by side in one run: frames per second, medians of 7
interleaved rounds (each from power-on plus 60 frames, then 3,000 frames timed, 1,500 when
drawn), of a Python loop `step(1, render=False)` against `tick(1, False)`, bulk
`step(600, render=False)` calls against `tick(600, False)`, and a loop drawing every frame and
reading the screen (`step(1, True)` + `screen`) against `tick(1, True)` + `screen.ndarray`.

    pip install ./host/python pyboy
    python examples/bench_python.py ../shared/roms/blargg/cpu_instrs/cpu_instrs.gb
    python examples/bench_python.py ../shared/roms/homebrew/tobutobugirl/tobutobugirl.gb

Both run the model the ROM's header asks for (cpu_instrs: the Game Boy Color) with no history
and no sound; `python examples/bench_python.py ROM dmg` runs both as the original Game Boy.
"""
import time, statistics, sys
import gbhost
from pyboy import PyBoy
ROM = sys.argv[1] if len(sys.argv) > 1 else None
# `dmg` as a second argument runs both as the original Game Boy (PyBoy's `cgb=False`).
DMG = len(sys.argv) > 2 and sys.argv[2] == "dmg"
MODEL = "dmg" if DMG else "auto"
ROUNDS = 7
# Frames timed per measure: long enough (tens of milliseconds) that a scheduler hiccup on a
# shared machine moves one measure, not the median.
BULK, LOOP, DRAWN = 5, 3000, 1500
def gb_bulk():
    g = gbhost.GameBoy(ROM, model=MODEL, history_mib=0); g.step(60, False)
    t=time.perf_counter()
    for _ in range(BULK): g.step(600, False)
    return BULK*600/(time.perf_counter()-t)
def gb_loop():
    g = gbhost.GameBoy(ROM, model=MODEL, history_mib=0); g.step(60, False)
    t=time.perf_counter()
    for _ in range(LOOP): g.step(1, False)
    return LOOP/(time.perf_counter()-t)
def gb_render():
    g = gbhost.GameBoy(ROM, model=MODEL, history_mib=0); g.step(60, False)
    t=time.perf_counter()
    for _ in range(DRAWN): g.step(1, True); g.screen
    return DRAWN/(time.perf_counter()-t)
def pyboy():
    p = PyBoy(ROM, window='null', cgb=False if DMG else None); p.set_emulation_speed(0); p.tick(60, False)
    return p
def pb_bulk():
    p = pyboy()
    t=time.perf_counter()
    for _ in range(BULK): p.tick(600, False)
    return BULK*600/(time.perf_counter()-t)
def pb_loop():
    p = pyboy()
    t=time.perf_counter()
    for _ in range(LOOP): p.tick(1, False)
    return LOOP/(time.perf_counter()-t)
def pb_render():
    p = pyboy()
    t=time.perf_counter()
    for _ in range(DRAWN): p.tick(1, True); p.screen.ndarray
    return DRAWN/(time.perf_counter()-t)
if len(sys.argv) < 2:
    sys.exit(__doc__)
measures = {
 'gbhost step(600,False)': gb_bulk, 'pyboy tick(600,False)': pb_bulk,
 'gbhost step(1,False)': gb_loop, 'pyboy tick(1,False)': pb_loop,
 'gbhost step(1,True)+screen': gb_render, 'pyboy tick(1,True)+ndarray': pb_render,
}
# Rounds interleave the two emulators, so a slow stretch of the machine hits both.
runs = {k: [] for k in measures}
for _ in range(ROUNDS):
    for k, f in measures.items():
        runs[k].append(f())
r = {k: statistics.median(v) for k, v in runs.items()}
for k, v in r.items():
    print(f"{k}: {v:.0f} fps")
pairs = [("step(600,False)", "tick(600,False)"), ("step(1,False)", "tick(1,False)"),
         ("step(1,True)+screen", "tick(1,True)+ndarray")]
for a, b in pairs:
    ratios = [x / y for x, y in zip(runs['gbhost ' + a], runs['pyboy ' + b])]
    print(f"ratio {a} / {b}: {r['gbhost ' + a] / r['pyboy ' + b]:.2f}x "
          f"(per round: {min(ratios):.2f}-{max(ratios):.2f}x)")
