"""Win-probability-optimal play of 2-player Dino Hunt Dice, by value iteration over the game.

Objective: the value of a position is ``P(player_0 wins) + 0.5 * P(shared win)``, which
``player_0`` maximises and ``player_1`` minimises.  With two players the outcomes "0 wins",
"1 wins" and "shared" exclude each other, so this is zero-sum: ``player_1`` maximising its own
``P(win) + 0.5 P(shared)`` is the same thing (step-capped games are ignored; they need 20 000
steps).  The race follows ``dice_envs/core/race.py`` exactly:

* every round ``player_0`` moves first;
* ``player_0`` reaching the target makes the round the last: ``player_1`` takes one more turn
  and then the higher score wins (``F(d)`` below, ``d`` = ``player_0``'s lead);
* ``player_1`` reaching the target in a normal round ends the game at once: it leads, since
  ``player_0`` is still under the target;
* equal scores at the end of the last round start tiebreaker rounds (both players, ``player_0``
  first, points added to the scores, so only the round's points matter); after
  ``max_tiebreak_rounds`` of them a tie is a shared win (0.5).

Positions at the start of a turn:

* ``G0[a, b]``, ``G1[a, b]``: normal round, scores ``a, b`` under the target, player 0 / 1 to move;
* ``F[d]``: last round, player 1 to move ``d`` points behind player 0 (who reached the target);
* ``W[t]``: start of tiebreaker round ``t``; ``Z[t, p]``: player 1 to move in it, player 0 having
  scored ``p``.

Each turn is solved exactly with ``TurnModel.solve`` for the utility "value of the position
after the turn, as a function of its points".  Zero-point turns make 2-cycles
``G0[a, b] -> G1[a, b] -> G0[a, b]``; score pairs are processed by decreasing ``a + b`` and each
level's cycles are solved together (vectorised across the level) by iterating the map
``x -> G1(G0(x))``, a piecewise-linear contraction (its slope is the chance that both players
score nothing), with secant steps; it stops when ``|G1(G0(x)) - x| < 1e-13``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from dice_envs.agents.base import Agent
from dice_envs.agents.solvers.dino_hunt import OptimalPoints, observed_turn_state, points_solution, turn_model
from dice_envs.core.aec import DiceGameEnv
from dice_envs.dino_hunt.actions import ROLL, STOP
from dice_envs.dino_hunt.data import MAX_TURN_POINTS

P = MAX_TURN_POINTS + 1  # possible points of a turn: 0 .. 10
TOLERANCE = 1e-13


@dataclass
class WinSolution:
    target: int
    max_tiebreak_rounds: int
    G0: np.ndarray
    G1: np.ndarray
    F: np.ndarray
    """F[d], d = 0 .. target + 10: player 0's value, player 1 to move in the last round ``d`` behind."""
    W: np.ndarray
    """W[t], t = 1 .. max_tiebreak_rounds (index 0 unused): start of tiebreaker round ``t``."""
    Z: np.ndarray
    """Z[t, p]: player 0's value in tiebreaker round ``t`` after scoring ``p``, player 1 to move."""
    turn_solves: int = 0
    iterations: int = 0
    _cache: dict[tuple[float, ...], np.ndarray] = field(default_factory=dict, repr=False)

    @property
    def first_player_value(self) -> float:
        """P(player_0 wins) + 0.5 P(shared win) at the start of the game, optimal play by both."""
        return float(self.G0[0, 0])

    def tie_value(self, tiebreak_round: int) -> float:
        """Player 0's value of a tie at the end of the last round / tiebreaker round ``t``."""
        return float(self.W[tiebreak_round + 1]) if tiebreak_round < self.max_tiebreak_rounds else 0.5

    def mover_utility(self, own: int, opponent: int, first_in_round: bool, final_round: bool, tiebreak_rounds: int) -> np.ndarray | None:
        """The mover's value (its own win chance + half a shared win) after scoring 0 .. 10 points.

        ``None`` for a position the race cannot reach.
        """
        t = tiebreak_rounds
        target = self.target
        if not 0 <= t <= self.max_tiebreak_rounds or min(own, opponent) < 0:
            return None
        if first_in_round:  # the mover is player 0
            if t > 0:
                return self.Z[t].copy()
            if final_round or own >= target or opponent >= target:
                return None
            a, b = own, opponent
            return np.array([self.G1[a + p, b] if a + p < target else self._f(a + p - b) for p in range(P)])
        # the mover is player 1; player 0's value is returned as 1 - that
        if t > 0:
            lead = opponent - own  # player 0's points in this tiebreaker round
            return 1.0 - _after_response(lead, self.tie_value(t))
        if final_round:
            if opponent < target:
                return None
            return 1.0 - _after_response(opponent - own, self.tie_value(0))
        if own >= target or opponent >= target:
            return None
        a, b = opponent, own
        return np.array([1.0 - (self.G0[a, b + q] if b + q < target else 0.0) for q in range(P)])

    def _f(self, d: int) -> float:
        return float(self.F[d]) if d < len(self.F) else 1.0

    def roll_policy(self, utility: np.ndarray) -> np.ndarray:
        """Where rolling beats stopping (bool per turn state) for one utility; cached per game
        situation (about a thousand of them with the default parameters, 2 kB each)."""
        key = tuple(np.round(utility, 15).tolist())
        policy = self._cache.get(key)
        if policy is None:
            if len(self._cache) >= 8192:
                self._cache.clear()
            solved = turn_model().solve(utility)
            policy = self._cache[key] = solved.roll[:, 0] > solved.stop[:, 0] + 1e-12
        return policy


def _after_response(lead: int, tie: float) -> np.ndarray:
    """Player 0's value after player 1's last turn of a round scores q (0 .. 10), player 0 ``lead`` ahead."""
    q = np.arange(P)
    return np.where(q < lead, 1.0, np.where(q == lead, tie, 0.0))


def _turn_values(utilities: np.ndarray, counter: list[int]) -> np.ndarray:
    counter[0] += 1
    return turn_model().solve(utilities).start


def _cycle(u0: np.ndarray, u1: np.ndarray, guess: np.ndarray, solves: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """One pass round the zero-point cycle of a level: player 0's values with ``G1 = guess`` at
    its own cells, then player 1's answer; returns (G0, G1)."""
    u0[0] = guess
    g0 = _turn_values(u0, solves)
    u1[0] = 1.0 - g0
    return g0, 1.0 - _turn_values(u1, solves)


@functools.cache
def win_solution(target: int = 20, max_tiebreak_rounds: int = 10) -> WinSolution:
    """Solve the 2-player race to ``target`` (cached per parameters)."""
    solves = [0]
    M = max_tiebreak_rounds
    # Tiebreaker rounds, last first.
    W = np.full(M + 2, np.nan)
    Z = np.full((M + 1, P), np.nan)
    for t in range(M, 0, -1):
        tie = W[t + 1] if t < M else 0.5
        after = np.stack([_after_response(p, tie) for p in range(P)], axis=1)  # (q, p): player 0's value
        Z[t] = 1.0 - _turn_values(1.0 - after, solves)  # player 1 answers each p
        W[t] = _turn_values(Z[t], solves)[0]
    tie0 = W[1] if M >= 1 else 0.5
    # Last round: player 1 to move d behind (d >= 1); it cannot make up more than 10.
    F = np.ones(target + MAX_TURN_POINTS + 1)
    after = np.stack([_after_response(d, tie0) for d in range(1, P)], axis=1)
    F[1:P] = 1.0 - _turn_values(1.0 - after, solves)
    # Normal rounds, by decreasing a + b.
    G0 = np.full((target, target), np.nan)
    G1 = np.full((target, target), np.nan)
    iterations = 0
    for level in range(2 * target - 2, -1, -1):
        cells = [(a, level - a) for a in range(max(0, level - target + 1), min(level, target - 1) + 1)]
        a = np.array([c[0] for c in cells])
        b = np.array([c[1] for c in cells])
        u0 = np.empty((P, len(cells)))  # player 0's utility (its value), column per cell
        u1 = np.empty((P, len(cells)))  # player 1's utility (1 - player 0's value)
        for j, (ca, cb) in enumerate(cells):
            for p in range(1, P):
                u0[p, j] = G1[ca + p, cb] if ca + p < target else F[ca + p - cb]
                u1[p, j] = 1.0 - (G0[ca, cb + p] if cb + p < target else 0.0)

        x_old = np.full(len(cells), 0.5)
        g0, f_old = _cycle(u0, u1, x_old, solves)
        x = f_old
        for passes in range(1, 200):  # noqa: B007 - counted after the loop
            g0, fx = _cycle(u0, u1, x, solves)
            if np.max(np.abs(fx - x)) < TOLERANCE:
                break
            # Secant step on x -> f(x) - x (exact once both points lie on one linear piece).
            slope = np.divide(fx - f_old, x - x_old, out=np.zeros_like(x), where=np.abs(x - x_old) > 1e-15)
            slope = np.clip(slope, 0.0, 0.999)
            x_old, f_old = x, fx
            x = x + (fx - x) / (1.0 - slope)
        else:  # pragma: no cover - the map is a contraction
            raise RuntimeError(f"win solver did not converge at level {level}")
        iterations += passes + 1
        G0[a, b] = g0
        G1[a, b] = fx
    return WinSolution(target, M, G0, G1, F, W, Z, turn_solves=solves[0], iterations=iterations)


def first_player_win_chance(target: int = 20, max_tiebreak_rounds: int = 10) -> float:
    """``player_0``'s P(win) + 0.5 P(shared win) under optimal play by both (2 players)."""
    return win_solution(target, max_tiebreak_rounds).first_player_value


class OptimalWin(Agent):
    """Maximises the chance of winning a 2-player game (a shared win counts half).

    It reads the scores, who is still to play this round, the last-round flag and the tiebreaker
    count from its observation.  With more than two players, or in a position the race cannot
    reach, it plays like ``optimal_points`` (the expected-points turn policy).
    """

    name = "optimal_win"
    description = "exact value iteration (2 players): maximises the chance of winning; with 3+ players plays like optimal_points"

    def __init__(self, env: DiceGameEnv, seed: int | None = None) -> None:
        super().__init__(env, seed)
        params = self.env.game.params
        self.two_players = params.num_players == 2
        self.solution = win_solution(params.target_score, params.max_tiebreak_rounds) if self.two_players else None
        self._has_tiebreak = "tiebreak_rounds" in self.layout.slices

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if not action_mask[STOP]:
            return ROLL
        state = observed_turn_state(self, observation)
        utility = self.utility(observation)
        if utility is None or self.solution is None:
            return ROLL if points_solution().should_roll(state) else STOP
        return ROLL if self.solution.roll_policy(utility)[turn_model().index[state]] else STOP

    def utility(self, observation: np.ndarray) -> np.ndarray | None:
        if self.solution is None:
            return None
        own = int(self.field(observation, "own_score")[0])
        opponent = int(self.field(observation, "opponent_scores")[0])
        first = bool(self.field(observation, "still_to_play")[1])
        final = bool(self.field(observation, "final_round")[0])
        t = int(self.field(observation, "tiebreak_rounds")[0]) if self._has_tiebreak else 0
        return self.solution.mover_utility(own, opponent, first, final, t)


__all__ = ["OptimalPoints", "OptimalWin", "WinSolution", "first_player_win_chance", "win_solution"]
