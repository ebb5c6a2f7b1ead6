"""What a seat is shown of a Mammoth Hunters position beyond its picture (``dice_envs.core.view``):
the words for every move, shared by the picture's buttons and every move list.

Seats are named by who they are ("player_0's hunter", "player_1 carries it out"), not by their
offset from the seat deciding, as the action table counts them.  A card discarded under its draw
pile goes face down: only its owner (and the spectator) is told which card it was; everyone else
sees only its back, light or dark.
"""

from __future__ import annotations

from dice_envs.core.drawing import seat_name
from dice_envs.core.view import Viewer, seat_after, sees
from dice_envs.mammoth_hunters.actions import (
    DISCARD,
    DRAW_DARK,
    DRAW_LIGHT,
    HUNTER,
    NO_DISCARD,
    OPTION,
    OWN_CLUBBED,
    PLAY,
    PLAYER,
    REGION,
    region_of,
)
from dice_envs.mammoth_hunters.data import IS_LIGHT, Card
from dice_envs.mammoth_hunters.rules import Decision, MammothHunters, MammothHuntersState, Step

LANDSCAPE_CARDS = (Card.STEPPE, Card.TUNDRA, Card.FOREST, Card.HILLS, Card.RIVER, Card.MOOR)
CARD_TITLES = {
    **{card: card.name.title() for card in LANDSCAPE_CARDS},
    Card.SWAP: "Swap",
    Card.SHIFT: "Shift",
    Card.MAMMOTH_AND_HUNTERS: "Mammoth+Hunters",
    Card.MAMMOTH_MOVE: "Mammoth move",
    Card.MAMMOTH: "Mammoth",
    Card.FIRE: "Fire",
    Card.CLUB: "Club",
    Card.CULT: "Cult",
    Card.PLACE_2: "Place 2",
    Card.PLACE_1: "Place 1",
    Card.DARK_FIRE: "Fire",
    Card.REMOVE_2: "Remove 2",
    Card.REMOVE_1: "Remove 1",
    Card.MAMMOTH_REMOVAL: "Mammoth removal",
    Card.CLUB_OR_MOVE: "Club or move",
    Card.DARK_CULT: "Cult",
}

OPTION_LABELS = {
    **{card: (f"3 into {card.name.lower()}", "2 anywhere") for card in LANDSCAPE_CARDS},
    Card.MAMMOTH_MOVE: ("a mammoth and own hunters", "own hunters only"),
    Card.MAMMOTH: ("new mammoth (2 stones)", "to a neighbour (3 stones)", "anywhere (5 stones)"),
    Card.CLUB: ("take a club", "a mammoth instead"),
    Card.CLUB_OR_MOVE: ("take a club", "move up to 2 own hunters"),
}
"""The options of a card (a Cult's are the two top cards, see ``option_label``)."""


def decider(game: MammothHunters, state: MammothHuntersState) -> int | None:
    """The seat that owns the pending decision (``None`` once the game is over)."""
    if state.decision == Decision.GAME_OVER:
        return None
    return state.effect.decider if state.decision == Decision.EFFECT else state.current


def option_label(state: MammothHuntersState, card: int, option: int) -> str:
    if card in (Card.CULT, Card.DARK_CULT):
        light = option == 0
        top = (state.light_discard if light else state.dark_discard)[-1]
        return f"copy {'light' if light else 'dark'} top: {CARD_TITLES[Card(top)]}"
    return OPTION_LABELS[Card(card)][option]


def done_label(state: MammothHuntersState) -> str:
    if state.decision == Decision.GLACIER:
        return "lay no glacier"
    if state.effect.step == Step.ATTACH:
        return "keep the club"
    return "done (stop here)"


REGION_WORDS = {
    Step.PLACE: "place a hunter in region {region}",
    Step.PLACE_FROM: "move an own hunter from region {region}",
    Step.FROM: "a hunter from region {region}",
    Step.TO: "to region {region}",
    Step.SWAP_FROM: "swap with a hunter in region {region}",
    Step.REMOVE_FROM: "remove a hunter from region {region}",
    Step.MAMMOTH_FROM: "a mammoth from region {region}",
    Step.MAMMOTH_TO: "the mammoth to region {region}",
    Step.FIRE_FROM: "a fire tile from region {region}",
    Step.FIRE_TO: "the fire tile to region {region}",
    Step.ATTACH: "the club under an own hunter in region {region}",
    Step.TARGET: "the mammoth and hunters to region {region}",
}
"""A region chosen at each step of a card's action, in words (``picture.STEP_TEXT`` asks the question)."""


def region_words(state: MammothHuntersState, action: int) -> str:
    region, club = region_of(action)
    if state.decision == Decision.PREPARATION:
        words = "place a hunter in region {region}"
    elif state.decision == Decision.GLACIER:
        words = "lay a glacier on region {region}"
    else:
        words = REGION_WORDS.get(state.effect.step, "region {region}")
    return words.format(region=region + 1) + (" with a club" if club else "")


def card_colour(card: int) -> str:
    return "light" if IS_LIGHT[card] else "dark"


def move_label(game: MammothHunters, state: MammothHuntersState, action: int, viewer: Viewer) -> str:
    """``action`` in words, made in ``state``, as ``viewer`` may know it."""
    n, effect = game.num_players, state.effect
    if action < DISCARD:
        return f"play {CARD_TITLES[Card(action - PLAY)]}"
    if action < NO_DISCARD:
        card = action - DISCARD
        if sees(viewer, state.current):
            return f"discard {CARD_TITLES[Card(card)]} (under its draw pile)"
        return f"discard a {card_colour(card)} card face down"
    if action == NO_DISCARD:
        return "keep all cards (no discard)"
    if action in (DRAW_LIGHT, DRAW_DARK):
        return f"draw a {'light' if action == DRAW_LIGHT else 'dark'} card"
    if action < REGION:
        return option_label(state, effect.card, action - OPTION)
    if action < PLAYER:
        return region_words(state, action)
    if action < HUNTER:
        return f"{seat_after(effect.player, action - PLAYER + 1, n)} carries it out"
    if action < OWN_CLUBBED:
        owner = (effect.decider + action - HUNTER) % n
        return "own hunter" if owner == effect.decider else f"{seat_name(owner)}'s hunter"
    if action == OWN_CLUBBED:
        return "own hunter with club"
    return done_label(state)
