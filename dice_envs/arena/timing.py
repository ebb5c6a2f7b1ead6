"""The search, timed: the CPU seconds of each decision ``mcts`` searched, in real games.

``benchmarks/search_cost.py`` prints them; ``arena.optimality --search-budgets`` reports them
beside the search's distance from the exact optimum.
"""

from __future__ import annotations

import cProfile
import time
from collections.abc import Sequence

import dice_envs
from dice_envs.agents.mcts import MCTSAgent, parse_options
from dice_envs.arena.play import play_games
from dice_envs.core.state import GameState


class TimedSearch(MCTSAgent):
    """``mcts`` that appends the CPU seconds of every decision it searched to ``seconds`` (a list
    that may outlive the agent: ``dice_envs/arena/optimality.py`` shares one across its turns)."""

    def __init__(
        self,
        env: dice_envs.DiceGameEnv,
        spec: str,
        seed: int,
        profile: cProfile.Profile | None = None,
        seconds: list[float] | None = None,
    ) -> None:
        super().__init__(env, seed=seed, options=parse_options(spec))
        self.seconds = [] if seconds is None else seconds
        self.profile = profile

    def search(self, state: GameState, seat: int) -> int:
        start = time.process_time()
        action = super().search(state, seat) if self.profile is None else self.profile.runcall(super().search, state, seat)
        if len(self.game.legal_actions(state)) > 1:
            self.seconds.append(time.process_time() - start)
        return action


def decision_seconds(
    env_name: str, spec: str, opponents: Sequence[str], games: int, seed: int = 0, profile: cProfile.Profile | None = None
) -> list[float]:
    """CPU seconds of each searched decision of ``spec`` over ``games`` games against ``opponents``
    (profiled into ``profile`` if given, which makes each slower)."""
    from dice_envs.agents.learned import make_agent_from_spec  # imports torch: only when a benchmark plays

    env = dice_envs.make(env_name, num_players=1 + len(opponents))
    search = TimedSearch(env, spec, seed, profile)
    others = [make_agent_from_spec(env_name, opponent, env, seed=seed + 1 + i) for i, opponent in enumerate(opponents)]
    play_games(env, [search, *others], games, seed, batch_size=1)
    return search.seconds
