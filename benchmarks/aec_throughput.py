"""AEC throughput: random legal games through the full PettingZoo API, beside PettingZoo's own.

    python benchmarks/aec_throughput.py [--seconds 5] [--players 2] [--json out.json]

Each environment is played for about ``--seconds`` with ``last()`` / uniform legal action /
``step()``, the loop every AEC user writes.  Reported: AEC steps per second (dead steps of
finished agents included, as in any AEC loop), games per second, and the ratio to
``connect_four_v3`` through ``env()``.  PettingZoo's classic games need pygame
(``pip install -e ".[bench]"``).
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import dice_envs


def measure(make_env: Callable[[], Any], seconds: float, seed: int = 0) -> dict[str, float]:
    env = make_env()
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed + games)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(len(legal))])
            env.step(action)
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"steps_per_s": steps / elapsed, "games_per_s": games / elapsed, "steps_per_game": steps / games}


def candidates(num_players: int) -> dict[str, Callable[[], Any]]:
    envs: dict[str, Callable[[], Any]] = {}
    try:
        from pettingzoo.classic import connect_four_v3, tictactoe_v3

        envs["connect_four_v3 env()"] = connect_four_v3.env
        envs["tictactoe_v3 env()"] = tictactoe_v3.env
    except ImportError as error:  # pygame missing
        print(f"PettingZoo classic games unavailable ({error}); install the 'bench' extra to compare.")
    for name in dice_envs.list_envs():
        module = dice_envs.env_module(name)
        params = module.raw_env.game_class.params_class
        players = min(max(num_players, params.min_players), params.max_players)
        envs[f"{name} env() {players}p"] = lambda module=module, n=players: module.env(num_players=n)
        envs[f"{name} raw_env() {players}p"] = lambda module=module, n=players: module.raw_env(num_players=n)
    return envs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per environment")
    parser.add_argument("--players", type=int, default=2, help="players in the dice games (brought into each game's range)")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()

    results = {label: measure(make_env, args.seconds) for label, make_env in candidates(args.players).items()}
    reference = results.get("connect_four_v3 env()", {}).get("steps_per_s")
    print(f"{'environment':<32}{'steps/s':>12}{'games/s':>10}{'steps/game':>12}{'vs connect_four':>17}")
    for label, result in results.items():
        ratio = f"{result['steps_per_s'] / reference:.2f}x" if reference else "-"
        print(f"{label:<32}{result['steps_per_s']:>12,.0f}{result['games_per_s']:>10,.1f}{result['steps_per_game']:>12.1f}{ratio:>17}")
    if args.json:
        meta = {"python": platform.python_version(), "machine": platform.machine(), "seconds": args.seconds}
        with open(args.json, "w") as handle:
            json.dump({"meta": meta, "results": results}, handle, indent=2)


if __name__ == "__main__":
    main()
