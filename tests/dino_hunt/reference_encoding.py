"""The plain reference for the Dino Hunt Dice observation, which ``tests/conformance/test_encoding.py``
checks the fast encoder (``dice_envs/dino_hunt/encoding.py``) against: the layout documented in
``docs/games/dino_hunt.md`` written out value by value, in field order, unscaled.
"""

from __future__ import annotations

from dice_envs.core.encoding import relative_seats
from dice_envs.dino_hunt.encoding import ROLLS_SEEN
from dice_envs.dino_hunt.rules import Decision, DinoHunt, DinoHuntState


def observation(game: DinoHunt, state: DinoHuntState, observer: int) -> list[float]:
    race = state.race
    seats = relative_seats(observer, game.num_players)
    later = race.contenders[race.contenders.index(race.current) + 1 :] if race.current in race.contenders else []
    values = [
        *(race.scores[seat] for seat in seats),  # own_score, opponent_scores
        *(1.0 if seat == race.current else 0.0 for seat in seats),  # to_play
        *(1.0 if seat in later else 0.0 for seat in seats),  # still_to_play
        1.0 if race.final_round else 0.0,  # final_round
    ]
    if game.params.max_tiebreak_rounds:
        values += [
            *(1.0 if seat in race.contenders else 0.0 for seat in seats),  # contending
            race.tiebreak_rounds,
        ]
    return [
        *values,
        1.0 if state.decision == Decision.FIRST_ROLL else 0.0,  # must_roll
        *state.dinos,
        *state.footprints,
        *state.leaves,
        *state.cup,
        sum(state.dinos),  # turn_dinos
        min(state.rolls, ROLLS_SEEN),  # rolls
    ]
