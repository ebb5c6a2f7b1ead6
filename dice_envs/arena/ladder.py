"""The strength ladder: one rating per game for any agent, on a scale where ``random`` is 0.

    dice-envs ladder dice_age_v1 model:runs/my_run/model.zip     rate an agent (a minute or two on 2 cores)
    dice-envs ladder dice_age_v1 planner --games 400             more games, a tighter interval
    dice-envs ladder --leaderboard                               every rung's rating: docs/leaderboard.md
    dice-envs ladder dice_age_v1 --rebuild                       replay the ladder's own games (maintainers)
    dice-envs ladder dice_age_v1 --extend                        play only a new rung's games (maintainers)

Each game has a fixed ladder of reference opponents, its *rungs* (``LADDERS``): ``random``, every
heuristic, the exact solvers where they exist, ``mcts`` at two budgets and the trained models in
``models/``.  The rungs' round robin is played once (``--rebuild``) and stored with the package
(``dice_envs/arena/ladders/<game>.json``), so rating an agent costs only its own games: it plays every
rung ``games`` times, seats rotated and seeds fixed (``dice_envs.arena.tournament``), and one
Bradley-Terry model is fitted to all the games, the stored ones and the agent's, on the Elo
scale (400 points per factor 10 in odds) with ``random`` at 0.  The agent's interval is the 2.5th
to 97.5th percentile of the ratings refitted to resamples of its own games (the stored games
held fixed).  In games of three or more players each pairing's two agents take two seats and
``random`` fills the others, as in ``dice-envs evaluate``.

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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

import dice_envs
from dice_envs.agents import specs
from dice_envs.arena.play import DEFAULT_BATCH_SIZE, Standing, numbered_labels
from dice_envs.arena.tournament import Entrant, Pairing, bradley_terry_elo, entrant_from_spec, overall_standings, run_tournament
from dice_envs.core.aec import MAX_SEED
from dice_envs.core.engine import ParameterError

STORE = Path(str(resources.files("dice_envs.arena").joinpath("ladders")))
STORED_MODEL = "models/{}.zip"
"""How the stored round robins name a shipped model: by its path in the repository when they were
played (``model:models/dino_hunt_ppo.zip``), so that the files stay what was played; a rung names
it by name (``model:dino_hunt_ppo``), and ``stored_spec`` maps one to the other."""
BOOTSTRAP_RESAMPLES = 200


@dataclass(frozen=True)
class Ladder:
    """A game's reference opponents and how many games each pairing plays."""

    env_name: str
    rungs: tuple[str, ...]
    games: int
    """Games per pairing of rungs in the stored round robin."""
    agent_games: int
    """Games an agent plays against each rung by default (sized to take at most about 10 minutes
    on 2 cores in the heavy games, an agent that decides quickly assumed)."""


LADDERS: dict[str, Ladder] = {
    ladder.env_name: ladder
    for ladder in (
        Ladder(
            "dino_hunt_v0",
            ("random", "two_footprints", "cup_counter", "optimal_points", "optimal_win", "mcts:simulations=20", "mcts:simulations=200",
             "model:dino_hunt_ppo", "model:dino_hunt_ppo_turn", "model:dino_hunt_ppo_win"),
            games=200,
            agent_games=400,
        ),
        Ladder(
            "dalek_dice_v0",
            ("random", "protect_humans", "doctor_odds", "optimal_points", "mcts:simulations=5", "mcts:simulations=25",
             "model:dalek_dice_ppo", "model:dalek_dice_ppo_turn"),
            games=100,
            agent_games=300,
        ),
        Ladder(
            "dice_age_v1",
            ("random", "best_prey", "planner", "mcts:simulations=25", "mcts:simulations=100", "model:dice_age_ppo",
             "model:dice_age_search", "model:dice_age_expert"),
            games=200,
            agent_games=200,
        ),
        Ladder(
            "age_of_craft_v1",
            ("random", "builder", "trader", "mcts:simulations=20", "mcts:simulations=20,model=age_of_craft_ppo",
             "model:age_of_craft_ppo"),
            games=100,
            agent_games=100,
        ),
        Ladder(
            "mammoth_hunters_v1",
            ("random", "settler", "raider", "mcts:simulations=10,depth=60", "mcts:simulations=10,model=mammoth_hunters_ppo",
             "model:mammoth_hunters_ppo", "model:mammoth_hunters_expert"),
            games=60,
            agent_games=60,
        ),
    )
}


def ladder_for(env_name: str) -> Ladder:
    if env_name not in LADDERS:
        raise ParameterError(f"no ladder for {env_name!r}; ladders: {', '.join(LADDERS)}")
    return LADDERS[env_name]


def stored_spec(rung: str) -> str:
    """The spec a stored round robin records for ``rung`` (``STORED_MODEL``); also its label there."""
    return re.sub(r"(model[:=])([a-z0-9_]+)(?=,|$)", lambda match: match[1] + STORED_MODEL.format(match[2]), rung)


def rung_entrant(env_name: str, rung: str) -> Entrant:
    """A rung as a tournament entrant, labelled as the stored round robins label it."""
    return Entrant(specs.label(stored_spec(rung)), entrant_from_spec(env_name, rung).build, rung)


def _fingerprints(ladder: Ladder) -> dict[str, str]:
    """The SHA-256 of every model a rung uses (``model:NAME``, ``mcts:...,model=NAME``): what a
    stored ladder must have been played with."""
    models = {stored_spec(rung): specs.model_of(rung) for rung in ladder.rungs}
    return {rung: hashlib.sha256(path.read_bytes()).hexdigest() for rung, path in models.items() if path is not None}


# ------------------------------------------------------------- the stored round robin
@dataclass
class StoredLadder:
    """The rungs' round robin as stored: who played whom and how it went."""

    ladder: Ladder
    labels: list[str]
    """Each rung's label (a model rung's is its file's stem)."""
    pairings: list[Pairing]
    seed: int
    workers: int
    """Processes each pairing's games were split over: with the seed, what reproduces them."""
    fingerprints: dict[str, str]

    def ratings(self) -> dict[str, float]:
        return bradley_terry_elo(self.labels, self.pairings)


def build_ladder(env_name: str, seed: int = 0, workers: int = 1, on_pairing: Callable[[Pairing], None] | None = None) -> StoredLadder:
    """Play the rungs' round robin (the stored games); ``--rebuild``."""
    ladder = ladder_for(env_name)
    result = run_tournament(env_name, [rung_entrant(env_name, rung) for rung in ladder.rungs], ladder.games, seed, on_pairing=on_pairing, workers=workers)
    return StoredLadder(ladder, result.entrants, result.pairings, seed, workers, _fingerprints(ladder))


def extend_ladder(env_name: str, on_pairing: Callable[[Pairing], None] | None = None, directory: Path | None = None) -> StoredLadder:
    """The stored round robin with the games of the rungs added to the end of ``LADDERS``' list
    since it was played, against every rung (``--extend``): each new pairing is played as
    ``--rebuild`` plays it (the stored seed, its games split over the stored workers), and the
    stored pairings, whose rungs are unchanged (their models' SHA-256 checked), are kept."""
    ladder = ladder_for(env_name)
    path = (directory or STORE) / f"{env_name}.json"
    with _reading(path, env_name):
        data = json.loads(path.read_text())
        played = data["rungs"]
        if not isinstance(played, list) or played != [stored_spec(rung) for rung in ladder.rungs[: len(played)]]:
            raise StoredField(f"rungs must be the first of today's rungs, got {_shown(played)}")
        if data["games_per_pairing"] != ladder.games:
            raise StoredField(f"games_per_pairing must be today's {ladder.games}, got {_shown(data['games_per_pairing'])}")
        before = Ladder(env_name, ladder.rungs[: len(played)], ladder.games, ladder.agent_games)
        stored = read_stored(before, data, _fingerprints(before))
    if len(played) == len(ladder.rungs):
        raise ParameterError(f"the stored ladder {path} has every rung already: nothing to extend")
    if stored.fingerprints != _fingerprints(before):
        raise ParameterError(f"the stored ladder {path} was played with other versions of its models; {_rebuild(env_name)}")
    entrants = [rung_entrant(env_name, rung) for rung in ladder.rungs]
    labels = numbered_labels([entrant.label for entrant in entrants])
    added = run_tournament(env_name, entrants, ladder.games, stored.seed, focus=labels[len(played) :], on_pairing=on_pairing, workers=stored.workers)
    by_pair = {frozenset(pairing.labels): pairing for pairing in [*stored.pairings, *added.pairings]}
    pairings = [by_pair[frozenset(pair)] for pair in _all_pairs(labels)]  # in --rebuild's order
    return StoredLadder(ladder, labels, pairings, stored.seed, stored.workers, _fingerprints(ladder))


def _rebuild(env_name: str) -> str:
    return f"rebuild it with `dice-envs ladder {env_name} --rebuild`"


@contextlib.contextmanager
def _reading(path: Path, env_name: str) -> Iterator[None]:
    """Whatever reading the stored ladder ``path`` raises, as one line naming it and saying to rebuild it."""
    try:
        yield
    except FileNotFoundError:
        raise ParameterError(f"no stored ladder for {env_name} at {path}; {_rebuild(env_name)}") from None
    except StoredField as error:
        raise ParameterError(f"the stored ladder {path}: {error}; {_rebuild(env_name)}") from None
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as error:  # not a file, not JSON, or not a ladder's
        raise ParameterError(f"the stored ladder {path} cannot be read ({type(error).__name__}: {str(error)[:200]}); {_rebuild(env_name)}") from None


def save_ladder(stored: StoredLadder, directory: Path | None = None) -> Path:
    directory = directory or STORE
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{stored.ladder.env_name}.json"
    data = {
        "env": stored.ladder.env_name,
        "rungs": [stored_spec(rung) for rung in stored.ladder.rungs],
        "labels": stored.labels,
        "games_per_pairing": stored.ladder.games,
        "seed": stored.seed,
        "workers": stored.workers,
        "model_sha256": stored.fingerprints,
        "pairings": [_pairing_to_json(pairing) for pairing in stored.pairings],
    }
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path


def load_ladder(env_name: str, directory: Path | None = None) -> StoredLadder:
    """The stored round robin, checked against today's rungs and models (a clear error if stale)
    and checked for values as well as shape (``read_stored``): a count that is no whole number,
    or inconsistent with the games played, is one line naming the file and the field."""
    ladder = ladder_for(env_name)
    directory = directory or STORE
    path = directory / f"{env_name}.json"
    rebuild = _rebuild(env_name)
    fingerprints = _fingerprints(ladder)
    with _reading(path, env_name):
        data = json.loads(path.read_text())
        games = data["games_per_pairing"]
        same = data["env"] == env_name and data["rungs"] == [stored_spec(rung) for rung in ladder.rungs] and type(games) is int and games == ladder.games
        stored = read_stored(ladder, data, fingerprints) if same else None
    if stored is None:
        raise ParameterError(f"the stored ladder {path} was played with other rungs or game counts; {rebuild}")
    changed = [rung for rung in ladder.rungs if stored_spec(rung) in fingerprints and stored.fingerprints[stored_spec(rung)] != fingerprints[stored_spec(rung)]]
    if changed:
        raise ParameterError(f"the stored ladder {path} was played with other versions of {', '.join(changed)}; {rebuild}")
    expected = {frozenset(pair) for pair in _all_pairs(stored.labels)}
    if len(stored.pairings) != len(expected) or {frozenset(p.labels) for p in stored.pairings} != expected:
        raise ParameterError(f"the stored ladder {path} does not hold one pairing for every two rungs; {rebuild}")
    return StoredLadder(ladder, stored.labels, stored.pairings, stored.seed, stored.workers, fingerprints)


# ------------------------------------------------------- reading a stored file back
LADDER_FIELDS = ("env", "rungs", "labels", "games_per_pairing", "seed", "workers", "model_sha256", "pairings")
PAIRING_FIELDS = ("agents", "first_beat_second", "second_beat_first", "shared", "standings")
STANDING_FIELDS = tuple(field.name for field in dataclasses.fields(Standing))
SHA256 = re.compile(r"[0-9a-f]{64}")


class StoredField(ValueError):
    """A stored ladder's field whose value cannot be what was played: the field, then why."""


def read_stored(ladder: Ladder, data: dict[str, Any], fingerprints: dict[str, str]) -> StoredLadder:
    """A stored ladder's fields, each checked for type, range and finiteness and the counts for
    consistency with the games played (``StoredField`` naming the first that is not); a missing
    field is a ``KeyError``.  The stored fingerprints are kept, to compare with ``fingerprints``."""
    unknown = sorted(set(data) - set(LADDER_FIELDS))
    if unknown:
        raise StoredField(f"unknown field(s) {', '.join(unknown)}")
    labels = numbered_labels([specs.label(stored_spec(rung)) for rung in ladder.rungs])
    if data["labels"] != labels:
        raise StoredField(f"labels must be the rungs' labels {labels}, got {_shown(data['labels'])}")
    seed = _whole(data["seed"], "seed", 0, MAX_SEED - ladder.games + 1)
    workers = _whole(data["workers"], "workers", 1, ladder.games)
    prints = data["model_sha256"]
    if not isinstance(prints, dict) or set(prints) != set(fingerprints) or not all(isinstance(v, str) and SHA256.fullmatch(v) for v in prints.values()):
        raise StoredField(f"model_sha256 must map each model rung ({', '.join(fingerprints) or 'none'}) to a SHA-256 in hex, got {_shown(prints)}")
    pairings = data["pairings"]
    if not isinstance(pairings, list):
        raise StoredField(f"pairings must be a list, got {_shown(pairings)}")
    read = [_pairing_from_json(item, f"pairings[{index}]", ladder.games, labels) for index, item in enumerate(pairings)]
    return StoredLadder(ladder, labels, read, seed, workers, prints)


def _shown(value: Any) -> str:
    return repr(value)[:80]


def _whole(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise StoredField(f"{where} must be a whole number from {low} to {high}, got {_shown(value)}")
    return value


def _fields(item: Any, where: str, names: Sequence[str]) -> dict[str, Any]:
    if not isinstance(item, dict) or set(item) != set(names):
        raise StoredField(f"{where} must be an object with exactly {', '.join(names)}, got {_shown(item)}")
    return item


def _standing_from_json(item: Any, where: str, games: int, agent: str) -> Standing:
    fields = _fields(item, where, STANDING_FIELDS)
    if fields["agent"] != agent:
        raise StoredField(f"{where}.agent must be {agent!r}, the pairing's, got {_shown(fields['agent'])}")
    _whole(fields["games"], f"{where}.games", games, games)
    wins, shared_wins, unfinished = (_whole(fields[name], f"{where}.{name}", 0, games) for name in ("wins", "shared_wins", "unfinished"))
    if wins + shared_wins + unfinished > games:
        raise StoredField(f"{where}: wins, shared_wins and unfinished add up to more than its {games} games")
    score = fields["total_score"]
    if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score):
        raise StoredField(f"{where}.total_score must be a finite number, got {_shown(score)}")
    return Standing(agent, games, wins, shared_wins, unfinished, float(score))


def _pairing_from_json(item: Any, where: str, games: int, labels: Sequence[str]) -> Pairing:
    """One stored pairing, its head-to-head counts consistent with its two standings."""
    fields = _fields(item, where, PAIRING_FIELDS)
    agents, standings = fields["agents"], fields["standings"]
    if not isinstance(agents, list) or len(agents) != 2 or agents[0] == agents[1] or not all(agent in labels for agent in agents):
        raise StoredField(f"{where}.agents must be two of the labels, got {_shown(agents)}")
    if not isinstance(standings, list) or len(standings) != 2:
        raise StoredField(f"{where}.standings must be a list of two standings, got {_shown(standings)}")
    first, second = (_standing_from_json(standing, f"{where}.standings[{i}]", games, agent) for i, (standing, agent) in enumerate(zip(standings, agents)))
    ahead, behind, shared = (_whole(fields[name], f"{where}.{name}", 0, games) for name in PAIRING_FIELDS[1:4])
    if first.unfinished != second.unfinished:
        raise StoredField(f"{where}: its two standings count {first.unfinished} and {second.unfinished} unfinished games of the same games")
    if ahead + behind + shared > games - first.unfinished:
        raise StoredField(f"{where}: first_beat_second, second_beat_first and shared add up to more than its {games - first.unfinished} finished games")
    if ahead > first.wins + first.shared_wins or behind > second.wins + second.shared_wins or shared > min(first.shared_wins, second.shared_wins):
        raise StoredField(f"{where}: its head-to-head counts exceed its standings' wins")
    return Pairing(first, second, ahead, behind, shared)


def _all_pairs(labels: Sequence[str]) -> list[tuple[str, str]]:
    return [(a, b) for i, a in enumerate(labels) for b in labels[i + 1 :]]


def _pairing_to_json(pairing: Pairing) -> dict[str, Any]:
    return {
        "agents": list(pairing.labels),
        "first_beat_second": pairing.first_beat_second,
        "second_beat_first": pairing.second_beat_first,
        "shared": pairing.shared,
        "standings": [vars(pairing.first), vars(pairing.second)],
    }


# ------------------------------------------------------------------ rating an agent
@dataclass
class LadderRating:
    env_name: str
    agent: str
    rating: float
    interval: tuple[float, float]
    rung_ratings: dict[str, float]
    """Every rung's rating in the same fit."""
    results: list[Pairing]
    """The agent's pairing with each rung, the agent first."""
    games: int
    seed: int
    workers: int
    batch_size: int


def rate_agent(
    env_name: str,
    agent: Entrant,
    games: int | None = None,
    seed: int = 0,
    workers: int = 1,
    batch_size: int = DEFAULT_BATCH_SIZE,
    on_pairing: Callable[[Pairing], None] | None = None,
    store: Path | None = None,
) -> LadderRating:
    """``agent`` against every rung, rated with the stored games (see the module docstring).

    ``agent`` is any ``dice_envs.arena.tournament.Entrant``: ``entrant_from_spec(env_name, spec)`` for a
    built-in agent or a model, or ``Entrant("mine", lambda env, seed: MyAgent(env, seed))`` for
    an agent of one's own (``agents.base.Agent``).
    """
    stored = load_ladder(env_name, store or STORE)
    games = stored.ladder.agent_games if games is None else games
    label = agent.label if agent.label not in stored.labels else f"{agent.label} (rated)"
    rated = Entrant(label, agent.build, agent.spec)
    rungs = [rung_entrant(env_name, rung) for rung in stored.ladder.rungs]
    result = run_tournament(env_name, [rated, *rungs], games, seed, focus=label, on_pairing=on_pairing, batch_size=batch_size, workers=workers)
    labels = [*stored.labels, label]
    fitted = bradley_terry_elo(labels, [*stored.pairings, *result.pairings])
    return LadderRating(
        env_name,
        label,
        fitted[label],
        _bootstrap_interval(labels, stored.pairings, result.pairings, seed),
        {rung: fitted[rung] for rung in stored.labels},
        result.pairings,
        games,
        seed,
        workers,
        batch_size,
    )


def _bootstrap_interval(labels: Sequence[str], fixed: Sequence[Pairing], own: Sequence[Pairing], seed: int) -> tuple[float, float]:
    """The 95% percentile interval of the agent's rating, refitted to resamples of its own games:
    each pairing's games redrawn (multinomially) as agent wins, rung wins, shared and undecided."""
    rng = np.random.default_rng(seed)
    agent = labels[-1]
    ratings = []
    for _ in range(BOOTSTRAP_RESAMPLES):
        resampled = []
        for pairing in own:
            ahead, behind, shared = pairing.first_beat_second, pairing.second_beat_first, pairing.shared
            games = pairing.first.games
            counts = rng.multinomial(games, np.array([ahead, behind, shared, games - ahead - behind - shared]) / games)
            resampled.append(Pairing(pairing.first, pairing.second, int(counts[0]), int(counts[1]), int(counts[2])))
        ratings.append(bradley_terry_elo(labels, [*fixed, *resampled])[agent])
    low, high = np.percentile(ratings, [2.5, 97.5])
    return float(low), float(high)


# ------------------------------------------------------------------------- output
def format_rating(rating: LadderRating) -> str:
    low, high = rating.interval
    width = max(len(rung) for rung in rating.rung_ratings) + 2
    rate_title = f"{rating.agent} win rate"
    rate_width = len(rate_title) + 2
    header = f"{'rung':<{width}}{'rung rating':>12}{rate_title:>{rate_width}}{'95% CI':>17}{'games':>7}"
    lines = [
        (
            f"{rating.env_name}: {rating.agent} is rated {rating.rating:.0f} [{low:.0f}, {high:.0f}] "
            f"(Bradley-Terry on the Elo scale, random = 0; seats rotated, seeds {rating.seed}..{rating.seed + rating.games - 1}, "
            f"{rating.workers} workers, batches of {rating.batch_size})"
        ),
        "",
        header,
        "-" * len(header),
    ]
    for pairing in sorted(rating.results, key=lambda p: -rating.rung_ratings[p.second.agent]):
        rung, standing = pairing.second.agent, pairing.first
        rate_low, rate_high = standing.win_rate_interval()
        lines.append(
            f"{rung:<{width}}{rating.rung_ratings[rung]:>12.0f}{standing.win_rate:>{rate_width}.3f}{f'[{rate_low:.3f}, {rate_high:.3f}]':>17}{standing.games:>7}"
        )
    return "\n".join(lines)


LEADERBOARD_COMMAND = "dice-envs ladder --leaderboard > docs/leaderboard.md"


def leaderboard_markdown(env_names: Sequence[str] = tuple(LADDERS)) -> str:
    """Every rung's rating per game from the stored ladders: ``docs/leaderboard.md``."""
    lines = [
        "# Leaderboard",
        "",
        "Every built-in agent's rating on each game's strength ladder (`dice_envs/arena/ladder.py`): a",
        "Bradley-Terry fit to the ladder's stored round robin, on the Elo scale (400 points per factor",
        "10 in odds) with `random` at 0.  Rate your own agent against the same games with",
        "`dice-envs ladder GAME AGENT` (see the README).  Generated from the stored games by",
        "",
        "```bash",
        LEADERBOARD_COMMAND,
        "```",
        "",
        "and `dice-envs ladder GAME --rebuild --workers 2` replays a game's round robin (the rungs,",
        "the games per pairing and the seed are in `dice_envs/arena/ladder.py`; the stored games in",
        "`dice_envs/arena/ladders/`); `dice-envs ladder GAME --extend` plays only the games of rungs",
        "added at the end of the list since, as the rebuild would.  A rating compares agents only",
        "within its game.",
    ]
    for env_name in env_names:
        stored = load_ladder(env_name)
        ratings = stored.ratings()
        totals = overall_standings(stored.labels, stored.pairings)
        lines += [
            "",
            f"## {env_name}",
            "",
            (
                f"{len(stored.labels)} rungs, {stored.ladder.games} games per pairing, seats rotated, seeds "
                f"{stored.seed}..{stored.seed + stored.ladder.games - 1}, played on {stored.workers} workers{_fillers(env_name)}."
            ),
            "",
            "| rank | agent | rating | win rate over all its games | games |",
            "|---:|---|---:|---:|---:|",
        ]
        order = sorted(stored.labels, key=lambda label: -ratings[label])
        for rank, label in enumerate(order, 1):
            total = totals[label]
            lines.append(f"| {rank} | `{_spec_of(stored, label)}` | {ratings[label]:.0f} | {total.win_rate:.3f} | {total.games} |")
    return "\n".join(lines) + "\n"


def _fillers(env_name: str) -> str:
    players = dice_envs.make(env_name).game.num_players
    return f"; {players} players, the pairing's two in two seats and `random` in the others" if players > 2 else ""


def _spec_of(stored: StoredLadder, label: str) -> str:
    return stored.ladder.rungs[stored.labels.index(label)]
