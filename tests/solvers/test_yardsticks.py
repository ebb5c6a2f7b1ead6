"""``absolute_yardsticks``: the exact optimum as a fixed scale beside a ladder rating in Dino Hunt and Dalek Dice."""

from __future__ import annotations

import pytest

import dice_envs
from dice_envs.agents.base import RandomAgent
from dice_envs.arena.optimality import YARDSTICK_GAMES, WinRegret, Yardsticks, absolute_yardsticks, optimal_points_per_turn
from dice_envs.arena.tournament import Entrant, entrant_from_spec

HEURISTICS = {"dino_hunt_v0": "two_footprints", "dalek_dice_v0": "protect_humans"}


@pytest.mark.parametrize("env_name", YARDSTICK_GAMES)
def test_a_heuristic_falls_short_of_the_optimum_and_the_points_solver_meets_it(env_name: str) -> None:
    heuristic = absolute_yardsticks(env_name, HEURISTICS[env_name], seed=1, turns=2000, regret_games=0)
    optimal = absolute_yardsticks(env_name, "optimal_points", seed=1, turns=2000, regret_games=0)
    assert heuristic is not None and optimal is not None
    assert heuristic.optimum == optimal.optimum == optimal_points_per_turn(env_name)
    assert heuristic.share_interval[1] < 1
    low, high = optimal.share_interval
    assert optimal.share == pytest.approx(1, abs=high - low)  # within twice the 95% half-width: about four standard errors


def test_the_win_regret_is_zero_for_optimal_win_and_positive_for_a_heuristic() -> None:
    optimal = absolute_yardsticks("dino_hunt_v0", "optimal_win", seed=3, turns=100, regret_games=30)
    heuristic = absolute_yardsticks("dino_hunt_v0", "cup_counter", seed=3, turns=100, regret_games=100)
    assert optimal is not None and optimal.win_regret is not None and heuristic is not None and heuristic.win_regret is not None
    assert optimal.win_regret.regret == 0 and optimal.win_regret.implied_value == pytest.approx(0.5)
    assert heuristic.win_regret.games == 100 and heuristic.win_regret.low > 0


def test_the_win_regret_is_measured_in_two_player_dino_hunt_only() -> None:
    for env_name, players, regret_games in (("dalek_dice_v0", 2, 10), ("dino_hunt_v0", 3, 10), ("dino_hunt_v0", 2, 0)):
        yardsticks = absolute_yardsticks(env_name, "random", turns=10, regret_games=regret_games, players=players)
        assert yardsticks is not None and yardsticks.win_regret is None


def test_other_games_have_no_yardsticks() -> None:
    others = [env_name for env_name in dice_envs.list_envs() if env_name not in YARDSTICK_GAMES]
    assert others
    for env_name in others:
        assert absolute_yardsticks(env_name, "random") is None


def test_an_entrant_measures_as_its_spec() -> None:
    """Seeded as the spec would be, even for an agent that draws random numbers."""
    by_spec = absolute_yardsticks("dino_hunt_v0", "random", seed=2, turns=300, regret_games=20)
    assert by_spec == absolute_yardsticks("dino_hunt_v0", entrant_from_spec("dino_hunt_v0", "random"), seed=2, turns=300, regret_games=20)
    own = Entrant("mine", lambda env, seed: RandomAgent(env, seed=seed))
    assert by_spec == absolute_yardsticks("dino_hunt_v0", own, seed=2, turns=300, regret_games=20)


def test_the_search_and_a_trained_model_are_measured_from_their_specs() -> None:
    search = absolute_yardsticks("dalek_dice_v0", "mcts:simulations=5", turns=20)
    assert search is not None and 0 < search.share < 1.5
    pytest.importorskip("torch")
    model = absolute_yardsticks("dino_hunt_v0", "model:dino_hunt_ppo_win", turns=200, regret_games=10)
    assert model is not None and model.win_regret is not None and model.win_regret.regret >= 0


def test_the_lines_name_the_figures() -> None:
    regret = WinRegret(games=400, regret=0.02, low=0.015, high=0.025, implied_value=0.48)
    lines = Yardsticks("dino_hunt_v0", 7, optimum=2.5, turns=1000, points=2.0, points_low=1.9, points_high=2.1, win_regret=regret).lines()
    assert lines[0] == (
        "points per turn 2.000 [1.900, 2.100] = 80.0% [76.0%, 84.0%] of the exact optimum 2.500 (95%; 1000 single turns at scores 0, seeds 7..1006)"
    )
    assert lines[1] == (
        "win regret against optimal_win 0.0200 [0.0150, 0.0250] a game (0 for optimal play), so P(win) + P(shared)/2 = 0.480 [0.475, 0.485] "
        "(95%; exact per decision, 400 games, seats rotated, seeds 7..406)"
    )
    assert len(Yardsticks("dalek_dice_v0", 0, 14.9, 10, 8.6, 8.5, 8.7, None).lines()) == 1
