"""Dino Hunt Dice invariants over thousands of random games."""

from __future__ import annotations

import pytest

from dice_envs.dino_hunt.data import DICE_PER_COLOUR, DICE_PER_ROLL, STOMPS_TO_END_TURN
from dice_envs.dino_hunt.rules import Decision, DinoHuntState
from tests.conformance.playouts import game_for, random_playout


def check_dice(state: DinoHuntState, action: int) -> None:
    for colour, total in enumerate(DICE_PER_COLOUR):
        where = (state.cup[colour], state.leaves[colour], state.dinos[colour], state.footprints[colour])
        assert sum(where) == total and min(where) >= 0, f"colour {colour} not conserved: {where}"
    assert sum(state.leaves) <= DICE_PER_ROLL
    if state.decision == Decision.ROLL_OR_STOP:
        assert sum(state.footprints) < STOMPS_TO_END_TURN
    else:
        assert sum(state.cup) == sum(DICE_PER_COLOUR), "dice not back in the cup between turns"


@pytest.mark.parametrize("num_players", [2, 4, 8])
def test_dice_conserved_and_scores_never_decrease_across_cup_hand_and_table(num_players: int) -> None:
    game = game_for(("dino_hunt_v0", {"num_players": num_players}))
    for seed in range(700):
        scores = [0] * num_players

        def check(state: DinoHuntState, action: int, scores: list[int] = scores) -> None:
            check_dice(state, action)
            assert all(now >= before for now, before in zip(state.race.scores, scores)), "a score went down"
            scores[:] = state.race.scores

        for _ in random_playout(game, seed, on_step=check):
            pass
