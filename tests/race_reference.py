"""The plain reference for the race fields that open the Dino Hunt and Dalek Dice observations
(``RaceEncoding`` in ``dice_envs/core/race.py``): the documented layout value by value, unscaled,
for each game's ``reference_encoding.py`` to continue."""

from __future__ import annotations

from dice_envs.core.encoding import relative_seats
from dice_envs.core.race import Race


def race_observation(race: Race, observer: int, num_players: int, tiebreaks: bool) -> list[float]:
    """``tiebreaks``: whether the game plays tiebreaker rounds (Dalek Dice does not)."""
    seats = relative_seats(observer, num_players)
    later = race.contenders[race.contenders.index(race.current) + 1 :] if race.current in race.contenders else []
    values = [
        *(race.scores[seat] for seat in seats),  # own_score, opponent_scores
        *(1.0 if seat == race.current else 0.0 for seat in seats),  # to_play
        *(1.0 if seat in later else 0.0 for seat in seats),  # still_to_play
        1.0 if race.final_round else 0.0,  # final_round
    ]
    if tiebreaks:
        values += [
            *(1.0 if seat in race.contenders else 0.0 for seat in seats),  # contending
            race.tiebreak_rounds,
        ]
    return values
