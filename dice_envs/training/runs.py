"""Starting and resuming training runs: the algorithm picks the backend, imported only then
(``dice_envs.training.sb3.trainer`` for ``ppo`` and ``dqn``, ``dice_envs.training.rllib.trainer``
for ``rllib_ppo``, which needs Ray, ``dice_envs.training.expert_iteration.trainer`` for
``expert_iteration``, whose games may be played as Ray tasks: ``play_parts_with``).

    result = start_run(load_config("dice_envs/configs/dino_hunt/ppo.yaml"))     # runs/dino_hunt_ppo-<time>/
    result = resume_run(Path("runs/dino_hunt_ppo-20261130-101500"))

What a run directory holds, and how checkpoints resume exactly: ``dice_envs.training.trainer``.
Both hold the run directory's lock (``dice_envs.training.run_lock``) while they run, and change
nothing there when they fail before training: a resume reads and checks everything first
(``dice_envs.training.checkpoints``).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from dice_envs.arena.parallel import PartsPlayer
from dice_envs.training.checkpoints import read_checkpoint
from dice_envs.training.config import ConfigError, TrainConfig, load_config, save_config
from dice_envs.training.run_lock import LOCK_FILE, run_lock
from dice_envs.training.trainer import LearnerPool, RunPaths, RunResult, Trainer, TrainingState, latest_checkpoint

if TYPE_CHECKING:
    from dice_envs.training.expert_iteration.trainer import ExpertIterationTrainer
    from dice_envs.training.rllib.trainer import RLlibTrainer
    from dice_envs.training.sb3.trainer import SB3Trainer

RESUMABLE_KEYS = (
    "total_timesteps",
    "checkpoint_interval",
    "ray.num_env_runners",
    "ray.num_envs_per_env_runner",
    "ray.num_cpus_per_env_runner",
    "ray.num_cpus",
    "hyperparameters.workers",
    "hyperparameters.ladder_games",
)
RESUMABLE_SECTIONS = ("evaluation.", "self_play.", "opponents.")
"""Keys that may change when a run resumes; the rest are baked into the saved model (an
``expert_iteration`` run's games are the same on any number of workers)."""
RUN_FILES = frozenset({"checkpoints", "tensorboard", "metrics.json", "learning_curve.png", "rating_curve.png", "evaluation.json", "evaluation.md"})
"""What a run writes in its directory besides ``config.yaml`` and its models (``model*.zip``)."""


# ------------------------------------------------------------ entry points
def start_run(
    config: TrainConfig,
    runs_root: Path = Path("runs"),
    run_dir: Path | None = None,
    progress: bool = True,
    ray_address: str | None = None,
    play_parts_with: PartsPlayer | None = None,
) -> RunResult:
    """Train ``config`` from scratch in a new run directory, then evaluate the final model.
    ``ray_address``: the Ray cluster an ``rllib_ppo`` run joins (else ``RAY_ADDRESS``, else an
    embedded Ray); ``play_parts_with``: where an ``expert_iteration`` run plays its games
    (``dice_envs.arena.ray.play_parts_on_ray``; default this machine's ``workers`` processes).

    A start that fails (before training begins) leaves nothing behind: the directories it made
    are removed, one that existed (empty) before is left empty."""
    check_ray_address(config, ray_address)
    check_parts_player(config, play_parts_with)
    root = run_dir or _new_run_dir(runs_root, config.name)
    _require_empty(root)
    created = [folder for folder in (root, *root.parents) if not folder.exists()]  # the run's, and runs/ if new
    try:
        _make_directory(root)
        with run_lock(root):
            _require_empty(root)  # another start may have filled it before this one held the lock
            return _set_up(config, RunPaths(root), progress, ray_address, play_parts_with).run()
    finally:
        for folder in created:  # those a failed set-up leaves empty
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()


def _make_directory(root: Path) -> None:
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as error:  # a file in the way, say
        raise ConfigError(f"cannot make run directory {str(root)!r}: {error.strerror}") from None


def _require_empty(root: Path) -> None:
    if root.exists() and not root.is_dir():
        raise ConfigError(f"run directory {str(root)!r} is a file, not a directory")
    if root.exists() and any(child.name != LOCK_FILE for child in root.iterdir()):
        raise ConfigError(f"run directory {str(root)!r} is not empty; resume it with --resume or choose another")


def _set_up(config: TrainConfig, paths: RunPaths, progress: bool, ray_address: str | None, play_parts_with: PartsPlayer | None) -> Trainer:
    """The run's ``config.yaml`` and ``checkpoints/``, and its trainer at step 0; nothing of them if that fails."""
    try:
        paths.checkpoints.mkdir(exist_ok=True)
        save_config(config, paths.config)
        return _fresh_trainer(config, paths, progress, ray_address, play_parts_with)
    except BaseException:
        _clear_run_dir(paths)
        paths.config.unlink(missing_ok=True)
        raise


def check_ray_address(config: TrainConfig, ray_address: str | None) -> None:
    if ray_address is not None and config.algorithm != "rllib_ppo":
        raise ConfigError(
            f"--address names a Ray cluster, which only algorithm rllib_ppo trains on, or expert_iteration with --ray (this config: {config.algorithm})"
        )


def check_parts_player(config: TrainConfig, play_parts_with: PartsPlayer | None) -> None:
    if play_parts_with is not None:
        require_games_on_ray(config)


def require_games_on_ray(config: TrainConfig) -> None:
    """``--ray`` is for an ``expert_iteration`` run's games; anything else is one clear line."""
    if config.algorithm != "expert_iteration":
        raise ConfigError(f"--ray plays the games of algorithm expert_iteration on Ray (rllib_ppo runs on Ray itself: --address); this config: {config.algorithm}")


def rllib_trainer_class() -> type[RLlibTrainer]:
    """``dice_envs.training.rllib.trainer.RLlibTrainer``, imported only for ``rllib_ppo`` runs: one clear line
    naming the extra where Ray is not installed."""
    from dice_envs.arena.ray_cluster import import_ray

    import_ray()
    from dice_envs.training.rllib.trainer import RLlibTrainer

    return RLlibTrainer


def _fresh_trainer(config: TrainConfig, paths: RunPaths, progress: bool, ray_address: str | None, play_parts_with: PartsPlayer | None) -> Trainer:
    """A trainer for step 0 of ``config``: new environments, a new (or ``init_policy``) model."""
    if config.algorithm == "rllib_ppo":
        return rllib_trainer_class().fresh(config, paths, progress, ray_address)
    if config.algorithm == "expert_iteration":
        return expert_iteration_trainer_class().fresh(config, paths, progress, play_parts_with)
    return sb3_trainer_class().fresh(config, paths, progress)


def sb3_trainer_class() -> type[SB3Trainer]:
    """``dice_envs.training.sb3.trainer.SB3Trainer``, imported only for the runs of its algorithms."""
    from dice_envs.training.sb3.trainer import SB3Trainer

    return SB3Trainer


def expert_iteration_trainer_class() -> type[ExpertIterationTrainer]:
    """``dice_envs.training.expert_iteration.trainer.ExpertIterationTrainer``, imported only for its runs."""
    from dice_envs.training.expert_iteration.trainer import ExpertIterationTrainer

    return ExpertIterationTrainer


def _clear_run_dir(paths: RunPaths) -> None:
    """Remove everything a run writes, except ``config.yaml`` (only the names a run uses: nothing else)."""
    for child in paths.root.iterdir() if paths.root.is_dir() else ():
        if child.name in RUN_FILES and child.is_dir():
            shutil.rmtree(child)
        elif child.name in RUN_FILES or (child.name.startswith("model") and child.suffix == ".zip"):
            child.unlink()


def resume_run(
    run_dir: Path, overrides: Sequence[str] = (), progress: bool = True, ray_address: str | None = None, play_parts_with: PartsPlayer | None = None
) -> RunResult:
    """Continue a run from its last checkpoint (``overrides`` may extend or re-schedule it); a run
    stopped before its first checkpoint starts over in its directory, from its ``config.yaml``.
    ``ray_address`` and ``play_parts_with`` as in ``start_run``: a run may resume on another
    cluster than it started on.

    Everything is read and checked (the config, every file of the checkpoint) before anything in
    the directory changes: a resume refused leaves the run as it was."""
    paths = RunPaths(run_dir)
    if not paths.config.is_file():
        raise ConfigError(f"{str(run_dir)!r} is not a run directory (no config.yaml)")
    for override in overrides:
        key = override.partition("=")[0]
        if key not in RESUMABLE_KEYS and not key.startswith(RESUMABLE_SECTIONS):
            allowed = ", ".join([*RESUMABLE_KEYS, *(f"{section}*" for section in RESUMABLE_SECTIONS)])
            raise ConfigError(f"{key!r} cannot change when a run resumes (only {allowed}); start a new run")
    with run_lock(run_dir):
        config = load_config(paths.config, overrides)
        check_ray_address(config, ray_address)
        check_parts_player(config, play_parts_with)
        checkpoint = latest_checkpoint(paths)
        if checkpoint is None:
            trainer = _starting_over(config, paths, progress, ray_address, play_parts_with)
        else:
            state, pool = read_checkpoint(checkpoint, config)
            trainer = _resumed_trainer(config, paths, checkpoint, state, pool, progress, ray_address, play_parts_with)
            save_config(config, paths.config)
        return trainer.run()


def _starting_over(config: TrainConfig, paths: RunPaths, progress: bool, ray_address: str | None, play_parts_with: PartsPlayer | None) -> Trainer:
    """The trainer of a run stopped before its first checkpoint (nothing to keep), its directory
    cleared for it; a run without a checkpoint that was not such a run is refused."""
    if not paths.checkpoints.is_dir() or paths.model.exists():
        finished = f"; a new run can start from its final model with init_policy={paths.model}" if paths.model.exists() else ""
        raise ConfigError(
            f"nothing to resume from in {str(paths.root)!r}: no checkpoint in {str(paths.checkpoints)!r}{finished} "
            "(only a run stopped before its first checkpoint starts over)"
        )
    trainer = _fresh_trainer(config, paths, progress, ray_address, play_parts_with)
    try:
        save_config(config, paths.config)
        _clear_run_dir(paths)
        paths.checkpoints.mkdir()
    except BaseException:
        trainer.close()
        raise
    return trainer


def _resumed_trainer(
    config: TrainConfig,
    paths: RunPaths,
    checkpoint: Path,
    state: TrainingState,
    pool: LearnerPool,
    progress: bool,
    ray_address: str | None,
    play_parts_with: PartsPlayer | None,
) -> Trainer:
    if config.algorithm == "rllib_ppo":
        return rllib_trainer_class().resumed(config, paths, checkpoint, state, pool, progress, ray_address)
    if config.algorithm == "expert_iteration":
        return expert_iteration_trainer_class().resumed(config, paths, checkpoint, state, pool, progress, play_parts_with)
    return sb3_trainer_class().resumed(config, paths, checkpoint, state, pool, progress)


def _new_run_dir(runs_root: Path, name: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    root, suffix = runs_root / f"{name}-{stamp}", 1
    while root.exists():
        suffix += 1
        root = runs_root / f"{name}-{stamp}-{suffix}"
    return root
