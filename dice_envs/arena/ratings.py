"""Ratings from finishing orders: one Plackett-Luce model for tables of any size, on the Elo scale.

    finishes = Counter({(("a",), ("b", "c")): 3, (("b",), ("a",), ("c",)): 1})   # best first; a tuple of two is a tie
    plackett_luce_elo(["a", "b", "c"], finishes)                                  # {"a": ..., "b": ..., "c": ...}

A game's *finish* is its players from first to last, those who tied grouped together (the
winners first, then the others by score; ``finish_of``).  Plackett-Luce reads a finish as a
sequence of choices: the first is chosen from the whole table with probability proportional to
its strength, the second from those left, and so on.  At two players that is Bradley-Terry, so
a 2-player ladder's ratings are what they were before full tables came.

Ties: a finish with a tied group counts as every order of the group at once, each with an equal
share of the game's weight (a 2-player shared win is half a win each, as before).  A virtual
drawn game between every two agents that met keeps a clean sweep finite (the prior of the
Bradley-Terry fit this replaces).  The fit is Hunter's MM algorithm (2004), vectorised over the
distinct choice sets, which are few (a choice set is a set of agents, not of games).

Why not a library: ``choix`` fits Plackett-Luce by MM or ILSR but takes neither ties nor
weights, and OpenSkill/TrueSkill rate one game at a time (order-dependent updates), where a
ladder wants one maximum-likelihood fit to all its games.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Mapping, Sequence

import numpy as np

ELO_ANCHOR = "random"
"""The agent put at 0 when it plays; otherwise the mean rating is."""
VIRTUAL_DRAWS_PER_PAIR = 1.0
"""Drawn games added between every two agents that met."""
ELO_PER_NEPER = 400 / math.log(10)
"""400 Elo points per factor 10 in strength."""

Finish = tuple[tuple[str, ...], ...]
"""A game's players from first to last; each inner tuple is a place (more than one: a tie)."""


def finish_of(labels: Sequence[str], winners: frozenset[int], scores: Sequence[float]) -> Finish:
    """The finish of a finished game between ``labels`` (by position): the winners share first
    place, the others follow by score, equal scores tied."""
    places: list[tuple[str, ...]] = [tuple(labels[i] for i in sorted(winners))] if winners else []
    others = sorted((i for i in range(len(labels)) if i not in winners), key=lambda i: -scores[i])
    for _, group in itertools.groupby(others, key=lambda i: scores[i]):
        places.append(tuple(labels[i] for i in group))
    return tuple(places)


def plackett_luce_elo(labels: Sequence[str], finishes: Mapping[Finish, float], iterations: int = 10_000) -> dict[str, float]:
    """Each agent's rating: the Plackett-Luce fit to ``finishes`` (each finish's weight: its count
    of games), on the Elo scale with ``random`` at 0 when it plays (else the mean at 0)."""
    index = {label: i for i, label in enumerate(labels)}
    choices = _choices(finishes)
    met = {frozenset(pair) for finish in finishes for pair in itertools.combinations(sorted(_players(finish)), 2)}
    for first, second in met:
        choices[(frozenset((first, second)), first)] += VIRTUAL_DRAWS_PER_PAIR / 2
        choices[(frozenset((first, second)), second)] += VIRTUAL_DRAWS_PER_PAIR / 2
    sets = sorted({choice_set for choice_set, _ in choices}, key=lambda s: sorted(s))
    set_index = {choice_set: row for row, choice_set in enumerate(sets)}
    membership = np.zeros((len(sets), len(labels)))
    for row, choice_set in enumerate(sets):
        membership[row, [index[label] for label in choice_set]] = 1.0
    chosen = np.zeros(len(labels))
    made = np.zeros(len(sets))
    """How often each agent was chosen, and how many choices each set saw."""
    for (choice_set, label), weight in choices.items():
        chosen[index[label]] += weight
        made[set_index[choice_set]] += weight
    strength = np.ones(len(labels))
    played = membership.T @ made > 0
    for _ in range(iterations):
        denominator = membership.T @ (made / np.maximum(membership @ strength, 1e-300))
        updated = np.where(played, chosen / np.where(played, denominator, 1.0), strength)
        updated /= np.exp(np.mean(np.log(updated)))
        converged = np.max(np.abs(updated - strength)) < 1e-10
        strength = updated
        if converged:
            break
    elo = {label: float(ELO_PER_NEPER * math.log(strength[index[label]])) for label in labels}
    zero = elo[ELO_ANCHOR] if ELO_ANCHOR in elo else sum(elo.values()) / len(elo)
    return {label: rating - zero for label, rating in elo.items()}


def _players(finish: Finish) -> list[str]:
    return [label for place in finish for label in place]


def _choices(finishes: Mapping[Finish, float]) -> defaultdict[tuple[frozenset[str], str], float]:
    """Every choice the finishes make, as (the agents left, the one chosen) with its weight; a
    tied place counts as each of its orders, equally weighted."""
    choices: defaultdict[tuple[frozenset[str], str], float] = defaultdict(float)
    for finish, weight in finishes.items():
        if weight <= 0:
            continue
        orders = list(itertools.product(*(itertools.permutations(place) for place in finish)))
        share = weight / len(orders)
        for order in orders:
            sequence = [label for place in order for label in place]
            for position in range(len(sequence) - 1):
                choices[(frozenset(sequence[position:]), sequence[position])] += share
    return choices
