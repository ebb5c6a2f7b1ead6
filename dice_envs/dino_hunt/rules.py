"""Dino Hunt Dice: the pure rules engine.

Rulebook: ``shared/rulebooks/dino_hunt_dice.txt``; rulings and the action table are in
``docs/games/dino_hunt.md``.  A turn: draw dice from the cup up to three in hand, roll them, set
Dinos and Footprints aside, keep Leaves in hand; then roll again or stop.  Three Footprints end the
turn with nothing; needing to draw from an empty cup turns the Leaves into Dinos and ends it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar

import numpy as np

from dice_envs.core.chance import draw_counts, roll_dice
from dice_envs.core.engine import TERMINAL, Game, GameParams, require_int
from dice_envs.core.race import Race, end_turn
from dice_envs.core.state import GameState
from dice_envs.dino_hunt.data import (
    DICE_PER_COLOUR,
    DICE_PER_ROLL,
    FACES_BY_COLOUR,
    STOMPS_TO_END_TURN,
)

ROLL, STOP = 0, 1
ACTION_NAMES = ("roll", "stop")


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

    def validate(self) -> None:
        from dice_envs.dino_hunt.validation import validate_state  # here: validation.py imports this module

        validate_state(self)


class DinoHunt(Game[DinoHuntState, DinoHuntParams]):
    name = "dino_hunt_v0"
    params_class = DinoHuntParams
    state_class = DinoHuntState
    action_names = ACTION_NAMES
    default_max_steps = 20_000

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
        from dice_envs.dino_hunt.validation import check_parameters  # here: validation.py imports this module

        check_parameters(self, state)

    def current_player(self, state: DinoHuntState) -> int:
        return state.race.current

    def legal_actions(self, state: DinoHuntState) -> list[int]:
        if state.decision == Decision.ROLL_OR_STOP:
            return [ROLL, STOP]
        if state.decision == Decision.FIRST_ROLL:
            return [ROLL]
        return []

    def apply(self, state: DinoHuntState, action: int, rng: np.random.Generator) -> None:
        if action == STOP:
            self._end_turn(state, TurnEnd.STOPPED, sum(state.dinos))
            return
        if must_draw_from_empty_cup(state):
            self._end_cup_empty(state)
            return
        drawn = draw_counts(rng, state.cup, min(DICE_PER_ROLL - sum(state.leaves), sum(state.cup)))
        hand = [leaves + new for leaves, new in zip(state.leaves, drawn)]
        for colour in range(3):
            state.cup[colour] -= drawn[colour]
        state.last_roll = roll_hand(rng, hand)
        state.leaves = [0, 0, 0]
        tallies = (state.dinos, state.leaves, state.footprints)
        for colour, face in state.last_roll:
            tallies[face][colour] += 1
        state.rolls += 1
        if sum(state.footprints) >= STOMPS_TO_END_TURN:
            self._end_turn(state, TurnEnd.STOMPED, 0)
        elif must_draw_from_empty_cup(state):
            # Going on would need a draw from the empty cup, which scores the Leaves as Dinos with
            # no risk; stopping would score less.  The turn ends here (see the rules document).
            self._end_cup_empty(state)
        else:
            state.decision = Decision.ROLL_OR_STOP

    def _end_cup_empty(self, state: DinoHuntState) -> None:
        self._end_turn(state, TurnEnd.CUP_EMPTY, sum(state.dinos) + sum(state.leaves))

    def _end_turn(self, state: DinoHuntState, how: TurnEnd, points: int) -> None:
        state.last_turn_end = how
        state.last_turn_points = points
        state.cup = list(DICE_PER_COLOUR)
        state.leaves = [0, 0, 0]
        state.dinos = [0, 0, 0]
        state.footprints = [0, 0, 0]
        state.rolls = 0
        end_turn(state.race, points, self.params.target_score, self.params.max_tiebreak_rounds)
        state.decision = Decision.GAME_OVER if state.race.current == TERMINAL else Decision.FIRST_ROLL

    def scores(self, state: DinoHuntState) -> list[int]:
        return state.race.scores

    def winners(self, state: DinoHuntState) -> list[int]:
        return state.race.winners

    def score_normaliser(self) -> float:
        return float(self.params.target_score)


def roll_hand(rng: np.random.Generator, hand: list[int]) -> list[tuple[int, int]]:
    """Roll ``hand[colour]`` dice of each colour; returns (colour, face) per die."""
    colours = [colour for colour, count in enumerate(hand) for _ in range(count)]
    faces = roll_dice(rng, len(colours))
    return [(colour, int(FACES_BY_COLOUR[colour][face])) for colour, face in zip(colours, faces)]


def must_draw_from_empty_cup(state: DinoHuntState) -> bool:
    """Rolling again would need new dice and the cup has none: "you've found all the dinosaurs"."""
    return sum(state.leaves) < DICE_PER_ROLL and sum(state.cup) == 0

