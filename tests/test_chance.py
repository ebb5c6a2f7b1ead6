"""The exact distributions in ``dice_envs.core.chance`` are what its samplers draw."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from math import isclose, sqrt

import numpy as np
import pytest

from dice_envs.core.chance import draw_count_odds, draw_counts, face_count_odds, roll_dice, side_odds
from dice_envs.dino_hunt.data import DICE_PER_COLOUR, DICE_PER_ROLL, FACES_BY_COLOUR, Face

SAMPLES = 20_000
Z = 4.0
"""Standard normal quantile of the chi-square bound: a fair sampler fails about once in 30,000 seeds."""


def chi_square_bound(degrees: int) -> float:
    """The chi-square quantile at ``Z`` (Wilson-Hilferty: close enough from a few degrees of freedom)."""
    a = 2 / (9 * degrees)
    return degrees * (1 - a + Z * sqrt(a)) ** 3


def assert_sampled(odds: dict[Hashable, float], sample: Callable[[np.random.Generator], Hashable], seed: int) -> None:
    """``SAMPLES`` draws of ``sample`` fit ``odds``: only outcomes it lists, in those proportions."""
    rng = np.random.default_rng(seed)
    seen = Counter(sample(rng) for _ in range(SAMPLES))
    assert set(seen) <= set(odds), f"drawn but given no probability: {set(seen) - set(odds)}"
    statistic = sum((seen[outcome] - SAMPLES * p) ** 2 / (SAMPLES * p) for outcome, p in odds.items())
    assert statistic < chi_square_bound(len(odds) - 1), statistic


@pytest.mark.parametrize("colour", range(len(FACES_BY_COLOUR)))
def test_side_odds_are_the_faces_a_dino_hunt_die_shows(colour: int) -> None:
    sides = FACES_BY_COLOUR[colour]
    odds = side_odds(sides, len(Face))
    assert isclose(sum(odds), 1.0)
    assert odds == tuple(sides.count(face) / len(sides) for face in Face)
    assert_sampled(dict(enumerate(odds)), lambda rng: int(sides[roll_dice(rng, 1)[0]]), seed=colour)


@pytest.mark.parametrize("num_dice", range(11))
def test_face_count_odds_sum_to_one(num_dice: int) -> None:
    odds = face_count_odds(num_dice)
    assert isclose(sum(p for p, _ in odds), 1.0)
    assert all(sum(counts) == num_dice and len(counts) == 6 for _, counts in odds)
    assert len({counts for _, counts in odds}) == len(odds)


@pytest.mark.parametrize(("num_dice", "num_faces"), [(1, 6), (3, 6), (4, 3)])
def test_face_count_odds_are_what_roll_dice_rolls(num_dice: int, num_faces: int) -> None:
    def faces_counted(rng: np.random.Generator) -> tuple[int, ...]:
        faces = roll_dice(rng, num_dice, num_faces)
        return tuple(faces.count(face) for face in range(num_faces))

    odds = {counts: p for p, counts in face_count_odds(num_dice, num_faces)}
    assert isclose(sum(odds.values()), 1.0)
    assert_sampled(odds, faces_counted, seed=num_dice)


@pytest.mark.parametrize(
    ("counts", "num_draws"),
    [(DICE_PER_COLOUR, DICE_PER_ROLL), ((1, 3, 2), 2), ((0, 2, 1), 3), ((4,), 2), ((2, 0, 5, 1), 4), ((5, 3, 2), 0)],
)
def test_draw_count_odds_are_what_draw_counts_draws(counts: tuple[int, ...], num_draws: int) -> None:
    odds = {drawn: p for p, drawn in draw_count_odds(counts, num_draws)}
    assert isclose(sum(odds.values()), 1.0)
    assert all(sum(drawn) == num_draws and all(d <= c for d, c in zip(drawn, counts)) for drawn in odds)
    if len(odds) == 1:  # a certain outcome: nothing to fit, only to draw
        (only,) = odds
        assert tuple(draw_counts(np.random.default_rng(0), list(counts), num_draws)) == only
        return
    assert_sampled(odds, lambda rng: tuple(draw_counts(rng, list(counts), num_draws)), seed=sum(counts))
