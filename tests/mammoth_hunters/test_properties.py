"""Mammoth Hunters invariants over thousands of random games at 3, 4 and 5 players."""

from __future__ import annotations

import pytest

from dice_envs.mammoth_hunters.data import HAND_SIZE, LIGHT_CARDS
from dice_envs.mammoth_hunters.rules import DRAW_DARK, DRAW_LIGHT, Decision, MammothHuntersState
from tests.conformance.playouts import game_for, random_playout

GAMES_PER_COUNT = 150


def check_hand(state: MammothHuntersState, action: int) -> None:
    """What ``check_state`` leaves to play: hands are refilled to both colours."""
    if state.decision == Decision.PLAY_CARD:
        hand = state.players[state.current].hand
        assert sum(hand) in (HAND_SIZE - 1, HAND_SIZE)


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_pieces_cards_and_stones_conserved(num_players: int) -> None:
    """Every position passes ``MammothHunters.check_state``: hunters, stones, mammoths, clubs, fire
    tiles and every card kind conserved, clubs only under own hunters, glaciers empty, the pending
    decision consistent."""
    game = game_for(("mammoth_hunters_v1", {"num_players": num_players}))

    def check(state: MammothHuntersState, action: int) -> None:
        game.check_state(state)
        check_hand(state, action)

    for seed in range(GAMES_PER_COUNT):
        for _ in random_playout(game, seed, on_step=check):
            pass


def test_single_colour_never_held_after_refilling() -> None:
    """Rulebook: "When drawing, the only restriction is that the player may not hold a single colour
    in his hand" (unless the other colour cannot be drawn at all)."""
    game = game_for(("mammoth_hunters_v1", {"num_players": 4}))

    def refilled(state: MammothHuntersState, action: int) -> None:
        if action not in (DRAW_LIGHT, DRAW_DARK) or state.decision == Decision.DRAW:
            return  # only look at hands just filled to five
        drawer = state.players[(state.current - 1) % len(state.players)]
        light = sum(drawer.hand[c] for c in LIGHT_CARDS)
        drawable_light = len(state.light_deck) + len(state.light_discard) > 1
        drawable_dark = len(state.dark_deck) + len(state.dark_discard) > 1
        if sum(drawer.hand) == HAND_SIZE and drawable_light and drawable_dark:
            assert 0 < light < HAND_SIZE

    for seed in range(100):
        for _ in random_playout(game, seed, on_step=refilled):
            pass
