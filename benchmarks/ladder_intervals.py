"""How wide a ladder rating's interval is under each way of dealing and sharing out its games, at equal games.

    python benchmarks/ladder_intervals.py dino_hunt_v0 cup_counter
    python benchmarks/ladder_intervals.py dice_age_v1 planner --games 100 --repeats 4 --workers 2

The agent is rated ``--repeats`` times under each scheme, on disjoint seeds and with the same
games in all: ``single`` (a seed per game), ``duplicate`` (each seed in every seat rotation) and
``keyed`` (duplicate, rolls keyed by seat and turn) play the same games at every table (``dice-envs
ladder --deals single|duplicate|keyed --allocation even``); ``adaptive`` is duplicate with the
games shared out where the result is least certain (the default).  For each scheme the script
prints the mean width of the 95% bootstrap interval (the block bootstrap resamples whole deals),
the spread of the ratings themselves over the repeats (their standard deviation times 3.92, the
width a normal interval of that spread would have: an estimate of the true width, noisy with few
repeats), and the CPU seconds a rating took.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dice_envs.arena.ladder import LADDERS, default_agent_games, rate_agent
from dice_envs.arena.tournament import entrant_from_spec

SEED_STRIDE = 1_000_000
"""Each repeat's seeds start this far from the last one's: no deal is played twice."""


SCHEMES = {"single": (False, False, False), "duplicate": (True, False, False), "keyed": (True, True, False), "adaptive": (True, False, True)}
"""Each scheme's duplicate deals, keyed chance and adaptive allocation (``dice-envs ladder``'s default is ``adaptive``)."""


def measure(env_name: str, spec: str, games: int | None, repeats: int, scheme: str, workers: int, players: int | None) -> dict[str, float]:
    """The mean bootstrap width, the ratings' spread as a width, their mean and the CPU seconds of a rating."""
    widths, ratings, seconds = [], [], []
    for repeat in range(repeats):
        start = time.process_time()
        duplicate_deals, keyed_chance, adaptive = SCHEMES[scheme]
        rating = rate_agent(
            env_name, entrant_from_spec(env_name, spec), games, seed=repeat * SEED_STRIDE, workers=workers, players=players,
            duplicate_deals=duplicate_deals, adaptive=adaptive, keyed_chance=keyed_chance,
        )
        seconds.append(time.process_time() - start)
        low, high = rating.interval
        widths.append(high - low)
        ratings.append(rating.rating)
    return {
        "width": float(np.mean(widths)),
        "spread": float(3.92 * np.std(ratings, ddof=1)) if repeats > 1 else float("nan"),
        "rating": float(np.mean(ratings)),
        "cpu_s": float(np.mean(seconds)),
    }


def schemes(text: str) -> list[str]:
    named = text.split(",")
    if not set(named) <= set(SCHEMES):
        raise argparse.ArgumentTypeError(f"schemes are {', '.join(SCHEMES)}, not {text!r}")
    return named


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("env", choices=sorted(LADDERS))
    parser.add_argument("agent", help="the agent spec to rate")
    parser.add_argument("--games", type=int, help="games a table on average (default: the ladder's)")
    parser.add_argument("--repeats", type=int, default=4, help="ratings per scheme, on disjoint seeds (default 4)")
    parser.add_argument("--players", type=int, help="player count (default: the ladder's first)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--schemes", type=schemes, default=list(SCHEMES), help=f"comma-separated, of {', '.join(SCHEMES)} (default: all)")
    args = parser.parse_args(argv)
    ladder = LADDERS[args.env]
    games = args.games or default_agent_games(ladder, args.players or ladder.players[0])
    print(f"{args.env} {args.agent}: {games} games a table on average, {args.repeats} ratings per scheme (CPU seconds of this process; workers add theirs)")
    print(f"{'scheme':<11}{'mean rating':>12}{'bootstrap width':>17}{'spread width':>14}{'CPU s':>8}")
    for scheme in args.schemes:
        row = measure(args.env, args.agent, games, args.repeats, scheme, args.workers, args.players)
        print(f"{scheme:<11}{row['rating']:>12.0f}{row['width']:>17.1f}{row['spread']:>14.1f}{row['cpu_s']:>8.1f}")


if __name__ == "__main__":
    main()
