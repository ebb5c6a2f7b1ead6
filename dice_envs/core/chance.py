"""Chance outcomes, drawn from the generator that the environment seeds.

Small pure functions: every game rolls and draws through them, so a seed fixes the whole game.
Each asks the generator for one batch of uniforms, ``rng.random(n)``: a uniform ``u`` picks
outcome ``floor(u * k)`` of ``k`` equally likely ones (``math.floor``: the same as ``int`` for
these non-negative values, and quicker to call, which counts at every die of every simulated roll).
"""

from __future__ import annotations

from math import floor

import numpy as np


def roll_dice(rng: np.random.Generator, num_dice: int, num_faces: int = 6) -> list[int]:
    """Face indices ``0 .. num_faces-1`` of ``num_dice`` fair dice."""
    return [floor(u * num_faces) for u in rng.random(num_dice).tolist()]


def draw_counts(rng: np.random.Generator, counts: list[int], num_draws: int) -> list[int]:
    """Draw ``num_draws`` items without replacement from a bag holding ``counts[k]`` of each kind.

    Returns how many of each kind were drawn; ``counts`` is left unchanged.
    """
    total = sum(counts)
    if not 0 <= num_draws <= total:
        raise ValueError(f"cannot draw {num_draws} from a bag of {total}")
    drawn = [0] * len(counts)
    if not num_draws:
        return drawn  # an empty batch of uniforms would consume nothing: skip asking for it
    remaining = counts.copy()
    for u in rng.random(num_draws).tolist():
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


def shuffled(rng: np.random.Generator, items: list[int]) -> list[int]:
    """A new list with ``items`` in random order."""
    return [items[i] for i in rng.permutation(len(items)).tolist()]
