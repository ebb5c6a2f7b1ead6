"""Every bad input to the command line and to training ends in one clear line, never a traceback."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from dice_envs.agents.specs import models_directory
from dice_envs.cli import main
from dice_envs.training.config import ConfigError, config_from_dict, configs_directory, load_config
from dice_envs.training.runs import resume_run, start_run
from dice_envs.training.sb3.trainer import RunCallback
from dice_envs.training.trainer import TrainingInterrupted
from tests.training.conftest import small_config

ROOT = Path(__file__).resolve().parents[2]
PPO_CONFIG = configs_directory() / "dino_hunt" / "ppo.yaml"
MODEL = models_directory() / "dino_hunt_ppo.zip"


def cli_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The message of a command that fails as a usage error: exit status 2, the usage, then one
    ``dice-envs: error: ...`` line."""
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    lines = err.rstrip("\n").splitlines()
    assert "Traceback" not in err
    assert lines[-1].startswith("dice-envs: error: "), err
    assert all(line.startswith(("usage:", " ")) for line in lines[:-1]), err  # the rest is the usage
    return lines[-1].removeprefix("dice-envs: error: ")


def assert_one_line(error: BaseException) -> str:
    message = str(error)
    assert message and "\n" not in message, message
    return message


# ------------------------------------------------------------------- seeds
@pytest.mark.parametrize("seed", [-1, 2**32, 2**40])
def test_a_seed_outside_numpys_range_is_a_config_error(seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = tmp_path / "runs"
    message = cli_error(capsys, ["train", "--config", str(PPO_CONFIG), f"seed={seed}", "--runs-root", str(runs)])
    assert message == f"{PPO_CONFIG}: seed must be from 0 to 2**32 - 1 (NumPy's seed range), got {seed}"
    assert not runs.exists()


def test_the_seed_range_ends_at_numpys() -> None:
    assert load_config(PPO_CONFIG, ["seed=0"]).seed == 0
    assert load_config(PPO_CONFIG, [f"seed={2**32 - 1}"]).seed == 2**32 - 1


@pytest.mark.parametrize(
    "argv",
    [
        ["match", "dino_hunt_v0", "random", "random"],
        ["evaluate", "dino_hunt_v0", "random", "cup_counter"],
        ["tournament", "dino_hunt_v0", "random", "cup_counter"],
        ["play", "dino_hunt_v0"],
        ["demo"],
    ],
    ids=lambda argv: argv[0],
)
def test_a_negative_seed_on_the_command_line_is_a_usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([*argv, "--seed", "-1"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.rstrip("\n").splitlines()[-1] == f"dice-envs {argv[0]}: error: argument --seed: must be 0 or more, got -1"


# ----------------------------------------------------------- model files
@pytest.fixture(scope="module")
def bad_models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    """Files that are not saved models, each with what its error says about it."""
    folder = tmp_path_factory.mktemp("bad_models")
    data = MODEL.read_bytes()
    (folder / "half.zip").write_bytes(data[: len(data) // 2])
    damaged = bytearray(data)
    damaged[len(data) // 2] ^= 0xFF
    (folder / "damaged.zip").write_bytes(bytes(damaged))
    with zipfile.ZipFile(folder / "other.zip", "w") as archive:
        archive.writestr("notes.txt", "not a model")
    return {
        "yaml": (PPO_CONFIG, "is not a saved model"),
        "truncated": (folder / "half.zip", "is a truncated or corrupt model file: the zip archive is incomplete"),
        "damaged": (folder / "damaged.zip", "is a truncated or corrupt model file: "),
        "other_zip": (folder / "other.zip", "is not a saved Stable-Baselines3 model"),
    }


@pytest.mark.parametrize("kind", ["yaml", "truncated", "damaged", "other_zip"])
def test_a_file_that_is_not_a_model_is_named_wherever_a_model_goes(
    kind: str, bad_models: dict[str, tuple[Path, str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, says = bad_models[kind]
    expected = f"{str(path)!r} {says}"
    spec = f"model:{path}"
    out = tmp_path / "out"
    commands = [
        ["evaluate", "dino_hunt_v0", spec, "random", "--games", "1", "--out", str(out)],
        ["tournament", "dino_hunt_v0", "random", spec, "--games", "1", "--out", str(out)],
        ["match", "dino_hunt_v0", spec, "random", "--games", "1"],
        ["play", "dino_hunt_v0", "--opponent", spec],
        ["export", str(path), str(out / "policy.zip")],
        ["train", "--config", str(PPO_CONFIG), f"init_policy={path}", "--runs-root", str(tmp_path / "runs")],
    ]
    for argv in commands:
        assert expected in cli_error(capsys, argv), argv
    assert not out.exists() and not (tmp_path / "runs").exists()
    for key, overrides in [
        ("init_policy", {"init_policy": str(path)}),
        (f"opponents {spec!r}", {"opponents": {"random": 1.0, spec: 1.0}}),
        (f"evaluation {spec!r}", {"evaluation": {"opponents": ["random", spec]}}),
    ]:
        with pytest.raises(ConfigError) as error:
            config_from_dict(small_config("dino_hunt_v0", "ppo", **overrides))
        assert assert_one_line(error.value).startswith(f"config: {key}: {expected}")


# ---------------------------------------------------------- config files
def test_a_directory_given_as_config_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    configs = configs_directory()
    message = cli_error(capsys, ["train", "--config", str(configs)])
    assert message == f"{str(configs)!r} is a directory, not a YAML config file (e.g. my_config.yaml, or a shipped config by name: dino_hunt/ppo)"
    broken = tmp_path / "broken.yaml"
    broken.write_text("env: [unclosed\n")
    message = cli_error(capsys, ["train", "--config", str(broken)])
    assert message.startswith(f"{broken}: not valid YAML: expected ',' or ']'") and "(line 2, column 1)" in message


# ------------------------------------------------------ starts that fail
def test_a_failed_start_leaves_nothing_behind(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    runs = tmp_path / "runs"
    # a real saved model, for another network: found out only once the run's model is built
    argv = ["train", "--config", str(PPO_CONFIG), f"init_policy={MODEL}", "policy.net_arch=[8]", "--runs-root", str(runs)]
    message = cli_error(capsys, [*argv, "--no-progress"])
    assert message.startswith(f"init_policy {str(MODEL)!r} has another network than this config's policy section: ")
    assert not runs.exists(), "no run directory is left behind (nor the runs root it made)"
    # a run directory given that exists (empty) stays, empty
    chosen = tmp_path / "chosen"
    chosen.mkdir()
    cli_error(capsys, [*argv, "--run-dir", str(chosen), "--no-progress"])
    assert chosen.is_dir() and not any(chosen.iterdir())

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("dice_envs.training.sb3.trainer.build_model", interrupted)  # Ctrl-C while the run is set up
    with pytest.raises(KeyboardInterrupt):
        start_run(config_from_dict(small_config("dino_hunt_v0", "ppo")), run_dir=tmp_path / "stopped", progress=False)
    assert not (tmp_path / "stopped").exists()


class InterruptEarly(RunCallback):
    """Ctrl-C after 100 steps, long before the first checkpoint."""

    def _on_step(self) -> bool:
        if self.num_timesteps >= 100:
            raise KeyboardInterrupt
        return super()._on_step()


def test_a_run_stopped_before_its_first_checkpoint_resumes_by_starting_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = config_from_dict(small_config("dino_hunt_v0", "ppo", checkpoint_interval=100_000))
    run_dir = tmp_path / "run"
    monkeypatch.setattr("dice_envs.training.sb3.trainer.RunCallback", InterruptEarly)
    with pytest.raises(TrainingInterrupted) as interrupted:
        start_run(config, run_dir=run_dir, progress=False)
    monkeypatch.setattr("dice_envs.training.sb3.trainer.RunCallback", RunCallback)
    assert interrupted.value.checkpoint_step is None
    assert assert_one_line(interrupted.value) == f"interrupted; no checkpoint yet: `dice-envs train --resume {run_dir}` starts the run over"
    assert (run_dir / "metrics.json").is_file(), "the step-0 evaluation was written"
    # what a kill in the middle of the first checkpoint leaves: a staging directory, never swapped in
    (run_dir / "checkpoints" / "latest.tmp").mkdir(parents=True)
    (run_dir / "checkpoints" / "latest.tmp" / "model.zip").write_bytes(b"PK\x03\x04 cut short")
    (run_dir / "notes.txt").write_text("mine")  # not a file a run writes: left alone
    with pytest.raises(ConfigError, match="is not empty; resume it with --resume"):
        start_run(config, run_dir=run_dir, progress=False)

    main(["train", "--resume", str(run_dir), "--no-progress"])
    assert "learner" in capsys.readouterr().out
    metrics = json.loads((run_dir / "metrics.json").read_text())
    assert metrics["num_timesteps"] >= config.total_timesteps
    assert [record["step"] for record in metrics["evaluations"]] == [0, metrics["num_timesteps"]], "one run's metrics, from step 0"
    assert (run_dir / "model.zip").is_file() and not (run_dir / "checkpoints" / "latest.tmp").exists()
    assert (run_dir / "notes.txt").read_text() == "mine"


def test_a_damaged_checkpoint_or_config_is_one_line_on_resume(tmp_path: Path) -> None:
    run_dir = start_run(config_from_dict(small_config("dino_hunt_v0", "ppo")), run_dir=tmp_path / "run", progress=False).run_dir
    latest = run_dir / "checkpoints" / "latest"
    model = (latest / "model.zip").read_bytes()
    (latest / "model.zip").write_bytes(model[: len(model) // 2])
    with pytest.raises(ConfigError) as damaged:
        resume_run(run_dir, progress=False)
    assert assert_one_line(damaged.value).startswith(f"the checkpoint {str(latest)!r} is damaged (")
    (latest / "model.zip").write_bytes(model)
    (latest / "state.json").write_text('{"num_timesteps": ')
    with pytest.raises(ConfigError, match=r"is damaged \(state\.json: JSONDecodeError: "):
        resume_run(run_dir, progress=False)
    (run_dir / "config.yaml").write_text("env: [unclosed\n")
    with pytest.raises(ConfigError, match=r"config.yaml: not valid YAML"):
        resume_run(run_dir, progress=False)
