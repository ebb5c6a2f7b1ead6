"""Play N games between any agents, rotating seats, and report win rates.

From the command line: ``dice-envs match dino_hunt_v0 cup_counter random --games 500``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import dice_envs
from agents import make_agent
from agents.base import Agent
from dice_envs.core.engine import ParameterError


@dataclass
class Standing:
    """One agent's results over a match; a shared win counts as a win."""

    agent: str
    games: int = 0
    wins: int = 0
    shared_wins: int = 0
    unfinished: int = 0
    total_score: float = 0.0

    @property
    def win_rate(self) -> float:
        return (self.wins + self.shared_wins) / self.games if self.games else 0.0

    @property
    def mean_score(self) -> float:
        return self.total_score / self.games if self.games else 0.0

    def win_rate_interval(self, z: float = 1.96) -> tuple[float, float]:
        """Wilson score interval (95% by default) for the win rate."""
        if not self.games:
            return 0.0, 1.0
        n, p = self.games, self.win_rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class GameOutcome:
    """One finished (or step-capped) game, by lineup position rather than seat."""

    winners: frozenset[int]
    scores: tuple[float, ...]
    finished: bool


def play_match(
    env_name: str,
    agent_names: Sequence[str],
    num_games: int,
    seed: int = 0,
    env_kwargs: dict[str, Any] | None = None,
) -> list[Standing]:
    """Play ``num_games`` games, one agent per seat; in game ``g`` agent ``i`` sits at seat ``(i + g) % n``.

    Game ``g`` uses environment seed ``seed + g`` and agent ``i`` is seeded with ``seed * 1000 + i``,
    so a match is reproducible.
    """
    env = dice_envs.make(env_name, num_players=len(agent_names), **(env_kwargs or {}))
    agents = [make_agent(env_name, name, env, seed=seed * 1000 + i) for i, name in enumerate(agent_names)]
    return standings_from(play_games(env, agents, num_games, seed), numbered_labels(agent_names))


def play_games(env: dice_envs.DiceGameEnv, agents: Sequence[Agent], num_games: int, seed: int = 0) -> list[GameOutcome]:
    """Play ``agents`` (one per seat, any ``Agent``) against each other with seats rotated, as ``play_match``."""
    if num_games < 1:
        raise ParameterError(f"num_games must be at least 1, got {num_games}")
    num_players = len(agents)
    if num_players != env.game.num_players:
        raise ParameterError(f"{len(agents)} agents for {env.game.num_players} seats")
    outcomes = []
    for game in range(num_games):
        seat_to_agent = {(i + game) % num_players: i for i in range(num_players)}
        env.reset(seed=seed + game)
        for agent in agents:
            agent.reset()
        for name in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            seat = env.possible_agents.index(name)
            env.step(agents[seat_to_agent[seat]].act(obs["observation"], obs["action_mask"]))
        outcomes.append(_outcome(env, seat_to_agent))
    return outcomes


def _outcome(env: dice_envs.DiceGameEnv, seat_to_agent: dict[int, int]) -> GameOutcome:
    game, state = env.game, env.game_state
    finished = game.is_terminal(state)
    winners = frozenset(seat_to_agent[seat] for seat in game.winners(state)) if finished else frozenset()
    scores = [0.0] * len(seat_to_agent)
    for seat, score in enumerate(game.scores(state)):
        scores[seat_to_agent[seat]] = float(score)
    return GameOutcome(winners, tuple(scores), finished)


def standings_from(outcomes: Sequence[GameOutcome], labels: Sequence[str]) -> list[Standing]:
    """Each lineup position's results over ``outcomes``; a shared win counts as a win."""
    standings = [Standing(label) for label in labels]
    for outcome in outcomes:
        for position, standing in enumerate(standings):
            standing.games += 1
            standing.total_score += outcome.scores[position]
            if not outcome.finished:
                standing.unfinished += 1
            elif position in outcome.winners:
                if len(outcome.winners) == 1:
                    standing.wins += 1
                else:
                    standing.shared_wins += 1
    return standings


def numbered_labels(agent_names: Sequence[str]) -> list[str]:
    """Agent names, numbered where the same agent plays more than one seat."""
    return [
        f"{name}#{agent_names[: i + 1].count(name)}" if agent_names.count(name) > 1 else name
        for i, name in enumerate(agent_names)
    ]


def format_standings(standings: Sequence[Standing]) -> str:
    header = f"{'agent':<18}{'games':>7}{'win rate':>10}{'95% CI':>16}{'wins':>7}{'shared':>8}{'mean score':>12}"
    lines = [header, "-" * len(header)]
    for s in standings:
        low, high = s.win_rate_interval()
        lines.append(
            f"{s.agent:<18}{s.games:>7}{s.win_rate:>10.3f}{f'[{low:.3f}, {high:.3f}]':>16}"
            f"{s.wins:>7}{s.shared_wins:>8}{s.mean_score:>12.2f}"
        )
    if any(s.unfinished for s in standings):
        lines.append(f"({standings[0].unfinished} games hit the step cap and count as no win)")
    return "\n".join(lines)


def parse_params(pairs: Sequence[str]) -> dict[str, Any]:
    """``["target_score=30"]`` -> ``{"target_score": 30}`` (integers where they parse)."""
    params: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ParameterError(f"expected KEY=VALUE, got {pair!r}")
        params[key] = int(value) if value.lstrip("-").isdigit() else value
    return params
