"""Chance outcomes, drawn from the generator that the environment seeds, and their exact odds.

Small pure functions: every game rolls and draws through them, so a seed fixes the whole game.
Each asks the generator for one batch of uniforms, ``rng.random(n)``: a uniform ``u`` picks
outcome ``floor(u * k)`` of ``k`` equally likely ones (``math.floor``: the same as ``int`` for
these non-negative values, and quicker to call, which counts at every die of every simulated roll).

Beside each sampler, the exact distribution of what it draws (``side_odds``, ``face_count_odds``,
``draw_count_odds``), for the heuristics and solvers that weigh outcomes instead of sampling them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import product
from math import comb, factorial, floor, prod

import numpy as np

Counts = tuple[int, ...]
"""How many there are of each kind (face, colour, card), by kind."""


def roll_dice(rng: np.random.Generator, num_dice: int, num_faces: int = 6) -> list[int]:
    """Face indices ``0 .. num_faces-1`` of ``num_dice`` fair dice."""
    return faces_of(rng.random(num_dice).tolist(), num_faces)


def faces_of(uniforms: list[float], num_faces: int = 6) -> list[int]:
    """The faces that ``roll_dice`` turns these uniforms into (for a game that draws one batch of
    uniforms for several steps of chance: the same stream as a batch for each)."""
    return [floor(u * num_faces) for u in uniforms]


def side_odds(sides: Sequence[int], num_outcomes: int) -> tuple[float, ...]:
    """The probability of each outcome ``0 .. num_outcomes-1`` of a die whose sides show ``sides``
    (a game that maps ``roll_dice``'s face indices to what its sides show: one side each, uniformly)."""
    return tuple(sides.count(outcome) / len(sides) for outcome in range(num_outcomes))


@cache
def face_count_odds(num_dice: int, num_faces: int = 6) -> tuple[tuple[float, Counts], ...]:
    """The exact distribution of ``roll_dice`` counted by face: (probability, how many dice show
    each face) for every outcome (multinomial)."""
    return tuple(
        (factorial(num_dice) / prod(factorial(count) for count in counts) / num_faces**num_dice, counts)
        for counts in compositions(num_dice, num_faces)
    )


def compositions(total: int, parts: int) -> list[Counts]:
    """Every way of writing ``total`` as ``parts`` counts of 0 or more, in lexicographic order."""
    if parts == 1:
        return [(total,)]
    return [(first, *rest) for first in range(total + 1) for rest in compositions(total - first, parts - 1)]


def draw_counts(rng: np.random.Generator, counts: list[int], num_draws: int) -> list[int]:
    """Draw ``num_draws`` items without replacement from a bag holding ``counts[k]`` of each kind.

    Returns how many of each kind were drawn; ``counts`` is left unchanged.
    """
    total = sum(counts)
    if not 0 <= num_draws <= total:
        raise ValueError(f"cannot draw {num_draws} from a bag of {total}")
    if not num_draws:
        return [0] * len(counts)  # an empty batch of uniforms would consume nothing: skip asking for it
    return counts_drawn(counts, rng.random(num_draws).tolist())


def counts_drawn(counts: list[int], uniforms: list[float]) -> list[int]:
    """What ``draw_counts`` draws from the bag with these uniforms, one item each (see ``faces_of``)."""
    total = sum(counts)
    drawn = [0] * len(counts)
    remaining = counts.copy()
    for u in uniforms:
        # The pick-th item, counting through the kinds in order.
        pick = floor(u * total)
        kind = 0
        while pick >= remaining[kind]:
            pick -= remaining[kind]
            kind += 1
        remaining[kind] -= 1
        drawn[kind] += 1
        total -= 1
    return drawn


@cache
def draw_count_odds(counts: Counts, num_draws: int) -> tuple[tuple[float, Counts], ...]:
    """The exact distribution of ``draw_counts``: (probability, how many of each kind drawn) for
    every outcome (multivariate hypergeometric: drawing one item at a time, uniformly from what is
    left, draws each set of items equally often)."""
    total = comb(sum(counts), num_draws)
    outcomes = []
    for drawn in product(*(range(min(count, num_draws) + 1) for count in counts)):
        if sum(drawn) == num_draws:
            ways = prod(comb(count, d) for count, d in zip(counts, drawn))
            outcomes.append((ways / total, tuple(drawn)))
    return tuple(outcomes)


def shuffled(rng: np.random.Generator, items: list[int]) -> list[int]:
    """A new list with ``items`` in random order."""
    return [items[i] for i in rng.permutation(len(items)).tolist()]
