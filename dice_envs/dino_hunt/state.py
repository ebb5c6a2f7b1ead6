"""Dino Hunt Dice: the state of a game, its parameters, and the board queries every layer asks.

The state is plain data (``dice_envs.core.state``): the race (``dice_envs.core.race``), the dice
of the turn in progress by colour, and the pending decision.  Its checks are in ``validation``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar

from dice_envs.core.engine import GameParams, require_int
from dice_envs.core.race import Race
from dice_envs.core.state import GameState
from dice_envs.dino_hunt.data import DICE_PER_ROLL


class Decision(IntEnum):
    FIRST_ROLL = 0  # the first roll of a turn is mandatory
    ROLL_OR_STOP = 1
    GAME_OVER = 2


class TurnEnd(IntEnum):
    """How the previous turn ended (for display and tests)."""

    NONE = 0  # no turn has ended yet
    STOPPED = 1
    STOMPED = 2  # three Footprints: nothing scored
    CUP_EMPTY = 3  # needed to draw from an empty cup: Leaves became Dinos


# The enum members that ``apply`` sets, as module names: ``apply`` runs at every simulated step of
# a search, and looking a member up on its enum class costs several times a global in CPython 3.11.
FIRST_ROLL, ROLL_OR_STOP, GAME_OVER = Decision
_, STOPPED, STOMPED, CUP_EMPTY = TurnEnd


@dataclass(frozen=True)
class DinoHuntParams(GameParams):
    num_players: int = 2
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    target_score: int = 20
    max_tiebreak_rounds: int = 10

    def validate(self) -> None:
        super().validate()
        require_int("target_score", self.target_score, 1)
        require_int("max_tiebreak_rounds", self.max_tiebreak_rounds, 0)


@dataclass
class DinoHuntState(GameState):
    race: Race
    decision: Decision
    cup: list[int]
    """Dice in the cup, by colour."""
    leaves: list[int]
    """Dice showing Leaves, kept in hand to re-roll, by colour."""
    dinos: list[int]
    """Dinos set aside this turn, by colour."""
    footprints: list[int]
    """Footprints (stomps) set aside this turn, by colour."""
    rolls: int
    """Rolls taken this turn."""
    last_roll: list[tuple[int, int]]
    """(colour, face) of each die in the latest roll."""
    last_turn_end: TurnEnd
    last_turn_points: int


# ================================================================ board queries
def must_draw_from_empty_cup(state: DinoHuntState) -> bool:
    """Rolling again would need new dice and the cup has none: "you've found all the dinosaurs"."""
    return cup_runs_out(sum(state.leaves), sum(state.cup))


def cup_runs_out(leaves_in_hand: int, dice_in_cup: int) -> bool:
    """``must_draw_from_empty_cup`` from the two counts (the engine and the solvers have them)."""
    return leaves_in_hand < DICE_PER_ROLL and not dice_in_cup
