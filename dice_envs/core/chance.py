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
from typing import Any

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


class SeatKeyedChance(np.random.Generator):
    """A generator whose draws are keyed by who draws them and when: the ``k``-th draw of a seat's
    ``t``-th turn (a turn: the seat's decisions in a row) comes from a stream of its own, spawned
    from the seed by ``(seat, t, k)`` (independent of the setup's stream and of every other),
    whatever the other seats chose before it.

    Call ``act(seat)`` before each step; until the first call (the setup) the draws are the deal's
    own, as ``seeding.np_random(seed)`` draws them.  Every single game is dealt from the same
    distribution as with one stream; what changes is that two games of a deal differ only by the
    choices made: a seat's second roll of its fifth turn shows the same dice whoever sits there
    and whatever was chosen before (duplicate deals without the rolls parting ways,
    ``dice_envs.arena.play``).  A measurement device: the environments keep their single stream.
    """

    def __init__(self, seed: int) -> None:
        super().__init__(np.random.PCG64(np.random.SeedSequence(seed)))
        self.seed = seed
        self._acting: int | None = None
        self._turns: dict[int, int] = {}
        self._draw = 0

    def act(self, seat: int) -> None:
        """``seat`` is about to act: a new turn of its own if another seat acted last."""
        if seat != self._acting:
            self._turns[seat] = self._turns.get(seat, -1) + 1
            self._acting, self._draw = seat, 0

    def _generator(self) -> Any:
        """The generator the next draw comes from: the deal's own during the setup, else a fresh
        stream spawned by the acting seat's turn and draw."""
        if self._acting is None:
            return super()
        key = (self._acting, self._turns[self._acting], self._draw)
        self._draw += 1
        return np.random.Generator(np.random.PCG64(np.random.SeedSequence(self.seed, spawn_key=key)))

    def random(self, *args: Any, **kwargs: Any) -> Any:
        return self._generator().random(*args, **kwargs)

    def integers(self, *args: Any, **kwargs: Any) -> Any:
        return self._generator().integers(*args, **kwargs)

    def permutation(self, *args: Any, **kwargs: Any) -> Any:
        return self._generator().permutation(*args, **kwargs)
