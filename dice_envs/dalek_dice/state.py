"""Dalek Dice: the state of a game, its parameters, and the board queries every layer asks.

The state is plain data (``dice_envs.core.state``): the race (``dice_envs.core.race``), the dice
of the turn in progress by face, and the pending decision.  Its checks are in ``validation``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar

from dice_envs.core.engine import GameParams, require_int
from dice_envs.core.race import Race
from dice_envs.core.state import GameState
from dice_envs.dalek_dice.data import DALEK_VALUES, HUMAN_VALUES, NO_DICE_LEFT_BONUS

# The faces that show Humans or Daleks and their values (``HUMAN_VALUES``, ``DALEK_VALUES``), by
# name: ``humans`` and ``daleks`` run at every observation, and a sum over all four faces costs
# about three times as much.
HUMAN_4_VALUE, HUMAN_2_VALUE, _, _ = HUMAN_VALUES
_, _, DALEK_3_VALUE, DALEK_2_VALUE = DALEK_VALUES


class Decision(IntEnum):
    START_TURN = 0  # take all ten dice and roll them: the only choice is "roll"
    KEEP = 1  # keep dice from this roll; once one is kept, roll the rest or stop
    FINISH_KEEPING = 2  # three Exterminate!: keep more from this roll, then stop
    GAME_OVER = 3


class TurnEnd(IntEnum):
    """How the previous turn ended (for display and tests)."""

    NONE = 0
    STOPPED = 1
    NO_DICE_LEFT = 2
    DOCTOR = 3  # three Doctors: nothing scored
    EXTERMINATE = 4  # three Exterminate!: Humans doubled


# The enum members that the hot paths test and set, as module names: ``legal_actions`` and
# ``apply`` run at every simulated step of a search, and looking a member up on its enum class
# costs several times a global in CPython 3.11.
START_TURN, KEEP, FINISH_KEEPING, GAME_OVER = Decision
_, STOPPED, NO_DICE_LEFT, DOCTOR, EXTERMINATE = TurnEnd


@dataclass(frozen=True)
class DalekDiceParams(GameParams):
    num_players: int = 2
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    target_score: int = 60

    def validate(self) -> None:
        super().validate()
        require_int("target_score", self.target_score, 1)


@dataclass
class DalekDiceState(GameState):
    race: Race
    decision: Decision
    rolled: list[int]
    """Dice of the latest roll still to decide on, by scoring face (Human 4, Human 2, Dalek 3, Dalek 2)."""
    kept: list[int]
    """Kept Human and Dalek dice, by scoring face."""
    doctors: int
    exterminates: int
    to_reroll: int
    """Dice set aside to roll again: extra Doctors and Exterminate!s, and dice not kept before."""
    kept_this_roll: int
    """Dice kept from the latest roll, the automatically kept Doctor and Exterminate! included."""
    rolls: int
    last_roll: list[int]
    """Faces of the latest roll, counted by ``Face``."""
    last_turn_end: TurnEnd
    last_turn_points: int


# ================================================================ board queries
def dice_left(state: DalekDiceState) -> int:
    """Dice not kept: the ones set aside to roll again and the undecided ones of this roll."""
    return state.to_reroll + sum(state.rolled)


def humans(kept: list[int]) -> int:
    """Humans kept: the sum of the values the kept Human dice show."""
    human_4, human_2, _, _ = kept
    return HUMAN_4_VALUE * human_4 + HUMAN_2_VALUE * human_2


def daleks(kept: list[int]) -> int:
    """Daleks kept: the sum of the values the kept Dalek dice show."""
    _, _, dalek_3, dalek_2 = kept
    return DALEK_3_VALUE * dalek_3 + DALEK_2_VALUE * dalek_2


def turn_points(how: TurnEnd, kept: list[int], dice_remaining: int) -> int:
    """Points for a turn that ended this way with these dice kept."""
    if how == DOCTOR:
        return 0
    bonus = NO_DICE_LEFT_BONUS if dice_remaining == 0 else 0
    if how == EXTERMINATE:
        return 2 * humans(kept) + bonus  # the bonus is added after doubling
    kept_humans = humans(kept)
    return kept_humans + bonus if daleks(kept) >= kept_humans else 0
