"""Dalek Dice picture (``dice_envs/dalek_dice/picture.py``): what a scripted position shows, and
that the clickable shapes are exactly the legal actions.  Random-state coverage, golden SVGs and
the no-leak property are checked for every game elsewhere."""

from __future__ import annotations

import random

import pytest

import dice_envs
from dice_envs.core.picture import INK, Polygon, Scene, Text
from dice_envs.dalek_dice.actions import KEEP_ACTIONS, ROLL, STOP
from dice_envs.dalek_dice.data import Face
from dice_envs.dalek_dice.picture import HEIGHT, WIDTH, draw
from dice_envs.dalek_dice.rules import DalekDice
from dice_envs.dalek_dice.state import DalekDiceParams, DalekDiceState
from tests.helpers import ScriptedRng, pick

H4, H2, D3, D2, DOC, EXT = Face


def texts(scene: Scene) -> list[str]:
    return [shape.text for shape in scene.shapes if isinstance(shape, Text)]


def clickable_dice(scene: Scene, action: int) -> int:
    """Dice (outlined in ink, unlike the ring round their group) that take ``action``."""
    return sum(1 for shape in scene.shapes if isinstance(shape, Polygon) and shape.action == action and shape.stroke == INK)


def actions(scene: Scene) -> set[int]:
    return {shape.action for shape in scene.shapes if getattr(shape, "action", None) is not None}


def scripted(*steps: Face | tuple[Face, ...]) -> tuple[DalekDice, DalekDiceState]:
    """A 2-player game after ``steps``: a tuple of faces is a roll showing them, a face keeps one."""
    game = DalekDice(DalekDiceParams(num_players=2))
    state = game.initial_state(ScriptedRng())  # type: ignore[arg-type]
    for step in steps:
        action, faces = (ROLL, step) if isinstance(step, tuple) else (int(step), ())
        assert action in game.legal_actions(state)
        game.apply(state, action, ScriptedRng(pick(face, len(Face)) for face in faces))  # type: ignore[arg-type]
    return game, state


def test_a_turn_shows_the_roll_the_kept_dice_and_the_totals() -> None:
    game, state = scripted((H4, H4, H2, H2, D3, D3, D2, DOC, DOC, EXT), H4, D3, D3)
    scene = draw(game, state, 0)
    # Undecided dice of the roll, each clickable to keep one of its face.
    assert [clickable_dice(scene, action) for action in KEEP_ACTIONS] == [1, 2, 0, 1]
    shown = texts(scene)
    assert "Humans 4" in shown and "Daleks 6" in shown
    assert "The Doctor 1/3" in shown and "Exterminate! 1/3" in shown
    assert "dice to roll: 1 + any of the 4 above not kept" in shown  # the second Doctor
    assert "Stop and score 4" in shown and "Roll the rest (5 dice)" in shown
    assert actions(scene) == set(game.legal_actions(state)) == {0, 1, 3, ROLL, STOP}


def test_three_exterminates_allow_keeping_and_stopping_only() -> None:
    game, state = scripted((EXT, DOC, H4, H4, H2, H2, D3, D3, D2, D2), (EXT, H4, H4, H2, H2, D3, D3, D2), (EXT, H4, H4, H2, D2, D2, D2), H4)
    scene = draw(game, state, None)
    assert actions(scene) == {0, 1, 3, STOP}
    assert "Stop and score 8" in texts(scene)  # one Human 4 kept, doubled
    assert "Exterminate! 3/3" in texts(scene)


def test_a_keep_is_needed_before_roll_or_stop() -> None:
    game, state = scripted((H4, H4, H2, H2, D3, D3, D2, D2, H4, H2))
    scene = draw(game, state, 1)
    assert actions(scene) == {0, 1, 2, 3}
    assert "keep a die first" in texts(scene)


@pytest.mark.parametrize("num_players", [2, 6])
def test_clickable_shapes_are_the_legal_actions(num_players: int) -> None:
    env = dice_envs.make("dalek_dice_v0", raw=True, num_players=num_players)
    env.reset(seed=num_players)
    choose = random.Random(num_players)
    for _ in range(150):
        game, state = env.unwrapped.game, env.unwrapped.game_state
        scene = draw(game, state, 0)
        assert (scene.width, scene.height) == (WIDTH, HEIGHT)
        assert actions(scene) == set(game.legal_actions(state))
        if not env.legal_actions():
            break
        env.step(choose.choice(env.legal_actions()))


def test_game_over_marks_the_winners_and_offers_nothing() -> None:
    env = dice_envs.make("dalek_dice_v0", raw=True, num_players=3, target_score=5)
    env.reset(seed=0)
    choose = random.Random(0)
    while env.legal_actions():
        env.step(choose.choice(env.legal_actions()))
    game, state = env.unwrapped.game, env.unwrapped.game_state
    scene = draw(game, state, None)
    assert not actions(scene)
    assert texts(scene).count("WINNER") == len(state.race.winners) >= 1
