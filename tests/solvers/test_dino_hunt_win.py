"""Win-probability-optimal 2-player Dino Hunt: the game-level recursion, the agent's reading of
its observation, and simulation of optimal play on both sides."""

from __future__ import annotations

import numpy as np
import pytest

import dice_envs
from dice_envs.agents import make_agent
from dice_envs.agents.solvers import dino_hunt as turn
from dice_envs.agents.solvers.dino_hunt_win import OptimalWin, win_solution
from dice_envs.arena.play import play_games
from dice_envs.dino_hunt.actions import ROLL, STOP
from dice_envs.dino_hunt.state import TurnEnd

Z_999 = 3.2905


def _best(utility: np.ndarray) -> float:
    return float(turn.turn_model().solve(utility).start[0])


def test_first_player_value_is_a_probability_below_one_half() -> None:
    solution = win_solution(20, 10)
    assert 0.4 < solution.first_player_value < 0.5  # player_1 moves last in every round
    for grid in (solution.G0, solution.G1):
        assert np.all((grid >= 0) & (grid <= 1))
    # A bigger lead is never worse for player 0.
    assert np.all(np.diff(solution.G0, axis=0) >= -1e-12)
    assert np.all(np.diff(solution.G0, axis=1) <= 1e-12)


def test_target_one_without_tiebreaker_by_the_recursion() -> None:
    # Target 1, a tie is shared at once.  Player 1, d behind in the last round, wins with more
    # than d points and shares with exactly d: F(d) = 1 - max E[1{q > d} + 1{q = d} / 2].
    # If player 0 scores nothing, player 1 wins by scoring anything, else a new round starts:
    # G1 = (1 - max P(q >= 1)) G0, and G0 = max E[F(p) for p >= 1, G1 for p = 0].
    s = win_solution(1, 0)
    q = np.arange(11)
    for d in range(1, 11):
        assert s.F[d] == pytest.approx(1 - _best((q > d) + 0.5 * (q == d)), abs=1e-12)
    p_score = _best((q >= 1).astype(float))
    assert s.G1[0, 0] == pytest.approx((1 - p_score) * s.G0[0, 0], abs=1e-12)
    u0 = np.array([s.G1[0, 0], *s.F[1:11]])
    assert s.G0[0, 0] == pytest.approx(_best(u0), abs=1e-12)


def test_tiebreaker_rounds_by_the_recursion() -> None:
    s = win_solution(3, 2)
    q = np.arange(11)
    # Last tiebreaker round: a tie is shared.
    for p in range(11):
        assert s.Z[2, p] == pytest.approx(1 - _best((q > p) + 0.5 * (q == p)), abs=1e-12)
    assert s.W[2] == pytest.approx(_best(s.Z[2]), abs=1e-12)
    # First tiebreaker round: a tie leads to the second.
    for p in range(11):
        assert s.Z[1, p] == pytest.approx(1 - _best((q > p) + (1 - s.W[2]) * (q == p)), abs=1e-12)
    assert s.W[1] == pytest.approx(_best(s.Z[1]), abs=1e-12)


def test_bellman_equations_hold_everywhere() -> None:
    s = win_solution(6, 1)
    for a in range(6):
        for b in range(6):
            u0 = [s.G1[a + p, b] if a + p < 6 else s.F[a + p - b] for p in range(11)]
            assert s.G0[a, b] == pytest.approx(_best(np.array(u0)), abs=1e-11)
            u1 = [1 - (s.G0[a, b + p] if b + p < 6 else 0.0) for p in range(11)]
            assert s.G1[a, b] == pytest.approx(1 - _best(np.array(u1)), abs=1e-11)


def test_optimal_play_on_both_sides_matches_the_computed_chance() -> None:
    env = dice_envs.make("dino_hunt_v0", num_players=2, target_score=5)
    players = [OptimalWin(env), OptimalWin(env)]
    games = 3000
    value = 0.0
    for g, outcome in enumerate(play_games(env, players, games, seed=21)):
        seat0 = g % 2  # agent i sits at seat (i + g) % 2
        if seat0 in outcome.winners:
            value += 1.0 / len(outcome.winners)
    mean = value / games
    exact = win_solution(5, 10).first_player_value
    half = Z_999 * np.sqrt(exact * (1 - exact) / games)
    assert abs(mean - exact) <= half, (mean, exact)


def _observation(env, race_scores, current, final_round, tiebreak_rounds, turn_state):  # type: ignore[no-untyped-def]
    state = turn.canonical_state(turn_state)
    state.race.scores = list(race_scores)
    state.race.current = current
    state.race.final_round = final_round
    state.race.tiebreak_rounds = tiebreak_rounds
    state.race.round = 3 + tiebreak_rounds  # rounds enough for the scores; a tiebreaker round follows the final round
    state.last_turn_end = TurnEnd.STOPPED  # (a turn has ended before this one)
    env.set_state(state)
    return env.observe(env.agent_selection)


def test_agent_rolls_on_when_stopping_loses_and_stops_when_it_wins() -> None:
    env = dice_envs.make("dino_hunt_v0", raw=True, num_players=2)
    env.reset(seed=0)
    agent = make_agent("dino_hunt_v0", "optimal_win", env)
    points_agent = make_agent("dino_hunt_v0", "optimal_points", env)
    # 5 Dinos, 2 Footprints, three Leaves, empty cup: the points-optimal choice is to stop.
    position = ((0, 0, 0), (0, 1, 2), 2)
    obs = _observation(env, (22, 15), 1, True, 0, position)  # player 1, last round, needs 7
    assert points_agent.act(obs["observation"], obs["action_mask"]) == STOP
    assert agent.act(obs["observation"], obs["action_mask"]) == ROLL
    obs = _observation(env, (22, 18), 1, True, 0, position)  # 5 more wins outright
    assert agent.act(obs["observation"], obs["action_mask"]) == STOP
    # In a tiebreaker round player 1 needs more than player 0's tiebreaker points.
    obs = _observation(env, (27, 20), 1, True, 1, position)
    assert agent.act(obs["observation"], obs["action_mask"]) == ROLL
    obs = _observation(env, (24, 20), 1, True, 1, position)
    assert agent.act(obs["observation"], obs["action_mask"]) == STOP


def test_more_than_two_players_plays_like_optimal_points() -> None:
    env = dice_envs.make("dino_hunt_v0", raw=True, num_players=3)
    agent = make_agent("dino_hunt_v0", "optimal_win", env)
    points_agent = make_agent("dino_hunt_v0", "optimal_points", env)
    assert agent.solution is None
    for seed in range(5):
        env.reset(seed=seed)
        for _ in env.agent_iter(max_iter=60):
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                break
            action = agent.act(obs["observation"], obs["action_mask"])
            assert action == points_agent.act(obs["observation"], obs["action_mask"])
            env.step(action)
