"""What one decision of the ``mcts`` agent costs: milliseconds per searched decision, in real games.

    python benchmarks/search_cost.py age_of_craft_v1 mcts:simulations=100,model=age_of_craft_ppo trader
    python benchmarks/search_cost.py mammoth_hunters_v1 mcts:simulations=50 raider raider --games 2
    python benchmarks/search_cost.py age_of_craft_v1 mcts:simulations=100,model=age_of_craft_ppo trader --profile

The search plays seat 0 against the given agents (one per other seat) for ``--games`` games, one
process, one torch thread, seats rotated, and every decision it searches (one with a choice; a
forced move costs nothing) is timed in CPU time (``time.process_time``): what the decision costs
one core, which other jobs on the machine do not inflate as they inflate wall time.  Printed: the
decisions timed, the mean, median, 95th percentile and largest milliseconds; with ``--profile``,
also where the search's time goes (``cProfile``, the searches only, by cumulative time).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dice_envs
from dice_envs.agents.mcts import is_search_spec
from dice_envs.arena.timing import decision_seconds


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("env", choices=dice_envs.list_envs())
    parser.add_argument("search", help="the mcts spec, e.g. mcts:simulations=100")
    parser.add_argument("opponents", nargs="+", help="one agent spec per other seat")
    parser.add_argument("--games", type=int, default=4, help="games played (default 4)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", action="store_true", help="also print where the searches' time goes (cProfile)")
    args = parser.parse_args(argv)
    if not is_search_spec(args.search):
        parser.error(f"not an mcts spec: {args.search!r}")
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    import torch

    torch.set_num_threads(1)  # one core, as the budget is stated
    profile = cProfile.Profile() if args.profile else None
    ms = np.array(decision_seconds(args.env, args.search, args.opponents, args.games, args.seed, profile)) * 1000
    print(
        f"{args.env} {args.search} vs {' '.join(args.opponents)}: {ms.size} searched decisions in {args.games} games; "
        f"ms per decision mean {ms.mean():.1f}, median {np.median(ms):.1f}, 95th percentile {np.percentile(ms, 95):.1f}, max {ms.max():.1f}"
    )
    if profile is not None:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
