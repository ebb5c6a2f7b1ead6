"""Starting and resuming training runs: the algorithm picks the backend, imported only then
(``dice_envs.training.sb3.trainer`` for ``ppo`` and ``dqn``, ``dice_envs.training.rllib.trainer``
for ``rllib_ppo``, which needs Ray).

    result = start_run(load_config("dice_envs/configs/dino_hunt/ppo.yaml"))     # runs/dino_hunt_ppo-<time>/
    result = resume_run(Path("runs/dino_hunt_ppo-20261130-101500"))

What a run directory holds, and how checkpoints resume exactly: ``dice_envs.training.trainer``.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from dice_envs.training.config import ConfigError, TrainConfig, load_config, save_config
from dice_envs.training.trainer import LearnerPool, RunPaths, RunResult, Trainer, TrainingState, damaged_checkpoint, latest_checkpoint

if TYPE_CHECKING:
    from dice_envs.training.rllib.trainer import RLlibTrainer
    from dice_envs.training.sb3.trainer import SB3Trainer

RESUMABLE_KEYS = (
    "total_timesteps",
    "checkpoint_interval",
    "ray.num_env_runners",
    "ray.num_envs_per_env_runner",
    "ray.num_cpus_per_env_runner",
    "ray.num_cpus",
)
RESUMABLE_SECTIONS = ("evaluation.", "self_play.", "opponents.")
"""Keys that may change when a run resumes; the rest are baked into the saved model."""
RUN_FILES = frozenset({"checkpoints", "tensorboard", "metrics.json", "learning_curve.png", "evaluation.json", "evaluation.md"})
"""What a run writes in its directory besides ``config.yaml`` and its models (``model*.zip``)."""


# ------------------------------------------------------------ entry points
def start_run(
    config: TrainConfig,
    runs_root: Path = Path("runs"),
    run_dir: Path | None = None,
    progress: bool = True,
    ray_address: str | None = None,
) -> RunResult:
    """Train ``config`` from scratch in a new run directory, then evaluate the final model.
    ``ray_address``: the Ray cluster an ``rllib_ppo`` run joins (else ``RAY_ADDRESS``, else an
    embedded Ray).

    A start that fails (before training begins) leaves nothing behind: the directories it made
    are removed, one that existed (empty) before is left empty."""
    check_ray_address(config, ray_address)
    root = run_dir or _new_run_dir(runs_root, config.name)
    if root.exists() and any(root.iterdir()):
        raise ConfigError(f"run directory {str(root)!r} is not empty; resume it with --resume or choose another")
    created = [folder for folder in (root, *root.parents) if not folder.exists()]  # the run's, and runs/ if new
    paths = RunPaths(root)
    try:
        paths.checkpoints.mkdir(parents=True, exist_ok=True)
        save_config(config, paths.config)
        trainer = _fresh_trainer(config, paths, progress, ray_address)
    except BaseException:
        _clear_run_dir(paths)
        paths.config.unlink(missing_ok=True)
        for folder in created:
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
        raise
    return trainer.run()


def check_ray_address(config: TrainConfig, ray_address: str | None) -> None:
    if ray_address is not None and config.algorithm != "rllib_ppo":
        raise ConfigError(f"--address names a Ray cluster, which only algorithm rllib_ppo trains on (this config: {config.algorithm})")


def rllib_trainer_class() -> type[RLlibTrainer]:
    """``dice_envs.training.rllib.trainer.RLlibTrainer``, imported only for ``rllib_ppo`` runs: one clear line
    naming the extra where Ray is not installed."""
    from dice_envs.arena.ray_cluster import import_ray

    import_ray()
    from dice_envs.training.rllib.trainer import RLlibTrainer

    return RLlibTrainer


def _fresh_trainer(config: TrainConfig, paths: RunPaths, progress: bool, ray_address: str | None) -> Trainer:
    """A trainer for step 0 of ``config``: new environments, a new (or ``init_policy``) model."""
    if config.algorithm == "rllib_ppo":
        return rllib_trainer_class().fresh(config, paths, progress, ray_address)
    return sb3_trainer_class().fresh(config, paths, progress)


def sb3_trainer_class() -> type[SB3Trainer]:
    """``dice_envs.training.sb3.trainer.SB3Trainer``, imported only for the runs of its algorithms."""
    from dice_envs.training.sb3.trainer import SB3Trainer

    return SB3Trainer


def _clear_run_dir(paths: RunPaths) -> None:
    """Remove everything a run writes, except ``config.yaml`` (only the names a run uses: nothing else)."""
    for child in paths.root.iterdir() if paths.root.is_dir() else ():
        if child.name in RUN_FILES and child.is_dir():
            shutil.rmtree(child)
        elif child.name in RUN_FILES or (child.name.startswith("model") and child.suffix == ".zip"):
            child.unlink()


def resume_run(run_dir: Path, overrides: Sequence[str] = (), progress: bool = True, ray_address: str | None = None) -> RunResult:
    """Continue a run from its last checkpoint (``overrides`` may extend or re-schedule it); a run
    stopped before its first checkpoint starts over in its directory, from its ``config.yaml``.
    ``ray_address`` as in ``start_run``: a run may resume on another cluster than it started on."""
    paths = RunPaths(run_dir)
    if not paths.config.is_file():
        raise ConfigError(f"{str(run_dir)!r} is not a run directory (no config.yaml)")
    for override in overrides:
        key = override.partition("=")[0]
        if key not in RESUMABLE_KEYS and not key.startswith(RESUMABLE_SECTIONS):
            allowed = ", ".join([*RESUMABLE_KEYS, *(f"{section}*" for section in RESUMABLE_SECTIONS)])
            raise ConfigError(f"{key!r} cannot change when a run resumes (only {allowed}); start a new run")
    config = load_config(paths.config, overrides)
    check_ray_address(config, ray_address)
    checkpoint = latest_checkpoint(paths)
    if checkpoint is None:  # stopped before its first checkpoint: nothing to keep, so it starts over
        save_config(config, paths.config)
        _clear_run_dir(paths)
        paths.checkpoints.mkdir()
        return _fresh_trainer(config, paths, progress, ray_address).run()
    try:
        state = TrainingState(**json.loads((checkpoint / "state.json").read_text()))
        pool = LearnerPool.load(checkpoint / "pool")
    except (OSError, ValueError, TypeError) as error:
        raise damaged_checkpoint(checkpoint, error) from None
    save_config(config, paths.config)
    if config.algorithm == "rllib_ppo":
        return rllib_trainer_class().resumed(config, paths, checkpoint, state, pool, progress, ray_address).run()
    return sb3_trainer_class().resumed(config, paths, checkpoint, state, pool, progress).run()


def _new_run_dir(runs_root: Path, name: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    root, suffix = runs_root / f"{name}-{stamp}", 1
    while root.exists():
        suffix += 1
        root = runs_root / f"{name}-{stamp}-{suffix}"
    return root
