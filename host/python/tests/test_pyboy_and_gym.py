"""`gbhost.pyboy`, used as PyBoy's README shows, and `gbhost.gym`: Gymnasium's own checker, and
the environment under `AsyncVectorEnv`."""

import io

import numpy as np
import pytest

from conftest import tiny_rom


def test_code_written_for_pyboy_runs_with_one_import_changed(cpu_instrs):
    from gbhost.pyboy import PyBoy

    pyboy = PyBoy(str(cpu_instrs), window="null")
    pyboy.set_emulation_speed(0)
    for _ in range(60):
        pyboy.tick()
    pyboy.button("start")
    pyboy.tick(30, False)
    pyboy.button_press("a")
    pyboy.tick(2, True)
    pyboy.button_release("a")
    assert pyboy.frame_count == 92
    assert pyboy.screen.ndarray.shape == (144, 160, 4)
    # memory[addr], memory[bank, addr], writes.
    first = pyboy.memory[0x0100]
    assert first == pyboy.memory[0, 0x0100]
    pyboy.memory[0xC000] = 7
    pyboy.tick()
    assert pyboy.memory[0xC000] == 7
    with io.BytesIO() as f:
        pyboy.save_state(f)
        f.seek(0)
        pyboy.tick(10)
        pyboy.load_state(f)
    assert pyboy.frame_count == 93
    with pytest.raises(ValueError, match="Unrecognized input"):
        pyboy.button("jump")
    pyboy.stop()


def test_the_environment_passes_gymnasiums_checker(tiny):
    from gymnasium.utils.env_checker import check_env

    from gbhost.gym import GameBoyEnv

    for observation in ("screen", "ram", "both"):
        env = GameBoyEnv(tiny, observation=observation, frame_skip=2, max_steps=20,
                         reward=lambda gb, prev: float(gb.memory[0xC000] != prev[0]))
        check_env(env, skip_render_check=True)
        obs, info = env.reset(seed=1)
        assert env.observation_space.contains(obs)
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
        assert env.observation_space.contains(obs) and not terminated
        env.close()


def test_a_state_starts_every_episode_and_vectors_run(tiny, tmp_path):
    import gymnasium

    from gbhost import GameBoy
    from gbhost.gym import GameBoyEnv

    start = GameBoy(tiny)
    start.step(30)
    state = start.save_state()
    env = GameBoyEnv(tiny, state=state, observation="ram")
    _, info = env.reset()
    assert info["frame"] == 31

    envs = gymnasium.vector.AsyncVectorEnv(
        [lambda: GameBoyEnv(tiny_rom(), observation="ram", max_steps=5) for _ in range(2)]
    )
    obs, _ = envs.reset(seed=0)
    assert obs.shape == (2, 0x2000)
    for _ in range(6):
        obs, rewards, terms, truncs, infos = envs.step(np.array([1, 2]))
    assert obs.shape == (2, 0x2000)
    envs.close()
