"""Dalek Dice invariants over thousands of random games."""

from __future__ import annotations

import pytest

from dice_envs.dalek_dice.data import NUM_DICE, THREE
from dice_envs.dalek_dice.rules import Decision, DalekDiceState
from tests.conformance.playouts import game_for, random_playout


def check_dice(state: DalekDiceState, action: int) -> None:
    placed = (sum(state.rolled), sum(state.kept), state.doctors, state.exterminates, state.to_reroll)
    assert sum(placed) == NUM_DICE and min(placed) >= 0, f"dice not conserved: {placed}"
    if state.decision == Decision.GAME_OVER:
        return  # the last turn's dice stay as they ended
    assert state.doctors < THREE, "three Doctors must have ended the turn"
    if state.decision == Decision.START_TURN:
        assert state.to_reroll == NUM_DICE
    if state.decision == Decision.FINISH_KEEPING:
        assert state.exterminates >= THREE
    else:
        assert state.exterminates < THREE


@pytest.mark.parametrize("num_players", [2, 4, 6])
def test_dice_conserved_and_scores_never_decrease_across_roll_kept_and_set_aside(num_players: int) -> None:
    game = game_for(("dalek_dice_v0", {"num_players": num_players}))
    for seed in range(700):
        scores = [0] * num_players

        def check(state: DalekDiceState, action: int, scores: list[int] = scores) -> None:
            check_dice(state, action)
            assert all(now >= before for now, before in zip(state.race.scores, scores)), "a score went down"
            scores[:] = state.race.scores

        for _ in random_playout(game, seed, on_step=check):
            pass
