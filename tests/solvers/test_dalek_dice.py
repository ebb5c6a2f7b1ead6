"""The exact Dalek Dice turn solver: hand-checked positions, the engine itself as a brute-force
reference, and simulation of the optimal agent through the real environment."""

from __future__ import annotations

import math
from itertools import product

import numpy as np
import pytest

import dice_envs
from dice_envs.agents import make_agent
from dice_envs.agents.solvers import dalek_dice as solver
from dice_envs.arena.optimality import points_per_turn
from dice_envs.core.race import Race
from dice_envs.dalek_dice.actions import KEEP_DALEK_3, KEEP_HUMAN_2, ROLL, STOP
from dice_envs.dalek_dice.data import NUM_DICE, Face
from dice_envs.dalek_dice.rules import DalekDice
from dice_envs.dalek_dice.state import DalekDiceParams, DalekDiceState, Decision, TurnEnd, humans, turn_points
from tests.helpers import ScriptedRng, pick

Z_999 = 3.2905  # two-sided 99.9% normal quantile


def test_one_die_left_by_hand() -> None:
    solved = solver.points_solution()
    # 4 Humans, 6 Daleks kept, one die left.  It must be kept: Human 4 -> 8 vs 6: 0;
    # Human 2 -> 6 + 5 = 11; Dalek 3 or 2 -> 4 + 5 = 9; a Doctor or an Exterminate! is kept
    # automatically and leaves no dice: 4 + 5 = 9.  (0 + 11 + 9 * 4) / 6 = 47/6 > 4 (stop).
    assert solved.roll[1, 0, 0, 4, 6] == pytest.approx(47 / 6)
    assert solved.cont[1, 0, 0, 4, 6] == pytest.approx(47 / 6)
    # With two Doctors kept, a third Doctor scores 0: (0 + 11 + 9 + 9 + 0 + 9) / 6.
    assert solved.roll[1, 2, 0, 4, 6] == pytest.approx(38 / 6)
    # 4 Humans, no Daleks, two Exterminate!s: only a third Exterminate! scores (2 x 4 + 5).
    assert solved.roll[1, 0, 2, 4, 0] == pytest.approx(13 / 6)
    assert solved.cont[1, 0, 2, 4, 0] == pytest.approx(13 / 6)  # stopping scores 0


def test_vectorised_scoring_is_the_engines() -> None:
    for h4, h2, d3, d2 in product(range(4), repeat=4):
        kept = [h4, h2, d3, d2]
        h, d = humans(kept), 3 * d3 + 2 * d2
        assert solver.stop_points(h, d) == turn_points(TurnEnd.STOPPED, kept, 3)
        assert solver.no_dice_points(h, d) == turn_points(TurnEnd.NO_DICE_LEFT, kept, 0)
        for left in (0, 2):
            assert solver.exterminate_points(h, left == 0) == turn_points(TurnEnd.EXTERMINATE, kept, left)
        canonical = solver.canonical_kept(h, d)
        assert humans(canonical) == h and 3 * canonical[2] + 2 * canonical[3] == d


def test_roll_tables_are_distributions() -> None:
    for n in range(1, NUM_DICE + 1):
        assert sum(table.sum() for table in solver.roll_table(n).values()) == pytest.approx(1.0)


# ----------------------------------------------------------------- the engine as reference


def _position(h: int, d: int, doc: int, ext: int, n: int, kept: list[int] | None = None) -> DalekDiceState:
    """A keep decision after which the player may roll the ``n`` dice left or stop; ``kept`` (by
    face) makes ``h`` Humans and ``d`` Daleks of the dice not otherwise accounted for, so that all
    ten are (``set_state`` refuses a position that loses dice)."""
    return DalekDiceState(
        race=Race.new(2),
        decision=Decision.KEEP,
        rolled=[0, 0, 0, 0],
        kept=kept if kept is not None else solver.canonical_kept(h, d),
        doctors=doc,
        exterminates=ext,
        to_reroll=n,
        kept_this_roll=1,
        rolls=1,
        last_roll=[0] * len(Face),
        last_turn_end=TurnEnd.NONE,
        last_turn_points=0,
    )


def engine_value(game: DalekDice, state: DalekDiceState, memo: dict) -> float:
    """Best expected points from a decision, trying every legal action and every roll in the engine."""
    key = state.to_json()
    if key in memo:
        return memo[key]
    best = -1.0
    for action in game.legal_actions(state):
        if action == ROLL:
            n = state.to_reroll + sum(state.rolled)
            outcomes = [[pick(face, 6) for face in faces] for faces in product(range(6), repeat=n)]
        else:
            outcomes = [[]]
        total = 0.0
        for uniforms in outcomes:
            after = state.clone()
            game.apply(after, action, ScriptedRng(uniforms))
            if after.decision == Decision.START_TURN:  # the turn ended
                total += after.last_turn_points
            else:
                total += engine_value(game, after, memo)
        best = max(best, total / len(outcomes))
    memo[key] = best
    return best


def test_solver_matches_the_engine_with_few_dice_left() -> None:
    game = DalekDice(DalekDiceParams())
    solved = solver.points_solution()
    memo: dict = {}
    for (h, d), doc, ext, n in product([(0, 0), (4, 6), (6, 5), (8, 3), (2, 0)], range(3), range(3), (1, 2, 3)):
        if n == 3 and (doc, ext) not in ((0, 0), (2, 2), (1, 2)):
            continue  # keep the test quick
        expected = engine_value(game, _position(h, d, doc, ext, n), memo)
        assert solved.cont[n, doc, ext, h, d] == pytest.approx(expected, abs=1e-12), (h, d, doc, ext, n)


def test_policy_evaluation_of_the_optimal_agent_reproduces_the_solver() -> None:
    env = dice_envs.make("dalek_dice_v0")
    agent = make_agent("dalek_dice_v0", "optimal_points", env)
    solved = solver.points_solution()
    for h, d, doc, ext, n in [(0, 0, 0, 0, 4), (4, 6, 1, 1, 4), (8, 9, 2, 0, 3), (4, 0, 0, 2, 4), (2, 2, 2, 2, 2)]:
        assert solver.policy_roll_value(agent, h, d, doc, ext, n) == pytest.approx(solved.roll[n, doc, ext, h, d], abs=1e-12)


# --------------------------------------------------------------------------- the agent


def test_agent_keeps_the_best_dice_one_at_a_time() -> None:
    env = dice_envs.make("dalek_dice_v0", raw=True)
    env.reset(seed=0)
    agent = make_agent("dalek_dice_v0", "optimal_points", env)
    # Just rolled: Human 2 and Dalek 3 with 4 Humans, 6 Daleks kept (two Human 2s, two Dalek 3s),
    # 2 Doctors, 2 Exterminate!s, nothing kept from this roll.  Keeping both ends the turn with
    # 6 Humans, 9 Daleks, no dice left: 6 + 5.
    state = _position(4, 6, 2, 2, 0, kept=[0, 2, 2, 0])
    state.rolled, state.kept_this_roll, state.rolls = [0, 1, 1, 0], 0, 4
    env.set_state(state)
    obs = env.observe(env.agent_selection)
    first = agent.act(obs["observation"], obs["action_mask"])
    assert first in (KEEP_HUMAN_2, KEEP_DALEK_3)
    env.step(first)
    obs = env.observe(env.agent_selection)
    second = agent.act(obs["observation"], obs["action_mask"])
    assert {first, second} == {KEEP_HUMAN_2, KEEP_DALEK_3}
    env.step(second)
    assert env.game_state.last_turn_points == 11
    # 8 Humans covered by 9 Daleks, 2 Doctors, one die left: rolling scores 13 on a Dalek or an
    # Exterminate! and 0 otherwise, (3 x 13) / 6 = 6.5 < 8: stop.
    assert solver.points_solution().roll[1, 2, 0, 8, 9] == pytest.approx(6.5)
    env.set_state(_position(8, 9, 2, 0, 1, kept=[0, 4, 3, 0]))
    obs = env.observe(env.agent_selection)
    assert agent.act(obs["observation"], obs["action_mask"]) == STOP
    # ... but with 4 Humans covered by 6 Daleks (five dice of 2) and 2 Exterminate!s,
    # (0 + 11 + 9 + 9 + 0 + 13) / 6 > 4: roll.
    env.set_state(_position(4, 6, 2, 2, 1, kept=[0, 2, 0, 3]))
    obs = env.observe(env.agent_selection)
    assert agent.act(obs["observation"], obs["action_mask"]) == ROLL


# --------------------------------------------------------------------------- simulation


def test_optimal_agent_reaches_the_computed_value_in_the_real_environment() -> None:
    exact = solver.optimal_points_per_turn()
    mean, low, high = points_per_turn("dalek_dice_v0", "optimal_points", turns=1500, seed=3, z=Z_999)
    assert low <= exact <= high, (mean, low, high, exact)


def test_heuristics_score_less_than_the_optimum() -> None:
    optimum = solver.optimal_points_per_turn()
    for name in ("protect_humans", "doctor_odds"):
        _, _, high = points_per_turn("dalek_dice_v0", name, turns=600, seed=9, z=Z_999)
        assert high < optimum, name
    assert np.isfinite(optimum) and 10 < optimum < 20


@pytest.mark.parametrize("n", [1, 4, NUM_DICE])
def test_the_solvers_rolls_are_the_engines_chance_nodes(n: int) -> None:
    """``engine_roll`` is the engine's chance node for a roll of ``n`` dice: every count of the six
    faces, multinomially likely."""
    outcomes = solver.engine_roll(n)
    assert len(outcomes) == len({tuple(counts) for _, counts in outcomes}) == math.comb(n + 5, 5)
    assert abs(sum(p for p, _ in outcomes) - 1) < 1e-12
    assert all(sum(counts) == n and len(counts) == len(Face) for _, counts in outcomes)
    all_human_4 = next(p for p, counts in outcomes if counts[Face.HUMAN_4] == n)
    assert all_human_4 == pytest.approx(6.0**-n)
