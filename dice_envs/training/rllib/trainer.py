"""Multi-agent PPO on RLlib (``algorithm: rllib_ppo``): the same runs as ``dice_envs.training.trainer``, on Ray.

    dice-envs train --config dino_hunt/rllib_ppo                      # an embedded Ray
    dice-envs train --config dino_hunt/rllib_ppo --address HOST:6379  # a running cluster

RLlib's PPO on its current API stack (``EnvRunner``s and ``Learner``s) over
``dice_envs.training.rllib.env.RLlibDiceEnv``, with ``dice_envs.training.rllib.module.ActionMaskingPPOModule`` as the
network, so no illegal action is ever sampled.  ``ray.policies`` is ``shared`` (one module, id
``shared``, plays every learner seat) or ``per_seat`` (module ``seat_k`` plays seat k).

The opponent pool (``dice_envs.training.opponents``) has the single-agent view's semantics: every game
the learner takes ``learner_seat`` and every other seat is drawn from ``opponents`` by weight;
scripted agents, ``model:PATH`` and ``snapshot`` (a frozen earlier learner: every
``self_play.snapshot_interval`` steps the learner joins the pool, which keeps the last
``pool_size``) are played inside the environments.  ``self`` differs, because RLlib trains
several seats of a game at once: a seat drawn ``self`` is played by the learning module itself,
and its moves are trained on too.  ``self_play.sync_interval`` still refreshes the pool's
``current`` copy and hands the pool out again, as in the SB3 path, though no RLlib seat plays
that copy.

What ``dice_envs.training.trainer.Trainer`` does for every backend, this one does too: evaluations against the
baselines and the learning curve, checkpoints (``checkpoints/latest/algorithm`` is RLlib's own,
with the optimiser; ``model_<step>.zip`` is the learner in the agent format), ``--resume``,
``metrics.json`` and the final tournament.  ``model.zip`` is the trained module exported to the
suite's agent format (``dice_envs.training.rllib.export``): ``evaluate``, ``tournament``, ``ladder`` and
``play`` take ``model:runs/<run>/model.zip`` on a machine without Ray.  With ``per_seat``, each
seat's module is saved as ``model_seat<k>.zip`` (each plays any seat), and the run's evaluations
play each seat's own module in that seat.

Steps are the learner's decisions (``env_runners/num_env_steps_sampled``): one per move of a
learner seat.  A training iteration collects ``hyperparameters.train_batch_size`` of them from
all env runners together, so the number of runners changes the speed, not the learning; the
schedule (snapshots, evaluations, checkpoints) runs between iterations.
"""

from __future__ import annotations

import math
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ray
import torch as th
from ray.rllib.algorithms.algorithm import Algorithm
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.rllib.env.env_runner_group import EnvRunnerGroup
from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED
from ray.rllib.utils.metrics.metrics_logger import MetricsLogger
from rich.progress import Progress
from stable_baselines3.common.policies import BasePolicy
from torch.utils.tensorboard import SummaryWriter

from dice_envs.agents import Agent
from dice_envs.agents.learned import PolicyAgent, SeatPoliciesAgent, policy_to_bytes, save_policy, seat_policies_to_bytes
from dice_envs.arena.ray_cluster import alive_nodes, connect
from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.engine import ParameterError
from dice_envs.training.config import RLlibPPOHyperparameters, TrainConfig
from dice_envs.training.rllib.env import RLlibDiceEnv
from dice_envs.training.rllib.export import module_as_policy
from dice_envs.training.rllib.module import ActionMaskingPPOModule
from dice_envs.training.trainer import LEARNER, LearnerPool, RunPaths, Trainer, TrainingState, damaged_checkpoint, first_state

SHARED = "shared"
"""The module id of ``policies: shared``; ``per_seat`` has ``seat_0``, ``seat_1``..."""
GAMES = "learner_games"
WINS = "learner_wins"
"""Per-iteration sums that the env runners report: games finished, and those the learner won."""
POOL_ATTRIBUTE = "dice_envs_snapshot_pool"
"""Where the trainer leaves the latest pool on the ``Algorithm`` (the one object RLlib hands its
driver-side callbacks), for env runners that RLlib recreates."""
ALGORITHM_DIR = "algorithm"
"""RLlib's checkpoint, inside ``checkpoints/latest``."""


def seat_module(seat: int) -> str:
    """The module id of a seat's own network (``policies: per_seat``)."""
    return f"seat_{seat}"


def module_seat(module_id: str) -> int:
    """The seat whose network a ``per_seat`` module is; also reads a seat off an agent id, ``player_k``."""
    return int(module_id.rsplit("_", 1)[1])


def module_ids(config: TrainConfig) -> list[str]:
    return [SHARED] if config.ray.policies == "shared" else [seat_module(seat) for seat in range(config.num_players)]


def policy_mapping(policies: str) -> Callable[..., str]:
    """RLlib's ``policy_mapping_fn``: the module that plays an agent (``player_k``)."""
    if policies == "shared":
        return lambda agent_id, episode, **kwargs: SHARED
    return lambda agent_id, episode, **kwargs: seat_module(module_seat(agent_id))


def model_config(config: TrainConfig) -> dict[str, Any]:
    """The module's networks: ``policy.net_arch`` for the policy and (separately) the value
    function, no extra head layers, so that the export is exact (``dice_envs.training.rllib.export``)."""
    return {
        "fcnet_hiddens": list(config.policy.net_arch),
        "fcnet_activation": config.policy.activation,
        "head_fcnet_hiddens": [],
        "vf_share_layers": False,
    }


def module_spec(config: TrainConfig) -> RLModuleSpec:
    """One learner module: the masking PPO module for the game's spaces (every seat has the same)."""
    env = RLlibDiceEnv({"env_name": config.env.name, **config.env.kwargs})
    seat = env.possible_agents[0]
    return RLModuleSpec(
        module_class=ActionMaskingPPOModule,
        observation_space=env.get_observation_space(seat),
        action_space=env.get_action_space(seat),
        model_config=model_config(config),
    )


def env_config(config: TrainConfig, pool: LearnerPool | None) -> dict[str, Any]:
    """``RLlibDiceEnv``'s config: the game, the opponent pool and (once there is one) the snapshot pool."""
    settings = {
        "env_name": config.env.name,
        **config.env.kwargs,
        "opponents": dict(config.opponents),
        "learner_seat": config.learner_seat,
        "random_start_scores": config.random_start_scores,
        "reward_scale": config.reward_scale,
    }
    if pool is not None:
        settings["learner_policies"] = (pool.current, list(pool.snapshots))
    return settings


def ppo_config(config: TrainConfig, pool: LearnerPool | None) -> PPOConfig:
    """RLlib's ``PPOConfig`` for a run: see ``RLlibPPOHyperparameters`` for the names."""
    hp = config.hyperparameters
    assert isinstance(hp, RLlibPPOHyperparameters), "validated: rllib_ppo has RLlib's hyperparameters"
    learning_rate: float | list[list[float]] = hp.learning_rate
    if hp.learning_rate_schedule == "linear":  # RLlib's schedule: (step, value) points, interpolated
        learning_rate = [[0, hp.learning_rate], [config.total_timesteps, 0.0]]
    ids = module_ids(config)
    specs = dict.fromkeys(ids, module_spec(config))
    return (
        PPOConfig()
        # RLlib's env check passes (tests/training/test_rllib.py), but plays a game's first move
        # in every environment it builds, outside the run's seeded games: skipped.
        .environment(RLlibDiceEnv, env_config=env_config(config, pool), disable_env_checking=True)
        .env_runners(
            num_env_runners=config.ray.num_env_runners,
            num_envs_per_env_runner=config.ray.num_envs_per_env_runner,
            num_cpus_per_env_runner=config.ray.num_cpus_per_env_runner,  # type: ignore[arg-type]  # RLlib says int; Ray takes a fraction of a CPU
        )
        .learners(num_learners=0)
        .training(
            lr=learning_rate,
            train_batch_size_per_learner=hp.train_batch_size,
            minibatch_size=hp.batch_size,
            num_epochs=hp.n_epochs,
            gamma=hp.gamma,
            lambda_=hp.gae_lambda,
            clip_param=hp.clip_range,
            vf_clip_param=hp.vf_clip_range,
            entropy_coeff=hp.ent_coef,
            vf_loss_coeff=hp.vf_coef,
            grad_clip=hp.max_grad_norm,
            use_kl_loss=hp.kl_coef > 0,
            kl_coeff=hp.kl_coef,
            kl_target=hp.kl_target,
        )
        .multi_agent(policies=set(ids), policy_mapping_fn=policy_mapping(config.ray.policies), policies_to_train=ids)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .callbacks(RunCallbacks)
        .debugging(seed=config.seed)
    )


def iteration_count(runners: dict[str, Any], key: str) -> int:
    """A per-iteration sum from the env runners' results: 0 where nothing was logged (a restored
    metrics logger reports such a key as NaN)."""
    value = float(runners.get(key, 0))
    return 0 if math.isnan(value) else int(value)


def hand_over_pool(pool: tuple[bytes, list[bytes]]) -> Callable[[Any], None]:
    """What an env runner runs to take the snapshot pool into each of its environments."""

    def hand_over(runner: Any) -> None:
        for env in runner.env.envs if runner.env is not None else ():  # the driver's, beside remote runners, has none
            env.unwrapped.set_learner_policies(*pool)

    return hand_over


class RunCallbacks(RLlibCallback):
    """Counts the games the env runners finish and the learner's wins (``RLlibDiceEnv`` puts
    ``won`` in the learner seat's last info), and hands the snapshot pool to env runners that
    RLlib recreates (after a crash or a lost node) before they play again."""

    def on_episode_end(self, *, episode: Any, metrics_logger: MetricsLogger | None = None, **kwargs: Any) -> None:
        assert metrics_logger is not None, "RLlib's new API stack logs through one"
        for info in episode.get_infos(-1, env_steps=False).values():
            if "won" in info:
                metrics_logger.log_value(GAMES, 1, reduce="sum")
                metrics_logger.log_value(WINS, int(info["won"]), reduce="sum")

    def on_env_runners_recreated(self, *, algorithm: Any, env_runner_group: Any, env_runner_indices: list[int], **kwargs: Any) -> None:
        pool = getattr(algorithm, POOL_ATTRIBUTE, None)
        if pool is not None:
            env_runner_group.foreach_env_runner(hand_over_pool(pool), remote_worker_ids=env_runner_indices, local_env_runner=False)


class RLlibTrainer(Trainer):
    """``Algorithm.train`` of RLlib's PPO, iteration by iteration, in the run's schedule."""

    def __init__(
        self, config: TrainConfig, paths: RunPaths, algo: Algorithm, state: TrainingState, pool: LearnerPool, progress: bool
    ) -> None:
        super().__init__(config, paths, state, pool, progress)
        self.algo = algo
        self.env_runner_nodes: list[str] = sorted(
            env_runners(algo).foreach_env_runner(lambda runner: ray.util.get_node_ip_address(), local_env_runner=False)
        )
        """The address of each env runner's node (none: the driver samples alone)."""
        self.writer = SummaryWriter(str(paths.tensorboard / config.algorithm))
        self._modules: dict[str, RLModule] = {}
        """Full copies of the learner's modules (an env runner's copy has no value head), for export."""

    @classmethod
    def fresh(cls, config: TrainConfig, paths: RunPaths, progress: bool, ray_address: str | None) -> RLlibTrainer:
        connect(ray_address, config.ray.num_cpus)
        check_cluster_fits(config)
        algo = build_algorithm(config, None)
        try:
            trainer = cls(config, paths, algo, first_state(config), LearnerPool(b"", []), progress)
            blob = trainer.learner_blob()  # the pool starts with the untrained learner, as the SB3 path's does
        except BaseException:
            algo.stop()
            raise
        trainer.pool = LearnerPool(blob, [blob])  # handed to the env runners before the first games
        return trainer

    @classmethod
    def resumed(
        cls, config: TrainConfig, paths: RunPaths, checkpoint: Path, state: TrainingState, pool: LearnerPool, progress: bool, ray_address: str | None
    ) -> RLlibTrainer:
        connect(ray_address, config.ray.num_cpus)
        check_cluster_fits(config)
        algo = build_algorithm(config, pool)
        try:
            algo.restore_from_path(str((checkpoint / ALGORITHM_DIR).resolve()))
        except Exception as error:  # RLlib's checkpoint cut short or damaged: whatever its reader raises
            algo.stop()
            raise damaged_checkpoint(checkpoint, error) from None
        return cls(config, paths, algo, state, pool, progress)

    # --------------------------------------------------------------- learning
    def run_facts(self) -> dict[str, Any]:
        return {"ray": {"cluster_nodes": len(alive_nodes()), "env_runner_nodes": self.env_runner_nodes}}

    def learn(self, bar: Progress) -> None:
        nodes = sorted(set(self.env_runner_nodes))
        where = f"{len(self.env_runner_nodes)} env runners on {', '.join(nodes)}" if nodes else "sampling in this process"
        self.console.print(f"Ray: {len(alive_nodes())} node(s); {where}")
        total = self.config.total_timesteps
        task = bar.add_task("train", total=total, completed=self.state.num_timesteps, fps="", status="")
        while self.state.num_timesteps < total:
            self.at_rollout_boundary(self.state.num_timesteps)
            result = self.algo.train()
            runners = result.get(ENV_RUNNER_RESULTS, {})
            steps, games, wins = (iteration_count(runners, key) for key in (NUM_ENV_STEPS_SAMPLED, GAMES, WINS))
            for game in range(games):
                self.record_episode(game < wins)
            self.state.num_timesteps += steps
            self.log_iteration(result)
            fps = steps / max(float(result.get("time_this_iter_s", 0.0)), 1e-9)
            bar.update(task, completed=self.state.num_timesteps, fps=f"{fps:.0f}", status=self.status())

    def log_iteration(self, result: dict[str, Any]) -> None:
        step = self.state.num_timesteps
        runners = result.get(ENV_RUNNER_RESULTS, {})
        if "episode_return_mean" in runners:
            self.log_scalar("rollout/ep_rew_mean", float(runners["episode_return_mean"]), step)
        if self.recent_win_rate is not None:
            self.log_scalar("rollout/success_rate", self.recent_win_rate, step)
        for module_id, values in result.get("learners", {}).items():
            for name in ("policy_loss", "vf_loss", "entropy", "mean_kl_loss"):
                if name in values:
                    self.log_scalar(f"train/{module_id}/{name}", float(values[name]), step)

    # ------------------------------------------------------------ the learner
    def learner_policies(self) -> dict[str, tuple[BasePolicy, dict[str, Any]]]:
        """Each learner module in the agent format (``module_as_policy``: the policy, weight for
        weight, and what a saved model keeps beside it), by module id."""
        ids = module_ids(self.config)
        learners = self.algo.learner_group
        assert learners is not None, "a built algorithm has its learners"
        weights = learners.get_weights(module_ids=ids)
        exported: dict[str, tuple[BasePolicy, dict[str, Any]]] = {}
        for module_id in ids:
            if module_id not in self._modules:
                self._modules[module_id] = module_spec(self.config).build()
            self._modules[module_id].set_state(weights[module_id])
            exported[module_id] = module_as_policy(self._modules[module_id], self.config.env.name, self.config.num_players)
        return exported

    def seat_policies(self) -> dict[int, BasePolicy]:
        return {module_seat(module_id): policy for module_id, (policy, _) in self.learner_policies().items()}

    def learner_agent(self, env: DiceGameEnv, seed: int | None) -> Agent:
        if self.config.ray.policies == "shared":
            return PolicyAgent(env, self.learner_policies()[SHARED][0], label=LEARNER, seed=seed)
        return SeatPoliciesAgent(env, self.seat_policies(), label=LEARNER, seed=seed)

    def learner_blob(self) -> bytes:
        if self.config.ray.policies == "shared":
            return policy_to_bytes(self.learner_policies()[SHARED][0])
        return seat_policies_to_bytes(self.seat_policies())

    def push_pool(self) -> None:
        pool = (self.pool.current, list(self.pool.snapshots))
        setattr(self.algo, POOL_ATTRIBUTE, pool)  # for RunCallbacks.on_env_runners_recreated
        env_runners(self.algo).foreach_env_runner(hand_over_pool(pool), local_env_runner=True)

    # ---------------------------------------------------------------- saving
    def save_learner(self, directory: Path) -> None:
        self.algo.save_to_path(str((directory / ALGORITHM_DIR).resolve()))

    def save_model(self, path: Path) -> None:
        exported = self.learner_policies()
        for module_id, (policy, data) in exported.items():
            name = path.name if module_id == SHARED else f"{path.stem}_seat{module_seat(module_id)}{path.suffix}"
            save_policy(policy, data, path.with_name(name))

    def log_scalar(self, name: str, value: float, step: int) -> None:
        self.writer.add_scalar(name, value, step)

    def close(self) -> None:
        self.writer.close()
        logdir = Path(self.algo.logdir)
        self.algo.stop()
        if logdir.is_dir() and not any(logdir.iterdir()):  # the empty folder Ray makes in ~/ray_results
            shutil.rmtree(logdir)


def env_runners(algo: Algorithm) -> EnvRunnerGroup:
    group = algo.env_runner_group
    assert group is not None, "a built algorithm has its env runners"
    return group


RESOURCE_UNITS = 10_000
"""Ray counts a resource in ten-thousandths (its finest fraction of a CPU)."""


def check_cluster_fits(config: TrainConfig) -> None:
    """One clear line unless the connected cluster's live nodes can place every env runner (each
    on one node, with ``ray.num_cpus_per_env_runner`` of its CPUs): RLlib would wait for them
    forever.  The learner needs none of the cluster's CPUs: it runs in this process
    (``num_learners=0``)."""
    runners, per_runner = config.ray.num_env_runners, config.ray.num_cpus_per_env_runner
    if runners == 0:
        return
    node_cpus = [float(node["Resources"].get("CPU", 0.0)) for node in alive_nodes()]
    needed = round(per_runner * RESOURCE_UNITS)
    places = sum(round(cpus * RESOURCE_UNITS) // needed for cpus in node_cpus)
    if places < runners:
        raise ParameterError(
            f"ray.num_env_runners={runners} with ray.num_cpus_per_env_runner={per_runner:g} needs {runners * per_runner:g} CPUs"
            f" ({per_runner:g} on one node for each runner); the Ray cluster has {sum(node_cpus):g} CPUs on {len(node_cpus)} live node(s)"
            f" (per node: {', '.join(f'{cpus:g}' for cpus in node_cpus) or 'none'}), room for {places} runner(s):"
            " lower ray.num_env_runners or ray.num_cpus_per_env_runner, or give Ray more CPUs (ray.num_cpus, more nodes)"
        )


def build_algorithm(config: TrainConfig, pool: LearnerPool | None) -> Algorithm:
    th.set_num_threads(1)  # small networks: threads only contend with the env runners
    return ppo_config(config, pool).build_algo()
