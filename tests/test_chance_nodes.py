"""Chance as explicit nodes (``dice_envs.core.chance_nodes``) agrees with the sampled engines.

At every chance node of random games the outcomes' probabilities sum to 1, and where an action's
chance can be enumerated, the sampled engine's frequencies of the next decision's state fit the
exact probabilities that the chance nodes give (a chi-square test, as in ``tests/test_chance.py``).
"""

from __future__ import annotations

import itertools
from collections import Counter
from math import isclose
from typing import Any

import numpy as np
import pytest

import dice_envs
from dice_envs.core.chance import ChanceNeeded, Die, OutcomeTape, UndeclaredChanceError, roll_dice, shuffled
from dice_envs.core.chance_nodes import CHANCE, ChanceNode, ExplicitChance
from dice_envs.core.engine import TERMINAL, Game
from tests.test_chance import chi_square_bound

SAMPLES = 3000
MAX_LEAVES = 400
"""Actions whose chance leads to at most this many decisions are checked against the sampler."""


def game_at(name: str, num_players: int) -> Game[Any, Any]:
    game: Game[Any, Any] = dice_envs.env_module(name).raw_env.game_class.from_kwargs(num_players=num_players)
    return game


def player_counts() -> list[tuple[str, int]]:
    cases = []
    for name in dice_envs.list_envs():
        params = dice_envs.env_module(name).raw_env.game_class.params_class
        cases += [(name, params.min_players), (name, params.max_players)]
    return cases


def random_game(view: ExplicitChance[Any], seed: int) -> list[ChanceNode[Any]]:
    """Every node of one random game played through the explicit view, outcomes drawn by their odds."""
    rng = np.random.default_rng(seed)
    nodes = [view.initial()]
    while view.current_player(nodes[-1]) != TERMINAL:
        node = nodes[-1]
        if node.is_chance:
            nodes.append(view.apply_outcome(node, view.sample_outcome(node, rng)))
        else:
            nodes.append(view.apply_action(node, int(rng.choice(view.game.legal_actions(node.decision_state)))))
    return nodes


@pytest.mark.parametrize(("name", "num_players"), player_counts())
def test_every_chance_node_of_random_games_lists_outcomes_that_sum_to_one(name: str, num_players: int) -> None:
    game = game_at(name, num_players)
    view = ExplicitChance(game)
    for seed in range(2):
        nodes = random_game(view, seed)
        chance = [node for node in nodes if node.is_chance]
        assert chance, "a game of dice has chance"
        for node in chance:
            ids = [outcome for outcome, _ in node.outcomes]
            assert view.current_player(node) == CHANCE
            assert len(ids) > 1, "an event with one outcome is not a node"
            assert len(set(ids)) == len(ids)
            assert all(0 <= outcome < game.max_chance_outcomes for outcome in ids), (node.event, game.max_chance_outcomes)
            assert all(p > 0 for _, p in node.outcomes)
            assert isclose(sum(p for _, p in node.outcomes), 1.0, abs_tol=1e-9), node.event
        for node in nodes:
            if not node.is_chance:
                game.check_state(node.decision_state)  # every decision reached is a valid position


def enumerable_actions(view: ExplicitChance[Any], seed: int, wanted: int) -> list[tuple[ChanceNode[Any], int, list[tuple[float, ChanceNode[Any]]]]]:
    """(decision, action, the decisions it leads to) for up to ``wanted`` chance-drawing actions of a
    random game whose leaves number at most ``MAX_LEAVES``, varied: one per kind of first event."""
    found: dict[str, tuple[ChanceNode[Any], int, list[tuple[float, ChanceNode[Any]]]]] = {}
    nodes = random_game(view, seed)
    for node, following in itertools.pairwise(nodes):
        if node.is_chance or not following.is_chance or following.before is not node.state:
            continue
        kind = type(following.event).__name__
        if kind in found:
            continue
        leaves = bounded_leaves(view, following, MAX_LEAVES)
        if leaves is not None and following.action is not None:
            found[kind] = (node, following.action, leaves)
        if len(found) == wanted:
            break
    return list(found.values())


def bounded_leaves(view: ExplicitChance[Any], node: ChanceNode[Any], limit: int) -> list[tuple[float, ChanceNode[Any]]] | None:
    """``view.decisions_below(node)``, or None once more than ``limit`` nodes are met."""
    count = 0
    leaves: list[tuple[float, ChanceNode[Any]]] = []
    stack = [(1.0, node)]
    while stack:
        probability, current = stack.pop()
        count += 1
        if count > limit:
            return None
        if not current.is_chance:
            leaves.append((probability, current))
            continue
        stack += [(probability * p, view.apply_outcome(current, outcome)) for outcome, p in current.outcomes]
    return leaves


@pytest.mark.parametrize("name", dice_envs.list_envs())
def test_the_sampled_engine_draws_what_the_chance_nodes_say(name: str) -> None:
    params = dice_envs.env_module(name).raw_env.game_class.params_class
    game = game_at(name, params.min_players)
    view = ExplicitChance(game)
    checked = 0
    for seed in range(12):  # until two actions are checked (Mammoth Hunters' small ones are rare)
        if checked >= 2:
            break
        for decision, action, leaves in enumerable_actions(view, seed, wanted=2):
            exact: Counter[str] = Counter()
            for probability, leaf in leaves:
                exact[leaf.decision_state.to_json()] += probability  # equal states reached two ways add up
            assert isclose(sum(exact.values()), 1.0)
            rng = np.random.default_rng(seed)
            seen: Counter[str] = Counter()
            for _ in range(SAMPLES):
                state = decision.decision_state.clone()
                game.apply(state, action, rng)
                seen[state.to_json()] += 1
            assert set(seen) <= set(exact), "the sampler reached a state the chance nodes give no probability"
            # Outcomes expected fewer than 5 times are pooled, as a chi-square test needs.
            small = [key for key, p in exact.items() if p * SAMPLES < 5]
            cells = [([key], p) for key, p in exact.items() if key not in small]
            if small:
                cells.append((small, sum(exact[key] for key in small)))
            if len(cells) < 2:
                continue
            statistic = sum((sum(seen[key] for key in keys) - SAMPLES * p) ** 2 / (SAMPLES * p) for keys, p in cells)
            assert statistic < chi_square_bound(len(cells) - 1), (name, decision.decision_state.to_json(), action)
            checked += 1
    assert checked >= 2, f"{name}: only {checked} actions small enough to enumerate"


def test_a_shuffle_dealt_one_item_at_a_time_is_what_shuffled_draws() -> None:
    """The shuffles too large to enumerate in a game (Mammoth Hunters' decks) are the same event as
    this small one: every order of a bag with repeats, by the chance nodes and by the sampler."""
    items = [2, 0, 1, 0, 2]
    exact: Counter[tuple[int, ...]] = Counter()

    def deal(tape: tuple[int, ...], probability: float) -> None:
        try:
            exact[tuple(shuffled(OutcomeTape(tape), items))] += probability
        except ChanceNeeded as needed:
            for outcome, p in needed.event.outcomes:
                deal((*tape, outcome), probability * p)

    deal((), 1.0)
    assert len(exact) == 30 and isclose(sum(exact.values()), 1.0)  # 5! / (2! 2!) orders, equally likely
    rng = np.random.default_rng(0)
    seen = Counter(tuple(shuffled(rng, items)) for _ in range(SAMPLES))
    statistic = sum((seen[order] - SAMPLES * p) ** 2 / (SAMPLES * p) for order, p in exact.items())
    assert set(seen) <= set(exact) and statistic < chi_square_bound(len(exact) - 1)


def test_an_engine_that_draws_around_the_chance_events_is_caught() -> None:
    tape = OutcomeTape()
    with pytest.raises(UndeclaredChanceError, match=r"draw through dice_envs\.core\.chance"):
        tape.random(3)
    with pytest.raises(UndeclaredChanceError):
        tape.integers(6)


def test_a_tape_gives_its_outcomes_in_order_and_an_event_with_one_outcome_takes_none() -> None:
    tape = OutcomeTape([4, 0])
    assert roll_dice(tape, 2) == [4, 0]
    assert tape.outcome(Die((7, 7, 7))) == 7  # one outcome: nothing taken from the tape
    assert tape.used == 2


def test_an_outcome_that_the_node_does_not_list_is_refused_in_one_line() -> None:
    view = ExplicitChance(game_at("dalek_dice_v0", 2))
    node = view.apply_action(view.initial(), view.game.legal_actions(view.initial().decision_state)[0])
    assert node.is_chance and len(node.outcomes) == 3003
    with pytest.raises(ValueError, match=r"apply_outcome: 3003 is not an outcome of RollCounts") as error:
        view.apply_outcome(node, 3003)
    assert "\n" not in str(error.value)
    with pytest.raises(ValueError, match="is a decision"):
        view.apply_outcome(view.initial(), 0)
    with pytest.raises(ValueError, match="apply one of its outcomes first"):
        view.apply_action(node, 0)


def test_a_sampled_state_continues_in_the_explicit_view() -> None:
    """``decision(state)`` takes a position of the sampled path (e.g. a saved one) into the view."""
    env = dice_envs.make("dino_hunt_v0", raw=True)
    env.reset(seed=3)
    view = ExplicitChance(env.game)
    leaves = view.after(view.decision(env.game_state), 0)
    assert isclose(sum(p for p, _ in leaves), 1.0)
    assert all(not leaf.is_chance for _, leaf in leaves)


def test_an_illegal_action_or_a_chosen_outcome_not_listed_is_refused_in_one_line() -> None:
    game = game_at("dino_hunt_v0", 2)
    view = ExplicitChance(game)
    start = view.initial()  # the mandatory first roll: stopping is not legal
    with pytest.raises(ValueError, match=r"dino_hunt_v0: action 1 is not legal here; legal actions are \[0\]"):
        view.apply_action(start, 1)
    with pytest.raises(ValueError, match="choose gave 99, not an outcome of Draw"):
        view.play(start.decision_state.clone(), 0, lambda event: 99)
    assert len(view.play(start.decision_state.clone(), 0, lambda event: event.outcomes[-1][0])) == 4  # the draw, then three dice
