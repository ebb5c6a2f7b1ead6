"""The exact Dino Hunt turn solver: hand-checked positions, the engine itself as a brute-force
reference, and simulation of the optimal agent through the real environment."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

import dice_envs
from dice_envs.agents import make_agent
from dice_envs.agents.solvers import dino_hunt as solver
from dice_envs.arena.optimality import points_per_turn
from dice_envs.dino_hunt.actions import ROLL, STOP
from dice_envs.dino_hunt.data import FACES_BY_COLOUR
from dice_envs.dino_hunt.rules import DinoHunt
from dice_envs.dino_hunt.state import Decision, DinoHuntParams, DinoHuntState
from tests.helpers import ScriptedRng, pick

Z_999 = 3.2905  # two-sided 99.9% normal quantile


def test_three_leaves_and_an_empty_cup_by_hand() -> None:
    # 5 Dinos, 2 Footprints, one yellow and two red Leaves in hand, nothing in the cup: rolling
    # re-rolls the three Leaves.  No Footprint: P = 4/6 * 3/6 * 3/6 = 1/6; three Leaves again
    # (1/3)^3 = 1/27 comes back here; any other Footprint-free roll empties the hand: 8 points.
    state = ((0, 0, 0), (0, 1, 2), 2)
    ends, nexts = solver.roll_outcomes(state)
    assert ends[0] == pytest.approx(5 / 6)
    assert ends[8] == pytest.approx(Fraction(1, 6) - Fraction(1, 27))
    assert nexts == {state: pytest.approx(1 / 27)}
    solved = solver.points_solution()
    i = solver.turn_model().index[state]
    assert solved.roll[i, 0] == pytest.approx(8 * (1 / 6 - 1 / 27) / (1 - 1 / 27))  # = 14/13
    assert solved.roll[i, 0] == pytest.approx(14 / 13)
    assert solved.value[i, 0] == 5  # stop
    assert not solved.should_roll(state)


def test_last_die_in_the_cup_by_hand() -> None:
    # 7 Dinos, two red Leaves, one green die in the cup, no Footprints.  The green is drawn;
    # Footprints among green, red, red: P(0) = 5/24, P(1) = 11/24, P(2) = 7/24, P(3) = 1/24.
    # With fewer than 3 Footprints the cup is empty, so the turn ends with 7 + (3 - Footprints),
    # except three Leaves (1/27), which lead to the same dice rolled again.  Both positions are
    # worth (10 (5/24 - 1/27) + 9 (11/24) + 8 (7/24)) / (1 - 1/27) = 1765/208 > 7: roll.
    value = 1765 / 208
    model, solved = solver.turn_model(), solver.points_solution()
    for state in (((1, 0, 0), (0, 0, 2), 0), ((0, 0, 0), (1, 0, 2), 0)):
        assert solver.dinos_of(state) == 7
        assert solved.roll[model.index[state], 0] == pytest.approx(value)
        assert solved.should_roll(state)


def test_an_empty_cup_with_fewer_than_three_leaves_scores_them() -> None:
    # Only reachable by building the position: "roll" turns the Leaves into Dinos.
    state = ((0, 0, 0), (1, 0, 0), 1)
    assert solver.roll_outcomes(state) == ({9: 1.0}, {})
    assert solver.points_solution().should_roll(state)


# ----------------------------------------------------------------- the engine as reference


def _chance(state: DinoHuntState) -> list[tuple[list[float], float]]:
    """Every sequence of uniforms the engine's roll can consume, with its probability."""
    held, in_cup = sum(state.leaves), sum(state.cup)
    if held < 3 and in_cup == 0:
        return [([], 1.0)]
    draws = min(3 - held, in_cup)
    out = []
    for picks in product(*(range(in_cup - j) for j in range(draws))):
        for faces in product(range(6), repeat=held + draws):
            uniforms = [pick(i, in_cup - j) for j, i in enumerate(picks)] + [pick(f, 6) for f in faces]
            out.append((uniforms, 1.0 / (np.prod([in_cup - j for j in range(draws)]) * 6 ** (held + draws))))
    return out


def _key(state: DinoHuntState) -> tuple[tuple[int, ...], ...]:
    return tuple(state.cup), tuple(state.leaves), tuple(state.dinos), tuple(state.footprints)


def engine_values(game: DinoHunt, state: DinoHuntState, utility: np.ndarray, memo: dict) -> tuple[np.ndarray, np.ndarray]:
    """(value, value of rolling) at a roll-or-stop decision, per utility column, by applying the
    engine to every chance outcome (three Leaves rolled again: solved as a geometric series)."""
    key = _key(state)
    if key in memo:
        return memo[key]
    rest = p_self = 0.0
    for uniforms, p in _chance(state):
        after = state.clone()
        game.apply(after, ROLL, ScriptedRng(uniforms))
        if after.decision != Decision.ROLL_OR_STOP:
            rest += p * utility[after.last_turn_points]
        elif _key(after) == key:
            p_self += p
        else:
            rest += p * engine_values(game, after, utility, memo)[0]
    rolled = rest / (1 - p_self)
    memo[key] = (np.maximum(utility[sum(state.dinos)], rolled), rolled)
    return memo[key]


def test_solver_matches_the_engine_on_small_positions() -> None:
    game = DinoHunt(DinoHuntParams())
    model = solver.turn_model()
    positions = [s for s in model.states if sum(s[0]) <= 2 and s != solver.START]
    positions = positions[:: max(1, len(positions) // 30)]
    assert any(sum(s[1]) == 3 for s in positions) and any(s[2] == 2 for s in positions)
    utilities = np.stack([solver.POINTS, np.random.default_rng(0).random(11)], axis=1)
    solved = model.solve(utilities)
    memo: dict = {}
    for position in positions:
        value, rolled = engine_values(game, solver.canonical_state(position), utilities, memo)
        i = model.index[position]
        np.testing.assert_allclose(solved.roll[i], rolled, atol=1e-12, err_msg=str(position))
        np.testing.assert_allclose(solved.value[i], value, atol=1e-12, err_msg=str(position))


def test_every_successor_lies_in_a_later_layer_and_probabilities_sum_to_one() -> None:
    model = solver.turn_model()
    for layer in model.layers:
        total = layer.ends.sum(1) + layer.succ_p.sum(1) + layer.p_self
        np.testing.assert_allclose(total, 1.0, atol=1e-12)
    # the start position is the only one with all ten dice in the cup and no Footprints
    assert model.states[model.start] == ((5, 3, 2), (0, 0, 0), 0)


def test_many_utilities_at_once_match_one_at_a_time() -> None:
    model = solver.turn_model()
    utilities = np.random.default_rng(1).random((11, 5))
    together = model.solve(utilities)
    for k in range(5):
        np.testing.assert_allclose(model.solve(utilities[:, k]).value[:, 0], together.value[:, k], atol=1e-14)


# --------------------------------------------------------------------------- simulation


def test_optimal_agent_reaches_the_computed_value_in_the_real_environment() -> None:
    exact = solver.optimal_points_per_turn()
    mean, low, high = points_per_turn("dino_hunt_v0", "optimal_points", turns=4000, seed=11, z=Z_999)
    assert low <= exact <= high, (mean, low, high, exact)


def test_policy_evaluation_agrees_with_the_solver_and_with_simulation() -> None:
    env = dice_envs.make("dino_hunt_v0")
    optimum = solver.optimal_points_per_turn()
    assert solver.policy_points_per_turn(make_agent("dino_hunt_v0", "optimal_points", env)) == pytest.approx(optimum, abs=1e-12)
    for name in ("two_footprints", "cup_counter"):
        exact = solver.policy_points_per_turn(make_agent("dino_hunt_v0", name, env))
        assert 0.9 * optimum < exact <= optimum + 1e-12
        _, low, high = points_per_turn("dino_hunt_v0", name, turns=3000, seed=5, z=Z_999)
        assert low <= exact <= high, name


def test_optimal_points_agent_reads_only_the_observation() -> None:
    env = dice_envs.make("dino_hunt_v0", raw=True, num_players=3)
    agent = make_agent("dino_hunt_v0", "optimal_points", env)
    env.reset(seed=0)
    state = solver.canonical_state(((0, 0, 0), (0, 1, 2), 2), num_players=3)
    env.set_state(state)
    obs = env.observe(env.agent_selection)
    assert agent.act(obs["observation"], obs["action_mask"]) == STOP
    env.set_state(solver.canonical_state(((1, 0, 0), (0, 0, 2), 0), num_players=3))
    obs = env.observe(env.agent_selection)
    assert agent.act(obs["observation"], obs["action_mask"]) == ROLL


def test_the_solvers_chance_is_read_off_the_engines_chance_nodes() -> None:
    """``roll_chance`` walks the engine's explicit chance: from a full cup, the draw of three (9
    outcomes by colour, hypergeometric) and then a ``Die`` event per die, showing its colour's faces."""
    chance = solver.roll_chance((5, 3, 2), (0, 0, 0))
    assert len(chance) == 9 and abs(sum(p for p, _, _ in chance) - 1) < 1e-12
    draws = {drawn: p for p, drawn, _ in chance}
    assert draws[(3, 0, 0)] == pytest.approx(10 / 120) and draws[(1, 1, 1)] == pytest.approx(30 / 120)
    for _, drawn, dice in chance:
        assert [colour for die in dice for (colour, _), _ in die[:1]] == [c for c, n in enumerate(drawn) for _ in range(n)]
        for die in dice:
            (colour, _), _ = die[0]
            faces = FACES_BY_COLOUR[colour]
            assert {face: p for (_, face), p in die} == pytest.approx({face: faces.count(face) / 6 for face in set(faces)})
    (certain,) = solver.roll_chance((0, 0, 1), (1, 1, 0))  # the one die left is drawn for sure: no draw node
    assert certain[:2] == (1.0, (0, 0, 1)) and len(certain[2]) == 3
    assert solver.roll_chance((0, 0, 0), (1, 1, 0)) == ()  # the cup has run out: rolling ends the turn, no chance
