"""Age of Craft: the state of a game, its parameters, victory points and dice arithmetic.

Dice are counted by value (index ``v - 1``) in the Stock, the tray, each dice area and on each
player's Warehouses; cards are counted by kind.  A multi-step decision (an offer being composed,
a card being paid for, a card ability and its targets, a defence) is carried in the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from operator import itemgetter, mul
from typing import ClassVar

import numpy as np

from dice_envs.age_of_craft.data import CARDS, FACES, RESIDENCE_SET_VP, Kind
from dice_envs.core.chance import roll_dice
from dice_envs.core.engine import GameParams, require_choice
from dice_envs.core.state import GameState

MAX_PLAYERS = 4


class Decision(IntEnum):
    EXCHANGE = 0  # setup: swap your dice with another player's, or pass
    OPENING = 1  # before the Income roll: use an ability, store or retrieve, or roll
    TAKE = 2  # acquisition: take a die from the tray
    NEGOTIATE = 3  # make an offer, use an ability, store or retrieve, or end the phase
    OFFER = 4  # compose the offer: give, ask, send or cancel
    RESPOND = 5  # the player offered to: accept or reject
    BUILD = 6  # build, use an ability, store or retrieve, or end the turn
    PAY = 7  # pay the card being built, one die at a time
    EFFECT = 8  # a step of a card ability (see Step)
    GAME_OVER = 9


class Step(IntEnum):
    """The small choice a card ability is waiting for."""

    NONE = 0
    VICTIM = 1  # the player to attack
    OWN_DIE = 2  # one of your dice: to swap, return, trade or pay with
    OTHER_DIE = 3  # Marketplace: the die to set
    THEIR_DIE = 4  # the victim's die
    NEW_VALUE = 5  # the value the die is set to
    KEEP = 6  # Deserted Village: which rolled die to keep
    DEFEND = 7  # the victim: ignore or suffer the attack


FIRST_GAME = "first_game"
RANDOM = "random"
SUPPLY_OPTIONS = (FIRST_GAME, RANDOM)
"""Values of the ``supply`` parameter: the rulebook's first-game Random Supply, or a random one."""


@dataclass(frozen=True)
class AgeOfCraftParams(GameParams):
    num_players: int = 2
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = MAX_PLAYERS
    supply: str = FIRST_GAME
    """``"first_game"``: the rulebook's recommended seven kinds; ``"random"``: one kind each of
    A, N, C, D, L and two of O, drawn from the implemented kinds with the game's seed."""

    def validate(self) -> None:
        super().validate()
        require_choice("supply", self.supply, SUPPLY_OPTIONS)


@dataclass
class PlayerState(GameState):
    dice: list[int]
    """Dice in the dice area, by value."""
    stored: list[int]
    """Dice kept on the player's Warehouses, by value."""
    cards: list[int]
    """Cards in the play area, by kind."""
    turned_now: list[int]
    """By kind: cards exhausted or turned sideways during the owner's current (or latest) turn."""
    turned_before: list[int]
    """By kind: cards exhausted or turned sideways during the owner's turn before that; both
    kinds of turned card come back when the owner's next turn ends."""
    works_points: int
    """Points bought with Public Works."""
    ramparts_used: int
    """Great Ramparts used to ignore an attack this turn."""


@dataclass
class Offer(GameState):
    target: int = -1
    give: list[int] = field(default_factory=lambda: [0] * FACES)
    ask: list[int] = field(default_factory=lambda: [0] * FACES)


@dataclass
class Effect(GameState):
    """The card ability being carried out."""

    card: int = -1
    """Kind whose ability this is; -1: none."""
    step: Step = Step.NONE
    decider: int = -1
    victim: int = -1
    own_value: int = 0
    """Value of the active player's die being acted on (0: none)."""
    their_value: int = 0
    """The victim's die chosen (0: none)."""
    queue: list[int] = field(default_factory=list)
    """Mounted Bandit: players still to be robbed after the victim, in turn order."""


@dataclass
class AgeOfCraftState(GameState):
    players: list[PlayerState]
    supply: list[int]
    """Cards left in each Supply pile, by kind (0 for kinds not in this game)."""
    supply_kinds: list[int]
    """The seven Random Supply kinds of this game."""
    stock: int
    tray: list[int]
    """Dice in the Dice Tray, by value."""
    decision: Decision
    phase: Decision
    """The window an ability returns to: OPENING (before the Income roll), NEGOTIATE or BUILD."""
    active: int
    start_player: int
    turn: int
    """Turns begun so far (0 during setup)."""
    picker: int
    """Seat choosing in the setup exchange or the acquisition."""
    exchanges_left: int
    offers_made: int
    offer: Offer
    paying: int
    """Kind being built (-1: none)."""
    cost_left: list[int]
    """Die values still to pay for it, by value."""
    built: list[int]
    """Cards the active player built this turn, by kind (their abilities wait for the next turn)."""
    used: list[int]
    """The active player's cards whose once-per-turn ability was used this turn, by kind (a card
    exhausted or turned sideways counts in the player's ``turned_now`` instead)."""
    stored_now: list[int]
    """Dice the active player put on a Warehouse this turn, by value: they stay until the turn ends."""
    effect: Effect
    last_roll: list[int]
    """The last Income Phase roll, by value (for display and the observation)."""
    busted: list[int]
    """Dice each player lost to the last Bust check."""
    winners: list[int]



CARD_VP = tuple(spec.vp for spec in CARDS)
"""Victory points per card, by kind."""
RESIDENCE_POINTS = tuple(
    RESIDENCE_SET_VP[min(count, len(RESIDENCE_SET_VP) - 1)] for count in range(CARDS[Kind.RESIDENCE].copies + 1)
)
"""Points for the set of Residences, by how many a player has (at most every copy)."""
residences_and_treasuries = itemgetter(Kind.RESIDENCE, Kind.TREASURY)


def victory_points(player: PlayerState) -> int:
    cards = player.cards
    residences, treasuries = residences_and_treasuries(cards)
    points = sum(map(mul, CARD_VP, cards)) + RESIDENCE_POINTS[residences] + treasuries * player.dice[FACES - 1]
    return points + player.works_points


# ================================================================ dice, counted by value
def counts(values: list[int]) -> list[int]:
    """Dice by value (index ``v - 1``) from a list of die values."""
    result = [0] * FACES
    for value in values:
        result[value - 1] += 1
    return result


def can_trade(own: list[int], theirs: list[int]) -> bool:
    """Whether one of ``own`` dice and one of ``theirs`` show different values."""
    own_total, their_total = sum(own), sum(theirs)
    if not (own_total and their_total):
        return False
    # Otherwise only one case fails: every die on both sides shows one and the same value.
    return not (max(own) == own_total and theirs[own.index(own_total)] == their_total)


def roll_dice_values(rng: np.random.Generator, count: int) -> list[int]:
    """``count`` die values 1-6."""
    return [face + 1 for face in roll_dice(rng, count)]
