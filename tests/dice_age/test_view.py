"""Dice Age's move labels, and scores and shells as a seat knows them (``dice_envs/dice_age/view.py``)."""

from __future__ import annotations

import numpy as np

from dice_envs.core.picture import Text
from dice_envs.dice_age.actions import INTIMIDATE_ACTIONS, ROLL
from dice_envs.dice_age.data import SHELL_VALUES, Die
from dice_envs.dice_age.picture import draw
from dice_envs.dice_age.rules import DiceAge
from dice_envs.dice_age.state import Decision
from dice_envs.dice_age.view import move_label, seen_scores

GAME = DiceAge.from_kwargs(num_players=3)


def test_intimidate_names_the_seat_whose_die_it_is() -> None:
    state = GAME.initial_state(np.random.default_rng(0))
    state.current = 2
    next_seat_small, next_but_one_large = INTIMIDATE_ACTIONS[1][0][Die.SMALL], INTIMIDATE_ACTIONS[3][1][Die.LARGE]
    assert move_label(GAME, state, next_seat_small, 1) == "Intimidate: player_0's small die in ground 2"
    assert move_label(GAME, state, next_but_one_large, None) == "Intimidate: player_1's large die in ground 4"
    assert move_label(GAME, state, ROLL, 0) == "roll"


def test_other_seats_shells_are_face_down_until_the_final_count() -> None:
    state = GAME.initial_state(np.random.default_rng(0))
    state.players[1].shells = [40]
    state.shell_pile[SHELL_VALUES.index(40)] -= 1
    assert seen_scores(GAME, state, 1)[1] == 40.0
    assert seen_scores(GAME, state, None)[1] == 40.0
    assert seen_scores(GAME, state, 0) == [0.0, "0 + shells", 0.0]
    state.decision = Decision.GAME_OVER  # the rulebook: every player's points are counted at the end
    assert seen_scores(GAME, state, 0) == [float(score) for score in GAME.scores(state)]


def test_the_picture_turns_every_shell_face_up_at_game_over() -> None:
    state = GAME.initial_state(np.random.default_rng(0))
    state.players[1].shells = [40]
    state.shell_pile[SHELL_VALUES.index(40)] -= 1
    playing = [shape.text for shape in draw(GAME, state, 0).shapes if isinstance(shape, Text)]
    assert "score 0 + shells" in playing and "40" not in playing
    state.decision, state.winners = Decision.GAME_OVER, [1]
    over = [shape.text for shape in draw(GAME, state, 0).shapes if isinstance(shape, Text)]
    assert "score 40" in over and "40" in over and not any("?" in text or "+ shells" in text for text in over)
