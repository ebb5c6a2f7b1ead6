"""Checks that a saved state is a position the rules can reach, with one-line errors.

``GameState.from_dict`` / ``from_json`` run the state's own ``validate`` (what the state alone
shows: ranges, conserved counts, cards and faces that exist, the pending decision's fields);
``Game.check_state`` adds what depends on the game's parameters (player count, target, rounds,
supply) and checks that the pending decision has an owner and legal actions;
``DiceGameEnv.set_state`` runs it before it changes anything.  Each game's validator is in
``dice_envs/<game>/validation.py``, built from the helpers here (and, for the race games, those of
``validation_race``).  Every error names the field
path and the broken constraint, e.g. ``DinoHuntState.cup[0]: must be between 0 and 5, got -1``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence, Sized
from typing import Any

from dice_envs.core.state import StateFormatError


class InvalidStateError(StateFormatError):
    """A well-formed state that breaks what the rules guarantee (a position play cannot reach)."""


def fail(where: str, constraint: str) -> None:
    """Raise ``InvalidStateError("where: constraint")``."""
    raise InvalidStateError(f"{where}: {constraint}")


def require(condition: bool, where: str, constraint: str) -> None:
    if not condition:
        fail(where, constraint)


def _bounds(low: int, high: int | None) -> str:
    return f"between {low} and {high}" if high is not None else f"at least {low}"


def require_range(where: str, value: int, low: int, high: int | None = None) -> None:
    """``low <= value <= high`` (no upper bound when ``high`` is None)."""
    if value < low or (high is not None and value > high):
        fail(where, f"must be {_bounds(low, high)}, got {value}")


def require_ranges(where: str, values: Sequence[int], low: int, high: int | None = None) -> None:
    """Every item in range; the error names the item (``where[i]``)."""
    if not values or (min(values) >= low and (high is None or max(values) <= high)):
        return
    for index, value in enumerate(values):
        if value < low or (high is not None and value > high):
            fail(f"{where}[{index}]", f"must be {_bounds(low, high)}, got {value}")


def require_length(where: str, items: Sized, length: int, what: str = "items") -> None:
    if len(items) != length:
        fail(where, f"must have {length} {what}, got {len(items)}")


def require_max_length(where: str, items: Sized, length: int, what: str = "items") -> None:
    if len(items) > length:
        fail(where, f"must have at most {length} {what}, got {len(items)}")


def require_counts(where: str, items: Sequence[int], length: int, low: int = 0, high: int | None = None, what: str = "items") -> None:
    """A list of counts: its length, then every item in range."""
    require_length(where, items, length, what)
    require_ranges(where, items, low, high)


def require_one_of(where: str, value: Any, choices: Iterable[Any]) -> None:
    options = list(choices)
    if value not in options:
        fail(where, f"must be one of {', '.join(map(str, options))}, got {value}")


def require_equal(where: str, value: Any, expected: Any, why: str = "") -> None:
    if value != expected:
        fail(where, f"must be {expected}{f' ({why})' if why else ''}, got {value}")


def require_distinct(where: str, items: Sequence[Any]) -> None:
    seen = set()
    for index, item in enumerate(items):
        if item in seen:
            fail(f"{where}[{index}]", f"{item} appears twice")
        seen.add(item)


def require_conserved(what: str, total: int, parts: Mapping[str, int]) -> None:
    """The parts of a conserved count add up to ``total``: ``what: a + b + c must be 5, got 2 + 0 + 1 = 3``."""
    got = sum(parts.values())
    if got != total:
        fail(
            what,
            f"{' + '.join(parts)} must be {total}, got {' + '.join(str(v) for v in parts.values())} = {got}",
        )
