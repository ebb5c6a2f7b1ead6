"""The strength ladder: one rating per game and player count for any agent, on a scale where ``random`` is 0.

    dice-envs ladder dice_age_v1 model:runs/my_run/model.zip     rate an agent (a minute or two on 2 cores)
    dice-envs ladder dice_age_v1 planner --players 3             at full tables of three
    dice-envs ladder dice_age_v1 planner --games 400             more games, a tighter interval
    dice-envs ladder dino_hunt_v0 cup_counter --deals keyed      each seat's rolls the same in every rotation
    dice-envs ladder --leaderboard                               every rung's rating: docs/leaderboard.md
    dice-envs ladder dice_age_v1 --rebuild --players 3           replay the ladder's own games (maintainers)
    dice-envs ladder dice_age_v1 --extend                        play only a new rung's games (maintainers)
    dice-envs ladder --rebuild --workers 2                       every game at every count (maintainers)

Each game has a fixed list of reference opponents, its *rungs* (``LADDERS``): ``random``, every
heuristic, the exact solvers where they exist, ``mcts`` at two budgets and the trained models in
``models/``; at a player count other than the ladder's first (the one its networks were trained
for) the rungs that use a network are left out (``rungs_at``).  The rungs' own games are played once
(``--rebuild``) and stored with the package (``dice_envs/arena/ladders/<game>-<N>p.json``), so
rating an agent costs only its own games.

**Full tables.**  Every game seats N different agents, no filler: at N players the rungs' games
are played rung by rung, each rung at a table with every run of N - 1 consecutive rungs listed
before it (``round_robin_tables``; at two players, every pair once), and an agent is rated at
a table with every run of N - 1 consecutive rungs (``agent_tables``; at two players, against
each rung).  One Plackett-Luce model is fitted to every game's finishing order, the stored
ones and the agent's (``dice_envs.arena.ratings``), on the Elo scale (400 points per factor 10)
with ``random`` at 0; at two players that is the Bradley-Terry fit of before.

**Duplicate deals.**  A table's games come in deals: each seed is played under every seat
rotation in turn (``dice_envs.arena.play.deal_seed``), so every agent meets each deal in every
seat; a stored ladder records whether it was played so (the ones converted from single deals
say ``false``).  The agent's interval is the 2.5th to 97.5th percentile of its rating refitted
to resamples of its own deals (the stored games held fixed).  ``--deals keyed`` also keys each
seat's rolls by seat, turn and roll (``dice_envs.core.chance.SeatKeyedChance``), so that a deal's
rotations see the same dice and differ only by the choices made.

**Where the games go.**  An agent plays a quarter of its games evenly at its tables, then the
rest where its result is least certain (``adaptive_games``): a game against a rung it beats every
time says little of its rating.

**Budgets.**  Every decision's CPU time is measured as it is played (``play_games``'
``cpu_seconds``): a rating and a stored ladder report each agent's milliseconds per decision,
mean and 95th percentile, beside the CPU seconds this machine takes for a fixed reference loop
(``reference_cpu_seconds``), so that times measured on two machines can be compared.

A stored ladder records each model rung's SHA-256: a retrained model, a changed rung or a new
environment version makes it stale, and loading it then says to rebuild it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import math
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

import dice_envs
from dice_envs.agents import specs
from dice_envs.arena.parallel import Part, play_parts, play_timed_part, split_games
from dice_envs.arena.play import DEFAULT_BATCH_SIZE, GameOutcome, Standing, numbered_labels, play_games, standings_from, summed_standings
from dice_envs.arena.ratings import Finish, plackett_luce_elo
from dice_envs.arena.tournament import Entrant, entrant_from_spec, seated
from dice_envs.core.aec import MAX_SEED
from dice_envs.core.engine import ParameterError

STORE = Path(str(resources.files("dice_envs.arena").joinpath("ladders")))
STORED_MODEL = "models/{}.zip"
"""How the stored round robins name a shipped model: by its path in the repository when they were
played (``model:models/dino_hunt_ppo.zip``), so that the files stay what was played; a rung names
it by name (``model:dino_hunt_ppo``), and ``stored_spec`` maps one to the other."""
BOOTSTRAP_RESAMPLES = 200
PILOT_SHARE = 4
"""Rating an agent, ``1 / PILOT_SHARE`` of its games are played evenly at its tables before the
rest go where its results are least certain (``adaptive_games``)."""
REFERENCE_GAMES = 200
"""The reference loop: this many games of Dino Hunt between two ``random`` agents."""


@dataclass(frozen=True)
class Ladder:
    """A game's reference opponents, how many games each table plays, and the player counts rated."""

    env_name: str
    rungs: tuple[str, ...]
    games: int
    """Games per table in the stored round robin."""
    agent_games: int
    """Games an agent plays at each table by default at the default count, on average
    (``default_agent_games`` scales it to the others): sized for an interval of about +-25 at two
    players within 10 CPU-minutes in the heavy games, an agent that decides quickly assumed."""
    players: tuple[int, ...]
    """The player counts with a stored ladder; the first is the default, the count the shipped
    networks among the rungs were trained for."""


LADDERS: dict[str, Ladder] = {
    ladder.env_name: ladder
    for ladder in (
        Ladder(
            "dino_hunt_v0",
            ("random", "two_footprints", "cup_counter", "optimal_points", "optimal_win", "mcts:simulations=20", "mcts:simulations=200",
             "model:dino_hunt_ppo", "model:dino_hunt_ppo_turn", "model:dino_hunt_ppo_win", "mcts:simulations=60"),
            games=200,
            agent_games=400,
            players=(2, 4, 8),
        ),
        Ladder(
            "dalek_dice_v0",
            ("random", "protect_humans", "doctor_odds", "optimal_points", "mcts:simulations=5", "mcts:simulations=25",
             "model:dalek_dice_ppo", "model:dalek_dice_ppo_turn"),
            games=100,
            agent_games=300,
            players=(2, 4, 6),
        ),
        Ladder(
            "dice_age_v1",
            ("random", "best_prey", "planner", "mcts:simulations=25", "mcts:simulations=100", "model:dice_age_ppo",
             "model:dice_age_search", "model:dice_age_expert"),
            games=200,
            agent_games=200,
            players=(2, 3, 4),
        ),
        Ladder(
            "age_of_craft_v1",
            ("random", "builder", "trader", "mcts:simulations=20", "mcts:simulations=20,model=age_of_craft_ppo",
             "model:age_of_craft_ppo", "model:age_of_craft_expert"),
            games=100,
            agent_games=100,
            players=(2, 3, 4),
        ),
        Ladder(
            "mammoth_hunters_v1",
            ("random", "settler", "raider", "mcts:simulations=10,depth=60", "mcts:simulations=10,model=mammoth_hunters_ppo",
             "model:mammoth_hunters_ppo", "model:mammoth_hunters_expert", "mcts:simulations=30,depth=60"),
            games=60,
            agent_games=60,
            players=(3, 4, 5),
        ),
    )
}


def ladder_for(env_name: str) -> Ladder:
    if env_name not in LADDERS:
        raise ParameterError(f"no ladder for {env_name!r}; ladders: {', '.join(LADDERS)}")
    return LADDERS[env_name]


def count_for(ladder: Ladder, players: int | None) -> int:
    """``players``, checked against the game's rules; the ladder's default count if ``None``."""
    if players is None:
        return ladder.players[0]
    params = dice_envs.make(ladder.env_name, raw=True).game_class.params_class
    if not params.min_players <= players <= params.max_players:
        raise ParameterError(f"{ladder.env_name} is played by {params.min_players} to {params.max_players} players, not {players}")
    return players


def stored_spec(rung: str) -> str:
    """The spec a stored round robin records for ``rung`` (``STORED_MODEL``); also its label there."""
    return re.sub(r"(model[:=])([a-z0-9_]+)(?=,|$)", lambda match: match[1] + STORED_MODEL.format(match[2]), rung)


def rungs_at(ladder: Ladder, players: int) -> tuple[str, ...]:
    """The rungs at ``players``: all of them at the default count, which the shipped networks were
    trained for; at any other, those that use no network (a network plays only its own count)."""
    if players == ladder.players[0]:
        return ladder.rungs
    return tuple(rung for rung in ladder.rungs if specs.model_of(rung) is None)


def rung_entrant(env_name: str, rung: str) -> Entrant:
    """A rung as a tournament entrant, labelled as the stored round robins label it."""
    return Entrant(specs.label(stored_spec(rung)), entrant_from_spec(env_name, rung).build, rung)


def _fingerprints(rungs: Sequence[str]) -> dict[str, str]:
    """The SHA-256 of every model a rung uses (``model:NAME``, ``mcts:...,model=NAME``): what a
    stored ladder must have been played with."""
    models = {stored_spec(rung): specs.model_of(rung) for rung in rungs}
    return {rung: hashlib.sha256(path.read_bytes()).hexdigest() for rung, path in models.items() if path is not None}


# ------------------------------------------------------------------ who sits together
def windows(count: int, size: int) -> list[tuple[int, ...]]:
    """Every run of ``size`` consecutive indices of ``range(count)``, cyclically, each sorted: each
    index lies in ``size`` of them (one run, the whole range, if ``size == count``)."""
    if size >= count:
        return [tuple(range(count))]
    return [tuple(sorted((start + offset) % count for offset in range(size))) for start in range(count)]


def round_robin_tables(count: int, players: int) -> list[tuple[int, ...]]:
    """The stored round robin's tables, as rung indices: rung by rung, each rung (from the
    ``players``-th on) with every run of ``players - 1`` rungs before it, the rung last.  Built
    rung by rung, so adding rungs at the end only adds tables (``--extend``)."""
    return [(*window, rung) for rung in range(players - 1, count) for window in windows(rung, players - 1)]


def agent_tables(count: int, players: int) -> list[tuple[int, ...]]:
    """The rung indices an agent sits with, one table each: every run of ``players - 1`` rungs
    (at two players, every rung)."""
    return windows(count, players - 1)


# ---------------------------------------------------------------------- playing tables
@dataclass
class Table:
    """One table's games: each seat's agent (by lineup position) and results, and how often each
    finishing order came."""

    standings: list[Standing]
    finishes: Counter[Finish]
    played: list[Finish | None] = field(default_factory=list)
    """Each game's finish in game order (``None``: unfinished), where it was played here, not read
    back: what the bootstrap resamples."""
    cpu_seconds: list[list[float]] = field(default_factory=list)
    """Where it was played here: each lineup position's CPU seconds per decision."""

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(standing.agent for standing in self.standings)

    @property
    def games(self) -> int:
        return self.standings[0].games


def play_tables(
    env_name: str,
    lineups: Sequence[Sequence[Entrant]],
    games: int | Sequence[int],
    seed: int,
    duplicate_deals: bool,
    workers: int = 1,
    batch_size: int = DEFAULT_BATCH_SIZE,
    on_table: Callable[[Table], None] | None = None,
    first_game: int = 0,
    keyed_chance: bool = False,
) -> list[Table]:
    """Each lineup's ``games`` games (one count for all, or one a lineup), numbered from
    ``first_game``, seats rotated and every table dealt from the same seeds; the agent at lineup
    position ``p`` is seeded ``seed * 1000 + p`` plus the part's offset (games played on from
    ``first_game`` get offsets of their own), as a tournament seeds its two entrants;
    ``keyed_chance`` as ``play_games``."""
    players = len(lineups[0])
    counts = [games] * len(lineups) if isinstance(games, int) else list(games)
    # Games played on from an earlier call's: part numbers above the fewer than ``workers`` it gave each table.
    offset = first_game * workers
    runs = [split_games(count, workers) for count in counts]
    parts = [
        Part(env_name, seated(lineup, seed), first_game + first, count, offset + number, seed, batch_size, {"num_players": players},
             players=[entrant.spec or entrant.label for entrant in lineup], duplicate_deals=duplicate_deals, keyed_chance=keyed_chance)
        for lineup, lineup_runs in zip(lineups, runs)
        for number, (first, count) in enumerate(lineup_runs)
    ]
    played = play_parts(parts, workers, play_timed_part)
    tables = []
    for lineup, lineup_runs in zip(lineups, runs):
        labels = [entrant.label for entrant in lineup]
        outcomes: list[GameOutcome] = []
        seconds: list[list[float]] = [[] for _ in lineup]
        for _ in lineup_runs:
            part_outcomes, part_seconds = next(played)
            outcomes += part_outcomes
            for position, spent in enumerate(part_seconds):
                seconds[position] += spent
        finishes = [outcome.finish(labels) for outcome in outcomes]
        table = Table(standings_from(outcomes, labels), Counter(finish for finish in finishes if finish is not None), finishes, seconds)
        tables.append(table)
        if on_table is not None:
            on_table(table)
    return tables


def cpu_milliseconds(seconds: Sequence[float]) -> tuple[float, float] | None:
    """Mean and 95th percentile of per-decision CPU seconds, in milliseconds (``None``: no decision)."""
    if not seconds:
        return None
    return float(np.mean(seconds) * 1000), float(np.percentile(seconds, 95) * 1000)


def reference_cpu_seconds() -> float:
    """CPU seconds this machine takes for the reference loop (``REFERENCE_GAMES`` games of Dino
    Hunt between ``random`` agents, one at a time): the yardstick beside every time measured."""
    env = dice_envs.make("dino_hunt_v0")
    agents = [specs.build("dino_hunt_v0", "random", env, seed=position) for position in range(2)]
    start = time.process_time()
    play_games(env, agents, REFERENCE_GAMES, seed=0, batch_size=1)
    return time.process_time() - start


# ------------------------------------------------------------- the stored round robin
@dataclass
class StoredLadder:
    """The rungs' round robin at one player count as stored: who sat together and how it went."""

    ladder: Ladder
    players: int
    rungs: tuple[str, ...]
    """The rungs that play at this count, in the ladder's order."""
    labels: list[str]
    """Each rung's label (a model rung's is its file's stem)."""
    tables: list[Table]
    seed: int
    workers: int
    """Processes each table's games were split over: with the seed, what reproduces them."""
    duplicate_deals: bool
    fingerprints: dict[str, str]
    milliseconds: dict[str, tuple[float, float]]
    """Each rung's CPU milliseconds per decision (mean, 95th percentile) as its games were
    played; none for a ladder converted from before they were measured."""
    reference_seconds: float | None
    """``reference_cpu_seconds`` on the machine that played it (``None``: not measured)."""

    def ratings(self) -> dict[str, float]:
        return plackett_luce_elo(self.labels, _summed(self.tables))

    def spec_of(self, label: str) -> str:
        return self.rungs[self.labels.index(label)]


def _summed(tables: Sequence[Table]) -> Counter[Finish]:
    total: Counter[Finish] = Counter()
    for table in tables:
        total.update(table.finishes)
    return total


def _rung_milliseconds(labels: Sequence[str], tables: Sequence[Table]) -> dict[str, tuple[float, float]]:
    spent: dict[str, list[float]] = {label: [] for label in labels}
    for table in tables:
        for label, seconds in zip(table.labels, table.cpu_seconds):
            spent[label] += seconds
    return {label: ms for label, seconds in spent.items() if (ms := cpu_milliseconds(seconds)) is not None}


def _check_size(rungs: Sequence[str], players: int, env_name: str) -> None:
    if len(rungs) < players:
        raise ParameterError(f"only {len(rungs)} rungs play {env_name} at {players} players ({', '.join(rungs)}): a table needs {players} different agents")


def build_ladder(
    env_name: str, seed: int = 0, workers: int = 1, on_table: Callable[[Table], None] | None = None, players: int | None = None, duplicate_deals: bool = True
) -> StoredLadder:
    """Play the rungs' round robin at ``players`` (the stored games); ``--rebuild``."""
    ladder = ladder_for(env_name)
    players = count_for(ladder, players)
    rungs = rungs_at(ladder, players)
    _check_size(rungs, players, env_name)
    entrants = [rung_entrant(env_name, rung) for rung in rungs]
    labels = numbered_labels([entrant.label for entrant in entrants])
    reference = reference_cpu_seconds()
    lineups = [[entrants[index] for index in table] for table in round_robin_tables(len(rungs), players)]
    tables = play_tables(env_name, lineups, ladder.games, seed, duplicate_deals, workers, on_table=on_table)
    return StoredLadder(
        ladder, players, rungs, labels, tables, seed, workers, duplicate_deals, _fingerprints(rungs), _rung_milliseconds(labels, tables), reference
    )


def extend_ladder(
    env_name: str, on_table: Callable[[Table], None] | None = None, directory: Path | None = None, players: int | None = None
) -> StoredLadder:
    """The stored round robin with the games of the rungs added to the end of ``LADDERS``' list
    since it was played (``--extend``): the new rungs' tables, played as ``--rebuild`` plays
    them (the stored seed, deals and workers); the stored tables, whose rungs are unchanged
    (their models' SHA-256 checked), are kept."""
    ladder = ladder_for(env_name)
    players = count_for(ladder, players)
    rungs = rungs_at(ladder, players)
    path = stored_path(directory or STORE, env_name, players)
    with _reading(path, env_name, players):
        data = json.loads(path.read_text())
        played = data["rungs"]
        if not isinstance(played, list) or played != [stored_spec(rung) for rung in rungs[: len(played)]]:
            raise StoredField(f"rungs must be the first of today's rungs, got {_shown(played)}")
        stored = read_stored(ladder, players, rungs[: len(played)], data)
    if len(played) == len(rungs):
        raise ParameterError(f"the stored ladder {path} has every rung already: nothing to extend")
    if stored.fingerprints != _fingerprints(stored.rungs):
        raise ParameterError(f"the stored ladder {path} was played with other versions of its models; {_rebuild(env_name, players)}")
    entrants = [rung_entrant(env_name, rung) for rung in rungs]
    labels = numbered_labels([entrant.label for entrant in entrants])
    new = [[entrants[index] for index in table] for table in round_robin_tables(len(rungs), players) if table[-1] >= len(played)]
    added = play_tables(env_name, new, ladder.games, stored.seed, stored.duplicate_deals, stored.workers, on_table=on_table)
    milliseconds = {**stored.milliseconds, **_rung_milliseconds(labels, added)}
    return StoredLadder(
        ladder, players, rungs, labels, [*stored.tables, *added], stored.seed, stored.workers, stored.duplicate_deals, _fingerprints(rungs),
        milliseconds, stored.reference_seconds,
    )


def stored_path(directory: Path, env_name: str, players: int) -> Path:
    return directory / f"{env_name}-{players}p.json"


def _rebuild(env_name: str, players: int) -> str:
    return f"rebuild it with `dice-envs ladder {env_name} --rebuild --players {players}`"


@contextlib.contextmanager
def _reading(path: Path, env_name: str, players: int) -> Iterator[None]:
    """Whatever reading the stored ladder ``path`` raises, as one line naming it and saying to rebuild it."""
    try:
        yield
    except FileNotFoundError:
        raise ParameterError(f"no stored ladder for {env_name} at {players} players at {path}; {_rebuild(env_name, players)}") from None
    except StoredField as error:
        raise ParameterError(f"the stored ladder {path}: {error}; {_rebuild(env_name, players)}") from None
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as error:  # not a file, not JSON, or not a ladder's
        raise ParameterError(f"the stored ladder {path} cannot be read ({type(error).__name__}: {str(error)[:200]}); {_rebuild(env_name, players)}") from None


def save_ladder(stored: StoredLadder, directory: Path | None = None) -> Path:
    directory = directory or STORE
    directory.mkdir(parents=True, exist_ok=True)
    path = stored_path(directory, stored.ladder.env_name, stored.players)
    data = {
        "env": stored.ladder.env_name,
        "players": stored.players,
        "rungs": [stored_spec(rung) for rung in stored.rungs],
        "labels": stored.labels,
        "games_per_table": stored.ladder.games,
        "seed": stored.seed,
        "workers": stored.workers,
        "duplicate_deals": stored.duplicate_deals,
        "model_sha256": stored.fingerprints,
        "reference_cpu_s": None if stored.reference_seconds is None else round(stored.reference_seconds, 3),
        "ms_per_decision": {label: {"mean": round(mean, 4), "p95": round(p95, 4)} for label, (mean, p95) in stored.milliseconds.items()},
        "tables": [_table_to_json(table) for table in stored.tables],
    }
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path


def load_ladder(env_name: str, directory: Path | None = None, players: int | None = None) -> StoredLadder:
    """The stored round robin at ``players`` (the ladder's default count if ``None``), checked
    against today's rungs and models (a clear error if stale) and checked for values as well as
    shape (``read_stored``): a count that is no whole number, or inconsistent with the games
    played, is one line naming the file and the field."""
    ladder = ladder_for(env_name)
    players = count_for(ladder, players)
    rungs = rungs_at(ladder, players)
    path = stored_path(directory or STORE, env_name, players)
    rebuild = _rebuild(env_name, players)
    with _reading(path, env_name, players):
        data = json.loads(path.read_text())
        games = data["games_per_table"]
        same = (
            data["env"] == env_name and data["players"] == players and data["rungs"] == [stored_spec(rung) for rung in rungs]
            and type(games) is int and games == ladder.games
        )
        stored = read_stored(ladder, players, rungs, data) if same else None
    if stored is None:
        raise ParameterError(f"the stored ladder {path} was played with other rungs, player counts or game counts; {rebuild}")
    fingerprints = _fingerprints(rungs)
    changed = [rung for rung in rungs if stored_spec(rung) in fingerprints and stored.fingerprints[stored_spec(rung)] != fingerprints[stored_spec(rung)]]
    if changed:
        raise ParameterError(f"the stored ladder {path} was played with other versions of {', '.join(changed)}; {rebuild}")
    expected = Counter(frozenset(stored.labels[index] for index in table) for table in round_robin_tables(len(rungs), players))
    if Counter(frozenset(table.labels) for table in stored.tables) != expected:
        raise ParameterError(f"the stored ladder {path} does not hold the tables of its round robin (`round_robin_tables`); {rebuild}")
    return stored


# ------------------------------------------------------- reading a stored file back
LADDER_FIELDS = (
    "env", "players", "rungs", "labels", "games_per_table", "seed", "workers", "duplicate_deals", "model_sha256", "reference_cpu_s", "ms_per_decision", "tables",
)
TABLE_FIELDS = ("agents", "finishes", "standings")
STANDING_FIELDS = tuple(field.name for field in dataclasses.fields(Standing))
SHA256 = re.compile(r"[0-9a-f]{64}")
MAX_MILLISECONDS = 3_600_000.0
"""An hour a decision: more is no measurement of this suite's agents."""


class StoredField(ValueError):
    """A stored ladder's field whose value cannot be what was played: the field, then why."""


def read_stored(ladder: Ladder, players: int, rungs: Sequence[str], data: dict[str, Any]) -> StoredLadder:
    """A stored ladder's fields, each checked for type, range and finiteness and the counts for
    consistency with the games played (``StoredField`` naming the first that is not); a missing
    field is a ``KeyError``.  The stored fingerprints are kept, to compare with today's."""
    unknown = sorted(set(data) - set(LADDER_FIELDS))
    if unknown:
        raise StoredField(f"unknown field(s) {', '.join(unknown)}")
    labels = numbered_labels([specs.label(stored_spec(rung)) for rung in rungs])
    if data["labels"] != labels:
        raise StoredField(f"labels must be the rungs' labels {labels}, got {_shown(data['labels'])}")
    games = ladder.games
    seed = _whole(data["seed"], "seed", 0, MAX_SEED - games + 1)
    workers = _whole(data["workers"], "workers", 1, games)
    duplicate = data["duplicate_deals"]
    if not isinstance(duplicate, bool):
        raise StoredField(f"duplicate_deals must be true or false, got {_shown(duplicate)}")
    fingerprints = _fingerprints(rungs)
    prints = data["model_sha256"]
    if not isinstance(prints, dict) or set(prints) != set(fingerprints) or not all(isinstance(v, str) and SHA256.fullmatch(v) for v in prints.values()):
        raise StoredField(f"model_sha256 must map each model rung ({', '.join(fingerprints) or 'none'}) to a SHA-256 in hex, got {_shown(prints)}")
    reference = data["reference_cpu_s"]
    if reference is not None:
        reference = _number(reference, "reference_cpu_s", 0.0, MAX_MILLISECONDS)
    milliseconds = _milliseconds(data["ms_per_decision"], labels)
    tables = data["tables"]
    if not isinstance(tables, list):
        raise StoredField(f"tables must be a list, got {_shown(tables)}")
    read = [_table_from_json(item, f"tables[{index}]", games, players, labels) for index, item in enumerate(tables)]
    return StoredLadder(ladder, players, tuple(rungs), labels, read, seed, workers, duplicate, prints, milliseconds, reference)


def _shown(value: Any) -> str:
    return repr(value)[:80]


def _whole(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise StoredField(f"{where} must be a whole number from {low} to {high}, got {_shown(value)}")
    return value


def _number(value: Any, where: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or not low <= value <= high:
        raise StoredField(f"{where} must be a number from {low:g} to {high:g}, got {_shown(value)}")
    return float(value)


def _fields(item: Any, where: str, names: Sequence[str]) -> dict[str, Any]:
    if not isinstance(item, dict) or set(item) != set(names):
        raise StoredField(f"{where} must be an object with exactly {', '.join(names)}, got {_shown(item)}")
    return item


def _milliseconds(value: Any, labels: Sequence[str]) -> dict[str, tuple[float, float]]:
    if not isinstance(value, dict) or not set(value) <= set(labels):
        raise StoredField(f"ms_per_decision must map rung labels to their times, got {_shown(value)}")
    read = {}
    for label, item in value.items():
        fields = _fields(item, f"ms_per_decision[{label!r}]", ("mean", "p95"))
        mean, p95 = (_number(fields[name], f"ms_per_decision[{label!r}].{name}", 0.0, MAX_MILLISECONDS) for name in ("mean", "p95"))
        read[label] = (mean, p95)
    return read


def _standing_from_json(item: Any, where: str, games: int, agent: str) -> Standing:
    fields = _fields(item, where, STANDING_FIELDS)
    if fields["agent"] != agent:
        raise StoredField(f"{where}.agent must be {agent!r}, the table's, got {_shown(fields['agent'])}")
    _whole(fields["games"], f"{where}.games", games, games)
    wins, shared_wins, unfinished = (_whole(fields[name], f"{where}.{name}", 0, games) for name in ("wins", "shared_wins", "unfinished"))
    if wins + shared_wins + unfinished > games:
        raise StoredField(f"{where}: wins, shared_wins and unfinished add up to more than its {games} games")
    score = fields["total_score"]
    if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score):
        raise StoredField(f"{where}.total_score must be a finite number, got {_shown(score)}")
    return Standing(agent, games, wins, shared_wins, unfinished, float(score))


FINISH = re.compile(r"\d+([>=]\d+)*")


def finish_key(finish: Finish, labels: Sequence[str]) -> str:
    """A finish as stored: lineup positions from first to last, ``>`` between places and ``=``
    within one (``"1>0=2"``: position 1 won, 0 and 2 tied behind it)."""
    return ">".join("=".join(str(labels.index(label)) for label in place) for place in finish)


def _finish_from_key(key: str, where: str, labels: Sequence[str]) -> Finish:
    if not FINISH.fullmatch(key):
        raise StoredField(f"{where}: {_shown(key)} is no finish (positions joined by > and =)")
    places = [[int(position) for position in place.split("=")] for place in key.split(">")]
    if sorted(position for place in places for position in place) != list(range(len(labels))):
        raise StoredField(f"{where}: the finish {key!r} must place each of positions 0 to {len(labels) - 1} once")
    return tuple(tuple(labels[position] for position in sorted(place)) for place in places)


def _table_from_json(item: Any, where: str, games: int, players: int, labels: Sequence[str]) -> Table:
    """One stored table, its finishes consistent with its standings: a game's winners are its
    first place (every game's, as every game of the suite has winners)."""
    fields = _fields(item, where, TABLE_FIELDS)
    agents, standings, finishes = fields["agents"], fields["standings"], fields["finishes"]
    if not isinstance(agents, list) or len(agents) != players or len(set(agents)) != players or not all(agent in labels for agent in agents):
        raise StoredField(f"{where}.agents must be {players} different labels, got {_shown(agents)}")
    if not isinstance(standings, list) or len(standings) != players:
        raise StoredField(f"{where}.standings must be a list of {players} standings, got {_shown(standings)}")
    read = [_standing_from_json(standing, f"{where}.standings[{i}]", games, agent) for i, (standing, agent) in enumerate(zip(standings, agents))]
    if len({standing.unfinished for standing in read}) != 1:
        raise StoredField(f"{where}: its standings count different numbers of unfinished games of the same games")
    if not isinstance(finishes, dict):
        raise StoredField(f"{where}.finishes must map finishes to counts, got {_shown(finishes)}")
    counts: Counter[Finish] = Counter()
    for key, count in finishes.items():
        counts[_finish_from_key(key, f"{where}.finishes", agents)] += _whole(count, f"{where}.finishes[{key!r}]", 1, games)
    if sum(counts.values()) != games - read[0].unfinished:
        raise StoredField(f"{where}: its finishes count {sum(counts.values())} games, not its {games - read[0].unfinished} finished ones")
    for standing in read:
        alone = sum(count for finish, count in counts.items() if finish[0] == (standing.agent,))
        shared = sum(count for finish, count in counts.items() if standing.agent in finish[0] and len(finish[0]) > 1)
        if (alone, shared) != (standing.wins, standing.shared_wins):
            raise StoredField(f"{where}: {standing.agent}'s wins ({standing.wins}, {standing.shared_wins} shared) are not its first places in the finishes")
    return Table(read, counts)


def _table_to_json(table: Table) -> dict[str, Any]:
    return {
        "agents": list(table.labels),
        "finishes": {finish_key(finish, table.labels): count for finish, count in sorted(table.finishes.items(), key=lambda item: finish_key(item[0], table.labels))},
        "standings": [vars(standing) for standing in table.standings],
    }


# ------------------------------------------------------------------ rating an agent
@dataclass
class LadderRating:
    env_name: str
    players: int
    agent: str
    rating: float
    interval: tuple[float, float]
    rung_ratings: dict[str, float]
    """Every rung's rating in the same fit."""
    results: list[Table]
    """The agent's tables, the agent first."""
    games: int
    """Games a table on average."""
    seed: int
    workers: int
    batch_size: int
    duplicate_deals: bool
    adaptive: bool
    """Whether the games after the first quarter went where the results were least certain."""
    keyed_chance: bool
    milliseconds: tuple[float, float] | None
    """The agent's CPU milliseconds per decision: mean and 95th percentile."""
    reference_seconds: float
    """``reference_cpu_seconds`` on this machine, measured beside the games."""
    stored_reference_seconds: float | None
    """The same on the machine that played the stored ladder."""


def rate_agent(
    env_name: str,
    agent: Entrant,
    games: int | None = None,
    seed: int = 0,
    workers: int = 1,
    batch_size: int = DEFAULT_BATCH_SIZE,
    on_table: Callable[[Table], None] | None = None,
    store: Path | None = None,
    players: int | None = None,
    duplicate_deals: bool = True,
    adaptive: bool = True,
    keyed_chance: bool = False,
) -> LadderRating:
    """``agent`` at a table with every run of rungs, rated with the stored games (see the module docstring).

    ``games`` a table on average: with ``adaptive``, a quarter of them at every table first, the
    rest shared out by ``adaptive_games``; without, ``games`` at each.  ``agent`` is any
    ``dice_envs.arena.tournament.Entrant``: ``entrant_from_spec(env_name, spec)`` for a built-in
    agent or a model, or ``Entrant("mine", lambda env, seed: MyAgent(env, seed))`` for an agent
    of one's own (``agents.base.Agent``).  ``keyed_chance`` keys each game's rolls by seat,
    turn and draw (``play_games``): each game is dealt as before, so the stored games still fit beside them.
    """
    stored = load_ladder(env_name, store or STORE, players)
    games = default_agent_games(stored.ladder, stored.players) if games is None else games
    label = agent.label if agent.label not in stored.labels else f"{agent.label} (rated)"
    rated = Entrant(label, agent.build, agent.spec)
    rungs = [rung_entrant(env_name, rung) for rung in stored.rungs]
    reference = reference_cpu_seconds()
    lineups = [[rated, *(rungs[index] for index in table)] for table in agent_tables(len(rungs), stored.players)]
    labels = [*stored.labels, label]
    deal_size = stored.players if duplicate_deals else 1
    first = _whole_deals(games // PILOT_SHARE, deal_size) if adaptive else games
    own = play_tables(env_name, lineups, max(first, min(games, deal_size)), seed, duplicate_deals, workers, batch_size, keyed_chance=keyed_chance)
    if own[0].games < games:
        pilot = plackett_luce_elo(labels, _summed([*stored.tables, *own]))
        more = adaptive_games(pilot, [table.labels for table in own], (games - own[0].games) * len(own), deal_size)
        played = iter(play_tables(env_name, [lineup for lineup, count in zip(lineups, more) if count], [count for count in more if count],
                                  seed, duplicate_deals, workers, batch_size, first_game=own[0].games, keyed_chance=keyed_chance))
        own = [_joined(table, next(played)) if count else table for table, count in zip(own, more)]
    if on_table is not None:
        for table in own:
            on_table(table)
    fitted = plackett_luce_elo(labels, _summed([*stored.tables, *own]))
    return LadderRating(
        env_name,
        stored.players,
        label,
        fitted[label],
        _bootstrap_interval(labels, _summed(stored.tables), own, deal_size, seed),
        {rung: fitted[rung] for rung in stored.labels},
        own,
        games,
        seed,
        workers,
        batch_size,
        duplicate_deals,
        adaptive,
        keyed_chance,
        cpu_milliseconds([seconds for table in own for seconds in table.cpu_seconds[0]]),
        reference,
        stored.reference_seconds,
    )


def default_agent_games(ladder: Ladder, players: int) -> int:
    """An agent's games a table by default: ``agent_games`` at the ladder's default count, fewer at
    more players in proportion (a game's finishing order then compares the agent with more rungs
    at once, and each game costs more), in whole deals."""
    return max(players, _whole_deals(ladder.agent_games * ladder.players[0] // players, players))


def _whole_deals(games: int, deal_size: int) -> int:
    return games - games % deal_size


def adaptive_games(ratings: Mapping[str, float], tables: Sequence[Sequence[str]], games: int, deal_size: int) -> list[int]:
    """``games`` more games shared out over the agent's ``tables`` (the agent first in each) in
    proportion to what a game there tells of its rating, in whole deals (largest remainders).

    A game tells most where the agent's finish against the others is least certain: the table's
    information is the sum over its rungs of ``p (1 - p)``, ``p`` the chance, by ``ratings`` fitted
    to the games so far, that the agent finishes ahead of that rung (a game against a rung it beats
    99 times in 100 tells almost nothing).  Sharing in proportion, rather than all to the best
    table, keeps every table in the rating when the first games placed the agent wrongly."""
    agent = tables[0][0]
    ahead = {rung: 1 / (1 + 10 ** min((ratings[rung] - ratings[agent]) / 400, 300.0)) for table in tables for rung in table[1:]}
    information = [sum(ahead[rung] * (1 - ahead[rung]) for rung in table[1:]) for table in tables]
    if not sum(information):  # ratings so far apart that no result is in doubt: share evenly
        information = [1.0] * len(tables)
    deals = games // deal_size
    shares = [deals * weight / sum(information) for weight in information]
    counts = [math.floor(share) for share in shares]
    for index in sorted(range(len(shares)), key=lambda index: counts[index] - shares[index])[: deals - sum(counts)]:
        counts[index] += 1
    return [count * deal_size for count in counts]


def _joined(table: Table, more: Table) -> Table:
    """One table's games from two calls of ``play_tables``, in order."""
    standings = list(summed_standings(table.labels, [*table.standings, *more.standings]).values())
    cpu_seconds = [first + second for first, second in zip(table.cpu_seconds, more.cpu_seconds)]
    return Table(standings, table.finishes + more.finishes, table.played + more.played, cpu_seconds)


def _bootstrap_interval(labels: Sequence[str], fixed: Counter[Finish], own: Sequence[Table], deal_size: int, seed: int) -> tuple[float, float]:
    """The 95% percentile interval of the agent's rating, refitted to resamples of its own games:
    each table's deals (``deal_size`` games each, one per seat rotation) drawn with replacement."""
    rng = np.random.default_rng(seed)
    agent = labels[-1]
    dealt = [[table.played[start : start + deal_size] for start in range(0, len(table.played), deal_size)] for table in own]
    ratings = []
    for _ in range(BOOTSTRAP_RESAMPLES):
        finishes = Counter(fixed)
        for deals in dealt:
            for index in rng.integers(0, len(deals), len(deals)):
                finishes.update(finish for finish in deals[index] if finish is not None)
        ratings.append(plackett_luce_elo(labels, finishes)[agent])
    low, high = np.percentile(ratings, [2.5, 97.5])
    return float(low), float(high)


# ------------------------------------------------------------------------- output
def format_rating(rating: LadderRating) -> str:
    low, high = rating.interval
    others = [", ".join(table.labels[1:]) for table in rating.results]
    width = max(len(text) for text in [*others, "rung"]) + 2
    rate_title = f"{rating.agent} win rate"
    rate_width = len(rate_title) + 2
    header = f"{'with' if rating.players > 2 else 'rung':<{width}}{'rating':>8}{rate_title:>{rate_width}}{'95% CI':>17}{'games':>7}"
    deals = "duplicate deals (each seed in every seat rotation)" if rating.duplicate_deals else "seats rotated"
    if rating.keyed_chance:
        deals += ", rolls keyed by seat and turn"
    most = max(table.games for table in rating.results)
    last_seed = rating.seed + (most - 1) // (rating.players if rating.duplicate_deals else 1)
    shared = "a quarter evenly, the rest where the results were least certain" if rating.adaptive else "evenly"
    lines = [
        (
            f"{rating.env_name}, {rating.players} players: {rating.agent} is rated {rating.rating:.0f} [{low:.0f}, {high:.0f}] "
            f"(Plackett-Luce on the Elo scale, random = 0; full tables, {deals}, seeds {rating.seed}..{last_seed}, "
            f"{sum(table.games for table in rating.results)} games shared {shared}, {_workers(rating.workers)}, batches of {rating.batch_size})"
        ),
        _budget_line(rating),
        "",
        header,
        "-" * len(header),
    ]
    for text, table in sorted(zip(others, rating.results), key=lambda item: -_table_rating(rating, item[1])):
        standing = table.standings[0]
        rate_low, rate_high = standing.win_rate_interval()
        lines.append(
            f"{text:<{width}}{_table_rating(rating, table):>8.0f}{standing.win_rate:>{rate_width}.3f}{f'[{rate_low:.3f}, {rate_high:.3f}]':>17}{standing.games:>7}"
        )
    if rating.players > 2:
        lines.append("(rating: the mean of the table's rungs)")
    return "\n".join(lines)


def _workers(count: int) -> str:
    return f"{count} worker" if count == 1 else f"{count} workers"


def _table_rating(rating: LadderRating, table: Table) -> float:
    return float(np.mean([rating.rung_ratings[label] for label in table.labels[1:]]))


def _budget_line(rating: LadderRating) -> str:
    stored = "not measured" if rating.stored_reference_seconds is None else f"{rating.stored_reference_seconds:.2f} s"
    machine = f"the reference loop took {rating.reference_seconds:.2f} s of CPU here ({stored} where the stored games were played)"
    if rating.milliseconds is None:
        return f"it made no decision; {machine}"
    mean, p95 = rating.milliseconds
    return f"CPU per decision: {mean:.3g} ms mean, {p95:.3g} ms 95th percentile; {machine}"


LEADERBOARD_COMMAND = "dice-envs ladder --leaderboard > docs/leaderboard.md"


def leaderboard_markdown(env_names: Sequence[str] = tuple(LADDERS)) -> str:
    """Every rung's rating per game and player count from the stored ladders: ``docs/leaderboard.md``."""
    lines = [
        "# Leaderboard",
        "",
        "Every built-in agent's rating on each game's strength ladder (`dice_envs/arena/ladder.py`) at",
        "each player count stored: a Plackett-Luce fit to the finishing orders of the ladder's stored",
        "games at full tables (at two players, Bradley-Terry), on the Elo scale (400 points per factor",
        "10 in odds) with `random` at 0, and each agent's CPU milliseconds per decision as its games",
        "were played (mean / 95th percentile; a batch's decisions share its time).  Rate your own agent",
        "against the same games with `dice-envs ladder GAME AGENT --players N` (see the README and",
        "`docs/benchmarking.md`).  Generated from the stored games by",
        "",
        "```bash",
        LEADERBOARD_COMMAND,
        "```",
        "",
        "and `dice-envs ladder GAME --rebuild --players N --workers 2` replays a round robin (the rungs,",
        "the games per table and the seed are in `dice_envs/arena/ladder.py`; the stored games in",
        "`dice_envs/arena/ladders/`); `dice-envs ladder GAME --extend` plays only the games of rungs",
        "added at the end of the list since, as the rebuild would.  A rating compares agents only",
        "within its game and player count.",
    ]
    for env_name in env_names:
        for players in LADDERS[env_name].players:
            lines += _leaderboard_section(load_ladder(env_name, players=players))
    return "\n".join(lines) + "\n"


def _leaderboard_section(stored: StoredLadder) -> list[str]:
    ratings = stored.ratings()
    totals = summed_standings(stored.labels, [standing for table in stored.tables for standing in table.standings])
    games = stored.ladder.games
    deals = "duplicate deals" if stored.duplicate_deals else "seats rotated"
    reference = "" if stored.reference_seconds is None else f"; reference loop {stored.reference_seconds:.2f} s of CPU"
    lines = [
        "",
        f"## {stored.ladder.env_name}, {stored.players} players",
        "",
        (
            f"{len(stored.labels)} rungs at {len(stored.tables)} table{'s' if len(stored.tables) != 1 else ''} of {stored.players}, "
            f"{games} games a table, {deals}, seed {stored.seed}, "
            f"played on {_workers(stored.workers)}{reference}."
        ),
        "",
        "| rank | agent | rating | win rate over all its games | games | CPU ms per decision |",
        "|---:|---|---:|---:|---:|---:|",
    ]
    for rank, label in enumerate(sorted(stored.labels, key=lambda label: -ratings[label]), 1):
        total = totals[label]
        ms = stored.milliseconds.get(label)
        shown = "not measured" if ms is None else f"{ms[0]:.3g} / {ms[1]:.3g}"
        lines.append(f"| {rank} | `{stored.spec_of(label)}` | {ratings[label]:.0f} | {total.win_rate:.3f} | {total.games} | {shown} |")
    return lines
