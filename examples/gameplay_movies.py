#!/usr/bin/env python3
"""Record the benchmark's gameplay movies: examples/tobu_gameplay.gbm and ucity_gameplay.gbm.

Each movie is typed into the TAS editor through gbhost's REPL (`movie edit` over a session at
power-on, the input appended run by run with `movie insert`, a marker where the gameplay
starts, `movie save`), so it holds frame-aligned joypad input only, from power-on with an
empty battery save: what `gbhost bench ROM --movie FILE --from FRAME` replays. The input is
fixed (no randomness), so recording again on the same core gives the same input and states
(the file's bytes differ: it also holds when it was recorded).

    python3 examples/gameplay_movies.py [GBHOST] [ROMS]

GBHOST defaults to target/release/gbhost (or $CARGO_TARGET_DIR/release/gbhost), ROMS to
../shared/roms. The ROMs are copied into a temporary folder (battery saves go beside the copy)
and never into the repository: a movie names its ROM by hash.
"""

import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent


def runs(frames):
    """Run-length form of a list of button strings: [(first, count, buttons)]."""
    out = []
    for f, b in enumerate(frames):
        if out and out[-1][2] == b:
            out[-1][1] += 1
        else:
            out.append([f, 1, b])
    return out


def tobu(gbhost, rom):
    """Tobu Tobu Girl: examples/tobu_bot.lua's presses through the logos, the intro, the
    title and the menu, then its play of the first level for a minute (3,600 frames)."""
    gameplay = 1200
    total = gameplay + 3600
    out = subprocess.run([gbhost, "headless", str(rom), "--script", str(HERE / "tobu_bot.lua"),
                          "--frames", str(total)], check=True, capture_output=True, text=True,
                         env=ENV)
    frames = ["."] * total
    for line in out.stdout.splitlines():
        if line.startswith("log: input "):
            _, _, f, buttons = line.split()
            if int(f) < total:
                frames[int(f)] = buttons
    return frames, gameplay


def ucity():
    """uCity: examples/ucity_new_city.lua's plan into a new city (Random Map, the name AAA,
    a generated map, its first info box), then from frame 3100 a minute of panning the map in
    every direction while the city's clock runs."""
    presses = {950: "Start", 1100: "Down", 1150: "A", 1400: "A", 1450: "A", 1500: "A",
               1550: "Start", 1800: "A", 2300: "Start", 2700: "A", 3000: "A"}
    gameplay = 3100
    pans = ["Right", "Down", "Left", "Up", "Right", "Right+Down", "Down", "Left+Up"]
    frames = []
    for f in range(gameplay + 3600):
        if f >= gameplay:
            frames.append(pans[(f - gameplay) // 90 % len(pans)])
        else:
            frames.append(presses.get(f, "."))
    return frames, gameplay


def record(gbhost, rom, out, frames, gameplay):
    lines = ["movie edit"]
    for first, count, buttons in runs(frames):
        lines.append(f"movie insert {first} {count} {buttons}")
    lines.append(f"movie marker {gameplay} gameplay")
    lines.append(f"movie goto {len(frames) - 1}")
    lines.append(f"movie save {out}")
    lines.append("quit")
    subprocess.run([gbhost, "run", str(rom), "--repl", "--no-window", "--paused", "--mute"],
                   input="\n".join(lines) + "\n", text=True, env=ENV, check=True,
                   stdout=subprocess.DEVNULL)
    pathlib.Path(str(out) + ".branches").unlink(missing_ok=True)
    subprocess.run([gbhost, "movie", "play", str(rom), str(out)], check=True, env=ENV,
                   stderr=subprocess.DEVNULL)
    print(f"{out}: {len(frames)} frames, gameplay from frame {gameplay}")


ENV = dict(os.environ)


def main():
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", HERE.parent / "target"))
    gbhost = sys.argv[1] if len(sys.argv) > 1 else str(target / "release" / "gbhost")
    roms = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else HERE.parent.parent / "shared" / "roms")
    with tempfile.TemporaryDirectory() as work:
        work = pathlib.Path(work)
        # No battery save, no user config: the movies start from a blank cartridge RAM.
        ENV.update(XDG_DATA_HOME=str(work / "data"), GBHOST_CONFIG=str(work / "config.toml"))
        tobu_rom = work / "tobutobugirl.gb"
        ucity_rom = work / "ucity.gbc"
        shutil.copyfile(roms / "homebrew/tobutobugirl/tobutobugirl.gb", tobu_rom)
        shutil.copyfile(roms / "homebrew/ucity/ucity.gbc", ucity_rom)
        record(gbhost, tobu_rom, HERE / "tobu_gameplay.gbm", *tobu(gbhost, tobu_rom))
        record(gbhost, ucity_rom, HERE / "ucity_gameplay.gbm", *ucity())


if __name__ == "__main__":
    main()
