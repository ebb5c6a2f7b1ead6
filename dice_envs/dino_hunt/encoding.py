"""Dino Hunt Dice observation: the race, then the turn in progress (all public information)."""

from __future__ import annotations

import numpy as np

from dice_envs.core.encoding import Encoder, Field, ObservationLayout
from dice_envs.core.race import RaceEncoding
from dice_envs.dino_hunt.data import COLOURS, DICE_PER_ROLL, MAX_TURN_POINTS, STOMPS_TO_END_TURN, TOTAL_DICE
from dice_envs.dino_hunt.rules import DinoHunt
from dice_envs.dino_hunt.state import FIRST_ROLL, DinoHuntState

MAX_PER_COLOUR = 5
ROLLS_SEEN = 10
"""Rolls this turn are reported up to this many (a turn of all-Leaves rolls can go on longer)."""


class DinoHuntEncoder(Encoder[DinoHuntState]):
    def __init__(self, game: DinoHunt) -> None:
        params = game.params
        self.race = RaceEncoding(params.num_players, params.target_score, MAX_TURN_POINTS, params.max_tiebreak_rounds)
        self.layout = ObservationLayout(
            [
                *self.race.fields,
                Field("must_roll", "1 when the pending decision is the mandatory first roll", 1),
                Field("dinos", "Dinos set aside this turn, by colour", MAX_PER_COLOUR, MAX_PER_COLOUR, COLOURS),
                Field("footprints", "Footprints set aside this turn, by colour (a third ends the turn)", STOMPS_TO_END_TURN - 1, STOMPS_TO_END_TURN - 1, COLOURS),
                Field("leaves", "dice showing Leaves in hand, by colour", DICE_PER_ROLL, DICE_PER_ROLL, COLOURS),
                Field("cup", "dice left in the cup, by colour", MAX_PER_COLOUR, MAX_PER_COLOUR, COLOURS),
                Field("turn_dinos", "Dinos this turn in all", TOTAL_DICE, TOTAL_DICE),
                Field("rolls", f"rolls taken this turn (at most {ROLLS_SEEN} reported)", ROLLS_SEEN, ROLLS_SEEN),
            ]
        )

    def encode(self, state: DinoHuntState, observer: int) -> np.ndarray:
        dinos, rolls = state.dinos, state.rolls
        return self.layout.vector(
            [
                *self.race.values(state.race, observer),
                1 if state.decision == FIRST_ROLL else 0,
                *dinos,
                *state.footprints,
                *state.leaves,
                *state.cup,
                sum(dinos),
                rolls if rolls < ROLLS_SEEN else ROLLS_SEEN,  # min(), without the call
            ]
        )
