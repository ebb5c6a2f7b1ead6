"""The plain reference for the Dalek Dice observation, which ``tests/conformance/test_encoding.py``
checks the fast encoder (``dice_envs/dalek_dice/encoding.py``) against: the layout documented in
``docs/games/dalek_dice.md`` written out value by value, in field order, unscaled.
"""

from __future__ import annotations

from dice_envs.core.encoding import one_hot
from dice_envs.dalek_dice.encoding import ROLLS_SEEN
from dice_envs.dalek_dice.rules import DalekDice
from dice_envs.dalek_dice.state import DalekDiceState, Decision, daleks, dice_left, humans
from tests.race_reference import race_observation


def observation(game: DalekDice, state: DalekDiceState, observer: int) -> list[float]:
    return [
        *race_observation(state.race, observer, game.num_players, tiebreaks=False),  # no tiebreaker rounds
        *one_hot(state.decision, len(Decision)),  # decision
        *state.rolled,
        *state.kept,
        state.doctors,
        state.exterminates,
        state.to_reroll,
        dice_left(state),
        1.0 if state.kept_this_roll else 0.0,  # kept_this_roll
        humans(state.kept),
        daleks(state.kept),
        min(state.rolls, ROLLS_SEEN),  # rolls
    ]
