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
"""

from __future__ import annotations

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
