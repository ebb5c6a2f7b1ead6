"""``MCTSAgent.search_many``: many positions searched together, each as it would be alone."""

from __future__ import annotations

import numpy as np
import pytest

import dice_envs
from dice_envs.agents.mcts import Evaluator, MCTSAgent, SearchOptions, parse_options
from dice_envs.agents.specs import build_search
from dice_envs.core.engine import ParameterError
from dice_envs.core.state import GameState
from tests.conformance.playouts import random_playout

SHIPPED_EVALUATORS = [
    ("dice_age_v1", 2, "dice_age_ppo"),
    ("mammoth_hunters_v1", 3, "mammoth_hunters_ppo"),
    ("age_of_craft_v1", 2, "age_of_craft_ppo"),
    ("dino_hunt_v0", 2, "dino_hunt_ppo"),
    ("dalek_dice_v0", 2, "dalek_dice_ppo"),
]
"""A game with a shipped model of each, and the player count it was trained for."""


def positions(env: dice_envs.DiceGameEnv, games: int = 3, per_game: int = 3) -> tuple[list[GameState], list[int]]:
    """Positions spread over a few random games, each with a choice, and one forced move among them."""
    game = env.game
    states: list[GameState] = [game.initial_state(np.random.default_rng(0))]  # the first roll or deal: often forced
    for seed in range(games):
        playout = [state.clone() for state in random_playout(game, seed) if not game.is_terminal(state)]
        choices = [state for state in playout if len(game.legal_actions(state)) > 1]
        states += choices[:: max(1, len(choices) // per_game)][:per_game]
    return states, [game.current_player(state) for state in states]


def search(env_name: str, env: dice_envs.DiceGameEnv, options: SearchOptions) -> MCTSAgent:
    return build_search(env_name, options, env, seed=11)


@pytest.mark.parametrize("chance", ["open", "closed"])
@pytest.mark.parametrize("env_name, players, model", SHIPPED_EVALUATORS)
def test_searching_together_is_searching_one_after_another(env_name: str, players: int, model: str, chance: str) -> None:
    """The trees of all the positions run in lockstep, one network pass for all their requests,
    and give the moves and root visits of one ``search_visits`` call after another from the seed.
    (A row's probabilities and value can differ in the last bits between a pass of one row and
    one of many, numpy's and torch's products being computed differently for each; over 1,500
    positions of the five games, 300 searched together against one at a time, no visit count
    changed.)"""
    env = dice_envs.make(env_name, num_players=players)
    states, seats = positions(env)
    options = SearchOptions(simulations=12, model=model, chance=chance)
    together = search(env_name, env, options).search_many(states, seats)
    alone = search(env_name, env, options)
    one_by_one = [alone.search_visits(state, seat) for state, seat in zip(states, seats)]
    assert [move for move, _ in together] == [move for move, _ in one_by_one]
    for (_, counts), (_, expected) in zip(together, one_by_one):
        assert np.array_equal(counts, expected)
    for state, (_, counts) in zip(states, together):  # each searched with its own budget; a forced move not at all
        assert counts.sum() == (12 if len(env.game.legal_actions(state)) > 1 else 1)


def test_rollout_searches_come_one_after_another_as_alone() -> None:
    env = dice_envs.make("dino_hunt_v0")
    states, seats = positions(env, games=2)
    options = SearchOptions(simulations=10, rollout="cup_counter")
    together = search("dino_hunt_v0", env, options).search_many(states, seats)
    alone = search("dino_hunt_v0", env, options)
    assert [move for move, _ in together] == [alone.search(state, seat) for state, seat in zip(states, seats)]


def test_a_deadline_stops_every_tree_after_one_simulation_at_least() -> None:
    """A microsecond is over before the first pass returns: every tree has its one simulation, none more."""
    env = dice_envs.make("dino_hunt_v0")
    states, seats = positions(env, games=2)
    results = search("dino_hunt_v0", env, SearchOptions(seconds=1e-6, model="dino_hunt_ppo")).search_many(states, seats)
    assert [counts.sum() for _, counts in results] == [1] * len(states)


class CountingEvaluator:
    """An evaluator that counts its passes."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator
        self.passes = 0

    def evaluate(self, observations: np.ndarray, action_masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.passes += 1
        return self.evaluator.evaluate(observations, action_masks)


def test_leaves_wait_for_one_pass_together() -> None:
    """With ``leaves=4`` a tree's simulations wait four at a time for the same pass (a virtual
    loss sending each down another path): fewer passes for the same budget; ``leaves=1`` is the
    default search itself."""
    env = dice_envs.make("dice_age_v1")
    states, seats = positions(env, games=1)
    passes, results = {}, {}
    for leaves in (1, 4):
        agent = search("dice_age_v1", env, SearchOptions(simulations=16, model="dice_age_ppo", leaves=leaves))
        assert agent.evaluator is not None
        counting = agent.evaluator = CountingEvaluator(agent.evaluator)
        results[leaves] = agent.search_many(states[1:2], seats[1:2])
        passes[leaves] = counting.passes
        assert results[leaves][0][1].sum() == 16
    assert passes[4] < passes[1] / 2
    default = search("dice_age_v1", env, SearchOptions(simulations=16, model="dice_age_ppo")).search_many(states[1:2], seats[1:2])
    assert default[0][0] == results[1][0][0] and np.array_equal(default[0][1], results[1][0][1])


def test_leaves_come_from_the_spec_with_a_model_only() -> None:
    assert parse_options("mcts:leaves=8,model=dice_age_ppo") == SearchOptions(leaves=8, model="dice_age_ppo")
    for spec, message in [
        ("mcts:leaves=4", "leaves is the simulations of a tree waiting for one network pass: it needs a model"),
        ("mcts:leaves=0,model=dice_age_ppo", "leaves must be a whole number from 1 to 256, got 0"),
        ("mcts:leaves=1000,model=dice_age_ppo", "leaves must be a whole number from 1 to 256, got 1000"),
    ]:
        with pytest.raises(ParameterError, match=message):
            parse_options(spec)
