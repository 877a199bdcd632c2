"""A Gymnasium environment on gbhost.

``GameBoyEnv(rom, state=None, action_set=None, frame_skip=4, observation="screen",
reward=None, max_steps=None)``:

- ``state``: bytes of a saved state (``GameBoy.save_state``) to start every episode from;
  else the ROM powers on;
- ``action_set``: a list of button combinations, one per discrete action (default: nothing,
  each button alone); each action holds its buttons for ``frame_skip`` frames;
- ``observation``: ``"screen"`` (144 x 160 x 3 ``uint8``), ``"ram"`` (the 8 KiB of work RAM
  at 0xC000) or ``"both"`` (a dict of the two);
- ``reward``: ``reward(gb, previous_gb_ram)`` → float, called after each step (default 0);
- ``max_steps``: episodes are truncated after that many steps.

Frames between observations run without drawing (exactly the same frames, faster).
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

import numpy as np
import gymnasium
from gymnasium import spaces

from . import SCREEN_HEIGHT, SCREEN_WIDTH, GameBoy

__all__ = ["GameBoyEnv"]

DEFAULT_ACTIONS = ((), ("A",), ("B",), ("Up",), ("Down",), ("Left",), ("Right",), ("Start",), ("Select",))


class GameBoyEnv(gymnasium.Env):
    """A Game Boy as a Gymnasium environment (see the module docs)."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 60}

    def __init__(
        self,
        rom,
        state: Optional[bytes] = None,
        action_set: Optional[Sequence[Sequence[str]]] = None,
        frame_skip: int = 4,
        observation: str = "screen",
        reward: Optional[Callable[[GameBoy, np.ndarray], float]] = None,
        max_steps: Optional[int] = None,
        render_mode: Optional[str] = None,
    ):
        if observation not in ("screen", "ram", "both"):
            raise ValueError(f"observation must be 'screen', 'ram' or 'both', not {observation!r}")
        if frame_skip < 1:
            raise ValueError("frame_skip must be at least 1")
        self.rom = rom
        self.state = state
        self.actions = [tuple(a) for a in (action_set or DEFAULT_ACTIONS)]
        self.frame_skip = frame_skip
        self.observation = observation
        self.reward_fn = reward
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.gb = GameBoy(rom, history_mib=0)
        self.action_space = spaces.Discrete(len(self.actions))
        screen = spaces.Box(0, 255, shape=(SCREEN_HEIGHT, SCREEN_WIDTH, 3), dtype=np.uint8)
        ram = spaces.Box(0, 255, shape=(0x2000,), dtype=np.uint8)
        self.observation_space = {
            "screen": screen,
            "ram": ram,
            "both": spaces.Dict({"screen": screen, "ram": ram}),
        }[observation]
        self._steps = 0
        self._ram = None

    def _observe(self):
        def ram():
            return np.array(self.gb.memory.wram[:0x2000], dtype=np.uint8)

        if self.observation == "screen":
            return self.gb.screen.copy()
        if self.observation == "ram":
            return ram()
        return {"screen": self.gb.screen.copy(), "ram": ram()}

    def reset(self, *, seed: Optional[int] = None, options=None):
        super().reset(seed=seed)
        self.gb = GameBoy(self.rom, history_mib=0)
        if self.state is not None:
            self.gb.load_state(self.state)
        self.gb.step(1, True)
        self._steps = 0
        self._ram = np.array(self.gb.memory.wram, dtype=np.uint8)
        return self._observe(), {"frame": self.gb.frame}

    def step(self, action):
        if not self.action_space.contains(action):
            raise ValueError(f"action {action!r} is not in {self.action_space}")
        self.gb.buttons = list(self.actions[int(action)])
        self.gb.step(self.frame_skip, self.observation != "ram" or self.render_mode is not None)
        self._steps += 1
        previous = self._ram
        self._ram = np.array(self.gb.memory.wram, dtype=np.uint8)
        reward = float(self.reward_fn(self.gb, previous)) if self.reward_fn else 0.0
        truncated = self.max_steps is not None and self._steps >= self.max_steps
        return self._observe(), reward, False, truncated, {"frame": self.gb.frame}

    def render(self):
        if self.render_mode == "rgb_array":
            return self.gb.screen.copy()
        return None
