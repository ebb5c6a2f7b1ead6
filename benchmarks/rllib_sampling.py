"""RLlib's throughput on this machine: environment steps per second at 1 and 2 env runners.

    pip install -e ".[rllib,bench]"
    python benchmarks/rllib_sampling.py [--env dino_hunt_v0] [--runners 1 2] [--iterations 4] [--batch 2000]

For each number of env runners, multi-agent PPO with one shared masking module
(``training.rllib_module``, the SB3 default's network: [64, 64], tanh, separate policy and value
networks) trains ``--iterations`` iterations of ``--batch`` environment steps on the game
(``training.rllib_env``), on an embedded Ray on this machine (``training.ray_cluster.connect``,
one CPU per runner; the learner runs in the driver).  Reported, over every iteration but the
first (start-up): environment steps sampled per second of the iterations' wall time
(``time_this_iter_s``: sampling and learning, which RLlib's PPO alternates; RLlib's own sampling
timer is a moving average that carries the first iteration's start-up, so it is not used).  In
the same run, the reference: MaskablePPO on the same
game through the suite's Stable-Baselines3 path, its own ``time/fps`` (the setting of
``benchmarks/training_throughput.py``: 8 environments, ``random`` in the other seats).

This measures one machine only: the two-node cluster of issue 16 is not set up by this script.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from training.ray_cluster import connect

NETWORK = {"fcnet_hiddens": [64, 64], "fcnet_activation": "tanh", "vf_share_layers": False}
"""The SB3 default's layout, so the export (``training.rllib_export``) can copy it."""


def rllib_rate(env_name: str, runners: int, iterations: int, batch: int) -> float:
    """Env steps sampled per second of whole iterations, after the first iteration."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from training.rllib_env import RLlibDiceEnv
    from training.rllib_module import ActionMaskingPPOModule

    module = RLModuleSpec(module_class=ActionMaskingPPOModule, model_config=NETWORK)
    config = (
        PPOConfig()
        .environment(RLlibDiceEnv, env_config={"env_name": env_name}, disable_env_checking=True)
        .env_runners(num_env_runners=runners, num_envs_per_env_runner=1, num_cpus_per_env_runner=1)
        .learners(num_learners=0)
        .training(train_batch_size_per_learner=batch, minibatch_size=batch // 4, num_epochs=2)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kwargs: "shared")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": module}))
        .debugging(seed=0)
    )
    algo = config.build_algo()
    try:
        results: list[dict[str, Any]] = [algo.train() for _ in range(iterations)][1:]
    finally:
        algo.stop()
    steps = sum(result["env_runners"]["num_env_steps_sampled"] for result in results)
    return steps / sum(result["time_this_iter_s"] for result in results)


def sb3_rate(env_name: str, steps: int) -> float:
    """MaskablePPO's own ``time/fps`` on the game (``benchmarks/training_throughput.py``'s setting)."""
    import torch

    from benchmarks.training_throughput import benchmark_config, measure
    from training.train import make_training_env

    torch.set_num_threads(1)
    config = benchmark_config(env_name, "ppo", steps, "random")
    return measure(config, make_training_env(config, seed=0), steps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="dino_hunt_v0")
    parser.add_argument("--runners", type=int, nargs="+", default=[1, 2], help="env runner counts to measure")
    parser.add_argument("--iterations", type=int, default=4, help="PPO iterations per count (the first is not counted)")
    parser.add_argument("--batch", type=int, default=2000, help="environment steps per iteration")
    args = parser.parse_args()
    connect(None, num_cpus=max(args.runners))
    print(f"{args.env}: environment steps per second (iterations 2-{args.iterations} of {args.batch} steps)")
    print(f"{'setting':<34}{'steps/s':>10}")
    for runners in args.runners:
        print(f"{f'RLlib PPO, {runners} env runner(s)':<34}{rllib_rate(args.env, runners, args.iterations, args.batch):>10,.0f}", flush=True)
    print(f"{'SB3 MaskablePPO (time/fps)':<34}{sb3_rate(args.env, 8192):>10,.0f}")


if __name__ == "__main__":
    main()
