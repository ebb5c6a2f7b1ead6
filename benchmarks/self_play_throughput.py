"""Expert iteration's self-play: games per second of one generation on 1 and 2 workers (and Ray).

    python benchmarks/self_play_throughput.py
    python benchmarks/self_play_throughput.py --configs dice_age/expert_iteration --games 64 --simulations 32
    python benchmarks/self_play_throughput.py --ray
    python benchmarks/self_play_throughput.py --quick

For each shipped ``expert_iteration`` config, generation 0 (a fresh network, seeded from the
config) is played with the config's settings bar ``--games`` a generation and ``--simulations`` a
decision, in parts of ``--lockstep`` games (``dice_envs.training.expert_iteration.selfplay``: the
search in every seat, the positions of a part's games searched together), first on one worker, the reference, then on each other count of
``--workers`` (forked processes, ``dice_envs.arena.parallel``) and, with ``--ray``, as Ray tasks on an
embedded Ray of the largest count.  Printed per game: wall-clock games and search decisions per
second (the best of ``--repeats`` runs), the ratio to one worker, and whether every run recorded the
same rows (the data depend on the seed alone).  Wall time, not CPU time: the workers are the point.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch as th

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dice_envs
from dice_envs.agents.learned import policy_to_bytes
from dice_envs.arena.parallel import PartsPlayer
from dice_envs.training.config import TrainConfig, load_config, shipped_configs
from dice_envs.training.distill import Dataset, initial_policy
from dice_envs.training.expert_iteration.selfplay import collect, generation_parts
from dice_envs.training.policy_network import policy_kwargs

CONFIGS = tuple(name for name in shipped_configs() if name.endswith("/expert_iteration"))


def generation(config: TrainConfig, workers: int, play_parts_with: PartsPlayer | None = None) -> tuple[float, Dataset, int]:
    """Seconds of wall time to play generation 0, its rows, and the games played."""
    env = dice_envs.make(config.env.name, **config.env.kwargs)
    th.manual_seed(config.seed)  # the fresh network of the run's generation 0
    network = policy_to_bytes(initial_policy(env, None, policy_kwargs(config.policy))[0])
    parts = generation_parts(config, 0, network, [network])
    start = time.perf_counter()
    data, _, _ = collect(parts, workers, play_parts_with)
    return time.perf_counter() - start, data, sum(part.num_games for part in parts)


def same_rows(one: Dataset, other: Dataset) -> bool:
    return all(np.array_equal(a, b) for a, b in zip(one._arrays(), other._arrays()))


def row(config: TrainConfig, worker_counts: Sequence[int], ray: PartsPlayer | None, repeats: int) -> str:
    """One game's cells: each run's throughput (the best of ``repeats``: the first run in a process
    also pays for loading what it uses) and its ratio to the first (one worker)."""
    runs = [(workers, None) for workers in worker_counts] + ([(max(worker_counts), ray)] if ray else [])
    cells, reference, same = [], None, True
    for workers, player in runs:
        timed = [generation(config, workers, player) for _ in range(repeats)]
        seconds, data, games = min(timed, key=lambda run: run[0])
        same &= all(same_rows(data, other) for _, other, _ in timed)
        if reference is None:
            reference = (seconds, data)
        same &= same_rows(reference[1], data)
        cells.append(f"{games / seconds:.2f} games/s, {int(data.deciding.sum()) / seconds:,.0f} decisions/s ({reference[0] / seconds:.2f}x)")
    return f"| `{config.env.name}` | " + " | ".join(cells) + f" | {'yes' if same else 'NO'} |"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--configs", nargs="+", choices=CONFIGS, default=list(CONFIGS))
    parser.add_argument("--games", type=int, default=32, help="games a generation (default 32)")
    parser.add_argument("--simulations", type=int, default=16, help="search simulations a decision (default 16)")
    parser.add_argument("--lockstep", type=int, default=8, help="games a part, played in lockstep by one worker (default 8: 4 parts of 32 games)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker counts after the one-worker reference (default 1 2)")
    parser.add_argument("--ray", action="store_true", help="also as Ray tasks on an embedded Ray of the largest worker count")
    parser.add_argument("--repeats", type=int, default=2, help="runs of each cell, the fastest shown (default 2)")
    parser.add_argument("--quick", action="store_true", help="a smoke test: 4 games at 2 simulations, in parts of 2")
    args = parser.parse_args(argv)
    if min(args.games, args.simulations, args.lockstep, args.repeats, *args.workers) < 1:
        parser.error("--games, --simulations, --lockstep, --repeats and --workers must be at least 1")
    worker_counts = sorted({1, *args.workers})
    games, simulations, lockstep = (4, 2, 2) if args.quick else (args.games, args.simulations, args.lockstep)
    overrides = [
        f"hyperparameters.games_per_generation={games}",
        f"hyperparameters.simulations={simulations}",
        f"hyperparameters.lockstep_games={lockstep}",  # parts of this many games: the workers' tasks
        "hyperparameters.ladder_games=0",
    ]
    ray = None
    if args.ray:
        from dice_envs.arena.ray import play_parts_on_ray
        from dice_envs.arena.ray_cluster import connect

        connect(None, max(worker_counts))
        ray = play_parts_on_ray
    columns = [f"{workers} worker{'s' if workers > 1 else ''}" for workers in worker_counts] + (["Ray"] if ray else [])
    print(f"generation 0 of each config at {games} games in parts of {lockstep}, {simulations} simulations a decision (wall time)\n")
    print("| env | " + " | ".join(columns) + " | same rows |")
    print("|---|" + "---|" * (len(columns) + 1))
    for name in args.configs:
        print(row(load_config(name, overrides), worker_counts, ray, args.repeats), flush=True)


if __name__ == "__main__":
    main()
