"""Batched search: simulations per second with a learned evaluator, many positions searched together.

    python benchmarks/batched_search.py
    python benchmarks/batched_search.py --envs age_of_craft_v1 --simulations 32 --positions 256
    python benchmarks/batched_search.py --leaves 8
    python benchmarks/batched_search.py --gumbel 16
    python benchmarks/batched_search.py --quick

For every game with its shipped model, ``--positions`` positions of random games (each with a
choice to make) are searched by ``mcts:simulations=S,model=MODEL`` (``MCTSAgent.search_many``),
``B`` positions at a time: their trees run in lockstep and one evaluator pass answers all their
requests.  "today" is the search as it was before batching, in the same run: one position at a
time through the torch evaluator; the other columns use the evaluator ``specs.build`` gives a
search (numpy below ``learned.NUMPY_ROWS`` rows a pass, torch from there).  Every cell searches the
same positions from the same seed, in CPU time (``time.process_time``) on one core: one torch
thread and one OpenBLAS thread.  Printed: simulations per second and the ratio to "today".
``--leaves K`` searches the batch columns with ``leaves=K`` (K simulations of each tree waiting for
the same pass, with a virtual loss); "today" keeps one.  ``--gumbel M`` searches them with
Gumbel AlphaZero's root over M actions (``mcts:gumbel``, what expert iteration's configs use);
"today" stays PUCT.

First, the evaluators alone (``--evaluators`` prints only these): the microseconds of one
``evaluate`` call on 1, 16, 64 and 256 rows, numpy and torch, each the best of a few repeats.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy loads OpenBLAS: one core, as torch's one thread

import argparse
import sys
import time
import timeit
from collections.abc import Sequence
from pathlib import Path

import numpy as np

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dice_envs
from dice_envs.agents import specs
from dice_envs.agents.mcts import MCTSAgent, SearchOptions
from dice_envs.core.state import GameState

GAMES = {
    "dice_age_v1": (2, "dice_age_ppo"),
    "mammoth_hunters_v1": (3, "mammoth_hunters_ppo"),
    "age_of_craft_v1": (2, "age_of_craft_ppo"),
    "dino_hunt_v0": (2, "dino_hunt_ppo"),
    "dalek_dice_v0": (2, "dalek_dice_ppo"),
}
"""Each game's shipped model with a value head, and the player count it was trained for."""
BATCHES = (1, 16, 64, 256)
QUICK_BATCHES = (1, 4)


def positions(env: dice_envs.DiceGameEnv, count: int, seed: int) -> list[GameState]:
    """``count`` positions with a choice, every third such decision of random games."""
    game, rng = env.game, np.random.default_rng(seed)
    found: list[GameState] = []
    while len(found) < count:
        state, decisions = game.initial_state(rng), 0
        while not game.is_terminal(state) and len(found) < count:
            legal = game.legal_actions(state)
            if len(legal) > 1:
                decisions += 1
                if decisions % 3 == 0:
                    found.append(state.clone())
            game.apply(state, legal[rng.integers(len(legal))], rng)
    return found


def torch_only(search: MCTSAgent) -> MCTSAgent:
    """The search with every evaluator pass through torch, as before numpy evaluated small ones."""
    from dice_envs.agents.learned import SearchEvaluator

    assert isinstance(search.evaluator, SearchEvaluator)
    search.evaluator = SearchEvaluator(search.evaluator.agent, numpy=None)
    return search


def simulations_per_second(search: MCTSAgent, states: Sequence[GameState], batch: int) -> float:
    seats = [search.game.current_player(state) for state in states]
    start = time.process_time()
    for first in range(0, len(states), batch):
        search.search_many(states[first : first + batch], seats[first : first + batch])
    return len(states) * search.options.simulations / (time.process_time() - start)


def search_row(env_name: str, simulations: int, count: int, batches: Sequence[int], seed: int, leaves: int = 1, gumbel: int = 0) -> dict[str, float]:
    """Simulations per second of "today" and of each batch size, for one game."""
    players, model = GAMES[env_name]
    env = dice_envs.make(env_name, num_players=players)
    states = positions(env, count, seed)

    def build(leaves: int, gumbel: int) -> MCTSAgent:
        return specs.build_search(env_name, SearchOptions(simulations=simulations, model=model, leaves=leaves, gumbel=gumbel), env, seed=seed)

    row = {"today": simulations_per_second(torch_only(build(1, 0)), states, 1)}
    for batch in batches:
        row[str(batch)] = simulations_per_second(build(leaves, gumbel), states, batch)
    return row


def evaluator_row(env_name: str, rows: Sequence[int], seed: int, repeats: int) -> dict[int, tuple[float, float]]:
    """Microseconds of one ``evaluate`` call on each number of rows: (numpy, torch)."""
    from dice_envs.agents.learned import SearchEvaluator, load_evaluator

    players, model = GAMES[env_name]
    env = dice_envs.make(env_name, num_players=players)
    evaluator = load_evaluator(env, specs.resolve_model(model))
    assert isinstance(evaluator, SearchEvaluator) and evaluator.numpy is not None
    states = positions(env, max(rows), seed)
    observations = np.stack([env.encoder.encode(state, env.game.current_player(state)) for state in states])
    masks = np.zeros((len(states), env.game.num_actions), dtype=np.int8)
    for row, state in enumerate(states):
        masks[row, env.game.legal_actions(state)] = 1
    timings = {}
    for count in rows:
        calls = max(1, 2000 // count)
        timed = [
            min(timeit.repeat(lambda: evaluate(observations[:count], masks[:count]), number=calls, repeat=repeats)) / calls * 1e6  # noqa: B023
            for evaluate in (evaluator.numpy.evaluate, evaluator.agent.evaluate)
        ]
        timings[count] = (timed[0], timed[1])
    return timings


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--envs", nargs="+", choices=list(GAMES), default=list(GAMES))
    parser.add_argument("--simulations", type=int, default=32, help="simulations per position (default 32)")
    parser.add_argument("--positions", type=int, default=256, help="positions searched in each cell (default 256)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--leaves", type=int, default=1, help="simulations of a tree waiting for one pass in the batch columns (default 1)")
    parser.add_argument("--gumbel", type=int, default=0, help="Gumbel AlphaZero's root over this many actions in the batch columns (default 0: PUCT)")
    parser.add_argument("--evaluators", action="store_true", help="time the evaluators alone, no search")
    parser.add_argument("--quick", action="store_true", help="a smoke test: 8 positions, 4 simulations, batches of 1 and 4")
    args = parser.parse_args(argv)
    if min(args.simulations, args.positions, args.leaves) < 1 or args.gumbel < 0:
        parser.error("--simulations, --positions and --leaves must be at least 1, --gumbel 0 or more")
    if args.gumbel and args.leaves > 1:
        parser.error("--gumbel searches one leaf at a time: give it without --leaves")
    import torch

    torch.set_num_threads(1)  # one core, as the figures are stated
    batches, rows = (QUICK_BATCHES, QUICK_BATCHES) if args.quick else (BATCHES, BATCHES)
    simulations, count = (4, 8) if args.quick else (args.simulations, args.positions)
    print("evaluate() microseconds a call, numpy / torch (torch/numpy):")
    print(f"| game | {' | '.join(f'{n} rows' for n in rows)} |")
    print(f"|---|{'---:|' * len(rows)}")
    for env_name in args.envs:
        timings = evaluator_row(env_name, rows, args.seed, repeats=2 if args.quick else 5)
        cells = [f"{ours:.0f} / {theirs:.0f} ({theirs / ours:.1f}x)" for ours, theirs in timings.values()]
        print(f"| `{GAMES[env_name][1]}` | {' | '.join(cells)} |")
    if args.evaluators:
        return
    print(f"\nsimulations per second, {simulations} a position, {count} positions, B searched together, leaves={args.leaves}, gumbel={args.gumbel} (x today):")
    print(f"| game | today (torch, one at a time) | {' | '.join(f'B={batch}' for batch in batches)} |")
    print(f"|---|---:|{'---:|' * len(batches)}")
    for env_name in args.envs:
        row = search_row(env_name, simulations, count, batches, args.seed, args.leaves, args.gumbel)
        today = row["today"]
        cells = [f"{row[str(batch)]:,.0f} ({row[str(batch)] / today:.1f}x)" for batch in batches]
        print(f"| `{env_name}` | {today:,.0f} | {' | '.join(cells)} |")


if __name__ == "__main__":
    main()
