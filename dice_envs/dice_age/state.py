"""Dice Age: The Hunt: the state of a game, its parameters, and the board queries every layer asks.

The state is plain data (``dice_envs.core.state``): the players, the Hunting Grounds' lines of
dice, the supplies and the pending decision.  Its checks are in ``validation``; the end-of-game
scoring is here, since the rules, the checks, the observation and the pictures all ask it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from operator import mul
from typing import ClassVar

from dice_envs.core.engine import GameParams, ParameterError
from dice_envs.core.state import GameState
from dice_envs.dice_age.data import (
    BONUS_ROUNDING,
    DIE_HALVES,
    GROUNDS,
    HONOR_POINTS,
    HUNTERS_PRIDE_POINTS,
    HUNTING_BONUS,
    INNOVATION_SHELL,
    PREY_POINTS,
    SET_BONUS,
    SHELL_VALUES,
    Honor,
)

MAX_PLAYERS = 4


class Decision(IntEnum):
    PRE_ROLL = 0  # roll, or use Intimidate / Retreat first
    PLACING = 1  # place a pip value, finish, or use a tile
    COUNSEL_SELECT = 2  # choose dice to re-roll, then re-roll them
    RETREAT_FIRST = 3  # choose the first of two own dice to take back
    RETREAT_SECOND = 4
    CHOOSE_GENERATION = 5  # no dice left: take a pair of generation cards
    GAME_OVER = 6


@dataclass(frozen=True)
class DiceAgeParams(GameParams):
    num_players: int = 2
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = MAX_PLAYERS
    barbarians: bool = False
    """Variant "Attack of the Barbarians" (2 or 3 players)."""

    def validate(self) -> None:
        super().validate()
        if not isinstance(self.barbarians, bool):
            raise ParameterError(f"barbarians must be True or False, got {self.barbarians!r}")
        if self.barbarians and self.num_players > 3:
            raise ParameterError("the barbarians variant is for 2 or 3 players")


@dataclass
class PlayerState(GameState):
    small: int
    """Small dice of the player's colour owned (Childbirth and Growth change it)."""
    large: int
    wanderer: bool
    """Holds a wanderer die this round."""
    visit: bool
    """Gained a wanderer die for the next round."""
    hand: list[int]
    """Dice in hand (not rolled, not placed), by ``Die`` kind."""
    tiles: list[int]
    """Unused action tiles, by ``Tile``."""
    shells: list[int]
    """Values of the shell tiles: hidden from the other players."""
    prey: list[int]
    """Prey cards gained, by ``Prey``."""
    honors: list[int]
    """Honor bonuses of the generation cards collected, by ``Honor``."""
    prosperity: list[int]
    """Prosperity bonuses of the pair taken this round, resolved at its end."""
    done: bool
    """Took a generation pair: skipped for the rest of the round."""

    def own_dice_in_hand(self) -> int:
        small, large, wanderer, _barbarians = self.hand
        return small + large + wanderer


@dataclass
class DiceAgeState(GameState):
    players: list[PlayerState]
    round: int
    start_player: int
    current: int
    decision: Decision
    areas: list[list[tuple[int, int]]]
    """Hunting Grounds 1-6 and the Extra Hunt: lines of (owner, ``Die`` kind) in placement order;
    the owner of barbarian dice is ``num_players``."""
    area_prey: list[int]
    """Prey kind laid in each area this round, -1 once discarded."""
    camp: list[list[int]]
    """The current player's rolled dice in the Hunting Camp: counts by [kind][value - 1]."""
    rolled: bool
    placed_this_turn: bool
    counsel_selection: list[list[int]]
    pairs: list[list[int]]
    """This round's generation pairs: [prosperity 1, honor 1, prosperity 2, honor 2]."""
    pair_taken_by: list[int]
    prey_deck: list[int]
    """Prey cards not yet dealt, by kind (their order is not decided until they are drawn)."""
    shell_pile: list[int]
    """Face-down shell tiles, by ``SHELL_VALUES`` index."""
    tile_supply: list[int]
    spent_tiles: list[int]
    """Action tiles used and removed from the game, by ``Tile``."""
    discarded_prey: list[int]
    """Prey cards removed from the game (nobody hunted them, or the barbarians won them), by kind."""
    last_awards: list[int]
    """Who gained each area's prey at the end of the previous round (-1: nobody)."""
    winners: list[int]


# ================================================================ board queries
def own_dice_in_grounds(state: DiceAgeState, seat: int) -> int:
    return sum(owner == seat for line in state.areas[:GROUNDS] for owner, _ in line)


def strength_by_owner(line: list[tuple[int, int]]) -> dict[int, int]:
    """Dice per owner in half dice (small 2, large 3), in order of first appearance."""
    strength: dict[int, int] = {}
    for owner, kind in line:
        strength[owner] = strength.get(owner, 0) + DIE_HALVES[kind]
    return strength


def strongest_owner(line: list[tuple[int, int]], exclude: int | None = None) -> int | None:
    """Owner with the most dice; among tied owners, the one whose latest die is latest in the line."""
    strength = strength_by_owner(line)
    if exclude is not None:
        strength.pop(exclude, None)
    return latest_of_the_strongest(line, strength)


def latest_of_the_strongest(line: list[tuple[int, int]], strength: dict[int, int]) -> int | None:
    """``strongest_owner`` among the owners in ``strength`` (their ``strength_by_owner``)."""
    if not strength:
        return None
    best = max(strength.values())
    for owner, _ in reversed(line):
        if strength.get(owner) == best:
            return owner
    raise AssertionError("unreachable: a tied owner has dice in the line")


def holds_hunting_bonus(bonus: int, count: int, counts: Sequence[int]) -> bool:
    """Whether a player with ``count`` cards of a prey kind holds its hunting bonus (worth
    ``bonus``; none for mammoth): the most cards of it, ``counts`` being every player's, and one
    at least."""
    return bool(bonus and count and count == max(counts))


def score_breakdowns(state: DiceAgeState) -> list[dict[str, int]]:
    """End-of-game scoring of every player (see ``score_breakdown``)."""
    return [score_breakdown(state, seat) for seat in range(len(state.players))]


def score_breakdown(state: DiceAgeState, seat: int) -> dict[str, int]:
    """End-of-game scoring of one player: prey, set bonus, hunting bonus, shells, honor bonuses."""
    player = state.players[seat]
    prey = player.prey
    sets = min(prey)
    hunting = bonuses_won = 0
    counts_by_kind = zip(*[other.prey for other in state.players])
    for bonus, count, counts in zip(HUNTING_BONUS, prey, counts_by_kind):
        if holds_hunting_bonus(bonus, count, counts):
            hunting += bonus // counts.count(count) // BONUS_ROUNDING * BONUS_ROUNDING
            bonuses_won += 1
    counted = (
        player.large,
        player.small,
        len(player.shells),
        player.shells.count(SHELL_VALUES[INNOVATION_SHELL]),
        sum(player.tiles),
    )
    card_worth = map(mul, HONOR_POINTS, counted)  # a card of each of the first five honor bonuses
    honor = sum(map(mul, player.honors, card_worth))
    # The sixth, Hunters' Pride, counts the prey bonuses gained: sets and hunting bonuses.
    honor += player.honors[Honor.HUNTERS_PRIDE] * HUNTERS_PRIDE_POINTS[len(state.players)] * (sets + bonuses_won)
    return {
        "prey": sum(map(mul, prey, PREY_POINTS)),
        "sets": SET_BONUS * sets,
        "hunting": hunting,
        "shells": sum(player.shells),
        "honor": honor,
    }


def shells_face_up(state: DiceAgeState) -> bool:
    """Whether every player's shell tiles are face up: only at game over, for the final count
    (rulebook, Trade: until then no player but the owner sees their points)."""
    return state.decision == Decision.GAME_OVER


def face_down_points(state: DiceAgeState, seat: int) -> tuple[int, int]:
    """The points of ``seat``'s score that hang on its face-down shell values: (the shells, the
    Innovation honor's, which counts 20-point shells); none once the shells are face up."""
    if shells_face_up(state):
        return 0, 0
    player = state.players[seat]
    twenties = player.shells.count(SHELL_VALUES[INNOVATION_SHELL])
    return sum(player.shells), player.honors[Honor.INNOVATION] * HONOR_POINTS[Honor.INNOVATION] * twenties


def public_score(state: DiceAgeState, seat: int) -> int:
    """``seat``'s score as every player knows it: the score if the game ended now, less its
    face-down part (the number of shell tiles is public, their values are not)."""
    return sum(score_breakdown(state, seat).values()) - sum(face_down_points(state, seat))


def winners_of(state: DiceAgeState, scores: list[int]) -> list[int]:
    """Most points; ties go to the most shell tiles; still tied, all of them win."""
    best = max(scores)
    leaders = [seat for seat, score in enumerate(scores) if score == best]
    most_shells = max(len(state.players[seat].shells) for seat in leaders)
    return [seat for seat in leaders if len(state.players[seat].shells) == most_shells]
