"""Race to a target score: the turn order and ending shared by the push-your-luck games.

Players take turns in seat order, ``player_0`` first.  When someone reaches the target the round
is finished, so everyone has had the same number of turns; then the highest score wins.  If the
leaders are tied, only they play further (tiebreaker) rounds until one leads at the end of a
round; after ``max_tiebreak_rounds`` such rounds the tied leaders share the win.  A game without
tiebreaker rounds (``max_tiebreak_rounds=0``) ends in a shared win at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from dice_envs.core.encoding import Field, opponent_labels, relative_seats, seat_labels
from dice_envs.core.engine import TERMINAL
from dice_envs.core.state import GameState
from dice_envs.core.validation import fail, require_range, require_ranges


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
    def new(cls, num_players: int) -> Race:
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

    Training uses them to see end-game positions, which whole games from 0 reach only once each
    (``random_start_scores`` in ``training``).  They are a curriculum, not positions of play: in
    round 1 no seat has scored before its first turn, so a saved state of one is refused on load
    (``dice_envs.core.validation_race``), and training never saves one.
    """
    if race.round != 1 or race.over or any(race.scores):
        raise ValueError("start scores are drawn for a new game only")
    race.scores = [int(score) for score in rng.integers(target, size=len(race.scores))]


def end_turn(race: Race, points: int, target: int, max_tiebreak_rounds: int) -> None:
    """Score the current player's turn and pass play on, ending rounds and the game as needed."""
    seat = race.current
    scores = race.scores
    scores[seat] += points
    if scores[seat] >= target:
        race.final_round = True
    contenders = race.contenders
    if seat == contenders[-1]:
        _end_round(race, max_tiebreak_rounds)
    else:
        race.current = contenders[contenders.index(seat) + 1]


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


def validate_race_game(where: str, race: Race, game_over: bool, min_players: int, max_players: int) -> None:
    """What a race game's state must show whatever its dice: a player count in range, a
    consistent race (``validate_race``), and the game over exactly when the race says so."""
    n = len(race.scores)
    if not min_players <= n <= max_players:
        fail(f"{where}.race.scores", f"must have one score per player ({min_players} to {max_players}), got {n}")
    validate_race(race, f"{where}.race")
    if game_over != (race.current == TERMINAL):
        fail(f"{where}.decision", f"is GAME_OVER exactly when race.current is {TERMINAL}, got race.current {race.current}")


def validate_race(race: Race, where: str = "race") -> None:
    """What the race alone guarantees: scores, the round, the contenders, whose turn it is, the
    tiebreaker and the winners, consistent with each other (see the module docstring)."""
    n = len(race.scores)
    require_ranges(f"{where}.scores", race.scores, 0)
    require_range(f"{where}.tiebreak_rounds", race.tiebreak_rounds, 0)
    require_range(f"{where}.round", race.round, 1 + race.tiebreak_rounds)
    contenders = race.contenders
    require_ranges(f"{where}.contenders", contenders, 0, n - 1)
    if not all(a < b for a, b in pairwise(contenders)):
        fail(f"{where}.contenders", f"must be distinct seats in seat order, got {contenders}")
    if race.tiebreak_rounds:
        if not race.final_round:
            fail(f"{where}.tiebreak_rounds", "tiebreaker rounds come only after the final round")
        if len(contenders) < 2:
            fail(f"{where}.contenders", f"a tiebreaker is played by 2 or more tied leaders, got {contenders}")
    else:
        if contenders != list(range(n)):
            fail(f"{where}.contenders", f"every seat plays until a tiebreaker, got {contenders}")
    if race.current == TERMINAL:
        if not race.final_round:
            fail(f"{where}.current", "the game ends only after its final round")
        best = max(race.scores[seat] for seat in contenders)
        leaders = [seat for seat in contenders if race.scores[seat] == best]
        if race.winners != leaders:
            fail(f"{where}.winners", f"must be the leaders {leaders} of a finished game, got {race.winners}")
        if race.tiebreak_rounds:
            # The last tiebreaker began with the contenders tied above everyone else.
            _outside_below(race, contenders, min(race.scores[seat] for seat in contenders), where)
        return
    if race.current not in contenders:
        fail(f"{where}.current", f"must be one of the contenders {contenders} or {TERMINAL} (game over), got {race.current}")
    if race.winners:
        fail(f"{where}.winners", f"must be empty before the game ends, got {race.winners}")
    if race.tiebreak_rounds:
        # Every contender began this round on the tied leaders' score; those who have played may have more.
        position = contenders.index(race.current)
        tied = race.scores[race.current]
        for seat in contenders[position:]:
            if race.scores[seat] != tied:
                fail(f"{where}.scores[{seat}]", f"must be the tied score {tied} until its tiebreaker turn, got {race.scores[seat]}")
        for seat in contenders[:position]:
            if race.scores[seat] < tied:
                fail(f"{where}.scores[{seat}]", f"must be at least the tied score {tied}, got {race.scores[seat]}")
        _outside_below(race, contenders, tied, where)


def _outside_below(race: Race, contenders: list[int], bound: int, where: str) -> None:
    """Every seat out of the tiebreaker scored below ``bound``, the contenders' tied score."""
    for seat, score in enumerate(race.scores):
        if seat not in contenders and score >= bound:
            fail(f"{where}.scores[{seat}]", f"a seat out of the tiebreaker must be below {bound}, got {score}")


def check_race(race: Race, where: str, num_players: int, target: int, max_turn_points: int, max_tiebreak_rounds: int) -> None:
    """What the race guarantees with these parameters (after ``validate_race``): the player count,
    the target, the highest score a turn can bring, and the tiebreaker rounds allowed."""
    if len(race.scores) != num_players:
        fail(f"{where}.scores", f"has {len(race.scores)} players, the game has {num_players}")
    require_range(f"{where}.tiebreak_rounds", race.tiebreak_rounds, 0, max_tiebreak_rounds)
    highest = target - 1 + max_turn_points * (1 + race.tiebreak_rounds)
    require_ranges(f"{where}.scores", race.scores, 0, highest)
    if race.current == TERMINAL:
        best = max(race.scores[seat] for seat in race.contenders)
        if best < target:
            fail(f"{where}.scores", f"a finished game has a score of at least the target {target}, got {race.scores}")
        if race.tiebreak_rounds:
            lowest = min(race.scores[seat] for seat in race.contenders)
            if lowest < target:
                fail(f"{where}.scores", f"tiebreakers are played by leaders tied at the target {target} or more, got {race.scores}")
        if len(race.winners) > 1 and race.tiebreak_rounds != max_tiebreak_rounds:
            fail(
                f"{where}.winners",
                f"a shared win comes only after {max_tiebreak_rounds} tiebreaker rounds, got {race.tiebreak_rounds}",
            )
        return
    if race.tiebreak_rounds:
        tied = race.scores[race.current]
        if tied < target:
            fail(f"{where}.scores[{race.current}]", f"tied leaders have reached the target {target}, got {tied}")
        return
    # A regular round: everyone was below the target when it began; the seats yet to play still are.
    reached = [seat for seat in range(race.current) if race.scores[seat] >= target]
    for seat in range(race.current, num_players):
        if race.scores[seat] >= target:
            fail(f"{where}.scores[{seat}]", f"must be below the target {target} until its turn of this round, got {race.scores[seat]}")
    if race.final_round and not reached:
        fail(f"{where}.final_round", f"is set only once a player has reached the target {target}")
    if reached and not race.final_round:
        fail(f"{where}.final_round", f"must be set: player_{reached[0]} has reached the target {target}")


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
        # Outside tiebreakers everyone contends, so the fields after the scores depend only on the
        # observer, the final round and the seat to play: worked out once here for every such case.
        everyone = list(range(num_players))
        self._regular_rounds = [
            [
                {current: self._after_scores(seats, current, final_round, everyone, 0) for current in (*everyone, TERMINAL)}
                for final_round in (False, True)
            ]
            for seats in self._seats_seen_by
        ]

    def values(self, race: Race, observer: int) -> list[int]:
        """The race fields' raw values in layout order, as a new list for the game's own to follow
        (whole numbers: ``ObservationLayout.vector`` reads them fastest)."""
        scores = race.scores
        values = scores[observer:] + scores[:observer]  # in relative_seats order: the observer, then turn order
        if race.tiebreak_rounds:
            values += self._after_scores(self._seats_seen_by[observer], race.current, race.final_round, race.contenders, race.tiebreak_rounds)
        else:
            values += self._regular_rounds[observer][race.final_round][race.current]
        return values

    def _after_scores(self, seats: list[int], current: int, final_round: bool, contenders: list[int], tiebreak_rounds: int) -> tuple[int, ...]:
        """The fields after the scores, for the observer who sees the seats in this order."""
        later = contenders[contenders.index(current) + 1 :] if current in contenders else []
        values = [
            *(int(seat == current) for seat in seats),
            *(int(seat in later) for seat in seats),
            int(final_round),
        ]
        if self.max_tiebreak_rounds:
            values += [*(int(seat in contenders) for seat in seats), tiebreak_rounds]
        return tuple(values)
