"""Training runs, with everything a run keeps: MaskablePPO or masked DQN on the single-agent view
(``SB3Trainer``), or multi-agent PPO on RLlib (``algorithm: rllib_ppo``, ``dice_envs.training.rllib.trainer``).

    result = start_run(load_config("dice_envs/configs/dino_hunt/ppo.yaml"))     # runs/dino_hunt_ppo-<time>/
    result = resume_run(Path("runs/dino_hunt_ppo-20261130-101500"))

A run directory holds::

    config.yaml          the resolved config (every key, defaults filled in)
    checkpoints/latest/  model.zip (with optimiser; rllib_ppo: algorithm/, RLlib's checkpoint),
                         replay_buffer.pkl (DQN), pool/ (self-play policies), state.json (step
                         count, schedule, metrics so far)
    checkpoints/model_<step>.zip   the model at every checkpoint
    tensorboard/         SB3's logs plus eval/win_rate_vs_<baseline>
    metrics.json         every evaluation so far, training win rate, time
    learning_curve.png   win rate against each baseline over training, with 95% intervals
    model.zip            the final model
    evaluation.json/.md  the final tournament: the learner against every baseline

Checkpoints are taken between rollouts (after an update, before the next collection), so a
resumed run continues from exactly the checkpoint's step count, weights, optimiser state,
replay buffer, self-play pool and metrics.  Episodes under way at the checkpoint are not kept:
the environments start new games on resume.
"""

from __future__ import annotations

import abc
import collections
import dataclasses
import functools
import json
import shutil
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib

matplotlib.use("Agg")  # files only: runs on machines without a display
import matplotlib.pyplot as plt
import torch as th
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from sb3_contrib import MaskablePPO
from stable_baselines3.common.base_class import BaseAlgorithm
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.off_policy_algorithm import OffPolicyAlgorithm
from stable_baselines3.common.utils import LinearSchedule
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecMonitor

from dice_envs.agents import Agent
from dice_envs.agents.learned import PolicyAgent, error_reason, load_policy, policy_to_bytes
from dice_envs.arena.tournament import Entrant, TournamentResult, entrant_from_spec, format_table, run_tournament, save_result
from dice_envs.core.aec import DiceGameEnv
from dice_envs.training.config import ConfigError, TrainConfig, load_config, save_config
from dice_envs.training.sb3.lockstep import LockstepVecEnv, VecScaleReward
from dice_envs.training.sb3.masked_dqn import MaskedDQN
from dice_envs.training.single_agent import SingleAgentEnv
from dice_envs.training.single_turn import SingleTurnEnv

if TYPE_CHECKING:
    from dice_envs.training.rllib.trainer import RLlibTrainer

ALGORITHM_CLASSES: dict[str, type[BaseAlgorithm]] = {"ppo": MaskablePPO, "dqn": MaskedDQN}
ACTIVATIONS = {"tanh": th.nn.Tanh, "relu": th.nn.ReLU}
LEARNER = "learner"
RECENT_EPISODES = 200
"""Training episodes behind the progress bar's live win rate."""
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
EVALUATION_SEED_OFFSET = 1
"""Periodic evaluations use seeds from ``seed + 1``; the final tournament from ``seed``."""


@dataclasses.dataclass(frozen=True)
class RunPaths:
    root: Path

    @property
    def config(self) -> Path:
        return self.root / "config.yaml"

    @property
    def checkpoints(self) -> Path:
        return self.root / "checkpoints"

    @property
    def latest(self) -> Path:
        return self.checkpoints / "latest"

    @property
    def tensorboard(self) -> Path:
        return self.root / "tensorboard"

    @property
    def metrics(self) -> Path:
        return self.root / "metrics.json"

    @property
    def learning_curve(self) -> Path:
        return self.root / "learning_curve.png"

    @property
    def model(self) -> Path:
        return self.root / "model.zip"


@dataclasses.dataclass
class TrainingState:
    """Everything besides the model and pool that a resumed run needs; saved as JSON."""

    num_timesteps: int = 0
    elapsed_s: float = 0.0
    next_evaluation: int = 0
    next_checkpoint: int = 0
    next_snapshot: int = 0
    next_sync: int = 0
    episodes: int = 0
    wins: int = 0
    evaluations: list[dict[str, Any]] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class RunResult:
    run_dir: Path
    evaluation: TournamentResult
    elapsed_s: float


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


def first_state(config: TrainConfig) -> TrainingState:
    """The schedule of a run at step 0."""
    return TrainingState(
        next_checkpoint=config.checkpoint_interval,
        next_snapshot=config.self_play.snapshot_interval,
        next_sync=config.self_play.sync_interval,
    )


def _fresh_trainer(config: TrainConfig, paths: RunPaths, progress: bool, ray_address: str | None) -> Trainer:
    """A trainer for step 0 of ``config``: new environments, a new (or ``init_policy``) model."""
    if config.algorithm == "rllib_ppo":
        return rllib_trainer_class().fresh(config, paths, progress, ray_address)
    th.set_num_threads(1)  # small networks: threads only contend with the environments
    env = make_training_env(config, config.seed)
    try:
        model = build_model(config, env, paths.tensorboard)
        if config.init_policy:
            load_initial_policy(model, config.init_policy)
        pool = LearnerPool(policy_to_bytes(model.policy), [policy_to_bytes(model.policy)])
        return SB3Trainer(config, paths, model, first_state(config), pool, progress, reset_num_timesteps=True)
    except BaseException:
        env.close()
        raise


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
    th.set_num_threads(1)
    env = make_training_env(config, config.seed + state.num_timesteps)  # new games, not the first ones again
    algorithm = ALGORITHM_CLASSES[config.algorithm]
    try:
        model = algorithm.load(checkpoint / "model.zip", env=env, device="cpu")
        if isinstance(model, OffPolicyAlgorithm):
            model.load_replay_buffer(checkpoint / "replay_buffer.pkl")
    except Exception as error:  # a zip or pickle cut short or damaged: whatever its reader raises
        env.close()
        raise damaged_checkpoint(checkpoint, error) from None
    model.tensorboard_log = str(paths.tensorboard)
    return SB3Trainer(config, paths, model, state, pool, progress, reset_num_timesteps=False).run()


def damaged_checkpoint(checkpoint: Path, error: BaseException) -> ConfigError:
    """The one line for a checkpoint that cannot be read back."""
    cause, reason = error_reason(error)
    return ConfigError(
        f"the checkpoint {str(checkpoint)!r} is damaged ({type(cause).__name__}: {reason}); "
        f"the models of earlier checkpoints are in {str(checkpoint.parent)!r}"
    )


def latest_checkpoint(paths: RunPaths) -> Path | None:
    """The last complete checkpoint (``latest``, or the one a crash left while replacing it)."""
    for candidate in (paths.latest, paths.checkpoints / "latest.old"):
        if (candidate / "state.json").is_file():
            return candidate
    return None


def _new_run_dir(runs_root: Path, name: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    root, suffix = runs_root / f"{name}-{stamp}", 1
    while root.exists():
        suffix += 1
        root = runs_root / f"{name}-{stamp}-{suffix}"
    return root


# ------------------------------------------------------------ construction
def make_training_env(config: TrainConfig, seed: int) -> VecEnv:
    """The config's ``n_envs`` learner seats, seeded from ``seed``.  Whole games in one process
    (``vec_env: dummy``) run in lockstep, their opponents asked together (``LockstepVecEnv``);
    single turns, and ``vec_env: subproc``, use Stable-Baselines3's own vectorisation.  The
    monitor sits inside the reward scale, so the logged returns stay unscaled."""
    if config.episode == "turn":
        env_kwargs = {"env_name": config.env.name, "env_kwargs": config.env.kwargs}
        vec_env_cls = SubprocVecEnv if config.vec_env == "subproc" else DummyVecEnv
        env = make_vec_env(SingleTurnEnv, n_envs=config.n_envs, seed=seed, env_kwargs=env_kwargs, vec_env_cls=vec_env_cls)
    else:
        env_kwargs = {
            "env_name": config.env.name,
            "env_kwargs": config.env.kwargs,
            "learner_seat": config.learner_seat,
            "opponents": config.opponents,
            "random_start_scores": config.random_start_scores,
        }
        if config.vec_env == "subproc":
            env = make_vec_env(SingleAgentEnv, n_envs=config.n_envs, seed=seed, env_kwargs=env_kwargs, vec_env_cls=SubprocVecEnv)
        else:
            env = VecMonitor(LockstepVecEnv([functools.partial(SingleAgentEnv, **env_kwargs) for _ in range(config.n_envs)]))
            env.seed(seed)
    return env if config.reward_scale == 1 else VecScaleReward(env, config.reward_scale)


def build_model(config: TrainConfig, env: VecEnv, tensorboard_dir: Path | None) -> BaseAlgorithm:
    policy_kwargs = {"net_arch": list(config.policy.net_arch), "activation_fn": ACTIVATIONS[config.policy.activation]}
    return ALGORITHM_CLASSES[config.algorithm](
        "MlpPolicy",
        env,
        policy_kwargs=policy_kwargs,
        seed=config.seed,
        device="cpu",
        tensorboard_log=str(tensorboard_dir) if tensorboard_dir else None,
        **algorithm_arguments(config),
    )


def algorithm_arguments(config: TrainConfig) -> dict[str, Any]:
    """The hyperparameters as the algorithm takes them (a schedule becomes a function of progress)."""
    arguments = dataclasses.asdict(config.hyperparameters)
    if arguments.pop("learning_rate_schedule") == "linear":
        arguments["learning_rate"] = LinearSchedule(arguments["learning_rate"], 0.0, 1.0)
    return arguments


def load_initial_policy(model: BaseAlgorithm, path: str) -> None:
    """Start ``model`` from the policy weights saved in ``path`` (``init_policy``)."""
    saved = load_policy(path)
    if type(saved) is not type(model.policy):
        raise ConfigError(f"init_policy {path!r} holds a {type(saved).__name__}; this config trains a {type(model.policy).__name__}")
    try:
        model.policy.load_state_dict(saved.state_dict())
    except RuntimeError as error:
        first_difference = str(error).splitlines()[1].strip()
        raise ConfigError(f"init_policy {path!r} has another network than this config's policy section: {first_difference}") from None


@dataclasses.dataclass
class LearnerPool:
    """The learner's policies that opponents may play: its current weights and frozen snapshots
    (``policy_agent.policy_to_bytes`` output, or ``seat_policies_to_bytes`` for one policy a seat)."""

    current: bytes
    snapshots: list[bytes]

    def save(self, directory: Path) -> None:
        directory.mkdir(parents=True)
        (directory / "current.pt").write_bytes(self.current)
        for index, blob in enumerate(self.snapshots):
            (directory / f"snapshot_{index:03d}.pt").write_bytes(blob)

    @classmethod
    def load(cls, directory: Path) -> LearnerPool:
        snapshots = [path.read_bytes() for path in sorted(directory.glob("snapshot_*.pt"))]
        return cls((directory / "current.pt").read_bytes(), snapshots)


# ------------------------------------------------------------------ the run
class Trainer(abc.ABC):
    """A run around a learning algorithm: its schedule (self-play pool, evaluations, checkpoints),
    its learning curve, metrics and final evaluation.  ``SB3Trainer`` learns with
    Stable-Baselines3, ``dice_envs.training.rllib.trainer.RLlibTrainer`` with RLlib; each says how to learn,
    how to play its learner and how to save it."""

    def __init__(self, config: TrainConfig, paths: RunPaths, state: TrainingState, pool: LearnerPool, progress: bool) -> None:
        self.config = config
        self.paths = paths
        self.state = state
        self.pool = pool
        self.console = Console(quiet=not progress)
        self.progress = progress
        self.recent: collections.deque[bool] = collections.deque(maxlen=RECENT_EPISODES)
        self.baselines = [entrant_from_spec(config.env.name, spec) for spec in config.baselines()]
        self.session_start = time.perf_counter()
        self.elapsed_before = state.elapsed_s

    # ------------------------------------------------ what a backend provides
    @abc.abstractmethod
    def learn(self, bar: Progress) -> None:
        """Train up to ``total_timesteps``, calling ``at_rollout_boundary`` between updates and
        ``record_episode`` for each training game; ``state.num_timesteps`` is the steps trained."""

    @abc.abstractmethod
    def learner_agent(self, env: DiceGameEnv, seed: int | None) -> Agent:
        """The learner as it stands, playing greedily (evaluations)."""

    @abc.abstractmethod
    def learner_blob(self) -> bytes:
        """The learner's weights for the self-play pool."""

    @abc.abstractmethod
    def push_pool(self) -> None:
        """Hand ``pool`` to the training environments (from their next games)."""

    @abc.abstractmethod
    def save_learner(self, directory: Path) -> None:
        """What resuming needs of the learner (weights, optimiser...), into a new checkpoint."""

    @abc.abstractmethod
    def save_model(self, path: Path) -> None:
        """The learner in the agent format (``model:PATH``) at ``path``."""

    @abc.abstractmethod
    def log_scalar(self, name: str, value: float, step: int) -> None:
        """One value for TensorBoard."""

    @abc.abstractmethod
    def close(self) -> None:
        """Release the environments (and workers)."""

    def run_facts(self) -> dict[str, Any]:
        """What ``metrics.json`` records of where the run ran, besides the common keys."""
        return {}

    # --------------------------------------------------------------- the run
    @property
    def elapsed_s(self) -> float:
        return self.elapsed_before + time.perf_counter() - self.session_start

    def run(self) -> RunResult:
        if self.config.uses_learner_opponents:
            self.push_pool()
        self.console.print(f"run directory: {self.paths.root}")
        try:
            with self._progress_bar() as bar:
                try:
                    self.learn(bar)
                except KeyboardInterrupt:
                    checkpoint = latest_checkpoint(self.paths)
                    step = json.loads((checkpoint / "state.json").read_text())["num_timesteps"] if checkpoint else None
                    raise TrainingInterrupted(self.paths.root, step) from None
            if not self.state.evaluations or self.state.evaluations[-1]["step"] != self.state.num_timesteps:
                self.evaluate(self.state.num_timesteps)  # the learning curve ends at the final model
            self.write_checkpoint()
            self.save_model(self.paths.model)
        finally:
            self.close()
        training_time = self.state.elapsed_s
        self.console.print(f"trained {self.state.num_timesteps} steps in {training_time:.0f} s; final evaluation...")
        evaluation = self.final_evaluation()
        self.write_metrics(final=evaluation, training_time_s=training_time)
        return RunResult(self.paths.root, evaluation, training_time)

    def _progress_bar(self) -> Progress:
        return Progress(
            TextColumn(f"[bold]{self.config.name}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[fps]:>5} steps/s"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            TextColumn("{task.fields[status]}"),
            console=self.console,
            disable=not self.progress,
        )

    def status(self) -> str:
        """The progress bar's last column: the live training win rate and the last evaluation."""
        parts = []
        if self.recent_win_rate is not None:
            parts.append(f"training win rate {self.recent_win_rate:.2f}")
        if self.state.evaluations:
            last = self.state.evaluations[-1]["vs"]
            parts.append("eval " + " ".join(f"{name} {values['win_rate']:.2f}" for name, values in last.items()))
        return " | ".join(parts)

    # ------------------------------------------------------------ schedule
    def at_rollout_boundary(self, num_timesteps: int) -> None:
        """Between an update and the next collection: the only moments the model can be saved and resumed exactly."""
        state, self_play = self.state, self.config.self_play
        state.num_timesteps = num_timesteps
        if self.config.uses_learner_opponents:
            changed = False
            if num_timesteps >= state.next_snapshot:
                self.pool.snapshots = [*self.pool.snapshots, self.learner_blob()][-self_play.pool_size :]
                state.next_snapshot = num_timesteps + self_play.snapshot_interval
                changed = True
            if num_timesteps >= state.next_sync or changed:
                self.pool.current = self.learner_blob()
                state.next_sync = num_timesteps + self_play.sync_interval
                self.push_pool()
        if num_timesteps >= state.next_evaluation:
            self.evaluate(num_timesteps)
            state.next_evaluation = num_timesteps + self.config.evaluation.interval
        if num_timesteps >= state.next_checkpoint:
            state.next_checkpoint = num_timesteps + self.config.checkpoint_interval
            self.write_checkpoint()

    def record_episode(self, won: bool) -> None:
        self.state.episodes += 1
        self.state.wins += won
        self.recent.append(won)

    @property
    def recent_win_rate(self) -> float | None:
        return sum(self.recent) / len(self.recent) if self.recent else None

    # ---------------------------------------------------------- evaluation
    def learner_entrant(self) -> Entrant:
        return Entrant(LEARNER, self.learner_agent)

    def evaluate(self, num_timesteps: int) -> None:
        evaluation = self.config.evaluation
        result = run_tournament(
            self.config.env.name,
            [self.learner_entrant(), *self.baselines],
            evaluation.games,
            seed=self.config.seed + EVALUATION_SEED_OFFSET,
            env_kwargs=self.config.env.kwargs,
            filler=evaluation.filler,
            focus=LEARNER,
        )
        record: dict[str, Any] = {"step": num_timesteps, "elapsed_s": round(self.elapsed_s, 1), "training_win_rate": self.recent_win_rate, "vs": {}}
        for baseline in result.entrants[1:]:
            own, other = result.head_to_head(LEARNER, baseline), result.opponent_in(LEARNER, baseline)
            record["vs"][baseline] = {
                "win_rate": own.win_rate,
                "win_rate_ci95": list(own.win_rate_interval()),
                "opponent_win_rate": other.win_rate,
                "games": own.games,
            }
            self.log_scalar(f"eval/win_rate_vs_{baseline}", own.win_rate, num_timesteps)
        self.state.evaluations.append(record)
        self.write_metrics()
        plot_learning_curve(self.state.evaluations, self.paths.learning_curve, self.config.name, result.num_players)
        summary = ", ".join(f"{name} {values['win_rate']:.2f}" for name, values in record["vs"].items())
        self.console.print(f"step {num_timesteps}: win rate vs {summary}")

    def final_evaluation(self) -> TournamentResult:
        evaluation = self.config.evaluation
        result = run_tournament(
            self.config.env.name,
            [self.learner_entrant(), *self.baselines],
            evaluation.final_games,
            seed=self.config.seed,
            env_kwargs=self.config.env.kwargs,
            filler=evaluation.filler,
            focus=LEARNER,
        )
        save_result(result, self.paths.root, "evaluation")
        return result

    # ------------------------------------------------------------- writing
    def write_metrics(self, final: TournamentResult | None = None, training_time_s: float | None = None) -> None:
        metrics: dict[str, Any] = {
            "name": self.config.name,
            "env": self.config.env.name,
            "algorithm": self.config.algorithm,
            "num_timesteps": self.state.num_timesteps,
            "elapsed_s": round(self.elapsed_s, 1),
            "training_episodes": self.state.episodes,
            "training_win_rate": self.state.wins / self.state.episodes if self.state.episodes else None,
            "evaluations": self.state.evaluations,
            **self.run_facts(),
        }
        if final is not None:
            metrics["training_time_s"] = round(training_time_s or 0.0, 1)
            metrics["final"] = {
                baseline: {
                    "win_rate": final.head_to_head(LEARNER, baseline).win_rate,
                    "win_rate_ci95": list(final.head_to_head(LEARNER, baseline).win_rate_interval()),
                    "opponent_win_rate": final.opponent_in(LEARNER, baseline).win_rate,
                    "games": final.head_to_head(LEARNER, baseline).games,
                }
                for baseline in final.entrants[1:]
            }
        self.paths.metrics.write_text(json.dumps(metrics, indent=2) + "\n")

    def write_checkpoint(self) -> None:
        """Write ``checkpoints/latest`` whole, then swap it in, so an interruption never leaves half a checkpoint."""
        self.state.elapsed_s = self.elapsed_s
        checkpoints = self.paths.checkpoints
        staging, previous = checkpoints / "latest.tmp", checkpoints / "latest.old"
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        self.save_learner(staging)
        self.pool.save(staging / "pool")
        (staging / "state.json").write_text(json.dumps(dataclasses.asdict(self.state), indent=2) + "\n")
        self.save_model(checkpoints / f"model_{self.state.num_timesteps:09d}.zip")
        shutil.rmtree(previous, ignore_errors=True)
        if self.paths.latest.exists():
            self.paths.latest.rename(previous)
        staging.rename(self.paths.latest)
        shutil.rmtree(previous, ignore_errors=True)


class SB3Trainer(Trainer):
    """``model.learn`` of a Stable-Baselines3 algorithm (MaskablePPO, masked DQN) over the
    single-agent view's vectorised environments."""

    def __init__(
        self,
        config: TrainConfig,
        paths: RunPaths,
        model: BaseAlgorithm,
        state: TrainingState,
        pool: LearnerPool,
        progress: bool,
        reset_num_timesteps: bool,
    ) -> None:
        super().__init__(config, paths, state, pool, progress)
        self.model = model
        self.reset_num_timesteps = reset_num_timesteps

    @property
    def env(self) -> VecEnv:
        env = self.model.get_env()
        assert env is not None, "the model is built or loaded with its environments"
        return env

    def learn(self, bar: Progress) -> None:
        remaining = max(0, self.config.total_timesteps - self.state.num_timesteps)
        callback = RunCallback(self, bar)
        self.model.learn(remaining, callback=callback, reset_num_timesteps=self.reset_num_timesteps, tb_log_name=self.config.algorithm)
        self.state.num_timesteps = self.model.num_timesteps

    def learner_agent(self, env: DiceGameEnv, seed: int | None) -> Agent:
        return PolicyAgent(env, self.model.policy, label=LEARNER, seed=seed)

    def learner_blob(self) -> bytes:
        return policy_to_bytes(self.model.policy)

    def push_pool(self) -> None:
        self.env.env_method("set_learner_policies", self.pool.current, self.pool.snapshots)

    def save_learner(self, directory: Path) -> None:
        self.model.save(directory / "model.zip")
        if isinstance(self.model, OffPolicyAlgorithm):
            self.model.save_replay_buffer(directory / "replay_buffer.pkl")

    def save_model(self, path: Path) -> None:
        self.model.save(path)

    def log_scalar(self, name: str, value: float, step: int) -> None:
        self.model.logger.record(name, value)  # written with SB3's next dump, at its step

    def close(self) -> None:
        self.env.close()


class TrainingInterrupted(Exception):
    """Ctrl-C during training; the run can be resumed from its last checkpoint."""

    def __init__(self, run_dir: Path, checkpoint_step: int | None) -> None:
        if checkpoint_step is not None:
            message = f"`dice-envs train --resume {run_dir}` continues from the last checkpoint (step {checkpoint_step})"
        else:
            message = f"no checkpoint yet: `dice-envs train --resume {run_dir}` starts the run over"
        super().__init__(f"interrupted; {message}")
        self.run_dir = run_dir
        self.checkpoint_step = checkpoint_step


class RunCallback(BaseCallback):
    """Hooks the trainer's schedule and the progress bar into ``model.learn``."""

    def __init__(self, trainer: Trainer, bar: Progress) -> None:
        super().__init__()
        self.trainer = trainer
        self.bar = bar
        self.task = bar.add_task("train", total=trainer.config.total_timesteps, completed=trainer.state.num_timesteps, fps="", status="")
        self.last_refresh = 0.0
        self.start_time = time.perf_counter()
        self.start_step = trainer.state.num_timesteps

    def _on_rollout_start(self) -> None:
        self.trainer.at_rollout_boundary(self.num_timesteps)

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "is_success" in info:
                self.trainer.record_episode(bool(info["is_success"]))
        now = time.perf_counter()
        if now - self.last_refresh > 0.2:
            self.last_refresh = now
            fps = (self.num_timesteps - self.start_step) / max(now - self.start_time, 1e-9)
            self.bar.update(self.task, completed=self.num_timesteps, fps=f"{fps:.0f}", status=self.trainer.status())
        return True


def plot_learning_curve(evaluations: Sequence[dict[str, Any]], path: Path, title: str, num_players: int) -> None:
    """Win rate against each baseline over training, with its 95% interval, and the chance line."""
    figure, axes = plt.subplots(figsize=(8, 4.5))
    steps = [record["step"] for record in evaluations]
    for baseline in evaluations[0]["vs"] if evaluations else []:
        rates = [record["vs"][baseline]["win_rate"] for record in evaluations]
        lows, highs = zip(*(record["vs"][baseline]["win_rate_ci95"] for record in evaluations))
        (line,) = axes.plot(steps, rates, marker="o", markersize=3, label=f"vs {baseline}")
        axes.fill_between(steps, lows, highs, color=line.get_color(), alpha=0.15)
    axes.axhline(1 / num_players, color="grey", linestyle=":", label="chance")
    axes.set(xlabel="training steps", ylabel="learner win rate", ylim=(0, 1), title=title)
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def print_final(result: RunResult, console: Console | None = None) -> None:
    console = console or Console()
    console.print(format_table(result.evaluation), highlight=False, markup=False)
    console.print(f"\nrun directory: {result.run_dir} (training time {result.elapsed_s:.0f} s)", highlight=False)
