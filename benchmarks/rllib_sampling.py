"""RLlib's throughput: environment steps per second at 1 and 2 env runners, on this machine or a cluster.

    pip install -e ".[rllib,bench]"
    python benchmarks/rllib_sampling.py [--env dino_hunt_v0] [--runners 1 2] [--iterations 4] [--batch 2000] [--address HOST:PORT]

For each number of env runners, ``dice-envs train``'s RLlib PPO (``dice_envs.training.rllib.trainer.ppo_config``
with ``configs/<game>/rllib_ppo.yaml``'s network and one environment per runner, ``random`` in the
other seats) trains ``--iterations`` iterations of ``--batch`` environment steps, on an embedded
Ray on this machine, or with ``--address`` on a running cluster (``dice_envs.arena.ray_cluster.connect``;
one CPU per runner; the learner runs in the driver).  Reported, over every iteration but the
first (start-up): environment steps sampled per second of the iterations' wall time
(``time_this_iter_s``: sampling and learning, which RLlib's PPO alternates; RLlib's own sampling
timer is a moving average that carries the first iteration's start-up, so it is not used), and
the nodes the runners ran on.  In the same run, the reference: MaskablePPO on the same game
through the suite's Stable-Baselines3 path in this process, its own ``time/fps`` (the setting of
``benchmarks/training_throughput.py``: 8 environments, ``random`` in the other seats).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dice_envs.arena.ray_cluster import connect
from dice_envs.training.config import configs_directory


def rllib_rate(env_name: str, runners: int, iterations: int, batch: int) -> tuple[float, list[str]]:
    """Env steps sampled per second of whole iterations, after the first iteration; the runners' nodes."""
    import ray

    from dice_envs.training.config import load_config
    from dice_envs.training.rllib.trainer import ppo_config

    game = env_name.rsplit("_v", 1)[0]
    overrides = [
        f"ray.num_env_runners={runners}",
        "ray.num_envs_per_env_runner=1",
        f"hyperparameters.train_batch_size={batch}",
        f"hyperparameters.batch_size={batch // 4}",
        "hyperparameters.n_epochs=2",
        "opponents={random: 1}",
    ]
    config = load_config(configs_directory() / game / "rllib_ppo.yaml", overrides)
    algo = ppo_config(config, None).build_algo()
    try:
        nodes = algo.env_runner_group.foreach_env_runner(lambda runner: ray.util.get_node_ip_address(), local_env_runner=False)
        results: list[dict[str, Any]] = [algo.train() for _ in range(iterations)][1:]
    finally:
        algo.stop()
    steps = sum(result["env_runners"]["num_env_steps_sampled"] for result in results)
    return steps / sum(result["time_this_iter_s"] for result in results), sorted(nodes)


def sb3_rate(env_name: str, steps: int) -> float:
    """MaskablePPO's own ``time/fps`` on the game (``benchmarks/training_throughput.py``'s setting)."""
    import torch

    from benchmarks.training_throughput import benchmark_config, measure
    from dice_envs.training.sb3.trainer import make_training_env

    torch.set_num_threads(1)
    config = benchmark_config(env_name, "ppo", steps, "random")
    return measure(config, make_training_env(config, seed=0), steps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="dino_hunt_v0")
    parser.add_argument("--runners", type=int, nargs="+", default=[1, 2], help="env runner counts to measure")
    parser.add_argument("--iterations", type=int, default=4, help="PPO iterations per count (the first is not counted)")
    parser.add_argument("--batch", type=int, default=2000, help="environment steps per iteration")
    parser.add_argument("--address", help="a running Ray cluster (default: RAY_ADDRESS, else an embedded Ray)")
    args = parser.parse_args()
    connect(args.address, num_cpus=max(args.runners))
    import ray

    print(f"{args.env}: environment steps per second (iterations 2-{args.iterations} of {args.batch} steps), {len(ray.nodes())} Ray node(s)")
    print(f"{'setting':<34}{'steps/s':>10}  env runners' nodes")
    for runners in args.runners:
        rate, nodes = rllib_rate(args.env, runners, args.iterations, args.batch)
        print(f"{f'RLlib PPO, {runners} env runner(s)':<34}{rate:>10,.0f}  {', '.join(nodes)}", flush=True)
    print(f"{'SB3 MaskablePPO (time/fps)':<34}{sb3_rate(args.env, 8192):>10,.0f}  this process")


if __name__ == "__main__":
    main()
