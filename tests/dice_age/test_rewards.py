"""Dice Age's dense reward (``reward_mode="score"``) leaves out the face-down shell values until
the final count turns them up (``DiceAge.public_scores``; v1's change): two positions that differ
only in the values of an opponent's shell tiles (and of the pile's) give every seat the same
rewards at every step of the rest of the game, up to its last (``tests/conformance/test_rewards.py``
checks one move of every game's pairs, and the totals over whole games)."""

from __future__ import annotations

import numpy as np

import dice_envs
from dice_envs.core.aec import DiceGameEnv
from dice_envs.dice_age.data import HONOR_POINTS, SHELL_VALUES, Honor
from dice_envs.dice_age.rules import DiceAge
from dice_envs.dice_age.state import Decision, DiceAgeParams, DiceAgeState
from dice_envs.dice_age.view import seen_scores
from tests.conformance.playouts import random_playout, rewards_to_the_end

GAME = DiceAge(DiceAgeParams(num_players=3))


def shell_pairs(game: DiceAge, seed: int) -> list[tuple[DiceAgeState, DiceAgeState, int]]:
    """Positions of a random game in which a seat's opponents hold shell tiles, each with its
    redraw for the seat (``resample_hidden``: the opponents' and the pile's shell values), and the seat."""
    rng = np.random.default_rng(seed)
    pairs = []
    for state in random_playout(game, seed):
        assert isinstance(state, DiceAgeState)
        seat = state.current
        if any(player.shells for other, player in enumerate(state.players) if other != seat):
            variant = game.resample_hidden(state, seat, rng)
            if variant != state:
                pairs.append((state.clone(), variant, seat))
    return pairs[::7]


def rest_of_the_game(env: DiceGameEnv, start: DiceAgeState, seed: int) -> list[dict[str, float]]:
    env.reset(seed=seed)
    env.set_state(start)
    return rewards_to_the_end(env, seed)


def test_an_opponents_shell_values_change_no_reward_before_the_final_count() -> None:
    env = dice_envs.make("dice_age_v1", raw=True, reward_mode="score", num_players=3)
    game, compared, full_scores_differed = env.game, 0, 0
    assert isinstance(game, DiceAge)
    for seed in range(2):
        for state, variant, seat in shell_pairs(game, seed):
            rewards, variant_rewards = rest_of_the_game(env, state, seed), rest_of_the_game(env, variant, seed)
            assert len(rewards) == len(variant_rewards), "the redraw changed what was played"
            assert rewards[:-1] == variant_rewards[:-1], f"player_{seat}'s opponents' shells show in the rewards"
            compared += 1
            full_scores_differed += game.scores(state) != game.scores(variant)
    assert compared and full_scores_differed, "no pair differed in a full score: the comparison cannot fail"


def test_public_scores_are_what_another_seat_sees_and_all_of_it_at_game_over() -> None:
    state = GAME.initial_state(np.random.default_rng(0))
    state.players[1].shells = [20, 40]
    state.players[1].honors[Honor.INNOVATION] = 1  # counts the 20-point shells: face down too
    for value in state.players[1].shells:
        state.shell_pile[SHELL_VALUES.index(value)] -= 1
    assert GAME.scores(state)[1] == 20 + 40 + HONOR_POINTS[Honor.INNOVATION]
    assert GAME.public_scores(state) == [0, 0, 0]
    assert seen_scores(GAME, state, 0)[1] == "0 + shells"
    state.decision = Decision.GAME_OVER
    assert GAME.public_scores(state) == GAME.scores(state)
