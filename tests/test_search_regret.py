"""``benchmarks/search_regret.py``: the exact regret of the turn-maximising search in Dalek Dice."""

from __future__ import annotations

import pytest

import dice_envs
from benchmarks import search_regret
from dice_envs.agents import make_agent
from tests.conformance.playouts import random_playout


def test_the_solver_s_own_choice_has_the_best_value() -> None:
    """The action values agree with the exact solver: what ``optimal_points`` plays is worth the most."""
    env = dice_envs.make("dalek_dice_v0", num_players=2, raw=True)
    solver = make_agent("dalek_dice_v0", "optimal_points", env)
    checked = 0
    for seed in range(30):
        for state in random_playout(env.game, seed):
            if env.game.current_player(state) != 0 or len(env.game.legal_actions(state)) < 2:
                continue
            values = search_regret.action_values(state)
            assert values[solver.act_at([state], 0)[0]] == pytest.approx(max(values.values()))
            checked += 1
    assert checked > 50


def test_a_small_run_reports_its_rows() -> None:
    row = search_regret.search_regret("mcts:objective=turn,simulations=3", turns=4)
    assert row.turns == 4 and row.decisions >= row.wrong >= 0 and row.regret >= 0
    assert sum(count for count, _ in row.by_kind.values()) == row.wrong
    assert 0 < row.share_of_optimum <= 1
