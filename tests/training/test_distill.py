"""A policy trained from search (``dice_envs/training/distill.py``): a few games at a few simulations."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch as th

import dice_envs
from dice_envs.agents import make_agent
from dice_envs.agents.learned import load_policy, save_policy
from dice_envs.agents.specs import models_directory
from dice_envs.arena.play import play_games
from dice_envs.cli import main as cli
from dice_envs.training.distill import (
    Dataset,
    collect,
    evaluate,
    initial_policy,
    sharpen,
    split_by_game,
    teacher_parts,
    train,
)

ENV = "dice_age_v1"
TEACHER = "mcts:simulations=4"
PPO_MODEL = models_directory() / "dice_age_ppo.zip"


def quiet(_: str) -> None:
    pass


@pytest.fixture(scope="module")
def data() -> Dataset:
    return collect(teacher_parts(ENV, TEACHER, ["random", "best_prey"], 4, seed=3), workers=1, log=quiet)


def test_the_examples_have_the_right_shapes_masks_and_targets(data: Dataset) -> None:
    env = dice_envs.make(ENV)
    n, actions = len(data), env.game.num_actions
    assert n > 20
    assert data.observations.shape == (n, env.encoder.layout.size) and data.observations.dtype == np.float32
    assert data.masks.shape == data.targets.shape == (n, actions) and data.masks.dtype == bool
    assert (data.masks.sum(axis=1) > 1).all()  # forced moves are left out
    assert (data.targets >= 0).all() and not data.targets[~data.masks].any()
    np.testing.assert_allclose(data.targets.sum(axis=1), 1.0, rtol=1e-6)
    rows = np.arange(n)
    assert data.masks[rows, data.actions].all()
    assert (data.targets[rows, data.actions] == data.targets.max(axis=1)).all()  # the move played is the most visited
    assert set(np.unique(data.values)) <= {-1.0, 0.0, 1.0}
    assert set(data.games) == {0, 1, 2, 3}  # every game its own deal, both opponents' shares
    for game in range(4):
        assert len(np.unique(data.values[data.games == game])) == 1  # one teacher seat: one outcome per game


def test_self_play_records_both_seats() -> None:
    data = collect(teacher_parts(ENV, TEACHER, [TEACHER], 1, seed=1), workers=1, log=quiet)
    assert set(np.unique(data.values)) == {-1.0, 1.0}  # the winner's decisions and the loser's


def test_sharpened_targets_stay_distributions_over_the_legal_moves(data: Dataset) -> None:
    assert sharpen(data, 1.0) is data
    rows = np.arange(len(data))
    hard = sharpen(data, 0.0).targets
    assert (hard[rows, data.actions] == 1).all() and hard.sum() == len(data)
    squared = sharpen(data, 0.5).targets
    np.testing.assert_allclose(squared.sum(axis=1), 1.0, rtol=1e-5)
    assert not squared[~data.masks].any()
    expected = data.targets**2 / (data.targets**2).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(squared, expected, rtol=1e-5)


def test_the_held_out_split_keeps_games_whole(data: Dataset) -> None:
    trained, held = split_by_game(data, 0.5, seed=0)
    assert len(trained) + len(held) == len(data)
    assert len(set(held.games)) == 2 and not set(trained.games) & set(held.games)


def test_a_student_moves_towards_the_teachers_choices(data: Dataset) -> None:
    th.manual_seed(0)
    policy, _ = initial_policy(dice_envs.make(ENV), None)
    before = evaluate(policy, data)
    history = train(policy, data, epochs=30, learning_rate=3e-3, batch_size=32, held_out=0.0, seed=0, log=quiet)
    after = evaluate(policy, data)
    assert history[0] == {}  # nothing held out
    # The cross-entropy cannot fall below the targets' entropy (4 visits spread over a few moves):
    # what it can lose is the excess, the divergence from the teacher's distribution.
    targets = data.targets
    entropy = float(-np.where(targets > 0, targets * np.log(np.where(targets > 0, targets, 1.0)), 0.0).sum(axis=1).mean())
    assert after["cross_entropy"] - entropy < 0.5 * (before["cross_entropy"] - entropy)
    assert after["value_mse"] < 0.5 * before["value_mse"]
    # Ties among 4 visits, which the teacher breaks by value, cap how often the arg-max can agree.
    assert after["agreement"] > before["agreement"] + 0.1


def test_the_saved_student_loads_as_a_model_and_plays(data: Dataset, tmp_path: Path) -> None:
    env = dice_envs.make(ENV)
    policy, saved = initial_policy(env, str(PPO_MODEL))
    train(policy, data, epochs=1, learning_rate=1e-3, held_out=0.0, log=quiet)
    path = save_policy(policy, saved, tmp_path / "student.zip")
    loaded = load_policy(path).state_dict()
    assert all(th.equal(loaded[key], value) for key, value in policy.state_dict().items())
    for spec in (f"model:{path}", f"mcts:simulations=2,model={path}"):
        agent = make_agent(ENV, spec, env, seed=0)
        outcomes = play_games(env, [agent, make_agent(ENV, "random", env, seed=1)], 1)
        assert outcomes[0].finished


def test_the_command_collects_trains_and_saves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, saved = tmp_path / "student.zip", tmp_path / "data.npz"
    argv = [ENV, "--teacher", TEACHER, "--opponents", "random", "--games", "2", "--workers", "2", "--epochs", "1"]
    cli(["distill", *argv, "--held-out", "0.5", "--out", str(out), "--save-data", str(saved)])  # returns once the student is saved
    assert "held-out cross_entropy" in capsys.readouterr().out
    again = tmp_path / "again.zip"
    cli(["distill", ENV, "--data", str(saved), str(saved), "--init", str(out), "--epochs", "1", "--out", str(again)])  # returns once the student is saved
    assert load_policy(again) is not None


@pytest.mark.parametrize(
    "options, message",
    [
        (["--teacher", "random"], "--teacher must be an mcts spec"),
        (["--teacher", "mcts:simulations=0"], "simulations must be a whole number"),
        (["--opponents", "nobody"], "no agent 'nobody'"),
        (["--init", "missing.zip"], "no model file 'missing.zip'"),
        (["--games", "0"], "--games must be at least 1"),
        (["--workers", "0"], "workers must be a whole number"),
        (["--data", "missing.npz"], "no data file 'missing.npz'"),
        (["--temperature", "-1"], "--temperature 0 or more"),
    ],
)
def test_bad_input_is_one_clear_line(options: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli(["distill", ENV, "--out", str(tmp_path / "student.zip"), *options])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err.strip().splitlines()[-1]
    assert not (tmp_path / "student.zip").exists()
