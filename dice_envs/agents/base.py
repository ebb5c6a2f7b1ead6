"""The agent interface shared by scripted baselines, solvers and trained policies."""

from __future__ import annotations

import abc
import copy
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.state import GameState


class Agent(abc.ABC):
    """Chooses an action from one player's observation vector and action mask.

    Agents are built for one environment (``env`` tells them its layout and parameters) and may
    keep state across a game; ``reset()`` is called before each game.
    """

    name: ClassVar[str]
    description: ClassVar[str]
    remembers: ClassVar[bool] = False
    """Keeps something between the decisions of one game (``reset`` clears it).  Runners that
    play several games at once give such an agent one copy per game (``for_another_game``); any
    other agent answers for all of them at once through ``act_batch``."""

    def __init__(self, env: DiceGameEnv, seed: int | None = None) -> None:
        self.env = env.unwrapped
        self.layout = self.env.encoder.layout
        self.rng = np.random.default_rng(seed)

    def reset(self) -> None:  # noqa: B027 - a hook: only agents that remember override it
        """Forget anything remembered from the previous game."""

    def for_another_game(self) -> Agent:
        """The agent to play a game alongside this one's: itself, or a copy if it ``remembers``
        (the copy shares everything but what ``reset`` sets, e.g. a solver's tables)."""
        return copy.copy(self) if self.remembers else self

    @abc.abstractmethod
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A legal action (``action_mask[action] == 1``)."""

    def act_in(self, states: Sequence[GameState], seats: Sequence[int], observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """The action at each position, given as the engine state, the seat to act there and that
        seat's observation and mask: what runners call.  Agents that judge from the observation
        (the default) answer with ``act_batch``; a search agent reads the state, through
        ``game.resample_hidden`` only, never what the seat cannot see."""
        return self.act_batch(observations, action_masks)

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """``act`` for each row, as one array (the exact evaluators in ``dice_envs/agents/solvers`` ask every
        position of a turn at once; a trained policy answers them in one pass of its network)."""
        return np.array([self.act(obs, mask) for obs, mask in zip(observations, action_masks)], dtype=np.int64)

    def act_at(self, states: Sequence[GameState], observer: int) -> list[int]:
        """The agent's action at each engine state, observed by ``observer`` (whose decision each
        is), asked in one batch; an illegal choice raises ``ValueError`` naming the state."""
        game, encoder = self.env.game, self.env.encoder
        observations = np.stack([encoder.encode(state, observer) for state in states])
        masks = np.zeros((len(states), game.num_actions), dtype=np.int8)
        for row, state in enumerate(states):
            masks[row, game.legal_actions(state)] = 1
        chosen = np.asarray(self.act_in(states, [observer] * len(states), observations, masks), dtype=np.int64)
        illegal = np.flatnonzero(masks[np.arange(len(states)), chosen] == 0)
        if illegal.size:
            row = int(illegal[0])
            raise ValueError(f"{self.name} chose illegal action {game.action_label(int(chosen[row]))} at {states[row]}")
        return chosen.tolist()

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray | None:
        """The agent's probability of each action here, for replays to show; ``None`` for agents
        that have no distribution to show (scripted rules, solvers, search)."""
        return None

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
