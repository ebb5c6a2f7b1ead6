"""``dice-envs tournament --ray``: the games as Ray tasks (``dice_envs.arena.ray``), on an embedded Ray
started by ``dice_envs.arena.ray_cluster``; and the clear lines for Ray missing or misused."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from dice_envs.agents.specs import models_directory
from dice_envs.arena.parallel import Part, split_games
from dice_envs.arena.ray_cluster import EMBEDDED_ENVIRONMENT, cluster_address, connect, ray_environment
from dice_envs.cli import main
from dice_envs.core.engine import ParameterError

AGENTS = ["random", "two_footprints", "cup_counter"]


@pytest.fixture(scope="module")
def ray() -> Iterator[ModuleType]:
    """An embedded Ray of two CPUs, as ``--ray`` starts it, shut down after this module's tests, and
    the environment variables ``connect`` set undone."""
    ray = pytest.importorskip("ray")
    environment = dict(os.environ)
    os.environ.pop("RAY_ADDRESS", None)
    connect(None, num_cpus=2)
    try:
        yield ray
    finally:
        ray.shutdown()
        os.environ.clear()
        os.environ.update(environment)


def tournament(out: Path, *options: str) -> dict[str, bytes]:
    """Every file ``dice-envs tournament`` writes (results, game logs and replays), by name."""
    main(["tournament", "dino_hunt_v0", *AGENTS, "--games", "40", "--workers", "2", "--out", str(out), "--save-games", str(out / "games"), *options])
    return {str(path.relative_to(out)): path.read_bytes() for path in sorted(out.rglob("*")) if path.is_file()}


def test_a_tournament_on_ray_is_the_local_one(ray: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert {node["NodeManagerAddress"] for node in ray.nodes()} == {"127.0.0.1"}  # loopback only
    local = tournament(tmp_path / "local")
    local_out = capsys.readouterr().out
    on_ray = tournament(tmp_path / "ray", "--ray")
    assert capsys.readouterr().out == local_out.replace(str(tmp_path / "local"), str(tmp_path / "ray"))
    assert len([name for name in local if name.endswith(".json")]) == 1 + 3 * 2  # the results, two games per pairing
    assert on_ray == local  # pairings, standings, Elo, every saved game: byte for byte


def test_parts_run_as_ray_tasks_and_come_back_in_order(ray: ModuleType) -> None:
    from dice_envs.arena.ray import play_parts_on_ray

    parts = [Part("dino_hunt_v0", lambda env, offset: [], first, count, number) for number, (first, count) in enumerate(split_games(5, 5))]
    played = list(play_parts_on_ray(parts, lambda part: (part.number, os.getpid())))
    assert [number for number, _ in played] == [0, 1, 2, 3, 4]
    assert os.getpid() not in {process for _, process in played}


def test_a_bad_spec_found_in_a_task_is_one_line(ray: ModuleType) -> None:
    from dice_envs.arena.ray import play_parts_on_ray

    def missing_model(part: Part) -> None:
        raise ParameterError("no model file models/missing.zip")

    parts = [Part("dino_hunt_v0", lambda env, offset: [], 0, 1, 0)]
    with pytest.raises(ParameterError, match=r"^no model file models/missing.zip$") as raised:
        list(play_parts_on_ray(parts, missing_model))
    assert type(raised.value) is ParameterError  # itself, not Ray's wrapper with a remote traceback


def test_a_model_is_found_from_another_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ray task may run elsewhere on the machine: the entrant loads a relative ``model:PATH`` from
    where the command was given."""
    import dice_envs
    from dice_envs.arena.tournament import entrant_from_spec

    model = models_directory() / "dino_hunt_ppo.zip"
    monkeypatch.chdir(model.parent)
    entrant = entrant_from_spec("dino_hunt_v0", "model:dino_hunt_ppo.zip")
    monkeypatch.chdir(tmp_path)
    assert entrant.spec == "model:dino_hunt_ppo.zip" and entrant.label == "dino_hunt_ppo"  # as named on the command line
    assert entrant.build(dice_envs.make("dino_hunt_v0"), 0).label == "dino_hunt_ppo"


def test_ray_missing_or_misused_is_one_clear_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as if it were not installed
    for options, message in (
        (["--ray"], "Ray is not installed: pip install 'dice-envs[rllib]'"),
        (["--address", "127.0.0.1:6379"], "--address needs --ray"),
    ):
        with pytest.raises(SystemExit):
            main(["tournament", "dino_hunt_v0", "random", "cup_counter", "--games", "2", *options])
        assert message in capsys.readouterr().err
    with pytest.raises(ParameterError, match="num_cpus must be a whole number"):
        connect(None, 0)


def test_the_address_comes_from_ray_address_when_not_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.5:6379")
    assert cluster_address(None) == "10.0.0.5:6379"
    assert cluster_address("auto") == "auto"
    monkeypatch.setenv("RAY_ADDRESS", "")
    assert cluster_address(None) is None
    assert set(EMBEDDED_ENVIRONMENT) <= set(ray_environment(embedded=True))
    assert "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER" not in ray_environment(embedded=False)  # a cluster's nodes are not on loopback
