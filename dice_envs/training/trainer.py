"""What a training run keeps, whatever learns: the run directory, checkpoints, metrics, periodic
evaluations, the learning curve and the final tournament (``Trainer``).  A backend subclasses
``Trainer`` to say how to learn, play and save its learner: ``dice_envs.training.sb3.trainer``
(MaskablePPO, masked DQN), ``dice_envs.training.rllib.trainer`` (``algorithm: rllib_ppo``).
``dice_envs.training.runs`` starts and resumes runs.

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
    train.lock           while a command trains there (``dice_envs.training.run_lock``)

Checkpoints are taken between rollouts (after an update, before the next collection), so a
resumed run continues from exactly the checkpoint's step count, weights, optimiser state,
replay buffer, self-play pool and metrics.  Episodes under way at the checkpoint are not kept:
the environments start new games on resume.
"""

from __future__ import annotations

import abc
import collections
import dataclasses
import json
import shutil
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: runs on machines without a display
import matplotlib.pyplot as plt
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from dice_envs.agents import Agent
from dice_envs.agents.learned import error_reason
from dice_envs.arena.tournament import Entrant, TournamentResult, entrant_from_spec, format_table, run_tournament, save_result
from dice_envs.core.aec import DiceGameEnv
from dice_envs.training.config import ConfigError, TrainConfig

LEARNER = "learner"
RECENT_EPISODES = 200
"""Training episodes behind the progress bar's live win rate."""
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


def first_state(config: TrainConfig) -> TrainingState:
    """The schedule of a run at step 0."""
    return TrainingState(
        next_checkpoint=config.checkpoint_interval,
        next_snapshot=config.self_play.snapshot_interval,
        next_sync=config.self_play.sync_interval,
    )


def damaged_checkpoint(checkpoint: Path, error: BaseException) -> ConfigError:
    """The one line for a checkpoint that cannot be read back."""
    cause, reason = error_reason(error)
    return damaged_file(checkpoint, f"{type(cause).__name__}: {reason}")


def damaged_file(checkpoint: Path, problem: str) -> ConfigError:
    """The one line for a checkpoint with a bad file or value: ``problem`` names it."""
    return ConfigError(f"the checkpoint {str(checkpoint)!r} is damaged ({problem}); the models of earlier checkpoints are in {str(checkpoint.parent)!r}")


def latest_checkpoint(paths: RunPaths) -> Path | None:
    """The last complete checkpoint (``latest``, or the one a crash left while replacing it)."""
    for candidate in (paths.latest, paths.checkpoints / "latest.old"):
        if (candidate / "state.json").is_file():
            return candidate
    return None


@dataclasses.dataclass
class LearnerPool:
    """The learner's policies that opponents may play: its current weights and frozen snapshots
    (``agents.learned.policy_to_bytes`` output, or ``seat_policies_to_bytes`` for one policy a seat)."""

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
    its learning curve, metrics and final evaluation.  ``dice_envs.training.sb3.trainer.SB3Trainer`` learns with
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
                self.state.next_evaluation = self.state.num_timesteps + self.config.evaluation.interval  # not again on resume
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


def plot_learning_curve(evaluations: Sequence[dict[str, Any]], path: Path, title: str, num_players: int) -> None:
    """Win rate against each baseline over training, with its 95% interval, and the chance line."""
    figure, axes = plt.subplots(figsize=(8, 4.5))
    baselines = dict.fromkeys(baseline for record in evaluations for baseline in record["vs"])  # a resume may change them
    for baseline in baselines:
        against = [record for record in evaluations if baseline in record["vs"]]
        steps = [record["step"] for record in against]
        rates = [record["vs"][baseline]["win_rate"] for record in against]
        lows, highs = zip(*(record["vs"][baseline]["win_rate_ci95"] for record in against))
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
