"""``MCTSAgent.search_many``: many positions searched together, each as it would be alone."""

from __future__ import annotations

import numpy as np
import pytest

import dice_envs
from dice_envs.agents.mcts import MCTSAgent, SearchOptions
from dice_envs.agents.specs import build_search
from dice_envs.core.state import GameState
from tests.conformance.playouts import random_playout

SHIPPED_EVALUATORS = [
    ("dice_age_v0", 2, "dice_age_ppo"),
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
    and give the moves and root visits of one ``search_visits`` call after another from the seed."""
    env = dice_envs.make(env_name, num_players=players)
    states, seats = positions(env)
    options = SearchOptions(simulations=12, model=model, chance=chance)
    together = search(env_name, env, options).search_many(states, seats)
    alone = search(env_name, env, options)
    one_by_one = [alone.search_visits(state, seat) for state, seat in zip(states, seats)]
    assert [move for move, _ in together] == [move for move, _ in one_by_one]
    for (_, counts), (_, expected) in zip(together, one_by_one):
        assert np.array_equal(counts, expected)
    assert all(counts.sum() == 12 for counts in (c for _, c in together[1:]))  # each searched with its own budget


def test_rollout_searches_come_one_after_another_as_alone() -> None:
    env = dice_envs.make("dino_hunt_v0")
    states, seats = positions(env, games=2)
    options = SearchOptions(simulations=10, rollout="cup_counter")
    together = search("dino_hunt_v0", env, options).search_many(states, seats)
    alone = search("dino_hunt_v0", env, options)
    assert [move for move, _ in together] == [alone.search(state, seat) for state, seat in zip(states, seats)]


def test_a_deadline_stops_every_tree_after_one_simulation_at_least() -> None:
    env = dice_envs.make("dino_hunt_v0")
    states, seats = positions(env, games=2)
    results = search("dino_hunt_v0", env, SearchOptions(seconds=1e-6, model="dino_hunt_ppo")).search_many(states, seats)
    assert all(counts.sum() >= 1 for _, counts in results)
    assert all(counts.sum() == 1 for state, (_, counts) in zip(states, results) if len(env.game.legal_actions(state)) == 1)
