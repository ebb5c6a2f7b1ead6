"""Age of Craft's picture (``dice_envs/age_of_craft/picture.py``): what is on the table is drawn
(every Supply pile, each player's dice and cards, the tray), exactly the legal moves are
clickable, and every view shows the same table.  Random-state coverage, golden SVGs and the
no-leak property are tested for every game elsewhere."""

from __future__ import annotations

import pytest

import dice_envs
from dice_envs.age_of_craft.data import BASIC_KINDS, CARDS, Kind
from dice_envs.age_of_craft.picture import CARD_H, CARD_W, DIE_IVORY, HEIGHT, RIGHT_X, TABLEAU_GAP, TABLEAU_H, TOP, TRAY_H, TRAY_Y, WIDTH, draw, name_lines
from dice_envs.age_of_craft.rules import AgeOfCraft, AgeOfCraftState
from dice_envs.core.picture import MUTED, Rect, Scene, Text
from tests.conformance.playouts import game_for, random_playout

PLAYER_DIE = 24
"""Side of a die in a dice area or the tray."""


def texts(scene: Scene) -> list[str]:
    return [shape.text for shape in scene.shapes if isinstance(shape, Text)]


def dice_between(scene: Scene, left: float, right: float, top: float, bottom: float) -> int:
    """Dice of the dice-area size drawn in a box of the picture."""
    return sum(
        1
        for shape in scene.shapes
        if isinstance(shape, Rect) and shape.w == PLAYER_DIE and shape.fill == DIE_IVORY
        and left <= shape.x < right and top <= shape.y < bottom
    )  # fmt: skip


def start(num_players: int, supply: str = "random", seed: int = 3) -> tuple[AgeOfCraft, AgeOfCraftState]:
    game = game_for(("age_of_craft_v1", {"num_players": num_players, "supply": supply}))
    assert isinstance(game, AgeOfCraft)
    return game, next(random_playout(game, seed))


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_clickable_shapes_are_exactly_the_legal_actions(num_players: int) -> None:
    """Every legal move has a piece to click (a die, a pile, a card, a button) and nothing else is clickable."""
    game = game_for(("age_of_craft_v1", {"num_players": num_players, "supply": "random"}))
    for state in random_playout(game, seed=num_players):
        clickable = {shape.action for shape in draw(game, state, 0).shapes if getattr(shape, "action", None) is not None}
        assert clickable == set(game.legal_actions(state)), state.decision


def test_every_supply_pile_is_drawn_with_its_copies_left() -> None:
    game, state = start(4)
    words = texts(draw(game, state, None))
    for kind in (*BASIC_KINDS, *state.supply_kinds):
        assert all(line in words for line in name_lines(kind)), CARDS[kind].name
        assert f"x{state.supply[kind]}" in words


def test_dice_areas_and_tray_show_every_die() -> None:
    game = game_for(("age_of_craft_v1", {"num_players": 4, "supply": "first_game"}))
    for step, state in enumerate(random_playout(game, seed=11)):
        if step % 7:
            continue
        scene = draw(game, state, 1)
        for seat, player in enumerate(state.players):
            top = TOP + seat * (TABLEAU_H + TABLEAU_GAP)
            assert dice_between(scene, RIGHT_X, WIDTH, top, top + TABLEAU_H) == sum(player.dice)
        assert dice_between(scene, 0, RIGHT_X, TRAY_Y, TRAY_Y + TRAY_H) == sum(state.tray)


def test_turned_cards_lie_sideways() -> None:
    game, state = start(2)
    player = state.players[1]
    player.cards[Kind.CASTLE_GATE] = 2
    player.turned_before[Kind.CASTLE_GATE] = 1
    scene = draw(game, state, 0)
    assert "raised" in texts(scene)
    sideways = [shape for shape in scene.shapes if isinstance(shape, Rect) and (shape.w, shape.h) == (CARD_H, CARD_W)]
    standing = [
        shape for shape in scene.shapes
        if isinstance(shape, Rect) and (shape.w, shape.h) == (CARD_W, CARD_H) and shape.stroke != MUTED  # not a stack's edges
    ]  # fmt: skip
    assert len(sideways) == 1
    assert len(standing) == 3  # both Deserted Villages and the ready Castle Gate


def test_every_view_shows_the_same_table() -> None:
    """Nothing is hidden: the views differ only in whose tableau says "you" and in the label."""
    game, state = start(3)
    spectator = draw(game, state, None)
    assert spectator.view_label.startswith("spectator")
    assert not any("(you)" in text for text in texts(spectator))
    for observer in range(3):
        scene = draw(game, state, observer)
        assert f"player_{observer} (you)" in texts(scene)
        assert [s for s in scene.shapes if not isinstance(s, Text)] == [s for s in spectator.shapes if not isinstance(s, Text)]


def test_rgb_array_render_mode_gives_the_frame() -> None:
    env = dice_envs.make("age_of_craft_v1", num_players=4, render_mode="rgb_array", render_view="spectator")
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (HEIGHT, WIDTH, 3)
