"""Mammoth Hunters invariants over thousands of random games at 3, 4 and 5 players."""

from __future__ import annotations

import pytest

from dice_envs.mammoth_hunters.data import (
    CLUBS,
    DARK_CARDS,
    DARK_SUPPLY,
    DECK_COUNTS,
    FIRE_TILES,
    HAND_SIZE,
    PLAYING_HUNTERS,
    LIGHT_CARDS,
    MAMMOTHS_AT_START,
    MAMMOTHS_BESIDE_BOARD,
    START_STONES,
)
from dice_envs.mammoth_hunters.rules import DRAW_DARK, DRAW_LIGHT, Decision, MammothHuntersState
from tests.conformance.playouts import game_for, random_playout

GAMES_PER_COUNT = 150


def check(state: MammothHuntersState, action: int) -> None:
    n = len(state.players)
    for seat, player in enumerate(state.players):
        assert player.supply + sum(region.hunters[seat] for region in state.regions) == PLAYING_HUNTERS
        assert player.supply >= 0 and player.stones >= 0 and player.clubs >= 0
        assert sum(player.hand) <= HAND_SIZE
    assert sum(p.stones for p in state.players) + state.light_supply + state.dark_supply == START_STONES * n + DARK_SUPPLY[n]
    mammoths = len(MAMMOTHS_AT_START[n]) + MAMMOTHS_BESIDE_BOARD[n]
    assert state.mammoth_supply + sum(region.mammoths for region in state.regions) == mammoths
    clubs_on_board = sum(sum(region.clubbed) for region in state.regions)
    assert state.club_supply + sum(p.clubs for p in state.players) + clubs_on_board == CLUBS
    for region in state.regions:
        assert all(0 <= clubbed <= hunters for clubbed, hunters in zip(region.clubbed, region.hunters))
        if region.glacier:
            assert not sum(region.hunters) and not region.mammoths and not region.fire
    assert sorted(state.fire_aside + [t for region in state.regions for t in region.fire]) == sorted(FIRE_TILES)
    for kinds, piles in ((LIGHT_CARDS, (state.light_deck, state.light_discard)), (DARK_CARDS, (state.dark_deck, state.dark_discard))):
        for card in kinds:
            held = sum(p.hand[card] for p in state.players) + sum(pile.count(card) for pile in piles)
            assert held == DECK_COUNTS[card], f"{card.name} not conserved"
    if state.decision == Decision.PLAY_CARD:  # hands are refilled to both colours
        hand = state.players[state.current].hand
        assert sum(hand) in (HAND_SIZE - 1, HAND_SIZE)


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_pieces_cards_and_stones_conserved(num_players: int) -> None:
    game = game_for(("mammoth_hunters_v1", {"num_players": num_players}))
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
