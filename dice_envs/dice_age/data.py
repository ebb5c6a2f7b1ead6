"""Dice Age: The Hunt components (rulebook "Game Contents", "A List of Bonus and Tile Effects",
and the generation-card deck of rulings.md).  Correct the game's numbers here, nowhere else."""

from __future__ import annotations

from enum import IntEnum


class Prey(IntEnum):
    MAMMOTH = 0
    FISH = 1
    ELK = 2
    DODO = 3
    BERRIES = 4


PREY_CARDS = (4, 5, 6, 6, 7)
PREY_POINTS = (50, 40, 30, 20, 10)
HUNTING_BONUS = (0, 50, 100, 120, 200)
"""Bonus for the most cards of a kind ("there is no hunting bonus for mammoth")."""
SET_BONUS = 50
"""Per full set of the five kinds."""
BONUS_ROUNDING = 10
"""Shared hunting bonuses are rounded down to a multiple of 10 (200 / 3 = 60 each)."""


class Prosperity(IntEnum):
    CHILDBIRTH = 0  # +1 small die, unless the player has 7 dice
    GROWTH = 1  # exchange a small die for a large one, unless the player has 3 large dice
    VISIT = 2  # a wanderer die for the next round
    TRADE_1 = 3  # draw 1 shell tile
    TRADE_2 = 4  # draw 2 shell tiles
    COUNSEL = 5  # gain an action tile of that kind (while the supply lasts)
    INTIMIDATE = 6
    RETREAT = 7


PROSPERITY_PER_ROUND = (
    # Childbirth, Growth, Visit, Trade 1, Trade 2, Counsel, Intimidate, Retreat
    (2, 2, 1, 2, 0, 1, 1, 1),
    (2, 2, 1, 2, 0, 1, 1, 1),
    (1, 1, 1, 2, 2, 1, 1, 1),
    (1, 1, 0, 2, 3, 1, 1, 1),
)
SHELLS_TRADED: dict[int, int] = {Prosperity.TRADE_1: 1, Prosperity.TRADE_2: 2}


class Honor(IntEnum):
    GREAT_AND_POWERFUL = 0  # 30 per large die
    BOND_OF_THE_WEAK = 1  # 10 per small die
    PROSPEROUS_ONES = 2  # 10 per shell tile
    INNOVATION = 3  # 20 per 20-point shell tile
    WISDOM_OF_THE_ELDER = 4  # 30 per unused action tile
    HUNTERS_PRIDE = 5  # 20 / 30 / 40 (2 / 3 / 4 players) per prey bonus gained


HONOR_PER_ROUND = (2, 2, 2, 1, 1, 2)
"""Honor bonuses in each round's pile of ten cards, by ``Honor``."""
HONOR_POINTS = (30, 10, 10, 20, 30)
"""Points per counted item for the first five honor bonuses."""
HUNTERS_PRIDE_POINTS = {2: 20, 3: 30, 4: 40}


class Tile(IntEnum):
    COUNSEL = 0  # re-roll any of your dice in the Hunting Camp once
    INTIMIDATE = 1  # an opponent's die in a Hunting Ground is re-rolled and placed anew
    RETREAT = 2  # two of your dice go back from the Hunting Grounds to your hand


TILES_PER_KIND = 3
TILE_FOR_PROSPERITY: dict[int, Tile] = {Prosperity.COUNSEL: Tile.COUNSEL, Prosperity.INTIMIDATE: Tile.INTIMIDATE, Prosperity.RETREAT: Tile.RETREAT}

SHELL_VALUES = (40, 30, 20)
SHELL_TILES = (6, 10, 14)
INNOVATION_SHELL = 2
"""Index of the 20-point shell in ``SHELL_VALUES``."""


class Die(IntEnum):
    SMALL = 0
    LARGE = 1
    WANDERER = 2  # a large die lent for one round by Visit
    BARBARIAN = 3  # variant: small dice of the barbarians


DIE_HALVES = (2, 3, 3, 2)
"""Strength of each die in half dice: a small die counts 1, a large die 1.5."""
LARGE_SIZED = (Die.LARGE, Die.WANDERER)
START_SMALL, START_LARGE = 4, 1
MAX_DICE = 7  # Childbirth: "If you already have 7 dice, you cannot gain this bonus"
MAX_LARGE = 3  # Growth: "If you already have 3 large dice, you cannot gain this bonus"
BARBARIANS_PER_PLAYER = 2

ROUNDS = 4
GROUNDS = 6  # Hunting Grounds 1-6; the die's pips name the ground
EXTRA_HUNT = 6  # index of the Extra Hunt area after the six grounds
AREAS = 7
FACES = 6
