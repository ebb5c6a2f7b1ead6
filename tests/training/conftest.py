"""Small but real training configs for every game and both algorithms."""

from __future__ import annotations

from typing import Any

import pytest
import torch

import dice_envs

ALGORITHMS = ("ppo", "dqn")
SMALL_HYPERPARAMETERS: dict[str, dict[str, Any]] = {
    "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 2},
    "dqn": {"learning_starts": 64, "buffer_size": 1_000, "target_update_interval": 100},
}


def small_config(env_name: str, algorithm: str, **overrides: Any) -> dict[str, Any]:
    """A config dict that trains for a few hundred steps, evaluates on a handful of games."""
    raw: dict[str, Any] = {
        "name": f"test_{env_name}_{algorithm}",
        "env": {"name": env_name},
        "algorithm": algorithm,
        "total_timesteps": 256,
        "n_envs": 2,
        "hyperparameters": dict(SMALL_HYPERPARAMETERS[algorithm]),
        "opponents": {"random": 1.0},
        "policy": {"net_arch": [32, 32]},
        "evaluation": {"interval": 10_000, "games": 2, "final_games": 2, "opponents": ["random"]},
        "checkpoint_interval": 128,
    }
    raw.update(overrides)
    return raw


@pytest.fixture(autouse=True)
def one_torch_thread() -> None:
    """The suite shares two cores; small networks gain nothing from more threads."""
    torch.set_num_threads(1)


ENV_NAMES = dice_envs.list_envs()
