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
    return faces_of(rng.random(num_dice).tolist(), num_faces)


def faces_of(uniforms: list[float], num_faces: int = 6) -> list[int]:
    """The faces that ``roll_dice`` turns these uniforms into (for a game that draws one batch of
    uniforms for several steps of chance: the same stream as a batch for each)."""
    return [floor(u * num_faces) for u in uniforms]


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


def shuffled(rng: np.random.Generator, items: list[int]) -> list[int]:
    """A new list with ``items`` in random order."""
    return [items[i] for i in rng.permutation(len(items)).tolist()]
