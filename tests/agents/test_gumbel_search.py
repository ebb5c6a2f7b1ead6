"""``mcts:gumbel=M``: Gumbel AlphaZero's search (sequential halving at the root, the improved
policy as its target, deterministic selection below), ``search_policies``, and
``rollout_weight``: rollouts mixed into a network's leaf values."""

from __future__ import annotations

import numpy as np
import pytest

import dice_envs
from dice_envs.agents.mcts import (
    Evaluator,
    SearchOptions,
    _considered_visits,
    _gumbel_interior_action,
    _Node,
    _sigma_completed_q,
    _softmax,
    parse_options,
)
from dice_envs.core.engine import ParameterError
from tests.agents.test_batched_search import SHIPPED_EVALUATORS, positions, search


def test_considered_visits_are_mctx_sequential_halving() -> None:
    """Every candidate once, then rounds that halve them, each round's budget spread evenly
    (mctx's ``get_sequence_of_considered_visits``, worked by hand)."""
    assert _considered_visits(4, 16) == (0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5)
    assert _considered_visits(1, 5) == (0, 1, 2, 3, 4)
    assert _considered_visits(3, 4) == (0, 0, 0, 1)  # a budget smaller than the rounds: cut short
    assert _considered_visits(8, 8) == (0,) * 8


def node(priors: dict[int, float], estimate: float, children: dict[int, tuple[int, float]]) -> _Node:
    """A node with ``priors``, the value head's ``estimate`` and children of (visits, mean value)."""
    made = _Node()
    made.priors, made.estimate = priors, estimate
    for action, (visits, mean) in children.items():
        child = made.children[action] = _Node()
        child.visits, child.total = visits, visits * mean
    return made


def test_sigma_completes_an_unvisited_action_with_the_mixed_value() -> None:
    """Visited: their mean values; unvisited: (estimate + visits * prior-weighted q) / (visits + 1);
    each scaled by (50 + most visits) * 0.1, not rescaled (values are in [0, 1] already)."""
    tested = node({0: 0.5, 1: 0.25, 2: 0.25}, estimate=0.2, children={0: (3, 0.8), 1: (1, 0.4)})
    mixed = (0.2 + 4 * (0.5 * 0.8 + 0.25 * 0.4) / 0.75) / 5
    assert np.allclose(_sigma_completed_q(tested, [0, 1, 2]), (50 + 3) * 0.1 * np.array([0.8, 0.4, mixed]))
    close = node({0: 0.5, 1: 0.5}, estimate=0.5, children={0: (1, 0.51), 1: (1, 0.50)})
    assert np.ptp(_sigma_completed_q(close, [0, 1])) == pytest.approx(0.051)  # a small difference stays small


def test_below_the_root_the_visits_follow_the_improved_policy() -> None:
    """The action whose share of the visits is furthest below its improved probability is taken;
    a better q draws visits away from a higher prior."""
    even = node({0: 0.5, 1: 0.5}, estimate=0.5, children={0: (2, 0.9), 1: (2, 0.1)})
    assert _gumbel_interior_action(even, [0, 1]) == 0
    prior_led = node({0: 0.9, 1: 0.1}, estimate=0.5, children={})
    assert _gumbel_interior_action(prior_led, [0, 1]) == 0
    improved = _softmax(np.log([0.9, 0.1]) + _sigma_completed_q(node({0: 0.9, 1: 0.1}, 0.5, {0: (1, 0.0), 1: (1, 1.0)}), [0, 1]))
    assert improved[1] > 0.9  # one visit each: q outweighs a prior of nine to one


@pytest.mark.parametrize("env_name, players, model", SHIPPED_EVALUATORS)
def test_gumbel_searched_together_is_searched_one_after_another(env_name: str, players: int, model: str) -> None:
    """As for PUCT: the lockstep search's moves and visits are those of one search after another
    from the same seed, and its improved policies theirs to float precision; every root's visits sum to the budget, its policy
    is a distribution over the legal actions, and the move is one of the most visited."""
    env = dice_envs.make(env_name, num_players=players)
    states, seats = positions(env)
    options = SearchOptions(simulations=12, model=model, gumbel=4)
    together = search(env_name, env, options).search_policies(states, seats)
    alone = search(env_name, env, options)
    one_by_one = [alone.search_policies([state], [seat])[0] for state, seat in zip(states, seats)]
    visits = search(env_name, env, options).search_many(states, seats)
    for state, (move, policy), (expected_move, expected_policy), (visited_move, counts) in zip(states, together, one_by_one, visits):
        assert move == expected_move == visited_move
        assert np.allclose(policy, expected_policy, rtol=0, atol=1e-5)  # float32 passes of one row and of many differ in the last bits
        legal = env.game.legal_actions(state)
        assert counts.sum() == (12 if len(legal) > 1 else 1)
        assert counts[move] == counts.max()
        assert policy.sum() == pytest.approx(1.0) and policy[np.setdiff1d(np.arange(env.game.num_actions), legal)].sum() == 0
        if len(legal) > 1:
            assert (counts[legal] > 0).sum() == min(4, len(legal))  # every candidate, and only they, tried


def test_the_improved_policy_is_the_visit_distribution_without_gumbel() -> None:
    env = dice_envs.make("dice_age_v1")
    states, seats = positions(env, games=1)
    options = SearchOptions(simulations=10, model="dice_age_ppo")
    policies = search("dice_age_v1", env, options).search_policies(states, seats)
    visits = search("dice_age_v1", env, options).search_many(states, seats)
    for (move, policy), (visited_move, counts) in zip(policies, visits):
        assert move == visited_move and np.array_equal(policy, counts / counts.sum())


def test_the_root_keeps_the_best_candidate_of_sequential_halving() -> None:
    """Of the actions visited as often as the round asks (the candidates still in), the one with
    the highest gumbel + logit + sigma(q) is visited (or played): one fewer visit is out, however good."""
    env = dice_envs.make("dice_age_v1")
    agent = search("dice_age_v1", env, SearchOptions(simulations=8, model="dice_age_ppo", gumbel=4))
    state = next(state for state in positions(env, games=1)[0] if len(env.game.legal_actions(state)) >= 3)
    tree = agent._forced_move_or_tree(state, env.game.current_player(state))
    assert not isinstance(tree, tuple)
    first, second, third = tree.legal[:3]
    tree.root = node({action: 1 / len(tree.legal) for action in tree.legal}, 0.5, {first: (2, 0.2), second: (2, 0.6), third: (1, 1.0)})
    tree.gumbel = dict.fromkeys(tree.legal, 0.0)
    assert agent._gumbel_root_action(tree, considered_visit=2) == second
    assert agent._gumbel_root_action(tree, considered_visit=1) == third
    tree.gumbel[first] = 100.0  # the noise outweighs q: the draw is what lets self-play explore
    assert agent._gumbel_root_action(tree, considered_visit=2) == first


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:gumbel=16", "gumbel searches with a network's priors and values: it needs a model"),
        ("mcts:gumbel=-1,model=dice_age_ppo", "gumbel must be a whole number of root actions, 0 \\(PUCT\\) or more, got -1"),
        ("mcts:gumbel=4,model=dice_age_ppo,seconds=0.1", "gumbel needs a budget in simulations \\(not seconds\\), one leaf at a time"),
        ("mcts:gumbel=4,model=dice_age_ppo,leaves=4", "gumbel needs a budget in simulations \\(not seconds\\), one leaf at a time"),
        ("mcts:rollout_weight=0.5", "rollout_weight mixes rollouts with a network's values: it needs a model"),
        ("mcts:rollout_weight=1.5,model=dice_age_ppo", "rollout_weight must be a number from 0 to 1, got 1.5"),
        ("mcts:rollout_weight=nan,model=dice_age_ppo", "rollout_weight must be a number from 0 to 1, got nan"),
    ],
)
def test_gumbel_and_rollout_weight_are_refused_where_they_cannot_work(spec: str, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        parse_options(spec)


def test_gumbel_and_rollout_weight_come_from_the_spec() -> None:
    assert parse_options("mcts:gumbel=16,model=dice_age_ppo") == SearchOptions(gumbel=16, model="dice_age_ppo")
    assert parse_options("mcts:rollout_weight=0.5,model=dice_age_ppo") == SearchOptions(rollout_weight=0.5, model="dice_age_ppo")


class SignedValues:
    """The shipped evaluator, its values multiplied by ``sign`` (-1: every estimate reversed)."""

    def __init__(self, evaluator: Evaluator, sign: float) -> None:
        self.evaluator, self.sign = evaluator, sign

    def evaluate(self, observations: np.ndarray, action_masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        probabilities, values = self.evaluator.evaluate(observations, action_masks)
        return probabilities, self.sign * values


@pytest.mark.parametrize("gumbel", [0, 4])
def test_rollout_weight_mixes_rollouts_into_the_leaves(gumbel: int) -> None:
    """``rollout_weight=1``: the leaves are the rollouts', whatever the value head says (its
    estimates reversed change no visit of PUCT's; Gumbel's mixed value of a node still reads the
    head's estimate of the node itself); 0: the value head's, which then moves the root's policy;
    between, searched together as one by one."""
    env = dice_envs.make("dice_age_v1")
    states, seats = positions(env, games=2)

    def visits(weight: float, sign: float) -> list[np.ndarray]:
        agent = search("dice_age_v1", env, SearchOptions(simulations=12, model="dice_age_ppo", gumbel=gumbel, rollout_weight=weight))
        assert agent.evaluator is not None
        agent.evaluator = SignedValues(agent.evaluator, sign)
        return [policy for _, policy in agent.search_policies(states, seats)]

    rolled = [visits(1.0, sign) for sign in (1.0, -1.0)]
    # PUCT reads the leaves alone; Gumbel's mixed value still starts from the node's own estimate
    assert all(np.array_equal(a, b) for a, b in zip(*rolled)) == (not gumbel)
    valued = [visits(0.0, sign) for sign in (1.0, -1.0)]
    assert not all(np.array_equal(a, b) for a, b in zip(*valued))
    options = SearchOptions(simulations=12, model="dice_age_ppo", gumbel=gumbel, rollout_weight=0.5)
    together = search("dice_age_v1", env, options).search_many(states, seats)
    alone = search("dice_age_v1", env, options)
    for (move, counts), state, seat in zip(together, states, seats):
        expected_move, expected = alone.search_visits(state, seat)
        assert move == expected_move and np.array_equal(counts, expected)
