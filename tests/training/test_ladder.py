"""The strength ladder (``dice_envs/arena/ladder.py``): stored round robins, rating an agent, the leaderboard."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dice_envs.agents import specs
from dice_envs.agents.base import Agent
from dice_envs.arena.ladder import (
    LADDERS,
    Ladder,
    adaptive_games,
    agent_tables,
    build_ladder,
    extend_ladder,
    format_rating,
    leaderboard_markdown,
    load_ladder,
    rate_agent,
    round_robin_tables,
    save_ladder,
    stored_path,
    windows,
)
from dice_envs.arena.tournament import Entrant, entrant_from_spec
from dice_envs.cli import main
from dice_envs.core.engine import ParameterError

ROOT = Path(__file__).resolve().parents[2]
SMALL = Ladder("dino_hunt_v0", ("random", "two_footprints", "cup_counter"), games=30, agent_games=30, players=(2, 3))


@pytest.fixture
def small_ladder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A three-rung Dino Hunt ladder, played and stored in a temporary directory."""
    monkeypatch.setitem(LADDERS, "dino_hunt_v0", SMALL)
    save_ladder(build_ladder("dino_hunt_v0", seed=1), tmp_path)
    return tmp_path


@pytest.mark.parametrize("env_name, players", [(env_name, players) for env_name in sorted(LADDERS) for players in LADDERS[env_name].players])
def test_every_stored_ladder_is_current(env_name: str, players: int) -> None:
    """Played with today's rungs, game counts and models: a retrained model must rebuild it."""
    stored = load_ladder(env_name, players=players)
    assert stored.players == players and stored.labels[0] == "random"
    assert len(stored.tables) == len(round_robin_tables(len(stored.labels), players))
    assert all(len(table.labels) == players and table.games == LADDERS[env_name].games for table in stored.tables)


def test_tables_seat_every_rung_alike() -> None:
    """Each run of rungs is cyclic, so each rung sits at as many of an agent's tables; the round
    robin grows rung by rung (what ``--extend`` relies on) and at two players is every pair once."""
    assert windows(5, 2) == [(0, 1), (1, 2), (2, 3), (3, 4), (0, 4)] and windows(3, 3) == [(0, 1, 2)]
    for count, players in [(6, 2), (6, 3), (7, 4), (5, 5)]:
        tables = agent_tables(count, players)
        seated = [sum(rung in table for table in tables) for rung in range(count)]
        assert len(set(seated)) == 1, seated
        robin = round_robin_tables(count, players)
        assert robin[: len(round_robin_tables(count - 1, players))] == round_robin_tables(count - 1, players)
        assert all(len(set(table)) == players for table in robin)
    assert sorted(tuple(sorted(pair)) for pair in round_robin_tables(6, 2)) == [(i, j) for i in range(6) for j in range(i + 1, 6)]


def test_the_leaderboard_is_generated_from_the_stored_ladders() -> None:
    assert (ROOT / "docs" / "leaderboard.md").read_text() == leaderboard_markdown()


def test_rating_an_agent_uses_the_stored_games_and_anchors_random(small_ladder: Path) -> None:
    rating = rate_agent("dino_hunt_v0", entrant_from_spec("dino_hunt_v0", "optimal_points"), games=30, seed=2, store=small_ladder)
    assert rating.rung_ratings["random"] == 0
    assert rating.rung_ratings["cup_counter"] > 100 and rating.rating > 100
    low, high = rating.interval
    assert low < rating.rating < high
    assert [table.labels for table in rating.results] == [("optimal_points", rung) for rung in SMALL.rungs]
    assert sum(table.games for table in rating.results) == 90, "30 games a table on average"
    assert all(table.games >= 6 and table.games % 2 == 0 and sum(table.finishes.values()) == table.games for table in rating.results)
    games = {table.labels[1]: table.games for table in rating.results}
    assert games["random"] < min(games["two_footprints"], games["cup_counter"]), "few games where the result is in little doubt"
    assert rating.milliseconds is not None and min(rating.milliseconds) > 0  # mean and 95th percentile (a mean may exceed it: the solver's first call)
    text = format_rating(rating)
    assert text.startswith(f"dino_hunt_v0, 2 players: optimal_points is rated {rating.rating:.0f}")
    assert "duplicate deals" in text and "ms 95th percentile" in text


def test_even_allocation_plays_the_same_games_at_every_table(small_ladder: Path) -> None:
    rating = rate_agent("dino_hunt_v0", entrant_from_spec("dino_hunt_v0", "optimal_points"), games=30, seed=2, store=small_ladder, adaptive=False)
    assert [table.games for table in rating.results] == [30, 30, 30]
    assert "30 games a table" not in format_rating(rating) and "90 games shared evenly" in format_rating(rating)


def test_rolls_keyed_by_seat_rate_an_agent_beside_the_stored_games(small_ladder: Path) -> None:
    rating = rate_agent("dino_hunt_v0", entrant_from_spec("dino_hunt_v0", "cup_counter"), games=8, seed=2, store=small_ladder, keyed_chance=True)
    assert rating.rating > rating.rung_ratings["random"] == 0
    assert "duplicate deals (each seed in every seat rotation), rolls keyed by seat and turn" in format_rating(rating)


def test_games_go_where_the_agents_finish_is_least_certain() -> None:
    """In proportion to each table's sum of p (1 - p), in whole deals, every game given out."""
    ratings = {"agent": 500.0, "weak": 0.0, "equal": 500.0, "strong": 900.0}
    tables = [("agent", "weak"), ("agent", "equal"), ("agent", "strong")]
    assert adaptive_games(ratings, tables, 300, 2) == [40, 196, 64]
    assert sum(adaptive_games(ratings, [("agent", "weak", "equal"), ("agent", "equal", "strong")], 99, 3)) == 99
    for far in (-1e6, 1e6):
        assert adaptive_games({"agent": 0.0, "other": far}, [("agent", "other")] * 2, 10, 2) == [6, 4], "no information: shared evenly"


def test_full_tables_rate_an_agent_with_every_run_of_rungs(small_ladder: Path) -> None:
    """At three players every game seats three different agents, no filler: the agent sits with
    each run of two rungs, and its finishing orders, not only its wins, are fitted."""
    save_ladder(build_ladder("dino_hunt_v0", seed=1, players=3), small_ladder)
    stored = load_ladder("dino_hunt_v0", small_ladder, players=3)
    assert [table.labels for table in stored.tables] == [("random", "two_footprints", "cup_counter")]
    rating = rate_agent("dino_hunt_v0", entrant_from_spec("dino_hunt_v0", "optimal_points"), games=30, seed=2, store=small_ladder, players=3)
    assert [set(table.labels[1:]) for table in rating.results] == [{"random", "two_footprints"}, {"two_footprints", "cup_counter"}, {"random", "cup_counter"}]
    assert all(len(finish) >= 2 for table in rating.results for finish in table.finishes), "full finishing orders"
    assert rating.rating > rating.rung_ratings["random"] == 0
    low, high = rating.interval
    assert low < rating.rating < high
    assert format_rating(rating).startswith(f"dino_hunt_v0, 3 players: optimal_points is rated {rating.rating:.0f}")


def test_a_rung_rated_again_is_told_apart(small_ladder: Path) -> None:
    rating = rate_agent("dino_hunt_v0", entrant_from_spec("dino_hunt_v0", "random"), games=20, seed=2, store=small_ladder)
    assert rating.agent == "random (rated)" and abs(rating.rating) < 250


class NeverRolls(Agent):
    """One's own agent (stops as soon as it may): it must rate near the bottom."""

    name = "never_rolls"
    description = "stops whenever stopping is legal"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(np.flatnonzero(action_mask)[-1])


def test_ones_own_agent_is_rated_on_workers(small_ladder: Path) -> None:
    entrant = Entrant("never_rolls", lambda env, seed: NeverRolls(env, seed=seed))
    rating = rate_agent("dino_hunt_v0", entrant, games=20, seed=0, workers=2, store=small_ladder)
    assert rating.rating < rating.rung_ratings["cup_counter"]


def test_a_stale_ladder_says_to_rebuild(small_ladder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LADDERS, "dino_hunt_v0", Ladder("dino_hunt_v0", ("random", "cup_counter"), games=30, agent_games=30, players=(2,)))
    rebuild = "rebuild it with `dice-envs ladder dino_hunt_v0 --rebuild --players 2`"
    with pytest.raises(ParameterError, match=f"other rungs, player counts or game counts; {rebuild}"):
        load_ladder("dino_hunt_v0", small_ladder)
    monkeypatch.setitem(LADDERS, "dino_hunt_v0", SMALL)
    path = stored_path(small_ladder, "dino_hunt_v0", 2)
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "tables": data["tables"][1:]}))
    with pytest.raises(ParameterError, match="does not hold the tables of its round robin"):
        load_ladder("dino_hunt_v0", small_ladder)
    path.write_text(json.dumps({key: value for key, value in data.items() if key != "seed"}))
    with pytest.raises(ParameterError, match="cannot be read \\(KeyError: 'seed'\\)"):
        load_ladder("dino_hunt_v0", small_ladder)
    path.write_text("{not json")
    with pytest.raises(ParameterError, match="cannot be read \\(JSONDecodeError"):
        load_ladder("dino_hunt_v0", small_ladder)
    with pytest.raises(ParameterError, match="no stored ladder for dino_hunt_v0 at 3 players"):
        load_ladder("dino_hunt_v0", small_ladder, players=3)
    with pytest.raises(ParameterError, match="dino_hunt_v0 is played by 2 to 8 players, not 9"):
        load_ladder("dino_hunt_v0", small_ladder, players=9)


@pytest.mark.parametrize("players", [2, 3])
def test_extending_a_ladder_plays_only_the_new_rungs_games_as_a_rebuild_would(players: int, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A rung added at the end: ``--extend`` plays its tables with the stored seed, deals and
    workers and keeps the stored ones; the file is the one a full rebuild writes (its times aside)."""
    monkeypatch.setitem(LADDERS, "dino_hunt_v0", SMALL)
    save_ladder(build_ladder("dino_hunt_v0", seed=1, players=players), tmp_path)
    played: list[tuple[str, ...]] = []
    monkeypatch.setitem(LADDERS, "dino_hunt_v0", Ladder("dino_hunt_v0", (*SMALL.rungs, "optimal_points"), 30, 30, SMALL.players))
    extended = save_ladder(extend_ladder("dino_hunt_v0", on_table=lambda table: played.append(table.labels), directory=tmp_path, players=players), tmp_path)
    assert all(labels[-1] == "optimal_points" for labels in played) and len(played) == len(round_robin_tables(4, players)) - len(round_robin_tables(3, players))
    rebuilt = save_ladder(build_ladder("dino_hunt_v0", seed=1, players=players), tmp_path / "rebuilt")
    assert untimed(extended) == untimed(rebuilt)
    assert load_ladder("dino_hunt_v0", tmp_path, players=players).labels[-1] == "optimal_points"
    with pytest.raises(ParameterError, match="has every rung already: nothing to extend"):
        extend_ladder("dino_hunt_v0", directory=tmp_path, players=players)
    monkeypatch.setitem(LADDERS, "dino_hunt_v0", Ladder("dino_hunt_v0", ("random", "cup_counter", "two_footprints", "optimal_points", "optimal_win"), 30, 30, SMALL.players))
    with pytest.raises(ParameterError, match=r"rungs must be the first of today's rungs, .*; rebuild it with"):
        extend_ladder("dino_hunt_v0", directory=tmp_path, players=players)


def untimed(path: Path) -> dict[str, object]:
    """A stored ladder's data without what differs between two plays of the same games: the times."""
    return {key: value for key, value in json.loads(path.read_text()).items() if key not in ("ms_per_decision", "reference_cpu_s")}


def test_a_retrained_model_makes_the_ladder_stale(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    ladder = Ladder("dino_hunt_v0", ("random", "model:dino_hunt_ppo"), games=4, agent_games=4, players=(2,))
    monkeypatch.setitem(LADDERS, "dino_hunt_v0", ladder)
    save_ladder(build_ladder("dino_hunt_v0"), tmp_path)
    assert load_ladder("dino_hunt_v0", tmp_path).labels == ["random", "dino_hunt_ppo"]
    monkeypatch.setattr(specs, "models_directory", lambda: tmp_path / "models")
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "dino_hunt_ppo.zip").write_bytes(b"retrained")
    with pytest.raises(ParameterError, match="other versions of model:dino_hunt_ppo"):
        load_ladder("dino_hunt_v0", tmp_path)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["ladder"], "name a game"),
        (["ladder", "dino_hunt_v0"], "name the agent to rate"),
        (["ladder", "dino_hunt_v0", "random", "--rebuild"], "--rebuild and --extend play the rungs' own games: give one of them and no agent"),
        (["ladder", "dino_hunt_v0", "--rebuild", "--extend"], "--rebuild and --extend play the rungs' own games: give one of them and no agent"),
        (["ladder", "dino_hunt_v0", "--leaderboard"], "--leaderboard takes no game"),
        (["ladder", "dino_hunt_v0", "nobody"], "no agent 'nobody' for dino_hunt_v0"),
        (["ladder", "dino_hunt_v0", "random", "--players", "9"], "dino_hunt_v0 is played by 2 to 8 players, not 9"),
        (["ladder", "--leaderboard", "--players", "3"], "--leaderboard takes no game, agent, --players"),
        (["ladder", "dino_hunt_v0", "cup_counter", "--time-per-move", "5"], "--time-per-move holds a search (mcts:...) to a budget; 'cup_counter' is not one"),
        (["ladder", "dino_hunt_v0", "mcts", "--time-per-move", "0"], "--time-per-move must be positive"),
        (["ladder", "dino_hunt_v0", "--rebuild", "--time-per-move", "5"], "--time-per-move holds the agent being rated to a budget"),
        (["ladder", "dino_hunt_v0", "--extend", "--deals", "single"], "--extend plays the new rungs' games as the stored ones were dealt"),
        (["ladder", "dino_hunt_v0", "--rebuild", "--deals", "keyed"], "--deals keyed rates an agent"),
        (["ladder", "--rebuild", "--players", "3"], "--players needs a game"),
        (["ladder", "--extend"], "name a game"),
        (["ladder", "dino_hunt_v0", "--extend", "--workers", "2"], "--extend plays the new rungs' games with the stored ladder's seed and workers"),
        (["ladder", "dino_hunt_v0", "--extend", "--seed", "0"], "--extend plays the new rungs' games with the stored ladder's seed and workers"),
        (["ladder", "dino_hunt_v0", "--extend", "--allocation", "even"], "--allocation shares out the rated agent's games"),
    ],
)
def test_bad_ladder_commands_are_one_clear_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(argv)
    assert message in capsys.readouterr().err


def test_rebuild_without_a_game_rebuilds_every_stored_ladder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from dice_envs.arena import ladder

    tiny = Ladder("dino_hunt_v0", ("random", "two_footprints", "cup_counter"), games=4, agent_games=4, players=(2, 3))
    monkeypatch.setattr(ladder, "LADDERS", {"dino_hunt_v0": tiny})
    monkeypatch.setattr(ladder, "STORE", tmp_path)
    main(["ladder", "--rebuild", "--workers", "1"])
    assert capsys.readouterr().out.splitlines() == [f"saved {stored_path(tmp_path, 'dino_hunt_v0', players)}" for players in (2, 3)]
    assert load_ladder("dino_hunt_v0", tmp_path, players=3).players == 3


def test_the_interval_benchmark_rates_under_every_scheme(small_ladder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import ladder_intervals
    from dice_envs.arena import ladder

    monkeypatch.setattr(ladder, "STORE", small_ladder)
    ladder_intervals.main(["dino_hunt_v0", "cup_counter", "--games", "6", "--repeats", "2"])
    rows = {line.split()[0]: line.split()[1:] for line in capsys.readouterr().out.splitlines()[2:]}
    assert set(rows) == {"single", "duplicate", "keyed", "adaptive"} and all(len(row) == 4 and float(row[1]) > 0 for row in rows.values())
