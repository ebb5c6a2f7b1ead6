"""Where the turn-maximising search loses points in Dalek Dice: the exact regret of its decisions.

    python benchmarks/search_regret.py --budgets 100,1000 --turns 200
    python benchmarks/search_regret.py --budgets 1000 --turns 200 --options chance=closed

Along ``mcts:objective=turn,simulations=N`` 's own turns (``player_0``'s first turn of a 2-player
game, turn ``i`` dealt from seed ``seed + i``, as ``dice_envs/arena/optimality.py`` deals them), every
decision with a choice is valued by the exact solver (``dice_envs/agents/solvers/dalek_dice.py``): its
regret is the best action's expected turn points less the chosen one's.  Summed over a turn, the
regrets are in expectation the optimum less the turn's points (the performance-difference
identity), with far less noise than the points themselves.  Printed per budget: the decisions and
the wrong ones, the regret per turn with its 95% interval and the share of the optimum it implies,
and the regret by kind of mistake (the best action's kind against the chosen one's: keep, roll,
stop), per turn and as a count.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from gymnasium.utils import seeding

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dice_envs
from dice_envs.agents.mcts import parse_options
from dice_envs.agents.solvers.dalek_dice import DD, DH, best_keep, exterminate_points, points_solution, stop_points
from dice_envs.agents.specs import build_search
from dice_envs.dalek_dice.actions import ROLL, STOP
from dice_envs.dalek_dice.state import FINISH_KEEPING, DalekDiceState, daleks, dice_left, humans

ENV_NAME = "dalek_dice_v0"
Z95 = 1.959963984540054


def action_values(state: DalekDiceState) -> dict[int, float]:
    """Each legal action's exact expected points for the rest of the turn, playing optimally after it."""
    solution = points_solution()
    h, d, left = humans(state.kept), daleks(state.kept), dice_left(state)
    finishing = state.decision == FINISH_KEEPING
    values = {}
    for action in dice_envs.make(ENV_NAME, raw=True).game.legal_actions(state):
        if action == ROLL:
            values[action] = float(solution.roll[left, state.doctors, state.exterminates, h, d])
        elif action == STOP:
            values[action] = float(exterminate_points(h, left == 0)) if finishing else float(stop_points(h, d))
        else:  # keep one die of this kind
            rolled = list(state.rolled)
            rolled[action] -= 1
            keep = best_keep(solution, h + int(DH[action]), d + int(DD[action]), state.doctors, state.exterminates, left - 1, tuple(rolled), False, finishing)
            values[action] = keep[1]
    return values


def _kind(action: int) -> str:
    return "roll" if action == ROLL else "stop" if action == STOP else "keep"


@dataclass(frozen=True)
class RegretRow:
    spec: str
    turns: int
    decisions: int
    wrong: int
    regret: float
    """Mean regret per turn, in points."""
    half_width: float
    optimum: float
    by_kind: dict[tuple[str, str], tuple[int, float]]
    """(best kind, chosen kind) -> (count, regret per turn)."""

    @property
    def share_of_optimum(self) -> float:
        return (self.optimum - self.regret) / self.optimum


def search_regret(spec: str, turns: int, seed: int = 0) -> RegretRow:
    """The exact regret of ``spec`` (an ``mcts:objective=turn,...`` spec) over ``turns`` turns."""
    env = dice_envs.make(ENV_NAME, num_players=2, raw=True)
    game = env.game
    agent = build_search(ENV_NAME, parse_options(spec), env, seed=seed)
    per_turn, decisions, wrong = [], 0, 0
    by_kind: Counter[tuple[str, str]] = Counter()
    lost: Counter[tuple[str, str]] = Counter()
    for turn in range(turns):
        rng = seeding.np_random(seed + turn)[0]
        state = game.initial_state(rng)
        mover, total = game.current_player(state), 0.0
        while game.current_player(state) == mover:
            legal = game.legal_actions(state)
            action = legal[0]
            if len(legal) > 1:
                values = action_values(state)
                action = agent.search(state, mover)
                regret = max(values.values()) - values[action]
                decisions += 1
                total += regret
                if regret > 1e-9:
                    wrong += 1
                    key = (_kind(max(values, key=values.__getitem__)), _kind(action))
                    by_kind[key] += 1
                    lost[key] += regret
            game.apply(state, action, rng)
        per_turn.append(total)
    mean = float(np.mean(per_turn))
    half = Z95 * float(np.std(per_turn, ddof=1)) / math.sqrt(turns) if turns > 1 else math.inf
    kinds = {key: (by_kind[key], lost[key] / turns) for key in sorted(lost, key=lambda key: -lost[key])}
    return RegretRow(spec, turns, decisions, wrong, mean, half, float(points_solution().start), kinds)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budgets", default="100,1000", help="simulations per decision, comma-separated (default 100,1000)")
    parser.add_argument("--turns", type=int, default=200, help="turns per budget (default 200)")
    parser.add_argument("--options", default="", help="further mcts options for every row, e.g. chance=closed,rollout=protect_humans")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        budgets = [int(budget) for budget in args.budgets.split(",")]
    except ValueError:
        parser.error(f"--budgets: expected whole numbers separated by commas, got {args.budgets!r}")
    if args.turns < 2:
        parser.error(f"--turns must be at least 2, got {args.turns}")
    for budget in budgets:
        spec = f"mcts:objective=turn,simulations={budget}" + (f",{args.options}" if args.options else "")
        row = search_regret(spec, args.turns, args.seed)
        print(
            f"{spec}: {row.turns} turns, {row.decisions} decisions, {row.wrong} wrong; regret {row.regret:.2f} ± {row.half_width:.2f} "
            f"points per turn = {row.share_of_optimum:.1%} of the optimum {row.optimum:.3f}"
        )
        for (best, chosen), (count, per_turn) in row.by_kind.items():
            print(f"  best {best}, chose {chosen}: {count} decisions, {per_turn:.2f} points per turn")


if __name__ == "__main__":
    main()
