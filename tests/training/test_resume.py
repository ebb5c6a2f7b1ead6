"""Resuming a run: a resume refused changes nothing in the run directory; every value it reads is
checked first; one command at a time holds a run directory (its lock)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dice_envs.agents.learned import load_policy, policy_to_bytes
from dice_envs.agents.specs import models_directory
from dice_envs.training.config import ConfigError, config_from_dict
from dice_envs.training.runs import resume_run, start_run
from dice_envs.training.trainer import plot_learning_curve
from tests.training.conftest import small_config
from tests.training.test_bad_inputs import PPO_CONFIG, ROOT, assert_one_line, cli_error

STATE = Path("checkpoints/latest/state.json")
Edit = Callable[[Path], None]


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run of 256 steps (checkpoints at 128 and 256)."""
    run_dir = tmp_path_factory.mktemp("finished") / "run"
    start_run(config_from_dict(small_config("dino_hunt_v0", "ppo")), run_dir=run_dir, progress=False)
    return run_dir


@pytest.fixture
def run_dir(finished_run: Path, tmp_path: Path) -> Path:
    """A copy of the finished run, for a test to damage."""
    return Path(shutil.copytree(finished_run, tmp_path / "run"))


def contents(root: Path) -> dict[str, str]:
    """Every path under ``root``, with a digest of each file."""
    return {str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "dir" for path in sorted(root.rglob("*"))}


def refused(run_dir: Path, overrides: list[str] | None = None) -> str:
    """The one line a resume of ``run_dir`` is refused with; the directory is as it was."""
    before = contents(run_dir)
    with pytest.raises(ConfigError) as error:
        resume_run(run_dir, overrides or [], progress=False)
    assert contents(run_dir) == before, "a refused resume changes nothing"
    return assert_one_line(error.value)


# ------------------------------------------------------- nothing to resume
@pytest.mark.parametrize("removed", ["checkpoints", "checkpoints/latest"])
def test_a_finished_run_without_its_checkpoint_is_refused_not_restarted(removed: str, run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.rmtree(run_dir / removed)
    before = contents(run_dir)
    message = cli_error(capsys, ["train", "--resume", str(run_dir), "--no-progress", "total_timesteps=2048"])
    assert message.startswith(f"nothing to resume from in {str(run_dir)!r}: no checkpoint in "), message
    assert f"init_policy={run_dir / 'model.zip'}" in message
    assert contents(run_dir) == before, "model.zip, metrics and evaluations are kept"


# ------------------------------------------------------ checkpoint values
def edit_state(**changes: Any) -> Edit:
    def edit(run_dir: Path) -> None:
        state = json.loads((run_dir / STATE).read_text())
        state.update(changes)
        (run_dir / STATE).write_text(json.dumps(state))

    return edit


def drop_from_state(key: str) -> Edit:
    def edit(run_dir: Path) -> None:
        state = json.loads((run_dir / STATE).read_text())
        del state[key]
        (run_dir / STATE).write_text(json.dumps(state))

    return edit


def edit_first_evaluation(**changes: Any) -> Edit:
    def edit(run_dir: Path) -> None:
        state = json.loads((run_dir / STATE).read_text())
        state["evaluations"][0].update(changes)
        (run_dir / STATE).write_text(json.dumps(state))

    return edit


def edit_versus(**changes: Any) -> Edit:
    def edit(run_dir: Path) -> None:
        state = json.loads((run_dir / STATE).read_text())
        state["evaluations"][0]["vs"]["random"].update(changes)
        (run_dir / STATE).write_text(json.dumps(state))

    return edit


def write(path: str, text: str) -> Edit:
    return lambda run_dir: (run_dir / path).write_text(text)


def another_games_policy(run_dir: Path) -> None:
    dalek = load_policy(models_directory() / "dalek_dice_ppo.zip")
    (run_dir / "checkpoints/latest/pool/snapshot_000.pt").write_bytes(policy_to_bytes(dalek))


BAD_CHECKPOINTS: dict[str, tuple[Edit, str]] = {
    "num_timesteps text": (edit_state(num_timesteps="x"), 'state.json: num_timesteps must be an integer of at least 0, got "x"'),
    "num_timesteps negative": (edit_state(num_timesteps=-5), "state.json: num_timesteps must be an integer of at least 0, got -5"),
    "num_timesteps true": (edit_state(num_timesteps=True), "state.json: num_timesteps must be an integer of at least 0, got true"),
    "elapsed nan": (edit_state(elapsed_s=float("nan")), "state.json: elapsed_s must be a finite number of seconds, at least 0, got nan"),
    "next_sync float": (edit_state(next_sync=1.5), "state.json: next_sync must be an integer of at least 0, got 1.5"),
    "wins": (edit_state(wins=100), "state.json: wins must not exceed episodes"),
    "evaluations null": (edit_state(evaluations=None), "state.json: evaluations must be a list of evaluation records, got null"),
    "missing key": (drop_from_state("episodes"), "state.json: the state lacks the key 'episodes'"),
    "unknown key": (edit_state(extra=1), "state.json: the state has an unknown key 'extra'"),
    "not an object": (write(str(STATE), "[1, 2]"), "state.json: must be an object with the keys "),
    "cut short": (write(str(STATE), '{"num_timesteps": '), "state.json: JSONDecodeError: "),
    "evaluation step": (edit_first_evaluation(step=999), "state.json: evaluations[0].step must be from 0 (the record before) to num_timesteps (256), got 999"),
    "evaluation time": (edit_first_evaluation(elapsed_s=-1), "state.json: evaluations[0].elapsed_s must be a finite number of seconds"),
    "win rate": (edit_versus(win_rate=2), "state.json: evaluations[0].vs.random.win_rate must be a number from 0 to 1, got 2"),
    "interval": (edit_versus(win_rate_ci95=[0.9, 0.1]), "state.json: evaluations[0].vs.random.win_rate_ci95 must be [low, high] with low <= high"),
    "games": (edit_versus(games=0), "state.json: evaluations[0].vs.random.games must be an integer of at least 1, got 0"),
    "num_timesteps not the model's": (edit_state(num_timesteps=300), "model.zip was saved at step 256, state.json says num_timesteps 300"),
    "pool current": (write("checkpoints/latest/pool/current.pt", "not a policy"), "pool/current.pt: not a policy for this game: "),
    "pool snapshot": (write("checkpoints/latest/pool/snapshot_000.pt", "not a policy"), "pool/snapshot_000.pt: not a policy for this game: "),
    "pool of another game": (
        another_games_policy,
        "pool/snapshot_000.pt: not a policy for this game: ParameterError: model 'snapshot_000.pt' expects observations",
    ),
    "no snapshot": (lambda run_dir: (run_dir / "checkpoints/latest/pool/snapshot_000.pt").unlink(), "pool: no snapshot_*.pt"),
}


@pytest.mark.parametrize("case", list(BAD_CHECKPOINTS))
def test_every_value_of_a_checkpoint_is_checked_before_a_resume_acts(case: str, run_dir: Path) -> None:
    edit, says = BAD_CHECKPOINTS[case]
    edit(run_dir)
    message = refused(run_dir, ["total_timesteps=512"])
    latest = run_dir / "checkpoints" / "latest"
    assert message.startswith(f"the checkpoint {str(latest)!r} is damaged ({says}"), message


def test_a_step_count_beyond_the_total_is_refused(run_dir: Path) -> None:
    """256 steps trained: a total of 1 (or a state.json claiming 10**9 steps) is no run to continue."""
    state = run_dir / STATE
    expected = f"{str(state)!r}: num_timesteps 256 is beyond the run's total_timesteps (1, plus at most one update of 128 steps); "
    assert refused(run_dir, ["total_timesteps=1"]) == f"{expected}to resume it, give total_timesteps=256 or more"
    edit_state(num_timesteps=10**9)(run_dir)
    assert refused(run_dir).startswith(f"{str(state)!r}: num_timesteps 1000000000 is beyond the run's total_timesteps (256, ")


def test_a_damaged_model_leaves_the_config_as_it_was(run_dir: Path) -> None:
    model = run_dir / "checkpoints" / "latest" / "model.zip"
    model.write_bytes(model.read_bytes()[:500])
    assert "is damaged (BadZipFile: " in refused(run_dir, ["total_timesteps=512"])  # config.yaml not rewritten


# ---------------------------------------------------------------- the lock
HOLD_LOCK = """
import sys, time
from pathlib import Path
from dice_envs.training.run_lock import run_lock
with run_lock(Path(sys.argv[1])):
    print("locked", flush=True)
    time.sleep(60)
"""


def test_a_second_command_on_a_run_directory_is_refused_and_a_killed_holders_lock_taken_over(run_dir: Path, tmp_path: Path) -> None:
    from dice_envs.training.run_lock import LOCK_FILE, RunDirectoryBusy, run_lock

    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(run_dir)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        with pytest.raises(RunDirectoryBusy) as busy:
            resume_run(run_dir, ["total_timesteps=512"], progress=False)
        held = f"pid {holder.pid} on host {socket.gethostname()}"
        assert assert_one_line(busy.value) == (
            f"run directory {str(run_dir)!r} is in use by another dice-envs train ({held}, lock {LOCK_FILE}); wait for it to finish or stop it"
        )
    finally:
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait()
    lock = run_dir / LOCK_FILE
    assert lock.read_text() == f"{held}\n", "a killed holder leaves its lock file"
    with run_lock(run_dir):  # the kernel released its flock: taken over
        assert lock.read_text() == f"pid {os.getpid()} on host {socket.gethostname()}\n"
    assert not lock.exists(), "the lock file goes with its holder"
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    with run_lock(fresh), pytest.raises(RunDirectoryBusy):  # another start setting it up
        start_run(config_from_dict(small_config("dino_hunt_v0", "ppo")), run_dir=fresh, progress=False)
    assert not any(fresh.iterdir())


# ------------------------------------------------------------ new runs
def test_a_start_refused_for_an_opponent_of_another_game_makes_no_run_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = tmp_path / "runs"
    dalek_model = models_directory() / "dalek_dice_ppo.zip"
    for override in ["opponents={'model:dalek_dice_ppo': 1.0}", "evaluation.opponents=[random, 'model:dalek_dice_ppo']", f"init_policy={dalek_model}"]:
        message = cli_error(capsys, ["train", "--config", str(PPO_CONFIG), override, "--runs-root", str(runs), "--no-progress"])
        assert "expects observations of shape (27,) and 6 actions; dino_hunt_v0 with 2 players has (25,)" in message
        assert not runs.exists()


def test_the_learning_curve_draws_baselines_that_a_resume_changed(tmp_path: Path) -> None:
    """``evaluation.opponents`` may change on resume: each baseline is drawn where it was evaluated."""

    def record(step: int, *baselines: str) -> dict[str, Any]:
        results = {"win_rate": 0.5, "win_rate_ci95": [0.2, 0.8], "opponent_win_rate": 0.5, "games": 4}
        return {"step": step, "elapsed_s": 0.0, "training_win_rate": None, "vs": dict.fromkeys(baselines, results)}

    path = tmp_path / "curve.png"
    plot_learning_curve([record(0, "random"), record(128, "random", "cup_counter"), record(256, "cup_counter")], path, "test", 2)
    assert path.stat().st_size > 0


def test_a_file_where_the_run_directory_goes_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    in_the_way = tmp_path / "file"
    in_the_way.write_text("mine")
    argv = ["train", "--config", str(PPO_CONFIG), "--no-progress", "--run-dir"]
    assert cli_error(capsys, [*argv, str(in_the_way)]) == f"run directory {str(in_the_way)!r} is a file, not a directory"
    assert cli_error(capsys, [*argv, str(in_the_way / "run")]) == f"cannot make run directory {str(in_the_way / 'run')!r}: Not a directory"
    assert in_the_way.read_text() == "mine"


def test_resume_with_a_run_dir_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    message = cli_error(capsys, ["train", "--resume", str(tmp_path / "run"), "--run-dir", str(tmp_path / "other"), "--no-progress"])
    assert message == "--run-dir names a new run's directory; --resume RUN_DIR continues the run in RUN_DIR"
    assert not (tmp_path / "other").exists()


def test_a_finished_run_resumed_longer_evaluates_each_step_once(tmp_path: Path) -> None:
    """The final evaluation (at 256, between scheduled ones) is not repeated when training goes on from there."""
    raw = small_config("dino_hunt_v0", "ppo", evaluation={"interval": 128, "games": 2, "final_games": 2, "opponents": ["random"]})
    run_dir = start_run(config_from_dict(raw), run_dir=tmp_path / "run", progress=False).run_dir
    resume_run(run_dir, ["total_timesteps=384"], progress=False)
    metrics = json.loads((run_dir / "metrics.json").read_text())
    assert [record["step"] for record in metrics["evaluations"]] == [0, 128, 256, 384]
