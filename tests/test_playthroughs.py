"""Golden playthroughs: one seeded game of every environment, action by action.

Each file in ``tests/golden/`` records a game between seeded random agents: every step's agent,
action and reward, and the final board.  Any change to the rules, the chance draws or the
rendering shows up here; if it is intended, bump the environment's version and regenerate with
``UPDATE_GOLDEN=1 python -m pytest tests/test_playthroughs.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import dice_envs

GOLDEN = Path(__file__).parent / "golden"
SEED = 2026


def playthrough(env_name: str) -> str:
    params = dice_envs.env_module(env_name).raw_env.game_class.params_class
    env = dice_envs.make(env_name, num_players=params.min_players, render_mode="ansi")
    env.reset(seed=SEED)
    chooser = np.random.default_rng(SEED)
    lines = [f"{env_name}, {params.min_players} players, seed {SEED}, uniformly random legal actions", "", env.render() or ""]
    lines.append("")
    for step, agent in enumerate(env.agent_iter()):
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            lines.append(f"{step:>4} {agent}: done, reward {reward:+g}")
            env.step(None)
            continue
        action = int(chooser.choice(np.flatnonzero(obs["action_mask"])))
        lines.append(f"{step:>4} {agent}: {env.unwrapped.game.action_label(action)}")
        env.step(action)
    lines += ["", env.render() or ""]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("env_name", dice_envs.list_envs())
def test_golden_playthrough(env_name: str) -> None:
    path = GOLDEN / f"{env_name}.txt"
    text = playthrough(env_name)
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text)
    assert path.exists(), f"no golden file: run UPDATE_GOLDEN=1 python -m pytest {__file__}"
    expected = path.read_text()
    assert text == expected, f"{env_name} plays differently from {path}; bump its version if that is intended"
