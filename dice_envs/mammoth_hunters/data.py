"""Mammoth Hunters components and the map (rulebook "Contents", "Setup", "The Playing Cards", and
the map, landscapes, decks and stone values of rulings.md).  Correct the game's numbers here."""

from __future__ import annotations

from enum import IntEnum

REGIONS = 12
ROWS, COLUMNS = 3, 4
TOP_ROW = (0, 1, 2, 3)
"""Regions 1-4 (0-based 0-3) touch the top margin of the board."""
DIAGONAL_NEIGHBOURS = ((1, 6), (4, 7), (6, 9), (7, 12))
"""Besides the grid neighbours (1-based region numbers)."""


def _neighbours() -> tuple[frozenset[int], ...]:
    pairs = set()
    for region in range(REGIONS):
        row, column = divmod(region, COLUMNS)
        if column + 1 < COLUMNS:
            pairs.add((region, region + 1))
        if row + 1 < ROWS:
            pairs.add((region, region + COLUMNS))
    pairs |= {(a - 1, b - 1) for a, b in DIAGONAL_NEIGHBOURS}
    return tuple(frozenset({b for a, b in pairs if a == r} | {a for a, b in pairs if b == r}) for r in range(REGIONS))


NEIGHBOURS = _neighbours()
"""Neighbours of each region on the bare board (0-based)."""


class Landscape(IntEnum):
    STEPPE = 0
    TUNDRA = 1
    FOREST = 2
    HILLS = 3
    RIVER = 4
    MOOR = 5


LANDSCAPE_REGIONS = {
    Landscape.STEPPE: (4, 6),
    Landscape.TUNDRA: (0, 9),
    Landscape.FOREST: (1, 11),
    Landscape.HILLS: (2, 8),
    Landscape.RIVER: (3, 10),
    Landscape.MOOR: (5, 7),
}
"""0-based regions of each landscape (regions 5 and 7 are Steppe, ...)."""


class Card(IntEnum):
    """Card kinds; the six Landscape cards first, then the other light cards, then the dark ones."""

    STEPPE = 0
    TUNDRA = 1
    FOREST = 2
    HILLS = 3
    RIVER = 4
    MOOR = 5
    SWAP = 6
    SHIFT = 7
    MAMMOTH_AND_HUNTERS = 8
    MAMMOTH_MOVE = 9
    MAMMOTH = 10
    FIRE = 11
    CLUB = 12
    CULT = 13
    PLACE_2 = 14
    PLACE_1 = 15
    DARK_FIRE = 16
    REMOVE_2 = 17
    REMOVE_1 = 18
    MAMMOTH_REMOVAL = 19
    CLUB_OR_MOVE = 20
    DARK_CULT = 21


LIGHT_CARDS = tuple(Card)[: Card.CULT + 1]
DARK_CARDS = tuple(Card)[Card.PLACE_2 :]
NUM_LIGHT = len(LIGHT_CARDS)
"""Light kinds come first: a hand's first ``NUM_LIGHT`` counts are its light cards."""
IS_LIGHT = tuple(card in LIGHT_CARDS for card in Card)
"""By card kind: asked at every card played or put back, so looked up rather than searched."""
DECK_COUNTS: dict[int, int] = {
    **dict.fromkeys(LIGHT_CARDS[:6], 2),
    Card.SWAP: 3,
    Card.SHIFT: 3,
    Card.MAMMOTH_AND_HUNTERS: 3,
    Card.MAMMOTH_MOVE: 2,
    Card.MAMMOTH: 3,
    Card.FIRE: 3,
    Card.CLUB: 3,
    Card.CULT: 1,
    Card.PLACE_2: 2,
    Card.PLACE_1: 4,
    Card.DARK_FIRE: 2,
    Card.REMOVE_2: 3,
    Card.REMOVE_1: 3,
    Card.MAMMOTH_REMOVAL: 3,
    Card.CLUB_OR_MOVE: 3,
    Card.DARK_CULT: 2,
}
STONES: dict[int, int] = {
    **dict.fromkeys(LIGHT_CARDS[:6], 2),
    Card.SWAP: 1,
    Card.SHIFT: 2,
    Card.MAMMOTH_AND_HUNTERS: 3,
    Card.MAMMOTH_MOVE: 2,
    Card.MAMMOTH: 2,  # the cheapest option; see MAMMOTH_OPTION_COSTS
    Card.FIRE: 1,
    Card.CLUB: 2,
    Card.CULT: 0,
    Card.PLACE_2: 3,
    Card.PLACE_1: 2,
    Card.DARK_FIRE: 1,
    Card.REMOVE_2: 3,
    Card.REMOVE_1: 2,
    Card.MAMMOTH_REMOVAL: 2,
    Card.CLUB_OR_MOVE: 2,
    Card.DARK_CULT: 0,
}
"""Stones a light card costs or a dark card gains (a Cult card: those of the card it copies)."""
MAMMOTH_OPTION_COSTS = (2, 3, 5)
"""Mammoth card: place a new one / move to a neighbouring region / move anywhere."""
HAND_SIZE = 5
START_LIGHT, START_DARK = 2, 3
NO_DARK_AT_STONES = 8

HUNTERS_PER_PLAYER = 13
"""Hunters of each colour; one of them is the score marker, so 12 take part in play."""
PLAYING_HUNTERS = HUNTERS_PER_PLAYER - 1
START_STONES = 4
PREPARATORY_PLACEMENTS = 6
CLUBS = 6
FIRE_TILES = (0,) * 4 + (1,) * 5 + (2,) * 5
BASE_LIMIT = 3
POINTS_BY_MAMMOTHS = (1, 2, 3)
"""Points per hunter with 0, 1, 2 or more mammoths in the region."""
DARK_SUPPLY = {3: 20, 4: 25, 5: 30}
MIN_DARK_SUPPLY = 10
GLACIERS_AT_START = {3: (0, 1, 2, 3), 4: (0, 3), 5: ()}
MAMMOTHS_AT_START = {3: (4, 5, 6, 7), 4: (1, 2, 5, 6), 5: (0, 1, 2, 3)}
MAMMOTHS_BESIDE_BOARD = {3: 0, 4: 1, 5: 2}
