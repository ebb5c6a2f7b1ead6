"""The strength ladder (``dice_envs/arena/ladder.py``): stored round robins, rating an agent, the leaderboard."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dice_envs.agents import specs
from dice_envs.agents.base import Agent
from dice_envs.arena.ladder import LADDERS, Ladder, build_ladder, extend_ladder, format_rating, leaderboard_markdown, load_ladder, rate_agent, save_ladder
from dice_envs.arena.tournament import Entrant, entrant_from_spec
from dice_envs.cli import main
from dice_envs.core.engine import ParameterError

ROOT = Path(__file__).resolve().parents[2]
SMALL = Ladder("dino_hunt_v0", ("random", "two_footprints", "cup_counter"), games=30, agent_games=30)


@pytest.fixture
def small_ladder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A three-rung Dino Hunt ladder, played and stored in a temporary directory."""
    monkeypatch.setitem(LADDERS, "dino_hunt_v0", SMALL)
    save_ladder(build_ladder("dino_hunt_v0", seed=1), tmp_path)
    return tmp_path


@pytest.mark.parametrize("env_name", sorted(LADDERS))
def test_every_stored_ladder_is_current(env_name: str) -> None:
    """Played with today's rungs, game counts and models: a retrained model must rebuild it."""
    stored = load_ladder(env_name)
    assert stored.labels[0] == "random" and len(stored.pairings) == len(stored.labels) * (len(stored.labels) - 1) // 2
    assert all(pairing.first.games == LADDERS[env_name].games for pairing in stored.pairings)


def test_the_leaderboard_is_generated_from_the_stored_ladders() -> None:
    assert (ROOT / "docs" / "leaderboard.md").read_text() == leaderboard_markdown()


def test_rating_an_agent_uses_the_stored_games_and_anchors_random(small_ladder: Path) -> None:
    rating = rate_agent("dino_hunt_v0", entrant_from_spec("dino_hunt_v0", "optimal_points"), games=30, seed=2, store=small_ladder)
    assert rating.rung_ratings["random"] == 0
    assert rating.rung_ratings["cup_counter"] > 100 and rating.rating > 100
    low, high = rating.interval
    assert low < rating.rating < high
    assert [pairing.labels for pairing in rating.results] == [("optimal_points", rung) for rung in SMALL.rungs]
    assert all(pairing.first.games == 30 for pairing in rating.results)
    text = format_rating(rating)
    assert text.startswith(f"dino_hunt_v0: optimal_points is rated {rating.rating:.0f}")


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
    monkeypatch.setitem(LADDERS, "dino_hunt_v0", Ladder("dino_hunt_v0", ("random", "cup_counter"), games=30, agent_games=30))
    with pytest.raises(ParameterError, match="other rungs or game counts; rebuild it with `dice-envs ladder dino_hunt_v0 --rebuild`"):
        load_ladder("dino_hunt_v0", small_ladder)
    monkeypatch.setitem(LADDERS, "dino_hunt_v0", SMALL)
    path = small_ladder / "dino_hunt_v0.json"
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "pairings": data["pairings"][1:]}))
    with pytest.raises(ParameterError, match="does not hold one pairing for every two rungs"):
        load_ladder("dino_hunt_v0", small_ladder)
    path.write_text(json.dumps({key: value for key, value in data.items() if key != "seed"}))
    with pytest.raises(ParameterError, match="cannot be read \\(KeyError: 'seed'\\)"):
        load_ladder("dino_hunt_v0", small_ladder)
    path.write_text("{not json")
    with pytest.raises(ParameterError, match="cannot be read \\(JSONDecodeError"):
        load_ladder("dino_hunt_v0", small_ladder)


def test_extending_a_ladder_plays_only_the_new_rungs_games_as_a_rebuild_would(small_ladder: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A rung added at the end: ``--extend`` plays its pairings with the stored seed and workers and
    keeps the stored ones; the file is the one a full rebuild writes."""
    played: list[tuple[str, str]] = []
    monkeypatch.setitem(LADDERS, "dino_hunt_v0", Ladder("dino_hunt_v0", (*SMALL.rungs, "optimal_points"), games=30, agent_games=30))
    extended = save_ladder(extend_ladder("dino_hunt_v0", on_pairing=lambda pairing: played.append(pairing.labels), directory=small_ladder), small_ladder)
    assert played == [("random", "optimal_points"), ("two_footprints", "optimal_points"), ("cup_counter", "optimal_points")]
    rebuilt = save_ladder(build_ladder("dino_hunt_v0", seed=1), tmp_path / "rebuilt")
    assert extended.read_text() == rebuilt.read_text()
    assert load_ladder("dino_hunt_v0", small_ladder).labels[-1] == "optimal_points"
    with pytest.raises(ParameterError, match="has every rung already: nothing to extend"):
        extend_ladder("dino_hunt_v0", directory=small_ladder)
    monkeypatch.setitem(LADDERS, "dino_hunt_v0", Ladder("dino_hunt_v0", ("random", "cup_counter", "two_footprints", "optimal_points", "optimal_win"), 30, 30))
    with pytest.raises(ParameterError, match=r"rungs must be the first of today's rungs, .*; rebuild it with"):
        extend_ladder("dino_hunt_v0", directory=small_ladder)


def test_a_retrained_model_makes_the_ladder_stale(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    ladder = Ladder("dino_hunt_v0", ("random", "model:dino_hunt_ppo"), games=4, agent_games=4)
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
    ],
)
def test_bad_ladder_commands_are_one_clear_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(argv)
    assert message in capsys.readouterr().err
