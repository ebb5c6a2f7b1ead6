"""What one seat is shown of a game, beyond its observation and picture: the words for a move,
and the scores as that seat knows them.

Every surface a person reads (the web page's buttons and move list, ``dice-envs play``, replays)
takes its words and numbers from here, through ``DiceGameEnv.move_label`` and
``DiceGameEnv.seen_scores``, so that all of them show a seat the same things, and only what the
seat may know.  A game's ``view.py`` provides the two functions: ``move_label(game, state,
action, viewer)`` and, where some of a score is face down, ``seen_scores(game, state, viewer)``.

``state`` is the position the move is made in, so that a relative target ("the next seat")
resolves to a seat by its name; ``viewer`` is the seat the words are shown to, or ``None`` for
the spectator, who sees everything.

What a move set off (a bust, a conflict lost, a round's scoring) is its ``Narration``: a game's
``view.py`` provides ``narrate(before, after, seat, viewer, scores_before, scores_after)``, which
reads it off the positions before and after the move and says only what ``viewer`` may know; the
environment wires it in as it wires the labeller (``DiceGameEnv.narrate``), for the web page's
steps and the replays.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from dice_envs.core.drawing import seat_name

Viewer = int | None
"""The seat a view is for, or ``None``: the spectator."""
Score = float | str
"""A score as a seat knows it: the number, or words where part of it is face down ("690 + shells")."""


def table_label(game: Any, state: Any, action: int, viewer: Viewer) -> str:
    """The action table's own words: for moves that mean the same in every position."""
    return str(game.action_names[action])


def public_scores(game: Any, state: Any, viewer: Viewer) -> list[Score]:
    """Every score in full: for games where no part of a score is hidden."""
    return [float(score) for score in game.scores(state)]


def seat_after(seat: int, offset: int, num_players: int) -> str:
    """The name of the seat ``offset`` places after ``seat`` (the action tables count that way)."""
    return seat_name((seat + offset) % num_players)


def sees(viewer: Viewer, seat: int) -> bool:
    """Whether ``viewer`` sees what ``seat`` keeps to itself (its own things, or the spectator)."""
    return viewer is None or viewer == seat


def button_text(label: str) -> str:
    """A move's label as a button's text: its first letter capitalised, the rest as it is."""
    return label[:1].upper() + label[1:]


@dataclass(frozen=True)
class Narration:
    said: str | None = None
    """What the move did, beyond its label (a bust, a conflict lost), or ``None``."""
    scored: str | None = None
    """A scoring the move set off (a round's end), shown as a step of its own, or ``None``."""


Narrator = Callable[[Any, Any, int, Viewer, Sequence[Score], Sequence[Score]], Narration]
"""(state before, state after, the mover's seat, the seat told, scores before and after as that seat sees them)."""


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

    def narrate_turn(before: Any, after: Any, seat: int, viewer: Viewer, scores_before: Sequence[Score], scores_after: Sequence[Score]) -> Narration:
        if after.race.current == seat:  # the turn goes on
            return Narration()
        return Narration(words[after.last_turn_end].format(who=seat_name(seat), points=after.last_turn_points))

    return narrate_turn


def no_narration(before: Any, after: Any, seat: int, viewer: Viewer, scores_before: Sequence[Score], scores_after: Sequence[Score]) -> Narration:
    """Nothing beyond the label: for a game whose moves set nothing off worth saying."""
    return Narration()


def sentences(*parts: str | None) -> str | None:
    """The parts that say something, as one text (``None`` if none does)."""
    said = [part for part in parts if part]
    return " ".join(said) if said else None
