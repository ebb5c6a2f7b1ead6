"""Properties over thousands of random games of every registered environment."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dice_envs
from tests.conformance.playouts import case_id, env_cases, game_for, random_playout

CASES = env_cases()
GAMES_PER_CASE = 500


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_scores_never_decrease_and_every_game_ends(case: tuple[str, int]) -> None:
    game = game_for(*case)
    lengths = []
    for seed in range(GAMES_PER_CASE):
        previous = [0] * game.num_players

        def check(state, action, previous=previous):
            scores = list(game.scores(state))
            assert all(now >= before for now, before in zip(scores, previous)), (seed, previous, scores)
            previous[:] = scores

        lengths.append(sum(1 for _ in random_playout(game, seed, on_step=check)))
    assert min(lengths) > 0


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_action_sequence_is_handled(case: tuple[str, int], data: st.DataObject) -> None:
    """Hypothesis picks every action (legal or not, shrinking failures to short games): a legal one
    is applied, an illegal one raises ``ValueError`` and changes nothing."""
    name, num_players = case
    env = dice_envs.make(name, raw=True, num_players=num_players)
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
