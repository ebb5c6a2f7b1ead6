"""Dino Hunt Dice invariants over thousands of random games."""

from __future__ import annotations

import pytest

from dice_envs.dino_hunt.rules import DinoHunt
from dice_envs.dino_hunt.state import DinoHuntState
from tests.conformance.playouts import game_for, random_playout


@pytest.mark.parametrize("num_players", [2, 4, 8])
def test_dice_conserved_and_scores_never_decrease_across_cup_hand_and_table(num_players: int) -> None:
    """Every position passes ``DinoHunt.check_state`` (dice conserved by colour, at most three
    Leaves in hand, fewer than three Footprints at roll-or-stop, all dice in the cup between
    turns, the race consistent), and no score goes down."""
    game = game_for(("dino_hunt_v0", {"num_players": num_players}))
    assert isinstance(game, DinoHunt)
    for seed in range(700):
        scores = [0] * num_players

        def check(state: DinoHuntState, action: int, scores: list[int] = scores) -> None:
            game.check_state(state)
            assert all(now >= before for now, before in zip(state.race.scores, scores)), "a score went down"
            scores[:] = state.race.scores

        for _ in random_playout(game, seed, on_step=check):
            pass
