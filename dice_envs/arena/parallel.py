"""Play games on several cores: a match's games split into one contiguous part per worker.

    runs = split_games(num_games, workers)   # [(first_game, count), ...]
    for outcomes in play_parts([Part(...) for ...], workers): ...

Each part is played by ``dice_envs.arena.play.play_games`` in a worker process with its lineup built
there (``dice_envs.agents.specs.lineup`` builds one from agent specs), its games numbered as in the whole match (so each is dealt and seated as the whole match
would deal and seat it), and its agents seeded from the match seed and the part's number
(``part_seed``).  A result is therefore reproducible from the seed, the batch size and the number
of workers, and one worker plays exactly what ``play_games`` plays in this process.

Workers are forked, so a lineup may be built by any function, a closure or a user's own agent
class included, with nothing to pickle but the results (the outcomes, and with
``play_logged_part`` the logs of the games it was asked to keep); each worker runs torch on one
thread (the workers already use every core).  Where ``fork`` is not available, use one worker.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from threadpoolctl import threadpool_limits

import dice_envs
from dice_envs.agents.base import Agent
from dice_envs.agents.specs import LineupBuilder
from dice_envs.arena.play import DEFAULT_BATCH_SIZE, Decision, GameOutcome, deal_seed, lineup_at_seats, play_games
from dice_envs.arena.recording import logged_move
from dice_envs.core.engine import ParameterError
from dice_envs.game_log import GameLog

T = TypeVar("T")

PART_SEED_STRIDE = 1_000_003
"""Added to every agent seed once per part, so the parts' agents draw unrelated numbers (part 0
keeps the match's own seeds: one worker plays what ``play_games`` plays)."""

def default_workers() -> int:
    """Every core this process may use (``--workers`` defaults to it in the commands that play many games)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@dataclass(frozen=True)
class Part:
    """Games ``first_game .. first_game + num_games - 1`` of a match, and how to seat its lineup."""

    env_name: str
    build: LineupBuilder
    first_game: int
    num_games: int
    number: int
    """The part's number within its match: what its agents' seeds are offset by."""
    seed: int = 0
    batch_size: int = DEFAULT_BATCH_SIZE
    env_kwargs: Mapping[str, Any] = field(default_factory=dict)
    players: Sequence[str] = ()
    """The spec of each lineup position, as ``play_logged_part``'s game logs name the players."""
    logged_games: int = 0
    """``play_logged_part`` logs the match's games ``0 .. logged_games - 1`` that fall in this part."""
    duplicate_deals: bool = False
    """Each seed dealt once per seat rotation (``dice_envs.arena.play.deal_seed``)."""
    keyed_chance: bool = False
    """Chance keyed by the seat that draws it, its turn and the draw (``dice_envs.arena.play.play_games``)."""


PartsPlayer = Callable[[Sequence[Part], Callable[[Part], Any]], Iterator[Any]]
"""Plays parts elsewhere than in this machine's worker processes (``dice_envs.arena.ray.play_parts_on_ray``):
``(parts, play) -> play(part)`` for each part, in the order given."""


def split_games(num_games: int, workers: int) -> list[tuple[int, int]]:
    """``num_games`` as up to ``workers`` contiguous ``(first_game, count)`` runs of near-equal size."""
    if num_games < 1:
        raise ParameterError(f"games must be at least 1, got {num_games}")
    check_workers(workers)
    parts = min(workers, num_games)
    bounds = [num_games * k // parts for k in range(parts + 1)]
    return [(bounds[k], bounds[k + 1] - bounds[k]) for k in range(parts)]


def check_workers(workers: int) -> None:
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ParameterError(f"workers must be a whole number of at least 1, got {workers!r}")
    if workers > 1 and "fork" not in multiprocessing.get_all_start_methods():
        raise ParameterError("playing on several workers needs the 'fork' start method (Linux); use --workers 1 here")


def part_seed(part_number: int) -> int:
    return PART_SEED_STRIDE * part_number


def play_part(part: Part) -> list[GameOutcome]:
    """The part's outcomes, in game order."""
    return play_logged_part(part)[0]


def play_logged_part(part: Part) -> tuple[list[GameOutcome], list[GameLog]]:
    """``play_part``, also logging the part's games among the match's first ``part.logged_games``
    as they are played (the logs of exactly those games, in game order)."""
    env, agents = _seated(part)
    num_players = env.game.num_players
    params = {"num_players": num_players, **dict(part.env_kwargs)}
    logs = {
        number: GameLog(
            part.env_name, params, deal_seed(part.seed, number, num_players, part.duplicate_deals), [part.players[position] for position in lineup_at_seats(number, num_players)]
        )
        for number in range(part.first_game, min(part.first_game + part.num_games, part.logged_games))
    }

    def record(decision: Decision) -> None:
        log = logs.get(decision.game)
        if log is not None:
            agent = agents[decision.position]
            log.moves.append(logged_move(agent, decision.seat, decision.action, decision.observation, decision.action_mask))

    hook = record if logs else None  # no hook at all: most parts log nothing
    outcomes = play_games(
        env, agents, part.num_games, part.seed, part.batch_size, on_decision=hook, first_game=part.first_game, duplicate_deals=part.duplicate_deals
    )
    return outcomes, list(logs.values())


def _seated(part: Part) -> tuple[dice_envs.DiceGameEnv, Sequence[Agent]]:
    """The part's environment and its lineup, seeded for the part (``part_seed``)."""
    env = dice_envs.make(part.env_name, **dict(part.env_kwargs))
    return env, part.build(env, part_seed(part.number))


def play_timed_part(part: Part) -> tuple[list[GameOutcome], list[list[float]]]:
    """The part's outcomes, and the CPU seconds of each decision of each lineup position
    (``play_games``' ``cpu_seconds``)."""
    env, agents = _seated(part)
    seconds: list[list[float]] = [[] for _ in agents]
    outcomes = play_games(
        env, agents, part.num_games, part.seed, part.batch_size, first_game=part.first_game, duplicate_deals=part.duplicate_deals, cpu_seconds=seconds,
        keyed_chance=part.keyed_chance,
    )
    return outcomes, seconds


_PARTS: list[Part] = []
"""The parts being played by ``play_parts``, inherited by the forked workers."""
_PLAY: list[Callable[[Part], Any]] = []
"""And the function that plays each of them."""


def _play_part_at(index: int) -> Any:
    return _PLAY[0](_PARTS[index])


def _one_thread() -> None:
    """Each worker computes on one core: torch's threads, and the BLAS threads numpy started
    before the fork (OpenBLAS's, one per core, spin in every worker: two Mammoth Hunters workers
    played 0.79 times as fast as one, `benchmarks/self_play_throughput.py`)."""
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)
    threadpool_limits(1)


def play_parts(parts: Sequence[Part], workers: int, play: Callable[[Part], T] = play_part) -> Iterator[T]:  # type: ignore[assignment]
    """``play(part)`` for each part (by default its outcomes), in the order given, as soon as it and
    those before it are played; parts run on up to ``workers`` processes at once.  ``play`` may
    return anything that pickles (``training.distill`` returns the examples it recorded)."""
    check_workers(workers)
    if workers == 1 or len(parts) <= 1:
        yield from map(play, parts)
        return
    global _PARTS, _PLAY
    _PARTS, _PLAY = list(parts), [play]
    try:
        with multiprocessing.get_context("fork").Pool(min(workers, len(parts)), initializer=_one_thread) as pool:
            yield from pool.imap(_play_part_at, range(len(parts)), chunksize=1)
    finally:
        _PARTS, _PLAY = [], []
