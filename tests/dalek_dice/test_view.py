"""Dalek Dice's move labels (``dice_envs/dalek_dice/view.py``): rolling and stopping say what
they would do in the position, as the picture's buttons do."""

from __future__ import annotations

import numpy as np

from dice_envs.core.picture import Text
from dice_envs.dalek_dice.actions import KEEP_HUMAN_4, ROLL, STOP
from dice_envs.dalek_dice.picture import draw
from dice_envs.dalek_dice.rules import DalekDice
from dice_envs.dalek_dice.state import Decision, dice_left
from dice_envs.dalek_dice.view import move_label

GAME = DalekDice.from_kwargs(num_players=2)


def test_a_turn_starts_with_all_ten_dice() -> None:
    state = GAME.initial_state(np.random.default_rng(0))
    assert state.decision == Decision.START_TURN
    assert [move_label(GAME, state, action, 0) for action in (ROLL, STOP)] == ["roll all ten dice", "stop"]


def test_after_keeping_the_labels_count_dice_and_points() -> None:
    rng = np.random.default_rng(1)
    state = GAME.initial_state(rng)
    GAME.apply(state, ROLL, rng)
    while state.decision != Decision.KEEP or not state.kept_this_roll:
        legal = GAME.legal_actions(state)
        GAME.apply(state, legal[0], rng)
    roll, stop = move_label(GAME, state, ROLL, 1), move_label(GAME, state, STOP, None)
    assert roll == f"roll the rest ({dice_left(state)} dice)" and stop.startswith("stop and score ")
    texts = {shape.text for shape in draw(GAME, state, 0).shapes if isinstance(shape, Text)}
    assert {roll.capitalize(), "S" + stop[1:]} <= texts
    assert move_label(GAME, state, KEEP_HUMAN_4, 1) == "keep one more Human 4"
