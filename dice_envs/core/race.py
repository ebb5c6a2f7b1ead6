"""Race to a target score: the turn order and ending shared by the push-your-luck games.

Players take turns in seat order, ``player_0`` first.  When someone reaches the target the round
is finished, so everyone has had the same number of turns; then the highest score wins.  If the
leaders are tied, only they play further (tiebreaker) rounds until one leads at the end of a
round; after ``max_tiebreak_rounds`` such rounds the tied leaders share the win.  A game without
tiebreaker rounds (``max_tiebreak_rounds=0``) ends in a shared win at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dice_envs.core.encoding import Field, opponent_labels, relative_seats, seat_labels
from dice_envs.core.engine import TERMINAL
from dice_envs.core.state import GameState


@dataclass
class Race(GameState):
    scores: list[int]
    current: int
    """Seat taking its turn, or ``TERMINAL`` once the game is over."""
    round: int
    """1-based number of the round being played (tiebreaker rounds included)."""
    final_round: bool
    """Someone has reached the target: this is the last regular round."""
    contenders: list[int]
    """Seats that play this round, in order: everyone, or the tied leaders in a tiebreaker."""
    tiebreak_rounds: int
    """Tiebreaker rounds started so far."""
    winners: list[int]

    @classmethod
    def new(cls, num_players: int) -> "Race":
        return cls(
            scores=[0] * num_players,
            current=0,
            round=1,
            final_round=False,
            contenders=list(range(num_players)),
            tiebreak_rounds=0,
            winners=[],
        )

    @property
    def over(self) -> bool:
        return self.current == TERMINAL

    @property
    def in_tiebreak(self) -> bool:
        return self.tiebreak_rounds > 0


def draw_start_scores(race: Race, target: int, rng: np.random.Generator) -> None:
    """Give every seat a score drawn uniformly below ``target``, at the start of a regular round.

    Every such position can arise in play; training uses them to see end-game positions, which
    whole games from 0 reach only once each (``random_start_scores`` in ``training``).
    """
    if race.round != 1 or race.over or any(race.scores):
        raise ValueError("start scores are drawn for a new game only")
    race.scores = [int(score) for score in rng.integers(target, size=len(race.scores))]


def end_turn(race: Race, points: int, target: int, max_tiebreak_rounds: int) -> None:
    """Score the current player's turn and pass play on, ending rounds and the game as needed."""
    seat = race.current
    race.scores[seat] += points
    if race.scores[seat] >= target:
        race.final_round = True
    position = race.contenders.index(seat)
    if position + 1 < len(race.contenders):
        race.current = race.contenders[position + 1]
        return
    _end_round(race, max_tiebreak_rounds)


def _end_round(race: Race, max_tiebreak_rounds: int) -> None:
    if not race.final_round:
        race.round += 1
        race.current = race.contenders[0]
        return
    best = max(race.scores[seat] for seat in race.contenders)
    leaders = [seat for seat in race.contenders if race.scores[seat] == best]
    if len(leaders) == 1 or race.tiebreak_rounds >= max_tiebreak_rounds:
        race.winners = leaders
        race.current = TERMINAL
        return
    race.tiebreak_rounds += 1
    race.round += 1
    race.contenders = leaders
    race.current = leaders[0]


class RaceEncoding:
    """Observation fields for the race, from the observer's point of view.

    The tiebreaker fields are left out of games that have no tiebreaker rounds.
    """

    def __init__(self, num_players: int, target: int, max_turn_points: int, max_tiebreak_rounds: int) -> None:
        self.max_tiebreak_rounds = max_tiebreak_rounds
        # Highest reachable score: one turn from just under the target, plus every tiebreaker turn.
        max_score = target - 1 + max_turn_points * (1 + max_tiebreak_rounds)
        self._seats_seen_by = [relative_seats(observer, num_players) for observer in range(num_players)]
        seats = seat_labels(num_players)
        self.fields = [
            Field("own_score", "observer's score", max_score, target),
            Field("opponent_scores", "opponents' scores, in turn order after the observer", max_score, target, opponent_labels(num_players)),
            Field("to_play", "1 for the seat whose turn it is (self, then opponents in turn order)", 1, 1, seats),
            Field("still_to_play", "1 for each seat that takes a turn later in this round", 1, 1, seats),
            Field("final_round", "1 once someone has reached the target: this round is the last", 1),
        ]
        if max_tiebreak_rounds:
            self.fields += [
                Field("contending", "1 for each seat still playing rounds (all, or the tied leaders in a tiebreaker)", 1, 1, seats),
                Field("tiebreak_rounds", "tiebreaker rounds started", max_tiebreak_rounds, max_tiebreak_rounds),
            ]

    def raw(self, race: Race, observer: int) -> list[float]:
        seats = self._seats_seen_by[observer]
        later = race.contenders[race.contenders.index(race.current) + 1 :] if race.current in race.contenders else []
        values = [
            *(race.scores[seat] for seat in seats),
            *(1.0 if seat == race.current else 0.0 for seat in seats),
            *(1.0 if seat in later else 0.0 for seat in seats),
            1.0 if race.final_round else 0.0,
        ]
        if self.max_tiebreak_rounds:
            values += [*(1.0 if seat in race.contenders else 0.0 for seat in seats), race.tiebreak_rounds]
        return values
