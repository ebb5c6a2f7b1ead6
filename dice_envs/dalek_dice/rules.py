"""Dalek Dice: the pure rules engine.

Rulebook: ``shared/rulebooks/dalek_dice.txt``; rulings and the action table are in
``docs/games/dalek_dice.md``.  After each roll one Doctor and one Exterminate! are kept
automatically (further ones go back to be rolled again); the player then keeps Human and Dalek
dice one at a time and must keep at least one die per roll before rolling the rest or stopping.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar

import numpy as np

from dice_envs.core.chance import roll_dice
from dice_envs.core.engine import TERMINAL, Game, GameParams, require_int
from dice_envs.core.race import Race, end_turn
from dice_envs.core.state import GameState
from dice_envs.dalek_dice.data import DALEK_VALUES, HUMAN_VALUES, NO_DICE_LEFT_BONUS, NUM_DICE, THREE, Face

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


class DalekDice(Game[DalekDiceState, DalekDiceParams]):
    name = "dalek_dice_v0"
    params_class = DalekDiceParams
    state_class = DalekDiceState
    action_names = ACTION_NAMES
    default_max_steps = 20_000

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
        if decision == Decision.START_TURN:
            return [ROLL]
        if decision == Decision.GAME_OVER:
            return []
        actions = [action for action in KEEP_ACTIONS if state.rolled[action]]
        if state.kept_this_roll:
            if decision == Decision.KEEP:
                actions.append(ROLL)
            actions.append(STOP)
        return actions

    def apply(self, state: DalekDiceState, action: int, rng: np.random.Generator) -> None:
        if action == ROLL:
            self._roll(state, rng)
        elif action == STOP:
            if state.decision == Decision.FINISH_KEEPING:
                self._end_turn(state, TurnEnd.EXTERMINATE)
            else:
                self._end_turn(state, TurnEnd.STOPPED)
        else:
            state.rolled[action] -= 1
            state.kept[action] += 1
            state.kept_this_roll += 1
            if dice_left(state) == 0:
                self._end_turn(state, TurnEnd.EXTERMINATE if state.exterminates >= THREE else TurnEnd.NO_DICE_LEFT)

    def _roll(self, state: DalekDiceState, rng: np.random.Generator) -> None:
        faces = [0] * len(Face)
        for face in roll_dice(rng, dice_left(state)):
            faces[face] += 1
        state.last_roll = faces
        state.rolls += 1
        state.rolled = faces[: len(KEEP_ACTIONS)]
        state.to_reroll = 0
        state.kept_this_roll = 0
        for special in (Face.DOCTOR, Face.EXTERMINATE):
            if faces[special]:
                state.kept_this_roll += 1
                state.to_reroll += faces[special] - 1
        state.doctors += 1 if faces[Face.DOCTOR] else 0
        state.exterminates += 1 if faces[Face.EXTERMINATE] else 0
        if state.doctors >= THREE:  # the Doctor prevails even if Exterminate! reached three too
            self._end_turn(state, TurnEnd.DOCTOR)
        elif state.exterminates >= THREE:
            if sum(state.rolled) == 0:
                self._end_turn(state, TurnEnd.EXTERMINATE)
            else:
                state.decision = Decision.FINISH_KEEPING
        elif dice_left(state) == 0:
            self._end_turn(state, TurnEnd.NO_DICE_LEFT)
        else:
            state.decision = Decision.KEEP

    def _end_turn(self, state: DalekDiceState, how: TurnEnd) -> None:
        points = turn_points(how, state.kept, dice_left(state))
        state.last_turn_end = how
        state.last_turn_points = points
        end_turn(state.race, points, self.params.target_score, max_tiebreak_rounds=0)
        if state.race.current == TERMINAL:
            state.decision = Decision.GAME_OVER
        else:
            _start_turn(state)

    def scores(self, state: DalekDiceState) -> list[int]:
        return state.race.scores

    def winners(self, state: DalekDiceState) -> list[int]:
        return state.race.winners

    def score_normaliser(self) -> float:
        return float(self.params.target_score)


def _start_turn(state: DalekDiceState) -> None:
    state.decision = Decision.START_TURN
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
    return sum(count * value for count, value in zip(kept, HUMAN_VALUES))


def daleks(kept: list[int]) -> int:
    return sum(count * value for count, value in zip(kept, DALEK_VALUES))


def turn_points(how: TurnEnd, kept: list[int], dice_remaining: int) -> int:
    """Points for a turn that ended this way with these dice kept."""
    bonus = NO_DICE_LEFT_BONUS if dice_remaining == 0 else 0
    if how == TurnEnd.DOCTOR:
        return 0
    if how == TurnEnd.EXTERMINATE:
        return 2 * humans(kept) + bonus  # the bonus is added after doubling
    return humans(kept) + bonus if daleks(kept) >= humans(kept) else 0
