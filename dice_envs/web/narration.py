"""What a move did, in words, for the steps the ``dice-envs serve`` page plays back.

A move's label says what was chosen ("roll"); the outcome (the dice, a bust, a round's scoring)
happens inside the engine's ``apply``.  One small function per game reads it off the position
before and after the move, and the scores as the human's seat sees them (so nothing hidden from
that seat is said), and returns a ``Narration``.  Games without one say nothing more than the
label.  (The table may move into the game folders later, beside each game's picture.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from dice_envs.core.drawing import seat_name
from dice_envs.dice_age.state import Decision as DiceAgeDecision
from dice_envs.dino_hunt.state import TurnEnd


@dataclass(frozen=True)
class Narration:
    said: str | None = None
    """What the move did, beyond its label (a bust, a score), or ``None``."""
    scored: str | None = None
    """A scoring the move set off (a round's end), shown as a step of its own, or ``None``."""


Narrator = Callable[[Any, Any, int, Sequence[float], Sequence[float]], Narration]
"""(state before, state after, the mover's seat, scores before, scores after, as the human sees them)."""


def score_changes(before: Sequence[float], after: Sequence[float]) -> str:
    """``player_0 +120, player_1 +40``: every seat whose shown score changed."""
    changes = [f"{seat_name(seat)} {new - old:+g}" for seat, (old, new) in enumerate(zip(before, after)) if new != old]
    return ", ".join(changes) or "no points"


def dino_hunt(before: Any, after: Any, seat: int, scores_before: Sequence[float], scores_after: Sequence[float]) -> Narration:
    if after.rolls:  # the turn goes on
        return Narration()
    who, points = seat_name(seat), after.last_turn_points
    if after.last_turn_end == TurnEnd.STOMPED:
        return Narration(f"{who} rolled a third footprint: bust, scores nothing")
    if after.last_turn_end == TurnEnd.CUP_EMPTY:
        return Narration(f"{who} found all the dinosaurs: the leaves count, scores {points}")
    return Narration(f"{who} stopped and scores {points}")


def dice_age(before: Any, after: Any, seat: int, scores_before: Sequence[float], scores_after: Sequence[float]) -> Narration:
    ended = after.round != before.round or (after.decision == DiceAgeDecision.GAME_OVER != before.decision)
    if not ended:
        return Narration()
    winners = [winner for winner in after.last_awards if winner >= 0]
    prey = ", ".join(f"{seat_name(winner)} {winners.count(winner)}" for winner in sorted(set(winners))) or "nobody"
    return Narration(scored=f"Round {before.round} ends. Prey won (grounds and Extra Hunt): {prey}. Points: {score_changes(scores_before, scores_after)}")


NARRATORS: dict[str, Narrator] = {"dino_hunt": dino_hunt, "dice_age": dice_age}
"""Each game's narrator, by its name without the version."""


def narrate(env_name: str, before: Any, after: Any, seat: int, scores_before: Sequence[float], scores_after: Sequence[float]) -> Narration:
    narrator = NARRATORS.get(env_name.rsplit("_v", 1)[0])
    return narrator(before, after, seat, scores_before, scores_after) if narrator else Narration()
