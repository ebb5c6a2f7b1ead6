"""The plain reference for the Dino Hunt Dice observation, which ``tests/conformance/test_encoding.py``
checks the fast encoder (``dice_envs/dino_hunt/encoding.py``) against: the layout documented in
``docs/games/dino_hunt.md`` written out value by value, in field order, unscaled.
"""

from __future__ import annotations

from dice_envs.dino_hunt.encoding import ROLLS_SEEN
from dice_envs.dino_hunt.rules import DinoHunt
from dice_envs.dino_hunt.state import Decision, DinoHuntState
from tests.race_reference import race_observation


def observation(game: DinoHunt, state: DinoHuntState, observer: int) -> list[float]:
    return [
        *race_observation(state.race, observer, game.num_players, tiebreaks=game.params.max_tiebreak_rounds > 0),
        1.0 if state.decision == Decision.FIRST_ROLL else 0.0,  # must_roll
        *state.dinos,
        *state.footprints,
        *state.leaves,
        *state.cup,
        sum(state.dinos),  # turn_dinos
        min(state.rolls, ROLLS_SEEN),  # rolls
    ]
