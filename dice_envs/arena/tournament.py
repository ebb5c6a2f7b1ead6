"""Round-robin tournaments between any agents: win rates with 95% intervals, scores, Bradley-Terry Elo.

    result = run_tournament("dino_hunt_v0", [entrant_from_spec("dino_hunt_v0", s) for s in specs], games=1000)
    print(format_table(result)); save_result(result, Path("out"), "evaluation")

Every pair of entrants plays ``games`` games with seats rotated and fixed seeds (game ``g`` of
every pairing uses environment seed ``seed + g``, so every pairing sees the same dice).  In games
of three or more players the two entrants take two seats and ``filler`` agents (``random`` by
default) the rest; only the two entrants are compared.

Ratings: each game where one entrant of a pairing won and the other did not is a win for it;
a win both shared is half a win each; a game neither won (a filler did) compares nothing.  A
Bradley-Terry model is fitted to those counts (``dice_envs.arena.ratings``: the Plackett-Luce
fit of two-agent finishes, with one virtual drawn game per pair so that a clean sweep stays
finite) and put on the Elo scale, 400 points per factor 10 in odds, ``random`` at 0 when it
plays (else the mean at 0): the scale of ``dice-envs ladder`` and ``docs/leaderboard.md`` too,
whose full tables need no filler (``dice_envs.arena.ladder``).
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import dice_envs
from dice_envs.agents import specs
from dice_envs.agents.base import Agent
from dice_envs.agents.specs import LineupBuilder
from dice_envs.arena.parallel import Part, PartsPlayer, play_logged_part, play_parts, split_games
from dice_envs.arena.play import DEFAULT_BATCH_SIZE, GameOutcome, Standing, numbered_labels, standings_from, summed_standings
from dice_envs.arena.ratings import Finish, plackett_luce_elo
from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.engine import ParameterError
from dice_envs.game_log import GameLog


@dataclass(frozen=True)
class Entrant:
    """A named way to seat an agent at a given environment."""

    label: str
    build: Callable[[DiceGameEnv, int], Agent]
    spec: str = ""


def entrant_from_spec(env_name: str, spec: str) -> Entrant:
    """An entrant from an agent spec (``random``, a heuristic's name, ``model:PATH``).  A model is
    loaded from its absolute path, so that a Ray task running elsewhere on this machine (another
    directory) finds it too."""
    env = dice_envs.make(env_name)  # fail now, with a clear message, on an unknown agent or model
    specs.build(env_name, spec, env)
    path = specs.model_path(spec)
    where = spec if path is None else f"{specs.MODEL_PREFIX}{path.absolute()}"
    return Entrant(specs.label(spec), lambda env, seed: specs.build(env_name, where, env, seed=seed), spec)


@dataclass
class Pairing:
    """Two entrants' games against each other (fillers, if any, in the other seats)."""

    first: Standing
    second: Standing
    first_beat_second: int = 0
    second_beat_first: int = 0
    shared: int = 0

    @property
    def labels(self) -> tuple[str, str]:
        return self.first.agent, self.second.agent


@dataclass
class TournamentResult:
    env_name: str
    num_players: int
    games_per_pairing: int
    seed: int
    filler: str
    entrants: list[str]
    pairings: list[Pairing]
    batch_size: int = DEFAULT_BATCH_SIZE
    """Games played at once (``play_games``): with the seed and workers, what reproduces a result exactly."""
    workers: int = 1
    """Processes each pairing's games were split over (``dice_envs.arena.parallel``)."""
    standings: dict[str, Standing] = field(default_factory=dict)
    elo: dict[str, float] = field(default_factory=dict)
    game_logs: dict[str, GameLog] = field(default_factory=dict)
    """With ``logged_games``: each pairing's first games, as played, by a name fit for a file."""

    def pairing(self, first: str, second: str) -> Pairing:
        for pairing in self.pairings:
            if pairing.labels in ((first, second), (second, first)):
                return pairing
        raise KeyError((first, second))

    def head_to_head(self, agent: str, opponent: str) -> Standing:
        """``agent``'s results in its pairing with ``opponent``."""
        pairing = self.pairing(agent, opponent)
        return pairing.first if pairing.first.agent == agent else pairing.second

    def opponent_in(self, agent: str, opponent: str) -> Standing:
        pairing = self.pairing(agent, opponent)
        return pairing.second if pairing.first.agent == agent else pairing.first


def run_tournament(
    env_name: str,
    entrants: Sequence[Entrant],
    games: int,
    seed: int = 0,
    env_kwargs: Mapping[str, Any] | None = None,
    filler: str = "random",
    focus: str | Sequence[str] | None = None,
    on_pairing: Callable[[Pairing], None] | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    workers: int = 1,
    logged_games: int = 0,
    play_parts_with: PartsPlayer | None = None,
) -> TournamentResult:
    """Every pair of ``entrants`` plays ``games`` games; with ``focus`` (a label or several), only the
    pairs that include one of them.
    Each pairing plays ``batch_size`` games at once (``dice_envs.arena.play.play_games``), its games split
    over ``workers`` processes (``dice_envs.arena.parallel``).  The first ``logged_games`` games of each
    pairing are kept as game logs (``result.game_logs``) as they are played.  ``play_parts_with``
    plays the same parts elsewhere, with the same results (``dice_envs.arena.ray.play_parts_on_ray``)."""
    labels = numbered_labels([entrant.label for entrant in entrants])
    if len(labels) < 2:
        raise ParameterError("a tournament needs at least two agents")
    focused = {focus} if isinstance(focus, str) else set(focus or ())
    if focused - set(labels):
        raise ParameterError(f"focus {', '.join(map(repr, sorted(focused - set(labels))))} is not among the agents {', '.join(labels)}")
    env_kwargs = dict(env_kwargs or {})
    num_players = dice_envs.make(env_name, **env_kwargs).game.num_players
    result = TournamentResult(env_name, num_players, games, seed, filler, labels, [], batch_size, workers)
    pairs = [(i, j) for i, j in itertools.combinations(range(len(entrants)), 2) if not focused or {labels[i], labels[j]} & focused]
    runs = split_games(games, workers)
    parts = [
        Part(
            env_name, _lineup(env_name, entrants[i], entrants[j], filler, seed), first, count, number, seed, batch_size, env_kwargs,
            players=[entrants[i].spec or labels[i], entrants[j].spec or labels[j], *[filler] * (num_players - 2)],
            logged_games=logged_games,
        )
        for i, j in pairs
        for number, (first, count) in enumerate(runs)
    ]
    played = play_parts(parts, workers, play_logged_part) if play_parts_with is None else play_parts_with(parts, play_logged_part)
    for i, j in pairs:
        outcomes: list[GameOutcome] = []
        for _ in runs:
            part_outcomes, logs = next(played)
            outcomes += part_outcomes
            for log in logs:
                result.game_logs[_file_name(f"{labels[i]}-vs-{labels[j]}-game{log.seed - seed}")] = log
        pairing = _pairing(outcomes, labels[i], labels[j], num_players)
        result.pairings.append(pairing)
        if on_pairing is not None:
            on_pairing(pairing)
    result.standings = summed_standings(result.entrants, [standing for pairing in result.pairings for standing in (pairing.first, pairing.second)])
    result.elo = bradley_terry_elo(result.entrants, result.pairings)
    return result


def _file_name(name: str) -> str:
    """``name`` with anything but letters, digits, ``-``, ``_`` and ``.`` as ``_`` (a label such as
    ``random#2`` would cut a file URL short)."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)


def _lineup(env_name: str, first: Entrant, second: Entrant, filler: str, seed: int) -> LineupBuilder:
    """The two entrants in the first two seats, ``filler`` agents in the rest."""
    filling = Entrant(filler, lambda env, agent_seed: specs.build(env_name, filler, env, seed=agent_seed), filler)

    def build(env: DiceGameEnv, seed_offset: int) -> list[Agent]:
        return list(seated([first, second, *[filling] * (env.game.num_players - 2)], seed)(env, seed_offset))

    return build


def seated(entrants: Sequence[Entrant], seed: int) -> LineupBuilder:
    """The entrants in lineup order, the one at position ``p`` seeded ``seed * 1000 + p`` plus the
    part's offset (``dice_envs.arena.parallel.part_seed``)."""

    def build(env: DiceGameEnv, seed_offset: int) -> list[Agent]:
        return [entrant.build(env, seed * 1000 + seed_offset + position) for position, entrant in enumerate(entrants)]

    return build


def _pairing(outcomes: Sequence[GameOutcome], first: str, second: str, num_players: int) -> Pairing:
    fillers = [f"filler{seat}" for seat in range(2, num_players)]
    first_standing, second_standing, *_ = standings_from(outcomes, [first, second, *fillers])
    pairing = Pairing(first_standing, second_standing)
    for outcome in outcomes:
        first_won, second_won = 0 in outcome.winners, 1 in outcome.winners
        if first_won and second_won:
            pairing.shared += 1
        elif first_won:
            pairing.first_beat_second += 1
        elif second_won:
            pairing.second_beat_first += 1
    return pairing


def bradley_terry_elo(labels: Sequence[str], pairings: Sequence[Pairing]) -> dict[str, float]:
    """Elo ratings from the pairings' head-to-head counts: the Plackett-Luce fit of two-agent
    finishes, which is Bradley-Terry (``dice_envs.arena.ratings``)."""
    finishes: Counter[Finish] = Counter()
    for pairing in pairings:
        first, second = pairing.labels
        finishes[((first,), (second,))] += pairing.first_beat_second
        finishes[((second,), (first,))] += pairing.second_beat_first
        finishes[((first, second),)] += pairing.shared
    return plackett_luce_elo(labels, finishes)


# ------------------------------------------------------------------- output
def format_table(result: TournamentResult) -> str:
    """The standings (all of each agent's games) and every pairing's head-to-head, as text."""
    header = f"{'agent':<22}{'games':>7}{'win rate':>10}{'95% CI':>17}{'mean score':>12}{'Elo':>8}"
    lines = [_title(result), "", header, "-" * len(header)]
    for label in sorted(result.entrants, key=lambda label: -result.elo[label]):
        s = result.standings[label]
        low, high = s.win_rate_interval()
        lines.append(
            f"{label:<22}{s.games:>7}{s.win_rate:>10.3f}{f'[{low:.3f}, {high:.3f}]':>17}"
            f"{s.mean_score:>12.2f}{result.elo[label]:>8.0f}"
        )
    lines += ["", "head to head (win rate of each, seats rotated):"]
    for pairing in result.pairings:
        first, second = pairing.first, pairing.second
        low, high = first.win_rate_interval()
        lines.append(
            f"  {first.agent} {first.win_rate:.3f} [{low:.3f}, {high:.3f}] vs {second.agent} {second.win_rate:.3f}"
            f"  ({first.games} games)"
        )
    unfinished = sum(p.first.unfinished for p in result.pairings)
    if unfinished:
        lines.append(f"({unfinished} games hit the step cap and count as no win)")
    return "\n".join(lines)


def _title(result: TournamentResult) -> str:
    fillers = f", other seats {result.filler}" if result.num_players > 2 else ""
    return (
        f"{result.env_name}, {result.num_players} players{fillers}: {result.games_per_pairing} games per pairing, "
        f"seats rotated, seeds {result.seed}..{result.seed + result.games_per_pairing - 1}"
    )


def to_markdown(result: TournamentResult) -> str:
    lines = [
        f"# Tournament: {result.env_name}",
        "",
        _title(result) + ".",
        "",
        "| agent | games | win rate | 95% CI | mean score | Elo |",
        "|---|---:|---:|---|---:|---:|",
    ]
    for label in sorted(result.entrants, key=lambda label: -result.elo[label]):
        s = result.standings[label]
        low, high = s.win_rate_interval()
        lines.append(f"| {label} | {s.games} | {s.win_rate:.3f} | [{low:.3f}, {high:.3f}] | {s.mean_score:.2f} | {result.elo[label]:.0f} |")
    lines += ["", "Head to head: the row agent's win rate against the column agent (seats rotated).", ""]
    lines.append("| | " + " | ".join(result.entrants) + " |")
    lines.append("|---|" + "---:|" * len(result.entrants))
    for row in result.entrants:
        cells = []
        for column in result.entrants:
            try:
                cells.append(f"{result.head_to_head(row, column).win_rate:.3f}" if row != column else "")
            except KeyError:
                cells.append("")
        lines.append(f"| {row} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def to_json(result: TournamentResult) -> dict[str, Any]:
    def standing(s: Standing) -> dict[str, Any]:
        low, high = s.win_rate_interval()
        return {
            "games": s.games,
            "wins": s.wins,
            "shared_wins": s.shared_wins,
            "unfinished": s.unfinished,
            "win_rate": s.win_rate,
            "win_rate_ci95": [low, high],
            "mean_score": s.mean_score,
        }

    return {
        "env": result.env_name,
        "num_players": result.num_players,
        "games_per_pairing": result.games_per_pairing,
        "seed": result.seed,
        "batch_size": result.batch_size,
        "workers": result.workers,
        "filler": result.filler if result.num_players > 2 else None,
        "standings": {label: {**standing(result.standings[label]), "elo": result.elo[label]} for label in result.entrants},
        "pairings": [
            {
                "agents": list(p.labels),
                "results": {p.first.agent: standing(p.first), p.second.agent: standing(p.second)},
                "first_beat_second": p.first_beat_second,
                "second_beat_first": p.second_beat_first,
                "shared": p.shared,
            }
            for p in result.pairings
        ],
    }


def save_result(result: TournamentResult, directory: Path, stem: str) -> tuple[Path, Path]:
    """Write ``<stem>.json`` and ``<stem>.md`` into ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    json_path, markdown_path = directory / f"{stem}.json", directory / f"{stem}.md"
    json_path.write_text(json.dumps(to_json(result), indent=2) + "\n")
    markdown_path.write_text(to_markdown(result))
    return json_path, markdown_path
