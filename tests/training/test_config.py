"""Configs: every shipped config loads; bad keys and values get a clear error; overrides reach any key."""

from __future__ import annotations

import dataclasses
import types
import typing
from pathlib import Path

import pytest

from dice_envs.cli import main
from dice_envs.training.config import (
    HYPERPARAMETERS,
    ConfigError,
    DQNHyperparameters,
    PPOHyperparameters,
    TrainConfig,
    config_from_dict,
    configs_directory,
    load_config,
    other_backend_keys,
    save_config,
)
from tests.training.conftest import small_config

CONFIG_FILES = sorted((configs_directory()).glob("*/*.yaml"))


@pytest.mark.parametrize("path", CONFIG_FILES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_shipped_configs_are_valid(path: Path) -> None:
    config = load_config(path)
    assert config.name == f"{path.parent.name}_{path.stem}"
    assert path.stem == config.algorithm or path.stem.startswith(f"{config.algorithm}_"), "a config's file name starts with its algorithm"


def test_every_game_ships_a_ppo_a_dqn_and_an_rllib_config() -> None:
    games = {path.parent.name for path in CONFIG_FILES}
    assert {"dino_hunt", "dalek_dice", "dice_age", "mammoth_hunters", "age_of_craft"} <= games
    for game in games:
        assert {path.stem for path in CONFIG_FILES if path.parent.name == game} >= {"ppo", "dqn", "rllib_ppo"}, game


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "game" / "ppo.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    return path


BASE = "env: {name: dino_hunt_v0}\nalgorithm: ppo\ntotal_timesteps: 1000\n"


def test_defaults_fill_in_and_yaml_numbers_without_a_dot_are_numbers(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, BASE + "hyperparameters: {learning_rate: 3e-4}\n"))
    assert config.name == "game_ppo"
    assert isinstance(config.hyperparameters, PPOHyperparameters)
    assert config.hyperparameters.learning_rate == pytest.approx(3e-4)
    assert config.hyperparameters.n_steps == PPOHyperparameters().n_steps


@pytest.mark.parametrize(
    "text, message",
    [
        (BASE + "hyperparameters: {lerning_rate: 0.1}\n", r"unknown key 'hyperparameters.lerning_rate'.*did you mean 'hyperparameters.learning_rate'"),
        (BASE + "total_steps: 5\n", r"unknown key 'total_steps'.*did you mean 'total_timesteps'"),
        (BASE + "hyperparameters: {buffer_size: 100}\n", r"unknown key 'hyperparameters.buffer_size'"),
        (BASE + "n_envs: four\n", "n_envs must be an integer, got 'four'"),
        (BASE + "n_envs: 0\n", "n_envs must be at least 1"),
        (BASE + "hyperparameters: {gamma: 1.5}\n", r"gamma must be in \(0, 1\]"),
        (BASE + "learner_seat: 5\n", "learner_seat must be 'random' or 0..1"),
        (BASE + "opponents: {grandmaster: 1}\n", "opponents 'grandmaster': no agent 'grandmaster'"),
        (BASE + "evaluation: {opponents: [grandmaster]}\n", "evaluation 'grandmaster': no agent 'grandmaster'"),
        (BASE + "policy: {activation: sigmoid}\n", "activation must be one of 'tanh', 'relu'"),
        (BASE + "policy: {net_arch: 64}\n", "net_arch must be a list"),
        ("env: {name: chess_v0}\nalgorithm: ppo\ntotal_timesteps: 10\n", "unknown environment 'chess_v0'"),
        ("env: {name: dino_hunt_v0, kwargs: {target: 3}}\nalgorithm: ppo\ntotal_timesteps: 10\n", "unknown parameter"),
        ("env: {name: dino_hunt_v0}\nalgorithm: a2c\ntotal_timesteps: 10\n", "algorithm must be one of ppo, dqn"),
        ("env: {name: dino_hunt_v0}\nalgorithm: ppo\n", "missing required key 'total_timesteps'"),
        ("- just a list\n", "mapping"),
        ("env: [unclosed\n", "not valid YAML"),
    ],
)
def test_bad_configs_get_a_clear_error(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config(write(tmp_path, text))


def test_overrides_reach_nested_keys_and_are_validated(tmp_path: Path) -> None:
    path = write(tmp_path, BASE)
    config = load_config(
        path,
        ["hyperparameters.n_steps=128", "opponents.self=0.5", "policy.net_arch=[32, 16]", "env.kwargs.target_score=10", "learner_seat=1"],
    )
    assert config.hyperparameters.n_steps == 128
    assert config.opponents == {"self": 0.5}  # the file has no opponents: the override is all of them
    assert config.policy.net_arch == [32, 16]
    assert config.env.kwargs == {"target_score": 10}
    assert config.learner_seat == 1
    with pytest.raises(ConfigError, match=r"unknown key 'hyperparameters\.n_step'"):
        load_config(path, ["hyperparameters.n_step=128"])
    with pytest.raises(ConfigError, match="KEY=VALUE"):
        load_config(path, ["hyperparameters.n_steps"])
    with pytest.raises(ConfigError, match="no config file"):
        load_config(tmp_path / "missing.yaml")


def test_resolved_config_round_trips(tmp_path: Path) -> None:
    config = config_from_dict(small_config("dalek_dice_v0", "dqn"))
    assert isinstance(config.hyperparameters, DQNHyperparameters)
    save_config(config, tmp_path / "config.yaml")
    assert load_config(tmp_path / "config.yaml") == config


def test_command_line_reports_a_bad_key_without_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, BASE + "hyperparameters: {lerning_rate: 0.1}\n")
    with pytest.raises(SystemExit) as exit_info:
        main(["train", "--config", str(path)])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert "unknown key 'hyperparameters.lerning_rate'" in error and "Traceback" not in error
    with pytest.raises(SystemExit):
        main(["train"])
    assert "either --config" in capsys.readouterr().err


def numeric_keys(cls: type, prefix: str = "") -> list[tuple[str, type]]:
    """Every key of the schema ``cls`` that holds a number (dotted), and its number type (int or float)."""
    keys: list[tuple[str, type]] = []
    for name, hint in typing.get_type_hints(cls).items():
        options = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
        if dataclasses.is_dataclass(hint):
            keys += numeric_keys(hint, f"{prefix}{name}.")
        elif number := next((option for option in (float, int) if option in options), None):
            keys.append((f"{prefix}{name}", number))
    return keys


@pytest.mark.parametrize("algorithm", ["ppo", "dqn", "rllib_ppo", "expert_iteration"])
def test_no_number_of_any_key_may_be_infinite_nan_or_too_large(algorithm: str) -> None:
    """inf, -inf and nan wherever a config takes a number (a float key, an opponent's weight), and
    integers beyond 64 bits wherever it takes an integer: each one line naming the key."""
    schema = [*numeric_keys(TrainConfig), *numeric_keys(HYPERPARAMETERS[algorithm], "hyperparameters."), ("opponents.random", float)]
    skipped = other_backend_keys(algorithm)
    keys = [(key, number) for key, number in schema if key.split(".")[0] not in skipped and key != "hyperparameters"]
    assert len(keys) >= 20
    for key, number in keys:
        values = [".inf", "-.inf", ".nan", "1e400"] if number is float else [str(2**63), str(-(2**64))]
        for value in values:
            with pytest.raises(ConfigError) as error:
                load_config(f"dino_hunt/{algorithm}", [f"{key}={value}"])
            message = str(error.value)
            assert "\n" not in message and f" {key} must be " in message, (key, value, message)
