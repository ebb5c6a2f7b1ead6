"""The agent interface shared by scripted baselines, solvers and trained policies."""

from __future__ import annotations

import abc
from typing import Any, ClassVar

import numpy as np

from dice_envs.core.aec import DiceGameEnv


class Agent(abc.ABC):
    """Chooses an action from one player's observation vector and action mask.

    Agents are built for one environment (``env`` tells them its layout and parameters) and may
    keep state across a game; ``reset()`` is called before each game.
    """

    name: ClassVar[str]
    description: ClassVar[str]

    def __init__(self, env: DiceGameEnv, seed: int | None = None) -> None:
        self.env = env.unwrapped
        self.layout = self.env.encoder.layout
        self.rng = np.random.default_rng(seed)

    def reset(self) -> None:
        """Forget anything remembered from the previous game."""

    @abc.abstractmethod
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A legal action (``action_mask[action] == 1``)."""

    def field(self, observation: np.ndarray, name: str) -> np.ndarray:
        """One field of the observation as raw values (see ``ObservationLayout.field``)."""
        return self.layout.field(observation, name)

    def view(self, observation: np.ndarray) -> dict[str, Any]:
        """The observation decoded into named raw values (see ``ObservationLayout.decode``)."""
        return self.layout.decode(observation)


class RandomAgent(Agent):
    name = "random"
    description = "uniformly random legal action"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        return int(legal[self.rng.integers(len(legal))])
