"""The search, timed: the CPU seconds of each decision ``mcts`` searched, in real games.

``benchmarks/search_cost.py`` prints them; ``arena.optimality --search-budgets`` reports them
beside the search's distance from the exact optimum.
"""

from __future__ import annotations

import cProfile
import time
from collections.abc import Sequence
from functools import partial

import numpy as np

import dice_envs
from dice_envs.agents import specs
from dice_envs.agents.base import Agent
from dice_envs.agents.mcts import Evaluator, MCTSAgent, SearchOptions, parse_options
from dice_envs.arena.play import play_games
from dice_envs.core.state import GameState


class TimedSearch(MCTSAgent):
    """``mcts`` that appends the CPU seconds of every decision it searched to ``seconds`` (a list
    that may outlive the agent: ``dice_envs/arena/optimality.py`` shares one across its turns)."""

    def __init__(
        self,
        env: dice_envs.DiceGameEnv,
        seed: int | None = None,
        options: SearchOptions | None = None,
        rollout: Agent | None = None,
        evaluator: Evaluator | None = None,
        profile: cProfile.Profile | None = None,
        seconds: list[float] | None = None,
    ) -> None:
        super().__init__(env, seed, options, rollout, evaluator)
        self.seconds = [] if seconds is None else seconds
        self.profile = profile

    def search_many(self, states: Sequence[GameState], seats: Sequence[int]) -> list[tuple[int, np.ndarray]]:
        """Each position searched (one with a choice) is charged an equal share of the call's CPU
        time: its own, where the positions come one at a time."""
        start = time.process_time()
        results = super().search_many(states, seats) if self.profile is None else self.profile.runcall(super().search_many, states, seats)
        searched = sum(len(self.game.legal_actions(state)) > 1 for state in states)
        if searched:
            self.seconds += [(time.process_time() - start) / searched] * searched
        return results


def timed_search(
    env: dice_envs.DiceGameEnv, spec: str, seed: int, profile: cProfile.Profile | None = None, seconds: list[float] | None = None
) -> TimedSearch:
    """The search ``spec`` names (``mcts:...``), timed."""
    timed = partial(TimedSearch, profile=profile, seconds=seconds)
    search = specs.build_search(env.metadata["name"], parse_options(spec), env, seed, search_class=timed)
    assert isinstance(search, TimedSearch)
    return search


def decision_seconds(
    env_name: str, spec: str, opponents: Sequence[str], games: int, seed: int = 0, profile: cProfile.Profile | None = None
) -> list[float]:
    """CPU seconds of each searched decision of ``spec`` over ``games`` games against ``opponents``
    (profiled into ``profile`` if given, which makes each slower)."""
    env = dice_envs.make(env_name, num_players=1 + len(opponents))
    search = timed_search(env, spec, seed, profile)
    others = [specs.build(env_name, opponent, env, seed=seed + 1 + i) for i, opponent in enumerate(opponents)]
    play_games(env, [search, *others], games, seed, batch_size=1)
    return search.seconds
