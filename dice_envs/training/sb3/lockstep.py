"""Vectorised training environments whose opponents decide for all of them at once.

``LockstepVecEnv`` is Stable-Baselines3's ``DummyVecEnv`` over ``SingleAgentEnv``s (one process)
with one change: a step of the vector runs every environment's step, and the reset that follows
a finished episode, together, pausing each at its opponents' decisions (``SingleAgentEnv
.step_moves``).  At each pause every waiting opponent is asked about all the environments it is
waiting in with one ``Agent.act_in`` call, so a model opponent (a snapshot of the learner, the
learner itself, a saved model) makes one network pass per round of the vector instead of one per
decision.  The environments share one ``Opponents``, so they share its agents; an agent that
``remembers`` plays a copy per environment and is asked alone.

Each environment's episode is exactly what it would be alone, except for the order in which
shared opponents draw their random numbers: results are reproducible from the seed and identical
in distribution to ``DummyVecEnv``'s.  Environment wrappers would hide ``step_moves``, so
``make_training_env`` puts the monitor and the reward scale around the vector instead
(``VecMonitor``, ``VecScaleReward``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from copy import deepcopy
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv, VecEnvWrapper
from stable_baselines3.common.vec_env.base_vec_env import VecEnvStepReturn

from dice_envs.training.single_agent import Moves, OpponentTurn, SingleAgentEnv, StepResult


class LockstepVecEnv(DummyVecEnv):
    """``DummyVecEnv`` whose environments' opponents are asked together (see the module docstring)."""

    envs: list[SingleAgentEnv]  # type: ignore[assignment]

    def __init__(self, env_fns: Sequence[Callable[[], SingleAgentEnv]]) -> None:
        super().__init__(list(env_fns))
        if not all(isinstance(env, SingleAgentEnv) for env in self.envs):
            raise TypeError("LockstepVecEnv steps SingleAgentEnv instances, unwrapped (wrap the vector instead)")
        shared = self.envs[0].opponents
        for env in self.envs[1:]:
            env.opponents = shared

    def step_wait(self) -> VecEnvStepReturn:
        results = play_together([self._step_then_reset(index, action) for index, action in enumerate(self.actions)])
        for index, (obs, reward, terminated, truncated, info) in enumerate(results):
            self.buf_rews[index] = reward
            self.buf_dones[index] = terminated or truncated
            self.buf_infos[index] = info
            self._save_obs(index, obs)
        return self._obs_from_buf(), np.copy(self.buf_rews), np.copy(self.buf_dones), deepcopy(self.buf_infos)

    def _step_then_reset(self, index: int, action: Any) -> Moves[StepResult]:
        """One environment's part of ``DummyVecEnv.step_wait``: its step, then the next episode's
        start if this one ended (the final observation goes into the info, as SB3 expects)."""
        env = self.envs[index]
        obs, reward, terminated, truncated, info = yield from env.step_moves(action)
        info["TimeLimit.truncated"] = truncated and not terminated
        if terminated or truncated:
            info["terminal_observation"] = obs
            obs, self.reset_infos[index] = yield from env.reset_moves()
        return obs, reward, terminated, truncated, info


def play_together(all_moves: Sequence[Moves[Any]]) -> list[Any]:
    """Run every generator of ``all_moves`` to its end, answering their opponent decisions round by
    round: each agent is asked once per round about every decision waiting for it."""
    results: list[Any] = [None] * len(all_moves)
    waiting: dict[int, OpponentTurn] = {}

    def advance(index: int, action: int | None) -> None:
        try:
            waiting[index] = next(all_moves[index]) if action is None else all_moves[index].send(action)
        except StopIteration as finished:
            results[index] = finished.value
            waiting.pop(index, None)

    for index in range(len(all_moves)):
        advance(index, None)
    while waiting:
        by_agent: dict[int, list[int]] = {}
        for index, (agent, *_) in waiting.items():
            by_agent.setdefault(id(agent), []).append(index)
        answers: dict[int, int] = {}
        for indices in by_agent.values():
            turns = [waiting[index] for index in indices]
            agent = turns[0][0]
            states, seats = [turn[1] for turn in turns], [turn[2] for turn in turns]
            observations, masks = np.stack([turn[3] for turn in turns]), np.stack([turn[4] for turn in turns])
            answers.update(zip(indices, agent.act_in(states, seats, observations, masks).tolist()))
        for index, action in answers.items():
            advance(index, action)
    return results


class VecScaleReward(VecEnvWrapper):
    """Multiplies every reward by ``scale`` (``reward_scale`` in the config)."""

    def __init__(self, venv: VecEnv, scale: float) -> None:
        super().__init__(venv)
        self.scale = scale

    def reset(self) -> Any:
        return self.venv.reset()

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, dones, infos = self.venv.step_wait()
        return obs, rewards * self.scale, dones, infos
