"""Tournaments, Bradley-Terry Elo, trained models as agents, and the evaluate / play / match commands."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest

import dice_envs
from dice_envs.agents import agent_classes
from dice_envs.agents.learned import load_policy, policy_from_bytes, policy_to_bytes
from dice_envs.agents.specs import models_directory
from dice_envs.arena.play import Standing
from dice_envs.arena.tournament import Pairing, bradley_terry_elo, entrant_from_spec, run_tournament, to_markdown
from dice_envs.cli import main
from dice_envs.core.engine import ParameterError
from dice_envs.training.config import config_from_dict
from dice_envs.training.runs import start_run
from tests.training.conftest import small_config


def pairing(first: str, second: str, first_wins: int, second_wins: int, shared: int = 0) -> Pairing:
    games = first_wins + second_wins + shared
    return Pairing(Standing(first, games, first_wins, shared), Standing(second, games, second_wins, shared), first_wins, second_wins, shared)


def test_bradley_terry_orders_agents_and_anchors_random() -> None:
    pairings = [pairing("random", "good", 20, 80), pairing("random", "best", 5, 95), pairing("good", "best", 30, 70)]
    elo = bradley_terry_elo(["random", "good", "best"], pairings)
    assert elo["random"] == pytest.approx(0)
    assert elo["random"] < elo["good"] < elo["best"]
    # an even pairing rates both the same; a clean sweep stays finite
    even = bradley_terry_elo(["a", "b"], [pairing("a", "b", 50, 50)])
    assert even["a"] == pytest.approx(even["b"]) == pytest.approx(0)
    sweep = bradley_terry_elo(["a", "b"], [pairing("a", "b", 100, 0)])
    assert sweep["a"] - sweep["b"] == pytest.approx(400 * math.log10(100.5 / 0.5))  # one virtual drawn game


def test_two_player_round_robin_rotates_seats_and_is_reproducible() -> None:
    entrants = [entrant_from_spec("dino_hunt_v0", spec) for spec in ("random", "cup_counter", "two_footprints")]
    result = run_tournament("dino_hunt_v0", entrants, games=40, seed=2)
    again = run_tournament("dino_hunt_v0", entrants, games=40, seed=2)
    assert len(result.pairings) == 3
    assert [p.first for p in result.pairings] == [p.first for p in again.pairings]
    for p in result.pairings:
        assert p.first.games == p.second.games == 40
        assert p.first_beat_second + p.second_beat_first + p.shared == 40
    assert result.standings["random"].games == 80
    assert result.elo["random"] == pytest.approx(0)
    assert result.elo["cup_counter"] > 0
    assert result.head_to_head("cup_counter", "random").win_rate > 0.5
    markdown = to_markdown(result)
    assert "| cup_counter |" in markdown and "Elo" in markdown


def test_three_player_pairings_fill_the_other_seats() -> None:
    entrants = [entrant_from_spec("mammoth_hunters_v1", spec) for spec in ("settler", "random", "raider")]
    result = run_tournament("mammoth_hunters_v1", entrants, games=3, seed=0, filler="random", focus="settler")
    assert result.num_players == 3
    assert [p.labels for p in result.pairings] == [("settler", "random"), ("settler", "raider")]
    with pytest.raises(ParameterError, match="focus"):
        run_tournament("mammoth_hunters_v1", entrants, games=1, focus="nobody")


@pytest.mark.parametrize(
    "agents, pairings",
    [
        (["two_footprints", "baselines"], [("two_footprints", other) for other in ("random", "cup_counter", "optimal_points", "optimal_win")]),
        (["baselines"], list(itertools.combinations(["random", "two_footprints", "cup_counter", "optimal_points", "optimal_win"], 2))),
        (["cup_counter", "random"], [("cup_counter", "random")]),
    ],
)
def test_evaluate_plays_the_named_agents_against_each_baseline(agents: list[str], pairings: list[tuple[str, str]], tmp_path: Path) -> None:
    """``evaluate AGENT baselines``: the agent against each built-in agent, not their round robin;
    the ratings on the ladder's scale, ``random`` at 0."""
    main(["evaluate", "dino_hunt_v0", *agents, "--games", "2", "--out", str(tmp_path)])
    saved = json.loads((tmp_path / "tournament.json").read_text())
    assert [tuple(pairing["agents"]) for pairing in saved["pairings"]] == pairings
    assert saved["standings"]["random"]["elo"] == pytest.approx(0)


def test_unknown_agents_and_models_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ParameterError, match="no agent 'grandmaster'"):
        entrant_from_spec("dino_hunt_v0", "grandmaster")
    with pytest.raises(ParameterError, match="no model file"):
        entrant_from_spec("dino_hunt_v0", f"model:{tmp_path / 'missing.zip'}")


@pytest.fixture(scope="module")
def dino_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = tmp_path_factory.mktemp("run") / "run"
    start_run(config_from_dict(small_config("dino_hunt_v0", "ppo")), run_dir=run, progress=False)
    return run / "model.zip"


def test_a_model_for_another_player_count_is_refused(dino_model: Path) -> None:
    env = dice_envs.make("dino_hunt_v0", num_players=3)
    from dice_envs.agents.learned import PolicyAgent

    with pytest.raises(ParameterError, match="trained for another game or player count"):
        PolicyAgent(env, load_policy(dino_model))


def test_policies_survive_the_trip_between_processes(dino_model: Path) -> None:
    import numpy as np

    policy = load_policy(dino_model)
    copy = policy_from_bytes(policy_to_bytes(policy))
    observation = np.random.default_rng(0).random((5, *policy.observation_space.shape)).astype(np.float32)
    mask = np.ones((5, 2), dtype=bool)
    assert (policy.predict(observation, deterministic=True, action_masks=mask)[0] == copy.predict(observation, deterministic=True, action_masks=mask)[0]).all()


def test_evaluate_command_plays_models_and_baselines(dino_model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["evaluate", "dino_hunt_v0", f"model:{dino_model}", "baselines", "--games", "4", "--out", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert "model" in out and "cup_counter" in out and "Elo" in out
    saved = json.loads((tmp_path / "out" / "tournament.json").read_text())
    expected = {"model", *agent_classes("dino_hunt_v0")}  # "baselines": every built-in agent
    assert set(saved["standings"]) == expected
    assert [pairing["agents"] for pairing in saved["pairings"]] == [["model", baseline] for baseline in agent_classes("dino_hunt_v0")]
    assert (tmp_path / "out" / "tournament.md").read_text().startswith("# Tournament: dino_hunt_v0")
    main(["match", "dino_hunt_v0", f"model:{dino_model}", "random", "--games", "3"])
    assert "model" in capsys.readouterr().out


def test_play_command_takes_moves_from_the_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    answers = iter(["x", "9"] + ["1", "0"] * 500)  # two bad answers first; then stop when allowed, else roll
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    main(["play", "dino_hunt_v0", "--opponent", "cup_counter", "--param", "target_score=6", "--seed", "0"])  # the game these answers finish
    out = capsys.readouterr().out
    assert "You are player_0" in out and "choose one of 0" in out
    assert "Game over" in out and ("You win!" in out or "Winner: player_1" in out)


def test_play_command_quits_cleanly(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt: "q")
    main(["play", "mammoth_hunters_v1"])
    out = capsys.readouterr().out
    assert "opponents: player_1 (settler), player_2 (settler)" in out and "Game abandoned." in out


def test_exported_policy_is_smaller_and_plays_the_same(dino_model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import numpy as np

    main(["export", str(dino_model.parent), str(tmp_path / "policy.zip")])
    assert "saved the policy" in capsys.readouterr().out
    exported = tmp_path / "policy.zip"
    assert exported.stat().st_size < dino_model.stat().st_size / 2
    observation = np.random.default_rng(1).random((8, 25)).astype(np.float32)
    mask = np.ones((8, 2), dtype=bool)
    original, copy = load_policy(dino_model), load_policy(exported)
    assert (original.predict(observation, deterministic=True, action_masks=mask)[0] == copy.predict(observation, deterministic=True, action_masks=mask)[0]).all()
    with pytest.raises(ParameterError, match=r"not a saved Stable-Baselines3 model|no model file"):
        load_policy(tmp_path / "nothing.zip")


MODEL_FILES = sorted((models_directory()).glob("*_ppo.zip"))


@pytest.mark.parametrize("model", MODEL_FILES, ids=lambda path: path.name)
def test_committed_models_play_their_game(model: Path) -> None:
    """``dice_envs/models/<game>_ppo.zip`` still fits its game's observation and action space and plays it."""
    game = model.name.removesuffix("_ppo.zip")
    (env_name,) = [name for name in dice_envs.list_envs() if name.rsplit("_v", 1)[0] == game]  # its current version
    entrant = entrant_from_spec(env_name, f"model:{model}")
    result = run_tournament(env_name, [entrant, entrant_from_spec(env_name, "random")], games=2)
    assert result.standings[entrant.label].games == 2
