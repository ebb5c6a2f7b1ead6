"""Age of Craft components and the card table (rulebook "Contents" and "Card Details", and the
card table of rulings.md, which the rulebook does not print).

This is the one place to correct the game's numbers.  A player who owns the box can fix a cost
or a VP value in ``CARDS``; adding one of the remaining kinds takes an entry here and, for an
ability its owner uses, an entry in ``abilities.ABILITIES``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

STOCK_DICE = 50
START_DICE = 3
"""Dice each player rolls at setup (the highest total starts)."""
INCOME_DICE = 3
"""Stock dice the active player rolls into the Dice Tray each turn."""
END_POINTS = 20
"""The game ends after a turn in which someone has this many points (or the Mercantile Houses run out)."""
MAX_OFFERS = 3
"""Offers the active player may make in one Negotiation Phase."""
MAX_OFFER_DICE = 3
"""Dice on each side of an offer."""
FACES = 6


class Kind(IntEnum):
    """Card kinds in table order: the start card, the Basic Supply, then the Random Cards."""

    DESERTED_VILLAGE = 0
    WHEAT_FIELD = 1
    STOCK_FARM = 2
    LUMBER_MILL = 3
    MINE = 4
    MERCANTILE_HOUSE = 5
    RESIDENCE = 6
    LAND_OF_THIEVES = 7
    GUEST_HOUSE = 8
    MARKETPLACE = 9
    WAREHOUSE = 10
    GREAT_RAMPART = 11
    TRADING_POST = 12
    LIBRARY = 13
    PUBLIC_WORKS = 14
    TREASURY = 15
    MOUNTED_BANDIT = 16
    NINJA_VILLAGE = 17
    CASTLE_GATE = 18
    LAND_SHARK = 19


@dataclass(frozen=True)
class CardSpec:
    name: str
    letter: str
    """S start, B basic, A attack, N negotiation, C conversion, D defence, L large points, O other."""
    copies: int
    """Cards in its Supply pile (the start card: one per player)."""
    cost: tuple[int, ...]
    """Die values paid back to the Stock to build it."""
    vp: int
    """Victory points per card (Residence, Treasury and Public Works add more in ``rules.py``)."""
    produces: int
    """Production cards: the value of the die gained each Income Phase (0: not a production card)."""
    effect: str


CARDS: tuple[CardSpec, ...] = (
    CardSpec("Deserted Village", "S", 1, (), 0, 0, "T, Building Phase: roll min(6, leader's VP - your VP) Stock dice, keep one, return the rest"),
    CardSpec("Wheat Field", "B", 8, (1, 1), 1, 2, "Production: gain a die set to 2"),
    CardSpec("Stock Farm", "B", 8, (2, 2), 1, 3, "Production: gain a die set to 3"),
    CardSpec("Lumber Mill", "B", 8, (2, 3), 1, 4, "Production: gain a die set to 4"),
    CardSpec("Mine", "B", 8, (3, 4), 1, 5, "Production: gain a die set to 5"),
    CardSpec("Mercantile House", "B", 8, (5, 5), 2, 0, "T, Building Phase: one die you pay counts as 1 higher or lower"),
    CardSpec("Residence", "B", 12, (5, 6), 0, 0, "1..7+ Residences are worth 1, 3, 6, 10, 13, 16, 18 in all"),
    CardSpec("Land of Thieves", "A", 4, (3, 4), 1, 0, "T: take one die of value 1 or 2 from another player's dice area"),
    CardSpec("Guest House", "N", 4, (1, 2, 3), 3, 0, "When a negotiation of yours succeeds: gain a die set to 1"),
    CardSpec("Marketplace", "C", 4, (4, 4), 1, 0, "T: return 1 die to the Stock, then set another of your dice to any value"),
    CardSpec("Warehouse", "D", 4, (4, 5), 1, 0, "Keep up to 3 dice on the card: safe from attacks and not counted for Bust"),
    CardSpec("Great Rampart", "L", 4, (5, 6, 6), 5, 0, "Once per turn, when attacked: ignore the attack"),
    CardSpec("Trading Post", "O", 4, (3, 3), 1, 0, "T: swap one of your dice for a Stock die of value one higher or lower"),
    CardSpec("Library", "O", 4, (2, 4), 2, 0, "T, Building Phase: one die you pay counts as any lower value"),
    CardSpec("Public Works", "L", 4, (6, 6), 2, 0, "On your turn, any number of times: pay two 1s for +1 VP on this card"),
    CardSpec("Treasury", "L", 4, (4, 6), 0, 0, "VP = the number of 6s in your dice area"),
    CardSpec("Mounted Bandit", "A", 4, (3, 5), 1, 0, "T: take one die of value 3 or less from each other player; then roll 2 Stock dice: if any shows 6, exhaust"),
    CardSpec("Ninja Village", "A", 4, (3, 6), 1, 0, "T: swap one of your dice with one die of another player"),
    CardSpec("Castle Gate", "D", 4, (4, 5), 2, 0, "T: turn it sideways; until your next turn ends you may ignore attacks"),
    CardSpec("Land Shark", "O", 4, (4, 6), 2, 0, "T: build one Residence paying any one die, then exhaust"),
)
assert [spec.name.upper().replace(" ", "_") for spec in CARDS] == [kind.name for kind in Kind]

BASIC_KINDS = tuple(kind for kind in Kind if CARDS[kind].letter == "B")
RANDOM_KINDS = tuple(kind for kind in Kind if CARDS[kind].letter not in ("S", "B"))
BUILDABLE_KINDS = BASIC_KINDS + RANDOM_KINDS
PRODUCTION_KINDS = tuple(kind for kind in Kind if CARDS[kind].produces)

FIRST_GAME_SUPPLY = (
    Kind.LAND_OF_THIEVES,
    Kind.GUEST_HOUSE,
    Kind.MARKETPLACE,
    Kind.WAREHOUSE,
    Kind.GREAT_RAMPART,
    Kind.TRADING_POST,
    Kind.LIBRARY,
)
RANDOM_SUPPLY_PICKS = {"A": 1, "N": 1, "C": 1, "D": 1, "L": 1, "O": 2}
"""Kinds drawn from each letter group for a random Random Supply."""

RESIDENCE_SET_VP = (0, 1, 3, 6, 10, 13, 16, 18)
"""Points for 0, 1, ... 7 Residences in all; more than 7 stay at 18."""
VILLAGE_MAX_DICE = 6
THIEVES_VALUES = (1, 2)
BANDIT_MAX_VALUE = 3
BANDIT_ROLL = 2
"""Stock dice the Mounted Bandit rolls afterwards: any 6 exhausts it."""
EXHAUSTING_FACE = 6
WAREHOUSE_CAPACITY = 3
WORKS_PAYMENT = 2
"""Dice of value 1 paid for one Public Works point."""

ACTIVATED_KINDS = (
    Kind.DESERTED_VILLAGE,
    Kind.LAND_OF_THIEVES,
    Kind.MARKETPLACE,
    Kind.TRADING_POST,
    Kind.PUBLIC_WORKS,
    Kind.MOUNTED_BANDIT,
    Kind.NINJA_VILLAGE,
    Kind.CASTLE_GATE,
    Kind.LAND_SHARK,
)
"""Kinds whose ability the owner uses by choice (``use`` actions).  Mercantile House and Library
act through the ways of paying; the rest act on their own."""
ATTACK_KINDS = (Kind.LAND_OF_THIEVES, Kind.MOUNTED_BANDIT, Kind.NINJA_VILLAGE)
TURNING_KINDS = (Kind.MOUNTED_BANDIT, Kind.CASTLE_GATE, Kind.LAND_SHARK)
"""Kinds that are exhausted or turned sideways until their owner's next turn ends."""
