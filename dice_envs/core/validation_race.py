"""What the turn order tells about a race game's scores and its last turn (Dino Hunt, Dalek Dice).

``dice_envs.core.race.validate_race`` checks the race on its own; these checks add what the turns
taken so far allow, with the game's highest score a turn can bring: a seat that has not had its
turn yet in round 1 has scored nothing, no seat has more than its turns times that score, and the
game's record of the last turn fits the seat that took it.
"""

from __future__ import annotations

from enum import IntEnum

from dice_envs.core.race import Race
from dice_envs.core.validation import fail


def turns_taken(race: Race, seat: int) -> int:
    """The most turns ``seat`` can have taken: one a round, this round's once play has passed it
    (exact outside tiebreakers; a seat out of a tiebreaker has taken fewer)."""
    if race.over:
        return race.round
    played_this_round = seat in race.contenders[: race.contenders.index(race.current)]
    return race.round - 1 + int(played_this_round)


def last_to_play(race: Race) -> int | None:
    """The seat whose turn ended last, where the race shows it; None before the first turn, or at
    the start of a later tiebreaker (the previous one's contenders are not kept)."""
    contenders = race.contenders
    if race.over:
        return contenders[-1]
    position = contenders.index(race.current)
    if position:
        return contenders[position - 1]
    if race.round == 1 or race.tiebreak_rounds > 1:
        return None
    return len(race.scores) - 1  # the last seat ended the previous round, a regular one


def validate_turns(where: str, race: Race, max_turn_points: int, last_turn_end: IntEnum, last_turn_points: int) -> None:
    """Scores within the turns taken (``turns_taken``), and the last turn (how it ended, member 0
    of the game's ``TurnEnd`` for none, and its points) recorded exactly once a turn has ended.
    Run after ``validate_race``: ``race.current`` is a contender or the game is over."""
    for seat, score in enumerate(race.scores):
        turns = turns_taken(race, seat)
        if score > turns * max_turn_points:
            fail(
                f"{where}.race.scores[{seat}]",
                f"at most {max_turn_points} points a turn: {turns * max_turn_points} in the {turns} turns player_{seat} has had by round {race.round}, got {score}",
            )
    first_turn = race.round == 1 and not race.over and race.current == race.contenders[0]
    if first_turn != (last_turn_end == 0):
        if first_turn:
            fail(f"{where}.last_turn_end", f"no turn has ended before the first, got {last_turn_end.name}")
        fail(f"{where}.last_turn_end", f"is {type(last_turn_end)(0).name} only before the first turn ends, got it in round {race.round}")
    last = last_to_play(race)
    if last is not None and race.scores[last] < last_turn_points:
        fail(
            f"{where}.last_turn_points",
            f"player_{last} took the last turn and has {race.scores[last]} points in all, got {last_turn_points} for that turn",
        )
