"""Two Game Boys on a link cable from Python: the link demo's squares cross the cable, the
pair rewinds as one machine, pulling the cable cuts it, and the two-agent PettingZoo
environment passes PettingZoo's own API test and replays exactly."""

import numpy as np
import pytest

import gbhost
from gbhost import _gbhost


@pytest.fixture
def demo():
    return _gbhost.link_demo_rom()


def test_the_squares_cross_the_cable_and_the_pair_rewinds_as_one(demo):
    pair = gbhost.LinkedPair(demo, demo)
    pair.step(10)
    pair.set_buttons(0, ["Start"])
    pair.step(2)
    pair.set_buttons(0, [])
    pair.set_buttons(1, ["Right"])
    pair.step(30)
    assert pair.peek(0, 0xC004) == 1, "player 1 leads"
    x = pair.peek(1, 0xC000)
    assert x > 100, "player 2 moved right"
    assert abs(pair.peek(0, 0xC002) - x) <= 1, "player 1 sees player 2's square"
    assert pair.inexact == 0
    # Both screens: each has a filled square (64 black pixels) and a hollow one (28).
    for p in (0, 1):
        screen = pair.screen(p)
        assert screen.shape == (144, 160, 3)
        assert int((screen.sum(axis=2) == 0).sum()) == 92
    # Rewinding comes back to the same state of both machines and the cable.
    here, frame = pair.state_hash(), pair.frame
    pair.step(20)
    assert pair.state_hash() != here
    assert pair.rewind(20) == frame
    assert pair.state_hash() == here
    with pytest.raises(IndexError):
        pair.peek(2, 0xC000)
    with pytest.raises(ValueError):
        pair.set_buttons(0, ["Jump"])


def test_pulling_the_cable_leaves_the_leader_reading_ones(demo):
    pair = gbhost.LinkedPair(demo, demo)
    pair.step(5)
    pair.set_buttons(0, ["Start"])
    pair.step(5)
    assert pair.plugged
    pair.plugged = False
    pair.step(3)
    assert not pair.plugged
    assert pair.peek(0, 0xC002) == 0xFF and pair.peek(0, 0xC003) == 0xFF


def test_the_two_agent_environment_passes_pettingzoos_api_test_and_replays(demo):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import parallel_api_test

    from gbhost.pettingzoo import LinkedEnv

    env = LinkedEnv(demo, max_steps=40)
    parallel_api_test(env, num_cycles=30)

    def episode():
        env = LinkedEnv(demo, max_steps=25, reward=lambda pair, p: pair.peek(p, 0xC000) / 160)
        obs, _ = env.reset()
        plan = [7, 0, 6, 6, 6, 4, 4, 4, 3, 5] * 3
        total = {a: 0.0 for a in env.possible_agents}
        while env.agents:
            step = env.pair.frame
            actions = {"player_1": plan[step % len(plan)], "player_2": plan[(step + 3) % len(plan)]}
            obs, rewards, _, _, _ = env.step(actions)
            for a, r in rewards.items():
                total[a] += r
        return total, env.pair.state_hash(), obs["player_2"].copy()

    first, again = episode(), episode()
    assert first[0] == again[0] and first[1] == again[1]
    assert np.array_equal(first[2], again[2])
    assert first[0]["player_1"] != first[0]["player_2"] or first[0]["player_1"] > 0
