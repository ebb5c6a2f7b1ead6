"""Play N games between any agents, rotating seats, and report win rates.

From the command line: ``dice-envs match dino_hunt_v0 cup_counter random --games 500``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium.utils import seeding

import dice_envs
from dice_envs.agents import specs
from dice_envs.agents.base import Agent
from dice_envs.arena.ratings import Finish, finish_of
from dice_envs.core.aec import MAX_SEED, check_seed
from dice_envs.core.chance import SeatKeyedChance
from dice_envs.core.engine import Game, ParameterError
from dice_envs.core.state import GameState


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

    def finish(self, labels: Sequence[str]) -> Finish | None:
        """The players (``labels`` by lineup position) from first to last; ``None`` if unfinished."""
        return finish_of(labels, self.winners, self.scores) if self.finished else None


DEFAULT_BATCH_SIZE = 256
"""Games played at once by ``play_games``: enough that a trained policy's network call costs
little per game, few enough that the first results come quickly."""


def play_match(
    env_name: str,
    agent_names: Sequence[str],
    num_games: int,
    seed: int = 0,
    env_kwargs: dict[str, Any] | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
) -> list[Standing]:
    """Play ``num_games`` games, one agent per seat (given by spec); in game ``g`` agent ``i`` sits
    at seat ``(i + g) % n``.

    Game ``g`` is dealt from seed ``seed + g`` and agent ``i`` is seeded with ``seed * 1000 + i``
    (``specs.lineup``), so a match is reproducible (see ``play_games``).
    """
    env = dice_envs.make(env_name, num_players=len(agent_names), **(env_kwargs or {}))
    agents = specs.lineup(env_name, agent_names, seed)(env, 0)
    return standings_from(play_games(env, agents, num_games, seed, batch_size), numbered_labels([specs.label(name) for name in agent_names]))


@dataclass(frozen=True)
class Decision:
    """One decision made in ``play_games``, as its ``on_decision`` hook sees it."""

    game: int
    """The game's number (dealt from seed ``seed + game``)."""
    position: int
    """The lineup position of the agent that decided."""
    seat: int
    """The seat it decided at (``lineup_at_seats`` says who sits where in each game)."""
    observation: np.ndarray
    action_mask: np.ndarray
    action: int


DecisionHook = Callable[[Decision], None]


@dataclass
class _Table:
    """One game in progress in ``play_games``."""

    number: int
    state: GameState
    rng: np.random.Generator
    seat_to_agent: list[int]
    """The lineup position playing each seat."""
    players: list[Agent]
    """The agent of each lineup position at this table (its own copy if the agent remembers)."""
    steps: int = 0


def play_games(
    env: dice_envs.DiceGameEnv,
    agents: Sequence[Agent],
    num_games: int,
    seed: int = 0,
    batch_size: int = DEFAULT_BATCH_SIZE,
    on_decision: DecisionHook | None = None,
    first_game: int = 0,
    duplicate_deals: bool = False,
    cpu_seconds: Sequence[list[float]] | None = None,
    keyed_chance: bool = False,
) -> list[GameOutcome]:
    """Play ``agents`` (one per seat, any ``Agent``) against each other with seats rotated, as
    ``play_match``; the outcomes are in game order.

    Up to ``batch_size`` games are played at once, in lockstep on the engine: at every step each
    agent is asked about every game waiting for it in one ``act_batch`` call, so a trained policy
    makes one network pass per step of the batch instead of one per decision.  Each game is dealt
    and rolled exactly as ``env.reset(seed=seed + g)`` and its steps would deal and roll it, and it
    ends unfinished at ``env``'s step cap, as in the environment.  Agents that draw random numbers
    draw them in batch order, so results are reproducible from ``seed`` and ``batch_size``; other
    batch sizes give results identical in distribution.  An agent that ``remembers`` gets a copy per
    table.  An illegal choice raises ``ValueError`` naming the agent and the game.  ``on_decision``
    sees every decision as it is made (e.g. to value an agent's choices exactly).  The games are
    numbered from ``first_game``, so a match split into parts (``dice_envs.arena.parallel``) deals and
    seats each game as the whole match would.  With ``duplicate_deals`` each seed is dealt once per
    seat rotation (``deal_seed``).  With ``cpu_seconds`` (a list per lineup position), each
    decision's CPU seconds are appended to its agent's list: the process time of the agent's call,
    shared equally by the decisions it made at once (a batch's decisions cost the same each).
    With ``keyed_chance`` each game's chance after its setup is keyed by the seat that draws it, its
    turn and the draw's number in the turn (``dice_envs.core.chance.SeatKeyedChance``): with
    duplicate deals, a seat's rolls then stay the same under every seat rotation instead of parting
    ways once two choices differ.
    """
    if num_games < 1:
        raise ParameterError(f"num_games must be at least 1, got {num_games}")
    if first_game < 0:
        raise ParameterError(f"first_game must be 0 or more, got {first_game}")
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ParameterError(f"batch_size must be a whole number of at least 1, got {batch_size!r}")
    check_seed(seed)
    num_players = len(agents)
    last_seed = deal_seed(seed, first_game + num_games - 1, num_players, duplicate_deals)
    if last_seed > MAX_SEED:
        raise ParameterError(f"the games' seeds {deal_seed(seed, first_game, num_players, duplicate_deals)}..{last_seed} run past 2**63 - 1, the largest seed")
    if num_players != env.game.num_players:
        raise ParameterError(f"{len(agents)} agents for {env.game.num_players} seats")
    game, encoder = env.game, env.encoder
    max_steps = env.unwrapped.max_steps
    outcomes: list[GameOutcome | None] = [None] * num_games
    games = iter(range(first_game, first_game + num_games))

    def deal(players: list[Agent]) -> _Table | None:
        """The next game, played by ``players``; ``None`` once every game has been dealt."""
        for number in games:
            dealt = deal_seed(seed, number, num_players, duplicate_deals)
            rng = SeatKeyedChance(dealt) if keyed_chance else seeding.np_random(dealt)[0]  # as env.reset(seed=...)
            table = _Table(number, game.initial_state(rng), rng, lineup_at_seats(number, num_players), players)
            for player in players:
                player.reset()
            if not game.is_terminal(table.state):
                return table
            outcomes[number - first_game] = _outcome(game, table, finished=True)
        return None

    playing = [deal([agent.for_another_game() for agent in agents]) for _ in range(min(batch_size, num_games))]
    tables = [table for table in playing if table is not None]
    while tables:
        waiting: dict[int, list[tuple[_Table, int]]] = {}
        for table in tables:
            seat = game.current_player(table.state)
            waiting.setdefault(table.seat_to_agent[seat], []).append((table, seat))
        for position, decisions in waiting.items():
            legal = [game.legal_actions(table.state) for table, _ in decisions]
            observations = np.stack([encoder.encode(table.state, seat) for table, seat in decisions])
            masks = np.zeros((len(decisions), game.num_actions), dtype=np.int8)
            for row, actions in enumerate(legal):
                masks[row, actions] = 1
            started = time.process_time()
            if agents[position].remembers:
                chosen = [
                    int(table.players[position].act_in([table.state], [seat], observations[row : row + 1], masks[row : row + 1])[0])
                    for row, (table, seat) in enumerate(decisions)
                ]
            else:
                states, seats = [table.state for table, _ in decisions], [seat for _, seat in decisions]
                chosen = agents[position].act_in(states, seats, observations, masks).tolist()
            if cpu_seconds is not None:
                cpu_seconds[position].extend([(time.process_time() - started) / len(decisions)] * len(decisions))
            for (table, seat), action, actions, obs, mask in zip(decisions, chosen, legal, observations, masks):
                if action not in actions:
                    raise ValueError(
                        f"{agents[position].name} chose illegal action {game.action_label(action)} in game {table.number}; "
                        f"legal actions: {', '.join(game.action_label(a) for a in actions)}"
                    )
                if on_decision is not None:
                    on_decision(Decision(table.number, position, seat, obs, mask, action))
                if isinstance(table.rng, SeatKeyedChance):
                    table.rng.act(seat)
                game.apply(table.state, action, table.rng)
                table.steps += 1
        still_playing = []
        for table in tables:
            finished = game.is_terminal(table.state)
            if finished or table.steps >= max_steps:
                outcomes[table.number - first_game] = _outcome(game, table, finished)
                next_table = deal(table.players)
                if next_table is None:
                    continue
                table = next_table
            still_playing.append(table)
        tables = still_playing
    return [outcome for outcome in outcomes if outcome is not None]


def deal_seed(seed: int, number: int, num_players: int, duplicate_deals: bool = False) -> int:
    """The seed game ``number`` of a match is dealt from: ``seed + number``, or with duplicate
    deals ``seed + number // num_players``, so that each deal is played under every seat rotation
    in turn (``lineup_at_seats``) and every agent meets it in every seat, which cancels much of
    the deal's luck from a comparison."""
    return seed + (number // num_players if duplicate_deals else number)


def lineup_at_seats(number: int, num_players: int) -> list[int]:
    """The lineup position playing each seat in game ``number``: agent ``i`` sits at seat
    ``(i + number) % num_players``."""
    return [(seat - number) % num_players for seat in range(num_players)]


def _outcome(game: Game[Any, Any], table: _Table, finished: bool) -> GameOutcome:
    """The game at ``table`` by lineup position; an unfinished game has no winner."""
    winners = frozenset(table.seat_to_agent[seat] for seat in game.winners(table.state)) if finished else frozenset()
    scores = [0.0] * len(table.seat_to_agent)
    for seat, score in enumerate(game.scores(table.state)):
        scores[table.seat_to_agent[seat]] = float(score)
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


def summed_standings(labels: Sequence[str], standings: Sequence[Standing]) -> dict[str, Standing]:
    """Each agent's results summed over ``standings`` (several matches' standings of the same agents)."""
    totals = {label: Standing(label) for label in labels}
    for standing in standings:
        total = totals[standing.agent]
        total.games += standing.games
        total.wins += standing.wins
        total.shared_wins += standing.shared_wins
        total.unfinished += standing.unfinished
        total.total_score += standing.total_score
    return totals


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
