"""Evaluation throughput: a trained model against a heuristic, games per second, batched and not.

    python benchmarks/evaluation_throughput.py [--games 10000] [--baseline REV] [--batch-size 256] [--envs dino_hunt_v0 ...]

For each game, its default model (``dice_envs/models/<game>_ppo.zip``) plays the game's first heuristic
(plus ``random`` in the seats beyond two) for ``--games`` games, seats rotated, exactly as
``dice-envs evaluate`` plays a pairing.  Measured, each in its own process, in one run:

- ``batched``: the working tree's ``play_games`` with ``--batch-size`` games in lockstep (one
  network pass per step of the batch);
- ``one at a time``: the same with a batch of 1 (one network pass per decision);
- ``baseline`` (with ``--baseline REV``): the same evaluation by another commit's code (e.g. the
  one-game-at-a-time loop before batching), from a ``git worktree`` of it.

Each side prints its games per second and the model's win rate; the rates must agree within
their intervals (the batched games are the same deals; only the random agents' draws and the
models' ties can differ in order).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))

from engine_throughput import baseline_tree

DEFAULT_ENVS = ("dino_hunt_v0", "dalek_dice_v0", "dice_age_v1", "mammoth_hunters_v1", "age_of_craft_v1")


def worker(env_name: str, games: int, batch_size: int | None) -> dict[str, Any]:
    """Play the evaluation with whatever code ``dice_envs`` and ``agents`` are imported from."""
    import torch

    import dice_envs
    from dice_envs.agents import SCRIPTED_AGENTS, make_agent
    from dice_envs.agents.learned import load_model_agent
    from dice_envs.agents.specs import resolve_model
    from dice_envs.arena.play import play_games, standings_from

    torch.set_num_threads(1)
    num_players = dice_envs.env_module(env_name).raw_env.game_class.params_class.min_players
    env = dice_envs.make(env_name, num_players=num_players)
    stem = env_name.rsplit("_v", 1)[0]
    heuristic = SCRIPTED_AGENTS[env_name][0].name
    agents = [load_model_agent(env, resolve_model(f"{stem}_ppo"), seed=0), make_agent(env_name, heuristic, env, seed=1)]
    agents += [make_agent(env_name, "random", env, seed=seat) for seat in range(2, num_players)]
    start = time.perf_counter()
    outcomes = play_games(env, agents, games, 0) if batch_size is None else play_games(env, agents, games, 0, batch_size)
    seconds = time.perf_counter() - start
    model, *_ = standings_from(outcomes, ["model", heuristic, *(f"random{seat}" for seat in range(2, num_players))])
    low, high = model.win_rate_interval()
    return {
        "source": str(Path(dice_envs.__file__).resolve().parent.parent),
        "opponent": heuristic,
        "players": num_players,
        "games_per_s": games / seconds,
        "seconds": seconds,
        "win_rate": model.win_rate,
        "ci95": [low, high],
    }


def run_worker(source: Path, env_name: str, games: int, batch_size: int | None) -> dict[str, Any]:
    environment = {**os.environ, "PYTHONPATH": str(source), "OMP_NUM_THREADS": "1"}
    command = [sys.executable, __file__, "--worker", env_name, "--games", str(games)]
    command += [] if batch_size is None else ["--worker-batch", str(batch_size)]
    result = json.loads(subprocess.run(command, env=environment, check=True, capture_output=True, text=True).stdout)
    if Path(result["source"]) != source.resolve():
        raise SystemExit(f"the worker imported dice_envs from {result['source']}, not {source}")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per side and game (default 10000)")
    parser.add_argument("--batch-size", type=int, default=256, help="games in lockstep on the batched side (default 256)")
    parser.add_argument("--baseline", metavar="REV", help="also run this commit's evaluation, from a git worktree")
    parser.add_argument("--envs", nargs="+", default=list(DEFAULT_ENVS), help="games to measure")
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--worker", metavar="ENV", help=argparse.SUPPRESS)
    parser.add_argument("--worker-batch", type=int, help=argparse.SUPPRESS)  # none: the baseline's own call
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, args.games, args.worker_batch)))
        return

    sides: dict[str, tuple[Path, int | None]] = {f"batched ({args.batch_size})": (REPO, args.batch_size), "one at a time": (REPO, 1)}
    if args.baseline:
        sides[f"baseline {args.baseline}"] = (baseline_tree(args.baseline), None)
    results: dict[str, dict[str, Any]] = {}
    print(f"{'environment':<20}{'side':<22}{'games':>7}{'games/s':>10}{'vs baseline':>13}  model win rate [95% CI]")
    for env_name in args.envs:
        results[env_name] = {side: run_worker(source, env_name, args.games, size) for side, (source, size) in sides.items()}
        reference = results[env_name][f"baseline {args.baseline}"]["games_per_s"] if args.baseline else None
        for side, row in results[env_name].items():
            ratio = f"{row['games_per_s'] / reference:.2f}x" if reference else "-"
            low, high = row["ci95"]
            print(
                f"{env_name:<20}{side:<22}{args.games:>7}{row['games_per_s']:>10,.1f}{ratio:>13}"
                f"  {row['win_rate']:.3f} [{low:.3f}, {high:.3f}] vs {row['opponent']}",
                flush=True,
            )
    if args.json:
        meta = {"python": platform.python_version(), "games": args.games, "batch_size": args.batch_size, "baseline": args.baseline}
        with open(args.json, "w") as handle:
            json.dump({"meta": meta, "results": results}, handle, indent=2)


if __name__ == "__main__":
    main()
