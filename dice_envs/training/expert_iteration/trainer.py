"""The expert-iteration backend of training runs (``algorithm: expert_iteration``):
``ExpertIterationTrainer`` is the ``dice_envs.training.trainer.Trainer`` whose learning is
generations of search games and a network trained on them.

A generation: ``games_per_generation`` games by the search with the current network as its
evaluator (``selfplay``), their rows join the replay window (the last ``replay_generations``
generations), and the network (a MaskablePPO ``MaskableActorCriticPolicy``, so ``model:PATH`` and
``mcts:model=PATH`` read the result unchanged) trains ``epochs`` passes over the window with
``distill.train``: cross-entropy to the search's (sharpened) policies on the deciding rows, plus
``value_weight`` times the squared error of the value head against each seat's return on the rows
that keep one.  Then the
generation is a rollout boundary (``at_rollout_boundary``: evaluation, snapshot pool, checkpoint),
and, with ``ladder_games``, it is rated on the ladder every ``ladder_interval`` generations and
at the end (``rating_curve.png``).  ``num_timesteps``
counts the decisions of every seat in the games played.

Besides what every run checkpoints, ``checkpoints/latest`` holds ``optimizer.pt`` (Adam's state),
``replay_<generation>.npz`` (the window's data) and ``generations.json`` (the generation count and
each generation's figures).  Each generation is seeded from the config's seed and its number, so a
resumed run continues exactly as the run would have gone on.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import torch as th
from rich.progress import Progress
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

import dice_envs
from dice_envs.agents import Agent
from dice_envs.agents.learned import PolicyAgent, load_policy_with_data, policy_to_bytes, save_policy
from dice_envs.arena.ladder import load_ladder, rate_agent
from dice_envs.arena.parallel import PartsPlayer
from dice_envs.arena.tournament import Entrant
from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.engine import ParameterError
from dice_envs.training.checkpoints import read_generations, read_replay
from dice_envs.training.config import ConfigError, TrainConfig
from dice_envs.training.distill import Dataset, concatenate, evaluate, initial_policy, sharpen, train
from dice_envs.training.expert_iteration.selfplay import collect, generation_parts, hyperparameters, value_positions_only
from dice_envs.training.policy_network import policy_kwargs
from dice_envs.training.trainer import LEARNER, LearnerPool, RunPaths, Trainer, TrainingState, damaged_checkpoint, first_state

MODEL_FILE = "model.zip"
OPTIMIZER_FILE = "optimizer.pt"
GENERATIONS_FILE = "generations.json"
RATING_CURVE = "rating_curve.png"


def replay_file(generation: int) -> str:
    return f"replay_{generation:06d}.npz"


def generation_seed(config: TrainConfig, generation: int) -> int:
    """Seeds the generation's training (minibatch order); its games are seeded by their numbers."""
    return config.seed * 1_000_003 + generation


class ExpertIterationTrainer(Trainer):
    def __init__(
        self,
        config: TrainConfig,
        paths: RunPaths,
        state: TrainingState,
        pool: LearnerPool,
        progress: bool,
        network: tuple[MaskableActorCriticPolicy, dict[str, Any]],
        optimizer: th.optim.Optimizer,
        replay: list[tuple[int, Dataset]],
        generations: list[dict[str, Any]],
        play_parts_with: PartsPlayer | None,
    ) -> None:
        super().__init__(config, paths, state, pool, progress)
        self.policy, self.policy_data = network
        self.optimizer = optimizer
        self.replay = replay
        """The window: each kept generation's number and rows."""
        self.generations = generations
        """Each generation's figures (``generations.json``; ``metrics.json`` shows them)."""
        self.play_parts_with = play_parts_with

    # ------------------------------------------------------------ construction
    @classmethod
    def fresh(cls, config: TrainConfig, paths: RunPaths, progress: bool, play_parts_with: PartsPlayer | None = None) -> ExpertIterationTrainer:
        """A trainer for generation 0: a new network (seeded from the config), or ``init_policy``'s."""
        th.set_num_threads(1)  # small networks: threads only contend with the games
        th.manual_seed(config.seed)
        env = dice_envs.make(config.env.name, **config.env.kwargs)
        try:
            init_file = config.init_policy_file
            network = initial_policy(env, None if init_file is None else str(init_file), policy_kwargs(config.policy))
        except ParameterError as error:
            raise ConfigError(f"init_policy: {error}") from None
        blob = policy_to_bytes(network[0])
        optimizer = new_optimizer(network[0], config)
        return cls(config, paths, first_state(config), LearnerPool(blob, [blob]), progress, network, optimizer, [], [], play_parts_with)

    @classmethod
    def resumed(
        cls,
        config: TrainConfig,
        paths: RunPaths,
        checkpoint: Path,
        state: TrainingState,
        pool: LearnerPool,
        progress: bool,
        play_parts_with: PartsPlayer | None = None,
    ) -> ExpertIterationTrainer:
        """The trainer of a run at ``checkpoint``: its network, Adam's state, replay window and figures, each checked."""
        th.set_num_threads(1)
        env = dice_envs.make(config.env.name, **config.env.kwargs)
        generations, kept = read_generations(checkpoint, GENERATIONS_FILE, state.num_timesteps, hyperparameters(config).replay_generations)
        replay = [(generation, read_replay(checkpoint, replay_file(generation), env)) for generation in kept]
        try:
            policy, data = load_policy_with_data(checkpoint / MODEL_FILE)
            if not isinstance(policy, MaskableActorCriticPolicy):
                raise ParameterError(f"{MODEL_FILE} is not a MaskablePPO policy")
            PolicyAgent(env, policy)  # its spaces are this game's
            optimizer = new_optimizer(policy, config)
            optimizer.load_state_dict(th.load(checkpoint / OPTIMIZER_FILE, map_location="cpu", weights_only=True))
        except Exception as error:  # a zip or tensor file cut short or damaged: whatever its reader raises
            raise damaged_checkpoint(checkpoint, error) from None
        return cls(config, paths, state, pool, progress, (policy, data), optimizer, replay, generations, play_parts_with)

    # ---------------------------------------------------------------- learning
    @property
    def generation(self) -> int:
        """The next generation's number (the generations played so far)."""
        return len(self.generations)

    def learn(self, bar: Progress) -> None:
        total = self.config.total_timesteps
        task = bar.add_task("train", total=total, completed=self.state.num_timesteps, fps="", status="")
        started, start_step = time.perf_counter(), self.state.num_timesteps
        while self.state.num_timesteps < total:
            self.play_and_train()
            self.at_rollout_boundary(self.state.num_timesteps)
            fps = (self.state.num_timesteps - start_step) / max(time.perf_counter() - started, 1e-9)
            bar.update(task, completed=self.state.num_timesteps, fps=f"{fps:.0f}", status=self.status())

    def play_and_train(self) -> None:
        """One generation: its games, the window, the network's update, and the rating."""
        hp, generation, started = hyperparameters(self.config), self.generation, time.perf_counter()
        parts = generation_parts(self.config, generation, policy_to_bytes(self.policy), self.pool.snapshots)
        data, search_won, decisions = collect(parts, hp.workers, self.play_parts_with)
        for won in search_won:
            self.record_episode(won)
        # the new games' figures before the network learns them: its error on games it never saw
        unseen = {f"unseen_{name}": value for name, value in evaluate(self.policy, sharpen(data, hp.temperature)).items()}
        data = value_positions_only(data, hp.value_positions, self.config.seed)
        self.replay = [*self.replay, (generation, data)][-hp.replay_generations :]
        window = sharpen(concatenate([rows for _, rows in self.replay]), hp.temperature)
        train(
            self.policy, window, hp.epochs, hp.learning_rate, hp.batch_size, hp.value_weight,
            held_out=0.0, seed=generation_seed(self.config, generation), log=lambda _: None, optimizer=self.optimizer,
        )  # fmt: skip
        self.state.num_timesteps += decisions
        record: dict[str, Any] = {
            "generation": generation,
            "step": self.state.num_timesteps,
            "rows": len(data),
            "decisions": int(data.deciding.sum()),
            **evaluate(self.policy, window),
            **unseen,
            **self.rating(generation),
        }
        record["seconds"] = round(time.perf_counter() - started, 1)
        self.generations.append(record)
        self.plot_ratings()
        self.console.print(f"generation {generation}: {record['decisions']} search decisions in {record['seconds']:.0f} s, " + _figures(record))

    def rating(self, generation: int) -> dict[str, Any]:
        """The network's ladder rating (no search) after ``generation``, or nothing without
        ``ladder_games`` or between the ``ladder_interval``'s (the run's last generation is rated)."""
        hp = hyperparameters(self.config)
        last = self.state.num_timesteps >= self.config.total_timesteps
        if not hp.ladder_games or (generation % hp.ladder_interval and not last):
            return {}
        rated = rate_agent(
            self.config.env.name, Entrant(f"generation {generation}", self.learner_agent), hp.ladder_games, self.config.seed, hp.workers, players=self.config.num_players
        )
        return {"rating": round(rated.rating, 1), "rating_ci95": [round(bound, 1) for bound in rated.interval]}

    def plot_ratings(self) -> None:
        rated = [record for record in self.generations if "rating" in record]
        if rated:
            rungs = load_ladder(self.config.env.name, players=self.config.num_players).ratings()
            plot_rating_curve(rated, self.paths.root / RATING_CURVE, self.config.name, {rung: rungs[rung] for rung in rungs if rung != "random"})

    # ------------------------------------------------------ the Trainer's hooks
    def learner_agent(self, env: DiceGameEnv, seed: int | None) -> Agent:
        return PolicyAgent(env, self.policy, label=LEARNER, seed=seed)

    def learner_blob(self) -> bytes:
        return policy_to_bytes(self.policy)

    def push_pool(self) -> None:
        """Nothing to hand over: each generation's parts take the pool as they are made."""

    def save_learner(self, directory: Path) -> None:
        self.save_model(directory / MODEL_FILE)
        th.save(self.optimizer.state_dict(), directory / OPTIMIZER_FILE)
        for generation, data in self.replay:
            data.save(directory / replay_file(generation))
        kept = [generation for generation, _ in self.replay]
        (directory / GENERATIONS_FILE).write_text(json.dumps({"generations": self.generations, "replay": kept}, indent=2) + "\n")

    def save_model(self, path: Path) -> None:
        save_policy(self.policy, self.policy_data, path)

    def log_scalar(self, name: str, value: float, step: int) -> None:
        """Not logged: this backend keeps no TensorBoard log (``metrics.json`` has every figure)."""

    def close(self) -> None:
        """Nothing held: the workers of a generation end with it."""

    def run_facts(self) -> dict[str, Any]:
        return {"generations": self.generations}


def new_optimizer(policy: MaskableActorCriticPolicy, config: TrainConfig) -> th.optim.Optimizer:
    return th.optim.Adam(policy.parameters(), lr=hyperparameters(config).learning_rate)


def _figures(record: dict[str, Any]) -> str:
    shown = [f"{name} {record[name]:.3f}" for name in ("cross_entropy", "value_mse", "agreement", "unseen_value_mse") if name in record]
    if "rating" in record:
        shown.append(f"rating {record['rating']:.0f}")
    return ", ".join(shown)


def plot_rating_curve(records: list[dict[str, Any]], path: Path, title: str, rungs: dict[str, float]) -> None:
    """Each generation's ladder rating (random = 0) with its 95% interval, beside the ladder's
    ``rungs`` (their stored ratings) as the marks to pass."""
    figure, axes = plt.subplots(figsize=(9, 5))
    level: dict[int, list[str]] = {}
    for rung, rating in rungs.items():
        level.setdefault(round(rating), []).append(rung)  # rungs rated alike share a line (Dice Age's two heuristics)
    for rating, names in level.items():
        axes.axhline(rating, color="grey", linestyle="--", linewidth=0.7, alpha=0.6)
        label = ", ".join(names)
        axes.annotate(label, (1, rating), xycoords=("axes fraction", "data"), xytext=(3, 0), textcoords="offset points", fontsize=7, va="center", color="dimgrey")
    generations = [record["generation"] for record in records]
    (line,) = axes.plot(generations, [record["rating"] for record in records], marker="o", markersize=3, label="network alone")
    lows, highs = zip(*(record["rating_ci95"] for record in records))
    axes.fill_between(generations, lows, highs, color=line.get_color(), alpha=0.15)
    axes.axhline(0, color="grey", linestyle=":", label="random")
    axes.set(xlabel="generation", ylabel="ladder rating (Elo, random = 0)", title=title)
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
