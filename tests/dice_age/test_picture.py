"""Dice Age pictures: the board's lines, the clickable moves, the face-down shells.  (Random-state
coverage, golden SVGs and the no-leak property are tested for every game elsewhere.)"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import dice_envs
from dice_envs.core.drawing import seat_colour
from dice_envs.core.picture import FACE_DOWN, Rect, Scene, Text
from dice_envs.dice_age.actions import TAKE_PAIR
from dice_envs.dice_age.data import AREAS, GROUNDS, Die
from dice_envs.dice_age.picture import (
    BARBARIAN_FILL,
    BOARD_Y,
    DIE_SIZE,
    HEIGHT,
    LINE_END,
    LINE_X,
    PLAYER_H,
    ROW_H,
    ROW_Y,
    WANDERER_FILL,
    WIDTH,
    draw,
)
from dice_envs.dice_age.rules import DiceAge
from dice_envs.dice_age.state import Decision, DiceAgeState
from tests.conformance.playouts import game_for, random_playout

CASES = [{"num_players": 4}, {"num_players": 3, "barbarians": True}]


def _states(params: dict[str, Any], seed: int = 0) -> tuple[DiceAge, list[DiceAgeState]]:
    game = game_for(("dice_age_v1", params))
    return game, [state.clone() for state in random_playout(game, seed)]


def _actions(scene: Scene) -> set[int]:
    return {action for shape in scene.shapes if (action := getattr(shape, "action", None)) is not None}


def _texts_in(scene: Scene, top: float, bottom: float, left: float = 0, right: float = WIDTH) -> list[str]:
    return [shape.text for shape in scene.shapes if isinstance(shape, Text) and top <= shape.y <= bottom and left <= shape.x <= right]


@pytest.mark.parametrize("params", CASES, ids=lambda p: "-".join(f"{k}={v}" for k, v in p.items()))
def test_clickable_shapes_are_the_legal_actions(params: dict[str, Any]) -> None:
    """Every legal action has a shape to click (a camp column, a ringed die, a pair, a button),
    and no shape offers an illegal one."""
    game, states = _states(params)
    for state in states[::2]:
        assert _actions(draw(game, state, state.current)) == set(game.legal_actions(state))


def test_lines_drawn_in_order_in_owner_colours_large_dice_bigger() -> None:
    """Each ground's dice lie in its row in line order, in their owners' colours (barbarians
    black, a wanderer on its owner's mat), each kind at its own size."""
    game, states = _states({"num_players": 3, "barbarians": True}, seed=3)
    state = max(states, key=lambda s: sum(len(line) for line in s.areas))
    scene = draw(game, state, None)
    for ground in range(GROUNDS):
        top = ROW_Y + ground * ROW_H
        dice = sorted(
            (shape.x, shape.fill, shape.w)
            for shape in scene.shapes
            if isinstance(shape, Rect) and top <= shape.y and shape.y + shape.h <= top + ROW_H and LINE_X <= shape.x < LINE_END
            and shape.fill not in (None, WANDERER_FILL) and shape.w in DIE_SIZE.values()
        )  # fmt: skip
        expected = [BARBARIAN_FILL if owner == game.barbarian_owner else seat_colour(owner) for owner, _ in state.areas[ground]]
        assert [fill for _, fill, _ in dice] == expected
        assert [w for _, _, w in dice] == [DIE_SIZE[Die(kind)] for _, kind in state.areas[ground]]


def test_every_area_shows_its_prey() -> None:
    game, states = _states({"num_players": 2})
    state = states[0]
    scene = draw(game, state, 0)
    for area in range(AREAS):
        top = ROW_Y + area * ROW_H
        texts = _texts_in(scene, top, top + ROW_H, right=LINE_X)
        assert state.area_prey[area] >= 0 and any(text in texts for text in ("mammoth", "fish", "elk", "dodo", "berries"))


def test_opponents_shells_face_down_own_and_spectator_shown() -> None:
    game, states = _states({"num_players": 2})
    state = states[0].clone()
    state.players[1].shells = [40, 40, 20]
    state.shell_pile = [4, 10, 13]
    panel = (BOARD_Y + PLAYER_H + 4, BOARD_Y + 2 * PLAYER_H + 4)
    seen_by_0, seen_by_1, spectator = (draw(game, state, view) for view in (0, 1, None))
    assert "40" not in _texts_in(seen_by_0, *panel) and "x3" in _texts_in(seen_by_0, *panel)
    assert any(isinstance(s, Rect) and s.fill == FACE_DOWN and panel[0] <= s.y <= panel[1] for s in seen_by_0.shapes)
    assert "score 0 + shells" in _texts_in(seen_by_0, *panel)
    for scene in (seen_by_1, spectator):
        assert {"40", "20", "x2", "score 100"} <= set(_texts_in(scene, *panel))


def test_generation_pairs_clickable_when_out_of_dice() -> None:
    game, states = _states({"num_players": 4}, seed=1)
    state = next(s for s in states if s.decision == Decision.CHOOSE_GENERATION)
    offered = {TAKE_PAIR + pair for pair, taker in enumerate(state.pair_taken_by) if taker < 0}
    assert _actions(draw(game, state, state.current)) == offered


def test_rgb_array_render() -> None:
    env = dice_envs.make("dice_age_v1", raw=True, num_players=4, render_mode="rgb_array", render_view="spectator")
    env.reset(seed=0)
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.shape == (HEIGHT, WIDTH, 3) and frame.dtype == np.uint8
