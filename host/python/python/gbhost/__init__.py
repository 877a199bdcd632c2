"""gbhost for Python: a Game Boy (and Game Boy Color) whose Lua scripts rewind with the game.

    from gbhost import GameBoy
    gb = GameBoy("game.gb")
    gb.press("Start")
    gb.step(60)
    gb.screen            # NumPy array, 144 x 160 x 3
    gb.memory[0xC0A0]    # a byte as the CPU sees it
    state = gb.save_state()

``gbhost.pyboy`` offers the PyBoy 2.x surface bots use, ``gbhost.gym`` a Gymnasium
environment, ``LinkedPair`` two Game Boys on a link cable and ``gbhost.pettingzoo`` a
two-agent PettingZoo environment on them, and ``python -m gbhost.bot`` a bot search on Ray.
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence, Union
import os

import numpy as np

from . import _gbhost

__all__ = ["GameBoy", "LinkedPair", "Memory", "BUTTONS", "SCREEN_WIDTH", "SCREEN_HEIGHT"]

#: The game's picture: pixels across and down (the screen arrays are
#: ``SCREEN_HEIGHT x SCREEN_WIDTH x channels``).
SCREEN_WIDTH: int = _gbhost.SCREEN_WIDTH
SCREEN_HEIGHT: int = _gbhost.SCREEN_HEIGHT

#: The buttons, by BizHawk's names.
BUTTONS = ("Right", "Left", "Up", "Down", "A", "B", "Select", "Start")

_DOMAINS = ("rom", "wram", "vram", "oam", "hram", "cartram")


class Memory:
    """The CPU's address space, and each memory whole.

    ``memory[0xC0A0]`` reads a byte as the CPU sees it (no side effects); ``memory[0xC000:0xC010]``
    bytes; ``memory[bank, addr]`` a byte of a bank whether it is mapped or not (``memory[3, 0xD000]``).
    Writing (``memory[0xC0A0] = 5``) is a logged poke: it lands before the next frame, and rewinds,
    replays and movies have it. ``memory.wram``, ``.vram``, ``.oam``, ``.hram``, ``.cartram`` and
    ``.rom`` are NumPy arrays of every bank, copied at the time they are read.
    """

    def __init__(self, core: "_gbhost.GameBoy"):
        self._core = core

    def __getitem__(self, key):
        return self._core[key]

    def __setitem__(self, key, value):
        if isinstance(key, slice) and isinstance(value, (int, np.integer)):
            n = len(range(*key.indices(0x10000)))
            value = [int(value)] * n
        elif isinstance(value, (bytes, bytearray, np.ndarray)):
            value = [int(v) for v in value]
        self._core[key] = value

    def __getattr__(self, name: str) -> np.ndarray:
        if name in _DOMAINS:
            return np.frombuffer(self._core.memory_bytes(name), dtype=np.uint8)
        raise AttributeError(name)


class GameBoy:
    """A Game Boy with its Lua scripts, rewind history and logged input.

    ``GameBoy(rom, model="auto", boot_rom=None, scripts=(), history_mib=32, audio=False)``:
    ``rom`` is a path or the ROM's bytes; ``model`` is ``"auto"`` (from the header), ``"dmg"``
    or ``"cgb"``; ``scripts`` are Lua files or source texts loaded before the first frame;
    ``history_mib`` sizes the rewind history (0 turns it off: fastest, no ``rewind``).

    Errors are Python exceptions with the command line's messages: ``FileNotFoundError``
    for a missing file, ``ValueError`` for a bad ROM, state, button or memory name,
    ``IndexError`` for an address outside the bus.
    """

    def __init__(
        self,
        rom: Union[str, os.PathLike, bytes],
        model: str = "auto",
        boot_rom: Optional[Union[str, os.PathLike]] = None,
        scripts: Iterable[str] = (),
        history_mib: int = 32,
        audio: bool = False,
    ):
        if isinstance(rom, os.PathLike):
            rom = os.fspath(rom)
        if boot_rom is not None:
            boot_rom = os.fspath(boot_rom)
        self._core = _gbhost.GameBoy(
            rom, model, boot_rom, [os.fspath(s) for s in scripts], history_mib, audio
        )
        self.memory = Memory(self._core)
        # The last `screen` array and the bytes under it: an unchanged picture comes back as
        # the same bytes object (see `screen`), so its read-only array can be handed out again.
        self._screen_bytes = None
        self._screen = None

    # Stepping ---------------------------------------------------------------------------

    def step(self, frames: int = 1, render: bool = True) -> None:
        """Run ``frames`` frames with the buttons held (the GIL is released while they run).

        With ``render`` the last frame's picture is drawn; frames without one run exactly the
        same (timing, registers), only faster.
        """
        self._core.step(frames, render)

    # Buttons ----------------------------------------------------------------------------

    @property
    def buttons(self) -> list:
        """The buttons held from the next frame on (``["A", "Right"]``); assign a list to set them."""
        return self._core.buttons

    @buttons.setter
    def buttons(self, names: Sequence[str]) -> None:
        self._core.buttons = list(names)

    def press(self, *names: str) -> None:
        """Hold buttons (``press("A", "Up")``) until released."""
        self._core.press(*names)

    def release(self, *names: str) -> None:
        """Let buttons go."""
        self._core.release(*names)

    # Outputs ----------------------------------------------------------------------------

    @property
    def screen(self) -> np.ndarray:
        """The last frame drawn, as a read-only 144 x 160 x 3 ``uint8`` array (RGB; DMG games in
        grays). A picture that has not changed since the last call is the same array."""
        raw = self._core.screen_bytes()
        if raw is not self._screen_bytes:
            self._screen = np.frombuffer(raw, dtype=np.uint8).reshape(SCREEN_HEIGHT, SCREEN_WIDTH, 3)
            self._screen_bytes = raw
        return self._screen

    @property
    def screen_rgba(self) -> np.ndarray:
        """The last frame drawn, as a 144 x 160 x 4 ``uint8`` array (alpha 255)."""
        rgba = np.empty((SCREEN_HEIGHT, SCREEN_WIDTH, 4), dtype=np.uint8)
        rgba[:, :, :3] = self.screen
        rgba[:, :, 3] = 255
        return rgba

    @property
    def registers(self) -> dict:
        """The CPU registers by name (``a`` … ``l``, ``af`` … ``hl``, ``sp``, ``pc``)."""
        return self._core.registers

    def apu_state(self) -> "_gbhost.ApuState":
        """The APU as a whole now: ``powered``, ``left_volume``/``right_volume`` (NR50),
        ``vin_left``/``vin_right``, ``panning`` (NR51), ``frame_sequencer_step``."""
        return self._core.apu_state()

    def apu_channel(self, n: int) -> "_gbhost.ApuChannel":
        """Sound channel ``n`` (1-4) now, as Lua's ``apu.channel(n)``: ``playing``, ``dac``,
        ``output`` (0-15), ``left``/``right``, ``frequency`` (the 11-bit period value), ``hz``,
        ``length``, ``length_enabled``, and the parts ``envelope``, ``pulse``, ``sweep``,
        ``wave``, ``noise`` (dicts, None for a channel without that part). Reading changes
        nothing: no time passes, nothing is logged."""
        return self._core.apu_channel(n)

    @property
    def frame(self) -> int:
        """Frames completed."""
        return self._core.frame

    @property
    def lag(self) -> int:
        """Lag frames so far (frames in which the game did not read the joypad)."""
        return self._core.lag

    @property
    def model(self) -> str:
        """``"dmg"`` or ``"cgb"``."""
        return self._core.model

    # States, rewind, scripts, movies ------------------------------------------------------

    def save_state(self) -> bytes:
        """The machine and every script (their Lua state too) as a state file's bytes."""
        return self._core.save_state()

    def load_state(self, data: bytes) -> None:
        """Load a state from ``save_state`` (or the app's ``.gbs`` files): scripts included."""
        self._core.load_state(bytes(data))

    def rewind(self, frames: int) -> int:
        """Go back ``frames`` frames in the rewind history; returns the frame reached."""
        return self._core.rewind(frames)

    def load_script(self, source: str, name: Optional[str] = None) -> int:
        """Load a Lua script: a ``.lua`` file's path or its source text; returns its slot."""
        return self._core.load_script(os.fspath(source), name)

    def log(self) -> list:
        """The scripts' console lines since the last call."""
        return self._core.log()

    def record_movie(self, path: Union[str, os.PathLike], authors: Sequence[str] = ()) -> None:
        """Record a ``.gbm`` movie from here until ``stop_movie`` (the app plays it)."""
        self._core.record_movie(os.fspath(path), list(authors))

    def stop_movie(self) -> str:
        """Finish the movie being recorded; returns its path."""
        return str(self._core.stop_movie())


class LinkedPair:
    """Two Game Boys on a link cable, run as one machine: one log, one rewind history.

    ``LinkedPair(rom1, rom2, model="auto", history_mib=32)``: each ROM a path or its bytes;
    ``model`` is for both (``"auto"`` chooses for each ROM). Players are 0 (the first) and 1.
    Every bit crosses the cable at the cycle the clocking side shifts it; ``inexact`` counts
    the exchanges that were not exact (0 expected).
    """

    def __init__(
        self,
        rom1: Union[str, os.PathLike, bytes],
        rom2: Union[str, os.PathLike, bytes],
        model: str = "auto",
        history_mib: int = 32,
    ):
        roms = [os.fspath(r) if isinstance(r, os.PathLike) else r for r in (rom1, rom2)]
        self._core = _gbhost.LinkedPair(roms[0], roms[1], model, history_mib)

    def step(self, frames: int = 1, render: bool = True) -> None:
        """Run ``frames`` of the first player's frames (the second runs to the same moment).

        With ``render`` the last two are drawn, so that both players' last pictures are whole
        (the second player's frames end inside the first's)."""
        self._core.step(frames, render)

    def set_buttons(self, player: int, names: Sequence[str]) -> None:
        """Hold exactly ``names`` on ``player``'s joypad from the next frame on."""
        self._core.set_buttons(player, list(names))

    def screen(self, player: int) -> np.ndarray:
        """``player``'s last picture, a 144 x 160 x 3 ``uint8`` array (RGB)."""
        raw = self._core.screen_bytes(player)
        return np.frombuffer(raw, dtype=np.uint8).reshape(SCREEN_HEIGHT, SCREEN_WIDTH, 3)

    def peek(self, player: int, addr: int) -> int:
        """The byte at ``addr`` of ``player``'s bus, as its CPU sees it."""
        return self._core.peek(player, addr)

    @property
    def frame(self) -> int:
        """Frames completed (the first player's)."""
        return self._core.frame

    @property
    def plugged(self) -> bool:
        """Whether the cable is plugged in; assign to plug it or pull it (from the next frame)."""
        return self._core.plugged

    @plugged.setter
    def plugged(self, on: bool) -> None:
        self._core.plugged = bool(on)

    @property
    def inexact(self) -> int:
        """Exchanges the cable could not make exact (0 expected)."""
        return self._core.inexact

    def state_hash(self) -> int:
        """A hash of both machines and the cable: equal exactly when two pairs are in one state."""
        return self._core.state_hash()

    def rewind(self, frames: int) -> int:
        """Go back ``frames`` frames, both machines and the cable together; the frame reached."""
        return self._core.rewind(frames)
