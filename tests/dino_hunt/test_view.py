"""Dino Hunt Dice's move labels (``dice_envs/dino_hunt/view.py``), shared with the picture's buttons."""

from __future__ import annotations

import numpy as np

from dice_envs.core.picture import Text
from dice_envs.dino_hunt.actions import ROLL, STOP
from dice_envs.dino_hunt.picture import draw
from dice_envs.dino_hunt.rules import DinoHunt
from dice_envs.dino_hunt.view import move_label


def test_the_moves_in_words_are_the_buttons() -> None:
    game = DinoHunt.from_kwargs(num_players=3)
    state = game.initial_state(np.random.default_rng(0))
    assert [move_label(game, state, action, viewer) for action, viewer in ((ROLL, 0), (STOP, None))] == ["roll", "stop and score"]
    texts = {shape.text for shape in draw(game, state, 1).shapes if isinstance(shape, Text)}
    assert {"Roll", "Stop and score"} <= texts
