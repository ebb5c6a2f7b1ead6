"""Dalek Dice invariants over thousands of random games."""

from __future__ import annotations

import pytest

from dice_envs.dalek_dice.rules import DalekDice
from dice_envs.dalek_dice.state import DalekDiceState
from tests.conformance.playouts import game_for, random_playout


@pytest.mark.parametrize("num_players", [2, 4, 6])
def test_dice_conserved_and_scores_never_decrease_across_roll_kept_and_set_aside(num_players: int) -> None:
    """Every position passes ``DalekDice.check_state`` (the ten dice conserved, three Doctors end
    the turn, three Exterminate!s only at FINISH_KEEPING, all ten to roll at a turn's start, the
    race consistent), and no score goes down."""
    game = game_for(("dalek_dice_v0", {"num_players": num_players}))
    assert isinstance(game, DalekDice)
    for seed in range(700):
        scores = [0] * num_players

        def check(state: DalekDiceState, action: int, scores: list[int] = scores) -> None:
            game.check_state(state)
            assert all(now >= before for now, before in zip(state.race.scores, scores)), "a score went down"
            scores[:] = state.race.scores

        for _ in random_playout(game, seed, on_step=check):
            pass
