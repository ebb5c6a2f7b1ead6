"""Training throughput: environment steps per second as Stable-Baselines3 reports them (``time/fps``).

    python benchmarks/training_throughput.py [--steps 20000] [--opponent random] [--json out.json]

For every registered game, MaskablePPO and masked DQN each train for ``--steps`` learner steps
through the single-agent view (every other seat played by ``--opponent``), in one process with
one torch thread, the same small setting for every game so that the figures compare: 8
``DummyVecEnv`` environments, a [64, 64] network, PPO with ``n_steps=256`` and 10 epochs of
64-sample batches (sb3-contrib's defaults otherwise), DQN with SB3's defaults (one gradient
step of 32 samples every 4 steps) after 1000 warm-up steps.  A learner step includes the
opponents' moves up to the learner's next decision.
"""

from __future__ import annotations

import argparse
import json
import platform
from typing import Any

import torch
from stable_baselines3.common.logger import KVWriter, Logger

import dice_envs
from training.config import config_from_dict
from training.train import build_model, make_training_env

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


def measure(env_name: str, algorithm: str, steps: int, opponent: str) -> float:
    config = config_from_dict(
        {
            "name": f"benchmark_{env_name}_{algorithm}",
            "env": {"name": env_name},
            "algorithm": algorithm,
            "total_timesteps": steps,
            "n_envs": N_ENVS,
            "opponents": {opponent: 1.0},
            "hyperparameters": SETTINGS[algorithm],
        },
        source="benchmark",
    )
    env = make_training_env(config, seed=0)
    model = build_model(config, env, tensorboard_dir=None)
    recorder = LastValues()
    model.set_logger(Logger(folder=None, output_formats=[recorder]))
    model.learn(steps)
    env.close()
    return float(recorder.values["time/fps"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000, help="learner steps per game and algorithm")
    parser.add_argument("--opponent", default="random", help="agent in every other seat")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    torch.set_num_threads(1)

    results: dict[str, dict[str, float]] = {}
    print(f"{'environment':<22}{'players':>8}{'MaskablePPO fps':>17}{'masked DQN fps':>16}")
    for env_name in dice_envs.list_envs():
        players = dice_envs.make(env_name, raw=True).game.num_players
        row = {algorithm: measure(env_name, algorithm, args.steps, args.opponent) for algorithm in SETTINGS}
        results[env_name] = {"players": players, **row}
        print(f"{env_name:<22}{players:>8}{row['ppo']:>17,.0f}{row['dqn']:>16,.0f}", flush=True)
    if args.json:
        meta = {"python": platform.python_version(), "torch": torch.__version__, "steps": args.steps, "opponent": args.opponent}
        with open(args.json, "w") as handle:
            json.dump({"meta": meta, "results": results}, handle, indent=2)


if __name__ == "__main__":
    main()
