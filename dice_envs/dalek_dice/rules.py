"""Dalek Dice: the pure rules engine.

Rulebook: ``shared/rulebooks/dalek_dice.txt``; rulings and the action table are in
``docs/games/dalek_dice.md``.  After each roll one Doctor and one Exterminate! are kept
automatically (further ones go back to be rolled again); the player then keeps Human and Dalek
dice one at a time and must keep at least one die per roll before rolling the rest or stopping.
"""

from __future__ import annotations

from itertools import compress

import numpy as np

from dice_envs.core.chance import face_count_odds, roll_counts
from dice_envs.core.engine import TERMINAL, Game
from dice_envs.core.race import Race, end_turn
from dice_envs.dalek_dice.actions import ACTION_NAMES, KEEP_ACTIONS, NUM_SCORING_FACES, ROLL, STOP
from dice_envs.dalek_dice.data import MAX_TURN_POINTS, NUM_DICE, THREE, Face
from dice_envs.dalek_dice.state import (
    DOCTOR,
    EXTERMINATE,
    FINISH_KEEPING,
    GAME_OVER,
    KEEP,
    NO_DICE_LEFT,
    START_TURN,
    STOPPED,
    DalekDiceParams,
    DalekDiceState,
    Decision,
    TurnEnd,
    dice_left,
    turn_points,
)
from dice_envs.dalek_dice.validation import check_parameters

NUM_FACES = len(Face)
ENDING_ACTIONS: tuple[tuple[int, ...], ...] = ((), (ROLL, STOP), (STOP,), ())
"""Actions after the keep actions, by ``Decision``, once a die of the roll is kept."""


class DalekDice(Game[DalekDiceState, DalekDiceParams]):
    name = "dalek_dice_v0"
    params_class = DalekDiceParams
    state_class = DalekDiceState
    action_names = ACTION_NAMES
    default_max_steps = 20_000
    max_turn_points = MAX_TURN_POINTS
    max_chance_outcomes = len(face_count_odds(NUM_DICE, NUM_FACES))
    """A roll of all ten dice, counted by face: 3003 outcomes."""

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
        check_parameters(self.params, state)

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
        faces = roll_counts(rng, state.to_reroll + sum(state.rolled), NUM_FACES)  # all the dice left
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
