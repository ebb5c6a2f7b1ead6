"""The plain reference for the Dalek Dice observation, which ``tests/conformance/test_encoding.py``
checks the fast encoder (``dice_envs/dalek_dice/encoding.py``) against: the layout documented in
``docs/games/dalek_dice.md`` written out value by value, in field order, unscaled.
"""

from __future__ import annotations

from dice_envs.core.encoding import one_hot, relative_seats
from dice_envs.dalek_dice.encoding import ROLLS_SEEN
from dice_envs.dalek_dice.rules import Decision, DalekDice, DalekDiceState, daleks, dice_left, humans


def observation(game: DalekDice, state: DalekDiceState, observer: int) -> list[float]:
    race = state.race
    seats = relative_seats(observer, game.num_players)
    later = race.contenders[race.contenders.index(race.current) + 1 :] if race.current in race.contenders else []
    # Dalek Dice has no tiebreaker rounds, so the race's tiebreaker fields are left out.
    return [
        *(race.scores[seat] for seat in seats),  # own_score, opponent_scores
        *(1.0 if seat == race.current else 0.0 for seat in seats),  # to_play
        *(1.0 if seat in later else 0.0 for seat in seats),  # still_to_play
        1.0 if race.final_round else 0.0,  # final_round
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
