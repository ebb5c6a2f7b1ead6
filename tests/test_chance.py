"""The exact distributions in ``dice_envs.core.chance`` are what its samplers draw."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from math import isclose, sqrt

import numpy as np
import pytest

from dice_envs.core.chance import Die, draw_count_odds, draw_counts, face_count_odds, roll_dice, roll_sides
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
def test_a_die_event_is_the_faces_a_dino_hunt_die_shows(colour: int) -> None:
    sides = FACES_BY_COLOUR[colour]
    die = Die(sides)
    odds = {die.value(outcome): p for outcome, p in die.outcomes}
    assert isclose(sum(odds.values()), 1.0)
    assert odds == {face: sides.count(face) / len(sides) for face in Face}
    assert_sampled(odds, lambda rng: roll_sides(rng, [sides])[0], seed=colour)


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


def test_seat_keyed_chance_gives_a_seat_the_same_rolls_whatever_was_chosen_before() -> None:
    """The setup draws as the environment's seeding does; after it, the k-th draw of a seat's t-th
    turn (its decisions in a row) depends only on the seed, the seat, t and k, and every single
    draw is still uniform."""
    from gymnasium.utils import seeding

    from dice_envs.core.chance import SeatKeyedChance

    one, other = SeatKeyedChance(11), SeatKeyedChance(11)
    assert one.random(3).tolist() == seeding.np_random(11)[0].random(3).tolist() == other.random(3).tolist()
    one.act(0)
    one.random(5)  # seat 0 rolls once in one game's first turn, three times in the other's
    other.act(0)
    other.random(2), other.integers(6), other.permutation(4)
    one.act(1)
    other.act(1)
    assert one.random(4).tolist() == other.random(4).tolist() and one.integers(100) == other.integers(100)
    one.act(0)
    other.act(0)
    other.act(0)  # still the same turn: a seat's decisions in a row
    assert one.random(2).tolist() == other.random(2).tolist(), "seat 0's second turn starts alike, whatever its first was"
    assert one.random(2).tolist() != SeatKeyedChance(11).random(2).tolist()
    keyed = SeatKeyedChance(5)
    faces: Counter[int] = Counter()
    for turn in range(6000):  # each roll a fresh key
        keyed.act(turn % 2)
        faces[roll_dice(keyed, 1)[0]] += 1
    assert sum((faces[face] - 1000) ** 2 / 1000 for face in range(6)) < chi_square_bound(5), faces
