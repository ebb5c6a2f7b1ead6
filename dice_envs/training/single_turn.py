"""Single-turn training mode for the push-your-luck games: one player, one turn per episode.

    from dice_envs.training.single_turn import SingleTurnEnv
    env = SingleTurnEnv("dino_hunt_v0")
    obs, info = env.reset(seed=0)

Each episode is ``player_0``'s first turn of a fresh 2-player game (scores 0), and the reward is
the points that turn scores, so the return is exactly what the exact single-turn solvers
(``dice_envs/agents/solvers``) maximise.  The observation and the action mask are the game's own, so a model
trained here plays the full game too (``model:PATH``), and ``dice_envs/arena/optimality.py`` measures it
against the optimum.  Only games that are a race to a target score (Dino Hunt, Dalek Dice) have
turns of one player's decisions; others are refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from dice_envs.core.aec import ILLEGAL_MOVE_REWARD
from dice_envs.training.opponents import require_race_game
from dice_envs.training.single_agent import SingleAgentEnv

LEARNER_SEAT = 0


class SingleTurnEnv(SingleAgentEnv):
    """``player_0``'s first turn of a race game as a Gymnasium episode; see the module docstring."""

    def __init__(self, env_name: str, env_kwargs: Mapping[str, Any] | None = None, render_mode: str | None = None) -> None:
        # The other seats never act: the episode ends when the learner's turn does.
        require_race_game(env_name, "single-turn training")
        super().__init__(env_name, {"num_players": 2, **dict(env_kwargs or {})}, LEARNER_SEAT, {"random": 1.0}, render_mode)
        self._turn_points = 0.0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        self._turn_points = 0.0
        return super().reset(seed=seed, options=options)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if not self._mask.any():
            raise RuntimeError("step() called after the episode ended; call reset()")
        env, game = self.game_env, self.game_env.game
        learner = env.possible_agents[LEARNER_SEAT]
        action = int(action)
        if not (0 <= action < len(self._mask) and self._mask[action]):
            self._mask[:] = False
            return self._observation.copy(), ILLEGAL_MOVE_REWARD, True, False, {"turn_points": 0.0, "illegal_action": True}
        before = game.scores(env.game_state)[LEARNER_SEAT]
        env.step(action)
        reward = float(game.scores(env.game_state)[LEARNER_SEAT] - before)
        self._turn_points += reward
        observed = env.observe(learner)
        self._observation = observed["observation"]
        turn_over = env.agent_selection != learner or game.is_terminal(env.game_state)
        if turn_over:
            self._mask[:] = False
            return self._observation, reward, True, False, {"turn_points": self._turn_points, "illegal_action": False}
        self._mask = observed["action_mask"].astype(bool)
        return self._observation, reward, False, False, {}
