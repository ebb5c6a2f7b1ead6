"""Properties over thousands of random games of every registered environment."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dice_envs
from dice_envs.core.state import GameState
from tests.conformance.playouts import Case, case_id, env_cases, game_for, random_playout

CASES = env_cases()
GAMES_PER_CASE = 500
EVERY_COUNT = env_cases("all")
CHECKED_GAMES = 25
"""Games per player count whose every position goes through ``Game.check_state`` here (the games'
own property tests check every step of hundreds more)."""


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_every_game_ends(case: Case) -> None:
    game = game_for(case)
    for seed in range(GAMES_PER_CASE):
        steps = sum(1 for _ in random_playout(game, seed))
        assert steps > 0


@pytest.mark.parametrize("case", EVERY_COUNT, ids=[case_id(c) for c in EVERY_COUNT])
def test_every_position_of_play_passes_check_state(case: Case) -> None:
    """The validators accept every position real play reaches, the first and the last included,
    at every player count: what ``from_json`` and ``set_state`` refuse is never a real position."""
    game = game_for(case)

    def check(state: GameState, action: int) -> None:
        game.check_state(state)

    for seed in range(CHECKED_GAMES):
        for step, state in enumerate(random_playout(game, seed, on_step=check)):
            if not step:
                check(state, -1)


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_action_sequence_is_handled(case: Case, data: st.DataObject) -> None:
    """Hypothesis picks every action (legal or not, shrinking failures to short games): a legal one
    is applied, an illegal one raises ``ValueError`` and changes nothing."""
    name, params = case
    env = dice_envs.make(name, raw=True, **params)
    env.reset(seed=data.draw(st.integers(0, 2**32 - 1), label="seed"))
    for _ in range(400):
        if not env.agents:
            return
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = data.draw(st.integers(0, env.game.num_actions - 1), label="action")
        if obs["action_mask"][action]:
            env.step(action)
        else:
            before = env.game_state.to_dict()
            with pytest.raises(ValueError, match=f"illegal action {action}"):
                env.step(action)
            assert env.game_state.to_dict() == before
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
