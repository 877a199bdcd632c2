"""A two-agent PettingZoo environment on two Game Boys linked by cable.

``LinkedEnv(rom1, rom2=None, action_set=None, frame_skip=4, reward=None, max_steps=None,
model="auto")``: a PettingZoo ``ParallelEnv`` (the ecosystem's standard multi-agent API) on
a ``gbhost.LinkedPair``. The agents are ``"player_1"`` and ``"player_2"``, each playing its own
Game Boy (``rom2`` defaults to ``rom1``: two copies of one game):

- observations: each player's screen, 144 x 160 x 3 ``uint8``;
- actions: a ``Discrete`` index into ``action_set`` (default: nothing, each button alone),
  held for ``frame_skip`` frames;
- ``reward``: ``reward(pair, player)`` → float for player 0 or 1, after each step (default 0);
- ``max_steps``: both agents are truncated after that many steps.

The pair is one deterministic machine (every bit crosses the cable at its cycle), so an
episode replays exactly from the same actions.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from . import SCREEN_HEIGHT, SCREEN_WIDTH, LinkedPair
from .gym import DEFAULT_ACTIONS

__all__ = ["LinkedEnv"]


class LinkedEnv(ParallelEnv):
    """Two linked Game Boys as a PettingZoo parallel environment (see the module docs)."""

    metadata = {"name": "gbhost_linked_v0", "render_modes": ["rgb_array"], "render_fps": 60}

    def __init__(
        self,
        rom1,
        rom2=None,
        action_set: Optional[Sequence[Sequence[str]]] = None,
        frame_skip: int = 4,
        reward: Optional[Callable[[LinkedPair, int], float]] = None,
        max_steps: Optional[int] = None,
        model: str = "auto",
        render_mode: Optional[str] = None,
    ):
        if frame_skip < 1:
            raise ValueError("frame_skip must be at least 1")
        self.roms = (rom1, rom1 if rom2 is None else rom2)
        self.actions = [tuple(a) for a in (action_set or DEFAULT_ACTIONS)]
        self.frame_skip = frame_skip
        self.reward_fn = reward
        self.max_steps = max_steps
        self.model = model
        self.render_mode = render_mode
        self.possible_agents = ["player_1", "player_2"]
        self.agents = list(self.possible_agents)
        self._observation = spaces.Box(
            0, 255, shape=(SCREEN_HEIGHT, SCREEN_WIDTH, 3), dtype=np.uint8
        )
        self._action = spaces.Discrete(len(self.actions))
        self.pair = LinkedPair(self.roms[0], self.roms[1], model=model, history_mib=0)
        self._steps = 0

    def observation_space(self, agent):
        return self._observation

    def action_space(self, agent):
        return self._action

    def _observe(self):
        return {a: self.pair.screen(i).copy() for i, a in enumerate(self.possible_agents)}

    def reset(self, seed: Optional[int] = None, options=None):
        self.agents = list(self.possible_agents)
        self.pair = LinkedPair(self.roms[0], self.roms[1], model=self.model, history_mib=0)
        self.pair.step(1, True)
        self._steps = 0
        infos = {a: {"frame": self.pair.frame} for a in self.agents}
        return self._observe(), infos

    def step(self, actions):
        for i, agent in enumerate(self.possible_agents):
            action = actions.get(agent, 0)
            if not self._action.contains(action):
                raise ValueError(f"{agent}: action {action!r} is not in {self._action}")
            self.pair.set_buttons(i, self.actions[int(action)])
        self.pair.step(self.frame_skip, True)
        self._steps += 1
        observations = self._observe()
        rewards = {
            a: float(self.reward_fn(self.pair, i)) if self.reward_fn else 0.0
            for i, a in enumerate(self.possible_agents)
        }
        truncated = self.max_steps is not None and self._steps >= self.max_steps
        terminations = {a: False for a in self.possible_agents}
        truncations = {a: truncated for a in self.possible_agents}
        infos = {a: {"frame": self.pair.frame} for a in self.possible_agents}
        if truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self):
        if self.render_mode == "rgb_array":
            return np.concatenate([self.pair.screen(0), self.pair.screen(1)], axis=1)
        return None
