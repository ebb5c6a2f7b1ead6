"""Hostile inputs: every file the suite reads back, corrupted field by field, is refused in one
line naming the file and the field, never a traceback, or accepted only when what it says is valid.

    python -m pytest -q -p no:cacheprovider tests/test_hostile_inputs.py -v   # one test per input

Two surfaces: a stored ladder (``dice_envs/arena/ladders/dino_hunt_v0-2p.json``, read by
``load_ladder``) and a game log (read by ``dice-envs replay --from-log``).  A corruption is a
change to the file's JSON data, or the file's whole text.
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dice_envs.arena.ladder import STORE, load_ladder, stored_path
from dice_envs.arena.recording import play_logged_game
from dice_envs.cli import main
from dice_envs.core.engine import ParameterError

Data = Any
Corruption = Callable[[Data], Data]
"""A valid file's JSON data -> the hostile file: new data, or a ``str`` that is the file's text."""

NESTED = "[" * 100_000 + "]" * 100_000
"""Deep enough that Python's JSON reader runs out of stack (RecursionError) rather than parsing it."""


def changed(path: str, value: Any) -> Corruption:
    """The data with the field at ``path`` (dotted; list indices as numbers) set to ``value``."""

    def corrupt(data: Data) -> Data:
        *parents, last = [int(key) if key.isdigit() else key for key in path.split(".")]
        target = data
        for key in parents:
            target = target[key]
        target[last] = value
        return data

    return corrupt


def dropped(key: str) -> Corruption:
    return lambda data: {name: value for name, value in data.items() if name != key}


def written(text: str) -> Corruption:
    return lambda data: text


# ----------------------------------------------------------------- stored ladder
LADDER = "dino_hunt_v0"
PLAYERS = 2
GAMES = 200
"""The Dino Hunt ladder's games per table."""


def fingerprinted(value: Any) -> Corruption:
    """The stored SHA-256 of the Dino Hunt PPO model rung set to ``value``."""

    def corrupt(data: Data) -> Data:
        data["model_sha256"]["model:models/dino_hunt_ppo.zip"] = value
        return data

    return corrupt


def first_table_swapped(data: Data) -> Data:
    """The first table's two seats listed the other way round: the same games."""
    table = data["tables"][0]
    table["agents"].reverse()
    table["standings"].reverse()
    table["finishes"] = {key.translate(str.maketrans("01", "10")): count for key, count in table["finishes"].items()}
    return data


def finishes_moved(data: Data) -> Data:
    """Ten of the first table's wins of seat 1 given to seat 0, its standings unchanged."""
    finishes = data["tables"][0]["finishes"]
    finishes["0>1"] += 10
    finishes["1>0"] -= 10
    return data


LADDER_CORRUPTIONS: dict[str, tuple[Corruption, str]] = {
    # the file as a whole
    "not JSON": (written("{not json"), "cannot be read"),
    "empty": (written(""), "cannot be read"),
    "a list": (written("[]"), "cannot be read"),
    "nested 100,000 deep": (written(NESTED), "cannot be read"),
    "unknown field": (lambda data: {**data, "comment": "hi"}, "unknown field(s) comment"),
    **{
        f"no {key}": (dropped(key), f"KeyError: '{key}'")
        for key in ("labels", "seed", "workers", "duplicate_deals", "model_sha256", "reference_cpu_s", "ms_per_decision", "tables")
    },
    "no env": (dropped("env"), "KeyError: 'env'"),
    "no players": (dropped("players"), "KeyError: 'players'"),
    # what was played
    "other env": (changed("env", "dalek_dice_v0"), "other rungs, player counts or game counts"),
    "other players": (changed("players", 3), "other rungs, player counts or game counts"),
    "players a string": (changed("players", "2"), "other rungs, player counts or game counts"),
    "games per table a string": (changed("games_per_table", "200"), "other rungs, player counts or game counts"),
    "games per table a float": (changed("games_per_table", 200.0), "other rungs, player counts or game counts"),
    "rungs reordered": (lambda data: {**data, "rungs": data["rungs"][::-1]}, "other rungs, player counts or game counts"),
    "labels reordered": (lambda data: {**data, "labels": data["labels"][::-1]}, "labels must be the rungs' labels"),
    "labels a string": (changed("labels", "random"), "labels must be the rungs' labels"),
    "seed a string": (changed("seed", "0"), "seed must be a whole number"),
    "seed negative": (changed("seed", -1), "seed must be a whole number"),
    "seed 2**64": (changed("seed", 2**64), "seed must be a whole number"),
    "seed a float": (changed("seed", 1.5), "seed must be a whole number"),
    "seed true": (changed("seed", True), "seed must be a whole number"),
    "seed NaN": (changed("seed", math.nan), "seed must be a whole number"),
    "workers 0": (changed("workers", 0), "workers must be a whole number"),
    "workers past the games": (changed("workers", GAMES + 1), "workers must be a whole number"),
    "duplicate deals a string": (changed("duplicate_deals", "no"), "duplicate_deals must be true or false"),
    "duplicate deals a number": (changed("duplicate_deals", 0), "duplicate_deals must be true or false"),
    "model_sha256 a list": (changed("model_sha256", []), "model_sha256 must map each model rung"),
    "model_sha256 not hex": (fingerprinted("x" * 64), "model_sha256 must map each model rung"),
    "model_sha256 a rung short": (lambda data: {**data, "model_sha256": dict(list(data["model_sha256"].items())[1:])}, "model_sha256 must map"),
    "model_sha256 another model's": (fingerprinted("0" * 64), "other versions of model:dino_hunt_ppo"),
    "model_sha256 a number": (fingerprinted(7), "model_sha256 must map each model rung"),
    # the machine and the times
    "reference time negative": (changed("reference_cpu_s", -1.0), "reference_cpu_s must be a number from 0"),
    "reference time NaN": (changed("reference_cpu_s", math.nan), "reference_cpu_s must be a number from 0"),
    "reference time a string": (changed("reference_cpu_s", "1.0"), "reference_cpu_s must be a number from 0"),
    "times a list": (changed("ms_per_decision", []), "ms_per_decision must map rung labels"),
    "times of no rung": (changed("ms_per_decision", {"nobody": {"mean": 1.0, "p95": 2.0}}), "ms_per_decision must map rung labels"),
    "a time infinite": (changed("ms_per_decision", {"random": {"mean": math.inf, "p95": 2.0}}), "ms_per_decision['random'].mean must be a number"),
    "a time negative": (changed("ms_per_decision", {"random": {"mean": 1.0, "p95": -2.0}}), "ms_per_decision['random'].p95 must be a number"),
    "a time's unknown field": (changed("ms_per_decision", {"random": {"mean": 1.0, "p95": 2.0, "max": 3.0}}), "must be an object with exactly mean, p95"),
    # the tables
    "tables an object": (changed("tables", {}), "tables must be a list"),
    "a table missing": (lambda data: {**data, "tables": data["tables"][1:]}, "does not hold the tables of its round robin"),
    "a table twice": (lambda data: {**data, "tables": [data["tables"][0], *data["tables"][:-1]]}, "does not hold the tables of its round robin"),
    "a table a string": (changed("tables.0", "random beat nobody"), "tables[0] must be an object"),
    "a table's unknown field": (changed("tables.0.note", 1), "tables[0] must be an object with exactly"),
    "agents not labels": (changed("tables.0.agents", ["random", "nobody"]), "tables[0].agents must be 2 different labels"),
    "agents the same": (changed("tables.0.agents", ["random", "random"]), "tables[0].agents must be 2 different labels"),
    "agents three": (changed("tables.0.agents", ["random", "two_footprints", "cup_counter"]), "tables[0].agents must be 2 different labels"),
    "finishes a list": (changed("tables.0.finishes", []), "tables[0].finishes must map finishes to counts"),
    "a finish not one": (changed("tables.0.finishes", {"0>>1": 200}), "is no finish"),
    "a finish of a seat twice": (changed("tables.0.finishes", {"0>0": 200}), "must place each of positions 0 to 1 once"),
    "a finish of no such seat": (changed("tables.0.finishes", {"0>2": 200}), "must place each of positions 0 to 1 once"),
    "a finish count NaN": (changed("tables.0.finishes.0>1", math.nan), "tables[0].finishes['0>1'] must be a whole number"),
    "a finish count 100,000": (changed("tables.0.finishes.1>0", 100_000), "tables[0].finishes['1>0'] must be a whole number from 1 to 200"),
    "a finish count zero": (changed("tables.0.finishes.0>1", 0), "tables[0].finishes['0>1'] must be a whole number from 1"),
    "a finish count a string": (changed("tables.0.finishes.0>1", "30"), "must be a whole number"),
    "a finish count a float": (changed("tables.0.finishes.0>1", 30.5), "must be a whole number"),
    "finishes past the games": (changed("tables.0.finishes.0>1", 100), "games, not its 200 finished ones"),  # after the stored count
    "finishes not the wins": (finishes_moved, "0 shared) are not its first places in the finishes"),  # after the stored table's wins
    "one standing": (lambda data: changed("tables.0.standings", data["tables"][0]["standings"][:1])(data), "must be a list of 2 standings"),
    "a standing for another agent": (changed("tables.0.standings.1.agent", "cup_counter"), "tables[0].standings[1].agent must be 'two_footprints'"),
    "a standing of other games": (changed("tables.0.standings.0.games", GAMES - 1), "tables[0].standings[0].games must be"),
    "standing wins NaN": (changed("tables.0.standings.1.wins", math.nan), "tables[0].standings[1].wins must be a whole number"),
    "standing wins 100,000": (changed("tables.0.standings.1.wins", 100_000), "tables[0].standings[1].wins must be a whole number"),
    "standing wins past the games": (changed("tables.0.standings.1.shared_wins", 100), "wins, shared_wins and unfinished add up to more"),
    "unfinished told apart": (changed("tables.0.standings.0.unfinished", 1), "count different numbers of unfinished games"),
    "total score NaN": (changed("tables.0.standings.0.total_score", math.nan), "tables[0].standings[0].total_score must be a finite number"),
    "total score infinite": (changed("tables.0.standings.0.total_score", math.inf), "total_score must be a finite number"),
    "total score a string": (changed("tables.0.standings.0.total_score", "2614"), "total_score must be a finite number"),
    "a standing missing a field": (lambda data: changed("tables.0.standings.0", {"agent": "random"})(data), "must be an object with exactly"),
}
VALID_LADDERS: dict[str, Corruption] = {
    "as stored": lambda data: data,
    "indented otherwise": lambda data: json.dumps(data, indent=4),
    "a table seated the other way": first_table_swapped,
    "times measured": changed("ms_per_decision", {"random": {"mean": 0.01, "p95": 0.02}}),
}


def stored_ladder(corrupt: Corruption, directory: Path) -> Path:
    """The stored Dino Hunt ladder, corrupted, as a file in ``directory``."""
    hostile = corrupt(json.loads(stored_path(STORE, LADDER, PLAYERS).read_text()))
    path = stored_path(directory, LADDER, PLAYERS)
    path.write_text(hostile if isinstance(hostile, str) else json.dumps(hostile))
    return path


@pytest.mark.parametrize("name", LADDER_CORRUPTIONS)
def test_a_hostile_stored_ladder_is_refused_in_one_line(name: str, tmp_path: Path) -> None:
    corrupt, message = LADDER_CORRUPTIONS[name]
    path = stored_ladder(corrupt, tmp_path)
    with pytest.raises(ParameterError) as refused:
        load_ladder(LADDER, tmp_path)
    line = str(refused.value)
    assert "\n" not in line and str(path) in line and message in line, line
    assert line.endswith(f"rebuild it with `dice-envs ladder {LADDER} --rebuild --players {PLAYERS}`")


@pytest.mark.parametrize("name", VALID_LADDERS)
def test_a_valid_stored_ladder_is_accepted_and_rates_finitely(name: str, tmp_path: Path) -> None:
    stored_ladder(VALID_LADDERS[name], tmp_path)
    ratings = load_ladder(LADDER, tmp_path).ratings()
    assert ratings == pytest.approx(load_ladder(LADDER).ratings())
    assert ratings["random"] == 0 and all(math.isfinite(rating) for rating in ratings.values())


# -------------------------------------------------------------------- game log
@pytest.fixture(scope="module")
def game_log() -> Data:
    """A whole game of Dino Hunt (random against cup_counter), as its log's JSON data."""
    return play_logged_game("dino_hunt_v0", ["random", "cup_counter"], seed=1).to_dict()


def with_probabilities(value: Any) -> Corruption:
    """The first move's policy probabilities: ``value`` for the action taken."""

    def corrupt(data: Data) -> Data:
        data["moves"][0]["probabilities"] = {str(data["moves"][0]["action"]): value}
        return data

    return corrupt


def moves_kept(count: int, **params: Any) -> Corruption:
    """The first ``count`` moves alone, with ``params`` added."""
    return lambda data: {**data, "moves": data["moves"][:count], "params": {**data["params"], **params}}


LOG_CORRUPTIONS: dict[str, tuple[Corruption, str]] = {
    # the file as a whole
    "not JSON": (written('{"format": '), "not JSON"),
    "empty": (written(""), "not JSON"),
    "a list": (written("[]"), "not a dice-envs game log"),
    "null": (written("null"), "not a dice-envs game log"),
    "nested 100,000 deep": (written(NESTED), "nested too deeply"),
    "objects nested 100,000 deep": (written('{"a":' * 100_000 + "1" + "}" * 100_000), "nested too deeply"),
    "a NaN literal": (lambda data: json.dumps(data).replace('"seed": 1', '"seed": NaN'), "seed is nan: a log holds finite numbers only"),
    "an Infinity literal": (lambda data: json.dumps(data).replace('"seed": 1', '"seed": -Infinity'), "seed is -inf: a log holds finite"),
    "a number too large for a float": (lambda data: json.dumps(data).replace('"seed": 1', '"seed": 1e999'), "seed is inf: a log holds finite"),
    # the header
    "no format": (dropped("format"), "not a dice-envs game log"),
    "another format": (changed("format", "chess game"), "not a dice-envs game log"),
    "version 2": (changed("version", 2), "version 2 is not supported"),
    "version a string": (changed("version", "1"), "version '1' is not supported"),
    "unknown field": (changed("comment", "hi"), "unknown field(s) comment"),
    "no env": (dropped("env"), "'env' must be a str"),
    "env a number": (changed("env", 7), "'env' must be a str"),
    "unknown env": (changed("env", "backgammon_v0"), "unknown environment 'backgammon_v0'"),
    "another game": (changed("env", "dalek_dice_v0"), "game log: move"),
    # params
    "params a list": (changed("params", []), "'params' must be a dict"),
    "params.raw": (changed("params.raw", True), "params: 'raw' is not a game parameter"),
    "params.render_view": (changed("params.render_view", "player_1"), "params: 'render_view' is not a game parameter"),
    "params.render_mode": (changed("params.render_mode", "human"), "params: 'render_mode' is not a game parameter"),
    "params.max_steps 1": (changed("params.max_steps", 1), "move 2: the game already stopped at the step cap (max_steps=1)"),
    "params.max_steps 0": (changed("params.max_steps", 0), "max_steps"),
    "params.max_steps a string": (changed("params.max_steps", "9"), "max_steps"),
    "params.num_players 3": (changed("params.num_players", 3), "2 players named for 3 seats"),
    "params.num_players 1": (changed("params.num_players", 1), "num_players must be between 2 and 8"),
    "params.num_players a string": (changed("params.num_players", "2"), "num_players"),
    "params.num_players NaN": (changed("params.num_players", math.nan), "params.num_players is nan: a log holds finite numbers only"),
    "an unknown param": (changed("params.dragons", 3), "dragons"),
    "params.target_score negative": (changed("params.target_score", -5), "target_score"),
    # seed
    "seed -1": (changed("seed", -1), "'seed' must be from 0 to 2**63 - 1, got -1"),
    "seed 2**64": (changed("seed", 2**64), "'seed' must be from 0 to 2**63 - 1"),
    "seed a float": (changed("seed", 1.5), "'seed' must be a int"),
    "seed a string": (changed("seed", "1"), "'seed' must be a int"),
    "seed true": (changed("seed", True), "'seed' must be a int"),
    "seed null": (changed("seed", None), "'seed' must be a int"),
    "another seed": (changed("seed", 2), "game log: move"),
    # players
    "players a string": (changed("players", "random"), "'players' must be a list"),
    "players numbers": (changed("players", [1, 2]), "players must be a list of agent names"),
    "one player": (changed("players", ["random"]), "1 players named for 2 seats"),
    # moves
    "moves an object": (changed("moves", {}), "'moves' must be a list"),
    "a move a number": (changed("moves.0", 0), "move 1: must be an object"),
    "a move's unknown field": (changed("moves.0.why", "luck"), "move 1: must be an object"),
    "a move without its action": (lambda data: changed("moves.0", {"seat": 0})(data), "move 1: seat and action must be integers"),
    "an action a string": (changed("moves.0.action", "0"), "move 1: seat and action must be integers"),
    "an action true": (changed("moves.0.action", True), "move 1: seat and action must be integers"),
    "an action a float": (changed("moves.0.action", 0.0), "move 1: seat and action must be integers"),
    "an action out of range": (changed("moves.0.action", 10**30), "move 1: action"),
    "an action negative": (changed("moves.0.action", -1), "move 1: action"),
    "an illegal action": (changed("moves.0.action", 1), "move 1: action 1 (stop) is not legal there"),
    "the wrong seat": (changed("moves.0.seat", 1), "move 1: player_1 moved, but player_0 is to act"),
    "a seat out of range": (changed("moves.0.seat", 99), "move 1: player_99 moved"),
    "a move after the end": (lambda data: {**data, "moves": [*data["moves"], data["moves"][-1]]}, "the game is already over"),
    "probabilities a list": (lambda data: changed("moves.0.probabilities", [1.0])(data), "probabilities must map actions to numbers"),
    "probabilities a word": (with_probabilities("high"), "probabilities must map actions to numbers"),
    "probabilities keyed by words": (lambda data: changed("moves.0.probabilities", {"roll": 1.0})(data), "probabilities must map actions"),
    "probabilities NaN": (with_probabilities(math.nan), "moves[0].probabilities.0 is nan: a log holds finite numbers only"),
    "probabilities infinite": (with_probabilities(math.inf), "is inf: a log holds finite numbers only"),
    "probabilities above 1": (with_probabilities(2.0), "move 1: probabilities must be from 0 to 1"),
    "probabilities negative": (with_probabilities(-0.1), "move 1: probabilities must be from 0 to 1"),
    # a start position
    "start_state a list": (changed("start_state", []), "start_state must be a state object"),
    "start_state empty": (changed("start_state", {}), "start_state"),
    "start_state NaN": (changed("start_state", {"score": math.nan}), "start_state.score is nan"),
}
VALID_LOGS: dict[str, tuple[Corruption, str]] = {
    "as played": (lambda data: data, "winner: player_"),
    "stops before the end": (moves_kept(5), "no winner yet: the log stops after 5 moves, before the game ended (truncated)"),
    "stops at its step cap": (moves_kept(5, max_steps=5), "no winner: the game stopped at the step cap after 5 moves"),
    "policy probabilities": (with_probabilities(0.75), "winner: player_"),
}


def cli_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The one line a refused command ends with (after argparse's usage line), checked to be all."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.rstrip("\n").split("\n")
    error = re.match(r"dice-envs( [a-z]+)?: error: ", lines[-1])  # the message is the last line alone
    assert err.startswith("usage: dice-envs") and error, err
    return lines[-1][error.end() :]


def log_file(corrupt: Corruption, game_log: Data, directory: Path) -> Path:
    hostile = corrupt(copy.deepcopy(game_log))
    path = directory / "hostile.json"
    path.write_text(hostile if isinstance(hostile, str) else json.dumps(hostile))
    return path


@pytest.mark.parametrize("name", LOG_CORRUPTIONS)
def test_a_hostile_game_log_is_refused_in_one_line(name: str, game_log: Data, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corrupt, message = LOG_CORRUPTIONS[name]
    path, page = log_file(corrupt, game_log, tmp_path), tmp_path / "hostile.html"
    line = cli_error(capsys, ["replay", "--from-log", str(path), "--out", str(page)])
    assert line.startswith(f"{path}: ") and message in line, line
    assert not page.exists()


@pytest.mark.parametrize("name", VALID_LOGS)
def test_a_valid_game_log_is_replayed(name: str, game_log: Data, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corrupt, outcome = VALID_LOGS[name]
    path, page = log_file(corrupt, game_log, tmp_path), tmp_path / "replay.html"
    main(["replay", "--from-log", str(path), "--out", str(page)])
    assert outcome in capsys.readouterr().out and page.is_file()


# ---------------------------------------------------------------------- options
LAST_SEED = str(2**63 - 1)
OPTION_CORRUPTIONS: dict[str, tuple[list[str], str]] = {
    "seed -1": (["evaluate", "dino_hunt_v0", "random", "cup_counter", "--seed", "-1"], "--seed: must be 0 or more, got -1"),
    "seed 2**64": (["evaluate", "dino_hunt_v0", "random", "cup_counter", "--seed", str(2**64)], "--seed: must be at most 9223372036854775807"),
    "seeds past 2**63 - 1": (["evaluate", "dino_hunt_v0", "random", "cup_counter", "--seed", LAST_SEED, "--games", "2"], "run past 2**63 - 1"),
    "seeds past 2**63 - 1 on workers": (
        ["tournament", "dino_hunt_v0", "random", "cup_counter", "--seed", LAST_SEED, "--games", "2", "--workers", "2"], "run past 2**63 - 1",
    ),
    "games 0": (["evaluate", "dino_hunt_v0", "random", "cup_counter", "--games", "0"], "--games: must be 1 or more, got 0"),
    "ladder seed 2**64": (["ladder", "dino_hunt_v0", "random", "--seed", str(2**64)], "--seed: must be at most"),
    "replay seed 2**64": (["replay", "dino_hunt_v0", "random", "random", "--seed", str(2**64), "--out", "x.html"], "--seed: must be at most"),
    **{
        f"mcts:{options}": (["evaluate", "dino_hunt_v0", f"mcts:{options}", "random", "--games", "1"], message)
        for options, message in (
            ("seconds=inf", "seconds must be positive and at most 3600, got inf"),
            ("seconds=nan", "seconds must be positive"),
            ("seconds=-1", "seconds must be positive"),
            ("exploration=inf", "exploration must be a finite number"),
            ("exploration=-inf", "exploration must be a finite number"),
            ("exploration=nan", "exploration must be a finite number"),
            ("simulations=5,simulations=9", "simulations is given twice"),
            ("simulations=1e3", "simulations must be a number"),
            ("simulations=0", "simulations must be a whole number of at least 1"),
            ("simulations=99999999999", "simulations must be at most 10,000,000"),
            ("depth=0", "depth must be at least 1"),
            ("depth=1.5", "depth must be a number"),
            ("budget=3", "expected KEY=VALUE"),
            ("simulations", "expected KEY=VALUE"),
        )
    },
}


@pytest.mark.parametrize("name", OPTION_CORRUPTIONS)
def test_a_hostile_option_is_refused_in_one_line(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    argv, message = OPTION_CORRUPTIONS[name]
    monkeypatch.chdir(tmp_path)  # where a command that wrongly ran would write
    assert message in cli_error(capsys, argv)
    assert not list(tmp_path.iterdir())
