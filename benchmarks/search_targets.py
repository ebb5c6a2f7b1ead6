"""How much a search's policy target says: PUCT's visit distribution beside Gumbel's improved policy.

    python benchmarks/search_targets.py
    python benchmarks/search_targets.py --simulations 32 --positions 200 --gumbel 16

For every game with its shipped model, ``--positions`` positions of random games (each with a
choice: ``batched_search.positions``) are searched by ``mcts:simulations=S,model=MODEL`` with
``gumbel=0`` (PUCT) and ``gumbel=M``, and each root's policy target (``search_policies``) is
summarised by its entropy as a share of the uniform distribution's over the legal actions (1:
says nothing beyond "these moves are legal"; 0: all on one move), the mean over the positions,
and how often the two targets' most likely moves agree.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dice_envs
from benchmarks.batched_search import GAMES, positions
from dice_envs.agents import specs
from dice_envs.agents.mcts import SearchOptions


def relative_entropy(policy: np.ndarray, legal: int) -> float:
    """The entropy of ``policy`` over the entropy of the uniform policy on ``legal`` moves."""
    shares = policy[policy > 0]
    return float(-(shares * np.log(shares)).sum() / np.log(legal))


def target_row(env_name: str, simulations: int, count: int, gumbel: int, seed: int) -> tuple[float, float, float]:
    """PUCT's and Gumbel's mean relative entropy, and the share of positions whose targets' arg-max agree."""
    players, model = GAMES[env_name]
    env = dice_envs.make(env_name, num_players=players)
    states = positions(env, count, seed)
    seats = [env.game.current_player(state) for state in states]
    legal = [len(env.game.legal_actions(state)) for state in states]
    targets = [
        [policy for _, policy in specs.build_search(env_name, SearchOptions(simulations=simulations, model=model, gumbel=m), env, seed=seed).search_policies(states, seats)]
        for m in (0, gumbel)
    ]
    puct, improved = ([relative_entropy(policy, moves) for policy, moves in zip(policies, legal)] for policies in targets)
    agree = np.mean([np.argmax(a) == np.argmax(b) for a, b in zip(*targets)])
    return float(np.mean(puct)), float(np.mean(improved)), float(agree)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--envs", nargs="+", choices=list(GAMES), default=list(GAMES))
    parser.add_argument("--simulations", type=int, default=16, help="simulations per position (default 16)")
    parser.add_argument("--positions", type=int, default=100, help="positions searched per game (default 100)")
    parser.add_argument("--gumbel", type=int, default=16, help="root actions Gumbel's search considers (default 16)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if min(args.simulations, args.positions, args.gumbel) < 1:
        parser.error("--simulations, --positions and --gumbel must be at least 1")
    print(f"policy targets at {args.simulations} simulations, {args.positions} positions a game: entropy as a share of the uniform's")
    print("| game | PUCT's visits | Gumbel's improved policy | same most likely move |")
    print("|---|---:|---:|---:|")
    for env_name in args.envs:
        puct, improved, agree = target_row(env_name, args.simulations, args.positions, args.gumbel, args.seed)
        print(f"| `{env_name}` | {puct:.2f} | {improved:.2f} | {agree:.2f} |")


if __name__ == "__main__":
    main()
