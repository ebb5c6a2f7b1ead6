"""Training runs: every algorithm on every game, save and load, run directory, resume after an interruption."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import dice_envs
from dice_envs.agents.learned import PolicyAgent, load_policy
from dice_envs.cli import main
from dice_envs.training.config import ConfigError, config_from_dict
from dice_envs.training.runs import resume_run, start_run
from dice_envs.training.sb3.trainer import RunCallback
from dice_envs.training.trainer import TrainingInterrupted
from tests.training.conftest import ALGORITHMS, ENV_NAMES, small_config


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_trains_saves_and_loads_on_every_game(env_name: str, algorithm: str, tmp_path: Path) -> None:
    config = config_from_dict(small_config(env_name, algorithm))
    result = start_run(config, run_dir=tmp_path / "run", progress=False)
    run = result.run_dir
    for name in ("config.yaml", "model.zip", "metrics.json", "learning_curve.png", "evaluation.json", "evaluation.md"):
        assert (run / name).is_file(), name
    assert (run / "checkpoints" / "latest" / "model.zip").is_file()
    assert (run / "checkpoints" / "latest" / "replay_buffer.pkl").is_file() == (algorithm == "dqn")
    assert any((run / "tensorboard").rglob("events.out.tfevents*"))
    metrics = json.loads((run / "metrics.json").read_text())
    assert metrics["num_timesteps"] >= config.total_timesteps
    assert metrics["final"]["random"]["games"] == 2
    assert metrics["evaluations"][0]["step"] == 0

    env = dice_envs.make(env_name, raw=True)  # raw: an illegal action raises
    agent = PolicyAgent(env, load_policy(run / "model.zip"))
    env.reset(seed=0)
    for _ in range(30):
        obs = env.observe(env.agent_selection)
        if not obs["action_mask"].any():
            break
        env.step(agent.act(obs["observation"], obs["action_mask"]))


class InterruptAt(RunCallback):
    """Presses Ctrl-C once training passes a step count."""

    interrupt_after = 0

    def _on_step(self) -> bool:
        if self.num_timesteps >= InterruptAt.interrupt_after:
            raise KeyboardInterrupt
        return super()._on_step()


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_resume_continues_from_the_checkpoint(algorithm: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = small_config(
        "dino_hunt_v0",
        algorithm,
        total_timesteps=512,
        opponents={"random": 1.0, "self": 1.0, "snapshot": 1.0},
        self_play={"snapshot_interval": 64, "sync_interval": 64, "pool_size": 2},
        evaluation={"interval": 128, "games": 2, "final_games": 2, "opponents": ["random"]},
    )
    config = config_from_dict(raw)
    run_dir = tmp_path / "run"
    InterruptAt.interrupt_after = 300
    monkeypatch.setattr("dice_envs.training.sb3.trainer.RunCallback", InterruptAt)
    with pytest.raises(TrainingInterrupted) as interrupted:
        start_run(config, run_dir=run_dir, progress=False)
    checkpoint_step = interrupted.value.checkpoint_step
    assert checkpoint_step is not None and 128 <= checkpoint_step < 300
    state = json.loads((run_dir / "checkpoints" / "latest" / "state.json").read_text())
    assert state["num_timesteps"] == checkpoint_step
    assert len(list((run_dir / "checkpoints" / "latest" / "pool").glob("snapshot_*.pt"))) == 2
    if algorithm == "dqn":
        assert (run_dir / "checkpoints" / "latest" / "replay_buffer.pkl").is_file()

    monkeypatch.setattr("dice_envs.training.sb3.trainer.RunCallback", RunCallback)
    first_steps: list[int] = []
    def record_start(self: RunCallback) -> None:
        first_steps.append(self.model.num_timesteps)

    monkeypatch.setattr(RunCallback, "_on_training_start", record_start)
    result = resume_run(run_dir, progress=False)
    assert first_steps == [checkpoint_step], "training resumed at the checkpoint's step count"
    metrics = json.loads((result.run_dir / "metrics.json").read_text())
    assert metrics["num_timesteps"] >= 512
    steps = [record["step"] for record in metrics["evaluations"]]
    assert steps[0] == 0 and steps == sorted(set(steps)), "metrics continue from the checkpoint's, nothing twice"
    assert (run_dir / "checkpoints" / f"model_{metrics['num_timesteps']:09d}.zip").is_file()


def test_resume_from_the_command_line_and_what_it_may_change(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = start_run(config_from_dict(small_config("dino_hunt_v0", "ppo")), run_dir=tmp_path / "run", progress=False)
    with pytest.raises(ConfigError, match="cannot change when a run resumes"):
        resume_run(result.run_dir, ["hyperparameters.learning_rate=0.1"], progress=False)
    with pytest.raises(ConfigError, match="not a run directory"):
        resume_run(tmp_path / "elsewhere", progress=False)
    main(["train", "--resume", str(result.run_dir), "--no-progress", "total_timesteps=384"])
    assert "learner" in capsys.readouterr().out
    assert json.loads((result.run_dir / "metrics.json").read_text())["num_timesteps"] >= 384


def test_refuses_a_non_empty_run_directory(tmp_path: Path) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "something").write_text("x")
    with pytest.raises(ConfigError, match="not empty"):
        start_run(config_from_dict(small_config("dino_hunt_v0", "ppo")), run_dir=tmp_path / "run", progress=False)


def test_learning_curve_records_every_evaluation(tmp_path: Path) -> None:
    raw = small_config("dalek_dice_v0", "ppo", total_timesteps=384)
    raw["evaluation"] = {"interval": 128, "games": 4, "final_games": 4, "opponents": ["random", "protect_humans"]}
    result = start_run(config_from_dict(raw), run_dir=tmp_path / "run", progress=False)
    metrics = json.loads((result.run_dir / "metrics.json").read_text())
    assert [record["step"] for record in metrics["evaluations"]] == [0, 128, 256, 384]
    for record in metrics["evaluations"]:
        for baseline in ("random", "protect_humans"):
            low, high = record["vs"][baseline]["win_rate_ci95"]
            assert 0 <= low <= record["vs"][baseline]["win_rate"] <= high <= 1
    assert (result.run_dir / "learning_curve.png").stat().st_size > 10_000
