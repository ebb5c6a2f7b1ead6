"""Dalek Dice observation: the race, then the turn in progress (all public information)."""

from __future__ import annotations

import numpy as np

from dice_envs.core.encoding import Encoder, Field, ObservationLayout, one_hot
from dice_envs.core.race import RaceEncoding
from dice_envs.dalek_dice.data import MAX_TURN_POINTS, NUM_DICE, SCORING_LABELS, THREE
from dice_envs.dalek_dice.rules import DalekDice
from dice_envs.dalek_dice.state import DalekDiceState, Decision, daleks, humans

MAX_HUMANS = 4 * NUM_DICE
MAX_DALEKS = 3 * NUM_DICE
ROLLS_SEEN = 10
"""Rolls this turn are reported up to this many."""
DECISION_ONE_HOT = tuple(tuple(one_hot(decision, len(Decision))) for decision in Decision)
"""The ``decision`` field's values for each decision, made once."""


class DalekDiceEncoder(Encoder[DalekDiceState]):
    def __init__(self, game: DalekDice) -> None:
        params = game.params
        self.race = RaceEncoding(params.num_players, params.target_score, MAX_TURN_POINTS, max_tiebreak_rounds=0)
        decisions = tuple(decision.name.lower() for decision in Decision)
        self.layout = ObservationLayout(
            [
                *self.race.fields,
                Field("decision", "kind of the pending decision (one-hot)", 1, 1, decisions),
                Field("rolled", "undecided dice of the latest roll, by face", NUM_DICE, NUM_DICE, SCORING_LABELS),
                Field("kept", "kept Human and Dalek dice, by face", NUM_DICE, NUM_DICE, SCORING_LABELS),
                Field("doctors", "Doctors kept", THREE, THREE),
                Field("exterminates", "Exterminate!s kept", THREE, THREE),
                Field("to_reroll", "extra Doctors and Exterminate!s set aside to roll again (all ten before the first roll)", NUM_DICE, NUM_DICE),
                Field("dice_left", "dice not kept (none left: +5 bonus)", NUM_DICE, NUM_DICE),
                Field("kept_this_roll", "1 once a die of the latest roll is kept (roll and stop allowed)", 1),
                Field("humans", "Humans kept (sum of values)", MAX_HUMANS, MAX_HUMANS),
                Field("daleks", "Daleks kept (sum of values)", MAX_DALEKS, MAX_DALEKS),
                Field("rolls", f"rolls taken this turn (at most {ROLLS_SEEN} reported)", ROLLS_SEEN, ROLLS_SEEN),
            ]
        )

    def encode(self, state: DalekDiceState, observer: int) -> np.ndarray:
        rolled, kept, rolls = state.rolled, state.kept, state.rolls
        return self.layout.vector(
            [
                *self.race.values(state.race, observer),
                *DECISION_ONE_HOT[state.decision],
                *rolled,
                *kept,
                state.doctors,
                state.exterminates,
                state.to_reroll,
                state.to_reroll + sum(rolled),  # dice_left
                1 if state.kept_this_roll else 0,
                humans(kept),
                daleks(kept),
                rolls if rolls < ROLLS_SEEN else ROLLS_SEEN,  # min(), without the call
            ]
        )
