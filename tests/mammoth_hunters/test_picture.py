"""The Mammoth Hunters picture (``dice_envs/mammoth_hunters/picture.py``): the map, the pieces,
what is face down in a player's view, and which shapes are clickable.  Random-state coverage,
golden SVGs and the no-leak property are tested for every game elsewhere."""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np
import pytest

from dice_envs.core.drawing import FOOTER_HEIGHT
from dice_envs.core.picture import Circle, Polygon, Rect, Scene, Text
from dice_envs.mammoth_hunters.data import LANDSCAPE_REGIONS, REGIONS
from dice_envs.mammoth_hunters.picture import (
    BUTTON_Y,
    CELL_W,
    DARK_BACK,
    FIRE_FACE,
    FIRE_SHOWN,
    HEIGHT,
    ICE,
    LIGHT_BACK,
    MAP_X,
    PAWN_LINES,
    PAWN_ROW,
    PAWN_SHAPE,
    PAWN_WIDTH,
    WIDTH,
    decider,
    draw,
    pawn_layout,
)
from dice_envs.mammoth_hunters.rules import (
    REGION,
    Decision,
    MammothHunters,
    MammothHuntersParams,
    MammothHuntersState,
    Step,
)


def random_states(num_players: int, seed: int, every: int = 7) -> Iterator[tuple[MammothHunters, MammothHuntersState]]:
    """Every ``every``-th position of a random game, and its last."""
    game = MammothHunters(MammothHuntersParams(num_players=num_players))
    rng = np.random.default_rng(seed)
    state = game.initial_state(rng)
    step = 0
    while legal := game.legal_actions(state):
        if step % every == 0:
            yield game, state
        game.apply(state, int(rng.choice(legal)), rng)
        step += 1
    yield game, state


def marked(scene: Scene) -> set[int]:
    return {int(action) for action in re.findall(r'data-action="(\d+)"', scene.to_svg())}


def texts(scene: Scene) -> list[str]:
    return [shape.text for shape in scene.shapes if isinstance(shape, Text)]


def pawns(scene: Scene) -> int:
    return sum(isinstance(shape, Polygon) and len(shape.points) == len(PAWN_SHAPE) for shape in scene.shapes)


def fills(scene: Scene, colour: str) -> int:
    return sum(isinstance(shape, Rect | Polygon | Circle) and shape.fill == colour for shape in scene.shapes)


def test_map_shows_every_region_with_its_landscape_and_the_setup_glaciers() -> None:
    game = MammothHunters(MammothHuntersParams(num_players=3))
    state = game.initial_state(np.random.default_rng(0))
    scene = draw(game, state, 0)
    assert (scene.width, scene.height) == (WIDTH, HEIGHT)
    words = texts(scene)
    for region in range(REGIONS):
        assert str(region + 1) in words
    for landscape, regions in LANDSCAPE_REGIONS.items():
        assert words.count(landscape.name.title()) == len(regions)
    assert fills(scene, ICE) == 4 + 1  # regions 1-4 under glaciers, and the icy top margin
    assert words.count("glacier") == 4


@pytest.mark.parametrize("num_players", [3, 5])
def test_one_pawn_per_hunter_on_the_board(num_players: int) -> None:
    """One pawn per hunter in the regions, plus the supply icon of each player's row."""
    for game, state in random_states(num_players, seed=1, every=50):
        on_board = sum(sum(region.hunters) for region in state.regions)
        assert pawns(draw(game, state, None)) == on_board + num_players


def test_crowded_regions_keep_their_pawns_inside() -> None:
    for counts in ((12, 0, 0, 0, 0), (12, 12, 12, 12, 12), (1, 2, 3, 4, 5), (0, 7, 0, 7, 0)):
        spots = [spot for owner in pawn_layout(counts) for spot in owner]
        assert len(spots) == sum(counts)
        assert all(dx <= PAWN_WIDTH + 13 and dy < PAWN_LINES * PAWN_ROW for dx, dy in spots)


def test_hidden_things_are_face_down_for_a_player_and_shown_to_the_spectator() -> None:
    """Fire values are hidden from every player; other players' hands show only their backs."""
    game, state = next((g, s) for g, s in random_states(4, seed=2) if s.decision == Decision.PLAY_CARD)
    tiles = sum(min(len(region.fire), FIRE_SHOWN) for region in state.regions) + min(len(state.fire_aside), FIRE_SHOWN)
    backs = sum(sum(player.hand) for seat, player in enumerate(state.players) if seat != 1)
    seen = draw(game, state, 1)
    assert fills(seen, FIRE_FACE) == 0
    assert fills(seen, LIGHT_BACK) + fills(seen, DARK_BACK) == backs + 4  # and the two draw piles, on their shadows
    everything = draw(game, state, None)
    assert fills(everything, FIRE_FACE) == tiles
    assert fills(everything, LIGHT_BACK) + fills(everything, DARK_BACK) == 4


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_clickable_shapes_are_the_legal_actions_of_the_decider_only(num_players: int) -> None:
    for game, state in random_states(num_players, seed=num_players, every=11):
        seat = decider(game, state)
        legal = set(game.legal_actions(state))
        assert marked(draw(game, state, None)) == legal
        if seat is not None:
            scene = draw(game, state, seat)
            assert marked(scene) == legal
            for shape in scene.shapes:  # buttons under the map, clear of the side panels and the footer
                if isinstance(shape, Rect) and shape.action is not None and shape.y >= BUTTON_Y:
                    assert shape.x + shape.w <= MAP_X + 4 * CELL_W and shape.y + shape.h <= HEIGHT - FOOTER_HEIGHT
            assert not marked(draw(game, state, (seat + 1) % num_players))


def test_a_whose_hunter_choice_marks_the_pawns_in_the_chosen_region() -> None:
    states = random_states(5, seed=3, every=1)
    game, state = next((g, s) for g, s in states if s.decision == Decision.EFFECT and s.effect.step == Step.REMOVE_WHO)
    scene = draw(game, state, state.effect.decider)
    pawn_actions = {shape.action for shape in scene.shapes if isinstance(shape, Polygon) and shape.action is not None}
    assert pawn_actions and pawn_actions <= set(game.legal_actions(state))
    assert "remove" in texts(scene)
    assert not any(REGION <= action < REGION + REGIONS for action in marked(scene))


def test_game_over_names_the_winner() -> None:
    *_, (game, state) = random_states(3, seed=4, every=1000)
    assert state.decision == Decision.GAME_OVER
    scene = draw(game, state, 0)
    assert not marked(scene)
    assert texts(scene).count("WINNER") == len(state.winners)
    assert any(text.startswith("game over") for text in texts(scene))
