"""Training throughput: environment steps per second as Stable-Baselines3 reports them (``time/fps``).

    python benchmarks/training_throughput.py [--steps 20000] [--opponent random] [--self-play] [--n-envs 8] [--envs GAME ...] [--json out.json]

For every registered game, MaskablePPO and masked DQN each train for ``--steps`` learner steps
through the single-agent view (every other seat played by ``--opponent``), in one process with
one torch thread, the same small setting for every game so that the figures compare: 8
``DummyVecEnv`` environments, a [64, 64] network, PPO with ``n_steps=256`` and 10 epochs of
64-sample batches (sb3-contrib's defaults otherwise), DQN with SB3's defaults (one gradient
step of 32 samples every 4 steps) after 1000 warm-up steps.  A learner step includes the
opponents' moves up to the learner's next decision.

``--self-play`` adds the cost of model opponents: MaskablePPO on each game against snapshots of
itself only, in the lockstep vector ``dice-envs train`` uses (``dice_envs.training.sb3.lockstep``: one network
pass per round for every environment waiting for a snapshot) and in a plain ``DummyVecEnv`` (one
pass per opponent decision).

In the same run and setting, two references: PettingZoo's ``connect_four_v3`` through the same
loop (one seat learns, the other plays uniformly random legal moves, a new seat each game), and
Gymnasium's ``CartPole-v1`` (every action legal), whose environment costs next to nothing: the
learner-bound ceiling of this setting.
"""

from __future__ import annotations

import argparse
import json
import platform
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import torch
from gymnasium import spaces
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.logger import KVWriter, Logger
from stable_baselines3.common.vec_env import VecEnv

import dice_envs
from dice_envs.agents.learned import policy_to_bytes
from dice_envs.training.config import TrainConfig, config_from_dict
from dice_envs.training.sb3.trainer import build_model, make_training_env
from dice_envs.training.single_agent import SingleAgentEnv

SETTINGS: dict[str, dict[str, Any]] = {
    "ppo": {"n_steps": 256},
    "dqn": {"learning_starts": 1000, "buffer_size": 100_000},
}
N_ENVS = 8


class LastValues(KVWriter):
    """Keeps what SB3 logs, so the benchmark reads the fps SB3 computed."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}

    def write(self, key_values: dict[str, Any], key_excluded: dict[str, Any], step: int = 0) -> None:
        self.values.update(key_values)


class PettingZooSeat(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of a PettingZoo AEC game with action masks, the others playing uniformly random
    legal moves: the loop of ``SingleAgentEnv`` against ``random``, for a reference game.
    Observations are flattened to float32, as a dice game's vector is."""

    def __init__(self, make_env: Callable[[], Any]) -> None:
        self.env = make_env()
        first = self.env.possible_agents[0]
        shape = self.env.observation_space(first)["observation"].shape
        self.observation_space = spaces.Box(0.0, 1.0, (int(np.prod(shape)),), dtype=np.float32)
        self.action_space = spaces.Discrete(self.env.action_space(first).n)
        self.learner = first
        self.mask = np.zeros(self.action_space.n, dtype=bool)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.learner = self.env.possible_agents[int(self.np_random.integers(len(self.env.possible_agents)))]
        self.env.reset(seed=int(self.np_random.integers(2**31)))
        return self._play_others()[0], {}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self.env.step(int(action))
        observation, done = self._play_others()
        return observation, float(self.env._cumulative_rewards[self.learner]), done, False, {}

    def _play_others(self) -> tuple[np.ndarray, bool]:
        while True:
            observed, _, terminated, truncated, _ = self.env.last()
            if terminated or truncated or self.env.agent_selection == self.learner:
                break
            legal = np.flatnonzero(observed["action_mask"])
            self.env.step(int(legal[self.np_random.integers(len(legal))]))
        done = terminated or truncated
        observed = self.env.observe(self.learner)
        self.mask = observed["action_mask"].astype(bool) & (not done)
        return observed["observation"].reshape(-1).astype(np.float32), done

    def action_masks(self) -> np.ndarray:
        return self.mask.copy()


class EveryActionLegal(gymnasium.Wrapper):
    """A Gymnasium env without masks, given ``action_masks()`` that allows every action."""

    def action_masks(self) -> np.ndarray:
        return np.ones(self.action_space.n, dtype=bool)


def references() -> dict[str, tuple[int, Callable[[], gymnasium.Env]]]:
    """Reference environments by label: (players, factory)."""
    from pettingzoo.classic import connect_four_v3

    return {
        "connect_four_v3": (2, lambda: PettingZooSeat(connect_four_v3.env)),
        "CartPole-v1": (1, lambda: EveryActionLegal(gymnasium.make("CartPole-v1"))),
    }


def benchmark_config(env_name: str, algorithm: str, steps: int, opponent: str, n_envs: int = N_ENVS) -> TrainConfig:
    return config_from_dict(
        {
            "name": f"benchmark_{env_name}_{algorithm}",
            "env": {"name": env_name},
            "algorithm": algorithm,
            "total_timesteps": steps,
            "n_envs": n_envs,
            "opponents": {opponent: 1.0},
            "hyperparameters": SETTINGS[algorithm],
        },
        source="benchmark",
    )


def measure(config: TrainConfig, env: VecEnv, steps: int) -> float:
    """SB3's own ``time/fps`` after ``steps`` learner steps of ``config``'s algorithm on ``env``."""
    model = build_model(config, env, tensorboard_dir=None)
    if "snapshot" in config.opponents:  # the trainer's first snapshot: the untrained policy
        blob = policy_to_bytes(model.policy)
        env.env_method("set_learner_policies", blob, [blob])
    recorder = LastValues()
    model.set_logger(Logger(folder=None, output_formats=[recorder]))
    model.learn(steps)
    env.close()
    return float(recorder.values["time/fps"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000, help="learner steps per game and algorithm")
    parser.add_argument("--opponent", default="random", help="agent in every other seat")
    parser.add_argument("--self-play", action="store_true", help="also train against snapshots only, lockstep and plain")
    parser.add_argument("--n-envs", type=int, default=N_ENVS, help=f"environments per training (default {N_ENVS})")
    parser.add_argument("--envs", nargs="+", help="only these games (the references always run)")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    torch.set_num_threads(1)

    results: dict[str, dict[str, float]] = {}
    print(f"{'environment':<22}{'players':>8}{'MaskablePPO fps':>17}{'masked DQN fps':>16}{'PPO vs c4':>11}{'DQN vs c4':>11}")

    def report(label: str, players: int, row: dict[str, float]) -> None:
        results[label] = {"players": players, **row}
        reference = results.get("connect_four_v3")
        ratios = "".join(f"{row[a] / reference[a]:>10.2f}x" if reference else f"{'-':>11}" for a in SETTINGS)
        print(f"{label:<22}{players:>8}{row['ppo']:>17,.0f}{row['dqn']:>16,.0f}{ratios}", flush=True)

    for label, (players, factory) in references().items():
        config = {a: benchmark_config(dice_envs.list_envs()[0], a, args.steps, "random", args.n_envs) for a in SETTINGS}  # its settings only
        report(label, players, {a: measure(config[a], make_vec_env(factory, n_envs=args.n_envs, seed=0), args.steps) for a in SETTINGS})
    games = args.envs or dice_envs.list_envs()
    for env_name in games:
        players = dice_envs.make(env_name, raw=True).game.num_players
        row = {}
        for algorithm in SETTINGS:
            config = benchmark_config(env_name, algorithm, args.steps, args.opponent, args.n_envs)
            row[algorithm] = measure(config, make_training_env(config, seed=0), args.steps)
        report(env_name, players, row)
    if args.self_play:
        print(f"\nMaskablePPO against snapshots of itself only\n{'environment':<22}{'lockstep fps':>14}{'DummyVecEnv fps':>17}{'ratio':>8}")
        for env_name in games:
            config = benchmark_config(env_name, "ppo", args.steps, "snapshot", args.n_envs)
            lockstep = measure(config, make_training_env(config, seed=0), args.steps)
            env_kwargs = {"env_name": env_name, "opponents": {"snapshot": 1.0}}
            plain = measure(config, make_vec_env(SingleAgentEnv, n_envs=args.n_envs, seed=0, env_kwargs=env_kwargs), args.steps)
            results[f"{env_name} self-play"] = {"lockstep_ppo": lockstep, "dummy_ppo": plain}
            print(f"{env_name:<22}{lockstep:>14,.0f}{plain:>17,.0f}{lockstep / plain:>7.2f}x", flush=True)
    if args.json:
        meta = {"python": platform.python_version(), "torch": torch.__version__, "steps": args.steps, "opponent": args.opponent, "n_envs": args.n_envs}
        with open(args.json, "w") as handle:
            json.dump({"meta": meta, "results": results}, handle, indent=2)


if __name__ == "__main__":
    main()
