"""gbhost's Python module against PyBoy, side by side in one run: frames per second, medians of 5
rounds, of a Python loop `step(1, render=False)` against `tick(1, False)`, a bulk
`step(600, render=False)` against `tick(600, False)`, and a loop drawing every frame and
reading the screen (`step(1, True)` + `screen`) against `tick(1, True)` + `screen.ndarray`.

    pip install ./host/python pyboy
    python examples/bench_python.py ../shared/roms/blargg/cpu_instrs/cpu_instrs.gb
    python examples/bench_python.py ../shared/roms/homebrew/tobutobugirl/tobutobugirl.gb

Both run the model the ROM's header asks for (cpu_instrs: the Game Boy Color) with no history
and no sound.
"""
import time, statistics, sys
import gbhost
from pyboy import PyBoy
ROM = sys.argv[1] if len(sys.argv) > 1 else None
def med(f, rounds=5):
    """The median of `rounds` measures."""
    return statistics.median(f() for _ in range(rounds))
def gb_bulk():
    g = gbhost.GameBoy(ROM, history_mib=0); g.step(60, False)
    t=time.perf_counter(); g.step(600, False); return 600/(time.perf_counter()-t)
def gb_loop():
    g = gbhost.GameBoy(ROM, history_mib=0); g.step(60, False)
    t=time.perf_counter()
    for _ in range(600): g.step(1, False)
    return 600/(time.perf_counter()-t)
def gb_render():
    g = gbhost.GameBoy(ROM, history_mib=0); g.step(60, False)
    t=time.perf_counter()
    for _ in range(300): g.step(1, True); g.screen
    return 300/(time.perf_counter()-t)
def pb(render, bulk):
    p = PyBoy(ROM, window='null'); p.set_emulation_speed(0); p.tick(60, False)
    t=time.perf_counter()
    if bulk: p.tick(600, False); n=600
    else:
        n = 300 if render else 600
        for _ in range(n):
            p.tick(1, render)
            if render: p.screen.ndarray
    return n/(time.perf_counter()-t)
if len(sys.argv) < 2:
    sys.exit(__doc__)
r = {
 'gbhost step(600,False)': med(gb_bulk), 'pyboy tick(600,False)': med(lambda: pb(False, True)),
 'gbhost step(1,False)': med(gb_loop), 'pyboy tick(1,False)': med(lambda: pb(False, False)),
 'gbhost step(1,True)+screen': med(gb_render), 'pyboy tick(1,True)+ndarray': med(lambda: pb(True, False)),
}
for k, v in r.items():
    print(f"{k}: {v:.0f} fps")
pairs = [("step(600,False)", "tick(600,False)"), ("step(1,False)", "tick(1,False)"),
         ("step(1,True)+screen", "tick(1,True)+ndarray")]
for a, b in pairs:
    print(f"ratio {a} / {b}: {r['gbhost ' + a] / r['pyboy ' + b]:.2f}x")
