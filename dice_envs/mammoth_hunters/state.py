"""Mammoth Hunters: the state of a game, its parameters, and the board queries every layer asks.

The state is plain data (``dice_envs.core.state``): regions, players, piles and supplies, and the
pending decision.  A card's action in progress is an ``Effect``: the card, the step reached and
what has been chosen so far; ``Effect.decider`` owns the pending decision.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import ClassVar

from dice_envs.core.engine import GameParams, require_choice
from dice_envs.core.state import GameState
from dice_envs.mammoth_hunters.data import BASE_LIMIT, NEIGHBOURS

MAX_PLAYERS = 5


class Decision(IntEnum):
    PREPARATION = 0  # place one hunter anywhere (six rounds of placements before play)
    PLAY_CARD = 1
    EFFECT = 2  # a step of a card's action (see Step)
    DISCARD = 3
    DRAW = 4
    GLACIER = 5
    GAME_OVER = 6


class Step(IntEnum):
    """The small choice a card's action is waiting for."""

    NONE = 0
    OPTION = 1  # which alternative of the card (or which discard pile a Cult copies)
    PLAYER = 2  # which opponent carries out a dark card
    PLACE = 3  # where a hunter goes (done to stop)
    PLACE_FROM = 4  # supply empty: which region an own hunter is moved from instead
    PLACE_WHO = 5
    FROM = 6  # a region to move a hunter from
    WHO = 7  # whose hunter
    TO = 8  # where it goes
    SWAP_FROM = 9  # the second hunter of a swap
    SWAP_WHO = 10
    REMOVE_FROM = 11
    REMOVE_WHO = 12
    MAMMOTH_FROM = 13
    MAMMOTH_TO = 14
    FIRE_FROM = 15
    FIRE_TO = 16
    ATTACH = 17  # put a club just taken under an own hunter, or keep it
    TARGET = 18  # Mammoth-and-Hunters: the region the mammoth and hunters go to


@dataclass(frozen=True)
class MammothHuntersParams(GameParams):
    num_players: int = 3
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = MAX_PLAYERS
    rounds: int = 4
    """4, or 3 for the shorter game."""

    def validate(self) -> None:
        super().validate()
        require_choice("rounds", self.rounds, (3, 4))


@dataclass
class Region(GameState):
    hunters: list[int]
    """Hunters of each player here, clubbed ones included."""
    clubbed: list[int]
    """Of those, hunters carrying a club."""
    mammoths: int
    fire: list[int]
    """Values of the face-down fire tiles here: hidden from every player until the conflicts."""
    glacier: bool


@dataclass
class PlayerState(GameState):
    supply: int
    """Hunters in front of the player."""
    stones: int
    clubs: int
    """Clubs held, not yet under a hunter."""
    score: int
    hand: list[int]
    """Cards in hand by kind: hidden from the other players (only the colours of the backs show)."""


@dataclass
class Effect(GameState):
    """The card action being carried out."""

    card: int = -1
    """Card whose action this is (for a Cult: the card it copies); -1: none."""
    player: int = -1
    """Seat that played the card."""
    decider: int = -1
    step: Step = Step.NONE
    option: int = -1
    count: int = 0
    """Hunters placed, moved or removed so far."""
    limit: int = 0
    allowed: list[int] = field(default_factory=list)
    """Regions a placement may go to."""
    region: int = -1
    target: int = -1
    owner: int = -1
    clubbed: bool = False
    owners: list[int] = field(default_factory=list)
    """Owners of the hunters shifted or removed so far."""
    queue: list[int] = field(default_factory=list)
    """Players still to carry out a Place card after the decider."""
    arrived: list[int] = field(default_factory=list)
    """Hunters this action has moved, as ``arrival`` codes, so none is moved twice."""


@dataclass
class MammothHuntersState(GameState):
    regions: list[Region]
    players: list[PlayerState]
    round: int
    decision: Decision
    current: int
    """Seat whose turn it is (the card player during an effect)."""
    start_player: int
    preparation_left: int
    """Hunter placements left in the preparatory round."""
    stones_at_turn_start: int
    light_deck: list[int]
    """Draw piles, top card last: their order is hidden."""
    dark_deck: list[int]
    light_discard: list[int]
    """Discard piles, top card last (Cult cards go to the bottom)."""
    dark_discard: list[int]
    light_supply: int
    dark_supply: int
    mammoth_supply: int
    club_supply: int
    fire_aside: list[int]
    """Fire tiles beside the board, face down."""
    settling_ends: bool
    """The dark supply ran out: the settling phase ends when this turn ends (after discard and refill)."""
    ended_settling: int
    """Seat that ended the last settling phase (-1 before)."""
    draws_left: int
    effect: Effect
    last_conflicts: list[int]
    """Hunters removed in each region at the last conflicts (for display)."""
    winners: list[int]



# ================================================================ board queries
def unclubbed(region: Region, owner: int) -> int:
    """The owner's hunters here that carry no club."""
    return region.hunters[owner] - region.clubbed[owner]


def open_regions(state: MammothHuntersState) -> list[int]:
    """Regions not covered by a glacier: the only ones hunters and mammoths may enter."""
    return [r for r, region in enumerate(state.regions) if not region.glacier]


def neighbours(state: MammothHuntersState, region: int) -> list[int]:
    """Neighbours on the board, cut where a glacier lies between."""
    regions = state.regions
    if regions[region].glacier:
        return []
    return [r for r in NEIGHBOURS[region] if not regions[r].glacier]


def glaciers(state: MammothHuntersState) -> set[int]:
    """Regions covered by a glacier."""
    return {r for r, region in enumerate(state.regions) if region.glacier}


def has_open_neighbour(region: int, covered: set[int]) -> bool:
    """Whether ``neighbours`` of the region is not empty, given the regions ``covered`` by glaciers
    (``glaciers``, found once for a scan of the board)."""
    return region not in covered and not NEIGHBOURS[region] <= covered


def hunters_on_board(state: MammothHuntersState, seat: int) -> int:
    return sum(region.hunters[seat] for region in state.regions)


def region_limit(region: Region) -> int:
    return BASE_LIMIT + region.mammoths + sum(region.fire)


# ================================================================ the hunters a card's action may pick up
def arrival(region: int, owner: int, clubbed: bool) -> int:
    """The ``Effect.arrived`` code of a hunter this action moved into ``region``."""
    return (region * MAX_PLAYERS + owner) * 2 + int(clubbed)


def arrival_region(code: int) -> int:
    return code // (MAX_PLAYERS * 2)


def fresh(state: MammothHuntersState, region: int, owner: int, clubbed: bool) -> int:
    """Hunters of the owner here, with or without a club, that this action has not moved yet
    (a card that moves several hunters moves each at most once)."""
    here = state.regions[region]
    count = here.clubbed[owner] if clubbed else here.hunters[owner] - here.clubbed[owner]
    arrived = state.effect.arrived
    return count - arrived.count(arrival(region, owner, clubbed)) if arrived else count


def pickable_owners(state: MammothHuntersState, region: int, owners: Iterable[int]) -> list[int]:
    """Those of ``owners`` with a hunter here that the decider may pick up, to move or remove:
    any of its own, the others' without a club only, none this action has moved already."""
    effect = state.effect
    seat = effect.decider
    if effect.arrived and region in map(arrival_region, effect.arrived):
        return [o for o in owners if fresh(state, region, o, False) or (o == seat and fresh(state, region, o, True))]
    # Nothing here has moved yet, so the hunters here are all fresh.  A plain loop: scans ask
    # this of every region.
    here = state.regions[region]
    hunters, clubbed = here.hunters, here.clubbed
    pickable = []
    for owner in owners:
        if hunters[owner] - clubbed[owner] or (owner == seat and clubbed[owner]):
            pickable.append(owner)
    return pickable


def pickable_regions(state: MammothHuntersState, owners: list[int]) -> list[int]:
    """Regions where ``pickable_owners`` is not empty (those without hunters settled at once)."""
    return [r for r, here in enumerate(state.regions) if any(here.hunters) and pickable_owners(state, r, owners)]
