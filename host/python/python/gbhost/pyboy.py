"""The PyBoy 2.x surface bots and reinforcement-learning code use, on gbhost.

Switch with one import line::

    from gbhost.pyboy import PyBoy
    pyboy = PyBoy("game.gb", window="null")
    pyboy.button("start")
    pyboy.tick(60, False)
    pyboy.memory[0xC0A0]
    pyboy.screen.ndarray            # 144 x 160 x 4, RGBA
    with open("s.state", "wb") as f:
        pyboy.save_state(f)

Only what bots use is here: ``tick``, ``button``/``button_press``/``button_release``,
``memory`` (``[addr]``, ``[bank, addr]``, slices, writes), ``screen.ndarray`` /
``screen.image``, ``save_state``/``load_state`` on file objects, ``set_emulation_speed``,
``frame_count``, ``stop``. Windows are not opened (gbhost's window is the app).
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from . import GameBoy

__all__ = ["PyBoy"]

_NAMES = {
    "a": "A",
    "b": "B",
    "start": "Start",
    "select": "Select",
    "up": "Up",
    "down": "Down",
    "left": "Left",
    "right": "Right",
}


def _button(name: str) -> str:
    try:
        return _NAMES[name.lower()]
    except KeyError:
        raise ValueError(f"Unrecognized input: {name}") from None


class _Screen:
    def __init__(self, gb: GameBoy):
        self._gb = gb

    @property
    def ndarray(self) -> np.ndarray:
        """The screen as a 144 x 160 x 4 ``uint8`` array (RGBA), as PyBoy gives it."""
        return self._gb.screen_rgba

    @property
    def image(self):
        """The screen as a ``PIL.Image`` (needs Pillow)."""
        from PIL import Image

        return Image.fromarray(self._gb.screen_rgba, "RGBA")


class PyBoy:
    """A PyBoy-shaped Game Boy on gbhost (see the module docs)."""

    def __init__(self, gamerom: str, window: str = "null", cgb: Optional[bool] = None, **_kwargs):
        model = "auto" if cgb is None else ("cgb" if cgb else "dmg")
        # A bot does not rewind: no history, the fastest frames.
        self._gb = GameBoy(gamerom, model=model, history_mib=0)
        self.memory = self._gb.memory
        self.screen = _Screen(self._gb)
        self._pending_release = []

    def tick(self, count: int = 1, render: bool = True) -> bool:
        """Run ``count`` frames (the last one drawn with ``render``); True while running."""
        if self._pending_release:
            # A `button` press lasts one frame, as in PyBoy (held for `delay` ticks).
            self._gb.step(1, render and count == 1)
            self._gb.release(*self._pending_release)
            self._pending_release = []
            count -= 1
        if count > 0:
            self._gb.step(count, render)
        return True

    def button(self, input: str, delay: int = 1) -> None:
        """Press a button for one frame (``"a"``, ``"start"``, ``"up"``…)."""
        name = _button(input)
        self._gb.press(name)
        self._pending_release.append(name)

    def button_press(self, input: str) -> None:
        """Hold a button until ``button_release``."""
        self._gb.press(_button(input))

    def button_release(self, input: str) -> None:
        """Let a button go."""
        self._gb.release(_button(input))

    def save_state(self, file_like) -> None:
        """Write the state to a file object opened for binary writing."""
        file_like.write(self._gb.save_state())

    def load_state(self, file_like) -> None:
        """Read a state from a file object opened for binary reading."""
        self._gb.load_state(file_like.read())

    def set_emulation_speed(self, target_speed: int) -> None:
        """Accepted for compatibility: gbhost's library runs unthrottled."""

    @property
    def frame_count(self) -> int:
        """Frames run."""
        return self._gb.frame

    def stop(self, save: bool = True) -> None:
        """Accepted for compatibility (nothing to close)."""
