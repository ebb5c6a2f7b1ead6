"""The Stable-Baselines3 backend of training runs: MaskablePPO (``algorithm: ppo``) or masked DQN
(``dqn``) on the single-agent view (``dice_envs.training.single_agent``), whole games in
lockstep or single turns (``dice_envs.training.single_turn``).  ``SB3Trainer`` is the
``dice_envs.training.trainer.Trainer`` that learns with ``model.learn``.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from pathlib import Path
from typing import Any

import torch as th
from rich.progress import Progress
from sb3_contrib import MaskablePPO
from stable_baselines3.common.base_class import BaseAlgorithm
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.off_policy_algorithm import OffPolicyAlgorithm
from stable_baselines3.common.utils import LinearSchedule
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecMonitor

from dice_envs.agents import Agent
from dice_envs.agents.learned import PolicyAgent, load_policy, policy_to_bytes
from dice_envs.core.aec import DiceGameEnv
from dice_envs.training.config import ConfigError, TrainConfig
from dice_envs.training.policy_network import policy_kwargs
from dice_envs.training.sb3.lockstep import LockstepVecEnv, VecScaleReward
from dice_envs.training.sb3.masked_dqn import MaskedDQN
from dice_envs.training.single_agent import SingleAgentEnv
from dice_envs.training.single_turn import SingleTurnEnv
from dice_envs.training.trainer import LEARNER, LearnerPool, RunPaths, Trainer, TrainingState, damaged_checkpoint, damaged_file, first_state

ALGORITHM_CLASSES: dict[str, type[BaseAlgorithm]] = {"ppo": MaskablePPO, "dqn": MaskedDQN}


# ------------------------------------------------------------ construction
def make_training_env(config: TrainConfig, seed: int) -> VecEnv:
    """The config's ``n_envs`` learner seats, seeded from ``seed``.  Whole games in one process
    (``vec_env: dummy``) run in lockstep, their opponents asked together (``LockstepVecEnv``);
    single turns, and ``vec_env: subproc``, use Stable-Baselines3's own vectorisation.  The
    monitor sits inside the reward scale, so the logged returns stay unscaled."""
    if config.episode == "turn":
        env_kwargs: dict[str, Any] = {"env_name": config.env.name, "env_kwargs": config.env.kwargs}
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
    return ALGORITHM_CLASSES[config.algorithm](
        "MlpPolicy",
        env,
        policy_kwargs=policy_kwargs(config.policy),
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

    @classmethod
    def fresh(cls, config: TrainConfig, paths: RunPaths, progress: bool) -> SB3Trainer:
        """A trainer for step 0 of ``config``: new environments, a new (or ``init_policy``) model."""
        th.set_num_threads(1)  # small networks: threads only contend with the environments
        env = make_training_env(config, config.seed)
        try:
            model = build_model(config, env, paths.tensorboard)
            if (init_file := config.init_policy_file) is not None:
                load_initial_policy(model, str(init_file))
            pool = LearnerPool(policy_to_bytes(model.policy), [policy_to_bytes(model.policy)])
            return cls(config, paths, model, first_state(config), pool, progress, reset_num_timesteps=True)
        except BaseException:
            env.close()
            raise

    @classmethod
    def resumed(cls, config: TrainConfig, paths: RunPaths, checkpoint: Path, state: TrainingState, pool: LearnerPool, progress: bool) -> SB3Trainer:
        """The trainer of a run at ``checkpoint``: its model with optimiser (and DQN's replay buffer) on new environments."""
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
        if model.num_timesteps != state.num_timesteps:  # learn() would count on from the model's
            env.close()
            raise damaged_file(checkpoint, f"model.zip was saved at step {model.num_timesteps}, state.json says num_timesteps {state.num_timesteps}")
        model.tensorboard_log = str(paths.tensorboard)
        return cls(config, paths, model, state, pool, progress, reset_num_timesteps=False)

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
