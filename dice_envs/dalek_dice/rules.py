"""Dalek Dice: the pure rules engine.

Rulebook: ``shared/rulebooks/dalek_dice.txt``; rulings and the action table are in
``docs/games/dalek_dice.md``.  After each roll one Doctor and one Exterminate! are kept
automatically (further ones go back to be rolled again); the player then keeps Human and Dalek
dice one at a time and must keep at least one die per roll before rolling the rest or stopping.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from itertools import compress
from typing import ClassVar

import numpy as np

from dice_envs.core.chance import roll_dice
from dice_envs.core.engine import TERMINAL, Game, GameParams, require_int
from dice_envs.core.race import Race, end_turn
from dice_envs.core.state import GameState
from dice_envs.dalek_dice.data import DALEK_VALUES, HUMAN_VALUES, MAX_TURN_POINTS, NO_DICE_LEFT_BONUS, NUM_DICE, THREE, Face

KEEP_HUMAN_4, KEEP_HUMAN_2, KEEP_DALEK_3, KEEP_DALEK_2, ROLL, STOP = range(6)
ACTION_NAMES = (
    "keep one more Human 4",
    "keep one more Human 2",
    "keep one more Dalek 3",
    "keep one more Dalek 2",
    "roll the rest",
    "stop",
)
KEEP_ACTIONS = (KEEP_HUMAN_4, KEEP_HUMAN_2, KEEP_DALEK_3, KEEP_DALEK_2)
NUM_SCORING_FACES = len(KEEP_ACTIONS)
"""The scoring faces come first in ``Face``, in the order of the keep actions; Doctor and
Exterminate! follow."""
NUM_FACES = len(Face)
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

    def validate(self) -> None:
        from dice_envs.dalek_dice.validation import validate_state  # here: validation.py imports this module

        validate_state(self)


# The enum members that the hot paths test and set, as module names: ``legal_actions`` and
# ``apply`` run at every simulated step of a search, and looking a member up on its enum class
# costs several times a global in CPython 3.11.
START_TURN, KEEP, FINISH_KEEPING, GAME_OVER = Decision
_, STOPPED, NO_DICE_LEFT, DOCTOR, EXTERMINATE = TurnEnd
ENDING_ACTIONS: tuple[tuple[int, ...], ...] = ((), (ROLL, STOP), (STOP,), ())
"""Actions after the keep actions, by ``Decision``, once a die of the roll is kept."""


class DalekDice(Game[DalekDiceState, DalekDiceParams]):
    name = "dalek_dice_v0"
    params_class = DalekDiceParams
    state_class = DalekDiceState
    action_names = ACTION_NAMES
    default_max_steps = 20_000
    max_turn_points = MAX_TURN_POINTS

    def initial_state(self, rng: np.random.Generator) -> DalekDiceState:
        state = DalekDiceState(
            race=Race.new(self.params.num_players),
            decision=Decision.START_TURN,
            rolled=[0, 0, 0, 0],
            kept=[0, 0, 0, 0],
            doctors=0,
            exterminates=0,
            to_reroll=0,
            kept_this_roll=0,
            rolls=0,
            last_roll=[0] * len(Face),
            last_turn_end=TurnEnd.NONE,
            last_turn_points=0,
        )
        _start_turn(state)
        return state

    def check_parameters(self, state: DalekDiceState) -> None:
        from dice_envs.dalek_dice.validation import check_parameters  # here: validation.py imports this module

        check_parameters(self, state)

    def current_player(self, state: DalekDiceState) -> int:
        return state.race.current

    def legal_actions(self, state: DalekDiceState) -> list[int]:
        decision = state.decision
        if decision == START_TURN:
            return [ROLL]
        if decision == GAME_OVER:
            return []
        actions = list(compress(KEEP_ACTIONS, state.rolled))  # the faces with undecided dice
        if state.kept_this_roll:
            actions += ENDING_ACTIONS[decision]
        return actions

    def apply(self, state: DalekDiceState, action: int, rng: np.random.Generator) -> None:
        if action == ROLL:
            self._roll(state, rng)
        elif action == STOP:
            self._end_turn(state, EXTERMINATE if state.decision == FINISH_KEEPING else STOPPED)
        else:
            rolled = state.rolled
            rolled[action] -= 1
            state.kept[action] += 1
            state.kept_this_roll += 1
            if not state.to_reroll and not any(rolled):  # no dice left
                self._end_turn(state, EXTERMINATE if state.exterminates >= THREE else NO_DICE_LEFT)

    def _roll(self, state: DalekDiceState, rng: np.random.Generator) -> None:
        faces = [0] * NUM_FACES
        for face in roll_dice(rng, state.to_reroll + sum(state.rolled)):  # all the dice left
            faces[face] += 1
        state.last_roll = faces
        state.rolls += 1
        state.rolled = rolled = faces[:NUM_SCORING_FACES]
        # One Doctor and one Exterminate! of the roll are kept; the others are rolled again.
        doctors, exterminates = faces[NUM_SCORING_FACES:]
        kept_this_roll = to_reroll = 0
        if doctors:
            state.doctors += 1
            kept_this_roll += 1
            to_reroll += doctors - 1
        if exterminates:
            state.exterminates += 1
            kept_this_roll += 1
            to_reroll += exterminates - 1
        state.kept_this_roll = kept_this_roll
        state.to_reroll = to_reroll
        if state.doctors >= THREE:  # the Doctor prevails even if Exterminate! reached three too
            self._end_turn(state, DOCTOR)
        elif state.exterminates >= THREE:
            if any(rolled):
                state.decision = FINISH_KEEPING
            else:
                self._end_turn(state, EXTERMINATE)
        elif not to_reroll and not any(rolled):  # no dice left
            self._end_turn(state, NO_DICE_LEFT)
        else:
            state.decision = KEEP

    def _end_turn(self, state: DalekDiceState, how: TurnEnd) -> None:
        points = turn_points(how, state.kept, dice_left(state))
        state.last_turn_end = how
        state.last_turn_points = points
        race = state.race
        end_turn(race, points, self.params.target_score, max_tiebreak_rounds=0)
        if race.current == TERMINAL:
            state.decision = GAME_OVER
        else:
            _start_turn(state)

    def scores(self, state: DalekDiceState) -> list[int]:
        return state.race.scores

    def winners(self, state: DalekDiceState) -> list[int]:
        return state.race.winners

    def score_normaliser(self) -> float:
        return float(self.params.target_score)


def _start_turn(state: DalekDiceState) -> None:
    state.decision = START_TURN
    state.rolled = [0, 0, 0, 0]
    state.kept = [0, 0, 0, 0]
    state.doctors = 0
    state.exterminates = 0
    state.to_reroll = NUM_DICE
    state.kept_this_roll = 0
    state.rolls = 0


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
