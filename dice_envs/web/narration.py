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
from dice_envs.core.view import Score
from dice_envs.dalek_dice.state import TurnEnd as DalekTurnEnd
from dice_envs.dice_age.state import Decision as DiceAgeDecision
from dice_envs.dino_hunt.state import TurnEnd as DinoTurnEnd


@dataclass(frozen=True)
class Narration:
    said: str | None = None
    """What the move did, beyond its label (a bust, a score), or ``None``."""
    scored: str | None = None
    """A scoring the move set off (a round's end), shown as a step of its own, or ``None``."""


Narrator = Callable[[Any, Any, int, Sequence[Score], Sequence[Score]], Narration]
"""(state before, state after, the mover's seat, scores before, scores after, as the human sees them)."""


def score_changes(before: Sequence[Score], after: Sequence[Score]) -> str:
    """``player_0 +120, player_1 now 690 + shells``: every seat whose shown score changed, by how
    much where the seat knows it, else the score as shown (part of it is face down)."""
    changes = []
    for seat, (old, new) in enumerate(zip(before, after)):
        if new == old:
            continue
        if isinstance(old, (int, float)) and isinstance(new, (int, float)):
            changes.append(f"{seat_name(seat)} {new - old:+g}")
        else:
            changes.append(f"{seat_name(seat)} now {new}")
    return ", ".join(changes) or "no points"


def race_turn_end(words: dict[Any, str]) -> Narrator:
    """The narrator of a push-your-luck race (Dino Hunt, Dalek Dice): once a turn passes, how it
    ended (``words`` by the game's ``TurnEnd``, with ``{who}`` and ``{points}``)."""

    def narrate_turn(before: Any, after: Any, seat: int, scores_before: Sequence[Score], scores_after: Sequence[Score]) -> Narration:
        if after.race.current == seat:  # the turn goes on
            return Narration()
        return Narration(words[after.last_turn_end].format(who=seat_name(seat), points=after.last_turn_points))

    return narrate_turn


dino_hunt = race_turn_end(
    {
        DinoTurnEnd.STOPPED: "{who} stopped and scores {points}",
        DinoTurnEnd.STOMPED: "{who} rolled a third footprint: bust, scores nothing",
        DinoTurnEnd.CUP_EMPTY: "{who} found all the dinosaurs: the leaves count too, scores {points}",
    }
)
dalek_dice = race_turn_end(
    {
        DalekTurnEnd.STOPPED: "{who} stopped and scores {points}",
        DalekTurnEnd.NO_DICE_LEFT: "{who} kept every die: scores {points}",
        DalekTurnEnd.DOCTOR: "{who} rolled a third Doctor: bust, scores nothing",
        DalekTurnEnd.EXTERMINATE: "{who} rolled a third Exterminate!: the Humans count double, scores {points}",
    }
)


def dice_age(before: Any, after: Any, seat: int, scores_before: Sequence[Score], scores_after: Sequence[Score]) -> Narration:
    ended = after.round != before.round or (after.decision == DiceAgeDecision.GAME_OVER != before.decision)
    if not ended:
        return Narration()
    winners = [winner for winner in after.last_awards if winner >= 0]
    prey = ", ".join(f"{seat_name(winner)} {winners.count(winner)}" for winner in sorted(set(winners))) or "nobody"
    return Narration(scored=f"Round {before.round} ends. Prey won (grounds and Extra Hunt): {prey}. Points: {score_changes(scores_before, scores_after)}")


NARRATORS: dict[str, Narrator] = {"dino_hunt": dino_hunt, "dalek_dice": dalek_dice, "dice_age": dice_age}
"""Each game's narrator, by its name without the version."""


def narrate(env_name: str, before: Any, after: Any, seat: int, scores_before: Sequence[Score], scores_after: Sequence[Score]) -> Narration:
    narrator = NARRATORS.get(env_name.rsplit("_v", 1)[0])
    return narrator(before, after, seat, scores_before, scores_after) if narrator else Narration()
