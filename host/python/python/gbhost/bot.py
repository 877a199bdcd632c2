"""A bot farm on Ray: BizHawk's Basic Bot, on as many cores and machines as you have.

From a start (the ROM's power-on, or a saved state), try K random input sequences of N frames
and keep the one that maximizes a RAM objective (then tie-breaks), as a ``.gbm`` movie the app
plays::

    python -m gbhost.bot game.gb --state start.gbs --frames 600 \\
        --maximize "u8(0xC0A2)" --tiebreak "-u8(0xC0B0)" \\
        --press A=0.5,Right=0.3 --attempts 1000 --workers 2 --out best.gbm

``ray.init()`` with no address starts a local Ray on this machine (the default);
``--address`` joins a cluster started with ``ray start --head`` (and ``ray start
--address=HEAD:6379`` on the other machines). Each worker (a Ray actor) holds a GameBoy and
the start state. Attempt k's inputs depend only on the seed and k, and the best attempt is the
highest score, then the lowest k: the same seed gives the same result whatever the number of
workers.

Objectives are Python expressions over the machine's memory at the last frame:
``u8(addr)``, ``i8``, ``u16le``, ``u16be``, ``u32le``, with ``+ - * // min max abs``;
or, from Python (``search``), any callable taking the GameBoy.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import sys
import time
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

from . import GameBoy

__all__ = ["search", "Result", "attempt_inputs", "evaluate", "main"]

Objective = Union[str, Callable[[GameBoy], float]]


def _reader(gb: GameBoy) -> Dict[str, Callable]:
    mem = gb.memory

    def u8(a):
        return mem[a]

    def i8(a):
        v = mem[a]
        return v - 256 if v >= 128 else v

    def u16le(a):
        return mem[a] | mem[a + 1] << 8

    def u16be(a):
        return mem[a] << 8 | mem[a + 1]

    def u32le(a):
        return u16le(a) | u16le(a + 2) << 16

    return {"u8": u8, "i8": i8, "u16le": u16le, "u16be": u16be, "u32le": u32le,
            "min": min, "max": max, "abs": abs}


def evaluate(gb: GameBoy, objectives: Sequence[Objective]) -> Tuple[float, ...]:
    """The objectives' values on ``gb`` now (expressions or callables)."""
    names = _reader(gb)
    out = []
    for o in objectives:
        if callable(o):
            out.append(float(o(gb)))
        else:
            out.append(float(eval(o, {"__builtins__": {}}, names)))  # noqa: S307 (the user's own expression)
    return tuple(out)


def attempt_inputs(seed: int, k: int, frames: int, press: Dict[str, float], hold: int) -> List[List[str]]:
    """Attempt ``k``'s buttons, a list per frame: each button pressed with its probability,
    chosen every ``hold`` frames (from ``seed`` and ``k`` only)."""
    rng = random.Random(seed * 1_000_003 + k)
    out: List[List[str]] = []
    held: List[str] = []
    for f in range(frames):
        if f % max(hold, 1) == 0:
            held = [b for b, p in press.items() if rng.random() < p]
        out.append(held)
    return out


def _run(gb: GameBoy, start: Optional[bytes], inputs: List[List[str]]) -> None:
    if start is not None:
        gb.load_state(start)
    last: Optional[List[str]] = None
    pending = 0
    # Runs of equal input are stepped at once (fewer calls); only the last frame is drawn.
    for buttons in inputs:
        if buttons != last and pending:
            gb.buttons = last
            gb.step(pending, render=False)
            pending = 0
        last = buttons
        pending += 1
    if pending:
        gb.buttons = last
        gb.step(pending, render=False)


class _Worker:
    """What each Ray actor holds: a GameBoy and the start."""

    def __init__(self, rom: bytes, start: Optional[bytes], model: str):
        self.gb = GameBoy(rom, model=model, history_mib=0)
        self.start = start

    def run(self, ks: Sequence[int], seed: int, frames: int, press: Dict[str, float], hold: int,
            objectives: Sequence[Objective]) -> List[Tuple[Tuple[float, ...], int]]:
        out = []
        for k in ks:
            if self.start is None:
                self.gb.load_state(self.power_on)
            _run(self.gb, self.start, attempt_inputs(seed, k, frames, press, hold))
            out.append((evaluate(self.gb, objectives), k))
        return out

    def ready(self) -> bool:
        if self.start is None:
            self.power_on = self.gb.save_state()
        return True


@dataclasses.dataclass
class Result:
    """A search's outcome."""

    #: The best attempt's scores (the objective, then the tie-breaks).
    score: Tuple[float, ...]
    #: Its number (its inputs: ``attempt_inputs(seed, attempt, …)``).
    attempt: int
    #: Its buttons, a list per frame.
    inputs: List[List[str]]
    #: Every attempt's first score, by attempt number (for comparing with random play).
    scores: List[float]
    #: Attempts per second, and the seconds Ray took to start.
    rate: float
    startup: float


def search(
    rom: Union[str, os.PathLike, bytes],
    frames: int,
    objectives: Sequence[Objective],
    attempts: int,
    workers: int = 2,
    state: Optional[bytes] = None,
    press: Optional[Dict[str, float]] = None,
    hold: int = 4,
    seed: int = 0,
    address: Optional[str] = None,
    model: str = "auto",
    chunk: int = 8,
    progress: bool = True,
) -> Result:
    """Run the search on Ray (see the module docs); returns the best attempt."""
    import ray

    if isinstance(rom, (str, os.PathLike)):
        with open(rom, "rb") as f:
            rom = f.read()
    press = dict(press or {"A": 0.5, "Right": 0.3, "Left": 0.2})
    t0 = time.perf_counter()
    started_here = not ray.is_initialized()
    if started_here:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=max(workers, 1), log_to_driver=False, include_dashboard=False)
    actor = ray.remote(num_cpus=1)(_Worker)
    pool = [actor.remote(rom, state, model) for _ in range(max(workers, 1))]
    ray.get([w.ready.remote() for w in pool])
    startup = time.perf_counter() - t0
    t1 = time.perf_counter()
    todo = [list(range(i, min(i + chunk, attempts))) for i in range(0, attempts, chunk)]
    running = {}
    results: List[Tuple[Tuple[float, ...], int]] = []
    free = list(pool)
    while todo or running:
        while todo and free:
            w = free.pop()
            running[w.run.remote(todo.pop(0), seed, frames, press, hold, list(objectives))] = w
        done, _ = ray.wait(list(running), num_returns=1)
        for ref in done:
            free.append(running.pop(ref))
            results.extend(ray.get(ref))
        if progress:
            best = max(results, key=lambda r: (r[0], -r[1]))
            rate = len(results) / max(time.perf_counter() - t1, 1e-9)
            print(f"\r{len(results)}/{attempts} attempts, {rate:.1f}/s, best {best[0]} (#{best[1]})",
                  end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    elapsed = time.perf_counter() - t1
    for w in pool:
        ray.kill(w)
    if started_here:
        ray.shutdown()
    best = max(results, key=lambda r: (r[0], -r[1]))
    by_k = sorted(results, key=lambda r: r[1])
    return Result(
        score=best[0],
        attempt=best[1],
        inputs=attempt_inputs(seed, best[1], frames, press, hold),
        scores=[r[0][0] for r in by_k],
        rate=len(results) / max(elapsed, 1e-9),
        startup=startup,
    )


def write_movie(rom, state: Optional[bytes], inputs: List[List[str]], path, model: str = "auto",
                objectives: Sequence[Objective] = ()) -> Tuple[float, ...]:
    """Replay ``inputs`` from the start and record them as a ``.gbm`` movie; returns the
    objectives' values at its end (the same the search found: the run is deterministic)."""
    gb = GameBoy(rom, model=model, history_mib=0)
    if state is not None:
        gb.load_state(state)
    gb.record_movie(path, authors=["gbhost.bot"])
    _run(gb, None, inputs)
    gb.stop_movie()
    return evaluate(gb, objectives)


def _press(text: str) -> Dict[str, float]:
    out = {}
    for part in text.split(","):
        name, _, p = part.partition("=")
        out[name.strip()] = float(p or 0.5)
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line (see the module docs)."""
    ap = argparse.ArgumentParser(prog="python -m gbhost.bot", description=__doc__.split("\n\n")[0])
    ap.add_argument("rom")
    ap.add_argument("--state", help="start from this state file (the app's .gbs, or save_state's bytes)")
    ap.add_argument("--frames", type=int, required=True, help="frames per attempt")
    ap.add_argument("--maximize", required=True, help="the objective, e.g. 'u8(0xC0A2)'")
    ap.add_argument("--tiebreak", action="append", default=[], help="tie-breaks, in order")
    ap.add_argument("--press", default="A=0.5,Right=0.3,Left=0.2", help="buttons and probabilities")
    ap.add_argument("--hold", type=int, default=4, help="frames each choice is held")
    ap.add_argument("--attempts", type=int, required=True)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--address", help="a Ray cluster's address (default: a local Ray)")
    ap.add_argument("--model", default="auto")
    ap.add_argument("--out", default="best.gbm", help="the best attempt as a movie")
    args = ap.parse_args(argv)
    with open(args.rom, "rb") as f:
        rom = f.read()
    state = None
    if args.state:
        with open(args.state, "rb") as f:
            state = f.read()
    objectives = [args.maximize, *args.tiebreak]
    r = search(rom, args.frames, objectives, args.attempts, args.workers, state, _press(args.press),
               args.hold, args.seed, args.address, args.model)
    end = write_movie(rom, state, r.inputs, args.out, args.model, objectives)
    print(f"best: attempt #{r.attempt}, score {r.score}; replayed from the movie: {end}")
    print(f"attempts/s: {r.rate:.1f} with {args.workers} worker(s); Ray start-up {r.startup:.1f} s")
    print(f"movie: {args.out}")
    return 0 if end == r.score else 1


if __name__ == "__main__":
    sys.exit(main())
