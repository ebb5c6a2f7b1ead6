"""Chance outcomes, drawn from the generator that the environment seeds, and their exact odds.

Small pure functions: every game rolls and draws through them, so a seed fixes the whole game.
Each asks the generator for one batch of uniforms, ``rng.random(n)``: a uniform ``u`` picks
outcome ``floor(u * k)`` of ``k`` equally likely ones (``math.floor``: the same as ``int`` for
these non-negative values, and quicker to call, which counts at every die of every simulated roll).

Beside the samplers, the exact distributions of what they draw (``face_count_odds``,
``draw_count_odds``), which the chance events below list as their outcomes.

Each sampler is also a *chance event* (``Die``, ``RollCounts``, ``Draw``, ``Deal``, ``Pick``): given an
``OutcomeTape`` in place of a generator, it takes its outcome from the tape instead of drawing one;
one past the tape's end it asks the tape's ``choose`` for one, or stops the engine with
``ChanceNeeded``, naming the event's outcomes and their exact probabilities.  That is how
``dice_envs.core.chance_nodes`` turns every random event of an engine into an explicit chance node
without the engines knowing (the sampled path only pays an ``isinstance`` check a call).
Granularity, chosen so that a node has few outcomes:

- ``roll_dice``, ``roll_sides``: one die at a time (a die's faces; where dice differ, as in Dino
  Hunt, each die's own sides); ``draw_then_roll``: the draw, then one die at a time;
- ``roll_counts``: the whole roll, counted by face (for engines that only count the faces: at
  most 3003 outcomes, ten six-sided dice);
- ``draw_counts``: the whole draw, counted by kind (multivariate hypergeometric);
- ``shuffled``: one item at a time, uniformly from those left (items of one kind are one outcome);
- ``pick_index``: one index, uniformly.
"""

from __future__ import annotations

import abc
import dataclasses
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import cache, cached_property, lru_cache
from itertools import accumulate, product
from math import comb, factorial, floor, prod
from operator import add, getitem
from typing import Any, Generic, TypeVar

import numpy as np

Counts = tuple[int, ...]
"""How many there are of each kind (face, colour, card), by kind."""
ValueT = TypeVar("ValueT")
SideT = TypeVar("SideT")
EventT = TypeVar("EventT", bound="ChanceEvent[Any]")


# ------------------------------------------------------------------ chance events
@dataclasses.dataclass(frozen=True)
class ChanceEvent(abc.ABC, Generic[ValueT]):
    """One random event as an explicit chance node: its outcomes, each an integer id with its exact
    probability, and the value the sampler would have returned for each."""

    @property
    @abc.abstractmethod
    def outcomes(self) -> tuple[tuple[int, float], ...]:
        """(outcome id, probability) of every outcome that can happen, the probabilities summing to
        1 (events compute them once: a ``cached_property``)."""

    @cached_property
    def outcome_ids(self) -> frozenset[int]:
        return frozenset(outcome for outcome, _ in self.outcomes)

    @cached_property
    def _cumulative(self) -> tuple[float, ...]:
        return tuple(accumulate(p for _, p in self.outcomes))

    def at(self, u: float) -> tuple[int, float]:
        """The outcome whose share of [0, 1), in ``outcomes`` order, holds ``u``, and its
        probability: a uniform ``u`` draws each outcome with its probability."""
        index = min(bisect_right(self._cumulative, u), len(self.outcomes) - 1)
        return self.outcomes[index]

    @abc.abstractmethod
    def value(self, outcome: int) -> ValueT:
        """What the sampler returns when ``outcome`` happens."""


@dataclasses.dataclass(frozen=True)
class Die(ChanceEvent[SideT]):
    """One die showing one of its ``sides`` uniformly; equal sides are one outcome, id = the first
    side's index."""

    sides: tuple[SideT, ...]

    @cached_property
    def outcomes(self) -> tuple[tuple[int, float], ...]:
        first = {side: index for index, side in reversed(list(enumerate(self.sides)))}
        return tuple((first[side], count / len(self.sides)) for side, count in Counter(self.sides).items())

    def value(self, outcome: int) -> SideT:
        return self.sides[outcome]


@dataclasses.dataclass(frozen=True)
class CountedEvent(ChanceEvent[list[int]]):
    """An event whose outcomes are counts by kind, as one of this module's exact distributions
    lists them (``table``); id = the index in that list."""

    @property
    @abc.abstractmethod
    def table(self) -> tuple[tuple[float, Counts], ...]:
        """(probability, counts by kind) of every outcome."""

    @cached_property
    def outcomes(self) -> tuple[tuple[int, float], ...]:
        return tuple((index, p) for index, (p, _) in enumerate(self.table))

    def value(self, outcome: int) -> list[int]:
        return list(self.table[outcome][1])


@dataclasses.dataclass(frozen=True)
class RollCounts(CountedEvent):
    """``num_dice`` fair dice counted by face (``face_count_odds``)."""

    num_dice: int
    num_faces: int

    @property
    def table(self) -> tuple[tuple[float, Counts], ...]:
        return face_count_odds(self.num_dice, self.num_faces)


@dataclasses.dataclass(frozen=True)
class Draw(CountedEvent):
    """``num_draws`` items drawn from a bag of ``counts``, counted by kind (``draw_count_odds``)."""

    counts: Counts
    num_draws: int

    @property
    def table(self) -> tuple[tuple[float, Counts], ...]:
        return draw_count_odds(self.counts, self.num_draws)


@dataclasses.dataclass(frozen=True)
class Deal(ChanceEvent[int]):
    """The next item of a shuffle, uniformly one of those ``left``; id = the item itself."""

    left: tuple[int, ...]

    @cached_property
    def outcomes(self) -> tuple[tuple[int, float], ...]:
        return tuple((item, count / len(self.left)) for item, count in sorted(Counter(self.left).items()))

    def value(self, outcome: int) -> int:
        return outcome


@dataclasses.dataclass(frozen=True)
class Pick(ChanceEvent[int]):
    """One of ``size`` indices, uniformly; id = the index."""

    size: int

    @cached_property
    def outcomes(self) -> tuple[tuple[int, float], ...]:
        return tuple((index, 1 / self.size) for index in range(self.size))

    def value(self, outcome: int) -> int:
        return outcome


@lru_cache(maxsize=1 << 16)
def chance_event(kind: type[EventT], *fields: Any) -> EventT:
    """The event ``kind(*fields)``, made once while it is met often: its outcomes are worked out
    once (bounded: a shuffle's events, one per multiset of the items left, are many)."""
    return kind(*fields)


class ChanceNeeded(Exception):
    """Raised by a chance event met one past the end of an ``OutcomeTape``: the engine stops there,
    and the event is the chance node's."""

    def __init__(self, event: ChanceEvent[Any]) -> None:
        super().__init__(f"an outcome of {event} is needed")
        self.event = event


class UndeclaredChanceError(RuntimeError):
    """An engine drew from its generator directly, not through a chance event of this module."""


_NEVER_DRAWN = np.random.PCG64(0)
"""The bit generator every ``OutcomeTape`` holds (one: seeding a new one costs 50 times the rest of
a tape), though none ever draws from it."""


class OutcomeTape(np.random.Generator):
    """A generator that draws nothing: each chance event takes the next outcome id of ``outcomes``
    (an event with one outcome takes it without using the tape); past the end, the outcome
    ``choose(event)`` picks, where a ``choose`` is given, else the event raises ``ChanceNeeded``.
    ``used`` counts the outcomes taken, ``chosen`` lists those picked.  Drawing from it directly
    raises ``UndeclaredChanceError``, so an engine that rolls around this module is caught, not
    silently given fresh randomness."""

    def __init__(self, outcomes: Sequence[int] = (), choose: Callable[[ChanceEvent[Any]], int] | None = None) -> None:
        super().__init__(_NEVER_DRAWN)
        self.outcomes = outcomes
        self.choose = choose
        self.used = 0
        self.chosen: list[int] = []

    def outcome(self, event: ChanceEvent[ValueT]) -> ValueT:
        """The value of ``event``'s outcome on the tape (see the class docstring)."""
        choices = event.outcomes
        if len(choices) == 1:
            return event.value(choices[0][0])
        if self.used < len(self.outcomes):
            outcome = self.outcomes[self.used]
        elif self.choose is not None:
            outcome = self.choose(event)
            if outcome not in event.outcome_ids:
                raise ValueError(f"choose gave {outcome!r}, not an outcome of {event}; its outcomes are {sorted(event.outcome_ids)}")
            self.chosen.append(outcome)
        else:
            raise ChanceNeeded(event)
        self.used += 1
        return event.value(outcome)

    def _undeclared(self, *args: Any, **kwargs: Any) -> Any:
        raise UndeclaredChanceError("an engine drew from its generator directly; draw through dice_envs.core.chance")

    random = integers = permutation = choice = shuffle = _undeclared


# ------------------------------------------------------------------ samplers
def roll_dice(rng: np.random.Generator, num_dice: int, num_faces: int = 6) -> list[int]:
    """Face indices ``0 .. num_faces-1`` of ``num_dice`` fair dice."""
    if isinstance(rng, OutcomeTape):
        die = chance_event(Die, tuple(range(num_faces)))
        return [rng.outcome(die) for _ in range(num_dice)]
    return faces_of(rng.random(num_dice).tolist(), num_faces)


def roll_sides(rng: np.random.Generator, dice: Sequence[tuple[SideT, ...]], num_faces: int = 6) -> list[SideT]:
    """What each of these dice shows, a die given as its ``num_faces`` sides: ``roll_dice`` mapped
    through them."""
    if isinstance(rng, OutcomeTape):
        return [rng.outcome(chance_event(Die, sides)) for sides in dice]
    return list(map(getitem, dice, faces_of(rng.random(len(dice)).tolist(), num_faces)))


def draw_then_roll(
    rng: np.random.Generator,
    cup: list[int],
    num_draws: int,
    hand: Sequence[int],
    dice_of_hand: Mapping[tuple[int, ...], Sequence[tuple[SideT, ...]]],
    num_faces: int = 6,
) -> list[SideT]:
    """Draw ``num_draws`` dice out of a cup (counts by kind, as ``draw_counts``; the cup loses
    them), add them to the ``hand`` (counts by kind) and roll every die of the hand,
    ``dice_of_hand[hand]`` in its order (as ``roll_sides``): what each die shows.  One batch of
    uniforms, the stream of the two in turn at one call of the generator (Dino Hunt's every roll
    is this, at every step of every search: it is written for speed)."""
    if isinstance(rng, OutcomeTape):
        drawn = draw_counts(rng, cup, num_draws)
        for kind, count in enumerate(drawn):
            cup[kind] -= count
        return roll_sides(rng, dice_of_hand[tuple(map(add, hand, drawn))], num_faces)
    uniforms = rng.random(num_draws + sum(hand) + num_draws).tolist()
    held = list(hand)
    move_drawn(cup, held, uniforms[:num_draws])
    return list(map(getitem, dice_of_hand[tuple(held)], faces_of(uniforms[num_draws:], num_faces)))


def roll_counts(rng: np.random.Generator, num_dice: int, num_faces: int = 6) -> list[int]:
    """How many of ``num_dice`` fair dice show each face (``roll_dice``, counted)."""
    if isinstance(rng, OutcomeTape):
        return rng.outcome(chance_event(RollCounts, num_dice, num_faces))
    counts = [0] * num_faces
    for face in faces_of(rng.random(num_dice).tolist(), num_faces):
        counts[face] += 1
    return counts


def pick_index(rng: np.random.Generator, size: int) -> int:
    """An index below ``size``, uniformly."""
    if isinstance(rng, OutcomeTape):
        return rng.outcome(chance_event(Pick, size))
    return int(rng.integers(size))


def faces_of(uniforms: list[float], num_faces: int = 6) -> list[int]:
    """The faces that these uniforms roll, one die each (the samplers' shared step)."""
    return [floor(u * num_faces) for u in uniforms]


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
    if isinstance(rng, OutcomeTape):
        return rng.outcome(chance_event(Draw, tuple(counts), num_draws))
    if not num_draws:
        return [0] * len(counts)  # an empty batch of uniforms would consume nothing: skip asking for it
    drawn = [0] * len(counts)
    move_drawn(counts.copy(), drawn, rng.random(num_draws).tolist())
    return drawn


def move_drawn(bag: list[int], into: list[int], uniforms: list[float]) -> None:
    """Move one item a uniform out of ``bag`` into ``into`` (both counts by kind, changed in
    place): the pick-th item left, counting through the kinds in order, uniformly."""
    total = sum(bag)
    for u in uniforms:
        pick = floor(u * total)
        kind = 0
        while pick >= bag[kind]:
            pick -= bag[kind]
            kind += 1
        bag[kind] -= 1
        into[kind] += 1
        total -= 1


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
    if isinstance(rng, OutcomeTape):
        left = sorted(items)
        order = []
        while left:
            item = rng.outcome(chance_event(Deal, tuple(left)))
            left.remove(item)
            order.append(item)
        return order
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
