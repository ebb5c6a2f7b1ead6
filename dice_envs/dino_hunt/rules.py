"""Dino Hunt Dice: the pure rules engine.

Rulebook: ``shared/rulebooks/dino_hunt_dice.txt``; rulings and the action table are in
``docs/games/dino_hunt.md``.  A turn: draw dice from the cup up to three in hand, roll them, set
Dinos and Footprints aside, keep Leaves in hand; then roll again or stop.  Three Footprints end the
turn with nothing; needing to draw from an empty cup turns the Leaves into Dinos and ends it.
"""

from __future__ import annotations

from itertools import product

import numpy as np

from dice_envs.core.chance import draw_count_odds, draw_then_roll
from dice_envs.core.engine import TERMINAL, Game
from dice_envs.core.race import Race, end_turn
from dice_envs.dino_hunt.actions import ACTION_NAMES, ROLL, STOP
from dice_envs.dino_hunt.data import (
    DICE_PER_COLOUR,
    DICE_PER_ROLL,
    FACES_BY_COLOUR,
    MAX_TURN_POINTS,
    STOMPS_TO_END_TURN,
)
from dice_envs.dino_hunt.state import (
    CUP_EMPTY,
    FIRST_ROLL,
    GAME_OVER,
    ROLL_OR_STOP,
    STOMPED,
    STOPPED,
    Decision,
    DinoHuntParams,
    DinoHuntState,
    TurnEnd,
    cup_runs_out,
)
from dice_envs.dino_hunt.validation import check_parameters

DieOutcomes = tuple[tuple[int, int], ...]
"""``(colour, face)`` for each face index that a die of one colour can roll."""
ROLL_OUTCOMES: tuple[DieOutcomes, ...] = tuple(
    tuple((colour, int(face)) for face in faces) for colour, faces in enumerate(FACES_BY_COLOUR)
)
"""Each colour's outcomes, made once and shared by every ``last_roll`` (tuples are immutable)."""
DICE_OF_HAND: dict[tuple[int, ...], tuple[DieOutcomes, ...]] = {
    hand: tuple(ROLL_OUTCOMES[colour] for colour, count in enumerate(hand) for _ in range(count))
    for hand in product(*(range(count + 1) for count in DICE_PER_COLOUR))
    if sum(hand) <= DICE_PER_ROLL
}
"""The dice of each hand that can be rolled (its count of each colour), in the order they are
rolled, green first: listed once here rather than at every roll."""
LEGAL_ACTIONS: tuple[tuple[int, ...], ...] = ((ROLL,), (ROLL, STOP), ())
"""Legal actions by ``Decision``: the first roll of a turn is mandatory."""


class DinoHunt(Game[DinoHuntState, DinoHuntParams]):
    name = "dino_hunt_v0"
    params_class = DinoHuntParams
    state_class = DinoHuntState
    action_names = ACTION_NAMES
    default_max_steps = 20_000
    max_turn_points = MAX_TURN_POINTS
    max_chance_outcomes = len(draw_count_odds(DICE_PER_COLOUR, DICE_PER_ROLL))
    """The first draw: three dice of the full cup, by colour (9 outcomes; a die shows one of 6 faces)."""

    def initial_state(self, rng: np.random.Generator) -> DinoHuntState:
        return DinoHuntState(
            race=Race.new(self.params.num_players),
            decision=Decision.FIRST_ROLL,
            cup=list(DICE_PER_COLOUR),
            leaves=[0, 0, 0],
            dinos=[0, 0, 0],
            footprints=[0, 0, 0],
            rolls=0,
            last_roll=[],
            last_turn_end=TurnEnd.NONE,
            last_turn_points=0,
        )

    def check_parameters(self, state: DinoHuntState) -> None:
        check_parameters(self.params, state)

    def current_player(self, state: DinoHuntState) -> int:
        return state.race.current

    def legal_actions(self, state: DinoHuntState) -> list[int]:
        return list(LEGAL_ACTIONS[state.decision])

    def apply(self, state: DinoHuntState, action: int, rng: np.random.Generator) -> None:
        if action == STOP:
            self._end_turn(state, STOPPED, sum(state.dinos))
            return
        cup, leaves = state.cup, state.leaves
        in_hand, in_cup = sum(leaves), sum(cup)
        if cup_runs_out(in_hand, in_cup):
            self._end_turn(state, CUP_EMPTY, sum(state.dinos) + in_hand)
            return
        num_drawn = min(DICE_PER_ROLL - in_hand, in_cup)
        last_roll = draw_then_roll(rng, cup, num_drawn, leaves, DICE_OF_HAND)  # the drawn dice leave the cup
        leaves = [0, 0, 0]
        footprints = state.footprints
        tallies = (state.dinos, leaves, footprints)
        for colour, face in last_roll:
            tallies[face][colour] += 1
        state.last_roll = last_roll
        state.leaves = leaves
        state.rolls += 1
        if sum(footprints) >= STOMPS_TO_END_TURN:
            self._end_turn(state, STOMPED, 0)
        elif cup_runs_out(sum(leaves), in_cup - num_drawn):
            # Going on would need a draw from the empty cup, which scores the Leaves as Dinos with
            # no risk; stopping would score less.  The turn ends here (see the rules document).
            self._end_turn(state, CUP_EMPTY, sum(state.dinos) + sum(leaves))
        else:
            state.decision = ROLL_OR_STOP

    def _end_turn(self, state: DinoHuntState, how: TurnEnd, points: int) -> None:
        state.last_turn_end = how
        state.last_turn_points = points
        state.cup = list(DICE_PER_COLOUR)
        state.leaves = [0, 0, 0]
        state.dinos = [0, 0, 0]
        state.footprints = [0, 0, 0]
        state.rolls = 0
        race = state.race
        end_turn(race, points, self.params.target_score, self.params.max_tiebreak_rounds)
        state.decision = GAME_OVER if race.current == TERMINAL else FIRST_ROLL

    def scores(self, state: DinoHuntState) -> list[int]:
        return state.race.scores

    def winners(self, state: DinoHuntState) -> list[int]:
        return state.race.winners

    def score_normaliser(self) -> float:
        return float(self.params.target_score)
