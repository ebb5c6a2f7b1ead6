"""The dense reward (``reward_mode="score"``) tells no seat what it cannot see: every agent can
read every seat's reward, so it is made of the public scores (``Game.public_scores``) alone.

Hidden-information pairs, as in ``test_seat_views.py``: ``Game.resample_hidden`` redraws what a
seat cannot see; a move made in both positions of a pair, with the same chance, gives every seat
the same rewards wherever the seat observes the same after it, unless the move ends the game (the
final count turns every score face up, Dice Age's shells too, which its observation never shows
of another seat).  ``tests/dice_age/test_rewards.py`` compares the rest of whole games.  Over a
whole game a seat's rewards add up to its final score divided by ``Game.score_normaliser()``,
plus its outcome.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

import dice_envs
from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.drawing import seat_name
from dice_envs.core.state import GameState
from tests.conformance.playouts import HIDDEN, Case, case_id, env_cases, game_for, random_playout, rewards_to_the_end

CASES = env_cases()
STRIDE = 5
"""Every how many positions of a random game a hidden-information pair is compared."""


def score_env(case: Case) -> DiceGameEnv:
    name, params = case
    env: DiceGameEnv = dice_envs.make(name, raw=True, reward_mode="score", **params)
    return env


def positions(case: Case, seed: int) -> list[GameState]:
    """Copies of every ``STRIDE``-th position of a random game."""
    return [state.clone() for index, state in enumerate(random_playout(game_for(case), seed)) if index % STRIDE == 0]


@dataclass
class Step:
    """What a move left: what the seat observes after it, the rewards, whether the game is over."""

    seen: np.ndarray
    rewards: dict[str, float]
    ended: bool


def step_from(env: DiceGameEnv, state: GameState, action: int, seat: int) -> Step:
    """``action`` in ``state``, chance seeded, as ``seat`` knows it."""
    env.reset(seed=0)
    env.set_state(state)
    env.step(action)
    return Step(env.encoder.encode(env.game_state, seat), dict(env.rewards), env.game.is_terminal(env.game_state))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_dense_rewards_tell_no_seat_what_it_cannot_see(case: Case) -> None:
    env = score_env(case)
    game, rng = env.game, np.random.default_rng(6)
    compared = 0
    for index, state in enumerate(positions(case, seed=14)):
        if game.is_terminal(state):
            continue
        for seat in range(game.num_players):
            variant = game.resample_hidden(state, seat, rng)
            for action in sorted(set(game.legal_actions(state)) & set(game.legal_actions(variant))):
                step, variant_step = step_from(env, state, action, seat), step_from(env, variant, action, seat)
                if np.array_equal(step.seen, variant_step.seen) and not step.ended:
                    assert step.rewards == variant_step.rewards, f"position {index}, action {action}: the rewards show {seat_name(seat)} what it cannot see"
                    compared += state != variant
    if case[0] in HIDDEN:  # the pairs compared differ in what the seat cannot see
        assert compared, "no pair differed: the comparison cannot fail"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_dense_rewards_add_up_to_the_final_score_and_the_outcome(case: Case) -> None:
    env = score_env(case)
    game = env.game
    for seed in range(2):
        env.reset(seed=seed)
        start = list(game.scores(env.game_state))  # nothing is face down yet
        rewards = rewards_to_the_end(env, seed)
        final, outcome = game.scores(env.game_state), game.returns(env.game_state)
        for seat, agent in enumerate(env.possible_agents):
            expected = (final[seat] - start[seat]) / game.score_normaliser() + outcome[seat]
            assert sum(reward[agent] for reward in rewards) == pytest.approx(expected), f"seed {seed}: {agent}"
