"""``dice-envs train --ray``: an expert-iteration run's games as Ray tasks on an embedded Ray (the
fixture of ``test_ray_games``), with the same data and the same network as on local workers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from dice_envs.cli import main
from dice_envs.training.config import config_from_dict
from tests.training.test_expert_iteration import fresh_network, small_config, weights
from tests.training.test_ray_games import ray  # noqa: F401 - the embedded Ray, started once for this module

pytestmark = pytest.mark.usefixtures("ray")


def test_a_generation_on_ray_is_the_local_one() -> None:
    from dice_envs.arena.ray import play_parts_on_ray
    from dice_envs.training.expert_iteration.selfplay import collect, generation_parts

    config = config_from_dict(small_config("dino_hunt_v0"))
    network = fresh_network(config)
    parts = generation_parts(config, 0, network, [network])
    local, on_ray = collect(parts, 1), collect(parts, 2, play_parts_on_ray)
    assert local[1:] == on_ray[1:]
    assert all(np.array_equal(a, b) for a, b in zip(local[0]._arrays(), on_ray[0]._arrays()))


def test_train_with_ray_trains_the_network_local_workers_train(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "expert_iteration.yaml"
    config.write_text(yaml.safe_dump({**small_config("dino_hunt_v0"), "hyperparameters": {**small_config()["hyperparameters"], "workers": 2}}))
    for name, options in (("local", []), ("ray", ["--ray"])):
        main(["train", "--config", str(config), "--run-dir", str(tmp_path / name), "--no-progress", *options])
    capsys.readouterr()
    local, on_ray = weights(tmp_path / "local" / "model.zip"), weights(tmp_path / "ray" / "model.zip")
    assert all(np.array_equal(local[name], on_ray[name]) for name in local)


def test_ray_is_for_expert_iteration_alone(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["train", "--config", "dino_hunt/ppo", "--ray"])
    assert "--ray plays the games of algorithm expert_iteration on Ray" in capsys.readouterr().err
