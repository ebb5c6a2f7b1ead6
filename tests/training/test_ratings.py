"""``dice_envs.arena.ratings``: the Plackett-Luce fit to finishing orders, ties and the 2-player case."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from dice_envs.arena.ratings import ELO_PER_NEPER, VIRTUAL_DRAWS_PER_PAIR, Finish, finish_of, plackett_luce_elo


def test_a_finish_puts_the_winners_first_then_the_others_by_score() -> None:
    labels = ["a", "b", "c", "d"]
    assert finish_of(labels, frozenset({2}), [5, 9, 7, 5]) == (("c",), ("b",), ("a", "d"))
    assert finish_of(labels, frozenset({0, 3}), [5, 9, 7, 5]) == (("a", "d"), ("b",), ("c",))


def test_two_players_are_bradley_terry_with_a_virtual_draw() -> None:
    """At two players the fit has a closed form: the odds are (wins + half the draws) over the
    other's, the shared wins and the virtual draw counted half each."""
    ahead, behind, shared = 30, 10, 4
    ratings = plackett_luce_elo(["random", "b"], Counter({(("b",), ("random",)): ahead, (("random",), ("b",)): behind, (("random", "b"),): shared}))
    half = (shared + VIRTUAL_DRAWS_PER_PAIR) / 2
    assert ratings["random"] == 0
    assert ratings["b"] == pytest.approx(400 * math.log10((ahead + half) / (behind + half)), abs=1e-6)


def test_a_clean_sweep_stays_finite_and_an_even_record_rates_alike() -> None:
    sweep = plackett_luce_elo(["a", "b"], Counter({(("a",), ("b",)): 100}))
    assert math.isfinite(sweep["a"]) and sweep["a"] - sweep["b"] == pytest.approx(400 * math.log10(100.5 / 0.5))
    even = plackett_luce_elo(["a", "b", "c"], Counter(dict.fromkeys(itertools.permutations([("a",), ("b",), ("c",)]), 5)))
    assert max(even.values()) - min(even.values()) == pytest.approx(0, abs=1e-6)


def simulated_finishes(strengths: dict[str, float], tables: list[tuple[str, ...]], games: int, seed: int) -> Counter[Finish]:
    """Finishing orders drawn from the Plackett-Luce model itself: first place with probability
    proportional to strength, then the next among those left."""
    rng = np.random.default_rng(seed)
    finishes: Counter[Finish] = Counter()
    for table in tables:
        for _ in range(games):
            left, order = list(table), []
            while left:
                weights = np.array([strengths[label] for label in left])
                order.append(left.pop(int(rng.choice(len(left), p=weights / weights.sum()))))
            finishes[tuple((label,) for label in order)] += 1
    return finishes


def test_full_tables_recover_the_strengths_that_dealt_them() -> None:
    """Finishes drawn at tables of three and four from known strengths are fitted back to them."""
    strengths = {"random": 1.0, "b": 2.0, "c": 4.0, "d": 8.0, "e": 3.0}
    tables = [table for size in (3, 4) for table in itertools.combinations(strengths, size)]
    ratings = plackett_luce_elo(list(strengths), simulated_finishes(strengths, tables, 400, seed=1))
    for label, strength in strengths.items():
        assert ratings[label] == pytest.approx(ELO_PER_NEPER * math.log(strength), abs=25), label


def test_the_fit_is_the_likelihoods_maximum() -> None:
    """At the fit each agent's expected choices equal its actual ones (the likelihood's gradient is
    zero), ties and virtual draws counted as the fit counts them."""
    finishes = Counter({(("a",), ("b", "c")): 7, (("b",), ("a",), ("c",)): 5, (("c",), ("b",), ("a",)): 2, (("a", "b"), ("c",)): 3})
    labels = ["a", "b", "c"]
    ratings = plackett_luce_elo(labels, finishes)
    strength = {label: 10 ** (ratings[label] / 400) for label in labels}
    chosen = dict.fromkeys(labels, 0.0)
    expected = dict.fromkeys(labels, 0.0)
    virtual = Counter({((a,), (b,)): VIRTUAL_DRAWS_PER_PAIR / 2 for a, b in itertools.permutations(labels, 2)})
    for finish, weight in (finishes + virtual).items():
        orders = list(itertools.product(*(itertools.permutations(place) for place in finish)))
        for order in orders:
            sequence = [label for place in order for label in place]
            for position in range(len(sequence) - 1):
                left = sequence[position:]
                chosen[sequence[position]] += weight / len(orders)
                for label in left:
                    expected[label] += weight / len(orders) * strength[label] / sum(strength[other] for other in left)
    for label in labels:
        assert chosen[label] == pytest.approx(expected[label], rel=1e-6)
